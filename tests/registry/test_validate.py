"""The Surface registry itself, and the facts the validator derives from a registry."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import InvalidInput
from generator.registry.model import RetryPolicy
from generator.registry.validate import load_registry, load_registry_text

from ..conftest import MINIMAL, ROOT

SEED_CODES = {
    "NOT_CONFIGURED": "configuration",
    "MODEL_BASE_URL_MISSING": "configuration",
    "INVALID_REQUEST": "protocol",
    "PROTOCOL_VERSION_UNSUPPORTED": "protocol",
    "CAPABILITY_NOT_EXPOSED": "protocol",
    "ACTION_NOT_FOUND": "execution",
    "ACTION_UNAVAILABLE": "execution",
    "PERMISSION_DENIED": "execution",
    "INVALID_PARAMS": "execution",
    "EXECUTION_FAILED": "execution",
    "EXPECTATION_FAILED": "execution",
    "LLM_FAILED": "model_network",
}


@pytest.fixture(scope="module")
def surface():
    return load_registry(ROOT / "codes.yaml", "codes.yaml")


def test_surface_has_every_seed_code_in_its_layer(surface) -> None:
    layers = {code.name: code.layer for code in surface.codes}
    for name, layer in SEED_CODES.items():
        assert layers[name] == layer, name


def test_surface_has_retry_exhaustion_and_timeout_codes(surface) -> None:
    model = {c.name: c for c in surface.codes_in("model_network")}
    exhausted = model["LLM_RETRIES_EXHAUSTED"]
    assert exhausted.message.count == "attempts"
    assert "llm_timeout" in model["LLM_TIMEOUT"].limits


def test_surface_layers_and_actors(surface) -> None:
    assert [(x.id, x.actor, x.shape) for x in surface.layers] == [
        ("configuration", "deployment", "protocol"),
        ("protocol", "client", "protocol"),
        ("execution", "page", "action"),
        ("model_network", "provider", "protocol"),
    ]


def test_codes_beyond_the_seed_say_why_they_exist(surface) -> None:
    for code in surface.codes:
        if code.name not in SEED_CODES and code.name not in (
            "LLM_RETRIES_EXHAUSTED",
            "LLM_TIMEOUT",
        ):
            assert code.rationale, f"{code.name} needs a rationale"


def test_seed_recovery_rules_hold(surface) -> None:
    kinds = {c.name: c.recovery.kind for c in surface.codes}
    assert kinds["ACTION_NOT_FOUND"] == "reread_page"
    assert kinds["ACTION_UNAVAILABLE"] == "satisfy_precondition"
    assert kinds["INVALID_PARAMS"] == "correct_input"
    assert kinds["PERMISSION_DENIED"] == "ask_user"
    assert kinds["EXPECTATION_FAILED"] == "inspect_page"
    llm = surface.code("LLM_FAILED")
    assert llm.retry.policy is RetryPolicy.BOUNDED and llm.retry.limit == "llm_retry_attempts"
    assert "request_id" in llm.placeholder_names
    assert surface.code("PERMISSION_DENIED").retry.policy is RetryPolicy.NEVER


def test_every_limit_involves_a_code_and_its_default_is_in_range(surface) -> None:
    for limit in surface.limits:
        assert surface.produced_by(limit.id), limit.id
        assert limit.minimum <= limit.default <= limit.maximum


def test_shape_follows_the_layer_unless_overridden(surface) -> None:
    for code in surface.codes:
        layer = surface.layer(code.layer)
        assert (code.shape == layer.shape) != bool(code.shape_reason), code.name


def test_protocol_codes_map_to_transport_errors_and_action_codes_ride_on_200(surface) -> None:
    for code in surface.codes:
        if code.shape == "protocol":
            assert 400 <= surface.http_status(code) <= 599 and code.jsonrpc is not None
        else:
            assert surface.http_status(code) == 200 and code.jsonrpc is None
    numbers = [c.jsonrpc for c in surface.codes if c.jsonrpc is not None]
    assert len(numbers) == len(set(numbers)), "each JSON-RPC number names one code"


def test_minimal_registry_resolves_derived_facts() -> None:
    registry = load_registry_text(MINIMAL, "demo.yaml")
    items = registry.code("ITEMS_REFUSED")
    assert items.shape == "action"  # from its layer
    assert items.limits == ("attempts",)  # the retry limit counts as involved
    assert items.message.forms == (
        "{count} item was refused by {who}.",
        "{count} items were refused by {who}.",
    )
    assert registry.produced_by("attempts") == (items,)
    assert registry.docs_url(items) == "https://docs.example.org/errors/en/codes/items_refused/"
    assert registry.docs_url(items, "de").endswith("/de/codes/items_refused/")


def test_text_survives_exactly() -> None:
    hostile = r"""Quote \" apostrophe ' back\\slash tab\t new\nline \u202e bidi ünï 😀 \"\"\""""
    text = MINIMAL.replace("message: The door is closed.", f'message: "{hostile}"')
    registry = load_registry_text(text, "demo.yaml")
    assert registry.code("DOOR_CLOSED").message.text == (
        'Quote " apostrophe \' back\\slash tab\t new\nline \u202e bidi ünï 😀 """'
    )


