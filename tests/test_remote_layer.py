"""The remote game's layer (issue 33), two boards in one process: their
messages handed over as bytes, so that each can be doubled, held back,
reordered or forged at will. (Through a real broker: tests/club/test_remote_play.py.)"""
from __future__ import annotations

import msgspec
import pytest

from maxima_board.board.core import Controller
from maxima_board.board.settings import Settings
from maxima_board.rules import Position
from maxima_board.service import remote_wire as w
from maxima_board.service.remote_layer import RemoteLayer, event_of
from maxima_board.service.script import Runner
from maxima_board.storage.store import GameStore

from tests.test_opponent_board import make

NAME = "test-game-one"


class Pipe:
    """One board's end: what it publishes lands in the other end's inbox
    (unless ``held``); ``sent`` keeps every message."""

    def __init__(self) -> None:
        self.inbox: list[bytes] = []
        self.sent: list[bytes] = []
        self.other: "Pipe | None" = None
        self.held = False

    def publish(self, payload: bytes) -> None:
        self.sent.append(payload)
        if not self.held and self.other is not None:
            self.other.inbox.append(payload)

    def received(self) -> list[bytes]:
        out, self.inbox = self.inbox, []
        return out

    def set_waker(self, wake) -> None:
        pass


class Board:
    def __init__(self, side: str, pipe: Pipe, store: GameStore | None = None, settings: Settings | None = None,
                 boot: int = 1, fen: str | None = "start"):
        self.store = store if store is not None else GameStore(":memory:")
        self.runner = Runner.attach(Controller(settings or Settings(), self.store, fen=fen), None, 0)
        self.layer = RemoteLayer(self.runner.controller, boot=boot)
        self.events = self.layer.begin(NAME, side, self.runner.now, peer=pipe)
        self.runner.controller = self.layer
        self.pipe = pipe
        self.events += self.runner.wait(10)

    def wait(self, ms: int = 10) -> list[dict]:
        events = self.runner.wait(ms)
        self.events += events
        return events

    def make(self, text: str) -> list[dict]:
        move = self.layer.position.parse_move(text)
        events = make(self.runner, move)
        self.events += events
        return events

    def press(self, button: str) -> list[dict]:
        events = self.runner.press(button)
        self.events += events
        return events

    def menu(self, label: str) -> list[dict]:
        """MENU until ``label`` is shown, then OK."""
        events = self.runner.press("menu")
        for _ in range(20):
            if label in " ".join(self.layer.display):
                events += self.runner.press("ok")
                self.events += events
                return events
            events += self.runner.press("menu")
        raise AssertionError(f"no {label!r} in the menu: {self.layer.display}")

    def text(self) -> str:
        return " ".join(self.layer.display)

    def of(self, kind: str) -> list[dict]:
        return [e for e in self.events if e.get("type") == kind]


def pair(black_store: GameStore | None = None, **kw) -> tuple[Board, Board]:
    a, b = Pipe(), Pipe()
    a.other, b.other = b, a
    white = Board("white", a, **kw)
    black = Board("black", b, store=black_store, **kw)
    settle(white, black)
    return white, black


def restarted(black: Board, white: Board) -> Board:
    """Black's board killed and started again on its store; it first hears
    the broker's retained copy of White's newest message."""
    black.pipe.other = None
    pipe = Pipe()
    pipe.other, white.pipe.other = white.pipe, pipe
    again = Board("black", pipe, store=black.store, boot=2, fen=None)
    pipe.inbox.append(white.pipe.sent[-1])
    settle(white, again)
    return again


def settle(*boards: Board, rounds: int = 3) -> None:
    for _ in range(rounds):
        for board in boards:
            board.wait(10)


def play(mover: Board, other: Board, text: str) -> None:
    """``mover`` makes ``text``; ``other`` sees it arrive and makes it too."""
    mover.make(text)
    settle(mover, other)
    assert other.of("remote_move")[-1]["move"] == text
    other.make(text)
    settle(mover, other)
    assert mover.layer.moves == other.layer.moves


