"""The games the engine plays, each a module of data.

>>> from engine import variants
>>> variants.get("ultima-pure").title
'Ultima (pure)'
"""
from __future__ import annotations

from .base import BLACK, WHITE, Variant
from .deckle import GAMES as _DECKLE
from .maxima import MAXIMA
from .optima import OPTIMA, OPTIMA_9X9
from .ultima import ULTIMA, ULTIMA_PURE

_ALL: dict[str, Variant] = {v.name: v for v in (MAXIMA, ULTIMA, ULTIMA_PURE, *_DECKLE, OPTIMA, OPTIMA_9X9)}


def names() -> list[str]:
    """Every variant id, in listing order."""
    return list(_ALL)


def get(name: "str | Variant") -> Variant:
    """The variant with id ``name``; ValueError naming the known ids otherwise."""
    if isinstance(name, Variant):
        return name
    try:
        return _ALL[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(_ALL)})") from None


def all_variants() -> list[Variant]:
    return list(_ALL.values())


__all__ = ["BLACK", "MAXIMA", "ULTIMA", "ULTIMA_PURE", "Variant", "WHITE", "all_variants", "get", "names"]
