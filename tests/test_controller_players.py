"""Whole games of Ultima, Ultima (pure) and a Deckle game on each board
(10×10 and 10×8), played through the controller by a simulated player:
seeded random legal moves (captures, castling, en passant, promotion and
swaps preferred when there are any, so that games end and every kind of
move is made), each made by lifts and placements in one of the orders
people use (``maxima_board.board.hands``). Every move commits as exactly that
move, the game ends as the engine says, and the store holds it all."""
from __future__ import annotations

import collections
import random

import pytest

from maxima_board.board.hands import hand_lines
from maxima_board.service.record import export_text
from maxima_board.service.script import Runner, parse_script
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position, variants

def _choose(position: Position, rng: random.Random):
    moves = position.legal_moves
    rare = [m for m in moves if m.kind in ("castle", "en passant") or m.promotion]
    if rare and rng.random() < 0.7:
        return rng.choice(rare)
    swaps = [m for m in moves if m.kind in ("swap", "destruction")]
    if swaps and rng.random() < 0.2:
        return rng.choice(swaps)
    captures = [m for m in moves if m.captures]
    if captures and rng.random() < 0.8:
        return rng.choice(captures)
    return rng.choice(moves)


def play_whole_game(variant: str, seed: int, max_plies: int = 1500) -> tuple[Runner, collections.Counter]:
    rng = random.Random(seed)
    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store, variant=variant)
    c = runner.controller
    kinds: collections.Counter = collections.Counter()
    for ply in range(max_plies):
        if c.mode != "play":
            break
        position = c.position
        move = _choose(position, rng)
        for step in parse_script(hand_lines(position, move, rng), variant):
            runner.do(step)
        assert c.moves[ply:] == [str(move)], (variant, seed, ply, str(move), c.moves[-2:], c.display)
        kinds[move.kind + ("=" if move.promotion else "")] += 1
    return runner, kinds


# Seeds whose games make every kind of move of their game at least once
# (castling, en passant, promotion, swap, mutual destruction, suicide).
@pytest.mark.parametrize("variant,seed", [("ultima", 2), ("ultima-pure", 3), ("swapper-chess", 5),
                                          ("swapper-chess-10x8", 3), ("coordinator-chess-10x8", 1)])
def test_a_whole_game_played_by_hand(variant, seed):
    runner, kinds = play_whole_game(variant, seed)
    c = runner.controller
    assert c.mode == "ended", (variant, len(c.moves))
    replayed = Position("start", variant)
    for move in c.moves:
        replayed.push(move)
    outcome = replayed.outcome()
    assert outcome is not None and (c.result, c.reason) == (outcome.result, outcome.reason)
    store = c.store
    game = store.games()[-1]
    assert game.variant == variant and game.finished and store.moves(game.id) == c.moves
    assert f'[Variant "{variants.get(variant).title}"]' in export_text(store, game.id)
    if variant.startswith("swapper"):
        assert kinds["swap"] > 0
    if variants.get(variant).family == "deckle":
        assert kinds["castle"] + kinds["en passant"] + kinds["move="] + kinds["replacement="] > 0, kinds
