"""The game record: a PGN-style text with tags and numbered moves.

    [Event "Club night"]
    ...
    [Variant "Maxima"]

    1. Pd3-d5 Pe7-e5 2. Nc2-c6xc7 *

Moves carry a piece letter (upper case, as in chess notation) before the
canonical form of M14 / U13 / D17. ``Variant`` names the game as people write
it ("Maxima", "Ultima (pure)", "Swapper Chess 10x8"); a record without it is
Maxima. ``FEN`` follows it, only when the game does not start from its start
position. A record replays only under its own variant. An Optima record (O15) also has
the tags ``Board`` (``10x10``, ``9x9``), ``Forces`` (``eq``, ``u1``, ``u2``,
``random``) and ``Rules`` (the FEN's rules field), and writes a unit's token
before its moves (``ARe5-e5xg7``; a placement ``AR@e1`` names its unit).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import variants
from .notation import FenError, MoveError
from .position import Position
from maxima_board.rules.variants.base import Variant
from maxima_board.rules.variants.maxima import MAXIMA
from .words import move_label

TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant")
RESULTS = ("1-0", "0-1", "1/2-1/2", "1/2", "*")

_TAG_RE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_NUMBER_RE = re.compile(r"^\d+\.(\.\.)?$")
_NAG_RE = re.compile(r"^\$\d+$")
_WORD_RE = re.compile(r"\{[^}]*\}|[^\s{]+")
_UNIT_PREFIX = re.compile(r"^([A-Z]{2})\*?(?=[a-z]\d)")


class RecordError(ValueError):
    """A game record that cannot be read or replayed."""


@dataclass
class GameRecord:
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)  # canonical strings
    # The piece letter each move was written with, where it had one.
    letters: list[str | None] = field(default_factory=list, repr=False)

    @property
    def variant(self) -> Variant:
        """The game named by the ``Variant`` tag (Maxima when there is none)."""
        title = self.tags.get("Variant", "").strip()
        if not title:
            return MAXIMA
        if title in ("Optima", "optima"):      # O15: Variant "Optima", the Board tag says which board
            board = self.tags.get("Board", "10x10").strip()
            if board not in ("10x10", "9x9"):
                raise RecordError(f"Board tag: {board!r} is not an Optima board (10x10 or 9x9)")
            return variants.get("optima" if board == "10x10" else "optima-9x9")
        for v in variants.all_variants():
            if title in (v.title, v.name):
                return v
        known = ", ".join(v.title for v in variants.all_variants())
        raise RecordError(f"Variant tag: unknown game {title!r} (known: {known})")

    @property
    def start_fen(self) -> str:
        return self.tags.get("FEN", self.variant.start_fen)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    @classmethod
    def from_position(cls, position: Position, **tags: str) -> "GameRecord":
        """The record of the game ``position`` was played through."""
        start = position.copy()
        while start.move_stack:
            start.pop()
        record = cls({name: "" for name in TAG_ORDER}, [str(m) for m in position.move_stack])
        record.tags.update({"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "-",
                            "White": "?", "Black": "?", "Result": "*", "Variant": position.variant.title})
        if position.variant.uses_units:
            record.tags.update(optima_tags(position))
        record.tags.update(tags)
        if start.fen() != position.variant.start_fen:
            record.tags["FEN"] = start.fen()
        return record

    def replay(self, variant: "Variant | str | None" = None) -> Position:
        """The position after every move, checked move by move under our
        rules; RecordError names the first move that is not legal here. With
        ``variant``, a record of another game is refused (RecordError)."""
        own = self.variant
        if variant is not None:
            try:
                wanted = variants.get(variant)
            except ValueError as exc:
                raise RecordError(str(exc)) from None
            if wanted is not own:
                raise RecordError(f"this record is a game of {own.title}, not {wanted.title}")
        try:
            position = Position(self.start_fen, own, **self._optima_state(own))
        except FenError as exc:
            raise RecordError(f"FEN tag: {exc}") from None
        for i, text in enumerate(self.moves):
            number = position.ply // 2 + 1
            dots = "." if position.turn > 0 else "..."
            try:
                move = position.parse_move(text)
            except MoveError as exc:
                raise RecordError(f"move {number}{dots} {text}: {exc}") from None
            letter = self.letters[i] if i < len(self.letters) else None
            actual = position.piece_letter(move).upper()
            if letter is not None and letter != actual:
                origin = position.geometry.names[move.from_square]
                raise RecordError(f"move {number}{dots} {letter}{text}: the piece on "
                                  f"{origin} is {actual}, not {letter}")
            position.push(move)
        return position

    def _optima_state(self, variant: Variant) -> dict:
        """Optima's game state a FEN does not hold (O16): the Forces tag."""
        forces = self.tags.get("Forces", "").strip()
        if not variant.forces or not forces:
            return {}
        if forces not in ("eq", "u1", "u2", "random"):
            raise RecordError(f"Forces tag: unknown forces {forces!r} (known: eq, u1, u2, random)")
        fen_kind = self.start_fen.split(" ")[2].partition(":")[0] if self.start_fen.count(" ") == 4 else ""
        if fen_kind in ("eq", "u1", "u2") and fen_kind != forces:
            raise RecordError(f"Forces tag {forces!r} does not match the FEN's reserve {fen_kind!r}")
        return {"forces": forces}

    def to_text(self) -> str:
        position = Position(self.start_fen, self.variant)
        tokens: list[str] = []
        for text in self.moves:
            move = position.parse_move(text)
            tokens.append(numbered_label(position, move, not tokens))
            position.push(move)
        return self.text_with(tokens)

    def text_with(self, tokens: list[str]) -> str:
        """The record's text with ``tokens`` as its moves: what ``to_text``
        writes when ``tokens`` are the :func:`numbered_label` of its moves
        (for a caller that has replayed them already)."""
        lines = []
        names = [n for n in TAG_ORDER] + sorted(k for k in self.tags if k not in TAG_ORDER)
        for name in names:
            if name in self.tags:
                value = self.tags[name].replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'[{name} "{value}"]')
        words = [word for token in tokens for word in _WORD_RE.findall(token)]   # a {comment} is not broken
        return "\n".join(lines) + "\n\n" + _wrap(words + [self.result]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "GameRecord":
        """Read a record; tags, move numbers, comments in braces, NAGs
        (``$2``), variations in parentheses (skipped) and the result token
        are understood. Moves are checked by ``replay``."""
        record = cls()
        body = []
        for n, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("["):
                m = _TAG_RE.match(stripped)
                if not m:
                    raise RecordError(f"line {n}: malformed tag {stripped!r}")
                record.tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            elif stripped:
                body.append(stripped)
        movetext = re.sub(r"\{[^}]*\}", " ", " ".join(body))
        while True:          # variations, innermost first: (12... Pd7-d5 (12... Pc7-c5))
            shorter = re.sub(r"\([^()]*\)", " ", movetext)
            if shorter == movetext:
                break
            movetext = shorter
        for token in movetext.split():
            if _NUMBER_RE.match(token) or _NAG_RE.match(token):
                continue
            if token in RESULTS:
                record.tags.setdefault("Result", token)
                continue
            number = re.match(r"^\d+\.(?:\.\.)?(.+)$", token)
            if number:
                token = number.group(1)
            letter = None
            # squares are lower case, so a leading capital is a piece letter;
            # Optima writes a two-letter unit token (O15: ARe5-e5xg7, VR*a1-a2)
            unit = _UNIT_PREFIX.match(token)
            if unit:
                letter, token = unit.group(1), token[unit.end():]
            elif token[:1].isalpha() and token[:1].isupper() and token[1:2].islower():
                letter, token = token[0], token[1:]
            record.moves.append(token)
            record.letters.append(letter)
        return record


def numbered_label(position: Position, move, first: bool) -> str:
    """``move`` (made next in ``position``) as a record writes it: its label
    (:func:`maxima_board.rules.words.move_label`), after its move number when
    White moves or when it is the record's ``first`` move (``12... Pe7-e5``)."""
    number = position.ply // 2 + 1
    if position.turn > 0:
        return f"{number}. {move_label(position, move)}"
    if first:
        return f"{number}... {move_label(position, move)}"
    return move_label(position, move)


def optima_tags(position: Position) -> dict[str, str]:
    """O15's extra tags of an Optima game: Board, Forces, Rules."""
    from maxima_board.rules.optima.fen import format_rules
    n = position.geometry.files
    tags = {"Variant": "Optima", "Board": f"{n}x{n}", "Rules": format_rules(position.options)}
    if position.forces:
        tags["Forces"] = position.forces
    return tags


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, current = [], ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    lines.append(current)
    return "\n".join(lines)
