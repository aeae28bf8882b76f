"""The screens: what the players see for one state of the controller.

Pure: :func:`render` takes a :class:`View`, an explicit read-only snapshot of
what the controller knows at one moment, and returns the LED map and the
OLED lines (status bar, the last move in words, then the instruction or
error). Which squares light and what the words say are decided together,
because they describe the same thing ("Remove: Pawn c6" and c6 blinking).
The sentences themselves are built by ``guidance``.

A square is named in words as the board prints it (``View.names``,
``maxima_board.board.sizes.printed_names``: Ultima's e2 is f3 on the
10×10 board), the same square the LEDs light; the LED map itself is in
the game's names, which the board view (``maxima_board.service.board_view``)
puts on the board's squares.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from maxima_board.rules import WHITE, Move, Position
from maxima_board.rules.teaching import why_not
from maxima_board.rules.words import move_label, move_words as word_text, renamed

from . import guidance as g
from .clock import format_ms
from .composer import Rank
from .games import fitted_title, short_title, size_name, sized_title
from .reconstruct import Match, MoveTable, bits
from .settings import Settings
from .sizes import printed_map, printed_names, size_switch, standing_pieces

if TYPE_CHECKING:   # the game's state records, read here and never changed
    from .records import LastMove, Setup, Sync

Pick = tuple[tuple[int, int], int]   # ((occupancy, lifted), index of the move offered)
UNDO = "Undo "                        # the second line of a take-back: "Undo Guard a7-a6"
UNDO_ROOM = g.WIDTH - len(UNDO)
# a promotion or a placement offered: the buttons' words, and shorter where the piece's name leaves less room
PICK_KEYS = ("MENU = next, OK = yes, BACK = cancel.", "MENU = next, OK = yes, BACK = no.")
SETUP = "Set-up"                      # the set-up's status bar: this word, then the game


@dataclass(frozen=True)
class View:
    """What a screen needs to know of the controller at one moment."""

    now: int
    settings: Settings
    mode: str                        # "setup" | "play" | "sync" | "ended"
    link_ok: bool
    position: Position               # the game's position
    table: MoveTable                 # its legal moves
    check: list[int]                 # squares to light "check"
    frozen: dict[int, list[int]]     # immobilized squares, by colour
    raw: int | None                  # the board's occupancy; None before the first frame
    raw_since: int                   # when it last changed
    lifted: int                      # squares lifted since the position arose
    match: Match | None              # in play, with a board: what the board says
    pick: Pick | None                # several moves match: the one offered last
    last: LastMove | None
    game_id: int | None
    result: str
    reason: str | None
    note: str | None                 # a passing note ("Taken back.")
    menu: tuple[str, str, tuple[str, ...]] | None   # the menu's heading ("Menu 3/6  20s"), question ("Agree
    #                                                  draw?") and its buttons' words, fullest first
    failure: str | None              # the store failed: what could not be done
    sync: Sync | None
    setup: Setup | None
    clocks: dict[str, int] | None = None   # ms left {"white", "black"}; None: no clock
    control: str = "none"                  # the time control of the next new game
    link_problem: str | None = None  # why the board link is down ("No board at /dev/…")
    outside: frozenset[str] = frozenset()   # board squares off the game's that hold a piece (board names)
    placement: object | None = None  # Optima's placement phase: the player's Choice (modes/placement.py)
    start_standing: bool = False     # the game is over and the board shows the next game's start
    refused: str | None = None       # why the last press was refused (the board is not known)
    chooser: list[str] | None = None  # the game chooser's title bar and rows (maxima_board.board.chooser), when shown
    board: tuple[str, str] | None = None  # the physical board (kind, offset) whose printed names the texts use

    @property
    def stable(self) -> bool:
        return self.now - self.raw_since >= self.settings.settle_ms

    def names(self, position: Position) -> tuple[str, ...]:
        """The board's printed name of each square of ``position``'s game, by index."""
        return printed_names(position, self.board)


@dataclass(frozen=True)
class Screen:
    """The LED map (square name → state), the OLED lines, and the move
    offered when several match (for the controller to remember, so that
    BACK steps on from what was shown)."""

    leds: dict[str, str]
    lines: list[str]
    pick: Pick | None
    rank: Rank = Rank.GAME   # a page (maxima_board.board.composer) owns the OLED: nothing is put over it


@dataclass
class _Lit:
    """What a screen lights, layer by layer, and the move it offers."""

    layers: list[tuple[str, list[int]]] = field(default_factory=list)
    pick: Pick | None = None

    def add(self, state: str, squares: list[int]) -> None:
        self.layers.append((state, squares))


def render(view: View) -> Screen:
    """The screen for ``view``."""
    lit = _Lit()
    status, second, text = _texts(view, lit)
    board = view.setup.position if view.setup else view.position
    names = board.geometry.names
    layers = [(state, [names[s] for s in squares]) for state, squares in lit.layers]
    if view.outside and view.link_ok:   # a board square named like a game square: the board view lights it
        layers.append(("error-extra", sorted(sq for sq in view.outside if sq not in board.geometry.index)))
        if view.menu is None or view.mode == "setup":   # an open menu stays readable
            outside = sorted(view.outside)
            text = g.not_in_game(outside, standing_pieces(outside, view.position, view.setup.position
                                                          if view.setup else None, view.settings))
    if view.refused:
        text = view.refused
    leds = g.compose_leds(layers)
    if view.chooser is not None and view.link_ok:   # a page of labelled buttons: the rows as they are
        return Screen(leds, list(view.chooser), lit.pick, Rank.PAGE)
    return Screen(leds, g.screen(status, second, text), lit.pick, _rank(view))


def _rank(v: View) -> Rank:
    """A page the players answer with the buttons (a menu question, "Which
    move?") or follow (take-back guidance) owns the OLED; else the game screen."""
    if not v.link_ok or v.mode in ("setup", "ended") or v.raw is None:
        return Rank.GAME
    if v.menu is not None:
        return Rank.PAGE
    if v.failure is not None:
        return Rank.GAME
    if v.mode == "sync":
        return Rank.GUIDANCE if v.sync is not None and v.sync.reason == "takeback" else Rank.GAME
    if v.match is not None and v.match.kind == "ambiguous" and v.stable:
        return Rank.PAGE
    return Rank.GAME


def offered(pick: Pick | None, raw: int | None, lifted: int) -> Pick:
    """The move offered among several for the board ``raw`` with ``lifted``:
    the one picked before on this very board, else the first."""
    key = (raw or 0, lifted)
    return pick if pick is not None and pick[0] == key else (key, 0)


def move_words(position: Position, move: Move, names: Sequence[str] | None = None) -> str:
    """A move for people, e.g. ``"3. Pawn d3-d4"``, ``"3... Guard a7 takes a6"``:
    the web page's words (``maxima_board.rules.words``) where they fit a row, else the
    compact form (``"Guard a7-a6xa6"``); the number goes first when the row
    is too short for it. ``names``: the board's printed name of each square
    (``maxima_board.board.sizes.printed_names``); the game's own if None."""
    number = f"{position.ply // 2 + 1}{'.' if position.turn == WHITE else '...'}"
    compact = _compact(position, move, names)
    for words in (page_words(position, move, names), compact):
        for text in (f"{number} {words}", words):
            if len(text) <= g.WIDTH:
                return text
    return compact


def piece_move(position: Position, move: Move, room: int = g.WIDTH, names: Sequence[str] | None = None) -> str:
    """A move with its piece's name, no number: the page's words
    ("Guard a7 takes a6") when they fit in ``room`` characters, else the
    compact form ("Guard a7-a6xa6"); squares named by ``names`` (as ``move_words``)."""
    words = page_words(position, move, names)
    return words if len(words) <= room else _compact(position, move, names)


def page_words(position: Position, move: Move, names: Sequence[str] | None = None) -> str:
    """The move as the web page writes it (``maxima_board.rules.words``), capitalised:
    "Guard a7 takes a6", "Places Archer on a1"; squares named by ``names`` (as ``move_words``)."""
    label = move_label(position, move)
    words = word_text(position.variant, renamed(label, printed_map(position, names) if names else None))
    return words[:1].upper() + words[1:]


def move_text(position: Position, move: Move, names: Sequence[str] | None = None) -> str:
    """The canonical move (``"e2-e3xe4"``) with its squares named by
    ``names`` (as ``move_words``)."""
    return renamed(str(move), printed_map(position, names) if names else None)


def _compact(position: Position, move: Move, names: Sequence[str] | None = None) -> str:
    placed = move.placed
    name = unit_title(placed, royal=False) if placed else position.piece_at(move.from_square).name
    return f"{name} {move_text(position, move, names)}"


def unit_title(token: str, royal: bool = True) -> str:
    """An Optima token in words: ``"Queen"``, ``"Viceroy (royal)"`` for
    ``VR*`` (without the mark when ``royal`` is False)."""
    from maxima_board.rules.variants.optima import BY_TOKEN

    name = BY_TOKEN[token.rstrip("*").upper()].name
    return f"{name} (royal)" if royal and token.endswith("*") else name


def _converted_unit(p: Position, move: Move, sq: int) -> str:
    """The unit a conversion or swap conversion leaves on ``sq``, in words
    with its new colour ("White Guard")."""
    if move.kind == "swap conversion" and sq == move.from_square:
        unit = p.piece_at(move.to_square)
    elif sq == move.to_square:
        unit = p.piece_at(move.from_square)
        return f"{g.side_name(unit.color)} {unit.name}"
    else:
        unit = p.piece_at(sq)
    return f"{g.side_name(-unit.color)} {unit.name}"


def convert_text(p: Position, m: Match, names: Sequence[str] | None = None) -> str:
    """Words for a conversion under way: which units to exchange for ones
    of the other colour, what to put where, what to take off; squares named
    by ``names`` (the board's printed names, by index; the game's if None)."""
    names = p.geometry.names if names is None else names
    move = m.entries[0].move
    parts = []
    turn = bits(m.extra)
    if turn:   # enemy units still standing: each is exchanged for one of the mover's colour
        parts.append(f"Convert to {g.side_name(p.turn)}: " + g.listing([(p.piece_at(s).name, names[s]) for s in turn]) + ".")
    for s in bits(m.missing):
        parts.append(f"Put a {_converted_unit(p, move, s)} on {names[s]}.")
    parts.append(g.remove([(p.piece_at(s).name, names[s]) for s in bits(m.remove)]))
    return " ".join(x for x in parts if x)


def _placing_text(v: View) -> str:
    """The placement phase with the board as it stands: whose turn, where,
    and the unit chosen or offered (MENU/OK before placing)."""
    p = v.position
    choice = v.placement
    tokens = p.placeable()
    rank = 1 if p.turn == WHITE else p.geometry.files
    side = g.side_name(p.turn)
    offer = getattr(choice, "offer", None)
    if offer is not None and offer < len(tokens) and choice.offer_ply == p.ply:
        return f"Choose: {unit_title(tokens[offer])}? OK = yes, MENU = next."
    chosen = choice.token_for(p.ply) if choice is not None else None
    if chosen is not None:
        return f"{side}: set the {unit_title(chosen)} on rank {rank}."
    if len(tokens) == 1:
        return f"{side}: set the {unit_title(tokens[0])} on rank {rank}."
    return f"{side}: set a piece on rank {rank}. MENU = choose first."


def wrong_text(position: Position, m: Match, occ: int | None = None, lifted: int = 0,
               names: Sequence[str] | None = None) -> str:
    """Words for a wrong board ``occ`` (``lifted``: the squares lifted
    since the position arose): what went wrong, then how to fix it.

    A square still to be filled is named by the piece the target (the
    move ``m`` aims at, else the position) has there, whatever the move's
    shape (a castling's Rook, a swap's partner, a converted unit). A piece
    is said to have gone astray to a square only when it is the one piece
    off its square that the target keeps on the board; else the square is
    simply to be cleared (the board cannot tell which piece stands there).
    Squares are named by ``names`` (the board's printed names, by index;
    the game's if None). An illegal move of one piece says why
    (:func:`maxima_board.rules.teaching.why_not`): "Pawn d3 is frozen by
    the Immobilizer on e3."; "Not a legal move." only when the rules name
    no reason."""
    p = position
    names = p.geometry.names if names is None else names
    entry = m.entry
    target = p
    if entry is not None:
        target = p.copy()
        target.push(entry.move)

    def piece(sq: int):
        return target.piece_at(sq) or p.piece_at(sq)

    def name(sq: int) -> str:
        found = piece(sq)
        return g.piece_name(found, p.turn) if found is not None else "piece"

    missing, extra = bits(m.missing), bits(m.extra)
    parts = []
    why = _why_not(p, occ, names) if occ is not None else None
    if entry is None:
        strays = [s for s in missing if p.piece_at(s) is not None and p.piece_at(s).color != p.turn]
        if strays:
            parts.append(f"{g.side_name(p.turn)} to move.")
        elif missing and extra:
            parts.append(why or "Not a legal move.")
    elif why:   # the nearest legal move is not the one tried (a frozen piece's: its suicide)
        parts.append(why)
    if len(missing) == 1 and len(extra) == 1 and _lone_stray(p, m, occ, lifted) == name(missing[0]):
        parts.append(g.astray(name(missing[0]), names[missing[0]], names[extra[0]]))
    else:
        parts.append(g.put_back([(name(s), names[s]) for s in missing]))
        parts.append(g.take_off([names[s] for s in extra]))
    parts.append(g.remove([(p.piece_at(s).name, names[s]) for s in bits(m.remove) if p.piece_at(s) is not None]))
    return " ".join(x for x in parts if x)


def _why_not(p: Position, occ: int, names: Sequence[str]) -> str | None:
    """When the board ``occ`` shows one piece of the side to move
    taken off its square and one square filled, why that move is not legal,
    by the rules engine (:func:`maxima_board.rules.teaching.why_not`); else None."""
    expected = p.occupancy()
    own = [s for s in bits(expected & ~occ) if p.piece_at(s).color == p.turn]
    filled = bits(occ & ~expected)
    if len(own) != 1 or len(filled) != 1:
        return None
    reason = why_not(p, own[0], filled[0], names)
    return reason.text if reason is not None else None


def _lone_stray(p: Position, m: Match, occ: int | None, lifted: int) -> str | None:
    """The name of the one piece of ``p`` that is off its square (or was
    lifted and something set down there) and that the target of ``m`` keeps
    on the board; None when there are none or several, or ``occ`` is unknown."""
    if occ is None:
        return None
    expected = p.occupancy()
    captured = set(m.entry.move.captures) if m.entry is not None else set()
    off = [s for s in bits((expected & ~occ) | (lifted & occ & expected)) if s not in captured]
    if len(off) != 1 or p.piece_at(off[0]) is None:
        return None
    return g.piece_name(p.piece_at(off[0]), p.turn)


# ---------------------------------------------------------------- the screens
def _texts(v: View, lit: _Lit) -> tuple[str, str, str]:
    """Status bar, second line and text; the squares to light go to ``lit``."""
    if not v.link_ok:
        return _link_screen(v)
    if v.mode == "setup":
        return _setup_screen(v, lit)
    _base_layers(v, lit)
    if v.mode == "ended":
        return _ended_screen(v)
    status = _status(v)
    if v.raw is None:
        return status, _second(v), "Waiting for the board."
    if v.menu is not None:   # the heading, with its countdown, where the last move was
        heading, question, keys = v.menu
        return status, heading, g.ask(question, keys)
    if v.failure is not None:
        return status, _second(v), v.failure
    if v.mode == "sync":
        return status, *_sync_screen(v, lit)
    text = _play_text(v, lit)
    if not text and v.note is not None:
        text = v.note
    return status, _second(v), text


def _link_screen(v: View) -> tuple[str, str, str]:
    if v.link_problem and v.link_problem.startswith("Board has "):   # another matrix (serial_link)
        return "Wrong board", "", v.link_problem
    if v.link_problem:
        return "Board link lost", "", f"Retrying. {v.link_problem}: check the Pico's USB cable."
    if v.raw is None:   # not one frame since start: the board was never found
        return "Board link lost", "", "Retrying. No board found: check the Pico's USB cable."
    return "Board link lost", "", "Reconnecting. Wait before you move."


def _base_layers(v: View, lit: _Lit) -> None:
    s = v.settings
    last = v.last
    if last is not None and last.at is not None and v.now < last.at + s.last_move_ms:
        placed = last.move.placed is not None   # Optima: a placement has no origin
        lit.add("last-from", ([] if placed else [last.move.from_square]) + [o for o, _ in last.parts])
        if last.move.to_square is not None:
            lit.add("last-to", [last.move.to_square] + [d for _, d in last.parts])
    if s.show_check:
        lit.add("check", v.check)
    if s.show_immobilized == "both":
        lit.add("immobilized", v.frozen[WHITE] + v.frozen[-WHITE])
    elif s.show_immobilized == "side":
        lit.add("immobilized", v.frozen[v.position.turn])


def _status(v: View) -> str:
    p = v.position
    if v.clocks is not None:   # "*W 1:29:59  B 1:30:00": * the side to move, ! in check
        mark = "!" if v.check else "*"
        white = f"{mark if p.turn == WHITE else ''}W {format_ms(v.clocks['white'])}"
        black = f"{mark if p.turn != WHITE else ''}B {format_ms(v.clocks['black'])}"
        return g.status_line(white, black)
    side = g.side_name(p.turn)
    left = f"{side}: check!" if v.check else f"{side} to move"
    return g.status_line(left, f"{p.ply // 2 + 1}.")


def _second(v: View) -> str:
    if v.last is not None:
        return v.last.text
    if v.game_id is None:
        return ""
    text = f"Game {v.game_id}: {short_title(v.position.variant)}"
    return text if len(text) <= g.WIDTH else f"#{v.game_id} {short_title(v.position.variant)}"


def _play_text(v: View, lit: _Lit) -> str:
    m = v.match
    assert m is not None
    p = v.position
    names = v.names(p)
    left = max(0, math.ceil((v.raw_since + v.settings.suicide_ms - v.now) / 1000))
    if m.kind == "suicide":
        move = m.entries[0].move
        sq = move.from_square
        if move.captures:   # mutual destruction
            victim = move.captures[0]
            return (f"{p.piece_at(sq).name} {names[sq]}, {p.piece_at(victim).name} {names[victim]} "
                    f"off in {left} s. OK = now.")
        return (f"{p.piece_at(sq).name} {names[sq]}: suicide in {left} s. "
                f"OK = now; put it back to cancel.")
    if m.kind == "early" and m.entries[0].move.kind == "shot":   # Optima: the shooter stays
        move = m.entries[0].move
        target = ", ".join(names[q] for q in move.captures)
        return f"{p.piece_at(move.from_square).name} {names[move.from_square]} takes {target} in {left} s. OK = now."
    if m.kind == "early":   # a move that may be the first half of a castling, or of a capture
        move = m.entries[0].move
        more = "or go on castling." if v.table.castles else "or take off what it captures."
        return f"{p.piece_at(move.from_square).name} {move_text(p, move, names)} in {left} s. OK = now; {more}"
    if m.kind == "promote":
        lit.pick = offered(v.pick, v.raw, v.lifted)
        move = m.entries[lit.pick[1]].move
        lit.add("setup-missing", [move.to_square])
        name = p.variant.type_of(move.promotion or "q").name
        return g.ask(f"Promote to: {name}.", PICK_KEYS)
    if m.kind == "place":
        chosen = v.placement.token_for(p.ply) if v.placement is not None else None
        if chosen is not None and any(e.move.placed == chosen for e in m.entries):
            return f"{unit_title(chosen)} set on {names[m.entries[0].move.to_square]}."
        lit.pick = offered(v.pick, v.raw, v.lifted)
        move = m.entries[lit.pick[1]].move
        return g.ask(f"Place: {unit_title(move.placed)}?", PICK_KEYS)
    if m.kind == "idle" and getattr(p, "phase", None) == "placement":
        if v.settings.hints:   # the squares a unit may be set on now
            lit.add("hint", sorted({e.move.to_square for e in v.table.entries}))
        return _placing_text(v)
    if m.kind == "idle" and v.last is not None and v.last.move.promotion == "WI" and p.move_stack:
        lit.add("setup-missing", [v.last.move.to_square])   # exchange the pawn for the Wizard here
        return f"Pawn becomes Wizard: put a Wizard on {names[v.last.move.to_square]}."
    if not v.stable:
        return ""
    if m.kind == "convert":
        lit.add("setup-missing", bits(m.extra) + bits(m.missing))
        lit.add("remove", bits(m.remove))
        return convert_text(p, m, names)
    if m.kind == "partial":
        raw = v.raw or 0
        todo = [(o, d) for o, d in m.entries[0].parts if not raw >> d & 1]
        lit.add("setup-missing", [d for _, d in todo])
        return "Castling: " + " ".join(f"{p.piece_at(o).name} {names[o]} to {names[d]}." for o, d in todo)
    if m.kind == "ambiguous":
        lit.pick = offered(v.pick, v.raw, v.lifted)
        index = lit.pick[1]
        move = m.entries[index].move
        return (f"Which move? {index + 1}/{len(m.entries)}: {p.piece_at(move.from_square).name} "
                f"{move_text(p, move, names)}. "
                f"OK = yes, BACK = next.")
    if m.kind == "remove":
        lit.add("remove", bits(m.remove))
        return g.remove([(p.piece_at(s).name, names[s]) for s in bits(m.remove)])
    if m.kind == "lifted":
        lifted = bits(m.missing)
        if (v.settings.hints or v.settings.teach) and len(lifted) == 1:
            lit.add("hint", v.table.hints(lifted[0]))
        text = f"In hand: {g.listing([(g.piece_name(p.piece_at(s), p.turn), names[s]) for s in lifted])}."
        if v.settings.teach and len(lifted) == 1:
            return text + _teaching(v, lit, lifted[0], names)
        return text
    if m.kind == "wrong" and v.now - v.raw_since >= v.settings.grace_ms:
        lit.add("error-missing", bits(m.missing))
        lit.add("error-extra", bits(m.extra))
        lit.add("remove", bits(m.remove))
        return wrong_text(p, m, v.raw, v.lifted, names)
    return ""


def _teaching(v: View, lit: _Lit, square: int, names: Sequence[str]) -> str:
    """Teaching: light every enemy piece a move of the piece lifted from
    ``square`` would capture or freeze; the words after "In hand: ..."."""
    seen = v.table.preview(square)
    lit.add("captures", list(seen.captures) + list(seen.freezes))
    p = v.position
    parts = []
    if seen.captures:
        parts.append(f"It can take {g.listing([(p.piece_at(q).name, names[q]) for q in seen.captures])}.")
    if seen.freezes:
        parts.append(f"It can freeze {g.listing([(p.piece_at(q).name, names[q]) for q in seen.freezes])}.")
    return "".join(" " + x for x in parts)


def _sync_screen(v: View, lit: _Lit) -> tuple[str, str]:
    sync = v.sync
    assert sync is not None
    p = v.position
    names = v.names(p)
    raw = v.raw or 0
    expected = v.table.expected
    missing = bits(expected & ~raw)
    extra = bits(raw & ~expected)
    swap = bits(sync.required & expected & ~v.lifted & raw)
    lit.add("error-missing", missing)
    lit.add("error-extra", extra + swap)
    if sync.reason == "takeback":
        second = UNDO + ", ".join(sync.undone)
    else:
        second = f"Resumed game {v.game_id}"
    parts = []
    pending = sorted(set(missing) | set(swap))
    for move in sync.moves:
        frm, to = move.from_square, move.to_square
        if frm in missing and to is not None and to in extra:
            parts.append(g.move_back(p.piece_at(frm).name, names[frm], names[to]))
            pending.remove(frm)
            extra.remove(to)
    if len(pending) == 1 and len(extra) == 1 and not swap:
        parts.append(g.astray(g.piece_name(p.piece_at(pending[0]), p.turn), names[pending[0]], names[extra[0]]))
    else:
        parts.append(g.put_back([(g.piece_name(p.piece_at(s), p.turn), names[s]) for s in pending]))
        parts.append(g.take_off([names[s] for s in extra]))
    text = " ".join(x for x in parts if x)
    if not text:
        text = "Board matches." if sync.reason == "resume" else ""
    return second, text


def _setup_screen(v: View, lit: _Lit) -> tuple[str, str, str]:
    setup = v.setup
    assert setup is not None
    p = setup.position
    names = v.names(p)
    target = setup.table.expected
    raw = v.raw or 0
    start = p.fen() == p.variant.start_fen
    title = fitted_title(p.variant, g.WIDTH - len(SETUP) - 1, "" if start else " FEN")
    status = g.status_line(SETUP, title)   # both fit: a long name is said briefly ("Set-up Pushme 10x10")
    missing = bits(target & ~raw)
    extra = bits(raw & ~target)
    standing = v.raw is not None and not missing and not extra   # the start stands: OK starts it
    other = None if standing else size_switch(p, v.settings)   # Deckle: the other size, while it can apply
    lit.add("error-extra", extra)
    if setup.walk is not None:
        sq = setup.squares[setup.walk]
        piece = p.piece_at(sq)
        lit.add("setup-missing", [sq])
        return (status, f"Piece {setup.walk + 1}/{len(setup.squares)}  OK=done",
                f"{g.side_name(piece.color)} {piece.name}{' (royal)' if getattr(piece, 'royal', False) else ''} "
                f"on {names[sq]}. MENU next, BACK previous.")
    lit.add("setup-missing", missing)
    if setup.on_game and other is not None:   # (see modes/setup.py: OK switches only while this is shown)
        # the game's whole name once (the status bar may say it briefly), with "Game:" where it fits
        game = next((text for text in (f"Game: {sized_title(p.variant)}", sized_title(p.variant))
                     if len(text) <= g.WIDTH), f"Size {size_name(p.variant)}")
        return (status, game,
                f"Other size {size_name(other)}: OK or set up its start. MENU clock, BACK done")
    if setup.on_forces:
        return status, f"Forces: {v.settings.forces}", "OK = other forces. MENU = clock. BACK = done."
    if setup.on_clock:   # worded so that each button's line wraps whole
        return status, f"Clock: {v.control}", "OK = other clock. MENU = the pieces. BACK = done."
    if v.raw is None:
        return status, "", "Waiting for the board."
    if not missing and not extra:
        ready = "Ready" if v.control == "none" else f"Ready, clock {v.control}"
        if len(ready) > g.WIDTH:
            ready = f"Ready, {v.control}"
        return status, ready, "Board set up. OK or NEW to start."
    if v.failure is not None:
        return status, "", v.failure
    second = f"Place {len(missing)}, clear {len(extra)}"
    note = v.note + " " if v.note is not None else ""
    if other is not None:
        return status, second, note + f"Lit: place or clear. Or set up {size_name(other)} start. MENU: more."
    return status, second, note + "Lit squares: place or clear. MENU: piece by piece."


def _ended_screen(v: View) -> tuple[str, str, str]:
    winner = {"1-0": "White wins", "0-1": "Black wins"}.get(v.result, "Draw")
    if v.reason == "resignation":
        words = f"{g.side_name(WHITE if v.result == '0-1' else -WHITE)} resigned."
    elif v.result == "1/2":
        words = f"Draw by {v.reason}." if v.reason == "agreement" else f"Draw: {v.reason}."
    else:
        words = f"{winner}: {v.reason}."
    then = "OK or NEW: new game." if v.start_standing else "Set up the start, then NEW."
    return g.status_line("Game over", v.result), _second(v), f"{words} {then}"
