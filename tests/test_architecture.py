"""The layout's rules, checked from the source: no import cycles, pure emitters, one writer.

Imports are read from the syntax tree, including those inside functions (a lazy import only
hides a cycle, it does not remove it); imports under ``if TYPE_CHECKING:`` are left out, as
they never run.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Collection, Sequence
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


#: errorbook's packages from the bottom up: each imports only those below it (and the
#: top-level modules but ``cli``, which are "base"). Weaver's rule for its stages.
LAYERS = ["base", "registry", "catalogs", "emit", "pipeline", "integrations", "commands", "cli"]


def layer_of(name: str) -> str:
    """The layer of the module ``name`` of errorbook's package (see :data:`LAYERS`)."""
    parts = name.split(".")
    if len(parts) > 1 and (ROOT / "generator" / parts[1]).is_dir():
        return parts[1]
    return "cli" if parts[1:2] in (["cli"], ["__main__"]) else "base"


def upward_imports(package: Path) -> list[str]:
    """Every import of a module from a layer above its own, as ``a -> b``."""
    known = modules(package)
    found = []
    for name, path in sorted(known.items()):
        for target in sorted(imports(name, path, known)):
            if LAYERS.index(layer_of(target)) > LAYERS.index(layer_of(name)):
                found.append(f"{name} -> {target}")
    return found


def test_packages_import_only_the_layers_below_them() -> None:
    """No cycle between packages either: the emitters do not load the pipeline, and the
    plugin does not load the commands."""
    assert upward_imports(ROOT / "generator") == []
    assert {layer_of(name) for name in modules(ROOT / "generator")} == set(LAYERS)