OPENING = ["d3-d5", "e7-e5", "c3-c4", "a7-a6"]


def test_the_other_sides_move_is_shown_lit_and_made_on_the_board():
    white, black = pair()
    white.make("d3-d5")
    settle(white, black)
    assert black.of("remote_move") == [{"type": "remote_move", "move": "d3-d5"}]
    assert "Remote: Pawn d3-d5." in black.text() and "Make it on the board." in black.text()
    assert black.layer.leds.get("d3") == "engine-from" and black.layer.leds.get("d5") == "engine-to"
    black.make("d3-d5")
    settle(white, black)
    assert black.layer.moves == ["d3-d5"]
    assert "engine-from" not in black.layer.leds.values()
    for a, b in zip(OPENING[1::2], OPENING[2::2]):
        play(black, white, a)
        play(white, black, b)
    assert white.store.moves(white.layer.game_id) == black.store.moves(black.layer.game_id) == OPENING[:3]
    game = white.store.game(white.layer.game_id)
    assert game.event == event_of(NAME) and NAME not in game.event


def test_a_move_of_the_other_side_made_before_it_arrives_is_taken_back():
    white, black = pair()
    black.make("d3-d5")           # White's move on Black's board, before White has played
    settle(white, black)
    assert black.layer.moves == []
    assert "Wait for remote!" in black.text()
    assert white.of("remote_move") == []
    black.runner.lift("d5")       # the piece goes back, as the board asks
    black.runner.place("d3")
    play(white, black, "c3-c4")


def test_a_move_other_than_the_arrived_one_is_taken_back_and_the_right_one_named():
    white, black = pair()
    white.make("d3-d5")
    settle(white, black)
    black.make("e3-e5")            # Black's board makes another White move
    settle(white, black)
    assert black.layer.moves == []
    assert "Not the remote move" in black.text()
    assert black.of("remote_refused")[-1]["why"].startswith("the board played e3-e5")


def test_a_message_twice_or_an_older_one_counts_once():
    white, black = pair()
    white.make("d3-d5")
    settle(white, black)
    black.make("d3-d5")
    settle(white, black)
    old = list(white.pipe.sent)
    black.pipe.inbox += old + old[::-1]        # every message of White's again, and backwards
    settle(white, black)
    assert [e["move"] for e in black.of("remote_move")] == ["d3-d5"]
    assert black.layer.moves == ["d3-d5"]
    assert black.of("remote_refused") == []


def _signed(state: w.State, key: bytes) -> bytes:
    return w.encode(state, key)


def _white_state(white: Board) -> w.State:
    return msgspec.json.decode(white.pipe.sent[-1].rpartition(b"\n")[0], type=w.State)


@pytest.mark.parametrize("forge", ["wrong key", "unsigned", "cut short", "too big", "black's message",
                                   "bad field"])
def test_a_forged_or_malformed_message_is_refused_and_the_game_goes_on(forge):
    white, black = pair()
    state = _white_state(white)
    forged = msgspec.structs.replace(state, seq=state.seq + 100, n=1, got=1, moves=[w.Entry("d3-d5")])
    key = w.game_key(NAME)
    data = {"wrong key": lambda: _signed(forged, w.game_key("another-game")),
            "unsigned": lambda: msgspec.json.encode(forged),
            "cut short": lambda: _signed(forged, key)[:-10],
            "too big": lambda: b" " * (w.MAX_BYTES + 1),
            "black's message": lambda: _signed(msgspec.structs.replace(forged, side="black"), key),
            "bad field": lambda: _signed(msgspec.structs.replace(forged, n=5000, got=5000), key)}[forge]()
    black.pipe.inbox.append(data)
    settle(white, black)
    assert black.of("remote_move") == []
    assert len(black.of("remote_refused")) == 1
    play(white, black, "d3-d5")


