"""One entry, every wire: each projection of each code round-trips back to the code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import surface_errors as se

from ..conftest import ROOT

SCHEMAS = ROOT / "surface_errors" / "schemas"
TSC = ROOT / "ts" / "node_modules" / ".bin" / "tsc"


def params_for(code: se.ErrorCode) -> dict[str, Any]:
    info = se.CODES[code]
    return {
        name: (3 if name in info.integers else f"v-{name}")
        for name in info.placeholders
        if name != "request_id"
    }


def code_of(found: se.Classified | None) -> se.ErrorCode | None:
    assert found is not None
    return found.code


def envelope(code: se.ErrorCode) -> se.Envelope:
    return se.failure(code, request_id="req-42", **params_for(code))


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def test_codes_json_validates_against_its_schema() -> None:
    data = json.loads((ROOT / "surface_errors" / "codes.json").read_text("utf-8"))
    jsonschema.validate(data, schema("codes"), format_checker=jsonschema.FormatChecker())
    assert [c["code"] for c in data["codes"]] == [c.value for c in se.ErrorCode]
    assert data["registry"]["version"] == se.REGISTRY_VERSION


@pytest.mark.parametrize("code", list(se.ErrorCode), ids=lambda c: c.value)
def test_sample_envelopes_validate_against_their_shape_only(code: se.ErrorCode) -> None:
    sample = envelope(code)
    own, other = (
        ("protocol", "action")
        if se.CODES[code].shape is se.Shape.PROTOCOL
        else ("action", "protocol")
    )
    jsonschema.validate(sample, schema(f"{own}-envelope"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(sample, schema(f"{other}-envelope"))


@pytest.mark.parametrize("code", list(se.ErrorCode), ids=lambda c: c.value)
def test_every_projection_round_trips(code: se.ErrorCode) -> None:
    info = se.CODES[code]
    sample = envelope(code)
    # Python API
    assert se.classify(sample).code is code
    # Problem Details
    problem = se.problem_from_envelope(sample, "de")
    assert code_of(se.from_problem(problem)) is code
    assert code_of(se.from_problem({"type": problem["type"]})) is code
    assert se.from_problem({"type": f"{problem['type']}x"}) is None
    assert se.from_problem({"type": [problem["type"]]}) is None  # not a string, not hashable
    assert problem["type"] == info.docs_url and problem["request_id"] == "req-42"
    assert ("status" in problem) == (info.shape is se.Shape.PROTOCOL)
    # gRPC-style details
    details: list[Any] = se.to_error_details(code, "ja", request_id="req-42", **params_for(code))
    assert code_of(se.from_error_details(details)) is code
    kinds = [d["@type"].rsplit(".", 1)[1] for d in details]
    assert kinds[0] == "ErrorInfo" and kinds[-2:] == ["Help", "LocalizedMessage"]
    assert ("RetryInfo" in kinds) == (info.retry is se.Retry.BOUNDED)
    # HTTP
    status, headers, body = se.to_http(sample)
    assert status == info.http_status and headers["Content-Type"].startswith("application/json")
    assert se.from_http(status, body).code is code
    # MCP
    reply: Any = se.to_mcp(sample, 7)
    again = se.from_mcp(json.loads(json.dumps(reply)))
    assert again.code is code and again.outcome is se.classify(sample).outcome
    data = (
        reply["error"]["data"]
        if "error" in reply
        else reply["result"]["structuredContent"]["result"]["error"]
    )
    assert data["recovery"] == se.recovery_hint(code)
    assert data["retry_allowed"] is se.retry_allowed(code)
    assert data["request_id"] == "req-42"
    # A model's tool result
    result: Any = se.to_tool_result(sample)
    assert result["isError"] is True and code_of(se.from_tool_result(result)) is code
    text_only = {"content": result["content"]}
    assert code_of(se.from_tool_result(text_only)) is code
    text = result["content"][0]["text"]
    assert se.recovery_hint(code) in text and "Request id: req-42" in text


def test_problem_details_for_a_protocol_failure() -> None:
    problem = se.to_problem("LLM_TIMEOUT", "de", seconds=60)
    assert problem == {
        "type": "https://docs.surface.example/errors/en/codes/llm_timeout/",
        "title": "Zeitüberschreitung des Modellanbieters",  # the code's title, in German
        "detail": se.message("LLM_TIMEOUT", "de", seconds=60),
        "status": 504,
        "code": "LLM_TIMEOUT",
        "layer": "model_network",
        "retry": "bounded",
        "locale": "de",
        "params": {"seconds": 60},
    }
    assert "60" in str(problem["detail"])


@pytest.mark.parametrize("code", list(se.ErrorCode))
def test_a_problems_title_is_the_same_for_every_occurrence(code: se.ErrorCode) -> None:
    """RFC 9457: a short summary of the problem type that does not change from occurrence to
    occurrence: no placeholder, no value, whatever the parameters; in a locale's words."""
    info = se.CODES[code]

    def values(value: int) -> dict[str, object]:
        return {p: value if p in info.integers else str(value) for p in info.placeholders}

    for locale in ("en", "de", "ja"):
        titles = {str(se.to_problem(code, locale, params=values(v))["title"]) for v in (7, 8)}
        assert len(titles) == 1
        (title,) = titles
        assert "{" not in title and "7" not in title and "8" not in title
        assert title == se.title(code, locale)
    assert se.to_problem(code, params=values(7))["title"] == info.title


