"""Edges of play (board/modes/play.py) that mutation testing found unpinned
(issue 35): the end recorded again after the store failed, a suicide
shown before the flag fell, the clocks of a move the board showed before
it settled, a swap taken back by restoring the board, the grace time of a
wrong board late in a game and the words of its error, a choice among
three moves, and the last move lit after OK confirmed it."""
from __future__ import annotations

from maxima_board.board.settings import Settings
from maxima_board.service.script import Runner
from maxima_board.storage.store import GameStore

MIN = 60_000
BARE = "xxx2xxx/4k3/8/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"           # M13: d2-d5xc5,e5 bares Black's King
PINCER = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"        # M4: d2-d5xc5,e5
FROZEN = "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0"           # M9/M10: the Leaper c2 may commit suicide
KING3 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P1p5/4K3/xxx2xxx w 0"         # the King e1 captures c2, d3 or f3
PROMOTION = "9k/4P5/10/10/10/10/10/K9 w - - 0 1"


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def said(c) -> str:
    return " ".join(" ".join(c.display[1:]).split())


class FinishFails(GameStore):
    """A store whose disk is full when a result is to be recorded."""

    full = False

    def finish(self, *args, **kwargs):
        if self.full:
            raise OSError(28, "No space left on device")
        return super().finish(*args, **kwargs)


def test_M13_a_result_the_store_could_not_record_is_recorded_on_the_next_button():
    """The move that bares the King is stored, its result is not (disk
    full): the game goes on showing the failure; once the store works, the
    next button records the end, with its result and reason."""
    store = FinishFails(":memory:")
    runner = Runner(Settings(), fen=BARE, store=store)
    c = runner.controller
    store.full = True
    for op, square in (("lift", "d2"), ("place", "d5"), ("lift", "c5"), ("lift", "e5")):
        getattr(runner, op)(square)
    events = runner.wait(300)
    assert c.moves == ["d2-d5xc5,e5"] and not of(events, "game_end") and c.mode == "play"
    assert "Cannot record the result" in said(c)
    store.full = False
    events = runner.press("menu")
    assert of(events, "game_end") == [{"type": "game_end", "result": "1-0", "reason": "bare king"}]
    assert (c.mode, c.result, c.reason) == ("ended", "1-0", "bare king")
    assert store.game(c.game_id).result == "1-0"


def test_M9_a_suicide_shown_before_the_flag_fell_still_counts_once_its_time_is_up():
    """A frozen Leaper lifted 0.1 s before White's flag falls: the flag does
    not end the game while the suicide counts down, and it is played."""
    runner = Runner(Settings(time_control="1"), fen=FROZEN)
    c = runner.controller
    runner.wait(MIN - 100)
    runner.lift("c2")
    assert not of(runner.wait(200), "game_end") and c.mode == "play"
    events = runner.wait(c.settings.suicide_ms)
    assert [e["move"] for e in of(events, "move")] == ["c2-S"] and not of(events, "game_end")
    assert c.clocks["white"] == 100


def test_M9_a_suicide_charges_the_clock_until_the_board_showed_it_not_until_it_counted_down():
    runner = Runner(Settings(time_control="1"), fen=FROZEN)
    c = runner.controller
    runner.wait(1_000)
    runner.lift("c2")
    events = runner.wait(c.settings.suicide_ms)
    assert of(events, "move")[0]["clocks"] == {"white": MIN - 1_000, "black": MIN}


def test_a_swap_is_taken_back_by_lifting_both_pieces_and_setting_them_back():
    """Swapper chess: c1<>b1 leaves the board's occupancy as it was; lifting
    both pieces and setting them down again takes it back at once (no
    guiding back), saying which move was taken back."""
    runner = Runner(Settings(board_kind="10x10"), variant="swapper-chess")
    c = runner.controller
    for op, square in (("lift", "c1"), ("lift", "b1"), ("place", "b1"), ("place", "c1")):
        getattr(runner, op)(square)
    runner.wait(400)
    assert c.moves == ["c1<>b1"]
    events = []
    for op, square in (("lift", "c1"), ("lift", "b1"), ("place", "b1"), ("place", "c1")):
        events += getattr(runner, op)(square)
    events += runner.wait(400)
    assert [e["move"] for e in of(events, "takeback")] == ["c1<>b1"] and not of(events, "sync")
    assert c.moves == [] and c.mode == "play"
    assert "Taken back: 1. Swapper c1<>b1." in said(c)


def test_a_wrong_board_late_in_a_game_is_called_out_after_the_grace_time_only():
    runner = Runner(Settings())
    c = runner.controller
    runner.wait(10_000)
    runner.lift("d3"), runner.place("e4")
    assert not of(runner.wait(c.settings.grace_ms - 100), "error")
    assert of(runner.wait(100), "error")


def test_a_wrong_board_is_explained_with_the_boards_printed_square_names():
    """Ultima on the 10×10 board: its Pawn c2 stands on the board's d3. An
    illegal diagonal step says why and how to fix it, in the board's names."""
    runner = Runner(Settings(board_kind="10x10"), variant="ultima", board="10x10")
    runner.lift("d3"), runner.place("e4")
    error, = of(runner.wait(2_000), "error")
    assert error["text"] == "Pawn d3 cannot move to e4. Put the Pawn back on d3 from e4."
    assert (error["missing"], error["extra"], error["remove"]) == (["d3"], ["e4"], [])


def test_M4_a_wrong_board_names_the_captured_pieces_still_to_remove():
    runner = Runner(Settings(), fen=PINCER)
    runner.lift("d2"), runner.place("d5"), runner.lift("a8")
    error, = of(runner.wait(2_000), "error")
    assert error["remove"] == ["c5", "e5"] and "Remove: Pawn c5, e5." in error["text"]
    assert error["missing"] == ["a8"] and error["extra"] == []


def test_back_steps_forward_through_three_moves_that_look_alike_and_ok_lights_the_one_chosen():
    runner = Runner(Settings(), fen=KING3)
    c = runner.controller
    for op, square in (("lift", "c2"), ("lift", "d3"), ("lift", "f3"), ("lift", "e1"),
                       ("place", "c2"), ("place", "d3"), ("place", "f3")):
        getattr(runner, op)(square)
    runner.wait(400)
    assert "Which move? 1/3: King e1-c2xc2." in said(c)
    runner.press("back")
    assert "Which move? 2/3: King e1-d3xd3." in said(c)
    runner.press("ok")
    assert c.moves == ["e1-d3xd3"]
    assert c.leds == {"e1": "last-from", "d3": "last-to"}


def test_M9_ok_plays_a_suicide_at_once_and_lights_its_square():
    runner = Runner(Settings(), fen=FROZEN)
    c = runner.controller
    runner.lift("c2")
    runner.wait(500)
    runner.press("ok")
    assert c.moves == ["c2-S"] and c.leds == {"c2": "last-from"}


def test_a_promotion_confirmed_with_ok_lights_the_last_move():
    runner = Runner(Settings(board_kind="10x10"), variant="coordinator-chess-10x8", fen=PROMOTION)
    c = runner.controller
    runner.lift("e7"), runner.place("e8")
    runner.wait(400)
    assert c.match().kind == "promote"
    runner.press("ok")
    assert len(c.moves) == 1 and c.moves[0].startswith("e7-e8")
    assert {"e7": "last-from", "e8": "last-to"}.items() <= c.leds.items()
