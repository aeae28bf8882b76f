"""Properties of Optima positions on seeded random games of every kind of
forces (O4: eq, u1, u2, random; 10x10 and 9x9), from the start through the
placement phase (O5) into the movement phase:

- O15: the FEN round-trips and reads back to the same legal moves;
- push/pop restores everything (board, side, reserve, ply, history, O13
  repetition counts, legal moves, outcome);
- a move's physical signature is the real difference of the boards (O6);
- O13: ``royal_attacked()`` equals brute force over the opponent's moves
  (each played, the royal units of the side to move counted);
- O10: no legal move starts from an immobilized unit.
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import Position
from maxima_board.rules.optima.forces import start_fen
from maxima_board.rules.optima.units import ROYAL

KINDS = [("optima", "eq"), ("optima", "u1"), ("optima", "u2"), ("optima", "random"),
         ("optima-9x9", "eq"), ("optima-9x9", "u1"), ("optima-9x9", "random")]


def royal_squares(board: list[int], color: int) -> set[int]:
    return {sq for sq, v in enumerate(board) if v * color > 0 and (v * color) & ROYAL}


def state(p: Position) -> tuple:
    return (p.fen(), list(p.board), p.turn, p.reserve_state, p.ply, list(p.move_stack), dict(p._seen),
            [str(m) for m in p.legal_moves], p.outcome(), p.phase)


def games(variant: str, forces: str, seeds, movement_plies: int):
    """Positions along seeded random games (every placement, then up to
    ``movement_plies`` moves or the end), captures preferred now and then."""
    for seed in seeds:
        rng = random.Random(seed)
        royals = 2 if variant == "optima" and forces == "random" and seed % 2 else None
        p = Position(start_fen(variant, forces, seed=seed, royals=royals), variant, forces=forces)
        played = 0
        while p.outcome() is None and played < movement_plies:
            yield p
            moves = p.legal_moves
            captures = [m for m in moves if m.captures or m.converts]
            p.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            played += p.phase == "movement"
        yield p


def brute_royal_attacked(p: Position) -> list[int]:
    """Squares of the side to move's royal units that some move of the opponent, if it were to move, removes."""
    if p.phase != "movement":
        return []
    fields = p.fen().split(" ")
    fields[1] = "b" if fields[1] == "w" else "w"
    other = Position(" ".join(fields), p.variant, validate=False)
    mine = royal_squares(p.board, p.turn)
    hit: set[int] = set()
    for move in other.legal_moves:
        other.push(move)
        hit |= mine - royal_squares(other.board, p.turn)
        other.pop()
    return sorted(hit)


@pytest.mark.parametrize("variant, forces", KINDS)
def test_O13_O15_O6_properties_on_random_games(variant, forces):
    checked = 0
    for p in games(variant, forces, range(4), 40):
        checked += 1
        fen = p.fen()
        # O15 round trip
        again = Position(fen, variant, forces=p.forces, royals=p.royals[1] if p.royals[1] == p.royals[-1] else None)
        assert again.fen() == fen
        assert [str(m) for m in again.legal_moves] == [str(m) for m in p.legal_moves], fen
        # O13 royal attack against brute force
        assert p.royal_attacked() == brute_royal_attacked(p), fen
        assert p.is_check() == bool(p.royal_attacked())
        # O10: immobilized units do not move
        frozen = set(p.immobilized())
        assert not any(m.from_square in frozen for m in p.legal_moves if m.placed is None), fen
        # push/pop and signatures on a sample of moves
        before = state(p)
        moves = p.legal_moves
        rng = random.Random(fen)
        for move in rng.sample(moves, min(len(moves), 6)):
            sig = p.signature(move)
            board = list(p.board)
            p.push(move)
            after = p.board
            vacated = {q for q in range(len(board)) if board[q] and not after[q]}
            filled = {q for q in range(len(board)) if after[q] and not board[q]}
            replaced = {q for q in range(len(board)) if board[q] and after[q] and board[q] != after[q]}
            assert (sig.vacated, sig.filled, sig.replaced) == (vacated, filled, replaced), (fen, str(move))
            if move.placed is not None:
                assert filled == {move.to_square} and not vacated and not replaced and sig.choice
            if move.kind == "shot":
                assert move.from_square not in vacated | replaced
            p.pop()
            assert state(p) == before, (fen, str(move))
    assert checked >= 20


def test_O15_fen_round_trip_keeps_the_game_state_a_fen_lacks():
    """O16: the started royals and the forces are game state; copy() keeps them, a FEN cannot."""
    p = Position(start_fen("optima", "u2"), "optima")
    rng = random.Random(4)
    while p.phase == "placement":
        p.push(rng.choice(p.legal_moves))
    assert p.forces == "u2" and p.royals == {1: 2, -1: 2}
    q = p.copy()
    assert q.fen() == p.fen() and q.forces == "u2" and q.royals == p.royals and q.move_stack == p.move_stack
    assert Position(p.fen(), "optima").forces is None