def test_retry_info_carries_the_delay() -> None:
    waited: list[Any] = se.to_error_details("LLM_RATE_LIMITED", retry_after=20)
    assert {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "20s"} in waited
    backoff: list[Any] = se.to_error_details("LLM_FAILED", request_id="r")
    assert {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.500s"} in backoff
    info = backoff[0]
    assert info["domain"] == "surface.example" and info["metadata"]["max_attempts"] == "3"


def test_inconsistent_wires_are_refused() -> None:
    with pytest.raises(se.MalformedEnvelope):
        se.from_http(200, json.dumps({"ok": False, "error": {"code": "INVALID_REQUEST"}}).encode())
    with pytest.raises(se.MalformedEnvelope):
        se.from_http(500, b"not json")
    with pytest.raises(se.MalformedEnvelope):
        se.from_mcp({"jsonrpc": "2.0", "id": 1})
    assert (
        se.from_error_details(
            [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "INVALID_REQUEST",
                    "domain": "elsewhere",
                }
            ]
        )
        is None
    )


def deep_envelope(depth: int) -> bytes:
    """A protocol failure whose arrays and objects nest ``depth`` levels in all."""
    arrays = depth - 3  # the envelope, its error and the error's params are three levels
    params = '{"x": ' + "[" * arrays + "]" * arrays + "}"
    return (
        '{"ok": false, "error": {"code": "INVALID_REQUEST", "params": ' + params + "}}"
    ).encode()


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 1000,
        b"[" * 200_000,
        b'{"a":' * 5000,
        b'{"a": [' * 3000,
        b"\xff\xfe" + "[".encode("utf-16-le") * 1000,
    ],
    ids=["1000 brackets", "200000 brackets", "nested objects", "objects and arrays", "utf-16"],
)
def test_from_http_refuses_deep_nesting_as_malformed(body: bytes) -> None:
    with pytest.raises(se.MalformedEnvelope):
        se.from_http(500, body)


def test_from_http_reads_nesting_up_to_its_documented_limit() -> None:
    limit = se.wire.MAX_JSON_DEPTH
    assert str(limit) in (se.from_http.__doc__ or "")
    assert se.from_http(400, deep_envelope(limit)).code is se.ErrorCode.INVALID_REQUEST
    with pytest.raises(se.MalformedEnvelope, match=f"deeper than {limit}"):
        se.from_http(400, deep_envelope(limit + 1))
    assert se.from_http(400, deep_envelope(limit + 1), max_depth=limit + 1).known
    # Brackets inside strings, escaped quotes among them, are text, not nesting.
    text = "[" * 5000 + '\\"' + "{" * 5000 + "\\\\"
    body = json.dumps({"ok": False, "error": {"code": "INVALID_REQUEST", "message": text}})
    assert se.from_http(400, body.encode()).message == json.loads(body)["error"]["message"]
    # Many brackets side by side are not depth: four levels here, however many arrays.
    wide = {"ok": False, "error": {"code": "INVALID_REQUEST", "params": {"x": [[]] * 1000}}}
    assert se.from_http(400, json.dumps(wide).encode(), max_depth=5).known
    with pytest.raises(se.MalformedEnvelope, match="deeper than 4"):
        se.from_http(400, json.dumps(wide).encode(), max_depth=4)


