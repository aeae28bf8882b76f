"""Which games a board plays, and how the OLED names them.

The Maxima board (8×10 switches plus the four goal squares) plays Maxima
and Ultima (placed on its a1…h8); the 10×10 board plays every game but
Maxima (Ultima on b2…i9, the 10×8 games on a2…j9: ``hardware.boards``).
"""
from __future__ import annotations

from engine import variants
from engine.variants.base import Variant
from hardware.boards import games_for

from .settings import BOARD_KINDS



def board_kind(settings: object) -> str:
    """The settings' board kind (``board_kind``, set by the hardware's
    config); ``"maxima"`` when none is set."""
    kind = getattr(settings, "board_kind", None) or "maxima"
    if kind not in BOARD_KINDS:
        raise ValueError(f"unknown board kind {kind!r} (expected one of {', '.join(BOARD_KINDS)})")
    return kind


def short_title(variant: "Variant | str") -> str:
    """The game's name for the OLED: its title without " Chess"
    (``"Pushme-Pullyu 10x8"``, ``"Ultima (pure)"``)."""
    return variants.get(variant).title.replace(" Chess", "")


def next_game(current: str, kind: str) -> str:
    """The game after ``current`` among those the board plays (MENU → Game)."""
    games = games_for(kind)
    if current not in games:
        return games[0]
    return games[(games.index(current) + 1) % len(games)]
