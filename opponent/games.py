"""Which games the computer opponent plays.

The compiled engine (``opponent/engine``) and the baseline players know every
game of the family but Optima (issue 10: Optima's engine is Python only for
now). Everything that starts an engine asks :func:`refuse` first, so asking
for Optima gives one clear line instead of an engine that cannot answer.
"""
from __future__ import annotations

from engine import variants


class UnsupportedGame(ValueError):
    """The computer opponent does not play this game."""


def engine_games() -> list[str]:
    """The variant ids the computer opponent plays, in listing order."""
    return [v.name for v in variants.all_variants() if v.family != "optima"]


def refuse(variant: str) -> str:
    """``variant``'s id when the computer plays it; UnsupportedGame otherwise."""
    v = variants.get(variant)
    if v.family == "optima":
        raise UnsupportedGame(f"the computer opponent does not play {v.title} (Optima is for two players "
                              f"on this release)")
    return v.name
