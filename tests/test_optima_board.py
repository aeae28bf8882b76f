"""Optima on the board (issue 10; controller.md points 15-18; optima.md O5,
O7, O9.6, O11, O13): placement, conversions, swap conversions, rifle shots,
Wizard promotion, the choice of game and forces, the store and the record,
and whole games played through the controller by a simulated player.

Positions are the reference positions of optima.md where one fits (R5,
R16-R18, R23, R30). A test of a unit whose moves are not in the engine yet
is skipped with the unit's name (the units are data written on other
branches); everything else runs against the real engine.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.service.board_view import BoardView
from maxima_board.board.core import Controller
from maxima_board.board.hands import hand_lines, pick_move
from maxima_board.service.record import game_record
from maxima_board.service.script import Runner, ScriptError, parse_line, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position
from maxima_board.rules.variants.optima import BY_TOKEN
from maxima_board.devices.boards import games_for

ROOT = Path(__file__).resolve().parent.parent
E10 = Position("start", "optima").fen()
E9 = Position("start", "optima-9x9").fen()
# u1 pools (O4): 20 units, two royal; u2: four royal.
U1_FEN = E10.replace("eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr*", "u1:ARARCECECHCHFAFAJUJUKEKEMAMAQUQU*REREVRVR*")
U2_FEN = E10.replace("eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr*", "u2:ARARCECECHCHFAFAJUJUKEKE*MAMAQUQU*RERE*VRVR*")
# random (O4): no placement; Black's first rank is White's turned by 180 degrees.
RANDOM_FEN = ("vr*archgenomepatoceba/" + "/".join(E10.split()[0].split("/")[1:-1])
              + "/BACETOPAMEGENOCHARVR* w - - 0")


def needs(*tokens: str):
    """Skip a test whose units have no moves in the engine yet."""
    missing = [t for t in tokens if not BY_TOKEN[t].moves]
    return pytest.mark.skipif(bool(missing), reason=f"no moves for {', '.join(missing)} in the engine yet")


def run(script: str, **settings) -> list[dict]:
    """Every event of a replay script (the replay contract)."""
    return list(replay(parse_script(script.strip().splitlines()), Settings(**settings)))


def moves_of(events: list[dict]) -> list[str]:
    return [e["move"] for e in events if e["type"] == "move"]


def final(events: list[dict]) -> dict:
    assert events[-1]["type"] == "final"
    return events[-1]


def text(lines: list[str]) -> str:
    """OLED lines below the status bar as one sentence."""
    return " ".join(lines[1:])


# ---------------------------------------------------------------- placement (O5, point 17)
def test_O5_placement_asks_which_unit_menu_cycles_ok_commits():
    events = run("""
        variant optima
        place a1
        wait 400
        show
        press menu
        press ok
    """)
    shows = [e for e in events if e["type"] == "show"]
    assert "Place: Archer?" in shows[0]["text"].replace("|", "").replace("\n", " ")
    assert moves_of(events) == ["CE@a1"]   # Archer first (placeable order), MENU: Centaur, OK
    end = final(events)
    assert end["fen"].split()[2] == "eq:ARCHFAJUKEMAQUREVR*arcechfajukemaqurevr*"
    assert end["fen"].split()[1] == "b"
    assert "Black: set a piece on rank 10." in text(end["display"])


def test_O5_placement_waits_for_ok_and_back_cancels():
    events = run("""
        variant optima
        place c1
        wait 5000
        press back
        wait 2000
    """)
    assert moves_of(events) == []                   # nothing plays without OK
    errors = [e for e in events if e["type"] == "error"]
    assert errors and errors[-1]["extra"] == ["c1"]  # cancelled: the unit must come off again
    events = run("""
        variant optima
        place c1
        wait 400
        press back
        lift c1
        wait 400
        place d1
        wait 400
        press ok
    """)
    assert moves_of(events) == ["AR@d1"]


def test_O5_choose_first_then_place_commits_when_it_rests():
    events = run("""
        variant optima
        press menu
        show
        press menu
        press menu
        press ok
        show
        place e1
        show
        wait 400
    """)
    shows = [e["text"] for e in events if e["type"] == "show"]
    assert "Choose: Archer?" in shows[0].replace("|", "").replace("\n", " ")
    assert "set the Chimaera on rank 1" in " ".join(shows[1].replace("|", "").split())
    assert "Chimaera set on e1." in " ".join(shows[2].replace("|", "").split())
    assert moves_of(events) == ["CH@e1"]   # no question asked: it was chosen


def test_O5_choose_menu_past_the_last_unit_opens_the_game_menu():
    c = Controller(Settings(variant="optima"), fen="start")
    c.on_frame(0, c.expected_squares)
    for _ in range(len(c.position.placeable()) + 1):
        c.on_button(10, "menu")
    assert c.display[0].startswith("Choose a game")   # the game chooser first: Optima among the 10x10 games
    assert "OK   Ultima, Optima >" in c.display and "MENU Resign, draw >" in c.display
    c.on_button(10, "menu")
    assert "Resign White?" in text(c.display)


def test_O5_royal_units_are_offered_by_name_with_their_mark():
    """u1, royals first (O5): only the two royal tokens are offered first."""
    events = run(f"""
        variant optima {U1_FEN}
        place f1
        wait 400
        show
        press menu
        show
        press ok
    """)
    shows = [" ".join(e["text"].replace("|", "").split()) for e in events if e["type"] == "show"]
    assert "Place: Queen (royal)?" in shows[0]
    assert "Place: Viceroy (royal)?" in shows[1]
    assert moves_of(events) == ["VR*@f1"]


def test_O5_single_choice_placement_commits_like_a_move():
    """R2: Black's last u1 9x9 placement can only be the Spy."""
    fen = ("2faqucr*ju3/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/"
           "CHKE1RECR*AR3 b u1:SY - 9")
    events = run(f"""
        variant optima-9x9 {fen}
        place h9
        wait 400
    """)
    assert moves_of(events) == ["SY@h9"]
    assert final(events)["fen"].split()[1:3] == ["w", "-"]


