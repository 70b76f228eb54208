"""The generated package's MCP projections, read by the official MCP Python SDK.

Runs under whichever major version of the SDK is importable: the 2.x in the environment
(``tests/runtime/test_peers.py`` calls :func:`check` in-process) and the 1.x that ``make
setup`` installs beside it into ``.venv/mcp1`` (the same test runs this file in a process of
its own with that folder first on the path: one environment cannot hold both).

Two checks, every code in several locales:

- the SDK's own models accept each message: ``to_mcp`` as a JSON-RPC message, the result of
  a failure inside a result and ``to_tool_result`` as a ``CallToolResult``;
- a real ``ClientSession`` over the SDK's in-memory streams calls a tool, and a peer answers
  the call with ``to_mcp(envelope, request=...)``: the client must match the answer to its
  call (a wrong or null id leaves it waiting until its timeout) and report the code.

Prints one line, ``mcp X.Y.Z: N calls, N messages``, and exits 0 when everything held.
"""

from __future__ import annotations

import importlib
import json
import sys
from importlib.metadata import version
from typing import Any

import anyio

import surface_errors as se

LOCALES = (None, "de", "ja", "ar")
#: How long the client waits for an answer: a peer that answers with another id makes the call
#: time out, which fails the check rather than hang it.
TIMEOUT_SECONDS = 5.0
TOOL = "act"


def sdk_major() -> int:
    return int(version("mcp").split(".")[0])


def example_values(code: se.ErrorCode, count: int = 3) -> dict[str, object]:
    """Values of each placeholder's declared type (a count of ``count``)."""
    info = se.CODES[code]
    return {
        name: (count if name in info.integers else f"v-{name}")
        for name in info.placeholders
        if name != "request_id"
    }


def emitted() -> list[se.ErrorCode]:
    return [code for code, info in se.CODES.items() if info.retired_since is None]


def envelope(code: se.ErrorCode, locale: str | None, count: int = 3) -> se.Envelope:
    return se.failure(code, locale=locale, request_id="req-42", params=example_values(code, count))


class Models:
    """The SDK's message and result models, under either major version."""

    def __init__(self) -> None:
        if sdk_major() >= 2:
            jsonrpc = importlib.import_module("mcp_types")
            self._message = jsonrpc.jsonrpc_message_adapter.validate_python
            self.request_type = jsonrpc.JSONRPCRequest
            self.error_type = jsonrpc.JSONRPCError
            self.response_type = jsonrpc.JSONRPCResponse
            self.call_tool_result = jsonrpc.CallToolResult
        else:
            types = importlib.import_module("mcp.types")
            self._message = types.JSONRPCMessage.model_validate
            self.request_type = types.JSONRPCRequest
            self.error_type = types.JSONRPCError
            self.response_type = types.JSONRPCResponse
            self.call_tool_result = types.CallToolResult

    def message(self, raw: object) -> Any:
        """The SDK's model of one JSON-RPC message (a ValidationError when it refuses it)."""
        parsed = self._message(raw)
        return getattr(parsed, "root", parsed)  # 1.x wraps each message in a RootModel


def sample_error(sample: se.Envelope) -> Any:
    return sample["error"] if sample["ok"] is False else sample["result"]["error"]


def dumped(model: Any) -> dict[str, Any]:
    """A model as the JSON it stands for, with the wire's member names."""
    data: dict[str, Any] = model.model_dump(by_alias=True, mode="json")
    return data


