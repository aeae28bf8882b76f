"""Optima's units (Michael Howe; optima.md): 53 piece types, pawns, guards and the Wizard,
the equal-forces sets, boards and start positions of 10x10 and 9x9; the games
themselves are :mod:`maxima_board.rules.variants.optima`.

Every unit is data: its token, name, the primitives of :mod:`maxima_board.rules.optima.movers`
and :mod:`maxima_board.rules.optima.effects` it moves and captures with, and the attributes
of O2. Codes are stable (they are stored on boards and in the compiled engine):
never renumber.
"""
from __future__ import annotations

from maxima_board.rules.geometry import Geometry
from maxima_board.rules.pieces import ALFIL, ALL, CAMEL, DABBABA, DIAG, FERZ, KING_STEPS, KNIGHT, ORTH, WAZIR, multiples
from maxima_board.rules.optima.units import ADJACENT, FIRST_ALL, FIRST_DIAG, FIRST_ORTH, KNIGHT_SQUARES, UnitType
from maxima_board.rules.optima.movers import (Bent, DoubleLeap, Fly, FlyHop, Leap, Plow, Promote, Rider,
                                              ScreenCapture, Slide)
from maxima_board.rules.optima.effects import (Approach, LeapConvert, Proximity, Rifle, StopSlide, SwapLeap,
                                               TwoPart, ZigZag, zigzag_pairs)

U = UnitType

# ---------------------------------------------------------------------------
# Section A (O7, O8, O12.1-O12.7 and the immobilizers' moves of O12.12):
# primitives from engine/optima/movers.py.
# ---------------------------------------------------------------------------
CENTAUR = U(1, "CE", "Centaur", (Leap(KNIGHT), Slide(DIAG), Leap(WAZIR)), resolute=True)
HERO = U(2, "HE", "Hero", (Leap(multiples(KING_STEPS, (1, 2, 3))),), resolute=True)
MARSHAL = U(3, "MA", "Marshal", (Slide(ORTH), Leap(KNIGHT), Leap(FERZ)), shielded=True)
MYRMIDON = U(4, "MY", "Myrmidon", (Leap(WAZIR + FERZ + KNIGHT + CAMEL),), shielded=True)
NOMAD = U(5, "NO", "Nomad", (Rider(KNIGHT + DABBABA + ALFIL),), resolute=True)
PRINCE = U(6, "PR", "Prince", (Leap(KNIGHT), Slide(ALL, range=3)), loyal=True)
QUEEN = U(7, "QU", "Queen", (Slide(ALL),), loyal=True)
BASTION = U(8, "BS", "Bastion", (Leap(FERZ), Rider(DABBABA), Rider(DABBABA, slip=2)), shielded=True)
JUGGERNAUT = U(9, "JU", "Juggernaut", (Plow(ALL, 3, armor_stops=False),), resolute=True)
LEGION = U(10, "LE", "Legion", (Plow(ORTH),))
PHALANX = U(11, "PH", "Phalanx", (Plow(DIAG), Leap(WAZIR)))
DAUPHIN = U(12, "DA", "Dauphin", (Slide(ALL), ScreenCapture(ALL, (1,))), loyal=True)
DEACON = U(13, "DE", "Deacon", (Fly(DIAG), Leap(WAZIR), ScreenCapture(DIAG, (0, 1))))
PARAPET = U(14, "PA", "Parapet", (Fly(ORTH), ScreenCapture(ORTH, (0, 1))))
GENERAL = U(15, "GE", "General", (Fly(ALL), ScreenCapture(ALL, (1,)), Leap(KING_STEPS, move=False)), shielded=True)
FALCON = U(16, "FA", "Falcon", (FlyHop(ALL, run=1),), resolute=True)
KITE = U(17, "KI", "Kite", (FlyHop(DIAG), Leap(WAZIR, replace=False), Leap(KING_STEPS, move=False)))
OWL = U(18, "OW", "Owl", (FlyHop(ORTH), Leap(KING_STEPS, move=False)))
TOWER = U(19, "TO", "Tower", (Bent(ORTH),))
PATRIARCH = U(20, "PT", "Patriarch", (Bent(DIAG), Leap(WAZIR)))
BATTLEMENT = U(21, "BT", "Battlement", (Slide(ORTH), Bent(ORTH, first=1), Bent(ORTH, second=1)))
PRELATE = U(22, "PL", "Prelate", (Slide(DIAG), Bent(DIAG, first=1), Bent(DIAG, second=1), Leap(WAZIR)))
CAVALRY = U(23, "CV", "Cavalry", (Leap(KNIGHT), DoubleLeap(KNIGHT)))
BASILISK = U(24, "BA", "Basilisk", (Leap(KING_STEPS + KNIGHT),), immobilizes=KNIGHT_SQUARES)
CHIMAERA = U(25, "CH", "Chimaera", (Slide(ORTH),), immobilizes=FIRST_ORTH)
CYCLOPS = U(26, "CY", "Cyclops", (Slide(DIAG), Leap(WAZIR, replace=False)), immobilizes=FIRST_DIAG)
GORGONA = U(27, "GO", "Gorgona", (Slide(ALL, replace=False),), immobilizes=FIRST_ALL)
MEDUSA = U(28, "ME", "Medusa", (Slide(ALL, replace=False), Leap(multiples(KING_STEPS, (1, 2)), move=False)),
           immobilizes=ADJACENT)
PAWN = U(29, "PN", "Pawn", (Promote(Slide(ORTH, range=2, replace=False), Leap(FERZ, move=False)),), kind="pawn")
GUARD = U(30, "GD", "Guard", (Slide(ALL, range=2),), armored=True, kind="guard")

