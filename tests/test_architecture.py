"""The package's shape, as docs/architecture.md draws it: the layers
contract of pyproject.toml (import-linter), no import circle between modules
(grimp, type-checking imports included), no access to another object's
private members, no class over 400 lines."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "maxima_board"
MAX_CLASS_LINES = 400


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_layers_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(SRC.parent / "pyproject.toml")], capture_output=True,
                          text=True, timeout=300, cwd=SRC.parent)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 kept, 0 broken" in done.stdout


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import circles between modules: strongly connected components of
    more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_between_modules():
    graph = grimp.build_graph("maxima_board", include_external_packages=False)
    # A package's __init__ importing its own modules is no circle of the code's:
    # only imports between two modules that are not each other's package count.
    for module in list(graph.modules):
        for imported in list(graph.find_modules_directly_imported_by(module)):
            if imported.startswith(module + ".") or module.startswith(imported + "."):
                graph.remove_import(importer=module, imported=imported)
    assert _circles(graph) == []


def _private_reads(text: str) -> list[str]:
    """``x._name`` where ``x`` is not ``self``, ``cls`` or ``super()``: line and expression."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def test_no_module_reads_another_objects_private_members():
    found = [f"{path.relative_to(SRC)}:{line}" for path in _sources()
             for line in _private_reads(path.read_text(encoding="utf-8"))]
    assert found == [], f"{len(found)} reads of another object's private members:\n" + "\n".join(found[:60])


def test_the_private_member_check_sees_another_objects_member():
    text = "class A:\n    def f(self, other):\n        return self._x + super()._z + other._y + other.__len__()\n"
    assert _private_reads(text) == ["3: other._y"]


def test_no_class_over_400_lines():
    big = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    big.append(f"{path.relative_to(SRC)}: class {node.name}, {lines} lines")
    assert big == []


def test_the_architecture_doc_names_every_layer_of_the_contract():
    text = (SRC.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    import tomllib

    config = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    assert len(layers) >= 5
    for line in layers:
        for name in line.split("|"):
            assert f"`{name.strip()}`" in text, name
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    named = {name.strip().split(".")[1] for line in layers for name in line.split("|")}
    assert packages == named, packages ^ named
