"""The small sections (layers, limits, adapters): each entry read on its own."""

from __future__ import annotations

from ...diagnostics import Diagnostics
from .. import schema
from ..fields import Fields
from ..loader import Node, Scalar
from ..model import Actor, Adapter, Layer, Limit, Shape


def read_layer(key: Scalar, node: Node, found: Diagnostics) -> Layer | None:
    f = Fields(node, schema.LAYER, found, f"layer '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, proves, actor, shape, description = (
        f.text("title"),
        f.text("proves"),
        f.choice("actor"),
        f.choice("shape"),
        f.text("description"),
    )
    if title is None or proves is None or actor is None or shape is None or description is None:
        return None
    return Layer(
        id=key.value,
        title=title,
        proves=proves,
        actor=Actor(actor),
        shape=Shape(shape),
        description=description,
        mark=key.mark,
    )


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
    )


def read_adapter(key: Scalar, node: Node, found: Diagnostics) -> Adapter | None:
    f = Fields(node, schema.ADAPTER, found, f"adapter '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, description, protocol, action = (
        f.text("title"),
        f.text("description"),
        f.text("protocol"),
        f.text("action"),
    )
    if title is None or description is None or protocol is None or action is None:
        return None
    return Adapter(
        id=key.value,
        title=title,
        description=description,
        protocol=protocol,
        action=action,
        mark=key.mark,
    )
