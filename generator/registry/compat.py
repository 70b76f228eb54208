"""What changed between two versions of a registry, and what that means for its version.

A client branches on codes, builds envelopes from their shapes, fills their placeholders and
maps them to HTTP, JSON-RPC and gRPC, and matches problems and google.rpc details by the
registry's URLs and error domain. Each of those is part of a code's contract, so a change to
one of them breaks clients; new codes, deprecations and retirements of deprecated codes do
not; reworded prose is cosmetic. Every fact that reaches a wire has a rule here. :func:`diff`
classifies every change with its reason, and :func:`required_version` says which version the
new registry needs at least.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from operator import attrgetter
from typing import Generic, Literal, Protocol, TypeVar

from ..diagnostics import Diagnostics
from . import grpc
from .model import Code, ExtraField, Limit, Meta, Registry
from .validate import semver

Severity = Literal["breaking", "compatible", "cosmetic"]
ORDER: dict[str, int] = {"breaking": 0, "compatible": 1, "cosmetic": 2}

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Change:
    entity: str  # registry, code, layer, limit, adapter, field (a declared extra field), actor,
    # shape or recovery kind
    name: str
    kind: str  # added, removed, renamed, changed, deprecated, retired, reused
    severity: Severity
    reason: str
    field: str = ""
    old: str = ""
    new: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(getattr(value, "value", value))


@dataclass(frozen=True, kw_only=True)
class Rule(Generic[T]):
    """One row of a classification table: when ``field`` of an entry differs between two
    versions, the change is ``severity`` because of ``reason``.

    ``show`` gives the value a report prints for each side (none: prose, printed as
    nothing). The rule applies when ``compare`` (``show`` if not given) differs, or when
    ``when`` holds, for a field whose test is more than inequality."""

    field: str
    severity: Severity
    reason: str | Callable[[T, T], str]
    show: Callable[[T], object] | None = None
    compare: Callable[[T], object] | None = None
    when: Callable[[T, T], bool] | None = None

    def applies(self, old: T, new: T) -> bool:
        if self.when is not None:
            return self.when(old, new)
        key = self.compare or self.show
        assert key is not None, f"the rule for {self.field} compares nothing"
        return key(old) != key(new)

    def change(self, entity: str, name: str, old: T, new: T) -> Change:
        reason = self.reason if isinstance(self.reason, str) else self.reason(old, new)
        return Change(
            entity=entity,
            name=name,
            kind="changed",
            severity=self.severity,
            reason=reason,
            field=self.field,
            old=_text(self.show(old)) if self.show else "",
            new=_text(self.show(new)) if self.show else "",
        )


def _walk(rules: Sequence[Rule[T]], entity: str, name: str, old: T, new: T) -> list[Change]:
    """Every rule of a table that applies to ``old`` and ``new``, in the table's order."""
    return [rule.change(entity, name, old, new) for rule in rules if rule.applies(old, new)]


def _removed_placeholders(old: Code, new: Code) -> list[str]:
    return [p for p in old.placeholder_names if p not in new.placeholder_names]


def _added_placeholders(old: Code, new: Code) -> list[str]:
    return [p for p in new.placeholder_names if p not in old.placeholder_names]


def _typed_placeholders(code: Code) -> tuple[str, ...]:
    return tuple(f"{p.name} {p.type}" for p in code.placeholders)


def _retyped(old: Code, new: Code) -> bool:
    """A placeholder both versions have, with another type: callers pass the old type."""
    before = {p.name: p.type for p in old.placeholders}
    return any(before.get(p.name, p.type) != p.type for p in new.placeholders)


def _grpc(code: Code) -> str:
    """The gRPC status a code's failure travels with (Registry.grpc_status, by name): the
    declared one, else its HTTP status's; a failure inside a result travels as OK."""
    if code.grpc is not None:
        return code.grpc
    return grpc.from_http(code.http) if code.http is not None else "OK"


def _limit_range(limit: Limit) -> str:
    return f"{limit.minimum}..{limit.maximum}"


def _narrowed(old: Limit, new: Limit) -> bool:
    return new.minimum > old.minimum or new.maximum < old.maximum