SECTION_A = (CENTAUR, HERO, MARSHAL, MYRMIDON, NOMAD, PRINCE, QUEEN, BASTION, JUGGERNAUT, LEGION, PHALANX,
             DAUPHIN, DEACON, PARAPET, GENERAL, FALCON, KITE, OWL, TOWER, PATRIARCH, BATTLEMENT, PRELATE,
             CAVALRY, BASILISK, CHIMAERA, CYCLOPS, GORGONA, MEDUSA, PAWN, GUARD)




# ---------------------------------------------------------------------------
# Section B (O9.5-O9.7, O10, O11, O12.8-O12.11, O12.13-O12.17):
# primitives from engine/optima/effects.py.
# ---------------------------------------------------------------------------
CHAMBERLAIN = U(31, "CM", "Chamberlain", (TwoPart(Slide(ORTH, range=2)),), loyal=True)
MINISTER = U(32, "MI", "Minister", (TwoPart(Slide(DIAG, range=2)), Leap(WAZIR)), loyal=True)
VICEROY = U(33, "VR", "Viceroy", (TwoPart(Leap(KING_STEPS), return_on_capture=True),))
RANGER = U(34, "RA", "Ranger", (ZigZag(zigzag_pairs(ORTH)),))
SCOUT = U(35, "SC", "Scout", (Leap(WAZIR), ZigZag(zigzag_pairs(DIAG))), resolute=True)
CHAPLAIN = U(36, "CP", "Chaplain", (Leap(WAZIR, replace=False), Proximity(Leap(FERZ + ALFIL, replace=False))))
CHARGER = U(37, "CG", "Charger", (Proximity(Leap(KNIGHT, replace=False)),))
DRAGOON = U(38, "DR", "Dragoon", (Proximity(Leap(WAZIR + DABBABA, replace=False)),))
CITADEL = U(39, "CT", "Citadel", (Proximity(StopSlide(ORTH)),))
REGENT = U(40, "RE", "Regent", (Proximity(StopSlide(ALL, range=3)),))
INQUISITOR = U(41, "IN", "Inquisitor", (Proximity(StopSlide(DIAG)), Leap(WAZIR, replace=False)))
FRIGATE = U(42, "FR", "Frigate", (Proximity(Slide(ORTH), ORTH),))
SLOOP = U(43, "SL", "Sloop", (Proximity(Slide(DIAG), DIAG), Leap(WAZIR)))
ARCHER = U(44, "AR", "Archer", (Slide(ALL, range=3), Rifle(Slide(ALL, range=3))))
LANCER = U(45, "LA", "Lancer", (Leap(KING_STEPS + KNIGHT), Rifle(Leap(KING_STEPS + KNIGHT))))
SPEARMAN = U(46, "SP", "Spearman", (Slide(ORTH), Rifle(Slide(ORTH))))
SWORDSMAN = U(47, "SW", "Swordsman", (Leap(WAZIR), Slide(DIAG), Rifle(Slide(DIAG))))
WIZARD = U(48, "WI", "Wizard", (Proximity(Slide(ALL), reach=1),), immobilizes=ADJACENT, kind="wizard")
AGENT = U(49, "AG", "Agent", (Slide(DIAG, replace=False), Leap(WAZIR, replace=False), LeapConvert(DIAG)))
SPY = U(50, "SY", "Spy", (Slide(ORTH, replace=False), LeapConvert(ORTH)))
AMBASSADOR = U(51, "AM", "Ambassador", (SwapLeap(multiples(KING_STEPS, (2, 3))),))
CRUSADER = U(52, "CR", "Crusader", (SwapLeap(KING_STEPS + KNIGHT),))
KEEP = U(53, "KE", "Keep", (Leap(FERZ, replace=False), Approach(ORTH), SwapLeap(WAZIR, move=False)))
VICAR = U(54, "VI", "Vicar", (Leap(WAZIR, replace=False), Approach(DIAG), SwapLeap(FERZ, move=False)))
DIPLOMAT = U(55, "DI", "Diplomat", (Approach(ALL, 3),))
ENVOY = U(56, "EN", "Envoy", (Slide(DIAG, range=2, replace=False),
                              Proximity(Slide(ORTH, range=2, replace=False), reach=1, convert=True)))

SECTION_B = (CHAMBERLAIN, MINISTER, VICEROY, RANGER, SCOUT, CHAPLAIN, CHARGER, DRAGOON, CITADEL, REGENT,
             INQUISITOR, FRIGATE, SLOOP, ARCHER, LANCER, SPEARMAN, SWORDSMAN, WIZARD, AGENT, SPY, AMBASSADOR,
             CRUSADER, KEEP, VICAR, DIPLOMAT, ENVOY)




# ---------------------------------------------------------------------------
UNITS = SECTION_A + SECTION_B
BY_TOKEN = {u.token: u for u in UNITS}
PIECE_TOKENS = tuple(sorted(u.token for u in UNITS if u.kind == "piece"))  # the 53 of O2

# Project default equal-forces sets (O4; optima.md decision 25).
E10 = ("AR", "CE", "CH", "FA", "JU", "KE", "MA", "QU", "RE", "VR*")
E9 = ("CH", "FA", "QU", "RE", "VR*")

BOARD_10X10 = Geometry(10, range(1, 11), lambda file, rank: True)
BOARD_9X9 = Geometry(9, range(1, 10), lambda file, rank: True)

START_10 = ("10/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
            "GDGDGDGDGDGDGDGDGDGD/10 w eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0")
START_9 = ("9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/9 w "
           "eq:CHFAQUREVR*chfaqurevr* - 0")