def test_from_http_bounds_the_body_size() -> None:
    limit = se.wire.MAX_BODY_BYTES
    assert f"{limit:,}" in (se.from_http.__doc__ or "")
    body = json.dumps({"ok": False, "error": {"code": "INVALID_REQUEST"}}).encode()
    padded = body + b" " * (limit - len(body))
    assert se.from_http(400, padded).known
    with pytest.raises(se.MalformedEnvelope, match="more than"):
        se.from_http(400, padded + b" ")
    assert se.from_http(400, padded + b" ", max_bytes=limit + 1).known


#: google.protobuf.Duration as JSON writers produce it: 0, 3, 6 or 9 fractional digits.
DURATION_JSON = re.compile(r"-?(0|[1-9][0-9]*)(\.([0-9]{3}){1,3})?s\Z")


def retry_delay(details: list[Any]) -> object:
    (delay,) = [d["retryDelay"] for d in details if d["@type"].endswith(".RetryInfo")]
    return delay


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [
        (0, "0s"),
        (20, "20s"),
        (1_000_000, "1000000s"),
        (1_234_567, "1234567s"),
        (315_576_000_000, "315576000000s"),
    ],
)
def test_retry_after_is_written_as_a_protobuf_duration(seconds: int, expected: str) -> None:
    assert retry_delay(se.to_error_details("LLM_RATE_LIMITED", retry_after=seconds)) == expected


@pytest.mark.parametrize(
    "seconds",
    [-5, -1, 315_576_000_001, 2**53 - 1],
    ids=["-5", "-1", "one second too long", "2**53 - 1"],
)
def test_a_retry_delay_no_duration_can_hold_is_refused(seconds: int) -> None:
    with pytest.raises(ValueError, match="LLM_RATE_LIMITED: retry_after"):
        se.to_error_details("LLM_RATE_LIMITED", retry_after=seconds)


@pytest.mark.parametrize(
    "seconds",
    [-5, -1, 315_576_000_001],
    ids=["-5", "-1", "one second too long"],
)
def test_an_envelope_no_wire_could_send_is_refused_when_it_is_made(seconds: int) -> None:
    """A retry delay that to_http, to_status and to_error_details refuse is refused by
    failure() already: the program that made it learns why where it made it, not later
    where it sends it."""
    with pytest.raises(ValueError, match="LLM_RATE_LIMITED: retry_after is"):
        se.failure("LLM_RATE_LIMITED", retry_after=seconds)
    with pytest.raises(ValueError, match="LLM_RATE_LIMITED: retry_after is"):
        se.failure("LLM_RATE_LIMITED", params={"retry_after": seconds}, locale="de")
    made = se.failure("LLM_RATE_LIMITED", retry_after=0)
    assert se.to_http(made)[0] == 429
    # An envelope made elsewhere is still refused where it is sent.
    foreign: Any = {"ok": False, "error": {"code": "LLM_RATE_LIMITED", "params": {}}}
    foreign["error"]["params"]["retry_after"] = -5
    with pytest.raises(ValueError, match="LLM_RATE_LIMITED: retry_after is negative"):
        se.to_http(foreign)


@pytest.mark.parametrize(
    "seconds",
    [2**53, 10**400, 10**5000, -(10**5000)],
    ids=["2**53", "10**400", "10**5000", "-10**5000"],
)
def test_a_retry_delay_no_json_peer_reads_exactly_is_refused_first(seconds: int) -> None:
    with pytest.raises(ValueError, match="LLM_RATE_LIMITED: placeholder 'retry_after' is outside"):
        se.to_error_details("LLM_RATE_LIMITED", retry_after=seconds)


