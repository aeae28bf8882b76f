"""One module decides which position class plays a game (issue 23):
engine.position_classes. The plain position module does not import Optima's,
and nothing but that module picks OptimaPosition."""
from __future__ import annotations

import ast
from pathlib import Path

from engine import Position, position_class, variants
from engine.optima.position import OptimaPosition
from engine.position import Position as Plain

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (relative imports resolved against engine/)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
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
    assert not any("optima" in m for m in _imports(ROOT / "engine" / "position.py"))
    assert "engine.position_classes" not in _imports(ROOT / "engine" / "optima" / "position.py")


def test_only_position_classes_picks_the_optima_class():
    pickers = []
    for folder in ("engine", "controller", "opponent"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "position.py" and "engine.optima.position.OptimaPosition" in _imports(path):
                pickers.append(str(path.relative_to(ROOT)))
    assert pickers == ["engine/position_classes.py"]


def test_O15_every_game_gets_the_class_position_class_names():
    for name in variants.names():
        want = OptimaPosition if variants.get(name).family == "optima" else Plain
        assert position_class(name) is want
        assert type(Position("start", name)) is want
    assert isinstance(Position("start", "optima"), Plain)
