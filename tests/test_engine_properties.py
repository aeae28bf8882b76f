"""Framework properties for every game (issue 8): check detection equals brute
force, FEN round-trips, push/pop restores everything, and each move's physical
signature is the real difference between the boards before and after.

Positions come from seeded random games from each start and from random
placements (any piece of the game on any square it may stand on), so every
piece meets every other in many geometries.
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import FenError, Position, variants

# Optima (no check, placement phase, its own units) has test_optima_properties.py.
GAMES = [v.name for v in variants.all_variants() if v.family != "optima"]


def random_game(variant: str, rng: random.Random, plies: int) -> Position:
    p = Position("start", variant)
    for _ in range(plies):
        moves = p.legal_moves
        if not moves:
            break
        captures = [m for m in moves if m.captures]
        p.push(rng.choice(captures if captures and rng.random() < 0.4 else moves))
    return p


def random_placement(variant: str, rng: random.Random) -> Position | None:
    """A random position with one King a side, or None when its FEN is invalid
    (e.g. the side not to move in check)."""
    v = variants.get(variant)
    g = v.geometry
    letters = [t.letter for t in v.types if not t.royal]
    board: dict[int, str] = {}
    squares = list(range(g.size))
    rng.shuffle(squares)
    king = next(t.letter for t in v.types if t.royal)
    board[squares[0]] = king.upper()
    board[squares[1]] = king
    first, last = g.ranks[0], g.ranks[-1]
    for sq in squares[2:2 + rng.randint(2, 14)]:
        letter = rng.choice(letters)
        if v.family == "deckle" and letter == "p" and g.rank_of[sq] in (first, last):
            continue
        board[sq] = letter.upper() if rng.random() < 0.5 else letter
    if v.family == "maxima":
        for goals in (v.white_goals, v.black_goals):
            if all(board.get(x, " ").isupper() for x in goals) or all(board.get(x, " ").islower() for x in goals):
                board.pop(goals[0] if board[goals[0]] not in "Kk" else goals[1])
    rows = []
    for rank in reversed(g.ranks):
        row, run = "", 0
        for f in range(g.files):
            sq = g.at(f, rank)
            if sq < 0:
                row += (str(run) if run else "") + "x"
                run = 0
            elif sq in board:
                row += (str(run) if run else "") + board[sq]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    turn = rng.choice("wb")
    fen = "/".join(rows) + f" {turn} " + ("0" if v.family != "deckle" else "- - 0 1")
    if v.swap_ban:
        fen += " -"
    try:
        return Position(fen, variant)
    except FenError:
        return None


def king_captured_by_brute_force(p: Position, attacker: int) -> bool:
    """Whether a pseudo-move of ``attacker`` removes the other side's King, or
    (Maxima, M12) completes the invasion of the other side's palace."""
    king = p.kings[-attacker]
    v = p.variant
    for m in p.pseudo_moves(attacker):
        if king in m.captures:
            return True
        if v.check == "palace" and m.to_square is not None:
            def holds(goals):
                return all(sq == m.to_square or (sq != m.from_square and sq not in m.captures
                                                 and p.board[sq] * attacker > 0) for sq in goals)
            if holds(v.goals(-attacker)) and not holds(v.goals(attacker)):
                return True
    return False


def positions(variant: str, seed: int, n_games: int, n_placed: int):
    rng = random.Random(seed)
    for _ in range(n_games):
        yield random_game(variant, rng, rng.randint(0, 50))
    made = 0
    while made < n_placed:
        p = random_placement(variant, rng)
        if p is not None:
            made += 1
            yield p


