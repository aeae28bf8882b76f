"""Which games a board plays, and how the OLED names them.

The Maxima board (8×10 switches plus the four goal squares) plays Maxima
and Ultima (placed on its a1…h8); the 10×10 board plays every game but
Maxima (Ultima on b2…i9, the 10×8 games on a2…j9: ``maxima_board.devices.boards``).
"""
from __future__ import annotations

from functools import lru_cache

from maxima_board.rules import variants
from maxima_board.rules.variants.base import Variant
from maxima_board.devices.boards import games_for

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


def first_game(settings: object) -> str:
    """The game of new games for ``settings``: its ``variant`` when the
    board (``board_kind``) can hold it; Maxima, the default, on a board
    that cannot hold it is the board's first game instead (a 10×10 board
    whose config names no game does not start Maxima). Another game named
    for a board that cannot hold it stays: the board refuses it, naming it."""
    games = games_for(board_kind(settings))
    variant = variants.get(getattr(settings, "variant", None) or variants.DEFAULT).name
    return games[0] if variant == variants.DEFAULT.name and variant not in games else variant


@lru_cache(maxsize=None)
def _games(kind: str) -> tuple[str, ...]:
    return tuple(games_for(kind))


def board_for(current: str, settings: object) -> str:
    """The board kind whose games MENU offers: the settings' board, or
    for a game it cannot hold (a simulator given only ``--variant``) the
    board that holds it."""
    kind = board_kind(settings)
    if current in _games(kind):
        return kind
    return next((k for k in BOARD_KINDS if current in _games(k)), kind)




SMALL_FORM = "-10x8"   # Deckle's games come in two sizes: ``<name>`` (10×10) and ``<name>-10x8``


def other_form(variant: "Variant | str") -> str | None:
    """The game's other size (Deckle's ``coordinator-chess`` ↔
    ``coordinator-chess-10x8``); None for a game of one size."""
    name = variants.get(variant).name
    known = variants.names()
    if name.endswith(SMALL_FORM) and name[:-len(SMALL_FORM)] in known:
        return name[:-len(SMALL_FORM)]
    return name + SMALL_FORM if name + SMALL_FORM in known else None


def main_form(variant: "Variant | str") -> str:
    """The game as the chooser offers it: a Deckle game's 10×10 form."""
    name = variants.get(variant).name
    other = other_form(name)
    return other if other is not None and name.endswith(SMALL_FORM) else name


def size_name(variant: "Variant | str") -> str:
    """``"10x10"``, ``"10x8"``: the game's files × ranks."""
    g = variants.get(variant).geometry
    return f"{g.files}x{len(g.ranks)}"


def sized_title(variant: "Variant | str") -> str:
    """The OLED's name of the game with its size when it has two
    (``"Swapper 10x10"``, ``"Swapper 10x8"``), else ``short_title``."""
    if other_form(variant) is None:
        return short_title(variant)
    return f"{short_title(main_form(variant))} {size_name(variant)}"


# Shorter names for the games whose full name and size leave no room beside
# a word on the OLED's 21 columns (the set-up's status bar: "Set-up Coord. 10x10").
BRIEF_NAMES = {
    "coordinator-chess": "Coord.",
    "immobilizer-chess": "Immob.",
    "withdrawer-chess": "Withdr.",
    "long-leaper-chess": "L.Leaper",
    "pushme-pullyu-chess": "Pushme",
}


def brief_title(variant: "Variant | str") -> str:
    """The game's name in few letters, without its size (``"Pushme"``,
    ``"Swapper"``): a brief name where there is one, else ``short_title``
    of its main form."""
    main = main_form(variant)
    return BRIEF_NAMES.get(main, short_title(main))


def fitted_title(variant: "Variant | str", room: int, suffix: str = "") -> str:
    """The game's name and size (``sized_title``) in at most ``room``
    characters: with ``suffix`` (" FEN") if it fits, else without; the
    full name first, then the brief one (``"Pushme 10x10"``); cut only
    when even that does not fit."""
    full = sized_title(variant)
    brief = full if other_form(variant) is None else f"{brief_title(variant)} {size_name(variant)}"
    for text in (full + suffix, brief + suffix, full, brief):
        if len(text) <= room:
            return text
    return brief[:max(0, room - 1)] + "."


def forces_for(variant: "Variant | str", forces: str) -> tuple[str, ...]:
    """The kinds of forces ``variant`` offers: Optima's (``u2`` only on
    10×10, O4), none for the other games."""
    return variants.get(variant).forces


def start_fen(variant: "Variant | str", settings: object, now_ms: int = 0) -> str:
    """The start of a new game of ``variant``: ``"start"`` (the game's own)
    for every game but Optima; for Optima the start of the settings'
    ``forces`` (eq, u1, u2, random) drawn with their ``seed`` (the time
    ``now_ms`` when no seed is set: the FEN stored with the game keeps what
    was drawn; ``eq`` without a seed is the default set E10 / E9). ``u2``
    on 9×9 falls back to ``u1`` (O4)."""
    v = variants.get(variant)
    if not v.forces:
        return "start"
    forces = getattr(settings, "forces", "eq") or "eq"
    if forces not in forces_for(v, forces):
        forces = "u1"
    from maxima_board.rules.optima.forces import start_fen as optima_start

    seed = getattr(settings, "seed", None)
    if forces == "eq" and seed is None:
        return v.start_fen            # the default sets E10 / E9; a seed draws an equal set
    return optima_start(v, forces, seed=now_ms if seed is None else seed)