def test_the_layer_check_finds_an_upward_import(tmp_path: Path) -> None:
    package = tmp_path / "generator"
    for folder in ("registry", "pipeline"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("", "utf-8")
    (package / "__init__.py").write_text("", "utf-8")
    (package / "registry" / "model.py").write_text("from ..pipeline import build\n", "utf-8")
    (package / "pipeline" / "build.py").write_text("from ..registry import model\n", "utf-8")
    assert upward_imports(package) == ["generator.registry.model -> generator.pipeline.build"]


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


#: The third-party packages each package of generator/ may import (issue 50: an allow-list
#: per package, as OpenTelemetry Weaver keeps one of the external types each may use). The
#: generated runtime imports the standard library only (tests/runtime).
THIRD_PARTY: dict[str, set[str]] = {
    "catalogs": {"babel"},
    "commands": {"babel"},  # explain's locale
    "emit": {"babel", "jinja2", "yaml"},
    "integrations": {"hatchling", "jinja2", "markdown", "mkdocs", "pygments", "pymdownx"},
    "pipeline": {"babel", "jinja2"},
    "registry": {"babel", "yaml"},
}


def _package_of(path: Path) -> str:
    parts = path.relative_to(ROOT / "generator").parts
    return parts[0] if len(parts) > 1 else "(top)"


def test_third_party_imports_stay_where_they_belong() -> None:
    import sys

    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "generator":
                    found.setdefault(_package_of(path), set()).add(top)
    beyond = {
        package: sorted(tops - THIRD_PARTY.get(package, set()))
        for package, tops in found.items()
        if tops - THIRD_PARTY.get(package, set())
    }
    assert beyond == {}, "imports beyond THIRD_PARTY (add one only with a reason)"


def _private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    # ``_errorbook_*`` is errorbook's own mark, set on another library's object.
    return name.startswith("_") and not dunder and not name.startswith("_errorbook")


def _defined(trees: Sequence[ast.AST]) -> set[str]:
    """The private names ``trees`` define: functions, classes, variables and the
    attributes their classes set on ``self``."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                names.add(node.attr)
    return {name for name in names if _private(name)}


def _their_privates(packages: list[str]) -> set[str]:
    """The private names the installed ``packages`` define in their own code."""
    import importlib.util

    trees: list[ast.AST] = []
    for package in packages:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            for path in Path(folder).rglob("*.py"):
                with contextlib.suppress(SyntaxError, UnicodeDecodeError):
                    trees.append(ast.parse(path.read_text("utf-8")))
    return _defined(trees)


def private_names(folder: Path, theirs: Collection[str] = ()) -> dict[str, list[str]]:
    """The private names (``_``-prefixed, not dunders) that code under ``folder`` takes from
    other libraries: an attribute of an object that is not its own ``self`` which it never
    defines itself or which one of the libraries (``theirs``) defines; on ``self`` too, in a
    class derived from another library's; such a name in getattr, setattr or hasattr; and
    such names or modules imported from outside."""
    paths = sorted(folder.rglob("*.py"))
    trees = [ast.parse(path.read_text("utf-8")) for path in paths]
    own = _defined(trees)
    found: dict[str, list[str]] = {}
    for path, tree in zip(paths, trees, strict=True):
        where = path.relative_to(folder.parent).as_posix()
        derived = _derived_from_outside(tree)  # line -> what that class defines itself
        here = _defined([tree])
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Attribute) and _private(node.attr):
                on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                receiver = node.value.func if isinstance(node.value, ast.Call) else None
                if isinstance(receiver, ast.Name) and receiver.id == "super":
                    if node.attr in theirs:  # overriding another library's private method
                        names.append(node.attr)
                elif on_self:
                    mine = derived.get(node.lineno)
                    if mine is not None and node.attr in theirs and node.attr not in mine:
                        names.append(node.attr)
                elif node.attr not in own or (node.attr in theirs and node.attr not in here):
                    names.append(node.attr)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                text = node.args[1] if len(node.args) > 1 else None
                if (
                    node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                    and isinstance(text, ast.Constant)
                    and isinstance(text.value, str)
                    and _private(text.value)
                    and (text.value not in own or text.value in theirs)
                ):
                    names.append(text.value)
            elif isinstance(node, ast.Import):
                names += [p for a in node.names for p in a.name.split(".") if _private(p)]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names += [p for p in node.module.split(".") if _private(p)]
                names += [a.name for a in node.names if _private(a.name)]
            for name in names:
                found.setdefault(name, []).append(f"{where}:{getattr(node, 'lineno', 0)}")
    return found


def _derived_from_outside(tree: ast.AST) -> dict[int, set[str]]:
    """The lines of the classes in ``tree`` with a base the module imports from outside
    errorbook, each with the private names that class defines itself."""
    outside: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            if not (node.module or "").startswith("generator"):
                outside.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            outside.update((a.asname or a.name).split(".")[0] for a in node.names)
    lines: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(base).split(".")[0] for base in node.bases}
            if bases & outside:
                mine = _defined([node]) | {
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                }
                for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                    lines[line] = mine
    return lines


#: Names with a leading underscore that are documented public API all the same.
DOCUMENTED = {
    "_exit": "os._exit: how a forked worker ends, and how cli.run skips the teardown",
}

#: The libraries whose non-public names errorbook must not take.
LIBRARIES = [
    "babel", "mkdocs", "material", "markdown", "pymdownx", "jinja2", "yaml", "pygments",
    "hatchling",
]  # fmt: skip


def test_no_new_private_name_of_another_library() -> None:
    found = private_names(ROOT / "generator", _their_privates(LIBRARIES))
    new = {name: places for name, places in found.items() if name not in DOCUMENTED}
    assert new == {}, "another library's non-public names: use its documented API instead"
    gone = sorted(set(DOCUMENTED) - set(found))
    assert gone == [], "no longer used: take them off DOCUMENTED"


def test_the_private_name_finder_finds_one(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "import babel._x\nfrom mkdocs import _y\n"
        "def f(page, self_):\n"
        "    self_._own = 1\n"
        "    return page._title_from_render, getattr(page, '_z'), self_._own\n",
        "utf-8",
    )
    (package / "b.py").write_text(
        "class C:\n    def __init__(self):\n        self._mine = 0\n"
        "    def g(self, other):\n        return other._mine\n",
        "utf-8",
    )
    (package / "c.py").write_text(
        "from babel.messages.catalog import Catalog\n"
        "class Mine(Catalog):\n    def f(self):\n        return self._messages\n"
        "class Other:\n    def f(self):\n        return self._messages\n",
        "utf-8",
    )
    found = private_names(package, {"_messages"})
    assert set(found) == {"_x", "_y", "_title_from_render", "_z", "_own", "_messages"}
    assert found["_messages"] == ["pkg/c.py:4"]  # Babel's, not Other's own
