"""Reading and writing PO files: Babel's reader and writer, made strict and stable.

- Reading is strict: a malformed line is a diagnostic with file and line, not a warning
  printed and skipped. Duplicate entries, active or obsolete, are reported (Babel keeps the
  last one silently). ``#|`` previous-msgid lines, which Babel reads as translator comments,
  are turned back into the message's previous id.
- Writing uses one policy: no wrapping, no source references, previous msgids kept, one
  newline at the end, so a file that went through ``msgmerge --no-wrap`` or Weblate with
  wrapping off comes back unchanged.
"""

from __future__ import annotations

import io
import re

from babel.messages.catalog import Message
from babel.messages.pofile import PoFileError, PoFileParser, denormalize, write_po

from .catalog import StableCatalog
from .diagnostics import Diagnostics, Mark

_PREVIOUS = re.compile(r'\|\s*(msgctxt|msgid|msgid_plural)?\s*(".*")\s*\Z')


class _Parser(PoFileParser):
    """Babel's parser, remembering where each entry starts so duplicates can be named."""

    def __init__(self, catalog: StableCatalog, path: str, found: Diagnostics) -> None:
        super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)
        self.path = path
        self.found = found
        self.seen: dict[tuple[bool, str | None, str], int] = {}
        self.lines: dict[tuple[str, str | None], int] = {}

    def _add_message(self) -> None:
        msgid = self.messages[0].denormalize() if self.messages else ""
        context = self.context.denormalize() if self.context else None
        key = (bool(self.obsolete), context, msgid)
        line = self.offset + 1
        first = self.seen.get(key) or self.seen.get((not self.obsolete, context, msgid))
        if msgid and first is not None:
            where = "an obsolete" if self.obsolete else "an"
            self.found.error(
                Mark(self.path, line, 1),
                f"{where} entry for msgctxt {context!r} msgid {msgid[:40]!r} is "
                f"a duplicate (first at line {first})",
                "remove one of the two entries",
            )
        self.seen.setdefault(key, line)
        self.lines.setdefault((msgid, context), line)
        super()._add_message()


def _previous(message: Message) -> None:
    """Move ``#| msgid`` lines, read as translator comments, back to previous_id."""
    kept: list[str] = []
    previous: dict[str, list[str]] = {}
    current: str | None = None
    for comment in message.user_comments:
        match = _PREVIOUS.match(comment)
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


def read(
    data: bytes, path: str, locale: str | None = None, domain: str | None = None
) -> tuple[StableCatalog, dict[tuple[str, str | None], int], Diagnostics]:
    """Parse a PO file strictly. Returns the catalog, each entry's line, and the problems."""
    found = Diagnostics()
    catalog = StableCatalog(locale=locale, domain=domain, fuzzy=False)
    if data.startswith(b"\xef\xbb\xbf"):
        found.error(
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
            Mark(path, line, 1),
            "the file is not valid UTF-8",
            "save it as UTF-8 and set charset=UTF-8 in Content-Type",
        )
        return catalog, {}, found
    if "\r" in text:
        line = text[: text.index("\r")].count("\n") + 1
        found.error(
            Mark(path, line, 1),
            "the file has CR line endings",
            "save it with Unix (LF) line endings",
        )
        return catalog, {}, found
    parser = _Parser(catalog, path, found)
    try:
        parser.parse(io.StringIO(text))
    except PoFileError as exc:
        found.error(
            Mark(path, exc.lineno + 1, 1),
            f"malformed PO file: {exc}",
            "fix this line; msgfmt --check shows the same problem",
        )
    except (ValueError, IndexError, TypeError) as exc:
        found.error(
            Mark(path, parser.offset + 1, 1),
            f"malformed PO file: {exc}",
            "fix the entry at this line",
        )
    for message in catalog:
        _previous(message)
    for message in catalog.obsolete.values():
        _previous(message)
    return catalog, parser.lines, found


def write(catalog: StableCatalog) -> bytes:
    """The PO (or POT) text of a catalog under errorbook's one wrapping policy."""
    buffer = io.BytesIO()
    write_po(
        buffer, catalog, width=0, no_location=True, include_previous=True, include_lineno=False
    )
    return buffer.getvalue().rstrip(b"\n") + b"\n"
