"""The board as the sensors last showed it, and the link that brings it:
the occupied squares, since when, which squares were lifted since the
position arose, the pieces standing outside the game, and whether the link
is up and its frame fresh."""
from __future__ import annotations

from maxima_board.rules import Geometry

from .reconstruct import MoveTable, bits


class BoardFrame:
    """The last sensor frame and what it has seen since the position arose.
    Squares are bit masks in the game's geometry; ``outside`` names the
    board's squares outside the game that hold a piece."""

    def __init__(self, now: int):
        self.raw: int | None = None   # the occupied squares; None before the first frame
        self.since = now              # when ``raw`` (or ``outside``) last changed
        self.lifted = 0               # squares lifted since the position arose
        self.outside: frozenset[str] = frozenset()
        self.undo_lifts = 0           # squares the last move replaced, lifted since (take-back by restore)
        self.link_ok = True
        self.link_problem: str | None = None
        self.fresh = False            # the link came back: the next frame is taken whatever it shows
        self.returning = False        # the link came back: presses wait until a fresh frame has settled

    @property
    def live(self) -> bool:
        """The frame can be acted on: the link is up and, after it came back,
        a fresh frame has been seen (the last frame from before an outage is
        never taken as settled)."""
        return self.link_ok and not self.fresh and self.raw is not None

    def stable(self, now: int, settle_ms: int) -> bool:
        """Whether the board has stood still ``settle_ms`` at ``now``."""
        return now - self.since >= settle_ms

    @staticmethod
    def mask(squares, geometry: Geometry) -> int:
        """The squares named ``squares`` as a mask of ``geometry``; ValueError
        names a square it does not have."""
        occ = 0
        for name in squares:
            sq = geometry.index.get(name) if isinstance(name, str) else None
            if sq is None:
                raise ValueError(f"unknown square {name!r} in sensor frame")
            occ |= 1 << sq
        return occ

    def touched(self, occ: int, outside: frozenset[str]) -> bool:
        """Whether the frame ``occ``, ``outside`` shows a piece lifted or
        placed since the last frame (not counting the first fresh one)."""
        return self.raw is not None and not self.fresh and (occ != self.raw or outside != self.outside)

    def see_outside(self, outside: frozenset[str], now: int) -> None:
        """The pieces outside the game: the board settles again once they change."""
        if outside != self.outside:
            self.outside = outside
            self.since = now

    def see(self, occ: int, now: int) -> bool:
        """The occupied squares ``occ`` at ``now``: whether they are news
        (they changed, or the link came back and this is the fresh frame)."""
        if not (self.fresh or occ != self.raw):
            return False
        self.raw = occ
        self.since = now
        self.fresh = False
        return True

    def set_link(self, ok: bool, problem: str | None) -> bool:
        """The link is up or down (``problem``: why it is down); whether that changed."""
        self.link_problem = None if ok else problem
        if ok == self.link_ok:
            return False
        self.link_ok = ok
        self.fresh = ok
        self.returning = ok
        return True

    def settle_return(self, now: int, settle_ms: int) -> bool:
        """After the link came back: whether the fresh frame has just settled
        (presses act again from now on)."""
        if self.returning and self.live and self.stable(now, settle_ms):
            self.returning = False
            return True
        return False

    def forget(self) -> None:
        """The board must not play the next game's first move: wait for a frame."""
        self.raw = None

    def forget_lifts(self) -> None:
        """No square counts as lifted since the position arose."""
        self.lifted = 0

    def forget_undo(self) -> None:
        """A new position: no replaced piece of its last move lifted yet."""
        self.undo_lifts = 0

    def lift(self, squares: int) -> None:
        """``squares`` count as lifted."""
        self.lifted |= squares

    def unlift(self, squares: int) -> None:
        """``squares`` no longer count as lifted."""
        self.lifted &= ~squares

    def missing(self, expected: int) -> int:
        """The squares of ``expected`` the frame shows empty (none before the first frame)."""
        return expected & ~self.raw if self.raw is not None else 0

    def track_lifts(self, table: MoveTable, swaps_count: bool, last: tuple[int, int, int] | None) -> None:
        """A new frame: the squares lifted since the position of ``table``
        arose. ``swaps_count``: in play or set-up, both pieces of a swap
        lifted and set down again are the move; ``last``: in play, the last
        move's signature (vacated, filled, replaced) whose replaced pieces are
        followed (``track_undo``)."""
        raw = self.raw
        assert raw is not None
        expected = table.expected
        if last is not None:
            self.track_undo(raw, expected, last)
        if swaps_count and raw == expected and not table.swaps_within(self.lifted):
            self.lifted &= table.exchanged   # Optima: a unit to convert may be exchanged before the mover moves
        else:
            self.lifted |= expected & ~raw

    def track_undo(self, raw: int, expected: int, last: tuple[int, int, int]) -> None:
        """Follow the lifts of the squares whose piece the last move replaced
        (a replacement capture's, a swap's, a conversion's), whatever the
        order in which the players restore the board: they are kept when the
        board passes through the position on the way (a captured piece set
        back first). Only a move that left the occupancy as it was (a swap)
        counts its lifts per trip away from the position, as a swap does."""
        vacated, filled, replaced = last
        if (expected & ~filled | vacated) == expected and raw == expected:
            self.undo_lifts = (self.lifted | expected & ~raw) & replaced
        else:
            self.undo_lifts |= expected & ~raw & replaced

    def regrid(self, old: Geometry, new: Geometry, now: int) -> None:
        """The frame and lifts re-read by square name in geometry ``new``
        (a new game on another board)."""
        if old is new or old.names == new.names:
            return
        raw = self.raw
        if raw is not None:   # the pieces outside the old game may stand inside the new one, and the reverse
            names = {old.names[sq] for sq in bits(raw)} | set(self.outside)
            self.raw = sum(1 << new.index[name] for name in names if name in new.index)
            self.outside = frozenset(name for name in names if name not in new.index)
            self.since = now
        self.lifted = 0
