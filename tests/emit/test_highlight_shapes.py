"""Example blocks highlighted once per shape, their values put back (highlight_shapes): the
same HTML, byte for byte, as highlighting each block whole, whatever the values; and blocks
it cannot take apart exactly are highlighted whole."""

from __future__ import annotations

import json
import pprint
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.integrations import example_tabs, highlight_shapes
from generator.integrations.highlight_shapes import Shapes, reduce

#: What the plugin highlights a whole block with: pymdownx.highlight's formatter.
whole = example_tabs.Renderer(lambda text: None)._highlighted_whole


class Counted:
    """A highlighter that counts the blocks it is given."""

    def __init__(self, highlight: Callable[[str, str], str | None]) -> None:
        self.highlight = highlight
        self.blocks: list[str] = []

    def __call__(self, code: str, language: str) -> str | None:
        self.blocks.append(code)
        return self.highlight(code, language)


#: Text with what lexers read apart: quotes, backslashes, formatting signs, line ends,
#: markup, placeholders' characters, and any other character.
texts = st.text(
    alphabet=st.sampled_from("aZ 09'\"\\%{}<>&#\n\r\t\x00\x7f\u2028\ue000\uf8ffé日")
) | st.text(max_size=12)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-5, max_value=5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)
media = st.sampled_from(
    ["application/json", "application/problem+json", "application/ld+json", "text/plain"]
)


def blocks(
    value: object, status: int, reason: str, header: str, kind: str
) -> list[tuple[str, str]]:
    """The blocks the site's example tabs show of ``value``: a Python value, a JSON
    document, an HTTP response carrying it."""
    document = json.dumps(value, indent=2, ensure_ascii=False)
    response = (
        f"HTTP/1.1 {status} {reason}\nContent-Type: {kind}\nX-Note: {header}\n"
        f"Content-Language: de\n\n{document}"
    )
    return [
        (pprint.pformat(value, sort_dicts=False), "python"),
        (repr(value), "python"),
        (document, "json"),
        (response, "http"),
    ]


#: One for every example, as one serves a whole build: later examples meet shapes that
#: earlier ones made.
shared = Shapes(whole)


@settings(max_examples=300, deadline=None)
@given(
    values,
    st.integers(min_value=100, max_value=599),
    texts.filter(lambda text: "\n" not in text and "\r" not in text),
    texts.filter(lambda text: "\n" not in text and "\r" not in text),
    media,
)
def test_a_block_by_its_shape_is_the_block_highlighted_whole(
    value: object, status: int, reason: str, header: str, kind: str
) -> None:
    for code, language in blocks(value, status, reason, header, kind):
        assert shared(code, language) == whole(code, language), (language, code)


def test_blocks_of_one_shape_are_highlighted_once() -> None:
    counted = Counted(whole)
    shapes = Shapes(counted)
    made = []
    for number in range(1, 41):
        value = {
            "ok": False,
            "error": {"code": f"CODE_{number}", "message": f'Took {number} <ms> & "late".'},
            "params": {"limit": number, "when": -number, "ratio": 0.5},
        }
        for code, language in blocks(value, 429, "Too Many Requests", f"v{number}", "a/json"):
            if language == "http":
                code = code.replace("a/json", "application/problem+json")
            made.append(shapes(code, language))
            assert made[-1] == whole(code, language), (language, code)
    shaped = [block for block in counted.blocks if block != '"\'\\""']  # the escaping probe
    assert len(shaped) == 4  # one per kind of block, for forty values
    assert all("\ue000" in block for block in shaped)
    assert len(set(made)) == len(made)


@pytest.mark.parametrize(
    ("code", "language"),
    [
        ("{'a': 1}  # 'a comment'", "python"),
        ("['''three''', 'x']", "python"),
        ("{'a': 1", "python"),  # not a literal
        ("print('x')", "python"),
        ('{"a": "\ue001"}', "json"),  # holds a placeholder's character
        ('{"a": 1,}', "json"),  # not JSON
        ("HTTP/1.1 200 OK\nContent-Type: application/json\n\n[1", "http"),
        ("HTTP/1.1 200 OK\nContent-Type: application/ld+json\n\n[1]", "http"),
        ("HTTP/1.1 200 OK\nContent-Type: text/plain\n\n[1]", "http"),
        ("HTTP/1.1 200 OK\nX-A: 1\n\n[1]", "http"),  # no Content-Type
        ("HTTP/1.1 200 OK\nContent-Type: application/json\n  folded\n\n[1]", "http"),
        ("GET / HTTP/1.1\nContent-Type: application/json\n\n[1]", "http"),
        ("HTTP/1.1 200 OK\nContent-Type: application/json", "http"),  # no body
        ("x = 1", "toml"),
        # Found by a review: a string continued on the next line (the scan lost step with
        # the strings and took ", " for one), a literal too large to evaluate, JSON too deep
        # to parse (both raised instead of highlighting whole).
        ("['a\\\n', 'xyz']", "python"),
        ("['a\\\r\n', 'xyz']", "python"),
        ("1" + "0" * 400 + "+1j", "python"),
        ("[" * 1000 + "]" * 1000, "json"),
        ("HTTP/1.1 200 OK\nContent-Type: application/json\n\n" + "[" * 1000 + "]" * 1000, "http"),
    ],
)
def test_blocks_it_cannot_take_apart_are_highlighted_whole(code: str, language: str) -> None:
    assert reduce(code, language) is None
    counted = Counted(whole)
    assert Shapes(counted)(code, language) == whole(code, language)
    assert code in counted.blocks


def test_values_a_lexer_reads_apart_stay_in_the_shape() -> None:
    code = "{'a': 'x%sy', 'b': 'x{y}', 'c': 'x\\ny', 'd': '', 'e': \"it's\", 'f': b'plain'}"
    taken = reduce(code, "python")
    assert taken is not None
    shape, strings = taken
    assert strings == ["a", "b", "c", "d", "e", "it's", "f"]
    for kept in ("'x%sy'", "'x{y}'", "'x\\ny'", "''", "b'plain'"):
        assert kept in shape
    assert Shapes(whole)(code, "python") == whole(code, "python")


def test_an_older_formatters_escaping_of_quotes_is_followed() -> None:
    """Pygments before 2.21 escaped quotes in text (&quot;, &#39;): the escaping is found
    by a probe, and values holding quotes are put back escaped the same way."""

    def older(code: str, language: str) -> str | None:
        made = whole(code, language)
        return None if made is None else made.replace('"', "&quot;").replace("'", "&#39;")

    shapes = Shapes(older)
    value = {"say": 'it\'s "fine" & <done>', "n": 3}
    for code, language in blocks(value, 400, "Bad 'Request'", 'a "b"', "application/json"):
        assert shapes(code, language) == older(code, language)
    assert shapes._quotes


def test_where_the_escaping_of_quotes_is_unknown_no_value_with_one_is_taken_out() -> None:
    def odd(code: str, language: str) -> str | None:
        made = whole(code, language)
        return None if made is None else made.replace("'", "&apos;")

    shapes = Shapes(odd)
    code = json.dumps({"a": "it's", "b": "plain"})
    assert shapes(code, "json") == odd(code, "json")
    assert not shapes._quotes
    taken = reduce(code, "json", quotes=False)
    assert taken is not None and taken[1] == ["a", "b", "plain"]


def test_more_values_than_placeholders_are_highlighted_whole() -> None:
    count = highlight_shapes._LAST - highlight_shapes._FIRST + 2
    code = json.dumps(list(range(count)))
    assert reduce(code, "json") is None
    assert reduce(json.dumps(list(range(count - 1))), "json") is not None
