"""A large registry is validated in a process of its own: same registry, same diagnostics."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import config
from generator.pipeline import build, forks
from generator.registry import validate as rules
from generator.registry.model import Registry
from generator.registry.validate import validate as registry_validate

from ..conftest import MINIMAL, Run, make_project

pytestmark = pytest.mark.skipif(not forks.available(), reason="needs the fork start method")


def _validated_where(
    root: Path, monkeypatch: pytest.MonkeyPatch, threshold: int
) -> tuple[Registry, set[int]]:
    """The registry of the project at ``root``, loaded with no cache, and the processes
    that validated it."""
    pids = root / "pids"
    validate = registry_validate

    def recording(*args: object, **kwargs: object) -> Registry:
        with pids.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return validate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "validate", recording)  # build imports it when it validates
    monkeypatch.setattr(build, "FORKED_VALIDATION_BYTES", threshold)
    pids.unlink(missing_ok=True)
    settings = config.load(root / "pyproject.toml")
    registry = build.registry_for(settings, use_cache=False)
    return registry, {int(line) for line in pids.read_text().split()}


def test_a_large_registry_is_validated_in_a_forked_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_project(tmp_path / "p", MINIMAL)
    forked, where = _validated_where(root, monkeypatch, threshold=0)
    assert where and os.getpid() not in where  # another process did the work
    here, where = _validated_where(root, monkeypatch, threshold=1 << 30)
    assert where == {os.getpid()}
    assert forked == here  # and sent back the very registry this process would have made


def test_a_forked_validation_s_diagnostics_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    broken = MINIMAL.replace("related: [DOOR_CLOSED]", "related: [DOOR_CLOSD]", 1)
    assert broken != MINIMAL
    root = make_project(tmp_path / "p", broken)
    answers = []
    for threshold in (1 << 30, 0):
        monkeypatch.setattr(build, "FORKED_VALIDATION_BYTES", threshold)
        answers.append(run("validate", cwd=root))
    assert answers[0].code == answers[1].code == 1
    assert "DOOR_CLOSD" in answers[0].err
    assert answers[1] == answers[0]
