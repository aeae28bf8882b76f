"""The two boards of shared/hardware/board.md as data, where each game stands
on them, and the ``[board]`` keys of the config file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from maxima_board.rules import variants
from maxima_board.devices.boards import MAXIMA_BOARD, TEN_BY_TEN, PlacementError, board_kind, games_for, place
from maxima_board.cli.config import ConfigError, parse_config
from maxima_board.devices.matrix_map import MatrixMap, default_layout

ROOT = Path(__file__).resolve().parent.parent
DECKLE = [v.name for v in variants.all_variants() if v.family == "deckle"]
DECKLE_10X10 = [n for n in DECKLE if not n.endswith("-10x8")]
DECKLE_10X8 = [n for n in DECKLE if n.endswith("-10x8")]


def test_maxima_board_map_is_board_md_and_the_matrix_map_default():
    """R0–R8 × C0–C7 = a1…h9, R9 = d0 e0 d10 e10 OK BACK MENU NEW."""
    layout = MAXIMA_BOARD.default_layout()
    assert layout == default_layout()
    assert (MAXIMA_BOARD.rows, MAXIMA_BOARD.columns, MAXIMA_BOARD.positions) == (10, 8, 80)
    assert [layout[72 + i] for i in range(8)] == ["d0", "e0", "d10", "e10", "button:ok", "button:back",
                                                  "button:menu", "button:new"]
    assert layout[8 * 8 + 7] == "h9"


def test_ten_by_ten_board_map_is_board_md():
    """10 columns × 11 rows: R0–R9 × C0–C9 = a1…j10, R10C0–C3 = OK BACK MENU NEW, R10C4–C9 spare."""
    layout = TEN_BY_TEN.default_layout()
    assert (TEN_BY_TEN.rows, TEN_BY_TEN.columns, TEN_BY_TEN.positions) == (11, 10, 110)
    assert layout[0] == "a1" and layout[9] == "j1" and layout[10] == "a2" and layout[99] == "j10"
    assert [layout[100 + i] for i in range(4)] == ["button:ok", "button:back", "button:menu", "button:new"]
    assert all(p not in layout for p in range(104, 110))
    assert len(TEN_BY_TEN.squares) == 100
    assert TEN_BY_TEN.button_position("menu") == 102
    assert MAXIMA_BOARD.button_position("menu") == 78


def test_firmware_configs_describe_both_boards():
    """firmware/config.json is the Maxima board's Pico, config-10x10.json the
    10×10 board's (board.md: rows GP0–GP10, columns GP11–GP20, LEDs GP22)."""
    for name, kind in (("config.json", MAXIMA_BOARD), ("config-10x10.json", TEN_BY_TEN)):
        cfg = json.loads((ROOT / "firmware" / name).read_text())
        assert (len(cfg["rows"]), len(cfg["cols"])) == (kind.rows, kind.columns), name
        assert cfg["maintenance_position"] == kind.button_position("menu"), name
        assert cfg["led_count"] == kind.positions and cfg["led_pin"] == 22, name
    ten = json.loads((ROOT / "firmware" / "config-10x10.json").read_text())
    assert ten["rows"] == list(range(0, 11)) and ten["cols"] == list(range(11, 21))


@pytest.mark.parametrize("game", ["ultima", "ultima-pure"])
def test_ultima_is_centred_on_the_ten_by_ten_board(game):
    """board.md: Ultima's a1…h8 on the 10×10 board's b2…i9."""
    p = place(game, "10x10")
    assert p.board_of["a1"] == "b2" and p.board_of["h8"] == "i9" and p.board_of["h1"] == "i2"
    assert p.origin == "b2"
    assert len(p.board_of) == 64 and len(p.outside) == 36
    assert {"a1", "j10", "a10", "j1", "e1", "j5"} <= p.outside


@pytest.mark.parametrize("game", ["ultima", "ultima-pure"])
def test_ultima_on_the_maxima_board_uses_a1_h8(game):
    """board.md: on the Maxima board Ultima uses a1…h8; rank 9 and the goal squares stay empty."""
    p = place(game, "maxima")
    assert all(p.board_of[n] == n for n in p.board_of)
    assert p.outside == {f"{f}9" for f in "abcdefgh"} | {"d0", "e0", "d10", "e10"}


def test_maxima_stands_on_the_maxima_board_as_it_is():
    p = place("maxima", "maxima")
    assert len(p.board_of) == 76 and p.outside == frozenset()
    assert all(b == g for g, b in p.board_of.items())


@pytest.mark.parametrize("game", DECKLE_10X10)
def test_deckle_10x10_games_fill_the_ten_by_ten_board(game):
    p = place(game, "10x10")
    assert all(b == g for g, b in p.board_of.items()) and len(p.board_of) == 100
    assert p.outside == frozenset()


@pytest.mark.parametrize("game", DECKLE_10X8)
def test_deckle_10x8_games_stand_on_a2_j9(game):
    """board.md: a 10×8 game on a2…j9."""
    p = place(game, "10x10")
    assert p.board_of["a1"] == "a2" and p.board_of["j8"] == "j9"
    assert p.outside == {f"{f}{r}" for f in "abcdefghij" for r in (1, 10)}


@pytest.mark.parametrize("game", DECKLE)
def test_deckle_games_need_the_ten_by_ten_board(game):
    size = "10×8" if game.endswith("-10x8") else "10×10"
    with pytest.raises(PlacementError) as info:
        place(game, "maxima")
    assert str(info.value) == f"Deckle's {size} games need the 10×10 board; this is the Maxima board"


