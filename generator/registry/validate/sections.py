"""The small sections (the vocabulary, layers, limits, adapters): each entry read on its own.

The vocabulary (actors, shapes, recovery kinds) is what a registry's layers and codes may
name. Where a registry declares a kind of word, each layer or code must use one of its
words; where it declares none, the key is refused, so that a word nobody defined never
reaches the docs."""

from __future__ import annotations

from ...diagnostics import Diagnostics
from ...names import pascal
from ...suggest import some_of, suggest
from .. import schema
from ..fields import Fields
from ..loader import Node, Scalar
from ..model import (
    Actor,
    Adapter,
    Envelope,
    GlossaryTerm,
    Layer,
    Limit,
    RecoveryKind,
    RetryPolicy,
    Shape,
)
from .names import reference_ok

#: The section that declares each kind of word a layer or code may use.
_SECTION = {"actor": "actors", "shape": "shapes", "recovery kind": "recovery_kinds"}


def vocabulary_ok(
    f: Fields,
    key: str,
    what: str,
    known: tuple[str, ...],
    where: str,
    found: Diagnostics,
    inherited: bool = False,
) -> str | None:
    """The word ``f`` gives for ``key`` (an actor, shape or recovery kind), checked against
    the ``known`` words the registry declares; None, with the problem reported, otherwise.
    ``inherited`` says the key may be left out because the value comes from elsewhere."""
    value = f.text(key)
    section = _SECTION[what]
    if not known:
        if f.has(key):
            found.error(
                "E-VOCABULARY-UNDECLARED",
                f.mark(key),
                f"{where} names the {what} '{value}', but the registry declares no '{section}'",
                f"declare '{section}:' at the top of the file, or remove '{key}:'",
            )
        return None
    if value is None:
        if not f.has(key) and not inherited and key not in f.misspelt_nodes:
            found.error(
                "E-VOCABULARY-MISSING",
                f.anchor,
                f"{where} has no '{key}', which is required once the registry declares '{section}'",
                f"add '{key}:' with one of: {some_of(known)}",
            )
        return None
    if not reference_ok(value, f.mark(key), known, what, key, where, found):
        return None
    return value


def read_layer(
    key: Scalar,
    node: Node,
    found: Diagnostics,
    actors: tuple[str, ...] = (),
    shapes: tuple[str, ...] = (),
) -> Layer | None:
    where = f"layer '{key.value}'"
    f = Fields(node, schema.LAYER, found, where, key.mark)
    if not f.valid:
        return None
    before = len(found.items)
    title, proves, description = f.text("title"), f.text("proves"), f.text("description")
    actor = vocabulary_ok(f, "actor", "actor", actors, where, found)
    shape = vocabulary_ok(f, "shape", "shape", shapes, where, found)
    if title is None or proves is None or description is None or len(found.items) > before:
        return None
    return Layer(
        id=key.value,
        title=title,
        proves=proves,
        actor=actor,
        shape=shape,
        description=description,
        mark=key.mark,
    )


def read_actor(key: Scalar, node: Node, found: Diagnostics) -> Actor | None:
    f = Fields(node, schema.ACTOR, found, f"actor '{key.value}'", key.mark)
    description = f.text("description") if f.valid else None
    if description is None:
        return None
    return Actor(id=key.value, description=description, mark=key.mark)


def read_glossary_term(key: Scalar, node: Node, found: Diagnostics) -> GlossaryTerm | None:
    f = Fields(node, schema.GLOSSARY_TERM, found, f"glossary term '{key.value}'", key.mark)
    term, definition = (f.text("term"), f.text("definition")) if f.valid else (None, None)
    if term is None or definition is None:
        return None
    return GlossaryTerm(id=key.value, term=term, definition=definition, mark=key.mark)


def read_shape(key: Scalar, node: Node, found: Diagnostics) -> Shape | None:
    f = Fields(node, schema.SHAPE, found, f"shape '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, envelope, proves, description = (
        f.text("title"),
        f.choice("envelope"),
        f.text("proves"),
        f.text("description"),
    )
    if title is None or envelope is None or proves is None or description is None:
        return None
    return Shape(
        id=key.value,
        title=title,
        envelope=Envelope(envelope),
        proves=proves,
        description=description,
        mark=key.mark,
    )


