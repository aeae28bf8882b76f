"""The public position API, modelled on python-chess's Board."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from . import variants
from .movegen import Rules
from .notation import FenData, FenError, Move, MoveError, format_fen, parse_fen, parse_move
from .pieces import CASTLE, EN_PASSANT, PROMOTE, SWAP, TYPES
from maxima_board.rules.variants.base import BLACK, WHITE, Variant
from maxima_board.rules.variants.maxima import MAXIMA

_RULES: dict[str, Rules] = {}


def rules_for(variant: Variant) -> Rules:
    rules = _RULES.get(variant.name)
    if rules is None:
        rules = _RULES[variant.name] = Rules(variant)
    return rules


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its type ``code`` (see :mod:`maxima_board.rules.pieces`) and ``color``."""

    code: int
    color: int  # WHITE or BLACK

    @property
    def letter(self) -> str:
        """The FEN letter, upper case for White."""
        letter = TYPES[self.code].letter
        return letter.upper() if self.color == WHITE else letter

    @property
    def name(self) -> str:
        return TYPES[self.code].name


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
    """``result``: "1-0", "0-1" or the variant's draw ("1/2" in Maxima,
    "1/2-1/2" in Deckle's games); ``reason``: "palace invaded", "bare king",
    "checkmate", "stalemate", "insufficient material", "fifty moves" or
    "repetition" (Optima, O13: "royal captured", "no moves", "threefold
    repetition"); ``winner``: WHITE, BLACK or None."""

    result: str
    reason: str
    winner: int | None


@dataclass(frozen=True, slots=True)
class Signature:
    """The physical difference a move makes on the board (controller.md,
    "Moves of the other games"): squares occupied before and empty after
    (``vacated``), empty before and occupied after (``filled``), occupied
    before and after by a different piece (``replaced``), and ``choice``: the
    player must say something the board cannot see (a promotion piece)."""

    vacated: frozenset[int]
    filled: frozenset[int]
    replaced: frozenset[int]
    choice: bool


