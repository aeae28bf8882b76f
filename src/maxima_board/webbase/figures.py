"""Pieces drawn as the physical pieces that stand for them on the board
(docs/building.md, "Which pieces stand for which type"; Optima's labelled
caps: docs/optima-board.md): a Withdrawer is drawn as the Queen players put
there, an Immobilizer as an upside-down Rook, a Mage as a Queen with a
coloured ring, a Guard as a King without its cross, an Optima unit (its
guards too) as a cap with its two-letter label, its pawns as chess Pawns and
its Wizard as a chess Queen. Every figure is plain SVG in a 100 × 100 box, so
no font has to hold a chess glyph.
"""
from __future__ import annotations

from dataclasses import dataclass

from maxima_board.rules.variants.base import Variant

ORTHODOX = ("King", "Queen", "Rook", "Bishop", "Knight", "Pawn")
RING = "#e39b16"       # the Mage's ring and the gold of a royal Optima cap
FONT = "Liberation Sans, Arial, Helvetica, sans-serif"


@dataclass(frozen=True)
class StandIn:
    """The physical piece for a type: a chess ``figure`` (``"king"``,
    ``"queen"``, ``"rook"``, ``"bishop"``, ``"knight"``, ``"pawn"``) or
    ``"cap"``, turned over (``flipped``), with a coloured ``ring``, without
    its ``cross``, or a cap's ``label``; ``words`` say it for people."""

    figure: str
    words: str
    flipped: bool = False
    ring: bool = False
    cross: bool = True
    label: str = ""
    royal: bool = False


_ULTIMA_STYLE = {  # Maxima's and Ultima's pieces (building.md)
    "King": StandIn("king", "King"),
    "Withdrawer": StandIn("queen", "a Queen"),
    "Coordinator": StandIn("rook", "a Rook"),
    "Immobilizer": StandIn("rook", "a Rook upside down", flipped=True),
    "Leaper": StandIn("knight", "a Knight"),
    "Long Leaper": StandIn("knight", "a Knight"),
    "Chameleon": StandIn("bishop", "a Bishop"),
    "Pawn": StandIn("pawn", "Pawn"),
    "Mage": StandIn("queen", "a Queen with a coloured ring", ring=True),
    "Guard": StandIn("king", "a King without its cross", cross=False),
}
# Optima's pawns and Wizard are chess pieces; its guards, like its other units, caps labelled GD
# (optima-board.md, "Stand-ins": two chess sets hold too few rooks and kings for ten a side)
_OPTIMA_KINDS = {"pawn": StandIn("pawn", "a chess Pawn"), "wizard": StandIn("queen", "a chess Queen")}


def stand_in(variant: Variant, name: str, token: str = "", royal: bool = False, kind: str = "piece") -> StandIn:
    """The physical piece for the type ``name`` of ``variant`` (Optima:
    its ``token``, whether it is ``royal``, and its ``kind``)."""
    if variant.uses_units:
        if kind in _OPTIMA_KINDS:
            return _OPTIMA_KINDS[kind]
        words = f"a cap labelled {token}" + (" with a gold ring" if royal else "")
        return StandIn("cap", words, label=token, royal=royal)
    if variant.chess_army:
        if name in ORTHODOX:
            return StandIn(name.lower(), name)
        return StandIn("rook", "a Rook upside down", flipped=True)
    return _ULTIMA_STYLE.get(name, StandIn("cap", name, label=name[:2]))


def _colours(white: bool) -> tuple[str, str, str]:
    """Fill, outline and the colour of details drawn on the piece."""
    return ("#fbfbf8", "#1d1d1d", "#1d1d1d") if white else ("#262626", "#0b0b0b", "#e8e8e8")


