"""Pieces and moves in words, for people: the web page, the club dashboard
and the OLED say "Pawn f3-f4 takes e4", never ``Pf3-f4xe4``.

Pure: a game (variant) and a record's move label (the canonical move with
the piece letter in front, as :func:`maxima_board.service.feed.move_labels` and the
game records write it) in, a sentence out. A label that cannot be read is
returned as it came, so nothing a board sends is ever hidden.
"""
from __future__ import annotations

import re
from typing import Mapping

from .variants import get as variant_of
from maxima_board.rules.variants.base import Variant
from maxima_board.rules.variants.optima_units import BY_TOKEN

_SQ = r"[a-z](?:1[0-9]|[0-9])"
_SQS = rf"{_SQ}(?:,{_SQ})*"
# Optima's placement: a token (``*`` when royal) at a square.
_PLACEMENT = re.compile(rf"^([A-Za-z]{{2}})(\*?)@({_SQ})$")
# Every other move: the piece letter(s), then the canonical move (M14, U13, D17, O15).
_LABEL = re.compile(rf"^([A-Za-z]{{1,2}})({_SQ})(?:(<>)({_SQ})|-(?:(S)|({_SQ}))"
                    rf"(?:x({_SQS}))?(?:\^({_SQS}))?(?:=([A-Za-z]{{1,2}}))?)$")


def piece_names(variant: Variant | str) -> dict[str, str]:
    """The name of every piece of ``variant`` by its lower-case FEN letter
    (Optima: token): ``{"p": "Pawn", "q": "Withdrawer", ...}`` for Maxima."""
    v = variant_of(variant)
    if v.uses_units:
        return {u.token.lower(): u.name for u in v.units}
    return {t.letter: t.name for t in v.types}


def piece_name(variant: Variant | str, letter: str) -> str:
    """The name of the piece of FEN letter (Optima: token, ``*`` allowed)
    ``letter``, either case; KeyError if ``variant`` has no such piece."""
    v = variant_of(variant)
    key = letter.rstrip("*").lower()
    if v.uses_units:
        return BY_TOKEN[key.upper()].name
    return v.type_of(key).name


def _squares(text: str | None) -> str:
    return ", ".join(text.split(",")) if text else ""


def move_words(variant: Variant | str, label: str) -> str:
    """The move ``label`` (``Pf3-f4xe4``, ``AR@e2``, ``Sd3<>e5``...) of
    ``variant`` in words: "Pawn f3-f4 takes e4". Unreadable labels come
    back unchanged."""
    v = variant_of(variant)
    names = piece_names(v)
    text = str(label).strip()
    placed = _PLACEMENT.match(text)
    if placed:
        token, royal, square = placed.groups()
        name = names.get(token.lower())
        if name is None:
            return text
        return f"places {'royal ' if royal else ''}{name} on {square}"
    m = _LABEL.match(text)
    if not m:
        return text
    letter, frm, swap, swap_to, suicide, to, captures, converts, promotion = m.groups()
    name = names.get(letter.lower())
    if name is None:
        return text
    if swap:
        return f"{name} {frm} swaps with {swap_to}"
    if suicide:
        if captures:
            return f"{name} {frm} takes {_squares(captures)} and removes itself"
        return f"{name} {frm} removes itself"
    if to == frm:
        words = f"{name} {frm}"
        if captures:
            words += f" takes {_squares(captures)}, stays on {frm}"
    elif captures == to:                    # a capture by replacement
        words = f"{name} {frm} takes {to}"
    else:
        words = f"{name} {frm}-{to}"
        if captures:
            words += f" takes {_squares(captures)}"
        elif v.castling and name == "King" and abs(ord(frm[0]) - ord(to[0])) >= 2:
            words += " (castles)"
    if converts:
        words += f", converts {_squares(converts)}"
    if promotion:
        promoted = names.get(promotion.lower())
        if promoted is None:
            return text
        words += f", becomes {promoted}"
    return words


def move_label(position, move) -> str:
    """The record's label of ``move`` in ``position`` (before it is made):
    the piece letter in front, ``Pd3-d5``, ``AR@e2``."""
    return position.piece_letter(move).upper() + str(move)


_SQUARE = re.compile(_SQ)


def renamed(label: str, names: Mapping[str, str] | None) -> str:
    """A move's label or canonical text (``Pe2-e3``, ``e2-e3xe4``) with
    every square named by ``names`` (the game's square name → the name
    printed on the physical board under it: ``e2`` → ``f3`` for Ultima on
    the 10×10 board); a square ``names`` does not hold keeps its name."""
    if not names:
        return label
    return _SQUARE.sub(lambda m: names.get(m.group(0), m.group(0)), label)


def move_texts(variant: Variant | str, labels: list[str]) -> list[str]:
    """:func:`move_words` of every label."""
    v = variant_of(variant)
    return [move_words(v, label) for label in labels]


def plural(count: int, word: str, words: str | None = None) -> str:
    """``"1 ply"``, ``"2 plies"``, ``"0 tables"``: the count with its noun."""
    return f"{count} {word if count == 1 else (words or word + 's')}"