@pytest.mark.parametrize("move, why", [("a7-a6", "illegal"), ("d3-d8", "illegal"), ("zz-d5", "")])
def test_a_signed_move_illegal_or_of_the_wrong_side_is_refused(move, why):
    """M2, M4: on White's turn Black's Pawn does not move; a Pawn moves as
    a Rook, so not over d7's piece; an unknown square is no move."""
    white, black = pair()
    state = _white_state(white)
    forged = msgspec.structs.replace(state, seq=state.seq + 1, n=1, got=1, moves=[w.Entry(move)])
    black.pipe.inbox.append(_signed(forged, w.game_key(NAME)))
    settle(white, black)
    assert black.of("remote_move") == []
    refused = black.of("remote_refused")
    assert len(refused) == 1 and why in refused[0]["why"]
    play(white, black, "d3-d5")


def test_a_take_back_is_asked_and_applied_on_both_boards_only_when_accepted():
    white, black = pair()
    play(white, black, "d3-d5")
    play(black, white, "e7-e5")
    black.press("back")                 # Black takes its move back: asked of White
    black.runner.lift("e5")
    black.runner.place("e7")
    settle(white, black)
    assert black.of("remote_ask")[-1] == {"type": "remote_ask", "what": "takeback", "by": "us"}
    assert white.of("remote_ask")[-1]["by"] == "them"
    assert white.layer.moves == OPENING[:2]     # nothing changes on White's board yet
    white.menu("Accept take-back?")
    settle(white, black)
    assert white.layer.moves == black.layer.moves == ["d3-d5"]
    assert white.of("remote_answer")[-1]["yes"] and black.of("remote_answer")[-1]["yes"]
    assert white.layer.mode == "sync"           # White's board guides the piece back
    white.runner.lift("e5")
    white.runner.place("e7")
    settle(white, black)
    assert white.layer.mode == "play"
    play(black, white, "a7-a6")
    assert white.store.moves(white.layer.game_id) == black.store.moves(black.layer.game_id) == ["d3-d5", "a7-a6"]


def test_a_declined_take_back_shows_the_move_to_make_again():
    white, black = pair()
    play(white, black, "d3-d5")
    white.press("back")
    settle(white, black)
    assert white.layer.moves == []
    black.menu("Decline take-back?")
    settle(white, black)
    assert white.of("remote_answer")[-1] == {"type": "remote_answer", "what": "takeback", "yes": False,
                                             "by": "them"}
    assert "Undo Pawn d3-d5" in white.text()    # the player puts the piece back, as BACK asked...
    white.runner.lift("d5")
    white.runner.place("d3")
    white.wait(5000)
    assert "Make your Pawn d3-d5 again." in white.text()   # ... then makes the move again
    white.make("d3-d5")
    settle(white, black)
    assert white.layer.moves == black.layer.moves == ["d3-d5"]


def test_a_draw_offer_ends_both_games_only_when_accepted():
    white, black = pair()
    play(white, black, "d3-d5")
    black.menu("Agree draw?")                   # the game's own menu: asked instead of agreed
    settle(white, black)
    assert black.layer.result == "*" and white.layer.result == "*"
    assert black.of("game_end") == [] and black.of("reopened") == []    # never ended, not even a moment
    assert black.store.game(black.layer.game_id).result == "*"
    white.menu("Accept draw?")
    settle(white, black)
    assert white.layer.result == black.layer.result == white.layer.position.variant.draw_result
    assert white.layer.reason == black.layer.reason == "agreement"
    assert white.store.game(white.layer.game_id).result == black.store.game(black.layer.game_id).result


def test_a_resignation_is_told_to_the_other_board_and_ends_both():
    white, black = pair()
    play(white, black, "d3-d5")
    black.menu("Resign Black?")
    settle(white, black)
    assert white.layer.result == black.layer.result == "1-0"
    assert white.layer.reason == black.layer.reason == "resignation"


def test_a_board_resigns_only_its_own_side():
    white, black = pair()
    black.menu("Resign White?")
    settle(white, black)
    assert white.layer.result == black.layer.result == "*"
    assert "Only the other player can resign their side." in black.text()
    assert black.of("game_end") == [] and black.of("reopened") == []    # never ended, not even a moment


