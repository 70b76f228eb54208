"""The resolved registry: frozen values that every emitter reads.

Validation builds these once, always with keyword arguments (every class is ``kw_only``: a
code has some twenty fields, and a positional call would silently shift them when one is
added). Derived facts (a code's shape when it follows its layer, the codes a limit produces,
each code's documentation URL, retry facts, count placeholders, each shape's example code and
the plain-data record of a code) are resolved here so that no emitter or command computes
them again or differently.

The classes are frozen but not slotted, so :func:`functools.cached_property` can keep a
registry-wide table in the instance's ``__dict__`` without a setter: each table is built on
first use, once per registry, and per-code facts that need the registry (limits, URLs) are
read from such a table rather than stored on the code.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from ..diagnostics import Mark
from . import grpc


class Envelope(StrEnum):
    """The two envelope forms errorbook knows how to build and read. A registry's result
    shapes each travel in one of them; which shapes it has, and what they are called, is the
    registry's own business."""

    ERROR = "error"  # {"ok": false, "error": {...}}: the exchange itself failed
    RESULT = "result"  # {"ok": true, "result": {"error": {...}}}: a result that is a failure


class RetryPolicy(StrEnum):
    NEVER = "never"
    AFTER_FIX = "after_fix"
    BOUNDED = "bounded"


#: The wires errorbook can project a code onto, in the order documentation lists them; a
#: registry names the ones it uses in ``registry.wires``.
WIRES = ("http", "jsonrpc")


#: What a code's program identifier (Python enum member, TypeScript property) starts with when
#: its name alone cannot be one: it starts with '_' or a digit, or is a reserved word.
IDENTIFIER_PREFIX = "CODE_"

#: Words a code's identifier may not be: Python and TypeScript keywords and reserved words,
#: and the attributes of the generated ErrorCode enum (a str enum: a member named like a
#: method of str or Enum would hide it). A fixed list, so that every Python version that
#: runs errorbook derives the same identifiers.
_RESERVED_WORDS = (
    "any await boolean break case catch class const constructor continue debugger declare "
    "default delete do else enum export extends false finally for from function get if "
    "implements import in instanceof interface let module namespace new null number of package "
    "private protected public readonly require return set static string super switch symbol "
    "this throw true try type typeof undefined var void while with yield capitalize casefold "
    "center count encode endswith expandtabs find format format_map index isalnum isalpha "
    "isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle "
    "isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace "
    "rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase "
    "title translate upper zfill mro name value "
)
RESERVED_IDENTIFIERS = frozenset((*keyword.kwlist, *_RESERVED_WORDS.split()))

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")
_NOT_SLUG = re.compile(r"[^a-z0-9_.-]")


def identifier(name: str) -> str:
    """The Python and TypeScript identifier of the code named ``name``: dots become '__',
    any other character outside [A-Za-z0-9_] becomes '_', and IDENTIFIER_PREFIX goes in front
    of a result that starts with '_' or a digit or is a reserved word. The one derivation
    every emitter uses; a name that already is a safe identifier is its own."""
    result = _NOT_IDENTIFIER.sub("_", name.replace(".", "__"))
    if result[:1] in ("_", "") or result[0].isdigit() or result in RESERVED_IDENTIFIERS:
        result = IDENTIFIER_PREFIX + result
    return result


def slug(name: str) -> str:
    """The file name (without '.md') and URL segment of a code's page: the name in lower
    case, any character outside [a-z0-9_.-] as '-', and 'code-' in front of one that does not
    start with a letter or digit (MkDocs leaves out files whose names start with '.', and
    such a name is easily mistaken for a hidden or private file), or that is the name of a
    page the codes folder has already (``index``, the table of all codes), or a device of
    Windows (``nul``, ``com1``: see DEVICES)."""
    result = _NOT_SLUG.sub("-", name.lower())
    if not result[:1].isalnum() or result in TAKEN_SLUGS or result.split(".")[0] in DEVICES:
        result = "code-" + result
    return result


