"""The compiled engine under AddressSanitizer and UndefinedBehaviorSanitizer
(``make -C engine sanitize``: ``-fsanitize=address,undefined
-fno-sanitize-recover=all``): every one of the 21 games runs a short perft and a
short search, and a UCI conversation searches; each must end with exit code 0
and without a sanitizer report on stderr (an out-of-bounds read, an overflow, a
leak, undefined behaviour).

- default run: perft(2) from the start (Optima: also after its placement) and
  a depth-3 search from the start and from a middle game, for every game;
- slow run (``./run-tests -m slow``): perft(3), a depth-5 search, the modes
  on stdin (moves, children, eval, features, check) and a short self-play.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench.engine import AFTER_PLACEMENT
from bench.perft import middle_game
from maxima_board.rules import Position, variants

from .opponent_engine import ENGINE_DIR, Uci

REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "SUMMARY: AddressSanitizer",
           "SUMMARY: UndefinedBehaviorSanitizer")
GAMES = variants.names()
ENV = {**os.environ, "ASAN_OPTIONS": "abort_on_error=0:detect_leaks=1", "UBSAN_OPTIONS": "print_stacktrace=1"}


@pytest.fixture(scope="session")
def sanitized(tmp_path_factory) -> Path:
    """The engine built once with `make sanitize` into a temporary folder."""
    binary = tmp_path_factory.mktemp("sanitize") / "maxima-engine-sanitize"
    r = subprocess.run(["make", "-s", "-C", str(ENGINE_DIR), "sanitize", f"BIN={binary}"], capture_output=True,
                       text=True)
    if r.returncode != 0 and ("asan" in r.stderr or "ubsan" in r.stderr) and "cannot find" in r.stderr:
        pytest.skip(f"this gcc has no sanitizer runtime (Debian: libasan, libubsan): {r.stderr.strip()[-200:]}")
    assert r.returncode == 0, f"make sanitize failed:\n{r.stdout}{r.stderr}"
    return binary


def run(binary: Path, args: list[str], stdin: str = "", timeout: float = 120) -> str:
    r = subprocess.run([str(binary), *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=ENV)
    reports = [line for line in r.stderr.splitlines() if any(word in line for word in REPORTS)]
    assert r.returncode == 0 and not reports, f"{' '.join(args)}: exit {r.returncode}\n{r.stderr[-3000:]}"
    return r.stdout


def test_the_21_games():
    assert len(GAMES) == 21 and len(set(GAMES)) == 21


def start_fens(v: str) -> list[str]:
    return [Position("start", v).fen()] + ([AFTER_PLACEMENT[v]] if v in AFTER_PLACEMENT else [])


@pytest.mark.parametrize("variant", GAMES)
def test_perft_and_search(sanitized, variant):
    fens = start_fens(variant)
    counts = run(sanitized, ["perft", variant, "2"], "\n".join(fens) + "\n").split()
    assert len(counts) == len(fens) and all(int(n) > 0 for n in counts)
    for fen in [None, middle_game(variant).fen()]:
        out = run(sanitized, ["search", variant, "3"] + ([fen] if fen else []))
        assert out.splitlines()[-1].startswith(f"search {variant} depth 3:")


@pytest.mark.parametrize("variant", ["maxima", "swapper-chess-10x8", "optima"])
def test_uci(sanitized, variant):
    """uci.c's two threads and a search by nodes, then quit (a leak shows at exit)."""
    uci = Uci(sanitized)
    try:
        uci.send("uci")
        uci.expect("uciok", 30)
        uci.send(f"setoption name UCI_Variant value {variant}")
        uci.send("isready")
        uci.expect("readyok", 30)
        move, _ = uci.bestmove("position startpos", "go nodes 3000", 60)
        assert move != "(none)"
    finally:
        code = uci.close()
        err = uci.proc.stderr.read()
    assert code == 0 and not any(word in err for word in REPORTS), err[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
def test_longer_runs(sanitized, variant):
    fens = start_fens(variant) + [middle_game(variant).fen()]
    stdin = "\n".join(fens) + "\n"
    run(sanitized, ["perft", variant, "3"], stdin, timeout=600)
    modes = ["moves", "children"] + (["check"] if variant.startswith("optima") else ["eval", "features"])
    for mode in modes:
        run(sanitized, [mode, variant], stdin)
    for fen in [None, fens[-1]]:
        run(sanitized, ["search", variant, "5"] + ([fen] if fen else []), timeout=600)
    run(sanitized, ["selfplay", variant, "1", "2", "1", "30"], timeout=600)
