"""Issue 19's findings, each at its cause: the guidance names the right
piece for any move shape, a board restored by hand is taken back whatever
the order of the lifts, presses wait while the board is not known, and a
script's FENs are of the script's game."""
from __future__ import annotations

import pytest

from maxima_board.service.script import ScriptError, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.rules import Position, variants

DECKLE_10X10 = [v.name for v in variants.all_variants() if v.family == "deckle" and len(v.geometry.ranks) == 10]
CASTLE_FEN = "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"   # O-O: King f1-i1, Rook j1-h1 (D4)


def _run(lines: list[str], variant: str = "maxima", settings: Settings | None = None) -> list[dict]:
    return list(replay(parse_script(lines, variant), settings or Settings(), variant=variant))


def _text(lines: list[str]) -> str:
    return " ".join(lines)


# -------------------------------------------------------------- finding 1
@pytest.mark.parametrize("variant", DECKLE_10X10)
@pytest.mark.parametrize("rook_to", ["h2", "g2", "g1"])
def test_castling_gone_wrong_is_described_without_crashing(variant, rook_to):
    """D4 castling, King on its square, the Rook set astray: the OLED names
    the Rook's square to fill and never says a square holds the Rook when
    it may hold the King (the guidance knows both pieces of a castling)."""
    fen = CASTLE_FEN + (" -" if variant.startswith("swapper") else "")
    events = _run([f"variant {variant} {fen}", "lift f1", "place i1", "lift j1", f"place {rook_to}",
                   "wait 2000"], variant)
    final = events[-1]
    errors = [e for e in events if e["type"] == "error"]
    assert errors and final["moves"] == []
    text = _text(final["display"])
    assert "from i1" not in text and "from i1" not in errors[-1]["text"]   # i1 holds the King
    assert "Take the piece off" in errors[-1]["text"]


def test_a_swap_gone_wrong_does_not_say_which_piece_stands_where_it_cannot_know():
    """Swapper Chess: Swapper a1 and Knight b1 both lifted, one set on b1,
    the other on c2: the board cannot tell which stands on c2, so the OLED
    does not say the Swapper went there; it asks for a1 and to clear c2."""
    fen = "9k/10/10/10/10/10/10/10/10/SN7K w - - 0 1 -"
    p = Position(fen, "swapper-chess")
    assert "a1<>b1" in [str(m) for m in p.legal_moves]
    events = _run([f"variant swapper-chess {fen}", "lift a1", "lift b1", "place b1", "place c2", "wait 2000"],
                  "swapper-chess")
    text = [e for e in events if e["type"] == "error"][-1]["text"]   # the OLED's words, uncut
    assert not [e for e in events if e["type"] == "move"]
    assert "from c2" not in text and "a1" in text and "off c2" in text, text


# -------------------------------------------------------------- finding 3
def test_a_replacement_capture_restored_captured_piece_first_is_taken_back():
    """Rook a1 takes a2 by replacement (D-games); the players put the
    captured Rook back on a2 first, then the White Rook on a1."""
    fen = "5k4/10/10/10/10/10/10/10/r9/R4K4 w - - 0 1"
    events = _run([f"variant coordinator-chess {fen}", "lift a2", "lift a1", "place a2", "wait 400",
                   # restore: White Rook off a2, Black Rook back on a2, White Rook on a1
                   "lift a2", "place a2", "wait 100", "place a1", "wait 2000"], "coordinator-chess")
    moves = [e["move"] for e in events if e["type"] == "move"]
    assert len(moves) == 1 and moves[0].startswith("a1-a2")
    assert [e["move"] for e in events if e["type"] == "takeback"] == moves
    assert events[-1]["fen"] == Position(fen, "coordinator-chess").fen()
    assert not [e for e in events if e["type"] == "error"]


def test_a_conversion_restored_converted_unit_first_is_taken_back():
    """Optima R16: the Agent c1-h6 converts the Archer g5 (O11). The
    players exchange g5 back for a Black Archer first, then the Agent
    goes back to c1: the conversion is taken back."""
    fen = "10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"
    events = _run([f"variant optima {fen}", "lift c1", "place h6", "wait 400", "lift g5", "place g5", "wait 400",
                   "lift g5", "wait 100", "place g5", "wait 400", "lift h6", "place c1", "wait 2000"], "optima")
    assert [e["move"] for e in events if e["type"] == "move"] == ["c1-h6^g5"]
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["c1-h6^g5"]
    assert events[-1]["fen"] == Position(fen, "optima").fen()


