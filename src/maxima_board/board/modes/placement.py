"""Optima's placement phase (O5; controller.md point 17): each ply, the
side to move sets one unit from its hand (or the shared pool) on an empty
square of its first rank.

The board sees only that a square filled. When the side may place more
than one kind of unit there, the OLED asks "Place: Queen?": MENU offers the
next unit the side may place now (``Position.placeable()``, royal units
marked), OK confirms and commits, BACK cancels (take the unit off again).
Or the player chooses first: with the board as it stands, MENU offers the
units one by one ("Choose: Queen?"), OK takes the one shown, and the next
unit set on the first rank is that one and commits when it settles. MENU
past the last unit opens the game's usual menu (resign, draw, new game).
When only one kind of unit may be placed, the placement commits as it
settles, like a move.

The mode's ``name`` stays ``"play"``: the game is in progress and every
other behaviour of play (take-back, wrong boards, the menu) is the same.
Once the movement phase begins this mode behaves exactly as ``PlayMode``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .play import PlayMode, game_press, pick_press


@dataclass
class Choice:
    """What the player has chosen before placing: ``offer`` the index of
    the unit the OLED offers now (None: not choosing) in the ply
    ``offer_ply``, ``chosen`` the token taken with OK and the ply it is for
    (a later ply forgets both)."""

    offer: int | None = None
    offer_ply: int = -1
    chosen: str | None = None
    ply: int = -1

    def token_for(self, ply: int) -> str | None:
        return self.chosen if self.ply == ply else None


def placing(position) -> bool:
    """Whether ``position`` is in Optima's placement phase."""
    return getattr(position, "phase", None) == "placement"


class PlacementMode(PlayMode):
    """Play during the placement phase (see the module docstring)."""

    def __init__(self, session):
        super().__init__(session)
        self.choice = Choice()

    @property
    def offered(self) -> str | None:
        """The token the OLED offers while the player chooses first."""
        tokens = self.session.position.placeable()
        offer = self.choice.offer
        return tokens[offer] if offer is not None and offer < len(tokens) else None

    @property
    def chosen(self) -> str | None:
        """The token chosen for this ply before placing, if any."""
        position = self.session.position
        return self.choice.token_for(position.ply) if placing(position) else None

    def step(self, now: int) -> list[dict]:
        s = self.session
        if not placing(s.position):
            return super().step(now)
        if self.choice.offer is not None and self.choice.offer_ply != s.position.ply:
            self.choice.offer = None   # a placement was made meanwhile: the offer was for the last ply
        m = s.match()
        chosen = self.chosen
        if m.kind == "place" and chosen is not None and s.stable(now):
            entry = next((e for e in m.entries if e.move.placed == chosen), None)
            if entry is not None:
                return s.commit(entry.move, now, stop=s.frame.since)
        return super().step(now)

    def press(self, button: str, now: int) -> list[dict]:
        s = self.session
        if not placing(s.position):
            return super().press(button, now)
        m = s.match() if s.frame.raw is not None else None
        if m is not None and m.kind == "place":
            return self._pick(m, button, now)
        choice = self.choice
        if choice.offer is not None:            # choosing first: "Choose: Queen?"
            if button == "menu":
                choice.offer += 1
                if choice.offer >= len(s.position.placeable()):
                    choice.offer = None
                    s.open_menu()
            elif button == "ok":
                choice.chosen, choice.ply, choice.offer = self.offered, s.position.ply, None
            elif button in ("back", "new"):
                choice.offer = None
                if button == "new":
                    return game_press(s, button, now)
            return []
        if button == "menu" and (m is None or m.kind == "idle"):
            choice.offer, choice.offer_ply = 0, s.position.ply
            return []
        return super().press(button, now)

    def _pick(self, m, button: str, now: int) -> list[dict]:
        """A unit stands on the square: MENU next, OK commits, BACK cancels."""
        s = self.session
        if button not in ("ok", "menu", "back"):
            return game_press(s, button, now)
        return pick_press(s, m, button, now)


def play_mode(session) -> PlayMode:
    """The play mode for the session's position: placement or movement."""
    return PlacementMode(session) if placing(session.position) else PlayMode(session)
