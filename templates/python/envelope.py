"""Building and reading result envelopes.

Each result shape of the registry travels in one of two envelope forms. The error form says
the exchange itself failed::

    {"ok": false, "error": {"code": ..., "message": ...}}

The result form carries a failure inside a result::

    {"ok": true, "result": {"error": {"code": ..., "message": ...}}}

A client that checks only ``ok`` reports the second as success. :func:`classify` gives
success and each shape's failure distinct outcomes so that cannot happen, and the builders
put each code in the shape the registry declares for it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypedDict

# check_params, fill and source_template lived here before _format.py took them; importing
# each "as" itself re-exports it, so callers that import them from this module keep working.
from ._format import (
    add_request_id,
    check_text,
    check_values,
    code_info,
    known_code,
    language_tag,
    merge_params,
)
from ._format import check_params as check_params
from ._format import fill as fill
from ._format import source_template as source_template
from .codes import CODES, FORM_OUTCOMES, SOURCE_LOCALE, CodeInfo, Form, Shape
from .codes import Outcome as Outcome
from .i18n import translator

if TYPE_CHECKING:  # at run time the enum is built on first use (see codes.py)
    from .codes import ErrorCode


class _ErrorRequired(TypedDict):
    code: str
    message: str


class ErrorBody(_ErrorRequired, total=False):
    """The error object both envelope forms carry. ``locale`` is the language of a message
    the package wrote, as a BCP 47 tag."""

    params: dict[str, object]
    request_id: str
    locale: str


class ErrorEnvelope(TypedDict):
    ok: Literal[False]
    error: ErrorBody


class ResultError(TypedDict):
    error: ErrorBody


class ResultEnvelope(TypedDict):
    ok: Literal[True]
    result: ResultError


Envelope = ErrorEnvelope | ResultEnvelope


class RegistryError(Exception):
    """The base of every exception this package defines, so that one ``except`` catches them.

    Each subclass keeps the built-in base it has always had as well (ValueError, so far), so
    code written to catch that goes on working. The name is the same in every registry's
    package, as this module is.
    """


class ShapeError(RegistryError, ValueError):
    """A code was put into the shape its registry entry does not declare."""


class MalformedEnvelope(RegistryError, ValueError):
    """An incoming envelope is in neither envelope form, nor a success."""


class RetiredCode(RegistryError, ValueError):
    """A retired code was built: it is kept for reading old envelopes, never emitted."""


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
    def params(self) -> dict[str, object]:
        """The placeholder values the failure carries (a new dict; empty when none)."""
        found = self.error.get("params")
        return dict(found) if isinstance(found, Mapping) else {}

    @property
    def request_id(self) -> str | None:
        found = self.error.get("request_id")
        return found if isinstance(found, str) else None

    @property
    def locale(self) -> str | None:
        """The language of ``message`` as a BCP 47 tag, when the sender said."""
        found = self.error.get("locale")
        return found if isinstance(found, str) else None

    @property
    def ok(self) -> bool:
        """True for success only: a failure inside a result is not ok, whatever the
        envelope says."""
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
        return self.outcome is FORM_OUTCOMES[CODES[self.code].form]


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


def _emittable(info: CodeInfo, stacklevel: int) -> None:
    if info.retired_since is not None:
        raise RetiredCode(
            f"{info.code.value} is retired since {info.retired_since} and is no longer emitted"
        )
    if info.deprecated_since is not None:
        instead = f"; use {info.replaced_by.value}" if info.replaced_by is not None else ""
        warnings.warn(
            f"{info.code.value} is deprecated since {info.deprecated_since}{instead}",
            DeprecationWarning,
            stacklevel=stacklevel + 1,
        )


def _body(
    info: CodeInfo,
    message: str | None,
    request_id: str | None,
    locale: str | None,
    params: dict[str, object],
    stacklevel: int,
) -> ErrorBody:
    _emittable(info, stacklevel + 1)
    params = add_request_id(info, params, request_id)  # the message shows the same id
    check_params(info, params)  # also with a message of the caller's: params travel too
    check_values(info, params)  # as JSON, so each of its declared type
    language = None
    if message is not None:
        check_text(info, "message", message)
    elif locale is None:
        message, language = format_message(info.code, params=params), SOURCE_LOCALE
    else:
        words = translator(locale)
        message, language = words.message(info.code, params=params), words.language(info.code)
    body: ErrorBody = {"code": info.code.value, "message": message}
    if params:
        body["params"] = dict(params)
    if request_id is not None:
        body["request_id"] = request_id
    if language is not None:  # the package wrote the message, so it knows its language
        body["locale"] = language_tag(language)
    return body


def _of_shape(shape: Shape, code: ErrorCode | str) -> CodeInfo:
    info = code_info(code)
    if info.shape is not shape:
        raise ShapeError(
            f"{info.code.value} has the shape '{info.shape.value}', not '{shape.value}'; "
            f"build it with {info.shape.value}_failure(), or with failure(), which puts "
            "each code in its own shape"
        )
    return info


def _shaped(
    shape: Shape,
    code: ErrorCode | str,
    message: str | None,
    request_id: str | None,
    locale: str | None,
    params: object,
    keywords: dict[str, object],
    stacklevel: int,
) -> ErrorBody:
    info = _of_shape(shape, code)
    values = merge_params(info, params, keywords)
    return _body(info, message, request_id, locale, values, stacklevel + 1)


def error_envelope(
    shape: Shape,
    code: ErrorCode | str,
    *,
    message: str | None,
    request_id: str | None,
    locale: str | None,
    params: object,
    keywords: dict[str, object],
    stacklevel: int = 2,
) -> ErrorEnvelope:
    """``{"ok": false, "error": ...}`` for a code of ``shape``, a shape in the error form
    (the builders named after the shapes call this)."""
    body = _shaped(shape, code, message, request_id, locale, params, keywords, stacklevel + 1)
    return {"ok": False, "error": body}


def result_envelope(
    shape: Shape,
    code: ErrorCode | str,
    *,
    message: str | None,
    request_id: str | None,
    locale: str | None,
    params: object,
    keywords: dict[str, object],
    stacklevel: int = 2,
) -> ResultEnvelope:
    """``{"ok": true, "result": {"error": ...}}`` for a code of ``shape``, a shape in the
    result form."""
    body = _shaped(shape, code, message, request_id, locale, params, keywords, stacklevel + 1)
    return {"ok": True, "result": {"error": body}}


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

    The message is the code's own, filled with the placeholder values (keyword arguments, the
    ``params`` mapping, or both), in ``locale`` when one is given; a name that cannot be a
    keyword argument (``class``, ``message``) goes in ``params``.
    """
    info = code_info(code)
    values = merge_params(info, params, keywords)
    body = _body(info, message, request_id, locale, values, 2)
    if info.form is Form.ERROR:
        return {"ok": False, "error": body}
    return {"ok": True, "result": {"error": body}}


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
    """Tell success and the failures of each shape apart.

    A code this registry does not know is classified by the envelope form it arrived in,
    with ``code=None``; an envelope in neither form raises :class:`MalformedEnvelope`.

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
        form = Form.ERROR
    else:
        if "result" not in envelope:
            raise MalformedEnvelope("an envelope with ok: true needs a 'result'")
        result = envelope["result"]
        reported = result.get("error") if isinstance(result, Mapping) else None
        if reported is None or reported is False:
            return Classified(Outcome.SUCCESS, result=result)  # no error, or one said to be none
        error, raw = _error(reported, "'result.error' of an envelope with ok: true")
        form = Form.RESULT
    outcome = FORM_OUTCOMES.get(form)
    if outcome is None:
        raise MalformedEnvelope(f"no shape of this registry travels in the {form.value} form")
    message = error.get("message")
    code = known_code(raw)
    return Classified(
        outcome, code, raw, message if isinstance(message, str) else None, error=error
    )
