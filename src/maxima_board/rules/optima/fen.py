"""Optima's FEN (O14, O15) and the positions it may describe (O16).

``<board> <side> <reserve> <rules> <ply>``: see optima.md O15. :func:`parse`
reads and checks a FEN and raises :class:`~maxima_board.rules.notation.FenError` with one
line saying what is wrong and where; :func:`format` writes the canonical FEN,
which :func:`parse` reads back to the same data. A FEN that is not canonical
(unsorted reserve or rules, ``pawn=std`` written out, a ``0`` run...) is
rejected.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from maxima_board.rules.notation import FenError, _count, check_fen_characters
from maxima_board.rules.variants.base import BLACK, WHITE, Variant
from maxima_board.rules import variants
from maxima_board.rules.variants.optima_units import BY_TOKEN, UNITS
from .placement import KINDS, Reserve, royals_first_sides, set_size, side_at, token_key
from .tables import Options
from .text import format_board, parse_board
from .units import ROYAL, TYPE_MASK

UNITS_BY_CODE = {u.code: u for u in BY_TOKEN.values()}
FIELDS = "board, side, reserve, rules, ply"


@dataclass
class OptimaFen:
    """What an Optima FEN says."""

    variant: Variant
    board: list[int]
    turn: int
    reserve: Reserve
    options: Options
    ply: int


def variant_for(n: int) -> Variant:
    """The game of Optima's units on the n×n board (Optima, Optima 9x9)."""
    return next(v for v in variants.all_variants() if v.units is UNITS and len(v.geometry.ranks) == n)


# ------------------------------------------------------------------ tokens
def _tokens(text: str, where: str) -> list[tuple[str, bool]]:
    """Split ``text`` into (two-letter token, royal) pairs."""
    out, j = [], 0
    while j < len(text):
        token = text[j:j + 2]
        if token[:1] == "*":
            raise FenError(f"{where}: misplaced '*' in {text!r}")
        if len(token) < 2 or not token.isalpha() or not (token.isupper() or token.islower()):
            raise FenError(f"{where}: bad token {token!r} in {text!r} (two letters, one case)")
        j += 2
        royal = text[j:j + 1] == "*"
        j += royal
        out.append((token, royal))
    return out


def _code(token: str, royal: bool, where: str) -> int:
    unit = BY_TOKEN.get(token.upper())
    if unit is None:
        raise FenError(f"{where}: unknown unit {token!r}")
    if unit.kind != "piece":
        raise FenError(f"{where}: {token} is never placed (only the 53 piece types are, O4)")
    return unit.code | (ROYAL if royal else 0)


def token_of(code: int) -> str:
    """The upper-case token of an unsigned code, ``*`` when royal."""
    return UNITS_BY_CODE[code & TYPE_MASK].token + ("*" if code & ROYAL else "")


def _group(codes: list[int], where: str) -> tuple[int, ...]:
    ordered = sorted(codes, key=lambda c: token_key(c, UNITS_BY_CODE))
    if ordered != codes:
        raise FenError(f"{where} is not sorted: {''.join(map(token_of, codes))} "
                       f"should be {''.join(map(token_of, ordered))}")
    return tuple(codes)


# ----------------------------------------------------------------- reserve
def parse_reserve(text: str) -> Reserve:
    if text == "-":
        return Reserve()
    kind, colon, body = text.partition(":")
    if not colon or kind not in KINDS:
        raise FenError(f"reserve field {text!r}: expected '-', 'eq:...', 'u1:...' or 'u2:...'")
    where = f"reserve {kind}"
    pairs = _tokens(body, where)
    if not pairs:
        raise FenError(f"reserve field {text!r} is empty: after the placement phase the reserve is '-'")
    if kind == "eq":
        upper = [p for p in pairs if p[0].isupper()]
        lower = [p for p in pairs if p[0].islower()]
        if pairs != upper + lower:
            raise FenError(f"reserve field {text!r}: White's hand (upper case) comes before Black's (lower case)")
        white = _group([_code(t, r, where) for t, r in upper], "reserve: White's hand")
        black = _group([_code(t, r, where) for t, r in lower], "reserve: Black's hand")
        return Reserve("eq", white, black)
    if any(t.islower() for t, _ in pairs):
        raise FenError(f"reserve field {text!r}: a {kind} pool is written in upper case")
    return Reserve(kind, pool=_group([_code(t, r, where) for t, r in pairs], f"reserve: the {kind} pool"))


