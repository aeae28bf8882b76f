"""The set-up's status bar says both "Set-up" and the game with its size
on the OLED's 21 columns, for every game of either board and both sizes
of Deckle's games: a long name is said briefly there ("Set-up Pushme
10x10", ``maxima_board.board.games.fitted_title``) and whole on the game's first
screen. Drawn by ``maxima_board.devices.oled`` on luma's dummy device."""
from __future__ import annotations

import pytest
from luma.core.device import dummy

from maxima_board.board.games import brief_title, fitted_title, other_form, short_title, size_name
from maxima_board.board.guidance import WIDTH
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules import Position
from maxima_board.devices.boards import games_for
from maxima_board.devices.oled import OledDisplay, layout

DECKLE = [game for game in games_for("10x10") if other_form(game) is not None]


def setup_screen(game: str, board: str, fen: str | None = None) -> list[str]:
    runner = Runner(Settings(board_kind=board), board=board)
    runner.controller.new_game(runner.now, fen=fen, setup=True, variant=game)
    runner.set_board([]), runner.wait(400)
    return runner.controller.display


@pytest.mark.parametrize("board", ["maxima", "10x10"])
def test_the_set_up_status_bar_names_set_up_and_the_game_on_one_row_for_every_game(board):
    assert len(DECKLE) == 16
    for game in games_for(board):
        status = setup_screen(game, board)[0]
        assert status.startswith("Set-up ") and len(status) == WIDTH, (game, status)
        name = status[len("Set-up"):].strip()
        assert name in (fitted_title(game, WIDTH - 7), short_title(game)), (game, status)
        if other_form(game) is not None:
            assert name.endswith(" " + size_name(game)), status            # 10x10 or 10x8: the size shown
            assert name.split(" ")[0] in (short_title(game).split(" ")[0], brief_title(game)), status
        oled = OledDisplay(dummy(width=128, height=64, mode="1"))
        oled.show([status])
        assert layout([status]) == [status]                                  # drawn whole: nothing cut
        assert oled.device.image.getbbox() is not None


def test_a_long_deckle_name_is_brief_in_the_bar_and_whole_on_its_first_screen():
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.press("menu"), runner.press("new"), runner.press("back")     # Advancer etc > Pushme-Pullyu
    assert c.display[:2] == ["Set-up   Pushme 10x10", "Pushme-Pullyu 10x10"], c.display
    runner.press("ok")                                                    # the other size
    assert c.display[:2] == ["Set-up    Pushme 10x8", "Pushme-Pullyu 10x8"], c.display
    runner.press("back"), runner.press("menu"), runner.press("new"), runner.press("menu")   # Swapper
    assert c.display[:2] == ["Set-up  Swapper 10x10", "Game: Swapper 10x10"], c.display


def test_a_set_up_from_a_fen_says_fen_where_it_fits_and_else_keeps_set_up_and_the_size():
    def after_a_move(game: str) -> str:
        position = Position("start", game)
        position.push(next(iter(position.legal_moves)))
        return position.fen()

    assert setup_screen("ultima", "maxima", fen=after_a_move("ultima"))[0] == "Set-up     Ultima FEN"
    deckle = setup_screen("pushme-pullyu-chess", "10x10", fen=after_a_move("pushme-pullyu-chess"))
    assert deckle[0] == "Set-up   Pushme 10x10"
