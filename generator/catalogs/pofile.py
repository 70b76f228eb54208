"""Reading and writing PO files: Babel's reader and writer, made strict and stable.

- Reading is strict: a malformed line is a diagnostic with file and line, not a warning
  printed and skipped. Duplicate entries, active or obsolete, are reported (Babel keeps the
  last one silently). ``#|`` previous-msgid lines, which Babel reads as translator comments,
  are turned back into the message's previous id.
- Writing uses one policy for what errorbook writes: no wrapping, no source references,
  previous msgids kept, one newline at the end. An entry or header a merge leaves as it was
  read is written back as the file had it (StableCatalog.raw_entry), so a file saved by
  msgmerge, polib, Poedit or Weblate keeps its wrapping and header order.
- A translator's comment lines (repeated, empty, without a space after ``#``) and the
  header comment are data: they are read and written back byte for byte, and so is every
  entry of another tool that shares the file (see :func:`entries.owns`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import secrets
from collections.abc import Iterator

from babel.messages import pofile as babel_pofile
from babel.messages.catalog import Message
from babel.messages.pofile import (
    PoFileError,
    PoFileParser,
    denormalize,
    normalize,
    write_po,
)
from babel.util import TextWrapper

from ..diagnostics import Diagnostics, Mark
from . import plurals
from .catalog import StableCatalog
from .entries import owned, owns

_PREVIOUS = re.compile(r'\|\s*(msgctxt|msgid|msgid_plural)?\s*(".*")\s*\Z')
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr\[\d+\]|msgstr)(?=[ \t\"])")
_ESCAPES = set('\\"ntr')  # what Babel's reader decodes; \a, \x41, \101 it would keep as is


#: Characters other than LF that str.splitlines() breaks lines at. Babel's writer splits the
#: header comment and wraps comments with it, so a comment holding one would be written back
#: with a line break that was not there, and the file could no longer be read; GNU msgfmt
#: reads them as ordinary characters. (CR is refused on its own, as a line ending.)
_LINE_BREAK_CHARACTERS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAKS = re.compile(f"[{_LINE_BREAK_CHARACTERS}]")


def _breaks_in_comments(text: str, path: str) -> Diagnostics:
    """Each comment Babel would write back broken that holds a character of ``_LINE_BREAKS``:
    a comment above the first entry (the header's, which Babel's writer splits with
    str.splitlines()) and a ``#|`` previous-msgid line. Other comments come back readable,
    and in a translation the checks refuse the character as a control character and leave
    that entry out."""
    found = Diagnostics()
    above_entries = True
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith(("msgctxt", "msgid")):
            above_entries = False
        if not (line.startswith(("#|", "#~|")) or (above_entries and line.startswith("#"))):
            continue
        breaking = _LINE_BREAKS.search(line)
        if breaking is not None:
            where = "a previous-msgid line (#|)" if "|" in line[:3] else "the header's comment"
            found.error(
                "E-PO-LINE-BREAK-IN-COMMENT",
                Mark(path, number, breaking.start() + 1),
                f"{where} contains U+{ord(breaking.group()):04X}, which Babel would not write "
                "back as it is, and the file could not be read again",
                "delete the character or replace it with a space",
            )
    return found


_VALID_STRING = re.compile(r'"(?:[^"\\]|\\[\\"ntr])*"\s*\Z')


def _string_problem(line: str, start: int) -> tuple[int, str, str, str] | None:
    """Check one quoted PO string starting at ``start``: (column, diagnostic id, problem,
    hint) or None."""
    if _VALID_STRING.match(line, start):
        return None  # the common case, in C; the scan below only runs to locate a problem
    if start >= len(line) or line[start] != '"':
        return (
            start + 1,
            "E-PO-STRING-MISSING",
            "a quoted string is missing",
            'write the text in double quotes: "..."',
        )
    i = start + 1
    while i < len(line):
        char = line[i]
        if char == "\\":
            following = line[i + 1 : i + 2]
            if following in _ESCAPES:
                i += 2
                continue
            return (
                i + 1,
                "E-PO-ESCAPE",
                f"unknown escape '\\{following}'",
                'write the character itself; errorbook reads \\n \\t \\r \\" and \\\\ only',
            )
        if char == '"':
            rest = line[i + 1 :].strip()
            if rest:
                return (
                    i + 2,
                    "E-PO-STRING-TRAILING",
                    "text after the closing quote",
                    'put it inside the quotes, and write \\" for a quote',
                )
            return None
        i += 1
    return (
        start + 1,
        "E-PO-STRING-UNCLOSED",
        "the string is not closed on this line",
        'end it with "',
    )


_NPLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)")
_FORM_LINE = re.compile(r"msgstr\[(\d{1,6})\]")


class _PluralCount(Exception):
    """The header's nplurals is no number of plural forms a language has (raised before
    Babel reads it: it makes a list of that many strings for every plural entry)."""

    def __init__(self, value: str, line: int) -> None:
        super().__init__(value)
        self.value = value
        self.line = line


_CHARSET = re.compile(r"charset\s*=\s*([^\s;\\\"]+)", re.I)
_ORDER = {"msgctxt": 0, "msgid": 1, "msgid_plural": 2, "msgstr": 3}


def _structure(keyword: str, state: dict[str, object]) -> str | None:
    """What is wrong with ``keyword`` after the keywords of its entry so far, or None."""
    kind = "msgstr" if keyword.startswith("msgstr") else keyword
    seen: list[str] = state.setdefault("seen", [])  # type: ignore[assignment]
    if kind in ("msgctxt", "msgid") and (not seen or seen[-1].startswith("msgstr")):
        seen.clear()  # a new entry starts
    if kind == "msgid" and seen and seen[-1] != "msgctxt":
        return "a second msgid in one entry"
    if kind == "msgid_plural" and (not seen or seen[-1] != "msgid"):
        return "msgid_plural must follow msgid"
    if kind == "msgstr":
        if not seen or not any(k in ("msgid", "msgid_plural") for k in seen):
            return "msgstr without msgid"
        plural = "msgid_plural" in seen
        forms = [k for k in seen if k.startswith("msgstr")]
        if not plural and keyword != "msgstr":
            return f"{keyword} in an entry without msgid_plural (write msgstr)"
        if plural and keyword == "msgstr":
            return "msgstr in a plural entry (write msgstr[0], msgstr[1], ...)"
        if not plural and forms:
            return "a second msgstr in one entry"
        index = keyword[7:-1] if keyword.startswith("msgstr[") else ""
        if plural and (not index.isdigit() or int(index) != len(forms)):
            return f"{keyword} out of order (msgstr[{len(forms)}] comes next)"
    elif kind == "msgctxt" and seen:
        return "msgctxt must start an entry"
    seen.append(keyword)
    return None


#: A quoted string on one line, with only the escapes errorbook reads. A run of plain
#: characters is taken by one possessive repeat, which the matcher loops over in C; an
#: alternation per character (``(?>[^"\\\n]|\\[\\"ntr])*+``, the same strings) costs a branch
#: and a group each, and made this match most of the time of reading a large catalog.
_STRING = r'"(?:[^"\\\n]++|\\[\\"ntr])*+"'


def _entry_pattern(prefix: str) -> str:
    """One well-formed entry in the form errorbook and msgmerge write, as a pattern."""
    string = _STRING
    more = rf"(?:{prefix}{string}\n)*+"
    forms = ""
    for index in reversed(range(6)):  # msgstr[0] .. msgstr[5], in order, at least [0]
        forms = rf"{prefix}msgstr\[{index}\] {string}\n{more}" + (f"(?:{forms})?" if forms else "")
    return (
        rf"(?:{prefix}msgctxt {string}\n{more})?"
        rf"{prefix}msgid {string}\n{more}"
        rf"(?:{prefix}msgstr {string}\n{more}|{prefix}msgid_plural {string}\n{more}{forms})"
    )


#: A whole file of entries (active and obsolete), comments and blank lines, all written the
#: way errorbook, msgmerge and Weblate write them. Nearly every file is one; only the rest
#: needs the line-by-line lint below, which says what is wrong and where.
_WELL_FORMED = re.compile(
    r"(?:\n|#(?:[^~|\n][^\n]*+)?\n"
    rf"|#\|[ ](?:(?:msgctxt|msgid_plural|msgid)[ ])?{_STRING}\n"
    rf"|(?>{_entry_pattern('')})|(?>{_entry_pattern('#~ ')}))*+"
)
_HEADER = 'msgid ""\nmsgstr'


def well_formed(data: bytes) -> bool:
    """True when the bytes of a PO file are UTF-8 text that the line lint finds nothing in
    (by its shortcut): what :func:`read` may then be told (``linted``)."""
    try:
        return _well_formed(data.decode("utf-8"))
    except UnicodeDecodeError:
        return False


def _well_formed(text: str) -> bool:
    """True when the line-by-line lint would find nothing (a shortcut, in C). A file has at
    most one header entry: a line ``msgid ""`` followed by ``msgstr`` (counted with
    str.count, which a multi-line regular expression takes many times longer to do)."""
    headers = text.startswith(_HEADER) + text.count("\n" + _HEADER)
    return headers <= 1 and _WELL_FORMED.fullmatch(text) is not None


def lint(text: str, path: str) -> Diagnostics:
    """Line-level problems Babel's reader would skip or misread; GNU msgfmt rejects them all."""
    return Diagnostics() if _well_formed(text) else lint_lines(text, path)


