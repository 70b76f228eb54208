"""Every wire a failure travels on, projected from the same registry entry.

Each ``to_*`` function has a ``from_*`` inverse that gives the code back, so that no wire can
say something the registry does not:

- Problem Details (RFC 9457): :func:`to_problem`, :func:`problem_from_envelope`,
  :func:`from_problem`;
- gRPC-style error details (google.rpc ErrorInfo, RetryInfo, Help, LocalizedMessage):
  :func:`to_error_details`, :func:`from_error_details`, and the google.rpc.Status that
  carries them: :func:`to_status`, :func:`from_status`;
- HTTP: :func:`to_http`, :func:`from_http`;
- MCP (JSON-RPC 2.0): :func:`to_mcp`, :func:`from_mcp`;
- a model's tool result: :func:`to_tool_result`, :func:`from_tool_result`.

Agents get :func:`recovery_hint` with every MCP and tool-result projection: what to do next,
what not to repeat, whether a retry is allowed, and the request id where there is one.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, overload

from ._format import (
    DURATION_MAX_SECONDS,
    MAX_JSON_INTEGER,
    RETRY_AFTER,
    add_request_id,
    check_delay,
    check_params,
    check_values,
    code_info,
    known_code,
    language_tag,
    merge_params,
)
from .codes import (
    CODES,
    ERROR_DOMAIN,
    FORM_OUTCOMES,
    LAYERS,
    SHAPES,
    CodeInfo,
    Form,
    Retry,
)
from .envelope import Classified, Envelope, MalformedEnvelope, Outcome, classify
from .i18n import Translator, translator

if TYPE_CHECKING:  # at run time the enum is built on first use (see codes.py)
    from .codes import ErrorCode

PROBLEM_JSON = "application/problem+json"
#: The id of a JSON-RPC request: a response carries the id of the request it answers.
JsonRpcId = int | str
_TYPE_PREFIX = "type.googleapis.com/google.rpc."
_TOOL_TEXT = re.compile(r"\AError (\S+) \(")  # any name the registry's naming rule allows
#: A language tag as a header may carry it (RFC 5646's shape, in letters, digits and hyphens;
#: ``_`` as a POSIX locale writes it): anything else in an envelope's ``locale`` stays out of
#: ``Content-Language``, where a line break would start a header of the sender's choosing.
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8}){0,15}")
#: The largest HTTP body :func:`from_http` reads by default, in bytes.
MAX_BODY_BYTES = 4 * 1024 * 1024
#: How deeply arrays and objects may nest in a body :func:`from_http` reads by default.
MAX_JSON_DEPTH = 128
#: An escape in a JSON string; once escapes are gone, a string (or an unterminated one, up to
#: the end) runs to the next quote; and every run of characters that are not brackets.
_JSON_ESCAPE = re.compile(r"\\.", re.DOTALL)
_JSON_STRING = re.compile(r'"[^"]*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = str.maketrans("[{]}", "\x01\x01\xff\xff")  # +1 in, -1 out, as signed bytes
_NANOS = 1_000_000_000
#: google.rpc.Code's UNKNOWN, for a code with no gRPC status (a registry without HTTP).
_GRPC_UNKNOWN = 2
#: What classify() says of an envelope with ``"ok": false``.
_ERROR_OUTCOME = FORM_OUTCOMES.get(Form.ERROR)


def recovery_hint(code: ErrorCode | str) -> str:
    """Model-facing guidance for a code, in plain English."""
    return code_info(code).hint


def retry_allowed(code: ErrorCode | str) -> bool:
    """True when the registry lets a client send the same request again by itself."""
    return code_info(code).retry is Retry.BOUNDED


def _known(outcome: Classified) -> CodeInfo:
    _failure(outcome)
    if outcome.code is None:
        raise MalformedEnvelope(f"{outcome.raw_code!r} is not a code of this registry")
    return CODES[outcome.code]


def _failure(outcome: Classified) -> None:
    if outcome.outcome is Outcome.SUCCESS:
        raise MalformedEnvelope("a successful envelope is not a failure")


def _tag(locale: object) -> str | None:
    """``locale`` when it is a language tag (see _LANGUAGE_TAG), else None."""
    return locale if isinstance(locale, str) and _LANGUAGE_TAG.fullmatch(locale) else None


def _said(outcome: Classified) -> str:
    """What a failure says when its envelope carries no message: the code's message made
    from the envelope's values, in its language; where they do not fit the code (a peer of
    another version), its name and title; for a code this registry does not know, its name.
    Never a template with its placeholders unfilled."""
    if outcome.code is None:
        return outcome.raw_code or ""
    info = CODES[outcome.code]
    words = translator(_tag(outcome.locale))
    with contextlib.suppress(TypeError, ValueError):
        return words.message(info.code, params=outcome.params)
    return f"{info.code.value}: {_problem_title(info, words)}"


# --- Problem Details ---------------------------------------------------------------------


def to_problem(
    code: ErrorCode | str,
    locale: str | None = None,
    /,
    *,
    request_id: str | None = None,
    instance: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> dict[str, object]:
    """An RFC 9457 problem object: ``type`` is the code's page, ``title`` a short summary
    that is the same for every occurrence (the code's title in ``locale``, or for a code
    without one its layer's title and the code, as in ``"Storage: DISK_FULL"``),
    ``detail`` the localized message with its values,
    ``status`` the HTTP status of a protocol failure; ``code``, ``layer`` and ``retry`` are
    extension members.

    Placeholder values come as keyword arguments, in the ``params`` mapping, or both; a
    placeholder named ``instance`` (or ``class``) can only travel in ``params``."""
    info = code_info(code)
    return _problem(info, locale, request_id, instance, merge_params(info, params, keywords))


def _problem_title(info: CodeInfo, words: Translator) -> str:
    """A problem's ``title``: RFC 9457 wants a summary that does not change between
    occurrences, so never the message, which carries placeholders. It is the code's own
    title, translated like the message (RFC 9457 allows a localized title); a code without
    one gets its layer's title and its name, in the registry's source language."""
    found = words.title(info.code)
    return found if found is not None else f"{LAYERS[info.layer].title}: {info.code.value}"


def _problem(
    info: CodeInfo,
    locale: str | None,
    request_id: str | None,
    instance: str | None,
    params: dict[str, object],
    detail: str | None = None,
) -> dict[str, object]:
    """The problem object; ``detail`` is a message already made (an envelope's, in
    ``locale`` if that is given), else the message is made here from ``params``."""
    params = add_request_id(info, params, request_id)
    if detail is None:
        check_params(info, params)
        check_values(info, params)
    words = translator(locale)
    problem: dict[str, object] = {
        "type": info.docs_url,
        "title": _problem_title(info, words),
        "detail": detail if detail is not None else words.message(info.code, params=params),
        "code": info.code.value,
        "layer": info.layer.value,
        "retry": info.retry.value if info.retry is not None else None,
    }
    if detail is None:
        problem["locale"] = language_tag(words.language(info.code))
    elif locale is not None:
        problem["locale"] = locale
    if info.form is Form.ERROR:  # a failure inside a result travels in a 200: no error status
        problem["status"] = info.http_status
    if params:
        problem["params"] = dict(params)
    if instance is not None:
        problem["instance"] = instance
    if request_id is not None:
        problem["request_id"] = request_id
    return problem


def problem_from_envelope(envelope: object, locale: str | None = None) -> dict[str, object]:
    """The problem object for a failure envelope (MalformedEnvelope for anything else).

    Its ``detail`` is the envelope's message as sent, and its ``locale`` the envelope's
    (none when the envelope names none). Given a ``locale``, or for an envelope without a
    message, the message is made anew from the envelope's values, in ``locale`` or else the
    envelope's own; values that do not fit the code are then a MalformedEnvelope."""
    outcome = classify(envelope)
    info = _known(outcome)
    request_id = outcome.request_id
    params = {
        k: v
        for k, v in outcome.params.items()
        if k in info.placeholders and not (k == "request_id" and request_id is not None)
    }
    said = outcome.message
    try:
        if locale is None and isinstance(said, str) and said:
            return _problem(info, _tag(outcome.locale), request_id, None, params, said)
        return _problem(info, locale or _tag(outcome.locale), request_id, None, params)
    except (TypeError, ValueError) as exc:
        raise MalformedEnvelope(
            f"the message of {info.code.value} cannot be made from the envelope's values: {exc}"
        ) from None


def from_problem(problem: Mapping[str, object]) -> Classified | None:
    """What a problem object says: the code (its ``code`` member, else its ``type`` URL), the
    placeholder values (``params``), the message (``detail``), its ``locale`` and the
    ``request_id``; None when it names no code at all. A code this registry does not know
    comes back with ``code=None`` and ``raw_code`` set, as :func:`classify` gives it."""
    value = problem.get("code")
    kind = problem.get("type")
    if isinstance(value, str) and value:
        raw = value
    elif isinstance(kind, str) and kind in _by_type():
        raw = _by_type()[kind].value
    else:
        return None
    error: dict[str, object] = {"code": raw}
    for member, name in (("detail", "message"), ("params", "params")):
        if member in problem:
            error[name] = problem[member]
    for name in ("request_id", "locale"):
        if name in problem:
            error[name] = problem[name]
    status = problem.get("status")
    form = Form.ERROR if isinstance(status, int) and status >= 400 else Form.RESULT
    return _received(raw, error, form)


def _received(raw: str, error: dict[str, object], form: Form) -> Classified:
    """A failure read from a wire that is not an envelope, as :func:`classify` would give
    the envelope: its outcome is its code's shape's, or for a code this registry does not
    know, that of the envelope ``form`` the wire implies."""
    code = known_code(raw)
    if code is not None:
        form = CODES[code].form
    outcome = FORM_OUTCOMES.get(form) or next(iter(FORM_OUTCOMES.values()))
    message = error.get("message")
    return Classified(
        outcome, code, raw, message if isinstance(message, str) else None, error=error
    )


@functools.cache
def _by_type() -> dict[str, ErrorCode]:
    """Each code by its problem type (its docs_url), built on first use, not at import."""
    return {info.docs_url: info.code for info in CODES.values()}


# --- gRPC-style error details --------------------------------------------------------------


def to_error_details(
    code: ErrorCode | str,
    locale: str | None = None,
    /,
    *,
    request_id: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> list[dict[str, object]]:
    """Details as google.rpc ErrorInfo, RetryInfo (when a retry is allowed), Help and
    LocalizedMessage carry them, in their JSON form. Placeholder values are given as for
    :func:`to_problem`."""
    info = code_info(code)
    values = add_request_id(info, merge_params(info, params, keywords), request_id)
    check_params(info, values)
    check_values(info, values)
    delay = _retry_delay(info, values) if info.retry is Retry.BOUNDED else None
    metadata = {"layer": info.layer.value}
    if info.retry is not None:
        metadata["retry"] = info.retry.value
    if info.retry_attempts is not None:
        metadata["max_attempts"] = str(info.retry_attempts)
    if request_id is not None:
        metadata["request_id"] = request_id
    # The values last: the facts above follow from the code, a placeholder named like one
    # of them would otherwise lose its value.
    metadata.update((name, str(value)) for name, value in values.items())
    words = translator(locale)
    details: list[dict[str, object]] = [
        {
            "@type": _TYPE_PREFIX + "ErrorInfo",
            "reason": info.code.value,
            "domain": ERROR_DOMAIN,
            "metadata": dict(sorted(metadata.items())),
        },
    ]
    if delay is not None:
        details.append({"@type": _TYPE_PREFIX + "RetryInfo", "retryDelay": delay})
    details.append(
        {
            "@type": _TYPE_PREFIX + "Help",
            "links": [
                {
                    "description": f"{info.code.value}: what it means and how to recover",
                    "url": info.docs_url,
                }
            ],
        }
    )
    details.append(
        {
            "@type": _TYPE_PREFIX + "LocalizedMessage",
            "locale": language_tag(words.language(info.code)),
            "message": words.message(info.code, params=values),
        }
    )
    return details


def to_status(
    code: ErrorCode | str,
    locale: str | None = None,
    /,
    *,
    request_id: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> dict[str, object]:
    """A google.rpc.Status in its JSON form: ``code`` is the code's gRPC status (declared in
    the registry, or derived from its HTTP status), ``message`` the localized message and
    ``details`` what :func:`to_error_details` gives. A failure inside a result has the
    status OK (0): like its HTTP 200, the exchange succeeded, and the details say what
    failed. Placeholder values are given as for :func:`to_problem`."""
    info = code_info(code)
    values = merge_params(info, params, keywords)
    details = to_error_details(info.code, locale, request_id=request_id, params=values)
    localized = details[-1]["message"]
    return {
        "code": info.grpc_status if info.grpc_status is not None else _GRPC_UNKNOWN,
        "message": localized,
        "details": details,
    }


def from_status(status: Mapping[str, object]) -> Classified | None:
    """What a google.rpc.Status says, read from its details (:func:`from_error_details`);
    None when none of them is an ErrorInfo of this registry's domain."""
    return from_error_details(status.get("details"))


def _retry_delay(info: CodeInfo, params: Mapping[str, object]) -> str:
    """RetryInfo's ``retryDelay``: see :func:`_delay_nanos`; no delay at all is ``"0s"``."""
    return _duration_json(_delay_nanos(info, params) or 0)


def _delay_nanos(info: CodeInfo, params: Mapping[str, object]) -> int | None:
    """How long to wait before a retry, in nanoseconds: a ``retry_after`` placeholder given
    as whole seconds, else the delay the registry declares for the code, else None. A
    ValueError refuses a negative delay and one longer than a Duration holds."""
    seconds = params.get(RETRY_AFTER)
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        return info.retry_delay_ms * 1_000_000 if info.retry_delay_ms is not None else None
    check_delay(info, seconds)  # failure() refuses it too; an envelope made elsewhere may not
    return seconds * _NANOS


def _duration_json(nanos: int) -> str:
    """A google.protobuf.Duration of ``nanos`` nanoseconds in its JSON form, as protobuf
    writes it: whole seconds, then 3, 6 or 9 fractional digits when the value needs them,
    then ``s`` (``"20s"``, ``"0.500s"``, ``"-1.000000001s"``). A ValueError refuses a value
    outside the Duration range of 315,576,000,000 seconds either way."""
    if abs(nanos) > DURATION_MAX_SECONDS * _NANOS:
        raise ValueError(
            f"a google.protobuf.Duration holds at most {DURATION_MAX_SECONDS} seconds either way"
        )
    sign = "-" if nanos < 0 else ""
    seconds, fraction = divmod(abs(nanos), _NANOS)
    if fraction == 0:
        return f"{sign}{seconds}s"
    digits = f"{fraction:09d}"
    while digits.endswith("000"):
        digits = digits[:-3]
    return f"{sign}{seconds}.{digits}s"


def from_error_details(details: object) -> Classified | None:
    """What google.rpc details of this registry's domain say: the code (ErrorInfo's
    ``reason``), the placeholder values (its ``metadata``, each back in its declared type),
    the message and its locale (LocalizedMessage) and the request id; None when no ErrorInfo
    of this registry's domain is among them. An unknown reason comes back with
    ``code=None``, in the error form, as gRPC carries errors."""
    if not isinstance(details, list):
        return None
    items = [item for item in details if isinstance(item, Mapping)]
    for item in items:
        raw = item.get("reason")
        if (
            item.get("@type") == _TYPE_PREFIX + "ErrorInfo"
            and item.get("domain") == ERROR_DOMAIN
            and isinstance(raw, str)
            and raw
        ):
            break
    else:
        return None
    metadata = item.get("metadata")
    metadata = metadata if isinstance(metadata, Mapping) else {}
    error: dict[str, object] = {"code": raw}
    known = known_code(raw)
    info: CodeInfo | None = None if known is None else CODES[known]
    if info is not None:
        params = {
            name: _typed(info, name, metadata[name])
            for name in info.placeholders
            if name in metadata
        }
        if params:
            error["params"] = params
    if isinstance(metadata.get("request_id"), str):
        error["request_id"] = metadata["request_id"]
    for item in items:
        if item.get("@type") == _TYPE_PREFIX + "LocalizedMessage":
            for name in ("message", "locale"):
                if isinstance(item.get(name), str):
                    error[name] = item[name]
            break
    return _received(raw, error, Form.ERROR)


#: An integer as ErrorInfo's metadata writes it: at most 16 digits, as many as the largest
#: integer JSON peers read exactly has (see _typed).
_INTEGER = re.compile(r"-?[0-9]{1,16}\Z")


def _typed(info: CodeInfo, name: str, value: object) -> object:
    """A value as ErrorInfo's metadata writes it (a string), back in the type the registry
    declares for the placeholder: an integer placeholder's decimal digits as an int, when
    they are one of ±(2**53 - 1). Other text stays as it came: int() of a few thousand
    digits raises, and a received value is never worth a crash."""
    if name in info.integers and isinstance(value, str) and _INTEGER.match(value):
        number = int(value)
        if -MAX_JSON_INTEGER <= number <= MAX_JSON_INTEGER:
            return number
    return value


# --- HTTP ----------------------------------------------------------------------------------


def to_http(envelope: Envelope, *, problem: bool = False) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body: a failure in the error form with its code's status, one
    inside a result as 200 OK with the error inside the result.

    The body is the envelope as ``application/json``, or with ``problem=True`` a failure in
    the error form as an RFC 9457 problem object, ``application/problem+json``
    (:func:`problem_from_envelope`: the envelope's message and locale); a failure inside a result
    stays an envelope in a 200 either way, as does a code this registry does not know.
    Neither media type takes a ``charset`` parameter: JSON is UTF-8. ``Content-Language``
    says the language of the message when the envelope does (with a language tag: anything
    else there stays out of the headers), and a 429 or 503 answer
    carries ``Retry-After`` (whole seconds) when the code allows a retry after a delay: its
    ``retry_after`` placeholder, else the delay the registry declares."""
    outcome = classify(envelope)
    headers = {"Content-Type": "application/json"}
    if outcome.code is None:
        status = 200 if outcome.outcome is not _ERROR_OUTCOME else 500
        return status, headers, _json_bytes(envelope)
    info = CODES[outcome.code]
    status = info.http_status
    body: object = envelope
    language = _tag(outcome.locale)
    if problem and outcome.outcome is _ERROR_OUTCOME:
        body = problem_from_envelope(envelope)
        headers["Content-Type"] = PROBLEM_JSON
        language = _tag(body.get("locale"))
    if language is not None:
        headers["Content-Language"] = language
    if status in (429, 503) and info.retry is Retry.BOUNDED:
        delay = _delay_nanos(info, outcome.params)
        if delay is not None:
            headers["Retry-After"] = _retry_after(delay)
    return status, headers, _json_bytes(body)


def _json_bytes(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False).encode("utf-8")


def _retry_after(nanos: int) -> str:
    """A delay as Retry-After's delay-seconds (RFC 9110): whole seconds, rounded up, so that
    a client that waits as told never comes back early."""
    return str(-(-nanos // _NANOS))


def _nests_deeper(text: str, limit: int) -> bool:
    """True when the arrays and objects of a JSON text nest more than ``limit`` levels, found
    without parsing it: escapes and then strings are dropped, then each bracket steps one
    level in or out. Exact for valid JSON; for invalid JSON, the depth counted is never less
    than the one a parser reaches before it finds the mistake."""
    if text.count("[") + text.count("{") <= limit:
        return False  # a text cannot nest deeper than the brackets it opens
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", _JSON_ESCAPE.sub("", text)))
    steps = memoryview(brackets.translate(_BRACKET_STEP).encode("latin-1")).cast("b")
    return max(itertools.accumulate(steps), default=0) > limit


def _not_a_number(constant: str) -> object:
    """Python's json reads ``NaN``, ``Infinity`` and ``-Infinity``; JSON has no such numbers,
    and a strict peer refuses a body with one, so :func:`from_http` refuses it too."""
    raise ValueError(f"{constant} is not a JSON number")


def from_http(
    status: int, body: bytes, *, max_bytes: int = MAX_BODY_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> Classified:
    """Read an HTTP answer: the envelope in the body decides, the status must agree. A body
    that is a problem object (``application/problem+json``, an object with a ``type`` and no
    ``ok``) is read with :func:`from_problem`, and its ``status`` must be the answer's.

    Whatever the body holds ends in :class:`MalformedEnvelope` when it cannot be read as an
    envelope, never in another exception. Bodies are bounded: at most ``max_bytes`` bytes
    (4,194,304 by default, :data:`MAX_BODY_BYTES`), with arrays and objects nested at most
    ``max_depth`` levels (128 by default, :data:`MAX_JSON_DEPTH`; the envelope object itself
    is the first). Both are checked before the body is parsed.
    """
    if len(body) > max_bytes:
        raise MalformedEnvelope(
            f"the HTTP body has {len(body)} bytes, more than the {max_bytes} "
            "from_http reads (see its max_bytes)"
        )
    try:  # json.loads decodes bytes the same way: UTF-8, UTF-16 or UTF-32
        text = (
            body
            if isinstance(body, str)
            else body.decode(json.detect_encoding(body), "surrogatepass")
        )
    except UnicodeDecodeError as exc:
        raise MalformedEnvelope(f"the HTTP body is not JSON: {exc}") from None
    if _nests_deeper(text, max_depth):
        raise MalformedEnvelope(
            f"the HTTP body nests arrays and objects deeper than "
            f"{max_depth} levels (see from_http's max_depth)"
        )
    try:
        envelope = json.loads(text, parse_constant=_not_a_number)
    except (ValueError, RecursionError) as exc:  # a max_depth deeper than the stack allows
        raise MalformedEnvelope(f"the HTTP body is not JSON: {exc}") from None
    if isinstance(envelope, dict) and "ok" not in envelope and "type" in envelope:
        read = from_problem(envelope)  # application/problem+json, as to_http(problem=True)
        if read is None:
            raise MalformedEnvelope("the HTTP body is a problem object of no code of this registry")
        if envelope.get("status") != status:
            raise MalformedEnvelope(
                f"a problem object with status {envelope.get('status')!r} came with HTTP {status}"
            )
        return read
    outcome = classify(envelope)
    if outcome.outcome is _ERROR_OUTCOME and status < 400:
        raise MalformedEnvelope(f"an envelope with ok: false came with HTTP {status}")
    if outcome.outcome is not _ERROR_OUTCOME and status >= 400:
        raise MalformedEnvelope(f"HTTP {status} came with an envelope that is not a failure")
    return outcome


# --- MCP (JSON-RPC 2.0) --------------------------------------------------------------------


def _agent_data(outcome: Classified) -> dict[str, object]:
    """What an agent is told of a failure: its code, and where this registry knows the
    code, its layer, whether a retry is allowed, what to do and its page."""
    _failure(outcome)
    data: dict[str, object] = {"code": outcome.raw_code}
    if outcome.code is not None:
        info = CODES[outcome.code]
        data["code"] = info.code.value
        data["layer"] = info.layer.value
        data["retry_allowed"] = info.retry is Retry.BOUNDED
        data["recovery"] = info.hint
        data["docs_url"] = info.docs_url
    params = outcome.params
    if params:
        data["params"] = params
    request_id = outcome.request_id
    if request_id is not None:
        data["request_id"] = request_id
    if outcome.locale is not None:
        data["locale"] = outcome.locale
    return data


@overload
def to_mcp(envelope: Envelope, rpc_id: JsonRpcId, /) -> dict[str, object]: ...
@overload
def to_mcp(envelope: Envelope, /, *, request: Mapping[str, object]) -> dict[str, object]: ...
def to_mcp(
    envelope: Envelope,
    rpc_id: JsonRpcId | None = None,
    /,
    *,
    request: Mapping[str, object] | None = None,
) -> dict[str, object]:
    """A JSON-RPC response: an error object for a failure in the error form, a tool result
    marked ``isError`` for one inside a result. Both carry the recovery hint for the agent.

    The response answers one request, so it carries that request's id: ``rpc_id`` (an int or
    a string), or the ``id`` of ``request``, the JSON-RPC request itself. One of the two is
    required, and no id is ever made up: a client matches a response to its request by id,
    and one with another id, or ``null``, leaves the call waiting until it times out."""
    rpc_id = _response_id(rpc_id, request)
    outcome = classify(envelope)
    data = _agent_data(outcome)
    if outcome.outcome is _ERROR_OUTCOME:
        number = CODES[outcome.code].jsonrpc_code if outcome.code is not None else None
        return {
            "jsonrpc": "2.0",
            "id": rpc_id,
            "error": {
                "code": number if number is not None else -32000,
                "message": outcome.message or _said(outcome),
                "data": data,
            },
        }
    return {
        "jsonrpc": "2.0",
        "id": rpc_id,
        "result": {
            "isError": True,
            "content": [{"type": "text", "text": _tool_text(outcome)}],
            "structuredContent": {"ok": True, "result": {"error": {**dict(outcome.error), **data}}},
        },
    }


def _response_id(rpc_id: object, request: Mapping[str, object] | None) -> JsonRpcId:
    """The id a response to ``request`` (or to the request whose id is ``rpc_id``) carries;
    a TypeError when there is none to echo, or a ValueError when the request is a
    notification, which gets no response at all."""
    if request is not None:
        if rpc_id is not None:
            raise TypeError("to_mcp takes the request id or the request, not both")
        if not isinstance(request, Mapping):
            raise TypeError(
                f"request must be a JSON-RPC request object, not {type(request).__name__}"
            )
        if "id" not in request:
            raise ValueError("the request is a notification (it has no id): it gets no response")
        rpc_id = request["id"]
    elif rpc_id is None:
        raise TypeError(
            "to_mcp needs the id of the request it answers (rpc_id), or the request itself "
            "(request=): a response with a null id is never matched to its request"
        )
    if isinstance(rpc_id, bool) or not isinstance(rpc_id, int | str):
        raise TypeError(f"a JSON-RPC request id is an int or a string, not {type(rpc_id).__name__}")
    return rpc_id


def from_mcp(message: Mapping[str, object]) -> Classified:
    """Read a JSON-RPC response produced by :func:`to_mcp` (or by a peer that follows it)."""
    error = message.get("error")
    if isinstance(error, Mapping):
        data = error.get("data")
        code = data.get("code") if isinstance(data, Mapping) else None
        if not isinstance(code, str):
            raise MalformedEnvelope("a JSON-RPC error without data.code")
        body = {"code": code, "message": error.get("message")}
        if isinstance(data, Mapping):
            body.update({k: v for k, v in data.items() if k in ("params", "request_id", "locale")})
        return classify({"ok": False, "error": body})
    result = message.get("result")
    if isinstance(result, Mapping):
        structured = result.get("structuredContent")
        if isinstance(structured, Mapping):
            return classify(structured)
        return classify({"ok": True, "result": result})
    raise MalformedEnvelope("a JSON-RPC response needs a result or an error")


# --- A model's tool result -----------------------------------------------------------------


def _tool_text(outcome: Classified) -> str:
    _failure(outcome)
    if outcome.code is None:  # a peer's code this registry does not know (a newer one)
        return _text_lines(outcome, f"Error {outcome.raw_code} (not a code this registry knows).")
    info = CODES[outcome.code]
    layer = LAYERS[info.layer].title
    where = SHAPES[info.shape].proves
    if info.retry is Retry.BOUNDED:
        attempts = info.retry_attempts
        retry = f"a retry is allowed (at most {attempts} attempt{'s' * (attempts != 1)} in all)"
    elif info.retry is Retry.AFTER_FIX:
        retry = "retry only after the cause is fixed"
    elif info.retry is Retry.NEVER:
        retry = "do not retry"
    else:
        retry = "no retry policy is given"
    head = f"Error {info.code.value} ({layer} layer; {retry}). {where}"
    return _text_lines(outcome, head, f"What to do: {info.hint}")


def _text_lines(outcome: Classified, head: str, hint: str | None = None) -> str:
    """A tool result's text: ``head``, the envelope's message, ``hint`` and the request id."""
    lines = [head]
    if outcome.message:
        lines.append(outcome.message)
    if hint is not None:
        lines.append(hint)
    request_id = outcome.request_id
    if request_id is not None:
        lines.append(f"Request id: {request_id}")
    return "\n".join(lines)


def to_tool_result(envelope: Envelope) -> dict[str, object]:
    """What the runtime hands back to a model: an error tool result whose text says the
    code, whether a retry is allowed and what to do, with the envelope as structured data."""
    outcome = classify(envelope)
    return {
        "isError": True,
        "content": [{"type": "text", "text": _tool_text(outcome)}],
        "structuredContent": dict(envelope),
        "recovery": _agent_data(outcome),
    }


def from_tool_result(result: Mapping[str, object]) -> Classified | None:
    """What a tool result reports: its structured content read as an envelope, which gives
    back everything the envelope carried; else the code named by its text (the message,
    values and request id are not read back from prose); None when it names no code."""
    structured = result.get("structuredContent")
    if isinstance(structured, Mapping):
        with contextlib.suppress(MalformedEnvelope):
            outcome = classify(structured)
            if outcome.raw_code is not None:
                return outcome
    content = result.get("content")
    if isinstance(content, list):
        for part in content:
            text = part.get("text") if isinstance(part, Mapping) else None
            match = _TOOL_TEXT.match(text) if isinstance(text, str) else None
            if match:
                return _received(match.group(1), {"code": match.group(1)}, Form.RESULT)
    return None
