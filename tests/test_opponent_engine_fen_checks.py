"""The compiled engine refuses the FENs the Python engine refuses (a UCI GUI may
send anything): O15/O16 for Optima, M15, U14 and D18 for the other games.
A refused FEN gives ``error WHAT`` in the batch modes and ``info string error
bad fen: WHAT`` over UCI, and the UCI position stays what it was."""
from __future__ import annotations

import random
import re

import pytest

from maxima_board.rules import FenError, Position, variants

from . import test_fen, test_optima_fen, test_rules_deckle, test_rules_ultima
from .conftest import fen_of
from .opponent_engine import Uci, engine_binary, run_batch  # noqa: F401 (fixture)
from .opponent_optima_positions import game_positions, zoo_positions
from .opponent_positions import playout_positions


def params(test) -> list:
    """The values a parametrized test of another module runs with (its cases, not copied)."""
    return [mark.args[1] for mark in test.pytestmark if mark.name == "parametrize"][0]


def python_refuses(fen: str, variant: str) -> str | None:
    try:
        Position(fen, variant)
    except FenError as exc:
        return str(exc)
    return None


def engine_answers(binary, variant: str, fens: list[str]) -> list[str]:
    return run_batch(binary, "moves", variant, fens)


# ------------------------------------------------------------------ Optima (O15, O16)
PAWNS_10 = test_optima_fen.PAWNS_10
OPTIMA_BAD = (
    [(fen, message) for fen, message in test_optima_fen.BAD]
    + [(fen, message) for fen, message in params(test_optima_fen.test_O2_O16_bad_tokens_are_rejected_naming_the_rank)]
    + [(f"vr*9/{PAWNS_10}/9VR* w - {rules} 0", message)
       for rules, message in params(test_optima_fen.test_O14_O16_bad_rules_fields_are_rejected)]
    + [(f"vr*8{token}/{PAWNS_10}/9VR* w - - 0", "can never be royal")
       for token in params(test_optima_fen.test_O2_O16_pawn_guard_wizard_are_never_royal)]
    + [("4ke*vr*4/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPNPN/"
        "GDGDGDGDGDGDGDGDGDGD/4VR*5 w u2:AGAMARBACECHDAFAGEHEJUKE*MAQURESPTO - 3", "rank 3 is longer than 10 cells")]
)


@pytest.mark.parametrize("fen, message", OPTIMA_BAD, ids=[m for _, m in OPTIMA_BAD])
def test_O16_every_fen_the_python_engine_refuses_the_compiled_engine_refuses(engine_binary, fen, message):  # noqa: F811
    """Each invalid FEN of tests/test_optima_fen.py: both engines refuse it, saying the same thing."""
    said = python_refuses(fen, "optima")
    assert said is not None and re.search(message, said), said
    line = engine_answers(engine_binary, "optima", [fen])[0]
    assert line.startswith("error ") and re.search(message, line), line


@pytest.mark.parametrize("fen", ["vr*9/\u00b210/10/10/10/10/10/10/10/9VR* w - - 0",
                                 "vr*9/10/10/10/10/10/10/10/10/9VR* w - - \u00b2",
                                 "vr*9/10/10/10/\u00e9a9/10/10/10/10/9VR* w - - 0"])
def test_O15_O16_a_non_ascii_character_is_a_fen_error_in_both_engines(engine_binary, fen):  # noqa: F811
    """'\u00b2' is a digit to str.isdigit() (the Python board reader raised int()'s ValueError,
    not FenError); the engine's message stays ASCII (it printed half a UTF-8 character)."""
    with pytest.raises(FenError):
        Position(fen, "optima")
    line = engine_answers(engine_binary, "optima", [fen])[0]
    assert line.startswith("error ") and line.isascii(), line


