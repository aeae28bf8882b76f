"""FEN and canonical move strings (M14, U13, D3, D17)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .geometry import FILE_LETTERS, Geometry
from .move_forms import CANONICAL, MoveForms
from maxima_board.rules.variants.base import BLACK, WHITE, Variant


class FenError(ValueError):
    """A FEN that cannot be read or describes a position the rules reject (M15, U14, D18)."""


class MoveError(ValueError):
    """A move string that cannot be read, or a move that is not legal."""


KINDS = ("move", "replacement", "suicide", "castle", "en passant", "swap", "destruction",
         "placement", "conversion", "swap conversion", "shot")


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``from_square`` to ``to_square`` (None for a suicide or a
    mutual destruction), every captured square in rank-then-file order, the
    ``promotion`` letter (upper case) or None, and its ``kind``: one of
    ``"move"``, ``"replacement"``, ``"suicide"``, ``"castle"``,
    ``"en passant"``, ``"swap"``, ``"destruction"`` (derived from the squares
    when not given). Squares are indices of the variant's geometry;
    ``str(move)`` is the canonical form of M14 / U13 / D17 / O15.

    Optima (O6, O15) adds ``converts`` (the converted squares, rank-then-file
    order, written after ``^``) and ``placed`` (the token of a placement,
    upper case, ``*`` when royal: ``from_square == to_square`` is the square,
    written ``TT@sq``), and the kinds ``"placement"``, ``"conversion"`` (a
    move that converts, O11), ``"swap conversion"`` (the unit on the
    destination is converted and goes to the start square; it is listed in
    ``converts``), ``"shot"`` (destination = start: a rifle shot or a
    Viceroy's capture-and-return, ``d4-d4xd7``). Promotion to Wizard is
    ``promotion == "WI"`` (``=WI``). The other games never set these."""

    from_square: int
    to_square: int | None
    captures: tuple[int, ...] = ()
    geometry: Geometry | None = field(default=None, compare=False, repr=False)
    promotion: str | None = None
    kind: str = ""
    converts: tuple[int, ...] = ()
    placed: str | None = None

    def __post_init__(self):
        if not self.kind:
            if self.to_square is None:
                kind = "destruction" if self.captures else "suicide"
            elif self.to_square in self.captures:
                kind = "replacement"
            else:
                kind = "move"
            object.__setattr__(self, "kind", kind)

    def canonical(self, geometry: Geometry | None = None) -> str:
        g = geometry or self.geometry
        if g is None:
            raise ValueError("a Move without geometry needs one to be written")
        names = g.names
        if self.placed is not None:
            return f"{self.placed}@{names[self.to_square]}"
        frm = names[self.from_square]
        if self.kind == "swap":
            return f"{frm}<>{names[self.to_square]}"
        text = f"{frm}-S" if self.to_square is None else f"{frm}-{names[self.to_square]}"
        if self.captures:
            text += "x" + ",".join(names[c] for c in self.captures)
        if self.converts:
            text += "^" + ",".join(names[c] for c in self.converts)
        if self.promotion:
            text += "=" + self.promotion
        return text

    def __str__(self) -> str:
        return self.canonical()

    def __repr__(self) -> str:
        if self.geometry is None:
            return f"Move({self.from_square}, {self.to_square}, {self.captures})"
        return f"Move({self.canonical()!r})"


def parse_move(text: str, geometry: Geometry, forms: MoveForms = CANONICAL) -> Move:
    """Read a move written in one of ``forms`` (a game's ``move_forms``; by
    default the canonical moves of M14, U13, D17: a leading upper-case piece
    letter, ``Qd1-d4``, is allowed; Optima's O15 forms take a unit token,
    ``ARe5-e5xg7``). The result is only what the text says (the kind of a plain
    ``FROM-TO`` is a guess): a Position matches it against its legal moves.
    MoveError names what is wrong."""
    raw = text.strip() if isinstance(text, str) else ""
    m = forms.placement.match(raw) if forms.placement is not None else None
    try:
        if m:
            sq = geometry.square(m["sq"])
            return Move(sq, sq, (), geometry, None, "placement", (), m["token"])
        lead = raw[:1]
        body = raw[1:] if forms.letter and lead.isalpha() and lead.upper() == lead and len(raw) > 1 else raw
        m = forms.board.match(body)
        if not m:
            raise MoveError(f"not {forms.name}: {raw!r} (expected {forms.expected})")
        found = m.groupdict()
        frm = geometry.square(found["frm"])
        if found.get("swap_to"):
            return Move(frm, geometry.square(found["swap_to"]), (), geometry, None, "swap")
        if found.get("suicide"):
            if found.get("destroyed"):
                return Move(frm, None, (geometry.square(found["destroyed"]),), geometry, None, "destruction")
            return Move(frm, None, (), geometry)
        to = geometry.square(found["to"])
        caps = [geometry.square(x) for x in found["caps"].split(",")] if found["caps"] else []
        convs = [geometry.square(x) for x in found["convs"].split(",")] if found.get("convs") else []
    except ValueError as exc:
        if isinstance(exc, MoveError):
            raise
        raise MoveError(f"{exc} in move {raw!r}") from None
    for squares, what in ((caps, "captured"), (convs, "converted")):
        if len(set(squares)) != len(squares):
            raise MoveError(f"a square is {what} twice in move {raw!r}")
    return Move(frm, to, tuple(sorted(caps)), geometry, found["promo"], "", tuple(sorted(convs)))