def lint_lines(text: str, path: str) -> Diagnostics:
    """:func:`lint`, line by line: every problem, with its line and column."""
    found = Diagnostics()
    states: dict[bool, dict[str, object]] = {False: {}, True: {}}  # active, obsolete
    headers = 0
    rows = text.split("\n")
    for number, raw in enumerate(rows, 1):
        line = raw.rstrip()
        body, offset = line, 0
        previous = line.startswith("#|")  # the text an entry had before msgmerge changed it
        if line.startswith(("#~", "#|")):
            body = line[2:].lstrip()
            if body.startswith("|"):  # #~| previous msgid of an obsolete entry
                body = body[1:].lstrip()
                previous = True
            offset = len(line) - len(body)
            if not body:
                continue
        elif not line.strip():
            # A blank line ends an entry that has its msgstr. One that has not is kept: GNU
            # and Babel both read on to the rest of it, and the next keyword tells.
            states = {k: _after_blank(state) for k, state in states.items()}
            continue
        elif line.startswith("#"):
            continue
        stripped = body.lstrip()
        offset += len(body) - len(stripped)
        if stripped.startswith('"'):
            problem = _string_problem(stripped, 0)
        else:
            match = _KEYWORD.match(stripped)
            if match is None:
                word = stripped.split(" ", 1)[0].split('"', 1)[0]
                found.error(
                    "E-PO-UNKNOWN-KEYWORD",
                    Mark(path, number, offset + 1),
                    f"unknown keyword '{word}'",
                    "a line starts with msgctxt, msgid, msgid_plural, msgstr, "
                    "msgstr[N], a quoted string or #",
                )
                continue
            if not previous:
                state = states[line.startswith("#~")]
                if state.pop("ended", False) and _starts_entry(match.group(1), state):
                    _unfinished(state, found)  # an entry without its msgstr
                    state.clear()
                wrong = _structure(match.group(1), state)
                if wrong is not None:
                    state.setdefault("seen", []).append(match.group(1))  # type: ignore[attr-defined]
                    found.error(
                        "E-PO-ENTRY-ORDER",
                        Mark(path, number, offset + 1),
                        wrong,
                        "each entry is [msgctxt] msgid [msgid_plural] and its msgstr "
                        "lines, in this order",
                    )
                    continue
                if match.group(1) == "msgctxt":
                    state["msgctxt"] = Mark(path, number, offset + 1)
            next_line = rows[number] if number < len(rows) else ""
            if (
                match.group(1) == "msgid"
                and stripped[match.end() :].strip() == '""'
                and not line.startswith("#")
                and next_line.startswith("msgstr")  # not a msgid "" that continues below
                and states[False].get("seen") == ["msgid"]  # and no msgctxt
            ):
                headers += 1
                if headers > 1:
                    found.error(
                        "E-PO-DUPLICATE-HEADER",
                        Mark(path, number, offset + 1),
                        'a second header entry (msgid "")',
                        "keep one header, at the top of the file",
                    )
            after = match.end()
            while after < len(stripped) and stripped[after] in " \t":
                after += 1
            problem = _string_problem(stripped, after)
        if problem is not None:
            column, kind, message, hint = problem
            found.error(kind, Mark(path, number, offset + column), message, hint)
    for state in states.values():
        _unfinished(state, found)
    return found


