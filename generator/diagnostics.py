"""Problems found in the input, as values.

Every stage (loading, validation, resolution, catalog checks) reports what it finds as
:class:`Diagnostic` values instead of raising on the first problem, so that one run shows
the author every mistake at once. The command line renders them in one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Mark:
    """A position in a source file: 1-based line and column, as editors count them."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where it is, what is wrong, and how to fix it."""

    mark: Mark
    message: str
    hint: str = ""
    severity: Severity = "error"

    def render(self) -> str:
        text = f"{self.mark}: {self.severity}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.mark.path,
            "line": self.mark.line,
            "column": self.mark.column,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass
class Diagnostics:
    """An ordered collection of diagnostics, filled by the stages that find them."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, mark: Mark, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(mark, message, hint))

    def warning(self, mark: Mark, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(mark, message, hint, "warning"))

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Diagnostics in file order, so the output reads top to bottom like the file."""
        return sorted(self.items, key=lambda d: (d.mark, d.message))

    def render(self) -> str:
        return "".join(d.render() + "\n" for d in self.sorted())

    def to_json(self) -> str:
        return json.dumps([d.as_dict() for d in self.sorted()], indent=2, ensure_ascii=False)


class InvalidInput(Exception):
    """Raised by a stage whose input cannot be used; carries every diagnostic found."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        super().__init__(diagnostics.render())
        self.diagnostics = diagnostics
