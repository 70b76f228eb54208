"""The schema of codes.yaml, as data.

The validator reads fields through these tables (an unknown key is a typo to report, a missing
required key is named with its meaning), and the documentation renders the same tables as the
schema reference, so the two cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from .grpc import FROM_HTTP as GRPC_FROM_HTTP
from .grpc import NAMES as GRPC_NAMES
from .model import FIELD_COMPAT, FIELD_TYPES, WIRES, Envelope, ExtraField, RetryPolicy
from .transports import TRANSPORTS


@dataclass(frozen=True)
class Field:
    name: str
    type: str  # a human-readable type, shown in docs and diagnostics
    required: bool
    doc: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectSchema:
    name: str  # what one such object is called in a diagnostic: "code", "layer", ...
    doc: str
    fields: tuple[Field, ...]

    def field(self, name: str) -> Field:
        return self._by_name[name]

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @cached_property  # asked for every key of every mapping the reader reads
    def known(self) -> frozenset[str]:
        """:attr:`names` as a set: a key is looked up in it, not compared with each name."""
        return frozenset(self.names)

    @cached_property
    def _by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}


def _values(enum: type[Envelope] | type[RetryPolicy]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


ENVELOPES = _values(Envelope)
RETRY_POLICIES = _values(RetryPolicy)
PLACEHOLDER_TYPES = ("text", "integer")
#: The per-code keys that are optional unless ``registry.required`` names them.
POLICY_KEYS = (
    "title",
    "meaning",
    "recovery",
    "retry",
    "since",
    "placeholders.description",
    "placeholders.example",
)

TOP = ObjectSchema(
    "registry file",
    "The file has these sections; only 'registry', 'layers' and 'codes' are required. The "
    "vocabulary sections ('actors', 'shapes', 'recovery_kinds') name what the registry's "
    "codes may refer to: a registry without them has codes, messages and docs, and no "
    "envelope code.",
    (
        Field("registry", "mapping", True, "What the registry is: name, version, locales, URLs."),
        Field(
            "actors",
            "mapping of actor id to actor",
            False,
            "Who may have to act to clear a failure; a layer names one of them.",
        ),
        Field(
            "shapes",
            "mapping of shape id to shape",
            False,
            "How failures reach the caller. Declaring shapes gives the generated packages "
            "envelope builders and readers.",
        ),
        Field(
            "recovery_kinds",
            "mapping of kind id to recovery kind",
            False,
            "The kinds of recovery a code's `recovery.kind` names, each with its summary.",
        ),
        Field(
            "layers", "mapping of layer id to layer", True, "The failure layers, in reading order."
        ),
        Field("codes", "mapping of CODE to code", True, "The error codes, in reading order."),
        Field("limits", "mapping of limit id to limit", False, "The configurable limits."),
        Field(
            "adapters",
            "mapping of adapter id to adapter",
            False,
            "How each transport presents each result shape.",
        ),
        Field(
            "fields",
            "mapping of field name to field",
            False,
            "Extra per-code fields the registry declares, such as a SQLSTATE.",
        ),
        Field(
            "glossary",
            "mapping of term id to glossary term",
            False,
            "Words translators should render the same way everywhere. Each term is an entry "
            "of the docs catalog (its translation is the word in that language), listed in "
            "the translators' guide, and named in the comments of every entry that uses it.",
        ),
    ),
)

META = ObjectSchema(
    "registry",
    "Metadata of the whole registry.",
    (
        Field("name", "identifier", True, "Short machine name, such as `billing`."),
        Field("title", "text", True, "The name readers see."),
        Field("version", "semver", True, "Version of the registry (MAJOR.MINOR.PATCH)."),
        Field("package", "identifier", True, "Import name of the generated Python package."),
        Field("source_locale", "locale", True, "Language the registry's text is written in."),
        Field("locales", "list of locales", True, "Languages the copy is translated into."),
        Field("docs_url", "URL", True, "Base URL of the published reference site, ending in `/`."),
        Field("description", "text", True, "What the system is and why its errors are structured."),
        Field(
            "error_domain",
            "text",
            False,
            "The domain in gRPC-style ErrorInfo details, such as `billing.example.com` "
            "(default: the registry's name).",
        ),
        Field(
            "wires",
            "list of wires",
            False,
            "The wires the codes are mapped onto: `http` (a status per code, in `http`) and "
            "`jsonrpc` (an error number per code, in `jsonrpc`). A code of a shape that travels "
            "in the error envelope must give a number for each; leave a wire out and its key "
            "is refused.",
            WIRES,
        ),
        Field(
            "required",
            "list of code keys",
            False,
            "The optional per-code keys this registry asks of every code, such as "
            "`[title, meaning, placeholders.description]` (`placeholders.x` asks it of every "
            "placeholder); a code without one is an error. Leave it out and they stay optional.",
            POLICY_KEYS,
        ),
        Field(
            "releases",
            "mapping of version to text",
            False,
            "Why a version changed what it changed, such as `{2.0.0: Codes moved to free "
            "numbers.}`: shown on the changelog's page of that version, beside the codes it "
            "added, deprecated or retired, and translated through the docs catalogs. A version "
            "after the registry's is refused.",
        ),
        Field(
            "naming",
            "naming rule",
            False,
            "The rule every code name follows, such as `{pattern: '[A-Za-z_][A-Za-z0-9_]*', "
            "max_length: 80}`. Leave it out for SCREAMING_SNAKE_CASE names of at most 64 "
            "characters.",
        ),
    ),
)

NAMING = ObjectSchema(
    "naming rule",
    "How code names are written (`registry.naming`). A name is one or more parts joined by "
    "dots, `PARENT.SUB`: the code named by all but the last part is its parent (see code). "
    "Whatever the rule, a code's Python and TypeScript identifier is derived from its name "
    "(a dot becomes `__`, any other character outside A-Z, a-z, 0-9 and `_` becomes `_`, and "
    "`CODE_` goes in front of one that starts with `_` or a digit or is a reserved word) "
    "and two codes may not share one; its page's address is the name in lower case (any "
    "other character as `-`, `code-` in front when it does not start with a letter or "
    "digit). Envelopes, JSON and the TypeScript strings always carry the name itself.",
    (
        Field(
            "pattern",
            "regular expression",
            False,
            "A Python regular expression each dot-separated part of a name must match in full "
            "(default: SCREAMING_SNAKE_CASE, `[A-Z][A-Z0-9]*(_[A-Z0-9]+)*`).",
        ),
        Field(
            "max_length",
            "integer",
            False,
            "The longest name, dots included, from 1 to 250 (default: 64).",
        ),
    ),
)

LAYER = ObjectSchema(
    "layer",
    "A failure layer: where in the system a failure happened.",
    (
        Field("title", "text", True, "Heading for the layer."),
        Field("proves", "text", True, "What a failure in this layer proves."),
        Field(
            "actor",
            "actor id",
            False,
            "Who must act to clear the failure; required when the registry declares actors.",
        ),
        Field(
            "shape",
            "shape id",
            False,
            "The result shape its codes use unless a code overrides it; required when the "
            "registry declares shapes.",
        ),
        Field("description", "text", True, "Reference prose about the layer."),
    ),
)

MESSAGE = ObjectSchema(
    "plural message",
    "A message that shows a count.",
    (
        Field("one", "text", True, "The singular form, in the source locale."),
        Field("other", "text", True, "The plural form, in the source locale."),
        Field("count", "placeholder name", True, "The integer placeholder that selects the form."),
    ),
)

PLACEHOLDER = ObjectSchema(
    "placeholder",
    "A named value filled into the message.",
    (
        Field(
            "description",
            "text",
            False,
            "What the value is, for translators and readers; required when "
            "`registry.required` names `placeholders.description`.",
        ),
        Field(
            "example",
            "text or integer",
            False,
            "A realistic value, shown to translators and in the example envelope; required "
            "when `registry.required` names `placeholders.example`.",
        ),
        Field(
            "type",
            "choice",
            False,
            "`text` (default) or `integer`; a count must be an integer. The generated "
            "package refuses a value of another type wherever values travel.",
            PLACEHOLDER_TYPES,
        ),
    ),
)

RECOVERY = ObjectSchema(
    "recovery",
    "What to do after this failure.",
    (
        Field(
            "kind",
            "recovery kind id",
            False,
            "The kind of recovery; required when the registry declares recovery kinds.",
        ),
        Field("steps", "list of text", True, "The steps, in order."),
        Field("avoid", "list of text", False, "What not to do, such as repeating the same call."),
    ),
)

RETRY = ObjectSchema(
    "retry",
    "Whether the same request may be sent again.",
    (
        Field("policy", "choice", True, "`never`, `after_fix` or `bounded`.", RETRY_POLICIES),
        Field("limit", "limit id", False, "For `bounded`: the limit that caps the attempts."),
    ),
)

CODE = ObjectSchema(
    "code",
    "An error code. Its name is stable forever. A code named `PARENT.SUB` (any number of "
    "levels) is a sub-code of the code named by all but its last part, which must exist. A "
    "sub-code inherits each of `layer`, `shape` with `shape_reason`, `recovery`, `retry`, "
    "`http`, `jsonrpc` and `limits` that it does not give itself from its parent, as the "
    "parent resolves them (`shape` and `shape_reason` only when it gives neither `layer` nor "
    "`shape`, `http` and `jsonrpc` only when it has its parent's shape and that shape travels "
    "in the error envelope); everything else, its "
    "message and prose included, is its own. A parent's message may be empty "
    '(`message: ""`): it is then left out of the catalogs, and the runtimes show the '
    "code's name as its message. A parent's page lists its sub-codes, a sub-code's links its "
    "parent.",
    (
        Field("layer", "layer id", True, "The layer the failure belongs to."),
        Field("shape", "shape id", False, "Result shape; defaults to the layer's."),
        Field(
            "shape_reason",
            "text",
            False,
            "Why this code's shape differs from its layer's; required when it does.",
        ),
        Field(
            "message",
            "text or plural message",
            True,
            'UI copy in the source locale, with `{name}` placeholders; may be empty (`""`) '
            "for a code with sub-codes only.",
        ),
        Field(
            "title",
            "text",
            False,
            "A short summary of the failure, such as `Disk full`; one line in sentence "
            "case, without placeholders or a final full stop, since it is the same for every "
            "occurrence. Translated with the UI copy, it is the `title` of a problem object "
            "(RFC 9457), the subtitle of the code's page and a column of the code table. "
            "Required when `registry.required` names it.",
        ),
        Field(
            "placeholders",
            "mapping of name to placeholder",
            False,
            "Every placeholder the message uses, and no other.",
        ),
        Field(
            "meaning",
            "text",
            False,
            "What the failure means, for the reference; required when `registry.required` "
            "names it.",
        ),
        Field(
            "rationale",
            "text",
            False,
            "Why the registry has this code, where the reason is not obvious.",
        ),
        Field(
            "agent_hint",
            "text",
            False,
            "Short guidance for an AI agent that receives the error: what to do next and what "
            "not to repeat. Plain English, separate from the UI copy; defaults to the recovery "
            "steps.",
        ),
        Field(
            "recovery",
            "recovery",
            False,
            "How to recover; required when `registry.required` names it.",
        ),
        Field(
            "retry",
            "retry",
            False,
            "Whether the same request may be sent again; required when `registry.required` "
            "names it.",
        ),
        Field("limits", "list of limit ids", False, "Limits involved in this failure."),
        Field("related", "list of codes", False, "Codes a reader should compare this one with."),
        Field(
            "http",
            "integer",
            False,
            "HTTP status, where `registry.wires` has `http`; required for codes whose shape "
            "travels in the error envelope, refused for the others (they travel as 200).",
        ),
        Field(
            "jsonrpc",
            "integer",
            False,
            "JSON-RPC error code, where `registry.wires` has `jsonrpc`; required for codes "
            "whose shape travels in the error envelope, refused for the others.",
        ),
        Field(
            "grpc",
            "choice",
            False,
            "gRPC status, a google.rpc.Code name such as `UNAVAILABLE`; refused for codes "
            "whose shape travels inside a result (they travel as `OK`), and `OK` is refused "
            "for the others. A code that gives none takes the one its HTTP status maps to, "
            "after google/rpc/code.proto: "
            + ", ".join(f"{status} `{name}`" for status, name in GRPC_FROM_HTTP.items())
            + "; any other 4xx `INVALID_ARGUMENT`, any other 5xx `INTERNAL`.",
            GRPC_NAMES,
        ),
        Field(
            "since",
            "semver",
            False,
            "Registry version that introduced the code; required when `registry.required` "
            "names it. A code without it is left out of the changelog's additions.",
        ),
        Field(
            "deprecated",
            "deprecation",
            False,
            "Since when the code is deprecated and what replaces it; it is still emitted.",
        ),
        Field(
            "retired",
            "retirement",
            False,
            "Since when the code is no longer emitted. A retired code stays in the registry "
            "for good, so that its name is never reused.",
        ),
        Field(
            "renamed_from",
            "text",
            False,
            "The name this code had before, for a code renamed since a release: no code of "
            "the registry may still have it. `errorbook diff` shows the rename, and each "
            "translation of the old code is offered to this one (fuzzy unless its text is "
            "the same).",
        ),
    ),
)

DEPRECATION = ObjectSchema(
    "deprecation",
    "A code that should no longer be relied on.",
    (
        Field("since", "semver", True, "Registry version that deprecated the code."),
        Field("replaced_by", "code", False, "The code to use instead."),
        Field("reason", "text", False, "Why the code is deprecated."),
    ),
)

RETIREMENT = ObjectSchema(
    "retirement",
    "A code that is no longer emitted.",
    (
        Field(
            "since", "semver", True, "Registry version from which the code is no longer emitted."
        ),
        Field("reason", "text", False, "Why the code was retired."),
    ),
)

LIMIT = ObjectSchema(
    "limit",
    "A configurable bound and its default.",
    (
        Field("title", "text", True, "Short name of the limit."),
        Field("default", "integer", True, "The default value; must lie within the range."),
        Field("unit", "identifier", True, "Unit of the value, such as `seconds` or `bytes`."),
        Field(
            "unit_one",
            "text",
            False,
            "The unit's singular, for a unit CLDR has no name for (`attempt` beside `attempts`): "
            "the site then writes 1 attempt and 3 attempts, and translators get the unit with "
            "their language's plural forms. Units CLDR names (seconds, bytes...) need none.",
        ),
        Field("min", "integer", True, "Smallest allowed value."),
        Field("max", "integer", True, "Largest allowed value."),
        Field("bounds", "text", True, "What the limit bounds."),
    ),
)

ADAPTER = ObjectSchema(
    "adapter",
    "How one transport carries failures. Besides these keys, an adapter has one key per "
    "declared shape, named by the shape's id, saying how the transport presents that shape.",
    (
        Field("title", "text", True, "Name of the transport."),
        Field("description", "text", True, "What the transport is."),
        Field(
            "transport",
            "choice",
            False,
            "The protocol this adapter is, when errorbook knows it: `mcp`. A code's "
            "`jsonrpc` must then not take a number that protocol reserves for itself "
            "(MCP: -32000 to -32002 and -32020 to -32099; an MCP server's own codes take "
            "-32003 to -32019).",
            TRANSPORTS,
        ),
    ),
)

ACTOR = ObjectSchema(
    "actor",
    "A party that may have to act to clear a failure, such as an operator or a client.",
    (Field("description", "text", True, "Who the actor is and what acting means for it."),),
)

GLOSSARY_TERM = ObjectSchema(
    "glossary term",
    "A word of the registry's language that translators keep the same everywhere.",
    (
        Field("term", "text", True, "The word or phrase as the source text writes it."),
        Field(
            "definition",
            "text",
            True,
            "What it means, for translators: shown in the translators' guide and in the "
            "comments of the entries that use the term.",
        ),
    ),
)

SHAPE = ObjectSchema(
    "shape",
    "A result shape: how a failure reaches the caller.",
    (
        Field("title", "text", True, "Heading for the shape."),
        Field(
            "envelope",
            "choice",
            True,
            "The envelope form it travels in: `error` is `{ok: false, error}`, `result` is "
            "`{ok: true, result: {error}}`. Each form serves at most one shape.",
            ENVELOPES,
        ),
        Field("proves", "text", True, "What a failure in this shape tells the caller."),
        Field("description", "text", True, "Reference prose about the shape."),
    ),
)

RECOVERY_KIND = ObjectSchema(
    "recovery kind",
    "A kind of recovery that several codes share.",
    (
        Field("summary", "text", True, "The sentence that sums up what to do."),
        Field(
            "retry",
            "list of retry policies",
            False,
            "The retry policies its summary fits (`never`, `after_fix`, `bounded`); a code "
            "of this kind with another policy is refused. Any policy when not given.",
        ),
    ),
)


@lru_cache(maxsize=16)
def adapter_schema(shapes: tuple[str, ...]) -> ObjectSchema:
    """The schema of an adapter in a registry whose shapes are ``shapes``: one text key
    each, saying how the transport presents that shape."""
    extra = tuple(
        Field(shape, "text", True, f"How it presents a failure of the shape `{shape}`.")
        for shape in shapes
    )
    return ObjectSchema(ADAPTER.name, ADAPTER.doc, ADAPTER.fields + extra)


EXTRA_FIELD = ObjectSchema(
    "field",
    "An extra per-code field. Once declared, a code may carry it as a key of its own, such as "
    '`sqlstate: "42501"`; a key nobody declared is still refused.',
    (
        Field(
            "type",
            "choice",
            True,
            "`string`, `integer`, `choice` (one of `values`), `boolean` or `list` (of text).",
            FIELD_TYPES,
        ),
        Field("description", "text", True, "What the field means, shown to readers."),
        Field("required", "boolean", False, "Whether every code must give it (default: no)."),
        Field(
            "compat",
            "choice",
            False,
            "What `diff` calls a change of a code's value: `breaking` (default), "
            "`compatible` or `cosmetic`.",
            FIELD_COMPAT,
        ),
        Field(
            "column",
            "boolean",
            False,
            "Whether the site's codes table shows it as a column (default: no).",
        ),
        Field(
            "pattern",
            "regular expression",
            False,
            "For `string` and `list`: a value (each entry) must match it in full.",
        ),
        Field("min", "integer", False, "For `integer`: the smallest allowed value."),
        Field("max", "integer", False, "For `integer`: the largest allowed value."),
        Field("values", "list of text", False, "For `choice`: the allowed values; required."),
    ),
)

#: How each field type reads in the code schema's table.
_FIELD_TYPE_DOC = {
    "string": "text",
    "integer": "integer",
    "choice": "choice",
    "boolean": "boolean",
    "list": "list of text",
}


@lru_cache(maxsize=16)  # asked once per code, with the same declarations each time
def code_schema(declared: tuple[ExtraField, ...]) -> ObjectSchema:
    """The schema of a code in a registry that declares ``declared``: CODE and those fields."""
    if not declared:
        return CODE
    extra = tuple(
        Field(x.name, _FIELD_TYPE_DOC[x.type], x.required, x.description, x.values)
        for x in declared
    )
    return ObjectSchema(CODE.name, CODE.doc, CODE.fields + extra)


#: The keys a sub-code (PARENT.SUB) takes from its parent when it does not give them itself.
#: ``shape`` and ``shape_reason`` come as a pair, and only to a sub-code that gives neither
#: ``layer`` nor ``shape``; ``http`` and ``jsonrpc`` only to one of its parent's shape, when
#: that shape travels in the error envelope.
INHERITED = (
    "layer",
    "shape",
    "shape_reason",
    "recovery",
    "retry",
    "http",
    "jsonrpc",
    "grpc",
    "limits",
)


@lru_cache(maxsize=16)
def sub_code_schema(declared: tuple[ExtraField, ...]) -> ObjectSchema:
    """The schema of a sub-code: a code's, with the keys it may inherit optional."""
    base = code_schema(declared)
    fields = tuple(replace(f, required=False) if f.name in INHERITED else f for f in base.fields)
    return ObjectSchema(base.name, base.doc, fields)


