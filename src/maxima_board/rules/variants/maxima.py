"""Maxima (maxima.md): 8x9 board plus four goal squares, nine pieces, palaces."""
from __future__ import annotations

from maxima_board.rules.geometry import Geometry
from maxima_board.rules.pieces import (ALL, KING_STEPS, KNIGHT, ORTH, Coordination, Custodian, Imitation,
                                       Leap, LeapingSlide, PieceType, Slide, StepThenSlide, Withdrawal)
from .base import Variant

KING = PieceType(1, "King", "k", (Leap(KNIGHT, wrap=True),), royal=True, imitated_as="step")
MAGE = PieceType(2, "Mage", "g", (StepThenSlide(),), never_frozen=True, imitated_as="step")
GUARD = PieceType(3, "Guard", "d", (Leap(KING_STEPS),), imitated_as="step")
WITHDRAWER = PieceType(4, "Withdrawer", "q", (Slide(ALL, False, (Withdrawal(),)),), imitated_as="withdrawal")
COORDINATOR = PieceType(5, "Coordinator", "r", (Slide(ALL, False, (Coordination(),)),),
                        imitated_as="coordination")
LEAPER = PieceType(6, "Leaper", "n", (LeapingSlide(),), imitated_as="leaping")
CHAMELEON = PieceType(7, "Chameleon", "b", (Imitation(),), freezes_freezer=True)
IMMOBILIZER = PieceType(8, "Immobilizer", "m", (Slide(ALL, False),), freezer=True)
PAWN = PieceType(9, "Pawn", "p", (Slide(ORTH, False, (Custodian(),)),), imitated_as="custodian")

TYPES = (KING, MAGE, GUARD, WITHDRAWER, COORDINATOR, LEAPER, CHAMELEON, IMMOBILIZER, PAWN)


def _geometry() -> Geometry:
    return Geometry(8, range(0, 11), lambda file, rank: 1 <= rank <= 9 or file in (3, 4))


_G = _geometry()

MAXIMA = Variant(
    name="maxima",
    title="Maxima",
    summary="Maxima (Lavieri 2003): 8x9 board with palaces, nine Ultima-style pieces, wrapping King",
    geometry=_G,
    start_fen="xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0",
    types=TYPES,
    family="maxima",
    check_rule="M12",
    freeze_rule="M9",
    palace_rule="M11",
    check="palace",
    white_goals=(_G.square("d0"), _G.square("e0")),
    black_goals=(_G.square("d10"), _G.square("e10")),
    suicide=True,
    stalemate="draw",
    bare_king=True,
    draw_result="1/2",
)
