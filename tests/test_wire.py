"""One entry, every wire: each projection of each code round-trips back to the code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import surface_errors as se

from .conftest import ROOT

SCHEMAS = ROOT / "surface_errors" / "schemas"
TSC = ROOT / "ts" / "node_modules" / ".bin" / "tsc"


def params_for(code: se.ErrorCode) -> dict[str, Any]:
    info = se.CODES[code]
    return {
        name: (3 if name == info.count else f"v-{name}")
        for name in info.placeholders
        if name != "request_id"
    }


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
    assert se.from_problem(problem) is code
    assert se.from_problem({"type": problem["type"]}) is code
    assert se.from_problem({"type": f"{problem['type']}x"}) is None
    assert se.from_problem({"type": [problem["type"]]}) is None  # not a string, not hashable
    assert problem["type"] == info.docs_url and problem["request_id"] == "req-42"
    assert ("status" in problem) == (info.shape is se.Shape.PROTOCOL)
    # gRPC-style details
    details: list[Any] = se.to_error_details(code, "ja", request_id="req-42", **params_for(code))
    assert se.from_error_details(details) is code
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
    assert result["isError"] is True and se.from_tool_result(result) is code
    text_only = {"content": result["content"]}
    assert se.from_tool_result(text_only) is code
    text = result["content"][0]["text"]
    assert se.recovery_hint(code) in text and "Request id: req-42" in text


def test_problem_details_for_a_protocol_failure() -> None:
    problem = se.to_problem("LLM_TIMEOUT", "de", seconds=60)
    assert problem == {
        "type": "https://docs.surface.example/errors/en/codes/llm_timeout/",
        "title": se.Translator("de").template("LLM_TIMEOUT", 60),
        "detail": se.message("LLM_TIMEOUT", "de", seconds=60),
        "status": 504,
        "code": "LLM_TIMEOUT",
        "layer": "model_network",
        "retry": "bounded",
    }
    assert "{seconds}" in str(problem["title"]) and "60" in str(problem["detail"])


def test_retry_info_carries_the_delay() -> None:
    waited: list[Any] = se.to_error_details("LLM_RATE_LIMITED", retry_after=20)
    assert {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "20s"} in waited
    backoff: list[Any] = se.to_error_details("LLM_FAILED", request_id="r")
    assert {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.5s"} in backoff
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
