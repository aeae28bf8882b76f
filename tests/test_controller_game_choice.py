"""Choosing the game on the board (issue 21): MENU opens the game chooser,
a page of labelled buttons (``maxima_board.board.chooser``), in play, in set-up
and after a game; every game the board holds in three presses or fewer;
Deckle's size follows the pieces; pieces outside the new game lit and
named; nothing asks for a piece nobody lifted; the board's own first game."""
from __future__ import annotations

from maxima_board.board.core import Controller
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.cli.config import load_config


def words(lines: list[str]) -> str:
    return " ".join(lines)


MAXIMA_PAGE = ["Choose a game     20s", "OK   Maxima*", "BACK Ultima", "MENU Resign, draw >", "NEW  Ultima (pure)"]


def test_menu_in_play_opens_the_game_chooser_and_needs_no_piece_moved():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu")
    assert c.display == MAXIMA_PAGE                         # one row per button, in the buttons' order
    runner.press("back")
    assert c.mode == "setup" and c.variant == "ultima"
    assert "Game:" not in words(c.display)                  # a game of one size: set-up as it is
    runner.press("menu"), runner.press("new")               # set-up's MENU: the same chooser
    assert c.variant == "ultima-pure"
    runner.press("menu"), runner.press("ok")
    assert c.variant == "maxima"


def test_choosing_the_game_in_play_keeps_it_and_the_chooser_goes_on_to_the_game_menu():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("ok")                # Maxima*, the game in play: kept
    assert c.mode == "play" and c.game_id == 1 and "Choose" not in words(c.display)
    runner.press("menu"), runner.press("menu")              # MENU row: the game's menu, as before
    assert "Resign White?" in words(c.display)
    runner.press("back")
    assert c.mode == "play" and "Resign" not in words(c.display)


def test_menu_game_asks_before_abandoning_a_game_with_moves():
    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store)
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("menu"), runner.press("back")              # Ultima
    assert c.mode == "play" and "Abandon game 1?" in words(c.display)
    runner.press("back")                                     # no: the game goes on
    assert c.mode == "play" and c.moves == ["d3-d4"] and "Abandon" not in words(c.display)
    runner.press("menu"), runner.press("back"), runner.press("ok")
    assert c.mode == "setup" and c.variant == "ultima"
    game = store.games()[0]
    assert game.finished and game.reason == "abandoned" and store.moves(game.id) == ["d3-d4"]


def test_pieces_outside_the_new_game_are_lit_and_named_and_none_is_asked_for_twice():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("back")               # Maxima → Ultima: rank 9 is off Ultima's board
    runner.wait(400)
    leds = c.leds
    for square in ("b9", "d9", "e9", "g9"):
        assert leds[square] == "error-extra", leds
    # named by the piece that stood there in the game before (Maxima's rank 9), not only by square
    assert "Take off Black Mage b9, Withdrawer d9, King e9, Mage g9." in words(c.display), c.display
    runner.press("menu"), runner.press("new")                # → Ultima (pure)
    runner.press("menu"), runner.press("ok")                 # → Maxima again
    runner.wait(400)
    assert c.variant == "maxima"
    assert c.leds == {} and "Place" not in words(c.display), (c.leds, c.display)
    assert "Board set up" in words(c.display)
    runner.press("ok")
    assert c.mode == "play" and c.variant == "maxima"


def test_after_resigning_with_the_start_standing_it_does_not_ask_to_set_it_up():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # White resigns
    assert c.result == "0-1"
    assert "Set up the start" not in words(c.display) and "OK or NEW" in words(c.display)
    runner.press("ok")
    assert c.mode == "play" and c.game_id == 2
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # Black resigns, d4 not on its start
    assert "Set up the start, then NEW" in words(c.display)


def test_a_ten_by_ten_board_without_a_game_starts_its_first_game(tmp_path):
    assert Controller(Settings(board_kind="10x10")).variant == "ultima"
    cfg = tmp_path / "board.toml"
    cfg.write_text('hardware = "pico"\n[board]\nkind = "10x10"\n[pico]\ndevice = "/dev/no-such-pico"\n')
    settings = load_config(cfg).settings()
    assert Controller(settings).variant == "ultima"
    assert Controller(Settings(board_kind="10x10", variant="optima")).variant == "optima"


# ---------------------------------------------------------------- sim and replay --board
def sim_text(tmp_path, script: str, **kwargs) -> str:
    import io

    from maxima_board.cli.sim import run_sim

    out = io.StringIO()
    settings = kwargs.pop("settings", Settings(db_path=str(tmp_path / "g.db")))
    assert run_sim(settings, io.StringIO(script), out, **kwargs) == 0
    return out.getvalue()


