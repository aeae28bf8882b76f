"""The board as seen from outside the controller loop: a JSON-able snapshot
for the web page and the broadcast, and an inbox of commands they send back.

The controller stays single-threaded. The loop that owns it (the board's
runner, the simulated board) calls :meth:`BoardFeed.pump` on every pass,
which runs the commands other threads queued with :meth:`BoardFeed.submit`
exactly like button presses, and :meth:`BoardFeed.update` after anything
happened, which builds a fresh snapshot and hands it to the listeners.
Other threads only ever read snapshots (``latest``, ``wait_newer``).

Nothing another thread does can hold the loop up: the inbox is bounded
(``maxsize``; a full inbox makes ``submit`` fail at once with
:class:`BoardBusy`), a pass runs at most ``limit`` commands (the loop comes
back for the rest at once, after its own work), and a command whose
requester has stopped waiting (its ``deadline`` has passed) is dropped
unrun. ``submit`` wakes the loop (``set_waker``) instead of waiting for its
next pass.

A snapshot (``board_snapshot``) holds: ``game`` (number), ``tags`` (Event,
Site, Date, Round, White, Black), ``start_fen``, ``fen``, ``turn``
(``"white"``/``"black"``), ``moves`` (canonical) and ``sans`` (with the
piece letter, as in the record), ``move_texts`` (the moves in words,
:mod:`maxima_board.rules.words`: "Pawn f3-f4 takes e4"), ``last`` (``{"from", "to"}`` or None),
``leds``, ``display`` (the OLED's lines, the web PIN hidden: :func:`public_lines`), ``mode``, ``result``, ``reason``, ``link_ok``,
``clocks`` (``{"white": ms, "black": ms, "running": "white"|"black"|None}``
when the controller has a clock, else None), ``remote`` (the remote game
played now: :func:`remote_of`), ``seq`` (increasing per
feed) and ``at`` (wall time in ms when it was taken).
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from maxima_board.rules import WHITE, Position
from maxima_board.rules.words import move_label, move_texts

from maxima_board.devices.boards import BOARDS, games_for

from .board_view import BoardView
from .opponent_layer import OpponentLayer
from .remote_layer import RemoteLayer
from .stack import find_layer

Listener = Callable[[dict], None]


def clocks_of(controller: Any) -> dict | None:
    """The controller's clocks (``Controller.clocks``, whose clock runs:
    ``Controller.clock_running``) as ``{"white": ms, "black": ms,
    "running": "white"|"black"|None}``, or None when it has none."""
    clocks = getattr(controller, "clocks", None)
    if not isinstance(clocks, dict) or "white" not in clocks or "black" not in clocks:
        return None
    running = clocks.get("running", getattr(controller, "clock_running", None))
    return {"white": int(clocks["white"]), "black": int(clocks["black"]),
            "running": running if running in ("white", "black") else None}


def move_labels(position: Position, known: tuple[list[str], str, list[str]] | None = None
                ) -> tuple[str, list[str]]:
    """The start FEN of the game ``position`` went through, and its moves
    with the piece letter in front (``Pd3-d5``), as in the game record.
    ``known``: (moves, start FEN, labels) of an earlier position of the same
    game; only the moves since are labelled again."""
    moves = [str(m) for m in position.move_stack]
    copy = position.copy()
    labels: list[str] = []
    if known is not None and len(known[0]) <= len(moves) and moves[:len(known[0])] == known[0]:
        for _ in range(len(moves) - len(known[0])):
            move = copy.pop()
            labels.append(move_label(copy, move))
        return known[1], known[2] + labels[::-1]
    while copy.move_stack:
        move = copy.pop()
        labels.append(move_label(copy, move))
    labels.reverse()
    return copy.fen(), labels


HIDDEN = "(on the board)"


def public_lines(lines: list[str], secrets: list[str | None]) -> list[str]:
    """The OLED's ``lines`` as the page and the broadcast may show them:
    each of the board's ``secrets`` (its web PIN) written as ``HIDDEN``.
    A secret leaves the board only on its own screen (and the operator's
    terminal), whatever screen shows it: "Show web PIN?", "New web PIN?"."""
    hidden = [s for s in secrets if s]
    if not hidden:
        return list(lines)
    out = []
    for line in lines:
        for secret in hidden:
            line = line.replace(secret, HIDDEN)
        out.append(line)
    return out


def remote_of(controller: Any) -> dict | None:
    """The remote game the board plays now, as anyone may see it:
    ``{"game": its public id, "side": the board's side}``, else None."""
    remote = find_layer(controller, RemoteLayer)
    if remote is None or not remote.active:
        return None
    return {"game": remote.public, "side": remote.side}


def secrets_of(controller: Any) -> list[str | None]:
    """The board's secrets: its web PIN, a remote game's name."""
    remote = find_layer(controller, RemoteLayer)
    return [getattr(controller, "web_pin", None)] + (remote.secrets if remote is not None else [])


def board_snapshot(controller: Any, tags: dict[str, str] | None = None, seq: int = 0,
                   known: tuple[list[str], str, list[str]] | None = None,
                   previous_texts: list[str] | None = None) -> dict:
    """What the board shows now, as a JSON-able dict (module docstring);
    ``known`` as for :func:`move_labels`, ``previous_texts`` the
    ``move_texts`` of that earlier snapshot (its moves are not put in words again)."""
    position = controller.position
    start_fen, sans = move_labels(position, known)
    kept = 0   # the moves the earlier snapshot put in words already (a move's words are its label's alone)
    if known is not None and previous_texts is not None:
        limit = min(len(previous_texts), len(known[2]), len(sans))
        while kept < limit and sans[kept] == known[2][kept]:
            kept += 1
    texts = (previous_texts or [])[:kept] + move_texts(position.variant, sans[kept:])
    last = None
    if position.move_stack:
        move = position.move_stack[-1]
        names = position.geometry.names
        last = {"from": names[move.from_square],
                "to": names[move.to_square] if move.to_square is not None else None}
    return {
        "game": controller.game_id, "variant": position.variant.name, "title": position.variant.title,
        "board_kind": board_in_use(controller),
        "tags": dict(tags or {}), "start_fen": start_fen,
        "fen": position.fen(), "turn": "white" if position.turn == WHITE else "black",
        "moves": [str(m) for m in position.move_stack], "sans": sans,
        "move_texts": texts, "last": last,
        "leds": controller.leds, "display": public_lines(controller.display, secrets_of(controller)),
        "mode": controller.mode,
        "result": controller.result, "reason": controller.reason,
        "link_ok": getattr(controller, "link_ok", True), "clocks": clocks_of(controller),
        "remote": remote_of(controller), "seq": seq, "at": int(time.time() * 1000),
    }


INBOX_SIZE = 32      # commands waiting at most
PER_PASS = 8         # commands run per pump at most


def board_in_use(controller: Any) -> str:
    """The kind of board the game is played on: the physical board the game
    is seen through (its ``BoardView``), else the settings' board when it
    holds the game, else the board that does (a simulated board showing
    the game's own squares)."""
    view = find_layer(controller, BoardView)
    if view is not None:
        return view.board.name
    kind = getattr(controller.settings, "board_kind", "maxima")
    game = controller.position.variant.name
    if game in games_for(kind):
        return kind
    return next((name for name in BOARDS if game in games_for(name)), kind)


class BoardBusy(TimeoutError):
    """The inbox is full: the request is refused at once (a TimeoutError,
    so a caller that handles "the board did not answer" handles this too)."""


@dataclass
class Command:
    """Something another thread asks the controller loop to do. ``run`` is
    called in the loop's thread with the controller and the time; its
    return value (events, or data for a query) is handed back.
    ``deadline`` (``time.monotonic()`` seconds, None: none): when the
    requester stops waiting; after it the command is dropped unrun."""

    run: Callable[[Any, int], Any]
    deadline: float | None = None
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: str | None = None
    dropped: bool = False          # its requester had given up: never run

    def wait(self, timeout: float) -> bool:
        return self.done.wait(timeout)

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline


@dataclass(frozen=True)
class NewGame:
    """Start a new game from ``fen`` with these tags (``white``, ``black``,
    ``event``, ``site``, ``round``) and time control (``""``: keep the
    board's). With ``setup`` the players set the pieces up and confirm on
    the board; without, the board is taken to be set up already."""

    fen: str
    tags: dict[str, str]
    time_control: str = ""
    setup: bool = True
    variant: str = "maxima"
    opponent: str = ""      # "white", "black", "none"; "": as the board has it

    def __call__(self, controller: Any, now_ms: int) -> list[dict]:
        settings = controller.settings
        changes = {k: v for k, v in self.tags.items() if hasattr(settings, k)}
        if self.time_control:
            controller.set_time_control(self.time_control)   # TimeControlError (ValueError) says why
            changes["time_control"] = self.time_control
        if self.opponent:
            opponent = find_layer(controller, OpponentLayer)
            if opponent is None:
                if self.opponent != "none":
                    raise ValueError("opponent: this board has no computer opponent")
            else:
                opponent.set_side(self.opponent, now_ms)
        controller.settings = replace(settings, **changes)
        return controller.new_game(now_ms, self.fen, setup=self.setup, variant=self.variant)


class BoardFeed:
    """Snapshots out, commands in (module docstring)."""

    def __init__(self, maxsize: int = INBOX_SIZE) -> None:
        self.inbox: queue.Queue[Command] = queue.Queue(maxsize)
        self.listeners: list[Listener] = []
        self.dropped = 0               # commands dropped because their requester had given up
        self.refused = 0               # submits refused because the inbox was full
        self._wake: Callable[[], None] = lambda: None
        self._cond = threading.Condition()
        self._latest: dict | None = None
        self._seq = 0
        self._tags: tuple[tuple[int | None, str], dict[str, str]] = ((None, ""), {})

    def set_waker(self, wake: Callable[[], None]) -> None:
        """``wake()`` is called after every submit: the loop's waker."""
        self._wake = wake

    # -- the loop's side ------------------------------------------------------
    def pending(self) -> bool:
        """Commands are waiting."""
        return not self.inbox.empty()

    def pump(self, controller: Any, now_ms: int, limit: int = PER_PASS) -> list[dict]:
        """Run up to ``limit`` queued commands (dropping those whose
        requester has given up); return the controller events they made."""
        events: list[dict] = []
        ran = 0
        while ran < limit:
            try:
                command = self.inbox.get_nowait()
            except queue.Empty:
                break
            if command.expired(time.monotonic()):
                command.dropped = True
                command.error = "dropped: the request had timed out"
                self.dropped += 1
                command.done.set()
                continue
            ran += 1
            try:
                result = command.run(controller, now_ms)
                command.result = result
                if isinstance(result, list) and all(isinstance(e, dict) and "type" in e for e in result):
                    events += result
            except Exception as exc:   # a bad request must never stop the board
                command.error = str(exc) or type(exc).__name__
            finally:
                command.done.set()
        return events

    def update(self, controller: Any) -> dict:
        """Take a snapshot now and hand it to the listeners."""
        self._seq += 1
        known = texts = None
        latest = self._latest
        if latest is not None and controller.game_id is not None and latest["game"] == controller.game_id \
                and latest["variant"] == controller.position.variant.name:
            known = (latest["moves"], latest["start_fen"], latest["sans"])
            texts = latest["move_texts"]
        snapshot = board_snapshot(controller, self._game_tags(controller), self._seq, known, texts)
        with self._cond:
            self._latest = snapshot
            self._cond.notify_all()
        for listener in list(self.listeners):
            listener(snapshot)
        return snapshot

    def _game_tags(self, controller: Any) -> dict[str, str]:
        game_id = controller.game_id
        if game_id is None:
            s = controller.settings
            return {"Event": s.event, "Site": s.site, "Round": s.round, "White": s.white, "Black": s.black}
        remote = remote_of(controller)
        key = (game_id, remote["game"] if remote else "")     # a remote game tags the board's game anew
        if self._tags[0] != key:
            row = controller.store.game(game_id)
            self._tags = (key, {"Event": row.event, "Site": row.site, "Date": row.date,
                                    "Round": row.round, "White": row.white, "Black": row.black})
        return dict(self._tags[1])

    # -- other threads' side --------------------------------------------------
    @property
    def latest(self) -> dict | None:
        with self._cond:
            return self._latest

    def wait_newer(self, seq: int, timeout: float) -> dict | None:
        """The newest snapshot once its ``seq`` is above ``seq``; None if
        none came within ``timeout`` seconds."""
        with self._cond:
            self._cond.wait_for(lambda: self._latest is not None and self._latest["seq"] > seq, timeout)
            latest = self._latest
        return latest if latest is not None and latest["seq"] > seq else None

    def submit(self, run: Callable[[Any, int], Any], timeout: float = 5.0) -> Command:
        """Queue ``run`` for the loop and wait up to ``timeout`` seconds for
        it. :class:`BoardBusy` at once when the inbox is full;
        ``TimeoutError`` if the loop did not get to it in time (it then
        never runs it)."""
        command = Command(run, deadline=time.monotonic() + timeout)
        try:
            self.inbox.put_nowait(command)
        except queue.Full:
            self.refused += 1
            raise BoardBusy(f"the board is busy ({self.inbox.maxsize} requests waiting); try again") from None
        self._wake()
        if not command.wait(timeout) or command.dropped:
            raise TimeoutError("the board did not answer in time")
        return command
