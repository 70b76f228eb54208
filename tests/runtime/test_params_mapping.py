"""Placeholder values as a ``params`` mapping, next to keyword arguments.

A registry may name its placeholders as the system it describes does, ``class`` or ``message``
included: such a name can never be a keyword argument of Python (a keyword) or of the generated
functions (one of their own arguments). Every function that takes placeholder values as
keywords therefore also takes them as ``params=``, and the two are merged.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import surface_errors as se
from generator.registry.validate import load_registry_text

from ..conftest import MINIMAL
from ..emit.test_emit_python import load_module, write_outputs
from .test_runtime import example_params

#: Placeholder names no keyword argument can carry: Python keywords and the generated
#: functions' own arguments.
ODD = ("class", "from", "message", "locale", "instance", "params")

ODD_REGISTRY = MINIMAL.replace("package: demo_errors", "package: odd_names_errors").replace(
    "    message: The door is closed.\n",
    "    message: The door of {class} says {message} {from} {locale} {instance} {params}.\n"
    "    placeholders:\n"
    + "".join(f"      {name}: {{description: The {name}., example: x}}\n" for name in ODD),
)

VALUES = {name: f"<{name}>" for name in ODD}
EXPECTED = "The door of <class> says <message> <from> <locale> <instance> <params>."


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("odd")
    write_outputs(folder, load_registry_text(ODD_REGISTRY, "demo.yaml"))
    return load_module(folder / "odd_names_errors", "odd_names_errors")


def _with_params(module: ModuleType) -> list[tuple[str, Callable[..., object]]]:
    """Every public function (and method) of the package that takes placeholders as keywords."""
    found: list[tuple[str, Callable[..., object]]] = []
    for part in ("envelope", "shapes", "i18n", "wire", "codes"):
        owner = getattr(module, part)
        values = list(vars(owner).items())
        values += [
            (f"{name}.{attr}", value)
            for name, cls in vars(owner).items()
            if inspect.isclass(cls) and cls.__module__ == owner.__name__
            for attr, value in vars(cls).items()
        ]
        for name, value in values:
            if name.split(".")[-1].startswith("_") or not inspect.isfunction(value):
                continue
            if value.__module__ != owner.__name__:
                continue
            kinds = [p.kind for p in inspect.signature(value).parameters.values()]
            if inspect.Parameter.VAR_KEYWORD in kinds:
                found.append((f"{part}.{name}", value))
    return found


def test_every_function_taking_placeholders_as_keywords_takes_a_params_mapping() -> None:
    functions = _with_params(se)
    names = {name for name, _ in functions}
    assert {
        "envelope.failure",
        "shapes.protocol_failure",
        "shapes.action_failure",
        "envelope.format_message",
        "i18n.message",
        "i18n.Translator.message",
        "wire.to_problem",
        "wire.to_error_details",
    } <= names
    for name, function in functions:
        parameter = inspect.signature(function).parameters.get("params")
        if name in FROM_KEYWORDS:
            assert parameter is None and "``params``" in (function.__doc__ or ""), name
            continue
        assert parameter is not None, name
        assert parameter.kind is parameter.KEYWORD_ONLY and parameter.default is None, name


#: The functions on the fast path of a lookup, which take ``params`` out of their keywords
#: rather than declare it (see i18n.message): it is the mapping all the same.
FROM_KEYWORDS = ("i18n.message", "i18n.Translator.message")


@pytest.fixture(scope="module")
def one_param(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """A package whose one code has a single placeholder, named ``params``."""
    folder = tmp_path_factory.mktemp("one_param")
    text = MINIMAL.replace("package: demo_errors", "package: one_param_errors").replace(
        "    message: The door is closed.\n",
        "    message: The door says {params}.\n"
        "    placeholders:\n"
        "      params: {description: The words., example: x}\n",
    )
    write_outputs(folder, load_registry_text(text, "demo.yaml"))
    return load_module(folder / "one_param_errors", "one_param_errors")


@pytest.mark.parametrize("name", FROM_KEYWORDS)
def test_the_message_functions_read_params_as_the_others_declare_it(
    odd: ModuleType, one_param: ModuleType, name: str
) -> None:
    """``params`` is the mapping whether or not a call has other keywords, whether the lookup
    is the first (the checked path) or a later one (the fast path), and even for a code with
    a single placeholder named ``params``, which a mistaken fast path would fill with the
    mapping itself."""

    def call(owner: ModuleType, code: str, **keywords: object) -> str:
        if name == "i18n.message":
            return str(owner.message(code, "de", **keywords))
        return str(owner.i18n.translator("de").message(code, **keywords))

    for _ in range(3):  # the first call compiles the message; the others take the fast path
        assert call(one_param, "DOOR_CLOSED", params={"params": "hi"}) == "The door says hi."
        assert call(odd, "DOOR_CLOSED", params=VALUES) == EXPECTED
        assert call(se, "LLM_TIMEOUT", params=None, seconds=3) == call(se, "LLM_TIMEOUT", seconds=3)
        assert call(se, "LLM_TIMEOUT", params={"seconds": 3}) == call(se, "LLM_TIMEOUT", seconds=3)
    with pytest.raises(TypeError, match="DOOR_CLOSED: missing placeholder 'params'"):
        call(one_param, "DOOR_CLOSED", params={})
    with pytest.raises(TypeError, match="DOOR_CLOSED: params must be a mapping"):
        call(one_param, "DOOR_CLOSED", params="hi")


class _Counted:
    """A value that counts how often it is formatted, and refuses to be once it is spoiled."""

    def __init__(self) -> None:
        self.times = 0
        self.spoiled = False

    def __str__(self) -> str:
        if self.spoiled:
            raise ValueError("formatted")
        self.times += 1
        return "x"


@pytest.mark.parametrize("name", FROM_KEYWORDS)
def test_a_call_with_the_mapping_is_checked_before_any_value_is_formatted(name: str) -> None:
    """The keywords of a call with ``params`` are as many as the code's placeholders when
    the mapping holds one of them; the fast path, which formats values as it reads them,
    must not see such a call: each value is formatted once, and a call that is wrong says
    so before any value is formatted."""
    translator = se.i18n.translator("de")

    def call(**keywords: object) -> str:
        if name == "i18n.message":
            return str(se.message("ACTION_UNAVAILABLE", "de", **keywords))
        return str(translator.message("ACTION_UNAVAILABLE", **keywords))

    call(action="a", reason="r")  # the fast path is warm
    value = _Counted()
    assert call(params={"reason": "r"}, action=value) == call(action="x", reason="r")
    assert value.times == 1
    value.spoiled = True
    with pytest.raises(TypeError, match="placeholder 'action' is given both"):
        call(params={"action": "a"}, action=value)


def test_params_none_is_no_mapping_and_the_locale_is_checked_first() -> None:
    with pytest.raises(TypeError, match="locale"):
        se.message("NO_SUCH_CODE", 5, params=None)  # type: ignore[arg-type]
    assert se.message("LLM_TIMEOUT", "de", params=None, seconds=3) == se.message(
        "LLM_TIMEOUT", "de", seconds=3
    )


def _half(params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    names = sorted(params)
    first = {name: params[name] for name in names[::2]}
    return first, {name: params[name] for name in names[1::2]}


@pytest.mark.parametrize("code", ["ACTION_UNAVAILABLE", "LLM_TIMEOUT", "TOO_MANY_ACTIONS"])
def test_a_mapping_keywords_or_both_give_the_same_result(code: str) -> None:
    params = example_params(code)
    mapped, keywords = _half(params)
    assert se.failure(code, params=params) == se.failure(code, **params)
    assert se.failure(code, params=mapped, **keywords) == se.failure(code, **params)
    assert se.format_message(code, params=mapped, **keywords) == se.format_message(code, **params)
    assert se.message(code, "de", params=params) == se.message(code, "de", **params)
    words = se.i18n.translator("ja")
    assert words.message(code, params=mapped, **keywords) == words.message(code, **params)
    assert se.to_problem(code, params=params) == se.to_problem(code, **params)
    assert se.to_error_details(code, "de", params=mapped, **keywords) == se.to_error_details(
        code, "de", **params
    )


def test_a_name_given_both_ways_is_a_type_error_naming_it() -> None:
    calls: list[Callable[[], object]] = [
        lambda: se.failure("LLM_TIMEOUT", params={"seconds": 1}, seconds=2),
        lambda: se.protocol_failure("LLM_TIMEOUT", params={"seconds": 1}, seconds=1),
        lambda: se.format_message("LLM_TIMEOUT", params={"seconds": 1}, seconds=2),
        lambda: se.message("LLM_TIMEOUT", None, params={"seconds": 1}, seconds=2),
        lambda: se.i18n.translator("de").message("LLM_TIMEOUT", params={"seconds": 1}, seconds=2),
        lambda: se.to_problem("LLM_TIMEOUT", params={"seconds": 1}, seconds=2),
        lambda: se.to_error_details("LLM_TIMEOUT", params={"seconds": 1}, seconds=2),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="LLM_TIMEOUT: placeholder 'seconds' is given both"):
            call()


def test_a_request_id_in_params_and_as_the_keyword_is_refused() -> None:
    with pytest.raises(TypeError, match="placeholder 'request_id' is given both"):
        se.failure("LLM_FAILED", request_id="a", params={"request_id": "b"})
    with pytest.raises(TypeError, match="placeholder 'request_id' is given both"):
        se.to_problem("LLM_FAILED", request_id="a", params={"request_id": "b"})
    with pytest.raises(TypeError, match="placeholder 'request_id' is given both"):
        se.to_error_details("LLM_FAILED", request_id="a", params={"request_id": "b"})
    built = se.failure("LLM_FAILED", params={"request_id": "req_1"})
    assert "req_1" in (se.classify(built).message or "")


def test_mistakes_in_the_mapping_are_reported_as_for_keywords() -> None:
    with pytest.raises(TypeError, match="ACTION_UNAVAILABLE: missing placeholder 'action'"):
        se.failure("ACTION_UNAVAILABLE", params={})
    with pytest.raises(TypeError, match="unexpected parameter 'user'"):
        se.failure("PERMISSION_DENIED", params={"action": "x", "user": "y"})


def test_params_that_is_not_a_mapping_is_a_type_error_naming_the_code() -> None:
    calls: list[Callable[[], object]] = [
        lambda: se.failure("LLM_TIMEOUT", params=5),
        lambda: se.format_message("LLM_TIMEOUT", params=["seconds"]),
        lambda: se.message("LLM_TIMEOUT", None, params="seconds=1"),
        lambda: se.to_problem("LLM_TIMEOUT", params=(("seconds", 1),)),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="LLM_TIMEOUT: params must be a mapping"):
            call()


def test_odd_names_reach_every_message_through_params(odd: ModuleType) -> None:
    built = odd.failure("DOOR_CLOSED", params=VALUES)
    assert built["error"]["message"] == EXPECTED
    assert built["error"]["params"] == VALUES
    assert odd.protocol_failure("DOOR_CLOSED", params=VALUES) == built
    assert odd.format_message("DOOR_CLOSED", params=VALUES) == EXPECTED
    assert odd.message("DOOR_CLOSED", "de", params=VALUES) == EXPECTED
    assert odd.i18n.translator().message("DOOR_CLOSED", params=VALUES) == EXPECTED
    problem = odd.to_problem("DOOR_CLOSED", params=VALUES, instance="/doors/1")
    assert problem["detail"] == EXPECTED and problem["instance"] == "/doors/1"
    assert odd.problem_from_envelope(built)["detail"] == EXPECTED
    details = odd.to_error_details("DOOR_CLOSED", params=VALUES)
    assert details[0]["metadata"]["class"] == "<class>"
    assert details[-1]["message"] == EXPECTED
    mcp = odd.to_mcp(built, 1)
    assert mcp["error"]["message"] == EXPECTED and mcp["error"]["data"]["params"] == VALUES
    assert odd.from_mcp(mcp).code is odd.ErrorCode.DOOR_CLOSED
    assert EXPECTED in odd.to_tool_result(built)["content"][0]["text"]


def test_odd_names_mix_with_keywords_and_with_the_functions_own_arguments(
    odd: ModuleType,
) -> None:
    keywords = {"instance": "<instance>"}  # a placeholder here, not to_problem's argument
    mapped = {k: v for k, v in VALUES.items() if k not in keywords}
    assert odd.format_message("DOOR_CLOSED", params=mapped, **keywords) == EXPECTED
    built = odd.failure("DOOR_CLOSED", message="Closed.", locale="de", params=VALUES)
    assert built["error"]["message"] == "Closed." and built["error"]["params"] == VALUES
    localized = odd.failure("DOOR_CLOSED", locale="de", params=VALUES)
    assert localized["error"]["message"] == EXPECTED
    with pytest.raises(TypeError, match="missing placeholder 'instance'"):
        odd.to_problem("DOOR_CLOSED", params=mapped, instance="<instance>")


def test_an_odd_registry_still_generates_typescript_that_takes_an_object(tmp_path: Path) -> None:
    from generator.config import Config
    from generator.pipeline.build import outputs

    registry = load_registry_text(ODD_REGISTRY, "demo.yaml")
    files = outputs(
        Config(
            root=tmp_path,
            registry=tmp_path / "demo.yaml",
            python_out=tmp_path,
            typescript_out=tmp_path / "ts",
        ),
        registry,
    )
    typescript = [data.decode() for name, data in files.items() if name.endswith("index.ts")]
    assert typescript, sorted(files)
    # message(code, locale, params) and failure(code, params) take an object: any key fits.
    assert '"class"' in typescript[0] and '"message"' in typescript[0]
