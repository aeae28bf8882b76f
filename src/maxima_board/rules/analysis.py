"""One position's full report, as the ``analyze`` command prints it."""
from __future__ import annotations

from .position import Position
from maxima_board.rules.variants.base import Variant


def analyze(fen: str, variant: "Variant | str" = "maxima") -> dict:
    """Legal moves, check, outcome and immobilized pieces of ``fen`` (or the
    word ``start``) in ``variant``. Raises FenError for a bad FEN and
    ValueError for an unknown variant."""
    position = Position(fen, variant)
    outcome = position.outcome()
    names = position.geometry.names
    return {
        "fen": fen,
        "moves": [str(m) for m in position.legal_moves],
        "check": position.is_check(),
        "result": outcome.result if outcome else "*",
        "reason": outcome.reason if outcome else None,
        "immobilized": [names[sq] for sq in position.immobilized()],
    }