def test_each_move_carries_its_movers_clock_and_each_board_calls_its_own_flag_only():
    white, black = pair(settings=Settings(time_control="1+0"))
    white.wait(3000)
    white.make("d3-d5")
    settle(white, black)
    white_left = white.layer.clocks["white"]
    black.wait(20_000)                           # Black's board: its player makes White's move late
    black.make("d3-d5")
    settle(white, black)
    assert black.layer.clocks["white"] == white_left      # White's own reading, not Black's board's
    assert white_left < 60_000 - 2_500
    black.wait(61_000)                           # Black's flag falls on Black's board...
    settle(white, black)
    assert black.layer.result == "1-0" and black.layer.reason == "time"
    assert white.layer.result == "1-0" and white.layer.reason == "time"   # ... and White's board hears it


def test_white_waiting_long_does_not_flag_black_on_whites_board():
    white, black = pair(settings=Settings(time_control="1+0"))
    play(white, black, "d3-d5")
    white.wait(90_000)                           # Black's time is Black's board's to call
    assert white.layer.result == "*"


def test_a_restarted_board_resumes_the_game_and_catches_up():
    white, black = pair(black_store=GameStore(":memory:"))
    play(white, black, "d3-d5")
    black2 = restarted(black, white)
    assert black2.layer.moves == ["d3-d5"] and black2.of("remote_move") == []
    play(black2, white, "e7-e5")
    assert white.layer.moves == black2.layer.moves == ["d3-d5", "e7-e5"]


def test_a_move_made_while_the_other_board_was_down_arrives_when_it_is_back():
    white, black = pair()
    black.pipe.held = True                      # Black's messages do not get out
    white.pipe.held = True
    white.make("d3-d5")
    settle(white, black)
    assert black.of("remote_move") == []
    white.pipe.held = False
    black.pipe.inbox.append(white.pipe.sent[-1])   # on reconnect the newest is published again
    settle(white, black)
    assert black.of("remote_move")[-1]["move"] == "d3-d5"


def test_black_plays_the_game_whites_board_set():
    a, b = Pipe(), Pipe()
    a.other, b.other = b, a
    white = Board("white", a, settings=Settings(variant="ultima"))
    black = Board("black", b)                   # Black's board stood on Maxima
    settle(white, black)
    assert black.layer.variant == "ultima"
    assert black.layer.mode == "setup"           # its player sets up Ultima's start
    black.runner.set_board(black.runner.expected_board())
    black.wait(1000)
    black.runner.press("ok")
    settle(white, black)
    assert black.layer.mode == "play"
    ultima = Position("start", "ultima")
    first = str(next(m for m in ultima.legal_moves if m.kind == "move" and not m.captures))
    play(white, black, first)
    assert black.store.game(black.layer.game_id).event == event_of(NAME)


def test_a_second_move_in_a_row_from_the_other_board_is_not_its_turn():
    white, black = pair()
    play(white, black, "d3-d5")
    state = _white_state(white)
    forged = msgspec.structs.replace(state, seq=state.seq + 1, base=0, n=2, got=2,
                                     moves=[w.Entry("d3-d5"), w.Entry("c3-c4")])
    black.pipe.inbox.append(_signed(forged, w.game_key(NAME)))
    settle(white, black)
    assert black.layer.moves == ["d3-d5"] and len(black.of("remote_move")) == 1
    assert "not their turn" in black.of("remote_refused")[-1]["why"]
    play(black, white, "e7-e5")


