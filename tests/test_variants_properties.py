"""Properties of every game (all 19 ids) on random positions: random
playouts from the start and random dense placements that the FEN parser
accepts (seeded ``random.Random``, so a failure names a reproducible FEN).

- is_check() equals brute force: does any move of p.pseudo_moves(opponent)
  capture the King (Maxima, M12: or complete the opponent's invasion)?
- every legal move leaves the mover's King safe by the same brute force;
- FEN round-trips; push/pop restores FEN, legal moves and repetitions;
- p.signature(m) is the real difference between the boards before and after
  (vacated / filled / replaced per ENGINE_API.md), choice exactly for promotions;
- occupancy_after(m) equals the occupancy after push(m).
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import BLACK, WHITE, FenError, Position, variants
from tests.conftest import fen_of as maxima_fen_of
from tests.test_variants_support import ALL_IDS, DECKLE_LETTER, board_map, rows

MAXIMA_LETTERS = "nnnbbbgggppppprrrmmmqd"        # as tests/test_properties.py: few Withdrawers, Guards
ULTIMA_LETTERS = "ppppwwcclllhhhii"


def _letters(name: str) -> str:
    if name == "maxima":
        return MAXIMA_LETTERS
    if name.startswith("ultima"):
        return ULTIMA_LETTERS
    game = name.removesuffix("-10x8").removesuffix("-chess")
    x = DECKLE_LETTER[game]
    return "ppppqrrbbnn" + x * 4


def random_placement_fen(name: str, rng: random.Random, turn: str) -> str:
    """A random dense placement: one King a side, other pieces of the game at random."""
    v = variants.get(name)
    g = v.geometry
    empties = rng.choice((200, 60, 25, 8))
    letters = _letters(name)
    choices = list(letters + letters.upper()) + ["."] * empties
    squares = list(range(g.size))
    cells = {s: rng.choice(choices) for s in squares}
    wk, bk = rng.sample(squares, 2)
    cells[wk], cells[bk] = "K", "k"
    pieces = {g.name(s): c for s, c in cells.items() if c != "."}
    if name == "maxima":
        return maxima_fen_of(pieces, turn, rng.randrange(0, 300))
    if name.startswith("ultima"):
        return f"{rows(pieces, 8, 8)} {turn} {rng.randrange(0, 300)}"
    ranks = len(g.ranks)
    pieces = {sq: c for sq, c in pieces.items() if not (c in "pP" and int(sq[1:]) in (1, ranks))}
    fen = f"{rows(pieces, 10, ranks)} {turn} - - {rng.randrange(0, 100)} {rng.randrange(1, 200)}"
    return fen + (" -" if "swapper" in name else "")


def placed_positions(name: str, rng: random.Random, n: int) -> list[Position]:
    out, tries = [], 0
    while len(out) < n and tries < n * 20:
        tries += 1
        turn = rng.choice("wb")
        for side in (turn, "b" if turn == "w" else "w"):
            try:
                out.append(Position(random_placement_fen(name, rng, side), variant=name))
                break
            except FenError:
                pass
    return out


def played_positions(name: str, rng: random.Random, games: int, plies: int) -> list[Position]:
    """Positions along random games from the start (copies)."""
    out = []
    for _ in range(games):
        p = Position("start", variant=name)
        for _ in range(plies):
            moves = p.legal_moves
            if not moves:
                break
            p.push(rng.choice(moves))
            out.append(p.copy())
    return out


# ------------------------------------------------------------------ brute force


def _king(board: dict[int, str], color: int) -> int | None:
    k = "K" if color == WHITE else "k"
    return next((s for s, letter in board.items() if letter == k), None)


def _color(letter: str) -> int:
    return WHITE if letter.isupper() else BLACK


def _after(board: dict[int, str], move) -> dict[int, str]:
    """The board after a non-swap pseudo-move (Maxima and the capture test)."""
    out = dict(board)
    piece = out.pop(move.from_square)
    for c in move.captures:
        out.pop(c, None)
    if move.to_square is not None:
        out[move.to_square] = move.promotion.upper() if move.promotion and piece.isupper() else (
            move.promotion.lower() if move.promotion else piece)
    return out


def _goals(name: str, color: int) -> tuple[int, ...]:
    g = variants.get(name).geometry
    return tuple(g.square(s) for s in (("d0", "e0") if color == WHITE else ("d10", "e10")))


def winning_replies(p: Position, attacker: int) -> list:
    """Moves of ``attacker`` that take the other side's King or (Maxima M12)
    complete the attacker's invasion without filling its own palace."""
    name = p.variant if isinstance(p.variant, str) else p.variant.name
    board = board_map(p)
    king = _king(board, -attacker)
    out = []
    for m in p.pseudo_moves(attacker):
        if king is not None and king in m.captures:
            out.append(m)
        elif name == "maxima" and m.kind != "swap":
            after = _after(board, m)
            holds = lambda sqs, c: all(s in after and _color(after[s]) == c for s in sqs)  # noqa: E731
            if holds(_goals(name, -attacker), attacker) and not holds(_goals(name, attacker), attacker):
                out.append(m)
    return out


