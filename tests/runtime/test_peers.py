"""The generated package's projections, read by the peers' own libraries.

Each wire is checked with the library a peer on it would use: the official MCP Python SDK
(both major versions) for ``to_mcp`` and ``to_tool_result``; protobuf with google.rpc's own
messages (googleapis-common-protos) for ``to_status``; jsonschema with RFC 9457's own
schema for problem objects; h11, an HTTP/1.1 implementation, for ``to_http``. Every code, in
several locales and with counts of 1 and 5.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any
from urllib.parse import urlsplit

import h11
import jsonschema
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2

import surface_errors as se

from ..conftest import ROOT
from . import mcp_peer

#: Where ``make setup`` installs the MCP SDK's 1.x beside the 2.x of the environment: one
#: environment cannot hold two versions of a distribution.
MCP1 = ROOT / ".venv" / "mcp1"


def test_the_mcp_sdk_2_accepts_every_message_and_matches_every_answer() -> None:
    assert mcp_peer.sdk_major() == 2
    report = mcp_peer.check()
    assert report.startswith("mcp 2.") and " 0 calls" not in report


def test_the_mcp_sdk_1_accepts_every_message_and_matches_every_answer() -> None:
    if not (MCP1 / "mcp").is_dir():
        if os.environ.get("CI"):
            pytest.fail("`make setup` installs the MCP SDK 1.x into .venv/mcp1")
        pytest.skip("the MCP SDK 1.x is not installed (run `make setup`)")
    done = subprocess.run(
        [sys.executable, "-m", "tests.runtime.mcp_peer"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(MCP1), str(ROOT)])},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.startswith("mcp 1."), done.stdout


#: RFC 9457, Appendix A: "JSON Schema for HTTP Problems", as the RFC gives it.
RFC_9457_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "An RFC 9457 problem object",
    "type": "object",
    "properties": {
        "type": {"type": "string", "format": "uri-reference"},
        "status": {"type": "integer", "minimum": 100, "maximum": 599},
        "title": {"type": "string"},
        "detail": {"type": "string"},
        "instance": {"type": "string", "format": "uri-reference"},
    },
}
#: Members RFC 9457 defines; any other is an extension member, which must not reuse them.
RFC_9457_MEMBERS = {"type", "status", "title", "detail", "instance"}


def samples() -> list[tuple[se.ErrorCode, str | None, se.Envelope]]:
    found = []
    for code in mcp_peer.emitted():
        for locale in mcp_peer.LOCALES:
            for count in (1, 5):
                found.append((code, locale, mcp_peer.envelope(code, locale, count)))
    return found


def test_every_problem_object_is_valid_under_rfc_9457s_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(RFC_9457_SCHEMA)
    validator = jsonschema.Draft202012Validator(
        RFC_9457_SCHEMA, format_checker=jsonschema.FormatChecker()
    )
    checked = 0
    for code, locale, sample in samples():
        info = se.CODES[code]
        for problem in (
            se.problem_from_envelope(sample, locale),
            se.to_problem(code, locale, request_id="r", params=mcp_peer.example_values(code)),
        ):
            validator.validate(json.loads(json.dumps(problem)))
            assert urlsplit(str(problem["type"])).scheme == "https"  # absolute, dereferenceable
            assert problem.get("status") == (
                info.http_status if info.form is se.codes.Form.ERROR else None
            )
            assert set(problem) - RFC_9457_MEMBERS <= {
                "code",
                "layer",
                "retry",
                "locale",
                "params",
                "request_id",
            }
            checked += 1
    assert checked > 300


def http_round_trip(status: int, headers: dict[str, str], body: bytes) -> tuple[Any, bytes]:
    """The answer written by an h11 server and read back by an h11 client: both refuse what
    HTTP/1.1 does not allow (a bad header name or value, a body that disagrees with its
    Content-Length)."""
    server = h11.Connection(h11.SERVER)
    server.receive_data(b"GET /x HTTP/1.1\r\nHost: example.org\r\n\r\n")
    assert isinstance(server.next_event(), h11.Request)
    fields = [*headers.items(), ("Content-Length", str(len(body)))]
    wire = server.send(h11.Response(status_code=status, headers=fields))
    wire = (wire or b"") + (server.send(h11.Data(data=body)) or b"")
    wire += server.send(h11.EndOfMessage()) or b""
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method="GET", target="/x", headers=[("Host", "example.org")]))
    client.receive_data(wire)
    response = client.next_event()
    assert isinstance(response, h11.Response)
    received = b""
    while True:
        event = client.next_event()
        if isinstance(event, h11.Data):
            received += event.data
        elif isinstance(event, h11.EndOfMessage):
            return response, received
        else:
            raise AssertionError(event)


def test_every_http_answer_goes_through_an_http_1_1_implementation() -> None:
    checked = 0
    for code, _, sample in samples():
        info = se.CODES[code]
        for problem in (False, True):
            status, headers, body = se.to_http(sample, problem=problem)
            response, received = http_round_trip(status, headers, body)
            assert response.status_code == status == info.http_status
            read = {name.decode().lower(): value.decode() for name, value in response.headers}
            media = read["content-type"]
            assert media == (se.PROBLEM_JSON if problem and status >= 400 else "application/json")
            if "retry-after" in read:
                assert status in (429, 503) and read["retry-after"].isdigit()
            back = se.from_http(response.status_code, received)
            assert back.code is code and back.locale == read["content-language"]
            checked += 1
    assert checked > 300


def test_every_status_parses_into_google_rpc_status_with_every_detail_unpacked() -> None:
    kinds = {
        "ErrorInfo": error_details_pb2.ErrorInfo,
        "RetryInfo": error_details_pb2.RetryInfo,
        "Help": error_details_pb2.Help,
        "LocalizedMessage": error_details_pb2.LocalizedMessage,
    }
    checked = 0
    for code in mcp_peer.emitted():
        info = se.CODES[code]
        for locale in mcp_peer.LOCALES:
            for count in (1, 5):
                values = mcp_peer.example_values(code, count)
                sent = se.to_status(code, locale, request_id="req-42", params=values)
                status = json_format.ParseDict(json.loads(json.dumps(sent)), status_pb2.Status())
                assert status.code == info.grpc_status == sent["code"]
                assert 0 <= status.code <= 16 and (status.code == 0) == (info.http_status == 200)
                unpacked = []
                for detail in status.details:
                    name = detail.TypeName().rsplit(".", 1)[1]
                    message = kinds[name]()
                    assert detail.Unpack(message), name
                    unpacked.append(name)
                    if name == "ErrorInfo":
                        assert message.reason == code.value
                        assert message.domain == se.codes.ERROR_DOMAIN
                    if name == "LocalizedMessage":
                        assert message.message == status.message
                assert unpacked[0] == "ErrorInfo" and unpacked[-1] == "LocalizedMessage"
                # What protobuf writes back is read back the same by the package.
                written = json_format.MessageToDict(status)
                back = se.from_status(written)
                assert back is not None and back.code is code and back.request_id == "req-42"
                assert back.params == {
                    **values,
                    **({"request_id": "req-42"} if "request_id" in info.placeholders else {}),
                }
                checked += 1
    assert checked > 150
