"""George Deckle's games (deckle.md): chess on 10 files plus one Ultima, Rococo or Supremo piece."""
from __future__ import annotations

from maxima_board.rules.geometry import Geometry
from maxima_board.rules.pieces import (ALL, DIAG, KING_STEPS, KNIGHT, ORTH, Approach, Leap, Mimic,
                                       MutualDestruction, PawnMoves, PieceType, Slide, Swap, Withdrawal)
from . import ultima
from .base import Variant

_KING_STEP = Leap(KING_STEPS)
_QUEEN = Slide(ALL)
_ROOK = Slide(ORTH)
_BISHOP = Slide(DIAG)
_KNIGHT = Leap(KNIGHT)
_PAWN = PawnMoves()

KING = PieceType(21, "King", "k", (_KING_STEP,), royal=True, mimic=(_KING_STEP,))
QUEEN = PieceType(22, "Queen", "q", (_QUEEN,), mimic=(_QUEEN,))
ROOK = PieceType(23, "Rook", "r", (_ROOK,), mimic=(_ROOK,))
BISHOP = PieceType(24, "Bishop", "b", (_BISHOP,), mimic=(_BISHOP,))
KNIGHT_ = PieceType(25, "Knight", "n", (_KNIGHT,), mimic=(_KNIGHT,))
PAWN = PieceType(26, "Pawn", "p", (_PAWN,), mimic=(_PAWN,), pawn=True)
ADVANCER = PieceType(27, "Advancer", "a", (Slide(ALL, False, (Approach(),)),))
PUSHME_PULLYU = PieceType(28, "Pushme-Pullyu", "u", (Slide(ALL, False, (Withdrawal(), Approach())),))
SWAPPER = PieceType(29, "Swapper", "s", (Slide(ALL, False), Swap(), MutualDestruction()))
MIMOTAUR = PieceType(30, "Mimotaur", "m", (Slide(ALL, False), Mimic()))
IMMOBILIZER = PieceType(31, "Immobilizer", "i", (Slide(ALL, False),), freezer=True)

ARMY = (KING, QUEEN, ROOK, BISHOP, KNIGHT_, PAWN)
ADDED = (  # (id stem, title stem, added piece, what it does)
    ("coordinator-chess", "Coordinator Chess", ultima.COORDINATOR, "captures by coordination with its King"),
    ("immobilizer-chess", "Immobilizer Chess", IMMOBILIZER, "freezes enemy neighbours"),
    ("withdrawer-chess", "Withdrawer Chess", ultima.WITHDRAWER, "captures by withdrawal"),
    ("long-leaper-chess", "Long Leaper Chess", ultima.LEAPER, "captures by leaping"),
    ("advancer-chess", "Advancer Chess", ADVANCER, "captures by approach"),
    ("pushme-pullyu-chess", "Pushme-Pullyu Chess", PUSHME_PULLYU, "captures by withdrawal and approach"),
    ("swapper-chess", "Swapper Chess", SWAPPER, "swaps places; mutual destruction"),
    ("mimotaur-chess", "Mimotaur Chess", MIMOTAUR, "captures the way its victim captures"),
)

BOARD_10X10 = Geometry(10, range(1, 11), lambda file, rank: True)
BOARD_10X8 = Geometry(10, range(1, 9), lambda file, rank: True)


def _variant(stem: str, title: str, added: PieceType, what: str, ranks: int) -> Variant:
    x = added.letter
    rows = [f"rn{x}bqkb{x}nr", "pppppppppp"] + ["10"] * (ranks - 4) + ["PPPPPPPPPP", f"RN{x}BQKB{x}NR".upper()]
    fen = "/".join(rows) + " w KQkq - 0 1" + (" -" if added is SWAPPER else "")
    board = "10x10" if ranks == 10 else "10x8"
    return Variant(
        name=stem if ranks == 10 else f"{stem}-10x8",
        title=title if ranks == 10 else f"{title} 10x8",
        summary=f"{title} (Deckle) on {board}: chess plus the {added.name}, which {what}",
        geometry=BOARD_10X10 if ranks == 10 else BOARD_10X8,
        start_fen=fen,
        types=ARMY + (added,),
        family="deckle",
        check_rule="D5",
        freeze_rule="D9",
        swap_rule="D14",
        chess_fen=True,
        chess_army=True,
        series="Deckle's",
        suicide=True,
        castling=True,
        en_passant=True,
        pawn_advance=3 if ranks == 10 else 2,
        promotion="QRBN" + x.upper(),
        swap_ban=added is SWAPPER,
        stalemate="draw",
        fifty_moves=True,
        repetition=True,
        insufficient_material=True,
        draw_result="1/2-1/2",
    )


GAMES = tuple(_variant(stem, title, added, what, ranks)
              for stem, title, added, what in ADDED for ranks in (10, 8))
