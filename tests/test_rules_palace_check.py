"""M11 palaces, M12 check and legal moves, M13 end of the game
(shared/rules/maxima.md)."""
import pytest

from maxima_board.rules import BLACK, WHITE, Check, Outcome
from tests.conftest import legal, moves_from, pos, pseudo_from, sq

# ------------------------------------------------------------- M11 palaces


def test_M11_second_own_goal_square_is_banned():
    p = pos({"d0": "D", "f1": "D", "a5": "K", "h9": "k"})
    assert "f1-e0" in pseudo_from(p, "f1")
    assert moves_from(p, "f1") == {"f1-e1", "f1-e2", "f1-f2", "f1-g1", "f1-g2"}


def test_M11_piece_may_step_from_one_own_goal_square_to_the_other():
    p = pos({"d0": "D", "a5": "K", "h9": "k"})
    assert "d0-e0" in moves_from(p, "d0")
    p = pos({"e10": "q", "a1": "K", "h9": "k"}, "b")
    assert "e10-d10" in moves_from(p, "e10")


def test_M11_own_goal_square_free_to_enter_while_an_enemy_holds_the_other():
    p = pos({"f1": "D", "d0": "p", "a5": "K", "h9": "k"})
    assert "f1-e0" in moves_from(p, "f1")


def test_M11_capturing_an_enemy_on_own_goal_square_is_banned_when_it_fills_the_palace():
    p = pos({"e0": "D", "e1": "D", "d0": "p", "a5": "K", "h9": "k"})
    assert "e1-d0xd0" in pseudo_from(p, "e1")
    assert "e1-d0xd0" not in moves_from(p, "e1")
    assert "e0-d0xd0" in moves_from(p, "e0")     # the palace then holds one piece


def test_M11_invasion_wins_at_once():
    # Black to move with White on d10 and e10: the game is over.
    p = pos({"d10": "D", "e10": "N", "a1": "K", "h5": "k", "h1": "p"}, "b")
    assert p.outcome() == Outcome("1-0", "palace invaded", WHITE)
    p = pos({"d0": "q", "e0": "p", "a9": "k", "h5": "K"}, "w")
    assert p.outcome() == Outcome("0-1", "palace invaded", BLACK)


# ------------------------------------------------------ M12 check, legality


def test_M12_palace_invasion_threat_is_check_and_must_be_parried():
    # Black holds d0; the Pawn e5 can slide to e0. Only a3-e3 blocks it.
    p = pos({"h5": "K", "a3": "Q", "d0": "p", "e5": "p", "a9": "k"})
    assert p.is_check()
    assert p.check_info() == Check(king=None, palace=(sq("e0"),), attackers=(sq("e5"),))
    assert legal(p) == ["a3-e3"]


@pytest.mark.parametrize("attacker", [
    {"f9": "D"},                       # Guard steps onto e10
    {"f9": "G"},                       # Mage steps onto e10
    {"d7": "G"},                       # Mage steps to e8, slides north onto e10
    {"e5": "N", "e9": "p"},            # Leaper slides, jumps e9, lands on e10
    {"e5": "B", "e9": "n"},            # Chameleon does so over a Leaper
    {"f9": "B", "e10": "d"},           # Chameleon replaces a Guard on e10
    {"e2": "P"},                       # Pawn slides up the e-file
    {"e3": "Q"},                       # Withdrawer slides
    {"h7": "R"},                       # Coordinator slides diagonally
    {"a6": "M"},                       # Immobilizer slides diagonally
])
def test_M12_every_piece_can_threaten_to_complete_an_invasion(attacker):
    # White holds d10; Black to move is in check by the threat on e10.
    pieces = {"d10": "D", "h5": "K", "a1": "k", **attacker}
    p = pos(pieces, "b")
    square = next(s for s, letter in attacker.items() if letter.isupper())
    assert p.check_info() == Check(king=None, palace=(sq("e10"),), attackers=(sq(square),))
    assert p.is_check()


