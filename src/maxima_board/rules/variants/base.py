"""What a game is: geometry, pieces, set-up and rule switches, all data."""
from __future__ import annotations

from dataclasses import dataclass, field

from maxima_board.rules.geometry import Geometry
from maxima_board.rules.move_forms import CANONICAL, MoveForms
from maxima_board.rules.pieces import PieceType

WHITE = 1
BLACK = -1


@dataclass(frozen=True, eq=False)
class Variant:
    """One game of the family.

    ``name`` is the id (``"swapper-chess-10x8"``), ``title`` the name people
    write (``"Swapper Chess 10x8"``), ``summary`` one line for listings.
    ``types`` are the piece types; ``family`` is the group the game belongs
    to (``"maxima"``, ``"ultima"``, ``"deckle"``, ``"optima"``): a key of
    tables (the computer's levels, who can still win) and of listings, never
    a switch: what a game does differently is one of the fields below.
    Rule switches:

    - ``check``: ``"palace"`` (M12 winning replies: King capture or palace
      invasion, with goal squares ``white_goals``/``black_goals``) or ``"king"``;
    - ``suicide``: an immobilized non-King may remove itself;
    - ``immobilization``: ``"standard"`` or ``"pure"`` (U9);
    - ``chameleon_pure``: a Chameleon move that jumps takes only the jumped (U8);
    - ``castling``, ``en_passant``, ``pawn_advance`` (longest initial advance),
      ``promotion`` (letters, display order), ``swap_ban`` (FEN field 7);
    - ``stalemate``: ``"draw"`` or ``"mover wins"``; ``bare_king`` (M13);
      ``fifty_moves``, ``repetition``, ``insufficient_material`` (D16);
      ``draw_result``: how a draw is written;
    - ``units``: Optima's unit types (:mod:`maxima_board.rules.optima.units`), which
      replace ``types`` in the ``"optima"`` family;
    - ``move_forms``: the grammar of its move texts (:mod:`maxima_board.rules.move_forms`);
    - ``position_class``: the class whose instances play it (Optima's
      :class:`~maxima_board.rules.optima.position.OptimaPosition`); None: the plain
      :class:`~maxima_board.rules.position.Position`;
    - ``forces``: the kinds of forces a game is set up with (O4), none for most;
    - ``chess_fen``: the FEN and state of chess (D3: castling rights, en-passant
      squares, half-move clock, move number) instead of M14's;
    - ``chess_army``: chess's army plus one piece (D1), stood in by chess pieces;
    - ``series``: how a game's series is named where the games differ only in
      an added piece (``"Deckle's"``), else empty;
    - ``check_rule``: the rule that forbids leaving the King attacked (M12, U11, D5);
    - ``freeze_rule``, ``palace_rule``, ``swap_rule``: the rules that freeze a
      piece (M9, U9, D9, O10), forbid filling the own palace (M11) and forbid
      the swap back (D14), named when a move is refused (:mod:`maxima_board.rules.teaching`).
    """

    name: str
    title: str
    summary: str
    geometry: Geometry
    start_fen: str
    types: tuple[PieceType, ...]
    family: str
    check: str = "king"
    white_goals: tuple[int, ...] = ()
    black_goals: tuple[int, ...] = ()
    suicide: bool = False
    immobilization: str = "standard"
    chameleon_pure: bool = False
    castling: bool = False
    en_passant: bool = False
    pawn_advance: int = 1
    promotion: str = ""
    swap_ban: bool = False
    stalemate: str = "draw"
    bare_king: bool = False
    fifty_moves: bool = False
    repetition: bool = False
    insufficient_material: bool = False
    draw_result: str = "1/2"
    units: tuple = ()
    move_forms: MoveForms = CANONICAL
    position_class: type | None = None
    forces: tuple[str, ...] = ()
    chess_fen: bool = False
    chess_army: bool = False
    series: str = ""
    check_rule: str = ""
    freeze_rule: str = ""
    palace_rule: str = ""
    swap_rule: str = ""
    letters: dict[str, PieceType] = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "letters", {t.letter: t for t in self.types})

    @property
    def uses_units(self) -> bool:
        """Whether the pieces are Optima's units (two-letter tokens, royal units, O2) rather than ``types``."""
        return bool(self.units)

    def type_of(self, letter: str) -> PieceType:
        """The piece type of a FEN letter (either case); KeyError if not in this game."""
        return self.letters[letter.lower()]

    def goals(self, color: int) -> tuple[int, ...]:
        """The palace of ``color`` (Maxima's goal squares), empty elsewhere."""
        return self.white_goals if color == WHITE else self.black_goals

    def __repr__(self) -> str:
        return f"Variant({self.name!r})"
