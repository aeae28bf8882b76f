"""UCI conversations with the baseline players (issue 11): uci, isready,
position … moves …, go depth|movetime|wtime|infinite, stop, quit."""
from __future__ import annotations

import io
import random
import subprocess
import sys
import time

import pytest

from maxima_board.rules import Position, variants
from maxima_board.opponent.baseline import BaselineEngine
from maxima_board.opponent.material import material
from maxima_board.opponent.players import PLAYERS, play_greedy, play_minimax2
from maxima_board.opponent.uci import EngineTimeout, UciEngine, parse_info, parse_option, Result


def _engine(name: str) -> UciEngine:
    engine = UciEngine([sys.executable, "-m", "maxima_board.opponent.baseline", name])
    engine.start()
    return engine


@pytest.fixture(params=sorted(PLAYERS))
def engine(request):
    e = _engine(request.param)
    yield e
    e.kill()


def test_uci_handshake_names_every_variant_and_the_levels(engine):
    engine.handshake(10)
    assert engine.name.startswith("maxima-board baseline")
    variant = engine.options["uci_variant"]
    # every game, Optima included (issue 11)
    assert variant.type == "combo" and set(variant.vars) == set(variants.names())
    level = engine.options["level"]
    assert (level.type, level.min, level.max) == ("spin", 1, 10)
    assert "hash" in engine.options and "seed" in engine.options