@pytest.mark.parametrize("blocked", [
    {"e5": "B", "e9": "p"},            # a Chameleon leaps Leapers only
    {"f9": "B", "e10": "p"},           # and replaces Guards, Mages and Kings only
    {"e5": "N", "e9": "p", "e8": "p"}, # no Leaper jumps two pieces in a row
    {"f9": "D", "g8": "m"},            # a frozen Guard threatens nothing
])
def test_M12_no_invasion_threat_without_a_legal_way_in(blocked):
    p = pos({"d10": "D", "h5": "K", "a1": "k", **blocked}, "b")
    assert not p.is_check()
    assert not p.check_info()


def test_M12_a_pawn_pincer_on_the_king_is_check():
    # a6-e6 would pin the King e5 against the White Pawn e4.
    p = pos({"a6": "P", "e4": "P", "a1": "K", "e5": "k"}, "b")
    assert p.is_check()
    assert p.check_info() == Check(king=sq("e5"), palace=(), attackers=(sq("a6"),))
    # Without the anvil there is no threat.
    assert not pos({"a6": "P", "a1": "K", "e5": "k"}, "b").is_check()


def test_M12_coordinator_check_with_its_king_on_the_same_rank():
    # King b2, King e2: a Coordinator stop on the e-file puts e2 on the
    # corner (e, 2). h6-e6 does that.
    p = pos({"h6": "R", "b2": "K", "e2": "k"}, "b")
    assert p.is_check()
    assert p.check_info() == Check(king=sq("e2"), palace=(), attackers=(sq("h6"),))


@pytest.mark.parametrize("pieces", [
    {"e4": "Q", "e3": "M", "a1": "K", "e5": "k"},              # Withdrawer with no room to withdraw
    {"e4": "G", "a1": "K", "e5": "k"},                         # Mage orthogonally next to the King
    {"g4": "K", "h5": "m", "a5": "k", "b6": "M"},              # frozen King a wrapped leap away
    {"d8": "K", "c7": "m", "d10": "D", "a1": "k"},             # frozen King could leap to e10
    {"e6": "N", "e4": "P", "a1": "K", "e5": "k"},              # Leaper with no square beyond
])
def test_M12_no_check_without_a_legal_capture(pieces):
    p = pos(pieces, "b")
    assert not p.is_check()
    assert not p.check_info()


def test_M12_checking_move_that_lets_the_opponent_invade_is_illegal():
    # The Guard e3 shuts the e-file against the Pawn e5 (Black holds d0).
    # e3-f4 would attack the Black King g5, but it opens the file.
    fen_pieces = {"e3": "D", "a1": "K", "e5": "p", "d0": "p", "g5": "k"}
    p = pos(fen_pieces)
    assert not p.is_check()
    assert legal(p) == ["a1-b3", "a1-c2", "a1-g2", "e3-e2", "e3-e4"]  # a1-h3: g5 takes it
    after = dict(fen_pieces)
    after["f4"] = after.pop("e3")
    after = pos(after, "b", validate=False)
    assert after.is_check()                                          # it is a checking move
    assert after._rules.attacks(after.board, BLACK, after.kings)     # but Black could invade


def test_M12_checkmate_by_an_unstoppable_invasion_threat():
    # d9-d10; the Pawn e2 then threatens e2-e10 along a file Black cannot
    # reach: the King a1 leaps only to b3 c2 g2 h3, the Guard c7 is frozen.
    p = pos({"h9": "K", "d9": "D", "e2": "P", "c8": "M", "a1": "k", "c7": "d"})
    assert not p.is_check()
    p.push("d9-d10")
    assert p.is_check()
    info = p.check_info()
    assert info.king is None and info.palace == (sq("e10"),)
    assert sq("e2") in info.attackers
    assert p.legal_moves == []
    assert p.outcome() == Outcome("1-0", "checkmate", WHITE)


def test_M12_chameleon_next_to_a_king_gives_check():
    p = pos({"d4": "B", "a1": "K", "e5": "k"}, "b")
    assert p.is_check()
    assert p.check_info() == Check(king=sq("e5"), palace=(), attackers=(sq("d4"),))
    # Only leaps to squares not adjacent to d4 escape.
    assert set(legal(p)) == {"e5-c6", "e5-d7", "e5-f3", "e5-f7", "e5-g4", "e5-g6"}