def _assert_accepted_with_their_children(engine_binary, variant, cases, every, least):
    """The engine reads every (fen, python_moves) case with Python's moves; the FENs after the legal
    moves of every ``every``-th case (at least ``least`` of them) get the same verdict from both
    engines (a move may end the game: then Python refuses too)."""
    got = engine_answers(engine_binary, variant, [fen for fen, _ in cases])
    for (fen, moves), line in zip(cases, got):
        assert line.split() == moves, fen
    children = run_batch(engine_binary, "children", variant, [fen for fen, _ in cases[::every]],
                         blank_separated=True)
    after = [line.split(" ", 1)[1] for block in children for line in block]
    assert len(after) > least
    assert_same_verdicts(engine_binary, variant, after)


def test_O16_the_fens_of_random_games_and_of_every_move_are_accepted(engine_binary):  # noqa: F811
    """Valid FENs (placement and movement phases, every kind of forces, all 56 unit types, rules
    options): accepted, with Python's moves; the FEN after every legal move of some of them: as Python."""
    for variant in ("optima", "optima-9x9"):
        cases = game_positions(variant, 300, 41) + zoo_positions(variant, 100, 41)
        _assert_accepted_with_their_children(engine_binary, variant, cases, every=10, least=100)


OPTIMA_ALPHABET = "0123456789/ *-:,=wbeqquUAaRrVvPpNnGgDdWwIiEeCcKkHh\u00b2\u00e9"