def test_O5_setup_of_a_placement_game_shows_pawns_and_guards_only():
    """Point 9: the pieces of an Optima start are in hand, not on the board."""
    c = Controller(Settings(variant="optima"))
    assert c.mode == "setup"
    ranks = sorted({int(sq[1:]) for sq in c.expected_squares})
    assert ranks == [2, 3, 8, 9] and len(c.expected_squares) == 40
    c.on_frame(0, set(c.expected_squares))
    c.on_tick(500)
    c.on_frame(600, set(c.expected_squares) | {"b1"})   # a first placement starts the game
    c.on_tick(1000)
    assert c.mode == "play" and c.game_id is not None
    assert "Place: Archer?" in text(c.display)


def test_O4_random_start_is_set_up_piece_by_piece_by_name():
    c = Controller(Settings(variant="optima"), fen=None)
    events = c.new_game(0, RANDOM_FEN, setup=True)
    assert c.mode == "setup" and len(c.expected_squares) == 60
    c.on_frame(0, set())
    c.on_button(10, "menu")   # Game
    c.on_button(20, "menu")   # Forces
    c.on_button(30, "menu")   # Clock
    c.on_button(40, "menu")   # piece by piece
    assert "White Basilisk on a1" in text(c.display)
    for _ in range(9):
        c.on_button(50, "menu")
    assert "White Viceroy (royal) on j1" in text(c.display)
    assert any(e["type"] == "setup" for e in events)


# ---------------------------------------------------------------- game choice (point 18)
def test_O1_both_optima_games_are_offered_on_the_10x10_board_only():
    assert {"optima", "optima-9x9"} <= set(games_for("10x10"))
    assert not {"optima", "optima-9x9"} & set(games_for("maxima"))


