"""The controller stack: the core controller and the layers around it.

The runner, the simulator, the script runner and the web page's feed use a
stack (``Guard(BoardView(OpponentLayer(Controller)))``, or any part of it)
in the controller's place. :class:`GameStack` is the interface every layer
offers and uses of the layer it wraps; :class:`Layer` passes each member
of it on explicitly to the layer below, for a wrapping layer to change
what it wraps.
"""
from __future__ import annotations

from typing import Callable, Iterator, Protocol, TypeVar

from maxima_board.board.composer import Source
from maxima_board.board.settings import Settings
from maxima_board.rules import Position
from maxima_board.storage.store import GameStore

MenuAction = Callable[[int], list]


class GameStack(Protocol):
    """A controller, as ``maxima_board.board.core.Controller`` offers it. (A
    stand-in for it may lack ``next_deadline``, ``set_waker`` and ``close``:
    the loop asks for them with ``getattr``.)"""

    settings: Settings
    store: GameStore
    web_pin: str | None

    @property
    def position(self) -> Position: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def result(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def mode(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def game_id(self) -> int | None: ...
    @property
    def time_control(self) -> str | None: ...
    @property
    def clocks(self) -> dict[str, int] | None: ...
    @property
    def clock_running(self) -> str | None: ...
    @property
    def leds(self) -> dict[str, str]: ...
    @property
    def display(self) -> list[str]: ...
    @property
    def link_ok(self) -> bool: ...
    @property
    def outside(self) -> frozenset[str]: ...
    @property
    def expected_squares(self) -> frozenset[str]: ...

    def on_frame(self, now_ms: int, squares, outside: frozenset[str] = frozenset()) -> list[dict]: ...
    def on_button(self, now_ms: int, button: str) -> list[dict]: ...
    def on_tick(self, now_ms: int) -> list[dict]: ...
    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]: ...
    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True,
                 variant: str | None = None) -> list[dict]: ...
    def choose_game(self, variant: str, now_ms: int) -> list[dict]: ...
    def next_deadline(self) -> int | None: ...
    def add_menu_item(self, label: "str | Callable[[], str]", action: MenuAction,
                      visible: "Callable[[], bool] | None" = None) -> None: ...
    def show_on_board(self, kind: str, offset: str = "") -> None: ...
    def printed_names(self, position: Position) -> tuple[str, ...]: ...
    def add_offer(self, source: Source) -> None: ...
    def show_web_pin(self, now: int) -> list[dict]: ...
    def set_forces(self, forces: str, seed: int | None = None) -> None: ...
    def set_time_control(self, text: str) -> None: ...