@pytest.mark.parametrize(
    ("nanos", "expected"),
    [
        (0, "0s"),
        (500_000_000, "0.500s"),
        (1_500_000, "0.001500s"),
        (1_000_000_001, "1.000000001s"),
        (3_000_340_012, "3.000340012s"),
        (-500_000_000, "-0.500s"),
        (-2_000_000_000, "-2s"),
        (315_576_000_000 * 10**9, "315576000000s"),
        (-315_576_000_000 * 10**9, "-315576000000s"),
    ],
)
def test_durations_take_the_protobuf_json_form(nanos: int, expected: str) -> None:
    assert se.wire._duration_json(nanos) == expected
    assert DURATION_JSON.match(expected)


@pytest.mark.parametrize("nanos", [315_576_000_000 * 10**9 + 1, -315_576_000_000 * 10**9 - 1])
def test_a_duration_out_of_range_is_refused(nanos: int) -> None:
    with pytest.raises(ValueError, match="315576000000"):
        se.wire._duration_json(nanos)


def test_every_retry_delay_is_a_protobuf_duration() -> None:
    for code, info in se.CODES.items():
        if info.retry is se.Retry.BOUNDED:
            delay = retry_delay(se.to_error_details(code, request_id="r", **params_for(code)))
            assert isinstance(delay, str) and DURATION_JSON.match(delay), (code, delay)


BAD = """import type { SurfaceResult } from "{module}";
declare const r: SurfaceResult<{ value: number }>;
if (r.ok) {
  console.log(r.result.value);
}
"""
GOOD = """import type { SurfaceResult } from "{module}";
declare const r: SurfaceResult<{ value: number }>;
if (r.ok && r.result.error === undefined) {
  console.log(r.result.value);
}
"""