# ASCII only: str.isdigit() also accepts '²' or '٣', which int() rejects or
# reads into a FEN that no longer round-trips (M14).
_DIGITS = "0123456789"
_COUNT_RE = re.compile(r"0|[1-9][0-9]{0,6}")
MAX_PLIES = 1_000_000   # far beyond any game; a bigger count is a typo


def _count(text: str, what: str, low: int = 0) -> int:
    """A FEN counter: ASCII digits, no leading zero, from ``low`` to MAX_PLIES."""
    if not _COUNT_RE.fullmatch(text) or not low <= int(text) <= MAX_PLIES:
        shown = repr(text) if len(text) <= 24 else f"{text[:24]!r}... ({len(text)} characters)"
        raise FenError(f"{what} must be a whole number from {low} to {MAX_PLIES} "
                       f"(digits 0-9, no leading zero), got {shown}")
    return int(text)


@dataclass
class FenData:
    """What a FEN says. ``ply`` is the half-moves played (Maxima, Ultima);
    Deckle's games fill the other fields (D3)."""

    board: list[int]
    turn: int
    ply: int = 0
    castling: int = 0
    ep: tuple[int, ...] = ()
    halfmove: int = 0
    fullmove: int = 1
    ban: tuple[int, int] | None = None
    variant: Variant | None = None


def _letter_codes(variant: Variant) -> dict[str, int]:
    return {t.letter: t.code for t in variant.types}


def _parse_rows(rows_text: str, variant: Variant, multi_digit: bool) -> list[int]:
    g = variant.geometry
    rows = rows_text.split("/")
    ranks = list(reversed(g.ranks))
    if len(rows) != len(ranks):
        raise FenError(f"FEN has {len(rows)} rows, expected {len(ranks)}")
    codes = _letter_codes(variant)
    board = [0] * g.size
    for row, rank in zip(rows, ranks):
        file = 0
        i = 0
        previous_digit = False
        while i < len(row):
            ch = row[i]
            if file >= g.files:
                raise FenError(f"row for rank {rank} is too long: {row!r}")
            if ch in _DIGITS:
                if previous_digit:
                    raise FenError(f"two digits in a row in rank {rank}: {row!r}")
                j = i + 1
                if multi_digit:
                    while j < len(row) and row[j] in _DIGITS:
                        j += 1
                text = row[i:j]
                run = int(text)
                if run == 0 or text[0] == "0":
                    raise FenError(f"empty run of {text} in rank {rank}: {row!r}")
                for f in range(file, file + run):
                    if f >= g.files:
                        raise FenError(f"row for rank {rank} is too long: {row!r}")
                    if not g.exists(f, rank):
                        raise FenError(f"rank {rank}: cell {FILE_LETTERS[f]}{rank} does not exist and must be 'x'")
                file += run
                previous_digit = True
                i = j
                continue
            previous_digit = False
            exists = g.exists(file, rank)
            if ch == "x" and g.has_holes:
                if exists:
                    raise FenError(f"rank {rank}: 'x' on square {g.names[g.at(file, rank)]}, which exists")
            elif ch.lower() in codes and ch.isalpha():
                if not exists:
                    raise FenError(f"rank {rank}: piece {ch!r} on cell {FILE_LETTERS[file]}{rank}, which does not exist")
                code = codes[ch.lower()]
                board[g.at(file, rank)] = code if ch.isupper() else -code
            else:
                owner = _other_game(ch, variant)
                if owner:
                    raise FenError(f"letter {ch!r} in rank {rank} belongs to another game ({owner}), "
                                   f"not to {variant.title}")
                raise FenError(f"unknown letter {ch!r} in rank {rank}: {row!r}")
            file += 1
            i += 1
        if file != g.files:
            raise FenError(f"row for rank {rank} has {file} cells, expected {g.files}: {row!r}")
    return board


