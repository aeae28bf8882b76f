"""What the players see: the LED frame and the OLED lines, in words.

Pure functions: the controller decides which squares mean what; this module
merges them into one LED state per square (by the priority of board.md) and
writes the sentences, with piece names, that fit a 128×64 OLED.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from maxima_board.rules import WHITE
from maxima_board.rules.position import Piece
from maxima_board.devices.interfaces import LED_STATES

WIDTH = 21   # characters per OLED line with the default font
LINES = 5    # lines on the OLED
TEXT_LINES = LINES - 2   # lines under the status bar and the last-move line

_PRIORITY = {state: rank for rank, state in enumerate(LED_STATES)}


def compose_leds(layers: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """One state per square from ``(state, squares)`` layers: where layers
    overlap, the state listed first in ``LED_STATES`` wins."""
    out: dict[str, str] = {}
    for state, squares in layers:
        rank = _PRIORITY[state]
        for sq in squares:
            current = out.get(sq)
            if current is None or _PRIORITY[current] > rank:
                out[sq] = state
    return dict(sorted(out.items()))


def side_name(color: int) -> str:
    return "White" if color == WHITE else "Black"


def piece_name(piece: Piece, perspective: int) -> str:
    """``"Leaper"`` for a piece of the ``perspective`` side, ``"Black Pawn"``
    for one of the other side."""
    return piece.name if piece.color == perspective else f"{side_name(piece.color)} {piece.name}"


def listing(items: Sequence[tuple[str, str]]) -> str:
    """Pieces ``(name, square)`` as a list; a name repeated in a row is
    written once: ``"Black Pawn c5, e5, Guard d7"``."""
    parts = []
    previous = None
    for name, sq in items:
        parts.append(sq if name == previous else f"{name} {sq}")
        previous = name
    return ", ".join(parts)


def put_back(items: Sequence[tuple[str, str]]) -> str:
    """The sentence asking to put pieces ``(name, square)`` back."""
    if not items:
        return ""
    if len(items) == 1:
        name, sq = items[0]
        return f"Put the {name} back on {sq}."
    return f"Put back: {listing(items)}."


def take_off(squares: Sequence[str]) -> str:
    """The sentence asking to clear squares whose pieces are not known."""
    if not squares:
        return ""
    if len(squares) == 1:
        return f"Take the piece off {squares[0]}."
    return "Take off: " + ", ".join(squares) + "."


def not_in_game(squares: Sequence[str], pieces: Sequence[Piece | None] = ()) -> str:
    """The sentence asking to clear board squares that are not part of the
    game; ``pieces``: the piece known to stand on each (None: not known),
    named by colour once per run ("Take off Black Mage b9, King e9.")."""
    known = list(pieces) + [None] * (len(squares) - len(pieces))
    if not any(known):
        if len(squares) == 1:
            return f"Clear square {squares[0]}: it is not part of the game."
        return f"Clear squares {', '.join(squares)}: they are not part of the game."
    parts = []
    colour = None
    for square, piece in zip(squares, known):
        if piece is None:
            parts.append(f"piece {square}")
            colour = None
            continue
        name = piece.name if piece.color == colour else f"{side_name(piece.color)} {piece.name}"
        parts.append(f"{name} {square}")
        colour = piece.color
    text = f"Take off {', '.join(parts)}."
    why = f"{text} {'It is' if len(squares) == 1 else 'They are'} not in this game."
    return why if len(wrap(why, TEXT_LINES + 1)) <= TEXT_LINES else text   # the reason only where it fits


def astray(name: str, home: str, where: str) -> str:
    """One piece went astray: from ``home`` to ``where``."""
    return f"Put the {name} back on {home} from {where}."


def move_back(name: str, home: str, where: str) -> str:
    """A move taken back: the piece on ``where`` returns to ``home``."""
    return f"{name} {where} back to {home}."


def remove(items: Sequence[tuple[str, str]]) -> str:
    """The sentence asking to take captured pieces ``(name, square)`` off."""
    if not items:
        return ""
    return f"Remove: {listing(items)}."


def status_line(left: str, right: str = "") -> str:
    """The status bar: ``left`` text, ``right`` text flush right."""
    room = WIDTH - len(right)
    if right and room > len(left):
        return left + " " * (room - len(left)) + right
    return fit(f"{left} {right}".strip())


def fit(text: str) -> str:
    """``text`` cut to one OLED line."""
    return text if len(text) <= WIDTH else text[:WIDTH - 1] + "…"


BUTTON_WORDS = ("OK", "MENU", "BACK", "NEW")   # a phrase naming what a button does starts with one
_PHRASE_END = ",.;:?!"


def phrases(text: str) -> list[str]:
    """``text`` cut into the pieces a line may not split: a button's phrase
    (``"OK = yes,"``, ``"MENU = the pieces."``, ``"OK or NEW to start."``:
    from the button's name through the word ending in a comma or stop) is
    one piece when it fits a line; an ``=`` always stays
    between its neighbours (``"OK = now;"``); every other word is a piece."""
    words = text.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in BUTTON_WORDS:   # "OK." or "MENU:" ends where it starts: no phrase
            end = i + 1
            while end < len(words):
                end += 1
                if words[end - 1][-1] in _PHRASE_END:
                    break
            phrase = " ".join(words[i:end])
            if len(phrase) <= WIDTH:
                out.append(phrase)
                i = end
                continue
        if word == "=" and out and i + 1 < len(words):   # "KEY = word" never split
            glued = f"{out[-1]} = {words[i + 1]}"
            if len(glued) <= WIDTH:
                out[-1] = glued
                i += 2
                continue
        out.append(word)
        i += 1
    return out


def wrap(text: str, lines: int = TEXT_LINES) -> list[str]:
    """``text`` wrapped into at most ``lines`` OLED lines, broken between
    phrases (:func:`phrases`: never between "OK =" and "yes"); what does
    not fit is cut, the last line ending in '…'."""
    out: list[str] = []
    current = ""
    for word in phrases(text):
        while len(word) > WIDTH:
            if current:
                out.append(current)
                current = ""
            out.append(word[:WIDTH])
            word = word[WIDTH:]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= WIDTH:
            current += " " + word
        else:
            out.append(current)
            current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = fit(out[-1] + " …")   # a full line: its last character gives way to the "…"
    return out


def ask(question: str, keys: Sequence[str], lines: int = TEXT_LINES) -> str:
    """``question`` and what the buttons do: the first wording of ``keys``
    (the fullest first) with which the whole wraps into ``lines``, else the last."""
    for words in keys:
        text = f"{question} {words}"
        if len(wrap(text, lines + 1)) <= lines:
            return text
    return f"{question} {keys[-1]}"


def screen(status: str, second: str, text: str) -> list[str]:
    """The OLED lines: status bar, the second line, then ``text`` wrapped.
    Trailing empty lines are dropped."""
    lines = [fit(status), fit(second)] + wrap(text)
    while lines and not lines[-1]:
        lines.pop()
    return lines