def test_O4_forces_menu_in_setup_cycles_the_kinds():
    pytest.importorskip("maxima_board.rules.optima.forces")
    c = Controller(Settings(variant="optima", board_kind="10x10"), fen=None)
    c.on_frame(0, set())
    c.on_button(10, "menu")
    assert "MENU Forces, clock >" in c.display        # the game chooser, its MENU row going on to the forces
    c.on_button(20, "menu")
    assert c.display[1] == "Forces: eq"
    c.on_button(30, "ok")
    assert c.display[1] == "Forces: u1"
    assert c.position.fen().split()[2].startswith("u1:")
    assert c.settings.forces == "u1"


def test_O4_forces_and_seed_script_lines_and_config_keys():
    assert parse_line("forces u2", 1).arg == "u2"
    assert parse_line("seed 7", 1).arg == 7
    with pytest.raises(ScriptError, match="line 3: forces needs one of eq, u1, u2, random"):
        parse_line("forces u3", 3)
    with pytest.raises(ScriptError, match="line 2: seed needs a whole number"):
        parse_line("seed x", 2)
    with pytest.raises(ValueError, match="setting forces must be one of"):
        Settings(forces="u9")


def test_O4_forces_and_seed_config_keys(tmp_path):
    from maxima_board.cli.config import ConfigError, parse_config

    config = parse_config('hardware = "sim"\n[board]\nkind = "10x10"\n'
                          '[game]\nvariant = "optima"\nforces = "u2"\nseed = 7\n', environ={})
    values = config.settings_values
    assert (values["variant"], values["forces"], values["seed"]) == ("optima", "u2", 7)
    settings = Settings(**{k: v for k, v in values.items() if k in Settings.names()})
    fen = Controller(settings).position.fen()
    assert fen.split()[2].startswith("u2:") and fen == Controller(settings).position.fen()
    with pytest.raises(ConfigError, match=r"\[game\] forces"):
        parse_config('hardware = "sim"\n[game]\nforces = "u3"\n', environ={})
    with pytest.raises(ConfigError, match=r"\[game\] forces: \"u2\" .* 10x10 only"):
        parse_config('hardware = "sim"\n[board]\nkind = "10x10"\n[game]\nvariant = "optima-9x9"\n'
                     'forces = "u2"\n', environ={})


def test_O4_forces_lines_choose_the_start_of_the_first_game():
    pytest.importorskip("maxima_board.rules.optima.forces")
    one = final(run("forces u1\nseed 7\nvariant optima"))["fen"]
    again = final(run("forces u1\nseed 7\nvariant optima"))["fen"]
    other = final(run("forces u1\nseed 8\nvariant optima"))["fen"]
    assert one == again and one.split()[2].startswith("u1:")
    assert other != one
    rnd = final(run("forces random\nseed 3\nvariant optima-9x9"))["fen"]
    assert rnd.split()[2] == "-" and rnd.split("/")[0] != "9"


# ---------------------------------------------------------------- store and record
def test_O15_placement_game_is_stored_resumed_and_recorded(tmp_path):
    store = GameStore(str(tmp_path / "games.db"))
    runner = Runner(Settings(variant="optima"), fen=U1_FEN, store=store, variant="optima")
    for line in ("place a1", "wait 400", "press ok"):
        runner.do(parse_line(line, 1, "optima"))
    c = runner.controller
    assert c.moves == ["QU*@a1"]
    fen = c.position.fen()
    again = Controller(Settings(variant="maxima"), GameStore(str(tmp_path / "games.db")))
    assert again.variant == "optima" and again.moves == ["QU*@a1"] and again.position.fen() == fen
    assert again.position.phase == "placement"
    again.on_frame(0, set(runner.board))
    again.on_tick(1000)
    assert again.mode == "play" and "Black: set the Viceroy (royal) on rank 10." in text(again.display)
    record = game_record(store, store.games()[-1])
    assert record.tags["Variant"] == "Optima"
    assert (record.tags["Board"], record.tags["Forces"], record.tags["Rules"]) == ("10x10", "u1", "-")
    assert record.tags["FEN"] == U1_FEN
    assert record.moves == ["QU*@a1"]


