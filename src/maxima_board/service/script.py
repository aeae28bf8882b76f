"""Board scripts: the replay contract of controller.md, and the runner that
plays them on a simulated board with a simulated clock.

Script lines (``#`` starts a comment, blank lines are skipped):

    fen <FEN|start>     a new game from this position, board set up
    variant NAME [FEN|start]
                        a new game of that game (``maxima-board variants``)
                        from its start or FEN, board set up; ``fen`` and
                        ``setup`` lines after it are of that game, even when
                        MENU → Game has chosen another game on the board
                        since (a script's lines are read before it runs)
    lift <sq>           the square becomes empty
    place <sq>          the square becomes occupied
    wait <ms>           time passes (0 to 86400000: at most 24 h)
    press <button>      ok | back | menu | new
    board <sq>...       the board shows exactly these squares
                        (``board empty``; ``board start``: the start position's)
    setup [FEN|start]   a new game from this position, to be set up by hand
    link down|up        the board link is lost / back
    clock CONTROL       the time control (90+30, 60d10, 40/90,30+30, none) of
                        the next new game; before any other line (but a
                        first ``fen``): of the first game
    forces KIND         Optima's forces of the next new Optima game started
                        from its start (eq, u1, u2, random; [game] forces);
                        before the first ``variant`` line: of the first game
    seed N              the seed that draws those forces' pools and random
                        sets ([game] seed), placed like ``forces``
    show                the board, its LEDs and the OLED (a ``show`` event)
    opponent white|black|none [LEVEL]
                        the computer plays that side (``maxima_board.service.opponent_layer``),
                        at LEVEL 1-10 (default 1); its answers are awaited
                        within the line that makes it the computer's turn
                        (``go depth 1 + LEVEL // 2``), so replays repeat
    help                ignored (it lists the commands in ``sim``)

Squares are the game's own names (``a1``…``h8`` for Ultima); a square
that no game has is refused when the script is read, a square of the
board outside the game counts as a piece where none may stand. With
``replay --board maxima|10x10`` (``Runner(board=…)``) squares are that
physical board's instead, read through the board mapping a real board
uses (``maxima_board.service.board_view``): Ultima on the 10×10 board stands on
b2…i9, and LED events name board squares.

With a clock, ``move`` and ``final`` lines carry ``"clocks": {"white": ms,
"black": ms}``, the time each side has left.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator

from maxima_board.rules import Position, variants
from maxima_board.devices.boards import place
from maxima_board.devices.interfaces import BUTTONS

from .board_view import BoardView
from maxima_board.board.clock import TimeControlError, parse_time_control
from maxima_board.board.core import Controller
from .guard import top_layer
from .stack import find_layer
from maxima_board.board.numbers import shown, whole_number
from maxima_board.board.render import board_text, board_view_text
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore

COMMANDS = ("fen", "variant", "lift", "place", "wait", "press", "board", "setup", "link", "clock", "show", "help",
            "opponent", "forces", "seed")
FORCES = ("eq", "u1", "u2", "random")
_ALL_SQUARES = frozenset(name for v in variants.all_variants() for name in v.geometry.names)
MAX_WAIT_MS = 24 * 60 * 60 * 1000   # one wait: at most a day


class ScriptError(ValueError):
    """A script line that cannot be read or cannot be carried out; the
    message names the line."""


@dataclass(frozen=True)
class Step:
    """One script line: ``op`` is a command of ``COMMANDS``."""

    line: int
    op: str
    arg: object = None
    variant: str | None = None   # ``fen`` and ``setup``: the game the FEN is of


def _square(word: str, line: int) -> str:
    if word not in _ALL_SQUARES:
        raise ScriptError(f"line {line}: unknown square {word!r}")
    return word


def _fen(text: str, line: int, variant: str = "maxima") -> str:
    if text in ("", "start"):
        if variants.get(variant).forces:
            return "start"   # the start of the forces chosen (``forces``, ``seed``)
        return variants.get(variant).start_fen
    try:
        Position(text, variant)
    except ValueError as exc:   # FenError, or any other refusal of the text
        raise ScriptError(f"line {line}: bad FEN: {exc}") from None
    return text


def _variant(words: list[str], line: int) -> tuple[str, str]:
    if not words:
        raise ScriptError(f"line {line}: variant needs a game, e.g. 'variant ultima' (see 'maxima-board variants')")
    try:
        name = variants.get(words[0]).name
    except ValueError as exc:
        raise ScriptError(f"line {line}: {exc}") from None
    return name, _fen(" ".join(words[1:]), line, name)


def parse_line(text: str, line: int, variant: str = "maxima") -> Step | None:
    """One script line as a Step, or None for a blank or comment line;
    ``fen`` and ``setup`` lines are read as FENs of ``variant``.
    ScriptError names the line and what is wrong."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    op, _, rest = body.partition(" ")
    rest = rest.strip()
    words = rest.split()
    if op not in COMMANDS:
        raise ScriptError(f"line {line}: unknown command {op!r} (expected one of {', '.join(COMMANDS)})")
    if op == "help":
        return None
    if op == "show":
        if words:
            raise ScriptError(f"line {line}: show takes nothing after it")
        return Step(line, op)
    if op in ("lift", "place"):
        if len(words) != 1:
            raise ScriptError(f"line {line}: {op} needs one square, e.g. '{op} e5'")
        return Step(line, op, _square(words[0], line))
    if op == "wait":
        if len(words) != 1:
            raise ScriptError(f"line {line}: wait needs a whole number of milliseconds, e.g. 'wait 500'")
        try:
            return Step(line, op, whole_number(words[0], 0, MAX_WAIT_MS))
        except ValueError:
            raise ScriptError(f"line {line}: wait needs a whole number of milliseconds from 0 to {MAX_WAIT_MS} "
                              f"(24 h; digits 0-9), got {shown(words[0])}") from None
    if op == "press":
        if len(words) != 1 or words[0].lower() not in BUTTONS:
            raise ScriptError(f"line {line}: press needs a button: {', '.join(BUTTONS)}")
        return Step(line, op, words[0].lower())
    if op == "fen":
        if not rest:
            raise ScriptError(f"line {line}: fen needs a FEN or 'start'")
        return Step(line, op, _fen(rest, line, variant), variant)
    if op == "setup":
        return Step(line, op, _fen(rest, line, variant), variant)
    if op == "variant":
        return Step(line, op, _variant(words, line))
    if op == "clock":
        try:
            parse_time_control(rest)
        except TimeControlError as exc:
            raise ScriptError(f"line {line}: {exc}") from None
        if not rest:
            raise ScriptError(f"line {line}: clock needs a time control, e.g. 'clock 90+30' or 'clock none'")
        return Step(line, op, rest)
    if op == "forces":
        if words not in ([k] for k in FORCES):
            raise ScriptError(f"line {line}: forces needs one of {', '.join(FORCES)}, e.g. 'forces u1'")
        return Step(line, op, words[0])
    if op == "seed":
        if len(words) != 1 or not words[0].isascii() or not words[0].isdigit() or len(words[0]) > 9:
            raise ScriptError(f"line {line}: seed needs a whole number, e.g. 'seed 7'")
        return Step(line, op, int(words[0]))
    if op == "board":
        if words == ["empty"]:
            return Step(line, op, frozenset())
        if words == ["start"]:
            return Step(line, op, "start")   # the start position of the game being played
        return Step(line, op, frozenset(_square(w, line) for w in words))
    if op == "opponent":
        if not 1 <= len(words) <= 2 or words[0] not in ("white", "black", "none") or \
                (len(words) == 2 and not (words[1].isdigit() and 1 <= int(words[1]) <= 10)):
            raise ScriptError(f"line {line}: opponent needs a side and an optional level: "
                              f"'opponent white|black|none [1-10]'")
        return Step(line, op, (words[0], int(words[1]) if len(words) == 2 else 1))
    if words not in (["up"], ["down"]):
        raise ScriptError(f"line {line}: link needs 'up' or 'down'")
    return Step(line, op, words[0] == "up")


