"""Shared fixtures: the repository, a throw-away copy of a project, and the CLI in-process."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.cli import main
from generator.pipeline import cachedir

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def user_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user's cache folder for the whole run, outside every project the tests make (and
    outside the home folder of whoever runs them); processes the tests start inherit it."""
    folder = tmp_path_factory.mktemp("user-cache")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    return folder


def cache_of(root: Path) -> Path:
    """The cache folder of the project in ``root`` (made if need be)."""
    found = cachedir.folder(str(root))
    assert found is not None, f"no cache folder for {root}"
    return Path(found)


@dataclass
class Result:
    code: int
    out: str
    err: str


Run = Callable[..., Result]

#: The id the command line prints at the end of a diagnostic line, such as " [E-PO-CHARSET]".
DIAGNOSTIC_ID = re.compile(r" \[([EW](?:-[A-Z0-9]+)+)\]\Z")


def split_id(line: str) -> tuple[str, str]:
    """A diagnostic line as printed, split into its text (as it read before ids were shown)
    and its id; a line without an id fails the test."""
    match = DIAGNOSTIC_ID.search(line)
    assert match is not None, f"no diagnostic id at the end of {line!r}"
    return line[: match.start()], match.group(1)


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``errorbook ARGS`` in-process, in ``cwd`` (default: the repository), with no
    locale in the environment (explain follows LANG and its kin), unless a test sets one."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)

    def invoke(*args: str, cwd: Path = ROOT) -> Result:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse exits for --help and usage errors
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


#: Every errorbook run in a subprocess must end well within this; a hang fails the test.
SUBPROCESS_TIMEOUT = 60


def errorbook_process(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``errorbook ARGS`` in a process of its own, so that a hang is a timeout, not a stuck
    test run."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of this repository's registry, configuration, catalogs and generated package."""
    target = tmp_path / "project"
    target.mkdir()
    for name in ("codes.yaml", "pyproject.toml", ".errorbook-files"):
        shutil.copy2(ROOT / name, target / name)
    for folder in ("surface_errors", "locales", "site", "ts/src"):
        shutil.copytree(
            ROOT / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__", "build")
        )
    return target


def generated_count() -> int:
    """How many files `errorbook generate` writes for this repository."""
    python = [
        p
        for p in (ROOT / "surface_errors").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    catalogs = [p for p in (ROOT / "locales").rglob("*") if p.suffix in (".po", ".pot")]
    site = ROOT / "site"
    pages = [p for p in (site / "docs").rglob("*") if p.is_file()]
    configs = [p for p in site.glob("mkdocs.*.yml") if p.name != "mkdocs.base.yml"]
    typescript = [p for p in (ROOT / "ts" / "src").rglob("*") if p.is_file()]
    manifest_and_redirect = 2
    return (
        len(python)
        + len(catalogs)
        + len(pages)
        + len(configs)
        + len(typescript)
        + manifest_and_redirect
    )


def write_registry(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


MINIMAL = """\
registry:
  name: demo
  title: Demo
  version: 1.2.0
  package: demo_errors
  source_locale: en
  locales: [de]
  docs_url: https://docs.example.org/errors/
  description: A registry for tests.
  wires: [http, jsonrpc]
actors:
  client: {description: The caller.}
  page: {description: The page and its owner.}
shapes:
  protocol:
    title: Protocol failure
    envelope: error
    proves: No action ran.
    description: The envelope says ok false.
  action:
    title: Action failure
    envelope: result
    proves: The call reached an action.
    description: The error is inside the result.
recovery_kinds:
  fix_client: {summary: Change the client.}
  ask_user: {summary: Ask the person.}
layers:
  front:
    title: Front
    proves: The request was refused at the door.
    actor: client
    shape: protocol
    description: Protocol problems.
  inner:
    title: Inner
    proves: The action refused.
    actor: page
    shape: action
    description: Action problems.
codes:
  DOOR_CLOSED:
    layer: front
    message: The door is closed.
    meaning: Nobody is let in.
    recovery: {kind: fix_client, steps: [Knock.]}
    retry: {policy: never}
    http: 403
    jsonrpc: -32050
    since: 1.0.0
  ITEMS_REFUSED:
    layer: inner
    message:
      one: "{count} item was refused by {who}."
      other: "{count} items were refused by {who}."
      count: count
    placeholders:
      count: {description: Items refused., example: 2, type: integer}
      who: {description: Who refused., example: the page}
    meaning: The page refused the items.
    recovery: {kind: ask_user, steps: [Ask.]}
    retry: {policy: bounded, limit: attempts}
    related: [DOOR_CLOSED]
    since: 1.2.0
limits:
  attempts:
    title: Attempts
    default: 3
    unit: attempts
    min: 1
    max: 5
    bounds: How often to try.
adapters:
  python:
    title: Python
    description: In process.
    protocol: A dict with ok false.
    action: A dict with ok true.
"""


# Catalog helpers shared by the catalog, check and i18n tests.

PYPROJECT = "[tool.errorbook]\nregistry = 'codes.yaml'\n"
REGISTRY = MINIMAL.replace("locales: [de]", "locales: [de, pl]")
MSGFMT = shutil.which("msgfmt")


def make_project(root: Path, text: str = REGISTRY) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(text, "utf-8")
    return root


def po(root: Path, locale: str, domain: str = "messages") -> Path:
    return root / "locales" / locale / "LC_MESSAGES" / f"{domain}.po"


def translate(path: Path, translations: dict[str, str | list[str]]) -> None:
    """Fill msgstr lines by msgctxt, as a translator's tool would."""
    lines = path.read_text("utf-8").split("\n")
    context = None
    for i, line in enumerate(lines):
        if line.startswith("msgctxt "):
            context = line[9:-1]
        value = translations.get(context or "")
        if value is None:
            continue
        if line.startswith('msgstr "') and isinstance(value, str):
            lines[i] = f'msgstr "{value}"'
        match = re.match(r"msgstr\[(\d)\] ", line)
        if match and isinstance(value, list):
            lines[i] = f'msgstr[{match.group(1)}] "{value[int(match.group(1))]}"'
    path.write_text("\n".join(lines), "utf-8")


GERMAN: dict[str, str | list[str]] = {
    "DOOR_CLOSED": "Die Tür ist zu.",
    "ITEMS_REFUSED": [
        "{count} Artikel wurde von {who} abgelehnt.",
        "{count} Artikel wurden von {who} abgelehnt.",
    ],
}
POLISH: dict[str, str | list[str]] = {
    "DOOR_CLOSED": "Drzwi są zamknięte.",
    "ITEMS_REFUSED": [
        "{who} odrzucił {count} element.",
        "{who} odrzucił {count} elementy.",
        "{who} odrzucił {count} elementów.",
    ],
}


@pytest.fixture
def translated(run: Run, tmp_path: Path) -> Path:
    root = make_project(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    translate(po(root, "de"), GERMAN)
    translate(po(root, "pl"), POLISH)
    assert run("generate", cwd=root).code == 0
    return root


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/robustness/ is slow: `pytest -m "not slow"` leaves the fuzzers,
    property tests, crash and hostile suites out of a quick loop (`make test` runs them)."""
    robustness = ROOT / "tests" / "robustness"
    for item in items:
        if item.path.is_relative_to(robustness):
            item.add_marker(pytest.mark.slow)