def test_O15_record_tags_of_a_9x9_equal_game(tmp_path):
    store = GameStore(str(tmp_path / "games.db"))
    Runner(Settings(variant="optima-9x9"), store=store, variant="optima-9x9")
    tags = game_record(store, store.games()[-1]).tags
    assert (tags["Variant"], tags["Board"], tags["Forces"]) == ("Optima", "9x9", "eq")
    assert "FEN" not in tags


# ---------------------------------------------------------------- promotion (O7)
def test_O7_pawn_becomes_wizard_without_a_question():
    """R5: e9-e10=WI is the pawn's only choice; the OLED says what to put there."""
    events = run("""
        variant optima vr*2ar6/4PNPN4/3pn6/4gd5/10/10/10/10/10/9VR* w - - 0
        lift e9
        place e10
        wait 400
    """)
    assert moves_of(events) == ["e9-e10=WI"]
    end = final(events)
    assert end["fen"].split()[0].startswith("vr*2arWI5/")
    assert "Pawn becomes Wizard: put a Wizard on e10." in text(end["display"])
    assert end["leds"].get("e10") == "setup-missing"


def test_O7_promotion_by_capture_and_the_note_goes_with_the_next_move():
    events = run("""
        variant optima vr*2ar6/4PNPN4/3pn6/4gd5/10/10/10/10/10/9VR* w - - 0
        lift d10
        lift e9
        place d10
        wait 400
        lift d8
        place d7
        wait 400
    """)
    assert moves_of(events) == ["e9-d10xd10=WI", "d8-d7"]
    assert "Wizard" not in text(final(events)["display"])


# ---------------------------------------------------------------- rifle (O9.6, point 16)
@needs("SW")
def test_O9_6_rifle_shot_only_the_target_leaves_and_waits_or_ok():
    """R30: Swordsman d4 shoots f6; the shooter never leaves d4."""
    fen = "9vr*/10/10/10/5ar4/3pn6/3SW6/10/1gd8/9VR* w - - 0"
    events = run(f"""
        variant optima {fen}
        lift f6
        wait 400
        show
        wait 3000
    """)
    show = " ".join([e for e in events if e["type"] == "show"][0]["text"].replace("|", "").split())
    assert "Swordsman d4 takes f6 in 3 s. OK = now." in show
    assert moves_of(events) == ["d4-d4xf6"]   # after the countdown
    events = run(f"""
        variant optima {fen}
        lift d4
        place d4
        lift f6
        wait 400
        press ok
    """)
    assert moves_of(events) == ["d4-d4xf6"]   # a touch of the shooter does not matter; OK plays at once
    assert final(events)["fen"].split()[0] == "9vr*/10/10/10/10/3pn6/3SW6/10/1gd8/9VR*"


@needs("SW")
def test_O9_6_lifting_the_target_then_the_shooter_is_a_replacement_capture():
    events = run("""
        variant optima 9vr*/10/10/10/5ar4/3pn6/3SW6/10/1gd8/9VR* w - - 0
        lift f6
        wait 400
        lift d4
        place f6
        wait 400
    """)
    assert moves_of(events) == ["d4-f6xf6"]


@needs("VR")
def test_O12_8_viceroy_capture_and_return_t_equals_s():
    """R23: a1-a1xb2, the Viceroy ends where it started."""
    events = run("""
        variant optima 9vr*/10/10/10/10/10/10/2gd7/PNpn8/VRGD7VR* w - - 0
        lift b2
        wait 400
        press ok
    """)
    assert moves_of(events) == ["a1-a1xb2"]


