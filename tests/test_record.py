"""The game record (M14 notation with piece letters, PGN-style tags)."""
import random

import pytest

from maxima_board.rules import Position, START_FEN
from maxima_board.rules.record import GameRecord, RecordError


def _random_game(seed: int, plies: int, fen: str = "start") -> Position:
    rng = random.Random(seed)
    position = Position(fen)
    for _ in range(plies):
        moves = position.legal_moves
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


@pytest.mark.parametrize("seed", range(5))
def test_M14_record_round_trips_moves_and_tags(seed):
    played = _random_game(seed, 30)
    record = GameRecord.from_position(played, Event="Club night", White="Ann", Black='Bo "B" B')
    text = record.to_text()
    back = GameRecord.from_text(text)
    assert back.moves == [str(m) for m in played.move_stack]
    assert back.tags["Black"] == 'Bo "B" B'
    assert back.tags["Variant"] == "Maxima"
    assert "FEN" not in back.tags
    assert back.replay().fen() == played.fen()


def test_M14_record_moves_carry_upper_case_piece_letters():
    position = Position()
    position.push("b3-b6")    # a White Pawn
    position.push("a7-a6")    # a Black Guard
    text = GameRecord.from_position(position).to_text()
    assert "1. Pb3-b6 Da7-a6" in text


def test_record_with_fen_tag_starts_there_and_numbers_black_first():
    fen = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx b 0"
    position = Position(fen)
    position.push("b7-b4")
    record = GameRecord.from_position(position)
    assert record.tags["FEN"] == fen
    text = record.to_text()
    assert "1... Pb7-b4 *" in text
    assert GameRecord.from_text(text).replay().fen() == position.fen()


def test_record_rejects_first_illegal_move_with_its_number():
    text = '[Variant "Maxima"]\n\n1. Pb3-b5 Pb7-b6 2. Pb5-b7 *\n'
    with pytest.raises(RecordError, match=r"move 2\. b5-b7"):
        GameRecord.from_text(text).replay()


def test_record_rejects_a_wrong_piece_letter():
    with pytest.raises(RecordError, match="is P, not Q"):
        GameRecord.from_text("1. Qb3-b6 *").replay()


def test_record_rejects_malformed_tag_line():
    with pytest.raises(RecordError, match="line 1: malformed tag"):
        GameRecord.from_text('[Event "unterminated]\n1. Pb3-b6 *')


def test_record_reads_comments_and_result():
    record = GameRecord.from_text('[Result "1-0"]\n1. Pb3-b6 {a quiet start} Pb7-b5 1-0')
    assert record.moves == ["b3-b6", "b7-b5"]
    assert record.result == "1-0"
    assert record.start_fen == START_FEN
