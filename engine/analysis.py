"""One position's full report, as the ``analyze`` command prints it."""
from __future__ import annotations

from .position import Position


def analyze(fen: str) -> dict:
    """Legal moves, check, outcome and immobilized pieces of ``fen`` (or the
    word ``start``). Raises FenError for a bad FEN."""
    position = Position(fen)
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
