"""Ultima (ultima.md): Abbott's standard rules and Sewell's "pure" rules."""
from __future__ import annotations

from maxima_board.rules.geometry import Geometry
from maxima_board.rules.pieces import (ALL, KING_STEPS, ORTH, Coordination, Custodian, Imitation, Leap,
                                       LeapingSlide, PieceType, Slide, Withdrawal)
from .base import Variant

KING = PieceType(11, "King", "k", (Leap(KING_STEPS),), royal=True, imitated_as="step")
PAWN = PieceType(12, "Pawn", "p", (Slide(ORTH, False, (Custodian(),)),), imitated_as="custodian")
WITHDRAWER = PieceType(13, "Withdrawer", "w", (Slide(ALL, False, (Withdrawal(),)),), imitated_as="withdrawal")
COORDINATOR = PieceType(14, "Coordinator", "c", (Slide(ALL, False, (Coordination(),)),),
                        imitated_as="coordination")
LEAPER = PieceType(15, "Long Leaper", "l", (LeapingSlide(),), imitated_as="leaping")
CHAMELEON = PieceType(16, "Chameleon", "h", (Imitation(),), freezes_freezer=True)
IMMOBILIZER = PieceType(17, "Immobilizer", "i", (Slide(ALL, False),), freezer=True)

TYPES = (KING, PAWN, WITHDRAWER, COORDINATOR, LEAPER, CHAMELEON, IMMOBILIZER)
GEOMETRY = Geometry(8, range(1, 9), lambda file, rank: True)
START = "clhwkhli/pppppppp/8/8/8/8/PPPPPPPP/ILHKWHLC w 0"

ULTIMA = Variant(
    name="ultima", title="Ultima",
    summary="Ultima / Baroque chess (Abbott 1962), standard rules: combined Chameleon captures, suicide",
    geometry=GEOMETRY, start_fen=START, types=TYPES, family="ultima", check_rule="U11", freeze_rule="U9",
    suicide=True, immobilization="standard", chameleon_pure=False, stalemate="mover wins")

ULTIMA_PURE = Variant(
    name="ultima-pure", title="Ultima (pure)",
    summary="Ultima, Sewell's pure rules: neutralized Immobilizers, no suicide, leaping Chameleon takes only Leapers",
    geometry=GEOMETRY, start_fen=START, types=TYPES, family="ultima", check_rule="U11", freeze_rule="U9",
    suicide=False, immobilization="pure", chameleon_pure=True, stalemate="mover wins")
