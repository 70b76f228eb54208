"""The generated surface_errors package, as an application uses it."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from typing import Any

import pytest

import surface_errors as se
from generator.registry.model import RetryPolicy
from generator.registry.validate import load_registry

from ..conftest import ROOT

REGISTRY = load_registry(ROOT / "codes.yaml", "codes.yaml")


def example_params(name: str) -> dict[str, Any]:
    return {p.name: p.example for p in REGISTRY.code(name).placeholders}


def test_classify_keeps_the_three_outcomes_apart() -> None:
    success = se.classify({"ok": True, "result": {"value": 42}})
    protocol = se.classify(
        {"ok": False, "error": {"code": "CAPABILITY_NOT_EXPOSED", "message": "..."}}
    )
    action = se.classify(
        {"ok": True, "result": {"error": {"code": "PERMISSION_DENIED", "message": "..."}}}
    )
    assert success.outcome is se.Outcome.SUCCESS and success.ok and success.result == {"value": 42}
    assert protocol.outcome is se.Outcome.PROTOCOL_FAILURE and not protocol.ok
    assert protocol.code is se.ErrorCode.CAPABILITY_NOT_EXPOSED
    # The point of the two shapes: ok is true, and yet this is not a success.
    assert action.outcome is se.Outcome.ACTION_FAILURE and not action.ok
    assert action.code is se.ErrorCode.PERMISSION_DENIED
    assert len({success.outcome, protocol.outcome, action.outcome}) == 3


@pytest.mark.parametrize("code", [c.name for c in REGISTRY.codes])
def test_every_code_round_trips_through_its_declared_shape(code: str) -> None:
    params = example_params(code)
    params.pop("request_id", None)  # given once, as the builder's own argument
    envelope = se.failure(code, request_id="req-1", **params)
    result = se.classify(envelope)
    info = se.CODES[se.ErrorCode(code)]
    expected = (
        se.Outcome.PROTOCOL_FAILURE
        if info.shape is se.Shape.PROTOCOL
        else se.Outcome.ACTION_FAILURE
    )
    assert result.outcome is expected
    assert result.code is se.ErrorCode(code) and result.shape_matches
    assert result.error["request_id"] == "req-1"
    assert "{" not in (result.message or "{")


def test_builders_refuse_a_code_in_the_wrong_shape() -> None:
    wrong = "PERMISSION_DENIED has the shape 'action', not 'protocol'; build it with action_"
    with pytest.raises(se.ShapeError, match=wrong):
        se.protocol_failure(se.ErrorCode.PERMISSION_DENIED, action="x")
    wrong = "INVALID_REQUEST has the shape 'protocol', not 'action'; build it with protocol_"
    with pytest.raises(se.ShapeError, match=wrong):
        se.action_failure("INVALID_REQUEST")


def test_request_id_fills_the_placeholder_of_the_same_name() -> None:
    envelope = se.protocol_failure("LLM_FAILED", request_id="req_9")
    assert envelope["error"]["message"].endswith("Request ID req_9.")
    assert envelope["error"]["request_id"] == "req_9"


def test_unknown_code_is_classified_by_shape() -> None:
    result = se.classify({"ok": True, "result": {"error": {"code": "FUTURE_CODE"}}})
    assert result.outcome is se.Outcome.ACTION_FAILURE
    assert result.code is None and result.raw_code == "FUTURE_CODE" and not result.known
    assert result.info is None and result.message is None
    protocol = se.classify({"ok": False, "error": {"code": "NEWER_THING", "message": "m"}})
    assert protocol.outcome is se.Outcome.PROTOCOL_FAILURE and protocol.message == "m"


def test_a_code_in_the_other_shape_is_flagged() -> None:
    result = se.classify({"ok": False, "error": {"code": "PERMISSION_DENIED"}})
    assert result.outcome is se.Outcome.PROTOCOL_FAILURE and not result.shape_matches


@pytest.mark.parametrize(
    ("envelope", "problem"),
    [
        ([], "an envelope must be an object, not list"),
        ({}, "needs 'ok': true or false"),
        ({"ok": "false"}, "needs 'ok': true or false"),
        ({"ok": False}, "'error' of an envelope with ok: false must be an object"),
        ({"ok": False, "error": {"message": "x"}}, "has no 'code' string"),
        ({"ok": True}, "an envelope with ok: true needs a 'result'"),
        ({"ok": True, "result": {"error": "denied"}}, "'result.error' of an envelope"),
        ({"ok": True, "result": {"error": {"code": 7}}}, "has no 'code' string"),
    ],
)
def test_malformed_envelopes_get_a_clear_error(envelope: object, problem: str) -> None:
    with pytest.raises(se.MalformedEnvelope, match=problem.replace("(", r"\(")):
        se.classify(envelope)


def test_null_error_in_result_is_success() -> None:
    assert se.classify({"ok": True, "result": {"error": None}}).outcome is se.Outcome.SUCCESS
    assert se.classify({"ok": True, "result": None}).outcome is se.Outcome.SUCCESS


def test_messages_are_filled_by_name_and_plural_by_count() -> None:
    one = se.format_message("LLM_RETRIES_EXHAUSTED", attempts=1)
    many = se.format_message("LLM_RETRIES_EXHAUSTED", attempts=5)
    assert "failed on 1 attempt," in one and "failed on 5 attempts in a row," in many
    text = se.format_message("ACTION_UNAVAILABLE", action="pay", reason="{reason} stays literal")
    wanted = (
        "The action pay cannot be used right now. The page gave this reason: {reason} stays literal"
    )
    assert text == wanted


def test_missing_and_extra_parameters_name_the_code_and_placeholder() -> None:
    with pytest.raises(TypeError, match=r"ACTION_UNAVAILABLE: missing placeholder 'reason'"):
        se.format_message("ACTION_UNAVAILABLE", action="pay")
    with pytest.raises(TypeError, match=r"PERMISSION_DENIED: unexpected parameter 'user'"):
        se.failure("PERMISSION_DENIED", action="pay", user="ann")
    with pytest.raises(TypeError, match="placeholder 'attempts' must be an int"):
        se.format_message("LLM_RETRIES_EXHAUSTED", attempts="3")


def test_a_template_cannot_reach_attributes_or_positions() -> None:
    with pytest.raises(ValueError, match="not one of its placeholders"):
        se.format_message("PERMISSION_DENIED", "{action.__class__}", action="x")
    with pytest.raises(ValueError, match="not one of its placeholders"):
        se.format_message("PERMISSION_DENIED", "{0}", action="x")
    assert se.format_message("PERMISSION_DENIED", "{{action}} {action}", action="x") == "{action} x"


def test_tables_describe_the_registry() -> None:
    assert set(se.ErrorCode) == {se.ErrorCode(c.name) for c in REGISTRY.codes}
    denied = se.CODES[se.ErrorCode.PERMISSION_DENIED]
    assert denied.layer is se.Layer.EXECUTION and denied.shape is se.Shape.ACTION
    assert denied.retry is se.Retry.NEVER and denied.http_status == 200
    assert denied.placeholders == ("action",) and denied.actor is se.Actor.PAGE
    assert denied.docs_url == "https://docs.surface.example/errors/en/codes/permission_denied/"
    assert se.LIMITS["llm_timeout"].default == 60
    assert se.ErrorCode.LLM_TIMEOUT in se.LIMITS["llm_timeout"].codes
    assert se.CODES[se.ErrorCode.LLM_FAILED].retry_limit == "llm_retry_attempts"


def test_the_package_imports_the_standard_library_only() -> None:
    probe = (
        "import sys; before = set(sys.modules); import surface_errors; "
        "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
        "stdlib = set(sys.stdlib_module_names) | {'surface_errors'}; "
        "print(sorted(new - stdlib))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", probe], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    assert out.strip() == "[]"


ENVELOPES: list[dict[str, Any]] = json.loads(
    (ROOT / "tests" / "envelopes.json").read_text("utf-8")
)["cases"]


@pytest.mark.parametrize("case", ENVELOPES, ids=[case["name"] for case in ENVELOPES])
def test_the_shared_envelope_corpus(case: dict[str, Any]) -> None:
    """ts/test/envelopes.test.ts runs the same cases: both classifiers give the same outcome."""
    if case["outcome"] == "malformed":
        with pytest.raises(se.MalformedEnvelope):
            se.classify(case["envelope"])
        return
    outcome = se.classify(case["envelope"])
    assert outcome.outcome is se.Outcome(case["outcome"])
    if outcome.outcome is se.Outcome.SUCCESS:
        assert outcome.code is None and outcome.raw_code is None
        return
    assert outcome.raw_code == case["code"] and outcome.known is case["known"]
    assert outcome.message == case["message"]
    assert outcome.code == (se.ErrorCode(case["code"]) if case["known"] else None)


def test_every_exception_the_package_defines_shares_one_base() -> None:
    """One ``except se.RegistryError`` catches every exception class the package has of its
    own, in any of its modules, and each keeps the ValueError base callers already catch."""
    defined = {
        value
        for info in pkgutil.iter_modules(se.__path__)
        for value in vars(importlib.import_module(f"surface_errors.{info.name}")).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__.startswith("surface_errors.")
    }
    assert {se.ShapeError, se.MalformedEnvelope, se.RetiredCode} <= defined
    for cls in defined:
        assert issubclass(cls, se.RegistryError), cls
    for cls in defined - {se.RegistryError}:
        assert issubclass(cls, ValueError), cls
    with pytest.raises(se.RegistryError):
        se.classify([])


def test_the_enums_are_rendered_from_the_registry_and_the_generator() -> None:
    """Shape, Actor and Recovery come from the registry's own vocabulary, Retry from the
    generator's policies, member for member, so neither can leave a stale hand-made copy."""
    registry = load_registry(ROOT / "codes.yaml", "codes.yaml")
    pairs = (
        (se.Shape, [x.id for x in registry.shapes]),
        (se.Actor, [x.id for x in registry.actors]),
        (se.Recovery, [x.id for x in registry.recovery_kinds]),
        (se.Retry, [m.value for m in RetryPolicy]),
    )
    for runtime, values in pairs:
        assert [(m.name, m.value) for m in runtime] == [(v.upper(), v) for v in values]


