"""Reading and writing PO files, through Babel's public reader and errorbook's own writer.

- Reading is strict: a malformed line is a diagnostic with file and line, not a warning
  printed and skipped. Babel's reader makes the catalog; errorbook's scan of the same lines
  (:func:`_scan`) finds each entry where Babel's reader does and keeps what Babel's catalog
  does not: the entry's lines, its comment lines as written, its flags as written.
  Duplicate entries, active or obsolete, are reported (Babel keeps the last one silently).
  ``#|`` previous-msgid lines, which Babel reads as translator comments, are turned back
  into the message's previous id.
- Writing has one policy: no wrapping, no source references, previous msgids kept, one
  newline at the end. An entry or header a merge leaves as it was read is copied from the
  file's lines (StableCatalog.raw_entry), so a file saved by msgmerge, polib, Poedit or
  Weblate keeps its wrapping and header order; any other entry is written as Babel's writer
  writes it (a test compares the two), with its comment lines as read.
- A translator's comment lines (repeated, empty, without a space after ``#``) and the
  header comment are data: they are read and written back byte for byte, and so is every
  entry of another tool that shares the file (see :func:`entries.owns`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from babel.messages.catalog import Message
from babel.messages.pofile import PoFileError, PoFileParser, denormalize, normalize, unescape
from babel.util import TextWrapper

from .. import plurals
from ..diagnostics import Diagnostics, Mark
from .catalog import StableCatalog, entry_at, entry_key, messages
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


class _Entry:
    """One entry of a PO file as errorbook's scan finds it, where Babel's reader finds it
    (the same lines end one entry and start the next): what Babel's catalog does not keep."""

    __slots__ = ("comments", "context", "first", "flags", "forms", "last", "line", "obsolete")

    def __init__(self, first: int, line: int) -> None:
        self.first = first  # its first line (0-based): the one that ended the entry before
        self.last = first  # its last line that is not blank
        self.line = line  # its msgid line (0-based), which Babel's Message has as lineno - 1
        self.obsolete = False
        self.flags: tuple[str, ...] = ()  # as written: Babel's Message adds format flags
        self.comments: list[str] = []  # its translator comment lines, whole, as written
        self.forms = 0  # 1 + the highest N of its msgstr[N] lines
        self.context = False  # whether it has a msgctxt


def _scan(rows: list[str]) -> tuple[list[_Entry], list[str]]:
    """The entries of a file's lines, and the comment lines after the last one, found the way
    Babel's reader steps through the lines: a comment line or a msgctxt or msgid keyword
    ends the entry being read, a blank line does nothing. A ``#~|`` line (an obsolete
    entry's previous msgid) is a comment line, as ``#|`` is. A file with comments and no
    entry is one entry, the header Babel makes of them."""
    entries: list[_Entry] = []
    count = len(rows) - 1 if not rows[-1] else len(rows)  # no line after a final "\n"
    start = next((number for number in range(count) if rows[number].strip()), 0)
    entry = _Entry(start, 0)
    flags: list[str] = []
    started = False  # whether the entry being read has its msgid (or msgid_plural)

    def finish(number: int | None) -> None:
        """End the entry being read, which has its msgid, at line ``number``."""
        nonlocal entry, flags, started
        last = (len(rows) if number is None else number) - 1
        while last >= 0 and not rows[last].strip():
            last -= 1
        entry.last = last
        entry.flags = tuple(flags)
        entries.append(entry)
        # Babel's reader keeps the msgid line until the next msgid.
        entry = _Entry(number if number is not None else len(rows), entry.line)
        flags = []
        started = False

    noted = False  # whether an extracted comment (#.) came before any entry
    for number in range(count):
        line = rows[number].strip()
        if not line:
            continue
        obsolete = line[:2] == "#~"
        body = line[2:].lstrip() if obsolete else line
        if (not obsolete and line[0] == "#") or body[:1] == "|":
            if started:
                finish(number)
            prefix = line[:2]
            if prefix == "#,":
                flags.extend(flag.strip() for flag in line[2:].lstrip().split(","))
            elif prefix == "#.":
                noted = noted or bool(line[2:].strip())
            elif prefix != "#:":
                entry.comments.append(rows[number])
            continue
        if not body or body[0] == '"':
            continue
        keyword = body.partition(" ")[0]
        if started and keyword in ("msgid", "msgctxt"):
            finish(number)
        entry.obsolete = obsolete
        if keyword == "msgid":
            entry.line = number
        if keyword in ("msgid", "msgid_plural"):
            started = True
        elif keyword == "msgctxt":
            entry.context = True
        elif keyword.startswith("msgstr[") and keyword[7:-1].isdigit():
            entry.forms = max(entry.forms, int(keyword[7:-1]) + 1)
    if started:
        finish(None)
    if entries or not (entry.comments or flags or noted):
        return entries, entry.comments
    # Comments and no entry: Babel's reader makes them the header's.
    last = count - 1
    while last >= 0 and not rows[last].strip():
        last -= 1
    entry.last, entry.flags = last, tuple(flags)
    return [entry], []