def test_all_problems_are_reported_in_one_run(tmp_path: Path) -> None:
    text = (
        MINIMAL.replace("layer: front", "layer: frnt")
        .replace("default: 3", "default: 9")
        .replace("related: [DOOR_CLOSED]", "related: [DOOR_CLOSD]")
    )
    with pytest.raises(InvalidInput) as info:
        load_registry_text(text, "demo.yaml")
    rendered = info.value.diagnostics.render().splitlines()
    assert len(rendered) == 3
    assert "names layer 'frnt'" in rendered[0] and "did you mean 'front'?" in rendered[0]
    assert "names code 'DOOR_CLOSD'" in rendered[1]
    assert "default 9 of limit 'attempts' is outside its range 1..5" in rendered[2]


def test_reserved_placeholder_names_are_the_keywords_of_the_runtime() -> None:
    """Placeholders travel as keyword arguments of the generated functions or in their
    ``params`` mapping; a placeholder named like another keyword of such a function can only
    travel in the mapping. RESERVED_PLACEHOLDERS lists exactly those keywords, read from the
    generated signatures, except the ones that fill a placeholder of the same name."""
    import inspect

    import surface_errors as se
    from generator.registry.validate import RESERVED_PLACEHOLDERS, SHARED_PLACEHOLDERS

    def functions(owner: object, module: str) -> list[Callable[..., object]]:
        found: list[Callable[..., object]] = []
        for value in vars(owner).values():
            if inspect.isfunction(value) and value.__module__ == module:
                found.append(value)
            elif inspect.isclass(value) and value.__module__ == module:
                found += functions(value, module)
        return found

    keywords: set[str] = set()
    for module in (se.codes, se.envelope, se.i18n, se.wire):
        for function in functions(module, module.__name__):
            parameters = inspect.signature(function).parameters.values()
            if any(p.kind is p.VAR_KEYWORD for p in parameters):
                keywords |= {
                    p.name
                    for p in parameters
                    if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
                }
    assert {"instance", "params"} <= keywords  # to_problem's own, and the mapping
    assert keywords == set(RESERVED_PLACEHOLDERS) | set(SHARED_PLACEHOLDERS)
    assert not set(RESERVED_PLACEHOLDERS) & set(SHARED_PLACEHOLDERS)


def test_a_codes_grpc_status_is_declared_or_derived_from_its_http_status() -> None:
    from generator.registry import grpc

    derived = load_registry_text(MINIMAL, "demo.yaml")
    door, items = derived.code("DOOR_CLOSED"), derived.code("ITEMS_REFUSED")
    assert door.grpc is None and derived.grpc_status(door) == grpc.CODES["PERMISSION_DENIED"]
    assert derived.grpc_status(items) == 0  # inside a result, as HTTP 200: the call succeeded
    declared = load_registry_text(
        MINIMAL.replace("    http: 403\n", "    http: 403\n    grpc: FAILED_PRECONDITION\n"),
        "demo.yaml",
    )
    assert declared.grpc_status(declared.code("DOOR_CLOSED")) == 9
    assert declared.record(declared.code("DOOR_CLOSED"))["grpc_status"] == 9


