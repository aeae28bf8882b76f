"""The compiled engine on the Raspberry Pi's architectures (issue 11: "must run
on a Raspberry Pi"): builds for them print exactly what the build of this
machine prints.

- default run: a build with ``-funsigned-char`` (``char`` is unsigned on ARM)
  against the session's engine, on positions of every game family;
- slow run (``./run-tests -m slow``, needs ``apt-get install
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user``): aarch64 (64-bit
  Raspberry Pi OS) and armhf (32-bit) cross builds run under qemu-user.

Compared: perft(2) and the sorted legal moves of every position, the FEN
after every move of some, ``search`` at a fixed depth (every iteration's score,
nodes and principal variation, the best move) and a UCI conversation
(``uci``, ``setoption name UCI_Variant``, ``position fen``, ``go depth 3``).
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from . import engine_builds as eb
from .opponent_engine import engine_binary  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def native(engine_binary):  # noqa: F811
    """The session's build (make's default) and its outputs, computed once per game."""
    cache: dict[int, dict] = {}

    def outputs(w: eb.Work) -> dict:
        if id(w) not in cache:
            cache[id(w)] = eb.outputs([str(engine_binary)], w)
        return cache[id(w)]
    return outputs


def assert_same(native_out: dict, other: dict, who: str, w: eb.Work) -> None:
    assert len(native_out["perft"]) == len(w.fens) and len(native_out["moves"]) == len(w.fens)
    assert len(eb.bestmoves(native_out)) == len(w.searches)
    diff = eb.differences(native_out, other)
    assert not diff, f"{who} differs from this machine's build in {w.variant}: " + "; ".join(diff)


@lru_cache(maxsize=None)
def work(variant: str, slow: bool) -> eb.Work:
    """40 positions and 2 searches at depth 4 per game; slow: 150 and 3 at depth 5."""
    w = eb.work(count=150 if slow else 40, games=(variant,), searches=3 if slow else 2)[0]
    if slow:
        w.search_depth = 5
    return w


@pytest.fixture(scope="module")
def unsigned_char(tmp_path_factory) -> eb.Build:
    done = eb.build(eb.UNSIGNED_CHAR, tmp_path_factory.mktemp("unsigned-char"))
    assert "warning" not in done.log, done.log     # -Wall -Wextra
    return done


@pytest.mark.parametrize("variant", eb.GAMES)
def test_a_build_with_unsigned_char_as_on_arm_prints_the_same(unsigned_char, native, variant):
    """ARM's plain char is unsigned: gcc -funsigned-char here shows any plain
    char holding a negative value (a signed piece, a -1 sentinel)."""
    w = work(variant, slow=False)
    assert_same(native(w), eb.outputs(unsigned_char.command, w), "the -funsigned-char build", w)


# ------------------------------------------------------------------ ARM under qemu (slow)
ARM_BUILDS = [(eb.AARCH64, "trained"), (eb.ARMHF, "make")]


@pytest.fixture(scope="module", params=ARM_BUILDS, ids=[f"{t.name}-pgo-{pgo}" for t, pgo in ARM_BUILDS])
def arm_build(request, tmp_path_factory) -> tuple[eb.Target, eb.Build]:
    target, pgo = request.param
    missing = target.missing()
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install {' '.join(target.apt)})")
    done = eb.build(target, tmp_path_factory.mktemp(target.name), pgo)
    assert "warning" not in done.log, done.log     # -Wall -Wextra, also -Wformat with 32-bit long on armhf
    if pgo == "make":   # the Makefile's default on a machine that cannot run the binary: no profile, said once
        assert "cannot run what" in done.log, done.log
    return target, done


@pytest.mark.slow
@pytest.mark.parametrize("variant", eb.GAMES)
def test_arm_cross_builds_under_qemu_print_the_same(arm_build, native, variant):
    """aarch64 (built with the profile trained under qemu) and armhf (make's
    default, no profile): perft, moves, FENs after moves, search and UCI."""
    target, done = arm_build
    w = work(variant, slow=True)
    assert_same(native(w), eb.outputs(done.command, w), f"the {target.name} build under qemu", w)
