"""Material values of every piece of the family, in centipawns (a Pawn is
100), by piece type code (codes are unique across games, see
``maxima_board.rules.pieces``). These are the baseline players' estimates, not tuned
values; the King counts 0 (it is never captured in a legal game).
"""
from __future__ import annotations

VALUES: dict[int, int] = {
    # Maxima (M1-M15)
    1: 0,      # King
    2: 800,    # Mage
    3: 250,    # Guard
    4: 400,    # Withdrawer
    5: 500,    # Coordinator
    6: 600,    # Leaper
    7: 450,    # Chameleon
    8: 700,    # Immobilizer
    9: 100,    # Pawn
    # Ultima (U1-U15)
    11: 0,     # King
    12: 100,   # Pawn
    13: 400,   # Withdrawer
    14: 450,   # Coordinator
    15: 500,   # Long Leaper
    16: 500,   # Chameleon
    17: 600,   # Immobilizer
    # Deckle's games (D1-D18)
    21: 0,     # King
    22: 900,   # Queen
    23: 500,   # Rook
    24: 325,   # Bishop
    25: 300,   # Knight
    26: 100,   # Pawn
    27: 500,   # Advancer
    28: 700,   # Pushme-Pullyu
    29: 350,   # Swapper
    30: 500,   # Mimotaur
    31: 600,   # Immobilizer
}


# Optima (O2): by unit token, the values of engine/optima_units.c on 10x10 (the 12 types of the
# default set fitted to self-play from E10, the other 44 to self-play from varied forces, by
# opponent/tune.py; docs/opponent-engine.md, Optima); a royal unit counts as its type.
# tests/test_opponent_engine_optima_values.py keeps the tables equal.
OPTIMA_TOKEN_VALUES: dict[str, int] = {
    "CE": 622, "HE": 692, "MA": 642, "MY": 584, "NO": 825, "PR": 483, "QU": 822, "BS": 290, "JU": 655,
    "LE": 855, "PH": 575, "DA": 914, "DE": 359, "PA": 501, "GE": 933, "FA": 784, "KI": 516, "OW": 573,
    "TO": 786, "PT": 657, "BT": 743, "PL": 583, "CV": 467, "BA": 670, "CH": 1039, "CY": 672, "GO": 1221,
    "ME": 992, "PN": 131, "GD": 185, "CM": 557, "MI": 513, "VR": 270, "RA": 588, "SC": 533, "CP": 697,
    "CG": 363, "DR": 647, "CT": 593, "RE": 902, "IN": 717, "FR": 724, "SL": 439, "AR": 623, "LA": 530,
    "SP": 451, "SW": 543, "WI": 1015, "AG": 508, "SY": 564, "AM": 477, "CR": 477, "KE": 765, "VI": 376,
    "DI": 679, "EN": 612,
}
# The 9x9 board's own table (optima_units.c's VALUES_9X9), fitted to 9x9 self-play from varied forces.
OPTIMA_9X9_TOKEN_VALUES: dict[str, int] = {
    "CE": 702, "HE": 654, "MA": 656, "MY": 557, "NO": 742, "PR": 666, "QU": 806, "BS": 462, "JU": 572,
    "LE": 589, "PH": 469, "DA": 933, "DE": 501, "PA": 652, "GE": 725, "FA": 711, "KI": 484, "OW": 695,
    "TO": 810, "PT": 525, "BT": 653, "PL": 587, "CV": 406, "BA": 578, "CH": 1113, "CY": 655, "GO": 917,
    "ME": 812, "PN": 107, "GD": 239, "CM": 519, "MI": 578, "VR": 520, "RA": 561, "SC": 440, "CP": 541,
    "CG": 494, "DR": 400, "CT": 700, "RE": 928, "IN": 604, "FR": 658, "SL": 562, "AR": 544, "LA": 499,
    "SP": 570, "SW": 658, "WI": 1030, "AG": 631, "SY": 575, "AM": 611, "CR": 529, "KE": 774, "VI": 546,
    "DI": 666, "EN": 690,
}


def _optima_values(by_token: dict[str, int]) -> dict[int, int]:
    from maxima_board.rules.optima.units import ROYAL
    from maxima_board.rules.variants.optima import UNITS
    out = {}
    for unit in UNITS:
        out[unit.code] = out[unit.code | ROYAL] = by_token[unit.token]
    return out


OPTIMA_VALUES: dict[int, int] = _optima_values(OPTIMA_TOKEN_VALUES)
OPTIMA_9X9_VALUES: dict[int, int] = _optima_values(OPTIMA_9X9_TOKEN_VALUES)


def material(board: list[int], optima: bool = False) -> int:
    """White's material minus Black's (board values are ±code, + White);
    ``optima``: the board is an Optima board (its codes are Optima's, O2; 81 squares: the 9x9 table)."""
    values = (OPTIMA_9X9_VALUES if len(board) == 81 else OPTIMA_VALUES) if optima else VALUES
    total = 0
    for v in board:
        if v > 0:
            total += values.get(v, 0)
        elif v < 0:
            total -= values.get(-v, 0)
    return total
