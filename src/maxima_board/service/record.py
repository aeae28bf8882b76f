"""Stored games as PGN-style records (maxima_board.rules.record writes the text)."""
from __future__ import annotations

from maxima_board.rules import variants
from maxima_board.rules.record import GameRecord

from maxima_board.board.clock import parse_time_control
from maxima_board.storage.store import GameRow, GameStore

# The engine and the controller write a draw as "1/2"; PGN readers want this.
_PGN_RESULT = {"1/2": "1/2-1/2"}


def game_record(store: GameStore, game: GameRow) -> GameRecord:
    """The record of a stored game: tags Event, Site, Date, Round, White,
    Black, Result, Variant, FEN (only when not the start position),
    Termination when the game has ended for a stated reason, and
    TimeControl (PGN's seconds form, see ``TimeControl.pgn``) with a clock."""
    tags = {"Event": game.event, "Site": game.site, "Date": game.date, "Round": game.round,
            "White": game.white, "Black": game.black,
            "Result": _PGN_RESULT.get(game.result, game.result)}
    try:
        variant = variants.get(game.variant)
    except ValueError:
        variant = None
    tags["Variant"] = variant.title if variant is not None else game.variant
    if variant is not None and variant.uses_units:
        tags.update(optima_tags(variant, game.start_fen))
    record = GameRecord(dict(tags), store.moves(game.id))
    if variant is None or game.start_fen != variant.start_fen:
        record.tags["FEN"] = game.start_fen
    if game.reason:
        record.tags["Termination"] = game.reason
    clock = store.clock(game.id)
    control = parse_time_control(clock.control) if clock is not None else None
    if control is not None:
        record.tags["TimeControl"] = control.pgn()
    return record


def export_text(store: GameStore, game_id: int | None = None) -> str:
    """The record text of game ``game_id`` (the newest game if None)."""
    games = store.games()
    if not games:
        raise ValueError(f"no games stored in {store.path}")
    game = store.game(game_id) if game_id is not None else games[-1]
    return game_record(store, game).to_text()



def optima_tags(variant, start_fen: str) -> dict[str, str]:
    """Optima's record tags (O15; ``maxima_board.rules.record.optima_tags``): Variant
    "Optima", Board, Rules, and Forces from the start FEN's reserve, or
    ``random`` for a start as O4 draws one (no placement, ply 0, the set on
    the first rank and Black's first rank White's turned by 180°)."""
    from maxima_board.rules import Position
    from maxima_board.rules.record import optima_tags as tags_of

    position = Position(start_fen, variant)
    tags = tags_of(position)
    if "Forces" not in tags and _random_start(position):
        tags["Forces"] = "random"
    return tags


def _random_start(position) -> bool:
    b, n = position.board, position.geometry.files
    if position.ply or getattr(position, "phase", "") != "movement":
        return False
    placed = [b[x] for x in range(n) if b[x]]
    return (len(placed) == (10 if n == 10 else 5)
            and all(b[x] == -b[(n - 1) * n + (n - 1 - x)] for x in range(n)))