def check_models(models: Models) -> int:
    """Every code's MCP message and tool result, accepted by the SDK's models, with the id
    and the code they were given."""
    checked = 0
    for code in emitted():
        info = se.CODES[code]
        for locale in LOCALES:
            for count in (1, 5):
                sample = envelope(code, locale, count)
                raw = json.loads(json.dumps(se.to_mcp(sample, 7)))
                message = models.message(raw)
                assert message.id == 7, (code, message)
                if "error" in raw:
                    assert isinstance(message, models.error_type), (code, message)
                    assert message.error.code == info.jsonrpc_code, code
                    assert message.error.data["code"] == code.value
                else:
                    assert isinstance(message, models.response_type), (code, message)
                    result = dumped(models.call_tool_result.model_validate(raw["result"]))
                    assert result["isError"] is True, code
                    assert se.from_mcp({**raw, "result": result}).code is code
                tool = dumped(models.call_tool_result.model_validate(se.to_tool_result(sample)))
                assert tool["isError"] is True and tool["structuredContent"] is not None, code
                back = se.from_tool_result(tool)
                assert back is not None and back.code is code, code
                assert back.params == sample_error(sample).get("params", {}), code
                checked += 2
    return checked


async def serve(models: Models, streams: Any, upstream: Any) -> None:
    """The peer: every ``tools/call`` is answered with ``to_mcp`` of the envelope its
    arguments name; everything else (the handshake) goes to the SDK's own server."""
    from mcp.shared.message import SessionMessage

    read, write = streams
    async for item in read:
        request = getattr(item.message, "root", item.message)
        if isinstance(request, models.request_type) and request.method == "tools/call":
            asked = request.params["arguments"]
            sample = envelope(se.ErrorCode(asked["code"]), asked["locale"])
            raw = json.loads(json.dumps(se.to_mcp(sample, request=request.model_dump())))
            await write.send(SessionMessage(models._message(raw)))
        else:
            await upstream.send(item)


async def forward(source: Any, target: Any) -> None:
    async for item in source:
        await target.send(item)


async def call_every_code(models: Models) -> int:
    """A client session calls the tool once per code and locale and checks each answer."""
    from mcp.client.session import ClientSession
    from mcp.shared.memory import create_client_server_memory_streams

    server_module = "mcp.server" if sdk_major() >= 2 else "mcp.server.lowlevel"
    server = importlib.import_module(server_module).Server("peer")
    errors = importlib.import_module("mcp.shared.exceptions")
    mcp_error = getattr(errors, "MCPError", None) or errors.McpError
    calls = 0
    async with (
        create_client_server_memory_streams() as (client, peer),
        create_client_server_memory_streams() as (inner_client, inner_server),
        anyio.create_task_group() as tasks,
    ):
        options = server.create_initialization_options()
        tasks.start_soon(server.run, inner_server[0], inner_server[1], options)
        tasks.start_soon(serve, models, peer, inner_client[1])
        tasks.start_soon(forward, inner_client[0], peer[1])
        session = ClientSession(client[0], client[1], read_timeout_seconds=_timeout())
        async with session:
            await session.initialize()
            for code in emitted():
                info = se.CODES[code]
                for locale in LOCALES:
                    arguments = {"code": code.value, "locale": locale}
                    try:
                        result = await session.call_tool(TOOL, arguments)
                    except mcp_error as exc:
                        answered = isinstance(exc.error.data, dict)
                        assert answered, f"{code}: no answer matched the call: {exc.error}"
                        assert exc.error.code == info.jsonrpc_code, (code, exc.error)
                        assert exc.error.data["code"] == code.value, exc.error
                        assert exc.error.data["request_id"] == "req-42"
                    else:
                        assert dumped(result)["isError"] is True, (code, result)
                        back = se.from_mcp({"result": dumped(result)})
                        assert back.code is code, (code, result)
                    calls += 1
        tasks.cancel_scope.cancel()
    return calls


def _timeout() -> Any:
    """The session's read timeout: seconds in 2.x, a timedelta in 1.x."""
    if sdk_major() >= 2:
        return TIMEOUT_SECONDS
    from datetime import timedelta

    return timedelta(seconds=TIMEOUT_SECONDS)


def check() -> str:
    models = Models()
    messages = check_models(models)
    calls = anyio.run(call_every_code, models)
    return f"mcp {version('mcp')}: {calls} calls, {messages} messages"


if __name__ == "__main__":
    print(check())
    sys.exit(0)
