"""The compiled engine's mobility term (docs/opponent-engine.md, *Evaluation*):
3 centipawns per empty square within three steps along a slider's lines, for
every slider but the orthogonal-only ones that are Pawns (Ultima's and
Maxima's Pawns move like Rooks; Deckle's Rook does earn it, D2/D4). The expected
figures are counted here from the board, not copied from the engine. These are the evaluation of
EvalTerms=0 (without the terms of tests/test_opponent_engine_eval_terms.py)."""
from __future__ import annotations

import pytest

from maxima_board.rules import variants
from maxima_board.rules.notation import FenData, format_fen
from maxima_board.rules.variants.base import BLACK, WHITE
from tests.opponent_engine import engine_binary, run_batch  # noqa: F401 (a fixture)

ORTHOGONAL = [(0, 1), (0, -1), (1, 0), (-1, 0)]
ALL = ORTHOGONAL + [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def reach(files: int, ranks: int, at: tuple[int, int], dirs, occupied: set[tuple[int, int]]) -> int:
    """Empty squares within three steps of ``at`` along ``dirs``, each ray stopped by a piece."""
    n = 0
    for df, dr in dirs:
        f, r = at
        for _ in range(3):
            f, r = f + df, r + dr
            if not (0 <= f < files and 0 <= r < ranks) or (f, r) in occupied:
                break
            n += 1
    return n


def fen_with(variant: str, pieces: dict[tuple[int, int], str]) -> str:
    """The FEN (maxima_board.rules.notation.format_fen) of ``pieces`` by (file, rank index), White to move."""
    v = variants.get(variant)
    g, codes = v.geometry, {t.letter: t.code for t in v.types}
    board = [0] * g.size
    for (f, r), letter in pieces.items():
        board[g.at(f, g.ranks[r])] = codes[letter.lower()] * (WHITE if letter.isupper() else BLACK)
    return format_fen(FenData(board, WHITE), v)


@pytest.mark.parametrize("variant, ranks", [("withdrawer-chess", 10), ("withdrawer-chess-10x8", 8),
                                            ("immobilizer-chess", 10)])
@pytest.mark.parametrize("letter, dirs", [("R", ORTHOGONAL), ("Q", ALL)])
def test_D2_D4_a_deckle_rook_and_queen_earn_mobility_along_their_lines(engine_binary, variant, ranks, letter, dirs):
    files = 10
    kings = {(2, ranks - 1): "k", (9, 0): "K"}
    centre, corner = (4, ranks // 2), (0, 0)
    fens = [fen_with(variant, {**kings, sq: letter}) for sq in (centre, corner)]
    evals = [int(x) for x in run_batch(engine_binary, "eval", variant, fens, eval_terms=0)]
    occupied = set(kings)
    expected = 3 * (reach(files, ranks, centre, dirs, occupied) - reach(files, ranks, corner, dirs, occupied))
    assert expected > 0 and evals[0] - evals[1] == expected, (evals, expected)


def test_U4_an_ultima_pawn_earns_no_mobility(engine_binary):
    """Ultima's Pawn slides like a Rook (U4) but is left out of mobility: on the
    same rank, in the centre or at the edge, it is worth the same."""
    kings = {(0, 7): "k", (7, 0): "K"}
    fens = [fen_with("ultima", {**kings, sq: "P"}) for sq in ((4, 3), (0, 3))]
    evals = [int(x) for x in run_batch(engine_binary, "eval", "ultima", fens, eval_terms=0)]
    assert reach(8, 8, (4, 3), ORTHOGONAL, set(kings)) != reach(8, 8, (0, 3), ORTHOGONAL, set(kings))
    assert evals[0] == evals[1], evals
