"""Checks of translators' catalogs, run by ``errorbook check`` (and ``stats``).

Each problem is a diagnostic with the PO file and the line of the entry, so a translator can
jump to it. The rules are the ones the runtime relies on: a translation uses exactly the
placeholders of its source (by name, brace-aware), a plural entry has all its forms or none,
and the Plural-Forms header is errorbook's own for the language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from babel.messages.catalog import Message

from ..diagnostics import Diagnostics, Mark
from ..registry import placeholders
from ..registry.model import Registry
from . import plurals
from .catalog import StableCatalog
from .entries import entries, message_contexts
from .paths import NAMES, catalog_paths
from .pofile import read


@dataclass(frozen=True)
class Counts:
    translated: int
    fuzzy: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated


def _forms(message: Message) -> tuple[str, ...]:
    s = message.string
    return tuple(s) if isinstance(s, (list, tuple)) else (s or "",)


def _sources(message: Message) -> tuple[str, ...]:
    i = message.id
    return tuple(i) if isinstance(i, (list, tuple)) else (i,)


def counts(catalog: StableCatalog) -> Counts:
    """How far the translation of errorbook's entries is (another tool's are not counted)."""
    translated = fuzzy = untranslated = 0
    for message in catalog:
        if not message.id or catalog.is_foreign(message):
            continue
        forms = _forms(message)
        if message.fuzzy and any(forms):
            fuzzy += 1
        elif all(forms):
            translated += 1
        else:
            untranslated += 1
    return Counts(translated, fuzzy, untranslated)


Locate = Callable[[str, "int | None"], Mark]


def locator(rows: list[str], path: str, start: int) -> Locate:
    """Find the line of ``msgstr`` or ``msgstr[N]`` in the entry that starts at ``start``
    (``rows`` are the file's lines, split once per file), and with an ``offset`` into the
    translated text, the line and column where that character is written."""

    def locate(keyword: str, offset: int | None = None) -> Mark:
        answered = False  # a blank line ends the entry only after its msgstr (pofile.lint)
        for number in range(max(start - 1, 0), len(rows)):
            row = rows[number].lstrip()
            if row.startswith(keyword + " "):
                place = None if offset is None else _written_at(rows, number, offset)
                indent = len(rows[number]) - len(row)
                return Mark(path, *(place or (number + 1, indent + 1)))
            answered = answered or row.startswith("msgstr")
            if number >= start and answered and not row:
                break
        return Mark(path, start, 1)

    return locate


def _written_at(rows: list[str], number: int, offset: int) -> tuple[int, int] | None:
    """Line and column (1-based) of the text's character ``offset`` in the string that
    starts on ``rows[number]`` and goes on in quoted lines below it; an escape such as ``\\n``
    is one character of the text and two of the line."""
    remaining = offset
    for line in range(number, len(rows)):
        row = rows[line]
        if line > number and not row.lstrip().startswith('"'):
            return None
        i = row.find('"') + 1
        if i == 0:
            return None
        while i < len(row) and row[i] != '"':
            if remaining == 0:
                return line + 1, i + 1
            i += 2 if row[i] == "\\" else 1
            remaining -= 1
    return None


def check_message(
    message: Message,
    mark: Mark,
    count: str | None,
    brace: bool,
    found: Diagnostics,
    locate: Locate | None = None,
) -> None:
    """Check one translated entry; a problem in one form is reported at that form's line.

    ``brace`` comes from the registry, not the file's flags: Babel re-derives those from any
    braces in the text, and reference prose may quote JSON."""
    forms = _forms(message)
    label = f"the translation of {message.context or message.id!r}"
    if any(forms) and not all(forms):
        empty = [str(i) for i, text in enumerate(forms) if not text]
        found.error(
            "E-TRANSLATION-EMPTY-FORM",
            locate(f"msgstr[{empty[0]}]", None) if locate is not None else mark,
            f"{label} leaves plural form{'s' if len(empty) > 1 else ''} "
            f"msgstr[{', '.join(empty)}] empty",
            "fill every form, or none",
        )
    if not any(forms):
        return
    sources = _sources(message)
    problems = placeholders.text_problems(sources[0], forms)
    if brace:
        problems += placeholders.translation_problems(sources, forms, count)
    for one in problems:
        where = f"msgstr[{one.form}]" if len(sources) > 1 else "msgstr"
        at = locate(where, one.offset) if locate is not None else mark
        found.error(one.id, at, f"{label} ({where}) {one.problem}", one.hint)


def check_catalog(
    catalog: StableCatalog,
    lines: Mapping[tuple[str, str | None], int],
    path: str,
    locale: str,
    domain: str,
    registry: Registry,
    text: str = "",
) -> Diagnostics:
    rows = text.split("\n") if text else []
    found = Diagnostics()
    header = Mark(path, 1, 1)
    if catalog.fuzzy:
        found.error(
            "E-PO-FUZZY-HEADER",
            header,
            "the header is marked fuzzy",
            "remove '#, fuzzy' above msgid \"\"; tools skip a catalog whose header is fuzzy",
        )
    expected = plurals.lookup(locale)
    declared = plurals.parse(catalog.plural_forms_text or "")
    if expected is None:
        found.error(
            "E-PLURAL-NO-RULE",
            header,
            f"errorbook has no plural rule for '{locale}'",
            "add it to generator/plurals.py",
        )
    elif declared is None:
        found.error(
            "E-PLURAL-FORMS-MISSING",
            header,
            "the Plural-Forms header is missing or malformed",
            f"set it to: {expected.header}",
        )
    else:
        if not plurals.same_rule(declared, expected):
            found.error(
                "E-PLURAL-FORMS-MISMATCH",
                header,
                f"Plural-Forms is '{declared.header}', not errorbook's rule for '{locale}'",
                f"set it to: {expected.header}",
            )
        bad = plurals.out_of_range(declared)
        if bad is not None:
            found.error(
                "E-PLURAL-FORMULA",
                header,
                f"the plural formula gives no valid form for n = {bad}"
                if bad >= 0
                else "the plural formula cannot be parsed",
                f"use errorbook's rule: {expected.header}",
            )
    counts_by_code = message_contexts(registry)
    # Every UI message is formatted at runtime, placeholders or not; prose never is.
    brace = (
        {entry.context for entry in entries(registry, domain)} if domain == "messages" else set()
    )
    for message in catalog:
        if not message.id or message.fuzzy or catalog.is_foreign(message):
            continue  # another tool's entry is that tool's to check
        line = lines.get((_sources(message)[0], message.context), 1)
        count = counts_by_code.get(message.context or "")
        check_message(
            message,
            Mark(path, line, 1),
            count,
            message.context in brace,
            found,
            locator(rows, path, line) if rows else None,
        )
    return found


def check_catalogs(
    registry: Registry,
    existing: Mapping[str, bytes],
    locales_dir: str,
    names: Mapping[str, str] = NAMES,
) -> tuple[Diagnostics, dict[tuple[str, str], Counts]]:
    """Every target locale's PO files: problems, and per-locale counts for ``stats``.
    ``names`` gives each domain's file name (Config.domains)."""
    found = Diagnostics()
    stats: dict[tuple[str, str], Counts] = {}
    for locale, domain, path in catalog_paths(registry, locales_dir, names):
        data = existing.get(path)
        if data is None:
            continue
        catalog, lines, problems = read(data, path, locale, domain)
        found.extend(problems)
        if problems.has_errors:
            continue
        text = data.decode("utf-8")  # read() has proved it is UTF-8
        found.extend(check_catalog(catalog, lines, path, locale, domain, registry, text))
        stats[(locale, domain)] = counts(catalog)
    return found, stats