MESSAGES: list[dict[str, Any]] = json.loads((ROOT / "tests" / "messages.json").read_text("utf-8"))[
    "cases"
]


def test_the_message_corpus_groups_digits_and_isolates_values() -> None:
    """The corpus holds what it is for: grouped digits in each language's own separator, the
    envelope without a locale as written, and isolated values in Arabic."""
    said = {
        (c["kind"], c["locale"], c["code"], json.dumps(c["params"])): c["message"] for c in MESSAGES
    }
    big = json.dumps({"count": 1048576, "maximum": 2000})
    assert "1.048.576" in said[("message", "de", "TOO_MANY_ACTIONS", big)]
    assert "1\u202f048\u202f576" in said[("message", "fr", "TOO_MANY_ACTIONS", big)]
    assert "1048576" in said[("failure", None, "TOO_MANY_ACTIONS", big)]
    version = json.dumps({"requested": "2024-11-05"})
    assert (
        "\u20682024-11-05\u2069" in said[("message", "ar", "PROTOCOL_VERSION_UNSUPPORTED", version)]
    )


@pytest.mark.parametrize("case", MESSAGES)
def test_the_shared_message_corpus(case: dict[str, Any]) -> None:
    """ts/test/messages.test.ts runs the same cases: both runtimes write each message alike."""
    code, locale, params = case["code"], case["locale"], case["params"]
    if case["kind"] == "message":
        assert se.message(code, locale, params=params) == case["message"]
        return
    envelope = se.failure(code, locale=locale, params=params)
    body = envelope["error"] if envelope["ok"] is False else envelope["result"]["error"]
    assert body["message"] == case["message"]
