"""Building and reading result envelopes.

A failure travels in one of two shapes. A protocol failure means no action ran::

    {"ok": false, "error": {"code": ..., "message": ...}}

An action failure means the call reached an action, which refused or failed::

    {"ok": true, "result": {"error": {"code": ..., "message": ...}}}

A client that checks only ``ok`` reports the second as success. :func:`classify` gives the
three outcomes distinct values so that cannot happen, and the builders put each code in the
shape the registry declares for it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypedDict

# check_params, fill and source_template lived here before _format.py took them; importing
# each "as" itself re-exports it, so callers that import them from this module keep working.
from ._format import add_request_id, code_info, merge_params
from ._format import check_params as check_params
from ._format import fill as fill
from ._format import source_template as source_template
from .codes import CODES, CodeInfo, ErrorCode, Shape, _Value
from .i18n import message as localized_message


class _ErrorRequired(TypedDict):
    code: str
    message: str


class ErrorBody(_ErrorRequired, total=False):
    """The error object both shapes carry."""

    params: dict[str, object]
    request_id: str


class ProtocolFailure(TypedDict):
    ok: Literal[False]
    error: ErrorBody


class ActionError(TypedDict):
    error: ErrorBody


class ActionFailure(TypedDict):
    ok: Literal[True]
    result: ActionError


Envelope = ProtocolFailure | ActionFailure


class RegistryError(Exception):
    """The base of every exception this package defines, so that one ``except`` catches them.

    Each subclass keeps the built-in base it has always had as well (ValueError, so far), so
    code written to catch that goes on working. The name is the same in every registry's
    package, as this module is.
    """


class ShapeError(RegistryError, ValueError):
    """A code was put into the shape its registry entry does not declare."""


class MalformedEnvelope(RegistryError, ValueError):
    """An incoming envelope is not one of the two shapes, nor a success."""


class RetiredCode(RegistryError, ValueError):
    """A retired code was built: it is kept for reading old envelopes, never emitted."""


class Outcome(_Value):
    SUCCESS = "success"
    PROTOCOL_FAILURE = "protocol_failure"
    ACTION_FAILURE = "action_failure"


@dataclass(frozen=True)
class Classified:
    """What an envelope says. ``code`` is None for success and for codes this registry does
    not know; ``raw_code`` keeps the code as it arrived."""

    outcome: Outcome
    code: ErrorCode | None = None
    raw_code: str | None = None
    message: str | None = None
    result: object = field(default=None, hash=False)
    error: Mapping[str, object] = field(default_factory=dict, hash=False)

    @property
    def ok(self) -> bool:
        """True for success only: an action failure is not ok, whatever the envelope says."""
        return self.outcome is Outcome.SUCCESS

    @property
    def known(self) -> bool:
        return self.code is not None

    @property
    def info(self) -> CodeInfo | None:
        return CODES[self.code] if self.code is not None else None

    @property
    def shape_matches(self) -> bool:
        """False when a known code arrived in the other shape than the registry declares."""
        if self.code is None:
            return True
        expected = (
            Outcome.PROTOCOL_FAILURE
            if CODES[self.code].shape is Shape.PROTOCOL
            else Outcome.ACTION_FAILURE
        )
        return self.outcome is expected


def format_message(
    code: ErrorCode | str,
    template: str | None = None,
    /,
    *,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> str:
    """Fill a code's source message (or ``template``) with its placeholders, by name only.

    The values come as keyword arguments, in the ``params`` mapping (for a name that cannot
    be a keyword argument, such as ``class``), or both. A missing or unexpected parameter is a
    TypeError that names both; a template with a field that is not a placeholder of the code
    is a ValueError.
    """
    info = code_info(code)
    params = merge_params(info, params, keywords)
    check_params(info, params)
    text = fill(
        template if template is not None else source_template(info, params),
        info.placeholders,
        params,
    )
    if text is None:
        raise ValueError(
            f"{info.code.value}: the message has a field that is not one of its "
            f"placeholders {info.placeholders}"
        )
    return text


def _emittable(info: CodeInfo) -> None:
    if info.retired_since is not None:
        raise RetiredCode(
            f"{info.code.value} is retired since {info.retired_since} and is no longer emitted"
        )
    if info.deprecated_since is not None:
        instead = f"; use {info.replaced_by.value}" if info.replaced_by is not None else ""
        warnings.warn(
            f"{info.code.value} is deprecated since {info.deprecated_since}{instead}",
            DeprecationWarning,
            stacklevel=4,
        )


def _body(
    info: CodeInfo,
    message: str | None,
    request_id: str | None,
    locale: str | None,
    params: dict[str, object],
) -> ErrorBody:
    _emittable(info)
    params = add_request_id(info, params, request_id)  # the message shows the same id
    check_params(info, params)  # also with a message of the caller's: params travel too
    if message is None:
        if locale is None:
            message = format_message(info.code, params=params)
        else:
            message = localized_message(info.code, locale, params=params)
    body: ErrorBody = {"code": info.code.value, "message": message}
    if params:
        body["params"] = dict(params)
    if request_id is not None:
        body["request_id"] = request_id
    return body


def protocol_failure(
    code: ErrorCode | str,
    /,
    *,
    message: str | None = None,
    request_id: str | None = None,
    locale: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> ProtocolFailure:
    """``{"ok": false, "error": ...}`` for a protocol-shaped code.

    The message is the code's own, filled with the placeholder values (keyword arguments, the
    ``params`` mapping, or both), in ``locale`` when one is given.
    """
    info = code_info(code)
    if info.shape is not Shape.PROTOCOL:
        raise ShapeError(
            f"{info.code.value} is an action failure; build it with action_failure(), "
            'which puts it inside {"ok": true, "result": {"error": ...}}'
        )
    values = merge_params(info, params, keywords)
    return {"ok": False, "error": _body(info, message, request_id, locale, values)}


def action_failure(
    code: ErrorCode | str,
    /,
    *,
    message: str | None = None,
    request_id: str | None = None,
    locale: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> ActionFailure:
    """``{"ok": true, "result": {"error": ...}}`` for an action-shaped code, its placeholder
    values given as for :func:`protocol_failure`."""
    info = code_info(code)
    if info.shape is not Shape.ACTION:
        raise ShapeError(
            f"{info.code.value} is a protocol failure; build it with "
            'protocol_failure(), which answers {"ok": false, "error": ...}'
        )
    values = merge_params(info, params, keywords)
    return {"ok": True, "result": {"error": _body(info, message, request_id, locale, values)}}


def failure(
    code: ErrorCode | str,
    /,
    *,
    message: str | None = None,
    request_id: str | None = None,
    locale: str | None = None,
    params: object = None,  # a Mapping; see _format.merge_params
    **keywords: object,
) -> Envelope:
    """The envelope for a code, in the shape the registry declares for it.

    Placeholder values come as keyword arguments, in the ``params`` mapping, or both; a name
    that cannot be a keyword argument (``class``, ``message``) goes in ``params``.
    """
    info = code_info(code)
    values = merge_params(info, params, keywords)
    if info.shape is Shape.PROTOCOL:
        return protocol_failure(
            code, message=message, request_id=request_id, locale=locale, params=values
        )
    return action_failure(
        code, message=message, request_id=request_id, locale=locale, params=values
    )


def _error(value: object, where: str) -> tuple[Mapping[str, object], str]:
    if not isinstance(value, Mapping):
        raise MalformedEnvelope(
            f"{where} must be an object with a 'code', not {type(value).__name__}"
        )
    raw = value.get("code")
    if not isinstance(raw, str) or not raw:
        raise MalformedEnvelope(f"{where} has no 'code' string")
    return value, raw


def classify(envelope: object) -> Classified:
    """Tell success, protocol failure and action failure apart.

    A code this registry does not know is classified by the shape it arrived in, with
    ``code=None``; an envelope that is neither shape raises :class:`MalformedEnvelope`.

    Under ``"ok": true``, a result without an ``error`` member, or with ``null`` or ``false``
    there, is a success. Any other ``error`` value must be an object with a non-empty
    ``code`` string: an empty object, ``0``, ``""`` or ``[]`` is malformed, never a success,
    so that a failure written carelessly is not reported as done. The generated TypeScript
    ``classify`` draws the same line.
    """
    if not isinstance(envelope, Mapping):
        raise MalformedEnvelope(f"an envelope must be an object, not {type(envelope).__name__}")
    ok = envelope.get("ok")
    if not isinstance(ok, bool):
        raise MalformedEnvelope("an envelope needs 'ok': true or false")
    if ok is False:
        error, raw = _error(envelope.get("error"), "'error' of an envelope with ok: false")
        outcome = Outcome.PROTOCOL_FAILURE
    else:
        if "result" not in envelope:
            raise MalformedEnvelope("an envelope with ok: true needs a 'result'")
        result = envelope["result"]
        reported = result.get("error") if isinstance(result, Mapping) else None
        if reported is None or reported is False:
            return Classified(Outcome.SUCCESS, result=result)  # no error, or one said to be none
        error, raw = _error(reported, "'result.error' of an envelope with ok: true")
        outcome = Outcome.ACTION_FAILURE
    message = error.get("message")
    try:
        code: ErrorCode | None = ErrorCode(raw)
    except ValueError:
        code = None
    return Classified(
        outcome, code, raw, message if isinstance(message, str) else None, error=error
    )
