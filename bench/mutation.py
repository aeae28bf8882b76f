"""Mutation testing of the board's pure core (issue 35): mutmut 3, module
by module, each mutant run against the tests that cover it.

    python bench/mutation.py [--module clock ...] [--workers 2] [--keep DIR]

For each module of ``MODULES`` (all by default): a copy of the checkout
(the files git knows, plus the built engine) in a folder of its own, its
``[tool.mutmut]`` set to mutate that module alone against its tests, then
``mutmut run --max-children WORKERS``. Prints per module: mutants,
killed, survived, the score (killed over mutants; error-text mutants
count as real), its wall-clock seconds and the machine's load (the
5-minute average; on the total line the 15-minute one), and every
survivor not listed in ``bench/mutation-equivalent.txt`` (a surviving
mutant judged equivalent, with one line of why). Exit 1 when a module scores under ``TARGET`` or
has an unexplained survivor.

Needs ``pip install mutmut==3.8.1`` (``.venv/bin/pip``); not part of the
default test run.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "bench" / "mutation-equivalent.txt"
TARGET = 95.0

# module -> (its file, the tests that exercise it)
MODULES: dict[str, tuple[str, list[str]]] = {
    "clock": ("src/maxima_board/board/clock.py",
              ["tests/test_controller_clock.py", "tests/test_clock_edges.py"]),
    "notation": ("src/maxima_board/rules/notation.py",
                 ["tests/test_fen.py", "tests/test_notation_edges.py", "tests/test_optima_fen.py",
                  "tests/test_rules_deckle.py", "tests/test_rules_pieces.py", "tests/test_bad_input.py"]),
    "guidance": ("src/maxima_board/board/guidance.py",
                 ["tests/test_guidance_edges.py", "tests/test_screen_lines.py", "tests/test_controller_words.py",
                  "tests/test_controller_situations.py", "tests/test_controller_setup_status.py"]),
    "reconstruct": ("src/maxima_board/board/reconstruct.py",
                    ["tests/test_controller_core.py", "tests/test_controller_situations.py",
                     "tests/test_controller_games.py", "tests/test_optima_board.py",
                     "tests/test_reconstruct_edges.py", "tests/test_teaching_preview.py"]),
    "screens": ("src/maxima_board/board/screens.py",
                ["tests/test_screens_edges.py", "tests/test_screens_play.py", "tests/test_screens_pages.py",
                 "tests/test_controller_words.py", "tests/test_controller_situations.py",
                 "tests/test_controller_setup_status.py", "tests/test_screen_lines.py", "tests/test_board_names.py",
                 "tests/test_controller_core.py", "tests/test_optima_board.py"]),
    "modes": ("src/maxima_board/board/modes/*",
              ["tests/test_controller_modes.py", "tests/test_controller_chooser_closing.py",
               "tests/test_controller_game_choice.py", "tests/test_controller_core.py",
               "tests/test_controller_situations.py", "tests/test_controller_games.py",
               "tests/test_optima_board.py", "tests/test_controller_setup_status.py",
               "tests/test_controller_clock.py", "tests/test_controller_deckle_usual_size.py",
               "tests/test_modes_edges.py", "tests/test_modes_play_edges.py", "tests/test_modes_setup_edges.py",
               "tests/test_modes_placement_edges.py"]),
}


def equivalents() -> dict[str, str]:
    """Survivors judged equivalent: mutant name -> why."""
    out = {}
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition(":")
            out[name.strip()] = why.strip()
    return out


def copy_checkout(into: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    engine = ROOT / "src" / "maxima_board" / "opponent" / "bin" / "maxima-engine"
    if engine.exists():
        (into / engine.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(engine, into / engine.relative_to(ROOT))


# A mutant that loops (a mask gone negative in ``bits``...) is stopped after
# (TIMEOUT_CONSTANT + the seconds its tests took unmutated) * TIMEOUT_MULTIPLIER
# of wall-clock, and counts as killed. mutmut's defaults (1.0 s, 15) let each
# such mutant run 15-40 s, most of a small module's run; a survivor runs its
# tests in at most 1.5 times (their time + 0.5 s) on a loaded machine, so 6
# times leaves room enough for no slow survivor to be taken for a loop.
TIMEOUT_CONSTANT = 0.5
TIMEOUT_MULTIPLIER = 6.0


def configure(folder: Path, module: str, tests: list[str]) -> None:
    pyproject = folder / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    tops = sorted({p.name + ("/" if p.is_dir() else "") for p in folder.iterdir()} - {"src/", "mutants/"})
    section = (f'[tool.mutmut]\nsource_paths = ["src/"]\nonly_mutate = ["{module}"]\n'
               f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
               f"timeout_constant = {TIMEOUT_CONSTANT}\ntimeout_multiplier = {TIMEOUT_MULTIPLIER}\n"
               f"also_copy = {json.dumps(tops)}\n")       # the tests read docs, README, engine sources ...
    text = re.sub(r"\[tool\.mutmut\][^\[]*", "", text)
    pyproject.write_text(text.rstrip() + "\n\n" + section, encoding="utf-8")


def run_module(name: str, workers: int, keep: Path | None) -> tuple[dict, list[str]]:
    path, tests = MODULES[name]
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)     # --keep DIR: made if it is not there
    folder = Path(tempfile.mkdtemp(prefix=f"mutation-{name}-", dir=keep))
    copy_checkout(folder)
    configure(folder, path, tests)
    mutmut = Path(sys.executable).with_name("mutmut")
    run = subprocess.run([str(mutmut), "run", "--max-children", str(workers)], cwd=folder,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode:
        raise SystemExit(f"mutation.py: mutmut failed on {name} (folder {folder}): "
                         + " ".join(run.stderr.strip().splitlines()[-1:])[:300])
    subprocess.run([str(mutmut), "export-cicd-stats"], cwd=folder, capture_output=True)
    stats = json.loads((folder / "mutants" / "mutmut-cicd-stats.json").read_text())
    results = subprocess.run([str(mutmut), "results"], cwd=folder, capture_output=True, text=True).stdout
    survivors = [line.split(":")[0].strip() for line in results.splitlines() if line.strip().endswith("survived")]
    if keep is None:
        shutil.rmtree(folder, ignore_errors=True)
    return stats, survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", choices=sorted(MODULES), help="a module (repeatable); all by default")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="keep each module's folder under DIR")
    args = parser.parse_args()
    known = equivalents()
    failed = False
    print(f"{'module':<12} {'mutants':>8} {'killed':>7} {'survived':>9} {'score':>7}  unexplained   seconds   load")
    started = time.monotonic()
    for name in args.module or list(MODULES):
        began = time.monotonic()
        stats, survivors = run_module(name, args.workers, args.keep)
        tested = stats["total"] - stats.get("skipped", 0)
        killed = stats["killed"] + stats.get("timeout", 0)
        score = 100.0 * killed / tested if tested else 0.0
        unexplained = [s for s in survivors if s not in known]
        failed |= score < TARGET or bool(unexplained)
        print(f"{name:<12} {tested:>8} {killed:>7} {len(survivors):>9} {score:>6.1f}%  {len(unexplained):>11}   "
              f"{time.monotonic() - began:>7.0f}   {os.getloadavg()[1]:>4.1f}", flush=True)
        for survivor in unexplained:
            print(f"    unexplained: {survivor}", flush=True)
    print(f"{'total':<12} {'':>8} {'':>7} {'':>9} {'':>7}  {'':>11}   {time.monotonic() - started:>7.0f}   "
          f"{os.getloadavg()[2]:>4.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
