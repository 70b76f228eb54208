"""The model's derived facts: computed once on the Registry, read by every emitter and command."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from generator.registry import model
from generator.registry.model import Code, Registry, RetryFacts
from generator.registry.validate import load_registry, load_registry_text

from ..conftest import MINIMAL, ROOT

#: MINIMAL with a duration limit that ITEMS_REFUSED names besides its retry limit.
WITH_DELAY = MINIMAL.replace(
    "limits:\n  attempts:",
    "limits:\n  pause:\n    title: Pause\n    default: 2\n    unit: seconds\n    min: 1\n"
    "    max: 9\n    bounds: How long to wait.\n  attempts:",
).replace("    related: [DOOR_CLOSED]\n", "    related: [DOOR_CLOSED]\n    limits: [pause]\n")

#: MINIMAL without the cross-shape link that makes its codes a pair.
UNLINKED = MINIMAL.replace("    related: [DOOR_CLOSED]\n", "")


def minimal(text: str = MINIMAL) -> Registry:
    return load_registry_text(text, "demo.yaml")


@pytest.mark.parametrize(
    "cls",
    [
        x
        for x in vars(model).values()
        if dataclasses.is_dataclass(x) and x.__module__ == model.__name__
    ],
    ids=lambda cls: cls.__name__,
)
def test_model_classes_take_keywords_only(cls: type) -> None:
    """A code has some twenty fields: a positional call would shift them silently."""
    assert all(f.kw_only for f in dataclasses.fields(cls))
    with pytest.raises(TypeError, match="positional"):
        cast(Any, cls)("first")


def test_a_code_rebuilt_from_its_fields_by_name_is_equal() -> None:
    code = minimal().code("DOOR_CLOSED")
    fields = {f.name: getattr(code, f.name) for f in dataclasses.fields(code)}
    assert Code(**fields) == code


def test_counts_name_each_codes_count_placeholder() -> None:
    registry = minimal()
    assert registry.counts == {"DOOR_CLOSED": None, "ITEMS_REFUSED": "count"}
    assert registry.counts is registry.counts  # computed once per registry


def test_retry_facts_come_from_the_retry_limit_and_a_duration_limit() -> None:
    registry = minimal()
    assert registry.retry_facts(registry.code("DOOR_CLOSED")) == RetryFacts(None, None)
    assert registry.retry_facts(registry.code("ITEMS_REFUSED")) == RetryFacts(None, 3)
    delayed = minimal(WITH_DELAY)
    facts = delayed.retry_facts(delayed.code("ITEMS_REFUSED"))
    assert (facts.delay_ms, facts.attempts) == (2000, 3)


def test_the_example_pair_is_a_cross_shape_relation_of_the_registry() -> None:
    registry = minimal()
    assert registry.example("protocol") is registry.code("DOOR_CLOSED")
    assert registry.example("action") is registry.code("ITEMS_REFUSED")


def test_surface_keeps_the_examples_its_shapes_page_always_showed() -> None:
    surface = load_registry(ROOT / "codes.yaml", "codes.yaml")
    assert surface.example("protocol") is surface.code("CAPABILITY_NOT_EXPOSED")
    assert surface.example("action") is surface.code("PERMISSION_DENIED")


def test_without_a_cross_shape_relation_each_shape_shows_its_first_active_code() -> None:
    retired_first = UNLINKED.replace(
        "    since: 1.0.0\n  ITEMS_REFUSED:",
        "    since: 1.0.0\n    deprecated: {since: 1.1.0}\n    retired: {since: 1.2.0}\n"
        "  OPEN_DOOR:\n    layer: front\n    message: The door is open.\n    meaning: Shut.\n"
        "    recovery: {kind: fix_client, steps: [Shut it.]}\n    retry: {policy: never}\n"
        "    http: 409\n    jsonrpc: -32051\n    since: 1.0.0\n  ITEMS_REFUSED:",
    )
    registry = minimal(retired_first)
    assert registry.code("DOOR_CLOSED").status == "retired"
    assert registry.example("protocol") is registry.code("OPEN_DOOR")
    assert registry.example("action") is registry.code("ITEMS_REFUSED")


def test_a_shape_no_code_has_has_no_example() -> None:
    registry = minimal(UNLINKED)
    only_protocol = dataclasses.replace(
        registry, codes=tuple(c for c in registry.codes if c.shape == "protocol")
    )
    assert only_protocol.example("action") is None
    assert only_protocol.example("protocol") is registry.code("DOOR_CLOSED")


def test_a_record_holds_every_resolved_fact_of_a_code() -> None:
    registry = minimal(WITH_DELAY)
    items = registry.code("ITEMS_REFUSED")
    record = registry.record(items)
    assert record["retry"] == {
        "policy": "bounded",
        "limit": "attempts",
        "delay_ms": 2000,
        "attempts": 3,
    }
    assert record["docs_url"] == registry.docs_url(items)
    assert record["message"] == {
        "text": items.message.text,
        "plural": items.message.plural,
        "count": "count",
    }
    assert record["status"] == "active" and record["agent_hint"] == items.hint
    assert "rationale" not in record and "shape_reason" not in record
    assert record is not registry.record(items)  # a fresh dict: callers may change theirs
