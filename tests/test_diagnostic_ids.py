"""Diagnostic ids: one catalogue, every id in it used, and the id in every kind of output."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from generator.diagnostic_ids import IDS, PATTERN
from generator.diagnostics import Diagnostics, Mark
from generator.pipeline.cache import CatalogCache, Checked

from .conftest import ROOT, Run, split_id

CATALOGUE = ROOT / "generator" / "diagnostic_ids.py"


def ids_in_code() -> dict[str, list[str]]:
    """Every string constant of generator/ shaped like an id, with where it appears (the
    catalogue itself left out)."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path == CATALOGUE:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and PATTERN.match(node.value)
            ):
                found.setdefault(node.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_id_the_code_reports_is_catalogued() -> None:
    unknown = {i: where for i, where in ids_in_code().items() if i not in IDS}
    assert unknown == {}, "add these ids to generator/diagnostic_ids.py"


def test_every_catalogued_id_is_reported_somewhere() -> None:
    unused = sorted(set(IDS) - set(ids_in_code()))
    assert unused == [], "remove these ids from generator/diagnostic_ids.py, or report them"


def test_every_id_has_the_shape_and_a_sentence() -> None:
    for key, meaning in IDS.items():
        assert PATTERN.match(key), key
        assert meaning[:1].isupper() or meaning.startswith("errorbook"), key
        assert meaning.endswith(".") and "\n" not in meaning, key


def test_errors_get_e_ids_and_warnings_w_ids() -> None:
    """The letter of an id says its severity; a literal id passed to error() or warning()
    must agree with the method."""
    letters = {"error": "E-", "warning": "W-"}
    wrong = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in letters
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and PATTERN.match(node.args[0].value)
            ):
                continue
            if not node.args[0].value.startswith(letters[node.func.attr]):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert wrong == []


def test_a_diagnostic_renders_its_id_last_only_when_asked() -> None:
    found = Diagnostics()
    found.error("E-REF-UNKNOWN-CODE", Mark("codes.yaml", 3, 5), "no such code", "define it")
    (item,) = found.items
    assert item.render() == "codes.yaml:3:5: error: no such code (define it)"
    assert item.render(with_id=True) == (
        "codes.yaml:3:5: error: no such code (define it) [E-REF-UNKNOWN-CODE]"
    )
    assert json.loads(found.to_json())[0]["id"] == "E-REF-UNKNOWN-CODE"


def test_validate_prints_the_id_in_text_and_in_json(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("registry: {}\nlayers: {}\nfoo: 1\n", "utf-8")
    text = run("validate", "--registry", str(bad))
    assert text.code == 1
    rows = [row for row in text.err.splitlines() if not row.startswith("errorbook:")]
    assert rows and all(split_id(row)[1] in IDS for row in rows), rows
    shown = {split_id(row)[1] for row in rows}
    assert {"E-SCHEMA-UNKNOWN-KEY", "E-SCHEMA-EMPTY-SECTION"} <= shown
    as_json = run("validate", "--registry", str(bad), "--format", "json")
    assert as_json.code == 1
    assert {problem["id"] for problem in json.loads(as_json.out)} == shown


def test_check_prints_the_id_of_a_catalog_problem(run: Run, translated: Path) -> None:
    path = translated / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    path.write_text(
        path.read_text("utf-8").replace('msgid ""\nmsgstr ""', '#, fuzzy\nmsgid ""\nmsgstr ""', 1),
        "utf-8",
    )
    result = run("check", cwd=translated)
    assert result.code == 1
    rows = [row for row in result.err.splitlines() if row.startswith("locales/")]
    assert [split_id(row)[1] for row in rows] == ["E-PO-FUZZY-HEADER"]
    as_json = run("check", "--format", "json", cwd=translated)
    assert as_json.code == 1 and as_json.err == ""
    report = json.loads(as_json.out)
    assert report["ok"] is False
    assert [problem["id"] for problem in report["problems"]] == ["E-PO-FUZZY-HEADER"]
    assert report["counts"] == {"E-PO-FUZZY-HEADER": 1}


def test_the_catalog_cache_keeps_each_id() -> None:
    found = Diagnostics()
    found.error("E-PO-CHARSET", Mark("de.po", 1, 1), "latin-1", "use UTF-8")
    cache = CatalogCache(checked={"de.po": Checked("key", tuple(found.items), (1, 0, 0, 0))})
    again = CatalogCache.from_bytes(cache.to_bytes())
    assert again.checked["de.po"].problems == tuple(found.items)
