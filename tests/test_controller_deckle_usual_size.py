"""A Deckle game chosen by MENU is set up in the size of its newest game
stored on this board (``maxima_board.board.sizes.usual_form``), also after a
restart: a real SQLite store in a temporary directory, reopened."""
from __future__ import annotations

from maxima_board.board.core import Controller
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.board.sizes import usual_form
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position
from maxima_board.devices.boards import place


def start_squares(game: str) -> list[str]:
    start = Position("start", game)
    placement = place(game, "10x10")
    return sorted(placement.board_of[start.geometry.names[sq]] for sq, _ in start.pieces())


def board(store: GameStore) -> Runner:
    """A 10×10 board started on ``store`` (a restart when it holds games)."""
    return Runner(Settings(board_kind="10x10"), store=store, board="10x10")


def restart(store: GameStore) -> Controller:
    """The 10×10 board's controller started on ``store`` as the service
    starts it (the unfinished game resumes), its board standing as expected."""
    c = Controller(Settings(board_kind="10x10"), store)
    c.on_frame(0, c.expected_squares)
    c.on_tick(400)
    return c


def press(c: Controller, *buttons: str) -> None:
    for button in buttons:
        c.on_button(400, button)


def choose_swapper(runner: Runner) -> None:
    runner.press("menu"), runner.press("new"), runner.press("menu")   # Advancer etc > Swapper


def test_a_deckle_game_is_set_up_in_the_size_of_its_last_stored_game_after_a_restart(tmp_path):
    path = tmp_path / "games.db"
    store = GameStore(path)
    runner = board(store)
    c = runner.controller
    choose_swapper(runner)
    assert c.variant == "swapper-chess"                               # nothing stored yet: 10x10
    runner.press("ok")                                                # its screen: OK = 10x8
    runner.set_board(start_squares("swapper-chess-10x8")), runner.wait(400)
    runner.press("back"), runner.press("ok")                         # its screen left; OK starts
    assert c.mode == "play" and store.game(c.game_id).variant == "swapper-chess-10x8"
    runner.lift("a3"), runner.place("a5"), runner.wait(400)
    assert c.moves == ["a2-a4"]
    store.close()

    store = GameStore(path)                                           # the board restarts: the game resumes
    c = restart(store)
    assert c.variant == "swapper-chess-10x8" and c.moves == ["a2-a4"]
    press(c, "menu", "ok", "ok")                                      # Ultima, Optima > Ultima
    assert "Abandon game 2?" in " ".join(c.display)
    press(c, "ok")
    assert c.variant == "ultima" and c.mode == "setup"
    press(c, "menu", "new", "menu")                                   # Advancer etc > Swapper
    assert c.variant == "swapper-chess-10x8" and c.mode == "setup"  # the players' size, from the store
    assert "Game: Swapper 10x8" in c.display and "Other size 10x10: OK" in c.display
    store.close()

    store = GameStore(path)                                           # again, a restart in set-up
    c = restart(store)
    assert c.mode == "setup"
    press(c, "menu", "new", "menu")
    assert c.variant == "swapper-chess-10x8"
    press(c, "back", "menu", "back", "ok")                            # its screen left; Coordinator etc > Coordinator
    assert c.variant == "coordinator-chess"                           # another Deckle game: its own, 10x10
    store.close()


def test_the_newest_stored_game_of_either_size_decides(tmp_path):
    store = GameStore(tmp_path / "games.db")
    for variant in ("advancer-chess", "advancer-chess-10x8", "ultima", "advancer-chess"):
        store.new_game("start", variant=variant)
    assert usual_form("advancer-chess", store) == "advancer-chess"
    assert usual_form("advancer-chess-10x8", store) == "advancer-chess"   # asked by either form
    store.new_game("start", variant="advancer-chess-10x8")
    assert usual_form("advancer-chess", store) == "advancer-chess-10x8"
    assert usual_form("mimotaur-chess", store) == "mimotaur-chess"        # none stored: 10x10
    assert usual_form("ultima", store) == "ultima"                        # one size
    store.close()


def test_a_store_that_cannot_be_read_gives_the_ten_by_ten_form(tmp_path):
    store = GameStore(tmp_path / "games.db")
    store.new_game("start", variant="swapper-chess-10x8")
    store.close()                                    # its connection gone: SQLite refuses the read
    assert usual_form("swapper-chess", store) == "swapper-chess"