_BASE = '<rect x="22" y="79" width="56" height="12" rx="3"/>'
_SHAPES = {
    "pawn": '<circle cx="50" cy="27" r="13"/><rect x="35" y="41" width="30" height="7" rx="3"/>'
            '<path d="M40 48 C40 60 34 70 30 80 L70 80 C66 70 60 60 60 48 Z"/>' + _BASE,
    "rook": '<path d="M27 12 H38 V20 H45 V12 H55 V20 H62 V12 H73 V33 H27 Z"/>'
            '<path d="M33 33 H67 L69 79 H31 Z"/>' + _BASE,
    "bishop": '<circle cx="50" cy="9" r="5"/><path d="M50 13 C65 25 66 41 58 52 H42 C34 41 35 25 50 13 Z"/>'
              '<rect x="37" y="52" width="26" height="7" rx="3"/>'
              '<path d="M42 59 C42 66 36 72 32 80 H68 C64 72 58 66 58 59 Z"/>' + _BASE,
    "knight": '<path d="M33 80 H70 C72 60 71 40 63 28 C57 18 48 14 42 15 L39 7 L33 17 C26 22 22 31 19 41 '
              'C17 48 22 53 29 50 C35 47 39 44 45 42 C43 55 35 65 33 80 Z"/>' + _BASE,
    "queen": '<path d="M32 61 L23 24 L32 44 L37 16 L44 41 L50 11 L56 41 L63 16 L68 44 L77 24 L68 61 Z"/>'
             '<circle cx="23" cy="22" r="4"/><circle cx="37" cy="14" r="4"/><circle cx="50" cy="9" r="4"/>'
             '<circle cx="63" cy="14" r="4"/><circle cx="77" cy="22" r="4"/>'
             '<path d="M33 61 H67 L70 79 H30 Z"/>' + _BASE,
    "king": '<path d="M31 60 C21 44 28 28 41 32 C44 27 56 27 59 32 C72 28 79 44 69 60 Z"/>'
            '<path d="M32 60 H68 L71 79 H29 Z"/>' + _BASE,
}
_DETAILS = {   # lines in the contrasting colour
    "bishop": '<path d="M55 24 L46 37" stroke-width="4" fill="none"/>',
    "knight": '<circle cx="37" cy="27" r="3.5" stroke="none"/>',
    "rook": '<path d="M31 33 H69" stroke-width="3" fill="none"/>',
    "queen": '<path d="M33 61 H67" stroke-width="3" fill="none"/>',
    "king": '<path d="M32 60 H68" stroke-width="3" fill="none"/>',
}
_CROSS = '<rect x="46" y="4" width="8" height="26" rx="1"/><rect x="39" y="10" width="22" height="8" rx="1"/>'
_KNOB = '<rect x="43" y="23" width="14" height="7" rx="3"/>'


def figure_svg(piece: StandIn, white: bool) -> str:
    """The stand-in's drawing in a 100 × 100 box (SVG elements, no <svg>)."""
    fill, outline, detail = _colours(white)
    if piece.figure == "cap":
        ring = (f'<circle cx="50" cy="50" r="43" fill="none" stroke="{RING}" stroke-width="7"/>'
                if piece.royal else "")
        # the label as large as the cap allows: it must stay readable on a dashboard card (its coordinates take
        # a little of the card's width)
        return (f'<g class="figure"><circle cx="50" cy="50" r="47" fill="{fill}" stroke="{outline}" stroke-width="4"/>'
                f'{ring}<text x="50" y="52" font-size="{53 if len(piece.label) > 1 else 60}" font-weight="bold" '
                f'font-family="{FONT}" text-anchor="middle" dominant-baseline="central" fill="{detail}" '
                f'letter-spacing="-2">{piece.label}</text></g>')
    body = _SHAPES[piece.figure]
    if piece.figure == "king":
        body = (_CROSS if piece.cross else _KNOB) + body
    extra = ""
    if piece.ring:
        extra = f'<rect x="31" y="64" width="38" height="8" fill="{RING}" stroke="{outline}" stroke-width="2"/>'
    details = _DETAILS.get(piece.figure, "")
    flip = ' transform="rotate(180 50 50)"' if piece.flipped else ""
    return (f'<g class="figure"{flip}><g fill="{fill}" stroke="{outline}" stroke-width="4" stroke-linejoin="round">'
            f'{body}</g><g stroke="{detail}" fill="{detail}">{details}</g>{extra}</g>')