def format_reserve(reserve: Reserve) -> str:
    if not reserve.kind:
        return "-"
    if reserve.kind == "eq":
        return "eq:" + "".join(map(token_of, reserve.white)) + "".join(map(token_of, reserve.black)).lower()
    return reserve.kind + ":" + "".join(map(token_of, reserve.pool))


# ------------------------------------------------------------------- rules
def parse_rules(text: str) -> Options:
    """The rules field (O14): ``-`` or sorted comma-separated ``arm=...``, ``gna``, ``shp``."""
    if text == "-":
        return Options()
    items = text.split(",")
    if items != sorted(items) or len(set(items)) != len(items):
        raise FenError(f"rules field {text!r}: options must be distinct and sorted ({','.join(sorted(set(items)))})")
    shp = gna = False
    arm: tuple[str, ...] = ()
    for item in items:
        name, eq, value = item.partition("=")
        if item == "shp":
            shp = True
        elif item == "gna":
            gna = True
        elif name == "arm" and eq:
            pairs = _tokens(value, "rules arm=")
            tokens = [t for t, royal in pairs]
            if not pairs or any(royal for _, royal in pairs) or any(not t.isupper() for t in tokens):
                raise FenError(f"rules field: {item!r} must list upper-case piece tokens, e.g. arm=QUVR")
            for t in tokens:
                unit = BY_TOKEN.get(t)
                if unit is None or unit.kind in ("pawn", "guard"):
                    raise FenError(f"rules field: {item!r}: {t} is not a piece type")
            if tokens != sorted(set(tokens)):
                raise FenError(f"rules field: {item!r}: tokens must be distinct and sorted "
                               f"(arm={''.join(sorted(set(tokens)))})")
            arm = tuple(tokens)
        elif name in ("pawn", "guard") and eq:
            if value == "std":
                raise FenError(f"rules field: {item!r}: the standard rule is written by leaving it out")
            raise FenError(f"rules field: {item!r}: unknown {name} rule (only the standard one is defined, O14)")
        else:
            raise FenError(f"rules field: unknown option {item!r} (known: shp, gna, arm=TT..., O14)")
    return Options(shp=shp, gna=gna, arm=arm)


def format_rules(options: Options) -> str:
    items = []
    if options.arm:
        items.append("arm=" + "".join(options.arm))
    if options.gna:
        items.append("gna")
    if options.shp:
        items.append("shp")
    return ",".join(sorted(items)) or "-"


# --------------------------------------------------------------------- FEN
def parse(text: str, validate: bool = True, variant: Variant | None = None) -> OptimaFen:
    """Read an Optima FEN; the number of ranks chooses 10x10 or 9x9 (``variant``
    when its board has that size: a game of the family with other unit data)."""
    if not isinstance(text, str):
        raise FenError("FEN must be text")
    check_fen_characters(text)
    parts = text.split(" ")
    if len(parts) != 5 or not all(parts):
        raise FenError(f"Optima FEN needs 5 fields separated by single spaces ({FIELDS}), "
                       f"got {len([p for p in text.split() if p])}: {text.strip()[:60]!r}")
    board_text, side, reserve_text, rules_text, ply_text = parts
    n, board = parse_board(board_text, BY_TOKEN)
    if side not in ("w", "b"):
        raise FenError(f"side field must be 'w' or 'b', got {side!r}")
    reserve = parse_reserve(reserve_text)
    options = parse_rules(rules_text)
    ply = _count(ply_text, "ply field")
    if variant is None or variant.geometry.files != n:
        variant = variant_for(n)
    data = OptimaFen(variant, board, WHITE if side == "w" else BLACK, reserve, options, ply)
    if validate:
        check(data)
    return data


def format(data: OptimaFen) -> str:
    n = data.variant.geometry.files
    return " ".join((format_board(data.board, n, _TablesLike), "w" if data.turn == WHITE else "b",
                     format_reserve(data.reserve), format_rules(data.options), str(data.ply)))


class _TablesLike:
    """What :func:`maxima_board.rules.optima.text.format_board` reads from a Tables."""

    units = UNITS_BY_CODE


# -------------------------------------------------------------------- O16
def royal_count(board: list[int], color: int) -> int:
    return sum(1 for v in board if v * color > 0 and (v * color) & ROYAL)