# ---------------------------------------------------------------- conversion (O11, point 15)
@needs("AG")
def test_O11_conversion_exchange_the_unit_on_its_square():
    """R16: the Agent c1 leaps to h6 and converts g5; the board sees the
    conversion only by the lift and place on g5."""
    fen = "10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"
    events = run(f"""
        variant optima {fen}
        lift c1
        place h6
        wait 400
        show
        lift g5
        wait 400
        show
        place g5
        wait 400
    """)
    shows = [" ".join(e["text"].replace("|", "").split()) for e in events if e["type"] == "show"]
    assert "Convert to White: Archer g5." in shows[0] and "lit: g5 setup-missing" in shows[0]   # lit setup-missing
    assert "Put a White Archer on g5." in shows[1]
    assert moves_of(events) == ["c1-h6^g5"]
    assert final(events)["fen"].split()[0] == "10/10/9gd/8pn1/7AG2/6AR3/10/4qu5/1vr*1PN6/9VR*"


@needs("AG")
def test_O11_conversion_does_not_play_before_the_unit_is_exchanged():
    events = run("""
        variant optima 10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0
        lift c1
        place h6
        wait 5000
    """)
    assert moves_of(events) == []
    assert not [e for e in events if e["type"] == "error"]   # guided, not an error


@needs("KE")
def test_O11_swap_conversion_says_what_to_put_on_the_start_square():
    """R18 (a pawn for the guard on d1): the Keep d2 swaps with the pawn
    d1: the Keep goes to d1, a White Pawn to d2."""
    fen = "10/10/10/10/10/3ar6/10/4pn5/qu2KE2vr*3/3pn5VR* w - - 0"   # R18 with a pawn on d1
    events = run(f"""
        variant optima {fen}
        lift d1
        lift d2
        place d1
        wait 400
        show
        place d2
        wait 400
    """)
    show = " ".join([e for e in events if e["type"] == "show"][0]["text"].replace("|", "").split())
    assert "Put a White Pawn on d2." in show
    assert moves_of(events) == ["d2-d1^d1"]
    assert final(events)["fen"].split()[0].endswith("/qu2PN2vr*3/3KE5VR*")
    after = Position(final(events)["fen"], "optima")
    assert after.piece_at("d2").name == "Pawn" and after.piece_at("d2").color == 1
    assert after.piece_at("d1").name == "Keep"


@needs("CR")
def test_O11_swap_conversion_onto_a_royal_captures_it_and_leaves_the_start_empty():
    """R17: e5-g6xg6: the Crusader lands on g6, the royal Viceroy is captured."""
    events = run("""
        variant optima 10/10/10/10/4arquvr*3/3PNCR5/10/10/10/9VR* w - - 0
        lift g6
        lift e5
        place g6
        wait 400
    """)
    assert moves_of(events) == ["e5-g6xg6"]
    assert final(events)["result"] == "1-0" and final(events)["reason"] == "royal captured"


# ---------------------------------------------------------------- whole games
class BoardRunner(Runner):
    """A runner whose frames go through :class:`BoardView` on the 10x10
    board (board square names: the same as the game's for both Optima games)."""

    def _frame(self) -> list[dict]:
        return self.controller.on_frame(self.now, frozenset(self.board))


def play_through_controller(fen: str, variant: str, seed: int, max_plies: int, board: bool = False) -> Controller:
    """A game from ``fen`` played by hand on the simulated board: every
    move made by lifts and placements of its signature (hands.hand_lines),
    checked as it commits. ``board``: through the 10x10 board's BoardView."""
    rng = random.Random(seed)
    settings = Settings(variant=variant, board_kind="10x10")
    runner = Runner(settings, fen=fen, variant=variant)
    c = runner.controller
    if board:
        view = BoardView(c, "10x10")
        runner = BoardRunner.attach(view, set(runner.board), runner.now)
    while c.result == "*" and len(c.moves) < max_plies:
        p = c.position
        move = pick_move(p, rng)
        lines = hand_lines(p, move, rng, settings.settle_ms, c.table)
        before = len(c.moves)
        for step in parse_script(lines, variant):
            runner.do(step)
        assert c.moves[before:] == [str(move)], (c.position.fen(), lines)
        assert runner.board == set(c.expected_squares)
        if board:
            assert not runner.controller.outside and "error-extra" not in runner.controller.leds.values()
    return c


