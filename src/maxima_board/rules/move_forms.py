"""The grammar of a game's move texts, as data: which forms its canonical moves
take (M14, U13, D17; Optima's O15) and so what :func:`maxima_board.rules.notation.parse_move`
reads. A :class:`~maxima_board.rules.variants.base.Variant` names its forms."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class MoveForms:
    """``board``: the regular expression of a move on the board, with the named
    groups ``frm``, ``to``, ``caps`` and, where the game has them, ``swap_to``
    (FROM<>TO), ``suicide`` and ``destroyed`` (FROM-S, FROM-SxC), ``convs``
    (^V1,V2) and ``promo``; ``placement``: that of a placement (groups
    ``token`` and ``sq``) or None; ``letter``: a leading upper-case piece letter
    (``Qd1-d4``) is skipped before ``board`` is matched; ``name`` and
    ``expected`` word the error for a text that is no move."""

    board: re.Pattern
    placement: re.Pattern | None
    letter: bool
    name: str
    expected: str


_SQ = r"[a-z]\d{1,2}"
_UNIT_SQ = r"[a-z](?:10|[1-9])"

# Maxima, Ultima, Deckle's games (M14, U13, D17).
CANONICAL = MoveForms(
    board=re.compile(rf"^(?P<frm>{_SQ})(?:<>(?P<swap_to>{_SQ})|-(?:(?P<suicide>S)(?:x(?P<destroyed>{_SQ}))?|"
                     rf"(?P<to>{_SQ})(?:x(?P<caps>{_SQ}(?:,{_SQ})*))?(?:=(?P<promo>[A-Z]))?))$"),
    placement=None, letter=True, name="a move",
    expected="FROM-TO, FROM-TOxC1,C2, FROM-S, FROM-SxC, FROM<>TO, optionally =L")

# Optima (O15): placements, conversions, two-letter unit tokens, promotion to Wizard.
UNITS = MoveForms(
    board=re.compile(rf"^(?:[A-Z]{{2}}\*?)?(?P<frm>{_UNIT_SQ})-(?P<to>{_UNIT_SQ})"
                     rf"(?:x(?P<caps>{_UNIT_SQ}(?:,{_UNIT_SQ})*))?(?:\^(?P<convs>{_UNIT_SQ}(?:,{_UNIT_SQ})*))?"
                     rf"(?:=(?P<promo>WI))?$"),
    placement=re.compile(rf"^(?P<token>[A-Z]{{2}}\*?)@(?P<sq>{_UNIT_SQ})$"),
    letter=False, name="an Optima move",
    expected="TT@sq, TT*@sq or FROM-TO[xC1,C2][^V1,V2][=WI]")
