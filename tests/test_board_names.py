"""Issue 32: one name for each square of a board, the one printed on it;
and a set-up that finishes.

Finding 1: on the 10×10 board a game smaller than the board (Ultima on
b2…i9, the 10×8 games on a2…j9) is spoken of in the board's printed names,
the squares its LEDs light: a piece in hand, an illegal move and its
put-back, the last move, the computer's move and its misplaced piece.

Finding 2: every game of either board, chosen on the board's chooser and
set up, reaches "Ready" once its start stands, and OK starts it (a Deckle
game's "Other size" page is not shown over a start that stands); pieces to
take off are named from what stands on the board, not from the game before.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from maxima_board.board.core import Controller
from maxima_board.board.settings import Settings
from maxima_board.devices.boards import games_for, place
from maxima_board.rules import WHITE, Position, variants
from maxima_board.service.board_view import BoardView
from maxima_board.service.opponent_layer import OpponentLayer
from maxima_board.service.script import Runner
from maxima_board.storage.store import GameStore
from tests.test_controller_game_choice import fewest_presses, fresh, start_squares

SMALLER = ["ultima", "ultima-pure", "coordinator-chess-10x8", "swapper-chess-10x8", "advancer-chess-10x8"]


def words(lines: list[str]) -> str:
    return " ".join(lines)


def on_ten_by_ten(game: str) -> Runner:
    """Game 1 of ``game`` in play on the simulated 10×10 board (board names)."""
    return Runner(Settings(board_kind="10x10", variant=game), variant=game, board="10x10")


def a_pawn_and_a_square_it_cannot_reach(p: Position) -> tuple[int, int]:
    """A White piece of ``p`` with a legal plain move, and an empty square
    next to it that no legal move of it reaches."""
    empty = [sq for sq in range(p.geometry.size) if p.piece_at(sq) is None]
    for sq, piece in p.pieces():
        if piece.color != WHITE:
            continue
        reach = {m.to_square for m in p.legal_moves if m.from_square == sq}
        if not reach:
            continue
        f, r = p.geometry.names[sq][0], int(p.geometry.names[sq][1:])
        near = [n for n in (f"{chr(ord(f) + 1)}{r + 1}", f"{chr(ord(f) - 1)}{r + 1}")
                if n in p.geometry.index and p.geometry.index[n] in empty]
        for name in near:
            if p.geometry.index[name] not in reach:
                return sq, p.geometry.index[name]
    raise AssertionError("no such piece")


@pytest.mark.parametrize("game", SMALLER)
def test_a_lift_and_an_illegal_move_and_its_put_back_are_said_in_the_boards_printed_names(game):
    """The 10×10 board: "In hand" and "Put the … back on … from …" name the
    squares printed on the board, the very squares the LEDs light."""
    runner = on_ten_by_ten(game)
    c = runner.controller
    p = c.position
    board_of = place(game, "10x10").board_of
    home, target = a_pawn_and_a_square_it_cannot_reach(p)
    own_home, own_target = p.geometry.names[home], p.geometry.names[target]
    printed_home, printed_target = board_of[own_home], board_of[own_target]
    assert printed_home != own_home
    name = p.piece_at(home).name
    runner.lift(printed_home), runner.wait(400)
    assert f"In hand: {name} {printed_home}." in words(c.display), c.display
    runner.place(printed_target), runner.wait(3000)
    assert f"Put the {name} back on {printed_home} from {printed_target}." in words(c.display), c.display
    assert c.leds[printed_home] == "error-missing" and c.leds[printed_target] == "error-extra", c.leds
    runner.lift(printed_target), runner.place(printed_home), runner.wait(400)
    assert "Put" not in words(c.display) and "error-missing" not in c.leds.values()


@pytest.mark.parametrize("game", SMALLER)
def test_the_last_move_line_names_the_boards_printed_squares(game):
    runner = on_ten_by_ten(game)
    c = runner.controller
    p = c.position
    board_of = place(game, "10x10").board_of
    move = next(m for m in p.legal_moves if not m.captures and m.kind not in ("castle", "swap")
                and p.piece_at(m.from_square).name == "Pawn")
    frm, to = (board_of[p.geometry.names[s]] for s in (move.from_square, move.to_square))
    runner.lift(frm), runner.place(to), runner.wait(400)
    assert c.moves == [str(move)]
    assert c.display[1] == f"1. Pawn {frm}-{to}", c.display
    assert c.leds == {frm: "last-from", to: "last-to"}


def test_the_error_events_text_and_squares_agree_in_the_boards_names():
    runner = on_ten_by_ten("ultima")
    runner.lift("b3")
    events = runner.place("c4") + runner.wait(3000)
    error = next(e for e in events if e["type"] == "error")
    assert error["text"] == "Pawn b3 cannot move to c4. Put the Pawn back on b3 from c4."
    assert (error["missing"], error["extra"]) == (["b3"], ["c4"])


def test_a_piece_off_the_game_and_a_lift_on_the_same_board_use_one_naming():
    """Issue 32's own case: "Clear square a2" and "In hand: Pawn f3" on one board."""
    runner = on_ten_by_ten("ultima")
    c = runner.controller
    runner.lift("f3"), runner.wait(400)
    assert "In hand: Pawn f3." in words(c.display)
    runner.place("f3"), runner.place("a2"), runner.wait(400)
    assert "Clear square a2" in words(c.display) and c.leds["a2"] == "error-extra"