def _who(color: int) -> str:
    return "White" if color == WHITE else "Black"


def check(data: OptimaFen) -> None:
    """O16: raise FenError when the FEN cannot be an Optima position."""
    if data.reserve.kind:
        _check_placement(data)
        return
    for color in (WHITE, BLACK):
        royals = royal_count(data.board, color)
        if royals > 2:
            raise FenError(f"{_who(color)} has {royals} royal units; at most 2 (O4, O16)")
        if royals == 0 and color != data.turn:
            raise FenError(f"{_who(color)}, not to move, has no royal unit: the game ended before (O13, O16)")


def _check_placement(data: OptimaFen) -> None:
    g = data.variant.geometry
    n = g.files
    size = set_size(n)
    board, reserve = data.board, data.reserve
    pawn, guard = BY_TOKEN["PN"].code, BY_TOKEN["GD"].code
    expected = {2: guard, 3: pawn, n - 1: -guard, n - 2: -pawn}
    placed: dict[int, list[int]] = {WHITE: [], BLACK: []}
    for sq, v in enumerate(board):
        rank = g.rank_of[sq]
        name = g.names[sq]
        if rank in expected:
            if v != expected[rank]:
                want = ("PN" if abs(expected[rank]) == pawn else "GD")
                want = want if expected[rank] > 0 else want.lower()
                raise FenError(f"placement phase: {name} must hold {want} (pawns and guards stand on their "
                               f"starting ranks until the placement is over, O1, O16)")
            continue
        if not v:
            continue
        color = WHITE if v > 0 else BLACK
        unit = UNITS_BY_CODE[abs(v) & TYPE_MASK]
        home = 1 if color == WHITE else n
        if rank != home or unit.kind != "piece":
            token = unit.token if color == WHITE else unit.token.lower()
            raise FenError(f"placement phase: {token} on {name} is off its owner's first rank (O5, O16)")
        placed[color].append(abs(v))
    i = len(placed[WHITE]) + len(placed[BLACK])
    kind = reserve.kind
    if kind == "u2" and n == 9:
        raise FenError("reserve u2 is not played on 9x9 (O4: 9x9 unequal forces are u1 only)")
    white_due = sum(1 for j in range(i) if side_at(kind, j) == WHITE)
    if len(placed[WHITE]) != white_due:
        raise FenError(f"placement phase: after {i} placements White has placed {white_due} by O5, "
                       f"the board shows {len(placed[WHITE])}")
    if i + reserve.left != 2 * size:
        raise FenError(f"placement phase: {i} placed plus {reserve.left} in the reserve is not "
                       f"{2 * size} (each side gets {size} pieces, O4)")
    if data.ply != i:
        raise FenError(f"ply field is {data.ply}, but {i} placements have been made (O5, O15)")
    due = side_at(kind, i)
    if data.turn != due:
        raise FenError(f"placement {i} is {_who(due)}'s by O5, the side field says {_who(data.turn)}")
    if kind == "eq":
        forces = {c: Counter(placed[c]) + Counter(reserve.source(c)) for c in (WHITE, BLACK)}
        if forces[WHITE] != forces[BLACK]:
            raise FenError("reserve eq: White's and Black's pieces (placed plus in hand) differ (O4 equal forces)")
        royals = sum(k for code, k in forces[WHITE].items() if code & ROYAL)
        allowed = (1, 2) if n == 10 else (1,)
        if royals not in allowed:
            raise FenError(f"reserve eq: each side has {royals} royal pieces; {n}x{n} allows "
                           f"{' or '.join(map(str, allowed))} (O4)")
        return
    everything = placed[WHITE] + placed[BLACK] + list(reserve.pool)
    royals = sum(1 for code in everything if code & ROYAL)
    want = 2 if kind == "u1" else 4
    if royals != want:
        raise FenError(f"reserve {kind}: {royals} royal units in pool and placed, expected {want} (O4)")
    first = royals_first_sides(kind, min(i, want))
    for color in (WHITE, BLACK):
        have = sum(1 for code in placed[color] if code & ROYAL)
        if have != first.count(color):
            raise FenError(f"reserve {kind}: {_who(color)} has placed {have} royal units; royals are placed "
                           f"first, so after {i} placements it has {first.count(color)} (O5)")
