"""Placeholder values travel as JSON, so each is checked against its declared type when an
envelope, a problem or error details are built: text is a str, an integer an int that every
JSON peer reads exactly. A value of another type (NaN, an infinity, an exception object, a
bool for an integer, a number for text) is refused, naming the code and the placeholder."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

import surface_errors as se

#: Each function that builds something that travels, called with one placeholder's value.
Build = Callable[[str, str, object], object]
BUILDERS: dict[str, Build] = {
    "failure": lambda code, name, value: se.failure(code, params={name: value}),
    "to_problem": lambda code, name, value: se.to_problem(code, params={name: value}),
    "to_error_details": lambda code, name, value: se.to_error_details(code, params={name: value}),
}
#: A code with one integer placeholder and one with one text placeholder, one of each shape.
INTEGER = ("LLM_TIMEOUT", "seconds")
TEXT = ("PERMISSION_DENIED", "action")


class Boom(Exception):
    pass


@pytest.mark.parametrize("build", BUILDERS.values(), ids=list(BUILDERS))
@pytest.mark.parametrize(
    ("target", "value", "kind"),
    [
        (INTEGER, math.nan, "float"),
        (INTEGER, math.inf, "float"),
        (INTEGER, -math.inf, "float"),
        (INTEGER, 60.0, "float"),
        (INTEGER, True, "bool"),
        (INTEGER, "60", "str"),
        (INTEGER, None, "NoneType"),
        (TEXT, math.nan, "float"),
        (TEXT, math.inf, "float"),
        (TEXT, Boom("no"), "Boom"),
        (TEXT, 7, "int"),
        (TEXT, b"pay", "bytes"),
        (TEXT, ["pay"], "list"),
        (TEXT, None, "NoneType"),
    ],
)
def test_a_value_of_another_type_is_refused(
    build: Build, target: tuple[str, str], value: object, kind: str
) -> None:
    code, name = target
    wanted = "an int" if target is INTEGER else "a str"
    with pytest.raises(
        TypeError, match=f"{code}: placeholder '{name}' must be {wanted}, not {kind}"
    ):
        build(code, name, value)


@pytest.mark.parametrize("build", BUILDERS.values(), ids=list(BUILDERS))
def test_integers_stay_within_what_every_json_peer_reads_exactly(build: Build) -> None:
    """I-JSON (RFC 7493): integers beyond ±(2**53 - 1) lose their value in a JavaScript
    client, as in any peer that reads JSON numbers as IEEE 754 doubles."""
    largest = 2**53 - 1
    for value in (largest, -largest, 0):
        build(*INTEGER, value)
    for value in (largest + 1, -largest - 1, 10**400, 10**5000):
        with pytest.raises(ValueError, match="LLM_TIMEOUT: placeholder 'seconds' is outside"):
            build(*INTEGER, value)


@pytest.mark.parametrize("build", BUILDERS.values(), ids=list(BUILDERS))
def test_text_that_utf_8_cannot_carry_is_refused(build: Build) -> None:
    for value in ("\ud800", "pay\udfff", "\udc00\ud800"):
        with pytest.raises(ValueError, match="PERMISSION_DENIED: placeholder 'action' has a lone"):
            build(*TEXT, value)
    build(*TEXT, "pay \U0001f600 \u00e9")  # a pair of surrogates written as one character


def test_a_request_id_is_text() -> None:
    for call in (
        lambda: se.failure("NOT_CONFIGURED", request_id=7),  # type: ignore[arg-type]
        lambda: se.to_problem("NOT_CONFIGURED", request_id=7),  # type: ignore[arg-type]
        lambda: se.to_error_details("NOT_CONFIGURED", request_id=7),  # type: ignore[arg-type]
        lambda: se.failure("LLM_FAILED", request_id=math.nan),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="request_id must be a str, not"):
            call()


def strict_json(body: bytes) -> Any:
    """JSON as RFC 8259 has it: NaN and Infinity are not numbers there."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(body, parse_constant=refuse)


def test_every_http_body_is_strict_json() -> None:
    for code, info in se.CODES.items():
        if info.retired_since is not None:
            continue
        values = {n: (3 if n in info.integers else f"v-{n}") for n in info.placeholders}
        status, _, body = se.to_http(se.failure(code, params=values))
        assert strict_json(body)["ok"] is (status == 200)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_from_http_refuses_what_strict_parsers_refuse(constant: str) -> None:
    body = '{"ok": false, "error": {"code": "LLM_TIMEOUT", "params": {"seconds": %s}}}'
    with pytest.raises(se.MalformedEnvelope, match=f"{constant} is not a JSON number"):
        se.from_http(504, (body % constant).encode())


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ({"message": "\ud800"}, ValueError),
        ({"message": 5}, TypeError),
        ({"message": Boom()}, TypeError),
        ({"request_id": "r-\udfff"}, ValueError),
        ({"request_id": 7}, TypeError),
    ],
)
def test_a_message_or_request_id_json_cannot_carry_is_refused_when_built(
    given: dict[str, Any], error: type[Exception]
) -> None:
    """A caller's message and request id travel as JSON too: one that is not a str, or holds
    a lone surrogate, is refused by failure(), naming the code, not later by to_http."""
    for code, name in (INTEGER, TEXT):
        value: object = 3 if code == INTEGER[0] else "pay"
        with pytest.raises(error, match=code):
            se.failure(code, params={name: value}, **given)
    sample = se.failure(TEXT[0], action="pay", message="fine \U0001f600", request_id="r-1")
    assert se.to_http(sample)[0] == 200
