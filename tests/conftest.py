"""Shared fixtures: the repository, a throw-away copy of a project, and the CLI in-process."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Result:
    code: int
    out: str
    err: str


Run = Callable[..., Result]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``errorbook ARGS`` in-process, in ``cwd`` (default: the repository)."""

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


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of this repository's registry, configuration and generated package."""
    target = tmp_path / "project"
    target.mkdir()
    for name in ("codes.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(
        ROOT / "surface_errors",
        target / "surface_errors",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return target


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
