"""A code's title: the problem object's ``title`` in the reader's language, with a fallback.

RFC 9457 wants a problem's title to be a short summary that does not change between
occurrences, and allows it to be localized. Surface gives every code a title; the demo
registry here gives one code a title and leaves the other without, so that both the
translated title and the fallback (the layer's title and the code) are seen.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import jsonschema
import pytest
from babel.messages.pofile import read_po

import surface_errors as se

from ..conftest import MINIMAL, ROOT, Run, make_project, po, split_id, translate
from ..emit.test_emit_python import load_module

PACKAGE = "titled_errors"
TITLED = MINIMAL.replace("package: demo_errors", f"package: {PACKAGE}").replace(
    "    message: The door is closed.\n",
    "    message: The door is closed.\n    title: Door closed\n",
)
PYPROJECT = (
    "[tool.errorbook]\nregistry = 'codes.yaml'\npython-out = '.'\nlocales = 'locales'\n"
    "typescript-out = 'ts/src'\n"
)


def catalog_titles(lang: str) -> dict[str, str]:
    """Each code's title in ``lang`` as its translator wrote it in messages.po (read here
    with Babel, not through the runtime)."""
    path = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as stream:
        catalog = read_po(stream)
    return {
        m.context.removesuffix(".title"): str(m.string)
        for m in catalog
        if m.context and m.context.endswith(".title") and not m.fuzzy
    }


@pytest.mark.parametrize("lang", ["de", "fr", "es", "ja", "pl", "ar"])
def test_the_problem_title_is_the_codes_title_in_the_requested_language(lang: str) -> None:
    written = catalog_titles(lang)
    assert set(written) == {code.value for code in se.ErrorCode}
    for code in se.ErrorCode:
        info = se.CODES[code]
        params = {name: 3 if name in info.integers else "3" for name in info.placeholders}
        problem = se.to_problem(code, lang, params=params)
        assert problem["title"] == written[code.value] != info.title
        assert se.title(code, lang) == written[code.value]
        assert (
            se.problem_from_envelope(se.failure(code, params=params), lang)["title"]
            == (written[code.value])
        )


def test_a_title_is_found_through_the_locale_fallback_chain() -> None:
    assert se.title("PERMISSION_DENIED", "de_AT.UTF-8") == "Berechtigung verweigert"
    assert se.title("PERMISSION_DENIED", "fr-CA") == "Autorisation refusée"
    for unknown in (None, "en", "xx", "C"):
        assert se.to_problem("PERMISSION_DENIED", unknown, action="pay")["title"] == (
            "Permission denied"
        )
    assert (
        se.Translator("ja").title(se.ErrorCode.SNAPSHOT_TOO_LARGE)
        == catalog_titles("ja")["SNAPSHOT_TOO_LARGE"]
    )


def test_surface_types_every_title_as_text() -> None:
    source = (ROOT / "surface_errors" / "_info.py").read_text("utf-8")
    assert "    title: str  #" in source  # every code has one: never None
    assert all(isinstance(info.title, str) and info.title for info in se.CODES.values())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo registry generated, then DOOR_CLOSED's title translated into German."""
    from generator.cli import main

    root = make_project(tmp_path_factory.mktemp("titles") / "p", TITLED)
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["generate"]) == 0
        translate(po(root, "de"), {"DOOR_CLOSED": "Die Tür ist zu.", "DOOR_CLOSED.title": "Tür zu"})
        assert main(["generate"]) == 0
    yield root


@pytest.fixture(scope="module")
def package(project: Path) -> Iterator[ModuleType]:
    module = load_module(project / PACKAGE, PACKAGE)
    yield module
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_a_code_without_a_title_keeps_the_layer_and_code_as_its_problem_title(
    package: ModuleType,
) -> None:
    door, items = package.CODES["DOOR_CLOSED"], package.CODES["ITEMS_REFUSED"]
    assert (door.title, items.title) == ("Door closed", None)
    assert package.to_problem("DOOR_CLOSED")["title"] == "Door closed"
    assert package.to_problem("DOOR_CLOSED", "de")["title"] == "Tür zu"
    assert package.to_problem("DOOR_CLOSED", "de")["detail"] == "Die Tür ist zu."
    for locale in (None, "de"):
        problem = package.to_problem("ITEMS_REFUSED", locale, count=2, who="x")
        assert problem["title"] == "Inner: ITEMS_REFUSED"
    assert package.title("ITEMS_REFUSED", "de") is None