#: Page names the site's codes folder uses itself: a code of that name gets 'code-' in front.
TAKEN_SLUGS = ("index",)
#: Names Windows keeps for devices, whatever extension follows them ('nul.md' is the device
#: NUL): a page named so cannot be created or checked out there, so it gets 'code-' too.
DEVICES = frozenset(
    ["con", "prn", "aux", "nul"] + [f"{port}{n}" for port in ("com", "lpt") for n in range(1, 10)]
)

#: The last part of the msgctxt of a code's title in the messages catalogs, ``DISK.title``
#: beside the message's ``DISK``. The validator refuses a sub-code of that name (possible
#: under a naming rule that allows lower case), whose message would share the entry.
TITLE_PART = "title"


def title_context(name: str) -> str:
    """The msgctxt of the title of the code named ``name``: the catalogs, the runtimes and
    the site look a title up by it."""
    return f"{name}.{TITLE_PART}"


#: Limit units that are durations, with the milliseconds in one of them.
_TO_MILLISECONDS = {"milliseconds": 1, "seconds": 1000}

#: Status order for picking an example: a code still emitted before one on its way out.
_STATUS_RANK = {"active": 0, "deprecated": 1, "retired": 2}


#: The value of a declared extra field on one code.
ExtraValue = str | int | bool | tuple[str, ...]

#: The kinds of value a declared field holds, and the severities a change to one may have.
FIELD_TYPES = ("string", "integer", "choice", "boolean", "list")
FIELD_COMPAT = ("breaking", "compatible", "cosmetic")


