"""M9 immobilization and M10 suicide (shared/rules/maxima.md)."""
import pytest

from tests.conftest import legal, moves_from, names, pos, pseudo_from, sq

# -------------------------------------------------------- M9 immobilization


def test_M9_immobilizer_freezes_adjacent_enemies_except_mages():
    p = pos({"d4": "M", "c4": "P", "a1": "K", "e5": "d", "c3": "p", "d5": "n", "e3": "g", "h9": "k"}, "b")
    assert names(p.immobilized()) == ["c3", "d5", "e5"]   # not the Mage e3, not White's own c4
    assert moves_from(p, "e5") == {"e5-S"}
    assert moves_from(p, "d5") == {"d5-S"}
    assert {"e3-f4", "e3-f2", "e3-d2"} <= moves_from(p, "e3")


@pytest.mark.parametrize("attacker, square", [
    ("D", "e4"),   # Guard: would step onto e5
    ("B", "e4"),   # Chameleon: would step onto e5
    ("Q", "e4"),   # Withdrawer: would withdraw to e3
    ("N", "e4"),   # Long Leaper: would jump e5 and land on e6
])
def test_M9_immobilized_piece_gives_no_check(attacker, square):
    # Black to move, King e5; the Black Immobilizer on d3 freezes the attacker.
    frozen = pos({square: attacker, "a1": "K", "e5": "k", "d3": "m"}, "b")
    assert sq(square) in frozen.immobilized()
    assert not frozen.is_check()
    assert not frozen.check_info()
    free = pos({square: attacker, "a1": "K", "e5": "k"}, "b")
    assert free.is_check()
    assert free.check_info().king == sq("e5")


def test_M9_immobilized_guard_gives_no_check():
    p = pos({"e4": "D", "a1": "K", "e5": "k", "d3": "m"}, "b")
    assert not p.is_check()
    # The King may even stay next to the frozen Guard: its moves are all legal.
    assert moves_from(p, "e5") == {"e5-c4", "e5-c6", "e5-d7", "e5-f3", "e5-f7", "e5-g4", "e5-g6"}


def test_M9_mage_is_never_immobilized_and_keeps_checking():
    p = pos({"d4": "G", "a1": "K", "e5": "k", "d3": "m", "c5": "m"}, "b")
    assert sq("d4") not in p.immobilized()
    assert p.is_check() and p.check_info().attackers == (sq("d4"),)
    p = pos({"d4": "G", "a1": "K", "h9": "k", "d3": "m", "c5": "m"})
    moves = moves_from(p, "d4")
    assert {"d4-c5xc5", "d4-e5", "d4-e3", "d4-c3"} <= moves
    assert "d4-S" not in moves


def test_M9_two_immobilizers_freeze_each_other():
    # ... and the frozen Black Immobilizer still freezes the White Guard f6.
    p = pos({"d4": "M", "f6": "D", "a1": "K", "e5": "m", "h9": "k"})
    assert names(p.immobilized()) == ["d4", "e5", "f6"]
    assert moves_from(p, "d4") == {"d4-S"}
    assert moves_from(p, "f6") == {"f6-S"}
    p = pos({"d4": "M", "f6": "D", "a1": "K", "e5": "m", "h9": "k"}, "b")
    assert moves_from(p, "e5") == {"e5-S"}


def test_M9_chameleon_freezes_an_immobilizer():
    # White Chameleon d4 next to the Black Immobilizer e5: each freezes the
    # other; the Immobilizer keeps its own power over the White Pawn f5; the
    # Chameleon freezes nothing else (Black Guard c5).
    p = pos({"d4": "B", "f5": "P", "a1": "K", "e5": "m", "c5": "d", "h9": "k"}, "b")
    assert names(p.immobilized()) == ["d4", "e5", "f5"]
    assert moves_from(p, "e5") == {"e5-S"}
    assert "c5-c6" in moves_from(p, "c5")


def test_M9_passing_next_to_an_immobilizer_does_not_stop_a_slide():
    p = pos({"a4": "Q", "a1": "K", "d5": "m", "h9": "k"})
    moves = moves_from(p, "a4")
    assert {"a4-h4", "a4-g4", "a4-d4"} <= moves
    p.push("a4-h4")
    assert sq("h4") not in p.immobilized()
    p.pop()
    p.push("a4-d4")                       # ends next to it: frozen from now on
    assert sq("d4") in p.immobilized()
    p.push("h9-g7")
    assert moves_from(p, "d4") == {"d4-S"}


def test_M9_frozen_king_still_coordinates():
    # The Black Immobilizer c1 freezes the White King b2; the Coordinator
    # still captures on the corner (e, 2) of its King.
    p = pos({"h6": "R", "b2": "K", "c1": "m", "e2": "p", "h9": "k"})
    assert sq("b2") in p.immobilized()
    assert "h6-e6xe2" in moves_from(p, "h6")


# ------------------------------------------------------------- M10 suicide


def test_M10_frozen_piece_may_remove_itself():
    p = pos({"e4": "D", "a1": "K", "d3": "m", "h9": "k"})
    assert moves_from(p, "e4") == {"e4-S"}
    move = p.push("e4-S")
    assert str(move) == "e4-S" and move.kind == "suicide" and move.to_square is None
    assert p.piece_at("e4") is None and p.piece_at("d3") is not None


def test_M10_no_suicide_for_a_mobile_piece():
    assert not any(m.endswith("-S") for m in legal(pos({"e4": "D", "a1": "K", "h9": "k"})))


def test_M10_immobilized_king_has_no_move():
    p = pos({"e4": "K", "d3": "m", "e9": "k", "h1": "D"})
    assert moves_from(p, "e4") == set()
    assert pseudo_from(p, "e4") == set()


def test_M10_suicide_that_would_expose_the_king_is_illegal():
    # The frozen Guard b5 stands between the Black Leaper a5 and the White
    # King c5 (two pieces in a row cannot be jumped). Removing it lets the
    # Leaper jump c5 and land on d5.
    p = pos({"c5": "K", "b5": "D", "a5": "n", "a4": "m", "h9": "k"})
    assert not p.is_check()
    assert pseudo_from(p, "b5") == {"b5-S"}
    assert moves_from(p, "b5") == set()
    control = pos({"c5": "K", "b5": "D", "a4": "m", "h9": "k"})
    assert moves_from(control, "b5") == {"b5-S"}
