"""Optional prose, required by policy: ``registry.required`` names the per-code keys a registry
asks of every code; every output leaves out what a code does not give."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main

from ..conftest import MINIMAL, Run, make_project, split_id

ALL_OUTPUTS = (
    "[tool.errorbook]\nregistry = 'codes.yaml'\npython-out = '.'\nlocales = 'locales'\n"
    "site = 'site'\ntypescript-out = 'ts/src'\n"
)
#: DOOR_CLOSED with everything but its meaning; ITEMS_REFUSED's {who} with only its name.
NO_MEANING = MINIMAL.replace("    meaning: Nobody is let in.\n", "").replace(
    "      who: {description: Who refused., example: the page}\n", "      who: {}\n"
)
#: DOOR_CLOSED with only its name, layer and message (the aim of issue 16, item 3).
BARE = MINIMAL.replace(
    """    meaning: Nobody is let in.
    recovery: {kind: fix_client, steps: [Knock.]}
    retry: {policy: never}
    http: 403
    jsonrpc: -32050
    since: 1.0.0
""",
    "",
)


def generate(root: Path) -> None:
    (root / "pyproject.toml").write_text(ALL_OUTPUTS, "utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["generate"]) == 0


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("policy") / "p", NO_MEANING)
    generate(root)
    return root


def test_a_code_without_meaning_validates_and_generates(demo: Path) -> None:
    assert (demo / "demo_errors" / "codes.py").is_file()
    assert (demo / "site" / "docs" / "en" / "codes" / "door_closed.md").is_file()


def test_the_site_page_leaves_the_meaning_out(demo: Path) -> None:
    page = (demo / "site" / "docs" / "en" / "codes" / "door_closed.md").read_text("utf-8")
    assert "## Meaning" not in page
    other = (demo / "site" / "docs" / "en" / "codes" / "items_refused.md").read_text("utf-8")
    assert "## Meaning" in other and "The page refused the items" in other
    table = (demo / "site" / "docs" / "en" / "codes" / "index.md").read_text("utf-8")
    row = next(line for line in table.splitlines() if "door_closed.md" in line)
    assert row.endswith("|  |"), row


def test_explain_leaves_the_meaning_out(demo: Path, run: Run) -> None:
    text = run("explain", "DOOR_CLOSED", cwd=demo)
    assert text.code == 0, text.err
    assert "Meaning:" not in text.out and "Title:" not in text.out
    shown = json.loads(run("explain", "DOOR_CLOSED", "--format", "json", cwd=demo).out)
    assert shown["meaning"] is None and shown["title"] is None
    items = json.loads(run("explain", "ITEMS_REFUSED", "--format", "json", cwd=demo).out)
    assert items["placeholders"]["who"] == {"description": None, "example": None, "type": "text"}
    assert items["placeholders"]["count"]["description"] == "Items refused."


def test_codes_json_says_null_and_its_schema_allows_it(demo: Path) -> None:
    data = json.loads((demo / "demo_errors" / "codes.json").read_text("utf-8"))
    entry = next(e for e in data["codes"] if e["code"] == "DOOR_CLOSED")
    assert entry["meaning"] is None
    items = next(e for e in data["codes"] if e["code"] == "ITEMS_REFUSED")
    who = next(p for p in items["placeholders"] if p["name"] == "who")
    assert (who["description"], who["example"]) == (None, None)
    path = demo / "demo_errors" / "schemas" / "codes.schema.json"
    schema = json.loads(path.read_text("utf-8"))
    meaning = schema["properties"]["codes"]["items"]["properties"]["meaning"]
    assert {"type": "null"} in meaning["anyOf"]
    placeholder = schema["properties"]["codes"]["items"]["properties"]["placeholders"]["items"]
    assert {"type": "null"} in placeholder["properties"]["description"]["anyOf"]
    assert "null" in placeholder["properties"]["example"]["type"]


def test_the_catalogs_have_no_entry_for_absent_prose(demo: Path) -> None:
    pot = (demo / "locales" / "docs.pot").read_text("utf-8")
    assert 'msgctxt "DOOR_CLOSED.meaning"' not in pot
    assert 'msgctxt "ITEMS_REFUSED.meaning"' in pot
    assert 'msgctxt "ITEMS_REFUSED.placeholder.who"' not in pot
    assert 'msgctxt "ITEMS_REFUSED.placeholder.count"' in pot
    assert 'msgid ""\nmsgstr ""\n\n' not in pot.split("\n\n", 1)[1]
    messages = (demo / "locales" / "messages.pot").read_text("utf-8")
    assert "#. {who}:\n" in messages
    assert "#. {count}: Items refused. Example: 2\n" in messages


def test_the_page_leaves_absent_placeholder_prose_out(demo: Path) -> None:
    page = (demo / "site" / "docs" / "en" / "codes" / "items_refused.md").read_text("utf-8")
    assert "| `{who}` |  |  |" in page
    example = page[page.index("## Example") :]
    assert '"who"' not in example and '"count": 2' in example


def test_the_generated_package_imports(demo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import demo_errors; print(demo_errors.CODES['DOOR_CLOSED'])"],
        cwd=demo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_key_the_policy_requires_is_a_diagnostic(tmp_path: Path, run: Run) -> None:
    text = NO_MEANING.replace("  locales: [de]\n", "  locales: [de]\n  required: [meaning]\n")
    root = make_project(tmp_path / "p", text)
    result = run("check", cwd=root)
    assert result.code == 1
    line = next(x for x in result.err.splitlines() if "meaning" in x)
    message, ident = split_id(line)
    assert ident == "E-POLICY-MISSING-KEY"
    row = text.splitlines().index("  DOOR_CLOSED:") + 1
    assert message.startswith(f"codes.yaml:{row}:3: error: code DOOR_CLOSED has no 'meaning'")


def test_a_placeholder_key_the_policy_requires_is_a_diagnostic(tmp_path: Path, run: Run) -> None:
    text = NO_MEANING.replace(
        "  locales: [de]\n", "  locales: [de]\n  required: [placeholders.example]\n"
    )
    root = make_project(tmp_path / "p", text)
    result = run("check", cwd=root)
    assert result.code == 1
    [line] = [x for x in result.err.splitlines() if "[E-" in x]
    message, ident = split_id(line)
    assert ident == "E-POLICY-MISSING-KEY"
    row = text.splitlines().index("      who: {}") + 1
    assert message.startswith(
        f"codes.yaml:{row}:7: error: placeholder 'who' of code ITEMS_REFUSED has no 'example'"
    )


def test_a_code_with_only_name_layer_and_message_generates(tmp_path: Path) -> None:
    """Without wires (whose numbers a registry that uses them must give), a code needs
    nothing but its layer and message."""
    root = make_project(tmp_path / "p", BARE.replace("  wires: [http, jsonrpc]\n", ""))
    generate(root)
    record = json.loads((root / "demo_errors" / "codes.json").read_text("utf-8"))["codes"][0]
    assert record["code"] == "DOOR_CLOSED"
    assert (record["since"], record["recovery"], record["retry"]) == (None, None, None)
    page = (root / "site" / "docs" / "en" / "codes" / "door_closed.md").read_text("utf-8")
    assert "Since" not in page
