"""The supervised engine (issue 11): a killed or hung engine process is
reported and restarted, and the game goes on."""
from __future__ import annotations

import os
import signal
import stat
import sys
from pathlib import Path

import pytest

from maxima_board.rules import Position
from maxima_board.opponent.specs import SpecError, parse_spec
from maxima_board.opponent.supervisor import RESTARTING, Limits, Supervisor
from maxima_board.opponent.uci import EngineError


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_killed_engine_is_reported_and_restarted():
    reports = []
    sup = Supervisor("greedy", "maxima", on_report=reports.append)
    try:
        first = sup.best(None, [], Limits(depth=1))
        pid = sup.pid
        os.kill(pid, signal.SIGKILL)
        answer = sup.best(None, [first.move], Limits(depth=1))
        p = Position()
        p.push(first.move)
        assert p.is_legal(p.parse_move(answer.move))
        assert sup.pid != pid and sup.restarts == 1
        assert [(r["reason"], r["text"]) for r in reports] == [("died", RESTARTING)]
    finally:
        sup.close()


def test_a_hung_engine_is_killed_reported_and_restarted():
    reports = []
    sup = Supervisor("greedy", "ultima", grace_s=1.5, on_report=reports.append)
    try:
        engine = sup.start()
        engine.set_option("Hang", True)     # from now on it reads but never answers
        pid = sup.pid
        answer = sup.best(None, [], Limits(movetime=50))
        assert Position("start", "ultima").is_legal(Position("start", "ultima").parse_move(answer.move))
        assert [r["reason"] for r in reports] == ["hung"]
        assert sup.pid != pid
        with pytest.raises(ProcessLookupError):   # the hung process was killed and reaped
            os.kill(pid, 0)
    finally:
        sup.close()


def test_an_engine_that_never_answers_fails_twice_then_raises(tmp_path):
    silent = _script(tmp_path, "silent", "import sys, time\nfor line in sys.stdin:\n    pass\n")
    reports = []
    sup = Supervisor(silent, "maxima", handshake_s=0.5, on_report=reports.append)
    with pytest.raises(EngineError):
        sup.best(None, [], Limits(movetime=10))
    assert [r["reason"] for r in reports] == ["hung"]
    sup.close()


def test_an_illegal_move_is_refused_and_the_engine_restarted(tmp_path):
    liar = _script(tmp_path, "liar", (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w[:1] == ['uci']: print('id name liar'); print('uciok', flush=True)\n"
        "    elif w[:1] == ['isready']: print('readyok', flush=True)\n"
        "    elif w[:1] == ['go']: print('bestmove a1-a9', flush=True)\n"
        "    elif w[:1] == ['quit']: break\n"))
    reports = []
    sup = Supervisor(liar, "maxima", on_report=reports.append)
    with pytest.raises(EngineError, match="illegal move 'a1-a9'"):
        sup.best(None, [], Limits(depth=1))
    assert [r["reason"] for r in reports] == ["illegal"]
    sup.close()


def test_engine_specs():
    from maxima_board.opponent.specs import BUILTIN, INSTALLED
    if BUILTIN.exists() or INSTALLED.exists():
        assert parse_spec("builtin:level=10").options == {"Level": "10"}
    else:
        with pytest.raises(SpecError, match="not built"):
            parse_spec("builtin:level=10")
    spec = parse_spec("greedy:seed=3,movetime=100")
    assert spec.command[-1] == "greedy" and spec.options == {"Seed": "3", "movetime": "100"}
    for bad, words in (("", "empty"), ("nosuch-engine-xyz", "no such file"), ("greedy:level=11", "1 to 10"),
                       ("greedy:level=", "key=value")):
        with pytest.raises(SpecError, match=words):
            parse_spec(bad)
