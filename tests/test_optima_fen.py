"""Optima's FEN (O14, O15), its rejections (O16), the board and tokens (O1, O2),
the canonical move text (O15) and the ``new-optima`` command."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.rules import FenError, Move, MoveError, Position, parse_move, variants
from maxima_board.rules.optima.fen import parse, parse_rules
from maxima_board.rules.optima.forces import start_fen
from maxima_board.rules.optima.placement import first_rank
from maxima_board.rules.optima.tables import PROMOTE, SWAP, Options, Tables
from maxima_board.rules.optima.text import move_text
from maxima_board.rules.optima.units import ROYAL
from maxima_board.rules.variants.optima import BY_TOKEN, OPTIMA, OPTIMA_9X9, PIECE_TOKENS, START_9, START_10

ROOT = Path(__file__).resolve().parent.parent
E10_START = ("10/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGDGD/10 w "
             "eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0")
E9_START = ("9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/9 w "
            "eq:CHFAQUREVR*chfaqurevr* - 0")
AFTER_E10 = ("vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
             "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20")
PAWNS_10 = "gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGDGD"
PAWNS_9 = "gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


# ------------------------------------------------------------------ O1, O2
def test_O1_boards_squares_and_start_ranks():
    """O1: 10x10 a1..j10 and 9x9 a1..i9; pawns on 3 / N-2, guards on 2 / N-1, first ranks empty, White first."""
    for variant, n, last in ((OPTIMA, 10, "j10"), (OPTIMA_9X9, 9, "i9")):
        g = variant.geometry
        assert g.size == n * n and g.names[0] == "a1" and g.names[-1] == last
        p = Position("start", variant.name)
        assert p.turn == 1 and p.phase == "placement"
        for sq, v in enumerate(p.board):
            rank = g.rank_of[sq]
            want = {2: "GD", 3: "PN", n - 1: "gd", n - 2: "pn"}.get(rank)
            assert (p.piece_at(sq).token if v else None) == want, g.names[sq]
        assert list(first_rank(n, 1)) == [g.index[f"{f}1"] for f in "abcdefghij"[:n]]
        assert list(first_rank(n, -1)) == [g.index[f"{f}{n}"] for f in "abcdefghij"[:n]]


def test_O1_nothing_wraps_and_adjacency_is_the_8_neighbours():
    """O1/O3: lines end at the edge; a1 has 3 neighbours, e5 has 8 (adjacent = king-step squares)."""
    g = OPTIMA.geometry
    assert len(g.neighbours[g.index["a1"]]) == 3 and len(g.neighbours[g.index["e5"]]) == 8
    T = Tables(OPTIMA)
    knight = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
    assert sorted(g.names[t] for t in T.leaps(knight)[g.index["j1"]]) == ["h2", "i3"]


def test_O2_every_token_with_its_attributes():
    """O2: 53 piece types plus PN, GD, WI; the attribute columns of the table exactly."""
    assert len(PIECE_TOKENS) == 53 and "WI" not in PIECE_TOKENS
    assert set(BY_TOKEN) == set(PIECE_TOKENS) | {"PN", "GD", "WI"}
    table = {"shielded": "BS GE MA MY", "resolute": "CE FA HE JU NO SC", "armored": "GD",
             "loyal": "CM DA MI PR QU"}
    for attribute, tokens in table.items():
        assert sorted(t for t, u in BY_TOKEN.items() if getattr(u, attribute)) == tokens.split(), attribute
    assert sorted(t for t, u in BY_TOKEN.items() if u.immobilizes) == ["BA", "CH", "CY", "GO", "ME", "WI"]
    assert sorted(t for t, u in BY_TOKEN.items() if not u.may_be_royal) == ["GD", "PN", "WI"]
    assert len({u.code for u in BY_TOKEN.values()}) == 56


@pytest.mark.parametrize("token", ["PN*", "GD*", "WI*", "pn*"])
def test_O2_O16_pawn_guard_wizard_are_never_royal(token):
    with pytest.raises(FenError, match="never be royal"):
        Position(f"{token}8vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "optima")


@pytest.mark.parametrize("fen, message", [
    ("Ag8vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "two letters, one case"),
    ("*AR8vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "misplaced '\\*'"),
    ("AR**8vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "misplaced '\\*'"),
    ("XX8vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "unknown unit 'XX'"),
    ("A9vr*/10/10/10/10/10/10/10/10/9VR* w - - 0", "bad token"),
])
def test_O2_O16_bad_tokens_are_rejected_naming_the_rank(fen, message):
    with pytest.raises(FenError, match=message) as info:
        Position(fen, "optima")
    assert "rank 10" in str(info.value) and "\n" not in str(info.value)


# ------------------------------------------------------------------ O14
def test_O14_rules_field_options_and_their_effect_on_attributes():
    """O14: shp makes pawns shielded, gna guards not armored, arm=.. arms piece types; written sorted."""
    pn, gd, qu, vr = (BY_TOKEN[t].code for t in ("PN", "GD", "QU", "VR"))
    plain = Tables(OPTIMA)
    assert not plain.shielded[pn] and plain.armored[gd] and not plain.armored[qu]
    options = parse_rules("arm=QUVR,gna,shp")
    assert options == Options(shp=True, gna=True, arm=("QU", "VR"))
    T = Tables(OPTIMA, options)
    assert T.shielded[pn] and not T.armored[gd] and T.armored[qu] and T.armored[vr | ROYAL]
    fen = f"vr*9/{PAWNS_10}/9VR* w - arm=QUVR,gna,shp 0".replace("/GDGDGDGDGDGDGDGDGDGD/9VR*",
                                                                     "/GDGDGDGDGDGDGDGDGDGD/9VR*")
    p = Position(fen, "optima")
    assert p.options == options and p.fen() == fen


@pytest.mark.parametrize("rules, message", [
    ("shp,gna", "sorted"),
    ("gna,gna", "distinct"),
    ("arm=VRQU", "sorted"),
    ("arm=", "piece tokens"),
    ("arm=qu", "piece tokens"),
    ("arm=PN", "not a piece type"),
    ("arm=GD", "not a piece type"),
    ("pawn=std", "written by leaving it out"),
    ("pawn=berolina", "unknown pawn rule"),
    ("guard=x", "unknown guard rule"),
    ("fast", "unknown option 'fast'"),
])
def test_O14_O16_bad_rules_fields_are_rejected(rules, message):
    with pytest.raises(FenError, match=message):
        Position(f"vr*9/{PAWNS_10}/9VR* w - {rules} 0", "optima")


# ------------------------------------------------------------------ O15
@pytest.mark.parametrize("fen", [
    E10_START, E9_START, AFTER_E10,
    "9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/4CR*4 b "
    "u1:ARCHCR*FAJUKEQURESY - 1",
    "3quvr*3ch/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/CH2QUVR*4 w "
    "eq:FAREfare - 6",
    "vr*2ar6/4PNPN4/3pn6/4gd5/10/10/10/10/10/9VR* w - - 0",
    "9vr*/10/10/2maarpn5/6gd3/10/3CG2pn3/5pn4/4PN5/VR*9 w - shp 0",
    "4WI4/4vr*4/9/9/9/9/9/9/VR*8 b - arm=AR 117",
])
def test_O15_fen_round_trips_exactly(fen):
    p = Position(fen, "optima")
    assert p.fen() == fen and str(p) == fen
    assert Position(fen, "optima-9x9").fen() == fen        # the rank count chooses the board


def test_O15_starts_are_the_variants_start_fens():
    assert START_10 == E10_START and START_9 == E9_START
    assert variants.get("optima").start_fen == E10_START and variants.get("optima-9x9").start_fen == E9_START
    assert Position("start", "optima-9x9").variant is OPTIMA_9X9
    assert Position(E9_START, "optima").variant is OPTIMA_9X9


def test_O15_reserve_groups_are_sorted_plain_before_royal():
    fen = start_fen("optima", "u2")
    assert " u2:ARARCECECHCHFAFAJUJUKE*KE*MAMAQUQUREREVR*VR* " in fen
    p = Position(fen, "optima")
    assert p.fen() == fen
    mixed = f"10/{PAWNS_10}/10 w u1:ARCECHFAJUKEMAQUREVR*ARCECHFAJUKEMAQUREVR* - 0"
    with pytest.raises(FenError, match="not sorted"):
        Position(mixed, "optima")


def test_O15_canonical_move_text_of_every_kind():
    """O15: TT@sq / TT*@sq; FROM-TO[xC..][^V..][=WI], squares rank then file; shots FROM = TO."""
    g = OPTIMA.geometry
    s = g.index
    assert str(Move(s["e1"], s["e1"], (), g, None, "placement", (), "VR*")) == "VR*@e1"
    assert str(Move(s["e5"], s["e5"], (s["g7"],), g, None, "shot")) == "e5-e5xg7"
    assert str(Move(s["e4"], s["e5"], (s["e6"],), g, None, "conversion", (s["d6"],))) == "e4-e5xe6^d6"
    assert str(Move(s["e5"], s["e6"], (), g, None, "swap conversion", (s["e6"],))) == "e5-e6^e6"
    assert str(Move(s["e9"], s["d10"], (s["d10"],), g, "WI")) == "e9-d10xd10=WI"
    T = Tables(OPTIMA)
    raw = (s["a1"], s["e5"], (s["a10"], s["b2"]), (s["c3"], s["b3"]), PROMOTE)
    assert move_text(raw, T) == "a1-e5xb2,a10^b3,c3=WI"
    assert move_text((-1, s["j10"], (), (), -(BY_TOKEN["QU"].code | ROYAL)), T) == "QU*@j10"


@pytest.mark.parametrize("text", ["AR@e1", "VR*@j10", "e5-e5xg7", "e4-e5xe6^d6", "e5-e6^e6", "e9-d10xd10=WI",
                                  "a1-e5xb2,a10^b3,c3=WI", "d1-b1xa2"])
def test_O15_move_texts_parse_and_write_back(text):
    move = parse_move(text, OPTIMA.geometry, OPTIMA.move_forms)
    assert str(move) == text
    assert str(parse_move("AR" + text if "@" not in text else text, OPTIMA.geometry, OPTIMA.move_forms)) == text


@pytest.mark.parametrize("text", ["ar@e1", "AR@k1", "AR@e11", "e5-e5xg7,g7", "e5-e6^e6,e6", "e9-e10=W", "e5e6",
                                  "e5-e6x", "A@e1", "e5-e6^"])
def test_O15_bad_move_texts_are_one_line_move_errors(text):
    with pytest.raises(MoveError) as info:
        parse_move(text, OPTIMA.geometry, OPTIMA.move_forms)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ O16
BAD = [
    (f"10/{PAWNS_10}/10 w - -", "5 fields"),
    (f"10/{PAWNS_10}/10 w  - - 0", "5 fields"),
    (f"10/{PAWNS_10}/10 x - - 0", "side field"),
    (f"10/{PAWNS_10}/10 w - - 01", "ply field"),
    (f"10/{PAWNS_10}/10 w - - -1", "ply field"),
    ("10/10/10/10/10/10/10/10 w - - 0", "8 ranks"),
    (f"11/{PAWNS_10}/10 w - - 0", "rank 10 has 11 cells"),
    (f"9/{PAWNS_10}/10 w - - 0", "rank 10 has 9 cells"),
    (f"55/{PAWNS_10}/10 w - - 0", "rank 10 has 55 cells"),
    (f"010/{PAWNS_10}/10 w - - 0", "bad empty run"),
    # reserve
    (f"10/{PAWNS_10}/10 w eq: - 0", "empty"),
    (f"10/{PAWNS_10}/10 w xx:AR - 0", "reserve field"),
    (f"10/{PAWNS_10}/10 w eq:arAR - 0", "White's hand"),
    (f"10/{PAWNS_10}/10 w u1:ar - 0", "upper case"),
    (f"10/{PAWNS_10}/10 w eq:WIwi - 0", "never placed"),
    (f"10/{PAWNS_10}/10 w eq:CEARcear - 0", "not sorted"),
    (f"9/{PAWNS_9}/9 w u2:ARARCECECHCHFA*FA*QU*QU* - 0", "not played on 9x9"),
    # movement phase
    ("vr*qu*ar*7/10/10/10/10/10/10/10/10/9VR* w - - 0", "Black has 3 royal units"),
    ("vr*9/10/10/10/10/10/10/10/10/9VR b - - 0", "White, not to move, has no royal"),
    # placement phase
    (f"10/{PAWNS_10}/VR*9 w eq:ARCECHFAJUKEMAQUREarcechfajukemaqurevr* - 1", "Black's"),
    (f"10/{PAWNS_10}/VR*9 b eq:ARCECHFAJUKEMAQUREarcechfajukemaqurevr* - 2", "ply field is 2"),
    (f"10/{PAWNS_10}/10 b eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0", "White's by O5"),
    (f"10/{PAWNS_10}/VR*AR8 b eq:CECHFAJUKEMAQUREarcechfajukemaqurevr* - 2", "White has placed 1 by O5"),
    (f"10/{PAWNS_10.replace('PNPNPNPNPNPNPNPNPNPN', 'PNPNPNPNPNPNPNPNPN1')}/10 w "
     "eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0", "must hold PN"),
    (f"10/{PAWNS_10}/10 w eq:ARCECHFAJUKEMAQUREVR*arcechfajukemarerevr* - 0", "differ"),
    (f"10/{PAWNS_10}/10 w eq:ARCECHFAJUKEMAQUREVRarcechfajukemaqurevr - 0", "0 royal pieces"),
    (f"10/{PAWNS_10}/10 w eq:ARCECHFAJUKEMAQU*RE*VR*arcechfajukemaqu*re*vr* - 0", "3 royal pieces"),
    (f"10/{PAWNS_10}/10 w eq:CECHFAJUKEMAQUREVR*cechfajukemaqurevr* - 0", "is not 20"),
    (f"9/{PAWNS_9}/9 w eq:CHFAQU*REVR*chfaqu*revr* - 0", "9x9 allows 1"),
    (f"10/{PAWNS_10}/10 w u1:ARARCECECHCHFAFAJUJUKEKEMAMAQUQUREREVRVR* - 0", "1 royal units"),
    (f"10/{PAWNS_10}/10 w u2:ARARCECECHCHFAFAJUJUKEKEMAMAQUQUREREVR*VR* - 0", "2 royal units"),
    (f"10/{PAWNS_10}/AR9 b u1:ARCECECHCHFAFAJUJUKEKEMAMAQUQUREREVR*VR* - 1", "royals are placed first"),
    (f"10/{PAWNS_10.replace('10/10/10/10', '10/4AR5/10/10')}/10 w "
     "eq:CECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0", "AR on e6 is off its owner's first rank"),
    (f"ar9/{PAWNS_10}/10 w eq:ARCECHFAJUKEMAQUREVR*cechfajukemaqurevr* - 0", "White has placed 1 by O5, the board shows 0"),
    (f"10/{PAWNS_10}/ar9 b eq:ARCECHFAJUKEMAQUREVR*cechfajukemaqurevr* - 1", "ar on a1 is off its owner's"),
]


@pytest.mark.parametrize("fen, message", BAD)
def test_O16_invalid_fens_are_rejected_with_one_line_saying_what(fen, message):
    with pytest.raises(FenError, match=message) as info:
        Position(fen, "optima")
    assert "\n" not in str(info.value)


def test_O16_side_to_move_without_royal_is_a_finished_game():
    """O16/O13: accepted; it lost by "royal captured"."""
    p = Position("vr9/10/10/10/10/10/10/10/10/9VR* b - - 0", "optima")
    out = p.outcome()
    assert out is not None and (out.result, out.reason, out.winner) == ("1-0", "royal captured", 1)


def test_O16_pawns_may_stand_anywhere_in_the_movement_phase():
    p = Position("PNpn7vr*/10/10/10/10/10/10/10/10/pnPN7VR* w - - 0", "optima")
    assert p.phase == "movement"


def test_O16_reference_position_R3_as_printed_has_eleven_pawns_and_is_rejected():
    """optima.md's R3 text has 22 letters of White pawns on rank 3 (11 units): a 10x10 FEN must refuse it."""
    printed = ("4ke*vr*4/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPNPN/"
               "GDGDGDGDGDGDGDGDGDGD/4VR*5 w u2:AGAMARBACECHDAFAGEHEJUKE*MAQURESPTO - 3")
    with pytest.raises(FenError, match="rank 3 is longer than 10 cells"):
        parse(printed)


