"""Catalogs: the registry's entries as Babel catalogs, merged with translators' work.

Babel's :class:`~babel.messages.catalog.Catalog` is the data model. errorbook adds what a
generated, committed catalog needs: a header with no clock in it (no creation date, no Babel
version) that keeps fields other tools add, and a merge keyed by msgctxt, which here is the
code. Because the key is the code, a reworded message is found in one look-up and keeps its
translation as fuzzy; no similarity search can hand one code's translation to another.
"""

from __future__ import annotations

import copy
import datetime
import email.message  # (see below)
import email.parser  # noqa: F401  (see below)
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from email import message_from_string
from itertools import groupby
from typing import NamedTuple, cast

from babel.messages.catalog import DEFAULT_HEADER, Catalog, Message
from babel.messages.mofile import write_mo

from .. import plurals
from ..names import one_line
from ..registry import placeholders
from ..registry.model import Registry
from .entries import Entry, code_names, contexts, entries, owned, owns

# Reading a header imports email.parser and email.message (for email.message_from_string)
# on first use. Imported here, they are imported once, in the parent, rather than again in
# each worker it forks (and see _date below).

#: Header fields Babel computes itself; any other field a tool wrote is kept as it was.
_BABEL_FIELDS = {
    "project-id-version",
    "report-msgid-bugs-to",
    "pot-creation-date",
    "po-revision-date",
    "last-translator",
    "language",
    "language-team",
    "plural-forms",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "generated-by",
}


#: Where an entry is: (True for an obsolete one, the catalog's key for it).
Place = tuple[bool, object]

#: What errorbook writes in the header of a PO file it starts, where Babel would write its
#: placeholders (``YEAR-MO-DA HO:MI+ZONE``, ``FULL NAME <EMAIL@ADDRESS>``), which
#: ``msgfmt --check`` warns about: no clock (output is deterministic), and words that say
#: nobody has revised the file yet. A translator's tool replaces both on its first save; a
#: file that still has Babel's placeholders gets these at the next merge.
UNREVISED_DATE = "1970-01-01 00:00+0000"
NO_TRANSLATOR = "none yet"
_PLACEHOLDERS = {"po-revision-date": "YEAR-MO-DA", "last-translator": "FULL NAME"}


def entry_key(
    msgid: str | tuple[str, ...] | list[str], context: str | None = None
) -> str | tuple[str, str]:
    """An entry's key in a catalog's tables (its ``obsolete`` too), as Babel's Catalog makes
    it: the singular msgid, with the msgctxt when there is one."""
    singular = msgid[0] if isinstance(msgid, (list, tuple)) else msgid
    return singular if context is None else (singular, context)


def entry_at(catalog: Catalog, place: Place) -> Message | None:
    """The message at ``place`` in ``catalog``, through Catalog's own look-up."""
    obsolete, found = place
    if obsolete:
        return catalog.obsolete.get(found)  # type: ignore[call-overload, no-any-return]
    if isinstance(found, tuple):
        return catalog.get(found[0], found[1])
    return catalog.get(cast(str, found))


def messages(catalog: Catalog) -> Iterator[Message]:
    """The catalog's entries in their order, without the header Catalog yields first."""
    found = iter(catalog)
    next(found)
    return found


#: Babel's Catalog properties that StableCatalog's own wrap.
_HEADER_COMMENT = cast(property, vars(Catalog)["header_comment"])
_MIME_HEADERS = cast(property, vars(Catalog)["mime_headers"])