def _after_blank(state: dict[str, object]) -> dict[str, object]:
    """What a blank line leaves of an entry's state: nothing once it has a msgstr; else the
    entry so far, marked as interrupted, for the next keyword to continue or end."""
    seen = state.get("seen")
    if isinstance(seen, list) and seen and not any(k.startswith("msgstr") for k in seen):
        return {**state, "ended": True}
    return {}


def _starts_entry(keyword: str, state: dict[str, object]) -> bool:
    """True when ``keyword``, after a blank line, cannot continue the entry in ``state``."""
    seen = state.get("seen")
    return keyword == "msgctxt" or (keyword == "msgid" and seen != ["msgctxt"])


def _unfinished(state: dict[str, object], found: Diagnostics) -> None:
    """Report an entry that has a msgctxt and nothing else when the file or the next
    msgctxt ends it: Babel drops such a msgctxt without a word, GNU msgfmt calls it a syntax
    error. An entry that ends after its msgid is Babel's "missing msgstr", reported where it
    is read."""
    where = state.get("msgctxt")
    if state.get("seen") == ["msgctxt"] and isinstance(where, Mark):
        found.error(
            "E-PO-CONTEXT-ALONE",
            where,
            "msgctxt without msgid",
            "add this entry's msgid and msgstr lines below it, or delete the line",
        )


