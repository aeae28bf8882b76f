"""From occupancy to moves: the table of one position's legal moves and
their physical signatures (controller.md, "Moves of the other games").

Occupancies are bit masks over the square indices of the position's geometry
(bit i set = square i holds a piece). The table is built once per position,
when the previous move commits; everything the controller asks of it per
sensor frame is a dictionary look-up or one pass of bit operations.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from maxima_board.rules import Move, Position
from maxima_board.rules.teaching import Preview, preview


@dataclass(frozen=True, slots=True)
class Entry:
    """One legal move and its physical signature as bit masks.

    Maxima's moves are the simple case (one piece moves, captured pieces
    vanish); the other games add castling (two pieces move), en passant (the
    victim stands beside the destination), promotion (a choice the board
    cannot see), swaps (occupancy unchanged: only the lifts tell) and mutual
    destruction (two pieces vanish, no destination).
    """

    move: Move
    result: int   # occupancy after the move
    gone: int     # captured squares that end empty (the pieces to take off)
    lifts: int    # squares that must have been lifted: the origin and every replaced square
    touch: int    # squares a hand may empty on the way: every vacated and replaced square
    parts: tuple[tuple[int, int], ...] = ()   # castling: (origin, destination) of King and Rook
    replaced: int = 0   # squares whose unit is exchanged for another (swap, conversion): same occupancy

    @property
    def suicide(self) -> bool:
        """No destination (a suicide or a mutual destruction): it commits
        only after the piece has stayed off, or on OK."""
        return self.move.to_square is None


@dataclass(frozen=True, slots=True)
class Match:
    """What a stable occupancy says about the move being made.

    ``kind`` is one of:
    - ``"idle"``: the board shows the position;
    - ``"move"``: exactly one legal move (``entries[0]``) matches;
    - ``"suicide"``: exactly one legal move without destination (suicide,
      mutual destruction) matches: it commits after a delay;
    - ``"early"``: exactly one legal move matches, but it is also the first
      half of a castling or of a move that captures more (its captured
      pieces not yet off), or it is a shot (Optima's rifle or Viceroy
      capture-and-return: only the target emptied, which is also how a
      capture on that square begins): it commits after the same delay (or on OK);
    - ``"ambiguous"``: several legal moves match (the player picks);
    - ``"promote"``: one move, several promotion pieces (``entries`` in
      the game's order: Queen first); the player picks with MENU and OK;
    - ``"place"``: several placements (Optima, O5) set a unit on the same
      square (``entries`` in the order of ``Position.placeable()``); the
      player picks the unit with MENU and OK;
    - ``"convert"``: one conversion or swap conversion (Optima, O11) is on
      its way: the mover has moved, and ``extra`` are the converted units
      still to be exchanged for ones of the other colour, ``missing`` the
      squares where such a unit is still to be put, ``remove`` the captured
      pieces still standing;
    - ``"remove"``: a move is made but some of its captured pieces still stand
      (``entries[0]``; the squares in ``remove``);
    - ``"lifted"``: only pieces have been lifted, as on the way to a legal move;
    - ``"partial"``: half a castling (``entries[0]``): one piece has reached
      its square, the other has not;
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


def _entry(position: Position, move: Move) -> Entry:
    frm, to = move.from_square, move.to_square
    kind = move.kind
    if kind in ("move", "replacement", "suicide"):
        # one piece moves; captured pieces vanish (a move that converts is of kind "conversion")
        caps = 0
        for c in move.captures:
            caps |= 1 << c
        lifts = 1 << frm
        gone = caps
        if to is not None and kind == "replacement":
            lifts |= 1 << to
            gone &= ~(1 << to)
        return Entry(move, position.occupancy_after(move), gone, lifts, (1 << frm) | caps)
    sig = position.signature(move)
    vacated, replaced = _mask(sig.vacated), _mask(sig.replaced)
    result = (position.occupancy() & ~vacated) | _mask(sig.filled)
    # The origin must have been lifted when its piece changes; a shot (t == s)
    # and a placement leave the origin's piece as it was.
    lifts = ((1 << frm) & (vacated | replaced)) | replaced
    if kind == "swap conversion":   # the mover always leaves, even when a unit like it comes back
        lifts |= 1 << frm
    movers = 1 << frm
    parts: tuple[tuple[int, int], ...] = ()
    if kind == "castle" and to is not None:
        changed = sig.vacated | sig.filled | sig.replaced
        # castling moves the King and one Rook and captures nothing: the Rook's
        # square is the only other one occupied before, its destination the other one filled
        rook = [s for s in changed if s not in (frm, to) and position.board[s]]
        if len(rook) == 1:
            (rook_to,) = (sig.filled | sig.replaced) - {to}
            parts = ((frm, to), (rook[0], rook_to))
            movers |= 1 << rook[0]
            lifts |= 1 << rook[0]
    # (a swap vacates nothing: both its squares stay occupied)
    gone = 0 if to is None else vacated & ~movers
    return Entry(move, result, gone, lifts, vacated | replaced, parts, replaced)


def _own_squares(e: Entry) -> int:
    """The squares a move's own piece must have been lifted from: all its
    lifts, except for a conversion, where the converted units may still
    stand (their exchange is the last part of the move): then only the
    origin and a destination whose unit changes (a swap conversion's)."""
    if e.move.kind not in ("conversion", "swap conversion") or e.move.to_square is None:
        return e.lifts
    return e.lifts & ((1 << e.move.from_square) | (1 << e.move.to_square))


def _mask(squares) -> int:
    out = 0
    for s in squares:
        out |= 1 << s
    return out


class MoveTable:
    """Every legal move of ``position`` with its physical signature."""

    def __init__(self, position: Position):
        self._position = position
        self._previews: dict[int, Preview] = {}
        self.expected = position.occupancy()
        self.entries: tuple[Entry, ...] = tuple(_entry(position, m) for m in position.legal_moves)
        self.by_result: dict[int, list[Entry]] = {}
        for e in self.entries:
            self.by_result.setdefault(e.result, []).append(e)
        self.targets_from: dict[int, list[int]] = {}
        for e in self.entries:
            if e.move.to_square is not None:
                self.targets_from.setdefault(e.move.from_square, []).append(e.move.to_square)
        self.castles = tuple(e for e in self.entries if e.parts)
        self.conversions = tuple(e for e in self.entries if e.move.kind in ("conversion", "swap conversion"))
        # Squares whose unit some conversion exchanges (not the mover's own):
        # lifted and set down again before the mover moves, they stay lifted.
        self.exchanged = 0
        for e in self.conversions:
            self.exchanged |= e.replaced & ~_own_squares(e)
        # Boards where one piece of a castling has reached its square: a
        # plain move leaving such a board may be the first half of it.
        self._halves: set[int] = set()
        for e in self.castles:
            for o, d in e.parts:
                self._halves.add(self.expected & ~(1 << o) | 1 << d)
        # Optima: a move whose captured pieces still stand may look like a
        # legal move of its own (a Viceroy's f5-d5 and f5-d5xe6): that move waits.
        for e in self.entries:
            if e.gone and e.move.to_square is not None:
                self._halves.add(e.result | e.gone)
        order = position.variant.promotion
        self._rank = {letter: i for i, letter in enumerate(order)}
        placeable = getattr(position, "placeable", None)
        self._place_rank = {token: i for i, token in enumerate(placeable())} if placeable else {}
        self._match_cached = lru_cache(maxsize=4096)(self._match)

    def match(self, occ: int, lifted: int) -> Match:
        """Classify occupancy ``occ`` given the squares ``lifted`` since the
        position arose (see ``Match``)."""
        return self._match_cached(occ, lifted)

    def swaps_within(self, lifted: int) -> bool:
        """Whether a move that leaves the occupancy as it is (a swap) has had
        all its squares lifted: the board then shows that move, not the position."""
        return any(_own_squares(e) & ~lifted == 0 for e in self.by_result.get(self.expected, ()))

    def _match(self, occ: int, lifted: int) -> Match:
        candidates = tuple(e for e in self.by_result.get(occ, ()) if e.lifts & ~lifted == 0)
        if occ == self.expected and not candidates:
            return Match("idle")
        if len(candidates) == 1:
            e = candidates[0]
            if e.suicide:
                return Match("suicide", candidates)
            if e.move.kind == "shot":
                return Match("early", candidates)
            return Match("early" if occ in self._halves and not e.parts else "move", candidates)
        if candidates:
            first = candidates[0].move
            # the same result and lifts: the moves of one piece; the same destination: they differ by the piece only
            if first.promotion and all(e.move.to_square == first.to_square for e in candidates):
                ranked = sorted(candidates, key=lambda e: self._rank.get(e.move.promotion, 99))
                return Match("promote", tuple(ranked))
            if first.placed:   # only a placement fills a square: the same result is the same square
                ranked = sorted(candidates, key=lambda e: self._place_rank[e.move.placed])
                return Match("place", tuple(ranked))
            return Match("ambiguous", candidates)
        for e in self.entries:
            if e.gone and occ & ~e.gone == e.result and e.lifts & ~lifted == 0:
                return Match("remove", (e,), remove=occ & e.gone)
        converting = self._converting(occ, lifted)
        if converting is not None:
            return converting
        missing = self.expected & ~occ
        if occ & ~self.expected == 0 and any(missing & ~e.touch == 0 for e in self.entries):
            return Match("lifted", missing=missing)
        for e in self.castles:
            if self._halfway(e, occ):
                return Match("partial", (e,))
        return self._nearest(occ)

    def _converting(self, occ: int, lifted: int) -> Match | None:
        """The one conversion or swap conversion that ``occ`` and ``lifted``
        show under way (see ``Match``), or None."""
        found = None
        for e in self.conversions:
            # (a swap conversion's start square may look unchanged: a unit of the mover's type came back)
            if occ & ~(e.result | e.gone) or (e.result & ~occ) & ~(e.replaced | 1 << e.move.from_square):
                continue
            if _own_squares(e) & ~lifted:
                continue   # the mover has not moved yet
            if found is not None:
                return None
            found = e
        if found is None:
            return None
        e = found
        return Match("convert", (e,), missing=e.result & ~occ, extra=e.replaced & ~lifted & occ & ~_own_squares(e),
                     remove=occ & e.gone)

    def _halfway(self, e: Entry, occ: int) -> bool:
        """``occ`` is a castling on its way: each piece on its square, in
        hand or arrived, one at least arrived, nothing else changed."""
        squares = 0
        for o, d in e.parts:
            if occ >> o & 1 and occ >> d & 1:
                return False
            squares |= 1 << o | 1 << d
        # (one piece at least has arrived: with only pieces lifted from
        # their squares the board is "lifted", which ``_match`` tells first)
        return not (occ ^ self.expected) & ~squares

    def wrong(self, occ: int) -> Match:
        """The board taken as wrong, measured against the position itself
        (a promotion cancelled: the Pawn goes back)."""
        return Match("wrong", missing=self.expected & ~occ, extra=occ & ~self.expected)

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

    def preview(self, square: int) -> Preview:
        """What the piece on ``square`` could do (:func:`maxima_board.rules.teaching.preview`), asked once."""
        found = self._previews.get(square)
        if found is None:
            found = self._previews[square] = preview(self._position, square)
        return found


def bits(mask: int) -> list[int]:
    """The square indices set in ``mask``, in increasing order (rank, then file)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
