"""Game records of every game (issue 8): [Variant "<title>"] before [FEN],
read back only under the record's own variant."""
import random

import pytest

from maxima_board.rules import Position, variants
from maxima_board.rules.record import GameRecord, RecordError


def played(variant: str, plies: int, seed: int = 3) -> Position:
    rng = random.Random(seed)
    p = Position("start", variant)
    for _ in range(plies):
        if not p.legal_moves or p.outcome():
            break
        p.push(rng.choice(p.legal_moves))
    return p


@pytest.mark.parametrize("variant", variants.names())
def test_record_round_trips_under_its_own_variant(variant):
    p = played(variant, 30)
    record = GameRecord.from_position(p, White="A", Black="B")
    text = record.to_text()
    # O15: an Optima record says Variant "Optima" and gives the board in its own tag
    title = "Optima" if p.variant.family == "optima" else p.variant.title
    assert f'[Variant "{title}"]' in text
    back = GameRecord.from_text(text)
    assert back.variant is p.variant
    assert back.moves == [str(m) for m in p.move_stack]
    assert back.replay().fen() == p.fen()
    assert back.replay(variant).fen() == p.fen()


def test_variant_tag_comes_before_the_fen_tag():
    start = Position("5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1", "immobilizer-chess")
    start.push("f1-i1")
    text = GameRecord.from_position(start).to_text()
    lines = text.splitlines()
    assert lines.index('[Variant "Immobilizer Chess"]') < lines.index(
        '[FEN "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"]')
    assert "1. Kf1-i1 *" in text
    assert GameRecord.from_text(text).replay().fen() == start.fen()


def test_record_is_refused_under_another_variant():
    record = GameRecord.from_text(GameRecord.from_position(played("ultima", 6)).to_text())
    with pytest.raises(RecordError, match="game of Ultima, not Ultima \\(pure\\)"):
        record.replay("ultima-pure")
    with pytest.raises(RecordError, match="not Maxima"):
        record.replay("maxima")


def test_unknown_variant_tag_is_an_error():
    record = GameRecord.from_text('[Variant "Chess960"]\n\n1. e2-e4 *\n')
    with pytest.raises(RecordError, match="unknown game 'Chess960'"):
        record.replay()


def test_swap_destruction_and_promotion_moves_read_back():
    p = Position("k9/10/10/10/1ppp6/1pS4s2/1ppp6/10/10/9K w - - 0 1 -", "swapper-chess")
    p.push("c5<>h5")
    p.push("a10-a9")
    text = GameRecord.from_position(p).to_text()
    assert "1. Sc5<>h5 Ka10-a9" in text
    assert GameRecord.from_text(text).replay().fen() == p.fen()
    q = Position("3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1", "withdrawer-chess")
    q.push("c9-d10xd10=W")
    text = GameRecord.from_position(q).to_text()
    assert "1. Pc9-d10xd10=W" in text
    assert GameRecord.from_text(text).replay().fen() == q.fen()


def test_wrong_piece_letter_is_reported_D17():
    text = '[Variant "Coordinator Chess"]\n\n1. Ne2-e4 *\n'
    with pytest.raises(RecordError, match="the piece on e2 is P, not N"):
        GameRecord.from_text(text).replay()
