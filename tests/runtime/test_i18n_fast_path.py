"""The generated runtime's fast paths give exactly what the slow ones give.

message() keeps each checked template compiled into a function of the parameters
(i18n._compile) and answers a call it has seen before from its caches. Each test here compares
that with the plain way: ``str.format_map`` on the template, stdlib gettext on the same MO
file, a Translator that has not seen the call yet.
"""

from __future__ import annotations

import enum
import gettext
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import surface_errors as se

from ..conftest import ROOT

NAMES = ("a", "b", "count", "_x1")


def outcome(call: Callable[[], str]) -> tuple[str, str]:
    """What a call gives: its text, or the type and text of what it raised."""
    try:
        return ("text", call())
    except Exception as exc:
        return (type(exc).__name__, str(exc))


class Strs(dict[str, object]):
    """Parameters as message() writes them: format_map reads each field's value through
    ``__getitem__``, left to right, and gets ``str()`` of it (issue 49: one rule for every
    function that writes a message, as format_message() and failure() write values)."""

    def __getitem__(self, name: str) -> str:
        return str(super().__getitem__(name))


def same_as_format_map(template: str, params: dict[str, object]) -> None:
    """The compiled template fills as format_map does with str() of each value; and it
    refuses exactly the templates
    the runtime's check (envelope.fill) refuses, for which message() uses the source."""
    compiled = se.i18n._compile(template, NAMES)
    checked = se.envelope.fill(template, NAMES, dict.fromkeys(NAMES, ""))
    assert (compiled is None) == (checked is None), template
    if compiled is not None:
        assert outcome(lambda: compiled(params)) == outcome(
            lambda: template.format_map(Strs(params))
        )


# --- the compiled templates --------------------------------------------------------------


class Color(enum.Enum):
    RED = 1


class Shouting(str):
    def __format__(self, spec: str) -> str:
        return self.upper()


class Formatted:
    """format() and str() differ: the template must use str(), as format_message() does."""

    def __format__(self, spec: str) -> str:
        return f"formatted({spec!r})"

    def __str__(self) -> str:
        return "str"


class Broken:
    def __format__(self, spec: str) -> str:
        raise ValueError("no format")


class NotText:
    def __format__(self, spec: str) -> Any:
        return 42


VALUES: list[object] = [
    "x", "{b}", "{{", "", "ünï 😀", 0, -7, 10**30, True, 1.5, float("nan"), None,
    Decimal("1.10"), Color.RED, se.ErrorCode.LLM_TIMEOUT, se.Layer.EXECUTION, Shouting("loud"),
    Formatted(), ("t",), Broken(), NotText(),
]  # fmt: skip


@pytest.mark.parametrize(
    "template",
    [
        "",
        "plain text",
        "{a}",
        "{a}{a}{a}",
        "{{a}} {a}",
        "{{{a}}}",
        "}}{a}{{",
        "{{}}",
        "x {a} y {b} z {count} w {_x1} v",
        "{a}{b}{count}{_x1}{a}",  # five fields, a name repeated
        " ".join(f"<{{{name}}}>" for name in NAMES * 4),  # sixteen
        "Größe {a} 日本語 {b} 😀",
    ],
)
@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_compiled_template_fills_as_format_map(template: str, value: object) -> None:
    same_as_format_map(template, dict.fromkeys(NAMES, value))
    same_as_format_map(template, {"a": "first", "b": value, "count": 3, "_x1": value})


def test_text_and_names_like_the_stand_ins_fill_as_written() -> None:
    """The compiled function's code holds stand-ins (l0, n0, ...) where each template's
    literals and names go: a template whose text and names look like them is not confused."""
    names = ("l1", "n0", "l0")
    template = "l1{n0}n0{l1}l0{l0}{n0}n1'\"{{"
    for arity in (None, 3):
        fill = se.i18n._compile(template, names, arity=arity)
        assert fill is not None
        params: dict[str, object] = {"l1": "A", "n0": 10_000, "l0": "\\x"}
        assert fill(params) == template.format_map(params)
    fill = se.i18n._compile(template, names, integers=("n0",), group=".", arity=3)
    assert (
        fill is not None and fill({"l1": 1, "n0": 10_000, "l0": 2}) == "l110.000n01l0210.000n1'\"{"
    )


