"""The board process survives its own bugs.

:class:`Guard` stands outermost around the controller stack (``run`` and
``sim``: ``BoardView(OpponentLayer(Controller))``) and has its interface.
An exception raised by a controller call never reaches the loop:

* it is logged, with its traceback, and with a *replay script* of the
  frames, presses and link changes since the last position the board held
  (written next to the games database as ``fault-<time>.replay``, so that
  ``maxima-board replay FILE`` shows the same fault). Its squares are the
  ones printed on the board: a game placed on a bigger board as the board
  places it (``maxima_board.devices.boards.place``) is written in the
  board's names, to replay with ``--board KIND`` as its first line says;
  at another offset, in the game's own;
* the OLED says the game is safe (every committed move is already stored):
  the fault screen, offered to the stack's screen composer above everything
  (``maxima_board.board.composer``);
* the stack is rebuilt from its factory, which resumes the stored game, and
  is given the board link's state and the last frame again: the players
  are guided back to the stored position as after a restart. Menu items and
  screen offers added through the guard are added to the rebuilt stack too.

The guard keeps its own record of inputs (:class:`Journal`), small and
bounded: it starts again at every position the controller reaches (a move,
a take-back, a new or resumed game).
"""
from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO

from maxima_board.board.composer import Offer, Rank, Source

from .stack import GameStack, Layer, MenuAction

FAULT_MS = 8000       # how long the OLED says the game is safe
RETRY_MS = 1000       # a stack that cannot be rebuilt is tried again after this
MAX_ENTRIES = 5000    # inputs kept per position; beyond, the record starts again from the board as it is
MAX_SCRIPTS = 20      # fault scripts written per process (a fault that repeats must not fill the disk)
FAULT_LINES = ["Software fault", "The game is safe:", "it is stored. Board", "resumes: follow the", "lights."]
BROKEN_LINES = ["Software fault", "The game is safe:", "it is stored. Trying", "to resume…"]
_RESET_ON = ("move", "takeback", "new_game", "resumed", "sync", "setup", "reopened", "game_end")


@dataclass
class Journal:
    """The inputs since the controller's last position, as replay lines:
    the game up to that position is written as hands make its moves
    (``maxima_board.board.hands``), then the recorded frames, presses and link changes."""

    variant: str = "maxima"
    fen: str = "start"
    position: Any = None                  # the game at the start (its moves are replayed by hand)
    mode: str = "play"
    control: str | None = None
    start_ms: int = 0
    board: frozenset[str] | None = None   # the frame at the start, game squares
    current: frozenset[str] | None = None  # the last frame recorded
    link_ok: bool = True
    entries: list[tuple[int, str]] = field(default_factory=list)   # (time, line); "" for a frame
    board_kind: str | None = None          # the board's names are used (frames and moves): its kind
    board_of: Mapping[str, str] | None = None   # game square -> board square, for the moves made by hand

    def script(self, now_ms: int, fault: str, detail: str) -> str:
        how = (f"`maxima-board replay --board {self.board_kind}` this file (the squares printed on the board)"
               if self.board_kind else "`maxima-board replay` this file")
        lines = [f"# maxima-board: controller fault: {fault}",
                 f"# {detail}",
                 f"# The board from the last position the controller reached; {how}.",
                 "# (The computer opponent's answers are not recorded.)"]
        if self.control:
            lines.append(f"clock {self.control}")
        lines += self._game_lines()
        if self.mode == "setup":
            lines.append(f"setup {self.fen}")
        if self.board is not None:
            lines.append(_board_line(self.board))
        if not self.link_ok:
            lines.append("link down")
        t = self.start_ms
        for at, line in self.entries:
            if at > t:
                lines.append(f"wait {at - t}")
                t = at
            lines.append(line)
        if now_ms > t:
            lines.append(f"wait {now_ms - t}")
        return "\n".join(lines) + "\n"


    def _game_lines(self) -> list[str]:
        """The game from its start to the journal's position, made by hand;
        only the position's FEN if its moves cannot be written."""
        if self.position is not None and self.position.move_stack:
            try:
                import random

                from maxima_board.board.hands import hand_lines
                from maxima_board.board.settings import Settings

                root = self.position.copy()
                moves = list(root.move_stack)
                while root.move_stack:
                    root.pop()
                lines = [f"variant {self.variant} {root.fen()}"]
                rng = random.Random(0)
                for move in moves:
                    lines += [self._on_board(line) for line in hand_lines(root, move, rng, Settings().settle_ms)]
                    root.push(move)
                return lines
            except Exception:   # noqa: BLE001 - the script must be written whatever fails
                pass
        return [f"variant {self.variant} {self.fen}"]

    def _on_board(self, line: str) -> str:
        """A ``lift``/``place`` line of the game's squares in the board's names."""
        op, _, square = line.partition(" ")
        if self.board_of is None or op not in ("lift", "place"):
            return line
        return f"{op} {self.board_of.get(square, square)}"


