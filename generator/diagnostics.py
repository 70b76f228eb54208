"""Problems found in the input, as values.

Every stage (loading, validation, resolution, catalog checks) reports what it finds as
:class:`Diagnostic` values instead of raising on the first problem, so that one run shows
the author every mistake at once. The command line renders them in one place.

Each diagnostic carries a stable id from :mod:`generator.diagnostic_ids` (such as
``E-REF-UNKNOWN-CODE``): the wording of a message may improve from one release to the next,
the id does not, so tools and tests can match on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

from .errors import InvalidInput as InvalidInput  # raised with Diagnostics; defined there

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
    """One problem: which kind (``id``), where it is, what is wrong, and how to fix it."""

    id: str
    mark: Mark
    message: str
    hint: str = ""
    severity: Severity = "error"

    def render(self, *, with_id: bool = False) -> str:
        """``path:line:column: severity: message (hint)``, and `` [ID]`` after it when asked:
        at the end, so that everything before it reads as it always has."""
        text = f"{self.mark}: {self.severity}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        if with_id:
            text += f" [{self.id}]"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "path": self.mark.path,
            "line": self.mark.line,
            "column": self.mark.column,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Diagnostic:
        """The diagnostic :meth:`as_dict` gave ``data`` for (a cache keeps them so)."""
        mark = Mark(str(data["path"]), int(str(data["line"])), int(str(data["column"])))
        severity: Severity = "warning" if data["severity"] == "warning" else "error"
        return cls(str(data["id"]), mark, str(data["message"]), str(data["hint"]), severity)


@dataclass
class Diagnostics:
    """An ordered collection of diagnostics, filled by the stages that find them."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, id: str, mark: Mark, message: str, hint: str = "") -> None:
        """Record an error; ``id`` is an ``E-`` id of :data:`generator.diagnostic_ids.IDS`."""
        self.items.append(Diagnostic(id, mark, message, hint))

    def warning(self, id: str, mark: Mark, message: str, hint: str = "") -> None:
        """Record a warning; ``id`` is a ``W-`` id of :data:`generator.diagnostic_ids.IDS`."""
        self.items.append(Diagnostic(id, mark, message, hint, "warning"))

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Diagnostics in file order, so the output reads top to bottom like the file."""
        return sorted(self.items, key=lambda d: (d.mark, d.message))

    def render(self, *, with_id: bool = False) -> str:
        return "".join(d.render(with_id=with_id) + "\n" for d in self.sorted())

    def counts(self) -> dict[str, int]:
        """How many diagnostics of each id there are, the most frequent first (ties by id)."""
        tally: dict[str, int] = {}
        for item in self.items:
            tally[item.id] = tally.get(item.id, 0) + 1
        return dict(sorted(tally.items(), key=lambda pair: (-pair[1], pair[0])))

    def summary(self) -> str:
        """The lines that end a report: how many problems, and, when there are several, one
        line per id with its count, so that a long report says at its end what it holds.
        Like every line errorbook writes of its own, each starts with 'errorbook:'; a
        diagnostic starts with its path."""
        total = len(self.items)
        text = (
            f"errorbook: {total:,} problem{'s' if total != 1 else ''} found; nothing was written\n"
        )
        if total > 1:
            counts = self.counts()
            width = len(f"{max(counts.values()):,}")
            text += "".join(f"errorbook: {n:>{width},} {id}\n" for id, n in counts.items())
        return text

    def to_json(self) -> str:
        return json.dumps([d.as_dict() for d in self.sorted()], indent=2, ensure_ascii=False)


def invalid(id: str, mark: Mark, message: str, hint: str = "") -> InvalidInput:
    """The error to raise when a stage cannot go on past its first problem (a file that
    cannot be read or decoded): that one diagnostic, as :class:`InvalidInput`."""
    found = Diagnostics()
    found.error(id, mark, message, hint)
    return InvalidInput(found)
