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
    from maxima_board.board.ports import Session


def game_press(s: "Session", button: str, now: int) -> list[dict]:
    """The buttons of a game in progress, whatever the board shows:
    BACK takes back, MENU opens the menu, NEW asks for a new game."""
    if button == "back":
        return s.take_back(now)
    if button == "menu":
        s.open_menu()
    elif button == "new":
        s.open_menu(only_new=True)
    return []


def pick_press(s: "Session", m: Match, button: str, now: int) -> list[dict]:
    """A choice the board cannot see (a promotion piece, the unit placed):
    MENU shows the next entry of ``m``, OK commits the one shown, BACK cancels."""
    key, index = s.offered()
    if button == "ok":
        return s.commit(m.entries[index].move, now)
    if button == "menu":
        s.offer((key, (index + 1) % len(m.entries)))
    else:
        s.cancel_offer(key)
    return []


class PlayMode(Mode):
    name = "play"

    @property
    def clock_runs(self) -> bool:
        frame = self.session.frame
        return frame.link_ok and frame.raw is not None

    def step(self, now: int) -> list[dict]:
        s = self.session
        frame = s.frame
        outcome = s.position.outcome()
        if outcome is not None:      # recording the end failed before; try again
            return s.end(outcome.result, outcome.reason, now)
        m = s.match()
        clock = s.clock
        if clock is not None and clock.flagged(now) and s.calls_flag(s.position.turn):
            # A move the board showed before the flag fell still counts once it settles.
            if m.kind not in ("move", "suicide") or clock.flagged(frame.since):
                return s.end(flag_result(s.position, s.position.turn), "time", now)
        if m.kind == "move" and s.stable(now):
            return s.commit(m.entries[0].move, now, stop=frame.since)
        if m.kind in ("suicide", "early") and now - frame.since >= s.settings.suicide_ms:
            return s.commit(m.entries[0].move, now, stop=frame.since)
        if m.kind in ("idle", "remove", "lifted", "wrong") and s.stable(now) and self._restored():
            return s.take_back(now, by_restore=True)
        if m.kind == "wrong" and now - frame.since >= s.settings.grace_ms:
            if s.new_error((frame.raw, frame.lifted)):
                names = s.position.geometry.names
                return [{"type": "error", "text": screens.wrong_text(s.position, m, frame.raw, frame.lifted,
                                                                    s.printed(s.position)),
                         "missing": [names[sq] for sq in bits(m.missing)],
                         "extra": [names[sq] for sq in bits(m.extra)],
                         "remove": [names[sq] for sq in bits(m.remove)]}]
        return []

    def _restored(self) -> bool:
        """The board shows the position before the last move (and every
        square whose piece the move replaced has been lifted since, in
        whatever order: ``BoardFrame.track_undo``)."""
        s = self.session
        frame = s.frame
        if not s.settings.takeback_by_restore or not s.position.move_stack:
            return False
        vacated, filled, replaced = s.last_signature()
        if not (vacated | filled | replaced):
            return False
        before = s.table.expected & ~filled | vacated
        if frame.raw != before:
            return False
        return replaced & ~(frame.lifted | frame.undo_lifts) == 0

    def press(self, button: str, now: int) -> list[dict]:
        s = self.session
        m = s.match() if s.frame.raw is not None else Match("idle")
        if m.kind == "ambiguous" and s.stable(now) and button in ("ok", "back"):
            key, index = s.offered()
            if button == "ok":
                return s.commit(m.entries[index].move, now)
            s.offer((key, (index + 1) % len(m.entries)))
            return []
        if m.kind in ("suicide", "early") and button == "ok":
            return s.commit(m.entries[0].move, now)
        if m.kind == "promote" and button in ("ok", "menu", "back"):   # the Pawn stands on the last rank
            return pick_press(s, m, button, now)
        return game_press(s, button, now)
