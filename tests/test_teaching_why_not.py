"""Issue 34, part 5: why not? A refused move names its reason and its rule,
from the rules engine's own checks (rules/teaching.py ``why_not``):
the OLED says it where it said "Not a legal move.", teaching on or off."""
from __future__ import annotations

import pytest

from maxima_board.board.settings import Settings
from maxima_board.rules import Position, variants
from maxima_board.rules.teaching import why_not
from maxima_board.service.script import Runner

PALACE = "xxx2xxx/7k/8/8/8/8/8/8/8/K3Q3/xxxD1xxx w 0"   # a Guard on d0, a Withdrawer on e1


def reason(variant: str, fen: str, frm: str, to: str):
    p = Position(fen, variant)
    return why_not(p, p.geometry.index[frm], p.geometry.index[to])


CASES = [
    ("U9", "ultima", "7k/8/8/8/4p3/3Pi3/8/4K3 w 0", "d3", "d5", "Pawn d3 is frozen by the Immobilizer on e3."),
    ("U9", "ultima-pure", "7k/8/8/8/4p3/3Pi3/8/4K3 w 0", "d3", "d5", "Pawn d3 is frozen by the Immobilizer on e3."),
    ("M9", "maxima", "xxx2xxx/7k/8/8/8/8/8/3Pm3/8/4K3/xxx2xxx w 0", "d3", "d5",
     "Pawn d3 is frozen by the Immobilizer on e3."),
    ("D9", "immobilizer-chess", "9k/10/10/10/10/10/10/3Bi5/10/4K5 w - - 0 1", "d3", "e4",
     "Bishop d3 is frozen by the Immobilizer on e3."),
    ("O10", "optima", "9vr*/10/10/10/10/10/4pn5/4ME5/10/VR*9 b - - 0", "e4", "e5",
     "Pawn e4 is frozen by the Medusa on e3."),
    ("U11", "ultima", "k7/8/8/8/8/4w3/8/4K3 w 0", "e1", "e2", "Your King would be taken on e2."),
    ("D5", "coordinator-chess", "4r4k/10/10/10/10/10/10/10/4B5/4K5 w - - 0 1", "e2", "d3",
     "Your King would be taken on e1."),
    ("M11", "maxima", PALACE, "e1", "e0", "Maxima: no move into your own palace."),
    ("D14", "swapper-chess", "9k/10/10/10/10/10/3S6/3s6/10/4K5 w - - 0 1 d4<>d3", "d4", "d3",
     "Swapper Chess: no swap back at once (d4<>d3)."),
]


@pytest.mark.parametrize("rule, variant, fen, frm, to, text", CASES, ids=[f"{c[0]} {c[1]}" for c in CASES])
def test_a_refused_move_names_its_reason_and_rule(rule, variant, fen, frm, to, text):
    found = reason(variant, fen, frm, to)
    assert (found.rule, found.text) == (rule, text)


def test_M9_two_freezers_are_both_named():
    found = reason("maxima", "xxx2xxx/7k/8/8/8/8/8/2mPm3/8/4K3/xxx2xxx w 0", "d3", "d5")
    assert (found.rule, found.text) == ("M9", "Pawn d3 is frozen by the Immobilizer on c3 and the Immobilizer on e3.")


def test_M11_M12_a_legal_move_has_no_reason_and_a_wrong_shape_says_so():
    assert reason("maxima", PALACE, "e1", "e4") is None
    found = reason("maxima", PALACE, "e1", "f3")
    assert (found.rule, found.text) == ("", "Withdrawer e1 cannot move to f3.")
    assert reason("maxima", PALACE, "c5", "c6").text == "No piece on c5."
    assert reason("maxima", PALACE, "h9", "h8").text == "White to move, not the King on h9."


def test_U9_the_board_names_the_freezer_teaching_on_or_off():
    def refused(teach: bool) -> str:
        runner = Runner(Settings(teach=teach, variant="ultima"), fen="7k/8/8/8/4p3/3Pi3/8/4K3 w 0", variant="ultima")
        runner.lift("d3")
        runner.place("d5")
        events = runner.wait(3000)
        return " ".join(e["text"] for e in events if e["type"] == "error")
    assert refused(True).startswith("Pawn d3 is frozen by the Immobilizer on e3. ")
    assert refused(False) == refused(True)          # a refused move says why, teaching on or off


def test_M11_the_board_names_the_palace_rule_where_it_said_not_a_legal_move():
    def refused(teach: bool) -> str:
        runner = Runner(Settings(teach=teach), fen=PALACE)
        runner.lift("e1")
        runner.place("e0")
        events = runner.wait(3000)
        return " ".join(e["text"] for e in events if e["type"] == "error")
    assert refused(True).startswith("Maxima: no move into your own palace. ")
    assert refused(False) == refused(True)


def test_O15_an_optima_move_that_is_no_move_gets_a_reason_not_a_crash():
    """Found by the fuzz test once every refused move says why: an Optima
    position has no Deckle swap-back state."""
    from maxima_board.rules.teaching import why_not

    optima = variants.get("optima")
    p = Position(optima.start_fen, optima.name)
    reason = why_not(p, 18, 49)
    assert reason is not None and reason.text.endswith(f"cannot move to {p.geometry.names[49]}.")