@pytest.mark.parametrize("variant", GAMES)
def test_U11_D5_M12_check_equals_brute_force_on_random_positions(variant):
    """is_check() agrees with generating every reply, and so does the
    look-back test after each pseudo-move (the positions legality looks at)."""
    checked = 0
    for p in positions(variant, 8, 12, 600):
        assert p.is_check() == king_captured_by_brute_force(p, -p.turn), p.fen()
        rules = p._rules
        for m in p._rules.pseudo_moves(p.board, p.turn, p.kings)[:12]:
            undo = rules.make(p.board, p.kings, m)
            if p.kings[p.turn] >= 0:
                fast = rules.attacks(p.board, -p.turn, p.kings)
                slow = bool(rules.winning_reply_moves(p.board, -p.turn, p.kings))
                assert fast == slow, (p.fen(), str(p._move(m)))
                checked += 1
            rules.unmake(p.board, p.kings, m, undo)
    assert checked > 1000


@pytest.mark.parametrize("variant", GAMES)
def test_M14_U13_D3_fen_round_trips_on_random_positions(variant):
    for p in positions(variant, 9, 15, 100):
        fen = p.fen()
        q = Position(fen, variant)
        assert q.fen() == fen
        assert q.board == p.board and q.turn == p.turn and q.state == p.state


@pytest.mark.parametrize("variant", GAMES)
def test_push_pop_restores_everything(variant):
    rng = random.Random(10)
    for _ in range(4):
        p = Position("start", variant)
        trail = []
        for _ in range(60):
            moves = p.legal_moves
            if not moves:
                break
            trail.append((p.fen(), list(p.board), list(p.kings), p.state, p.halfmove, p.repetitions(),
                          [str(m) for m in moves], p.is_check()))
            p.push(rng.choice(moves))
        while p.move_stack:
            p.pop()
            fen, board, kings, state, half, reps, moves, check = trail.pop()
            assert (p.fen(), p.board, p.kings, p.state, p.halfmove, p.repetitions()) == \
                (fen, board, kings, state, half, reps)
            assert [str(m) for m in p.legal_moves] == moves and p.is_check() == check


def expected_signature(p: Position, m):
    """The signature read from the move's description alone (controller.md)."""
    vacated, filled, replaced = {m.from_square}, set(), set()
    if m.kind == "swap":
        return set(), set(), {m.from_square, m.to_square}
    if m.kind == "castle":
        g = p.geometry
        rank = g.rank_of[m.from_square]
        rook_from, rook_to = (g.at(9, rank), g.at(7, rank)) if g.file_of[m.to_square] == 8 else \
            (g.at(0, rank), g.at(3, rank))
        return {m.from_square, rook_from}, {m.to_square, rook_to}, set()
    vacated |= set(m.captures)
    if m.to_square is not None:
        if m.to_square in m.captures:
            vacated.discard(m.to_square)
            replaced.add(m.to_square)
        else:
            filled.add(m.to_square)
    return vacated, filled, replaced


@pytest.mark.parametrize("variant", GAMES)
def test_signature_is_the_real_board_difference(variant):
    seen_kinds = set()
    for p in positions(variant, 11, 10, 150):
        for m in p.legal_moves:
            sig = p.signature(m)
            assert (set(sig.vacated), set(sig.filled), set(sig.replaced)) == expected_signature(p, m), str(m)
            assert sig.choice == (m.promotion is not None)
            seen_kinds.add(m.kind)
        for m in p.legal_moves[:8]:
            before = {sq: p.piece_at(sq) for sq in range(p.geometry.size)}
            sig = p.signature(m)
            p.push(m)
            after = {sq: p.piece_at(sq) for sq in range(p.geometry.size)}
            p.pop()
            assert sig.vacated == {s for s in before if before[s] and not after[s]}
            assert sig.filled == {s for s in before if after[s] and not before[s]}
            assert sig.replaced == {s for s in before if before[s] and after[s] and before[s] != after[s]}
            assert p.occupancy_after(m) == sum(1 << s for s in after if after[s])
    assert {"move", "replacement"} <= seen_kinds


