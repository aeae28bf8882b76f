"""Building and driving the compiled engine in tests."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "opponent" / "engine"
BINARY = ENGINE_DIR / "maxima-engine"


def build() -> Path:
    """Run make in opponent/engine; a clear error when gcc or make is missing."""
    missing = [tool for tool in ("gcc", "make") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"cannot build opponent/engine: {' and '.join(missing)} not installed "
                           f"(Debian: apt-get install build-essential)")
    r = subprocess.run(["make", "-s", "-C", str(ENGINE_DIR)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"make -C opponent/engine failed:\n{r.stdout}{r.stderr}")
    return BINARY


def run_batch(binary: Path, mode: str, variant: str, fens: list[str], depth: int | None = None,
              blank_separated: bool = False, timeout: float = 300) -> list:
    args = [str(binary), mode, variant] + ([str(depth)] if depth is not None else [])
    r = subprocess.run(args, input="\n".join(fens) + "\n", capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
    if not blank_separated:
        return r.stdout.split("\n")[:len(fens)]
    blocks = r.stdout.split("\n\n")
    return [[line for line in b.split("\n") if line] for b in blocks[:len(fens)]]


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def engine_binary() -> Path:
    """The engine, built once per test run with make (fails clearly without gcc)."""
    try:
        return build()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