class _Denormalized:
    """A string of an entry already taken out of its quoted lines: what Babel's parser
    asks of the lines, once the reader has done it (so that it is not done twice)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def denormalize(self) -> str:
        return self.text


class _Parser(PoFileParser):
    """Babel's parser, remembering where each entry starts so duplicates can be named, and
    keeping what Babel would change: translator comments as whole lines (Babel strips them,
    merges repeats and drops empty ones), and the text of each entry of another tool (see
    :func:`entries.owns`) in a catalog of ``domain``, to be written back as it was."""

    def __init__(
        self,
        catalog: StableCatalog,
        path: str,
        found: Diagnostics,
        domain: str | None = None,
        locale: str | None = None,
        names: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)
        self.stable = catalog
        self.path = path
        self.found = found
        self.domain = domain
        self.names = names  # the registry's code names (entries.code_names)
        # The registry's own msgctxt, where its entries were made (see entries.owned).
        self.owned = owned(domain, names) if domain is not None else frozenset()
        rule = plurals.lookup(locale) if locale else None
        self.forms = rule.count if rule is not None else None  # errorbook's, for the locale
        # The first line of each msgid and msgctxt in the state (active, obsolete) its first
        # entry was not in (see _again): nearly always none.
        self.seen: dict[tuple[bool, str, str | None], int] = {}
        self.obsolete_first: set[tuple[str, str | None]] = set()  # first seen obsolete
        self.lines: dict[tuple[str, str | None], int] = {}
        self.rows: list[str] = []
        self.row: int | None = None  # the line being read (0-based); None after the last
        self.start: int | None = None  # the first line of the entry being read

    def feed(self, text: str) -> Iterator[str]:
        """The lines of ``text`` for :meth:`parse`, noting which one it is reading.

        A line is given without its newline (Babel strips every line it reads), and nothing
        else is done per line: where an entry's text begins and ends is found when the
        entry is added (:meth:`_add_message`), from the rows. The rows are kept rather than an
        io.StringIO of the text, which holds it as four bytes a character: for a large
        catalog that was the largest thing a worker ever held."""
        self.rows = rows = text.split("\n")
        count = len(rows) - 1 if not rows[-1] else len(rows)  # no line after a final "\n"
        self.start = next((number for number in range(count) if rows[number].strip()), None)
        for number in range(count):
            self.row = number
            yield rows[number]
        self.row = None

    def _process_comment(self, line: str) -> None:
        if line[:2] in ("#:", "#,", "#."):
            super()._process_comment(line)
            return
        self._finish_current_message()
        self.user_comments.append(self.rows[self.row] if self.row is not None else line)

    def _process_message_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
        """An obsolete entry's previous msgid (``#~| msgid``, as msgmerge writes it for an
        obsolete fuzzy entry) is a comment line like ``#|``, not a keyword Babel knows."""
        if obsolete and line.startswith("|"):
            self._process_comment("#~" + line)
            return
        super()._process_message_line(lineno, line, obsolete)

    def _add_message(self) -> None:
        """Babel's, with what errorbook keeps of the entry just read: where it is (see
        StableCatalog.raw_entry), its comment lines or the header comment as they were,
        another tool's entry as its text, and a duplicate reported.

        It runs once for every entry of every catalog read, so the common case (an entry of
        errorbook's, read once, without comments) is done here, without a call of its own."""
        messages = self.messages
        msgid = ""
        context = None
        if messages:
            msgid = messages[0].denormalize()
            messages[0] = _Denormalized(msgid)  # Babel's call below reads it as it is
        if self.context:
            context = self.context.denormalize()
            self.context = _Denormalized(context)
        obsolete = bool(self.obsolete)
        comments = self.user_comments  # Babel's Message copies it; the next entry gets a new one
        flags = tuple(map(str.strip, self.flags)) if self.flags else ()  # Babel adds its own
        line = self.offset + 1
        header = not msgid and context is None and not obsolete
        if header and self.translations:
            self._plural_count(self.translations[0][1].denormalize())
        where = (msgid, context)
        again = where in self.lines  # an entry of the same msgctxt and msgid came before
        if again:
            self._again(where, obsolete, line)
        else:
            self.lines[where] = line
            if obsolete:
                self.obsolete_first.add(where)
        foreign = (
            bool(msgid)
            and self.domain is not None
            and context not in self.owned
            and not owns(self.domain, context, self.names)
        )
        forms = 0  # a plural entry's forms, for another tool's entry
        if foreign and len(messages) > 1:
            forms = 1 + max((index for index, _ in self.translations), default=0)
        super()._add_message()
        # The entry's lines: from the line that ended the entry before through the last line
        # before the one that ended this one that is not blank.
        rows = self.rows
        first = self.start if self.start is not None else 0
        last = (len(rows) if self.row is None else self.row) - 1
        while last >= 0 and not rows[last].strip():
            last -= 1
        self.start = self.row  # the line that ended this entry begins the next one
        catalog = self.stable
        key: str | tuple[str, str] = msgid if context is None else (msgid, context)
        catalog.spans[(obsolete, key)] = (first, last, flags)
        if header:
            if comments:
                catalog.header_comment = "\n".join(comments)
            return
        if comments or again:  # Babel's own list is an empty one, or a merge of the two
            added = catalog.obsolete.get(key) if obsolete else catalog._messages.get(key)
            if added is not None:
                added.user_comments = comments
        if foreign:
            catalog.foreign[(obsolete, key)] = "\n".join(rows[first : last + 1])
            self._fits(msgid, forms, line)

    def _plural_count(self, header: str) -> None:
        """Stop at a header whose nplurals is no count of forms (see :class:`_PluralCount`),
        wherever it is in the file and however its lines are split: the header as Babel
        reads it, not the file's first lines."""
        for field in header.split("\n"):
            name, _, value = field.partition(":")
            if name.strip().lower() != "plural-forms":
                continue
            found = _NPLURALS.search(value)
            if found is None:
                continue
            digits = found.group(1)
            forms = plurals.count(digits) if digits.isascii() and digits.isdigit() else None
            if forms is None or not 1 <= forms <= 6:
                raise _PluralCount(digits, self._line_of("nplurals"))

    def extra_form(self) -> int | None:
        """The line (1-based) of the first msgstr[N] of the entry being read whose N the
        header does not allow, where a translator removes it; None if there is none."""
        for number, row in self._entry_rows():
            found = _FORM_LINE.match(row)
            if found is not None and int(found.group(1)) >= self.catalog.num_plurals:
                return number
        return None

    def _line_of(self, word: str) -> int:
        """The line of the entry being read that holds ``word`` (1-based), else its first."""
        found = next((number for number, row in self._entry_rows() if word in row), None)
        return found if found is not None else (self.start or 0) + 1

    def _entry_rows(self) -> Iterator[tuple[int, str]]:
        """The lines of the entry being read, from its first through the one that ended it,
        each with its number (1-based)."""
        first = self.start if self.start is not None else 0
        last = len(self.rows) if self.row is None else self.row + 1
        for number in range(first, min(last, len(self.rows))):
            yield number + 1, self.rows[number]

    def _fits(self, msgid: str, forms: int, line: int) -> None:
        """Report another tool's plural entry with more forms than errorbook's rule for the
        language: errorbook writes its own Plural-Forms into the file it keeps, and the entry,
        written back as it is, would then make the file unreadable."""
        if self.forms is not None and forms > self.forms:
            self.found.error(
                "E-PO-FOREIGN-PLURAL-FORMS",
                Mark(self.path, line, 1),
                f"the entry for msgid {msgid[:40]!r} is another tool's, and it has {forms} "
                f"plural forms where errorbook's Plural-Forms for this language has "
                f"{self.forms}",
                f"keep {self.forms} forms, or move the entry to a catalog errorbook does not keep",
            )

    def _again(self, where: tuple[str, str | None], obsolete: bool, line: int) -> None:
        """Report an entry of a msgctxt and msgid read before, active or obsolete, as a
        duplicate (the header's repeats are Babel's to merge, and not reported)."""
        msgid, context = where
        earliest = self.lines[where]
        # The first line in this entry's state, else the earliest: the first entry's state
        # has the earliest line, the other state's first line is noted below.
        first = earliest
        other_state = (where in self.obsolete_first) != obsolete
        if other_state:
            first = self.seen.get((obsolete, *where)) or earliest
            self.seen.setdefault((obsolete, *where), line)
        if msgid:
            kind = "an obsolete" if obsolete else "an"
            self.found.error(
                "E-PO-DUPLICATE-ENTRY",
                Mark(self.path, line, 1),
                f"{kind} entry for msgctxt {context!r} msgid {msgid[:40]!r} is "
                f"a duplicate (first at line {first})",
                "remove one of the two entries",
            )


