"""Every wire gives back what went in: for any code, locale and placeholder values, each
``from_*`` of each ``to_*`` returns the code, the values in their declared types, the
message, its locale and the request id (Hypothesis draws them)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import surface_errors as se

CODES = [code for code, info in se.CODES.items() if info.retired_since is None]
#: Shipped locales, regional and scripted tags that reach them, and tags that reach none.
LOCALES = [None, "en", "de", "de-AT", "fr_CA", "es", "ja_JP.UTF-8", "pl", "ar", "xx", "zh_TW"]
LARGEST = 2**53 - 1
#: Text a JSON text can carry: any character but a lone surrogate.
CHARACTERS = st.characters(exclude_categories=["Cs"])
TEXT = st.text(CHARACTERS, max_size=40)
INTEGER = st.integers(-LARGEST, LARGEST) | st.integers(-3, 3)
#: A retry_after placeholder becomes RetryInfo's delay, a Duration: never negative.
DELAY = st.integers(0, 315_576_000_000)
REQUEST_IDS = st.none() | st.text(CHARACTERS, min_size=1, max_size=20)


@st.composite
def failures(draw: st.DrawFn) -> tuple[se.ErrorCode, str | None, str | None, dict[str, Any]]:
    code = draw(st.sampled_from(CODES))
    info = se.CODES[code]
    values = {
        name: draw(DELAY if name == "retry_after" else INTEGER if name in info.integers else TEXT)
        for name in info.placeholders
        if name != "request_id"
    }
    request_id = draw(REQUEST_IDS)
    if "request_id" in info.placeholders and request_id is None:
        request_id = draw(TEXT)  # a code that shows the request id needs one
    return code, draw(st.sampled_from(LOCALES)), request_id, values


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def expected(
    code: se.ErrorCode, locale: str | None, request_id: str | None, values: dict[str, Any]
) -> dict[str, Any]:
    info = se.CODES[code]
    params = dict(values)
    if "request_id" in info.placeholders and request_id is not None:
        params["request_id"] = request_id
    words = se.i18n.translator(locale)
    return {
        "code": code,
        "params": params,
        "message": words.message(code, params=params),
        "locale": words.language(code).replace("_", "-"),
        "request_id": request_id,
    }


def dropped_headers(answer: tuple[int, dict[str, str], bytes]) -> tuple[int, bytes]:
    return answer[0], answer[2]


def got(found: se.Classified | None) -> dict[str, Any]:
    assert found is not None
    return {
        "code": found.code,
        "params": found.params,
        "message": found.message,
        "locale": found.locale,
        "request_id": found.request_id,
    }


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(failures())
def test_every_wire_gives_back_what_went_in(
    drawn: tuple[se.ErrorCode, str | None, str | None, dict[str, Any]],
) -> None:
    code, locale, request_id, values = drawn
    want = expected(code, locale, request_id, values)
    envelope = se.failure(code, locale=locale, request_id=request_id, params=values)
    # The envelope's message is format_message's when no locale is asked for (no digit
    # grouping), the translator's otherwise; each wire must give back the one it carried.
    body = envelope["error"] if envelope["ok"] is False else envelope["result"]["error"]
    sent = {**want, "message": body["message"]}
    if locale is not None:
        assert sent == want
    outcome = se.classify(through_json(envelope))
    assert got(outcome) == sent
    status, _, http_body = se.to_http(envelope)
    assert got(se.from_http(status, http_body)) == sent
    assert got(se.from_mcp(through_json(se.to_mcp(envelope, 1)))) == sent
    assert got(se.from_tool_result(through_json(se.to_tool_result(envelope)))) == sent
    # A problem made for the envelope carries its message and locale as sent.
    as_problem = se.from_http(*dropped_headers(se.to_http(envelope, problem=True)))
    assert got(as_problem) == sent
    problem = se.to_problem(code, locale, request_id=request_id, params=values)
    assert got(se.from_problem(through_json(problem))) == want
    assert got(se.from_problem(through_json(se.problem_from_envelope(envelope, locale)))) == sent
    details = se.to_error_details(code, locale, request_id=request_id, params=values)
    back = se.from_error_details(through_json(details))
    assert got(back) == want
    status_json = se.to_status(code, locale, request_id=request_id, params=values)
    assert got(se.from_status(through_json(status_json))) == want
    for found in (back, se.from_problem(problem), se.from_mcp(se.to_mcp(envelope, 1))):
        assert found is not None and found.outcome is outcome.outcome


def test_a_code_this_registry_does_not_know_comes_back_by_name() -> None:
    problem = se.from_problem({"code": "FROM_THE_FUTURE", "status": 503, "detail": "later"})
    assert problem is not None and problem.code is None and problem.raw_code == "FROM_THE_FUTURE"
    assert problem.outcome is se.Outcome.PROTOCOL_FAILURE and problem.message == "later"
    inside = se.from_problem({"code": "FROM_THE_FUTURE"})  # no status: a failure in a result
    assert inside is not None and inside.outcome is se.Outcome.ACTION_FAILURE
    info = {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "domain": se.codes.ERROR_DOMAIN}
    details = se.from_error_details([{**info, "reason": "FROM_THE_FUTURE"}])
    assert details is not None and details.code is None and details.raw_code == "FROM_THE_FUTURE"
    text = {"content": [{"type": "text", "text": "Error FROM_THE_FUTURE (a layer)"}]}
    tool = se.from_tool_result(text)
    assert tool is not None and tool.code is None and tool.raw_code == "FROM_THE_FUTURE"


def test_what_names_no_code_gives_none() -> None:
    assert se.from_problem({"type": "about:blank", "title": "Not Found", "status": 404}) is None
    assert se.from_problem({"code": ""}) is None
    assert se.from_error_details([]) is None
    assert se.from_error_details("ErrorInfo") is None
    other = {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "domain": "elsewhere"}
    assert se.from_error_details([{**other, "reason": "PERMISSION_DENIED"}]) is None
    assert se.from_tool_result({"content": [{"type": "text", "text": "done"}]}) is None
    success = {"structuredContent": {"ok": True, "result": {}}, "content": []}
    assert se.from_tool_result(success) is None


def test_error_details_give_integers_back_as_integers_and_text_as_text() -> None:
    details = se.to_error_details("TOO_MANY_ACTIONS", count=80, maximum=64)
    metadata: Any = details[0]["metadata"]
    assert metadata["count"] == "80"  # google.rpc.ErrorInfo's metadata holds strings
    back = se.from_error_details(details)
    assert back is not None and back.params == {"count": 80, "maximum": 64}
    text = se.from_error_details(se.to_error_details("PERMISSION_DENIED", action="42"))
    assert text is not None and text.params == {"action": "42"}