# ------------------------------------------------------------------ CLI
@pytest.mark.parametrize("args, fen", [
    ((), E10_START),
    (("--board", "9x9"), E9_START),
    (("--forces", "u1", "--board", "9x9"), f"9/{PAWNS_9}/9 w u1:CHCHFAFAQUQUREREVR*VR* - 0"),
])
def test_O4_O15_new_optima_prints_the_start_fen(args, fen):
    done = run_cli("new-optima", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == fen + "\n"


def test_O4_new_optima_random_with_seed_is_reproducible_and_valid():
    one = run_cli("new-optima", "--forces", "random", "--seed", "42", "--royals", "2")
    two = run_cli("new-optima", "--forces", "random", "--seed", "42", "--royals", "2")
    assert one.returncode == 0 and one.stdout == two.stdout
    fen = one.stdout.strip()
    assert fen == start_fen("optima", "random", seed=42, royals=2)
    assert Position(fen, "optima").fen() == fen


@pytest.mark.parametrize("args, message", [
    (("--board", "9x9", "--forces", "u2"), "u2"),
    (("--royals", "3"), "--royals must be a whole number from 1 to 2"),
    (("--board", "8x8"), "invalid choice"),
    (("--board", "9x9", "--forces", "random", "--royals", "2"), "royals must be 1"),
    (("--forces", "u1", "--royals", "2"), "use u2"),
    (("--seed", "x"), "--seed must be a whole number"),
])
def test_O4_new_optima_bad_input_is_one_line_exit_2(args, message):
    done = run_cli("new-optima", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


def test_O15_engine_commands_accept_variant_optima():
    done = run_cli("moves", "start", "--variant", "optima-9x9")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == ["CH@a1", "CH@b1", "CH@c1"] and len(done.stdout.splitlines()) == 45
    done = run_cli("perft", "start", "2", "--variant", "optima")
    assert done.returncode == 0 and done.stdout == "10000\n"
    done = run_cli("moves", "10/10 w - - 0", "--variant", "optima")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "bad FEN" in done.stderr
    done = run_cli("variants")
    assert any(line.startswith("optima ") for line in done.stdout.splitlines())
    assert any(line.startswith("optima-9x9 ") for line in done.stdout.splitlines())


# ------------------------------------------------------------------ O7, O9, O11 on the board model
def test_O7_promotion_makes_a_wizard_and_unmake_restores():
    """O7: a raw move with PROMOTE leaves a Wizard of the mover's colour; =WI in the text."""
    T = Tables(OPTIMA)
    p = Position("vr*9/4PN5/10/10/10/10/10/10/10/9VR* w - - 0", "optima")
    b = list(p.board)
    s = OPTIMA.geometry.index
    raw = (s["e9"], s["e10"], (), (), PROMOTE)
    undo = T.make(b, raw)
    assert b[s["e10"]] == BY_TOKEN["WI"].code and b[s["e9"]] == 0
    assert move_text(raw, T) == "e9-e10=WI"
    T.unmake(b, raw, undo)
    assert b == p.board


def test_O9_8_O11_captures_and_conversions_happen_together_swap_goes_to_the_start():
    """O9.8: several captures at once; O11: a swap-converted unit goes to s, others keep their square."""
    T = Tables(OPTIMA)
    p = Position("vr*9/10/10/10/4arquvr*3/3PNCR5/10/10/10/9VR* w - - 0", "optima")
    s = OPTIMA.geometry.index
    b = list(p.board)
    raw = (s["e5"], s["e6"], (s["g6"],), (s["e6"],), SWAP)
    undo = T.make(b, raw)
    assert b[s["e5"]] == BY_TOKEN["AR"].code and b[s["e6"]] == BY_TOKEN["CR"].code and b[s["g6"]] == 0
    T.unmake(b, raw, undo)
    assert b == p.board
    assert T.convert(p.board, 1, [s["e6"], s["f6"], s["g6"], s["d5"]]) == ((s["g6"],), (s["e6"],))


def test_O15_game_record_tags_and_unit_tokens():
    """O15: Variant "Optima", Board, Forces, Rules; moves after a unit token; a wrong token is refused."""
    from maxima_board.rules.record import GameRecord, RecordError
    p = Position("start", "optima-9x9")
    for move in ("VR*@e1", "VR*@e9", "QU@d1", "QU@d9", "CH@a1", "CH@i9", "FA@b1", "FA@h9", "RE@i1", "RE@a9"):
        p.push(move)
    pawn = next(m for m in p.legal_moves if p.piece_at(m.from_square).token == "PN")
    p.push(pawn)
    text = GameRecord.from_position(p).to_text()
    for tag in ('[Variant "Optima"]', '[Board "9x9"]', '[Forces "eq"]', '[Rules "-"]'):
        assert tag in text
    assert "1. VR*@e1 VR*@e9" in text and f"PN{pawn}" in text
    back = GameRecord.from_text(text)
    assert back.moves[-1] == str(pawn) and back.replay().fen() == p.fen()
    with pytest.raises(RecordError, match="is PN, not QU"):
        GameRecord.from_text(text.replace(f"PN{pawn}", f"QU{pawn}")).replay()


def test_O15_position_dispatch_keeps_the_other_games_positions():
    """Position(fen, "optima") is an OptimaPosition; every other game keeps the plain Position."""
    from maxima_board.rules.optima.position import OptimaPosition
    from maxima_board.rules.position import Position as Plain
    assert type(Position("start", "optima")) is OptimaPosition and isinstance(Position("start", "optima"), Plain)
    for name in variants.names():
        if not name.startswith("optima"):
            assert type(Position("start", name)) is Plain


def test_O13_O15_analyze_reports_an_optima_position():
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "analyze", "--variant", "optima"],
                          input=AFTER_E10 + "\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    import json
    report = json.loads(done.stdout)
    assert report["result"] == "*" and report["check"] is False and report["immobilized"] == []
    assert len(report["moves"]) == Position(AFTER_E10, "optima").perft(1)