def test_codeinfo_types_the_title_as_optional_where_a_code_has_none(project: Path) -> None:
    source = (project / PACKAGE / "_info.py").read_text("utf-8")
    assert "    title: str | None  #" in source
    index = (project / "ts" / "src" / PACKAGE / "index.ts").read_text("utf-8")
    assert "readonly title: string | null;" in index
    assert 'title: "Door closed",' in index and "title: null," in index
    german = json.loads((project / "ts" / "src" / PACKAGE / "locales" / "de.json").read_text())
    assert german["messages"]["DOOR_CLOSED.title"] == "Tür zu"
    assert german["messages"]["DOOR_CLOSED"] == "Die Tür ist zu."


def test_codes_json_carries_the_title_and_its_schema_allows_none(project: Path) -> None:
    data = json.loads((project / PACKAGE / "codes.json").read_text("utf-8"))
    titles = {entry["code"]: entry["title"] for entry in data["codes"]}
    assert titles == {"DOOR_CLOSED": "Door closed", "ITEMS_REFUSED": None}
    schema = json.loads((project / PACKAGE / "schemas" / "codes.schema.json").read_text("utf-8"))
    jsonschema.validate(data, schema)
    data["codes"][0]["title"] = ""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_surface_requires_titles_and_its_schema_says_so() -> None:
    path = ROOT / "surface_errors" / "schemas" / "codes.schema.json"
    schema = json.loads(path.read_text("utf-8"))
    title = schema["properties"]["codes"]["items"]["properties"]["title"]
    assert title == {"type": "string", "minLength": 1}
    data = json.loads((ROOT / "surface_errors" / "codes.json").read_text("utf-8"))
    jsonschema.validate(data, schema)
    assert {e["code"]: e["title"] for e in data["codes"]} == {
        info.code.value: info.title for info in se.CODES.values()
    }


def test_a_title_translation_with_a_placeholder_is_refused_and_never_shown(
    project: Path, run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "copy"
    shutil.copytree(project, root)
    path = po(root, "de")
    translate(path, {"DOOR_CLOSED.title": "Tür {who} zu"})
    checked = run("check", cwd=root)
    assert checked.code == 1
    line = next(x for x in checked.err.splitlines() if "DOOR_CLOSED.title" in x)
    message, ident = split_id(line)
    assert ident == "E-TRANSLATION-UNKNOWN-PLACEHOLDER"
    row = path.read_text("utf-8").splitlines().index('msgstr "Tür {who} zu"') + 1
    assert message.startswith(f"locales/de/LC_MESSAGES/messages.po:{row}:")
    assert run("generate", cwd=root).code == 0  # a warning: the translation stays out
    mo = (root / PACKAGE / "locales" / "de" / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert "Tür {who} zu".encode() not in mo and "Die Tür ist zu.".encode() in mo


def test_a_reworded_title_keeps_its_translation_as_fuzzy(
    project: Path, run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "copy"
    shutil.copytree(project, root)
    registry = root / "codes.yaml"
    registry.write_text(registry.read_text("utf-8").replace("Door closed", "Door shut"), "utf-8")
    assert run("generate", cwd=root).code == 0
    text = po(root, "de").read_text("utf-8")
    assert '#, fuzzy\n#| msgid "Door closed"\nmsgctxt "DOOR_CLOSED.title"' in text
    mo = (root / PACKAGE / "locales" / "de" / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert "Tür zu".encode() not in mo  # a fuzzy translation is not shown
    stats = run("stats", "--format", "json", cwd=root)
    german = next(
        row for row in json.loads(stats.out) if (row["locale"], row["domain"]) == ("de", "messages")
    )
    assert (german["fuzzy"], german["translated"]) == (1, 1)
