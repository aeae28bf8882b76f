"""OptimaPosition: an Optima game (O1-O16) behind the engine's Position API.

``Position(fen, "optima")`` (or ``"optima-9x9"``) returns one. The state is
the board (signed unit values, :mod:`.units`), the side to move, the
:class:`~.placement.Reserve` (placement phase, O5), the options (O14), the
ply, and two things a FEN does not hold (O16): the kind of forces the game
was set up with and how many royal units each side started with.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from maxima_board.rules import variants
from maxima_board.rules.notation import FenError, Move, MoveError, parse_move
from maxima_board.rules.position import Check, Outcome, Position, Signature
from maxima_board.rules.variants.base import BLACK, WHITE, Variant
from . import fen as fenmod
from .placement import Reserve, count_placements, placements, set_size, side_at
from .tables import PLACE, PROMOTE, SWAP, Options, Tables
from .units import ROYAL, TYPE_MASK, UnitType

FORCES = ("eq", "u1", "u2", "random")
_TABLES: dict[tuple[str, Options], Tables] = {}


def tables_for(variant: Variant, options: Options) -> Tables:
    """The (cached) :class:`Tables` of ``variant`` under ``options``."""
    key = (variant.name, options)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = Tables(variant, options)
    return table


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its unsigned ``code`` (type code, ROYAL bit) and ``color``."""

    code: int
    color: int
    type: UnitType

    @property
    def royal(self) -> bool:
        return bool(self.code & ROYAL)

    @property
    def token(self) -> str:
        """The FEN token: upper case for White, ``*`` when royal (O2)."""
        t = self.type.token if self.color == WHITE else self.type.token.lower()
        return t + ("*" if self.royal else "")

    letter = token

    @property
    def name(self) -> str:
        return self.type.name


def royal_count(board: list[int], color: int) -> int:
    return fenmod.royal_count(board, color)