class FrozenMap(Mapping[str, ExtraValue]):
    """An immutable, hashable mapping kept in insertion order (a code's extra values)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, ExtraValue] | None = None) -> None:
        self._items: dict[str, ExtraValue] = dict(items or {})

    def __getitem__(self, key: str) -> ExtraValue:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (FrozenMap, (self._items,))


@dataclass(frozen=True, kw_only=True)
class ExtraField:
    """A per-code field the registry declares in its 'fields' section."""

    name: str
    type: str  # one of FIELD_TYPES
    description: str
    required: bool = False
    compat: str = "breaking"  # one of FIELD_COMPAT: what a change of its value is
    column: bool = False  # shown as a column of the site's codes table
    pattern: str | None = None  # string and list: each value must match it in full
    minimum: int | None = None  # integer only
    maximum: int | None = None  # integer only
    values: tuple[str, ...] = ()  # choice only


@dataclass(frozen=True, kw_only=True)
class Placeholder:
    name: str
    type: str  # "text" or "integer"
    description: str = ""  # empty when the registry gives none
    example: str | int | None = None  # None when the registry gives none


@dataclass(frozen=True, kw_only=True)
class Message:
    """UI copy in the source locale. ``plural`` and ``count`` are set together or not at all."""

    text: str  # the singular form (CLDR "one"), or the only form
    plural: str | None = None  # the CLDR "other" form
    count: str | None = None  # the placeholder that selects the form

    @property
    def is_plural(self) -> bool:
        return self.plural is not None

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.text,) if self.plural is None else (self.text, self.plural)


@dataclass(frozen=True, kw_only=True)
class Recovery:
    steps: tuple[str, ...]
    avoid: tuple[str, ...] = ()
    kind: str | None = None  # one of the registry's recovery kinds; None when it has none


@dataclass(frozen=True, kw_only=True)
class Retry:
    policy: RetryPolicy
    limit: str | None = None  # the limit that bounds a BOUNDED policy

    def describe(self) -> str:
        if self.policy is RetryPolicy.NEVER:
            return "never retry the same request"
        if self.policy is RetryPolicy.AFTER_FIX:
            return "retry only after the cause is fixed"
        return f"retry automatically, bounded by the limit {self.limit}"


@dataclass(frozen=True, kw_only=True)
class Deprecation:
    since: str
    replaced_by: str | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class Retirement:
    since: str
    reason: str = ""


class RetryFacts(NamedTuple):
    """What a client needs to retry a code on its own: the wait before trying again (from
    the first duration limit the code names besides its retry limit) and how many attempts
    its retry limit allows. Both are None for a code without a bounded policy."""

    delay_ms: int | None
    attempts: int | None


@dataclass(frozen=True, kw_only=True)
class Actor:
    """A party that may have to act to clear a failure, as the registry names it."""

    id: str
    description: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class GlossaryTerm:
    """A word translators keep the same everywhere, with what it means."""

    id: str
    term: str
    definition: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class Shape:
    """A result shape the registry declares: how its failures reach the caller, and the
    envelope form (:class:`Envelope`) they travel in."""

    id: str
    title: str
    envelope: Envelope
    proves: str  # what a failure in this shape tells the caller, in a sentence
    description: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class RecoveryKind:
    """A kind of recovery the registry declares, with the sentence that sums it up."""

    id: str
    summary: str
    retry: tuple[RetryPolicy, ...] = ()  # the policies its summary fits; () means any
    mark: Mark = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class Layer:
    id: str
    title: str
    proves: str
    description: str
    actor: str | None = None  # an actor id, when the registry declares actors
    shape: str | None = None  # a shape id, when the registry declares shapes
    mark: Mark = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class Code:
    name: str
    layer: str
    message: Message
    placeholders: tuple[Placeholder, ...]
    since: str | None = None  # the registry version that introduced it, when the code says
    shape: str | None = None  # a shape id; None when the registry declares no shapes
    recovery: Recovery | None = None  # None when the code gives none
    retry: Retry | None = None  # None when the code gives none
    meaning: str = ""  # empty when the code gives none (the registry does not require it)
    title: str = ""  # the short summary; empty when the code gives none
    limits: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    http: int | None = None  # None unless the registry uses the http wire and the code's
    jsonrpc: int | None = None  # shape travels in the error envelope (likewise for jsonrpc)
    grpc: str | None = None  # a google.rpc.Code name the code declares; None: derived
    shape_reason: str = ""
    rationale: str = ""
    deprecated: Deprecation | None = None
    retired: Retirement | None = None
    renamed_from: str | None = None  # the code's name before a rename (registry.schema)
    agent_hint: str = ""
    extra: FrozenMap = field(default_factory=FrozenMap)  # values of declared fields, by name
    parent: str | None = None  # the code named by everything before the last '.' of a sub-code
    mark: Mark = field(default=Mark("", 0, 0), compare=False)
    since_mark: Mark = field(default=Mark("", 0, 0), compare=False)  # where 'since' is written

    @property
    def hint(self) -> str:
        """Model-facing guidance: the registry's agent_hint, or one made of the recovery."""
        if self.agent_hint or self.recovery is None:
            return self.agent_hint
        text = " ".join(self.recovery.steps)
        if self.recovery.avoid:
            text += " Do not: " + "; ".join(a.rstrip(".") for a in self.recovery.avoid) + "."
        return text

    def lifecycle(self) -> dict[str, object]:
        """Status, deprecation and retirement as plain data (explain, codes.json)."""
        return {
            "status": self.status,
            "deprecated": {
                "since": self.deprecated.since,
                "replaced_by": self.deprecated.replaced_by,
                "reason": self.deprecated.reason or None,
            }
            if self.deprecated
            else None,
            "retired": {"since": self.retired.since, "reason": self.retired.reason or None}
            if self.retired
            else None,
        }

    @property
    def status(self) -> str:
        """``active``, ``deprecated`` or ``retired``."""
        if self.retired is not None:
            return "retired"
        return "deprecated" if self.deprecated is not None else "active"

    @property
    def placeholder_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.placeholders)

    @property
    def integer_placeholders(self) -> tuple[str, ...]:
        """The placeholders whose values are whole numbers (the runtime groups their
        digits as the message's language does)."""
        return tuple(p.name for p in self.placeholders if p.type == "integer")

    @property
    def slug(self) -> str:
        """The page's file name and URL segment (see :func:`slug`)."""
        return slug(self.name)

    @property
    def identifier(self) -> str:
        """The ErrorCode member's name in Python and TypeScript (see :func:`identifier`);
        the wire value is always :attr:`name`."""
        return identifier(self.name)

    @property
    def shown_message(self) -> str:
        """The source text a runtime shows: the message, or for a parent whose message is
        empty, its name (braces doubled, so that it is never read as a placeholder)."""
        return self.message.text or self.name.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True, kw_only=True)