def test_a_kept_function_refuses_other_than_as_many_parameters() -> None:
    fill = se.i18n._compile("{a} and {b}", ("a", "b", "c"), arity=3)
    assert fill is not None
    assert fill({"a": 1, "b": 2, "c": 3}) == "1 and 2"
    wrong: list[dict[str, object]] = [{"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3, "d": 4}]
    for params in wrong:
        with pytest.raises(KeyError):
            fill(params)


@pytest.mark.parametrize(
    "template",
    ["{0}", "{}", "{a.real}", "{a[0]}", "{a!r}", "{a:>5}", "{", "}", "{a}}", "{ a}", "{secret}"],
)
def test_a_template_with_another_field_is_refused(template: str) -> None:
    assert se.i18n._compile(template, NAMES) is None
    same_as_format_map(template, dict.fromkeys(NAMES, "v"))


pieces = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=8),
    st.sampled_from(["{{", "}}", "{", "}", "{0}", "{a.b}", "{a!s}", "{zz}"]),
    st.sampled_from(NAMES).map(lambda name: "{" + name + "}"),
)
values = st.one_of(
    st.text(max_size=5), st.integers(), st.booleans(), st.floats(), st.none(),
    st.sampled_from(VALUES),
)  # fmt: skip


templates = st.lists(pieces, max_size=20).map("".join)


@settings(max_examples=400, deadline=None)
@given(templates, st.fixed_dictionaries(dict.fromkeys(NAMES, values)))
def test_any_template_fills_as_format_map(template: str, params: dict[str, object]) -> None:
    same_as_format_map(template, params)


@settings(max_examples=400, deadline=None)
@given(
    templates,
    st.fixed_dictionaries(dict.fromkeys(NAMES, values)),
    st.sets(st.sampled_from(NAMES)),
    st.sampled_from([".", "\u202f", "'"]),
)
def test_a_template_with_integer_placeholders_groups_their_whole_numbers(
    template: str, params: dict[str, object], integers: set[str], separator: str
) -> None:
    """Each field of an integer placeholder, wherever it stands, shows a whole number of four
    digits or more grouped (a bool, a str or a float as it is); the others as format_map."""
    compiled = se.i18n._compile(template, NAMES, integers=integers, group=separator)
    if compiled is None:
        assert se.i18n._compile(template, NAMES) is None
        return
    shown = {
        name: f"{value:,}".replace(",", separator)
        if name in integers and type(value) is int and abs(value) >= 1000
        else value
        for name, value in params.items()
    }
    assert outcome(lambda: compiled(params)) == outcome(lambda: template.format_map(Strs(shown)))


def test_fields_are_formatted_left_to_right_as_format_map_does() -> None:
    class Recorder:
        def __init__(self, name: str, log: list[str]) -> None:
            self.name, self.log = name, log

        def __str__(self) -> str:
            self.log.append(self.name)
            return self.name

    template = "{b}{a}{_x1}{count}{a}{b}{_x1}{count}{a}"  # nine fields
    compiled = se.i18n._compile(template, NAMES)
    assert compiled is not None
    seen: dict[str, list[str]] = {"format_map": [], "compiled": []}

    def by_format_map(params: dict[str, object]) -> str:
        return template.format_map(Strs(params))

    for way, fill in (("format_map", by_format_map), ("compiled", compiled)):
        log = seen[way]
        assert fill({name: Recorder(name, log) for name in NAMES}) == "".join(log)
    assert seen["compiled"] == seen["format_map"]


# --- message() on every code, locale and count -------------------------------------------

COUNTS = (0, 1, 2, 3, 4, 5, 10, 11, 12, 14, 21, 22, 25, 99, 100, 101, 102, 111, 1000, 1001)
TAGS = (*se.LOCALES, "de_AT", "pt", "zh_TW", "xx", "", None)


def calls(code: se.ErrorCode) -> list[dict[str, object]]:
    """Parameters for a code: values with braces and of several types, every count."""
    info = se.CODES[code]
    base: dict[str, object] = {
        name: f"{{{name}}} <{i}>" for i, name in enumerate(info.placeholders)
    }
    if info.placeholders:
        base[info.placeholders[0]] = Formatted()
    if info.count is None:
        return [base]
    return [{**base, info.count: n} for n in COUNTS]


def written(locale: str, code: se.ErrorCode, params: dict[str, object]) -> dict[str, object]:
    """The values as a message in ``locale`` shows them: whole numbers of the code's integer
    placeholders grouped with the locale's separator from 1,000 on, and every value between
    U+2068 and U+2069 in a right-to-left language."""
    info = se.CODES[code]
    separator = se.codes.DIGIT_GROUPS.get(locale)
    out: dict[str, object] = {}
    for name, value in params.items():
        if name in info.integers and type(value) is int and abs(value) >= 1000 and separator:
            value = f"{value:,}".replace(",", separator)
        if locale in se.codes.RIGHT_TO_LEFT:
            value = f"\u2068{value!s}\u2069"
        out[name] = value
    return out