def drawn(variant: str, forces: str, seed: int) -> str:
    """A start drawn by the engine's O4 generator (53 types to draw from)."""
    from maxima_board.rules.optima.forces import start_fen

    return start_fen(variant, forces, seed=seed)


KINDS = {"eq": (E10, "optima"), "u1": (U1_FEN, "optima"), "u2": (U2_FEN, "optima"),
         "random": (RANDOM_FEN, "optima"), "eq-9x9": (E9, "optima-9x9"),
         "u1-drawn": (drawn("optima", "u1", 11), "optima"), "u2-drawn": (drawn("optima", "u2", 12), "optima"),
         "random-drawn": (drawn("optima", "random", 13), "optima"),
         "eq-drawn": (drawn("optima", "eq", 14), "optima"),
         "u1-9x9-drawn": (drawn("optima-9x9", "u1", 15), "optima-9x9"),
         "random-9x9-drawn": (drawn("optima-9x9", "random", 16), "optima-9x9")}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_O13_a_whole_game_from_placement_to_the_end_through_the_controller(kind):
    """A full random game of each kind (equal, unequal single-royal,
    unequal double-royal, random; and equal on 9x9), played by a simulated
    player from the placement to a real end (O13)."""
    fen, variant = KINDS[kind]
    c = play_through_controller(fen, variant, seed=1, max_plies=300)
    assert c.result != "*", f"no end in 300 plies: {c.position.fen()}"
    assert c.reason in ("royal captured", "no moves", "threefold repetition")
    start = Position(fen, variant)
    for text_move in c.moves:
        start.push(text_move)
    assert start.fen() == c.position.fen()
    placements = [m for m in c.moves if "@" in m]
    assert len(placements) == (0 if "random" in kind else 10 if "9x9" in kind else 20)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 8))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_O13_more_whole_games_through_the_controller(kind, seed):
    fen, variant = KINDS[kind]
    c = play_through_controller(fen, variant, seed=seed, max_plies=400)
    assert c.result != "*"


@pytest.mark.parametrize("kind", ["eq", "eq-9x9"])
def test_O1_whole_games_on_the_10x10_board_through_the_board_view(kind):
    fen, variant = KINDS[kind]
    c = play_through_controller(fen, variant, seed=5, max_plies=300, board=True)
    assert c.result != "*" and c.reason == "royal captured"


def test_O1_the_9x9_game_on_the_10x10_board_through_the_board_view():
    """Optima 9x9 stands on a1...i9 of the 10x10 board: a placement on the
    board's e1 is the game's e1; a piece on j10 lights red and blocks."""
    c = Controller(Settings(variant="optima-9x9", board_kind="10x10"), fen="start")
    view = BoardView(c, "10x10")
    board = set(c.expected_squares)
    view.on_frame(0, board)
    view.on_frame(100, board | {"j10"})
    view.on_tick(2000)
    assert view.leds.get("j10") == "error-extra"
    view.on_frame(2100, board | {"e1"})
    view.on_tick(2500)
    assert "Place: Chimaera?" in text(view.display)
    view.on_button(2600, "ok")
    assert c.moves == ["CH@e1"]
    assert view.leds.get("e1") in ("last-to", None)


