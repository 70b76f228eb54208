"""What a registry gives translators: one entry per translatable text, in registry order.

Two domains: ``messages`` is the UI copy a person reads (one entry per code, keyed by the code
as msgctxt, and one per code's title, keyed ``DISK_FULL.title``), ``docs`` is the reference
prose of the docs site (keyed by the code or item and the field, such as
``DISK_FULL.meaning``). The catalog emitter and the Babel extractor both read these entries,
so the POT files and ``pybabel extract`` agree.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from ..registry import placeholders
from ..registry.model import TITLE_PART, Code, Registry, title_context
from .locales import cldr_unit

#: The two kinds of catalogs, by role. Their file names are configurable (Config.domains);
#: these role names are how the rest of errorbook tells them apart.
DOMAINS = ("messages", "docs")

#: A code name in upper case, of one or more parts joined by dots: what the default naming
#: rule allows, and the sub-codes, leading '_' and digits a registry's own rule may allow.
#: (A rule allowing lower case goes beyond it: "menu" may be another tool's context.)
_CODE = r"[A-Z0-9_]+(?:\.[A-Z0-9_]+)*"
_ID = r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"  # what reader.IDENTIFIER allows
#: Every msgctxt errorbook writes, by domain (a test holds every entry of two registries to
#: them). A context of any other shape belongs to another tool sharing the catalog.
_CONTEXTS = {
    "messages": re.compile(_CODE + rf"(?:\.{TITLE_PART})?\Z"),
    "docs": re.compile(
        r"(?:registry\.description"
        rf"|layer\.{_ID}\.(?:title|proves|description)"
        rf"|limit\.{_ID}\.(?:title|bounds|unit)"
        rf"|adapter\.{_ID}\.{_ID}"  # title, description, or how it presents a shape
        rf"|recovery\.{_ID}"
        rf"|actor\.{_ID}\.description"
        rf"|glossary\.{_ID}"
        r"|release\.[0-9]+\.[0-9]+\.[0-9]+"
        rf"|shape\.{_ID}\.(?:title|proves|description)"
        rf"|{_CODE}\.(?:meaning|rationale|shape_reason)"
        rf"|{_CODE}\.(?:recovery|avoid)\.[1-9][0-9]*"
        rf"|{_CODE}\.placeholder\.[A-Za-z_][A-Za-z0-9_]*)\Z"
    ),
}


#: Where the code's name is in each of errorbook's contexts that belong to a code, by
#: domain: a name its registry's naming rule allows may go beyond :data:`_CODE`.
_OF_A_CODE = {
    "messages": re.compile(rf"(?P<code>.+?)(?:\.{TITLE_PART})?\Z"),
    "docs": re.compile(
        r"(?P<code>.+?)\.(?:meaning|rationale|shape_reason|(?:recovery|avoid)\.[1-9][0-9]*"
        r"|placeholder\.[A-Za-z_][A-Za-z0-9_]*)\Z"
    ),
}


def _shaped(domain: str, context: str) -> bool:
    pattern = _CONTEXTS.get(domain)
    return pattern is not None and pattern.match(context) is not None


#: _shaped, asked for every entry of every catalog read.
_of_errorbooks_shape = functools.lru_cache(maxsize=1 << 16)(_shaped)


def owns(domain: str, context: str | None, names: frozenset[str] = frozenset()) -> bool:
    """True when an entry with this msgctxt is errorbook's in a catalog of ``domain``.

    Another tool (pybabel, a hand-kept catalog) may share a PO file with errorbook; its
    entries have no msgctxt or one of another shape, and errorbook must leave them as they
    are. An entry of errorbook's shape whose code left the registry is still errorbook's.
    ``names`` are the registry's code names (:func:`code_names`): a code whose naming rule
    allows what errorbook's shapes do not (lower case, ``doorClosed``) owns its entries too,
    and no other tool's entry of that shape, such as ``menu``, is taken. (Only the shape
    test is cached: a cache keyed by ``names`` would compare two equal sets of 10,000 names
    on every hit.)"""
    return _owns(domain, context, names, _of_errorbooks_shape)


def _owns(
    domain: str, context: str | None, names: frozenset[str], shaped: Callable[[str, str], bool]
) -> bool:
    """:func:`owns`, testing the shape with ``shaped``."""
    if context is None:
        return False
    if shaped(domain, context):
        return True
    if not names:
        return False
    shape = _OF_A_CODE.get(domain)
    of_a_code = shape.match(context) if shape is not None else None
    return of_a_code is not None and (of_a_code.group("code") in names or context in names)


def code_names(registry: Registry) -> frozenset[str]:
    """Every name whose catalog entries are the registry's: its codes' names and the names
    they were renamed from, whatever the naming rule allows (made once per registry: each
    catalog's reader and merge ask)."""
    global _NAMES
    if _NAMES is None or _NAMES[0]() is not registry:
        found = {code.name for code in registry.codes}
        found.update(code.renamed_from for code in registry.codes if code.renamed_from)
        _NAMES = (weakref.ref(registry), frozenset(found))
    return _NAMES[1]


#: The code names of the registry asked for last (see code_names).
_NAMES: tuple[weakref.ref[Registry], frozenset[str]] | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    context: str
    msgid: str
    plural: str | None = None
    comments: tuple[str, ...] = ()
    brace_format: bool = False  # a UI message with placeholders: python-brace-format
    code: str | None = None  # the code the text belongs to, where it belongs to one

    @property
    def placeholders(self) -> tuple[str, ...]:
        if not self.brace_format:
            return ()
        names = list(placeholders.parse(self.msgid).names)
        if self.plural is not None:
            names += [n for n in placeholders.parse(self.plural).names if n not in names]
        return tuple(names)


def _example(value: str | int) -> str:
    return str(value)


def message_entry(registry: Registry, code: Code) -> Entry:
    layer = registry.layer(code.layer)
    acts = f" ({layer.actor} must act)" if layer.actor else ""
    comments = [
        f"Layer: {layer.title}{acts}. "
        f"Shown to a person when {registry.meta.title} reports {code.name}.",
    ]
    for p in code.placeholders:
        said = [p.description] if p.description else []
        if p.example is not None:
            said.append(f"Example: {_example(p.example)}")
        comments.append(" ".join([f"{{{p.name}}}:", *said]))
    if code.message.count is not None:
        comments.append(f"The plural form is chosen by {{{code.message.count}}}.")
    comments.append("Keep every {placeholder} exactly as written; do not translate its name.")
    return Entry(
        context=code.name,
        msgid=code.message.text,
        plural=code.message.plural,
        comments=tuple(comments) if code.placeholders else (comments[0],),
        brace_format=bool(code.placeholders),
        code=code.name,
    )


def title_entry(registry: Registry, code: Code) -> Entry:
    return Entry(
        context=title_context(code.name),
        msgid=code.title,
        comments=(
            f"Title of {code.name}: a short summary in sentence case, without a final full "
            "stop, the same for every occurrence. Shown as the title of a problem (RFC 9457) "
            "and under the code's name on the reference site.",
        ),
        code=code.name,
    )


def message_contexts(registry: Registry) -> dict[str, str | None]:
    """Every msgctxt of the messages domain with the count placeholder of its text (None
    for a text without plural forms, such as every title): what the catalog checks, the
    MO files, the TypeScript catalogs and the site read a translation against."""
    found: dict[str, str | None] = {}
    for code in registry.codes:
        if code.message.text:
            found[code.name] = code.message.count
        if code.title:
            found[title_context(code.name)] = None
    return found


def _prose(context: str, text: str, comment: str, code: str | None = None) -> Entry:
    return Entry(
        context, text, comments=(comment, "Reference prose; plain text, no markup."), code=code
    )


def docs_entries(registry: Registry) -> list[Entry]:
    meta = registry.meta
    found = [
        _prose(
            "registry.description",
            meta.description,
            f"What {meta.title} is; the opening of the reference site's home page.",
        )
    ]
    for layer in registry.layers:
        where = f"layer {layer.id}"
        found += [
            _prose(f"layer.{layer.id}.title", layer.title, f"Name of the {where}."),
            _prose(
                f"layer.{layer.id}.proves", layer.proves, f"What a failure in the {where} proves."
            ),
            _prose(
                f"layer.{layer.id}.description", layer.description, f"Description of the {where}."
            ),
        ]
    for code in registry.codes:
        name = code.name
        if code.meaning:  # absent prose gets no entry: a translator has nothing to translate
            found.append(_prose(f"{name}.meaning", code.meaning, f"What {name} means.", name))
        if code.rationale:
            found.append(
                _prose(
                    f"{name}.rationale",
                    code.rationale,
                    f"Why the registry has the code {name}.",
                    name,
                )
            )
        if code.shape_reason:
            found.append(
                _prose(
                    f"{name}.shape_reason",
                    code.shape_reason,
                    f"Why {name} travels in another shape than its layer's.",
                    name,
                )
            )
        steps, avoid = (code.recovery.steps, code.recovery.avoid) if code.recovery else ((), ())
        for n, step in enumerate(steps, 1):
            found.append(
                _prose(f"{name}.recovery.{n}", step, f"Recovery step {n} for {name}.", name)
            )
        for n, item in enumerate(avoid, 1):
            found.append(
                _prose(f"{name}.avoid.{n}", item, f"Something not to do after {name}.", name)
            )
        for p in code.placeholders:
            if not p.description:
                continue
            found.append(
                _prose(
                    f"{name}.placeholder.{p.name}",
                    p.description,
                    f"Description of the placeholder {{{p.name}}} of {name}.",
                    name,
                )
            )
    for limit in registry.limits:
        found += [
            _prose(f"limit.{limit.id}.title", limit.title, f"Name of the limit {limit.id}."),
            _prose(f"limit.{limit.id}.bounds", limit.bounds, f"What the limit {limit.id} bounds."),
        ]
        if limit.unit_one and cldr_unit(limit.unit) is None:  # CLDR's units Babel translates
            found.append(
                Entry(
                    f"limit.{limit.id}.unit",
                    limit.unit_one,
                    plural=limit.unit,
                    comments=(
                        f"The unit of the limit {limit.id}, written after a number "
                        f"(1 {limit.unit_one}, {limit.maximum} {limit.unit}); one form per "
                        "plural form of your language.",
                        "Reference prose; plain text, no markup.",
                    ),
                )
            )
    for adapter in registry.adapters:
        texts = [("title", adapter.title), ("description", adapter.description)]
        for field, text in texts + list(adapter.presents):
            found.append(
                _prose(
                    f"adapter.{adapter.id}.{field}",
                    text,
                    f"The {field} of the transport {adapter.id}.",
                )
            )
    for kind in registry.recovery_kinds:
        found.append(_prose(f"recovery.{kind.id}", kind.summary, f"The recovery kind {kind.id}."))
    for actor in registry.actors:
        found.append(
            _prose(
                f"actor.{actor.id}.description",
                actor.description,
                f"Who the actor {actor.id} is, on the page of failure layers.",
            )
        )
    for shape in registry.shapes:
        for field in ("title", "proves", "description"):
            found.append(
                _prose(
                    f"shape.{shape.id}.{field}",
                    getattr(shape, field),
                    f"The {field} of the result shape {shape.id}.",
                )
            )
    for version, notes in meta.releases:
        found.append(
            _prose(
                f"release.{version}",
                notes,
                f"Why version {version} of the registry changed what it changed; the opening "
                "of that version's changelog page.",
            )
        )
    for term in registry.glossary:
        found.append(
            Entry(
                f"glossary.{term.id}",
                term.term,
                comments=(
                    f"A glossary term: {term.definition}",
                    "Translate it as the one word your language uses for it, and use that "
                    "word wherever the term appears; the translators' guide lists them all.",
                ),
            )
        )
    return found


@dataclass(slots=True)
class _Made:
    """What :func:`entries` made for the registry asked for last, by domain: the templates
    and every locale's merge ask for the same ones, and forked workers find them made in
    the parent."""

    registry: weakref.ref[Registry]
    entries: dict[str, tuple[Entry, ...]] = dataclasses.field(default_factory=dict)
    contexts: dict[str, frozenset[str]] = dataclasses.field(default_factory=dict)  # every msgctxt
    owned: dict[str, frozenset[str]] = dataclasses.field(default_factory=dict)  # those owns() takes


_MADE: _Made | None = None


def _made(registry: Registry, domain: str) -> _Made:
    global _MADE
    if _MADE is None or _MADE.registry() is not registry:
        _MADE = _Made(weakref.ref(registry))
    if domain not in _MADE.entries:
        made = _MADE.entries[domain] = tuple(_entries(registry, domain))
        found = _MADE.contexts[domain] = frozenset(entry.context for entry in made)
        names = code_names(registry)
        # Nearly all: a code name of characters owns' patterns do not take (a line break,
        # which a naming rule may allow) is left to owns, as it always was. The shape is
        # tested without owns' cache, which would hold every msgctxt in the parent, and so
        # in each worker it forks.
        taken = frozenset(c for c in found if _owns(domain, c, names, _shaped))
        _MADE.owned[domain] = found if len(taken) == len(found) else taken
    return _MADE


def entries(registry: Registry, domain: str) -> list[Entry]:
    """What translators get in ``domain``, in the catalog's order (made once per registry)."""
    return list(_made(registry, domain).entries[domain])


def contexts(registry: Registry, domain: str) -> frozenset[str]:
    """The msgctxt of every entry of ``domain`` (made with the entries)."""
    return _made(registry, domain).contexts[domain]


def owned(domain: str, names: frozenset[str]) -> frozenset[str]:
    """The msgctxt of the entries made in this process for the registry whose code names
    are ``names`` (:func:`code_names`), in ``domain``, that :func:`owns` says are
    errorbook's; empty where none were made.

    It is a shortcut for owns, never a wider answer: a reader asks about every entry of a
    catalog, and a worker forked after the entries were made finds the set made, and only
    reads it."""
    made = _MADE
    registry = made.registry() if made is not None else None
    if made is None or registry is None or domain not in made.owned:
        return frozenset()
    return made.owned[domain] if code_names(registry) == names else frozenset()


def _entries(registry: Registry, domain: str) -> list[Entry]:
    if domain == "messages":
        # A parent's empty message is no text to translate (its runtimes show its name).
        found: list[Entry] = []
        for code in registry.codes:
            if code.message.text:
                found.append(message_entry(registry, code))
            if code.title:
                found.append(title_entry(registry, code))
        return with_glossary(registry, found)
    return with_glossary(registry, docs_entries(registry))


def with_glossary(registry: Registry, found: list[Entry]) -> list[Entry]:
    """Each entry whose text uses a glossary term, with a comment naming the terms, so that
    a translator sees in the entry itself which words the glossary fixes."""
    if not registry.glossary:
        return found
    patterns = [
        (term, re.compile(rf"(?<!\w){re.escape(term.term)}(?!\w)", re.IGNORECASE))
        for term in registry.glossary
    ]
    out = []
    for entry in found:
        if entry.context.startswith("glossary."):
            out.append(entry)
            continue
        text = entry.msgid + ("\n" + entry.plural if entry.plural else "")
        used = [term.term for term, pattern in patterns if pattern.search(text)]
        if used:
            note = "Glossary: " + ", ".join(used) + " (see the translators' guide)."
            entry = dataclasses.replace(entry, comments=(*entry.comments, note))
        out.append(entry)
    return out
