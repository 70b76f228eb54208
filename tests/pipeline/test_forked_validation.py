"""A large registry is validated in a process of its own: same registry, same diagnostics."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from generator import config
from generator.pipeline import build, forks, loading
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
    monkeypatch.setattr(loading, "FORKED_VALIDATION_BYTES", threshold)
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
        monkeypatch.setattr(loading, "FORKED_VALIDATION_BYTES", threshold)
        answers.append(run("validate", cwd=root))
    assert answers[0].code == answers[1].code == 1
    assert "DOOR_CLOSD" in answers[0].err
    assert answers[1] == answers[0]


def _recording(pids: Path, *args: object, **kwargs: object) -> Registry:
    """The rules' validate, noting the process that runs it in ``pids``."""
    with pids.open("a") as out:
        out.write(f"{os.getpid()}\n")
    return registry_validate(*args, **kwargs)  # type: ignore[arg-type]


def _as_a_new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``errorbook generate`` finds in a process of its own: the pipeline not imported
    yet, so that the registry is validated in another process meanwhile."""
    monkeypatch.setattr(loading, "_PIPELINE", "generator.pipeline.not_imported_yet")


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "pids"
    }


def test_generate_validates_ahead_in_another_process_and_writes_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """In a process of its own, ``generate`` validates the registry in a forked process
    while it imports the rest (a test process has it imported: there, it validates here);
    the files it writes are the same, byte for byte."""
    made = {}
    for ahead in (False, True):
        root = make_project(tmp_path / f"ahead-{ahead}")
        monkeypatch.setattr(rules, "validate", functools.partial(_recording, root / "pids"))
        if ahead:
            _as_a_new_process(monkeypatch)
        result = run("generate", cwd=root)
        assert result.code == 0, result.err
        where = {int(line) for line in (root / "pids").read_text().split()}
        assert (os.getpid() not in where) is ahead, where
        made[ahead] = _files(root)
    assert made[True] == made[False]
    assert len(made[True]) > 10
    # The registry's cache file, as the forked process made it, is the registry: the next
    # run takes it from there.
    settings = config.load(tmp_path / "ahead-True" / "pyproject.toml")
    cached = loading.begin(settings).cached
    assert cached is not None
    assert cached == build.registry_for(settings, use_cache=False)


def test_a_registry_validated_ahead_says_what_is_wrong_as_any_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    broken = MINIMAL.replace("related: [DOOR_CLOSED]", "related: [DOOR_CLOSD]", 1)
    root = make_project(tmp_path / "p", broken)
    here = run("generate", cwd=root)
    _as_a_new_process(monkeypatch)
    ahead = run("generate", cwd=root)
    assert here.code == ahead.code == 1
    assert "DOOR_CLOSD" in here.err and "Traceback" not in ahead.err
    assert ahead == here
    assert not (root / ".errorbook-files").exists()  # nothing written either way


def test_what_generate_prepares_ahead_leaves_out_the_locales_data(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process validates the registry, ``generate`` readies what the emitters
    of the registry alone need (build._prepare), but not Babel's CLDR data of the locales:
    every catalog worker is forked from this process and would hold it too (about 40 MB
    at thirty locales, the Performance page's peak memory)."""
    from babel import Locale, localedata

    root = make_project(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    settings = config.load(root / "pyproject.toml")
    tags = {p.name for p in settings.locales_dir.iterdir() if p.is_dir()}
    assert tags
    asked: list[str] = []
    parse = Locale.parse.__func__  # type: ignore[attr-defined]

    def recording(
        cls: type[Locale], /, identifier: object, *args: object, **kwargs: object
    ) -> Locale:
        asked.append(str(identifier))
        return parse(cls, identifier, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Locale, "parse", classmethod(recording))
    monkeypatch.setattr(localedata, "_cache", {})  # as in a process that loaded none
    build._prepare(settings)
    build._PREPARED.clear()
    assert not tags & set(localedata._cache)
    assert not tags & set(asked)


def test_generate_compiles_ahead_only_the_templates_its_emitters_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What build._prepare compiles while the registry is validated is the templates the
    emitters render, not every file of their folders: the package's plain modules (copied,
    never compiled), their byte code, or whatever else a project keeps in its override
    folder are not read."""
    import jinja2

    root = make_project(tmp_path / "p", MINIMAL)
    (root / "mine" / "python").mkdir(parents=True)
    (root / "mine" / "python" / "notes.txt").write_text("{{ not a template\n", "utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\ntemplates = 'mine'\n", "utf-8"
    )
    asked: list[str] = []
    real = jinja2.Environment.get_template

    def recording(env: jinja2.Environment, name: str, *args: object, **kwargs: object) -> object:
        asked.append(name)
        return real(env, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "get_template", recording)
    build._prepare(config.load(root / "pyproject.toml"))
    build._PREPARED.clear()
    from generator.emit import jsondata, python

    assert sorted(asked) == sorted((*python.TEMPLATES, jsondata.TEMPLATE))
    assert all(name.endswith(".j2") for name in asked)
