"""Names of any shape a registry's naming rule allows, and sub-codes (issue 16, item 4).

One small registry with a name starting with '_', names that are Python keywords or methods of
str, dotted sub-codes three levels deep under a parent whose message is empty, and a name of 80
characters. Its package must work as Surface's does: members by safe identifiers, the wire
value always the registry's own name, messages, and every projection read back.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from generator.catalogs import entries
from generator.registry.model import identifier, slug
from generator.registry.validate import load_registry_text

from ..conftest import Run, make_project
from ..emit.test_emit_python import load_module, write_outputs

LONG = "L" + "_ABCDEFGH" * 8 + "_LONG_X"  # 80 characters
assert len(LONG) == 80

REGISTRY = f"""\
registry:
  name: odd
  title: Odd
  version: 1.0.0
  package: odd_names_pkg
  source_locale: en
  locales: [de]
  docs_url: https://docs.example.org/errors/
  description: Names as another system writes them.
  naming: {{pattern: '[A-Za-z_][A-Za-z0-9_]*', max_length: 80}}
  wires: [http, jsonrpc]
actors:
  client: {{description: C.}}
  page: {{description: P.}}
shapes:
  protocol: {{title: P, envelope: error, proves: No action ran., description: D.}}
  action: {{title: A, envelope: result, proves: It ran., description: D.}}
recovery_kinds:
  ask_user: {{summary: Ask.}}
  fix_client: {{summary: Fix.}}
layers:
  front: {{title: Front, proves: Refused., actor: client, shape: protocol, description: D.}}
  inner: {{title: Inner, proves: The action refused., actor: page, shape: action, description: In.}}
codes:
  DOOR.LOCKED.TIGHT:
    message: The door is locked tight.
    since: 1.0.0
  _LEADING:
    layer: inner
    message: Leading {{who}}.
    placeholders:
      who: {{description: Who., example: me}}
    recovery: {{kind: ask_user, steps: [Ask.]}}
    retry: {{policy: never}}
    since: 1.0.0
  DOOR:
    layer: front
    message: ""
    meaning: Something about the door.
    recovery: {{kind: fix_client, steps: [Knock.]}}
    retry: {{policy: never}}
    http: 403
    jsonrpc: -32050
    since: 1.0.0
  DOOR.LOCKED:
    message: The door is locked.
    meaning: It is locked. Really.
    since: 1.0.0
  DOOR.AJAR:
    layer: inner
    message: The door is ajar.
    recovery: {{kind: ask_user, steps: [Push.]}}
    since: 1.0.0
  None:
    layer: inner
    message: Nothing.
    recovery: {{kind: ask_user, steps: [Ask.]}}
    retry: {{policy: never}}
    since: 1.0.0
  upper:
    layer: inner
    message: Upper.
    recovery: {{kind: ask_user, steps: [Ask.]}}
    retry: {{policy: never}}
    related: [DOOR.LOCKED, _LEADING]
    since: 1.0.0
  {LONG}:
    layer: front
    message: Long.
    recovery: {{kind: fix_client, steps: [Shorten.]}}
    retry: {{policy: never}}
    http: 400
    jsonrpc: -32051
    since: 1.0.0
limits:
  attempts: {{title: Attempts, default: 3, unit: attempts, min: 1, max: 5, bounds: Tries.}}
adapters:
  python: {{title: Python, description: In process., protocol: ok false., action: ok true.}}
