"""Parsing `{name}` placeholders in messages and translations.

Only plain named fields are allowed: ``{{`` and ``}}`` are literal braces, ``{name}`` is a
placeholder, and anything else inside braces (positions, attributes, indexes, conversions,
format specs) is a problem to report. The same rules guard the registry's source text and,
later, translators' text, so a translation can never reach an attribute of a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Problem:
    offset: int  # 0-based index into the text
    message: str
    hint: str


@dataclass(frozen=True)
class Parsed:
    names: tuple[str, ...]  # in order of first use
    problems: tuple[Problem, ...]


def _explain(field: str) -> tuple[str, str]:
    if field == "":
        return "an empty placeholder '{}'", "name it, such as {action}"
    if field.isdigit():
        return f"a positional placeholder '{{{field}}}'", "use a named placeholder such as {count}"
    for mark, what in (
        ("!", "a conversion"),
        (":", "a format spec"),
        (".", "attribute access"),
        ("[", "index access"),
    ):
        if mark in field:
            name = field.split(mark, 1)[0]
            return (
                f"{what} in '{{{field}}}'",
                f"write the plain name {{{name}}}; only named placeholders are allowed",
            )
    return f"'{{{field}}}' is not a valid placeholder name", "use letters, digits and '_' only"


def parse(text: str) -> Parsed:
    """Find placeholder names and syntax problems in one message."""
    names: list[str] = []
    problems: list[Problem] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "{":
            if text.startswith("{{", i):
                i += 2
                continue
            end = text.find("}", i + 1)
            opener = text.find("{", i + 1)
            if end < 0 or (0 <= opener < end):
                problems.append(
                    Problem(
                        i,
                        "an unclosed '{'",
                        "close the placeholder with '}', or write '{{' for a literal brace",
                    )
                )
                i += 1
                continue
            field = text[i + 1 : end]
            if _IDENTIFIER.match(field):
                if field not in names:
                    names.append(field)
            else:
                message, hint = _explain(field)
                problems.append(Problem(i, message, hint))
            i = end + 1
        elif char == "}":
            if text.startswith("}}", i):
                i += 2
                continue
            problems.append(Problem(i, "a lone '}'", "write '}}' for a literal brace"))
            i += 1
        else:
            i += 1
    return Parsed(tuple(names), tuple(problems))