def test_a_piece_outside_the_game_is_named_by_piece_when_one_stood_there_and_by_square_otherwise():
    runner = Runner(Settings(), board="maxima")
    c = runner.controller
    runner.lift("e9")                                        # Maxima's Black King off rank 9
    c.choose_game("ultima", runner.now), runner.wait(400)   # Ultima: rank 9 is off its board
    assert "Take off Black Mage b9, Withdrawer d9, Mage g9." in words(c.display), c.display
    runner.lift("b9"), runner.lift("d9"), runner.place("d0"), runner.wait(400)
    assert "Take off piece d0, Black Mage g9." in words(c.display), c.display   # d0 held nothing
    runner.lift("g9"), runner.wait(400)
    assert "Clear square d0: it is not part of the game." in words(c.display)
    from maxima_board.board.guidance import WIDTH
    assert all(len(line) <= WIDTH for line in c.display)


def test_sim_on_the_ten_by_ten_board_speaks_its_squares(tmp_path):
    """Ultima stands on b2…i9: the board's b3 is the game's a2."""
    out = sim_text(tmp_path, "lift b3\nplace b6\nwait 400\n",
                   settings=Settings(db_path=str(tmp_path / "g.db"), board_kind="10x10"), board="10x10")
    assert "move 1 a2-a5 " in out
    assert "leds last-from b3; last-to b6" in out


def test_a_piece_on_a_board_square_named_like_a_game_square_lights_only_itself():
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    runner.place("a1")                       # the board's a1: outside Ultima (whose a1 is the board's b2)
    runner.wait(2000)
    assert runner.controller.leds == {"a1": "error-extra"}
    assert "a1" in words(runner.controller.display)


def test_sim_default_is_the_maxima_board_and_shows_pieces_outside_the_game(tmp_path):
    out = sim_text(tmp_path, "press menu\npress back\nwait 400\nshow\n", board="maxima")
    assert "set up clhwkhli/" in out                         # Ultima chosen by MENU, BACK
    rank9 = next(line for line in out.splitlines() if line.startswith(" 9 "))
    assert rank9.split()[1:] == [".", "*X", ".", "*X", "*X", ".", "*X", "."], rank9


def test_replay_board_option(tmp_path):
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", "--board", "10x10", "-"],
                          input="lift b3\nplace b6\nwait 400\n", text=True, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["moves"] == ["a2-a5"] and final["leds"] == {"b3": "last-from", "b6": "last-to"}
    bad = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", "--board", "maxima", "--variant",
                          "optima", "-"], input="", text=True, capture_output=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "Optima needs the 10×10 board" in bad.stderr


def test_run_with_a_simulated_ten_by_ten_board_plays_its_first_game_on_its_squares(tmp_path):
    import os
    import subprocess
    import sys
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "sim"\n[board]\nkind = "10x10"\n[database]\npath = "{tmp_path / "g.db"}"\n')
    env = dict(os.environ, MAXIMA_BOARD_CONFIG="")
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(cfg)],
                          input="lift b3\nplace b6\nwait 400\nquit\n", text=True, capture_output=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert "Game 1: Ultima" in done.stdout and "move 1 a2-a5 " in done.stdout


# ---------------------------------------------------------------- a newcomer's presses
def fresh(board: str, setup: bool) -> Runner:
    """A fresh simulated board as ``sim --board`` starts: the start
    standing, game 1 in play (``setup``: its set-up begun instead)."""
    runner = Runner(Settings(board_kind=board), board=board)
    if setup:
        runner.controller.new_game(runner.now, setup=True)
    return runner


def fewest_presses(board: str, setup: bool, most: int = 3) -> dict[str, list[str]]:
    """Every game the board reaches from a fresh start by pressing
    buttons, with the shortest sequence that reaches it (breadth first over
    all sequences of at most ``most`` presses): a game is reached when it
    is the game in play or being set up."""
    reached: dict[str, list[str]] = {}
    level: list[list[str]] = [[]]
    for _ in range(most + 1):
        following = []
        for pressed in level:
            runner = fresh(board, setup)
            for button in pressed:
                runner.press(button)
            c = runner.controller
            if c.mode in ("play", "setup") and c.variant not in reached:
                reached[c.variant] = pressed
            following += [pressed + [button] for button in ("ok", "back", "menu", "new")]
        level = following
    return reached


def start_squares(game: str, board: str) -> list[str]:
    from maxima_board.rules import Position
    from maxima_board.devices.boards import place

    start = Position("start", game)
    placement = place(game, board)
    return sorted(placement.board_of[start.geometry.names[sq]] for sq, _ in start.pieces())


