"""A registry that declares no vocabulary: no actors, shapes, recovery kinds, wires, limits
or adapters. It gets codes, messages and docs, and nothing that would need what it lacks:
no envelope builders, no wire projections, no pages about shapes, limits or transports."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.config import Config
from generator.pipeline.build import outputs
from generator.registry.validate import load_registry_text

from ..conftest import ROOT, Run, make_project
from .test_emit_python import load_module, write_outputs
from .test_site_build import _build

BARE = """\
registry:
  name: plain
  title: Plain
  version: 2.0.0
  package: plain_errors
  source_locale: en
  locales: [de]
  docs_url: https://docs.example.org/plain/
  description: A registry that names its errors and nothing more.
layers:
  storage:
    title: Storage
    proves: The data could not be stored.
    description: Failures of the storage engine.
codes:
  DISK_FULL:
    layer: storage
    message: The disk is full.
    since: 1.0.0
  ROW_LOCKED:
    layer: storage
    message: Row {row} is locked by {class}.
    placeholders:
      row: {type: integer}
      class: {}
    recovery:
      steps: [Wait for the other transaction to finish.]
    retry: {policy: after_fix}
    since: 2.0.0
"""


def test_a_registry_without_vocabulary_gets_no_envelope_code(tmp_path: Path) -> None:
    registry = load_registry_text(BARE, "demo.yaml")
    assert (registry.shapes, registry.actors, registry.recovery_kinds) == ((), (), ())
    config = Config(
        root=tmp_path,
        registry=tmp_path / "demo.yaml",
        python_out=tmp_path,
        typescript_out=tmp_path / "ts",
    )
    files = outputs(config, registry)
    package = sorted(
        name for name in files if name.startswith("plain_errors/") and "/locales/" not in name
    )
    assert package == [
        "plain_errors/__init__.py",
        "plain_errors/_enum.py",
        "plain_errors/_error_code.py",
        "plain_errors/_format.py",
        "plain_errors/_info.py",
        "plain_errors/_kinds.py",
        "plain_errors/_negotiate.py",
        "plain_errors/_records.py",
        "plain_errors/codes.json",
        "plain_errors/codes.py",
        "plain_errors/i18n.py",
        "plain_errors/py.typed",
        "plain_errors/schemas/codes.schema.json",
    ]
    ts = next(data.decode() for name, data in files.items() if name.endswith("index.ts"))
    for absent in ("classify", "function failure", "ErrorEnvelope", "Shape", "httpStatus"):
        assert absent not in ts, absent
    assert "export function message" in ts


def test_the_bare_package_imports_formats_and_type_checks(tmp_path: Path) -> None:
    write_outputs(tmp_path, load_registry_text(BARE, "demo.yaml"))
    package = load_module(tmp_path / "plain_errors", "plain_errors")
    info = package.CODES[package.ErrorCode.ROW_LOCKED]
    assert info.retry is package.Retry.AFTER_FIX
    assert package.CODES[package.ErrorCode.DISK_FULL].retry is None
    assert not hasattr(info, "shape") and not hasattr(package, "failure")
    text = package.message("ROW_LOCKED", params={"row": 7, "class": "a writer"})
    assert text == "Row 7 is locked by a writer."
    (tmp_path / "caller.py").write_text(
        "import plain_errors\n"
        "x: str = plain_errors.message('DISK_FULL')\n"
        "info = plain_errors.CODES[plain_errors.ErrorCode.DISK_FULL]\n"
        "y: plain_errors.Retry | None = info.retry\n",
        "utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "plain_errors", "caller.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_bare_site_leaves_out_what_the_registry_has_not(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "plain", BARE)
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir()
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    assert run("generate", cwd=root).code == 0
    docs = root / "site" / "docs" / "en"
    for page in ("shapes.md", "limits.md", "adapters.md"):
        assert not (docs / page).exists(), page
    table = (docs / "codes" / "index.md").read_text("utf-8")
    assert "| Code | Layer | Retry |\n" in table  # no code has a meaning: no such column
    assert "Shape" not in table and "HTTP" not in table
    disk = (docs / "codes" / "disk_full.md").read_text("utf-8")
    for absent in ("Recovery", "Retry", "## Example", "On each transport", "HTTP"):
        assert absent not in disk, absent
    row = (docs / "codes" / "row_locked.md").read_text("utf-8")
    assert "Wait for the other transaction to finish" in row and "## Retry" in row
    recovery = (docs / "recovery.md").read_text("utf-8")
    assert "ROW\\_LOCKED" in recovery and "DISK\\_FULL" not in recovery
    overview = (docs / "overview.md").read_text("utf-8")
    assert "Who must act" not in overview
    built = _build(root / "site")  # strict: a link to a page that is not there fails
    assert built.returncode == 0, built.stderr


def test_the_bare_typescript_module_compiles(tmp_path: Path) -> None:
    tsc = ROOT / "ts" / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        pytest.skip("the TypeScript compiler is installed by `make ts-test`")
    config = Config(
        root=tmp_path,
        registry=tmp_path / "demo.yaml",
        python_out=tmp_path,
        typescript_out=tmp_path / "src",
    )
    for name, data in outputs(config, load_registry_text(BARE, "demo.yaml")).items():
        if name.startswith("src/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(data)
    options = (ROOT / "ts" / "tsconfig.json").read_text("utf-8").replace('"types": ["node"]', "")
    (tmp_path / "tsconfig.json").write_text(options.replace('"test/**/*.ts"', ""), "utf-8")
    (tmp_path / "package.json").write_text('{"type": "module"}', "utf-8")
    result = subprocess.run(
        [str(tsc), "-p", "tsconfig.json", "--noEmit"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_registry_text_in_a_typescript_comment_stays_in_it(tmp_path: Path) -> None:
    from ..conftest import MINIMAL

    text = MINIMAL.replace("proves: No action ran.", 'proves: "x */ globalThis.pwned = 1; /* y"')
    text = text.replace("title: Demo\n", 'title: "Demo */ evil(); /*"\n', 1)
    config = Config(
        root=tmp_path, registry=tmp_path / "demo.yaml", python_out=tmp_path, typescript_out=tmp_path
    )
    files = outputs(config, load_registry_text(text, "demo.yaml"))
    ts = next(data.decode() for name, data in files.items() if name.endswith("index.ts"))
    assert "*/ globalThis" not in ts and "*/ evil" not in ts
    assert "x *\\/ globalThis.pwned" in ts
