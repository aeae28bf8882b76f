"""One place decides which position class plays a game (issue 23): the
game's data, ``Variant.position_class``, which ``Position.__new__`` (defined
in the class, nothing patched at import time) consults. The plain position
module does not import Optima's, and nothing but Optima's game data picks
OptimaPosition."""
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


def test_only_optimas_game_data_picks_the_optima_class():
    pickers = []
    for path in (SRC / "maxima_board").rglob("*.py"):
        if path.name != "position.py" and "maxima_board.rules.optima.position.OptimaPosition" in _imports(path):
            pickers.append(str(path.relative_to(SRC)))
    assert pickers == ["maxima_board/rules/variants/optima.py"]


def test_nothing_patches_the_position_class():
    """No module assigns to an attribute of a class it imported (``Position.x = ...``, ``setattr``)."""
    patches = []
    for path in (SRC / "maxima_board").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id.endswith("Position"):
                    patches.append(f"{path.relative_to(SRC)}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                    and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id.endswith("Position"):
                patches.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert patches == []
    assert "__new__" in vars(Plain)


def test_O15_every_game_gets_the_class_its_data_names():
    for name in variants.names():
        want = OptimaPosition if variants.get(name).uses_units else Plain
        assert variants.get(name).position_class in (None, want)
        assert position_class(name) is want
        assert type(Position("start", name)) is want
    assert isinstance(Position("start", "optima"), Plain)
