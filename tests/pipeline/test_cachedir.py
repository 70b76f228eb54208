"""The caches live in the user's cache folder, never in the work tree: a commit cannot add
one, so none can run code, spare a translation its checks or vouch for changed files."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from generator.pipeline import cache, cachedir, stamp

from ..conftest import ROOT, cache_of, errorbook_process, make_project


class _Payload:
    """What a hostile pickle holds: unpickling it runs ``code``."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (exec, (self.code,))


def _errorbook(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**env, "PYTHONPATH": str(ROOT)}
    env.pop("ERRORBOOK_NO_CACHE_NOTED", None)
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_run_leaves_nothing_in_the_project_but_its_outputs(tmp_path: Path) -> None:
    """No cache, stamp or lock file in the tree: only the outputs and the manifest."""
    root = make_project(tmp_path / "project")
    assert errorbook_process(root, "generate").returncode == 0
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".")) == [".errorbook-files"]
    folder = cache_of(root)
    assert folder.parent == Path(os.environ["XDG_CACHE_HOME"]) / "errorbook"
    assert folder.name.startswith("project-")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {p.name for p in folder.iterdir()} >= {stamp.STAMP, cache.CATALOGS, cache.REGISTRY}
    assert "no input changed" in errorbook_process(root, "generate").stdout


def test_two_projects_of_one_name_have_caches_of_their_own(tmp_path: Path) -> None:
    first = make_project(tmp_path / "a" / "project")
    second = make_project(tmp_path / "b" / "project")
    assert cache_of(first) != cache_of(second)
    assert errorbook_process(first, "generate").returncode == 0
    assert not (cache_of(second) / stamp.STAMP).exists()


def test_a_planted_cache_in_the_work_tree_is_never_read(tmp_path: Path) -> None:
    """A commit that adds the old cache folder, with a pickle that runs code and a stamp
    that names the bytes of a changed page: neither is looked at."""
    root = make_project(tmp_path / "project")
    assert errorbook_process(root, "generate").returncode == 0
    recorded = json.loads((cache_of(root) / stamp.STAMP).read_bytes())
    planted = root / ".errorbook-cache"
    planted.mkdir()
    marker = tmp_path / "ran"
    key = cache.registry_key((root / "codes.yaml").read_bytes(), "codes.yaml", "codes.yaml")
    body = pickle.dumps(_Payload(f"open({str(marker)!r}, 'w').write('ran')"))
    (planted / cache.REGISTRY).write_bytes(key.encode("ascii") + b"\n" + body)
    page = root / "demo_errors" / "codes.json"
    page.write_text(page.read_text("utf-8").replace("closed", "Injected text"), "utf-8")
    changed = page.read_bytes()
    recorded["outputs"]["demo_errors/codes.json"] = [
        len(changed),
        -1,
        hashlib.sha256(changed).hexdigest(),
        0,
    ]
    (planted / stamp.STAMP).write_text(json.dumps(recorded), "utf-8")
    check = errorbook_process(root, "check")
    assert check.returncode == 1 and "demo_errors/codes.json" in check.stdout + check.stderr
    (cache_of(root) / cache.REGISTRY).unlink()  # the run must read the registry again
    result = errorbook_process(root, "generate")
    assert result.returncode == 0, result.stderr
    assert "no input changed" not in result.stdout
    assert b"Injected text" not in page.read_bytes()
    assert not marker.exists()


def test_a_cache_folder_others_can_write_is_not_used_and_the_run_says_so_once(
    tmp_path: Path,
) -> None:
    """Another user who can write the folder could plant a pickle there."""
    root = make_project(tmp_path / "project")
    home = tmp_path / "cache-home"
    env = {**os.environ, "XDG_CACHE_HOME": str(home)}
    folder = Path(cachedir.folder(str(root), str(home / "errorbook")) or "")
    folder.chmod(0o777)
    marker = tmp_path / "ran"
    key = cache.registry_key((root / "codes.yaml").read_bytes(), "codes.yaml", "codes.yaml")
    body = pickle.dumps(_Payload(f"open({str(marker)!r}, 'w').write('ran')"))
    (folder / cache.REGISTRY).write_bytes(key.encode("ascii") + b"\n" + body)
    for _ in range(2):
        result = _errorbook(root, env, "generate")
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("working without caches") == 1, result.stderr
        assert "not a folder only you can use" in result.stderr
        assert "no input changed" not in result.stdout
    assert not marker.exists()
    assert sorted(p.name for p in folder.iterdir()) == [cache.REGISTRY]  # nothing written


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path: Path) -> None:
    root = make_project(tmp_path / "project")
    home = tmp_path / "cache-home"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    folder = Path(cachedir.folder(str(root), str(home / "errorbook")) or "")
    folder.rmdir()
    folder.symlink_to(elsewhere, target_is_directory=True)
    result = _errorbook(root, {**os.environ, "XDG_CACHE_HOME": str(home)}, "generate")
    assert result.returncode == 0, result.stderr
    assert "is not a folder" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_cache_home_inside_the_git_work_tree_is_not_used(tmp_path: Path) -> None:
    """A CI job that keeps XDG_CACHE_HOME in its checkout: a commit could supply the
    caches, under umask 077 with the modes of the user's own."""
    root = make_project(tmp_path / "project")
    (root / ".git").mkdir()  # a git work tree, as far as errorbook looks
    env = {**os.environ, "XDG_CACHE_HOME": str(root / ".cache")}
    result = _errorbook(root, env, "generate")
    assert result.returncode == 0, result.stderr
    assert "inside the project's work tree" in result.stderr
    assert not (root / ".cache").exists()


def test_a_relative_xdg_cache_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    found = cachedir.folder(str(tmp_path / "project"))
    assert found is not None and Path(found).parent == tmp_path / "home" / ".cache" / "errorbook"


def test_an_empty_home_names_no_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("ERRORBOOK_NO_CACHE_NOTED", raising=False)
    monkeypatch.setenv("HOME", "")
    assert cachedir.folder(str(tmp_path)) is None
    assert "no home folder" in capsys.readouterr().err