def test_signature_of_castling_en_passant_swap_and_promotion():
    """The controller's cases 11-14 (controller.md)."""
    p = Position("5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1", "immobilizer-chess")
    sig = p.signature(p.parse_move("f1-i1"))
    names = p.geometry.names
    assert sorted(names[s] for s in sig.vacated) == ["f1", "j1"]
    assert sorted(names[s] for s in sig.filled) == ["h1", "i1"] and not sig.replaced and not sig.choice
    p = Position("5k4/10/10/10/10/4Pp4/3p6/10/10/5K4 b - e3,e4 0 1", "long-leaper-chess")
    sig = p.signature(p.parse_move("d4-e3xe5"))
    assert sorted(names[s] for s in sig.vacated) == ["d4", "e5"] and [names[s] for s in sig.filled] == ["e3"]
    p = Position("k9/10/10/10/1ppp6/1pS4s2/1ppp6/10/10/9K w - - 0 1 -", "swapper-chess")
    sig = p.signature(p.parse_move("c5<>h5"))
    assert sorted(names[s] for s in sig.replaced) == ["c5", "h5"] and not sig.vacated and not sig.filled
    p = Position("3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1", "withdrawer-chess")
    sig = p.signature(p.parse_move("c9-d10xd10=W"))
    assert [names[s] for s in sig.replaced] == ["d10"] and [names[s] for s in sig.vacated] == ["c9"] and sig.choice
    sig = p.signature(p.parse_move("c9-c10=Q"))
    assert [names[s] for s in sig.filled] == ["c10"] and sig.choice


def test_D16_third_repetition_draws_in_deckle_but_only_counts_in_ultima_M13_U12():
    p = Position("start", "coordinator-chess")
    for _ in range(2):
        for move in ("b1-c3", "b10-c8", "c3-b1", "c8-b10"):
            assert p.outcome() is None
            p.push(move)
    assert p.repetitions() == 3
    assert p.outcome().reason == "repetition" and p.outcome().result == "1/2-1/2"
    q = Position("start", "ultima")
    for _ in range(2):
        for move in ("a2-a3", "a7-a6", "a3-a2", "a6-a7"):
            q.push(move)
    assert q.repetitions() == 3 and q.outcome() is None


@pytest.mark.parametrize("variant", GAMES)
def test_legality_shortcut_equals_the_full_test(variant):
    """The per-position shortcut (moves that touch none of the squares the
    opponent's attacks depend on skip the check test) keeps exactly the
    moves that testing every move keeps (issue 8, speed)."""
    skipped = 0
    for p in positions(variant, 13, 25, 500):
        rules = p._rules
        fast = rules.legal_moves(p.board, p.turn, p.kings, p.state)
        full = rules.legal_moves(p.board, p.turn, p.kings, p.state, shortcut=False)
        assert fast == full, p.fen()
        z = rules.relevant_squares(p.board, p.turn, p.kings)
        if z is not None:
            skipped += sum(1 for m in fast if m[0] not in z)
    assert skipped > 0


FEN_ALPHABET = "0123456789xX/ kKpPqQnNbBrRcCiIwWlLaAuUsSmMhH-,<>w\u00b2"


@pytest.mark.parametrize("variant", GAMES)
def test_M15_U14_D18_any_text_is_either_rejected_or_round_trips(variant):
    """Random edits of real FENs: Position reads the text exactly as written
    or raises FenError naming the fault, never anything else."""
    rng = random.Random(14)
    base = [p.fen() for p in positions(variant, 14, 6, 0)]
    for _ in range(300):
        text = rng.choice(base)
        for _ in range(rng.randint(1, 3)):
            at, kind, ch = rng.randint(0, len(text)), rng.randint(0, 2), rng.choice(FEN_ALPHABET)
            text = (text[:at] + ch + text[at:], text[:at] + ch + text[at + 1:], text[:at] + text[at + 1:])[kind]
        try:
            q = Position(text, variant, validate=rng.random() < 0.5)
        except FenError as exc:
            assert str(exc)
            continue
        assert q.fen() == " ".join(text.split())