#: How a code's fields change its contract, in the order a diff reports them. What a client
#: branches on or passes (layer, shape, placeholders, transports) breaks it; a new retry
#: policy changes how it should react; everything else is prose or history.
CODE_RULES: tuple[Rule[Code], ...] = (
    Rule(
        field="layer",
        severity="breaking",
        reason="clients route failures by layer",
        show=attrgetter("layer"),
    ),
    Rule(
        field="shape",
        severity="breaking",
        reason="clients read the code from the other envelope",
        show=attrgetter("shape"),
    ),
    Rule(
        field="placeholders",
        severity="breaking",
        reason="callers pass placeholders by name; a removed or renamed one fails them",
        show=attrgetter("placeholder_names"),
        when=lambda old, new: bool(_removed_placeholders(old, new)),
    ),
    Rule(
        field="placeholders",
        severity="breaking",
        reason=lambda old, new: "callers must now pass " + ", ".join(_added_placeholders(old, new)),
        show=attrgetter("placeholder_names"),
        when=lambda old, new: (
            not _removed_placeholders(old, new) and bool(_added_placeholders(old, new))
        ),
    ),
    Rule(
        field="placeholders",
        severity="breaking",
        reason="callers pass each value in its declared type; the package refuses another",
        show=_typed_placeholders,
        when=_retyped,
    ),
    Rule(
        field="http",
        severity="breaking",
        reason="HTTP clients branch on the status",
        show=lambda code: "none" if code.http is None else code.http,
    ),
    Rule(
        field="jsonrpc",
        severity="breaking",
        reason="JSON-RPC clients branch on the error code",
        show=lambda code: "none" if code.jsonrpc is None else code.jsonrpc,
    ),
    Rule(
        field="grpc",
        severity="breaking",
        reason="gRPC clients branch on the status",
        show=_grpc,
    ),
    Rule(
        field="retry",
        severity="compatible",
        reason="the retry policy changes how clients should react",
        show=lambda code: code.retry.describe() if code.retry else "none given",
        compare=attrgetter("retry"),
    ),
    Rule(
        field="message",
        severity="cosmetic",
        reason="UI copy only; translations become fuzzy",
        show=lambda code: " / ".join(code.message.forms),
        compare=attrgetter("message"),
    ),
    Rule(
        field="title",
        severity="cosmetic",
        reason="a summary for people (a problem's title is not for programs to branch on); "
        "translations become fuzzy",
        show=lambda code: code.title or "none given",
    ),
    *(
        Rule(field=name, severity="cosmetic", reason="reference prose only", show=attrgetter(name))
        for name in ("meaning", "rationale", "shape_reason")
    ),
    Rule(
        field="recovery",
        severity="cosmetic",
        reason="recovery guidance only",
        show=lambda code: (code.recovery.kind or "steps only") if code.recovery else "none given",
        compare=attrgetter("recovery"),
    ),
    Rule(
        field="agent_hint",
        severity="cosmetic",
        reason="guidance for models in MCP answers and tool results; prose, not a contract",
        show=attrgetter("hint"),
    ),
    Rule(
        field="related",
        severity="cosmetic",
        reason="cross-references only",
        show=attrgetter("related"),
    ),
    Rule(
        field="limits",
        severity="cosmetic",
        reason="the limits a code involves, for readers (its retry limit is the retry's)",
        show=attrgetter("limits"),
    ),
    Rule(
        field="since",
        severity="cosmetic",
        reason="the history of a code should not be rewritten",
        show=lambda code: code.since or "none given",
    ),
)


def _dropped_wires(old: Meta, new: Meta) -> bool:
    return any(wire not in new.wires for wire in old.wires)


#: How the registry's own facts that reach every wire change, in report order.
META_RULES: tuple[Rule[Meta], ...] = (
    Rule(
        field="error_domain",
        severity="breaking",
        reason="google.rpc clients match ErrorInfo by its domain: details of another domain "
        "are not this registry's to them",
        show=attrgetter("domain"),
    ),
    Rule(
        field="docs_url",
        severity="breaking",
        reason="every code's page moves: problem clients match a problem's type by its URL",
        show=attrgetter("docs_url"),
    ),
    Rule(
        field="wires",
        severity="breaking",
        reason="clients of a wire no longer mapped lose every code's status on it",
        show=attrgetter("wires"),
        when=_dropped_wires,
    ),
    Rule(
        field="wires",
        severity="compatible",
        reason="codes gain a status on another wire",
        show=attrgetter("wires"),
        when=lambda old, new: not _dropped_wires(old, new) and old.wires != new.wires,
    ),
    Rule(
        field="locales",
        severity="compatible",
        reason="messages in a language no longer shipped fall back to the source language",
        show=attrgetter("locales"),
        when=lambda old, new: any(tag not in new.locales for tag in old.locales),
    ),
    Rule(
        field="locales",
        severity="cosmetic",
        reason="messages in another language",
        show=attrgetter("locales"),
        when=lambda old, new: (
            all(tag in new.locales for tag in old.locales) and old.locales != new.locales
        ),
    ),
    Rule(
        field="releases",
        severity="cosmetic",
        reason="release notes only",
        compare=attrgetter("releases"),
    ),
    Rule(
        field="source_locale",
        severity="cosmetic",
        reason="the language of untranslated messages, as their locale says",
        show=attrgetter("source_locale"),
    ),
)