def check_envelopes(shapes: list[Shape], found: Diagnostics) -> None:
    """Each envelope form serves at most one shape: a reader tells shapes apart by it. And
    each shape names types and builders of the generated packages (``RefusedFailure``,
    ``refused_failure``), so two shape ids may not give the same names."""
    named: dict[str, Shape] = {}
    for shape in shapes:
        other = named.setdefault(pascal(shape.id), shape)
        if other is not shape:
            found.error(
                "E-SHAPE-NAME-CLASH",
                shape.mark,
                f"shape '{shape.id}' would give the generated packages the same type names "
                f"as shape '{other.id}' (line {other.mark.line}): {pascal(shape.id)}Failure",
                "rename one of the two shapes",
            )
    first: dict[Envelope, Shape] = {}
    for shape in shapes:
        taken = first.setdefault(shape.envelope, shape)
        if taken is not shape:
            found.error(
                "E-SHAPE-ENVELOPE-TAKEN",
                shape.mark,
                f"shape '{shape.id}' travels in the '{shape.envelope.value}' envelope, like "
                f"shape '{taken.id}' (line {taken.mark.line})",
                "give it the other envelope form, or merge the two shapes",
            )


def read_kind(key: Scalar, node: Node, found: Diagnostics) -> RecoveryKind | None:
    where = f"recovery kind '{key.value}'"
    f = Fields(node, schema.RECOVERY_KIND, found, where, key.mark)
    summary = f.text("summary") if f.valid else None
    if summary is None:
        return None
    policies: list[RetryPolicy] = []
    for policy, mark in f.text_list("retry"):
        if policy not in schema.RETRY_POLICIES:
            found.error(
                "E-SCHEMA-CHOICE",
                mark,
                f"'{policy}' is not a retry policy, in 'retry' of {where}",
                suggest(policy, schema.RETRY_POLICIES),
            )
            return None
        if RetryPolicy(policy) not in policies:
            policies.append(RetryPolicy(policy))
    return RecoveryKind(id=key.value, summary=summary, retry=tuple(policies), mark=key.mark)


def read_limit(key: Scalar, node: Node, found: Diagnostics) -> Limit | None:
    f = Fields(node, schema.LIMIT, found, f"limit '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, default, unit, low, high, bounds = (
        f.text("title"),
        f.integer("default"),
        f.identifier("unit"),
        f.integer("min"),
        f.integer("max"),
        f.text("bounds"),
    )
    if low is not None and high is not None and low > high:
        found.error(
            "E-LIMIT-RANGE",
            f.mark("min"),
            f"limit '{key.value}' has min {low} above max {high}",
            "swap the two values",
        )
        return None
    if default is not None and low is not None and high is not None and not low <= default <= high:
        found.error(
            "E-LIMIT-DEFAULT",
            f.mark("default"),
            f"default {default} of limit '{key.value}' is outside its range {low}..{high}",
            "change the default or widen min/max",
        )
        return None
    if (
        title is None
        or default is None
        or unit is None
        or low is None
        or high is None
        or bounds is None
    ):
        return None
    return Limit(
        id=key.value,
        title=title,
        default=default,
        unit=unit,
        minimum=low,
        maximum=high,
        bounds=bounds,
        mark=key.mark,
        unit_one=f.text("unit_one") or "",
    )


def read_adapter(
    key: Scalar, node: Node, found: Diagnostics, shapes: tuple[str, ...] = ()
) -> Adapter | None:
    f = Fields(node, schema.adapter_schema(shapes), found, f"adapter '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, description = f.text("title"), f.text("description")
    presents = {shape: f.text(shape) for shape in shapes}
    transport = f.choice("transport")
    if title is None or description is None or None in presents.values():
        return None
    if transport is None and f.has("transport"):
        return None
    return Adapter(
        id=key.value,
        title=title,
        description=description,
        presents=tuple((shape, text) for shape, text in presents.items() if text is not None),
        transport=transport,
        mark=key.mark,
    )