ALL = (
    TOP,
    META,
    NAMING,
    ACTOR,
    SHAPE,
    RECOVERY_KIND,
    LAYER,
    CODE,
    MESSAGE,
    PLACEHOLDER,
    RECOVERY,
    RETRY,
    DEPRECATION,
    RETIREMENT,
    LIMIT,
    ADAPTER,
    EXTRA_FIELD,
    GLOSSARY_TERM,
)


#: An example of each object, shown under its table on the site's schema page. They are
#: one made-up registry's (a storage service's), so that no real registry's words appear.
EXAMPLES = {
    "registry file": """\
registry: {name: storage, title: Storage, version: 2.1.0, ...}
actors: {operator: {description: Whoever runs the service.}}
shapes: {refused: {...}, failed: {...}}
recovery_kinds: {free_space: {summary: Free space, then try again.}}
layers: {disk: {...}}
codes: {DISK_FULL: {...}}
""",
    "registry": """\
registry:
  name: storage
  title: Storage
  version: 2.1.0
  package: storage_errors
  source_locale: en
  locales: [de, ja]
  docs_url: https://docs.example.org/storage/errors/
  description: The storage service keeps files for other services.
  error_domain: storage.example.org
  wires: [http, jsonrpc]
  required: [title, meaning, recovery]
  naming: {pattern: "[A-Z][A-Z0-9_]*", max_length: 80}
""",
    "naming rule": """\
registry:
  naming: {pattern: "_?[A-Z][A-Z0-9_]*", max_length: 80}
codes:
  _INTERNAL: {...}       # identifier CODE__INTERNAL, page code-_internal
  DISK.FULL: {...}       # a sub-code of DISK; identifier DISK__FULL
""",
    "actor": """\
actors:
  operator:
    description: Whoever runs the storage service and its disks.
""",
    "shape": """\
shapes:
  refused:
    title: Refused request
    envelope: error
    proves: Nothing was stored.
    description: The answer says ok false.
  failed:
    title: Failed write
    envelope: result
    proves: The write started and failed.
    description: The error is inside the result.
""",
    "recovery kind": """\
recovery_kinds:
  free_space:
    summary: Free space on the volume, then write again.
    retry: [after_fix]    # optional: the retry policies this summary fits
""",
    "layer": """\
layers:
  disk:
    title: Disk
    proves: The data reached the disk, which could not keep it.
    actor: operator       # when the registry declares actors
    shape: refused        # when the registry declares shapes
    description: Failures of the volume under the service.
""",
    "code": """\
codes:
  DISK:
    layer: disk
    message: ""           # a parent may leave its message empty
    since: 1.0.0
  DISK.FULL:              # a sub-code: it inherits DISK's layer and what else it leaves out
    message: The volume {volume} is full.
    title: Volume full
    placeholders:
      volume: {description: The volume's name., example: data-1}
    meaning: No block is free on the volume.
    recovery: {kind: free_space, steps: [Delete old snapshots.]}
    retry: {policy: after_fix}
    http: 507
    jsonrpc: -32010
    since: 2.0.0
""",
    "plural message": """\
message:
  one: "{count} file was not written."
  other: "{count} files were not written."
  count: count
""",
    "placeholder": """\
placeholders:
  volume: {description: The volume's name., example: data-1}
  count: {type: integer}
""",
    "recovery": """\
recovery:
  kind: free_space
  steps: [Delete old snapshots., Write the file again.]
  avoid: [Writing the same file in a loop.]
""",
    "retry": """\
retry: {policy: bounded, limit: write_attempts}
""",
    "deprecation": """\
deprecated: {since: 2.0.0, replaced_by: DISK.FULL, reason: Split by cause.}
""",
    "retirement": """\
retired: {since: 3.0.0, reason: No volume reports it any more.}
""",
    "limit": """\
limits:
  write_attempts:
    title: Write attempts
    default: 3
    unit: attempts
    min: 1
    max: 10
    bounds: How often a write is tried before it fails.
""",
    "adapter": """\
adapters:
  http:
    title: HTTP
    description: The service's JSON API.
    refused: The status of the code, with the envelope as the body.
    failed: 200 OK, with the error inside the result.
""",
    "glossary term": """\
glossary:
  volume:
    term: volume
    definition: A disk the service stores files on, not a loudness.
""",
}