#: How a limit's fields change what its users may configure, in report order.
LIMIT_RULES: tuple[Rule[Limit], ...] = (
    Rule(
        field="unit",
        severity="breaking",
        reason="configured values would be read in another unit",
        show=attrgetter("unit"),
    ),
    Rule(
        field="range",
        severity="breaking",
        reason="a value that was allowed is now refused",
        show=_limit_range,
        when=_narrowed,
    ),
    Rule(
        field="range",
        severity="compatible",
        reason="a wider range",
        show=_limit_range,
        when=lambda old, new: not _narrowed(old, new) and _limit_range(old) != _limit_range(new),
    ),
    Rule(
        field="default",
        severity="compatible",
        reason="configurations that rely on the default behave differently",
        show=attrgetter("default"),
    ),
    Rule(
        field="bounds",
        severity="cosmetic",
        reason="prose only",
        compare=attrgetter("title", "bounds"),
    ),
)


def _lifecycle_changes(old: Code, new: Code, old_version: str) -> list[Change]:
    """A code's reuse, deprecation and retirement: events with a kind of their own rather
    than a changed field, and whose severity depends on what was released before."""
    found: list[Change] = []

    def event(kind: str, severity: Severity, reason: str, was: str, now: str) -> None:
        found.append(
            Change(
                entity="code",
                name=new.name,
                kind=kind,
                severity=severity,
                reason=reason,
                field="retired" if kind in ("reused", "retired") else "deprecated",
                old=was,
                new=now,
            )
        )

    if old.retired is not None and new.retired is None:
        reason = "a retired code's name can never be used again; add a new code"
        event("reused", "breaking", reason, old.retired.since, "")
    if old.deprecated is None and new.deprecated is not None:
        instead = new.deprecated.replaced_by or "another code"
        reason = f"still emitted; clients should move to {instead}"
        event("deprecated", "compatible", reason, "", new.deprecated.since)
    if old.retired is None and new.retired is not None:
        # Deprecated by a release after OLD and before the one that retires it: two
        # compatible steps, even in one diff (a client that skipped the deprecation release
        # had the warning in its changelog). A deprecation dated at or before OLD's version,
        # which OLD does not have, was never released: no one was warned.
        warned = old.deprecated is not None or (
            new.deprecated is not None
            and semver(old_version) < semver(new.deprecated.since) < semver(new.retired.since)
        )
        if warned:
            reason = "deprecated before; its constant and page stay"
            event("retired", "compatible", reason, "", new.retired.since)
        else:
            reason = "retired without an earlier release deprecating it"
            event("retired", "breaking", reason, "", new.retired.since)
    return found


def _code_changes(old: Code, new: Code, old_version: str) -> list[Change]:
    """How one code changed; ``old_version`` is the version of the registry ``old`` is from."""
    return _lifecycle_changes(old, new, old_version) + _walk(CODE_RULES, "code", new.name, old, new)


def _extra_changes(old: Code, new: Code, declared: Sequence[ExtraField]) -> list[Change]:
    """A code's values of the fields both registries declare, each change classified by the
    rule the new registry declares for its field."""
    found = []
    for field in declared:
        before, after = old.extra.get(field.name), new.extra.get(field.name)
        if before != after:
            found.append(
                Change(
                    entity="code",
                    name=new.name,
                    kind="changed",
                    severity=_severity(field.compat),
                    reason=f"the registry declares a change of '{field.name}' {field.compat}",
                    field=field.name,
                    old=_text(before),
                    new=_text(after),
                )
            )
    return found


def _severity(value: str) -> Severity:
    for severity in ("breaking", "compatible", "cosmetic"):
        if value == severity:
            return severity
    raise ValueError(value)


