"""The catalogs stream through the workers: each PO file is read by the worker that merges
it, a changed one is staged beside its target by that worker, and the writer renames it into
place. No process holds every catalog; nothing staged outlives the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator import config, inputs
from generator.catalogs import entries as entries_module
from generator.pipeline import build, catalogs, forks, output, stamp

from ..conftest import Run, cache_of
from .test_incremental import NO_OP, edit_translation, probe, settle

SHUT = ("The action {action} was not allowed.", "The action {action} was refused.")


def staged_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.staged"))


def reword(project: Path) -> None:
    registry = project / "codes.yaml"
    registry.write_text(registry.read_text("utf-8").replace(*SHUT), "utf-8")


def without_site(project: Path) -> Path:
    """The project without a site or a TypeScript module: the catalogs' merged forms are
    then needed by no emitter, as in a project that ships only the runtime."""
    pyproject = project / "pyproject.toml"
    kept, section = [], ""
    for line in pyproject.read_text("utf-8").splitlines(keepends=True):
        section = line.strip() if line.startswith("[") else section
        if section == "[tool.errorbook]" and line.startswith(("site =", "typescript-out =")):
            continue
        kept.append(line)
    pyproject.write_text("".join(kept), "utf-8")
    return project


def test_the_parent_holds_no_po_file(run: Run, project: Path) -> None:
    """What generate keeps in memory of a PO file is its hash: the worker read it, and one
    the run changes was staged by that worker and renamed into place by the writer."""
    run("generate", "--force", cwd=project)
    reword(project)
    settings = config.load(cwd=project)
    found = build.found_catalogs(settings, build.registry_for(settings))
    assert found and all(isinstance(source, inputs.Later) for source in found.values())
    statuses, catalog_run = build.regenerate(settings)
    po = {path: data for path, data in catalog_run.files.items() if path.endswith(".po")}
    assert po and not [path for path, data in po.items() if isinstance(data, bytes)]
    updated = {s.path for s in statuses if s.status == "updated"}
    assert "locales/de/LC_MESSAGES/messages.po" in updated
    assert staged_files(project) == []


def test_without_a_site_the_parent_holds_no_mo_file(run: Run, project: Path) -> None:
    """Where no emitter imports the package (the site does, MO files included), the parent
    holds no MO file either: the worker reads the one on disk only to compare, stages a new
    one beside it and passes one that stays by its hash. The files are those a run in
    memory makes, and the next run reads no MO file the stamp shows as settled."""
    without_site(project)
    run("generate", "--force", cwd=project)
    reword(project)
    settings = config.load(cwd=project)
    in_memory = build.outputs(settings, build.registry_for(settings))
    statuses, catalog_run = build.regenerate(settings)
    mo = {path: data for path, data in catalog_run.files.items() if path.endswith(".mo")}
    assert len(mo) == 6 and not [path for path, data in mo.items() if isinstance(data, bytes)]
    assert {s.path for s in statuses if s.path.endswith(".mo") and s.status == "updated"}
    for path, data in in_memory.items():
        assert (project / path).read_bytes() == data, path
    assert staged_files(project) == []
    assert run("check", cwd=project).code == 0
    settle(*project.rglob("*.po"), *project.rglob("*.mo"))
    assert run("generate", "--force", cwd=project).out.startswith("0 files changed")
    statuses, catalog_run = build.regenerate(settings)
    assert {s.status for s in statuses if s.path.endswith(".mo")} == {"unchanged"}


def test_staged_files_give_the_bytes_of_a_run_in_memory(run: Run, project: Path) -> None:
    run("generate", "--force", cwd=project)
    reword(project)
    settings = config.load(cwd=project)
    in_memory = build.outputs(settings, build.registry_for(settings))
    assert run("generate", cwd=project).code == 0
    for path, data in in_memory.items():
        assert (project / path).read_bytes() == data, path
    assert run("check", cwd=project).code == 0
    assert run("generate", cwd=project).out == NO_OP


def test_a_run_that_stops_after_staging_leaves_no_staged_file(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer refuses the run (here: a file another tool wrote where an output goes)
    after the workers staged the reworded catalogs: every PO file stays as it was, and no
    staged file is left beside it."""
    run("generate", "--force", cwd=project)
    reword(project)
    before = {p: p.read_bytes() for p in project.rglob("*.po")}
    (project / "surface_errors" / "wire.py").write_text("# mine\n", "utf-8")
    result = run("generate", cwd=project)
    assert result.code != 0
    assert "was not written by errorbook" in result.err
    assert {p: p.read_bytes() for p in project.rglob("*.po")} == before
    assert staged_files(project) == []


