"""Every unit drawn as the building guide tells the builder to make it
(issue 32, finding 5): Optima's guards are caps labelled GD
(docs/optima-board.md, "Stand-ins"; docs/building.md), not chess Rooks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from maxima_board.rules import Position, variants
from maxima_board.webbase.svg import board_svg, drawn_pieces, legend_html

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("game", ["optima", "optima-9x9"])
def test_optimas_guards_are_caps_labelled_gd_as_the_building_guide_says(game):
    assert "guards are caps labelled\n  `GD`" in (DOCS / "optima-board.md").read_text()
    assert "caps labelled\n`GD` as guards" in (DOCS / "building.md").read_text()
    start = variants.get(game).start_fen
    guards = [p for p in drawn_pieces(Position(start, game)) if p.name == "Guard"]
    assert guards and all(p.stand.figure == "cap" and p.stand.label == "GD" for p in guards)
    assert {p.stand.words for p in guards} == {"a cap labelled GD"}
    svg = board_svg(start, variant=game)
    drawn = re.findall(r'data-name="Guard".*?</g></g>', svg)
    assert drawn and all(">GD</text>" in g for g in drawn)
    assert "a cap labelled GD" in legend_html(start, game) and "Rook" not in legend_html(start, game)

