"""``check`` on the tree ``generate`` left answers from the stamp, and says exactly what the
full comparison says, on that tree and on every tree changed since (issue 21)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.names import SHIPPED_TEMPLATES
from generator.pipeline import build, cache, stamp

from ..conftest import (
    GERMAN,
    POLISH,
    REGISTRY,
    Result,
    Run,
    cache_of,
    errorbook_process,
    make_project,
    po,
    translate,
)

PYPROJECT = """\
[tool.errorbook]
registry = "codes.yaml"
site = "site"
typescript-out = "ts"
templates = "tpl"
"""
RENAMED = REGISTRY.replace("DOOR_CLOSED", "DOOR_SHUT")


def project_at(root: Path) -> Path:
    """The test registry in two languages, translated, with every kind of output (the
    package, catalogs, a site with a hand-written page, TypeScript) and a template of the
    project's own."""
    make_project(root, REGISTRY)
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (root / "site" / "pages").mkdir(parents=True)
    (root / "site" / "pages" / "guide.md").write_text("# Guide\n\nRead me.\n", "utf-8")
    (root / "tpl" / "json").mkdir(parents=True)
    shipped = SHIPPED_TEMPLATES / "json" / "document.json.j2"
    shutil.copy(shipped, root / "tpl" / "json" / "document.json.j2")
    return root


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The project after ``generate`` (where it ran: the stamp names the place), and a copy."""
    folder = tmp_path_factory.mktemp("check")
    root = project_at(folder / "p")
    assert errorbook_process(root, "generate").returncode == 0
    translate(po(root, "de"), GERMAN)
    translate(po(root, "pl"), POLISH)
    result = errorbook_process(root, "generate")
    assert result.returncode == 0, result.stderr
    shutil.copytree(root, folder / "saved", symlinks=True)
    shutil.copytree(cache_of(root), folder / "saved-cache")
    return root, folder / "saved"


@pytest.fixture
def generated(saved: tuple[Path, Path]) -> Path:
    """The tree ``generate`` left, as it left it, and its caches: what ``check`` answers
    for from the stamp."""
    root, copy = saved
    shutil.rmtree(root)
    shutil.copytree(copy, root, symlinks=True)
    caches = cache_of(root)
    shutil.rmtree(caches)
    shutil.copytree(copy.parent / "saved-cache", caches)
    return root


class Checks:
    """``check`` run twice on one tree: by the stamp (which falls back to the comparison
    when it cannot prove the tree) and by the full comparison alone; and whether the first
    one built the outputs."""

    def __init__(self, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
        self.run = run
        self.monkeypatch = monkeypatch
        self.builds = 0
        real = build.run

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.builds += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(build, "run", counting)

    def both(self, root: Path, *args: str) -> tuple[Result, Result, bool]:
        """The answer by the stamp, the full comparison's, and whether the first built."""
        self.builds = 0
        fast = self.run("check", *args, cwd=root)
        built = self.builds > 0
        with self.monkeypatch.context() as patch:
            patch.setattr(stamp, "proven", lambda config: None)
            full = self.run("check", *args, cwd=root)
        return fast, full, built

    def same(self, root: Path, *args: str) -> tuple[Result, bool]:
        """Both answers, which must be the same; the answer, and whether it built."""
        fast, full, built = self.both(root, *args)
        assert (fast.code, fast.out, fast.err) == (full.code, full.out, full.err)
        assert "Traceback" not in fast.err and "internal error" not in fast.err
        return fast, built


@pytest.fixture
def checks(run: Run, monkeypatch: pytest.MonkeyPatch) -> Checks:
    return Checks(run, monkeypatch)


def caches(root: Path) -> dict[str, bytes]:
    folder = cache_of(root)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_check_after_generate_answers_from_the_stamp(checks: Checks, generated: Path) -> None:
    before = caches(generated)
    result, built = checks.same(generated)
    assert result.code == 0
    assert result.out.endswith(" generated files are up to date with codes.yaml\n")
    assert not built  # nothing was rendered, merged or compared
    assert caches(generated) == before  # check writes nothing, the stamp included


@pytest.mark.parametrize("args", [("--format", "json"), ("--against", "old.yaml")])
def test_the_stamp_answers_the_options_as_the_comparison_does(
    checks: Checks, generated: Path, args: tuple[str, ...]
) -> None:
    (generated / "old.yaml").write_text(REGISTRY.replace("version: 1.2.0", "version: 1.1.0"))
    result, built = checks.same(generated, *args)
    assert not built
    if args[0] == "--against":
        assert result.code == 1 and "version" in result.err
    else:
        assert json.loads(result.out)["ok"] is True


