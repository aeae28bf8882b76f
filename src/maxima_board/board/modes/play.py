"""Play: a move commits when the board has settled on its result; a wrong
board is called out after the grace time; a board restored to the position
before the last move takes it back."""
from __future__ import annotations

from typing import TYPE_CHECKING

from maxima_board.board import screens
from maxima_board.board.clock import flag_result
from maxima_board.board.reconstruct import Match, bits
from .base import Mode

if TYPE_CHECKING:
    from maxima_board.board.core import Controller


def game_press(c: "Controller", button: str, now: int) -> list[dict]:
    """The buttons of a game in progress, whatever the board shows:
    BACK takes back, MENU opens the menu, NEW asks for a new game."""
    if button == "back":
        return c._take_back(now)
    if button == "menu":
        c._open_menu()
    elif button == "new":
        c._open_menu(only_new=True)
    return []


def pick_press(c: "Controller", m: Match, button: str, now: int) -> list[dict]:
    """A choice the board cannot see (a promotion piece, the unit placed):
    MENU shows the next entry of ``m``, OK commits the one shown, BACK cancels."""
    key, index = c._pick_state()
    if button == "ok":
        return c._commit(m.entries[index].move, now)
    if button == "menu":
        c._pick = (key, (index + 1) % len(m.entries))
    else:
        c._cancelled = key
    return []


class PlayMode(Mode):
    name = "play"

    @property
    def clock_runs(self) -> bool:
        return self.c._link_ok and self.c._raw is not None

    def step(self, now: int) -> list[dict]:
        c = self.c
        outcome = c._position.outcome()
        if outcome is not None:      # recording the end failed before; try again
            return c._end(outcome.result, outcome.reason, now)
        m = c._match()
        clock = c._clock
        if clock is not None and clock.flagged(now):
            # A move the board showed before the flag fell still counts once it settles.
            if m.kind not in ("move", "suicide") or clock.flagged(c._raw_since):
                return c._end(flag_result(c._position, c._position.turn), "time", now)
        if m.kind == "move" and c._stable(now):
            return c._commit(m.entries[0].move, now, stop=c._raw_since)
        if m.kind in ("suicide", "early") and now - c._raw_since >= c.settings.suicide_ms:
            return c._commit(m.entries[0].move, now, stop=c._raw_since)
        if m.kind in ("idle", "remove", "lifted", "wrong") and c._stable(now) and self._restored():
            return c._take_back(now, by_restore=True)
        if m.kind == "wrong" and now - c._raw_since >= c.settings.grace_ms:
            key = (c._raw, c._lifted)
            if key != c._error_key:
                c._error_key = key
                names = c._position.geometry.names
                return [{"type": "error", "text": screens.wrong_text(c._position, m, c._raw, c._lifted),
                         "missing": [names[s] for s in bits(m.missing)],
                         "extra": [names[s] for s in bits(m.extra)],
                         "remove": [names[s] for s in bits(m.remove)]}]
        return []

    def _restored(self) -> bool:
        """The board shows the position before the last move (and every
        square whose piece the move replaced has been lifted since, in
        whatever order: ``Controller._track_undo``)."""
        c = self.c
        if not c.settings.takeback_by_restore or not c._position.move_stack:
            return False
        vacated, filled, replaced = c._last_signature()
        if not (vacated | filled | replaced):
            return False
        before = c._table.expected & ~filled | vacated
        if c._raw != before:
            return False
        return replaced & ~(c._lifted | c._undo_lifts) == 0

    def press(self, button: str, now: int) -> list[dict]:
        c = self.c
        m = c._match() if c._raw is not None else Match("idle")
        if m.kind == "ambiguous" and c._stable(now) and button in ("ok", "back"):
            key, index = c._pick_state()
            if button == "ok":
                return c._commit(m.entries[index].move, now)
            c._pick = (key, (index + 1) % len(m.entries))
            return []
        if m.kind in ("suicide", "early") and button == "ok":
            return c._commit(m.entries[0].move, now)
        if m.kind == "promote" and button in ("ok", "menu", "back"):   # the Pawn stands on the last rank
            return pick_press(c, m, button, now)
        return game_press(c, button, now)