class Limit:
    id: str
    title: str
    default: int
    unit: str
    minimum: int
    maximum: int
    bounds: str
    mark: Mark = field(compare=False)
    unit_one: str = ""  # the unit's singular, when the registry gives one


@dataclass(frozen=True, kw_only=True)
class Adapter:
    id: str
    title: str
    description: str
    presents: tuple[tuple[str, str], ...] = ()  # (shape id, how it presents that shape)
    transport: str | None = None  # a protocol errorbook knows (registry/transports.py)
    mark: Mark = field(compare=False)

    def text_for(self, shape: str) -> str:
        """How this transport presents a failure of ``shape``."""
        return dict(self.presents)[shape]


@dataclass(frozen=True, kw_only=True)
class Meta:
    name: str
    title: str
    version: str
    package: str
    source_locale: str
    locales: tuple[str, ...]
    docs_url: str
    description: str
    error_domain: str = ""
    required: tuple[str, ...] = ()  # the optional per-code keys the registry asks of every code
    wires: tuple[str, ...] = ()  # the wires of WIRES its codes are mapped onto
    releases: tuple[tuple[str, str], ...] = ()  # (version, why it changed what it changed)
    version_mark: Mark = field(default=Mark("", 0, 0), compare=False)  # where it is written

    @property
    def domain(self) -> str:
        return self.error_domain or self.name

    def release_notes(self, version: str) -> str:
        """Why ``version`` changed what it changed (``registry.releases``); empty if unsaid."""
        return dict(self.releases).get(version, "")