def _previous(message: Message) -> None:
    """Move ``#| msgid`` lines (``#~| msgid`` in an obsolete entry), read as translator
    comments, back to previous_id."""
    if not message.user_comments:
        return  # most entries have no comment line at all
    kept: list[str] = []
    previous: dict[str, list[str]] = {}
    current: str | None = None
    for comment in message.user_comments:
        body = comment[2:] if comment.startswith("#~|") else comment
        match = _PREVIOUS.match(body[1:] if body.startswith("#") else body)
        if match is None:
            kept.append(comment)
            current = None
            continue
        keyword, quoted = match.groups()
        if keyword:
            current = keyword
            previous[current] = [quoted]
        elif current is not None:
            previous[current].append(quoted)
        else:
            kept.append(comment)
    if "msgid" in previous:
        ids = [denormalize("\n".join(previous["msgid"]))]
        if "msgid_plural" in previous:
            ids.append(denormalize("\n".join(previous["msgid_plural"])))
        message.previous_id = ids
    message.user_comments = kept


_READ_CACHE: dict[
    tuple[bytes, str, str | None, str | None, frozenset[str]],
    tuple[StableCatalog, dict[tuple[str, str | None], int], Diagnostics],
] = {}
#: How much PO text the cache may hold. A parsed catalog takes several times its file's size,
#: so this bounds the memory the cache keeps to a few dozen MiB; a long `mkdocs serve` or a
#: fuzzing run must not grow without end.
_READ_CACHE_LIMIT = 8 * 1024 * 1024
_read_cache_bytes = 0


def read(
    data: bytes,
    path: str,
    locale: str | None = None,
    domain: str | None = None,
    names: frozenset[str] = frozenset(),
    remember: bool = True,
    linted: bool = False,
) -> tuple[StableCatalog, dict[tuple[str, str | None], int], Diagnostics]:
    """Parse a PO file strictly. Returns the catalog, each entry's line, and the problems.
    ``linted``: these bytes are known to be well formed (see :func:`well_formed`), and the
    line lint is not run again.

    The same bytes are parsed once while they fit in the cache: ``mkdocs serve`` regenerates
    on every edit, and most PO files have not changed. Callers must not change the catalog
    they get back. ``remember=False`` keeps the result out of the cache, for a process that
    will not read the file again (a catalog worker forked for one locale): a catalog takes
    ten times or more the memory of its file, and the cache would hold it to the end."""
    global _read_cache_bytes
    if not remember and not _READ_CACHE:
        return _read(data, path, locale, domain, names, linted)  # no hash to make
    key = (hashlib.sha256(data).digest(), path, locale, domain, names)
    cached = _READ_CACHE.get(key)
    if cached is None:
        cached = _read(data, path, locale, domain, names, linted)
        if remember and len(data) <= _READ_CACHE_LIMIT:
            if _read_cache_bytes + len(data) > _READ_CACHE_LIMIT:
                _READ_CACHE.clear()
                _read_cache_bytes = 0
            _READ_CACHE[key] = cached
            _read_cache_bytes += len(data)
    return cached


