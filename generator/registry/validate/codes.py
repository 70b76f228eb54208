"""One code: its layer and shape, transports, recovery, retry, references and lifecycle."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import Diagnostics, Mark
from .. import schema, transports
from ..fields import Fields
from ..loader import Node, Scalar, Sequence
from ..model import (
    Code,
    Deprecation,
    Envelope,
    ExtraField,
    Layer,
    Recovery,
    RecoveryKind,
    Retirement,
    Retry,
    RetryPolicy,
    Shape,
)
from .extras import read_values
from .messages import read_message, read_placeholders, read_title
from .names import Naming, reference_ok
from .sections import vocabulary_ok
from .versions import semver, semver_field

#: JSON-RPC 2.0 reserves -32768..-32000; only these and the server range may be used there.
JSONRPC_PREDEFINED = {-32700, -32600, -32601, -32602, -32603}


@dataclass(frozen=True)
class Vocabulary:
    """What the registry declared that a code may name: its shapes (by id, the valid ones),
    every declared shape and recovery kind id, and the wires it uses."""

    shapes: dict[str, Shape] = field(default_factory=dict)
    shape_ids: tuple[str, ...] = ()
    kind_ids: tuple[str, ...] = ()
    wires: tuple[str, ...] = ()
    transports: tuple[str, ...] = ()  # the protocols its adapters say they are
    naming: Naming = field(default_factory=Naming)  # the rule its code names follow


def check_replacements(codes: list[Code], found: Diagnostics) -> None:
    """A deprecated code must point at a code that is still emitted."""
    retired = {code.name for code in codes if code.retired is not None}
    for code in codes:
        target = code.deprecated.replaced_by if code.deprecated else None
        if target in retired:
            found.error(
                "E-REF-RETIRED-REPLACEMENT",
                code.mark,
                f"code {code.name} is replaced by {target}, which is retired",
                "name a code that is still emitted",
            )


def check_renames(codes: list[Code], found: Diagnostics) -> None:
    """No two codes are renamed from the same old name (each code's own 'renamed_from' is
    checked where it is read, see :func:`read_renamed_from`)."""
    claimed: dict[str, Code] = {}
    for code in codes:
        old = code.renamed_from
        if old is None:
            continue
        if old in claimed:
            found.error(
                "E-RENAME-TWICE",
                code.mark,
                f"code {code.name} and code {claimed[old].name} are both renamed from {old}",
                "one code takes the old name's place; the other is a new code",
            )
        else:
            claimed[old] = code


def read_renamed_from(
    f: Fields,
    name: str,
    code_names: tuple[str, ...],
    found: Diagnostics,
    naming: Naming | None = None,
) -> str | None:
    """A code's former name: one the registry's naming rule allows (so that its catalog
    entries are errorbook's), neither its own nor one a code of the registry still has."""
    naming = naming or Naming()
    old = f.text("renamed_from")
    if old is None:
        return None
    where, mark = f"code {name}", f.mark("renamed_from")
    if old == name:
        found.error(
            "E-REF-SELF",
            mark,
            f"{where} names itself in 'renamed_from'",
            "name the code it was called before, or remove 'renamed_from'",
        )
    elif old in code_names:
        found.error(
            "E-RENAME-CODE-EXISTS",
            mark,
            f"{where} is renamed from {old}, but the registry still has a code {old}",
            f"a code that stays is replaced, not renamed: give {old} "
            f"'deprecated: {{since: ..., replaced_by: {name}}}', or remove {old}",
        )
    elif not naming.accepts(old):
        found.error(
            "E-RENAME-NOT-A-CODE-NAME",
            mark,
            f"{where} is renamed from '{old}', which is not a code name by the registry's "
            "naming rule",
            "write the old name as the registry had it, such as OLD_NAME",
        )
    else:
        return old
    return None


def check_recovery_retry(codes: list[Code], kinds: list[RecoveryKind], found: Diagnostics) -> None:
    """A code's retry policy must be one its recovery kind's summary fits: a summary that
    says "retry" on a code that must not be retried contradicts the code's own facts."""
    allowed = {kind.id: kind for kind in kinds if kind.retry}
    for code in codes:
        kind = allowed.get(code.recovery.kind or "") if code.recovery else None
        if kind is None or code.retry is None or code.retry.policy in kind.retry:
            continue
        fits = ", ".join(policy.value for policy in kind.retry)
        found.error(
            "E-RECOVERY-RETRY-CONTRADICTS",
            code.mark,
            f"code {code.name} has retry policy '{code.retry.policy.value}', but its recovery "
            f"kind '{kind.id}' (line {kind.mark.line}) fits only {fits}",
            "give the code a recovery kind whose summary fits its retry policy, or correct "
            "the policy",
        )


def read_code(
    key: Scalar,
    node: Node,
    layer_ids: tuple[str, ...],
    layers: dict[str, Layer],
    limit_ids: tuple[str, ...],
    code_names: tuple[str, ...],
    version: str | None,
    extra_fields: tuple[ExtraField, ...],
    found: Diagnostics,
    required: tuple[str, ...] = (),
    words: Vocabulary | None = None,
    parent: Code | None = None,
    is_sub: bool = False,
    has_children: bool = False,
) -> Code | None:
    """One code. A sub-code (``is_sub``) takes what it does not give of schema.INHERITED
    from ``parent``, resolved already (None when the parent is invalid: its problems are
    reported, and the sub-code is only checked for its own)."""
    words = words or Vocabulary()
    name = key.value
    where = f"code {name}"
    code_schema = schema.sub_code_schema if is_sub else schema.code_schema
    f = Fields(node, code_schema(extra_fields), found, where, key.mark)
    if not f.valid:
        return None
    # What the sub-code inherits, key by key (see schema.INHERITED).
    inherit = {
        k: parent is not None and not f.has(k) for k in ("layer", "recovery", "retry", "limits")
    }
    before = len(found.items)
    for policy_key in required:
        if "." not in policy_key and not f.has(policy_key) and not inherit.get(policy_key):
            doc = schema.CODE.field(policy_key).doc.split(";")[0]
            found.error(
                "E-POLICY-MISSING-KEY",
                key.mark,
                f"{where} has no '{policy_key}', which 'registry.required' asks of every code",
                f"add '{policy_key}:', {doc[0].lower()}{doc[1:]}",
            )

    layer_id = f.text("layer")
    layer = None
    if layer_id is not None and reference_ok(
        layer_id, f.mark("layer"), layer_ids, "layer", "layer", where, found
    ):
        layer = layers.get(layer_id)  # None when the layer itself is invalid
    if parent is not None and inherit["layer"]:
        layer = layers.get(parent.layer)

    shape_value = vocabulary_ok(
        f,
        "shape",
        "shape",
        words.shape_ids,
        where,
        found,
        inherited=True,  # from the layer
    )
    shape_reason = f.text("shape_reason") or ""
    shape = shape_value or (layer.shape if layer else None)
    if parent is not None and not f.has("layer") and not f.has("shape"):
        shape, shape_reason = parent.shape, shape_reason or parent.shape_reason
    if layer is not None and shape is not None and shape != layer.shape and not shape_reason:
        found.error(
            "E-SHAPE-REASON-MISSING",
            f.mark("shape"),
            f"{where} has shape '{shape}' but its layer '{layer.id}' uses '{layer.shape}'",
            "add 'shape_reason:' to say why this code differs, or remove 'shape:'",
        )
    if shape_reason and layer is not None and shape == layer.shape:
        found.error(
            "E-SHAPE-REASON-UNNEEDED",
            f.mark("shape_reason"),
            f"{where} has a 'shape_reason' but its shape is its layer's",
            "remove 'shape_reason:'; it explains an override only",
        )

    declared, declared_names = read_placeholders(f, where, found, required)
    message = read_message(f, where, declared, declared_names, found, has_children)
    title = read_title(f, where, found)
    declared_shape = words.shapes.get(shape) if shape is not None else None
    envelope = declared_shape.envelope if declared_shape is not None else None
    from_parent = None
    if parent is not None and envelope is Envelope.ERROR and parent.shape == shape:
        from_parent = parent  # a sub-code in the error envelope keeps its parent's numbers
    http, jsonrpc = read_wires(f, where, envelope, words.wires, key, found, from_parent)
    if jsonrpc is not None and f.has("jsonrpc"):
        check_transports(jsonrpc, f.mark("jsonrpc"), where, words.transports, found)
    grpc = read_grpc(f, where, envelope, found, from_parent)

    recovery = read_recovery(f, where, words.kind_ids, found)
    retry = read_retry(f, where, limit_ids, found)
    limits: list[str] = []
    if parent is not None:
        recovery = parent.recovery if inherit["recovery"] else recovery
        retry = parent.retry if inherit["retry"] else retry
        limits = list(parent.limits) if inherit["limits"] else limits
    for limit_id, mark in f.text_list("limits"):
        if limit_id in limits:
            found.error(
                "E-REF-DUPLICATE",
                mark,
                f"{where} names limit '{limit_id}' twice in 'limits'",
                "remove the second entry",
            )
        elif reference_ok(limit_id, mark, limit_ids, "limit", "limits", where, found):
            limits.append(limit_id)
    if retry is not None and retry.limit is not None and retry.limit not in limits:
        limits.append(retry.limit)
    related: list[str] = []
    for other, mark in f.text_list("related"):
        if other == name:
            found.error("E-REF-SELF", mark, f"{where} names itself in 'related'", "remove it")
        elif other in related:
            found.error(
                "E-REF-DUPLICATE",
                mark,
                f"{where} names code '{other}' twice in 'related'",
                "remove the second entry",
            )
        elif reference_ok(other, mark, code_names, "code", "related", where, found, name):
            related.append(other)

    since = semver_field(f, "since", found)
    if since is not None and version is not None and semver(since) > semver(version):
        found.error(
            "E-VERSION-AFTER-REGISTRY",
            f.mark("since"),
            f"{where} is since {since}, after the registry's version {version}",
            f"set registry.version to {since} or later (the release that adds it), or use a "
            f"version up to {version}",
        )

    deprecated, retired = read_lifecycle(f, name, since, version, code_names, found)
    renamed_from = read_renamed_from(f, name, code_names, found, words.naming)
    extra = read_values(f, extra_fields, where, found)
    meaning, rationale = f.text("meaning"), f.text("rationale") or ""
    if (
        len(found.items) > before
        or layer is None
        or (shape is None and bool(words.shape_ids))
        or message is None
        or title is None
        or (recovery is None and f.has("recovery"))
        or (retry is None and f.has("retry"))
        or (since is None and f.has("since"))
    ):
        return None  # the problem is reported already, here or where the layer is defined
    return Code(
        name=name,
        layer=layer.id,
        shape=shape,
        message=message,
        placeholders=tuple(declared.values()),
        meaning=meaning or "",
        title=title,
        recovery=recovery,
        retry=retry,
        since=since,
        since_mark=f.mark("since") if since is not None else Mark("", 0, 0),
        limits=tuple(limits),
        related=tuple(related),
        http=http,
        jsonrpc=jsonrpc,
        grpc=grpc,
        shape_reason=shape_reason,
        rationale=rationale,
        deprecated=deprecated,
        retired=retired,
        renamed_from=renamed_from,
        agent_hint=f.text("agent_hint") or "",
        extra=extra,
        parent=name.rpartition(".")[0] or None,
        mark=key.mark,
    )


def read_lifecycle(
    f: Fields,
    name: str,
    since: str | None,
    version: str | None,
    code_names: tuple[str, ...],
    found: Diagnostics,
) -> tuple[Deprecation | None, Retirement | None]:
    """A code's deprecation and retirement, each dated between its 'since' and now."""
    where = f"code {name}"

    def dated(fields: Fields, what: str, after: str | None, after_what: str) -> str | None:
        value = semver_field(fields, "since", found)
        if value is None:
            return None
        if after is not None and semver(value) < semver(after):
            found.error(
                "E-VERSION-ORDER",
                fields.mark("since"),
                f"{where} is {what} since {value}, before it was {after_what} ({after})",
                f"use a version from {after} on",
            )
            return None
        if version is not None and semver(value) > semver(version):
            found.error(
                "E-VERSION-AFTER-REGISTRY",
                fields.mark("since"),
                f"{where} is {what} since {value}, after the registry's version {version}",
                f"set registry.version to {value} or later (the release that {what} it), or "
                f"use a version up to {version}",
            )
            return None
        return value

    deprecation = retirement = None
    node = f.node("deprecated")
    if node is not None:
        d = Fields(node, schema.DEPRECATION, found, f"the deprecation of {where}")
        if d.valid:
            when = dated(d, "deprecated", since, "introduced")
            target = d.text("replaced_by")
            if target == name:
                found.error(
                    "E-REF-SELF",
                    d.mark("replaced_by"),
                    f"{where} names itself in 'replaced_by'",
                    "name the code that replaces it",
                )
                target = None
            elif target is not None and not reference_ok(
                target, d.mark("replaced_by"), code_names, "code", "replaced_by", where, found
            ):
                target = None
            if when is not None:
                deprecation = Deprecation(
                    since=when, replaced_by=target, reason=d.text("reason") or ""
                )
    node = f.node("retired")
    if node is not None:
        r = Fields(node, schema.RETIREMENT, found, f"the retirement of {where}")
        if r.valid:
            after, after_what = (
                (deprecation.since, "deprecated") if deprecation else (since, "introduced")
            )
            when = dated(r, "retired", after, after_what)
            if when is not None:
                retirement = Retirement(since=when, reason=r.text("reason") or "")
    return deprecation, retirement


def read_wires(
    f: Fields,
    where: str,
    envelope: Envelope | None,
    wires: tuple[str, ...],
    key: Scalar,
    found: Diagnostics,
    parent: Code | None = None,
) -> tuple[int | None, int | None]:
    """The code's HTTP status and JSON-RPC number, on the wires the registry uses: given
    for a failure that travels in the error envelope (or taken from ``parent``, a code of
    the same shape), absent for one inside a result."""
    http, jsonrpc = f.integer("http"), f.integer("jsonrpc")
    if parent is not None:
        http = http if f.has("http") else parent.http
        jsonrpc = jsonrpc if f.has("jsonrpc") else parent.jsonrpc
    for name in ("http", "jsonrpc"):
        if f.has(name) and name not in wires:
            found.error(
                "E-WIRE-UNDECLARED",
                f.mark(name),
                f"{where} gives '{name}', but 'registry.wires' does not name that wire",
                f"add {name} to 'registry.wires', or remove '{name}:'",
            )
    if envelope is Envelope.ERROR:
        for name in wires:
            if not f.has(name) and parent is None:
                found.error(
                    "E-STATUS-MISSING",
                    key.mark,
                    f"{where} travels in the error envelope but has no '{name}'",
                    f"add '{name}:' with the status its transport answers",
                )
        if http is not None and not 400 <= http <= 599:
            found.error(
                "E-STATUS-HTTP-NOT-ERROR",
                f.mark("http"),
                f"{where} has HTTP status {http}, which is not an error",
                "use a 4xx status for the client's fault or 5xx for the server's",
            )
        if (
            jsonrpc is not None
            and -32768 <= jsonrpc <= -32000
            and not (jsonrpc in JSONRPC_PREDEFINED or -32099 <= jsonrpc <= -32000)
        ):
            found.error(
                "E-STATUS-JSONRPC-RESERVED",
                f.mark("jsonrpc"),
                f"{where} uses JSON-RPC code {jsonrpc}, which JSON-RPC 2.0 reserves",
                "use a predefined code or one from -32099 to -32000",
            )
    elif envelope is Envelope.RESULT:
        for name in wires:
            if f.has(name):
                found.error(
                    "E-STATUS-ON-ACTION",
                    f.mark(name),
                    f"{where} travels inside a result, so it has no '{name}' of its own",
                    "remove it: a failure inside a result travels inside {ok: true}, as HTTP "
                    "200 and as a JSON-RPC result",
                )
    return (http if "http" in wires else None), (jsonrpc if "jsonrpc" in wires else None)


def check_transports(
    number: int, mark: Mark, where: str, declared: tuple[str, ...], found: Diagnostics
) -> None:
    """Refuse a JSON-RPC number that a transport the registry's adapters declare reserves
    for itself (registry/transports.py: the table and its source)."""
    for transport in declared:
        reserved = transports.reserved_by(transport, number)
        if reserved is None:
            continue
        free, title = transports.FREE[transport], transports.TITLES[transport]
        found.error(
            "E-STATUS-JSONRPC-TRANSPORT",
            mark,
            f"{where} uses JSON-RPC code {number}, which {title} reserves: {reserved.why}",
            f"use a number {title} leaves free, from {free[0]} to {free[-1]}, or one "
            "outside -32768 to -32000",
        )


def read_grpc(
    f: Fields, where: str, envelope: Envelope | None, found: Diagnostics, parent: Code | None
) -> str | None:
    """The gRPC status a code declares (a google.rpc.Code name), or its parent's; None when
    it declares none, and its status is derived from its HTTP status (registry/grpc.py)."""
    grpc = f.choice("grpc")
    if not f.has("grpc"):
        return parent.grpc if parent is not None else None
    if envelope is Envelope.RESULT:
        found.error(
            "E-STATUS-ON-ACTION",
            f.mark("grpc"),
            f"{where} travels inside a result, so it has no 'grpc' of its own",
            "remove it: a failure inside a result travels inside {ok: true}, as gRPC OK",
        )
        return None
    if grpc == "OK":
        found.error(
            "E-STATUS-GRPC-OK",
            f.mark("grpc"),
            f"{where} travels in the error envelope, but its gRPC status is OK",
            "give the gRPC status of the failure, such as FAILED_PRECONDITION or UNAVAILABLE, "
            "or remove 'grpc:' to derive it from the HTTP status",
        )
        return None
    return grpc


def read_recovery(
    f: Fields, where: str, kinds: tuple[str, ...], found: Diagnostics
) -> Recovery | None:
    node = f.node("recovery")
    if node is None:
        return None
    r = Fields(node, schema.RECOVERY, found, f"the recovery of {where}")
    if not r.valid:
        return None
    kind = vocabulary_ok(r, "kind", "recovery kind", kinds, f"the recovery of {where}", found)
    steps = [text for text, _ in r.text_list("steps")]
    avoid = [text for text, _ in r.text_list("avoid")]
    steps_node = r.node("steps")
    if isinstance(steps_node, Sequence) and not steps_node.items:
        found.error(
            "E-RECOVERY-NO-STEPS",
            r.mark("steps"),
            f"the recovery of {where} has no steps",
            "list at least one",
        )
        return None
    if (kind is None and bool(kinds)) or not steps:
        return None
    return Recovery(kind=kind, steps=tuple(steps), avoid=tuple(avoid))


def read_retry(
    f: Fields, where: str, limit_ids: tuple[str, ...], found: Diagnostics
) -> Retry | None:
    node = f.node("retry")
    if node is None:
        return None
    r = Fields(node, schema.RETRY, found, f"the retry policy of {where}")
    if not r.valid:
        return None
    example = f", such as '{limit_ids[0]}'" if limit_ids else ""
    policy, limit = r.choice("policy"), r.text("limit", f"write the id of a limit{example}")
    if policy is None:
        return None
    if policy == RetryPolicy.BOUNDED.value:
        if limit is None:
            if not r.has("limit"):
                found.error(
                    "E-RETRY-NO-LIMIT",
                    r.mark("policy"),
                    f"the bounded retry policy of {where} names no limit",
                    "add 'limit:' with the limit that caps the attempts",
                )
            return None
        if not reference_ok(
            limit, r.mark("limit"), limit_ids, "limit", "retry.limit", where, found
        ):
            return None
    elif limit is not None:
        found.error(
            "E-RETRY-UNEXPECTED-LIMIT",
            r.mark("limit"),
            f"the retry policy '{policy}' of {where} takes no limit",
            "remove 'limit:', or use policy: bounded",
        )
        return None
    return Retry(policy=RetryPolicy(policy), limit=limit)
