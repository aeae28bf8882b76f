"""One module decides which position class plays a game (issue 23):
maxima_board.rules.position_classes. The plain position module does not import Optima's,
and nothing but that module picks OptimaPosition."""
from __future__ import annotations

import ast
from pathlib import Path

from maxima_board.rules import Position, position_class, variants
from maxima_board.rules.optima.position import OptimaPosition
from maxima_board.rules.position import Position as Plain

SRC = Path(__file__).resolve().parent.parent / "src"
RULES = SRC / "maxima_board" / "rules"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (relative imports resolved against its package)."""
    package = ".".join(path.relative_to(SRC).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


def test_the_plain_position_module_does_not_import_optimas():
    assert not any("optima" in m for m in _imports(RULES / "position.py"))
    assert "maxima_board.rules.position_classes" not in _imports(RULES / "optima" / "position.py")


def test_only_position_classes_picks_the_optima_class():
    pickers = []
    for path in (SRC / "maxima_board").rglob("*.py"):
        if path.name != "position.py" and "maxima_board.rules.optima.position.OptimaPosition" in _imports(path):
            pickers.append(str(path.relative_to(SRC)))
    assert pickers == ["maxima_board/rules/position_classes.py"]


def test_O15_every_game_gets_the_class_position_class_names():
    for name in variants.names():
        want = OptimaPosition if variants.get(name).family == "optima" else Plain
        assert position_class(name) is want
        assert type(Position("start", name)) is want
    assert isinstance(Position("start", "optima"), Plain)
