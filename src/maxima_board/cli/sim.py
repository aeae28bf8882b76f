"""``maxima-board sim``: the controller on a simulated board, for a person at
a terminal (or a pipe). The script commands of ``maxima_board.service.script`` are
typed live; real time passes as well, and ``wait`` adds more (at once; the
computer, a real process, gets up to that much real time to answer).

Output lines start with a word saying what they are: ``move 3 d3-d4 ...``
(a committed, stored move), ``takeback``, ``game``, ``oled``, ``leds``,
``error``, ``note``. An OLED change of the status bar alone (a running
clock's second) is not printed, nor one of a page's countdown alone
("Menu 1/4  19s"), so nothing is written over the prompt every second:
a page is printed when it opens, changes and closes; ``show`` has the
clocks, and each move line is followed by them.

Between lines the session sleeps (:meth:`Sim.wait`) until the controller's
next deadline (a move settling, a note expiring, a clock's display, the
computer's move shown), a typed line, or a wake: the computer's answer or a
web page command (``maxima_board.service.waker.Waker``, as on the board); time
reaches the controller only then.
"""
from __future__ import annotations

import os
import re
import select
import sys
import time
from typing import Callable, Iterable, Iterator, TextIO

from maxima_board.devices.boards import BOARDS, PlacementError, games_for

from maxima_board.service.board_view import BoardView
from maxima_board.board.clock import format_ms
from maxima_board.board.closing import CLOSE_MS
from maxima_board.board.core import Controller
from maxima_board.service.guard import Guard, fault_dir_for
from maxima_board.service.opponent_layer import OpponentLayer
from maxima_board.service.script import COMMANDS, Runner, ScriptError, parse_line
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore, board_store
from maxima_board.service.stack import find_layer
from maxima_board.service.waker import Waker

HELP = f"""\
commands (one per line):
  lift SQ            take the piece off square SQ (e.g. lift d3)
  place SQ           put a piece on square SQ
  wait MS            let MS milliseconds pass, at most 86400000 (at once; a computer
                     thinking gets up to MS of real time to answer)
  press BUTTON       ok | back | menu | new (menu: the game chooser, a row per button:
                     press the button of a game, or MENU to go on to the menu's questions
                     (Resign White?, Agree draw?...: MENU next, OK yes, BACK cancel); the
                     chooser and the questions close by themselves {CLOSE_MS // 1000} s after the
                     last press, or when a piece is lifted or placed)
  fen FEN|start      new game from FEN, the board set up for it
  variant NAME [FEN|start]  new game of another game (maxima-board variants), board set up
  setup [FEN|start]  new game from FEN, to be set up piece by piece
  board SQ...        the board holds exactly these squares (board empty, board start)
  link down|up       lose / restore the board link
  clock CONTROL      time control of the next new game (90+30, 60d10, 40/90,30+30, none)
  forces KIND        Optima's forces of the next new game: eq, u1, u2, random
  seed N             the seed that draws them
  show               the board, its LEDs and the OLED (with the clocks: their seconds are not printed)
  opponent SIDE [N]  the computer plays white, black or none, at level N (1-10)
  help               this text
  quit               leave (the game is stored and resumes next time)"""