class StableCatalog(Catalog):
    """A Babel catalog whose header is the same on every run and keeps unknown fields.

    What Babel would change is kept as read (see :mod:`generator.catalogs.pofile`): translator
    comments (``#`` lines) are whole lines in ``user_comments``, the header comment is its
    lines, ``trailing`` holds comment lines after the last entry, and ``foreign`` names the
    entries errorbook does not own (another tool's, sharing the file) with their text, so
    that each is written back as it was."""

    def __init__(
        self, *args: object, header_comment: str | None = DEFAULT_HEADER, **kwargs: object
    ) -> None:
        self.extra_headers: list[tuple[str, str]] = []
        self.creation_date_text: str | None = None  # as read; never the clock
        self.plural_forms_text: str | None = None  # the Plural-Forms header as read
        self.foreign: dict[Place, str | None] = {}  # other tools' entries: their text, if read
        self.trailing: list[str] = []  # comment lines after the last entry, as read
        # A catalog read from a file (pofile.read): the file's lines, each entry's first and
        # last line with its flags as written, and the header's fields in the file's order.
        self.rows: list[str] = []
        self.spans: dict[Place, tuple[int, int, tuple[str, ...]]] = {}
        self.read_headers: list[tuple[str, str]] | None = None
        # A merged catalog: the catalog read from the file it replaces, whose text is written
        # back wherever the merge left an entry or the header as it was (see raw_entry).
        self.origin: StableCatalog | None = None
        self.comment_as_set = header_comment  # the header comment, as set (see below)
        self.header_line: int | None = None
        super().__init__(*args, header_comment=header_comment, **kwargs)  # type: ignore[arg-type, misc]

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        if id == "":  # the line of a header being read, should its fields be refused
            self.header_line = message.lineno
        super().__setitem__(id, message)
        if id == "":  # the header, as a reader adds it: note its fields in their order
            fields = message_from_string(str(message.string)).items()
            self.read_headers = [(str(k), str(v).strip()) for k, v in fields]

    def raw_entry(self, message: Message, obsolete: bool = False, key: object = None) -> str | None:
        """This file's text of ``message``'s entry when the entry read from it is the same in
        everything errorbook writes, else None. Writing it back as it was keeps how the
        translator's tool wrapped and ordered it: a merge changes only what it must.
        ``key`` is the message's key in its catalog, when the caller has it."""
        lines = self.raw_lines(message, obsolete, key)
        return None if lines is None else "\n".join(self.rows[lines[0] : lines[1] + 1])

    def raw_lines(
        self, message: Message, obsolete: bool = False, key: object = None
    ) -> tuple[int, int] | None:
        """The first and last line (0-based, in ``rows``) of the text :meth:`raw_entry`
        gives, or None where it gives None."""
        place = self.place(message, obsolete) if key is None else (obsolete, key)
        span = self.spans.get(place)
        if span is None:
            return None
        old = entry_at(self, place)
        if old is None:
            return None
        first, last, flags = span
        if old is message:  # kept by the merge as read: only its flags may differ
            if (flags or message.flags) and {flag for flag in flags if flag} != message.flags:
                return None
            if old.locations:
                return None
        elif not _same_entry(old, flags, message, obsolete):
            return None
        return first, last

    def raw_header(self, merged: StableCatalog) -> str | None:
        """This file's header entry, comment included, when ``merged`` writes the same one."""
        span = self.spans.get((False, ""))
        if (
            span is None
            or self.read_headers is None
            or merged.header_comment != self.header_comment
            or merged.fuzzy != self.fuzzy
            or merged.mime_headers != _ended(self.read_headers)
        ):
            return None
        return "\n".join(self.rows[: span[1] + 1])

    def place(self, message: Message, obsolete: bool = False) -> Place:
        return obsolete, entry_key(message.id, message.context)

    def is_foreign(self, message: Message, obsolete: bool = False) -> bool:
        """True for another tool's entry, which errorbook neither checks nor counts."""
        return bool(self.foreign) and self.place(message, obsolete) in self.foreign

    def comment(self) -> str:
        """The header comment as it was set or read. Babel's own fills in words such as
        PROJECT, VERSION and YEAR (the current year: a clock) wherever they appear, which
        would change a translator's text; only Babel's placeholder header gets that."""
        text = self.comment_as_set
        if text is None or text == DEFAULT_HEADER:
            return cast(str, _HEADER_COMMENT.__get__(self))
        return text

    def set_comment(self, text: str | None) -> None:
        self.comment_as_set = text
        _HEADER_COMMENT.__set__(self, text)

    header_comment = property(comment, set_comment)

    def fields(self) -> list[tuple[str, str]]:
        """The header's fields as errorbook writes them: Babel's, without its version or
        the clock, a template without a revision, with the fields other tools added, in
        the order of the file read."""
        headers = []
        babel: list[tuple[str, str]] = _MIME_HEADERS.__get__(self)
        for name, value in babel:
            if name == "Generated-By":
                continue
            if name == "POT-Creation-Date":
                if self.creation_date_text is None:
                    continue
                value = self.creation_date_text
            if name == "PO-Revision-Date" and self.locale_identifier is None:
                continue  # a template has no revision
            if name == "Last-Translator" and self.locale_identifier is None:
                continue
            headers.append((name, _one_field(value)))
        headers += [(name, _one_field(value)) for name, value in self.extra_headers]
        if self.read_headers:
            headers = _arranged(headers, self.read_headers)
        return _ended(headers)

    def set_fields(self, headers: Iterable[tuple[str, str]]) -> None:
        headers = [(str(k), str(v).strip()) for k, v in headers]
        _MIME_HEADERS.__set__(self, headers)
        self.extra_headers = [(k, v) for k, v in headers if k.lower() not in _BABEL_FIELDS]
        for name, value in headers:
            if name.lower() == "pot-creation-date" and value:
                self.creation_date_text = value
            elif name.lower() == "plural-forms":
                self.plural_forms_text = value

    mime_headers = property(fields, set_fields)


