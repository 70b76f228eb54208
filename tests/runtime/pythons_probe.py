"""What a generated package does, written out line by line, for test_pythons.py to compare
across Python versions.

Run as ``python -I -S pythons_probe.py FOLDER PACKAGE [STRIDE]``: ``-S`` leaves site-packages
out, so the package finds the standard library alone, as it must. It imports PACKAGE from
FOLDER and prints one line per observation: messages in every shipped locale (plural counts
included, each call twice, so that the second takes the fast path), titles, negotiation,
code look-ups, envelopes, every wire projection and what reads it back, and the errors of
wrong calls and hostile input. A code is probed when its index is a multiple of STRIDE
(default 1: every code), so that a registry of many codes is sampled rather than read whole.

The same stdout from two interpreters means they behaved alike on every one of these calls.
It must itself run on each of them: standard library only, Python 3.10's syntax.
"""

from __future__ import annotations

import importlib
import json
import pickle
import sys
import warnings
from collections.abc import Callable
from typing import Any

#: Values for a text placeholder: plain, non-ASCII, looking like a format, carrying the
#: directional isolates a right-to-left message balances.
TEXTS = ("v", "Zürich", "{x} %s 100%", "a\u2069b\u2066c")
#: Values for an integer placeholder, grouped from four digits on.
INTEGERS = (3, 1000, -1234, 1048576)
#: Counts that reach each plural form of every shipped language (Polish, Arabic...).
COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 25, 100, 101, 102, 1000, 1048576, -1, -2)
#: Locales to ask for, as callers write them (a shipped one's tag is asked for too).
ASKED = (
    None, "", "C", "POSIX", "de-AT", "de_AT.UTF-8", "de_CH@euro", "pt-BR", "zh-TW",
    "zh_Hant", "sr-Latn-RS", "en-GB", "ar-EG", "ja-JP", "fr_CA", "x-private", "123", "*",
    "zh-TW-\u0870\u0870", "de-\u0661\u0662\u0663",
)  # fmt: skip
#: Bodies from_http must refuse, each with its own words. Python 3.13's JSON decoder words a
#: trailing comma otherwise than 3.12's, so no body here has one: that text is the decoder's.
BODIES = (
    b"", b"{", b"[]", b'{"ok": true}', b'{"ok": false, "error": 1}', b"\xff\xfe", b"NaN",
    b"[" * 200 + b"]" * 200,
)  # fmt: skip
ENVELOPES: tuple[object, ...] = (
    {},
    {"ok": True, "result": 1},
    {"ok": False, "error": {"code": "NO"}},
    [],
    None,
)


def out(label: str, call: Callable[..., object], *args: object, **keywords: object) -> None:
    """One line: ``label``, then what ``call(*args, **keywords)`` returns or raises, with
    the warnings it gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            found = "= " + as_text(call(*args, **keywords))
        except Exception as exc:
            found = f"! {type(exc).__name__}: {exc}"
    for warning in caught:
        found += f" (warns {warning.category.__name__}: {warning.message})"
    print(label, found)


def as_text(value: object) -> str:
    """A value as one line of text: JSON where it is JSON data, else its ascii(). Not repr():
    which characters it escapes depends on the interpreter's Unicode version."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=True)
    except (TypeError, ValueError):
        return ascii(value)


def values_for(info: Any, text: str, integer: int) -> dict[str, object]:
    """One call's values for the placeholders of ``info`` (a CodeInfo) but its count."""
    return {
        name: integer if name in info.integers else f"{text}-{name}"
        for name in info.placeholders
        if name != info.count
    }


def probe_package(se: Any) -> None:
    for name in ("REGISTRY_NAME", "REGISTRY_VERSION", "SOURCE_LOCALE", "LOCALES", "DOCS_URL"):
        out(f"constant {name}", getattr, se, name)
    out("names", lambda: [sorted(se.__all__), dir(se)])
    out("unknown name", getattr, se, "NOT_A_NAME")
    for locale in ASKED + tuple(se.LOCALES):
        out(f"chain {locale!a}", se.fallback_chain, locale)
        out(f"translator {locale!a}", lambda tag: se.Translator(tag).locale, locale)
    out("chain of an int", se.fallback_chain, 7)
    out("codes", lambda: [str(member) for member in se.ErrorCode])
    out("codes count", lambda: [len(se.CODES), len(se.ErrorCode)])
    out("limits", lambda: ascii(dict(se.LIMITS)))
    out("layers", lambda: ascii(dict(se.LAYERS)))
    for name in ("Actor", "Layer", "Outcome", "Recovery", "Retry", "Shape"):
        if hasattr(se, name):
            out(
                f"enum {name}",
                lambda enum: [[ascii(m), str(m), f"{m}"] for m in enum],
                getattr(se, name),
            )
    for wrong in ("NOT_A_CODE", ["LIST"], 7, None):
        out(f"unknown code {wrong!a}", se.message, wrong)
        out(f"unknown code info {wrong!a}", lambda code: se.CODES[code], wrong)
        out(f"unknown code failure {wrong!a}", se.failure, wrong)
    for body in BODIES:
        out(f"from_http {body[:12]!a}", lambda data: ascii(se.from_http(500, data)), body)
    for envelope in ENVELOPES:
        out(f"classify {envelope!a}", lambda value: ascii(se.classify(value)), envelope)