class Sim:
    """One simulated board session writing to ``output``."""

    def __init__(self, settings: Settings, store: GameStore, output: TextIO,
                 clock: Callable[[], float] = time.monotonic, feed=None, wrap: Callable | None = None,
                 board: str | None = None, follow: bool = False, abandon: Callable[[str], bool] | None = None):
        self.out = output
        self.feed = feed       # maxima_board.service.feed.BoardFeed: the web page, the broadcast
        self._clock = clock
        self._t0 = clock()
        self._waited = 0
        self._oled: list[str] = []   # the OLED lines last printed
        if store.message:
            self._print(f"note {store.message}")
        # The simulated board is set up as the game stands: the resumed
        # game's position, else the start position of a new game.
        fen = None if store.unfinished() is not None else "start"
        self.core = Controller(settings, store, fen=fen, now_ms=0)

        def stacked(core: Controller, board: str | None):
            """The layers around ``core``: the computer opponent, then the
            physical board's squares, outermost as on a real board."""
            controller = wrap(core) if wrap is not None else core
            return BoardView(controller, board, settings.board_offset) if board is not None else controller

        if board is not None:
            game = self.core.position.variant
            holder = next((k for k in BOARDS if game.name in games_for(k)), None)
            if follow and holder is not None and game.name not in games_for(board):
                self._print(f"note game {self.core.game_id} ({game.title}) is played on {BOARDS[holder].title}: "
                            f"simulating that board")
                board = holder
            try:
                controller = stacked(self.core, board)
            except PlacementError as exc:
                self.core = self._abandoned(settings, store, f"{exc}", holder, abandon)
                controller = stacked(self.core, board)
        else:
            controller = stacked(self.core, None)

        def resumed(now_ms: int):   # after a controller fault: the stored game, resumed
            core = Controller(settings, store, now_ms=now_ms)
            core.web_pin = self.core.web_pin
            self.core = core
            return stacked(core, board)

        controller = Guard(controller, resumed, fault_dir=fault_dir_for(store), now_ms=0)
        self.waker = Waker()     # the computer's answers and the web page's commands wake the session
        controller.set_waker(self.waker.wake)
        if feed is not None:
            feed.set_waker(self.waker.wake)
        self.runner = Runner.attach(controller, None, 0)
        self._emit(self.runner.events)
        self._serve_feed(True)

    def _abandoned(self, settings: Settings, store: GameStore, problem: str, holder: str | None,
                   abandon: Callable[[str], bool] | None) -> Controller:
        """The unfinished game that the board asked for cannot hold
        (``problem``), ended as abandoned when ``abandon(question)`` says so
        (it stays stored: result "*", termination "abandoned"), and a new
        game's controller; else PlacementError says which game and how to go on."""
        core = self.core
        n = len(core.moves)
        which = f"game {core.game_id} ({core.position.variant.title}, {n} move{'' if n == 1 else 's'})"
        how = f"'--board {holder}' resumes it" if holder else f"'--variant {core.position.variant.name}' resumes it"
        if abandon is None or not abandon(f"{which} is unfinished: {problem}. Abandon it (it stays stored)?"):
            raise PlacementError(f"{which} is unfinished: {problem}; {how}, or '--abandon' ends it as "
                                 f"abandoned (it stays stored)")
        store.finish(core.game_id, "*", "abandoned")
        self._print(f"game {core.game_id} abandoned after {n} move{'' if n == 1 else 's'}; it stays stored "
                    f"(maxima-board export {core.game_id})")
        return Controller(settings, store, fen="start", now_ms=0)

    @property
    def controller(self) -> Controller:
        return self.runner.controller

    def now(self) -> int:
        return int((self._clock() - self._t0) * 1000) + self._waited

    def tick(self) -> None:
        """Let the real time that has passed reach the controller."""
        events = self.runner.advance_to(self.now())
        self._emit(events)
        self._serve_feed(bool(events))

    def next_deadline(self) -> int | None:
        """When (in :meth:`now`'s ms) the controller next needs time; now
        when web page commands wait; None: not until something happens."""
        if self.feed is not None and self.feed.pending():
            return self.now()
        return self.controller.next_deadline()

    def wait(self, fds: Iterable[int] = (), timeout_s: float | None = None) -> list[int]:
        """Sleep until one of ``fds`` is readable (typed input), the session
        is woken (the computer's answer, a web page command), the
        controller's next deadline, or ``timeout_s``; then let time reach
        the controller if it is due or something woke it. The ready ``fds``."""
        fds = list(fds)
        waker = self.waker.fileno()
        deadline = self.next_deadline()
        if deadline is not None:
            due_s = max(deadline - self.now(), 1) / 1000   # at least 1 ms: a stale deadline never spins
            timeout_s = due_s if timeout_s is None else min(timeout_s, due_s)
        ready = select.select(fds + [waker], [], [], timeout_s)[0]
        woken = waker in ready and self.waker.drain()
        deadline = self.next_deadline()
        if woken or (deadline is not None and deadline <= self.now()):
            self.tick()
        return [fd for fd in ready if fd != waker]

    def _let_the_computer_answer(self, ms: int) -> None:
        """``wait MS`` moves the controller's time on at once; a computer that is thinking (a real
        process) gets up to ``MS`` of real time as well to answer, so that a piped script's ``wait``
        sees the answer as a person typing would."""
        end = time.monotonic() + ms / 1000
        while self._thinking() and time.monotonic() < end:
            self.wait(timeout_s=end - time.monotonic())

    def _thinking(self) -> bool:
        """Whether the computer opponent, if the board has one, is thinking."""
        opponent = find_layer(self.controller, OpponentLayer)
        return opponent is not None and opponent.thinking

    def close(self) -> None:
        """Release the waker (the controller and the store are the caller's)."""
        self.waker.close()

    def _serve_feed(self, changed: bool) -> None:
        """Run the web page's commands; pass on what changed."""
        if self.feed is None:
            return
        events = self.feed.pump(self.controller, self.runner.now)
        if any(e["type"] == "new_game" for e in events) and self.controller.mode == "play":
            events += self.runner.set_board(self.runner.expected_board())   # hands set it up
        self._emit(events)
        if changed or events:
            self.feed.update(self.controller)

    def command(self, text: str, line: int) -> bool:
        """Carry out one typed line; False when the session should end."""
        word = text.split("#", 1)[0].strip().split(" ", 1)[0]
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self._print(HELP)
            return True
        self.tick()
        try:
            step = parse_line(text, line, self.controller.variant)
            if step is None:
                return True
            if step.op == "wait":
                self._waited += int(step.arg)   # type: ignore[arg-type]
                self._emit(self.runner.advance_to(self.now()))
                self._let_the_computer_answer(int(step.arg))   # type: ignore[arg-type]
            else:
                self._emit(self.runner.do(step))
            self._serve_feed(True)
        except ScriptError as exc:
            self._print(f"error {typed_error(str(exc), word)}")
        return True

    def _emit(self, events: list[dict]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "move":
                n = len(self.controller.moves) if self.controller.moves and \
                    self.controller.moves[-1] == e["move"] else "?"
                self._print(f"move {n} {e['move']} {e['fen']}")
                if "clocks" in e:
                    self._print(_clocks(e["clocks"]))
            elif kind == "takeback":
                self._print(f"takeback {e['move']} {e['fen']}")
                if "clocks" in e:
                    self._print(_clocks(e["clocks"]))
            elif kind == "game_end":
                self._print(f"game over {e['result']} ({e['reason']})")
            elif kind == "abandoned":
                n = len(e["moves"])
                self._print(f"game {e['game']} left unfinished after {n} move{'' if n == 1 else 's'}; "
                            f"it stays stored (maxima-board export {e['game']})")
            elif kind == "new_game":
                clock = f", clock {e['time_control']}" if "time_control" in e else ""
                self._print(f"game {e['game']} started from {e['fen']}{clock}")
            elif kind == "resumed":
                self._print(f"game {e['game']} resumed after {len(e['moves'])} moves: {e['fen']}")
            elif kind == "show":
                self._print(e["text"])
            elif kind == "display":
                lines = e["lines"]
                if lines[1:] == self._oled[1:] and lines[:1] != self._oled[:1] and self._oled:
                    self._oled = list(lines)   # only the status bar (a clock ticking): not printed; 'show' has it
                    continue
                if _uncounted(lines) == _uncounted(self._oled):
                    self._oled = list(lines)   # only a page's countdown ("Menu 1/4  19s"): printed when the page
                    continue                   # opens and when it changes or closes, not each second
                self._oled = list(lines)
                self._print("oled " + " | ".join(lines))
            elif kind == "leds":
                by_state: dict[str, list[str]] = {}
                for sq, state in e["leds"].items():
                    by_state.setdefault(state, []).append(sq)
                self._print("leds " + ("; ".join(f"{state} {' '.join(sqs)}" for state, sqs in by_state.items())
                                       or "off"))
            elif kind == "error":
                self._print(f"error {e['text']}")
            elif kind == "sync":
                self._print("board in sync")
            elif kind == "setup":
                self._print(f"set up {e['fen']}")
            elif kind == "reopened":
                self._print(f"game {e['game']} goes on")
            elif kind == "engine_move":
                self._print(f"{'computer' if e['for'] == 'computer' else 'hint'} {e['move']} ({e['score']})")
            elif kind == "remote_move":
                self._print(f"remote {e['move']}")
            elif kind == "remote_refused":
                self._print(f"error remote: refused {e['why']}")
            elif kind == "remote_ask":
                self._print(f"remote ask {e['what']} by {'us' if e['by'] == 'us' else 'them'}")
            elif kind == "remote_answer":
                self._print(f"remote answer {e['what']} {'yes' if e['yes'] else 'no'} by {e['by']}")
            elif kind == "remote_game":
                self._print(f"remote game {e['game']} as {e['side']}")
            elif kind == "engine_restart":
                self._print(f"error {e['text']}: {e['detail']}")
            elif kind == "engine_error":
                self._print(f"error computer: {e['text']}")
            elif kind == "players":
                self._print(f"game {e['game']}: {e['white']} - {e['black']}")
            elif kind == "link":
                self._print(f"link {'up' if e['ok'] else 'down'}")
            else:
                self._print("note " + " ".join(f"{k}={v}" for k, v in e.items() if k != "type")
                            + f" ({kind})")

    def _print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


def typed_error(text: str, word: str) -> str:
    """A script error as the person who typed the line reads it: without
    the script's "line N: " (the line is the one just typed); an unknown
    command lists the simulator's commands once."""
    text = re.sub(r"^line \d+: ", "", text)
    if text.startswith("unknown command"):
        return f"unknown command {word!r} (commands: {', '.join(COMMANDS + ('quit',))})"
    return text


_COUNTDOWN = re.compile(r" +\d+s$")   # a page's seconds left, flush right on its heading


def _uncounted(lines: list[str]) -> list[str]:
    """The OLED lines without a page's countdown."""
    return [_COUNTDOWN.sub("", line) for line in lines]


def _clocks(left: dict[str, int]) -> str:
    return f"clock White {format_ms(left['white'])} Black {format_ms(left['black'])}"


def _lines(source: TextIO, sim: Sim) -> Iterator[str]:
    """Lines of ``source``; while none arrives, the session sleeps until
    the controller needs time or something wakes it (:meth:`Sim.wait`)."""
    try:
        fd = source.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        yield from source
        return
    buffer = b""
    while True:
        if not sim.wait([fd]):
            continue
        data = os.read(fd, 4096)
        if not data:
            if buffer:
                yield buffer.decode("utf-8", "replace")
            return
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line.decode("utf-8", "replace")


def run_sim(settings: Settings, input: TextIO | None = None, output: TextIO | None = None,
            label: str | None = None, feed=None, on_start: Callable[[Sim], None] | None = None,
            wrap: Callable | None = None, board: str | None = None, follow: bool = False,
            abandon: Callable[[str], bool] | None = None, linger: bool | None = None) -> int:
    """Run a simulated board session until ``quit`` or end of input; the
    games database is ``settings.db_path`` (default: ``default_db_path()``),
    held with the board lock for the session (``label`` names it in errors).
    With a ``feed`` (the web page) the board goes on after the end of input,
    until interrupted; ``on_start`` is called once the board is up.
    ``board`` ("maxima", "10x10"): the squares typed and shown are that
    physical board's (``maxima_board.service.board_view``); None: the game's own.
    ``follow``: a resumed game that ``board`` cannot hold is simulated on
    the board that holds it (``board`` was not asked for).
    ``abandon(question)``: whether to end, as abandoned, an unfinished game
    that ``board`` cannot hold (None: never; the session does not start).
    ``linger``: go on after the end of input (default: with a ``feed``)
    until interrupted."""
    source = input if input is not None else sys.stdin
    out = output if output is not None else sys.stdout
    store = board_store(settings.db_path, label)
    sim = None
    try:
        sim = Sim(settings, store, out, feed=feed, wrap=wrap, board=board, follow=follow, abandon=abandon)
        if on_start is not None:
            on_start(sim)
        interactive = _isatty(source) and _isatty(out)
        view = sim.runner.view
        where = f" on {view.board.title}" if view is not None else ""
        intro = (f"Simulated board ({sim.controller.position.variant.title}{where}); games are stored in {store.path}.\n"
                 "Type 'help' for the commands, 'show' to see the board, 'quit' to leave.")
        if interactive and source is sys.stdin and out is sys.stdout:
            from .console import run_console

            run_console(sim, out, intro + " Arrow keys recall earlier lines, Tab completes.")
            return 0
        if interactive:
            out.write(intro + "\n> ")
            out.flush()
        for n, text in enumerate(_lines(source, sim), 1):
            if not sim.command(text, n):
                break
            if interactive:
                out.write("> ")
                out.flush()
        else:
            while feed is not None and (linger is None or linger):   # the web page goes on: sleep until it or the controller needs us
                sim.wait()
    finally:
        close = getattr(sim.controller, "close", None) if sim is not None else None
        if close is not None:   # the layer's engine process
            close()
        if sim is not None:
            sim.close()
        store.close()
    return 0


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())   # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False