def test_maxima_needs_the_maxima_board():
    with pytest.raises(PlacementError, match="^Maxima needs the Maxima board; this is the 10×10 board$"):
        place("maxima", "10x10")


def test_games_for_each_board():
    assert games_for("maxima") == ["maxima", "ultima", "ultima-pure"]
    assert set(games_for("10x10")) == set(variants.names()) - {"maxima"}


def test_offset_moves_the_game():
    """[board] offset names the board square under the game's a1."""
    p = place("ultima", "10x10", "a1")
    assert p.board_of["a1"] == "a1" and p.board_of["h8"] == "h8"
    p = place("ultima", "10x10", "c3")
    assert p.board_of["a1"] == "c3" and p.board_of["h8"] == "j10"
    assert place("swapper-chess-10x8", "10x10", "a3").board_of["j8"] == "j10"
    assert place("ultima", "maxima", "a2").board_of["h8"] == "h9"
    assert place("ultima", "10x10", [2, 0]).board_of["a1"] == "c1"


def test_offset_off_the_board_is_one_line():
    with pytest.raises(PlacementError, match=r"^offset 'd3' puts Ultima's h1 off the 10×10 board$"):
        place("ultima", "10x10", "d3")
    with pytest.raises(ValueError, match="expected a square"):
        place("ultima", "10x10", "z9")


def test_translation_both_ways():
    p = place("ultima", "10x10")
    inside, outside = p.to_game({"b2", "i9", "a1", "j10"})
    assert inside == {"a1", "h8"} and outside == {"a1", "j10"}
    assert p.to_board({"a1": "check", "h8": "remove", "zz": "hint"}) == {"b2": "check", "i9": "remove"}


def test_unknown_board_kind():
    with pytest.raises(PlacementError, match="unknown board kind '8x8'"):
        board_kind("8x8")


def test_matrix_map_for_the_ten_by_ten_board_decodes_110_bits():
    m = MatrixMap.for_board(TEN_BY_TEN)
    assert (m.rows, m.columns, m.positions, m.size) == (11, 10, 110, "11×10")
    state = m.decode((1 << 0) | (1 << 99) | (1 << 102) | (1 << 109))
    assert state.squares == {"a1", "j10"} and state.buttons == {"menu"}
    assert m.encode(state) == (1 << 0) | (1 << 99) | (1 << 102)


# ---- the [board] section ------------------------------------------------------

def test_board_section_defaults_to_the_maxima_board():
    config = parse_config('hardware = "pico"\n', environ={})
    assert config.board_kind == "maxima" and config.board is MAXIMA_BOARD
    assert config.settings().board_kind == "maxima" and config.settings().board_offset == ""
    assert config.matrix_map().positions == 80


def test_board_section_ten_by_ten_with_pico():
    config = parse_config('hardware = "pico"\n[board]\nkind = "10x10"\noffset = "b2"\n', environ={})
    assert config.board is TEN_BY_TEN
    assert dict(config.matrix.layout) == TEN_BY_TEN.default_layout()
    s = config.settings()
    assert (s.board_kind, s.board_offset) == ("10x10", "b2")
    assert config.matrix_map().size == "11×10"


def test_board_offset_as_a_shift():
    config = parse_config('hardware = "pico"\n[board]\nkind = "10x10"\noffset = [0, 1]\n', environ={})
    assert config.settings().board_offset == "a2"


def test_ten_by_ten_layout_can_be_rewired():
    rows = [" ".join(f"{f}{r}" for f in "abcdefghij") for r in range(1, 11)]
    rows[0] = "b1 a1 c1 d1 e1 f1 g1 h1 i1 j1"         # two reed switches swapped in wiring
    rows.append("new menu back ok - - - - - -")
    text = 'hardware = "pico"\n[board]\nkind = "10x10"\n[matrix]\nlayout = [' + \
        ", ".join(f'"{r}"' for r in rows) + "]\n"
    layout = parse_config(text, environ={}).matrix.layout
    assert layout[0] == "b1" and layout[1] == "a1" and layout[100] == "button:new"


def test_direct_topology_refuses_the_ten_by_ten_board():
    with pytest.raises(ConfigError) as info:
        parse_config('hardware = "direct"\n[board]\nkind = "10x10"\n', name="b.toml", environ={})
    assert str(info.value).startswith('config b.toml: [board] kind: "10x10" is scanned by the Pico only')
    assert "\n" not in str(info.value)


def test_settings_refuse_an_unknown_board_kind():
    from maxima_board.board.settings import Settings
    with pytest.raises(ValueError, match="board_kind"):
        Settings(board_kind="8x8")


def test_a_nine_by_nine_game_stands_on_a1_i9():
    """board.md: Optima 9×9 on a1…i9 (lower-left: it cannot be exactly
    centred). The engine has no Optima yet; a 9×9 game of data shows the rule."""
    from maxima_board.rules.geometry import Geometry
    from maxima_board.rules.variants.base import Variant

    nine = Variant(name="nine-test", title="A 9×9 game", summary="", start_fen="",
                   geometry=Geometry(9, range(1, 10), lambda f, r: True), types=(), family="ultima")
    p = place(nine, "10x10")
    assert p.board_of["a1"] == "a1" and p.board_of["i9"] == "i9"
    assert p.outside == {f"j{r}" for r in range(1, 11)} | {f"{f}10" for f in "abcdefghi"}
    with pytest.raises(PlacementError, match="^A 9×9 game needs the 10×10 board; this is the Maxima board$"):
        place(nine, "maxima")