def _other_game(ch: str, variant: Variant) -> str | None:
    from . import variants
    if not ch.isalpha():
        return None
    for other in variants.relatives(variant):
        if ch.lower() in other.letters:
            return other.title
    return None


_OTHER_SPACE = re.compile(r"[^\S \t\n\r\v\f]")   # what str.split() splits on and C's strtok does not


def check_fen_characters(fen: str) -> None:
    """The compiled engine splits a FEN's fields on ASCII spaces only (tabs and
    line ends tolerated), so a no-break or other Unicode space is named here
    instead of being split on."""
    m = _OTHER_SPACE.search(fen)
    if m:
        raise FenError(f"FEN has the Unicode space U+{ord(m.group()):04X} at position {m.start() + 1}: "
                       f"separate its fields with plain spaces")


def parse_fen(fen: str, variant: Variant) -> FenData:
    """Board, side to move and counters of a FEN; checks syntax only
    (M14, U13/U14, D3/D18 except the position checks). ``FenError`` names what
    is wrong. A Deckle FEN with the other board's row count selects the
    same game on that board (D1)."""
    if not isinstance(fen, str):
        raise FenError("FEN must be text")
    check_fen_characters(fen)
    if variant.chess_fen:
        return _parse_deckle(fen, variant)
    parts = fen.split()
    if len(parts) != 3:
        raise FenError(f"FEN needs 3 fields (rows, side to move, half-moves), got {len(parts)}")
    rows_text, side, plies = parts
    board = _parse_rows(rows_text, variant, multi_digit=False)
    if side not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', got {side!r}")
    return FenData(board, WHITE if side == "w" else BLACK, _count(plies, "half-move number"), variant=variant)


def _sibling(variant: Variant, rows: int) -> Variant:
    from . import variants
    return variants.resized(variant, rows)


def _parse_deckle(fen: str, variant: Variant) -> FenData:
    parts = fen.split()
    want = 7 if variant.swap_ban else 6
    if len(parts) != want:
        raise FenError(f"FEN needs {want} fields for {variant.title.removesuffix(' 10x8')} "
                       f"(rows, side, castling, en passant, half-moves, move number"
                       f"{', swap-back' if variant.swap_ban else ''}), got {len(parts)}")
    rows_text, side, castling_text, ep_text, half, full = parts[:6]
    nrows = rows_text.count("/") + 1
    if nrows not in (8, 10):
        raise FenError(f"FEN has {nrows} rows, expected 10 (10x10 board) or 8 (10x8 board)")
    variant = _sibling(variant, nrows)
    g = variant.geometry
    board = _parse_rows(rows_text, variant, multi_digit=True)
    if side not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', got {side!r}")
    turn = WHITE if side == "w" else BLACK
    codes = _letter_codes(variant)
    pawn, king, rook = codes["p"], codes["k"], codes["r"]
    first, last = g.ranks[0], g.ranks[-1]
    for sq, v in enumerate(board):
        if abs(v) == pawn and g.rank_of[sq] in (first, last):
            raise FenError(f"Pawn on {g.names[sq]}: no Pawn may stand on rank {first} or {last} (D7)")
    # castling (D3 field 3, D18)
    castling = 0
    if castling_text != "-":
        if not re.fullmatch(r"K?Q?k?q?", castling_text) or not castling_text:
            raise FenError(f"castling field must be '-' or a subset of 'KQkq' in that order, got {castling_text!r}")
        for ch in castling_text:
            color = WHITE if ch.isupper() else BLACK
            rank = first if color == WHITE else last
            rook_file = 9 if ch.lower() == "k" else 0
            who = "White" if color == WHITE else "Black"
            if board[g.at(5, rank)] != color * king:
                raise FenError(f"castling right {ch!r}: {who}'s King is not on f{rank}")
            if board[g.at(rook_file, rank)] != color * rook:
                raise FenError(f"castling right {ch!r}: {who}'s Rook is not on {FILE_LETTERS[rook_file]}{rank}")
            castling |= {"K": 1, "Q": 2, "k": 4, "q": 8}[ch]
    ep = _parse_ep(ep_text, variant, board, turn, pawn)
    halfmove = _count(half, "half-move clock")
    fullmove = _count(full, "move number", 1)
    ban = None
    if variant.swap_ban:
        ban = _parse_ban(parts[6], variant, board, turn)
    return FenData(board, turn, 0, castling, ep, halfmove, fullmove, ban, variant)