def _read(
    data: bytes,
    path: str,
    locale: str | None,
    domain: str | None,
    names: frozenset[str],
    linted: bool = False,
) -> tuple[StableCatalog, dict[tuple[str, str | None], int], Diagnostics]:
    found = Diagnostics()
    catalog = StableCatalog(locale=locale, domain=domain, fuzzy=False)
    if data.startswith(b"\xef\xbb\xbf"):
        found.error(
            "E-PO-BYTE-ORDER-MARK",
            Mark(path, 1, 1),
            "the file starts with a byte-order mark",
            "save it as UTF-8 without BOM",
        )
        return catalog, {}, found
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        found.error(
            "E-FILE-NOT-UTF8",
            Mark(path, line, 1),
            "the file is not valid UTF-8",
            "save it as UTF-8 and set charset=UTF-8 in Content-Type",
        )
        return catalog, {}, found
    if "\r" in text:
        line = text[: text.index("\r")].count("\n") + 1
        found.error(
            "E-PO-CR-LINE-ENDINGS",
            Mark(path, line, 1),
            "the file has CR line endings",
            "save it with Unix (LF) line endings",
        )
        return catalog, {}, found
    # One search per character: a search for one character runs at memchr's speed, a
    # character class at the regular expression engine's, many times slower on a large file.
    if any(character in text for character in _LINE_BREAK_CHARACTERS):
        found.extend(_breaks_in_comments(text, path))
        if found.has_errors:
            return catalog, {}, found
    if not linted:
        found.extend(lint(text, path))
    head = text[: text.find("\n\n")] if "\n\n" in text else text[:4096]
    charset = _CHARSET.search(head)
    if charset is not None and charset.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        found.error(
            "E-PO-CHARSET",
            Mark(path, head.count("\n", 0, charset.start()) + 1, 1),
            f"the header declares charset={charset.group(1)}",
            "save the file as UTF-8 and declare charset=UTF-8",
        )
    if found.has_errors:
        return catalog, {}, found
    parser = _Parser(catalog, path, found, domain, locale, names)
    try:
        parser.parse(parser.feed(text))
        catalog.trailing = list(parser.user_comments)  # comment lines after the last entry
        catalog.rows = parser.rows
    except _PluralCount as exc:
        value = exc.value
        shown = value if len(value) <= 12 else f"{value[:6]}... ({len(value)} characters)"
        found.error(
            "E-PLURAL-NPLURALS",
            Mark(path, exc.line, 1),
            f"nplurals={shown} is not a number of plural forms a language has",
            "use errorbook's Plural-Forms for this language (1 to 6 forms)",
        )
    except PoFileError as exc:
        problem = re.sub(r" on \d+$", "", str(exc))  # Babel appends its own 0-based line
        if "num_plurals" in problem:
            found.error(
                "E-PLURAL-TOO-MANY-FORMS",
                Mark(path, parser.extra_form() or exc.lineno + 1, 1),
                "this entry has more plural forms than the Plural-Forms header allows",
                "check nplurals in the header, or remove the extra msgstr[N] lines",
            )
        else:
            found.error(
                "E-PO-MALFORMED",
                Mark(path, exc.lineno + 1, 1),
                f"malformed PO file: {problem}",
                "fix this line; msgfmt --check shows the same problem",
            )
    except (ValueError, IndexError, TypeError) as exc:
        found.error(
            "E-PO-MALFORMED",
            Mark(path, parser.offset + 1, 1),
            f"malformed PO file: {exc}",
            "fix the entry at this line",
        )
    for message in catalog._messages.values():
        _previous(message)
    for message in catalog.obsolete.values():
        _previous(message)
    return catalog, parser.lines, found


def entry_lines(catalog: StableCatalog, text: str) -> dict[tuple[str, str | None], int]:
    """Each active entry's msgid line in ``text``, the file :func:`write` made of
    ``catalog``, keyed as :func:`read` keys them: the checks of a merged catalog then point at
    the file as written, without reading it again. Only entries with a msgctxt (errorbook's
    own are all such) are found; any other gets line 1."""
    rows = text.split("\n")
    at: dict[str, int] = {}
    number = 0
    while number < len(rows):
        if not rows[number].startswith("msgctxt "):
            number += 1
            continue
        parts = [rows[number][8:]]
        number += 1
        while number < len(rows) and rows[number].startswith('"'):
            parts.append(rows[number])
            number += 1
        if number < len(rows) and rows[number].startswith("msgid "):
            at.setdefault(denormalize("\n".join(parts)), number + 1)
    found: dict[tuple[str, str | None], int] = {}
    for message in catalog:
        if message.id and message.context in at:
            msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            found[(msgid, message.context)] = at[message.context]
    return found


