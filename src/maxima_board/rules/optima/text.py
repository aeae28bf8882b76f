"""Optima's text forms (O15): board field of the FEN and canonical moves.

This module holds the board-field reader and the move writer that every
Optima module and test shares; the full FEN (reserve, rules, ply, O16
checks) is :mod:`.fen`'s, and moves are read by the one move reader,
:func:`maxima_board.rules.notation.parse_move`, in Optima's forms
(:data:`maxima_board.rules.move_forms.UNITS`).
"""
from __future__ import annotations

from maxima_board.rules.notation import _DIGITS, FenError
from .tables import PLACE, PROMOTE, Tables
from .units import ROYAL, TYPE_MASK


def parse_board(text: str, units_by_token: dict) -> tuple[int, list[int]]:
    """The board field of an Optima FEN: ``(n, board)`` with n = 10 or 9.
    Raises FenError naming the rank and the fault (O16)."""
    rows = text.split("/")
    n = len(rows)
    if n not in (9, 10):
        raise FenError(f"Optima FEN board has {n} ranks, expected 10 (10x10) or 9 (9x9)")
    board = [0] * (n * n)
    for i, row in enumerate(rows):
        rank = n - i
        file, j, last_digit = 0, 0, False
        while j < len(row):
            ch = row[j]
            if ch in _DIGITS:   # not str.isdigit(): '²' is a digit to it
                k = j
                while k < len(row) and row[k] in _DIGITS:
                    k += 1
                run = row[j:k]
                if last_digit or run[0] == "0":
                    raise FenError(f"rank {rank}: bad empty run {run!r} in {row!r}")
                file += int(run)
                j, last_digit = k, True
                continue
            token = row[j:j + 2]
            if ch == "*":
                raise FenError(f"rank {rank}: misplaced '*' in {row!r} (it follows a piece's token)")
            if len(token) < 2 or not token.isalpha() or not (token.isupper() or token.islower()):
                raise FenError(f"rank {rank}: bad token {token!r} in {row!r} (two letters, one case)")
            unit = units_by_token.get(token.upper())
            if unit is None:
                raise FenError(f"rank {rank}: unknown unit {token!r}")
            j += 2
            code = unit.code
            if j < len(row) and row[j] == "*":
                if not unit.may_be_royal:
                    raise FenError(f"rank {rank}: {token} can never be royal")
                code |= ROYAL
                j += 1
            if file >= n:
                raise FenError(f"rank {rank} is longer than {n} cells: {row!r}")
            board[(rank - 1) * n + file] = code if token.isupper() else -code
            file += 1
            last_digit = False
        if file != n:
            raise FenError(f"rank {rank} has {file} cells, expected {n}: {row!r}")
    return n, board


def format_board(board: list[int], n: int, tables: Tables) -> str:
    """The board field of the FEN for ``board`` (O15)."""
    rows = []
    for rank in range(n, 0, -1):
        out, run = "", 0
        for file in range(n):
            v = board[(rank - 1) * n + file]
            if not v:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += unit_token(v, tables)
        if run:
            out += str(run)
        rows.append(out)
    return "/".join(rows)


def unit_token(v: int, tables: Tables) -> str:
    """``v``'s FEN token: upper case for White, ``*`` when royal."""
    code = abs(v)
    token = tables.units[code & TYPE_MASK].token
    return (token if v > 0 else token.lower()) + ("*" if code & ROYAL else "")


def move_text(raw: tuple, tables: Tables) -> str:
    """The canonical text of raw move ``raw`` (O15): ``TT@sq``, ``TT*@sq`` or
    ``FROM-TO[xC,..][^V,..][=WI]``, squares in rank-then-file order."""
    names = tables.geometry.names
    s, t, caps, convs, flags = raw
    if s == PLACE:
        return unit_token(abs(flags), tables) + "@" + names[t]
    text = f"{names[s]}-{names[t]}"
    if caps:
        text += "x" + ",".join(names[q] for q in sorted(caps))
    if convs:
        text += "^" + ",".join(names[q] for q in sorted(convs))
    if flags & PROMOTE:
        text += "=WI"
    return text
