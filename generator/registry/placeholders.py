"""Parsing `{name}` placeholders in messages and translations.

Only plain named fields are allowed: ``{{`` and ``}}`` are literal braces, ``{name}`` is a
placeholder, and anything else inside braces (positions, attributes, indexes, conversions,
format specs) is a problem to report. The same rules guard the registry's source text and,
later, translators' text, so a translation can never reach an attribute of a value.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Problem:
    offset: int  # 0-based index into the text
    message: str
    hint: str
    unnamed: bool = False  # '{}' or '{0}': the hint can only name an example


class Finding(NamedTuple):
    """A problem of one translated form: its diagnostic id, which form, what is wrong, how to
    fix it, and where in the form's text (0-based), when there is a place to point at."""

    id: str
    form: int
    problem: str
    hint: str
    offset: int | None = None


@dataclass(frozen=True)
class Parsed:
    names: tuple[str, ...]  # in order of first use
    problems: tuple[Problem, ...]
    fields: int = 0  # how many named fields, each use counted


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


_BRACE = re.compile(r"[{}]")


@functools.lru_cache(maxsize=65536)
def parse(text: str) -> Parsed:
    """Find placeholder names and syntax problems in one message.

    Cached: a catalog run asks about each source text once per locale and once more when it
    compiles, and the answer (tuples) cannot be changed by the caller. The cache holds a few
    locales' worth of a large registry (ten thousand codes ask about twenty thousand texts
    per locale: a smaller cache, read in the same cycle each time, would never hit)."""
    names: list[str] = []
    seen: set[str] = set()
    problems: list[Problem] = []
    fields = 0
    n = len(text)
    last_close = text.rfind("}")  # past it no '{' is closed: no search to the end for each
    found = _BRACE.search(text)
    i = found.start() if found is not None else n
    while i < n:
        char = text[i]
        if char not in "{}":  # skip, in C, to the next brace
            found = _BRACE.search(text, i)
            i = found.start() if found is not None else n
            continue
        if char == "{":
            if text.startswith("{{", i):
                i += 2
                continue
            end = text.find("}", i + 1) if i < last_close else -1
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
                fields += 1
                if field not in seen:
                    seen.add(field)
                    names.append(field)
            else:
                message, hint = _explain(field)
                problems.append(Problem(i, message, hint, field == "" or field.isdigit()))
            i = end + 1
        elif char == "}":
            if text.startswith("}}", i):
                i += 2
                continue
            problems.append(Problem(i, "a lone '}'", "write '}}' for a literal brace"))
            i += 1
    return Parsed(tuple(names), tuple(problems), fields)


#: The most placeholder fields a translated form may have, unless its source has more.
MAX_FIELDS = 64


def translation_problems(
    sources: tuple[str, ...], forms: tuple[str, ...], count: str | None
) -> list[Finding]:
    """Why each translated form may not be used, as :class:`Finding` values.

    A translation uses exactly its source's placeholders, by name: none unknown, none left
    out, no other kind of field. Only the count may be left out, and only from a plural form
    other than the last (``one`` may say "a" instead of "1").
    """
    names: list[str] = []
    for text in sources:
        names += [n for n in parse(text).names if n not in names]
    # A form may write a placeholder more than once, but not without end: the first
    # message() in a language reads every field of it.
    most = max(MAX_FIELDS, *(parse(text).fields for text in sources))
    found: list[Finding] = []
    last = len(forms) - 1
    shown = ", ".join(f"{{{n}}}" for n in names) or "none"
    for index, text in enumerate(forms):
        if not text:
            continue
        parsed = parse(text)
        if parsed.fields > most:
            found.append(
                Finding(
                    "E-TRANSLATION-TOO-MANY-FIELDS",
                    index,
                    f"has {parsed.fields} placeholder fields, more than the {most} a "
                    "translation may have",
                    "write each placeholder once or twice, as the source does",
                )
            )
        for p in parsed.problems:
            hint = p.hint
            if p.unnamed and names:  # name the source's own placeholders, not an example
                hint = f"write the source's placeholders by name: {shown}"
            found.append(
                Finding(
                    "E-TRANSLATION-PLACEHOLDER-SYNTAX", index, f"has {p.message}", hint, p.offset
                )
            )
        for name in parsed.names:
            if name not in names:
                found.append(
                    Finding(
                        "E-TRANSLATION-UNKNOWN-PLACEHOLDER",
                        index,
                        f"uses '{{{name}}}', which its source does not have",
                        f"use only the source's placeholders: {shown}",
                        _place(text, name),
                    )
                )
        for name in names:
            optional = name == count and len(forms) > 1 and index != last
            if name not in parsed.names and not optional:
                found.append(
                    Finding(
                        "E-TRANSLATION-MISSING-PLACEHOLDER",
                        index,
                        f"leaves out '{{{name}}}'",
                        f"keep {{{name}}} in the translation",
                    )
                )
    return found


def _place(text: str, name: str) -> int | None:
    """Where ``{name}`` is first used as a placeholder in ``text`` (not inside ``{{...}}``)."""
    for match in _FIELD.finditer(text):
        if match.group(1) == name:
            return match.start()
    return None


_FIELD = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")


def fill(template: str, params: dict[str, object]) -> str | None:
    """Fill named fields exactly as the generated runtime does; None for any other field."""
    parts: list[str] = []
    position = 0
    for match in _FIELD.finditer(template):
        parts.append(template[position : match.start()])
        token, name = match.group(0), match.group(1)
        if token in ("{{", "}}"):
            parts.append(token[0])
        elif name is not None and name in params:
            parts.append(str(params[name]))
        else:
            return None
        position = match.end()
    parts.append(template[position:])
    return "".join(parts)


def shown(template: str) -> str:
    """A message template as a reader should see it: ``{{`` and ``}}`` become the single
    braces the runtime writes, fields such as ``{action}`` and everything else stay as they
    are. It reads the template with the runtime's own tokens, so ``{{{name}}}`` shows as a
    brace, the field, then a brace."""
    return _FIELD.sub(
        lambda m: m.group(0)[0] if m.group(0) in ("{{", "}}") else m.group(0), template
    )


#: Control characters a translation may not hold (tab and newline are text).
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def _edges(text: str) -> tuple[str, str]:
    """The white space ``text`` starts and ends with (str.strip's, so str.isspace's)."""
    if not (text[:1].isspace() or text[-1:].isspace()):
        return ("", "")  # most texts: nothing to strip, and no copy of the text made
    stripped = text.strip()
    if not stripped:
        return text, ""
    start = text.index(stripped)
    return text[:start], text[start + len(stripped) :]


def text_problems(source: str, forms: tuple[str, ...]) -> list[Finding]:
    """Problems of a translation as text, whatever its placeholders: white space at the
    edges that differs from the source's, and control characters."""
    found: list[Finding] = []
    for index, text in enumerate(forms):
        if not text:
            continue
        if _edges(text) != _edges(source):
            found.append(
                Finding(
                    "E-TRANSLATION-WHITESPACE",
                    index,
                    "does not start and end with the same white space and newlines as its source",
                    "match the source's leading and trailing spaces and newlines",
                )
            )
        control = CONTROL.search(text)
        if control is not None:
            found.append(
                Finding(
                    "E-TRANSLATION-CONTROL-CHARACTER",
                    index,
                    f"contains the control character U+{ord(control.group()):04X}",
                    "remove it; only tab and newline are allowed",
                    control.start(),
                )
            )
    return found
