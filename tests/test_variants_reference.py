"""An independent, deliberately naive move generator for Ultima (both rule
sets, ultima.md U1-U15) and Deckle's games (deckle.md D1-D18), written from
the rules files in (file, rank) coordinates. It shares no code or tables with
the engine; it reads FENs itself. The tests compare legal moves and check
with the engine on random positions of every game (playouts from the start,
which reach castling, en passant, promotion and swap bans, and random dense
placements).
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import Position
from tests.test_variants_properties import placed_positions, played_positions

FILES = "abcdefghij"
DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]
ORTH = DIRS[:4]
DIAG = DIRS[4:]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def name(sq) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def parse_square(text: str):
    return FILES.index(text[0]), int(text[1:])


def text(m) -> str:
    """Canonical string of a reference move (kind, s, t, caps, extra)."""
    kind, s, t, caps, extra = m
    if kind == "swap":
        return f"{name(s)}<>{name(t)}"
    if kind == "suicide":
        return f"{name(s)}-S"
    if kind == "destruction":
        return f"{name(s)}-Sx{name(caps[0])}"
    out = f"{name(s)}-{name(t)}"
    if caps:
        out += "x" + ",".join(name(c) for c in sorted(caps, key=lambda q: (q[1], q[0])))
    if extra:
        out += "=" + extra
    return out


class Board:
    """Pieces {(file, rank): (colour, letter)}; colour +1 White, -1 Black."""

    def __init__(self, files: int, ranks: int, pieces: dict):
        self.files, self.ranks, self.pieces = files, ranks, pieces

    def on(self, sq) -> bool:
        return 0 <= sq[0] < self.files and 1 <= sq[1] <= self.ranks

    def step(self, sq, v):
        t = (sq[0] + v[0], sq[1] + v[1])
        return t if self.on(t) else None

    def ray(self, sq, v):
        t = self.step(sq, v)
        while t:
            yield t
            t = self.step(t, v)

    def adjacent(self, sq):
        return [t for t in (self.step(sq, v) for v in DIRS) if t]

    def king(self, c):
        return next((sq for sq, (cc, k) in self.pieces.items() if cc == c and k == "k"), None)


def read_rows(field: str, files: int):
    pieces, rows = {}, field.split("/")
    ranks = len(rows)
    for i, row in enumerate(rows):
        rank, f, num = ranks - i, 0, ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch != " ":
                pieces[f, rank] = (1 if ch.isupper() else -1, ch.lower())
                f += 1
    return Board(files, ranks, pieces)


def after(board: Board, s, t, caps, letter=None) -> Board:
    P = {q: v for q, v in board.pieces.items() if q != s and q not in caps}
    if t is not None:
        P[t] = (board.pieces[s][0], letter or board.pieces[s][1])
    return Board(board.files, board.ranks, P)


# ================================================================== Ultima


class Ultima:
    def __init__(self, pure: bool):
        self.pure = pure

    def frozen(self, B: Board, sq) -> bool:
        c, k = B.pieces[sq]
        enemies = [(n, B.pieces[n][1]) for n in B.adjacent(sq) if n in B.pieces and B.pieces[n][0] == -c]
        if k == "i" and any(e == "h" for _, e in enemies):
            return True
        for e_sq, e in enemies:
            if e != "i":
                continue
            if not self.pure:
                return True
            helpers = [n for n in B.adjacent(e_sq) if n != sq and n in B.pieces
                       and B.pieces[n][0] == c and B.pieces[n][1] in "hi"]
            if not helpers:
                return True
        return False

    @staticmethod
    def pincer(B2: Board, c, t, victims):
        out = set()
        for v in ORTH:
            a = B2.step(t, v)
            if a in B2.pieces and B2.pieces[a][0] == -c and B2.pieces[a][1] in victims:
                b = B2.step(a, v)
                if b in B2.pieces and B2.pieces[b][0] == c:
                    out.add(a)
        return out

    @staticmethod
    def coordinate(B2: Board, c, t, victims):
        k = B2.king(c)
        if k is None or k[0] == t[0] or k[1] == t[1]:
            return set()
        return {q for q in ((t[0], k[1]), (k[0], t[1]))
                if q in B2.pieces and B2.pieces[q][0] == -c and B2.pieces[q][1] in victims}

    def pseudo(self, B: Board, c):
        out = []
        ALL = "kpwclhi"
        for s, (cc, k) in list(B.pieces.items()):
            if cc != c:
                continue
            if self.frozen(B, s):
                if not self.pure and k != "k":
                    out.append(("suicide", s, None, (), None))
                continue
            empty = lambda q: q not in B.pieces                              # noqa: E731
            enemy = lambda q: q in B.pieces and B.pieces[q][0] == -c          # noqa: E731
            if k == "k":
                for t in B.adjacent(s):
                    if empty(t):
                        out.append(("move", s, t, (), None))
                    elif enemy(t):
                        out.append(("move", s, t, (t,), None))
                continue
            if k == "h":
                for t in B.adjacent(s):
                    if enemy(t) and B.pieces[t][1] == "k":
                        out.append(("move", s, t, (t,), None))
            for v in (ORTH if k == "p" else DIRS):
                jumped = []
                line = list(B.ray(s, v))
                for i, t in enumerate(line):
                    if empty(t):
                        caps = set()
                        B2 = after(B, s, t, jumped)
                        back = B.step(s, (-v[0], -v[1]))
                        if k == "p":
                            caps = self.pincer(B2, c, t, ALL)
                        elif k == "w":
                            if back and enemy(back):
                                caps = {back}
                        elif k == "c":
                            caps = self.coordinate(B2, c, t, ALL)
                        elif k == "l":
                            caps = set(jumped)
                        elif k == "h":
                            caps = set(jumped)
                            if not (self.pure and jumped):
                                if back and enemy(back) and B.pieces[back][1] == "w":
                                    caps.add(back)
                                if v in ORTH:
                                    caps |= self.pincer(B2, c, t, "p")
                                caps |= self.coordinate(B2, c, t, "c")
                        out.append(("move", s, t, tuple(caps), None))
                    elif (k == "l" or (k == "h" and B.pieces[t][1] == "l")) and enemy(t) \
                            and i + 1 < len(line) and empty(line[i + 1]):
                        jumped.append(t)
                    else:
                        break
        return out

    def in_check(self, B: Board, c) -> bool:
        k = B.king(c)
        return any(k in m[3] for m in self.pseudo(B, -c))

    def legal(self, B: Board, c):
        return [m for m in self.pseudo(B, c) if not self.in_check(after(B, m[1], m[2], m[3]), c)]

    def read(self, fen: str):
        rows, side, _ = fen.split(" ")
        return read_rows(rows, 8), (1 if side == "w" else -1)

    def report(self, fen: str):
        B, c = self.read(fen)
        return sorted(text(m) for m in self.legal(B, c)), self.in_check(B, c)


# ================================================================== Deckle


class Deckle:
    def __init__(self, x: str):
        self.x = x

    @staticmethod
    def frozen(B: Board, sq) -> bool:
        c = B.pieces[sq][0]
        return any(n in B.pieces and B.pieces[n] == (-c, "i") for n in B.adjacent(sq))

    def captures(self, B: Board, c):
        """Moves of side c by D2-D15 except castling, en passant and swaps
        (D5's attack); promotions collapsed to one; includes quiet moves."""
        out = []
        last = B.ranks
        for s, (cc, k) in list(B.pieces.items()):
            if cc != c:
                continue
            if self.frozen(B, s):
                if k != "k":
                    out.append(("suicide", s, None, (), None))
                continue
            empty = lambda q: q not in B.pieces                              # noqa: E731
            enemy = lambda q: q in B.pieces and B.pieces[q][0] == -c          # noqa: E731
            if k in "kn":
                targets = B.adjacent(s) if k == "k" else \
                    [t for t in (B.step(s, v) for v in KNIGHT) if t]
                for t in targets:
                    if empty(t) or enemy(t):
                        out.append(("move", s, t, (t,) if enemy(t) else (), None))
            elif k in "qrb":
                for v in {"q": DIRS, "r": ORTH, "b": DIAG}[k]:
                    for t in B.ray(s, v):
                        if empty(t):
                            out.append(("move", s, t, (), None))
                            continue
                        if enemy(t):
                            out.append(("move", s, t, (t,), None))
                        break
            elif k == "p":
                d = c
                home = 2 if c == 1 else last - 1
                t = B.step(s, (0, d))
                if t and empty(t):
                    out.append(("move", s, t, (), None))
                    if s[1] == home:
                        for _ in range(2 if B.ranks == 10 else 1):
                            t = B.step(t, (0, d))
                            if t and empty(t):
                                out.append(("move", s, t, (), None))
                            else:
                                break
                for df in (-1, 1):
                    t = B.step(s, (df, d))
                    if t and enemy(t):
                        out.append(("move", s, t, (t,), None))
            elif k == "m":
                for v in DIRS:
                    for t in B.ray(s, v):
                        if not empty(t):
                            break
                        out.append(("move", s, t, (), None))
                for t in B.pieces:
                    if not enemy(t) or B.pieces[t][1] == "m":
                        continue
                    victim = B.pieces[t][1]
                    if self.mimic(B, s, t, victim, c):
                        out.append(("move", s, t, (t,), None))
            else:   # the added queen-sliders c i w a u l s
                for v in DIRS:
                    line = list(B.ray(s, v))
                    jumped = []
                    for i, t in enumerate(line):
                        if empty(t):
                            caps = set(jumped)
                            back = B.step(s, (-v[0], -v[1]))
                            ahead = B.step(t, v)
                            if k in "wu" and back and enemy(back):
                                caps.add(back)
                            if k in "au" and ahead and enemy(ahead):
                                caps.add(ahead)
                            if k == "c":
                                K = B.king(c)
                                if K and K[0] != t[0] and K[1] != t[1]:
                                    caps |= {q for q in ((t[0], K[1]), (K[0], t[1])) if enemy(q)}
                            out.append(("move", s, t, tuple(caps), None))
                        elif k == "l" and enemy(t) and i + 1 < len(line) and empty(line[i + 1]):
                            jumped.append(t)
                        else:
                            break
                if k == "s":
                    for t in B.adjacent(s):
                        if enemy(t):
                            out.append(("destruction", s, None, (t,), None))
        return out

    @staticmethod
    def mimic(B: Board, s, t, victim, c) -> bool:
        df, dr = t[0] - s[0], t[1] - s[1]
        if victim == "p":
            return abs(df) == 1 and dr == c
        if victim == "n":
            return (df, dr) in KNIGHT
        if victim == "k":
            return max(abs(df), abs(dr)) == 1
        diag = abs(df) == abs(dr) != 0
        orth = (df == 0) != (dr == 0)
        if not ((victim in "bq" and diag) or (victim in "rq" and orth)):
            return False
        v = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
        q = (s[0] + v[0], s[1] + v[1])
        while q != t:
            if q in B.pieces:
                return False
            q = (q[0] + v[0], q[1] + v[1])
        return True

    def attacked(self, B: Board, sq, by) -> bool:
        return any(sq in m[3] for m in self.captures(B, by))

    def in_check(self, B: Board, c) -> bool:
        return self.attacked(B, B.king(c), -c)

    def legal(self, B: Board, c, castling: str, ep: list, ban: str):
        last = B.ranks
        moves = []
        for m in self.captures(B, c):
            kind, s, t, caps, _ = m
            if kind == "move" and B.pieces[s][1] == "p" and t[1] in (1, last):
                for letter in "QRBN" + self.x.upper():
                    moves.append((kind, s, t, caps, letter))
            else:
                moves.append(m)
        # en passant (D7)
        if ep:
            squares = [parse_square(e) for e in ep]
            pawn = (squares[0][0], max(q[1] for q in squares) + 1) if c == -1 else \
                (squares[0][0], min(q[1] for q in squares) - 1)
            for s, (cc, k) in B.pieces.items():
                if cc == c and k == "p" and not self.frozen(B, s):
                    for t in squares:
                        if t[1] - s[1] == c and abs(t[0] - s[0]) == 1 and t not in B.pieces:
                            moves.append(("move", s, t, (pawn,), None))
        # swaps (D14)
        for s, (cc, k) in B.pieces.items():
            if cc != c or k != "s" or self.frozen(B, s):
                continue
            for v in DIRS:
                t = next((q for q in B.ray(s, v) if q in B.pieces), None)
                if t is None or B.pieces[t] == (c, "s"):
                    continue
                if B.pieces[t][1] == "p" and s[1] in (1, last):
                    continue
                if f"{name(s)}<>{name(t)}" == ban:
                    continue
                moves.append(("swap", s, t, (), None))
        out = []
        for m in moves:
            kind, s, t, caps, letter = m
            if kind == "swap":
                P = dict(B.pieces)
                P[s], P[t] = B.pieces[t], B.pieces[s]
                B2 = Board(B.files, B.ranks, P)
            else:
                B2 = after(B, s, t, caps, letter.lower() if letter else None)
            if not self.in_check(B2, c):
                out.append(m)
        # castling (D6)
        home = 1 if c == 1 else last
        king = (5, home)
        for right, rook, between, crossed, land, rook_to in (
                ("K", (9, home), (6, 7, 8), (6, 7), (8, home), (7, home)),
                ("Q", (0, home), (1, 2, 3, 4), (4, 3), (2, home), (3, home))):
            if (right if c == 1 else right.lower()) not in castling:
                continue
            if B.pieces.get(king) != (c, "k") or B.pieces.get(rook) != (c, "r"):
                continue
            if any((f, home) in B.pieces for f in between):
                continue
            if self.frozen(B, king) or self.frozen(B, rook) or self.in_check(B, c):
                continue
            unsafe = False
            for f in crossed + (land[0],):
                P = {q: v for q, v in B.pieces.items() if q != king}
                P[f, home] = (c, "k")
                if self.in_check(Board(B.files, B.ranks, P), c):
                    unsafe = True
            if unsafe:
                continue
            P = {q: v for q, v in B.pieces.items() if q not in (king, rook)}
            P[land], P[rook_to] = (c, "k"), (c, "r")
            if not self.in_check(Board(B.files, B.ranks, P), c):
                out.append(("move", king, land, (), None))
        return out

    def report(self, fen: str):
        fields = fen.split(" ")
        B = read_rows(fields[0], 10)
        c = 1 if fields[1] == "w" else -1
        ep = [] if fields[3] == "-" else fields[3].split(",")
        ban = fields[6] if len(fields) == 7 else "-"
        return sorted(text(m) for m in self.legal(B, c, fields[2], ep, ban)), self.in_check(B, c)


def reference_for(variant: str):
    if variant.startswith("ultima"):
        return Ultima(pure=variant == "ultima-pure")
    game = variant.removesuffix("-10x8").removesuffix("-chess")
    return Deckle({"coordinator": "c", "immobilizer": "i", "withdrawer": "w", "long-leaper": "l",
                   "advancer": "a", "pushme-pullyu": "u", "swapper": "s", "mimotaur": "m"}[game])


OTHER_IDS = ["ultima", "ultima-pure"] + [f"{g}-chess{s}" for g in (
    "coordinator", "immobilizer", "withdrawer", "long-leaper", "advancer", "pushme-pullyu", "swapper",
    "mimotaur") for s in ("", "-10x8")]


def compare(p: Position) -> None:
    fen = p.fen()
    name_ = p.variant if isinstance(p.variant, str) else p.variant.name
    moves, check = reference_for(name_).report(fen)
    assert [str(m) for m in p.legal_moves] == moves, (name_, fen)
    assert p.is_check() == check, (name_, fen)


@pytest.mark.parametrize("variant", OTHER_IDS)
def test_U11_D5_engine_agrees_with_an_independent_reference(variant):
    rng = random.Random(f"reference:{variant}")
    positions = played_positions(variant, rng, 1, 20) + placed_positions(variant, rng, 10)
    for p in positions:
        compare(p)


@pytest.mark.slow
@pytest.mark.parametrize("variant", OTHER_IDS)
def test_U11_D5_engine_agrees_with_an_independent_reference_many(variant):
    rng = random.Random(f"reference-many:{variant}")
    positions = played_positions(variant, rng, 4, 100) + placed_positions(variant, rng, 120)
    for p in positions:
        compare(p)


# ------------------------------------------- perft by the reference (captures at depth 1-2)


def reference_divide(variant: str, fen: str, depth: int) -> dict[str, int]:
    """divide(depth) computed by the reference alone: it plays its own moves
    and writes the child FENs itself (placement and side; Deckle clocks,
    castling, en passant and swap fields per D3)."""
    ref = reference_for(variant)
    out = {}
    if isinstance(ref, Ultima):
        B, c = ref.read(fen)
        for m in ref.legal(B, c):
            out[text(m)] = _ultima_perft(ref, after(B, m[1], m[2], m[3]), -c, depth - 1)
    else:
        fields = fen.split(" ")
        B = read_rows(fields[0], 10)
        c = 1 if fields[1] == "w" else -1
        ep = [] if fields[3] == "-" else fields[3].split(",")
        ban = fields[6] if len(fields) == 7 else "-"
        for m in ref.legal(B, c, fields[2], ep, ban):
            out[text(m)] = _deckle_perft(ref, B, c, fields[2], ep, ban, m, depth - 1)
    return out


def _ultima_perft(ref: Ultima, B: Board, c: int, depth: int) -> int:
    if depth == 0:
        return 1
    moves = ref.legal(B, c)
    if depth == 1:
        return len(moves)
    return sum(_ultima_perft(ref, after(B, m[1], m[2], m[3]), -c, depth - 1) for m in moves)


def _deckle_play(ref: Deckle, B: Board, c: int, castling: str, m):
    """Board, castling rights, en-passant squares and swap ban after m (D6, D7, D14)."""
    kind, s, t, caps, letter = m
    home = 1 if c == 1 else B.ranks
    if kind == "swap":
        P = dict(B.pieces)
        P[s], P[t] = B.pieces[t], B.pieces[s]
        B2 = Board(B.files, B.ranks, P)
        ban = f"{name(s)}<>{name(t)}" if B.pieces[t] == (-c, "s") else "-"   # D3: X = s now holds the side to move's Swapper
    else:
        B2 = after(B, s, t, caps, letter.lower() if letter else None)
        ban = "-"
        if B.pieces[s][1] == "k" and t is not None and abs(t[0] - s[0]) > 1:     # castling moves the Rook
            rook, rook_to = ((9, home), (7, home)) if t[0] > s[0] else ((0, home), (3, home))
            P = dict(B2.pieces)
            P[rook_to] = P.pop(rook)
            B2 = Board(B.files, B.ranks, P)
    touched = {s, t} | set(caps)
    last = B.ranks
    for right, sq in (("K", (9, 1)), ("Q", (0, 1)), ("k", (9, last)), ("q", (0, last))):
        king = (5, 1 if right.isupper() else last)
        if sq in touched or king in touched:
            castling = castling.replace(right, "")
    ep = []
    if kind == "move" and B.pieces[s][1] == "p" and abs(t[1] - s[1]) > 1:
        ep = [name((s[0], r)) for r in sorted(range(min(s[1], t[1]) + 1, max(s[1], t[1])))]
    return B2, castling or "-", ep, ban


def _deckle_perft(ref: Deckle, B: Board, c: int, castling: str, ep, ban, m, depth: int) -> int:
    B2, castling2, ep2, ban2 = _deckle_play(ref, B, c, castling, m)
    if depth == 0:
        return 1
    moves = ref.legal(B2, -c, castling2, ep2, ban2)
    if depth == 1:
        return len(moves)
    return sum(_deckle_perft(ref, B2, -c, castling2, ep2, ban2, m2, depth - 1) for m2 in moves)


SMALL_CAPTURE_POSITIONS = [
    ("ultima", "k7/1IK5/4w3/8/8/8/8/8 w 0"),                                       # U11 R6
    ("ultima-pure", "6Ii/6PP/8/8/8/7K/8/k7 w 0"),                                   # U9 R4
    ("ultima", "6Ii/6PP/8/8/8/7K/8/k7 w 0"),
    ("advancer-chess", "10/10/4k5/4A5/10/10/10/10/10/4K5 b - - 0 1"),              # D11 R16
    ("swapper-chess", "10/10/4k5/10/4S5/10/10/10/10/4K5 b - - 0 1 -"),             # D14 R21
    ("coordinator-chess", "10/10/1k8/10/10/4C5/10/10/1K8/10 b - - 0 1"),           # D8 R10
    ("long-leaper-chess", "5k4/10/10/10/10/4Pp4/3p6/10/10/5K4 b - e3,e4 0 1"),     # D7 R6
    ("immobilizer-chess", "5k4/10/10/10/10/10/10/10/9i/R4K3R w KQ - 0 1"),         # D6 R3
]


LARGER_CAPTURE_POSITIONS = [
    ("ultima", "7k/P7/p7/1pP1c3/8/lP6/HP6/wP2K3 w 0"),                 # U8 R1
    ("ultima-pure", "7k/P7/p7/1pP1c3/8/lP6/HP6/wP2K3 w 0"),
    ("ultima", "7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0"),                   # U4 R12
]
DECKLE_CAPTURE_POSITIONS = [
    ("pushme-pullyu-chess", "9k/10/10/10/10/3PPP4/3nU2r2/3PPP4/10/K9 w - - 0 1"),    # D12 R17
    ("swapper-chess", "9k/10/10/10/10/10/7b2/2N1P4K/10/r3Sn4 w - - 0 1 -"),         # D14 R19
    ("swapper-chess", "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 0 1 c5<>h5"),  # D14 R20
    ("mimotaur-chess", "9k/10/10/6b3/3bn5/2p7/1n1M2r3/4p5/1m1q6/9K w - - 0 1"),      # D15 R22
    ("withdrawer-chess", "3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1"),           # D7 R7
    ("immobilizer-chess", "5k1r2/9b/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),       # D6 R2
]


@pytest.mark.parametrize("variant, fen", SMALL_CAPTURE_POSITIONS + LARGER_CAPTURE_POSITIONS
                         + DECKLE_CAPTURE_POSITIONS)
def test_U1_D4_divide_depth_2_equals_the_reference_where_captures_happen(variant, fen):
    assert Position(fen, variant=variant).divide(2) == reference_divide(variant, fen, 2)


@pytest.mark.parametrize("variant, fen", SMALL_CAPTURE_POSITIONS + DECKLE_CAPTURE_POSITIONS)
def test_U1_D4_divide_depth_3_equals_the_reference_where_captures_happen(variant, fen):
    """Depth 3 reaches captures, castling, en passant and swap bans of the reply's reply."""
    assert Position(fen, variant=variant).divide(3) == reference_divide(variant, fen, 3)


@pytest.mark.slow
@pytest.mark.parametrize("variant, fen", LARGER_CAPTURE_POSITIONS)
def test_U1_U8_divide_depth_3_equals_the_reference_in_crowded_ultima_positions(variant, fen):
    assert Position(fen, variant=variant).divide(3) == reference_divide(variant, fen, 3)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["coordinator-chess-10x8", "immobilizer-chess-10x8", "long-leaper-chess-10x8"])
def test_D1_perft_depth_4_from_the_start_equals_the_reference(variant):
    """Depth 4 sees automatic captures from the start; deckle.md gives no count,
    so the independent reference counts (about 90 s each)."""
    p = Position("start", variant=variant)
    assert p.divide(4) == reference_divide(variant, p.fen(), 4)
