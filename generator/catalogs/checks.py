"""Checks of translators' catalogs, run by ``errorbook check`` (and ``stats``).

Each problem is a diagnostic with the PO file and the line of the entry, so a translator can
jump to it. The rules are the ones the runtime relies on: a translation uses exactly the
placeholders of its source (by name, brace-aware), a plural entry has all its forms or none,
and the Plural-Forms header is errorbook's own for the language.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from babel.messages.catalog import Message

from .. import plurals
from ..diagnostics import Diagnostics, Mark
from ..registry import placeholders
from ..registry.model import Registry
from .catalog import StableCatalog, messages
from .entries import code_names, message_contexts
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
    found: list[tuple[str, str, int | None, str, str]] = []
    if any(forms) and not all(forms):
        label = _label(message)
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
        text = f"{_label(message)} ({where}) {one.problem}"
        found.append((one.id, where, one.offset, text, one.hint))
    return tuple(found)


def _label(message: Message) -> str:
    """How a finding names the translation: by its msgctxt, else its msgid."""
    return f"the translation of {message.context or message.id!r}"


#: What a seal hashes: the Memo key as marshal's version 0 writes it. Its strings, tuples,
#: bools and None come out by value alone (version 0 marks no string as interned and refers
#: back to no object, so equal keys give equal bytes whatever their objects), every key
#: apart, in a fifth of the time repr takes. A Python whose marshal wrote them otherwise
#: would only miss the records of another.
_SEALED_FORM = 0


#: The bytes of one seal (a verdict record is a row of them, see pipeline.cache).
SEAL_SIZE = 16


class Verdicts:
    """What earlier runs found nothing wrong with, so that a translation that did not change
    since is not checked again: a PO file of ten thousand entries edited in one place is
    checked in that place, and the rest of its checks cost a hash each.

    A translation's *seal* is a keyed hash (BLAKE2b, 16 bytes) of everything its check reads,
    the :data:`Memo` key (msgctxt, source texts, translated forms, whether the text is
    formatted, the count placeholder), under ``salt``: errorbook's code, Babel's version,
    the locale and its plural rule, the domain and the file (``cache.verdicts_salt``). Only
    the seals of translations with nothing wrong are kept (``known``, from the file's
    record): a translation with a problem is checked on every run, so a record can spare a
    check, never hide a problem, and a record that is missing, damaged or made under another
    salt only costs the checks it would have spared."""

    def __init__(self, salt: str, known: Collection[bytes] = frozenset()) -> None:
        self.key = bytes.fromhex(salt)[:32]
        self.known = frozenset(known)
        self.seals: dict[tuple[object, ...], bytes] = {}  # this run's, by Memo key
        # The hash with the key taken in, copied for each seal: taking the key in is a
        # block of BLAKE2b's work, a quarter of what a seal costs.
        self._keyed = hashlib.blake2b(digest_size=SEAL_SIZE, key=self.key)

    def vouch(self, key: tuple[object, ...]) -> bool:
        """True when an earlier run found nothing wrong with the translation of ``key``."""
        hasher = self._keyed.copy()
        hasher.update(marshal.dumps(key, _SEALED_FORM))  # type: ignore[arg-type]  # see verdict
        seal = hasher.digest()
        self.seals[key] = seal
        return seal in self.known

    def record(self, memo: Memo) -> frozenset[bytes]:
        """The seals of the translations ``memo`` holds with nothing wrong: the record of the
        file they were checked in (the file as read and, when it is rewritten, as written),
        for the next run."""
        seals = self.seals
        return frozenset(seals[key] for key, found in memo.items() if not found and key in seals)


def verdict(
    message: Message,
    count: str | None,
    brace: bool,
    memo: Memo | None = None,
    verdicts: Verdicts | None = None,
) -> Found:
    """What checking one translated entry finds (nothing: it may be shown), from ``memo``
    or ``verdicts`` when either has it.

    Only a formatted text (``brace``) is sealed: its check parses the placeholders of the
    source and of every form. The check of unformatted text (reference prose) looks at its
    edges and for control characters, in C, and costs less than its seal would: sealing it
    made a run without a record slower, and one with a record no faster."""
    key = (message.context, _sources(message), _forms(message), brace, count)
    results = memo.get(key) if memo is not None else None
    if results is None:
        if brace and verdicts is not None and verdicts.vouch(key):
            results = ()
        else:
            results = _findings(message, count, brace)
        if memo is not None:
            memo[key] = results
    return results


def _report(results: Found, mark: Mark, found: Diagnostics, locate: Locate | None) -> None:
    for kind, where, offset, problem, hint in results:
        found.error(kind, locate(where, offset) if locate is not None else mark, problem, hint)


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
    verdicts: Verdicts | None = None,
    contexts: Mapping[str, str | None] | None = None,
) -> tuple[Diagnostics, Counts]:
    """The problems of one catalog, each at its line in ``text`` (the file's text; ``lines``
    gives each entry's msgid line in it), and its counts, in one pass: a translation with a
    problem counts as rejected, so ``stats`` and ``check`` never disagree about it. Without
    ``header``, only the entries are checked (the counts are then what is wanted).

    ``text`` is split into lines only when a problem is to be placed in it: for a large
    catalog the lines take twice the memory of the file, and most files have no problem.
    A caller that has the lines already (a catalog as read keeps them) passes ``rows``.
    ``verdicts`` spares the checks of translations an earlier run found nothing wrong with;
    ``contexts`` is :func:`entries.message_contexts` of ``registry``, when the caller has it
    (it is every msgctxt of the messages domain, each with its count placeholder)."""
    split: list[list[str]] = [rows] if rows is not None else []

    def file_rows() -> list[str]:
        if not split:
            split.append(text.split("\n"))
        return split[0]

    found = Diagnostics()
    if header:
        _check_header(catalog, path, locale, found, file_rows)
    if memo is None and verdicts is not None:
        memo = {}  # the seals are recorded from the memo
    counts_by_code = message_contexts(registry) if contexts is None else contexts
    # Every UI message is formatted at runtime, placeholders or not; prose never is.
    brace = counts_by_code if domain == "messages" else {}
    translated = fuzzy = untranslated = rejected = 0
    for message in messages(catalog):
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
        context = message.context
        results = verdict(
            message, counts_by_code.get(context or ""), context in brace, memo, verdicts
        )
        if results:
            line = lines.get((_sources(message)[0], context), 1)
            locate = locator(file_rows, path, line) if text or rows is not None else None
            _report(results, Mark(path, line, 1), found, locate)
            rejected += 1
        else:
            translated += 1
    return found, Counts(translated, fuzzy, untranslated, rejected)


def _header_mark(rows: list[str], path: str, field: str | None) -> Mark:
    """Where the header entry (the file's first) writes ``field`` ("Plural-Forms"), or its
    fuzzy flag when ``field`` is None; the file's first line where it does not. A field
    written more than once is placed at its last line: the value Babel, and so errorbook,
    reads."""
    started = False
    found = None
    for number, row in enumerate(rows):
        if row.startswith(("msgid ", "msgctxt ")):
            if started:
                break  # the next entry: the header has no such line
            started = row.startswith("msgid ")
        if field is None and not started and row.startswith("#,") and "fuzzy" in row:
            return Mark(path, number + 1, 1)
        if field is not None and started and row.lstrip().lower().startswith(f'"{field}:'.lower()):
            found = Mark(path, number + 1, 1)
    return found or Mark(path, 1, 1)


def _doubled(fields: Sequence[tuple[str, str]]) -> list[tuple[str, bool]]:
    """Each header field written more than once, as first written, and whether its values
    differ."""
    values: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for name, value in fields:
        values.setdefault(name.lower(), []).append(value)
        names.setdefault(name.lower(), name)
    return [(names[key], len(set(seen)) > 1) for key, seen in values.items() if len(seen) > 1]


def _check_header(
    catalog: StableCatalog,
    path: str,
    locale: str,
    found: Diagnostics,
    rows: Callable[[], list[str]] = list,
) -> None:
    """The header's problems, each at its line of the file (``rows`` gives the file's lines,
    split only when a problem is to be placed)."""
    header = Mark(path, 1, 1)
    for name, differ in _doubled(catalog.read_headers or ()):
        found.warning(
            "W-PO-HEADER-DOUBLED",
            _header_mark(rows(), path, name),
            f"the header has {name} twice"
            + (", with different values" if differ else "")
            + "; Babel and errorbook read the last, GNU gettext the first",
            f"keep one {name} line",
        )
    if catalog.fuzzy:
        found.error(
            "E-PO-FUZZY-HEADER",
            _header_mark(rows(), path, None),
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
            _header_mark(rows(), path, "Plural-Forms"),
            "the Plural-Forms header is missing or malformed",
            f"set it to: {expected.header}",
        )
    else:
        bad = plurals.out_of_range(declared)
        if (bad is None or bad >= 0) and not plurals.same_rule(declared, expected):
            # (a formula that cannot be parsed is that one problem, not a second one too)
            found.error(
                "E-PLURAL-FORMS-MISMATCH",
                _header_mark(rows(), path, "Plural-Forms"),
                f"Plural-Forms is '{declared.header}', not errorbook's rule for '{locale}'",
                f"set it to: {expected.header}",
            )
        if bad is not None:
            found.error(
                "E-PLURAL-FORMULA",
                _header_mark(rows(), path, "Plural-Forms"),
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