# ---------------------------------------------------------------- several captures (O9.2, O9.5, O9.8)
@needs("CG")
def test_O9_5_proximity_captures_lit_remove_after_the_mover_lands():
    """R9 with rules '-': the Charger d4-e6 takes d7 and e7 (not the
    shielded Marshal c7); they blink 'remove' until they are off."""
    events = run("""
        variant optima 9vr*/10/10/2maarpn5/6gd3/10/3CG2pn3/5pn4/4PN5/VR*9 w - - 0
        lift d4
        place e6
        wait 400
        show
        lift e7
        wait 400
        show
        lift d7
        wait 400
    """)
    shows = [" ".join(e["text"].replace("|", "").split()) for e in events if e["type"] == "show"]
    assert "lit: d7 remove, e7 remove" in shows[0] and "Remove: Archer d7, Pawn e7." in shows[0]
    assert "lit: d7 remove" in shows[1] and "Remove: Archer d7." in shows[1]
    assert moves_of(events) == ["d4-e6xd7,e7"]


@needs("LE")
def test_O9_2_plow_captures_taken_off_before_the_mover_moves():
    """R12: the Legion d3-a3 takes b3 and c3 on its path."""
    events = run("""
        variant optima 9vr*/10/10/10/3gd6/10/3pn6/1arpnLE1PN4/10/9VR* w - - 0
        lift b3
        lift c3
        lift d3
        place a3
        wait 400
    """)
    assert moves_of(events) == ["d3-a3xb3,c3"]


@needs("VR")
def test_O12_8_a_move_that_may_still_capture_waits_for_its_captures():
    """The Viceroy's f5-d5 (via e5 or e4) and f5-d5xe6 (via e6) end on the
    same square: set down on d5 with the Guard e6 still standing, the plain
    move waits (countdown, OK plays it) so that e6 can still come off."""
    fen = "9vr*/10/10/10/4gd5/5VR*4/10/10/10/10 w - - 0"
    events = run(f"""
        variant optima {fen}
        lift f5
        place d5
        wait 400
        show
        wait 1000
        lift e6
        wait 400
    """)
    show = " ".join([e for e in events if e["type"] == "show"][0]["text"].replace("|", "").split())
    assert "Viceroy f5-d5 in 3 s. OK = now; or take off what it captures." in show
    assert moves_of(events) == ["f5-d5xe6"]
    events = run(f"""
        variant optima {fen}
        lift f5
        place d5
        wait 3500
    """)
    assert moves_of(events) == ["f5-d5"]


def test_O5_placement_taken_back_with_back_and_by_lifting_it():
    events = run("""
        variant optima
        place a1
        wait 400
        press ok
        press back
        show
        lift a1
        wait 400
        place b1
        wait 400
        press ok
        lift b1
        wait 400
    """)
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["AR@a1", "AR@b1"]
    show = " ".join([e for e in events if e["type"] == "show"][0]["text"].replace("|", "").split())
    assert "Take the piece off a1." in show and "Undo Archer AR@a1" in show
    end = final(events)
    assert end["moves"] == [] and end["fen"] == E10
    assert "White: set a piece on rank 1." in text(end["display"])


@needs("AG")
def test_O11_conversion_taken_back_asks_for_the_unit_of_the_old_colour():
    fen = "10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"
    events = run(f"""
        variant optima {fen}
        lift c1
        place h6
        lift g5
        place g5
        wait 400
        press back
        show
        lift h6
        place c1
        wait 400
        show
        lift g5
        place g5
        wait 400
    """)
    assert moves_of(events) == ["c1-h6^g5"]
    shows = [" ".join(e["text"].replace("|", "").split()) for e in events if e["type"] == "show"]
    assert "Black Archer" in shows[1] and "g5" in shows[1]
    assert [e["type"] for e in events if e["type"] in ("takeback", "sync")] == ["takeback", "sync"]
    assert final(events)["fen"].split()[0] == fen.split()[0]


def test_O5_an_offer_not_taken_is_forgotten_after_the_placement():
    events = run("""
        variant optima
        press menu
        press menu
        place a1
        wait 400
        press ok
        wait 400
    """)
    assert moves_of(events) == ["AR@a1"]   # the piece set down is asked for from the first unit
    assert "Black: set a piece on rank 10." in text(final(events)["display"])