@pytest.mark.parametrize(
    ("status", "name"),
    [
        (400, "INVALID_ARGUMENT"),
        (401, "UNAUTHENTICATED"),
        (403, "PERMISSION_DENIED"),
        (404, "NOT_FOUND"),
        (409, "ABORTED"),
        (413, "INVALID_ARGUMENT"),
        (422, "INVALID_ARGUMENT"),
        (429, "RESOURCE_EXHAUSTED"),
        (499, "CANCELLED"),
        (500, "INTERNAL"),
        (501, "UNIMPLEMENTED"),
        (502, "UNAVAILABLE"),
        (503, "UNAVAILABLE"),
        (504, "DEADLINE_EXCEEDED"),
        (507, "INTERNAL"),
        (200, "OK"),
    ],
)
def test_http_statuses_map_to_grpc_as_documented(status: int, name: str) -> None:
    from generator.registry import grpc

    assert grpc.from_http(status) == name
    assert grpc.CODES[name] == list(grpc.CODES).index(name)  # google.rpc.Code's numbering


def _problems(text: str) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        load_registry_text(text, "codes.yaml")
    return [item.render(with_id=True) for item in info.value.diagnostics.items]


SURFACE = (ROOT / "codes.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("example: 60,", "example: " + "9" * 5000 + ","),  # beyond int()'s 4,300 digits
        ("example: 60,", "example: 9007199254740992,"),  # 2**53: JSON would round it
        ("    jsonrpc: -32004", "    jsonrpc: -99999999999999999999999"),
    ],
)
def test_an_integer_beyond_what_json_holds_exactly_is_one_problem_at_its_place(
    old: str, new: str
) -> None:
    assert old in SURFACE
    text = SURFACE.replace(old, new, 1)
    problems = _problems(text)
    assert len(problems) == 1, problems
    line = next(n for n, row in enumerate(text.splitlines(), 1) if new.strip() in row)
    column = text.splitlines()[line - 1].index(new.strip().split(": ")[1].rstrip(",")) + 1
    assert problems[0].startswith(f"codes.yaml:{line}:{column}: error:"), problems[0]
    assert "[E-SCHEMA-INTEGER-RANGE]" in problems[0]
    assert len(problems[0]) < 400  # a long number is named by its ends, not printed whole


def test_the_largest_exact_integer_is_accepted() -> None:
    registry = load_registry_text(SURFACE.replace("example: 60,", "example: 9007199254740991,", 1))
    assert any(p.example == 9007199254740991 for c in registry.codes for p in c.placeholders)


def test_a_broken_registry_block_does_not_make_every_codes_wire_a_problem() -> None:
    """The codes are checked against the wires 'registry.wires' names even when another
    field of the block is wrong: one problem, not one more per code."""
    for old, new in [
        ("  version: 2.0.0", "  version: 02.0.0"),
        ("  source_locale: en", "  source_locale: english"),
    ]:
        assert old in SURFACE
        problems = _problems(SURFACE.replace(old, new, 1))
        assert len(problems) == 1, problems


def test_a_misspelt_section_key_is_one_problem_not_one_per_reference() -> None:
    assert "\nlimits:\n" in SURFACE
    problems = _problems(SURFACE.replace("\nlimits:\n", "\nlimts:\n", 1))
    assert len(problems) == 1, problems
    assert "unknown key 'limts'" in problems[0] and "did you mean 'limits'?" in problems[0]


