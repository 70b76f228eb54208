"""What the generated package does with hostile input from the network or a caller (issue 49).

Every reader of received data turns what it cannot use into its documented error, and every
function that takes a code refuses what is no code with the documented ValueError; the same
value gives the same text in every function that writes a message.
"""

from __future__ import annotations

import copy
import enum
from typing import Any

import pytest

import surface_errors as se
from surface_errors import CODES, wire

#: A code with an integer placeholder, and the values of all its placeholders.
CODE = next(code for code, info in CODES.items() if info.integers)
INFO = CODES[CODE]
INTEGER = sorted(INFO.integers)[0]
VALUES: dict[str, object] = {p: 5 if p in INFO.integers else "x" for p in INFO.placeholders}


def details_with(value: str) -> list[dict[str, object]]:
    details = copy.deepcopy(wire.to_status(CODE, params=VALUES)["details"])
    assert isinstance(details, list)
    for item in details:
        if str(item.get("@type", "")).endswith("ErrorInfo"):
            item["metadata"][INTEGER] = value
    return details


def test_error_details_with_a_huge_integer_are_read_without_a_crash() -> None:
    """int() of 5,000 digits raised ValueError (Python's limit of 4,300 digits): a hostile
    message from the network crashed the reader."""
    read = wire.from_error_details(details_with("9" * 5000))
    assert read is not None and read.code is se.ErrorCode(CODE)
    assert read.params[INTEGER] == "9" * 5000  # no integer of JSON's range: left as sent
    status = wire.to_status(CODE, params=VALUES)
    status["details"] = details_with("-" + "1" * 5000)
    assert wire.from_status(status) is not None
    # Within the range JSON peers read exactly, the value comes back as an int.
    largest = wire.from_error_details(details_with("9007199254740991"))
    beyond = wire.from_error_details(details_with("9007199254740992"))
    assert largest is not None and largest.params[INTEGER] == 2**53 - 1
    assert beyond is not None and beyond.params[INTEGER] == "9007199254740992"


def test_a_received_request_id_with_a_lone_surrogate_is_a_malformed_envelope() -> None:
    envelope = {
        "ok": False,
        "error": {"code": CODE, "message": "m", "params": VALUES, "request_id": "a\ud800"},
    }
    with pytest.raises(se.MalformedEnvelope):
        wire.problem_from_envelope(envelope)
    with pytest.raises(se.MalformedEnvelope):
        wire.problem_from_envelope(envelope, "de")


@pytest.mark.parametrize("code", [[], {}, set(), bytearray(b"X")])
def test_every_function_that_takes_a_code_refuses_an_unhashable_one(code: object) -> None:
    translator = se.Translator("de")
    for call in (
        lambda: translator.language(code),  # type: ignore[arg-type]
        lambda: translator.message(code),  # type: ignore[arg-type]
        lambda: se.message(code),  # type: ignore[arg-type]
        lambda: se.title(code),  # type: ignore[arg-type]
        lambda: se.failure(code),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match="is not a code of this registry"):
            call()


class Shown(str):
    """A text whose format() and str() differ, as a str subclass or an enum may."""

    def __format__(self, spec: str) -> str:
        return "FORMATTED"

    def __str__(self) -> str:
        return "STRING"


class Colour(str, enum.Enum):  # noqa: UP042 (a mixed enum: its str() and format() differ)
    RED = "red"


@pytest.mark.parametrize("value", [Shown("plain"), Colour.RED])
def test_every_message_writes_a_value_as_str_does(value: object) -> None:
    """message() used format(value, "") where format_message() and failure() use str(): an
    envelope's message disagreed with the text message() gave for the same call."""
    code = next(c for c, i in CODES.items() if i.placeholders and not i.integers)
    values = {p: value for p in CODES[code].placeholders}
    expected = se.format_message(code, **values)
    assert str(value) in expected
    assert se.message(code, **values) == expected
    assert se.Translator(None).message(code, **values) == expected
    envelope: dict[str, Any] = dict(se.failure(code, params={p: str(value) for p in values}))
    text = (envelope.get("error") or envelope["result"]["error"])["message"]
    assert text == expected


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.parametrize("group", [None, "."])
def test_a_template_of_many_fields_is_filled_as_one_of_few(
    isolate: bool, group: str | None
) -> None:
    """A translation of 10,000 fields took seconds to compile on the first message() in its
    language (compiling costs more than the square of the fields); filled by format_map,
    it costs their number, and every field is written as a template of few writes it."""
    from surface_errors import _format

    names = ["n", "t"] * 20
    literals = [f"<{i}>" for i in range(len(names) + 1)]
    grouping = None if group is None else (lambda v: format(v, ",").replace(",", "."))
    params: dict[str, object] = {"n": 1234567, "t": Shown("x\u2069")}
    grouped = frozenset() if group is None else frozenset({"n"})  # as compile_template does
    fill = _format.join(literals, names, grouped, grouping, 2, isolate)

    def written(name: str) -> str:
        value = params[name]
        if type(value) is int and grouping is not None and not -1000 < value < 1000:
            return grouping(value)
        if type(value) is int and grouping is not None:
            return str(value)
        return _format.isolated(str(value)) if isolate else str(value)

    for small in (1234567, 7, -999, True, 10**6, -(10**6)):
        params["n"] = small
        expected = literals[0] + "".join(
            written(name) + after for name, after in zip(names, literals[1:], strict=True)
        )
        assert fill(params) == expected, small
    with pytest.raises(KeyError):
        fill({"n": 1})
    many = "x{n}" * 10_000
    long = _format.compile_template(many, ("n",), integers=("n",), group=".")
    assert long is not None and long({"n": 1000}) == "x1.000" * 10_000


@pytest.mark.parametrize("group", [None, "."])
def test_percent_signs_and_values_like_formats_are_written_as_they_are(group: str | None) -> None:
    """The template is filled with '%': its own percent signs stay one, and a value that
    looks like a format or is a tuple is one value, written by str()."""
    from surface_errors import _format

    grouping = None if group is None else (lambda v: format(v, ",").replace(",", "."))
    fill = _format.join(["100% of ", " and %s, %(x)s ", "%"], ["a", "b"], {"b"}, grouping, 2)
    assert fill({"a": (1, 2), "b": "%d"}) == "100% of (1, 2) and %s, %(x)s %d%"
    assert fill({"a": {"k": 1}, "b": 12345}) == (
        "100% of {'k': 1} and %s, %(x)s " + ("12345" if group is None else "12.345") + "%"
    )
    single = _format.join(["", "%"], ["a"])
    assert single({"a": (3,)}) == "(3,)%"


def test_the_package_compiles_no_code_at_run_time() -> None:
    """message() compiled each template's fill function with exec and swapped its code's
    constants: tracebacks ran through functions with no source, and a CPython that laid
    constants out differently made the first message() raise RuntimeError."""
    import ast
    from pathlib import Path

    import surface_errors

    found = []
    for path in sorted(Path(surface_errors.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            called = node.func if isinstance(node, ast.Call) else None
            if isinstance(called, ast.Name) and called.id in ("exec", "eval", "compile"):
                found.append(f"{path.name}:{called.lineno}: {called.id}()")
            if isinstance(node, ast.Attribute) and node.attr in ("co_consts", "__code__"):
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
            if isinstance(node, ast.alias) and node.name in ("FunctionType", "CodeType"):
                found.append(f"{path.name}: imports {node.name}")
    assert found == []
