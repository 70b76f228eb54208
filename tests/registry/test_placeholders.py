from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.registry import placeholders
from generator.registry.placeholders import parse


def test_names_in_order_of_first_use() -> None:
    parsed = parse("{b} then {a} and {b} again, {{literal}} braces")
    assert parsed.names == ("b", "a")
    assert parsed.problems == ()


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("open {name", 5, "an unclosed '{'"),
        ("nested {a{b}", 7, "an unclosed '{'"),
        ("close } alone", 6, "a lone '}'"),
        ("{0} items", 0, "a positional placeholder '{0}'"),
        ("x {} y", 2, "an empty placeholder '{}'"),
        ("{n!r}", 0, "a conversion in '{n!r}'"),
        ("{n:>9}", 0, "a format spec in '{n:>9}'"),
        ("{n.__class__}", 0, "attribute access in '{n.__class__}'"),
        ("{n[0]}", 0, "index access in '{n[0]}'"),
        ("{two words}", 0, "'{two words}' is not a valid placeholder name"),
    ],
)
def test_problems_are_located_and_named(text: str, offset: int, message: str) -> None:
    parsed = parse(text)
    assert [(p.offset, p.message) for p in parsed.problems] == [(offset, message)]
    assert parsed.problems[0].hint


def test_escaped_braces_are_not_placeholders() -> None:
    assert parse("{{x}} }}{{").names == ()
    assert parse("{{x}} }}{{").problems == ()


def test_a_positional_field_in_a_translation_is_fixed_with_the_sources_names() -> None:
    """The hint names the source's own placeholders, not an example another code has."""
    found = placeholders.translation_problems(
        ("Value {value} is outside {limit}.",), ("Wert {0} liegt außerhalb von {}.",), None
    )
    hints = {f.problem: f.hint for f in found if "positional" in f.problem or "empty" in f.problem}
    assert len(hints) == 2
    assert set(hints.values()) == {"write the source's placeholders by name: {value}, {limit}"}
    # Without placeholders in the source there is no name to give: the general hint stays.
    alone = placeholders.translation_problems(("Closed.",), ("Zu {0}.",), None)
    assert alone[0].hint == "use a named placeholder such as {count}"


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            ["a", "é", " ", "\n", "\t", "\x0b", "\x1c", "\x85", "\u2028", "\u3000"]
        )
    )
)
def test_the_edges_of_a_text_are_what_strip_removes(text: str) -> None:
    """A translation's edges are compared with its source's: the white space str.strip
    removes at each end, found without copying a text that has none."""
    stripped = text.strip()
    start = text.index(stripped) if stripped else len(text)
    expected = (text[:start], text[start + len(stripped) :]) if stripped else (text, "")
    assert placeholders._edges(text) == expected