def test_a_po_file_that_does_not_parse_stops_the_run_before_anything_is_staged_for_good(
    run: Run, project: Path
) -> None:
    run("generate", "--force", cwd=project)
    reword(project)
    broken = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    broken.write_text(broken.read_text("utf-8") + '\nmsgid "unclosed\n', "utf-8")
    before = {p: p.read_bytes() for p in project.rglob("*.po")}
    result = run("generate", cwd=project)
    assert result.code == 1
    assert "locales/pl/LC_MESSAGES/messages.po:" in result.err
    assert {p: p.read_bytes() for p in project.rglob("*.po")} == before
    assert staged_files(project) == []


def test_a_staged_file_is_swept_only_once_its_run_has_ended(run: Run, project: Path) -> None:
    folder = project / "locales" / "de" / "LC_MESSAGES"
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(ended.stdout)
    left = folder / f".messages.po.errorbook-{dead}-abc123.staged"
    live = folder / f".messages.po.errorbook-{os.getppid()}-def456.staged"
    other = folder / ".messages.po.mytool-1-abc.staged"  # another tool's name: never touched
    for path in (left, live, other):
        path.write_bytes(b"half a catalog")
    assert run("generate", "--force", cwd=project).code == 0
    assert not left.exists()
    assert live.exists() and other.exists()


