"""gRPC status codes, and the one mapping from an HTTP status to a gRPC status.

A code's gRPC status is the one it declares (``grpc:``, a name below) or, when it declares
none, the one derived from its HTTP status here. The names and numbers are google.rpc.Code's
(googleapis, ``google/rpc/code.proto``); the mapping is the HTTP mapping that file documents
for each code, as AIP-193 uses it, read from HTTP to gRPC:

- each HTTP status that code.proto names maps to its code; where it names several for one
  status (400: INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE; 409: ALREADY_EXISTS,
  ABORTED; 500: UNKNOWN, INTERNAL, DATA_LOSS), to the most general of them;
- 502 Bad Gateway, which code.proto does not name, maps to UNAVAILABLE, as gRPC's own
  HTTP-to-gRPC mapping does (``doc/http-grpc-status-mapping.md``);
- any other 4xx maps to INVALID_ARGUMENT and any other 5xx to INTERNAL, the codes of the
  class's own 400 and 500;
- 200, a failure that travels inside a successful result, is OK: the exchange succeeded.

The site's schema page shows this table (:data:`FROM_HTTP`) where it describes ``grpc``.
"""

from __future__ import annotations

#: google.rpc.Code: every gRPC status by name, with its number.
CODES: dict[str, int] = {
    "OK": 0,
    "CANCELLED": 1,
    "UNKNOWN": 2,
    "INVALID_ARGUMENT": 3,
    "DEADLINE_EXCEEDED": 4,
    "NOT_FOUND": 5,
    "ALREADY_EXISTS": 6,
    "PERMISSION_DENIED": 7,
    "RESOURCE_EXHAUSTED": 8,
    "FAILED_PRECONDITION": 9,
    "ABORTED": 10,
    "OUT_OF_RANGE": 11,
    "UNIMPLEMENTED": 12,
    "INTERNAL": 13,
    "UNAVAILABLE": 14,
    "DATA_LOSS": 15,
    "UNAUTHENTICATED": 16,
}
NAMES = tuple(CODES)

#: HTTP status to gRPC status, for the statuses named one by one (see the module's text).
FROM_HTTP: dict[int, str] = {
    200: "OK",
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


def from_http(status: int) -> str:
    """The gRPC status (its name) for an HTTP status, as the module's text says."""
    found = FROM_HTTP.get(status)
    if found is not None:
        return found
    if 400 <= status < 500:
        return "INVALID_ARGUMENT"
    if 500 <= status < 600:
        return "INTERNAL"
    return "UNKNOWN"