def parse_script(lines: Iterable[str], variant: str = "maxima") -> list[Step]:
    """Every step of a script whose first game is ``variant``; the first
    bad line raises ScriptError."""
    steps = []
    for n, text in enumerate(lines, 1):
        step = parse_line(text, n, variant)
        if step is not None:
            steps.append(step)
            if step.op == "variant":
                variant = step.arg[0]   # type: ignore[index]
    return steps


class Runner:
    """A controller on a simulated board and clock. The board starts set up
    with ``fen`` (the start position by default) at time 0.

    With ``board`` ("maxima" or "10x10") the simulated board is that
    physical board: squares are the board's own names, translated to the
    game's by the board mapping a real board uses
    (``maxima_board.service.board_view.BoardView``); LED events and the error
    events' squares are the board's too. Without, squares are the game's."""

    engine = "builtin"   # the engine of ``opponent`` lines
    _board_leds: dict[str, str] = {}   # with a physical board: its LED frame last reported
    changed_at = 0       # when (ms) the simulated board was last shown to the controller

    def __init__(self, settings: Settings, fen: str | None = None, store: GameStore | None = None,
                 now_ms: int = 0, variant: str | None = None, board: str | None = None):
        controller = Controller(settings, store if store is not None else GameStore(":memory:"),
                                fen=fen if fen is not None else "start", now_ms=now_ms, variant=variant)
        self.controller = BoardView(controller, board, settings.board_offset) if board else controller
        self.now = self.changed_at = now_ms
        self.board: set[str] = set(self.expected_board())
        if self.view is not None:
            self.events = self.frame()
        else:
            self.events = self.controller.on_frame(self.now, frozenset(self.board))

    @property
    def view(self) -> BoardView | None:
        """The physical board the game is seen through, if any."""
        layer = top_layer(self.controller)   # (sim: inside its Guard)
        return layer if isinstance(layer, BoardView) else None

    def expected_board(self) -> set[str]:
        """The squares that should be occupied now, by the simulated board's names."""
        squares = self.controller.expected_squares
        view = self.view
        if view is None:
            return set(squares)
        board_of = view.placement.board_of
        return {board_of[sq] for sq in squares}

    def _board_events(self, events: list[dict]) -> list[dict]:
        """The controller's events with squares as the physical board names
        them: LED frames (squares outside the game holding a piece lit as
        errors) and the squares of wrong-board errors."""
        view = self.view
        if view is None:
            return events
        placement = view.placement
        out = []
        for e in events:
            if e.get("type") == "leds":
                continue                     # the board's own frame follows when it changed
            if e.get("type") == "error" and "missing" in e:
                e = {**e, **{k: [placement.board_of.get(sq, sq) for sq in e[k]]
                             for k in ("missing", "extra", "remove")}}
            out.append(e)
        leds = dict(sorted(view.leds.items()))
        if leds != self._board_leds:
            self._board_leds = leds
            out.append({"type": "leds", "leds": leds})
        return out

    @classmethod
    def attach(cls, controller: Controller, board: set[str] | None, now_ms: int) -> "Runner":
        """A runner for an existing controller (or a ``BoardView`` of one)
        and board (None: set up as the game stands)."""
        runner = cls.__new__(cls)
        runner.controller, runner.now, runner.changed_at = controller, now_ms, now_ms
        runner.board = set(board) if board is not None else runner.expected_board()
        if runner.view is not None:
            runner.events = runner.frame()
        else:
            runner.events = controller.on_frame(now_ms, frozenset(runner.board))
        return runner

    def frame(self) -> list[dict]:
        """The board as the controller sees it: the game's squares, and
        those of other games' boards as ``outside`` (with a physical board:
        the board's squares, translated by its view)."""
        self.changed_at = self.now
        if self.view is not None:
            return self._board_events(self.controller.on_frame(self.now, frozenset(self.board)))
        index = self.controller.position.geometry.index
        inside = frozenset(sq for sq in self.board if sq in index)
        return self.controller.on_frame(self.now, inside, frozenset(self.board) - inside)

    def _on_board(self, op: str, square: str) -> None:
        view = self.view
        if view is not None and square not in view.board.squares:
            raise ValueError(f"{op} {square}: {view.board.title} has no such square")

    def lift(self, square: str) -> list[dict]:
        self._on_board("lift", square)
        if square not in self.board:
            raise ValueError(f"lift {square}: the square is already empty")
        self.board.discard(square)
        return self.frame()

    def place(self, square: str) -> list[dict]:
        self._on_board("place", square)
        if square in self.board:
            raise ValueError(f"place {square}: the square is already occupied")
        self.board.add(square)
        return self.frame()

    def set_board(self, squares: "Iterable[str] | str") -> list[dict]:
        """The board holds exactly ``squares`` (``"start"``: the start
        position of the game being played)."""
        if squares == "start":
            p = Position("start", self.controller.variant)
            squares = [p.geometry.names[sq] for sq, _ in p.pieces()]
            if self.view is not None:
                squares = [self.view.placement.board_of[sq] for sq in squares]
        else:
            for square in squares:
                self._on_board("board", square)
        self.board = set(squares)
        return self.frame()

    def advance_to(self, target: int) -> list[dict]:
        """Let time pass until ``target``, ticking at every deadline on the way."""
        events = []
        while True:
            deadline = self.controller.next_deadline()
            if deadline is None or deadline > target or deadline <= self.now:
                break
            self.now = deadline
            events += self._board_events(self.controller.on_tick(deadline))
        self.now = max(self.now, target)
        return events + self._board_events(self.controller.on_tick(self.now))

    def wait(self, ms: int) -> list[dict]:
        return self.advance_to(self.now + ms)

    def _core(self) -> Controller | None:
        return find_layer(self.controller, Controller)

    def run_out_target(self) -> int:
        """When the board's timers that run from its last change (settle,
        grace; an immobilized piece's suicide) have run out, as on a board
        whose hands stopped: ``now`` when the board stands as the game
        expects (nothing is pending)."""
        if self.board == self.expected_board():
            return self.now
        s = self.controller.settings
        end = self.changed_at + max(s.settle_ms, s.grace_ms)
        core = self._core()
        if core is not None and core.mode == "play" and core.link_ok and core.match().kind in ("suicide", "early"):
            end = self.changed_at + s.suicide_ms
        return max(self.now, end)

    def standing_wrong(self) -> bool:
        """Whether the game is being played and the board stands as no move
        of it does (a refused move, a piece where none may stand)."""
        core = self._core()
        return (core is not None and core.mode == "play" and core.link_ok and self.board != self.expected_board()
                and core.match().kind == "wrong")

    def press(self, button: str) -> list[dict]:
        return self._board_events(self.controller.on_button(self.now, button))

    def fen(self, fen: str, variant: str | None = None) -> list[dict]:
        """A new game from ``fen`` (of ``variant``: the game being played
        if None); the board is set up for it at once."""
        view = self.view
        if view is not None:   # PlacementError (one line) for a game this board cannot hold
            place(variant or self.controller.variant, view.board, view.offset or None)
        events = self._abandoned() + self.controller.new_game(self.now, fen, setup=False, variant=variant)
        self.board = self.expected_board()
        return self._board_events(events) + self.frame()

    def variant(self, arg: tuple[str, str]) -> list[dict]:
        """``variant NAME FEN``: a new game of that game, board set up."""
        name, fen = arg
        return self.fen(fen, name)

    def setup(self, fen: str, variant: str | None = None) -> list[dict]:
        """A new game from ``fen`` (of ``variant``: the game being played if
        None), set up by hand from the board as it stands."""
        events = self._abandoned() + self.controller.new_game(self.now, fen, setup=True, variant=variant)
        if self.view is not None:
            return self._board_events(events) + self.frame()   # the board read again where the game stands
        return events

    def _abandoned(self) -> list[dict]:
        """The ``abandoned`` event when a new game leaves one unfinished
        (it stays stored, unfinished, with its moves)."""
        c = self.controller
        if c.game_id is None or c.mode not in ("play", "sync"):
            return []
        return [{"type": "abandoned", "game": c.game_id, "moves": c.moves}]

    def show(self, _: object = None) -> list[dict]:
        """The ``show`` event: the board as text, as ``sim`` prints it."""
        c = self.controller
        if self.view is not None:
            return [{"type": "show", "text": board_view_text(self.view, self.board, c.leds, c.display)}]
        return [{"type": "show", "text": board_text(c.position, self.board, c.leds, c.display)}]

    def link(self, up: bool) -> list[dict]:
        events = self._board_events(self.controller.set_link(up, self.now))
        if up:
            events += self.frame()
        return events

    def insert(self, make: "Callable[[Any], Any]") -> None:
        """The layer ``make(controller)`` around the controller, inside the
        physical board's view (a remote game's)."""
        view = self.view
        inner = view.controller if view is not None else self.controller
        layer = make(inner)
        if view is not None:
            view.controller = layer
        else:
            self.controller = layer
        self.events += self._board_events(layer.on_tick(self.now))

    def opponent(self, arg: tuple[str, int]) -> list[dict]:
        """The computer plays ``side`` at ``level``: a layer around the
        controller (``maxima_board.service.opponent_layer``) answering synchronously."""
        from .opponent_layer import OpponentLayer, replay_limits

        side, level = arg
        view = self.view
        layer = view.controller if view is not None else self.controller
        if not isinstance(top_layer(layer), OpponentLayer):   # (sim: inside its Guard)
            layer = OpponentLayer(layer, "none", level, self.engine, sync=True)
            if view is not None:   # the board's squares stay outermost, as on a real board
                view.controller = layer
            else:
                self.controller = layer
        layer = top_layer(layer)
        layer.set_level(level)
        if layer.sync:
            layer.limits = replay_limits(level)
        return self._board_events(layer.set_side(side, self.now))

    def close(self) -> None:
        """End what the run started (the opponent's engine process)."""
        close = getattr(self.controller, "close", None)
        if close is not None:
            close()

    def clock(self, control: str) -> list[dict]:
        self.controller.set_time_control(control)
        return []

    def forces(self, kind: str) -> list[dict]:
        """Optima's forces of the next new game (``[game] forces``)."""
        self.controller.set_forces(kind, self.controller.settings.seed)
        return []

    def seed(self, number: int) -> list[dict]:
        """The seed of the next new Optima game's draw (``[game] seed``)."""
        self.controller.set_forces(self.controller.settings.forces, number)
        return []

    def do(self, step: Step) -> list[dict]:
        """Carry out one step; ScriptError names its line if it cannot be."""
        try:
            if step.op == "board":
                return self.set_board(step.arg)   # type: ignore[arg-type]
            if step.op in ("fen", "setup"):      # the FEN is of the game it was read as
                return getattr(self, step.op)(step.arg, step.variant)
            return getattr(self, step.op)(step.arg)
        except ScriptError:
            raise
        except ValueError as exc:
            raise ScriptError(f"line {step.line}: {exc}") from None

    def final(self) -> dict:
        """The ``final`` line of the replay contract."""
        c = self.controller
        final = {"type": "final", "fen": c.position.fen(), "moves": c.moves, "result": c.result,
                 "reason": c.reason, "leds": c.leds, "display": c.display}
        if c.clocks is not None:
            final["clocks"] = c.clocks
        return final


