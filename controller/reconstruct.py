"""From occupancy to moves: the table of one position's legal moves.

Occupancies are bit masks over the square indices of the position's geometry
(bit i set = square i holds a piece). The table is built once per position,
when the previous move commits; everything the controller asks of it per
sensor frame is a dictionary look-up or one pass of bit operations.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Position


@dataclass(frozen=True, slots=True)
class Entry:
    """One legal move and the sensor facts that identify it."""

    move: Move
    result: int   # occupancy after the move
    gone: int     # captured squares that end empty (captures minus a replacement's destination)
    lifts: int    # squares that must have been lifted: the origin, and a replacement's destination
    touch: int    # squares a hand may empty on the way: origin and every captured square

    @property
    def suicide(self) -> bool:
        return self.move.to_square is None


@dataclass(frozen=True, slots=True)
class Match:
    """What a stable occupancy says about the move being made.

    ``kind`` is one of:
    - ``"idle"``: the board shows the position;
    - ``"move"``: exactly one legal move (``entries[0]``) matches;
    - ``"suicide"``: exactly one legal suicide matches (commits after a delay);
    - ``"ambiguous"``: several legal moves match (the player picks);
    - ``"remove"``: a move is made but some of its captured pieces still stand
      (``entries[0]``; the squares in ``remove``);
    - ``"lifted"``: only pieces have been lifted, as on the way to a legal move;
    - ``"wrong"``: none of these; ``target`` is the nearest right occupancy
      (``entries[0]`` when it is a move's result, else the position),
      ``missing``/``extra`` the squares that differ from it and ``remove``
      the squares of captured pieces that still stand.
    """

    kind: str
    entries: tuple[Entry, ...] = ()
    missing: int = 0
    extra: int = 0
    remove: int = 0

    @property
    def entry(self) -> Entry | None:
        return self.entries[0] if self.entries else None


class MoveTable:
    """Every legal move of ``position`` with its resulting occupancy."""

    def __init__(self, position: Position):
        self.expected = position.occupancy()
        entries = []
        for move in position.legal_moves:
            frm, to = move.from_square, move.to_square
            caps = 0
            for c in move.captures:
                caps |= 1 << c
            lifts = 1 << frm
            gone = caps
            if to is not None and move.kind == "replacement":
                lifts |= 1 << to
                gone &= ~(1 << to)
            entries.append(Entry(move, position.occupancy_after(move), gone, lifts, (1 << frm) | caps))
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.by_result: dict[int, list[Entry]] = {}
        for e in self.entries:
            self.by_result.setdefault(e.result, []).append(e)
        self.targets_from: dict[int, list[int]] = {}
        for e in self.entries:
            if e.move.to_square is not None:
                self.targets_from.setdefault(e.move.from_square, []).append(e.move.to_square)
        self._cache: dict[tuple[int, int], Match] = {}

    def match(self, occ: int, lifted: int) -> Match:
        """Classify occupancy ``occ`` given the squares ``lifted`` since the
        position arose (see ``Match``)."""
        key = (occ, lifted)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            found = self._cache[key] = self._match(occ, lifted)
        return found

    def _match(self, occ: int, lifted: int) -> Match:
        if occ == self.expected:
            return Match("idle")
        candidates = tuple(e for e in self.by_result.get(occ, ()) if e.lifts & ~lifted == 0)
        if len(candidates) == 1:
            return Match("suicide" if candidates[0].suicide else "move", candidates)
        if candidates:
            return Match("ambiguous", candidates)
        for e in self.entries:
            if e.gone and occ & ~e.gone == e.result and e.lifts & ~lifted == 0:
                return Match("remove", (e,), remove=occ & e.gone)
        missing = self.expected & ~occ
        if occ & ~self.expected == 0 and any(missing & ~e.touch == 0 for e in self.entries):
            return Match("lifted", missing=missing)
        return self._nearest(occ)

    def _nearest(self, occ: int) -> Match:
        best_cost = ((occ ^ self.expected).bit_count(), 0)
        best: Entry | None = None
        for e in self.entries:
            cost = (((occ ^ e.result) & ~e.gone).bit_count(), (occ & e.gone).bit_count())
            if cost < best_cost:
                best_cost, best = cost, e
        if best is None:
            return Match("wrong", missing=self.expected & ~occ, extra=occ & ~self.expected)
        return Match("wrong", (best,), missing=best.result & ~occ, extra=occ & ~best.result & ~best.gone,
                     remove=occ & best.gone)

    def hints(self, square: int) -> list[int]:
        """Destinations of the legal moves of the piece on ``square``."""
        return self.targets_from.get(square, [])


def bits(mask: int) -> list[int]:
    """The square indices set in ``mask``, in increasing order (rank, then file)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
