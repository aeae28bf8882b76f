"""The controller plays every game: castling (11), en passant (12),
promotion (13), swaps and mutual destruction (14), choosing the game (18),
on each game's own squares, in every order a person might use; pieces on
board squares outside the game; the game stored with each record."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from maxima_board.board.core import Controller
from maxima_board.board.games import short_title
from maxima_board.service.record import export_text
from maxima_board.service.script import Runner, ScriptError, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position

TENX8 = "coordinator-chess-10x8"
TENX10 = "coordinator-chess"
# King f1 and Rooks a1/j1 of both sides: castling f1-i1 (Rook j1-h1) and f1-c1 (Rook a1-d1)
CASTLE_8 = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
CASTLE_10 = "r4k3r/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
EN_PASSANT = "4k5/10/10/3pP5/10/10/10/4K5 w - d6 0 1"         # Black just played d7-d5
PROMOTION = "9k/4P5/10/10/10/10/10/K9 w - - 0 1"
SWAPPER = "9k/10/10/10/4n5/4S5/10/K9 w - - 0 1 -"             # Swapper e3 beside a Black Knight e4


def run(variant: str, fen: str, script: str, **settings) -> tuple[list[dict], dict]:
    steps = parse_script(textwrap.dedent(script).strip().splitlines(), variant)
    events = list(replay(steps, Settings(**settings), fen, variant=variant))
    return events, events[-1]


def moves(events: list[dict]) -> list[str]:
    return [e["move"] for e in events if e["type"] == "move"]


def errors(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == "error"]


def words(lines: list[str]) -> str:
    return " ".join(lines)


# ---------------------------------------------------------------- 11 castling
CASTLINGS = {
    "king first, one hand": "lift f1\nplace i1\nwait 2000\nlift j1\nplace h1\nwait 300",
    "rook first, one hand": "lift j1\nplace h1\nwait 1000\nlift f1\nplace i1\nwait 300",
    "two hands, King lands first": "lift f1\nlift j1\nplace i1\nplace h1\nwait 300",
    "two hands, Rook lands first": "lift j1\nlift f1\nplace h1\nplace i1\nwait 300",
    "King slides over g1 and h1": "lift f1\nplace g1\nwait 100\nlift g1\nplace i1\nlift j1\nplace h1\nwait 300",
}


@pytest.mark.parametrize("variant,fen", [(TENX8, CASTLE_8), (TENX10, CASTLE_10)])
@pytest.mark.parametrize("order", list(CASTLINGS))
def test_11_castling_in_either_order_with_one_hand_or_two(variant, fen, order):
    events, final = run(variant, fen, CASTLINGS[order])
    assert moves(events) == ["f1-i1"] and not errors(events)
    after = Position(fen, variant)
    after.push("f1-i1")
    assert final["fen"] == after.fen()


def test_11_the_castling_just_played_lights_king_and_rook():
    _, final = run(TENX8, CASTLE_8, "lift f1\nlift j1\nplace i1\nplace h1\nwait 300")
    assert final["leds"] == {"f1": "last-from", "j1": "last-from", "i1": "last-to", "h1": "last-to"}


def test_11_queen_side_castling_rook_first():
    events, _ = run(TENX8, CASTLE_8, "lift a1\nplace d1\nwait 500\nlift f1\nplace c1\nwait 300")
    assert moves(events) == ["f1-c1"]


def test_11_half_a_castling_is_guided_not_an_error():
    """King on its square, the Rook not yet: the OLED names the Rook's move
    and lights its square; no error however long the player takes."""
    events, final = run(TENX8, CASTLE_8, "lift f1\nplace i1\nwait 5000")
    assert moves(events) == [] and not errors(events)
    assert "Castling: Rook j1 to h1." in words(final["display"])
    assert final["leds"] == {"h1": "setup-missing"}


def test_11_a_rook_move_that_may_begin_a_castling_waits_then_commits_or_ok_at_once():
    events, final = run(TENX8, CASTLE_8, "lift j1\nplace h1\nwait 1000")
    assert moves(events) == [] and "go on castling" in words(final["display"])
    events, _ = run(TENX8, CASTLE_8, "lift j1\nplace h1\nwait 3000")
    assert moves(events) == ["j1-h1"]
    events, _ = run(TENX8, CASTLE_8, "lift j1\nplace h1\nwait 300\npress ok")
    assert moves(events) == ["j1-h1"]


@pytest.mark.parametrize("script,expected", [
    ("lift f1\nplace i1\nwait 1000\nlift i1\nplace f1\nwait 300", []),                  # King back home
    ("lift f1\nplace i1\nwait 1000\nlift i1\nplace g1\nwait 300", ["f1-g1"]),           # a King step instead
    ("lift j1\nplace h1\nwait 1000\nlift h1\nplace j1\nwait 3000", []),                 # Rook back home
    ("lift f1\nlift j1\nwait 500\nplace j1\nplace f1\nwait 300\nlift e2\nplace e4\nwait 300", ["e2-e4"]),
])
def test_11_change_of_mind_halfway_through_a_castling(script, expected):
    events, final = run(TENX8, CASTLE_8, script)
    assert moves(events) == expected and not errors(events)
    assert not {"error-extra", "error-missing"} & set(final["leds"].values())


# ---------------------------------------------------------------- 12 en passant
@pytest.mark.parametrize("script", [
    "lift d5\nwait 300\nlift e5\nplace d6\nwait 300",          # victim first
    "lift e5\nplace d6\nwait 2000\nlift d5\nwait 300",         # victim after, guided
    "lift e5\nlift d5\nplace d6\nwait 300",                    # both in hand
])
def test_12_en_passant_victim_removed_before_or_after(script):
    events, final = run(TENX8, EN_PASSANT, script)
    assert moves(events) == ["e5-d6xd5"] and not errors(events)


def test_12_en_passant_victim_still_standing_is_lit_to_remove():
    events, final = run(TENX8, EN_PASSANT, "lift e5\nplace d6\nwait 2000")
    assert moves(events) == [] and final["leds"] == {"d5": "remove"}
    assert "Remove: Pawn d5." in words(final["display"])


# ---------------------------------------------------------------- 13 promotion
def test_13_promotion_asks_queen_first_and_menu_cycles_the_games_choices():
    script = "lift e7\nplace e8\nwait 300\n"
    events, final = run(TENX8, PROMOTION, script)
    assert moves(events) == [] and "Promote to: Queen." in words(final["display"])
    assert final["leds"] == {"e8": "setup-missing"}      # the promoting Pawn is marked
    shown = []
    for n in range(6):
        _, final = run(TENX8, PROMOTION, script + "press menu\n" * n)
        shown.append(words(final["display"]).split("Promote to: ")[1].split(".")[0])
    assert shown == ["Queen", "Rook", "Bishop", "Knight", "Coordinator", "Queen"]


@pytest.mark.parametrize("presses,move", [(0, "e7-e8=Q"), (1, "e7-e8=R"), (3, "e7-e8=N"), (4, "e7-e8=C")])
def test_13_ok_confirms_the_promotion_piece(presses, move):
    events, _ = run(TENX8, PROMOTION, "lift e7\nplace e8\nwait 5000\n" + "press menu\n" * presses + "press ok")
    assert moves(events) == [move]


def test_13_back_before_ok_cancels_and_the_pawn_goes_back():
    events, final = run(TENX8, PROMOTION, "lift e7\nplace e8\nwait 300\npress menu\npress back\nwait 2000")
    assert moves(events) == []
    assert final["leds"] == {"e7": "error-missing", "e8": "error-extra"}
    assert "Put the Pawn back on e7 from e8." in words(final["display"])
    events, final = run(TENX8, PROMOTION, "lift e7\nplace e8\nwait 300\npress back\nlift e8\nplace e7\nwait 300\n"
                                          "lift e7\nplace e8\nwait 300\npress ok")
    assert moves(events) == ["e7-e8=Q"]


def test_13_promotion_with_a_capture_lifts_the_victim():
    fen = "3r5k/4P5/10/10/10/10/10/K9 w - - 0 1"
    events, _ = run(TENX8, fen, "lift d8\nlift e7\nplace d8\nwait 300\npress menu\npress ok")
    assert moves(events) == ["e7-d8xd8=R"]


# ---------------------------------------------------------------- 14 swaps, mutual destruction
@pytest.mark.parametrize("script", [
    "lift e3\nlift e4\nplace e3\nplace e4\nwait 300",     # both in one hand, or one in each
    "lift e4\nlift e3\nplace e4\nplace e3\nwait 300",
    "lift e3\nlift e4\nwait 1500\nplace e4\nplace e3\nwait 300",
])
def test_14_swap_both_lifted_and_exchanged(script):
    events, final = run("swapper-chess-10x8", SWAPPER, script)
    assert moves(events) == ["e3<>e4"] and not errors(events)


def test_14_lifting_one_piece_and_putting_it_back_is_no_swap():
    events, _ = run("swapper-chess-10x8", SWAPPER, "lift e3\nwait 500\nplace e3\nwait 300\nlift e4\nplace e4\nwait 300")
    assert moves(events) == []


def test_14_swap_with_a_distant_piece_on_the_10x10_board():
    fen = "9k/10/10/10/10/10/10/4n5/10/K3S5 w - - 0 1 -"
    events, _ = run("swapper-chess", fen, "lift e3\nlift e1\nplace e1\nplace e3\nwait 300")
    assert moves(events) == ["e1<>e3"]


def test_14_mutual_destruction_both_pieces_off_counts_down_or_ok():
    events, final = run("swapper-chess-10x8", SWAPPER, "lift e3\nlift e4\nwait 1000")
    assert moves(events) == [] and "Swapper e3, Knight e4 off in 2 s." in words(final["display"])
    events, _ = run("swapper-chess-10x8", SWAPPER, "lift e4\nlift e3\nwait 3000")
    assert moves(events) == ["e3-Sxe4"]
    events, _ = run("swapper-chess-10x8", SWAPPER, "lift e3\nlift e4\nwait 300\npress ok")
    assert moves(events) == ["e3-Sxe4"]


def test_14_a_swap_is_taken_back_by_exchanging_the_pieces_again():
    events, final = run("swapper-chess-10x8", SWAPPER,
                        "lift e3\nlift e4\nplace e3\nplace e4\nwait 300\npress back\nwait 300")
    assert [e["type"] for e in events if e["type"] in ("move", "takeback", "sync")] == ["move", "takeback"]
    events, final = run("swapper-chess-10x8", SWAPPER,
                        "lift e3\nlift e4\nplace e3\nplace e4\nwait 300\npress back\n"
                        "lift e3\nlift e4\nplace e3\nplace e4\nwait 300")
    assert [e["type"] for e in events if e["type"] in ("move", "takeback", "sync")] == ["move", "takeback", "sync"]


# ---------------------------------------------------------------- Ultima on its own squares
def test_ultima_plays_on_its_own_squares():
    events, final = run("ultima", "start", "lift e2\nplace e5\nwait 300\nlift d7\nplace d4\nwait 300")
    assert moves(events) == ["e2-e5", "d7-d4"]
    with pytest.raises(ScriptError, match="unknown square 'k1'"):
        parse_script(["lift k1"], "ultima")


# ---------------------------------------------------------------- outside squares
def test_a_piece_outside_the_game_is_lit_named_and_blocks_commits():
    c = Controller(Settings(), GameStore(":memory:"), fen="start", variant="ultima")
    board = set(c.expected_squares)
    c.on_frame(0, board)
    board = (board - {"e2"}) | {"e5"}
    c.on_frame(100, board, outside={"a0"})
    c.on_tick(5000)
    assert c.moves == []
    assert c.leds["a0"] == "error-extra"
    assert "Clear square a0: it is not part of the game." in " ".join(c.display)
    c.on_frame(5100, board, outside=set())
    events = c.on_tick(5500)
    assert c.moves == ["e2-e5"] and any(e["type"] == "move" for e in events)


def test_script_squares_of_another_game_count_as_outside():
    events, final = run("ultima", "start", "place a9\nlift e2\nplace e5\nwait 3000")
    assert moves(events) == [] and final["leds"].get("a9") == "error-extra"
    assert "Clear square a9" in words(final["display"])


# ---------------------------------------------------------------- 18 choosing the game
def test_18_script_variant_line_starts_a_game_of_that_game():
    events, final = run("maxima", None, """
        lift d3
        place d4
        wait 300
        variant ultima-pure
        lift e2
        place e5
        wait 300
        variant swapper-chess start
        lift e2
        place e5
        wait 300
    """)
    games = [e for e in events if e["type"] == "new_game"]
    assert [g["variant"] for g in games] == ["maxima", "ultima-pure", "swapper-chess"]
    assert moves(events) == ["d3-d4", "e2-e5", "e2-e5"]
    with pytest.raises(ScriptError, match="line 1: unknown variant 'chess'"):
        parse_script(["variant chess"])
    with pytest.raises(ScriptError, match="line 1: bad FEN"):
        parse_script(["variant ultima 8/8 w 0"])


def test_18_menu_in_setup_opens_the_chooser_of_the_boards_games_and_setup_follows():
    script = "board empty\nsetup start\npress menu\n"
    _, final = run("maxima", None, script)
    assert final["display"][1:] == ["OK   Maxima*", "BACK Ultima", "MENU Clock, pieces >", "NEW  Ultima (pure)"]
    chosen = []
    for button in ("ok", "back", "new"):
        events, _ = run("maxima", None, script + f"press {button}\n")
        chosen.append([e["variant"] for e in events if e["type"] == "setup"][-1])
    assert chosen == ["maxima", "ultima", "ultima-pure"]
    # the set-up follows the chosen game: Ultima's 32 pieces, walked by name
    events, final = run("maxima", None, script + "press back\n")
    assert "Place 32, clear 0" in words(final["display"]) and "Set-up" in final["display"][0]
    _, final = run("maxima", None, script + "press back\npress menu\npress menu\npress menu\n")
    assert "White Immobilizer on a1" in words(final["display"])
    events, final = run("maxima", None, script + "press back\nboard start\nwait 300\npress ok\n"
                                               "lift e2\nplace e5\nwait 300")
    assert [e["variant"] for e in events if e["type"] == "new_game"][-1] == "ultima"
    assert moves(events)[-1] == "e2-e5"


def test_18_on_the_10x10_board_every_game_but_maxima():
    from maxima_board.board.games import main_form
    from maxima_board.devices.boards import games_for

    settings = Settings()
    settings.board_kind = "10x10"   # set by the hardware's config ([board] kind)
    games = list(dict.fromkeys(short_title(main_form(g)) for g in games_for("10x10")))   # each Deckle game once
    offered = []
    for group in ("ok", "back", "new"):   # MENU goes on to the clock; the others open a group's page
        runner = Runner(settings, variant="ultima")
        runner.controller.new_game(runner.now, setup=True)
        runner.press("menu"), runner.press(group)
        page = [row[5:].rstrip("*") for row in runner.controller.display[1:] if "<" not in row]
        assert page == sorted(page, key=games.index)                    # in the order of `variants`
        offered += page
    assert sorted(offered) == sorted(games) and len(offered) == 12 and "Maxima" not in offered


def test_18_the_store_keeps_the_game_and_resume_uses_it(tmp_path):
    store = GameStore(str(tmp_path / "g.db"))
    runner = Runner(Settings(), store=store, variant="swapper-chess-10x8")
    for line in ("lift e2", "place e4", "wait 300"):
        runner.do(parse_script([line], "swapper-chess-10x8")[0])
    assert store.unfinished().variant == "swapper-chess-10x8"
    listed = cli("games", "--db", str(tmp_path / "g.db"))
    assert listed.returncode == 0 and "1 plies  playing  Swapper Chess 10x8" in listed.stdout, listed.stderr
    assert '[Variant "Swapper Chess 10x8"]' in export_text(store, 1)
    c = Controller(Settings(), store)           # a restart: the stored game resumes
    assert c.variant == "swapper-chess-10x8" and c.moves == ["e2-e4"] and c.mode == "sync"
    store.close()


def test_18_config_game_variant():
    from maxima_board.cli.config import ConfigError, parse_config

    assert parse_config('hardware = "sim"\n[game]\nvariant = "ultima"\n').settings().variant == "ultima"
    with pytest.raises(ConfigError, match=r'\[game\] variant.*unknown game "ultimate"'):
        parse_config('hardware = "sim"\n[game]\nvariant = "ultimate"\n')
    assert Controller(Settings(variant="ultima-pure")).position.variant.name == "ultima-pure"


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin, text=True,
                          capture_output=True, timeout=60)


def test_18_replay_variant_option_and_a_bad_name():
    done = cli("replay", "--variant", "ultima", "-", stdin="lift e2\nplace e5\nwait 300\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["move"] for e in lines if e["type"] == "move"] == ["e2-e5"]
    bad = cli("replay", "--variant", "chess", "-")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown game 'chess'" in bad.stderr


def test_18_sim_variant_draws_the_chosen_board(tmp_path):
    done = cli("sim", "--db", str(tmp_path / "g.db"), "--variant", "swapper-chess", stdin="show\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "10 r  n  s  b  q  k  b  s  n  r" in done.stdout and "Swapper" in done.stdout


# ---------------------------------------------------------------- signatures
@pytest.mark.parametrize("variant", ["maxima", "ultima", "swapper-chess-10x8", "coordinator-chess", "mimotaur-chess"])
def test_every_table_entry_agrees_with_the_engines_signature(variant):
    """Maxima's moves (one piece moves, captured pieces vanish) are read by
    a shortcut; every entry, shortcut or not, must say what the engine's
    physical signature says: the result, the squares a hand may empty, the
    squares that must be lifted (every replaced square and the origin)."""
    import random

    from maxima_board.board.reconstruct import MoveTable

    rng = random.Random(9)
    for game in range(3):
        p = Position("start", variant)
        for _ in range(60):
            if p.outcome() is not None:
                break
            table = MoveTable(p)
            for e in table.entries:
                sig = p.signature(e.move)
                vacated = sum(1 << s for s in sig.vacated)
                filled = sum(1 << s for s in sig.filled)
                replaced = sum(1 << s for s in sig.replaced)
                assert e.result == (table.expected & ~vacated) | filled, str(e.move)
                assert e.touch == vacated | replaced, str(e.move)
                assert e.lifts & replaced == replaced and e.lifts >> e.move.from_square & 1, str(e.move)
                assert e.gone & ~vacated == 0, str(e.move)
            p.push(rng.choice(p.legal_moves))


def test_13_menu_at_once_after_the_pawn_lands_cycles_the_piece_not_the_game_menu():
    events, final = run(TENX8, PROMOTION, "lift e7\nplace e8\npress menu\nwait 100")
    assert "Promote to: Rook." in words(final["display"])


def test_18_run_variant_option_overrides_the_config(tmp_path):
    config = tmp_path / "board.toml"
    config.write_text(f'hardware = "sim"\n[game]\nvariant = "ultima"\n[database]\npath = "{tmp_path / "g.db"}"\n')
    done = cli("run", "--config", str(config), stdin="show\nquit\n")
    assert done.returncode == 0, done.stderr
    assert " 8 c  l  h  w  k  h  l  i" in done.stdout           # Ultima from the config
    # a resumed game goes on as what it is, and new games follow it
    done = cli("run", "--config", str(config), "--variant", "ultima-pure", stdin="fen start\nshow\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "game 1 resumed" in done.stdout and "Game 2: Ultima  " in done.stdout
    (tmp_path / "g.db").unlink()
    done = cli("run", "--config", str(config), "--variant", "ultima-pure", stdin="show\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Game 1: Ultima (pure)" in done.stdout
    bad = cli("run", "--config", str(config), "--variant", "nope")
    assert bad.returncode == 2 and "unknown game 'nope'" in bad.stderr
