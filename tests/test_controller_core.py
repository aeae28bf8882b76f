"""The controller's API: inputs checked, link loss, LED settings, events."""
from __future__ import annotations

import json

import pytest

from maxima_board.board.core import Controller
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules import START_FEN, FenError, Position

TWO_FROZEN = "xxx2xxx/4k3/8/8/p7/M7/7m/7P/8/4K3/xxx2xxx w 0"   # a6 (Black) and h3 (White) frozen
CHECK = "xxxq1xxx/1gd1k1gb/3m1n1d/1pN1ppp1/2P1p3/pNP5/P2r4/D2P1PPD/B1Q3B1/1GM1K1G1/xxx1Rxxx w 56"


def test_settings_defaults_and_validation():
    s = Settings()
    assert (s.settle_ms, s.suicide_ms, s.grace_ms, s.last_move_ms) == (300, 3000, 1500, 3000)
    assert s.show_immobilized == "both" and s.show_check and not s.hints and s.db_path is None
    assert (s.event, s.site, s.white, s.black, s.round) == ("Casual game", "", "White", "Black", "-")
    with pytest.raises(ValueError, match="show_immobilized"):
        Settings(show_immobilized="some")
    with pytest.raises(ValueError, match="settle_ms"):
        Settings(settle_ms=-1)
    with pytest.raises(ValueError, match="suicide_ms"):
        Settings(suicide_ms=100, settle_ms=300)


def test_unknown_square_and_button_are_errors_naming_them():
    c = Controller(Settings(), fen=START_FEN)
    with pytest.raises(ValueError, match="'z9'"):
        c.on_frame(0, frozenset({"z9"}))
    with pytest.raises(ValueError, match="'start'"):
        c.on_button(0, "start")
    with pytest.raises(FenError):
        c.new_game(0, "not a fen")
    assert c.mode == "play" and c.game_id == 1


def test_events_are_json_and_the_display_fits():
    runner = Runner(Settings())
    events = runner.events + runner.lift("d3") + runner.place("d4") + runner.wait(400)
    events += runner.press("menu") + runner.press("menu") + runner.press("ok")
    json.dumps(events)
    types = {e["type"] for e in events}
    assert {"new_game", "move", "leds", "display", "game_end"} <= types
    for e in events:
        if e["type"] == "display":
            assert len(e["lines"]) <= 5 and all(len(line) <= 21 for line in e["lines"])


def test_next_deadline_is_the_settle_time_after_a_change():
    runner = Runner(Settings(settle_ms=250))
    runner.wait(1000)
    runner.lift("d3")
    runner.place("d4")
    assert runner.controller.next_deadline() == 1250
    assert runner.controller.on_tick(1249) == [] or runner.controller.moves == []
    events = runner.controller.on_tick(1250)
    assert [e["move"] for e in events if e["type"] == "move"] == ["d3-d4"]


def test_link_lost_frames_are_ignored_and_the_next_frame_is_the_truth():
    runner = Runner(Settings())
    c = runner.controller
    runner.link(False)
    assert "Board link lost" in c.display[0]
    runner.lift("d3")
    runner.place("d4")
    runner.wait(5000)
    assert c.moves == []
    runner.link(True)                 # sends the current board as the next frame
    assert c.moves == []
    runner.wait(299)
    assert c.moves == []
    runner.wait(1)
    assert c.moves == ["d3-d4"]


def test_immobilized_leds_off_side_both():
    def leds(**kw):
        return Runner(Settings(**kw), fen=TWO_FROZEN).controller.leds

    assert leds(show_immobilized="both") == {"a6": "immobilized", "h3": "immobilized"}
    assert leds(show_immobilized="side") == {"h3": "immobilized"}     # White to move
    assert leds(show_immobilized="off") == {}


def test_check_leds_show_the_threatened_king():
    position = Position(CHECK)
    info = position.check_info()
    names = position.geometry.names
    expected = {names[s] for s in ([info.king] if info.king is not None else []) + list(info.palace)}
    assert expected
    c = Runner(Settings(show_immobilized="off"), fen=CHECK).controller
    assert {sq for sq, state in c.leds.items() if state == "check"} == expected
    assert "check" in c.display[0]
    c = Runner(Settings(show_immobilized="off", show_check=False), fen=CHECK).controller
    assert "check" not in c.leds.values()


def test_hints_light_the_legal_targets_of_a_lifted_piece():
    runner = Runner(Settings(hints=True))
    runner.lift("d3")
    runner.wait(300)
    position = Position()
    names = position.geometry.names
    targets = {names[m.to_square] for m in position.legal_moves if names[m.from_square] == "d3"}
    assert {sq for sq, state in runner.controller.leds.items() if state == "hint"} == targets
    runner = Runner(Settings())
    runner.lift("d3")
    runner.wait(300)
    assert runner.controller.leds == {}


def test_led_priority_error_over_last_move():
    runner = Runner(Settings())
    runner.lift("d3")
    runner.place("d4")
    runner.wait(300)
    runner.place("d3")      # a stray piece on the square just left
    runner.wait(1500)
    assert runner.controller.leds == {"d3": "error-extra", "d4": "last-to"}


def test_new_game_without_setup_takes_the_board_as_set_up():
    runner = Runner(Settings())
    c = runner.controller
    events = runner.fen("xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0")
    assert any(e["type"] == "new_game" and e["game"] == 2 for e in events)
    assert c.mode == "play" and c.store.game(1).reason == "abandoned"


@pytest.mark.parametrize("ever_connected", [True, False])
def test_link_screens_fit_the_oled_without_cutting_words(ever_connected):
    from maxima_board.board.guidance import WIDTH
    controller = Controller(Settings(), None, now_ms=0)
    if ever_connected:
        controller.on_frame(0, controller.expected_squares)
        controller.on_tick(500)
    controller.set_link(False, 600)
    lines = controller.display
    assert lines[0] == "Board link lost"
    assert len(lines) <= 5
    assert all(len(line) <= WIDTH and not line.endswith("…") for line in lines)
