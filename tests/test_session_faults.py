"""Issue 13: a new game in the middle of a ``sim``/``replay`` session, and two
take-backs in a row after a replacement capture."""
from __future__ import annotations

import io

from maxima_board.service.script import parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN, Position


def events(script: str, store: GameStore | None = None) -> list[dict]:
    return list(replay(parse_script(script.splitlines()), Settings(), None, store))


def of(kind: str, evs: list[dict]) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


def fen_after(*moves: str) -> str:
    p = Position()
    for m in moves:
        p.push(m)
    return p.fen()


# ------------------------------------------------ fen / setup mid-session
def test_fen_mid_session_sets_the_board_up_and_plays_no_phantom_move():
    evs = events("lift d3\nplace d4\nwait 400\nfen start\nwait 400\nwait 2000\n")
    assert [e["move"] for e in of("move", evs)] == ["d3-d4"]          # game 1 only
    assert of("abandoned", evs) == [{"type": "abandoned", "game": 1, "moves": ["d3-d4"]}]
    assert [e["game"] for e in of("new_game", evs)] == [1, 2]
    assert of("error", evs) == []
    final = evs[-1]
    assert final["fen"] == START_FEN and final["moves"] == []
    # and the new game plays normally from the reset board
    evs = events("lift d3\nplace d4\nwait 400\nfen start\nlift e3\nplace e5\nwait 400\n")
    assert [e["move"] for e in of("move", evs)] == ["d3-d4", "e3-e5"]
    assert evs[-1]["fen"] == fen_after("e3-e5")


def test_setup_mid_session_reports_the_abandoned_game_and_waits_for_the_set_up_board():
    evs = events("lift d3\nplace d4\nwait 400\nsetup start\nwait 3000\n")
    assert of("abandoned", evs) == [{"type": "abandoned", "game": 1, "moves": ["d3-d4"]}]
    assert [e["move"] for e in of("move", evs)] == ["d3-d4"]
    assert [e["game"] for e in of("new_game", evs)] == [1]            # not started on the old board
    evs = events("lift d3\nplace d4\nwait 400\nsetup start\nlift d4\nplace d3\nwait 400\npress ok\n")
    assert [e["game"] for e in of("new_game", evs)] == [1, 2]


def test_fen_twice_reports_the_first_game_abandoned_with_no_moves():
    evs = events("fen start\nfen start\n")
    # the first fen line is the starting position; the second leaves game 1 with no moves
    assert of("abandoned", evs) == [{"type": "abandoned", "game": 1, "moves": []}]


def test_sim_says_the_previous_game_stays_stored(tmp_path):
    db = str(tmp_path / "games.db")
    out = io.StringIO()
    run_sim(Settings(db_path=db), io.StringIO("lift d3\nplace d4\nwait 400\nfen start\nwait 400\n"), out)
    text = out.getvalue()
    assert "game 1 left unfinished after 1 move; it stays stored" in text
    assert "move 1 d3-d4 " in text and "move 2" not in text and "move 1 d3-d4" in text.split("game 2")[0]
    store = GameStore(db)
    try:
        one, two = sorted(store.games(), key=lambda g: g.id)
        assert store.moves(one.id) == ["d3-d4"] and one.reason == "abandoned"
        assert store.moves(two.id) == [] and not two.finished
    finally:
        store.close()


# ------------------------------------------------ two take-backs after a replacement capture
REPLACEMENT = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/6P1/8/DPPPPP1D/1BNMRNB1/1G1QK1G1/xxx2xxx b 1"
TWO_BACKS = (f"fen {REPLACEMENT}\nlift b7\nplace b4\nwait 400\nlift b4\nlift a3\nplace b4\nwait 400\n"
             "press back\npress back\n")


def test_two_takebacks_after_a_replacement_capture_guide_the_board_back():
    evs = events(TWO_BACKS + "wait 2000\n")
    assert [e["move"] for e in of("move", evs)] == ["b7-b4", "a3-b4xb4"]
    assert [e["move"] for e in of("takeback", evs)] == ["a3-b4xb4", "b7-b4"]
    final = evs[-1]
    assert " ".join(final["display"][2:]) == "Guard b4 back to a3. Put the Pawn back on b7."
    assert final["fen"] == REPLACEMENT and final["moves"] == []
    assert final["leds"] == {"b4": "error-extra", "a3": "error-missing", "b7": "error-missing"}


def test_after_two_takebacks_restoring_the_board_ends_the_guidance():
    evs = events(TWO_BACKS + "lift b4\nplace a3\nplace b7\nwait 400\n")
    assert len(of("sync", evs)) == 1
    final = evs[-1]
    assert final["fen"] == REPLACEMENT and final["leds"] == {}
    assert "Taken back." in final["display"]


def test_two_takebacks_after_a_replacement_capture_in_sim(tmp_path):
    out = io.StringIO()
    rc = run_sim(Settings(db_path=str(tmp_path / "g.db")), io.StringIO(TWO_BACKS + "show\n"), out)
    text = out.getvalue()
    assert rc == 0 and "takeback b7-b4 " in text and "OLED:" in text