def reference(translator: se.Translator, code: se.ErrorCode, params: dict[str, object]) -> str:
    """The slow way: the checked template, filled by str.format_map."""
    info = se.CODES[code]
    count = params[info.count] if info.count is not None else None
    assert count is None or isinstance(count, int)
    values = written(translator.locale, code, params)
    return translator.template(code, count).format_map(Strs(values))


@pytest.mark.parametrize("tag", TAGS)
def test_fast_paths_give_the_slow_paths_text_for_every_code_and_count(tag: str | None) -> None:
    cold = se.Translator(tag)  # answers everything through _message the first time
    for code in se.ErrorCode:
        for params in calls(code):
            first = cold.message(code, **params)
            assert first == reference(se.Translator(tag), code, params), (tag, code, params)
            assert cold.message(code, **params) == first  # now from _fast
            assert cold.message(code.value, **params) == first
            assert se.message(code, tag, **params) == first
            assert se.message(code.value, tag, **params) == first  # warm by now


@pytest.mark.parametrize("locale", se.LOCALES[1:])
def test_message_is_what_stdlib_gettext_gives_on_the_same_catalog(locale: str) -> None:
    """The benchmark's stdlib path (pgettext/npgettext + str.format on the MO file), for
    every code and count, on warm and cold caches alike."""
    mo = ROOT / "surface_errors" / "locales" / locale / "LC_MESSAGES" / "messages.mo"
    with mo.open("rb") as stream:
        stdlib = gettext.GNUTranslations(stream)
    for code in se.ErrorCode:
        info = se.CODES[code]
        for params in calls(code):
            if info.message_plural is None:
                text = stdlib.pgettext(code.value, info.message)
            else:
                count = params[info.count or ""]
                assert isinstance(count, int)
                text = stdlib.npgettext(code.value, info.message, info.message_plural, count)
            expected = text.format_map(Strs(written(locale, code, params)))
            assert se.Translator(locale).message(code, **params) == expected
            for _ in range(2):
                assert se.message(code, locale, **params) == expected, (locale, code, params)


BAD_CALLS: list[tuple[str, dict[str, object]]] = [
    ("LLM_RETRIES_EXHAUSTED", {"attempts": True}),  # True == 1 as a dict key
    ("LLM_RETRIES_EXHAUSTED", {"attempts": 5.0}),  # and 5.0 == 5
    ("LLM_RETRIES_EXHAUSTED", {"attempts": "5"}),
    ("LLM_RETRIES_EXHAUSTED", {}),
    ("LLM_RETRIES_EXHAUSTED", {"attempts": 5, "extra": 1}),
    ("PERMISSION_DENIED", {}),
    ("PERMISSION_DENIED", {"actor": "x"}),
    ("PERMISSION_DENIED", {"action": "x", "extra": 1}),
    ("NOT_A_CODE", {}),
]


def test_warm_fast_paths_check_parameters_as_cold_ones_do() -> None:
    def cold(code: str, params: dict[str, object]) -> str:
        return se.Translator("pl").message(code, **params)

    warm = se.Translator("pl")
    for n in (1, 2, 5):
        warm.message("LLM_RETRIES_EXHAUSTED", attempts=n)
        se.message("LLM_RETRIES_EXHAUSTED", "pl", attempts=n)
    warm.message("PERMISSION_DENIED", action="x")
    se.message("PERMISSION_DENIED", "pl", action="x")
    for code, params in BAD_CALLS:
        expected = outcome(lambda: cold(code, params))  # noqa: B023 (called at once)
        assert expected[0] in ("TypeError", "ValueError"), (code, params)
        assert outcome(lambda: warm.message(code, **params)) == expected  # noqa: B023
        assert outcome(lambda: se.message(code, "pl", **params)) == expected  # noqa: B023


def test_the_count_cache_stays_bounded_and_right() -> None:
    translator = se.Translator("ar")
    rule = translator._selector(se.i18n._load("ar"))
    forms = {rule(n): translator.template("LLM_RETRIES_EXHAUSTED", n) for n in range(200)}
    for n in range(se.i18n._COUNTS + 300):
        values = written("ar", se.ErrorCode.LLM_RETRIES_EXHAUSTED, {"attempts": n})
        expected = forms[rule(n)].format_map(Strs(values))
        for _ in range(2):
            assert translator.message("LLM_RETRIES_EXHAUSTED", attempts=n) == expected
    assert len(translator._counts["LLM_RETRIES_EXHAUSTED"]) == se.i18n._COUNTS
