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


DEFAULT = MAXIMA   # the game a board plays when nothing names one

_FAMILIES: dict[str, list[Variant]] = {}
for _variant in _ALL.values():
    _FAMILIES.setdefault(_variant.family, []).append(_variant)


def relatives(variant: "str | Variant") -> list[Variant]:
    """The games of ``variant``'s family, itself included, in listing order."""
    return list(_FAMILIES[get(variant).family])


def resized(variant: "str | Variant", ranks: int) -> Variant | None:
    """The game with ``variant``'s pieces on a board of ``ranks`` ranks:
    ``variant`` itself when its board has them, else its other size (Deckle's
    10x8 games, Optima 9x9); None when there is none."""
    v = get(variant)
    for other in (v, *_ALL.values()):
        if other.types == v.types and other.units == v.units and len(other.geometry.ranks) == ranks:
            return other
    return None


__all__ = ["BLACK", "DEFAULT", "MAXIMA", "ULTIMA", "ULTIMA_PURE", "Variant", "WHITE", "all_variants", "get", "names",
           "relatives", "resized"]