def _marks(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(InvalidInput) as info:
        load_registry_text(text, "demo.yaml")
    return [(d.mark.line, d.mark.column, d.id) for d in info.value.diagnostics.items]


@pytest.mark.parametrize(
    ("written", "columns"),
    [
        ("message: Open {door or {x!r} now }", [19, 28, 38]),  # plain: each at its own column
        ("message: 'Open {door or {x!r} now }'", [20, 29, 39]),  # quoted: one more
        ('message: "Open \\u007bdoor {x!r}"', [14, 14]),  # an escape: the value's start
    ],
)
def test_a_placeholder_problem_points_at_its_own_character(
    written: str, columns: list[int]
) -> None:
    """Each broken placeholder of a message is reported at the column it is written in, in
    the order of the line, where the message stands on its line as it reads."""
    line = "    message: The door is closed."
    assert line in MINIMAL
    text = MINIMAL.replace(line, f"    {written}")
    number = text.splitlines().index(f"    {written}") + 1
    found = _marks(text)
    assert [(n, c) for n, c, _ in found] == [(number, c) for c in columns], found
    assert {kind for _, _, kind in found} == {"E-PLACEHOLDER-SYNTAX"}


def test_a_brace_in_a_title_and_a_control_character_point_at_their_column() -> None:
    text = MINIMAL.replace(
        "    message: The door is closed.",
        "    title: Door {shut}\n    message: The door is closed.",
    ).replace("    meaning: Nobody is let in.", '    meaning: "Nobody\\u0007 is let in."')
    title = text.splitlines().index("    title: Door {shut}") + 1
    meaning = text.splitlines().index('    meaning: "Nobody\\u0007 is let in."') + 1
    found = _marks(text)
    assert (title, 17, "E-TITLE-PLACEHOLDER") in found  # the brace, not the title's start
    assert (meaning, 14, "E-SCHEMA-CONTROL-CHARACTER") in found  # an escape: the start


@pytest.mark.parametrize("title", ["P1\\nPlural-Forms: nplurals=1; plural=0;", "P1\\tTabbed"])
def test_a_title_with_a_line_break_or_tab_is_refused_at_its_character(title: str) -> None:
    """The title becomes a PO header field and a header comment line: a line break in it
    would make one value two header lines."""
    text = MINIMAL.replace("  title: Demo\n", f'  title: "{title}"\n', 1)
    line = text.splitlines().index(f'  title: "{title}"') + 1
    found = _marks(text)
    assert [(n, i) for n, _, i in found] == [(line, "E-META-TITLE-LINE-BREAK")]


def _named(name: str, pattern: str = "[^.]+", max_length: int = 250) -> str:
    """MINIMAL with DOOR_CLOSED renamed, under a permissive naming rule."""
    rule = f"  naming: {{pattern: '{pattern}', max_length: {max_length}}}\n"
    text = MINIMAL.replace("  version: 1.2.0\n", "  version: 1.2.0\n" + rule, 1)
    return text.replace("DOOR_CLOSED", json.dumps(name))


@pytest.mark.parametrize("name", ["DOOR\nCLOSED", "DOOR\x00", "DOOR\x04", "DO\u2028OR", "D\u202eR"])
def test_a_name_refuses_control_characters_whatever_the_pattern(name: str) -> None:
    """A permissive pattern let a line break, NUL or U+0004 into a name: generate exited 0,
    check then called a page stale, and msgfmt refused the catalogs."""
    problems = _problems(_named(name))
    assert any("[E-NAME-CODE-CONTROL]" in p for p in problems), problems


def test_a_name_whose_files_would_not_fit_is_refused() -> None:
    """max_length up to 250 was accepted, but a 238-character name made the page's
    temporary file name longer than 255 bytes: validate passed, generate stopped half way."""
    problems = _problems(_named("D" * 238))
    assert any("[E-NAME-CODE-FILE-NAME]" in p for p in problems), problems
    problems = _problems(_named("D" * 218))  # d...d.md, 221 bytes: one too many
    assert any("[E-NAME-CODE-FILE-NAME]" in p for p in problems), problems
    load_registry_text(_named("D" * 217), "codes.yaml")  # 220 bytes and 35 more: 255


@pytest.mark.parametrize("name", ["NUL", "con", "COM1", "Lpt9", "Aux"])
def test_a_device_name_of_windows_gets_a_page_of_another_name(name: str) -> None:
    """Codes named NUL, CON, COM1 got pages nul.md and con.md, which Windows can neither
    create nor check out."""
    registry = load_registry_text(_named(name), "codes.yaml")
    from generator.registry.model import DEVICES, slug

    (code,) = [c for c in registry.codes if c.name == name]
    assert slug(code.name).split(".")[0] not in DEVICES
    assert slug(code.name) == "code-" + name.lower()