def _declaration_changes(old: Registry, new: Registry) -> list[Change]:
    """Declared fields that appear, disappear or change their declaration."""
    found = _presence(
        [_Id(x.name) for x in old.fields],
        [_Id(x.name) for x in new.fields],
        "field",
        "clients that read the field break",
    )
    before = {x.name: x for x in old.fields}
    for field in new.fields:
        previous = before.get(field.name)
        if previous is None or previous == field:
            continue
        dropped = [v for v in previous.values if v not in field.values]
        if previous.type != field.type or dropped:
            severity: Severity = "breaking"
            reason = (
                f"clients read another type ({previous.type} to {field.type})"
                if previous.type != field.type
                else "clients that handle " + ", ".join(dropped) + " lose a value they knew"
            )
        elif (previous.values, previous.pattern, previous.minimum, previous.maximum) != (
            field.values,
            field.pattern,
            field.minimum,
            field.maximum,
        ):
            severity, reason = "compatible", "the values the field allows changed"
        else:
            severity, reason = "cosmetic", "the declaration's description or presentation only"
        found.append(
            Change(
                entity="field",
                name=field.name,
                kind="changed",
                severity=severity,
                reason=reason,
                field="type" if previous.type != field.type else "",
                old=previous.type if previous.type != field.type else "",
                new=field.type if previous.type != field.type else "",
            )
        )
    return found


@dataclass(frozen=True)
class _Id:
    id: str


def _removed_code(name: str, code: Code, old_codes: dict[str, Code], new: Registry) -> Change:
    """A code that is gone: renamed, when a new code says it was (``renamed_from``), else
    with a guess at its new name when one looks like it."""
    heir = next((c.name for c in new.codes if c.renamed_from == name), None)
    if heir is not None:
        return Change(
            entity="code",
            name=name,
            kind="renamed",
            severity="breaking",
            reason=f"clients branching on {name} break; its translations move to {heir}",
            field="name",
            old=name,
            new=heir,
        )
    twin = next(
        (
            c.name
            for c in new.codes
            if c.name not in old_codes and c.layer == code.layer and c.message == code.message
        ),
        None,
    )
    reason = (
        f"renamed to {twin}? clients branching on {name} break; deprecate it, "
        "add the new code, and retire the old one later"
        if twin
        else "clients branching on it break; retire it instead of removing it"
    )
    return Change(entity="code", name=name, kind="removed", severity="breaking", reason=reason)


def diff(old: Registry, new: Registry) -> list[Change]:
    """Every change from ``old`` to ``new``, breaking first, then in registry order."""
    found: list[Change] = []
    old_codes = {c.name: c for c in old.codes}
    new_codes = {c.name: c for c in new.codes}
    known = {x.name for x in old.fields}
    shared = [x for x in new.fields if x.name in known]  # added and removed ones: see below
    if old.meta.package != new.meta.package:
        found.append(
            Change(
                entity="registry",
                name=new.meta.name,
                kind="changed",
                severity="breaking",
                reason="applications import the package by this name",
                field="package",
                old=old.meta.package,
                new=new.meta.package,
            )
        )
    found += _walk(META_RULES, "registry", new.meta.name, old.meta, new.meta)
    for name, code in old_codes.items():
        if name not in new_codes:
            found.append(_removed_code(name, code, old_codes, new))
    for name, code in new_codes.items():
        if name not in old_codes:
            found.append(
                Change(
                    entity="code",
                    name=name,
                    kind="added",
                    severity="compatible",
                    reason=f"the new name of {code.renamed_from}"
                    if code.renamed_from in old_codes
                    else "a new code",
                    field="since",
                    new=code.since or "",
                )
            )
        else:
            found += _code_changes(old_codes[name], code, old.meta.version)
            found += _extra_changes(old_codes[name], code, shared)
    found += _named(
        old.layers, new.layers, "layer", ("actor", "shape"), ("title", "proves", "description")
    )
    found += _named(old.adapters, new.adapters, "adapter", (), ("title", "description", "presents"))
    found += _named(old.shapes, new.shapes, "shape", (), ("title", "proves", "description"))
    found += _envelope_changes(old, new)
    found += _named(old.actors, new.actors, "actor", (), ("description",))
    found += _named(old.recovery_kinds, new.recovery_kinds, "recovery kind", (), ("summary",))
    old_limits = {x.id: x for x in old.limits}
    for limit in new.limits:
        before = old_limits.get(limit.id)
        if before is not None:
            found += _walk(LIMIT_RULES, "limit", limit.id, before, limit)
    found += _presence(old.limits, new.limits, "limit", "configurations that set it fail")
    found += _declaration_changes(old, new)
    return sorted(found, key=lambda c: ORDER[c.severity])