def test_the_computers_move_and_its_misplaced_piece_are_said_in_the_boards_printed_names():
    """OpponentLayer inside the 10×10 board's view: "Computer: Pawn … Put
    the Pawn on … from …" names the squares its LEDs light."""
    settings = Settings(board_kind="10x10", variant="ultima")
    core = Controller(settings, GameStore(":memory:"), fen="start", now_ms=0, variant="ultima")
    layer = OpponentLayer(core, "white", 1, "greedy", sync=True)
    runner = Runner.attach(BoardView(layer, "10x10"), None, 0)
    try:
        runner.wait(10)
        view = runner.controller
        shown = layer._current()
        assert shown is not None
        p = core.position
        board_of = place("ultima", "10x10").board_of
        frm = board_of[p.geometry.names[shown.move.from_square]]
        to = board_of[p.geometry.names[shown.move.to_square]]
        assert view.leds[frm] == "engine-from" and view.leds[to] == "engine-to", view.leds
        piece = p.piece_at(shown.move.from_square).name
        assert f"{frm}" in words(view.display) and f"{to}" in words(view.display), view.display
        occupied = set(runner.board)
        wrong = next(sq for sq in sorted(place("ultima", "10x10").game_of)
                     if sq not in occupied and sq != to
                     and not any(m.from_square == shown.move.from_square
                                 and m.to_square == p.geometry.index[place("ultima", "10x10").game_of[sq]]
                                 for m in p.legal_moves))
        runner.lift(frm), runner.place(wrong), runner.wait(2000)
        assert f"Put the {piece} on {to} from {wrong}." in words(view.display), view.display
        assert view.leds[wrong] == "error-extra" and view.leds[to] == "engine-to"
    finally:
        layer.close()


# ---------------------------------------------------------------- finding 2: a set-up that finishes
@lru_cache(maxsize=None)
def _presses(board: str) -> dict[str, tuple[str, ...]]:
    return {game: tuple(pressed) for game, pressed in fewest_presses(board, False).items()}


@pytest.mark.parametrize("board, game", [(b, g) for b in ("maxima", "10x10") for g in games_for(b)])
def test_every_game_chosen_on_the_board_and_set_up_is_ready_and_ok_starts_it(board, game):
    """From a game in play, the chooser's presses (the board's first game,
    in play already: its set-up begun), then the game's start set up on the
    board: the OLED says "Ready" (no "Other size" over a start that
    stands) and OK starts that very game."""
    reached = _presses(board)
    presses = reached.get(game, reached.get(game.removesuffix("-10x8"), ()))
    runner = fresh(board, not presses)
    c = runner.controller
    for button in presses:
        runner.press(button)
    runner.set_board(start_squares(game, board))
    runner.wait(400)
    assert c.mode == "setup" and c.variant == game, (c.variant, c.display)
    assert c.display[1].startswith("Ready") and "Other size" not in words(c.display), c.display
    runner.press("ok")
    assert c.mode == "play" and c.store.game(c.game_id).variant == game, c.display


@pytest.mark.parametrize("game", [v.name for v in variants.all_variants()
                                  if v.family == "deckle" and not v.name.endswith("-10x8")])
def test_a_deckle_games_size_page_gives_way_to_ready_once_its_start_stands(game):
    """Issue 32's case: the chooser's Deckle game, its start set up while
    its size page shows: "Ready", and OK starts it instead of switching to 10×8."""
    runner = fresh("10x10", False)
    c = runner.controller
    for button in _presses("10x10")[game]:
        runner.press(button)
    assert "Other size 10x8" in words(c.display), c.display
    runner.set_board(start_squares(game, "10x10"))
    runner.wait(400)
    assert c.display[1] == "Ready", c.display
    runner.press("ok")
    assert c.mode == "play" and c.variant == game


def test_pieces_to_take_off_are_named_from_the_board_as_it_stands_not_from_the_game_before():
    """Swapper 10×8 set up over most of the 10×10 start (Ultima played
    before): the pieces on ranks 1 and 10 are the 10×10 start's."""
    runner = fresh("10x10", False)
    c = runner.controller
    for button in _presses("10x10")["swapper-chess"]:
        runner.press(button)
    runner.press("ok")                                         # the size page: 10x8
    assert c.variant == "swapper-chess-10x8"
    standing = [sq for sq in start_squares("swapper-chess", "10x10") if sq != "a1"]
    runner.set_board(standing), runner.wait(400)
    assert c.variant == "swapper-chess-10x8"                    # not the 10x10 start: no switch
    big = Position("start", "swapper-chess")
    rook = big.piece_at(big.geometry.index["a10"]).name
    knight = big.piece_at(big.geometry.index["b1"]).name
    assert f"Take off Black {rook} a10, White {knight} b1" in words(c.display), c.display