@dataclass(frozen=True, kw_only=True)
class Registry:
    meta: Meta
    layers: tuple[Layer, ...]
    codes: tuple[Code, ...]
    limits: tuple[Limit, ...]
    adapters: tuple[Adapter, ...] = ()
    fields: tuple[ExtraField, ...] = ()  # the declared per-code fields, in declared order
    actors: tuple[Actor, ...] = ()
    glossary: tuple[GlossaryTerm, ...] = ()
    shapes: tuple[Shape, ...] = ()
    recovery_kinds: tuple[RecoveryKind, ...] = ()
    path: str = field(default="codes.yaml", compare=False)
    # What the registry was read from, as a hash (the pipeline's cache key; "" when unknown):
    # outputs made from an equal key need not be made again.
    source: str = field(default="", compare=False, repr=False)

    # Look-ups by name, built once per registry (a registry may hold tens of thousands of
    # codes, and emitters ask for codes, layers and limits by name all the time).
    @cached_property
    def _by_name(self) -> dict[str, Code]:
        return {c.name: c for c in self.codes}

    @cached_property
    def _layers(self) -> dict[str, Layer]:
        return {x.id: x for x in self.layers}

    @cached_property
    def _limits(self) -> dict[str, Limit]:
        return {x.id: x for x in self.limits}

    @cached_property
    def _shapes(self) -> dict[str, Shape]:
        return {x.id: x for x in self.shapes}

    @cached_property
    def _kinds(self) -> dict[str, RecoveryKind]:
        return {x.id: x for x in self.recovery_kinds}

    @cached_property
    def _produced(self) -> dict[str, tuple[Code, ...]]:
        found: dict[str, list[Code]] = {x.id: [] for x in self.limits}
        for code in self.codes:
            for limit_id in code.limits:
                found.setdefault(limit_id, []).append(code)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def _in_layer(self) -> dict[str, tuple[Code, ...]]:
        found: dict[str, list[Code]] = {x.id: [] for x in self.layers}
        for code in self.codes:
            found.setdefault(code.layer, []).append(code)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def _children(self) -> dict[str, tuple[Code, ...]]:
        found: dict[str, list[Code]] = {}
        for code in self.codes:
            if code.parent is not None:
                found.setdefault(code.parent, []).append(code)
        return {k: tuple(v) for k, v in found.items()}

    def code(self, name: str) -> Code:
        return self._by_name[name]

    def children(self, name: str) -> tuple[Code, ...]:
        """The sub-codes directly under the code ``name``, in registry order."""
        return self._children.get(name, ())

    def layer(self, layer_id: str) -> Layer:
        return self._layers[layer_id]

    def limit(self, limit_id: str) -> Limit:
        return self._limits[limit_id]

    def shape(self, shape_id: str) -> Shape:
        return self._shapes[shape_id]

    def envelope(self, code: Code) -> Envelope | None:
        """The envelope form ``code`` travels in; None in a registry without shapes."""
        return None if code.shape is None else self._shapes[code.shape].envelope

    def recovery_summary(self, code: Code) -> str:
        """The sentence of the code's recovery kind; empty when it names none."""
        kind = code.recovery.kind if code.recovery is not None else None
        return self._kinds[kind].summary if kind is not None else ""

    def uses(self, wire: str) -> bool:
        """Whether the registry maps its codes onto ``wire`` (one of WIRES)."""
        return wire in self.meta.wires

    def http_status(self, code: Code) -> int | None:
        """The HTTP status a code's envelope travels with: its own, 200 for a failure that
        travels inside a result (the exchange succeeded), None where the registry maps no
        HTTP status."""
        if not self.uses("http"):
            return None
        if code.http is None and self.envelope(code) is Envelope.RESULT:
            return 200
        return code.http

    def grpc_status(self, code: Code) -> int | None:
        """The gRPC status (google.rpc.Code's number) a code's failure travels with: the one
        it declares, else the one its HTTP status maps to (registry/grpc.py); None where the
        registry maps no HTTP status and the code declares none."""
        if code.grpc is not None:
            return grpc.CODES[code.grpc]
        status = self.http_status(code)
        return grpc.CODES[grpc.from_http(status)] if status is not None else None

    def produced_by(self, limit_id: str) -> tuple[Code, ...]:
        """The codes a limit produces: those that name it among their limits."""
        return self._produced.get(limit_id, ())

    def codes_in(self, layer_id: str) -> tuple[Code, ...]:
        return self._in_layer.get(layer_id, ())

    def docs_url(self, code: Code, locale: str | None = None) -> str:
        """The one stable URL of a code's reference page, per published language."""
        return f"{self.meta.docs_url}{locale or self.meta.source_locale}/codes/{code.slug}/"

    # Derived facts. Each is computed here once per registry; the emitters and commands read
    # them instead of deriving their own copies, which could drift apart.

    @cached_property
    def counts(self) -> Mapping[str, str | None]:
        """Each code's count placeholder by code name (None for a message without plural
        forms): translations of a plural message are checked against it everywhere."""
        return {code.name: code.message.count for code in self.codes}

    def retry_facts(self, code: Code) -> RetryFacts:
        """The delay and attempts a client uses to retry ``code`` (see :class:`RetryFacts`)."""
        return self._retry_facts[code.name]

    @cached_property
    def _retry_facts(self) -> dict[str, RetryFacts]:
        return {code.name: self._resolve_retry(code) for code in self.codes}

    def _resolve_retry(self, code: Code) -> RetryFacts:
        if code.retry is None or code.retry.limit is None:
            return RetryFacts(delay_ms=None, attempts=None)
        # The retry limit counts attempts; the first duration among the others is the delay.
        others = (self.limit(x) for x in code.limits if x != code.retry.limit)
        delay = next(
            (x.default * _TO_MILLISECONDS[x.unit] for x in others if x.unit in _TO_MILLISECONDS),
            None,
        )
        return RetryFacts(delay_ms=delay, attempts=self.limit(code.retry.limit).default)

    def example(self, shape: str) -> Code | None:
        """The code that shows ``shape``'s envelope on the site; None if no code has it."""
        return self._examples.get(shape)

    @cached_property
    def _examples(self) -> dict[str, Code]:
        """One code per shape, both taken from this registry so that a site never shows a
        code it does not have.

        Two codes a reader might mistake for each other show best why the envelopes differ,
        and a registry marks such a pair by naming a code of the other shape in
        ``related``. So the pair is the active code with the most related active codes of
        the other shape, and the first of those it names (ties go to registry order). A
        shape still without an example takes its first code, active ones first."""
        found: dict[str, Code] = {}
        active = [code for code in self.codes if code.status == "active"]
        partners = {code.name: self._across(code) for code in active}
        best = max(active, key=lambda code: len(partners[code.name]), default=None)
        if best is not None and best.shape is not None and partners[best.name]:
            partner = partners[best.name][0]
            if partner.shape is not None:
                found = {best.shape: best, partner.shape: partner}
        for code in sorted(self.codes, key=lambda code: _STATUS_RANK[code.status]):
            if code.shape is not None:
                found.setdefault(code.shape, code)
        return found

    def _across(self, code: Code) -> list[Code]:
        """The active codes of another shape that ``code`` names in ``related``, in order."""
        named = (self.code(name) for name in code.related)
        return [x for x in named if x.shape != code.shape and x.status == "active"]

    def record(self, code: Code) -> dict[str, object]:
        """A code as plain data with every derived fact resolved: an entry of codes.json,
        and the source of the values ``explain --format json`` shares with it."""
        facts = self.retry_facts(code)
        # A key stays out of the record where the registry has no such thing at all (shapes,
        # wires); a key the code merely leaves out is null, so every record has the same keys.
        entry: dict[str, object] = {"code": code.name, "layer": code.layer}
        if self.shapes:
            entry["shape"] = code.shape
        entry |= {
            "message": {
                "text": code.message.text,
                "plural": code.message.plural,
                "count": code.message.count,
            },
            "title": code.title or None,
            "placeholders": [
                {
                    "name": p.name,
                    "description": p.description or None,
                    "example": p.example,
                    "type": p.type,
                }
                for p in code.placeholders
            ],
            "meaning": code.meaning or None,
            "agent_hint": code.hint or None,
            "recovery": None
            if code.recovery is None
            else {
                "kind": code.recovery.kind,
                "summary": self.recovery_summary(code) or None,
                "steps": list(code.recovery.steps),
                "avoid": list(code.recovery.avoid),
            },
            "retry": None
            if code.retry is None
            else {
                "policy": code.retry.policy.value,
                "limit": code.retry.limit,
                "delay_ms": facts.delay_ms,
                "attempts": facts.attempts,
            },
            "limits": list(code.limits),
            "related": list(code.related),
        }
        if self.uses("http"):
            entry["http_status"] = self.http_status(code)
        if self.uses("jsonrpc"):
            entry["jsonrpc_code"] = code.jsonrpc
        entry["grpc_status"] = self.grpc_status(code)
        entry |= {"since": code.since, **code.lifecycle(), "docs_url": self.docs_url(code)}
        if code.rationale:
            entry["rationale"] = code.rationale
        if code.shape_reason:
            entry["shape_reason"] = code.shape_reason
        if code.parent is not None:
            entry["parent"] = code.parent
        if self.fields:
            entry["fields"] = self.extra_values(code)
        return entry

    def extra_values(self, code: Code) -> dict[str, object]:
        """A code's declared field values as plain data, in declared order (lists as lists)."""
        return {
            f.name: list(value) if isinstance(value, tuple) else value
            for f in self.fields
            if (value := code.extra.get(f.name)) is not None
        }