def test_isready_position_moves_and_go_depth_give_a_legal_move(engine):
    engine.handshake(10)
    for name in ("maxima", "ultima", "withdrawer-chess-10x8"):
        engine.set_option("UCI_Variant", name)
        engine.ready(10)
        p = Position("start", name)
        for _ in range(3):
            p.push(p.legal_moves[len(p.legal_moves) // 2])
        engine.position(None, [str(m) for m in p.move_stack])
        engine.go(depth=2)
        result = engine.wait_best(20)
        assert p.is_legal(p.parse_move(result.move)), (name, result.move)
        assert result.info and result.score_cp is not None


def test_go_movetime_and_clocks_from_a_fen(engine):
    engine.handshake(10)
    p = Position("start", "ultima")
    p.push(p.legal_moves[0])
    engine.set_option("UCI_Variant", "ultima")
    engine.position(p.fen(), [])
    engine.go(movetime=200)
    assert p.is_legal(p.parse_move(engine.wait_best(10).move))
    engine.position(p.fen(), [])
    engine.go(wtime=60000, btime=60000, winc=1000, binc=1000, movestogo=30)
    assert p.is_legal(p.parse_move(engine.wait_best(10).move))
    engine.position(p.fen(), [])
    engine.go(nodes=5000)
    assert p.is_legal(p.parse_move(engine.wait_best(10).move))


def test_go_infinite_answers_only_after_stop_and_quit_ends_the_process():
    engine = _engine("greedy")
    try:
        engine.handshake(10)
        engine.position(None, [])
        engine.go(infinite=True)
        with pytest.raises(EngineTimeout):
            engine.wait_best(0.5)
        engine.send("stop")
        move = engine.wait_best(10).move
        assert Position().is_legal(Position().parse_move(move))
        engine.send("quit")
        assert engine.proc.wait(timeout=10) == 0
    finally:
        engine.kill()


def _session(name: str, lines: list[str]) -> list[str]:
    out = io.StringIO()
    e = BaselineEngine(name, out)
    for line in lines:
        e.handle(line)
    return out.getvalue().splitlines()


def test_bad_commands_are_reported_and_the_engine_goes_on():
    lines = _session("random", ["position fen not-a-fen", "setoption name UCI_Variant value chess",
                                "position startpos moves z9-z9", "frobnicate", "isready"])
    assert sum(line.startswith("info string error:") for line in lines) == 4
    assert lines[-1] == "readyok"


def test_no_move_in_an_ended_game_is_bestmove_none():
    p = Position("start", "maxima")
    rng = random.Random(5)
    while p.outcome() is None:
        p.push(rng.choice(p.legal_moves))
    lines = _session("greedy", [f"position startpos moves {' '.join(str(m) for m in p.move_stack)}", "go depth 1"])
    assert lines[-1] == "bestmove (none)"


def test_seed_makes_the_random_player_repeat_itself():
    def moves(seed: int) -> list[str]:
        cmds = [f"setoption name Seed value {seed}", "ucinewgame"]
        played: list[str] = []
        out = []
        for _ in range(6):
            got = _session("random", cmds + [f"position startpos moves {' '.join(played)}".strip(), "go depth 1"])
            played.append(got[-1].split()[1])
            out.append(played[-1])
        return out
    assert moves(7) == moves(7)
    assert moves(7) != moves(8)


def test_hang_option_silences_the_engine():
    lines = _session("greedy", ["setoption name Hang value true", "isready", "go depth 1", "uci"])
    assert lines == []


def test_option_and_info_lines_are_parsed():
    option = parse_option("option name UCI_Variant type combo default maxima var maxima var ultima-pure")
    assert (option.name, option.type, option.default, option.vars) == ("UCI_Variant", "combo", "maxima",
                                                                       ("maxima", "ultima-pure"))
    r = Result(None)
    parse_info("info depth 7 seldepth 9 score cp -35 nodes 12345 pv d2-d5", r)
    assert (r.depth, r.score_cp, r.nodes, r.score_text()) == (7, -35, 12345, "-0.35")
    parse_info("info depth 8 score mate -2", r)
    assert (r.mate, r.score_cp, r.score_text()) == (-2, None, "mated in 2")


def _random_positions(name: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = Position("start", name)
        for _ in range(rng.randrange(6, 40)):
            if p.outcome() is not None:
                break
            p.push(rng.choice(p.legal_moves))
        if p.outcome() is None:
            out.append(p)
    return out


@pytest.mark.parametrize("name", ["maxima", "ultima", "swapper-chess"])
def test_greedy_takes_the_most_material_and_minimax2_the_best_worst_case(name):
    """Checked by brute force with push/pop, independent of the players' shortcuts."""
    for p in _random_positions(name, 2, 11):
        side = p.turn

        def gain(move):
            before = material(p.board) * side
            p.push(move)
            value = material(p.board) * side - before if p.outcome() is None or p.outcome().winner is None \
                else (10**6 if p.outcome().winner == side else -10**6)
            p.pop()
            return value

        best = max(gain(m) for m in p.legal_moves)
        move, _ = play_greedy(p, random.Random(1))
        assert gain(move) == best, (p.fen(), move)

        def worst(move):
            base = material(p.board) * side
            p.push(move)
            o = p.outcome()
            if o is not None:
                p.pop()
                return 0 if o.winner is None else (10**6 if o.winner == side else -10**6)
            values = []
            for reply in p.legal_moves:
                p.push(reply)
                o2 = p.outcome()
                invaded = o2 is not None and o2.reason == "palace invaded"
                values.append(-10**6 if invaded else material(p.board) * side - base)
                p.pop()
            p.pop()
            return min(values)

        values = {m: worst(m) for m in p.legal_moves}
        move, _ = play_minimax2(p, random.Random(1))
        assert values[move] == max(values.values()), (p.fen(), move)


def test_optima_is_played_by_the_opponent_layer():
    """Issue 11: the opponent layer accepts Optima (the compiled engine and the baselines play it)."""
    from maxima_board.opponent.games import engine_games, refuse
    assert refuse("optima") == "optima" and refuse("optima-9x9") == "optima-9x9"
    assert {"optima", "optima-9x9"} <= set(engine_games())
    out = io.StringIO()
    engine = BaselineEngine("greedy", out=out)
    engine.handle("setoption name UCI_Variant value optima-9x9")
    assert engine.variant == "optima-9x9" and "error" not in out.getvalue()
    engine.handle("position startpos")
    engine.handle("go depth 1")
    move = out.getvalue().split("bestmove ")[1].split()[0]
    assert move in [str(m) for m in Position("start", "optima-9x9").legal_moves]