#: "No wrapping". Babel wraps comments at 76 columns whenever width is not positive, and
#: that splits a #| previous msgid in the middle of its string, which no reader accepts.
NO_WRAP = 10**9


class _OneLineWrapper(TextWrapper):
    """Babel's comment wrapper, without the work when the answer is the text itself.

    ``write_po`` passes every comment through ``TextWrapper.wrap``, even at errorbook's
    width of a billion columns; for a comment that fits, holds no whitespace TextWrapper
    would replace and has none at either end, the answer is always ``[text]``, and
    computing it was a fifth of the time of writing a catalog. Everything else takes
    TextWrapper's own way (a test compares the two)."""

    def wrap(self, text: str) -> list[str]:
        if (
            text
            and len(text) <= self.width
            and text == text.strip()
            and not _REPLACED_WHITESPACE.search(text)
        ):
            return [text]
        return super().wrap(text)


_REPLACED_WHITESPACE = re.compile(r"[\t\n\x0b\x0c\r]")


def _obsolete_marks(message: Message) -> list[str]:
    """The flag and previous-msgid lines of an obsolete entry, as msgmerge writes them above
    its ``#~`` lines (Babel's writer leaves both out): a fuzzy entry whose code goes and
    comes back is fuzzy again, against the text its translation was made for."""
    lines = [f"#, {', '.join(sorted(message.flags))}"] if message.flags else []
    for keyword, text in zip(("msgid", "msgid_plural"), message.previous_id, strict=False):
        lines += f"#~| {keyword} {normalize(text, prefix='#~| ', width=NO_WRAP)}".split("\n")
    return lines


def write(catalog: StableCatalog, *, babel: bool = False) -> bytes:
    """The PO (or POT) text of a catalog under errorbook's one wrapping policy.

    What was read as it is (comment lines, another tool's entries, see :class:`_Held`) is
    written as it was: Babel's writer would strip, rewrap or drop it. Where that is every
    entry and the header (a merge that changed nothing), the texts are joined without
    Babel's writer; ``babel=True`` calls it all the same (the tests compare the two)."""
    held = _Held()
    buffer = io.BytesIO()
    setattr(babel_pofile, "TextWrapper", _OneLineWrapper)  # noqa: B010 (not exported)
    try:
        with held.standing_in(catalog):
            # Where every entry and the header are written as read, Babel's writer would
            # write only stand-ins, each on lines of its own between blank lines, and
            # put_back would replace each with its text: the texts are joined instead.
            joined = held.whole and not babel
            if not joined:
                write_po(
                    buffer,
                    catalog,
                    width=NO_WRAP,
                    no_location=True,
                    include_previous=True,
                    include_lineno=False,
                )
    finally:
        setattr(babel_pofile, "TextWrapper", TextWrapper)  # noqa: B010
    text = held.joined() if joined else held.put_back(buffer.getvalue().rstrip(b"\n") + b"\n")
    if catalog.trailing:
        text += b"\n" + "\n".join(catalog.trailing).encode("utf-8") + b"\n"
    return text


#: What Babel wrote for a held line (``\x00`` at the end) or for the first line of a held
#: entry (``\x01``: the entry's other lines follow, up to the blank line that ends it). The
#: search starts at a NUL, which is rare in a PO file, so it skips the rest quickly.
_STAND_IN = re.compile(rb"\x00([0-9a-f]{32}):([0-9]+)([\x00\x01])\n")


class _StandIn:
    """What Babel's writer gets in place of an entry written back whole, as it was read: the
    stand-in comment line, then the shortest entry Babel writes, which ``put_back`` drops
    with the rest of the entry. Formatting the entry's own strings there would be work
    thrown away, and most of the time of writing a catalog a merge barely changed."""

    __slots__ = ("user_comments",)
    id = "_"
    string = ""
    context = None
    flags: frozenset[str] = frozenset()
    auto_comments: tuple[str, ...] = ()
    locations: tuple[tuple[str, int], ...] = ()
    previous_id: tuple[str, ...] = ()

    def __init__(self, line: str) -> None:
        self.user_comments = [line]