def mutants(base: list[str], alphabet: str, count: int, seed: int) -> list[str]:
    """``count`` texts made from ``base`` by one to three random insertions, replacements or deletions."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = rng.choice(base)
        for _ in range(rng.randint(1, 3)):
            at, kind, ch = rng.randint(0, len(text)), rng.randint(0, 2), rng.choice(alphabet)
            text = (text[:at] + ch + text[at:], text[:at] + ch + text[at + 1:], text[:at] + text[at + 1:])[kind]
        out.append(text)
    return out


def assert_same_verdicts(binary, variant: str, texts: list[str]) -> int:
    """Each text is refused by both engines or by neither; returns how many were refused."""
    got = engine_answers(binary, variant, texts)
    wrong, refused = [], 0
    for text, line in zip(texts, got):
        said = python_refuses(text, variant)
        refused += said is not None
        if (said is not None) != line.startswith("error "):
            wrong.append(f"{text!r}: Python {said or 'accepts'}; engine {line[:80]!r}")
    assert not wrong, f"{len(wrong)} of {len(texts)} differ: " + " | ".join(wrong[:5])
    return refused


@pytest.mark.parametrize("variant", ["optima", "optima-9x9"])
def test_O16_random_edits_of_valid_fens_are_refused_by_both_engines_or_by_neither(engine_binary, variant):  # noqa: F811
    base = [fen for fen, _ in game_positions(variant, 60, 5)]
    texts = [t for t in mutants(base, OPTIMA_ALPHABET, 1500, 16) if t.strip() and "\n" not in t]
    refused = assert_same_verdicts(engine_binary, variant, texts)
    assert 0 < refused < len(texts)


def test_O16_uci_reports_a_refused_fen_and_keeps_the_position(engine_binary):  # noqa: F811
    uci = Uci(engine_binary)
    try:
        uci.send("setoption name UCI_Variant value optima")
        uci.send(f"position fen {test_optima_fen.AFTER_E10}")
        for fen, message in OPTIMA_BAD[:: 6]:
            uci.send(f"position fen {fen}")
            uci.send("isready")
            line, _ = uci.expect("info string error", 10)
            assert line.startswith("info string error bad fen: ") and re.search(message, line), line
            uci.expect("readyok")
        uci.send("d")
        line, _ = uci.expect("info string fen")
        assert line == f"info string fen {test_optima_fen.AFTER_E10}"
    finally:
        uci.close()


# ------------------------------------------------------------------ the other games (M15, U14, D18)
NON_OPTIMA = [name for name in variants.names() if not name.startswith("optima")]
OTHER_BAD = (
    [("maxima", fen) for fen, _ in params(test_fen.test_M15_rejects_malformed_rows_with_the_reason)]
    + [("maxima", fen) for fen, _ in params(test_fen.test_M15_rejects_bad_fields_with_the_reason)]
    + [("maxima", fen_of(pieces, turn))
       for pieces, turn, _ in params(test_fen.test_M15_rejects_impossible_positions_with_the_reason)]
    + [(rules, fen) for rules in ("ultima", "ultima-pure") for fen in test_rules_ultima.U14_BAD.values()]
    + [(test_rules_deckle._variant(key), fen) for key, fen in test_rules_deckle.D18_BAD.values()]
)


def test_M15_U14_D18_every_fen_the_python_engine_refuses_the_compiled_engine_refuses(engine_binary):  # noqa: F811
    """The invalid FENs of tests/test_fen.py (M15), test_rules_ultima.py (U14) and
    test_rules_deckle.py (D18), in their games: refused by both engines."""
    for variant, fen in OTHER_BAD:
        said = python_refuses(fen, variant)
        assert said is not None, (variant, fen)
        line = engine_answers(engine_binary, variant, [fen])[0]
        assert line.startswith("error "), (variant, fen, line)


LETTERS = "0123456789xX/ kKpPqQnNbBrRcCiIwWlLaAuUsSmMhHdDgG-,<>w\u00b2"


def board_mutants(base: list[str], variant: str, count: int, seed: int) -> list[str]:
    """FENs that keep their syntax but not always their sense: a random cell given a random
    piece of the game (or emptied), sometimes the other side to move."""
    rng = random.Random(f"{variant}/{seed}")
    letters = [t.letter for t in variants.get(variant).types]
    out = []
    for _ in range(count):
        rows_text, side, *rest = rng.choice(base).split(" ")
        rows = [re.sub(r"\d+", lambda m: "." * int(m.group()), row) for row in rows_text.split("/")]
        for _ in range(rng.randint(1, 2)):
            r = rng.randrange(len(rows))
            cells = [i for i, ch in enumerate(rows[r]) if ch != "x"]
            i = rng.choice(cells)
            piece = rng.choice(letters + ["."] * 2)
            piece = piece.upper() if rng.random() < 0.5 else piece
            rows[r] = rows[r][:i] + piece + rows[r][i + 1:]
        if rng.random() < 0.3:
            side = "b" if side == "w" else "w"
        rows_text = "/".join(re.sub(r"\.+", lambda m: str(len(m.group())), row) for row in rows)
        out.append(" ".join([rows_text, side, *rest]))
    return out


@pytest.mark.parametrize("variant", NON_OPTIMA)
def test_M15_U14_D18_edited_fens_are_refused_by_both_engines_or_by_neither(engine_binary, variant):  # noqa: F811
    """Random text edits (syntax) and random piece edits (Kings, check, palaces, Pawns on the
    end ranks, castling, en passant and swap-back fields that no longer fit) of real FENs."""
    base = [fen for fen, _ in playout_positions(variant, 80, 5)]
    texts = [t for t in mutants(base, LETTERS, 400, 16) if t.strip()]
    texts += board_mutants(base, variant, 400, 16)
    refused = assert_same_verdicts(engine_binary, variant, texts)
    assert 0 < refused < len(texts)


def test_M15_U14_D18_the_fens_of_random_games_and_of_every_move_are_accepted(engine_binary):  # noqa: F811
    for variant in NON_OPTIMA:
        cases = playout_positions(variant, 150, 43)
        _assert_accepted_with_their_children(engine_binary, variant, cases, every=15, least=50)


def test_M15_uci_reports_a_refused_fen_and_keeps_the_position(engine_binary):  # noqa: F811
    uci = Uci(engine_binary)
    try:
        uci.send("setoption name UCI_Variant value maxima")
        uci.send("position startpos moves d3-d5")
        uci.send("d")
        before, _ = uci.expect("info string fen")
        for variant, fen in OTHER_BAD[:12]:
            uci.send(f"position fen {fen}")
            uci.send("isready")
            line, _ = uci.expect("info string error", 10)
            assert line.startswith("info string error bad fen: ") and line.isascii(), line
            uci.expect("readyok")
        uci.send("d")
        after, _ = uci.expect("info string fen")
        assert after == before and "d3" not in after.split()[3]
    finally:
        uci.close()