class ScriptRun:
    """One run of a script, as ``replay`` runs it: the first game set by the
    leading ``clock``/``forces``/``seed`` lines and a first ``fen`` or
    ``variant`` line, every step, then (as on a board whose hands stopped)
    the board's pending timers run out (:meth:`Runner.run_out_target`), then the
    ``final`` line. Iterating gives the events of each step as a list (the
    start's first, the final line last). After it, :attr:`wrong` is the
    error of a board that ends standing wrong (a refused move), else None.

    ``pace(ms)`` (optional) is called with the script time each wait and
    the run-out reach before they are carried out, deadline by deadline (a
    replay in real time sleeps there; a pace woken early, by a remote
    game's move, returns the script time it reached). ``wrap``: a layer
    put around the controller (a remote game's). ``run_out=False``: the events up to
    the script's last line exactly, nothing run out (tests of the board at
    a given time); ``wrong`` then judges the board as it stands."""

    def __init__(self, steps: list[Step], settings: Settings, fen: str | None = None,
                 store: GameStore | None = None, variant: str | None = None, engine: str = "builtin",
                 board: str | None = None, pace: "Callable[[int], int | None] | None" = None, run_out: bool = True,
                 wrap: "Callable[[Any], Any] | None" = None):
        lead, seen_fen = 0, False
        while lead < len(steps) and (steps[lead].op in ("clock", "forces", "seed")
                                     or (steps[lead].op in ("fen", "variant") and not seen_fen)):
            step = steps[lead]
            if step.op == "fen":
                fen, seen_fen = str(step.arg), True
            elif step.op == "variant":
                (variant, fen), seen_fen = step.arg, True   # type: ignore[misc]
            elif step.op == "forces":
                settings = replace(settings, forces=str(step.arg))
            elif step.op == "seed":
                settings = replace(settings, seed=int(step.arg))   # type: ignore[arg-type]
            else:
                settings = replace(settings, time_control=str(step.arg))
            lead += 1
        self.steps = steps[lead:]
        self.runner = Runner(settings, fen, store, variant=variant, board=board)
        self.runner.engine = engine
        if wrap is not None:
            self.runner.insert(wrap)
        self.pace = pace
        self.run_out = run_out
        self.wrong: str | None = None

    def _advance(self, target: int) -> Iterator[list[dict]]:
        """Time on to ``target``, deadline by deadline when paced."""
        runner = self.runner
        if self.pace is None:
            yield runner.advance_to(target)
            return
        while True:
            deadline = runner.controller.next_deadline()
            at = target if deadline is None or deadline > target or deadline <= runner.now else deadline
            reached = self.pace(at)    # a pace woken early (a remote move came) says when it woke
            if isinstance(reached, int) and runner.now <= reached < at:
                at = reached
            yield runner.advance_to(at)
            if at >= target:
                return

    def __iter__(self) -> Iterator[list[dict]]:
        runner = self.runner
        errors: list[str] = []
        try:
            yield self._seen(runner.events, errors)
            for step in self.steps:
                if step.op == "wait":
                    for events in self._advance(runner.now + int(step.arg)):   # type: ignore[arg-type]
                        yield self._seen(events, errors)
                else:
                    yield self._seen(runner.do(step), errors)
            for _ in range(2 if self.run_out else 0):   # settle and grace; then a suicide, once settled
                for events in self._advance(runner.run_out_target()):
                    yield self._seen(events, errors)
            if runner.standing_wrong():
                self.wrong = errors[-1] if errors else "the board stands as no move of the game"
            yield [runner.final()]
        finally:
            runner.close()

    @staticmethod
    def _seen(events: list[dict], errors: list[str]) -> list[dict]:
        errors += [e["text"] for e in events if e.get("type") == "error"]
        return events


def replay(steps: list[Step], settings: Settings, fen: str | None = None,
           store: GameStore | None = None, variant: str | None = None, engine: str = "builtin",
           board: str | None = None) -> Iterator[dict]:
    """Every event of a script run (:class:`ScriptRun`), then the final
    line, at the time the script's last line leaves the board: the board's
    pending timers are not run out (the ``replay`` command runs them out).
    The first game is of ``variant`` (``settings.variant`` if None).
    A ``fen`` or ``variant`` step before any other step sets the starting
    position instead of ``fen``; ``clock`` steps before any other (but
    that one) set the first game's time control."""
    for events in ScriptRun(steps, settings, fen, store, variant, engine, board, run_out=False):
        yield from events