"""

NAMES = ("DOOR.LOCKED.TIGHT", "_LEADING", "DOOR", "DOOR.LOCKED", "DOOR.AJAR", "None", "upper", LONG)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("odd")
    write_outputs(folder, load_registry_text(REGISTRY, "demo.yaml"))
    return folder


@pytest.fixture(scope="module")
def odd(folder: Path) -> ModuleType:
    return load_module(folder / "odd_names_pkg", "odd_names_pkg")


def test_identifiers_are_derived_safely_and_the_wire_value_is_the_name(odd: ModuleType) -> None:
    members = {member.name: member.value for member in odd.ErrorCode}
    assert members == {
        "DOOR__LOCKED__TIGHT": "DOOR.LOCKED.TIGHT",
        "CODE__LEADING": "_LEADING",
        "DOOR": "DOOR",
        "DOOR__LOCKED": "DOOR.LOCKED",
        "DOOR__AJAR": "DOOR.AJAR",
        "CODE_None": "None",
        "CODE_upper": "upper",
        LONG: LONG,
    }
    assert odd.ErrorCode("DOOR.LOCKED") is odd.ErrorCode.DOOR__LOCKED
    assert odd.ErrorCode.CODE_upper.upper() == "UPPER"  # str's own methods still work
    assert odd.CODES["upper"].related == (odd.ErrorCode.DOOR__LOCKED, odd.ErrorCode.CODE__LEADING)


def test_sub_codes_inherit_what_they_do_not_give() -> None:
    registry = load_registry_text(REGISTRY, "demo.yaml")
    door, locked, tight, ajar = (
        registry.code(n) for n in ("DOOR", "DOOR.LOCKED", "DOOR.LOCKED.TIGHT", "DOOR.AJAR")
    )
    assert (locked.parent, tight.parent, ajar.parent, door.parent) == (
        "DOOR",
        "DOOR.LOCKED",
        "DOOR",
        None,
    )
    for child in (locked, tight):
        assert (child.layer, child.shape, child.http, child.jsonrpc) == (
            "front",
            door.shape,
            403,
            -32050,
        )
        assert (child.recovery, child.retry) == (door.recovery, door.retry)
        assert child.meaning != door.meaning
    # Its own layer: its shape follows that layer, and an action code has no HTTP status.
    assert (ajar.layer, ajar.shape, ajar.http, ajar.jsonrpc) == (
        "inner",
        "action",
        None,
        None,
    )
    assert ajar.recovery is not None and ajar.recovery.steps == ("Push.",)
    assert ajar.retry == door.retry
    assert [c.name for c in registry.children("DOOR")] == ["DOOR.LOCKED", "DOOR.AJAR"]
    assert [c.name for c in registry.children("DOOR.LOCKED")] == ["DOOR.LOCKED.TIGHT"]
    assert registry.children("upper") == ()
    assert registry.record(locked)["parent"] == "DOOR"
    assert "parent" not in registry.record(door)


def test_an_empty_parent_message_shows_the_name_and_stays_out_of_the_catalogs(
    odd: ModuleType,
) -> None:
    assert odd.message("DOOR") == "DOOR"
    assert odd.message("DOOR", "de") == "DOOR"
    envelope = odd.failure("DOOR")
    assert envelope["error"]["message"] == "DOOR"
    registry = load_registry_text(REGISTRY, "demo.yaml")
    contexts = [e.context for e in entries.entries(registry, "messages")]
    assert "DOOR" not in contexts and "DOOR.LOCKED" in contexts
    assert all(e.msgid for e in entries.entries(registry, "messages"))


def test_every_context_of_upper_case_names_is_errorbooks() -> None:
    registry = load_registry_text(REGISTRY, "demo.yaml")
    for domain in entries.DOMAINS:
        for entry in entries.entries(registry, domain):
            if entry.code is None or entry.code.upper() == entry.code:
                assert entries.owns(domain, entry.context), (domain, entry.context)


@pytest.mark.parametrize("name", NAMES)
def test_every_name_round_trips_every_wire(odd: ModuleType, name: str) -> None:
    params = {"who": "me"} if name == "_LEADING" else {}
    envelope = odd.failure(name, params=params)
    assert odd.classify(envelope).code is odd.ErrorCode(name)
    status, _headers, body = odd.to_http(envelope)
    assert odd.from_http(status, body).code == name
    assert odd.from_problem(odd.to_problem(name, params=params)).code == name
    assert odd.from_error_details(odd.to_error_details(name, params=params)).code == name
    assert odd.from_mcp(odd.to_mcp(envelope, 1)).code == name
    result = odd.to_tool_result(envelope)
    assert odd.from_tool_result(result).code == name
    assert odd.from_tool_result({"content": result["content"]}).code == name  # from its text
    assert odd.message(name, params=params)


def test_codes_json_and_typescript_carry_the_names(folder: Path) -> None:
    data = json.loads((folder / "odd_names_pkg" / "codes.json").read_text("utf-8"))
    by_name = {c["code"]: c for c in data["codes"]}
    assert set(by_name) == set(NAMES)
    assert by_name["DOOR.LOCKED.TIGHT"]["parent"] == "DOOR.LOCKED"
    assert "parent" not in by_name["DOOR"]
    schema = json.loads((folder / "odd_names_pkg" / "schemas" / "codes.schema.json").read_text())
    import jsonschema

    jsonschema.validate(data, schema)


def test_derivations() -> None:
    assert identifier("A.B") == "A__B"
    assert identifier("9LIVES") == "CODE_9LIVES"
    assert identifier("a-b c") == "a_b_c"
    assert identifier("class") == "CODE_class"
    assert identifier("PERMISSION_DENIED") == "PERMISSION_DENIED"
    assert slug("PERMISSION_DENIED") == "permission_denied"
    assert slug("_LEADING") == "code-_leading"
    assert slug("A.B") == "a.b"
    assert slug("A/B?") == "a-b-"


def test_explain_names_a_codes_parent_and_sub_codes(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "odd", REGISTRY)
    text = run("explain", "DOOR.LOCKED", cwd=root).out
    assert "Parent:   DOOR\n" in text and "Sub-codes: DOOR.LOCKED.TIGHT\n" in text
    facts = json.loads(run("explain", "DOOR", "--format", "json", cwd=root).out)
    assert (facts["parent"], facts["children"]) == (None, ["DOOR.LOCKED", "DOOR.AJAR"])