def _same_size_same_mtime(path: Path) -> None:
    """Change one byte of ``path`` (a letter's case), then give it back its mtime."""
    info = path.stat()
    data = bytearray(path.read_bytes())
    index = next(i for i in range(len(data) - 1, 0, -1) if chr(data[i]).isalpha())
    data[index] ^= 0x20
    path.write_bytes(bytes(data))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns


def _translation_of_same_size(root: Path) -> None:
    path = po(root, "de")
    info = path.stat()
    text = path.read_text("utf-8")
    path.write_text(text.replace("Die Tür ist zu.", "Die Tür ist ab."), "utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _link_to_a_copy(path: Path) -> None:
    copy = path.parent.parent / f"copy-of-{path.name}"
    shutil.copy2(path, copy)
    path.unlink()
    path.symlink_to(copy)


def _append(path: Path, text: str) -> None:
    path.write_bytes(path.read_bytes() + text.encode("utf-8"))


CHANGES: dict[str, Callable[[Path], object]] = {
    "edited_output_same_size_and_mtime": lambda r: _same_size_same_mtime(
        r / "demo_errors" / "codes.py"
    ),
    "edited_page_same_size_and_mtime": lambda r: _same_size_same_mtime(
        r / "site" / "docs" / "en" / "index.md"
    ),
    "edited_mo_same_size_and_mtime": lambda r: _same_size_same_mtime(
        r / "demo_errors" / "locales" / "de" / "LC_MESSAGES" / "messages.mo"
    ),
    "edited_po_file_same_size_and_mtime": _translation_of_same_size,
    "edited_po_file": lambda r: _append(po(r, "pl"), "\n# a translator's note\n"),
    "new_po_file": lambda r: shutil.copytree(r / "locales" / "de", r / "locales" / "xx"),
    "removed_po_file": lambda r: po(r, "pl", "docs").unlink(),
    "stray_file_in_an_output_folder": lambda r: (r / "demo_errors" / "stray.py").write_text(
        "# generated by errorbook from codes.yaml, do not edit\n", "utf-8"
    ),
    "stray_page": lambda r: (r / "site" / "docs" / "en" / "stray.md").write_text("# Stray\n"),
    "removed_output": lambda r: (r / "demo_errors" / "wire.py").unlink(),
    "output_became_a_link": lambda r: _link_to_a_copy(r / "demo_errors" / "codes.py"),
    "po_file_became_a_link": lambda r: _link_to_a_copy(po(r, "de")),
    "manifest_line_added": lambda r: _append(r / ".errorbook-files", "demo_errors/old.py\n"),
    "registry_comment": lambda r: _append(r / "codes.yaml", "\n# a comment\n"),
    "registry_renamed_a_code": lambda r: (r / "codes.yaml").write_text(RENAMED, "utf-8"),
    "registry_broken": lambda r: _append(r / "codes.yaml", "\n  - [\n"),
    "pyproject_comment": lambda r: _append(r / "pyproject.toml", "\n# a comment\n"),
    "pyproject_python_out": lambda r: _append(r / "pyproject.toml", 'python-out = "src"\n'),
    "edited_template": lambda r: _append(r / "tpl" / "json" / "document.json.j2", "\n"),
    "new_template": lambda r: (r / "tpl" / "python" / "codes.py.j2").parent.mkdir(),
    "edited_page_source": lambda r: _append(r / "site" / "pages" / "guide.md", "More.\n"),
    "new_page_source": lambda r: (r / "site" / "pages" / "faq.md").write_text("# FAQ\n"),
    "caches_deleted": lambda r: shutil.rmtree(cache_of(r)),
    "stamp_deleted": lambda r: (cache_of(r) / stamp.STAMP).unlink(),
    "catalog_cache_deleted": lambda r: (cache_of(r) / cache.CATALOGS).unlink(),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_after_any_change_the_answer_is_the_comparisons(
    checks: Checks, generated: Path, change: str
) -> None:
    CHANGES[change](generated)
    _, built = checks.same(generated)
    if change in ("catalog_cache_deleted",):
        assert not built  # the stamp alone proves the tree


def _folder_for(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _damage(path: Path, edit: Callable[[dict[str, Any]], object]) -> None:
    """The stamp edited as valid JSON: the damage is in what it says."""
    data = json.loads(path.read_bytes())
    edit(data)
    path.write_bytes(json.dumps(data).encode("utf-8"))


STAMPS: dict[str, Callable[[Path], object]] = {
    "not_json": lambda p: p.write_bytes(b"{not json"),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:100]),
    "a_list": lambda p: p.write_bytes(b"[]"),
    "a_folder": lambda p: _folder_for(p),
    "no_findings": lambda p: _damage(p, lambda d: d.pop("check")),
    "findings_of_another_kind": lambda p: _damage(p, lambda d: d.update(check=5)),
    "problems_of_another_kind": lambda p: _damage(
        p, lambda d: d["check"].update(problems=[{"id": 1}])
    ),
    "outputs_a_list": lambda p: _damage(p, lambda d: d.update(outputs=[])),
    "entry_of_another_kind": lambda p: _damage(
        p, lambda d: d["outputs"].update({k: "x" for k in d["outputs"]})
    ),
    "an_output_forgotten": lambda p: _damage(p, lambda d: d["outputs"].popitem()),
    "another_version": lambda p: _damage(p, lambda d: d.update(errorbook="0.0.1")),
    "another_babel": lambda p: _damage(p, lambda d: d["libraries"]["babel"].__setitem__(1, 1)),
    "another_python": lambda p: _damage(
        p, lambda d: d["libraries"].update(python=str(d["libraries"]["python"]) + "+")
    ),
}


@pytest.mark.parametrize("damage", sorted(STAMPS))
def test_a_damaged_stamp_is_only_a_missed_shortcut(
    checks: Checks, generated: Path, damage: str
) -> None:
    STAMPS[damage](cache_of(generated) / stamp.STAMP)
    result, built = checks.same(generated)
    assert result.code == 0
    assert built


def test_the_problems_of_the_catalogs_are_reported_from_the_stamp(
    run: Run, checks: Checks, generated: Path
) -> None:
    """A translation the checks refuse: generate warns and goes on, check fails, and says
    why at the lines of the file as generate left it (which it rewrote, moving entries)."""
    de = po(generated, "de")
    text = de.read_text("utf-8")
    de.write_text(text.replace("{who} abgelehnt", "{wer} abgelehnt"), "utf-8")
    registry = generated / "codes.yaml"
    registry.write_text(
        REGISTRY.replace("The door is closed.", "The door is shut."), "utf-8"
    )  # the merge marks the entry above fuzzy, and moves the one with the problem
    warned = run("generate", cwd=generated)
    assert warned.code == 0 and "{wer}" in warned.err
    assert "updated  locales/de/LC_MESSAGES/messages.po" in warned.out
    for args in ((), ("--format", "json")):
        result, built = checks.same(generated, *args)
        assert result.code == 1
        assert "{wer}" in (result.err + result.out)
        assert not built


def test_after_a_run_that_made_a_po_file_check_compares(
    run: Run, checks: Checks, tmp_path: Path
) -> None:
    """A PO file the run created was never checked as a file on disk: the stamp holds no
    report, and check does the whole comparison."""
    root = project_at(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    assert json.loads((cache_of(root) / stamp.STAMP).read_bytes())["check"] is None
    result, built = checks.same(root)
    assert result.code == 0 and built


def test_the_stamps_real_paths_are_os_realpaths(tmp_path: Path) -> None:
    """The stamp finds each folder's real path once (stamp._RealPaths): every path it is
    given must come out as os.path.realpath gives it, through links to files and folders,
    '..', missing files and relative paths."""
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "sub" / "file.po").write_text("x", "utf-8")
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)
    (real / "sub" / "alias.po").symlink_to(real / "sub" / "file.po")
    (real / "sub" / "up").symlink_to("..", target_is_directory=True)
    (real / "sub" / "loop").symlink_to("loop")
    paths = [
        str(tmp_path / "linked" / "sub" / "file.po"),
        str(tmp_path / "linked" / "sub" / "alias.po"),
        str(tmp_path / "linked" / "sub" / "up" / "sub" / "file.po"),
        str(tmp_path / "real" / "sub" / ".." / "sub" / "file.po"),
        str(tmp_path / "real" / "sub" / "missing.po"),
        str(tmp_path / "missing" / "sub" / "file.po"),
        str(tmp_path / "real" / "sub" / "loop"),
        str(tmp_path / "real" / "sub" / "."),
        str(tmp_path / "real" / "sub" / ".."),
        str(tmp_path / "real" / "sub") + "/",
        "file.po",
        "linked/sub/alias.po",
        "/",
    ]
    realpath = stamp._RealPaths()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for path in paths + paths:  # the second time from the folders found
            assert realpath(path) == os.path.realpath(path), path
    finally:
        os.chdir(cwd)
