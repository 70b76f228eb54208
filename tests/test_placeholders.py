from __future__ import annotations

import pytest

from generator.placeholders import parse


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
