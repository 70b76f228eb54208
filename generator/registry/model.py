"""The resolved registry: frozen values that every emitter reads.

Validation builds these once; derived facts (a code's shape when it follows its layer, the
codes a limit produces, each code's documentation URL) are resolved here so that no emitter
computes them again or differently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from ..diagnostics import Mark


class Shape(StrEnum):
    """How a failure reaches the caller."""

    PROTOCOL = "protocol"  # {ok: false, error}: no action result exists
    ACTION = "action"  # {ok: true, result: {error}}: an action ran or was refused


class Actor(StrEnum):
    """Who has to act to clear a failure."""

    DEPLOYMENT = "deployment"
    CLIENT = "client"
    PAGE = "page"
    PROVIDER = "provider"


class RetryPolicy(StrEnum):
    NEVER = "never"
    AFTER_FIX = "after_fix"
    BOUNDED = "bounded"


#: The closed set of recovery kinds, with the sentence each stands for.
RECOVERY_KINDS: dict[str, str] = {
    "fix_configuration": "Change the deployment's configuration, then restart the runtime.",
    "fix_client": "Change the client, or widen the allowlist that exposes capabilities to it.",
    "reread_page": "Read the current page description again; the declaration may have changed.",
    "satisfy_precondition": "Satisfy the precondition the page names; never bypass the guard.",
    "correct_input": "Correct the input the schema or limit names; never resend the same object.",
    "ask_user": "Stop the operation and ask the person, or take a path that is permitted.",
    "inspect_page": "Observe the page to learn whether the action partly succeeded.",
    "report_to_page": "Report the failure to whoever owns the page's action handler.",
    "retry_later": "Retry under the bounded retry policy, keeping the request id.",
}


@dataclass(frozen=True)
class Placeholder:
    name: str
    description: str
    example: str | int
    type: str  # "text" or "integer"


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Recovery:
    kind: str
    steps: tuple[str, ...]
    avoid: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        return RECOVERY_KINDS[self.kind]

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "summary": self.summary,
            "steps": list(self.steps),
            "avoid": list(self.avoid),
        }


@dataclass(frozen=True)
class Retry:
    policy: RetryPolicy
    limit: str | None = None  # the limit that bounds a BOUNDED policy

    def describe(self) -> str:
        if self.policy is RetryPolicy.NEVER:
            return "never retry the same request"
        if self.policy is RetryPolicy.AFTER_FIX:
            return "retry only after the cause is fixed"
        return f"retry automatically, bounded by the limit {self.limit}"


@dataclass(frozen=True)
class Deprecation:
    since: str
    replaced_by: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Retirement:
    since: str
    reason: str = ""


@dataclass(frozen=True)
class Layer:
    id: str
    title: str
    proves: str
    actor: Actor
    shape: Shape
    description: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True)
class Code:
    name: str
    layer: str
    shape: Shape
    message: Message
    placeholders: tuple[Placeholder, ...]
    meaning: str
    recovery: Recovery
    retry: Retry
    since: str
    limits: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    http: int | None = None  # None for action-shaped codes: they travel as HTTP 200
    jsonrpc: int | None = None  # None for action-shaped codes: they travel as a result
    shape_reason: str = ""
    rationale: str = ""
    deprecated: Deprecation | None = None
    retired: Retirement | None = None
    agent_hint: str = ""
    mark: Mark = field(default=Mark("", 0, 0), compare=False)

    @property
    def hint(self) -> str:
        """Model-facing guidance: the registry's agent_hint, or one made of the recovery."""
        if self.agent_hint:
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
    def http_status(self) -> int:
        """The HTTP status the envelope travels with; action failures ride on a 200."""
        return 200 if self.http is None else self.http

    @property
    def placeholder_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.placeholders)

    @property
    def slug(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Limit:
    id: str
    title: str
    default: int
    unit: str
    minimum: int
    maximum: int
    bounds: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True)
class Adapter:
    id: str
    title: str
    description: str
    protocol: str
    action: str
    mark: Mark = field(compare=False)


@dataclass(frozen=True)
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

    @property
    def domain(self) -> str:
        return self.error_domain or self.name


@dataclass(frozen=True)
class Registry:
    meta: Meta
    layers: tuple[Layer, ...]
    codes: tuple[Code, ...]
    limits: tuple[Limit, ...]
    adapters: tuple[Adapter, ...]
    path: str = field(default="codes.yaml", compare=False)

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

    def code(self, name: str) -> Code:
        return self._by_name[name]

    def layer(self, layer_id: str) -> Layer:
        return self._layers[layer_id]

    def limit(self, limit_id: str) -> Limit:
        return self._limits[limit_id]

    def produced_by(self, limit_id: str) -> tuple[Code, ...]:
        """The codes a limit produces: those that name it among their limits."""
        return self._produced.get(limit_id, ())

    def codes_in(self, layer_id: str) -> tuple[Code, ...]:
        return self._in_layer.get(layer_id, ())

    def docs_url(self, code: Code, locale: str | None = None) -> str:
        """The one stable URL of a code's reference page, per published language."""
        return f"{self.meta.docs_url}{locale or self.meta.source_locale}/codes/{code.slug}/"