def _parse_ep(text: str, variant: Variant, board: list[int], turn: int, pawn: int) -> tuple[int, ...]:
    if text == "-":
        return ()
    g = variant.geometry
    try:
        squares = [g.square(x) for x in text.split(",")]
    except ValueError:
        raise FenError(f"en-passant field must be '-' or squares like 'e3' or 'e3,e4', got {text!r}") from None
    mover = -turn  # the side that just advanced
    first, last = g.ranks[0], g.ranks[-1]
    second = first + 1 if mover == WHITE else last - 1
    files = {g.file_of[s] for s in squares}
    ranks = [g.rank_of[s] for s in squares]
    most = variant.pawn_advance - 1
    bad = f"en-passant field {text!r} is impossible"
    if len(files) != 1 or ranks != sorted(ranks) or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        raise FenError(f"{bad}: its squares must be consecutive on one file, lowest rank first")
    if len(squares) > most:
        raise FenError(f"{bad}: at most {most} square{'s' if most > 1 else ''} on this board")
    near = second + 1 if mover == WHITE else second - 1
    if (ranks[0] if mover == WHITE else ranks[-1]) != near:
        raise FenError(f"{bad}: the squares must start next to the second rank of the side that just moved")
    f = files.pop()
    if any(board[s] for s in squares):
        raise FenError(f"{bad}: its squares must be empty")
    beyond = g.at(f, ranks[-1] + 1) if mover == WHITE else g.at(f, ranks[0] - 1)
    if beyond < 0 or board[beyond] != mover * pawn:
        raise FenError(f"{bad}: no Pawn of the side that just moved stands after it")
    if board[g.at(f, second)]:
        raise FenError(f"{bad}: the Pawn's second-rank square {FILE_LETTERS[f]}{second} is not empty")
    return tuple(squares)


def _parse_ban(text: str, variant: Variant, board: list[int], turn: int) -> tuple[int, int] | None:
    if text == "-":
        return None
    g = variant.geometry
    m = re.fullmatch(r"([a-z]\d{1,2})<>([a-z]\d{1,2})", text)
    try:
        if not m:
            raise ValueError
        x, y = g.square(m.group(1)), g.square(m.group(2))
    except ValueError:
        raise FenError(f"swap-back field must be '-' or 'X<>Y', got {text!r}") from None
    swapper = variant.type_of("s").code
    if board[x] != turn * swapper or board[y] != -turn * swapper:
        raise FenError(f"swap-back field {text!r}: the side to move's Swapper must stand on "
                       f"{g.names[x]} and the other side's on {g.names[y]}")
    ok = False
    for ray in g.rays[x]:
        for t in ray:
            if t == y:
                ok = True
            if board[t]:
                break
    if not ok:
        raise FenError(f"swap-back field {text!r}: {g.names[x]} and {g.names[y]} are not on one line "
                       f"with only empty squares between")
    return (x, y)


def _rows(board: list[int], variant: Variant) -> str:
    g = variant.geometry
    letters = {t.code: t.letter for t in variant.types}
    rows = []
    for rank in reversed(g.ranks):
        out = []
        run = 0
        for file in range(g.files):
            sq = g.at(file, rank)
            if sq >= 0 and board[sq] == 0:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            if sq < 0:
                out.append("x")
            else:
                v = board[sq]
                letter = letters[abs(v)]
                out.append(letter.upper() if v > 0 else letter)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def format_fen(data: FenData, variant: Variant) -> str:
    side = "w" if data.turn == WHITE else "b"
    rows = _rows(data.board, variant)
    if not variant.chess_fen:
        return f"{rows} {side} {data.ply}"
    castling = "".join(ch for ch, bit in (("K", 1), ("Q", 2), ("k", 4), ("q", 8)) if data.castling & bit) or "-"
    names = variant.geometry.names
    ep = ",".join(names[s] for s in sorted(data.ep)) if data.ep else "-"
    text = f"{rows} {side} {castling} {ep} {data.halfmove} {data.fullmove}"
    if variant.swap_ban:
        text += " -" if data.ban is None else f" {names[data.ban[0]]}<>{names[data.ban[1]]}"
    return text
