"""Cache files someone else wrote are not errorbook's: a commit that adds files to the
git-ignored .errorbook-cache/ must not run code, skip checks or put HTML on the site."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import pickle
import stat
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from generator.integrations import memo, template_code
from generator.pipeline import cache, seal, stamp

from ..conftest import ROOT, errorbook_process, make_project


class _Payload:
    """What a hostile pickle holds: unpickling it runs ``code``."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (exec, (self.code,))


@pytest.fixture
def own_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """This test's user: a cache folder of its own, and no key read yet in this process."""
    folder = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.setattr(seal, "_key", None)
    return folder


def test_a_planted_registry_pickle_is_not_loaded(tmp_path: Path, own_key: Path) -> None:
    root = make_project(tmp_path / "project")
    assert errorbook_process(root, "generate").returncode == 0
    # A clone of a commit that added the cache file: the right key, but a pickle that runs
    # code; the registry's key is public (its file's bytes, its names, errorbook's code).
    for name in os.listdir(root / ".errorbook-cache"):
        path = root / ".errorbook-cache" / name
        if path.is_file():
            path.unlink()
    marker = tmp_path / "ran"
    key = cache.registry_key((root / "codes.yaml").read_bytes(), "codes.yaml", "codes.yaml")
    body = pickle.dumps(_Payload(f"open({str(marker)!r}, 'w').write('ran')"))
    (root / cache.REGISTRY).write_bytes(key.encode("ascii") + b"\n" + body)
    result = errorbook_process(root, "generate")
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert errorbook_process(root, "check").returncode == 0