def test_a_po_file_replaced_by_another_tools_after_the_header_check_is_refused(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run checks each PO file's header where it starts and the worker checks the bytes
    it reads: a catalog another tool put there in between is not taken over."""
    run("generate", "--force", cwd=project)
    target = project / "locales" / "ja" / "LC_MESSAGES" / "messages.po"
    foreign = b'# My own catalog\nmsgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'
    real = inputs.Later.read

    def swapped(self: inputs.Later) -> tuple[bytes | None, inputs.Seen | None]:
        data, seen = real(self)
        return (foreign, None) if self.path == target else (data, seen)

    monkeypatch.setattr(inputs.Later, "read", swapped)
    (project / ".errorbook-files").write_text(
        "".join(
            line
            for line in (project / ".errorbook-files").read_text("utf-8").splitlines(True)
            if not line.startswith("locales/")
        ),
        "utf-8",
    )
    result = run("generate", "--force", cwd=project)
    assert result.code == 1
    assert "E-OUTPUT-FOREIGN-CATALOG" in result.err or "was not written by errorbook" in result.err
    assert "locales/ja/LC_MESSAGES/messages.po" in result.err


def test_after_one_edit_only_that_po_file_is_read(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a project whose emitters need no merged catalog, a PO file the stamp shows as the
    last run left it, and which that run wrote from the same template, is not read at all;
    one touched since (a new mtime) is read as before."""
    without_site(project)
    run("generate", "--force", cwd=project)
    run("generate", "--force", cwd=project)
    settle(*project.rglob("*.po"), *project.rglob("*.mo"))
    assert run("generate", "--force", cwd=project).code == 0  # a stamp with settled stats
    read: list[str] = []
    real = inputs.Later.read

    def reading(self: inputs.Later) -> tuple[bytes | None, inputs.Seen | None]:
        read.append(self.path.relative_to(project).as_posix())
        return real(self)

    monkeypatch.setattr(inputs.Later, "read", reading)
    edited = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    edit_translation(edited)
    touched = project / "locales" / "ja" / "LC_MESSAGES" / "docs.po"
    os.utime(touched)
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert sorted(read) == [
        "locales/de/LC_MESSAGES/messages.po",
        "locales/ja/LC_MESSAGES/docs.po",
    ]
    monkeypatch.setattr(inputs.Later, "read", real)
    assert run("check", cwd=project).code == 0
    assert run("generate", cwd=project).out == NO_OP
    assert run("generate", "--force", cwd=project).out.startswith("0 files changed")


def test_a_po_file_saved_after_it_was_passed_over_is_merged_by_the_next_run(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save just after a worker decided a file need not be read is a save after the run:
    the run leaves the file as the translator saved it, and the next run merges it."""
    without_site(project)
    run("generate", "--force", cwd=project)
    run("generate", "--force", cwd=project)
    settle(*project.rglob("*.po"), *project.rglob("*.mo"))
    assert run("generate", "--force", cwd=project).code == 0
    target = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    real = catalogs._unread
    saved: list[bool] = []

    def unread_then_save(job: catalogs.Job, source: inputs.Later, *args: object) -> bool:
        answer = real(job, source, *args)  # type: ignore[arg-type]
        if answer and source.path == target and not saved:
            edit_translation(target)
            saved.append(True)
        return answer

    monkeypatch.setattr(catalogs, "_unread", unread_then_save)
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    assert run("generate", cwd=project).code == 0
    assert saved
    assert "Geändert: " in target.read_text("utf-8")
    monkeypatch.setattr(catalogs, "_unread", real)
    assert run("check", cwd=project).code == 1  # the MO file is older than the edit
    assert run("generate", cwd=project).code == 0
    assert run("check", cwd=project).code == 0
    assert "Geändert: " in target.read_text("utf-8")


def test_stage_writes_a_complete_file_beside_its_target(tmp_path: Path) -> None:
    (tmp_path / "locales").mkdir()
    stored = output.stage(tmp_path, "locales/x.po", b"content\n", owner=os.getpid())
    assert stored.staged is not None
    staged = Path(stored.staged)
    assert staged.parent == tmp_path / "locales"
    assert staged.read_bytes() == b"content\n"
    assert stored.size == 8 and len(stored.sha256) == 64
    output.discard({"locales/x.po": stored})
    assert not staged.exists()


def test_a_po_file_that_cannot_be_staged_is_written_from_memory(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that cannot stage a file (a full disk, say) hands its bytes to the writer,
    as before staging existed: the run gives the same files."""
    run("generate", "--force", cwd=project)
    reword(project)
    settings = config.load(cwd=project)
    expected = build.outputs(settings, build.registry_for(settings))

    def full(*args: object, **kwargs: object) -> output.Stored:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output, "stage", full)
    assert run("generate", cwd=project).code == 0
    assert staged_files(project) == []
    for path, data in expected.items():
        assert (project / path).read_bytes() == data, path


def forked_and_settled(run: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The project without a site, its locales merged in forked workers however small its
    catalogs, and a stamp that shows every PO and MO file settled (as the last run left it)."""
    if not forks.available():
        pytest.skip("needs the fork start method")
    without_site(project)
    monkeypatch.setattr(catalogs, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setenv("ERRORBOOK_JOBS", "2")
    run("generate", "--force", cwd=project)
    run("generate", "--force", cwd=project)
    settle(*project.rglob("*.po"), *project.rglob("*.mo"))
    assert run("generate", "--force", cwd=project).code == 0  # a stamp with settled stats


def test_only_a_locale_with_a_file_to_read_gets_a_process_of_its_own(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each locale's catalogs are made in a process forked for it; a locale whose files the
    stamp shows as the last run left them is settled in the parent, with no fork."""
    forked_and_settled(run, project, monkeypatch)
    forked: list[list[str]] = []
    real = forks.map_forked

    def recording(task: Any, items: Any, count: int) -> Any:
        if getattr(task, "func", None) is catalogs._task:  # a locale, a POT file, the package
            forked.append([name for kind, name in items if kind == catalogs.LOCALE])
        return real(task, items, count)

    monkeypatch.setattr(forks, "map_forked", recording)
    edit_translation(project / "locales" / "ja" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert forked == [["ja"]]
    assert "locales/ja/LC_MESSAGES/messages.mo\n" in result.out  # compiled anew
    forked.clear()
    assert run("generate", cwd=project).out == NO_OP  # nothing to look at: no process
    assert forked == []
    assert run("generate", "--force", cwd=project).out.startswith("0 files changed")
    settings = config.load(cwd=project)  # --force trusts no stamp: every locale is read
    locales = list(build.registry_for(settings).meta.locales)

    def size(locale: str) -> int:
        return sum(p.stat().st_size for p in (project / "locales" / locale).rglob("*.po"))

    # Every locale, the largest first (a tie in the registry's order).
    assert forked == [sorted(locales, key=lambda locale: -size(locale))]
    assert len({size(locale) for locale in locales}) > 1
    assert run("check", cwd=project).code == 0


def test_the_parent_makes_only_the_entries_a_worker_will_merge(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entries of a domain are made in the parent, once for every worker it forks, only
    where some locale's file of that domain is to be merged: after an edit to one
    messages.po, the docs entries are not made at all."""
    forked_and_settled(run, project, monkeypatch)
    made: list[str] = []
    real = entries_module._entries

    def recording(registry: Any, domain: str) -> Any:
        made.append(domain)
        return real(registry, domain)

    monkeypatch.setattr(entries_module, "_entries", recording)
    before = (project / "locales" / "ja" / "LC_MESSAGES" / "docs.po").read_bytes()
    edit_translation(project / "locales" / "ja" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert made == ["messages"]
    assert "locales/ja/LC_MESSAGES/messages.mo\n" in result.out  # compiled anew
    assert (project / "locales" / "ja" / "LC_MESSAGES" / "docs.po").read_bytes() == before
    made.clear()
    assert run("generate", "--force", cwd=project).out.startswith("0 files changed")
    assert made == ["messages", "docs"]  # every file is read: both domains, once each
    assert run("check", cwd=project).code == 0


def test_forked_workers_write_their_verdict_records_themselves(
    run: Run, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forked worker writes its PO file's verdict record to the cache itself instead of
    sending it back to the parent: the records are those a run in one process writes."""
    if not forks.available():
        pytest.skip("needs the fork start method")
    monkeypatch.setenv("ERRORBOOK_JOBS", "1")
    alone = tmp_path / "alone"
    subprocess.run(["cp", "-a", str(project), str(alone)], check=True)
    assert run("generate", "--force", cwd=alone).code == 0
    monkeypatch.setattr(catalogs, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setenv("ERRORBOOK_JOBS", "2")
    settings = config.load(cwd=project)
    registry = build.registry_for(settings)
    parts: list[catalogs.CatalogRun] = []
    real = catalogs._locale

    def kept(locale: str) -> catalogs.CatalogRun:
        part = real(locale)
        parts.append(part)
        return part

    monkeypatch.setattr(catalogs, "_locale", kept)
    _, catalog_run = build.regenerate(settings, use_cache=False)
    assert catalog_run.cache.verdicts == {}  # nothing came back from the workers
    assert len(parts) == 0  # each ran in its own process: nothing was recorded here

    def records(root: Path) -> dict[str, bytes]:
        folder = cache_of(root) / "verdicts"
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}

    made = records(project)
    # One per messages.po: the docs catalogs' prose is never sealed (see checks.verdict).
    assert len(made) == len(registry.meta.locales)
    assert made == records(alone)


def test_after_one_edit_the_outputs_made_from_the_registry_are_not_read(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Python package, its JSON data and the POT files that the stamp shows as the last
    run left them are taken by their recorded hash after a translator's edit: neither read
    to be reused, nor read to be compared, nor hashed for the stamp. Nor are the emitters
    and Jinja2 imported. One edited since (a new mtime) is read, and put back."""
    without_site(project)
    run("generate", "--force", cwd=project)
    settle(*(p for p in project.rglob("*") if p.is_file()))
    assert run("generate", "--force", cwd=project).code == 0  # a stamp with settled stats
    package = project / "surface_errors"
    derived = sorted(
        p.relative_to(project).as_posix()
        for p in [*package.rglob("*.py"), *package.rglob("*.json"), *project.rglob("*.pot")]
    )
    assert "surface_errors/_records.py" in derived and "locales/messages.pot" in derived
    read: list[str] = []  # by errorbook's reader, or by the stamp to hash
    real_read, real_entry = inputs.read, stamp._entry_of

    def reading(path: Path, *args: Any, **kwargs: Any) -> bytes | None:
        read.append(os.path.relpath(path, project).replace(os.sep, "/"))
        return real_read(path, *args, **kwargs)

    def entry_of(path: str, used: output.Output, known: str | None = None) -> stamp.Entry:
        if isinstance(used, bytes):
            read.append(os.path.relpath(path, project).replace(os.sep, "/"))
        return real_entry(path, used, known)

    monkeypatch.setattr(inputs, "read", reading)
    monkeypatch.setattr(stamp, "_entry_of", entry_of)
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert [name for name in read if name in derived] == []
    code, out = probe(project, "generate", "--force")
    assert code == 0 and "jinja2" in out  # a forced run renders: the probe sees Jinja2
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    code, out = probe(project, "generate")
    assert code == 0, out
    assert "jinja2" not in out.split("loaded:")[-1]
    # An output changed since the last run is read, compared and put back.
    records = package / "_records.py"
    good = records.read_bytes()
    records.write_bytes(good + b"# edited by hand\n")
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    read.clear()
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert "surface_errors/_records.py" in read
    assert records.read_bytes() == good
    assert run("check", cwd=project).code == 0


def test_the_package_is_made_beside_the_catalogs_workers(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where the locales are merged in forked processes, the outputs made from the registry
    alone (the Python package, its JSON data) are made in processes of their own beside
    them, not by the parent once they are done; the files are the same as those a single
    process makes."""
    if not forks.available():
        pytest.skip("needs the fork start method")
    without_site(project)
    assert run("generate", "--force", cwd=project).code == 0
    package = project / "surface_errors"
    single = {p: p.read_bytes() for p in sorted(package.rglob("*")) if p.is_file()}
    for path in single:
        if path.suffix in (".py", ".json"):
            path.unlink()
    monkeypatch.setattr(catalogs, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setenv("ERRORBOOK_JOBS", "2")
    where = tmp_path / "where"
    makers = dict(build.REGISTRY_ALONE)

    def recording(producer: str) -> Any:
        def made(*args: Any) -> Any:
            with where.open("a") as out:
                out.write(f"{producer} {os.getpid()}\n")
            return makers[producer](*args)

        return made

    for producer in makers:
        monkeypatch.setitem(build.REGISTRY_ALONE, producer, recording(producer))
    result = run("generate", "--force", cwd=project)
    assert result.code == 0, result.err
    lines = where.read_text().split()
    assert sorted(lines[0::2]) == ["json", "python"]
    pids = {int(pid) for pid in lines[1::2]}
    assert len(pids) == 2 and os.getpid() not in pids  # a process each
    assert {p: p.read_bytes() for p in sorted(package.rglob("*")) if p.is_file()} == single


def test_missing_templates_are_made_in_the_pool_with_the_locales(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the locales are forked, a POT file to make is one more task of their pool, not
    a step before it (a catalog's key names its template by the registry's source); the
    files are those one process makes, and the next run keeps every catalog it wrote."""
    if not forks.available():
        pytest.skip("needs the fork start method")
    without_site(project)
    assert run("generate", "--force", cwd=project).code == 0
    pots = sorted(project.rglob("*.pot"))
    single = {p: p.read_bytes() for p in [*pots, *sorted(project.rglob("*.po"))]}
    for pot in pots:
        pot.unlink()
    monkeypatch.setattr(catalogs, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setenv("ERRORBOOK_JOBS", "2")
    kinds: list[list[str]] = []
    real = forks.map_forked

    def recording(task: Any, items: Any, count: int) -> Any:
        if getattr(task, "func", None) is catalogs._task:
            kinds.append([kind if kind != catalogs.TEMPLATE else name for kind, name in items])
        return real(task, items, count)

    monkeypatch.setattr(forks, "map_forked", recording)
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert kinds and kinds[0][-2:] == ["messages", "docs"]  # after the locales
    assert {p: p.read_bytes() for p in single} == single
    settle(*(p for p in project.rglob("*") if p.is_file()))
    assert run("generate", "--force", cwd=project).code == 0  # a stamp with settled stats
    kinds.clear()
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert kinds == [[catalogs.LOCALE]]  # the templates are kept: only de's worker
    assert run("check", cwd=project).code == 0
