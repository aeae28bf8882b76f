"""Helpers shared by the rules and property tests of every game (no tests here).

    ult({"d4": "K", "h8": "k"})                  -> an Ultima FEN, White to move
    deck({"f1": "K", "f10": "k"}, game="swapper") -> a Deckle FEN (10x10)
    moves_of(position, "d4")                     -> sorted legal moves of the piece on d4

They build FENs from the rules files' grammar (ultima.md U13, deckle.md D3),
not from the engine's printer, so a test fails if the engine reads FENs wrongly.
"""
from __future__ import annotations

from maxima_board.rules import Position, variants

ULTIMA_IDS = ("ultima", "ultima-pure")
DECKLE_GAMES = ("coordinator", "immobilizer", "withdrawer", "long-leaper", "advancer",
                "pushme-pullyu", "swapper", "mimotaur")
DECKLE_LETTER = {"coordinator": "c", "immobilizer": "i", "withdrawer": "w", "long-leaper": "l",
                 "advancer": "a", "pushme-pullyu": "u", "swapper": "s", "mimotaur": "m"}
DECKLE_IDS = tuple(f"{g}-chess{suffix}" for g in DECKLE_GAMES for suffix in ("", "-10x8"))
ALL_IDS = ("maxima",) + ULTIMA_IDS + tuple(
    name for g in DECKLE_GAMES for name in (f"{g}-chess", f"{g}-chess-10x8"))


def deckle_id(game: str, ranks: int = 10) -> str:
    return f"{game}-chess" + ("-10x8" if ranks == 8 else "")


def rows(pieces: dict[str, str], files: int, ranks: int) -> str:
    """The placement field: rows from the top rank down, '/'-joined, maximal digit runs."""
    letters = "abcdefghij"[:files]
    for name in pieces:
        assert name[0] in letters and 1 <= int(name[1:]) <= ranks, f"bad square {name}"
    out = []
    for rank in range(ranks, 0, -1):
        row, run = "", 0
        for f in letters:
            letter = pieces.get(f"{f}{rank}")
            if letter:
                row += (str(run) if run else "") + letter
                run = 0
            else:
                run += 1
        out.append(row + (str(run) if run else ""))
    return "/".join(out)


def ult(pieces: dict[str, str], turn: str = "w", ply: int = 0) -> str:
    """An Ultima FEN (U13)."""
    return f"{rows(pieces, 8, 8)} {turn} {ply}"


def deck(pieces: dict[str, str], turn: str = "w", castling: str = "-", ep: str = "-",
         half: int = 0, full: int = 1, game: str = "coordinator", ranks: int = 10,
         swap: str = "-") -> str:
    """A Deckle FEN (D3); Swapper Chess gets its seventh field."""
    fen = f"{rows(pieces, 10, ranks)} {turn} {castling} {ep} {half} {full}"
    return fen + (f" {swap}" if game == "swapper" else "")


def variant_of(position: Position):
    v = position.variant
    return variants.get(v) if isinstance(v, str) else v


def square(position: Position, name: str) -> int:
    return variant_of(position).geometry.square(name)


def moves_of(position: Position, name: str) -> list[str]:
    """The legal moves of the piece on ``name``, as canonical strings in list order."""
    s = square(position, name)
    return [str(m) for m in position.legal_moves if m.from_square == s]


def legal(position: Position) -> list[str]:
    return [str(m) for m in position.legal_moves]


def board_map(position: Position) -> dict[int, str]:
    """{square: letter} of every piece (upper case White)."""
    geometry = variant_of(position).geometry
    out = {}
    for s in range(geometry.size):
        piece = position.piece_at(s)
        if piece is not None:
            out[s] = piece.letter
    return out


def king_square(position: Position, color: int) -> int:
    for s, letter in board_map(position).items():
        if letter == ("K" if color > 0 else "k"):
            return s
    raise AssertionError("no King")


# ------------------------------------------------------------ colour mirror
# Turning the board upside down (rank r -> last + first - r) and swapping the
# colours of every piece and of the side to move maps every game of the family
# onto itself (no rule of maxima.md, ultima.md or deckle.md favours a colour or
# a side of the board except through "forward", which the mirror also turns).


def _mirror_square(name: str, low: int, high: int) -> str:
    return f"{name[0]}{low + high - int(name[1:])}"


def mirror_fen(fen: str, low: int, high: int) -> str:
    """The colour-mirrored FEN; ``low``/``high`` are the first and last rank numbers."""
    fields = fen.split(" ")
    fields[0] = "/".join(reversed(fields[0].split("/"))).swapcase().replace("X", "x")  # Maxima's holes
    fields[1] = "b" if fields[1] == "w" else "w"
    if len(fields) >= 6:                          # Deckle (D3)
        if fields[2] != "-":
            fields[2] = "".join(c for c in "KQkq" if c.swapcase() in fields[2])
        if fields[3] != "-":
            squares = [_mirror_square(s, low, high) for s in fields[3].split(",")]
            fields[3] = ",".join(sorted(squares, key=lambda n: int(n[1:])))
        if len(fields) == 7 and fields[6] != "-":
            x, y = fields[6].split("<>")
            fields[6] = f"{_mirror_square(x, low, high)}<>{_mirror_square(y, low, high)}"
    return " ".join(fields)


def mirror_move(text: str, low: int, high: int) -> str:
    """The canonical string of the mirrored move (captures re-sorted by rank, then file)."""
    def sq(name):
        return _mirror_square(name, low, high)

    if "<>" in text:
        a, b = text.split("<>")
        return f"{sq(a)}<>{sq(b)}"
    promo = ""
    if "=" in text:
        text, promo = text.split("=")
        promo = "=" + promo
    caps = ""
    if "x" in text:
        text, caps = text.split("x")
        names = sorted((sq(c) for c in caps.split(",")), key=lambda n: (int(n[1:]), n[0]))
        caps = "x" + ",".join(names)
    frm, to = text.split("-")
    to = to if to == "S" else sq(to)
    return f"{sq(frm)}-{to}{caps}{promo}"


def rank_span(variant_name: str) -> tuple[int, int]:
    ranks = variants.get(variant_name).geometry.ranks
    return ranks[0], ranks[-1]
