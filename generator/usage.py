"""Which codes a code base uses, found in its syntax trees rather than by searching text.

A code counts as used where a program names it: ``ErrorCode.DISK_FULL``,
``ErrorCode("DISK_FULL")``, a string passed to the generated builders and lookups
(``failure("X", ...)``, ``message("X", ...)``), or a string compared with a ``.code`` or
``["code"]`` (``==``, ``!=``, ``in`` a literal collection, or a ``match`` case).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from . import inputs

CODE_LIKE = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\Z")
#: The generated functions whose first argument is a code; each shape's builder is named
#: ``<shape>_failure``, so any name of that form counts too.
CALLS = {"failure", "message", "format_message", "recovery_hint"}
SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", ".tox"}


@dataclass(frozen=True)
class Use:
    name: str
    path: str
    line: int
    column: int
    how: str


def _is_code_access(node: ast.expr) -> bool:
    """``x.code`` or ``x["code"]``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "code"
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value == "code"
    return False


def _strings(node: ast.expr) -> Iterator[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for item in node.elts:
            yield from _strings(item)


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class _Visitor:
    """Collects the uses of codes in a tree. :meth:`scan_tree` walks it without recursion:
    Python's own NodeVisitor recurses once per level, and one ordinary expression of a few
    hundred terms joined by '+' is that deep."""

    def __init__(self, path: str, lines: list[bytes]) -> None:
        self.path = path
        self.lines = lines
        self.uses: list[Use] = []

    def scan_tree(self, tree: ast.AST) -> list[Use]:
        for node in ast.walk(tree):
            method = getattr(self, f"visit_{type(node).__name__}", None)
            if method is not None:
                method(node)
        return sorted(self.uses, key=lambda use: (use.line, use.column))

    def _use(self, name: str, node: ast.AST, how: str) -> None:
        line = getattr(node, "lineno", 1)
        row = self.lines[line - 1] if 0 < line <= len(self.lines) else b""
        # ast counts columns in UTF-8 bytes; diagnostics count characters, as an editor does
        column = len(row[: getattr(node, "col_offset", 0)].decode("utf-8", "replace")) + 1
        self.uses.append(Use(name, self.path, line, column, how))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = node.value
        owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
        if owner_name == "ErrorCode" and CODE_LIKE.match(node.attr):
            self._use(node.attr, node, "ErrorCode member")

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node.func)
        takes_code = name == "ErrorCode" or name in CALLS or name.endswith("_failure")
        if takes_code and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self._use(first.value, first, f"argument of {name}()")

    def visit_Compare(self, node: ast.Compare) -> None:
        sides = [node.left, *node.comparators]
        if any(_is_code_access(side) for side in sides):
            for side in sides:
                for constant in _strings(side):
                    self._use(str(constant.value), constant, "compared with .code")

    def visit_Match(self, node: ast.Match) -> None:
        if _is_code_access(node.subject):
            for case in node.cases:
                for pattern in ast.walk(case.pattern):
                    if isinstance(pattern, ast.MatchValue):
                        for constant in _strings(pattern.value):
                            self._use(str(constant.value), constant, "match case on .code")


def python_files(paths: Iterable[Path], exclude: Iterable[Path] = ()) -> list[Path]:
    """Every .py file under ``paths``, skipping virtual environments, caches and ``exclude``."""
    skipped = [p.resolve() for p in exclude]
    found: dict[Path, Path] = {}  # by the file itself: one named twice is scanned once
    for root in paths:
        # A path given that is not a folder is scanned as it is (scan says why it cannot be
        # read); inside a folder, only what is not a folder (a folder named x.py is none).
        candidates = [root] if not root.is_dir() else root.rglob("*.py")
        for path in candidates:
            if path is not root and path.is_dir():
                continue
            resolved = path.resolve()
            if set(path.parts) & SKIP_DIRS or any(resolved.is_relative_to(s) for s in skipped):
                continue
            found.setdefault(resolved, path)
    return sorted(found.values())


def scan(path: Path, shown: str) -> tuple[list[Use], str | None]:
    """The uses in one file, or a problem when it cannot be read or parsed."""
    try:
        # As every input is read: a regular file of bounded size, never a FIFO (whose read
        # would wait for a writer) or a device.
        data = inputs.read(path)
        if data is None:
            return [], f"{shown}:1:1: error: cannot read: it is not there any more"
        tree = ast.parse(data, filename=shown)
    except inputs.InputFileError as exc:
        return [], f"{shown}:1:1: error: cannot read: {exc.reason} ({exc.hint})"
    except SyntaxError as exc:
        return [], f"{shown}:{exc.lineno or 1}:{exc.offset or 1}: error: cannot parse: {exc.msg}"
    except (OSError, ValueError) as exc:
        return [], f"{shown}:1:1: error: cannot read: {exc}"
    except (RecursionError, MemoryError):
        return [], (
            f"{shown}:1:1: error: cannot parse: an expression is nested deeper than Python's "
            "parser goes (split it into smaller ones)"
        )
    return _Visitor(shown, data.splitlines()).scan_tree(tree), None