def probe_code(se: Any, member: Any) -> None:
    code = str(member)
    info = se.CODES[member]
    out(f"code {code}", lambda: [ascii(member), str(member), f"{member:>30}", member == code])
    out(f"code {code} lookup", lambda: [se.ErrorCode(code) is member, se.CODES[code] is info])
    out(f"code {code} info", ascii, info)
    out(f"code {code} pickle", lambda: pickle.loads(pickle.dumps(info)) == info)
    for locale in (None, *se.LOCALES):
        out(f"title {code} {locale}", se.title, member, locale)
        words = se.Translator(locale)
        for index, count in enumerate(COUNTS if info.count is not None else (None,)):
            params = values_for(info, TEXTS[index % len(TEXTS)], INTEGERS[index % len(INTEGERS)])
            if count is not None:
                params[info.count] = count
            where = f"{code} {locale} {count}"
            out(f"message {where}", se.message, code, locale, **params)
            out(f"message {where} again", se.message, code, locale, **params)
            out(f"translator {where}", words.message, member, **params)
            out(f"language {where}", words.language, code)
            out(f"template {where}", words.template, code, count)


def probe_wrong_calls(se: Any, member: Any) -> None:
    code = str(member)
    info = se.CODES[member]
    params = values_for(info, "v", 3)
    if info.count is not None:
        params[info.count] = 2
        for wrong in (True, "2", 2.0, None):
            out(
                f"wrong count {code} {wrong!a}",
                se.message,
                code,
                "de",
                **{**params, info.count: wrong},
            )
    out(f"extra {code}", se.message, code, "de", **params, unexpected=1)
    for name in params:
        fewer = {key: value for key, value in params.items() if key != name}
        out(f"missing {code} {name}", se.message, code, "de", **fewer)
    out(f"params {code}", se.message, code, "de", params=dict(params))
    out(f"params twice {code}", se.message, code, "de", params=dict(params), **params)
    out(f"params not a mapping {code}", se.message, code, "de", params=[1])
    out(f"locale not a str {code}", se.message, code, 7, **params)


def probe_wires(se: Any, member: Any) -> None:
    info = se.CODES[member]
    params = values_for(info, "v", 30)
    params.pop("request_id", None)  # the functions take it as a keyword of its own
    if info.count is not None:
        params[info.count] = 2
    out(f"hint {member}", lambda: [se.recovery_hint(member), se.retry_allowed(member)])
    for locale in (None, "de", "ar", "ja"):
        probe_wire(se, member, locale, params)


def probe_wire(se: Any, member: Any, locale: str | None, params: dict[str, object]) -> None:
    """Every projection of one envelope, each with what reads it back."""
    where = f"{member} {locale}"
    out(f"failure {where}", se.failure, member, request_id="q", locale=locale, **params)
    try:
        envelope = se.failure(member, request_id="q", locale=locale, **params)
    except Exception:  # a retired code, or values no envelope takes: said just above
        return
    out(f"classify {where}", lambda: ascii(se.classify(envelope)))
    problem = se.problem_from_envelope(envelope, locale)
    out(f"problem {where}", lambda: [problem, ascii(se.from_problem(problem))])
    out(f"to_problem {where}", se.to_problem, member, locale, request_id="r", **params)
    details = se.to_error_details(member, locale, request_id="r", **params)
    out(f"details {where}", lambda: [details, ascii(se.from_error_details(details))])
    status = se.to_status(member, locale, request_id="r", **params)
    out(f"status {where}", lambda: [status, ascii(se.from_status(status))])
    answer = se.to_http(envelope)
    out(f"http {where}", lambda: ascii([answer, se.from_http(answer[0], answer[2])]))
    answer = se.to_http(envelope, problem=True)
    out(f"http problem {where}", lambda: ascii([answer, se.from_http(answer[0], answer[2])]))
    reply = se.to_mcp(envelope, 7)
    out(f"mcp {where}", lambda: [reply, ascii(se.from_mcp(json.loads(json.dumps(reply))))])
    result = se.to_tool_result(envelope)
    out(f"tool {where}", lambda: [result, ascii(se.from_tool_result(result))])


def main() -> int:
    folder, name = sys.argv[1], sys.argv[2]
    stride = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sys.path.insert(0, folder)
    se = importlib.import_module(name)
    probe_package(se)
    for member in list(se.ErrorCode)[::stride]:
        probe_code(se, member)
        probe_wrong_calls(se, member)
        probe_wires(se, member)
    return 0


if __name__ == "__main__":
    sys.exit(main())