def test_menu_begins_a_remote_game_and_its_name_stays_on_the_board():
    from maxima_board.service.feed import board_snapshot

    made: list[tuple[str, str, str]] = []
    pipe = Pipe()

    def connect(name: str, side: str, secret: str) -> Pipe:
        made.append((name, side, secret))
        return pipe

    runner = Runner.attach(Controller(Settings(), GameStore(":memory:"), fen="start"), None, 0)
    layer = RemoteLayer(runner.controller, connect=connect)
    runner.controller = layer
    board = Board.__new__(Board)
    board.runner, board.layer, board.pipe, board.events, board.store = runner, layer, pipe, [], layer.store
    assert any("Remote game as White?" in label for label in _menu_labels(board))
    board.menu("Remote game as White?")
    assert len(made) == 1 and made[0][1] == "white"
    name = made[0][0]
    assert name in board.text()                       # on the board's own display...
    snapshot = board_snapshot(layer)
    assert name not in str(snapshot) and "(on the board)" in " ".join(snapshot["display"])   # ... not outside
    assert board.of("remote_game")[0]["game"] == game_id_of(name)
    assert pipe.sent and name.encode() not in pipe.sent[-1]


def test_without_a_broker_the_menu_offers_no_remote_game():
    runner = Runner.attach(Controller(Settings(), GameStore(":memory:"), fen="start"), None, 0)
    layer = RemoteLayer(runner.controller)
    runner.controller = layer
    board = Board.__new__(Board)
    board.runner, board.layer, board.events = runner, layer, []
    assert not any("Remote" in label for label in _menu_labels(board))


def _menu_labels(board: Board) -> list[str]:
    """Every question of the game's menu, stepped through with MENU."""
    labels: list[str] = []
    board.runner.press("menu")
    for _ in range(20):
        board.runner.press("menu")
        text = board.text()
        if "Menu" not in text:
            break
        labels.append(text)
    board.runner.press("back")
    board.runner.wait(30_000)
    return labels


def game_id_of(name: str) -> str:
    return w.game_id(name)


def test_a_board_restarted_while_its_take_back_was_asked_makes_its_move_again():
    """The question is lost with the board; the move stays the game's (the
    other board never agreed), and the restarted board shows it to make again."""
    white, black = pair(black_store=GameStore(":memory:"))
    play(white, black, "d3-d5")
    play(black, white, "e7-e5")
    black.press("back")                            # asked; Black's board killed before any answer
    black.runner.lift("e5")
    black.runner.place("e7")
    settle(white, black)
    assert black.layer.moves == ["d3-d5"] and white.of("remote_ask")
    black2 = restarted(black, white)
    assert black2.layer.moves == ["d3-d5"] and len(black2.layer.line) == 2
    assert "asks" not in white.text() and "Accept" not in white.text()   # the question went with the board
    black2.wait(5000)
    assert "Make your Pawn e7-e5 again." in black2.text()
    black2.make("e7-e5")
    play(white, black2, "c3-c4")
    assert white.store.moves(white.layer.game_id) == black2.store.moves(black2.layer.game_id) == \
        ["d3-d5", "e7-e5", "c3-c4"]


@pytest.mark.parametrize("variant", __import__("maxima_board.rules.variants", fromlist=["names"]).names())
def test_every_game_is_played_between_two_boards_alike(variant):
    """Each of the 21 games (its own squares; Optima's placements too):
    twelve plies of a simulated player's moves made on one board, arrived on
    the other and made there, both stores alike at the end."""
    import random

    from maxima_board.board.hands import hand_lines, pick_move
    from maxima_board.service.script import parse_script

    white, black = pair(settings=Settings(variant=variant))
    assert white.layer.variant == black.layer.variant == variant
    rng = random.Random(variant)
    boards = {1: white, -1: black}
    for _ in range(12):
        position = white.layer.position
        if position.outcome() is not None or white.layer.result != "*":
            break
        mover = boards[1 if position.turn == 1 else -1]
        other = black if mover is white else white
        move = pick_move(position, rng)
        for board in (mover, other):
            before = board.layer.position.copy()
            for step in parse_script(hand_lines(before, move, rng, settle_ms=400), variant):
                board.events += board.runner.do(step)
            settle(white, black)
        assert other.of("remote_move")[-1]["move"] == str(move)
        assert white.layer.moves == black.layer.moves, (variant, str(move))
    assert len(white.layer.moves) >= 6
    assert white.store.moves(white.layer.game_id) == black.store.moves(black.layer.game_id)
    assert white.layer.result == black.layer.result
