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
from .entries import code_names, entries, message_contexts
from .paths import NAMES, catalog_paths
from .pofile import read


@dataclass(frozen=True)
class Counts:
    """How far a catalog's translation is. ``rejected`` are translations ``check`` refuses
    (a misspelt placeholder, a control character): they are filled in but never compiled nor
    shown, so they are not ``translated``; ``stats`` shows them in a column of their own, and
    the site's progress page, which speaks to readers, counts them as untranslated."""

    translated: int
    fuzzy: int
    untranslated: int
    rejected: int = 0

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated + self.rejected


def _forms(message: Message) -> tuple[str, ...]:
    s = message.string
    return tuple(s) if isinstance(s, (list, tuple)) else (s or "",)


def _sources(message: Message) -> tuple[str, ...]:
    i = message.id
    return tuple(i) if isinstance(i, (list, tuple)) else (i,)


def counts(catalog: StableCatalog, registry: Registry, domain: str) -> Counts:
    """How far the translation of errorbook's entries is (another tool's are not counted);
    a translation :func:`check_catalog` refuses counts as rejected."""
    return review(catalog, {}, "", "", domain, registry, header=False)[1]


Locate = Callable[[str, "int | None"], Mark]


def locator(lines: Callable[[], list[str]], path: str, start: int) -> Locate:
    """Find the line of ``msgstr`` or ``msgstr[N]`` in the entry that starts at ``start``
    (``lines()`` gives the file's lines, split once per file), and with an ``offset`` into
    the translated text, the line and column where that character is written."""

    def locate(keyword: str, offset: int | None = None) -> Mark:
        rows = lines()
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


#: What checking one translation found, without places: (diagnostic id, the form's keyword,
#: offset into its text or None, what is wrong, how to fix it). Places are found per file.
Found = tuple[tuple[str, str, "int | None", str, str], ...]
#: Earlier results by (msgctxt, source texts, translated forms, brace, count placeholder):
#: a merged catalog is checked after the file it came from, and most entries are the same.
Memo = dict[tuple[object, ...], Found]


def _findings(message: Message, count: str | None, brace: bool) -> Found:
    forms = _forms(message)
    label = f"the translation of {message.context or message.id!r}"
    found: list[tuple[str, str, int | None, str, str]] = []
    if any(forms) and not all(forms):
        empty = [str(i) for i, text in enumerate(forms) if not text]
        found.append(
            (
                "E-TRANSLATION-EMPTY-FORM",
                f"msgstr[{empty[0]}]",
                None,
                f"{label} leaves plural form{'s' if len(empty) > 1 else ''} "
                f"msgstr[{', '.join(empty)}] empty",
                "fill every form, or none",
            )
        )
    if not any(forms):
        return tuple(found)
    sources = _sources(message)
    problems = placeholders.text_problems(sources[0], forms)
    if brace:
        problems += placeholders.translation_problems(sources, forms, count)
    for one in problems:
        where = f"msgstr[{one.form}]" if len(sources) > 1 else "msgstr"
        found.append((one.id, where, one.offset, f"{label} ({where}) {one.problem}", one.hint))
    return tuple(found)


def check_message(
    message: Message,
    mark: Mark,
    count: str | None,
    brace: bool,
    found: Diagnostics,
    locate: Locate | None = None,
    memo: Memo | None = None,
) -> bool:
    """Check one translated entry; a problem in one form is reported at that form's line.
    True when the translation has a problem (``check`` refuses it; it is never compiled).

    ``brace`` comes from the registry, not the file's flags: Babel re-derives those from any
    braces in the text, and reference prose may quote JSON."""
    key = (message.context, _sources(message), _forms(message), brace, count)
    results = memo.get(key) if memo is not None else None
    if results is None:
        results = _findings(message, count, brace)
        if memo is not None:
            memo[key] = results
    for kind, where, offset, problem, hint in results:
        found.error(kind, locate(where, offset) if locate is not None else mark, problem, hint)
    return bool(results)


def check_catalog(
    catalog: StableCatalog,
    lines: Mapping[tuple[str, str | None], int],
    path: str,
    locale: str,
    domain: str,
    registry: Registry,
    text: str = "",
) -> Diagnostics:
    """The problems of one catalog (see :func:`review`)."""
    return review(catalog, lines, path, locale, domain, registry, text)[0]


def review(
    catalog: StableCatalog,
    lines: Mapping[tuple[str, str | None], int],
    path: str,
    locale: str,
    domain: str,
    registry: Registry,
    text: str = "",
    *,
    header: bool = True,
    memo: Memo | None = None,
    rows: list[str] | None = None,
) -> tuple[Diagnostics, Counts]:
    """The problems of one catalog, each at its line in ``text`` (the file's text; ``lines``
    gives each entry's msgid line in it), and its counts, in one pass: a translation with a
    problem counts as rejected, so ``stats`` and ``check`` never disagree about it. Without
    ``header``, only the entries are checked (the counts are then what is wanted).

    ``text`` is split into lines only when a problem is to be placed in it: for a large
    catalog the lines take twice the memory of the file, and most files have no problem.
    A caller that has the lines already (a catalog as read keeps them) passes ``rows``."""
    split: list[list[str]] = [rows] if rows is not None else []

    def file_rows() -> list[str]:
        if not split:
            split.append(text.split("\n"))
        return split[0]

    found = Diagnostics()
    if header:
        _check_header(catalog, path, locale, found)
    counts_by_code = message_contexts(registry)
    # Every UI message is formatted at runtime, placeholders or not; prose never is.
    brace = (
        {entry.context for entry in entries(registry, domain)} if domain == "messages" else set()
    )
    translated = fuzzy = untranslated = rejected = 0
    for message in catalog:
        if not message.id or catalog.is_foreign(message):
            continue  # another tool's entry is that tool's to check, and not counted
        forms = _forms(message)
        if message.fuzzy:
            if any(forms):
                fuzzy += 1
            else:
                untranslated += 1
            continue
        if not any(forms):
            untranslated += 1
            continue
        line = lines.get((_sources(message)[0], message.context), 1)
        count = counts_by_code.get(message.context or "")
        refused = check_message(
            message,
            Mark(path, line, 1),
            count,
            message.context in brace,
            found,
            locator(file_rows, path, line) if text or rows is not None else None,
            memo,
        )
        if refused:
            rejected += 1
        else:
            translated += 1
    return found, Counts(translated, fuzzy, untranslated, rejected)


def _check_header(catalog: StableCatalog, path: str, locale: str, found: Diagnostics) -> None:
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
    codes = code_names(registry)
    for locale, domain, path in catalog_paths(registry, locales_dir, names):
        data = existing.get(path)
        if data is None:
            continue
        catalog, lines, problems = read(data, path, locale, domain, codes)
        found.extend(problems)
        if problems.has_errors:
            continue
        text = data.decode("utf-8")  # read() has proved it is UTF-8
        problems, stats[(locale, domain)] = review(
            catalog, lines, path, locale, domain, registry, text
        )
        found.extend(problems)
    return found, stats