def test_every_game_of_either_board_is_chosen_in_three_presses_or_fewer():
    """From a fresh game in play and from set-up, on each simulated board,
    every game the board plays is reached in three presses or fewer; a
    Deckle game's 10x8 form by its game's presses and then its pieces."""
    from maxima_board.devices.boards import games_for

    for board in ("maxima", "10x10"):
        for setup in (False, True):
            reached = fewest_presses(board, setup)
            for game in games_for(board):
                if game in reached:
                    continue
                bigger = game.removesuffix("-10x8")
                assert bigger in reached, (board, setup, game, sorted(reached))
                runner = fresh(board, setup)
                for button in reached[bigger]:
                    runner.press(button)
                runner.set_board(start_squares(game, board))      # the 10x8 start on a2…j9
                runner.wait(400)
                assert runner.controller.variant == game and runner.controller.mode == "setup", game


def test_deckle_size_follows_the_pieces_and_ok_on_its_screen_switches_it():
    runner = fresh("10x10", setup=False)
    c = runner.controller
    runner.press("menu"), runner.press("new"), runner.press("menu")      # Advancer etc > Swapper
    assert c.variant == "swapper-chess" and c.mode == "setup"
    assert c.display[1] == "Game: Swapper 10x10" and "Other size 10x8: OK" in c.display
    runner.press("ok")                                                    # OK: the other size by hand
    runner.wait(1000)
    assert c.variant == "swapper-chess-10x8"                              # Ultima's pieces do not undo it
    runner.set_board(start_squares("swapper-chess", "10x10"))             # the 10x10 start: that size
    runner.wait(400)
    assert c.variant == "swapper-chess"
    runner.set_board(start_squares("swapper-chess-10x8", "10x10"))
    runner.wait(100)
    assert c.variant == "swapper-chess"                                   # not before it stands stably
    runner.wait(300)
    assert c.variant == "swapper-chess-10x8"
    assert c.display[1] == "Ready" and "Other size" not in " ".join(c.display)   # issue 32: the start stands
    assert c.leds == {}                                                   # its squares, all standing
    runner.press("ok")                                                    # OK starts it, switches nothing
    assert c.mode == "play" and c.store.game(c.game_id).variant == "swapper-chess-10x8"
    runner.lift("a3"), runner.place("a5"), runner.wait(400)               # the board's a3: the game's a2
    assert c.moves == ["a2-a4"], c.display


def test_deckle_size_follows_the_pieces_back_to_ten_by_ten_from_pieces_outside():
    runner = fresh("10x10", setup=True)
    c = runner.controller
    runner.press("menu"), runner.press("back"), runner.press("ok")       # Coordinator etc > Coordinator
    runner.press("ok")                                                    # its screen: OK = 10x8
    assert c.variant == "coordinator-chess-10x8"
    runner.set_board(start_squares("coordinator-chess", "10x10"))         # ranks 1 and 10 are off the 10x8 game
    runner.wait(400)
    assert c.variant == "coordinator-chess"
    assert c.display[:2] == ["Set-up   Coord. 10x10", "Ready"]             # its start stands: ready at once


def test_sim_deckle_game_in_three_presses_then_its_small_size_by_its_pieces(tmp_path):
    board = " ".join(start_squares("swapper-chess-10x8", "10x10"))
    out = sim_text(tmp_path, f"press menu\npress new\npress menu\nboard {board}\nwait 400\npress back\n"
                             "press ok\n", settings=Settings(db_path=str(tmp_path / "g.db"), board_kind="10x10"),
                   board="10x10")
    assert "game 2 started" in out and "Swapper 10x8" in out, out


def test_sim_resumes_a_game_of_the_other_board_on_that_board(tmp_path):
    import subprocess
    import sys
    db = str(tmp_path / "g.db")

    def sim(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", db, *args], input="quit\n",
                              text=True, capture_output=True, timeout=60)

    assert sim("--variant", "optima-9x9", "--board", "10x10").returncode == 0
    done = sim()                                             # the default Maxima board cannot hold it
    assert done.returncode == 0, done.stderr
    assert "is played on the 10×10 board" in done.stdout and "game 1 resumed" in done.stdout
    refused = sim("--board", "maxima")                       # asked for: one line saying how
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "'--board 10x10' resumes it" in refused.stderr


def test_menu_after_a_game_goes_to_the_game_chooser():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # White resigns
    assert c.mode == "ended"
    runner.press("menu")
    assert c.mode == "ended" and c.display == MAXIMA_PAGE[:3] + ["MENU Cancel"] + MAXIMA_PAGE[4:]
    runner.press("menu")                                              # Cancel: the result again
    assert c.mode == "ended" and "resigned" in words(c.display)
    runner.press("menu"), runner.press("ok")                          # the same game again: set up anew
    assert c.mode == "setup" and c.variant == "maxima"
    runner.press("menu"), runner.press("back")
    assert c.variant == "ultima"


