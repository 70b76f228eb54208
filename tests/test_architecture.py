"""The layout's rules, checked from the source: no import cycles, pure emitters, one writer.

Imports are read from the syntax tree, including those inside functions (a lazy import only
hides a cycle, it does not remove it); imports under ``if TYPE_CHECKING:`` are left out, as
they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT


def modules(package: Path) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the same package that module ``name`` imports."""
    tree = ast.parse(path.read_text("utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in known:
                    found.add(f"{target}.{alias.name}")
                elif target in known:
                    found.add(target)
    found.discard(name)
    return found


def cycles(package: Path) -> list[list[str]]:
    """Every import cycle between modules of ``package``, each as the path that closes it."""
    known = modules(package)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                found.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


@pytest.mark.parametrize("package", ["generator", "surface_errors"])
def test_no_import_cycles(package: str) -> None:
    found = cycles(ROOT / package)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "a.py").write_text("def f():\n    from . import b\n", "utf-8")
    (package / "b.py").write_text("from .a import f\n", "utf-8")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n", "utf-8"
    )
    assert cycles(package) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_emitters_are_pure() -> None:
    """An emitter turns the registry into bytes: it imports nothing that reads or writes
    files or runs the pipeline (the writer, the cache, the stamp)."""
    known = modules(ROOT / "generator")
    for name, path in known.items():
        if not name.startswith("generator.emit"):
            continue
        reached = imports(name, path, known)
        banned = {
            m
            for m in reached
            if m.startswith("generator.pipeline.") and m != "generator.pipeline.cache"
        }
        assert not banned, f"{name} imports {sorted(banned)}"


#: The modules that may write, each in a place of its own (ARCHITECTURE.md, "One writer"):
#: generated outputs, MkDocs' builds mirrored into the site's build folder, a new project.
WRITERS = (
    "generator.pipeline.output",
    "generator.integrations.site_build",
    "generator.commands.init",
)


def test_only_the_writer_writes() -> None:
    """Only the writers open files for writing or replace them."""
    writes: tuple[str, ...] = ("write_bytes(", "write_text(", "os.replace(", '"wb"', "'wb'")
    writes += ("os.rename(", 'open("x"', 'open("a"', "open('a'")
    known = modules(ROOT / "generator")
    for name, path in known.items():
        if name in WRITERS:
            continue
        text = path.read_text("utf-8")
        assert not [w for w in writes if w in text], name
