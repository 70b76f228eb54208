"""The registry's own patterns: matched as Python matches them, in time linear in the text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.registry import regex

from ..conftest import MINIMAL, errorbook_process, make_project

LETTERS = "ab_-.1 \n(é٣"

_atoms = st.sampled_from(
    [
        "a",
        "b",
        "_",
        "-",
        "é",
        "٣",
        " ",
        r"\.",
        r"\(",
        r"\n",
        ".",
        r"\d",
        r"\D",
        r"\w",
        r"\W",
        r"\s",
        r"\S",
        "[ab]",
        "[^a]",
        "[a-c]",
        "[]a]",
        "[^]b]",
        r"[\d_]",
        r"[^\w]",
        "[-a]",
        "[a-]",
        r"[\]]",
        r"\x61",
        r"\u00e9",
        "{",
        "a{}",
        "^",
        "$",
        r"\A",
        r"\Z",
    ]
)
_repeats = st.sampled_from(
    ["", "", "?", "*", "+", "{2}", "{1,}", "{,2}", "{0,3}", "{1,2}", "*?", "+?", "??", "{,}"]
)


def _repeated(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    group = st.tuples(st.sampled_from(["(", "(?:", "(?P<g>"]), inner).map(
        lambda p: f"{p[0]}{p[1]})"
    )
    alternation = st.lists(inner, min_size=2, max_size=3).map("|".join)
    piece = st.one_of(group, alternation)
    return st.tuples(piece, _repeats).map("".join)


_terms = st.tuples(_atoms, _repeats).map("".join)
patterns = st.recursive(
    st.lists(_terms, min_size=0, max_size=3).map("".join),
    lambda inner: st.lists(st.one_of(_terms, _repeated(inner)), max_size=3).map("".join),
    max_leaves=6,
)


def _python(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None


@settings(max_examples=1500, deadline=None)
@given(patterns, st.lists(st.text(LETTERS, max_size=7), min_size=1, max_size=6))
def test_matches_as_python_does(pattern: str, texts: list[str]) -> None:
    python = _python(pattern)
    if python is None:  # not a regular expression (a repeat of an anchor, say)
        return
    try:
        ours = regex.compile(pattern)
    except regex.RegexError as exc:
        # the only refusals this grammar can reach
        assert "repeated anchor" in exc.reason or "possessive" in exc.reason
        return
    for text in texts:
        assert ours.fullmatch(text) == (python.fullmatch(text) is not None), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("(a|aa)+", "a" * 5000 + "b"),
        ("(a*)*b", "a" * 5000),
        ("a*a*a*a*a*a*b", "a" * 5000),
        ("(?:[A-Z][A-Z0-9]*)+(?:_[A-Z0-9]+)*", "A" * 5000 + "_"),
    ],
)
def test_a_pattern_that_backtracks_without_bound_is_matched_step_by_step(
    pattern: str, text: str
) -> None:
    ours = regex.compile(pattern)
    assert ours.fullmatch(text) is False  # Python's re takes longer than a lifetime here
    assert ours.fullmatch(text[:-1]) is (pattern != "a*a*a*a*a*a*b" and "b" not in pattern)


@pytest.mark.parametrize(
    ("pattern", "what"),
    [
        ("(?=A)[A-Z]+", "look-ahead"),
        ("(?!_)[A-Z]+", "look-ahead"),
        ("(?<=a)b", "look-behind"),
        ("(?>a+)b", "atomic group"),
        ("(a)?(?(1)b|c)", "conditional group"),
        ("(?P<x>a)(?P=x)", "back-reference"),
        (r"(a)\1", "back-reference"),
        ("(?i)[a-z]+", "inline flag"),
        ("(?a:x)", "inline flag"),
        ("a++", "possessive repeat"),
        ("a{1,2}+", "possessive repeat"),
        (r"\bA", "word boundary"),
        (r"\0", "octal escape"),
        ("(?:a{100}){101}", "more than 10,000 states"),
        ("(" * 51 + ")" * 51, "nested more than 50 deep"),
        ("a" * 1001, "longer than 1,000 characters"),
    ],
)
def test_what_needs_more_than_the_text_is_refused_by_name(pattern: str, what: str) -> None:
    with pytest.raises(regex.RegexError) as info:
        regex.compile(pattern)
    assert what in info.value.reason


def test_a_pattern_python_refuses_is_re_error() -> None:
    with pytest.raises(re.error):
        regex.compile("[a-")


def test_validate_ends_on_a_naming_pattern_python_would_never_finish(tmp_path: Path) -> None:
    """'^(a|aa)+$'-like rules ran on Python's re: validate, check and generate hung."""
    rule = "  naming: {pattern: '([A-Z]|[A-Z][A-Z])+(_[A-Z]+)*', max_length: 80}\n"
    text = MINIMAL.replace("  version: 1.2.0\n", "  version: 1.2.0\n" + rule, 1)
    root = make_project(tmp_path / "p", text.replace("DOOR_CLOSED", "A" * 70 + "_9"))
    result = errorbook_process(root, "validate")  # a hang is a timeout, not a stuck run
    assert result.returncode == 1
    assert "[E-NAME-CODE-PATTERN]" in result.stderr
