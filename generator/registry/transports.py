"""The JSON-RPC error numbers that a transport errorbook knows reserves for itself.

JSON-RPC 2.0 reserves -32768 to -32000 and leaves every other integer to the application;
the validator refuses the reserved range (but for the predefined codes and the server-error
band -32099 to -32000) for every registry. A protocol built on JSON-RPC claims numbers inside
that band too, and a registry whose adapter says it is that transport (``transport: mcp``)
must not give a code one of them: a client would read the code as the protocol's own error.

MCP's numbers, as the specification's allocation policy (2026-07-28) and the official Python
SDK 2.x (``mcp_types/jsonrpc.py``) state them:

- -32000 and -32001: inside the implementation-defined band -32000 to -32019, but the SDK's
  own: -32000 a closed connection, -32001 a request that timed out;
- -32002: "resource not found" in the 2025-06-18 specification, retired and never to be
  reused (other SDKs still read it so);
- -32020 to -32099: reserved for the codes the specification defines, allocated from -32020
  upwards (-32020 header mismatch, -32021 missing client capability, -32022 unsupported
  protocol version, -32042 URL elicitation required).

So an MCP server's own codes take -32003 to -32019, JSON-RPC's predefined codes in their
meaning, or numbers outside -32768 to -32000.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reserved:
    """A range of JSON-RPC numbers (``low`` to ``high``, both included) and whose it is."""

    low: int
    high: int
    why: str

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and self.low <= number <= self.high


#: Per transport errorbook knows (an adapter's ``transport``): the numbers it reserves.
RESERVED: dict[str, tuple[Reserved, ...]] = {
    "mcp": (
        Reserved(-32000, -32000, "the MCP SDK's closed connection"),
        Reserved(-32001, -32001, "the MCP SDK's request timeout"),
        Reserved(-32002, -32002, "MCP's retired 'resource not found', never reused"),
        Reserved(-32099, -32020, "the band MCP reserves for the codes its specification defines"),
    ),
}
TRANSPORTS = tuple(RESERVED)
#: Each transport's name, as messages write it.
TITLES: dict[str, str] = {"mcp": "MCP"}
#: The numbers a server on each transport may give its own codes, for hints: the
#: implementation-defined band the transport leaves free.
FREE: dict[str, range] = {"mcp": range(-32003, -32020, -1)}


def reserved_by(transport: str, number: int) -> Reserved | None:
    return next((r for r in RESERVED[transport] if number in r), None)
