"""A game named the way a person names it: its id (``optima-9x9``), its
title (``Optima 9x9``, ``Ultima (pure)``) or its title without the word
"Chess" (``Swapper`` for Swapper Chess, ``Long Leaper 10x8``), in any
case, with spaces, hyphens or underscores between the words; and, for a
name that is none of these, the nearest one.
"""
from __future__ import annotations

import difflib
import re

from . import variants


def _key(text: str) -> str:
    """``text`` in lower case, its words (letters and digits) one space apart."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def _names() -> dict[str, str]:
    """Every accepted name's key -> the game's id (an id wins over a title)."""
    found: dict[str, str] = {}
    for variant in variants.all_variants():
        title = _key(variant.title)
        short = " ".join(word for word in title.split() if word != "chess")
        for key in (short, title, _key(variant.name)):
            found[key] = variant.name
    for variant in variants.all_variants():
        found[_key(variant.name)] = variant.name
    return found


def game_id(text: str) -> str | None:
    """The id of the game ``text`` names (see the module), or None."""
    if not isinstance(text, str):
        return None
    return _names().get(_key(text))


def suggestion(text: str) -> str:
    """' (did you mean "ID"?)' with the game id nearest to ``text``, or ""
    when none is near (the words of the config file's unknown keys)."""
    names = _names()
    close = difflib.get_close_matches(_key(str(text)), list(names), n=1)
    return f' (did you mean "{names[close[0]]}"?)' if close else ""