class OptimaPosition(Position):
    """A position of Optima with its move history (see :mod:`maxima_board.rules.position`
    for the shared API; Optima adds ``phase``, ``reserve``, ``placeable()``,
    ``forces``, ``options`` and ``royal_attacked()``).

    >>> p = Position("start", "optima")
    >>> p.phase, len(p.legal_moves), str(p.legal_moves[0])
    ('placement', 100, 'AR@a1')
    """

    def __init__(self, fen: str | None = "start", variant: "Variant | str" = "optima", *, validate: bool = True,
                 forces: str | None = None, royals: int | None = None):
        variant = variants.get(variant)
        if not variant.uses_units:
            raise ValueError(f"{variant.title} is not an Optima game")
        if fen is None or fen == "start":
            fen = variant.start_fen
        data = fenmod.parse(fen, validate, variant)
        if forces is not None and forces not in FORCES:
            raise ValueError(f"unknown forces {forces!r} (known: {', '.join(FORCES)})")
        if data.reserve.kind and forces not in (None, data.reserve.kind):
            raise FenError(f"the FEN's reserve is {data.reserve.kind}, not {forces}")
        self.variant: Variant = data.variant
        self.geometry = self.variant.geometry
        self.n = self.geometry.files
        self.options: Options = data.options
        self.tables = tables_for(self.variant, self.options)
        self.board: list[int] = data.board
        self.turn: int = data.turn
        self._reserve: Reserve = data.reserve
        self._ply = data.ply
        self.forces: str | None = data.reserve.kind or forces
        self.royals: dict[int, int] = self._start_royals(royals)
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._cache: dict[str, object] = {}
        self._seen: Counter = Counter({self._key(): 1})

    def _start_royals(self, royals: int | None) -> dict[int, int]:
        """Royal units each side started the game with (O13: game state, not FEN)."""
        r = self._reserve
        if royals is not None:
            if royals not in (1, 2):
                raise ValueError(f"royals must be 1 or 2, got {royals!r}")
            return {WHITE: royals, BLACK: royals}
        if r.kind in ("u1", "u2"):
            k = 1 if r.kind == "u1" else 2
            return {WHITE: k, BLACK: k}
        out = {}
        for c in (WHITE, BLACK):
            on_board = royal_count(self.board, c)
            in_hand = sum(1 for code in r.source(c) if code & ROYAL) if r.kind == "eq" else 0
            out[c] = max(on_board + in_hand, 1)
        return out

    # ------------------------------------------------------------ state
    @property
    def ply(self) -> int:
        """Half-moves (placements included) since the game's start (O15)."""
        return self._ply

    @property
    def phase(self) -> str:
        """``"placement"`` while units are still to place (O5), else ``"movement"``."""
        return "placement" if self._reserve else "movement"

    @property
    def reserve_state(self) -> Reserve:
        """The reserve as the engine holds it (unsigned codes)."""
        return self._reserve

    @property
    def reserve(self) -> tuple[str, ...]:
        """Tokens the side to move draws from (upper case, ``*`` when royal,
        canonical order): its own hand (eq) or the shared pool (u1/u2);
        empty in the movement phase. :meth:`hand` gives either side's."""
        return self.hand(self.turn)

    def hand(self, color: int) -> tuple[str, ...]:
        """Tokens ``color`` may still place from (hand or pool), with repeats."""
        return tuple(fenmod.token_of(code) for code in self._reserve.source(color))

    def placeable(self) -> tuple[str, ...]:
        """Distinct tokens the side to move may place now (O5: the royals
        first in u1/u2); empty in the movement phase."""
        if not self._reserve:
            return ()
        return tuple(fenmod.token_of(code) for code in self._reserve.placeable(self.turn))

    def _key(self) -> tuple:
        """O13's repetition key: board with royal marks, side, reserve (the
        rules field is the same throughout a game)."""
        return (self.turn, self._reserve, *self.board)

    def _fen_data(self) -> fenmod.OptimaFen:
        return fenmod.OptimaFen(self.variant, self.board, self.turn, self._reserve, self.options, self._ply)

    def fen(self) -> str:
        """The canonical FEN (O15); it reads back to the same position."""
        return fenmod.format(self._fen_data())

    def _own_state(self) -> dict[str, object]:
        return {**self._history_state(), "royals": dict(self.royals)}

    def piece_at(self, square: int | str) -> Unit | None:
        sq = self.geometry.square(square) if isinstance(square, str) else square
        v = self.board[sq]
        return self._unit(v) if v else None

    def _unit(self, v: int) -> Unit:
        code = abs(v)
        return Unit(code, WHITE if v > 0 else BLACK, self.tables.units[code & TYPE_MASK])

    def pieces(self) -> Iterator[tuple[int, Unit]]:
        for sq, v in enumerate(self.board):
            if v:
                yield sq, self._unit(v)

    # ------------------------------------------------------------ moves
    def _move(self, raw: tuple) -> Move:
        s, t, caps, convs, flags = raw
        g = self.geometry
        if s == PLACE:
            return Move(t, t, (), g, None, "placement", (), fenmod.token_of(abs(flags)))
        if flags & SWAP:
            kind = "swap conversion"
        elif s == t:
            kind = "shot"
        elif convs:
            kind = "conversion"
        elif t in caps:
            kind = "replacement"
        else:
            kind = "move"
        return Move(s, t, tuple(sorted(caps)), g, "WI" if flags & PROMOTE else None, kind, tuple(sorted(convs)))

    def _raw_legal(self) -> list[tuple]:
        raw = self._cache.get("raw")
        if raw is None:
            if self._reserve:
                raw = placements(self.board, self.n, self.turn, self._reserve)
            else:
                raw = self.tables.board_moves(self.board, self.turn)
            self._cache["raw"] = raw
        return raw  # type: ignore[return-value]

    @property
    def legal_moves(self) -> list[Move]:
        """Legal moves (O5 placements or O6 moves; no check, O13), sorted in
        byte order of their canonical text (O15)."""
        return super().legal_moves

    def parse_move(self, text: str) -> Move:
        """A legal move from its O15 text (``AR@e1``, ``e5-e5xg7``,
        ``e9-e10=WI``, ``e5-e6^e6``; a unit token may prefix a board move).
        ``FROM-TO`` without ``x`` or ``^`` (or ``=WI``: promotion is
        compulsory, O7) names the legal move from FROM to TO when there is
        exactly one."""
        if isinstance(text, Move):
            text = str(text)
        move = parse_move(text, self.geometry, self.variant.move_forms)
        legal = self.legal_moves
        wanted = str(move)
        for m in legal:
            if str(m) == wanted:
                return m
        if move.placed is None and not move.captures and not move.converts:
            matches = [m for m in legal if m.placed is None and m.from_square == move.from_square
                       and m.to_square == move.to_square and move.promotion in (None, m.promotion)]
            if len(matches) == 1:
                return matches[0]
        raise MoveError(f"illegal move {str(text).strip()!r} in {self.fen()}")

    def _play(self, raw: tuple) -> None:
        saved = (raw, self.turn, self._reserve, self._cache)
        if raw[0] == PLACE:
            t, value = raw[1], raw[4]
            self.board[t] = value
            self._reserve, self.turn = self._after_placement(self._reserve, self.turn, abs(value))
            undo = None
        else:
            undo = self.tables.make(self.board, raw)
            self.turn = -self.turn
        self._undo.append((saved, undo))
        self._ply += 1
        self._cache = {}

    def _after_placement(self, reserve: Reserve, color: int, code: int) -> tuple[Reserve, int]:
        """Reserve and side to move after ``color`` placed ``code`` (O5): the
        schedule's next side, or White once the reserve is empty."""
        rest = reserve.take(color, code)
        if not rest:
            return Reserve(), WHITE
        return rest, side_at(rest.kind, 2 * set_size(self.n) - rest.left)

    def pop(self) -> Move:
        """Take back the last move (placements included) and return it."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        self._forget_current()
        self._unplay()
        return self.move_stack.pop()

    def _unplay(self) -> None:
        """Undo the last :meth:`_play` (board, side, reserve, ply)."""
        (raw, turn, reserve, cache), undo = self._undo.pop()
        if raw[0] == PLACE:
            self.board[raw[1]] = 0
        else:
            self.tables.unmake(self.board, raw, undo)
        self.turn, self._reserve, self._cache = turn, reserve, cache
        self._ply -= 1

    def board_after(self, move: Move) -> list[int]:
        """The board (a list by square) after the legal ``move``, without playing it."""
        raw = self._legal_map().get(move)
        if raw is None:
            raise MoveError(f"illegal move {move} in {self.fen()}")
        board = list(self.board)
        if raw[0] == PLACE:
            board[raw[1]] = raw[4]
        else:
            self.tables.make(board, raw)
        return board

    def signature(self, move: Move) -> Signature:
        """The physical difference of the legal ``move`` (controller.md):
        a placement fills one square; conversions and swaps replace; a rifle
        shot vacates only its target. ``choice`` is True for a placement
        (the board cannot see which unit was set down)."""
        sig = super().signature(move)
        return Signature(sig.vacated, sig.filled, sig.replaced, move.placed is not None)

    def piece_letter(self, move: Move) -> str:
        """The moving unit's token in upper case without ``*`` (records
        write ``ARe5-e5xg7``); empty for a placement, which names its unit."""
        if move.placed is not None:
            return ""
        return self.tables.units[abs(self.board[move.from_square]) & TYPE_MASK].token

    def pseudo_moves(self, color: int) -> list[Move]:
        """``color``'s movement-phase moves as if it were its turn (O6, O10)."""
        raw = self.tables.board_moves(self.board, color)
        return sorted((self._move(m) for m in raw), key=str)

    # ------------------------------------------------------------ status
    def royal_attacked(self) -> list[int]:
        """Squares of the side to move's royal units that some move of the
        opponent, if it were to move, would capture (by any method, O13).
        There is no check in Optima: this is information only."""
        hit = self._cache.get("royal_attacked")
        if hit is None:
            hit = []
            if not self._reserve:
                c = self.turn
                royal = {sq for sq, v in enumerate(self.board) if v * c > 0 and (v * c) & ROYAL}
                if royal:
                    hit = sorted({q for m in self.tables.board_moves(self.board, -c) for q in m[2] if q in royal})
            self._cache["royal_attacked"] = hit
        return list(hit)  # type: ignore[arg-type]

    def is_check(self) -> bool:
        """Whether a royal unit of the side to move is attacked (see :meth:`royal_attacked`)."""
        return bool(self.royal_attacked())

    def check_info(self) -> Check:
        hit = self.royal_attacked()
        if not hit:
            return Check(None, (), ())
        attackers = sorted({m[0] for m in self.tables.board_moves(self.board, -self.turn)
                            if any(q in hit for q in m[2])})
        return Check(hit[0], (), tuple(attackers))

    def immobilized(self) -> list[int]:
        """Squares of every immobilized unit, both colours (O10); none while placing."""
        if self._reserve:
            return []
        T = self.tables
        return sorted(T.frozen(self.board, WHITE) | T.frozen(self.board, BLACK))

    def outcome(self) -> Outcome | None:
        """O13 after the last move, for O = the side to move: "royal
        captured" (O has fewer royal units than it started with), "no moves"
        (movement phase), "threefold repetition"; None while the game goes on."""
        if "outcome" in self._cache:
            return self._cache["outcome"]  # type: ignore[return-value]
        result: Outcome | None = None
        if not self._reserve:
            side = self.turn
            mover = -side
            won = "1-0" if mover == WHITE else "0-1"
            if royal_count(self.board, side) < self.royals[side]:
                result = Outcome(won, "royal captured", mover)
            elif not self._raw_legal():
                result = Outcome(won, "no moves", mover)
            elif self.repetitions() >= 3:
                result = Outcome(self.variant.draw_result, "threefold repetition", None)
        self._cache["outcome"] = result
        return result

    # ------------------------------------------------------------ perft
    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree (game end ignored)."""
        return self._perft(self.board, self.turn, self._reserve, depth)

    def _perft(self, b: list[int], c: int, reserve: Reserve, depth: int) -> int:
        if depth <= 0:
            return 1
        if reserve:
            if depth == 1:
                return count_placements(b, self.n, c, reserve)
            total = 0
            for _, t, _, _, value in placements(b, self.n, c, reserve):
                rest, nxt = self._after_placement(reserve, c, abs(value))
                b[t] = value
                total += self._perft(b, nxt, rest, depth - 1)
                b[t] = 0
            return total
        T = self.tables
        moves = T.board_moves(b, c)
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            undo = T.make(b, m)
            total += self._perft(b, -c, reserve, depth - 1)
            T.unmake(b, m, undo)
        return total

    def divide(self, depth: int) -> dict[str, int]:
        """Leaves below each legal move, keyed by its canonical text, in legal-move order."""
        out = {}
        table = self._legal_map()
        for move in self.legal_moves:
            raw = table[move]
            self._play(raw)
            out[str(move)] = self._perft(self.board, self.turn, self._reserve, depth - 1)
            self._unplay()
        return out

    def __repr__(self) -> str:
        return f"Position({self.fen()!r}, {self.variant.name!r})"
