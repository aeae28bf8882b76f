"""The small interfaces between the controller and the drivers.

Drivers only move bytes: a sensor source reports which squares are occupied
and which buttons are held; an LED sink shows a square → state map; a display
shows lines of text. The controller never imports a driver.
"""
from __future__ import annotations

import select
from dataclasses import dataclass
from typing import Iterable, Mapping, Protocol, Sequence

BUTTONS = ("ok", "back", "menu", "new")

# LED state names of shared/hardware/board.md, highest priority first.
LED_STATES = ("error-extra", "error-missing", "remove", "engine-from", "engine-to", "check",
              "captures", "setup-missing", "last-from", "last-to", "immobilized", "hint")


@dataclass(frozen=True)
class BoardState:
    """One debounced reading of the board."""

    squares: frozenset[str]          # occupied squares, by name ("d0", "e5", ...)
    buttons: frozenset[str] = frozenset()  # buttons held down, among BUTTONS


class SensorSource(Protocol):
    def read(self, now_ms: int) -> BoardState | None:
        """The current debounced state, or None while it is unknown (link
        lost, not yet scanned)."""

    def close(self) -> None: ...


class LedSink(Protocol):
    def show(self, leds: Mapping[str, str], now_ms: int) -> None:
        """Show ``square name → LED state``; squares not named are dark.
        Called on every change and periodically, so blink patterns can be
        rendered from ``now_ms``."""

    def close(self) -> None: ...


class Display(Protocol):
    def show(self, lines: Sequence[str]) -> None:
        """Show these lines (status bar first)."""

    def close(self) -> None: ...


def poll_masks(readable: Iterable[int], writable: Iterable[int] = ()) -> dict[int, int]:
    """The ``select.poll`` masks to wait on: POLLIN for each descriptor of
    ``readable`` (a source's ``descriptors()``, a waker), POLLOUT for each of
    ``writable``, both for one in both."""
    masks: dict[int, int] = {}
    for fd in readable:
        masks[fd] = masks.get(fd, 0) | select.POLLIN
    for fd in writable:
        masks[fd] = masks.get(fd, 0) | select.POLLOUT
    return masks
