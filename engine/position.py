"""The public position API, modelled on python-chess's Board."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from .movegen import Rules
from .notation import FenError, Move, MoveError, format_fen, parse_fen, parse_move
from .variant import (BLACK, KING, MAXIMA, PIECE_LETTERS, PIECE_NAMES, WHITE, Variant)

_RULES: dict[str, Rules] = {}


def rules_for(variant: Variant) -> Rules:
    rules = _RULES.get(variant.name)
    if rules is None:
        rules = _RULES[variant.name] = Rules(variant)
    return rules


@dataclass(frozen=True, slots=True)
class Piece:
    code: int   # KING, MAGE, ... (see engine.variant)
    color: int  # WHITE or BLACK

    @property
    def letter(self) -> str:
        letter = PIECE_LETTERS[self.code]
        return letter.upper() if self.color == WHITE else letter

    @property
    def name(self) -> str:
        return PIECE_NAMES[self.code]


@dataclass(frozen=True, slots=True)
class Check:
    """Why the side to move is in check (M12): the King's square if a reply
    would capture it, and the goal squares through which a reply would
    complete the invasion of its palace."""

    king: int | None
    palace: tuple[int, ...]
    attackers: tuple[int, ...]

    def __bool__(self) -> bool:
        return self.king is not None or bool(self.palace)


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str          # "1-0", "0-1" or "1/2"
    reason: str          # "palace invaded", "bare king", "checkmate", "stalemate"
    winner: int | None   # WHITE, BLACK or None


class Position:
    """A Maxima position with its move history.

    >>> p = Position()
    >>> len(p.legal_moves)
    41
    """

    def __init__(self, fen: str | None = "start", variant: Variant = MAXIMA, *, validate: bool = True):
        self.variant = variant
        self.geometry = variant.geometry
        self._rules = rules_for(variant)
        if fen is None or fen == "start":
            fen = variant.start_fen
        board, turn, plies = parse_fen(fen, variant)
        self.board: list[int] = board
        self.turn: int = turn
        self.ply: int = plies
        self.kings = [-1, -1, -1]
        self._set_kings()
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._cache: dict[str, object] = {}
        self._seen: Counter = Counter({self._key(): 1})
        if validate:
            self._validate()

    # ------------------------------------------------------------ state
    def _set_kings(self) -> None:
        counts = {WHITE: 0, BLACK: 0}
        for sq, v in enumerate(self.board):
            if abs(v) == KING:
                c = WHITE if v > 0 else BLACK
                counts[c] += 1
                self.kings[c] = sq
        self._king_counts = counts

    def _key(self) -> tuple:
        return (self.turn, *self.board)

    def _validate(self) -> None:
        for color, name in ((WHITE, "White"), (BLACK, "Black")):
            n = self._king_counts[color]
            if n != 1:
                raise FenError(f"{name} has {'no King' if n == 0 else f'{n} Kings'}; a side needs exactly one")
            if self._rules.palace_held(self.board, color, color):
                raise FenError(f"{name}'s own palace is filled by {name}'s pieces (M11)")
        mover = -self.turn
        if not self._rules.palace_held(self.board, self.turn, mover) \
                and self._rules.attacks(self.board, self.turn, self.kings):
            side = "White" if mover == WHITE else "Black"
            raise FenError(f"{side}, not to move, is in check (M12): the position cannot arise")

    def fen(self) -> str:
        return format_fen(self.board, self.turn, self.ply, self.variant)

    def copy(self) -> "Position":
        other = object.__new__(Position)
        other.variant, other.geometry, other._rules = self.variant, self.geometry, self._rules
        other.board = list(self.board)
        other.turn, other.ply = self.turn, self.ply
        other.kings = list(self.kings)
        other._king_counts = dict(self._king_counts)
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._cache = {}
        other._seen = Counter(self._seen)
        return other

    def piece_at(self, square: int | str) -> Piece | None:
        sq = self.geometry.square(square) if isinstance(square, str) else square
        v = self.board[sq]
        if v == 0:
            return None
        return Piece(abs(v), WHITE if v > 0 else BLACK)

    def pieces(self) -> Iterator[tuple[int, Piece]]:
        for sq, v in enumerate(self.board):
            if v:
                yield sq, Piece(abs(v), WHITE if v > 0 else BLACK)

    def occupancy(self) -> int:
        """Occupied squares as a bit mask (bit i = square i)."""
        occ = self._cache.get("occupancy")
        if occ is None:
            occ = 0
            for sq, v in enumerate(self.board):
                if v:
                    occ |= 1 << sq
            self._cache["occupancy"] = occ
        return occ  # type: ignore[return-value]

    # ------------------------------------------------------------ moves
    def _move(self, m: tuple) -> Move:
        frm, to, caps = m
        return Move(frm, None if to < 0 else to, tuple(sorted(caps)), self.geometry)

    @staticmethod
    def _raw(move: Move) -> tuple:
        return (move.from_square, -1 if move.to_square is None else move.to_square, move.captures)

    @property
    def legal_moves(self) -> list[Move]:
        """Legal moves (M11, M12), sorted by their canonical strings."""
        moves = self._cache.get("legal")
        if moves is None:
            raw = self._rules.legal_moves(self.board, self.turn, self.kings)
            moves = sorted((self._move(m) for m in raw), key=str)
            self._cache["legal"] = moves
        return list(moves)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    def parse_move(self, text: str) -> Move:
        """A legal move from its canonical string. A string without captures
        (``d2-d5``) names the legal move with that origin and destination."""
        move = parse_move(text, self.geometry)
        legal = self.legal_moves
        if move in legal:
            return move
        matches = [m for m in legal if m.from_square == move.from_square and m.to_square == move.to_square]
        if not move.captures and len(matches) == 1:
            return matches[0]
        raise MoveError(f"illegal move {text.strip()!r} in {self.fen()}")

    def push(self, move: Move | str) -> Move:
        """Play a legal move (a Move or its canonical string)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.legal_moves:
            raise MoveError(f"illegal move {move} in {self.fen()}")
        raw = self._raw(move)
        undo = self._rules.make(self.board, self.kings, raw)
        self._undo.append((raw, undo, self._cache))
        self.move_stack.append(move)
        self.turn = -self.turn
        self.ply += 1
        self._cache = {}
        self._seen[self._key()] += 1
        return move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        key = self._key()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]
        raw, undo, cache = self._undo.pop()
        self._rules.unmake(self.board, self.kings, raw, undo)
        self.turn = -self.turn
        self.ply -= 1
        self._cache = cache
        return self.move_stack.pop()

    def occupancy_after(self, move: Move) -> int:
        """Occupancy bit mask after ``move``, without playing it."""
        occ = self.occupancy() & ~(1 << move.from_square)
        for c in move.captures:
            occ &= ~(1 << c)
        if move.to_square is not None:
            occ |= 1 << move.to_square
        return occ

    def piece_letter(self, move: Move) -> str:
        """The moving piece's letter (upper case for White), for records."""
        v = self.board[move.from_square]
        letter = PIECE_LETTERS[abs(v)]
        return letter.upper() if v > 0 else letter

    # ------------------------------------------------------------ status
    def is_check(self) -> bool:
        """Whether the opponent has a winning reply (M12)."""
        v = self._cache.get("check")
        if v is None:
            v = self._cache["check"] = self._rules.attacks(self.board, -self.turn, self.kings)
        return bool(v)

    def check_info(self) -> Check:
        """Why the side to move is in check, from every winning reply."""
        c = self.turn
        king = self.kings[c]
        replies = self._rules.winning_reply_moves(self.board, -c, self.kings)
        king_hit = any(king in m[2] for m in replies) if king >= 0 else False
        palace = tuple(sorted({m[1] for m in replies if not (king >= 0 and king in m[2])}))
        attackers = tuple(sorted({m[0] for m in replies}))
        return Check(king if king_hit else None, palace, attackers)

    def immobilized(self) -> list[int]:
        """Squares of all immobilized pieces, both colours (M9)."""
        frozen = self._rules.frozen_squares(self.board, WHITE) | self._rules.frozen_squares(self.board, BLACK)
        return sorted(frozen)

    def outcome(self) -> Outcome | None:
        """The result by M13 for the side to move, or None if play goes on."""
        if "outcome" in self._cache:
            return self._cache["outcome"]  # type: ignore[return-value]
        side = self.turn
        mover = -side
        winner_result = "1-0" if mover == WHITE else "0-1"
        result: Outcome | None = None
        if self._rules.palace_held(self.board, side, mover):
            result = Outcome(winner_result, "palace invaded", mover)
        elif sum(1 for v in self.board if v * side > 0) == 1 and self.kings[side] >= 0:
            result = Outcome(winner_result, "bare king", mover)
        elif not self.legal_moves:
            if self.is_check():
                result = Outcome(winner_result, "checkmate", mover)
            else:
                result = Outcome("1/2", "stalemate", None)
        self._cache["outcome"] = result
        return result

    def repetitions(self) -> int:
        """How often the current position (with side to move) has occurred
        in this game; Maxima has no repetition rule, this only reports."""
        return self._seen[self._key()]

    # ------------------------------------------------------------ perft
    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree (game end ignored)."""
        return _perft(self._rules, self.board, self.turn, self.kings, depth)

    def divide(self, depth: int) -> dict[str, int]:
        out = {}
        for move in self.legal_moves:
            raw = self._raw(move)
            undo = self._rules.make(self.board, self.kings, raw)
            out[str(move)] = 1 if depth <= 1 else _perft(self._rules, self.board, -self.turn, self.kings, depth - 1)
            self._rules.unmake(self.board, self.kings, raw, undo)
        return out

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"


def _perft(rules: Rules, b: list[int], c: int, kings: list[int], depth: int) -> int:
    if depth <= 0:
        return 1
    if depth == 1:
        return rules.count_legal(b, c, kings)
    total = 0
    make, unmake = rules.make, rules.unmake
    for m in rules.legal_moves(b, c, kings):
        undo = make(b, kings, m)
        total += _perft(rules, b, -c, kings, depth - 1)
        unmake(b, kings, m, undo)
    return total