def _one_field(value: str) -> str:
    """A header field's value kept on its line: one that a line break would split (a value
    set by a caller; a value read never has one) is written with that break escaped, so it
    can never become a second field."""
    return one_line(value) if len(value.splitlines()) > 1 else value


def _ended(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The fields with the last one ending in a newline, as Babel's writer needs them."""
    if not headers:
        return headers
    name, value = headers[-1]
    return [*headers[:-1], (name, value.rstrip("\n") + "\n")]


def _same_value(name: str, read: str, wanted: str) -> bool:
    """True when a header field's value as read says what errorbook would write: the same
    text, or for a date, a content type or a plural rule, the same thing written otherwise
    (Babel writes ``charset=utf-8`` where msgmerge writes ``UTF-8``)."""
    if read == wanted:
        return True
    if name in ("po-revision-date", "pot-creation-date"):
        try:
            return _date(read) == _date(wanted)
        except (ValueError, TypeError):
            return False
    if name in ("content-type", "plural-forms"):
        return "".join(read.lower().split()) == "".join(wanted.lower().split())
    return False


_DATE = re.compile(r"^(?P<datetime>.*?)(?P<tzoffset>[+-]\d{4})?$")


def _date(value: str) -> datetime.datetime:
    """A PO header's date as Babel's Catalog reads one (``2024-05-01 12:00+0200``); a
    ValueError for anything else."""
    match = _DATE.match(value)
    if match is None:  # a line break inside
        raise ValueError(value)
    moment = datetime.datetime.strptime(match.group("datetime"), "%Y-%m-%d %H:%M")
    offset = match.group("tzoffset")
    if offset is None:
        return moment
    minutes = (int(offset[1:3]) * 60 + int(offset[3:])) * (-1 if offset[0] == "-" else 1)
    return moment.replace(tzinfo=datetime.timezone(datetime.timedelta(minutes=minutes)))


# Reading a date imports the module behind datetime.strptime on first use (Babel's catalog
# reads every header's dates with it): read one here, so that it is imported once, in the
# parent, rather than again in each worker it forks.
_date(UNREVISED_DATE)


def _arranged(headers: list[tuple[str, str]], read: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The fields errorbook writes, in the order and the words of the file they were read
    from wherever they say the same: a tool that writes its own order (msgmerge puts
    Plural-Forms last) or its own spelling keeps it. A field errorbook adds goes after the one
    it follows in errorbook's order; one it does not write (Generated-By) is left out."""
    wanted = {name.lower(): (name, value) for name, value in headers}
    out: list[tuple[str, str]] = []
    for name, value in read:
        key = name.lower()
        if key not in wanted or any(n.lower() == key for n, _ in out):
            continue
        w_name, w_value = wanted[key]
        same = _same_value(key, value, w_value.rstrip("\n"))
        out.append((name, value) if same else (w_name, w_value))
    placed = {name.lower() for name, _ in out}
    for index, (name, value) in enumerate(headers):
        if name.lower() in placed:
            continue
        at = 0
        for before, _ in reversed(headers[:index]):
            found = [i for i, (n, _) in enumerate(out) if n.lower() == before.lower()]
            if found:
                at = found[0] + 1
                break
        out.insert(at, (name, value))
        placed.add(name.lower())
    return out


def _same_entry(old: Message, flags: tuple[str, ...], new: Message, obsolete: bool) -> bool:
    """True when ``new`` would be written as the entry ``old`` was read (``flags`` as the file
    has them: Babel's reader adds format flags of its own). An obsolete entry is compared by
    what errorbook writes of one: its text, translator comments, flags and previous msgid."""
    if (
        _ids(old) != _ids(new)
        or old.context != new.context
        or _strings(old) != _strings(new)
        or old.user_comments != new.user_comments
    ):
        return False
    if {flag for flag in flags if flag} != set(new.flags) or list(old.previous_id) != list(
        new.previous_id
    ):
        return False
    return obsolete or (
        (
            old.auto_comments == new.auto_comments
            or _words(old.auto_comments) == _words(new.auto_comments)
        )
        and not old.locations
    )


def _words(comments: Iterable[str]) -> list[str]:
    """Extracted comments as words: a tool that wraps them (polib) says the same."""
    return " ".join(comments).split()


HEADER_COMMENT = {
    None: "# {title} {domain}: template generated by errorbook from {source}; do not edit.\n"
    "# Translations live in <lang>/LC_MESSAGES/{domain}.po.",
    "po": "# {title} {domain} in {language}.\n"
    "# Translate the msgstr lines; errorbook merges changes from {source}.",
}
#: Words of the header comments above, one of which every catalog errorbook starts carries:
#: with the manifest, how errorbook tells its own catalogs from another tool's.
MARKS = ("template generated by errorbook", "errorbook merges changes from")


def new_catalog(
    registry: Registry, domain: str, locale: str | None, name: str | None = None
) -> StableCatalog:
    """An empty catalog with errorbook's header; a locale's plural rule from errorbook's table.
    ``name`` is the domain's file name (``domain``, the role, unless configured)."""
    meta = registry.meta
    name = name or domain
    catalog = StableCatalog(
        locale=locale,
        domain=name,
        project=one_line(meta.title),
        version=meta.version,
        fuzzy=False,
        header_comment="#",
        revision_date=UNREVISED_DATE if locale is not None else None,
        last_translator=NO_TRANSLATOR if locale is not None else None,
    )
    kind = None if locale is None else "po"
    language = locale or ""
    catalog.header_comment = HEADER_COMMENT[kind].format(
        title=one_line(meta.title), domain=name, source=one_line(registry.path), language=language
    )
    if locale is not None:
        rule = plurals.lookup(locale)
        if rule is not None:
            catalog.mime_headers = [("Plural-Forms", rule.header)]
    return catalog


def message(
    msgid: str | tuple[str, ...] | list[str],
    string: str | tuple[str, ...] | list[str] | None,
    *,
    flags: Iterable[str] = (),
    auto_comments: Iterable[str] = (),
    user_comments: Iterable[str] = (),
    previous_id: Iterable[str] = (),
    context: str | None = None,
) -> Message:
    """A Babel :class:`Message` as ``Message(...)`` makes it, with exactly the given flags.

    ``Message.__init__`` scans the text of every message for printf- and brace-format
    placeholders to set flags that errorbook replaces anyway (they come from the registry);
    on catalogs of ten thousands of long entries that scan was the largest single cost of a
    run. This sets the same attributes without it (a test compares the two)."""
    made = Message.__new__(Message)
    made.id = msgid
    made.string = ("", "") if not string and isinstance(msgid, (list, tuple)) else string
    made.locations = []
    made.flags = set(flags)
    made.auto_comments = _collapsed(auto_comments)
    made.user_comments = _collapsed(user_comments)
    made.previous_id = list(previous_id)
    made.lineno = None
    made.context = context
    return made


def _collapsed(comments: Iterable[str]) -> list[str]:
    """Consecutive repeats made one, as ``Message.__init__`` does."""
    found = list(comments)
    if len(found) < 2:
        return found
    return [comment for comment, _ in groupby(found)]


def to_message(entry: Entry, string: str | tuple[str, ...] = "") -> Message:
    msgid: str | tuple[str, str] = (
        entry.msgid if entry.plural is None else (entry.msgid, entry.plural)
    )
    return message(
        msgid,
        string,
        flags=("python-brace-format",) if entry.brace_format else (),
        auto_comments=entry.comments,
        context=entry.context,
    )


def template(registry: Registry, domain: str, name: str | None = None) -> StableCatalog:
    """The POT catalog of one domain (``name``: its file name, see :func:`new_catalog`)."""
    catalog = new_catalog(registry, domain, None, name)
    for entry in entries(registry, domain):
        made = to_message(entry)
        catalog[made.id] = made
    return catalog


class _Old(NamedTuple):
    message: Message
    obsolete: bool


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    s = message.string
    return tuple(s) if isinstance(s, (list, tuple)) else (s or "",)


def _translated(message: Message) -> bool:
    return any(_strings(message))


def _fit(strings: tuple[str, ...], plural: bool, forms: int) -> str | tuple[str, ...]:
    """Old translations in the shape of the new entry: plural forms padded or cut."""
    if not plural:
        return strings[0] if len(strings) == 1 else strings[-1]
    if len(strings) == 1:
        return tuple([strings[0]] * forms)
    return tuple((list(strings) + [""] * forms)[:forms])


def merge(
    registry: Registry,
    domain: str,
    locale: str,
    existing: StableCatalog | None,
    *,
    name: str | None = None,
) -> StableCatalog:
    """The locale's catalog for the current registry, keeping every translation.

    - same context and source text: kept as it is (fuzzy stays fuzzy);
    - same context, new source text: kept, marked fuzzy, with the text the translation was
      made for as previous msgid: the old text, or, for an entry already fuzzy after an
      earlier rewording, its previous msgid, so that the previous msgid survives any number
      of rewordings; a source text that returns to it makes the entry translated again;
    - an obsolete entry whose context returns: its translation comes back (fuzzy if the text
      changed meanwhile);
    - a code with no translation of its own takes the translation of the code it was renamed
      from (``renamed_from``), else of a deprecated code it replaces (``replaced_by``), field
      by field: fuzzy, with the text that translation was made for as previous msgid, unless
      it is the same code renamed and that text is its own (then translated);
    - a new context whose source text equals that of a removed entry (a code renamed without
      saying so): the translation is offered as fuzzy;
    - an entry whose context is gone: kept as obsolete (#~) when it holds a translation;
    - another tool's entry (no msgctxt, or one errorbook never writes, see
      :func:`entries.owns`), active or obsolete: kept as it is, after errorbook's own.

    Translator comments move with their entry, line for line.
    """
    merged = new_catalog(registry, domain, locale, name)
    if existing is not None:
        merged.header_comment = existing.header_comment
        merged.mime_headers = [
            (k, v) for k, v in existing.mime_headers if k.lower() != "plural-forms"
        ]
        merged.extra_headers = list(existing.extra_headers)
        merged.trailing = list(existing.trailing)
        merged.creation_date_text = existing.creation_date_text
        revised = _PLACEHOLDERS["po-revision-date"] not in str(existing.revision_date)
        merged.revision_date = existing.revision_date if revised else UNREVISED_DATE
        named = _PLACEHOLDERS["last-translator"] not in existing.last_translator
        merged.last_translator = existing.last_translator if named else NO_TRANSLATOR
        merged.language_team = existing.language_team
        merged.read_headers = existing.read_headers
        merged.origin = existing
    old: dict[str, _Old] = {}
    by_text: dict[tuple[str, ...], Message] = {}
    names = code_names(registry)
    new_entries = entries(registry, domain)
    used = contexts(registry, domain)  # the new entries' msgctxt, made with them
    own = owned(domain, names)  # those owns() takes, known without its patterns
    foreign: list[Message] = []
    if existing is not None:
        for message in existing.obsolete.values():
            if message.context and owns(domain, message.context, names):
                old.setdefault(message.context, _Old(message, True))
        for message in messages(existing):
            if not message.id:
                continue
            context = message.context
            if context and (context in own or owns(domain, context, names)):
                old[context] = _Old(message, False)
            elif not owns(domain, context, names):
                foreign.append(message)  # another tool's: kept, after errorbook's own
    for item in old.values():
        if item.message.context not in used and _translated(item.message):
            by_text.setdefault(_ids(item.message), item.message)
    forms = merged.num_plurals
    ancestors = _ancestors(registry)
    reshaped: list[Message] = []
    for entry in new_entries:
        previous = old.get(entry.context)
        if previous is not None and entry.msgid and _as_merged(previous, entry, forms):
            merged[previous.message.id] = previous.message
            continue
        message = to_message(entry)
        source = _ids(message)
        if previous is not None and _translated(previous.message):
            prior = previous.message
            message.string = _fit(_strings(prior), entry.plural is not None, forms)
            message.user_comments = list(prior.user_comments)
            made_for = _made_for(prior)
            if _ids(prior) != source and made_for == source:
                pass  # reworded and back: the translation fits its text again
            elif _ids(prior) != source:
                message.flags.add("fuzzy")
                message.previous_id = list(made_for)
                if len(_ids(prior)) != len(source):  # plural <-> singular: forms would be
                    reshaped.append(prior)  # dropped, so the old entry is kept as obsolete
            elif prior.fuzzy:
                message.flags.add("fuzzy")
                message.previous_id = list(prior.previous_id)
        elif (heir := _inherited(entry, old, ancestors)) is not None:
            prior, renamed = heir
            message.string = _fit(_strings(prior), entry.plural is not None, forms)
            made_for = _made_for(prior)
            if renamed:  # the same code under a new name: the translator's notes go with it
                message.user_comments = list(prior.user_comments)
            if not (renamed and made_for == source):
                message.flags.add("fuzzy")
                message.previous_id = list(made_for)
        elif source in by_text:
            prior = by_text.pop(source)
            message.string = _fit(_strings(prior), entry.plural is not None, forms)
            message.flags.add("fuzzy")
        else:
            if previous is not None:
                message.user_comments = list(previous.message.user_comments)
            message.string = tuple([""] * forms) if entry.plural is not None else ""
        merged[message.id] = message
    for message in foreign:
        assert existing is not None
        _keep(merged, existing, message)
    # Every translated obsolete entry stays, unless it came back as the active entry: a
    # translation once written is never dropped (the file keeps its history in #~).
    if existing is not None and existing.obsolete:
        active = {
            (_ids(m), m.context) for m in messages(merged) if m.id and not merged.is_foreign(m)
        }
        for message in existing.obsolete.values():
            if not owns(domain, message.context, names):
                _keep(merged, existing, message, obsolete=True)
                continue
            key = entry_key(message.id, message.context)
            if (
                _translated(message)
                and (_ids(message), message.context) not in active
                and key not in merged.obsolete
            ):
                merged.obsolete[key] = _gone(message)
    for prior in reshaped:
        merged.obsolete[entry_key(prior.id, prior.context)] = _gone(prior, fuzzy=False)
    for context, item in old.items():
        if context not in used and _translated(item.message):
            prior = item.message
            merged.obsolete[entry_key(prior.id, context)] = _gone(prior)
    return merged


def _as_merged(previous: _Old, entry: Entry, forms: int) -> bool:
    """True when the entry read is, in every attribute, the message :func:`merge` would make
    of it for ``entry``: the same text, comments and flags, its translation in the shape
    the entry takes. It then goes into the merged catalog itself; a catalog whose template
    did not change is most of its entries, and making each again was most of the merge."""
    prior = previous.message
    if previous.obsolete or prior.locations:
        return False
    if entry.plural is None:
        if prior.id != entry.msgid or not isinstance(prior.string, str):
            return False
    elif (
        not isinstance(prior.id, tuple)
        or prior.id != (entry.msgid, entry.plural)
        or not isinstance(prior.string, tuple)
        or len(prior.string) != forms
    ):
        return False
    translated = _translated(prior)
    flags = prior.flags
    fuzzy = translated and "fuzzy" in flags  # an untranslated entry loses its fuzzy flag
    # The flags are exactly python-brace-format where the entry is formatted, and fuzzy.
    if len(flags) != entry.brace_format + fuzzy or (
        entry.brace_format and "python-brace-format" not in flags
    ):
        return False
    return (
        (fuzzy or not prior.previous_id)
        and isinstance(prior.previous_id, list)
        and isinstance(prior.user_comments, list)
        and prior.auto_comments == _collapsed(entry.comments)
    )


def _ancestors(registry: Registry) -> dict[str, list[tuple[str, bool]]]:
    """Per code, the codes whose translations it may take, first choice first: the name it
    was renamed from (True: the same code), then the deprecated codes it replaces, in
    registry order (False: another code, whose words are a suggestion)."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for code in registry.codes:
        if code.renamed_from is not None:
            found.setdefault(code.name, []).insert(0, (code.renamed_from, True))
    for code in registry.codes:
        heir = code.deprecated.replaced_by if code.deprecated is not None else None
        if heir is not None:
            found.setdefault(heir, []).append((code.name, False))
    return found


def _inherited(
    entry: Entry, old: Mapping[str, _Old], ancestors: Mapping[str, list[tuple[str, bool]]]
) -> tuple[Message, bool] | None:
    """The translated entry of a code ``entry``'s code was renamed from or replaces, in the
    same place (its message, or the same field of its prose: B.meaning takes A.meaning), and
    whether it is the same code renamed."""
    if entry.code is None:
        return None
    rest = entry.context[len(entry.code) :]
    for name, renamed in ancestors.get(entry.code, ()):
        prior = old.get(name + rest)
        if prior is not None and _translated(prior.message):
            return prior.message, renamed
    return None


def _made_for(prior: Message) -> tuple[str, ...]:
    """The source text a translation was made for: its ``#| msgid`` while the entry is fuzzy
    with one (errorbook keeps that text across any number of rewordings, so a translator
    compares the newest text with the one they translated), else the entry's own text."""
    if prior.fuzzy and prior.previous_id:
        return tuple(prior.previous_id)
    return _ids(prior)


def _gone(prior: Message, fuzzy: bool = True) -> Message:
    """An obsolete entry keeping a translation: its text, translator comments (every line,
    repeated or empty ones too) and, unless ``fuzzy`` is False, its fuzzy flag with the
    previous msgid, so that an entry that comes back is as fuzzy as it went."""
    still = fuzzy and prior.fuzzy
    made = message(
        prior.id,
        prior.string,
        flags=("fuzzy",) if still else (),
        previous_id=prior.previous_id if still else (),
        context=prior.context,
    )
    made.user_comments = list(prior.user_comments)
    return made


def _keep(
    merged: StableCatalog, existing: StableCatalog, prior: Message, obsolete: bool = False
) -> None:
    """Put another tool's entry into ``merged`` as it is, with its text as read (if any)."""
    kept = copy.copy(prior)
    kept.flags = set(prior.flags)
    kept.user_comments = list(prior.user_comments)
    kept.auto_comments = list(prior.auto_comments)
    kept.locations = list(prior.locations)
    kept.previous_id = list(prior.previous_id)
    if obsolete:
        merged.obsolete[entry_key(kept.id, kept.context)] = kept
    else:
        merged[kept.id] = kept
    merged.foreign[merged.place(kept, obsolete)] = existing.foreign.get(
        existing.place(prior, obsolete)
    )


def usable(message: Message, count: str | None = None) -> bool:
    """A translation that may be shown: complete, not fuzzy, and its placeholders exactly the
    source's (the rule ``errorbook check`` enforces, so nothing it refuses is ever shipped)."""
    strings = _strings(message)
    if not message.id or message.fuzzy or not all(strings):
        return False
    if placeholders.text_problems(_ids(message)[0], strings):
        return False
    return not placeholders.translation_problems(_ids(message), strings, count)


def compile_mo(
    catalog: StableCatalog,
    counts: Mapping[str, str | None],
    verdicts: Mapping[tuple[object, ...], tuple[object, ...]] | None = None,
) -> bytes:
    """MO bytes holding only usable translations; the rest fall back to the source text.
    ``counts`` maps each msgctxt errorbook writes to its count placeholder
    (:func:`entries.message_contexts`); another tool's entry is not errorbook's to compile.

    ``verdicts`` is what the checks of this run found, by translation (``checks.Memo``):
    a translation they checked is usable when they found nothing, which is the rule of
    :func:`usable` (the checks of a formatted text are its placeholder rule and its rule as
    text), so its placeholders are not parsed again. Any other is judged here."""
    clean = StableCatalog(locale=catalog.locale_identifier, domain=catalog.domain, fuzzy=False)
    clean.mime_headers = catalog.mime_headers
    kept = []
    for message in catalog:
        context = message.context or ""
        if not message.id or context not in counts:
            continue
        count = counts[context]
        found = (
            verdicts.get((message.context, _ids(message), _strings(message), True, count))
            if verdicts is not None
            else None
        )
        if found is None:
            if usable(message, count):
                kept.append(message)
        elif not found and not message.fuzzy and all(_strings(message)):
            kept.append(message)
    # Babel's writer sorts the entries with Message's own comparison, a Python method per
    # pair; in this order (the same: the sort is stable, by the same values) it compares
    # each entry once instead of log n times.
    kept.sort(key=lambda message: (_ids(message)[0], message.context or ""))
    buffer = io.BytesIO()
    write_mo(buffer, _Compiled(clean, kept), use_fuzzy=False)  # type: ignore[arg-type]
    return buffer.getvalue()


class _Compiled:
    """What Babel's ``write_mo`` reads of a catalog: its charset, and its messages in order,
    the header first. ``messages`` are the catalog's entries, as adding them one by one
    would give them (no two share a msgid and msgctxt), without that cost: a Catalog's
    ``__setitem__`` takes as long again as writing the MO file."""

    def __init__(self, catalog: Catalog, messages: list[Message]) -> None:
        self.charset = catalog.charset
        self.header = next(iter(catalog))  # the header entry Babel makes of mime_headers
        self.messages = messages

    def __iter__(self) -> Iterator[Message]:
        yield self.header
        yield from self.messages


def translations(
    catalog: Catalog | None, counts: Mapping[str, str | None] | None = None
) -> dict[str, str]:
    """Usable translations of a catalog, by msgctxt (docs) or by msgid (site chrome). With
    ``counts`` (UI messages), only those that pass the placeholder rule."""
    found: dict[str, str] = {}
    if catalog is None:
        return found
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if counts is not None:  # UI copy: the whole rule of `check`, placeholders included
            if not usable(message, counts.get(message.context or "")):
                continue
        else:  # prose: what check refuses as text (odd edges, control characters)
            strings = (
                tuple(message.string)
                if isinstance(message.string, (list, tuple))
                else (message.string,)
            )
            source = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            if placeholders.text_problems(str(source), strings):
                continue
        if isinstance(message.string, (list, tuple)):
            if all(message.string):
                found[message.context or str(message.id[0])] = "\x00".join(message.string)
            continue
        found[message.context or str(message.id)] = message.string
    return found
