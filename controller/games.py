"""Which games a board plays, and how the OLED names them.

The Maxima board (8×10 switches plus the four goal squares) plays Maxima
and Ultima (placed on its a1…h8); the 10×10 board plays every game but
Maxima (Ultima on b2…i9, the 10×8 games on a2…j9: ``hardware.boards``).
"""
from __future__ import annotations

from engine import variants
from engine.variants.base import Variant
from hardware.boards import games_for

from .settings import BOARD_KINDS, FORCES



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


def first_game(settings: object) -> str:
    """The game of new games for ``settings``: its ``variant`` when the
    board (``board_kind``) can hold it; Maxima, the default, on a board
    that cannot hold it is the board's first game instead (a 10×10 board
    whose config names no game does not start Maxima). Another game named
    for a board that cannot hold it stays: the board refuses it, naming it."""
    games = games_for(board_kind(settings))
    variant = variants.get(getattr(settings, "variant", None) or "maxima").name
    return games[0] if variant == "maxima" and variant not in games else variant


def next_game(current: str, kind: str) -> str:
    """The game after ``current`` among those the board plays (MENU → Game);
    for a game the board cannot hold (a simulator given only ``--variant``),
    among those of the board that holds it."""
    games = games_for(kind)
    if current not in games:
        games = next((g for g in (games_for(k) for k in BOARD_KINDS) if current in g), games)
    if current not in games:
        return games[0]
    return games[(games.index(current) + 1) % len(games)]




def forces_for(variant: "Variant | str", forces: str) -> tuple[str, ...]:
    """The kinds of forces ``variant`` offers: Optima's (``u2`` only on
    10×10, O4), none for the other games."""
    v = variants.get(variant)
    if v.family != "optima":
        return ()
    return tuple(k for k in FORCES if k != "u2" or v.geometry.files == 10)


def start_fen(variant: "Variant | str", settings: object, now_ms: int = 0) -> str:
    """The start of a new game of ``variant``: ``"start"`` (the game's own)
    for every game but Optima; for Optima the start of the settings'
    ``forces`` (eq, u1, u2, random) drawn with their ``seed`` (the time
    ``now_ms`` when no seed is set: the FEN stored with the game keeps what
    was drawn; ``eq`` without a seed is the default set E10 / E9). ``u2``
    on 9×9 falls back to ``u1`` (O4)."""
    v = variants.get(variant)
    if v.family != "optima":
        return "start"
    forces = getattr(settings, "forces", "eq") or "eq"
    if forces not in forces_for(v, forces):
        forces = "u1"
    from engine.optima.forces import start_fen as optima_start

    seed = getattr(settings, "seed", None)
    if forces == "eq" and seed is None:
        return v.start_fen            # the default sets E10 / E9; a seed draws an equal set
    return optima_start(v, forces, seed=now_ms if seed is None else seed)