def tsc(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        if os.environ.get("CI"):
            pytest.fail("`make ts-test` installs TypeScript before the Python tests run")
        pytest.skip("TypeScript is not installed (run `make ts-test`)")
    module = (ROOT / "ts" / "src" / "surface_errors" / "index.js").as_posix()
    (tmp_path / "check.ts").write_text(source.replace("{module}", module), "utf-8")
    return subprocess.run(
        [
            str(TSC),
            "--strict",
            "--noEmit",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--types",
            "node",
            "--typeRoots",
            str(ROOT / "ts" / "node_modules" / "@types"),
            str(tmp_path / "check.ts"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


def test_reading_value_after_checking_only_ok_does_not_compile(tmp_path: Path) -> None:
    assert shutil.which("node") or TSC.exists()
    bad = tsc(tmp_path, BAD)
    assert bad.returncode != 0
    assert "error TS2339: Property 'value' does not exist" in bad.stdout, bad.stdout
    good = tsc(tmp_path, GOOD)
    assert good.returncode == 0, good.stdout


def test_a_json_rpc_response_carries_the_id_of_its_request() -> None:
    """JSON-RPC 2.0: a response has the id of the request it answers; a client matches them
    by id, and an answer with a null id is never matched (both MCP SDKs refuse it)."""
    protocol = se.failure("NOT_CONFIGURED")
    action = se.failure("PERMISSION_DENIED", action="pay")
    for sample in (protocol, action):
        assert se.to_mcp(sample, 7)["id"] == 7
        assert se.to_mcp(sample, "call-7")["id"] == "call-7"
        request = {"jsonrpc": "2.0", "id": "abc", "method": "tools/call", "params": {}}
        assert se.to_mcp(sample, request=request)["id"] == "abc"
        with pytest.raises(TypeError, match="needs the id of the request"):
            se.to_mcp(sample)  # type: ignore[call-overload]
        with pytest.raises(TypeError, match="an int or a string, not NoneType"):
            se.to_mcp(sample, request={"jsonrpc": "2.0", "id": None, "method": "x"})
        with pytest.raises(TypeError, match="an int or a string, not bool"):
            se.to_mcp(sample, True)
        with pytest.raises(TypeError, match="an int or a string, not float"):
            se.to_mcp(sample, 1.5)  # type: ignore[call-overload]
        with pytest.raises(TypeError, match="not both"):
            se.to_mcp(sample, 1, request=request)  # type: ignore[call-overload]
        with pytest.raises(ValueError, match="notification"):
            se.to_mcp(sample, request={"jsonrpc": "2.0", "method": "notifications/x"})


def test_json_answers_carry_no_charset_parameter() -> None:
    """application/json and application/problem+json define no charset parameter: JSON is
    UTF-8 (RFC 8259), and RFC 9457 says the same of problem details."""
    for sample in (se.failure("NOT_CONFIGURED"), se.failure("PERMISSION_DENIED", action="pay")):
        for problem in (False, True):
            _, headers, _ = se.to_http(sample, problem=problem)
            assert "charset" not in headers["Content-Type"]
            assert headers["Content-Type"] in ("application/json", se.PROBLEM_JSON)


def test_to_http_answers_as_problem_json_when_asked() -> None:
    sample = se.failure("TOO_MANY_ACTIONS", locale="de", request_id="r-1", count=80, maximum=64)
    status, headers, body = se.to_http(sample, problem=True)
    assert status == 422 and headers["Content-Type"] == se.PROBLEM_JSON
    assert headers["Content-Language"] == "de"
    assert json.loads(body) == se.problem_from_envelope(sample, "de")
    back = se.from_http(status, body)
    assert back.code is se.ErrorCode.TOO_MANY_ACTIONS and back.locale == "de"
    assert back.params == {"count": 80, "maximum": 64} and back.request_id == "r-1"
    assert back.message == sample["error"]["message"]  # type: ignore[typeddict-item]
    # A failure inside a result travels in a 200 as the envelope: a 200 is no problem.
    action = se.failure("PERMISSION_DENIED", action="pay")
    assert se.to_http(action, problem=True) == se.to_http(action)
    assert se.to_http(action)[1]["Content-Type"] == "application/json"


def test_from_http_refuses_a_problem_whose_status_disagrees() -> None:
    _, _, body = se.to_http(se.failure("TOO_MANY_ACTIONS", count=80, maximum=64), problem=True)
    with pytest.raises(se.MalformedEnvelope, match="HTTP 200"):
        se.from_http(200, body)
    with pytest.raises(se.MalformedEnvelope):
        se.from_http(400, b'{"type": "about:blank", "title": "Bad Request", "status": 400}')


def test_429_and_503_answers_carry_retry_after_when_the_code_has_a_delay() -> None:
    """RFC 9110 section 10.2.3: Retry-After in whole seconds, with a 503 or a 429 (RFC 6585)."""
    status, headers, _ = se.to_http(se.failure("LLM_RATE_LIMITED", retry_after=20))
    assert status == 429 and headers["Retry-After"] == "20"
    status, headers, _ = se.to_http(se.failure("LLM_RATE_LIMITED", retry_after=20), problem=True)
    assert status == 429 and headers["Retry-After"] == "20"
    # A retry only after a fix has no delay to give; a bounded retry in a 502 has no header.
    assert "Retry-After" not in se.to_http(se.failure("NOT_CONFIGURED"))[1]
    assert se.to_http(se.failure("LLM_UNREACHABLE"))[0] == 502
    assert "Retry-After" not in se.to_http(se.failure("LLM_UNREACHABLE"))[1]
    for code, info in se.CODES.items():
        if info.retired_since is not None:
            continue
        status, headers, _ = se.to_http(se.failure(code, params=typed_params(code)))
        has_delay = info.retry is se.Retry.BOUNDED and (
            info.retry_delay_ms is not None or "retry_after" in info.placeholders
        )
        assert ("Retry-After" in headers) == (status in (429, 503) and has_delay), code


def test_retry_after_rounds_a_delay_up_to_whole_seconds() -> None:
    assert se.wire._retry_after(500_000_000) == "1"
    assert se.wire._retry_after(0) == "0"
    assert se.wire._retry_after(60 * 10**9) == "60"
    assert se.wire._retry_after(60 * 10**9 + 1) == "61"


def typed_params(code: se.ErrorCode) -> dict[str, Any]:
    info = se.CODES[code]
    return {n: (3 if n in info.integers else f"v-{n}") for n in info.placeholders}


def test_to_http_problem_keeps_what_the_envelope_says() -> None:
    """The problem made for an envelope carries the envelope's own message, and says its
    language only where the envelope does: re-rendering it in the source language replaced a
    caller's text and labelled a peer's message English."""
    custom = se.failure("TOO_MANY_ACTIONS", message="Too many here.", count=80, maximum=64)
    _, headers, body = se.to_http(custom, problem=True)
    problem = json.loads(body)
    assert problem["detail"] == "Too many here."
    assert "locale" not in problem and "Content-Language" not in headers
    assert "Content-Language" not in se.to_http(custom)[1]  # as the envelope form answers
    peer: Any = {
        "ok": False,
        "error": {
            "code": "TOO_MANY_ACTIONS",
            "message": "Zu viele Aktionen.",
            "locale": "de",
            "params": {"count": 80, "maximum": 64},
        },
    }
    _, headers, body = se.to_http(peer, problem=True)
    assert json.loads(body)["detail"] == "Zu viele Aktionen."
    assert json.loads(body)["locale"] == headers["Content-Language"] == "de"
    # Asked for a language, the message is made anew in it.
    assert se.problem_from_envelope(peer, "fr")["detail"] == se.message(
        "TOO_MANY_ACTIONS", "fr", count=80, maximum=64
    )


def test_to_http_problem_of_an_envelope_without_its_values() -> None:
    """A peer on an older version may send no params: its message still makes a problem;
    only a message made anew needs them, and their absence is a malformed envelope."""
    older: Any = {"ok": False, "error": {"code": "LLM_TIMEOUT", "message": "Timed out."}}
    status, headers, body = se.to_http(older, problem=True)
    assert status == se.CODES[se.ErrorCode.LLM_TIMEOUT].http_status
    assert json.loads(body)["detail"] == "Timed out." and headers["Content-Type"] == se.PROBLEM_JSON
    with pytest.raises(se.MalformedEnvelope, match="seconds"):
        se.problem_from_envelope(older, "de")


@pytest.mark.parametrize("locale", ["en\r\nSet-Cookie: a=b", "de\n", "", "x" * 300, "d e"])
def test_content_language_carries_only_a_language_tag(locale: str) -> None:
    """The envelope's locale reaches a header only when it is a language tag: a CR LF in it
    would start a header of the sender's choosing."""
    for form in ("LLM_TIMEOUT", "PERMISSION_DENIED"):
        sample: Any = se.failure(form, params=typed_params(se.ErrorCode(form)))
        body = sample["error"] if sample["ok"] is False else sample["result"]["error"]
        body["locale"] = locale
        for problem in (False, True):
            _, headers, _ = se.to_http(sample, problem=problem)
            assert "Content-Language" not in headers, (form, problem)


def test_mcp_never_sends_an_unfilled_template() -> None:
    sample: Any = se.failure("LLM_TIMEOUT", seconds=30)
    sample["error"]["message"] = ""
    answer: Any = se.to_mcp(sample, 1)
    assert answer["error"]["message"] == se.message("LLM_TIMEOUT", None, seconds=30)
    del sample["error"]["params"]  # a peer of another version
    said = se.to_mcp(sample, 1)["error"]["message"]  # type: ignore[index]
    assert "{" not in said and "LLM_TIMEOUT" in said


def test_agent_forms_of_a_success_and_of_a_code_from_a_newer_peer() -> None:
    success: Any = {"ok": True, "result": {}}
    for make in (lambda e: se.to_mcp(e, 1), se.to_tool_result):
        with pytest.raises(se.MalformedEnvelope, match="not a failure"):
            make(success)
    newer: Any = {"ok": False, "error": {"code": "FROM_THE_FUTURE", "message": "A newer failure."}}
    answer: Any = se.to_mcp(newer, 7)
    assert answer["error"]["code"] == -32000
    assert answer["error"]["message"] == "A newer failure."
    assert answer["error"]["data"] == {"code": "FROM_THE_FUTURE"}
    assert se.from_mcp(answer).raw_code == "FROM_THE_FUTURE"
    inside: Any = {"ok": True, "result": {"error": {"code": "FROM_THE_FUTURE", "message": "m"}}}
    for sample in (newer, inside):
        tool: Any = se.to_tool_result(sample)
        assert tool["content"][0]["text"].startswith("Error FROM_THE_FUTURE (")
        found = se.from_tool_result(tool)
        assert found is not None and found.raw_code == "FROM_THE_FUTURE" and found.code is None
    answer = se.to_mcp(inside, 8)
    assert se.from_mcp(answer).raw_code == "FROM_THE_FUTURE"
