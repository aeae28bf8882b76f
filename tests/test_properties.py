"""Property tests (hypothesis) over random valid positions.

Positions come from random games from the start and from random placements
dense in Leapers, Chameleons, Mages, Pawns, Coordinators and Immobilizers,
with goal squares occupied often, so that every capture method and the
palace-invasion path of the fast check detection are exercised.

Besides the engine's own brute force (``winning_reply_moves``), the moves are
compared with ``Reference`` below: a deliberately naive generator written
directly from maxima.md in (file, rank) coordinates, sharing no code or
tables with the engine.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from maxima_board.rules import BLACK, WHITE, FenError, Position
from tests.conftest import GEOMETRY, fen_of

GOALS = ["d0", "e0", "d10", "e10"]
DENSE = "nnnbbbgggppppprrrmmmqd"   # few Withdrawers and Guards, many of the rest
LETTERS = list(DENSE) + list(DENSE.upper())
# Per square: a piece letter or "." (empty); four densities from sparse to
# packed. Goal squares are drawn separately, half of the time occupied.
CELL_CHOICES = [tuple(LETTERS + ["."] * empties) for empties in (280, 100, 40, 10)]
GOAL_CHOICES = tuple(LETTERS + ["."] * len(LETTERS))
SQUARES = GEOMETRY.names
GOAL_INDEX = [GEOMETRY.square(g) for g in GOALS]

FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                      HealthCheck.data_too_large])


@st.composite
def placements(draw):
    """{square: letter}: one King a side and any other pieces. Hypothesis
    draws a seed and a density; ``random`` fills the 76 squares (drawing
    each square through hypothesis costs ten times more)."""
    rng = random.Random(draw(st.integers(0, 2 ** 64 - 1)))
    choices = draw(st.sampled_from(CELL_CHOICES))
    cells = [rng.choice(choices) for _ in SQUARES]
    for i in GOAL_INDEX:
        cells[i] = rng.choice(GOAL_CHOICES)
    white_king, black_king = rng.sample(range(len(SQUARES)), 2)
    cells[white_king], cells[black_king] = "K", "k"
    return {SQUARES[i]: letter for i, letter in enumerate(cells) if letter != "."}


@st.composite
def placed_positions(draw):
    """A random placement that M15 accepts (with either side to move)."""
    pieces = draw(placements())
    turn = draw(st.sampled_from("wb"))
    for side in (turn, "b" if turn == "w" else "w"):
        try:
            return Position(fen_of(pieces, side, draw(st.integers(0, 300))))
        except FenError:
            pass
    assume(False)


@st.composite
def raw_positions(draw):
    """A placement with one King a side and no side holding its own palace:
    the positions ``legal_moves`` looks at after each pseudo-move, including
    impossible ones (either side may be in check)."""
    pieces = draw(placements())
    for own, goals in (("upper", ("d0", "e0")), ("lower", ("d10", "e10"))):
        letters = [pieces.get(g, "") for g in goals]
        if all(letter and getattr(letter, "is" + own)() for letter in letters):
            victim = goals[0] if letters[0] not in "Kk" else goals[1]
            del pieces[victim]
    return Position(fen_of(pieces, draw(st.sampled_from("wb"))), validate=False)


@st.composite
def game_positions(draw, max_plies=60):
    """The position after random legal moves from the start."""
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    p = Position()
    for _ in range(draw(st.integers(0, max_plies))):
        moves = p.legal_moves
        if not moves:
            break
        p.push(rng.choice(moves))
    return p


positions = st.one_of(placed_positions(), game_positions())


def winning_reply_exists(rules, board, attacker, kings) -> bool:
    return bool(rules.winning_reply_moves(board, attacker, kings))


# ------------------------------------------------------------- M14 FEN


@settings(FAST, max_examples=150)
@given(positions)
def test_M14_fen_round_trips_exactly(p):
    fen = p.fen()
    q = Position(fen)
    assert q.fen() == fen
    assert q.board == p.board and q.turn == p.turn and q.ply == p.ply


# Look-alike digits ('²', Arabic-Indic '٣') weighted up: str.isdigit() accepts them.
EDIT_ALPHABET = "0123456789xX/ kKpPqQnNbBrRgGdDmMzw-\t" + "\u00b2\u0663" * 6


@settings(FAST, max_examples=400)
@given(placements(), st.sampled_from("wb"), st.integers(0, 10 ** 6),
       st.lists(st.tuples(st.integers(0, 200), st.integers(0, 2), st.sampled_from(EDIT_ALPHABET)),
                min_size=1, max_size=3))
def test_M14_any_text_is_either_rejected_or_round_trips_exactly(pieces, turn, ply, edits):
    """Random edits of a valid FEN: Position reads it exactly as written or
    raises FenError (M15: "rejected, with an error that says why"), never
    anything else."""
    text = fen_of(pieces, turn, ply)
    for where, kind, char in edits:
        where %= len(text) + 1
        if kind == 0:
            text = text[:where] + char + text[where:]          # insert
        elif kind == 1:
            text = text[:where] + char + text[where + 1:]      # replace
        else:
            text = text[:where] + text[where + 1:]             # delete
    try:
        q = Position(text, validate=False)
    except FenError as exc:
        assert str(exc)
        return
    if " ".join(text.split()) == text:                        # single spaces between fields
        assert q.fen() == text
    else:
        assert q.fen() == " ".join(text.split())


# ------------------------------------------------------ push, pop, occupancy


@settings(FAST, max_examples=50)
@given(positions, st.randoms(use_true_random=False))
def test_push_pop_restores_fen_legal_moves_and_repetitions(p, rnd):
    fen, board, kings, turn = p.fen(), list(p.board), list(p.kings), p.turn
    moves = p.legal_moves
    reps, check = p.repetitions(), p.is_check()
    for move in moves:
        p.push(move)
        p.pop()
        assert p.fen() == fen and p.board == board and p.kings == kings and p.turn == turn
        assert p.repetitions() == reps
    sample = rnd.sample(moves, min(3, len(moves)))
    for move in sample:
        p.push(move)
        first = p.repetitions()
        assert first >= 1
        p.pop()
        p.push(move)
        assert p.repetitions() == first     # pop took back the count of that position
        p.pop()
    fresh = sorted(str(p._move(m)) for m in p._rules.legal_moves(p.board, p.turn, p.kings))
    assert fresh == [str(m) for m in moves] == [str(m) for m in p.legal_moves]
    assert p.is_check() == check
    # A line of several moves, taken back in order.
    line = []
    for _ in range(6):
        options = p.legal_moves
        if not options:
            break
        line.append((p.fen(), p.repetitions()))
        p.push(rnd.choice(options))
    while line:
        p.pop()
        assert (p.fen(), p.repetitions()) == line.pop()
    assert p.fen() == fen and Position(fen).legal_moves == moves


@settings(FAST, max_examples=60)
@given(positions)
def test_occupancy_after_equals_occupancy_after_push(p):
    for move in p.legal_moves:
        predicted = p.occupancy_after(move)
        p.push(move)
        assert predicted == p.occupancy()
        assert predicted == sum(1 << s for s, v in enumerate(p.board) if v)
        p.pop()


# ------------------------------------------- M12 check detection = brute force


@settings(FAST, max_examples=2000)
@given(raw_positions())
def test_M12_check_detection_equals_brute_force_on_random_placements(p):
    rules = p._rules
    for attacker in (WHITE, BLACK):
        assert rules.attacks(p.board, attacker, p.kings) == \
            winning_reply_exists(rules, p.board, attacker, p.kings), (p.fen(), attacker)


@settings(FAST, max_examples=200)
@given(positions)
def test_M12_check_detection_equals_brute_force_on_valid_positions(p):
    rules = p._rules
    for attacker in (WHITE, BLACK):
        assert rules.attacks(p.board, attacker, p.kings) == \
            winning_reply_exists(rules, p.board, attacker, p.kings), (p.fen(), attacker)
    assert p.is_check() == bool(p.check_info())


@settings(FAST, max_examples=100)
@given(positions)
def test_M12_legal_moves_equal_pseudo_moves_filtered_by_brute_force(p):
    """M11 + M12 spelled out with the brute-force winning replies; also
    checks the fast detection on every position reached by a pseudo-move."""
    rules, b, kings, c = p._rules, p.board, p.kings, p.turn
    own, enemy = rules.goals[c], rules.goals[-c]
    expected = set()
    for m in rules.pseudo_moves(b, c, kings):
        undo = rules.make(b, kings, m)
        replies = winning_reply_exists(rules, b, -c, kings)
        assert rules.attacks(b, -c, kings) == replies, (p.fen(), str(p._move(m)))
        fills_own = all(b[g] * c > 0 for g in own)
        invades = all(b[g] * c > 0 for g in enemy)
        if not fills_own and (invades or not replies):
            expected.add(str(p._move(m)))
        rules.unmake(b, kings, m, undo)
    assert sorted(expected) == [str(m) for m in p.legal_moves]
    assert rules.count_legal(b, c, kings) == len(expected) == p.perft(1)


@settings(FAST, max_examples=30)
@given(game_positions(max_plies=80))
def test_M12_in_a_game_no_king_is_captured_and_no_palace_invaded(p):
    for color in (WHITE, BLACK):
        assert p.kings[color] >= 0
        assert not p._rules.palace_held(p.board, color, -color)
    assert Position(p.fen()).fen() == p.fen()      # every reached position is valid (M15)


# ------------------------------------------------ independent reference


class Reference:
    """Maxima rules M1-M12 written from maxima.md, naively, on a dict
    {(file, rank): (colour, letter)}. Returns moves as canonical strings."""

    VEC = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]
    ORTH = VEC[:4]
    KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
    GOALS = {1: ((3, 0), (4, 0)), -1: ((3, 10), (4, 10))}

    def __init__(self, position: Position):
        self.start = {}
        for s, piece in position.pieces():
            name = GEOMETRY.names[s]
            self.start["abcdefgh".index(name[0]), int(name[1:])] = (piece.color, piece.letter.lower())

    @staticmethod
    def exists(f, r):
        return 0 <= f < 8 and (1 <= r <= 9 or (r in (0, 10) and f in (3, 4)))

    def step(self, sq, v):
        t = (sq[0] + v[0], sq[1] + v[1])
        return t if self.exists(*t) else None

    def ray(self, sq, v):
        t = self.step(sq, v)
        while t:
            yield t
            t = self.step(t, v)

    def adjacent(self, sq):
        return [t for t in (self.step(sq, v) for v in self.VEC) if t]

    def frozen(self, B, sq):
        c, k = B[sq]
        if k == "g":
            return False
        return any(n in B and B[n][0] == -c and (B[n][1] == "m" or (k == "m" and B[n][1] == "b"))
                   for n in self.adjacent(sq))

    @staticmethod
    def king(B, c):
        return next((sq for sq, (cc, k) in B.items() if cc == c and k == "k"), None)

    def coordinated(self, B, c, t, victims):
        k = self.king(B, c)
        if k is None or k[0] == t[0] or k[1] == t[1]:
            return set()
        return {x for x in ((t[0], k[1]), (k[0], t[1]))
                if x in B and B[x][0] == -c and B[x][1] in victims}

    def pincered(self, B, c, t, victims):
        out = set()
        for v in self.ORTH:
            a = self.step(t, v)
            if a in B and B[a][0] == -c and B[a][1] in victims:
                beyond = self.step(a, v)
                if beyond in B and B[beyond][0] == c:
                    out.add(a)
        return out

    def pseudo(self, B, c):
        out = set()
        for s, (cc, k) in list(B.items()):
            if cc != c:
                continue
            if self.frozen(B, s):
                if k != "k":
                    out.add((s, None, frozenset()))
                continue
            empty = lambda t: t not in B                       # noqa: E731
            enemy = lambda t: t in B and B[t][0] == -c         # noqa: E731

            def after(t, removed=()):
                B2 = {x: v for x, v in B.items() if x != s and x not in removed}
                B2[t] = B[s]
                return B2

            if k in "kd":
                if k == "k":
                    dests = [((s[0] + df) % 8, s[1] + dr) for df, dr in self.KNIGHT]
                    dests = [t for t in dests if self.exists(*t)]
                else:
                    dests = self.adjacent(s)
                for t in dests:
                    if empty(t) or enemy(t):
                        out.add((s, t, frozenset([t] if enemy(t) else [])))
            elif k == "g":
                for v in self.VEC[4:]:
                    x = self.step(s, v)
                    if x is None or not (empty(x) or enemy(x)):
                        continue
                    out.add((s, x, frozenset([x] if enemy(x) else [])))
                    if enemy(x):
                        continue
                    for o in ((v[0], 0), (0, v[1])):
                        for t in self.ray(x, o):
                            if empty(t) or enemy(t):
                                out.add((s, t, frozenset([t] if enemy(t) else [])))
                            if not empty(t):
                                break
            elif k in "pqrm":
                for v in (self.ORTH if k == "p" else self.VEC):
                    for t in self.ray(s, v):
                        if not empty(t):
                            break
                        caps = set()
                        if k == "p":
                            caps = self.pincered(after(t), c, t, "kgdqrnbmp")
                        elif k == "q":
                            back = self.step(s, (-v[0], -v[1]))
                            if back and enemy(back):
                                caps = {back}
                        elif k == "r":
                            caps = self.coordinated(after(t), c, t, "kgdqrnbmp")
                        out.add((s, t, frozenset(caps)))
            else:  # Long Leaper, Chameleon
                if k == "b":
                    for t in self.adjacent(s):
                        if enemy(t) and B[t][1] in "kdg":
                            out.add((s, t, frozenset([t])))
                for v in self.VEC:
                    line = list(self.ray(s, v))
                    jumped = []
                    for i, t in enumerate(line):
                        if empty(t):
                            caps = set(jumped)
                            if k == "b":
                                B2 = after(t, jumped)
                                back = self.step(s, (-v[0], -v[1]))
                                if back and enemy(back) and B[back][1] == "q":
                                    caps.add(back)
                                caps |= self.coordinated(B2, c, t, "r")
                                if v in self.ORTH:
                                    caps |= self.pincered(B2, c, t, "p")
                            out.add((s, t, frozenset(caps)))
                        elif enemy(t) and (k == "n" or B[t][1] == "n") and i + 1 < len(line) \
                                and empty(line[i + 1]):
                            jumped.append(t)
                        else:
                            break
        return out

    @staticmethod
    def play(B, m):
        s, t, caps = m
        B2 = {x: v for x, v in B.items() if x not in caps and x != s}
        if t is not None:
            B2[t] = B[s]
        return B2

    def holds(self, B, owner, holder):
        return all(g in B and B[g][0] == holder for g in self.GOALS[owner])

    def winning_replies(self, B, o):
        k = self.king(B, -o)
        out = []
        for m in self.pseudo(B, o):
            if k is not None and k in m[2]:
                out.append(m)
            elif not self.holds(self.play(B, m), o, o) and self.holds(self.play(B, m), -o, o):
                out.append(m)
        return out

    def legal(self, B, c):
        out = set()
        for m in self.pseudo(B, c):
            B2 = self.play(B, m)
            if self.holds(B2, c, c):
                continue
            if self.holds(B2, -c, c) or not self.winning_replies(B2, -c):
                out.add(m)
        return out

    @staticmethod
    def text(m):
        def name(sq):
            return f"{'abcdefgh'[sq[0]]}{sq[1]}"
        s, t, caps = m
        if t is None:
            return f"{name(s)}-S"
        caps = ",".join(name(x) for x in sorted(caps, key=lambda q: (q[1], q[0])))
        return f"{name(s)}-{name(t)}" + (f"x{caps}" if caps else "")


@settings(FAST, max_examples=50)
@given(positions)
def test_engine_agrees_with_an_independent_reference(p):
    ref = Reference(p)
    for color in (WHITE, BLACK):
        engine_pseudo = sorted(str(p._move(m)) for m in p._rules.pseudo_moves(p.board, color, p.kings))
        assert engine_pseudo == sorted(ref.text(m) for m in ref.pseudo(ref.start, color)), color
    assert [str(m) for m in p.legal_moves] == sorted(ref.text(m) for m in ref.legal(ref.start, p.turn))
    assert p.is_check() == bool(ref.winning_replies(ref.start, -p.turn))
    frozen = sorted(GEOMETRY.square(f"{'abcdefgh'[f]}{r}") for (f, r) in ref.start if ref.frozen(ref.start, (f, r)))
    assert p.immobilized() == frozen
