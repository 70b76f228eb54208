"""What changed between two versions of a registry, and what that means for its version.

A client branches on codes, builds envelopes from their shapes, fills their placeholders and
maps them to HTTP and JSON-RPC. Each of those is part of a code's contract, so a change to one
of them breaks clients; new codes, deprecations and retirements of deprecated codes do not;
reworded prose is cosmetic. :func:`diff` classifies every change with its reason, and
:func:`required_version` says which version the new registry needs at least.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal, Protocol

from .model import Code, Registry
from .validate import semver

Severity = Literal["breaking", "compatible", "cosmetic"]
ORDER: dict[str, int] = {"breaking": 0, "compatible": 1, "cosmetic": 2}


@dataclass(frozen=True)
class Change:
    entity: str  # registry, code, layer, limit, adapter
    name: str
    kind: str  # added, removed, changed, deprecated, retired, reused
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


def _code_changes(old: Code, new: Code, old_version: str) -> list[Change]:
    """How one code changed; ``old_version`` is the version of the registry ``old`` is from."""
    found: list[Change] = []

    def change(field: str, severity: Severity, reason: str, a: object, b: object) -> None:
        found.append(
            Change("code", new.name, "changed", severity, reason, field, _text(a), _text(b))
        )

    if old.retired is not None and new.retired is None:
        found.append(
            Change(
                "code",
                new.name,
                "reused",
                "breaking",
                "a retired code's name can never be used again; add a new code",
                "retired",
                old.retired.since,
                "",
            )
        )
    if old.deprecated is None and new.deprecated is not None:
        found.append(
            Change(
                "code",
                new.name,
                "deprecated",
                "compatible",
                "still emitted; clients should move to "
                f"{new.deprecated.replaced_by or 'another code'}",
                "deprecated",
                "",
                new.deprecated.since,
            )
        )
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
            found.append(
                Change(
                    "code",
                    new.name,
                    "retired",
                    "compatible",
                    "deprecated before; its constant and page stay",
                    "retired",
                    "",
                    new.retired.since,
                )
            )
        else:
            found.append(
                Change(
                    "code",
                    new.name,
                    "retired",
                    "breaking",
                    "retired without an earlier release deprecating it",
                    "retired",
                    "",
                    new.retired.since,
                )
            )
    if old.layer != new.layer:
        change("layer", "breaking", "clients route failures by layer", old.layer, new.layer)
    if old.shape != new.shape:
        change(
            "shape",
            "breaking",
            "clients read the code from the other envelope",
            old.shape,
            new.shape,
        )
    removed = [p for p in old.placeholder_names if p not in new.placeholder_names]
    added = [p for p in new.placeholder_names if p not in old.placeholder_names]
    if removed:
        change(
            "placeholders",
            "breaking",
            "callers pass placeholders by name; a removed or renamed one fails them",
            old.placeholder_names,
            new.placeholder_names,
        )
    elif added:
        change(
            "placeholders",
            "breaking",
            "callers must now pass " + ", ".join(added),
            old.placeholder_names,
            new.placeholder_names,
        )
    if old.http_status != new.http_status:
        change(
            "http",
            "breaking",
            "HTTP clients branch on the status",
            old.http_status,
            new.http_status,
        )
    if old.jsonrpc != new.jsonrpc:
        change(
            "jsonrpc",
            "breaking",
            "JSON-RPC clients branch on the error code",
            old.jsonrpc,
            new.jsonrpc,
        )
    if old.retry != new.retry:
        change(
            "retry",
            "compatible",
            "the retry policy changes how clients should react",
            old.retry.describe(),
            new.retry.describe(),
        )
    if old.message != new.message:
        change(
            "message",
            "cosmetic",
            "UI copy only; translations become fuzzy",
            " / ".join(old.message.forms),
            " / ".join(new.message.forms),
        )
    for field in ("meaning", "rationale", "shape_reason"):
        if getattr(old, field) != getattr(new, field):
            change(
                field, "cosmetic", "reference prose only", getattr(old, field), getattr(new, field)
            )
    if old.recovery != new.recovery:
        change(
            "recovery", "cosmetic", "recovery guidance only", old.recovery.kind, new.recovery.kind
        )
    if old.related != new.related or old.limits != new.limits:
        change(
            "related",
            "cosmetic",
            "cross-references only",
            old.related + old.limits,
            new.related + new.limits,
        )
    if old.since != new.since:
        change(
            "since",
            "cosmetic",
            "the history of a code should not be rewritten",
            old.since,
            new.since,
        )
    return found


def diff(old: Registry, new: Registry) -> list[Change]:
    """Every change from ``old`` to ``new``, breaking first, then in registry order."""
    found: list[Change] = []
    old_codes = {c.name: c for c in old.codes}
    new_codes = {c.name: c for c in new.codes}
    if old.meta.package != new.meta.package:
        found.append(
            Change(
                "registry",
                new.meta.name,
                "changed",
                "breaking",
                "applications import the package by this name",
                "package",
                old.meta.package,
                new.meta.package,
            )
        )
    for name, code in old_codes.items():
        if name not in new_codes:
            twin = next(
                (
                    c.name
                    for c in new.codes
                    if c.name not in old_codes
                    and c.layer == code.layer
                    and c.message == code.message
                ),
                None,
            )
            reason = (
                f"renamed to {twin}? clients branching on {name} break; deprecate it, "
                "add the new code, and retire the old one later"
                if twin
                else "clients branching on it break; retire it instead of removing it"
            )
            found.append(Change("code", name, "removed", "breaking", reason))
    for name, code in new_codes.items():
        if name not in old_codes:
            found.append(
                Change("code", name, "added", "compatible", "a new code", "since", "", code.since)
            )
        else:
            found += _code_changes(old_codes[name], code, old.meta.version)
    found += _named(
        old.layers, new.layers, "layer", ("actor", "shape"), ("title", "proves", "description")
    )
    found += _named(
        old.adapters, new.adapters, "adapter", (), ("title", "description", "protocol", "action")
    )
    old_limits = {x.id: x for x in old.limits}
    for limit in new.limits:
        before = old_limits.get(limit.id)
        if before is None:
            continue
        if before.unit != limit.unit:
            found.append(
                Change(
                    "limit",
                    limit.id,
                    "changed",
                    "breaking",
                    "configured values would be read in another unit",
                    "unit",
                    before.unit,
                    limit.unit,
                )
            )
        if limit.minimum > before.minimum or limit.maximum < before.maximum:
            found.append(
                Change(
                    "limit",
                    limit.id,
                    "changed",
                    "breaking",
                    "a value that was allowed is now refused",
                    "range",
                    f"{before.minimum}..{before.maximum}",
                    f"{limit.minimum}..{limit.maximum}",
                )
            )
        elif (limit.minimum, limit.maximum) != (before.minimum, before.maximum):
            found.append(
                Change(
                    "limit",
                    limit.id,
                    "changed",
                    "compatible",
                    "a wider range",
                    "range",
                    f"{before.minimum}..{before.maximum}",
                    f"{limit.minimum}..{limit.maximum}",
                )
            )
        if before.default != limit.default:
            found.append(
                Change(
                    "limit",
                    limit.id,
                    "changed",
                    "compatible",
                    "deployments that rely on the default behave differently",
                    "default",
                    str(before.default),
                    str(limit.default),
                )
            )
        if (before.title, before.bounds) != (limit.title, limit.bounds):
            found.append(Change("limit", limit.id, "changed", "cosmetic", "prose only", "bounds"))
    found += _presence(old.limits, new.limits, "limit", "deployments that configure it fail")
    return sorted(found, key=lambda c: ORDER[c.severity])


class _Named(Protocol):
    @property
    def id(self) -> str: ...


def _presence(
    old: Sequence[_Named], new: Sequence[_Named], entity: str, removed_reason: str
) -> list[Change]:
    before = [x.id for x in old]
    after = [x.id for x in new]
    found = [
        Change(entity, name, "removed", "breaking", removed_reason)
        for name in before
        if name not in after
    ]
    found += [
        Change(entity, name, "added", "compatible", f"a new {entity}")
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
                        entity,
                        item.id,
                        "changed",
                        "compatible",
                        "each code's own shape and layer are compared separately",
                        field,
                        _text(getattr(previous, field)),
                        _text(getattr(item, field)),
                    )
                )
        for field in prose:
            if getattr(previous, field) != getattr(item, field):
                found.append(Change(entity, item.id, "changed", "cosmetic", "prose only", field))
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


def version_problems(old: Registry, new: Registry, changes: list[Change]) -> list[str]:
    """Why the new registry's version does not fit its changes; empty when it does."""
    problems = []
    needed = required_version(old.meta.version, changes)
    if semver(new.meta.version) < semver(needed):
        severity = worst(changes)
        problems.append(
            f"the changes since {old.meta.version} are {severity}, so the registry "
            f"needs version {needed} or later, not {new.meta.version}; set "
            f"registry.version: {needed} in {new.path}"
        )
    for change in changes:
        if (
            change.kind == "added"
            and change.entity == "code"
            and change.new != new.meta.version
            and semver(new.meta.version) > semver(old.meta.version)
        ):
            problems.append(
                f"code {change.name} is new in {new.meta.version} but says since "
                f"{change.new}; set since: {new.meta.version}"
            )
    return problems
