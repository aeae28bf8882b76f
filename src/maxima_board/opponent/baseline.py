"""The baseline players as UCI engines:

    python -m maxima_board.opponent.baseline random|greedy|minimax2
    maxima-board baseline random|greedy|minimax2

They speak the same UCI dialect as the built-in engine: ``uci`` (options
``UCI_Variant`` with the names of ``maxima-board variants``, ``Level`` and
``Hash``, accepted and ignored, ``Seed`` for the random choices, and the
test-only ``Hang``: once true, the engine reads on but never answers again),
``isready``, ``ucinewgame``, ``position startpos|fen FEN [moves ...]`` with
our FEN and canonical moves, ``go`` (``depth``, ``movetime``, ``wtime``/
``btime``/``winc``/``binc``/``movestogo``, ``nodes``: the move is found at
once whatever the limit; ``infinite``: the answer waits for ``stop``),
``stop``, ``quit``. Errors are reported as ``info string error: ...`` and the
engine carries on.
"""
from __future__ import annotations

import random
import sys
from typing import TextIO

from maxima_board.rules import Position

from .games import engine_games, refuse

from .players import PLAYERS, WIN

AUTHOR = "maxima-board"


class BaselineEngine:
    """One UCI session of a baseline player over ``inp``/``out``."""

    def __init__(self, name: str, out: TextIO):
        if name not in PLAYERS:
            raise ValueError(f"unknown baseline player {name!r} (expected one of {', '.join(PLAYERS)})")
        self.name = name
        self.play = PLAYERS[name]
        self.out = out
        self.variant = "maxima"
        self.seed = 0
        self.rng = random.Random(self.seed)
        self.hang = False
        self.position = Position("start", self.variant)
        self._waiting: str | None = None   # the bestmove line held back by "go infinite"
        self._last: tuple | None = None     # (variant, position head), moves: what self.position holds

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.send(f"info string error: {text}")

    def handle(self, line: str) -> bool:
        """One command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            return False
        if self.hang:
            return True
        if cmd == "uci":
            self.send(f"id name maxima-board baseline {self.name}")
            self.send(f"id author {AUTHOR}")
            names = " ".join(f"var {n}" for n in engine_games())
            self.send(f"option name UCI_Variant type combo default maxima {names}")
            self.send("option name Level type spin default 10 min 1 max 10")
            self.send("option name Hash type spin default 16 min 1 max 1024")
            self.send("option name Seed type spin default 0 min 0 max 2147483647")
            self.send("option name Hang type check default false")
            self.send("uciok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "ucinewgame":
            self.rng = random.Random(self.seed)
            self.position = Position("start", self.variant)
            self._last = None
        elif cmd == "setoption":
            self._setoption(args)
        elif cmd == "position":
            self._position(args)
        elif cmd == "go":
            self._go(args)
        elif cmd == "stop":
            if self._waiting is not None:
                self.send(self._waiting)
                self._waiting = None
        else:
            self.error(f"unknown command {cmd!r}")
        return True

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            return self.error("setoption needs 'name NAME [value VALUE]'")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "uci_variant":
            try:
                self.variant = refuse(value)
            except ValueError as exc:
                return self.error(str(exc))
            self.position = Position("start", self.variant)
            self._last = None
        elif name == "seed":
            if not value.isdigit():
                return self.error(f"Seed must be a whole number, got {value!r}")
            self.seed = int(value)
            self.rng = random.Random(self.seed)
        elif name == "hang":
            self.hang = value.lower() == "true"
        elif name in ("level", "hash"):
            pass
        else:
            self.error(f"unknown option {name!r}")

    def _position(self, args: list[str]) -> None:
        if "moves" in args:
            cut = args.index("moves")
            head, moves = args[:cut], args[cut + 1:]
        else:
            head, moves = args, []
        key = (self.variant, tuple(head))
        old = self._last
        if old is not None and old[0] == key and tuple(moves[:len(old[1])]) == old[1]:
            try:   # the same game, moves added: play only the new ones
                for move in moves[len(old[1]):]:
                    self.position.push(move)
            except ValueError as exc:
                self._last = None
                return self.error(str(exc))
            self._last = (key, tuple(moves))
            return
        self._last = None
        try:
            if head[:1] == ["startpos"]:
                position = Position("start", self.variant)
            elif head[:1] == ["fen"] and len(head) > 1:
                position = Position(" ".join(head[1:]), self.variant)
            else:
                return self.error("position needs 'startpos' or 'fen FEN'")
            for move in moves:
                position.push(move)
        except ValueError as exc:
            return self.error(str(exc))
        self.position = position
        self._last = (key, tuple(moves))

    def _go(self, args: list[str]) -> None:
        position = self.position
        if not position.legal_moves or position.outcome() is not None:
            line = "bestmove (none)"
            self.send("info depth 0 score mate 0" if position.is_check() else "info depth 0 score cp 0")
        else:
            move, score = self.play(position, self.rng)
            depth = {"random": 0, "greedy": 1, "minimax2": 2}[self.name]
            if abs(score) >= WIN:
                shown = f"mate {1 if score > 0 else -1}"
            else:
                shown = f"cp {score}"
            self.send(f"info depth {depth} score {shown} nodes {len(position.legal_moves)} pv {move}")
            line = f"bestmove {move}"
        if "infinite" in args:
            self._waiting = line
        else:
            self.send(line)


def serve(name: str, inp: TextIO, out: TextIO) -> int:
    """Run one UCI session until ``quit`` or the end of ``inp``."""
    engine = BaselineEngine(name, out)
    for line in inp:
        if not engine.handle(line.strip()):
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in PLAYERS:
        print(f"usage: python -m opponent.baseline {'|'.join(PLAYERS)}", file=sys.stderr)
        return 2
    return serve(argv[0], sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