def _board_line(squares: frozenset[str]) -> str:
    return "board " + (" ".join(sorted(squares)) if squares else "empty")


def _frame_lines(old: frozenset[str] | None, new: frozenset[str]) -> list[str]:
    """Script lines that take the board from ``old`` to ``new`` in one frame."""
    if old is not None:
        gone, came = old - new, new - old
        if len(gone) + len(came) == 1:
            return [f"lift {s}" for s in gone] + [f"place {s}" for s in came]
    return [_board_line(new)]


class Guard(Layer):
    """``controller`` (a controller stack) behind a safety net; ``rebuild(now_ms)``
    makes a new stack that resumes the stored game. ``fault_dir``: where
    replay scripts of faults are written (None: only logged)."""

    def __init__(self, controller: GameStack, rebuild: Callable[[int], GameStack], *,
                 fault_dir: "str | Path | None" = None, log: TextIO | None = None, now_ms: int = 0,
                 wall: Callable[[], float] = time.time):
        super().__init__(controller)
        self._rebuild = rebuild
        self._fault_dir = Path(fault_dir) if fault_dir is not None else None
        self._log = log if log is not None else sys.stderr
        self._wall = wall
        self._now = now_ms
        self._frame: tuple[tuple, dict] | None = None   # the last on_frame arguments
        self._link: tuple[bool, str | None] = (True, None)
        self._fault_until: int | None = None
        self._broken_at: int | None = None   # the stack could not be rebuilt (retried after RETRY_MS)
        self.faults: list[dict] = []         # the last faults: {"error", "script"}
        self._seen: set[str] = set()         # the faults logged with their trace
        self._written = 0                    # scripts written
        self._pending: list[dict] = []       # events of a fault met outside an input call, for the next one
        self._journal = Journal()
        self._waker: Callable[[], None] | None = None   # the loop's: handed to every stack built
        self._menu_items: list[tuple[Any, MenuAction, Any]] = []   # added through the guard: to every stack built
        self._offers: list[Source] = []
        controller.add_offer(self._fault_screen)
        self._snapshot(now_ms)

    def add_menu_item(self, label: Any, action: MenuAction, visible: Any = None) -> None:
        self._menu_items.append((label, action, visible))
        self.controller.add_menu_item(label, action, visible)

    def add_offer(self, source: Source) -> None:
        self._offers.append(source)
        self.controller.add_offer(source)

    def _fault_screen(self) -> Offer | None:
        """The fault screen, above everything, for a while after a fault."""
        if self._fault_until is not None and self._now < self._fault_until:
            return Offer(Rank.FAULT, tuple(FAULT_LINES))
        return None

    # ------------------------------------------------------------ the inputs
    def on_frame(self, now_ms: int, squares, *args, **kwargs) -> list[dict]:
        self._frame = ((squares, *args), kwargs)
        self._record(now_ms, None, squares)
        return self._call(now_ms, "on_frame", now_ms, squares, *args, **kwargs)

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        self._record(now_ms, f"press {button}")
        return self._call(now_ms, "on_button", now_ms, button)

    def on_tick(self, now_ms: int) -> list[dict]:
        return self._call(now_ms, "on_tick", now_ms)

    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]:
        if ok != self._link[0]:
            self._record(now_ms, f"link {'up' if ok else 'down'}")
        self._link = (ok, problem)
        return self._call(now_ms, "set_link", ok, now_ms, problem)

    def set_waker(self, wake: Callable[[], None]) -> None:
        """The loop's waker, for this stack and every one rebuilt after a
        fault (the computer opponent's answers wake the loop)."""
        self._waker = wake
        self._hand_waker(self.controller)

    def _hand_waker(self, stack) -> None:
        set_waker = getattr(stack, "set_waker", None) if self._waker is not None else None
        if callable(set_waker):
            set_waker(self._waker)

    def next_deadline(self) -> int | None:
        if self._pending:   # a fault met outside an input call: its events go out at once
            return self._now
        times = [t for t in (self._fault_until,) if t is not None and t > self._now]
        if self._broken_at is not None:
            times.append(self._broken_at + RETRY_MS)
        else:
            try:
                inner = self.controller.next_deadline()
            except Exception as exc:   # noqa: BLE001 - a bug must not end the loop
                self._pending += self._fault(self._now, exc)
                return self._now + 1
            if inner is not None:
                times.append(inner)
        return min(times) if times else None

    @property
    def leds(self) -> dict[str, str]:
        if self._broken_at is not None:
            return {}
        try:
            return self.controller.leds
        except Exception as exc:   # noqa: BLE001
            self._pending += self._fault(self._now, exc)
            return {}

    @property
    def display(self) -> list[str]:
        if self._broken_at is not None:
            return list(BROKEN_LINES)
        try:
            return self.controller.display
        except Exception as exc:   # noqa: BLE001
            self._pending += self._fault(self._now, exc)
            return list(FAULT_LINES)

    # ------------------------------------------------------------ the net
    def _call(self, now_ms: int, name: str, *args, **kwargs) -> list[dict]:
        self._now = max(self._now, now_ms)
        events, self._pending = self._pending, []
        if self._broken_at is not None:
            if now_ms - self._broken_at < RETRY_MS:
                return []
            events += self._restart(now_ms)
            if self._broken_at is not None:
                return events
        try:
            out = list(getattr(self.controller, name)(*args, **kwargs) or ())
        except Exception as exc:   # noqa: BLE001 - a bug must not end the board's loop
            return events + self._fault(now_ms, exc)
        if any(e.get("type") in _RESET_ON for e in out):
            self._snapshot(now_ms)
        return events + out

    def _fault(self, now_ms: int, exc: BaseException) -> list[dict]:
        """Log the fault with its replay script, say the game is safe, rebuild."""
        fault = f"{type(exc).__name__}: {exc}"
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self._wall()))
        script = self._journal.script(now_ms, fault, f"at {stamp}, {now_ms} ms after the board started")
        path = self._write(script, stamp)
        if path is None and fault in self._seen:   # the same fault again: one line, not another trace
            print(f"maxima-board: controller fault again, the game is safe (stored) and resumes: {fault}",
                  file=self._log, flush=True)
        else:
            where = f"; replay script {path}" if path else "; replay script:\n" + script
            print(f"maxima-board: controller fault, the game is safe (stored) and resumes: {fault}{where}\n{trace}",
                  file=self._log, flush=True)
        if len(self._seen) < MAX_SCRIPTS:
            self._seen.add(fault)
        self.faults = self.faults[-(MAX_SCRIPTS - 1):] + [{"error": fault, "script": str(path) if path else None}]
        self._fault_until = now_ms + FAULT_MS
        event = {"type": "error", "text": f"Software fault ({fault}); the game is safe and resumes."}
        if path:
            event["script"] = str(path)
        old = self.controller
        close = getattr(old, "close", None)
        if close is not None:
            try:
                close()
            except Exception as exc2:   # noqa: BLE001
                print(f"maxima-board: closing the faulty controller failed: {exc2}", file=self._log, flush=True)
        return [event] + self._restart(now_ms)

    def _restart(self, now_ms: int) -> list[dict]:
        """A new stack from the stored game, told the link and the board again."""
        try:
            stack = self._rebuild(now_ms)
        except Exception as exc:   # noqa: BLE001
            self._broken_at = now_ms
            print(f"maxima-board: the controller could not be rebuilt: {type(exc).__name__}: {exc}; "
                  f"trying again in {RETRY_MS} ms", file=self._log, flush=True)
            return []
        self._broken_at = None
        self.controller = stack
        self._hand_waker(stack)
        stack.add_offer(self._fault_screen)
        for source in self._offers:
            stack.add_offer(source)
        for label, action, visible in self._menu_items:
            stack.add_menu_item(label, action, visible)
        events: list[dict] = []
        try:
            ok, problem = self._link
            if not ok:
                events += stack.set_link(False, now_ms, problem)
            if self._frame is not None:
                args, kwargs = self._frame
                events += stack.on_frame(now_ms, *args, **kwargs)
        except Exception as exc:   # noqa: BLE001 - the same fault again: wait, then try once more
            self._broken_at = now_ms
            print(f"maxima-board: the resumed controller failed again: {type(exc).__name__}: {exc}; "
                  f"trying again in {RETRY_MS} ms", file=self._log, flush=True)
            return events
        self._snapshot(now_ms)
        return events

    def _write(self, script: str, stamp: str) -> Path | None:
        if self._fault_dir is None or self._written >= MAX_SCRIPTS:
            return None
        name = "fault-" + stamp.replace(":", "").replace("-", "")
        try:
            self._fault_dir.mkdir(parents=True, exist_ok=True)
            for n in range(100):
                path = self._fault_dir / f"{name}{'' if n == 0 else f'-{n}'}.replay"
                try:
                    with open(path, "x", encoding="utf-8") as f:
                        f.write(script)
                    self._written += 1
                    return path
                except FileExistsError:
                    continue
        except OSError as exc:
            print(f"maxima-board: cannot write the fault's replay script in {self._fault_dir}: {exc}",
                  file=self._log, flush=True)
        return None

    # ------------------------------------------------------------ the record
    def _placement(self) -> Any:
        """The board's placement of the game when it is the one ``replay
        --board`` makes (``devices.boards.place``, no offset); else None."""
        placement = getattr(self.controller, "placement", None)
        if placement is None:
            return None
        from maxima_board.devices.boards import PlacementError, place

        try:
            usual = place(placement.variant, placement.board)
        except (PlacementError, ValueError):
            return None
        return placement if usual.shift == placement.shift else None

    def _frame_squares(self, squares) -> frozenset[str]:
        """A frame as the script writes it: the board's squares when the game
        stands where ``replay --board`` puts it, else the game's (through
        the board's placement)."""
        placement = getattr(self.controller, "placement", None)
        if placement is None or self._journal.board_kind is not None:
            return frozenset(squares)
        try:
            return frozenset(placement.to_game(squares)[0])
        except Exception:   # noqa: BLE001 - the record must never fail the call
            return frozenset(squares)

    def _record(self, now_ms: int, line: str | None, squares=None) -> None:
        j = self._journal
        if len(j.entries) >= MAX_ENTRIES:
            self._snapshot(now_ms)
        if line is not None:
            j.entries.append((now_ms, line))
            return
        new = self._frame_squares(squares)
        j.entries += [(now_ms, text) for text in _frame_lines(j.current, new)]
        j.current = new

    def _snapshot(self, now_ms: int) -> None:
        """The record starts again from the controller's position now."""
        try:
            c = self.controller
            position = c.position
            placement = self._placement()
            journal = Journal(variant=position.variant.name, fen=position.fen(), position=position.copy(),
                              mode=c.mode,
                              control=getattr(c, "time_control", None), start_ms=now_ms,
                              link_ok=self._link[0],
                              board_kind=placement.board.name if placement is not None else None,
                              board_of=placement.board_of if placement is not None else None)
        except Exception:   # noqa: BLE001 - a stack that cannot say where it is: keep the old record
            return
        self._journal = journal
        if self._frame is not None:
            journal.board = journal.current = self._frame_squares(self._frame[0][0])


def fault_dir_for(store) -> Path | None:
    """Where a board's fault scripts go: beside its games database (None
    for a database in memory)."""
    path = getattr(store, "path", ":memory:")
    return None if path == ":memory:" else Path(path).absolute().parent


def top_layer(controller) -> Any:
    """The stack a :class:`Guard` holds, or ``controller`` itself."""
    return controller.controller if isinstance(controller, Guard) else controller
