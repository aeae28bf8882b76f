"""A game on the physical board: Deckle's size follows the pieces (a
set-up of one size sees when the board stands as the other size's start),
and a piece on a board square is named from the game that stood there.

The board is compared in its own squares: the set-up game's occupied
squares through its placement on the board (``maxima_board.devices.boards.place``),
plus the occupied board squares outside it, against the other size's start
through that size's placement (the 10×8 games stand on a2…j9 of the
10×10 board).

Everything the board says about a square names it as the board prints it
(``printed_names``: Ultima's e2 is the 10×10 board's f3); the game's own
names belong to its records (PGN, the web page's move list).

A Deckle game chosen by MENU is set up in the size of its newest stored
game on this board (``usual_form``), so a restart keeps the players' size."""
from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Iterable, Mapping, Protocol, Sequence

from maxima_board.rules import Position, variants
from maxima_board.rules.position import Piece
from maxima_board.devices.boards import Placement, PlacementError, place

from .games import board_for, main_form, other_form


class StoredVariants(Protocol):
    """What ``usual_form`` reads of the store (``maxima_board.storage.store.GameStore``)."""

    def newest_variant(self, names: Iterable[str]) -> str | None: ...


def usual_form(game: str, store: StoredVariants) -> str:
    """The size of ``game`` to set up: the form of the newest stored game
    of either size, else the 10×10 form (``main_form``); a game of one
    size is itself. A store that cannot be read gives the 10×10 form."""
    main = main_form(game)
    other = other_form(main)
    if other is None:
        return main
    try:
        return store.newest_variant((main, other)) or main
    except (sqlite3.Error, OSError):
        return main


@lru_cache(maxsize=64)
def _placement(game: str, kind: str, offset: str) -> Placement | None:
    try:
        return place(game, kind, offset or None)
    except PlacementError:
        return None


@lru_cache(maxsize=64)
def _start_on_board(game: str, kind: str, offset: str) -> frozenset[str] | None:
    """The board squares the start of ``game`` occupies."""
    placement = _placement(game, kind, offset)
    if placement is None:
        return None
    start = Position(variants.get(game).start_fen, game)
    names = start.geometry.names
    return frozenset(placement.board_of[names[sq]] for sq, _ in start.pieces())


@lru_cache(maxsize=64)
def _printed(game: str, kind: str, offset: str) -> tuple[str, ...]:
    names = variants.get(game).geometry.names
    placement = _placement(game, kind, offset)
    if placement is None:
        return tuple(names)
    return tuple(placement.board_of.get(name, name) if name else name for name in names)


def printed_names(variant: "Position | str", board: "tuple[str, str] | None") -> tuple[str, ...]:
    """The name printed on the physical board ``board`` (kind, offset; None:
    no physical board, the game's own names) under each square of the game
    ``variant`` (a game id, or a position: its game), by square index:
    ``"f3"`` for Ultima's e2 on the 10×10 board. The game's own names when
    it does not stand on that board."""
    game = variant.variant.name if isinstance(variant, Position) else variants.get(variant).name
    if board is None:
        return tuple(variants.get(game).geometry.names)
    return _printed(game, board[0], board[1] or "")


def printed_map(position: Position, names: Iterable[str]) -> Mapping[str, str]:
    """``names`` (``printed_names`` of ``position``'s game) as a map from
    the game's square name to the board's, for texts written from a move's
    label (``maxima_board.rules.words.renamed``)."""
    return {own: printed for own, printed in zip(position.geometry.names, names) if own}


def on_board(game: str, occupied: Iterable[str], outside: Iterable[str], kind: str,
             offset: str = "") -> frozenset[str] | None:
    """The occupied board squares: ``occupied`` the game's occupied squares
    (its names), ``outside`` the occupied board squares outside it (the
    board's names); None when the game does not stand on board ``kind``."""
    here = _placement(game, kind, offset)
    if here is None:
        return None
    return frozenset(here.board_of[name] for name in occupied) | frozenset(outside)


def other_size_standing(game: str, board: frozenset[str] | None, kind: str, offset: str = "") -> str | None:
    """The other size of ``game`` when ``board`` (occupied board squares,
    ``on_board``) shows exactly its start; None otherwise."""
    other = other_form(game)
    if other is None or board is None:
        return None
    start = _start_on_board(other, kind, offset)
    return other if board == start else None


def piece_on_board(position: Position, square: str, settings: object):
    """The piece of ``position`` on board square ``square`` (the board of
    ``settings``, ``board_kind`` and ``board_offset``); None when that
    square is not the game's or holds nothing there."""
    game = position.variant.name
    placement = _placement(game, board_for(game, settings), getattr(settings, "board_offset", "") or "")
    name = placement.game_of.get(square) if placement is not None else None
    return position.piece_at(position.geometry.index[name]) if name is not None else None


def size_switch(position: Position, settings: object) -> str | None:
    """The other size a set-up of ``position`` may switch to (OK on the
    "Game" screen, or its start set up): a Deckle game's other size, while
    ``position`` is its game's start and that size stands on the board of
    ``settings``; None otherwise."""
    game = position.variant.name
    other = other_form(game)
    if other is None or position.fen() != position.variant.start_fen:
        return None
    kind = board_for(game, settings)
    return other if _placement(other, kind, getattr(settings, "board_offset", "") or "") is not None else None


@lru_cache(maxsize=64)
def _start(game: str) -> Position:
    return Position(variants.get(game).start_fen, game)


def standing_pieces(squares: Sequence[str], before: Position, setup: Position | None,
                    settings: object) -> list[Piece | None]:
    """The pieces on board squares ``squares`` (occupied, outside the game
    played or set up), named from what stood on the board: the game before
    (``before``, its position now), or in a set-up (``setup``) of a Deckle
    start the other size's start, whichever has a piece on more of
    ``squares`` (the game before when as many); None for a square where
    the one chosen has none: its piece is not known."""
    candidates = [before]
    other = size_switch(setup, settings) if setup is not None else None
    if other is not None:
        candidates.append(_start(other))
    best: list[Piece | None] = [None] * len(squares)
    for position in candidates:
        pieces = [piece_on_board(position, square, settings) for square in squares]
        if sum(p is not None for p in pieces) > sum(p is not None for p in best):
            best = pieces
    return best