def _envelope_changes(old: Registry, new: Registry) -> list[Change]:
    """A shape that moved to the other envelope form: every code of it reaches clients in
    another envelope, though no code's own fields changed."""
    before = {x.id: x.envelope for x in old.shapes}
    return [
        Change(
            entity="shape",
            name=shape.id,
            kind="changed",
            severity="breaking",
            reason="clients read its codes from the other envelope",
            field="envelope",
            old=before[shape.id].value,
            new=shape.envelope.value,
        )
        for shape in new.shapes
        if shape.id in before and before[shape.id] is not shape.envelope
    ]


class _Named(Protocol):
    @property
    def id(self) -> str: ...


def _presence(
    old: Sequence[_Named], new: Sequence[_Named], entity: str, removed_reason: str
) -> list[Change]:
    before = [x.id for x in old]
    after = [x.id for x in new]
    found = [
        Change(entity=entity, name=name, kind="removed", severity="breaking", reason=removed_reason)
        for name in before
        if name not in after
    ]
    found += [
        Change(
            entity=entity, name=name, kind="added", severity="compatible", reason=f"a new {entity}"
        )
        for name in after
        if name not in before
    ]
    return found


def _named(
    old: Sequence[_Named],
    new: Sequence[_Named],
    entity: str,
    contract: tuple[str, ...],
    prose: tuple[str, ...],
) -> list[Change]:
    found = _presence(old, new, entity, f"codes and clients that name the {entity} break")
    before = {x.id: x for x in old}
    for item in new:
        previous = before.get(item.id)
        if previous is None:
            continue
        for field in contract:
            if getattr(previous, field) != getattr(item, field):
                found.append(
                    Change(
                        entity=entity,
                        name=item.id,
                        kind="changed",
                        severity="compatible",
                        reason="each code's own shape and layer are compared separately",
                        field=field,
                        old=_text(getattr(previous, field)),
                        new=_text(getattr(item, field)),
                    )
                )
        for field in prose:
            if getattr(previous, field) != getattr(item, field):
                found.append(
                    Change(
                        entity=entity,
                        name=item.id,
                        kind="changed",
                        severity="cosmetic",
                        reason="prose only",
                        field=field,
                    )
                )
    return found


def worst(changes: list[Change]) -> Severity | None:
    return min((c.severity for c in changes), key=lambda s: ORDER[s], default=None)


def required_version(old_version: str, changes: list[Change]) -> str:
    """The smallest version the new registry must have after ``changes``."""
    major, minor, patch = semver(old_version)
    severity = worst(changes)
    if severity == "breaking":
        return f"{major}.{minor + 1}.0" if major == 0 else f"{major + 1}.0.0"
    if severity == "compatible":
        return f"{major}.{minor + 1}.0"
    if severity == "cosmetic":
        return f"{major}.{minor}.{patch + 1}"
    return old_version


def version_problems(old: Registry, new: Registry, changes: list[Change]) -> Diagnostics:
    """Why the new registry's version does not fit its changes (none when it does), each
    where the new registry says what has to change: its version, or a new code."""
    found = Diagnostics()
    needed = required_version(old.meta.version, changes)
    if semver(new.meta.version) < semver(needed):
        severity = worst(changes)
        found.error(
            "E-VERSION-BEHIND",
            new.meta.version_mark,
            f"the changes since {old.meta.version} are {severity}, so the registry "
            f"needs version {needed} or later, not {new.meta.version}"
            if severity is not None
            else f"the registry's version {new.meta.version} is lower than "
            f"{old.meta.version}, the version it is compared with; a version never goes back",
            f"set registry.version: {needed}",
        )
    for change in changes:
        if (
            change.kind == "added"
            and change.entity == "code"
            and change.new  # a code that gives no 'since' claims no version
            and change.new != new.meta.version
            and semver(new.meta.version) > semver(old.meta.version)
        ):
            code = new.code(change.name)
            found.error(
                "E-VERSION-SINCE-NEW",
                code.since_mark if code.since_mark.line else code.mark,
                f"code {change.name} is new in {new.meta.version} but says since {change.new}",
                f"set since: {new.meta.version}",
            )
    return found


def problem_lines(found: Diagnostics) -> list[str]:
    """The version problems as ``diff`` reports them: one line each, with its place, and a
    warning (``check --against`` fails on them)."""
    return [f"{item.mark}: warning: {item.message} ({item.hint})" for item in found.sorted()]