def _strings(rows: list[str], entry: _Entry) -> dict[str, str]:
    """An entry's msgctxt, msgid and first msgstr, read from its lines as Babel reads them
    (for the few entries Babel's catalog does not show: a header, a duplicate)."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for row in rows[entry.first : entry.last + 1]:
        line = row.strip()
        if line[:2] == "#~":
            line = line[2:].lstrip()
        if not line or line[0] == "#":
            continue
        if line[0] == '"':
            if current is not None:
                current.append(line)
            continue
        keyword, _, text = line.partition(" ")
        keyword = "msgstr" if keyword == "msgstr[0]" else keyword
        current = None if keyword in found else found.setdefault(keyword, [text.strip()])
    return {
        keyword: "".join(map(unescape, pieces)) if pieces != ['""'] else ""
        for keyword, pieces in found.items()
    }


def _plural_count(rows: list[str], entry: _Entry, header: str) -> None:
    """Stop at a header whose nplurals is no count of forms (see :class:`_PluralCount`),
    however its lines are split: the header as Babel reads it, not the file's first lines."""
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
            line = next(
                (n + 1 for n in range(entry.first, entry.last + 1) if "nplurals" in rows[n]),
                entry.first + 1,
            )
            raise _PluralCount(digits, line)


def _extra_form(rows: list[str], entry: _Entry | None, forms: int) -> int | None:
    """The line (1-based) of the first msgstr[N] of ``entry`` whose N the header does not
    allow, where a translator removes it; None if there is none."""
    if entry is None:
        return None
    for number in range(entry.first, entry.last + 1):
        found = _FORM_LINE.match(rows[number].strip())
        if found is not None and int(found.group(1)) >= forms:
            return number + 1
    return None


class _Reading:
    """What errorbook adds to the catalog Babel's reader made of a file, entry by entry in
    the file's order: where each entry is (see StableCatalog.raw_entry), its comment lines
    or the header comment as they were, another tool's entry as its text, and each
    duplicate and each plural entry of another tool that errorbook's rule would break
    reported."""

    def __init__(
        self,
        catalog: StableCatalog,
        rows: list[str],
        path: str,
        found: Diagnostics,
        domain: str | None,
        locale: str | None,
        names: frozenset[str],
    ) -> None:
        self.catalog = catalog
        self.rows = rows
        self.path = path
        self.found = found
        self.domain = domain
        self.names = names  # the registry's code names (entries.code_names)
        # The registry's own msgctxt, where its entries were made (see entries.owned).
        self.owned = owned(domain, names) if domain is not None else frozenset()
        rule = plurals.lookup(locale) if locale else None
        self.forms = rule.count if rule is not None else None  # errorbook's, for the locale
        # The first line of each msgid and msgctxt in the state (active, obsolete) its first
        # entry was not in (see again): nearly always none.
        self.seen: dict[tuple[bool, str, str | None], int] = {}
        self.obsolete_first: set[tuple[str, str | None]] = set()  # first seen obsolete
        self.lines: dict[tuple[str, str | None], int] = {}

    def add(self, entry: _Entry, message: Message | None) -> None:
        """Note ``entry``, which Babel read as ``message`` (None: Babel merged it into an
        entry read before, or it is a header)."""
        catalog = self.catalog
        if message is None:
            strings = _strings(self.rows, entry)
            msgid = strings.get("msgid", "")
            context = strings.get("msgctxt")
        else:
            msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            context = message.context
        obsolete = entry.obsolete
        line = entry.line + 1
        where = (msgid, context)
        again = where in self.lines  # an entry of the same msgctxt and msgid came before
        if again:
            self.again(where, obsolete, line)
        else:
            self.lines[where] = line
            if obsolete:
                self.obsolete_first.add(where)
        key = entry_key(msgid, context)
        catalog.spans[(obsolete, key)] = (entry.first, entry.last, entry.flags)
        if not msgid and context is None and not obsolete:  # the header
            if entry.comments:
                catalog.header_comment = "\n".join(entry.comments)
            return
        if entry.comments or again:  # Babel's own list is an empty one, or a merge of two
            added = message if message is not None else entry_at(catalog, (obsolete, key))
            if added is not None:
                added.user_comments = entry.comments
        if (
            msgid
            and self.domain is not None
            and context not in self.owned
            and not owns(self.domain, context, self.names)
        ):
            rows = self.rows[entry.first : entry.last + 1]
            catalog.foreign[(obsolete, key)] = "\n".join(rows)
            self.fits(msgid, entry.forms, line)

    def fits(self, msgid: str, forms: int, line: int) -> None:
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

    def again(self, where: tuple[str, str | None], obsolete: bool, line: int) -> None:
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