def test_O4_forces_lines_in_the_sim_console():
    import io

    from maxima_board.cli.sim import Sim

    from maxima_board.service.opponent_layer import OpponentLayer

    out = io.StringIO()   # as `maxima-board sim` runs it: the opponent's layer around the controller
    sim = Sim(Settings(), GameStore(":memory:"), out, clock=lambda: 0.0,
              wrap=lambda c: OpponentLayer(c, "none", 1, "builtin"))
    for n, line in enumerate(["forces u1", "seed 3", "variant optima", "place e1", "wait 400"], 1):
        assert sim.command(line, n)
    assert sim.controller.position.fen().split()[2].startswith("u1:")
    assert "(royal)?" in " ".join(text(sim.controller.display).split())


@needs("AG")
def test_O11_the_converted_unit_may_be_exchanged_before_the_mover_moves():
    events = run("""
        variant optima 10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0
        lift g5
        wait 400
        place g5
        wait 400
        lift c1
        place h6
        wait 400
    """)
    assert moves_of(events) == ["c1-h6^g5"]


@needs("AM")
def test_O11_swap_conversion_of_a_unit_of_the_movers_own_type():
    """Ambassador g8 swaps with the White Ambassador g6: g8 ends as it was
    (a Black Ambassador), yet the mover must have been lifted: touching g6
    alone is no move."""
    fen = "4gdengd1cecm*/2pn2gd1gdgdgd/6am3/9pn/1gd4AM3/10/10/1PNGD2PNGD1PNPN/GDGDCM*4GD1GD/CEEN3LE4 b - - 97"
    touched = run(f"""
        variant optima {fen}
        lift g6
        place g6
        wait 4000
    """)
    assert moves_of(touched) == []
    events = run(f"""
        variant optima {fen}
        lift g6
        lift g8
        place g6
        wait 400
        show
        place g8
        wait 400
    """)
    show = " ".join([e for e in events if e["type"] == "show"][0]["text"].replace("|", "").split())
    assert "Put a Black Ambassador on g8." in show
    assert moves_of(events) == ["g8-g6^g6"]


def test_O15_forces_tag_random_only_for_a_drawn_random_start(tmp_path):
    store = GameStore(str(tmp_path / "games.db"))
    Runner(Settings(variant="optima", forces="random", seed=5), store=store, variant="optima")
    tags = game_record(store, store.games()[-1]).tags
    assert tags["Forces"] == "random" and tags["FEN"].split()[2] == "-"
    store = GameStore(str(tmp_path / "other.db"))
    Runner(Settings(variant="optima"), fen="9vr*/10/10/10/5ar4/3pn6/3SW6/10/1gd8/9VR* w - - 0",
           store=store, variant="optima")
    assert "Forces" not in game_record(store, store.games()[-1]).tags   # a position, not a start of O4


# ---------------------------------------------------------------- replay scripts (the replay contract)
REPLAYS = sorted((Path(__file__).parent / "replays" / "optima").glob("*.txt"))


@pytest.mark.parametrize("script", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_O5_O7_O9_O11_replay_scripts_through_the_replay_command(script):
    """``maxima-board replay`` on each script of tests/replays/optima: the
    committed moves are those its ``# expect:`` line names, in order."""
    expect = next(line.split(":", 1)[1].split() for line in script.read_text().splitlines()
                  if line.startswith("# expect:"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", str(script)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["move"] for e in out if e["type"] == "move"] == expect
    assert out[-1]["type"] == "final" and out[-1]["moves"] == expect


def test_O5_hints_light_the_free_squares_of_the_first_rank():
    events = run("""
        variant optima
        place c1
        wait 400
        press ok
        wait 400
    """, hints=True)
    leds = final(events)["leds"]
    assert sorted(sq for sq, state in leds.items() if state == "hint") == [f"{f}10" for f in "abcdefghij"]
    assert run("variant optima", hints=False)[-1]["leds"] == {}
