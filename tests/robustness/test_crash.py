"""Crash safety: killed, concurrent and failing runs leave every output old or new, never torn."""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.diagnostics import InvalidInput
from generator.pipeline import output
from generator.registry import validate
from generator.registry.source import MAX_BYTES

from ..conftest import MINIMAL, ROOT, Run, make_project

KILLS = int(os.environ.get("ERRORBOOK_KILLS", "50"))


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def generate(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "generate"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def versions(tmp_path: Path) -> tuple[Path, dict[str, bytes], dict[str, bytes], str]:
    """A project generated at version A, and what generating version B writes."""
    site = "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n"
    b_text = (
        MINIMAL.replace("The door is closed.", "The door is shut.")
        .replace("Nobody is let in.", "Nobody gets in.")
        .replace("DOOR_CLOSED", "DOOR_SHUT")
        .replace("locales: [de]", "locales: [de, pl]")  # a new MO file, which has no header
    )
    built = {}
    for name, text in (("a", MINIMAL), ("b", b_text)):
        root = make_project(tmp_path / name, text)
        (root / "pyproject.toml").write_text(site, "utf-8")
        (root / "site").mkdir()
        assert generate(root).wait() == 0
        built[name] = root
    return built["a"], snapshot(built["a"]), snapshot(built["b"]), b_text


def _between(data: bytes, old: bytes, new: bytes) -> bool:
    """Whether a manifest holds every line of ``old`` and otherwise only lines of ``new``:
    what a run leaves once it has listed the files it is about to make (see output.write)."""
    lines, before, after = (set(text.splitlines()) for text in (data, old, new))
    return data.endswith(b"\n") and before <= lines <= before | after


def test_killed_at_random_points_no_file_is_torn(tmp_path: Path) -> None:
    base, before, after, b_text = versions(tmp_path)
    rng = random.Random(20261130)
    start = time.perf_counter()
    assert generate(base).wait() == 0
    full = time.perf_counter() - start  # how long a no-op run takes here, for the kill window
    torn: list[str] = []
    for attempt in range(KILLS):
        work = tmp_path / f"kill-{attempt}"
        shutil.copytree(base, work)
        (work / "codes.yaml").write_text(b_text, "utf-8")
        process = generate(work)
        time.sleep(rng.uniform(0.0, max(full, 0.2) * 1.5))
        process.send_signal(signal.SIGKILL)
        process.wait()
        for name, data in snapshot(work).items():
            if name in ("codes.yaml", "pyproject.toml") or name.endswith((".tmp", ".staged")):
                continue
            if name == output.MANIFEST and _between(data, before[name], after[name]):
                continue  # whole: the old list with the new files it announced before making them
            if data != before.get(name) and data != after.get(name):
                torn.append(f"attempt {attempt}: {name}")
        # A rerun finishes the job: the tree is exactly version B, leftovers swept.
        assert generate(work).wait() == 0
        final = {k: v for k, v in snapshot(work).items() if k != "codes.yaml"}
        assert final == {k: v for k, v in after.items() if k != "codes.yaml"}, attempt
        shutil.rmtree(work)
    assert torn == []


def test_a_second_run_while_one_holds_the_lock_says_so(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    import fcntl

    held = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = run("generate", cwd=root)
    finally:
        os.close(held)
    assert result.code == 1
    assert "another errorbook is already running" in result.err
    assert not (root / "demo_errors").exists()
    assert run("generate", cwd=root).code == 0  # the lock went with its holder


def test_two_runs_at_once_end_consistent(tmp_path: Path) -> None:
    base, _, after, b_text = versions(tmp_path)
    (base / "codes.yaml").write_text(b_text, "utf-8")
    first, second = generate(base), generate(base)
    codes = {first.wait(), second.wait()}
    assert 0 in codes and codes <= {0, 1}
    assert generate(base).wait() == 0
    assert {k: v for k, v in snapshot(base).items() if k != "codes.yaml"} == {
        k: v for k, v in after.items() if k != "codes.yaml"
    }


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_full_or_read_only_disk_leaves_what_was_there(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: int
) -> None:
    root = make_project(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    before = snapshot(root)
    (root / "codes.yaml").write_text(MINIMAL.replace("The door is closed.", "Shut."), "utf-8")
    real = output._replace
    calls = {"n": 0}

    def failing(path: Path, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] >= 2:
            raise OSError(error, os.strerror(error))
        real(path, data)

    monkeypatch.setattr(output, "_replace", failing)
    result = run("generate", cwd=root)
    assert result.code == 1 and "Traceback" not in result.err
    assert "cannot write: " + os.strerror(error) in result.err
    assert "run `errorbook generate` again" in result.err
    now = snapshot(root)
    changed = [name for name in now if now[name] != before.get(name) and name != "codes.yaml"]
    assert len(changed) == 1  # the one file written before the failure, complete
    assert not list(root.rglob(".*.tmp"))


def test_leftover_temporary_files_are_swept(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    leftover = root / "demo_errors" / ".codes.py.errorbook-abc123.tmp"  # as _replace names it
    leftover.write_bytes(b"half")
    assert run("generate", "--force", cwd=root).code == 0
    assert not leftover.exists()


def test_a_huge_registry_is_refused_quickly(tmp_path: Path) -> None:
    huge = tmp_path / "codes.yaml"
    with huge.open("wb") as stream:
        stream.write(b"registry:\n  description: '" + b"x" * (100 * 1024 * 1024) + b"'\n")
    start = time.perf_counter()
    with pytest.raises(InvalidInput) as info:
        validate.load_registry(huge, "codes.yaml")
    assert time.perf_counter() - start < 30  # a hang guard, not a benchmark
    assert f"larger than {MAX_BYTES // (1024 * 1024)} MiB" in info.value.diagnostics.render()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("The door is closed.", "x" * 2001), "more than the 2,000 a UI message may have"),
        (("Nobody is let in.", "y" * 20001), "more than the 20,000 allowed"),
    ],
)
def test_documented_maximums(edit: tuple[str, str], message: str) -> None:
    with pytest.raises(InvalidInput) as info:
        validate.load_registry_text(MINIMAL.replace(*edit), "r.yaml")
    assert message in info.value.diagnostics.render()


def test_too_many_locales_and_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.registry.validate import meta

    monkeypatch.setattr(meta, "MAX_LOCALES", 0)  # read where the rule is, not the package
    monkeypatch.setattr(validate, "MAX_CODES", 1)
    with pytest.raises(InvalidInput) as info:
        validate.load_registry_text(MINIMAL, "r.yaml")
    assert (
        "the registry has 2 codes, more than the 1 errorbook handles"
        in info.value.diagnostics.render()
    )
    assert "1 target locales are more than the 0 allowed" in info.value.diagnostics.render()


def _stopped_at(
    root: Path, monkeypatch: pytest.MonkeyPatch, run: Run, point: int
) -> tuple[int, int]:
    """Generate in ``root`` with the ``point``-th write failing (a full disk there), as a
    run stopped at that point leaves the project; how many writes were tried, and the exit."""
    real = output._replace
    calls = {"n": 0}

    def failing(path: Path, data: bytes) -> None:
        if os.environ["XDG_CACHE_HOME"] not in str(path):  # a cache not written costs time
            calls["n"] += 1
            if calls["n"] == point:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(output, "_replace", failing)
    try:
        code = run("generate", cwd=root).code
    finally:
        monkeypatch.setattr(output, "_replace", real)
    return calls["n"], code


def test_a_new_locale_stopped_before_the_manifest_is_finished_by_a_rerun(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_project(tmp_path / "p", MINIMAL)
    assert run("generate", cwd=root).code == 0
    (root / "codes.yaml").write_text(MINIMAL.replace("locales: [de]", "locales: [de, pl]"))
    real = output._replace
    mo = root / "demo_errors" / "locales" / "pl" / "LC_MESSAGES" / "messages.mo"

    def no_manifest(path: Path, data: bytes) -> None:
        if path.name == output.MANIFEST and mo.exists():  # the MO file is in place
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(output, "_replace", no_manifest)
    assert run("generate", cwd=root).code == 1
    monkeypatch.setattr(output, "_replace", real)
    assert mo.exists()
    rerun = run("generate", cwd=root)
    assert rerun.code == 0, rerun.err
    assert run("check", cwd=root).code == 0


def test_a_run_stopped_at_any_write_is_finished_by_a_rerun(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every point a generate can stop at (each write in turn failing), for a change that
    adds a locale, renames a code and so removes its files: the rerun finishes the job."""
    site = "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n"
    b_text = MINIMAL.replace("locales: [de]", "locales: [de, pl]").replace(
        "DOOR_CLOSED", "DOOR_SHUT"
    )
    clean = make_project(tmp_path / "clean", b_text)
    (clean / "pyproject.toml").write_text(site, "utf-8")
    (clean / "site").mkdir()
    assert run("generate", cwd=clean).code == 0
    after = snapshot(clean)
    base = make_project(tmp_path / "base", MINIMAL)
    (base / "pyproject.toml").write_text(site, "utf-8")
    (base / "site").mkdir()
    assert run("generate", cwd=base).code == 0
    point, stuck = 1, []
    while True:
        work = tmp_path / f"stop-{point}"
        shutil.copytree(base, work)
        (work / "codes.yaml").write_text(b_text, "utf-8")
        tried, code = _stopped_at(work, monkeypatch, run, point)
        if tried < point:  # the run wrote everything: every point has been tried
            assert code == 0
            break
        assert code == 1
        rerun = run("generate", cwd=work)
        if rerun.code != 0 or run("check", cwd=work).code != 0:
            stuck.append(f"stopped at write {point}: {rerun.err.strip()}")
        elif snapshot(work) != after:
            stuck.append(f"stopped at write {point}: the rerun's tree differs")
        shutil.rmtree(work)
        point += 1
    assert point > 10  # the change writes files, so some points were tried
    assert stuck == []


#: A generate that kills itself (no handler runs, as with SIGKILL) at its ``POINT``-th
#: rename of an output, before or after it: the temporary file is then written but not in
#: place, or in place with nothing after it done.
_KILLED_AT = """
import os, sys
from generator.cli import main
point, after, real, calls = int(sys.argv[1]), sys.argv[2] == "after", os.replace, [0]
def replace(source, target):
    if os.environ["XDG_CACHE_HOME"] not in str(target):
        calls[0] += 1
        if calls[0] == point and not after:
            os._exit(9)
    real(source, target)
    if calls[0] == point and after:
        os._exit(9)
os.replace = replace
sys.exit(main(["generate"]))
"""


def test_killed_at_any_rename_a_rerun_finishes_the_job(tmp_path: Path) -> None:
    """A property over where a run dies: at every rename of a run that adds a locale and
    renames a code, before and after it, the next generate exits 0 and leaves exactly what
    a clean run leaves."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    base, _, after, b_text = versions(tmp_path)
    clean = {k: v for k, v in after.items() if k != "codes.yaml"}
    runs = iter(range(10**6))

    @settings(max_examples=12, deadline=None, derandomize=True, database=None)
    @given(point=st.integers(1, 40), when=st.sampled_from(["before", "after"]))
    def killed(point: int, when: str) -> None:
        work = tmp_path / f"killed-{next(runs)}"
        shutil.copytree(base, work)
        (work / "codes.yaml").write_text(b_text, "utf-8")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        died = subprocess.run(
            [sys.executable, "-c", _KILLED_AT, str(point), when],
            cwd=work, env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert died.returncode in (0, 9), died.stderr  # 0: fewer renames than the point
        rerun = subprocess.run(
            [sys.executable, "-m", "generator", "generate"],
            cwd=work, env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert rerun.returncode == 0, rerun.stderr
        now = {k: v for k, v in snapshot(work).items() if k != "codes.yaml"}
        assert now == clean
        shutil.rmtree(work)

    killed()