class Position:
    """A position of any variant with its move history.

    >>> p = Position()
    >>> len(p.legal_moves)
    41
    >>> len(Position("start", "ultima").legal_moves)
    32
    """

    def __new__(cls, fen: str | None = "start", variant: "Variant | str" = MAXIMA, *args, **kwargs):
        """``Position(fen, variant)`` is an instance of the class the variant
        names (:func:`position_class`): an Optima game's is an OptimaPosition."""
        if cls is Position:
            cls = position_class(variant)
        return super().__new__(cls)

    def __init__(self, fen: str | None = "start", variant: "Variant | str" = MAXIMA, *, validate: bool = True):
        variant = variants.get(variant)
        if fen is None or fen == "start":
            fen = variant.start_fen
        data: FenData = parse_fen(fen, variant)
        variant = data.variant or variant
        self.variant = variant
        self.geometry = variant.geometry
        self._rules = rules_for(variant)
        self.board: list[int] = data.board
        self.turn: int = data.turn
        self._deckle = variant.chess_fen
        self._ply = data.ply
        self.state = (data.castling, data.ep, data.ban) if self._deckle else None
        self.halfmove = data.halfmove
        self.fullmove = data.fullmove
        self.kings = [-1, -1, -1]
        self._set_kings()
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._cache: dict[str, object] = {}
        if validate:
            self._validate()
        self._seen: Counter = Counter({self._key(): 1})

    # ------------------------------------------------------------ state
    @property
    def ply(self) -> int:
        """Half-moves played: the FEN's count (Maxima, Ultima), or derived
        from the move number and side to move (Deckle)."""
        if self._deckle:
            return 2 * (self.fullmove - 1) + (self.turn == BLACK)
        return self._ply

    def _set_kings(self) -> None:
        counts = {WHITE: 0, BLACK: 0}
        king = self._rules.king_code
        for sq, v in enumerate(self.board):
            if abs(v) == king:
                c = WHITE if v > 0 else BLACK
                counts[c] += 1
                self.kings[c] = sq
        self._king_counts = counts

    def _key(self) -> tuple:
        if not self._deckle:
            return (self.turn, *self.board)
        castling, ep, ban = self.state
        legal = self._raw_legal()
        if ep and not any(len(m) > 3 and m[3] == EN_PASSANT for m in legal):
            ep = ()
        if ban is not None:
            free = self._rules.legal_moves(self.board, self.turn, self.kings, (castling, self.state[1], None))
            if not any(len(m) > 3 and m[3] == SWAP and (m[0], m[1]) == ban for m in free):
                ban = None
        return (self.turn, castling, ep, ban, *self.board)

    def _validate(self) -> None:
        rules = self._rules
        for color, name in ((WHITE, "White"), (BLACK, "Black")):
            n = self._king_counts[color]
            if n != 1:
                raise FenError(f"{name} has {'no King' if n == 0 else f'{n} Kings'}; a side needs exactly one")
            if rules.palace and rules.palace_held(self.board, color, color):
                raise FenError(f"{name}'s own palace is filled by {name}'s pieces (M11)")
        mover = -self.turn
        side = "White" if mover == WHITE else "Black"
        rule = self.variant.check_rule
        if rules.palace and rules.palace_held(self.board, self.turn, mover):
            return
        if rules.attacks(self.board, self.turn, self.kings):
            raise FenError(f"{side}, not to move, is in check ({rule}): the position cannot arise")

    def _fen_data(self) -> FenData:
        castling, ep, ban = self.state if self._deckle else (0, (), None)
        return FenData(self.board, self.turn, self._ply, castling, ep, self.halfmove, self.fullmove, ban)

    def fen(self) -> str:
        """The FEN (M14, U13, D3); it reads back to the same position."""
        return format_fen(self._fen_data(), self.variant)

    def copy(self) -> "Position":
        """An independent copy with the same history."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.__dict__.update(self._own_state())
        return other

    def _own_state(self) -> dict[str, object]:
        """Fresh copies of the members a position changes in place, for :meth:`copy`."""
        return {**self._history_state(), "kings": list(self.kings), "_king_counts": dict(self._king_counts)}

    def _history_state(self) -> dict[str, object]:
        """Fresh copies of the board and the history, the part of :meth:`_own_state` every game has."""
        return {"board": list(self.board), "move_stack": list(self.move_stack), "_undo": list(self._undo),
                "_cache": {}, "_seen": Counter(self._seen)}

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
        frm, to, caps = m[0], m[1], m[2]
        g = self.geometry
        kind = ""
        promotion = None
        if len(m) > 3:
            k = m[3]
            if k == SWAP:
                kind = "swap"
            elif k == CASTLE:
                kind = "castle"
            elif k == EN_PASSANT:
                kind = "en passant"
            elif k == PROMOTE:
                promotion = TYPES[m[4]].letter.upper()
        return Move(frm, None if to < 0 else to, tuple(sorted(caps)), g, promotion, kind)

    def _raw_legal(self) -> list[tuple]:
        raw = self._cache.get("raw")
        if raw is None:
            raw = self._rules.legal_moves(self.board, self.turn, self.kings, self.state)
            self._cache["raw"] = raw
        return raw  # type: ignore[return-value]

    def _legal_map(self) -> dict[Move, tuple]:
        table = self._cache.get("map")
        if table is None:
            table = {self._move(m): m for m in self._raw_legal()}
            self._cache["map"] = table
        return table  # type: ignore[return-value]

    @property
    def legal_moves(self) -> list[Move]:
        """Legal moves (M11/M12, U11, D5-D7, D14), sorted by their canonical strings."""
        moves = self._cache.get("legal")
        if moves is None:
            moves = sorted(self._legal_map(), key=str)
            self._cache["legal"] = moves
        return list(moves)

    def is_legal(self, move: Move) -> bool:
        return move in self._legal_map()

    def parse_move(self, text: str) -> Move:
        """A legal move from its canonical string. A string without captures
        (``d2-d5``, ``c9-d10=W``) names the legal move with that origin,
        destination (and promotion) if there is exactly one."""
        move = parse_move(text, self.geometry, self.variant.move_forms)
        legal = self.legal_moves
        wanted = str(move)
        for m in legal:
            if str(m) == wanted:
                return m
        if not move.captures and move.kind in ("move", "replacement"):
            matches = [m for m in legal if m.from_square == move.from_square and m.to_square == move.to_square
                       and m.promotion == move.promotion and m.kind != "swap"]
            if len(matches) == 1:
                return matches[0]
        raise MoveError(f"illegal move {text.strip()!r} in {self.fen()}")

    def push(self, move: Move | str) -> Move:
        """Play a legal move (a Move or its canonical string)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        raw = self._legal_map().get(move)
        if raw is None:
            raise MoveError(f"illegal move {move} in {self.fen()}")
        self._play(raw)
        self.move_stack.append(move)
        self._seen[self._key()] += 1
        return move

    def _play(self, raw: tuple) -> None:
        rules = self._rules
        saved = (raw, self._cache, self._ply, self.state, self.halfmove, self.fullmove)
        if self._deckle:
            self.state = rules.next_state(self.board, raw, self.state)
            mover = self.board[raw[0]]
            kind = raw[3] if len(raw) > 3 else 0
            removes = bool(raw[2]) or raw[1] < 0
            pawn_move = abs(mover) == rules.pawn_code and kind != SWAP
            self.halfmove = 0 if removes or pawn_move else self.halfmove + 1
            if self.turn == BLACK:
                self.fullmove += 1
        undo = rules.make(self.board, self.kings, raw)
        self._undo.append((saved, undo))
        self.turn = -self.turn
        self._ply += 1
        self._cache = {}

    def _forget_current(self) -> None:
        """Drop one occurrence of the current position from the repetition count."""
        key = self._key()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        self._forget_current()
        (raw, cache, ply, state, half, full), undo = self._undo.pop()
        self._rules.unmake(self.board, self.kings, raw, undo)
        self.turn = -self.turn
        self._ply, self.state, self.halfmove, self.fullmove = ply, state, half, full
        self._cache = cache
        return self.move_stack.pop()

    def board_after(self, move: Move) -> list[int]:
        """The board (a list by square) after the legal ``move``, without playing it."""
        raw = self._legal_map().get(move)
        if raw is None:
            raise MoveError(f"illegal move {move} in {self.fen()}")
        board = list(self.board)
        self._rules.make(board, list(self.kings), raw)
        return board

    def tried(self, move: Move) -> "Position":
        """A copy after ``move``, one of :meth:`pseudo_moves` of the side to
        move, played without the legality test, the mover still to move: its
        :meth:`check_info` says what the opponent could then win
        (:func:`maxima_board.rules.teaching.why_not`)."""
        for raw in self._rules.pseudo_moves(self.board, self.turn, self.kings):
            if self._move(raw) == move:
                other = self.copy()
                self._rules.make(other.board, other.kings, raw)
                return other
        raise MoveError(f"no move {move} in {self.fen()}")

    def occupancy_after(self, move: Move) -> int:
        """Occupancy bit mask after the legal ``move``, without playing it."""
        occ = 0
        for sq, v in enumerate(self.board_after(move)):
            if v:
                occ |= 1 << sq
        return occ

    def signature(self, move: Move) -> Signature:
        """The physical signature of the legal ``move`` (see :class:`Signature`)."""
        before, after = self.board, self.board_after(move)
        vacated, filled, replaced = set(), set(), set()
        for sq, (x, y) in enumerate(zip(before, after)):
            if x and not y:
                vacated.add(sq)
            elif y and not x:
                filled.add(sq)
            elif x != y:
                replaced.add(sq)
        return Signature(frozenset(vacated), frozenset(filled), frozenset(replaced), move.promotion is not None)

    def piece_letter(self, move: Move) -> str:
        """The moving piece's letter (upper case for White), for records."""
        v = self.board[move.from_square]
        letter = TYPES[abs(v)].letter
        return letter.upper() if v > 0 else letter

    def pseudo_moves(self, color: int) -> list[Move]:
        """Moves of ``color`` by movement and capture rules alone, as if it
        were that colour's turn: immobilization, suicide and mutual
        destruction apply; no King safety, castling or en passant."""
        raw = self._rules.pseudo_moves(self.board, color, self.kings)
        return sorted((self._move(m) for m in raw), key=str)

    # ------------------------------------------------------------ status
    def is_check(self) -> bool:
        """Whether the side to move is in check (M12 winning reply, U11, D5)."""
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
        """Squares of all immobilized pieces, both colours (M9, U9, D9)."""
        frozen = self._rules.frozen_squares(self.board, WHITE) | self._rules.frozen_squares(self.board, BLACK)
        return sorted(frozen)

    def outcome(self) -> Outcome | None:
        """The result for the side to move by M13, U12 or D16, or None."""
        if "outcome" in self._cache:
            return self._cache["outcome"]  # type: ignore[return-value]
        v = self.variant
        side = self.turn
        mover = -side
        win = Outcome("1-0" if mover == WHITE else "0-1", "", mover)
        result: Outcome | None = None

        def won(reason: str) -> Outcome:
            return Outcome(win.result, reason, mover)

        if self._rules.palace and self._rules.palace_held(self.board, side, mover):
            result = won("palace invaded")
        elif v.bare_king and sum(1 for x in self.board if x * side > 0) == 1 and self.kings[side] >= 0:
            result = won("bare king")
        elif not self._raw_legal():
            if self.is_check():
                result = won("checkmate")
            elif v.stalemate == "mover wins":
                result = won("stalemate")
            else:
                result = Outcome(v.draw_result, "stalemate", None)
        elif v.insufficient_material and sum(1 for x in self.board if x) == 2:
            result = Outcome(v.draw_result, "insufficient material", None)
        elif v.fifty_moves and self.halfmove >= 100:
            result = Outcome(v.draw_result, "fifty moves", None)
        elif v.repetition and self.repetitions() >= 3:
            result = Outcome(v.draw_result, "repetition", None)
        self._cache["outcome"] = result
        return result

    def repetitions(self) -> int:
        """How often the current position has stood in this game (D16's
        equality in Deckle's games; placement and side to move elsewhere)."""
        return self._seen[self._key()]

    # ------------------------------------------------------------ perft
    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree (game end ignored)."""
        return _perft(self._rules, self.board, self.turn, self.kings, self.state, depth)

    def divide(self, depth: int) -> dict[str, int]:
        """Leaves below each legal move, keyed by its canonical string, in legal-move order."""
        rules = self._rules
        table = self._legal_map()
        out = {}
        for move in self.legal_moves:
            raw = table[move]
            state = rules.next_state(self.board, raw, self.state)
            undo = rules.make(self.board, self.kings, raw)
            out[str(move)] = 1 if depth <= 1 else _perft(rules, self.board, -self.turn, self.kings, state, depth - 1)
            rules.unmake(self.board, self.kings, raw, undo)
        return out

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        if self.variant is MAXIMA:
            return f"Position({self.fen()!r})"
        return f"Position({self.fen()!r}, {self.variant.name!r})"


def position_class(variant: "Variant | str") -> type[Position]:
    """The class whose instances play ``variant``: the one its data names, or the plain :class:`Position`."""
    return variants.get(variant).position_class or Position


def _perft(rules: Rules, b: list[int], c: int, kings: list[int], state, depth: int) -> int:
    if depth <= 0:
        return 1
    if depth == 1:
        return rules.count_legal(b, c, kings, state)
    total = 0
    make, unmake, next_state = rules.make, rules.unmake, rules.next_state
    for m in rules.legal_moves(b, c, kings, state):
        after = next_state(b, m, state) if state is not None else None
        undo = make(b, kings, m)
        total += _perft(rules, b, -c, kings, after, depth - 1)
        unmake(b, kings, m, undo)
    return total