class _Held:
    """Text written exactly as it was read, past Babel's writer.

    Each held text is replaced, for the time of writing, by a comment Babel writes as it is:
    a NUL, a random key of this write, its number, and a NUL (a line) or a SOH (a whole
    entry). Nothing a file holds can pass for one, as nobody can know the key."""

    def __init__(self) -> None:
        #: Each held text, or the first and last of the lines of ``rows`` that make it: an
        #: entry of the file read is joined from its lines only where it is written.
        self.texts: list[bytes | tuple[int, int]] = []
        self.rows: list[str] = []
        self.key = secrets.token_hex(16)
        #: Set by standing_in: the header and every entry stand in whole, in the order
        #: Babel's writer writes them (the header, the entries, the obsolete entries).
        self.whole = False
        #: The last line of ``rows`` up to which the held texts are the file's lines as
        #: they are, one blank line apart (None: they are not).
        self.through: int | None = None

    def hold(self, text: str, whole: bool = False) -> str:
        self.texts.append(text.encode("utf-8"))
        return self._stand_in_for(whole)

    def _stand_in_for(self, whole: bool, number: int | None = None) -> str:
        number = len(self.texts) - 1 if number is None else number
        return f"\x00{self.key}:{number}" + ("\x01" if whole else "\x00")

    def text(self, number: int) -> bytes:
        held = self.texts[number]
        if isinstance(held, bytes):
            return held
        first, last = held
        return "\n".join(self.rows[first : last + 1]).encode("utf-8")

    def joined(self) -> bytes:
        """Every held text, one blank line apart, as the whole file (see ``whole``): the
        file's own lines in one piece where they are the same."""
        if self.through is not None:
            return "\n".join(self.rows[: self.through + 1]).encode("utf-8") + b"\n"
        return b"\n\n".join(self.text(i) for i in range(len(self.texts))) + b"\n"

    @contextlib.contextmanager
    def standing_in(self, catalog: StableCatalog) -> Iterator[None]:
        """Stand-ins in ``catalog`` while the block runs; the catalog is put back after."""
        header = catalog._header_comment
        origin = catalog.origin
        swapped: list[tuple[dict[object, Message], object, Message]] = []
        held: list[tuple[dict[object, Message], object, Message, int]] = []
        commented: list[tuple[Message, list[str]]] = []
        written = 0  # the entries Babel would write, held whole or not
        try:
            kept = origin.raw_header(catalog) if origin is not None else None
            # Whether the texts held so far are the file's lines from its first, one blank
            # line apart: the line after the last of them (None once they are not).
            follows: int | None = None
            if origin is not None and kept is not None:  # the header as the file had it
                catalog.header_comment = "#" + self.hold(kept, whole=True)
                follows = kept.count("\n") + 1
                self.rows = origin.rows
            else:
                lines = catalog.header_comment.split("\n")
                catalog.header_comment = "\n".join("#" + self.hold(line) for line in lines)
            for obsolete, messages in ((False, catalog._messages), (True, catalog.obsolete)):
                table: dict[object, Message] = messages  # type: ignore[assignment]
                for key, message in table.items():
                    written += 1
                    if not message.id:
                        continue
                    raw = catalog.foreign.get((obsolete, key)) if catalog.foreign else None
                    span = None
                    if raw is None and origin is not None and self.rows is origin.rows:
                        span = origin.raw_lines(message, obsolete, key)
                    elif raw is None and origin is not None:
                        raw = origin.raw_entry(message, obsolete, key)
                    if raw is not None or span is not None:
                        # Its stand-in goes in below, where Babel's writer is to run.
                        held.append((table, key, message, len(self.texts)))
                        if span is None:
                            follows = None
                            self.texts.append(str(raw).encode("utf-8"))
                        else:
                            if follows is not None and (
                                span[0] != follows + 1 or self.rows[follows] != ""
                            ):
                                follows = None
                            if follows is not None:
                                follows = span[1] + 1
                            self.texts.append(span)
                        continue
                    follows = None
                    marks = _obsolete_marks(message) if obsolete else []
                    if message.user_comments or marks:
                        commented.append((message, message.user_comments))
                        message.user_comments = self._stand_ins(message.user_comments)
                        message.user_comments += [self.hold(line) for line in marks]
            self.whole = kept is not None and len(held) == written
            self.through = follows - 1 if self.whole and follows is not None else None
            if not self.whole:
                for table, key, message, number in held:
                    swapped.append((table, key, message))
                    table[key] = _StandIn(self._stand_in_for(True, number))  # type: ignore[assignment]
            yield
        finally:
            catalog.header_comment = header
            for table, key, message in swapped:
                table[key] = message
            for message, comments in commented:
                message.user_comments = comments

    def _stand_ins(self, comments: list[str]) -> list[str]:
        """One stand-in per comment line read as it is (a comment that is no whole line, from
        a catalog not read by :func:`read`, is Babel's to write)."""
        return [self.hold(line) if line.startswith("#") else line for line in comments]

    def put_back(self, data: bytes) -> bytes:
        """``data`` with each stand-in's line (or entry) replaced by the text it holds."""
        parts: list[bytes] = []
        done = 0
        key = self.key.encode("ascii")
        for found in _STAND_IN.finditer(data):
            if found.group(1) != key:
                continue
            start = data.rfind(b"\n", 0, found.start()) + 1  # the stand-in's line
            end = found.end()
            if found.group(3) == b"\x01":  # the entry goes on to the next blank line
                blank = data.find(b"\n\n", end - 1)
                end = len(data) if blank < 0 else blank + 1
            parts += [data[done:start], self.text(int(found.group(2))), b"\n"]
            done = end
        parts.append(data[done:])
        return b"".join(parts)