class Layer:
    """A layer around ``controller`` (a :class:`GameStack`): every member
    of the interface is passed on to it as it is, unless the layer's class
    says otherwise. ``set_waker`` and ``close`` reach the layers below that
    have them."""

    def __init__(self, controller: GameStack) -> None:
        self.controller = controller

    # ---------------------------------------------------------------- state
    @property
    def settings(self) -> Settings:
        return self.controller.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.controller.settings = settings

    @property
    def store(self) -> GameStore:
        return self.controller.store

    @property
    def web_pin(self) -> str | None:
        return self.controller.web_pin

    @web_pin.setter
    def web_pin(self, pin: str | None) -> None:
        self.controller.web_pin = pin

    @property
    def position(self) -> Position:
        return self.controller.position

    @property
    def moves(self) -> list[str]:
        return self.controller.moves

    @property
    def result(self) -> str:
        return self.controller.result

    @property
    def reason(self) -> str | None:
        return self.controller.reason

    @property
    def mode(self) -> str:
        return self.controller.mode

    @property
    def variant(self) -> str:
        return self.controller.variant

    @property
    def game_id(self) -> int | None:
        return self.controller.game_id

    @property
    def time_control(self) -> str | None:
        return self.controller.time_control

    @property
    def clocks(self) -> dict[str, int] | None:
        return self.controller.clocks

    @property
    def clock_running(self) -> str | None:
        return self.controller.clock_running

    @property
    def leds(self) -> dict[str, str]:
        return self.controller.leds

    @property
    def display(self) -> list[str]:
        return self.controller.display

    @property
    def link_ok(self) -> bool:
        return self.controller.link_ok

    @property
    def outside(self) -> frozenset[str]:
        return self.controller.outside

    @property
    def expected_squares(self) -> frozenset[str]:
        return self.controller.expected_squares

    # ---------------------------------------------------------------- inputs
    def on_frame(self, now_ms: int, squares, outside: frozenset[str] = frozenset()) -> list[dict]:
        return self.controller.on_frame(now_ms, squares, outside=outside)

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        return self.controller.on_button(now_ms, button)

    def on_tick(self, now_ms: int) -> list[dict]:
        return self.controller.on_tick(now_ms)

    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]:
        return self.controller.set_link(ok, now_ms, problem)

    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True,
                 variant: str | None = None) -> list[dict]:
        return self.controller.new_game(now_ms, fen, setup, variant)

    def choose_game(self, variant: str, now_ms: int) -> list[dict]:
        return self.controller.choose_game(variant, now_ms)

    @property
    def next_deadline(self) -> Callable[[], int | None]:
        """The controller's ``next_deadline``; a controller that cannot say
        when it needs time has none (the loop then ticks it at every pass)."""
        return self.controller.next_deadline

    # ---------------------------------------------------------------- settings and hooks
    def add_menu_item(self, label: "str | Callable[[], str]", action: MenuAction,
                      visible: "Callable[[], bool] | None" = None) -> None:
        self.controller.add_menu_item(label, action, visible)

    def add_offer(self, source: Source) -> None:
        self.controller.add_offer(source)

    def show_on_board(self, kind: str, offset: str = "") -> None:
        """The physical board the texts name squares of (``Controller.show_on_board``)."""
        self.controller.show_on_board(kind, offset)

    def printed_names(self, position: Position) -> tuple[str, ...]:
        """The board's printed name of each square of ``position``'s game (``Controller.printed_names``)."""
        return self.controller.printed_names(position)

    def show_web_pin(self, now: int) -> list[dict]:
        return self.controller.show_web_pin(now)

    def set_forces(self, forces: str, seed: int | None = None) -> None:
        self.controller.set_forces(forces, seed)

    def set_time_control(self, text: str) -> None:
        self.controller.set_time_control(text)

    def set_waker(self, wake: Callable[[], None]) -> None:
        """``wake()`` for the layers below that wait on something outside the
        loop (the computer opponent's answers)."""
        inner = getattr(self.controller, "set_waker", None)   # the core controller has none
        if callable(inner):
            inner(wake)

    def close(self) -> None:
        """End what the layers below started (the opponent's engine)."""
        inner = getattr(self.controller, "close", None)   # the core controller has none
        if callable(inner):
            inner()



class WatchingLayer(Layer):
    """A layer that looks at what each input did: every input's events go
    through :meth:`after` (the computer opponent's, a remote game's),
    and the LED frame and the OLED are the layer's own (:meth:`reframed`)."""

    def __init__(self, controller: GameStack) -> None:
        super().__init__(controller)
        self._last_leds: dict[str, str] = controller.leds
        self._last_lines: list[str] = controller.display

    def reframed(self, events: list[dict]) -> list[dict]:
        """``events`` with the ``leds``/``display`` events of the layers
        below replaced by this layer's own (its ``leds`` and ``display``),
        whenever they change."""
        out = [e for e in events if e.get("type") not in ("leds", "display")]
        leds, lines = self.leds, self.display
        if leds != self._last_leds:
            out.append({"type": "leds", "leds": dict(leds)})
            self._last_leds = leds
        if lines != self._last_lines:
            out.append({"type": "display", "lines": list(lines)})
            self._last_lines = lines
        return out

    def on_frame(self, now_ms: int, squares, outside: frozenset[str] = frozenset()) -> list[dict]:
        return self.after(now_ms, self.controller.on_frame(now_ms, squares, outside=outside))

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        return self.after(now_ms, self.controller.on_button(now_ms, button))

    def on_tick(self, now_ms: int) -> list[dict]:
        return self.after(now_ms, self.controller.on_tick(now_ms))

    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]:
        return self.after(now_ms, self.controller.set_link(ok, now_ms, problem))

    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True,
                 variant: str | None = None) -> list[dict]:
        return self.after(now_ms, self.controller.new_game(now_ms, fen, setup, variant))

    def after(self, now_ms: int, events: list[dict]) -> list[dict]:
        """The events of an input at ``now_ms``, as the layer passes them on."""
        return events

L = TypeVar("L")


def layers(stack: object) -> Iterator[object]:
    """The layers of ``stack``, outermost first, down to the controller."""
    while isinstance(stack, Layer):
        yield stack
        stack = stack.controller
    yield stack


def find_layer(stack: object, kind: type[L]) -> L | None:
    """The outermost layer of ``stack`` that is a ``kind``, or None."""
    return next((layer for layer in layers(stack) if isinstance(layer, kind)), None)