# ---------------------------------------------------------------- the OLED's move words
def _captures(variant: str, seed: int, plies: int = 300):
    """(position, capturing move) pairs of a random game of ``variant``."""
    import random

    from maxima_board.rules import Position
    rng = random.Random(seed)
    position = Position("start", variant)
    for _ in range(plies):
        moves = list(position.legal_moves)
        if not moves or position.outcome() is not None:
            return
        for move in moves:
            if move.captures:
                yield position.copy(), move
        position.push(rng.choice(moves))


def test_the_oled_says_the_move_in_the_pages_words_where_they_fit_else_compact():
    import random

    from maxima_board.board.guidance import WIDTH
    from maxima_board.board.hands import hand_lines
    from maxima_board.service.script import parse_script
    from maxima_board.rules.words import move_label, move_words as page_words

    fitting = long = None
    for variant in ("ultima", "maxima", "withdrawer-chess"):
        for position, move in _captures(variant, seed=1):
            words = page_words(position.variant, move_label(position, move))
            assert "takes" in words or "removes" in words or "swaps" in words, words
            if len(words) <= WIDTH and fitting is None:
                fitting = (position, move, words)
            if len(words) > WIDTH and long is None:
                long = (position, move, words)
    assert fitting and long, "no capture of both lengths found"
    for position, move, words in (fitting, long):
        runner = Runner(Settings(), fen=position.fen(), variant=position.variant.name)
        for line in hand_lines(position, move, random.Random(0)):
            runner.do(parse_script([line], position.variant.name)[0])
        runner.wait(4000)
        c = runner.controller
        assert c.moves == [str(move)], (c.moves, str(move))
        second = c.display[1]
        assert len(second) <= WIDTH
        if len(words) <= WIDTH:
            assert second.endswith(words[:1].upper() + words[1:]), (second, words)   # "Pawn f5-d5 takes d6"
        else:
            assert second.endswith(f"{position.piece_at(move.from_square).name} {move}"), (second, words)


def test_every_chooser_page_fits_the_oled_uncut_in_its_font():
    """Every page of both boards' choosers, with each MENU row wording,
    is drawn as it is: one row per button, nothing wrapped or cut, Latin-1;
    the title bar too, with the countdown at its longest."""
    from maxima_board.board.chooser import Chooser, first_page, rows
    from maxima_board.board.closing import CLOSE_MS
    from maxima_board.devices.boards import games_for
    from maxima_board.devices.oled import layout, printable

    for board in ("maxima", "10x10"):
        for on in ("Resign, draw >", "Clock, pieces >", "Forces, clock >", "Cancel"):
            title = Chooser(board, games_for(board)[0], on, lambda game, now: [], lambda now: [], now=0).heading(0)
            assert title.startswith("Choose a game") and title.endswith(f" {CLOSE_MS // 1000}s")
            pages = [first_page(board, on)]
            seen = 0
            while pages:
                page = pages.pop()
                for current in games_for(board):
                    lines = [title] + rows(page, current)
                    assert layout(lines) == lines and printable(" ".join(lines)) == " ".join(lines), lines
                pages += [row.page for row in page.rows.values() if row.page is not None]
                seen += 1
            assert seen == (1 if board == "maxima" else 4)


def test_with_the_link_lost_the_chooser_chooses_nothing():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu")
    events = c.set_link(False, runner.now)
    events += runner.press("back")                          # would choose Ultima: the board is not known
    assert c.mode == "play" and c.variant == "maxima" and not [e for e in events if e["type"] == "setup"]
    assert "Choose a game" not in words(c.display)
    c.set_link(True, runner.now)
    runner.set_board(runner.board), runner.wait(400)
    runner.press("menu"), runner.press("back")
    assert c.mode == "setup" and c.variant == "ultima"


def test_a_swapper_set_up_by_hand_and_started_with_ok_offers_no_swap():
    """Pieces placed while setting up are no move: two neighbours placed
    (lifted, then set) must not be read as a Swapper's swap once OK starts."""
    runner = fresh("10x10", setup=False)
    c = runner.controller
    runner.press("menu"), runner.press("new"), runner.press("menu")      # Swapper
    runner.set_board([]), runner.wait(400)
    runner.set_board(start_squares("swapper-chess", "10x10")), runner.wait(400)
    runner.press("back"), runner.press("ok")
    assert c.mode == "play" and "Which move?" not in words(c.display), c.display
    runner.lift("a2"), runner.place("a4"), runner.wait(400)
    assert c.moves == ["a2-a4"]