def test_M12_capturing_the_king_is_check_even_into_the_own_palace():
    # White d0 + e1xe0 would fill White's palace (M11), but it takes the
    # King: the ban is waived, so Black is in check.
    p = pos({"e0": "k", "d0": "P", "e1": "D", "a9": "K"}, "b")
    assert p.is_check()
    assert p.check_info() == Check(king=sq("e0"), palace=(), attackers=(sq("e1"),))
    assert set(legal(p)) == {"e0-c1", "e0-g1"}         # d2 and f2 touch the Guard


def test_M12_completing_the_invasion_is_legal_even_if_the_king_can_then_be_taken():
    # Finished game: Black has invaded White's palace (M15 allows it). White
    # can still complete its own invasion; its King on b2 stays en prise.
    p = pos({"d0": "p", "e0": "p", "b3": "d", "h9": "k", "b2": "K", "d10": "D", "f9": "D"})
    assert p.is_check()
    assert legal(p) == ["f9-e10"]
    p.push("f9-e10")
    replies = p._rules.winning_reply_moves(p.board, BLACK, p.kings)
    assert (sq("b3"), sq("b2"), (sq("b2"),)) in replies
    assert p.outcome() == Outcome("1-0", "palace invaded", WHITE)


def test_M12_start_position_is_not_check():
    p = pos({"e1": "K", "e9": "k"})
    assert not p.is_check() and not p.check_info()


# ------------------------------------------------------- M13 end of game


def test_M13_bare_king():
    p = pos({"e4": "D", "a1": "K", "e5": "p", "h9": "k"})
    p.push("e4-e5xe5")
    assert p.legal_moves                      # Black could still move...
    assert p.outcome() == Outcome("1-0", "bare king", WHITE)


def test_M13_bare_king_comes_before_stalemate_and_checkmate():
    stalemated = pos({"e4": "M", "a1": "K", "e5": "k"}, "b")          # frozen, alone
    assert stalemated.legal_moves == [] and not stalemated.is_check()
    assert stalemated.outcome() == Outcome("1-0", "bare king", WHITE)
    mated = pos({"e4": "M", "d6": "D", "a1": "K", "e5": "k"}, "b")    # frozen, in check
    assert mated.legal_moves == [] and mated.is_check()
    assert mated.outcome() == Outcome("1-0", "bare king", WHITE)


def test_M13_palace_invaded_comes_before_bare_king_and_stalemate():
    # Black can never again shake off White's winning reply: no legal move.
    p = pos({"d10": "D", "e10": "D", "a1": "K", "h5": "k"}, "b")
    assert p.legal_moves == []
    assert p.outcome() == Outcome("1-0", "palace invaded", WHITE)


def test_M13_checkmate_of_the_king():
    # Black King e5 frozen by e4 and attacked by the Guard d6; Black's only
    # other piece, the Guard a9 frozen by b8, can only remove itself.
    p = pos({"e4": "M", "d6": "D", "b8": "M", "h1": "K", "e5": "k", "a9": "d"}, "b")
    assert legal(p) == []
    assert p.outcome() == Outcome("1-0", "checkmate", WHITE)


def test_M13_stalemate():
    # Black King c5 and Guard b5 frozen by b6; b5-S would let the Leaper a5
    # jump the King, so Black has no legal move, and is not in check.
    p = pos({"a5": "N", "b6": "M", "h1": "K", "c5": "k", "b5": "d"}, "b")
    assert not p.is_check()
    assert legal(p) == []
    assert p.outcome() == Outcome("1/2", "stalemate", None)


def test_M13_repetition_is_counted_but_never_ends_the_game():
    p = pos({"a1": "K", "c3": "D", "h9": "k", "f7": "d"})
    assert p.repetitions() == 1
    for cycle in range(1, 4):
        for move in ("c3-c4", "f7-f6", "c4-c3", "f6-f7"):
            p.push(move)
            assert p.outcome() is None
        assert p.repetitions() == cycle + 1
    p.pop()
    assert p.repetitions() == 3               # the position before f6-f7
    p.push("f6-f7")
    assert p.repetitions() == 4 and p.outcome() is None