def _name(p: Position) -> str:
    return p.variant if isinstance(p.variant, str) else p.variant.name


def check_position(p: Position, rng: random.Random, *, full: bool) -> None:
    name = _name(p)
    fen = p.fen()
    # FEN round trip (M14, U13, D3).
    assert Position(fen, variant=name).fen() == fen
    # check = brute force (M12, U11, D5)
    assert p.is_check() == bool(winning_replies(p, -p.turn)), (name, fen)
    if not full:
        return
    moves = p.legal_moves
    texts = [str(m) for m in moves]
    assert texts == sorted(texts), fen
    reps = p.repetitions()
    before = board_map(p)
    occupancy = p.occupancy()
    assert occupancy == sum(1 << s for s in before)
    for m in rng.sample(moves, min(len(moves), 12)):
        sig = p.signature(m)
        predicted = p.occupancy_after(m)
        mover = p.turn
        p.push(m)
        after = board_map(p)
        assert predicted == p.occupancy(), (fen, str(m))
        vacated = frozenset(s for s in before if s not in after)
        filled = frozenset(s for s in after if s not in before)
        replaced = frozenset(s for s in before if s in after and before[s] != after[s])
        assert (sig.vacated, sig.filled, sig.replaced) == (vacated, filled, replaced), (name, fen, str(m))
        assert sig.choice == (m.promotion is not None), (fen, str(m))
        # The move left the mover's King safe (M12's invasion exception aside).
        if name != "maxima":
            assert not winning_replies(p, p.turn), (name, fen, str(m))
        p.pop()
        assert p.fen() == fen and board_map(p) == before, (fen, str(m))
    assert [str(m) for m in p.legal_moves] == texts
    assert p.repetitions() == reps
    # A line of a few moves, taken back in order.
    line = []
    for _ in range(4):
        options = p.legal_moves
        if not options:
            break
        line.append((p.fen(), [str(m) for m in options], p.repetitions()))
        p.push(rng.choice(options))
    while line:
        p.pop()
        assert (p.fen(), [str(m) for m in p.legal_moves], p.repetitions()) == line.pop()
    assert p.fen() == fen


def run_sweep(name: str, seed: int, *, games: int, plies: int, placements: int, full_every: int) -> int:
    rng = random.Random(f"{name}:{seed}")
    positions = played_positions(name, rng, games, plies) + placed_positions(name, rng, placements)
    assert positions
    for i, p in enumerate(positions):
        check_position(p, rng, full=(i % full_every == 0))
    return len(positions)


@pytest.mark.parametrize("name", ALL_IDS)
def test_check_fen_push_pop_and_signature_on_random_positions(name):
    n = run_sweep(name, 1, games=2, plies=40, placements=80, full_every=4)
    assert n >= 100


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_IDS)
def test_check_fen_push_pop_and_signature_on_many_random_positions(name):
    for seed in range(2, 5):
        run_sweep(name, seed, games=4, plies=80, placements=300, full_every=2)


def test_every_game_is_listed():
    """Optima's properties are tested in test_optima_properties.py."""
    assert tuple(variants.names()) == ALL_IDS + ("optima", "optima-9x9")