def test_a_registry_cache_sealed_by_another_user_is_a_miss(
    tmp_path: Path, own_key: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_project(tmp_path / "project")
    assert errorbook_process(root, "generate").returncode == 0
    key = cache.registry_key((root / "codes.yaml").read_bytes(), "codes.yaml", "codes.yaml")
    registry = cache.load_registry(root, key)
    assert registry is not None  # this user's own cache is used
    monkeypatch.setattr(seal, "_key", b"\x01" * 32)  # another user's key
    (root / cache.REGISTRY).write_bytes(seal.seal(cache.registry_bytes(registry, key)))
    monkeypatch.setattr(seal, "_key", None)
    assert cache.load_registry(root, key) is None


def _registry_cache(root: Path) -> bytes:
    key = "0" * 64
    return key.encode("ascii") + b"\n" + pickle.dumps(["not a registry"])


def _memo_file(fingerprint: str) -> bytes:
    data = {"fingerprint": fingerprint, "format": memo.FORMAT, "pages": {"x.md": ["<p>"]}}
    return zlib.compress(marshal.dumps(data), 1)


@pytest.mark.parametrize("sealed", [False, True])
def test_the_site_memos_and_compiled_templates_take_only_sealed_files(
    tmp_path: Path, own_key: Path, sealed: bool
) -> None:
    """The site build's caches, planted as their writers make them: used only when sealed
    with this user's key."""
    (tmp_path / ".errorbook-cache").mkdir()
    wrap = seal.seal if sealed else (lambda data: data)
    (tmp_path / template_code.NAME).write_bytes(wrap(marshal.dumps({"t.html": b"code"})))
    assert bool(template_code.TemplateCode(tmp_path)._known) is sealed
    name = ".errorbook-cache/site-pages-x.memo"
    (tmp_path / name).write_bytes(wrap(_memo_file("print")))
    assert bool(memo.Memo(tmp_path, name, "print")._known) is sealed


@pytest.mark.parametrize("sealed", [False, True])
def test_the_catalog_cache_and_verdicts_take_only_sealed_files(
    tmp_path: Path, own_key: Path, sealed: bool
) -> None:
    """A record of verdicts spares translations their checks, and the catalog cache spares
    PO files their merge: planted, they are ignored."""
    (tmp_path / ".errorbook-cache" / "verdicts").mkdir(parents=True)
    written = cache.CatalogCache(written={"x.po": cache.Written("k", "p", None)})
    record = cache.verdicts_bytes("salt", frozenset({b"s" * cache.SEAL_SIZE}))
    if sealed:
        seal.write_cache(tmp_path, cache.CATALOGS, written.to_bytes())
        seal.write_cache(tmp_path, cache.verdicts_path("x.po"), record)
    else:
        (tmp_path / cache.CATALOGS).write_bytes(written.to_bytes())
        (tmp_path / cache.verdicts_path("x.po")).write_bytes(record)
    found = cache.load(tmp_path)
    assert bool(found.written) is sealed
    assert bool(found.known("x.po", "salt")) is sealed


def test_a_seal_holds_only_over_the_same_bytes_under_the_same_key(own_key: Path) -> None:
    sealed = seal.seal(b"data")
    assert seal.unseal(sealed) == b"data"
    assert seal.unseal(sealed[:-1] + b"x") is None
    assert seal.unseal(sealed[:-1]) is None
    assert seal.unseal(sealed[: len(seal.MAGIC) + 5]) is None
    assert seal.unseal(b"data") is None
    assert seal.unseal(None) is None
    flipped = bytearray(sealed)
    flipped[len(seal.MAGIC)] ^= 1
    assert seal.unseal(bytes(flipped)) is None
    seal._key = b"\x02" * 32
    assert seal.unseal(sealed) is None


def test_the_key_lives_in_the_users_cache_folder_readable_by_the_user_alone(
    own_key: Path,
) -> None:
    made = seal.key()
    path = own_key / "errorbook" / seal.KEY_FILE
    assert path.read_bytes() == made and len(made) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == [seal.KEY_FILE]  # nothing left over


def test_a_relative_xdg_cache_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert seal.key_path() == str(tmp_path / ".cache" / "errorbook" / seal.KEY_FILE)


def _keys_of(count: int, env: dict[str, str]) -> set[str]:
    """The key each of ``count`` processes, started at once, reads or makes."""
    code = "from generator.pipeline import seal; print(seal.key().hex())"
    started = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            env={**env, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    return {process.communicate(timeout=60)[0].strip() for process in started}


def test_processes_that_start_at_once_share_one_key(own_key: Path) -> None:
    keys = _keys_of(6, dict(os.environ))
    assert len(keys) == 1
    assert keys == {(own_key / "errorbook" / seal.KEY_FILE).read_bytes().hex()}


def test_a_key_file_that_is_not_a_key_is_replaced(own_key: Path) -> None:
    path = own_key / "errorbook" / seal.KEY_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"short")
    made = seal.key()
    assert len(made) == 32 and path.read_bytes() == made


def test_without_a_cache_folder_each_process_has_a_key_of_its_own(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    keys = _keys_of(2, {**os.environ, "XDG_CACHE_HOME": str(blocked)})
    assert len(keys) == 2 and all(len(k) == 64 for k in keys)


def _stamp_of(root: Path) -> dict[str, Any]:
    """The stamp's data, sealed or not (the planted one below is what a commit can hold)."""
    raw = (root / stamp.STAMP).read_bytes()
    data: dict[str, Any] = json.loads(seal.unseal(raw) or raw)
    return data


def _a_public_page(root: Path) -> Path:
    return root / "demo_errors" / "codes.json"


@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_planted_stamp_does_not_vouch_for_files_someone_else_changed(
    tmp_path: Path, own_key: Path, command: str
) -> None:
    """A commit that changes a generated file and adds a stamp naming the new bytes: every
    entry but the hashes is what anyone can write (an mtime of -1 makes errorbook hash the
    file, and the libraries' stats are a public image's). Taken as errorbook's, it made
    ``check`` pass and ``generate`` answer that nothing changed."""
    root = make_project(tmp_path / "project")
    assert errorbook_process(root, "generate").returncode == 0
    # A second run checks the PO files the first one made, and records what check reports.
    assert errorbook_process(root, "generate", "--force").returncode == 0
    assert _stamp_of(root)["check"] is not None
    data = _stamp_of(root)
    page = _a_public_page(root)
    page.write_text(page.read_text("utf-8").replace("closed", "Injected text"), "utf-8")
    changed = page.read_bytes()
    for group in ("inputs", "outputs"):
        for entry in data[group].values():
            entry[1] = -1
    name = page.relative_to(root).as_posix()
    data["outputs"][name] = [len(changed), -1, hashlib.sha256(changed).hexdigest()]
    (root / stamp.STAMP).write_text(json.dumps(data), "utf-8")
    result = errorbook_process(root, command)
    if command == "check":
        assert result.returncode == 1, result.stdout
        assert name in result.stdout + result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert "no input changed" not in result.stdout
        assert b"Injected text." not in page.read_bytes()


def test_a_key_file_others_can_read_is_not_trusted_and_replaced(own_key: Path) -> None:
    """Another user who could read the key could seal caches of their own."""
    path = own_key / "errorbook" / seal.KEY_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"k" * 32)
    path.chmod(0o644)
    assert seal.known_key() is None
    made = seal.key()
    assert made != b"k" * 32 and path.read_bytes() == made
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_empty_home_names_no_key_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", "")
    assert seal.key_path() is None


def test_a_run_that_cannot_keep_a_key_says_so_once(tmp_path: Path) -> None:
    """Without a key, every run does the whole work; the one line says why, and how to
    give errorbook a folder for it."""
    root = make_project(tmp_path / "project")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    env = {**os.environ, "XDG_CACHE_HOME": str(blocked), "PYTHONPATH": str(ROOT)}
    env.pop("ERRORBOOK_NO_CACHE_KEY_NOTED", None)
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-m", "generator", "generate"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("cannot keep a cache key") == 1, result.stderr
        assert "set XDG_CACHE_HOME" in result.stderr
        assert "no input changed" not in result.stdout


def test_a_key_a_commit_could_supply_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI job that keeps XDG_CACHE_HOME in its checkout, under umask 077: a committed key
    arrives as the user's own file, mode 0600, and a stamp sealed with it was trusted."""
    root = make_project(tmp_path / "project")
    (root / ".git").mkdir()  # a git work tree, as far as errorbook looks
    cache_home = root / ".cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(ROOT)}
    env.pop("ERRORBOOK_NO_CACHE_KEY_NOTED", None)

    def errorbook(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "generator", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    # The stamp a run would leave, as the attacker can make it: the victim's own, here.
    own = tmp_path / "own-cache"
    env["XDG_CACHE_HOME"] = str(own)
    assert errorbook("generate").returncode == 0
    assert errorbook("generate", "--force").returncode == 0
    monkeypatch.setattr(seal, "_key", (own / "errorbook" / seal.KEY_FILE).read_bytes())
    data = json.loads(seal.unseal((root / stamp.STAMP).read_bytes()) or b"null")
    env["XDG_CACHE_HOME"] = str(cache_home)
    known = b"\0" * 32  # the key the commit holds
    key_file = cache_home / "errorbook" / seal.KEY_FILE
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_bytes(known)
    key_file.chmod(0o600)
    monkeypatch.setattr(seal, "_key", known)
    page = _a_public_page(root)
    page.write_text(page.read_text("utf-8").replace("closed", "Injected text"), "utf-8")
    changed = page.read_bytes()
    data["outputs"][page.relative_to(root).as_posix()] = [
        len(changed),
        -1,
        hashlib.sha256(changed).hexdigest(),
    ]
    (root / stamp.STAMP).write_bytes(seal.seal(json.dumps(data).encode("utf-8")))
    checked = errorbook("check")
    assert checked.returncode == 1, checked.stdout
    generated = errorbook("generate")
    assert b"Injected text" not in page.read_bytes(), generated.stdout
    assert generated.stderr.count("inside this git checkout") == 1, generated.stderr
    assert key_file.read_bytes() == known  # never replaced: errorbook keeps no key there