def _header_text(rows: list[str], entry: _Entry) -> str | None:
    """The text of ``entry``'s msgstr when it is a header entry (msgid "", no msgctxt)."""
    if (
        entry.obsolete
        or entry.context
        or rows[entry.line].strip().partition(" ")[2].strip() != '""'
    ):
        return None
    strings = _strings(rows, entry)
    return strings.get("msgstr", "") if strings.get("msgid") == "" else None


def _parse(catalog: StableCatalog, rows: list[str]) -> None:
    """Read ``rows`` into ``catalog`` with Babel's reader (what read_po does, into a catalog
    of errorbook's). A ``#~|`` line (an obsolete entry's previous msgid), which it would
    take for a keyword it does not know, is given as an empty comment line, which ends an
    entry as it does; errorbook's scan keeps the line itself."""
    lines = rows
    if any("#~" in row for row in rows):
        lines = [
            "#" if row.lstrip()[:2] == "#~" and row.lstrip()[2:].lstrip()[:1] == "|" else row
            for row in rows
        ]
    PoFileParser(catalog, ignore_obsolete=False, abort_invalid=True).parse(lines)


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
    rows = text.split("\n")
    entries, trailing = _scan(rows)
    reading = _Reading(catalog, rows, path, found, domain, locale, names)
    read = entries  # the entries Babel's reader reads before it stops, if it does
    try:
        for index, entry in enumerate(entries):
            header = _header_text(rows, entry)
            if header is None:
                continue
            try:
                _plural_count(rows, entry, header)
            except _PluralCount:
                read = entries[:index]  # Babel's reader stops at this header, or before it
                _parse(catalog, rows[: entry.first])
                raise
        _parse(catalog, rows)
        catalog.trailing = trailing
        catalog.rows = rows
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
        read = [entry for entry in read if entry.line < exc.lineno]
        at = next((entry for entry in entries if entry.line == exc.lineno), None)
        problem = re.sub(r" on \d+$", "", str(exc))  # Babel appends its own 0-based line
        if "num_plurals" in problem:
            found.error(
                "E-PLURAL-TOO-MANY-FORMS",
                Mark(path, _extra_form(rows, at, catalog.num_plurals) or exc.lineno + 1, 1),
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
        # Babel's catalog refuses a field of the header it was adding (a date, a language).
        found.error(
            "E-PO-MALFORMED",
            Mark(path, catalog.header_line or 1, 1),
            f"malformed PO file: {exc}",
            "fix the entry at this line",
        )
        read = [entry for entry in read if entry.line + 1 < (catalog.header_line or 1)]
    by_line: dict[int | None, Message] = {}
    for message in messages(catalog):
        by_line[message.lineno] = message
    for message in catalog.obsolete.values():
        by_line[message.lineno] = message
    for entry in read:
        reading.add(entry, by_line.get(entry.line + 1))
    for message in messages(catalog):
        _previous(message)
    for message in catalog.obsolete.values():
        _previous(message)
    return catalog, reading.lines, found


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

    Babel's writer passes every comment through ``TextWrapper.wrap``, even at errorbook's
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
#: Comments as Babel's writer wraps them at errorbook's width.
_WRAPPER = _OneLineWrapper(width=NO_WRAP, break_long_words=False)


def _comment(text: str, prefix: str = "") -> list[str]:
    """A comment as Babel's writer writes it: ``#``, its kind (``.``, ``|``), a space."""
    return [f"#{prefix} {line.strip()}" for line in _WRAPPER.wrap(text)]


def _obsolete_marks(message: Message) -> list[str]:
    """The flag and previous-msgid lines of an obsolete entry, as msgmerge writes them above
    its ``#~`` lines (Babel's writer leaves both out): a fuzzy entry whose code goes and
    comes back is fuzzy again, against the text its translation was made for."""
    lines = [f"#, {', '.join(sorted(message.flags))}"] if message.flags else []
    for keyword, text in zip(("msgid", "msgid_plural"), message.previous_id, strict=False):
        lines += f"#~| {keyword} {normalize(text, prefix='#~| ', width=NO_WRAP)}".split("\n")
    return lines


def _text(message: Message, forms: int, prefix: str = "") -> list[str]:
    """An entry's msgctxt, msgid and msgstr lines as Babel's writer writes them, unwrapped."""

    def quoted(text: str) -> str:
        return normalize(text, prefix=prefix, width=NO_WRAP)

    lines = [f"{prefix}msgctxt {quoted(message.context)}"] if message.context else []
    if isinstance(message.id, (list, tuple)):
        lines.append(f"{prefix}msgid {quoted(message.id[0])}")
        lines.append(f"{prefix}msgid_plural {quoted(message.id[1])}")
        for index in range(forms):
            try:
                string = message.string[index]  # type: ignore[index]
            except IndexError:
                string = ""
            lines.append(f"{prefix}msgstr[{index:d}] {quoted(string)}")
    else:
        lines.append(f"{prefix}msgid {quoted(message.id)}")
        lines.append(f"{prefix}msgstr {quoted(message.string or '')}")  # type: ignore[arg-type]
    return lines


def _comments(message: Message) -> list[str]:
    """An entry's translator comments: a whole comment line (as read) as it is, any other
    comment as Babel's writer writes one."""
    lines: list[str] = []
    for comment in message.user_comments:
        if comment.startswith("#") and message.id:
            lines.append(comment)
        else:
            lines += _comment(comment)
    return lines


def _active(message: Message, forms: int) -> str:
    """An entry errorbook writes itself, as Babel's writer would under errorbook's policy
    (no locations, previous msgids kept), with comment lines as read kept as they are."""
    lines = _comments(message)
    for comment in message.auto_comments:
        lines += _comment(comment, ".")
    if message.flags:
        lines.append("#" + ", ".join(["", *sorted(message.flags)]))
    if message.previous_id:
        lines += _comment(f"msgid {normalize(message.previous_id[0], width=NO_WRAP)}", "|")
        if len(message.previous_id) > 1:
            plural = normalize(message.previous_id[1], width=NO_WRAP)
            lines += _comment(f"msgid_plural {plural}", "|")
    return "\n".join(lines + _text(message, forms))


def _obsolete(message: Message, forms: int) -> str:
    """An obsolete entry: its comments, flags and previous msgid, and its ``#~`` lines."""
    marks = _obsolete_marks(message) if message.id else []
    return "\n".join(_comments(message) + marks + _text(message, forms, "#~ "))


def _header(catalog: StableCatalog) -> str:
    """The header entry: the header comment's lines as they are, and the fields."""
    fields = "\n".join(f"{name}: {value}" for name, value in catalog.mime_headers)
    lines = catalog.header_comment.split("\n")
    if catalog.fuzzy:
        lines.append("#, fuzzy")
    return "\n".join([*lines, 'msgid ""', f"msgstr {normalize(fields, width=NO_WRAP)}"])


def write(catalog: StableCatalog) -> bytes:
    """The PO (or POT) text of a catalog under errorbook's one writing policy.

    What a merge leaves as it was read (the header, an entry, another tool's entry) is
    written as the file had it, its lines copied; the rest is written the way Babel's
    writer writes it, comment lines as read kept as they are. Entries are one blank line
    apart, and runs of entries that were so in the file are copied in one piece."""
    origin = catalog.origin
    rows = origin.rows if origin is not None else []
    forms = catalog.num_plurals
    pieces: list[str | tuple[int, int]] = []
    kept = origin.raw_header(catalog) if origin is not None else None
    if origin is not None and kept is not None:
        pieces.append((0, kept.count("\n")))
    else:
        pieces.append(_header(catalog))
    for obsolete, table in ((False, _keyed(catalog)), (True, catalog.obsolete.items())):
        for key, message in table:
            raw = catalog.foreign.get((obsolete, key)) if catalog.foreign else None
            span = None
            if raw is None and origin is not None:
                span = origin.raw_lines(message, obsolete, key)
            if not message.id:  # an obsolete header: never copied as read
                pieces.append(_obsolete(message, forms))
            elif raw is not None:
                pieces.append(raw)
            elif span is not None:
                pieces.append(span)
            else:
                pieces.append(_obsolete(message, forms) if obsolete else _active(message, forms))
    text = "\n\n".join(_joined(pieces, rows)) + "\n"
    if catalog.trailing:
        text += "\n" + "\n".join(catalog.trailing) + "\n"
    return text.encode("utf-8", "backslashreplace")


def _keyed(catalog: StableCatalog) -> Iterator[tuple[object, Message]]:
    for message in messages(catalog):
        yield entry_key(message.id, message.context), message


def _joined(pieces: list[str | tuple[int, int]], rows: list[str]) -> Iterator[str]:
    """Each piece's text: a span of the file's lines, joined with the spans that follow it
    in the file one blank line apart (for a merge that changed nothing, the whole file)."""
    run: list[int] | None = None
    for piece in pieces:
        if isinstance(piece, tuple):
            first, last = piece
            if run is not None and first == run[1] + 2 and rows[run[1] + 1] == "":
                run[1] = last
                continue
            if run is not None:
                yield "\n".join(rows[run[0] : run[1] + 1])
            run = [first, last]
            continue
        if run is not None:
            yield "\n".join(rows[run[0] : run[1] + 1])
            run = None
        yield piece
    if run is not None:
        yield "\n".join(rows[run[0] : run[1] + 1])
