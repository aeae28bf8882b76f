"""The position's moves as the board can show them, and what the players
were shown of them: the move table, the squares to light (check,
immobilized), the move offered among several, a promotion cancelled, the
wrong board last reported. All of it is renewed with each position."""
from __future__ import annotations

from maxima_board.rules import WHITE, Position

from .reconstruct import Match, MoveTable
from .screens import Pick, offered


class Matching:
    """What the board's frame makes of ``position`` (``renew`` for the next one)."""

    def __init__(self, position: Position):
        self.renew(position)
        self._signature: tuple[tuple, tuple[int, int, int]] | None = None

    def renew(self, position: Position) -> None:
        """A new position: its move table and squares to light; nothing offered, cancelled or reported."""
        self.table = MoveTable(position)
        self.check: list[int] = []       # the King in check and the palace squares to light
        if position.is_check():
            info = position.check_info()
            self.check = ([info.king] if info.king is not None else []) + list(info.palace)
        frozen = position.immobilized()
        self.frozen: dict[int, list[int]] = {WHITE: [s for s in frozen if position.board[s] > 0],
                                             -WHITE: [s for s in frozen if position.board[s] < 0]}
        self.pick: Pick | None = None                        # the move offered when several match
        self.cancelled: tuple[int | None, int] | None = None   # (board, lifts) whose promotion BACK cancelled
        self.error_key: tuple | None = None                  # the wrong board last reported

    def match(self, table: MoveTable, raw: int | None, lifted: int) -> Match:
        """What the board ``raw`` with ``lifted`` shows in ``table`` (the
        game's, or the set-up's): a promotion (placement) BACK cancelled on
        this very board is a wrong board, its piece to go back."""
        m = table.match(raw or 0, lifted)
        if m.kind in ("promote", "place") and self.cancelled == (raw, lifted):
            return table.wrong(raw or 0)
        return m

    def offered(self, raw: int | None, lifted: int) -> Pick:
        """The move offered among several for the board ``raw`` with
        ``lifted`` (the one offered before on this board, else the first), remembered."""
        self.pick = offered(self.pick, raw, lifted)
        return self.pick

    def offer(self, pick: Pick) -> None:
        """Offer the move ``pick`` names instead."""
        self.pick = pick

    def cancel(self, key: tuple[int | None, int]) -> None:
        """BACK cancelled the promotion (placement) on the board ``key``: its piece goes back."""
        self.cancelled = key

    def uncancel(self) -> None:
        """The board changed: a promotion may be offered again."""
        self.cancelled = None

    def new_error(self, key: tuple) -> bool:
        """Whether the wrong board ``key`` was not reported yet (it is remembered as reported)."""
        if key == self.error_key:
            return False
        self.error_key = key
        return True

    def last_signature(self, position: Position) -> tuple[int, int, int]:
        """The signature (vacated, filled, replaced) of ``position``'s last
        move as masks, computed once per position."""
        key = (position, len(position.move_stack), position.move_stack[-1])
        cached = self._signature
        if cached is not None and cached[0] == key:
            return cached[1]
        before = position.copy()
        move = before.pop()
        sig = before.signature(move)
        masks = tuple(sum(1 << sq for sq in squares) for squares in (sig.vacated, sig.filled, sig.replaced))
        self._signature = (key, masks)
        return masks   # type: ignore[return-value]