def test_a_swap_restored_by_hand_is_taken_back():
    """A Swapper swap leaves the occupancy as it was: lifting both pieces
    and setting them back on their squares takes it back."""
    fen = "9k/10/10/10/10/10/10/10/10/SN7K w - - 0 1 -"
    events = _run([f"variant swapper-chess {fen}", "lift a1", "lift b1", "place a1", "place b1", "wait 400",
                   "lift b1", "lift a1", "place b1", "place a1", "wait 2000"], "swapper-chess")
    assert [e["move"] for e in events if e["type"] == "move"] == ["a1<>b1"]
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["a1<>b1"]
    assert events[-1]["moves"] == []


def test_touching_the_swapped_pieces_one_at_a_time_takes_nothing_back():
    """Lifting one swapped piece and setting it down, then the other, is
    not a swap back (both must be off the board together, as for a swap)."""
    fen = "9k/10/10/10/10/10/10/10/10/SN7K w - - 0 1 -"
    events = _run([f"variant swapper-chess {fen}", "lift a1", "lift b1", "place a1", "place b1", "wait 400",
                   "lift b1", "place b1", "wait 400", "lift a1", "place a1", "wait 2000"], "swapper-chess")
    assert not [e for e in events if e["type"] == "takeback"]
    assert events[-1]["moves"] == ["a1<>b1"]


# -------------------------------------------------------------- finding 2
PROMOTE_FEN = "k9/4P5/10/10/10/10/10/10/10/5K4 w - - 0 1"


@pytest.mark.parametrize("button", ["ok", "menu", "back"])
def test_a_promotion_is_not_chosen_or_committed_from_the_frame_before_an_outage(button):
    events = _run([f"variant coordinator-chess {PROMOTE_FEN}", "lift e9", "place e10", "wait 400",
                   "link down", "lift e10", "place e9", f"press {button}", "press ok"], "coordinator-chess")
    assert not [e for e in events if e["type"] in ("move", "takeback")]
    assert "Buttons wait until the board link is back." in _text(events[-1]["display"])


def test_ok_after_the_link_returns_waits_for_the_fresh_frame_to_settle():
    events = _run([f"variant coordinator-chess {PROMOTE_FEN}", "lift e9", "place e10", "wait 400",
                   "link down", "wait 100", "link up", "press ok"], "coordinator-chess")
    assert not [e for e in events if e["type"] == "move"]
    assert "settle" in _text(events[-1]["display"])
    events = _run([f"variant coordinator-chess {PROMOTE_FEN}", "lift e9", "place e10", "wait 400",
                   "link down", "wait 100", "link up", "wait 300", "press ok"], "coordinator-chess")
    assert [e["move"] for e in events if e["type"] == "move"] == ["e9-e10=Q"]


def test_an_early_rook_move_is_not_committed_by_ok_during_an_outage():
    """A Rook move that may be half a castling waits for OK; the Rook put
    back during the outage: OK must not commit the Rook move."""
    events = _run([f"variant coordinator-chess {CASTLE_FEN}", "lift j1", "place h1", "wait 400",
                   "link down", "lift h1", "place j1", "press ok", "link up", "wait 5000"], "coordinator-chess")
    assert not [e for e in events if e["type"] == "move"]


# -------------------------------------------------------------- finding 4
def test_fen_after_menu_game_is_of_the_scripts_game():
    """MENU → BACK (Ultima in the game chooser) switches the board to
    another game; a later `fen start` is the script's game (Maxima), as
    parser and README say."""
    events = _run(["setup", "press menu", "press back", "fen start", "lift d3", "place d4", "wait 400"])
    games = [e for e in events if e["type"] == "setup"]
    assert games[-1]["variant"] != "maxima"          # the board had switched game
    new = [e for e in events if e["type"] == "new_game"]
    assert new[-1]["variant"] == "maxima"
    assert events[-1]["moves"] == ["d3-d4"]


def test_setup_after_menu_game_is_of_the_scripts_game():
    events = _run(["setup", "press menu", "press back", "setup"])
    assert [e["variant"] for e in events if e["type"] == "setup"][-1] == "maxima"


def test_a_fen_of_the_chosen_game_is_refused_when_read():
    """The parser reads FENs as the script's game, whatever MENU does later."""
    with pytest.raises(ScriptError, match="line 4"):
        parse_script(["setup", "press menu", "press back", "fen clhwkhli/pppppppp/8/8/8/8/PPPPPPPP/ILHKWHLC w 0"])
