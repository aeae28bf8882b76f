"""UCI conversation with the compiled engine (issue 11): uci, isready,
position ... moves ..., go depth|movetime|wtime, stop, quit."""
from __future__ import annotations

import time

import pytest

from maxima_board.rules import Position, variants
from maxima_board.opponent.games import engine_games

from .opponent_engine import Uci, engine_binary  # noqa: F401 (fixture)


@pytest.fixture
def uci(engine_binary):
    u = Uci(engine_binary)
    yield u
    u.close()


def test_uci_handshake_lists_variants_and_options(uci):
    uci.send("uci")
    _, lines = uci.expect("uciok")
    assert any(line.startswith("id name ") for line in lines)
    assert any(line.startswith("id author ") for line in lines)
    combo = next(line for line in lines if line.startswith("option name UCI_Variant"))
    assert "type combo default maxima" in combo
    # the compiled engine plays every game, Optima included (optima_*.c)
    assert combo.split(" var ")[1:] == engine_games() == variants.names()
    assert any(line.startswith("option name Level type spin default 10 min 1 max 10") for line in lines)
    assert any(line.startswith("option name Hash type spin") for line in lines)
    uci.send("isready")
    uci.expect("readyok")


def test_position_startpos_moves_then_go_depth_answers_a_legal_move(uci):
    p = Position("start", "maxima")
    played = []
    for _ in range(4):
        m = p.legal_moves[len(p.legal_moves) // 3]
        played.append(str(m))
        p.push(m)
    best, info = uci.bestmove("position startpos moves " + " ".join(played), "go depth 3")
    assert p.is_legal(p.parse_move(best))
    depths = [int(line.split()[2]) for line in info if line.startswith("info depth")]
    assert depths == [1, 2, 3]
    last = [line for line in info if line.startswith("info depth")][-1].split()
    for field in ("score", "nodes", "nps", "time", "pv"):
        assert field in last
    assert last[last.index("pv") + 1] == best
    assert info[-1].split()[:2] == ["info", "nodes"]   # the nodes searched in all, last before bestmove


def test_moves_without_captures_are_resolved_against_the_legal_moves(uci):
    """A move given as FROM-TO (no capture list) names the one legal move; the engine plays on from there."""
    p = Position("start", "ultima")
    p.push("e2-e4")
    replies = [m for m in p.legal_moves if not m.captures]
    p.push(replies[0])
    uci.send("setoption name UCI_Variant value ultima")
    uci.send("position startpos moves e2-e4 " + f"{replies[0].canonical().split('x')[0]}")
    uci.send("d")
    line, _ = uci.expect("info string fen")
    assert line.split("fen ", 1)[1] == p.fen()


def test_position_fen_with_variant_and_movetime(uci):
    v = "swapper-chess-10x8"
    p = Position("start", v)
    p.push("e2-e4")
    uci.send(f"setoption name UCI_Variant value {v}")
    start = time.monotonic()
    best, _ = uci.bestmove(f"position fen {p.fen()}", "go movetime 300")
    took = time.monotonic() - start
    assert p.is_legal(p.parse_move(best))
    assert took < 3.0


def test_go_wtime_btime_uses_a_share_of_the_clock(uci):
    start = time.monotonic()
    best, _ = uci.bestmove("position startpos", "go wtime 3000 btime 3000 winc 0 binc 0 movestogo 20")
    took = time.monotonic() - start
    assert Position().is_legal(Position().parse_move(best))
    assert took < 2.0


def test_stop_during_go_infinite_answers_bestmove(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.5)
    uci.send("isready")
    uci.expect("readyok", timeout=5)   # answered while thinking
    uci.send("stop")
    line, _ = uci.expect("bestmove", timeout=5)
    assert Position().is_legal(Position().parse_move(line.split()[1]))


def test_no_legal_move_answers_bestmove_none(uci):
    """Ultima U12: a side with no legal move (here a frozen King alone) has none to give."""
    fen = "6Ik/8/8/8/8/8/8/4K3 b 0"
    assert Position(fen, "ultima").legal_moves == []
    uci.send("setoption name UCI_Variant value ultima")
    best, _ = uci.bestmove(f"position fen {fen}", "go depth 3")
    assert best == "(none)"


def test_quit_ends_the_process(uci):
    uci.send("isready")
    uci.expect("readyok")
    assert uci.close() == 0


def test_level_1_plays_legal_moves_quickly(uci):
    uci.send("setoption name Level value 1")
    p = Position()
    for _ in range(6):
        best, _ = uci.bestmove(f"position fen {p.fen()}", "go movetime 1000")
        p.push(best)


def test_go_nodes_limits_the_search(uci):
    best, info = uci.bestmove("position startpos", "go nodes 3000")
    assert Position().is_legal(Position().parse_move(best))
    counts = [int(line.split(" nodes ")[1].split()[0]) for line in info if " nodes " in line]
    assert counts and max(counts) <= 3000


def test_bad_input_is_reported_and_the_engine_goes_on(uci):
    """A malformed FEN, an illegal move or an unknown game: one 'info string error' line each; still ready."""
    for command, what in (("position fen xxx/8 w 0", "bad fen"),
                          ("position startpos moves a1-a9", "illegal move a1-a9"),
                          ("setoption name UCI_Variant value chess960", "unknown variant chess960")):
        uci.send(command)
        line, _ = uci.expect("info string error")
        assert what in line
    uci.send("isready")
    uci.expect("readyok")
    best, _ = uci.bestmove("position startpos", "go depth 2")
    assert Position().is_legal(Position().parse_move(best))


def test_command_line_refuses_an_unknown_game(engine_binary):
    import subprocess
    r = subprocess.run([str(engine_binary), "moves", "chess"], input="", capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip() == "maxima-engine: unknown variant 'chess'"


def test_a_new_position_during_go_infinite_ends_that_search(uci):
    """A GUI that forgets 'stop' does not hang the engine: the search ends with a bestmove first."""
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.3)
    uci.send("position startpos moves d3-d5")
    uci.expect("bestmove", timeout=5)
    p = Position()
    p.push("d3-d5")
    best, _ = uci.bestmove("position startpos moves d3-d5", "go depth 2")
    assert p.is_legal(p.parse_move(best))
