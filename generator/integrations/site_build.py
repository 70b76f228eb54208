"""Build the reference site: one ``mkdocs build --strict`` per published language, side by side.

    errorbook site build                      # the configured site folder, into <site>/build
    errorbook site build --site path/to/site --out /tmp/site --jobs 1

Every published language has its own configuration, site/mkdocs.<lang>.yml (which inherits
site/mkdocs.base.yml), and is its own MkDocs build with its own search index, into
site/build/<lang>/; site/build/index.html then points to the source language. The builds are
independent processes, so they run at the same time (by default all of them, at most two per
CPU; ``--jobs`` sets how many). Each build's messages are shown when it ends, so languages do
not interleave.

Each language is built into a staging folder first, in memory where the system has a RAM-backed
folder with room for it (``/dev/shm`` on Linux; if it fills up anyway, the builds run again in
the temporary folder), else in the temporary folder; ``--staging`` chooses another. Only
when every build has passed is the output brought in line with the staged builds
(``mirror``): a file is rewritten only when its bytes differ, files and folders no build
produced are deleted, and unchanged files keep their modification times. So:

- a failed build leaves the previous site exactly as it was, never half-deleted (a failure
  while copying, such as a full disk, can leave it partly updated; the next build that
  passes puts it right);
- a rebuild after a small edit rewrites only the pages that changed (a deploy by rsync, or a
  web server's caches, see only those);
- MkDocs empties its output folder and creates every file and folder again on each build,
  which on some disks costs as much as rendering the pages; staged in memory it does not.

``--strict`` turns every MkDocs warning into a failure. The builds do not pass ``--quiet``:
in MkDocs 1.6 it drops warnings before ``--strict`` can count them. Informational lines are
left out of what is shown unless the build fails.

``--json FILE`` also writes what each build took (wall and CPU seconds, pages) and what the
mirror did, for bench/run.py, which times it as ``make site-build`` runs it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from . import memo

#: Set for MkDocs under `errorbook site serve` to the folder the command touches once a
#: regeneration has written every page: the plugin has MkDocs' server watch that folder
#: instead of the pages, so one regeneration makes one build however long its writes take.
SERVING = "ERRORBOOK_SERVING"

BASE = "mkdocs.base.yml"
WHO = "errorbook site build"  # how its messages start
RAM = Path("/dev/shm")  # Linux's RAM-backed folder; where it is missing, the temporary folder
STAGING_PREFIX = "errorbook-site-"
LOCK = ".lock"  # in each staging folder, flock-ed while its run lasts
#: In a folder an ``--out`` build made: the list of the files that build wrote, after
#: OUT_MARK_TEXT. The next build replaces them, and refuses the folder if it holds a file
#: the list does not name: a file of that name alone (``touch``) proves nothing.
OUT_MARK = ".errorbook-site"
OUT_MARK_TEXT = (
    "This folder holds a site errorbook built (errorbook site build --out); the next such\n"
    "build replaces each language's folder and index.html in it, and nothing else.\n"
    "The files it wrote, one a line:\n"
)
#: The members of the report --json writes: a file that has them is one to write again.
REPORT_KEYS = frozenset({"seconds", "jobs", "staging", "builds", "mirror"})

# Room a staged build needs, estimated from its Markdown: every HTML page carries the theme's
# navigation and header (about 25 KiB), the search index holds the text again, and the theme's
# assets come to a few MiB. Generous on purpose: falling back to the disk only costs time.
PAGE_ROOM = 64 * 1024
LANGUAGE_ROOM = 16 * 1024 * 1024


@dataclass
class Built:
    config: str
    lang: str
    seconds: float
    cpu: float  # user + system time of the build process
    code: int
    pages: int  # HTML pages written (every Markdown page, and the 404 page)
    output: str


@dataclass
class Mirrored:
    """What ``mirror`` did to one output folder."""

    written: int = 0  # files created or rewritten, because their bytes differed
    unchanged: int = 0  # files left alone: same bytes, same modification time
    removed: int = 0  # files and folders deleted, because no build produced them
    seconds: float = 0.0

    def add(self, other: Mirrored) -> None:
        self.written += other.written
        self.unchanged += other.unchanged
        self.removed += other.removed


def configs(site: Path) -> list[Path]:
    """Every language's configuration: site/mkdocs.<lang>.yml, but not the shared base."""
    return sorted(p for p in site.glob("mkdocs.*.yml") if p.name != BASE)


def room_needed(site: Path, languages: Iterable[str]) -> int:
    """Bytes the staged builds of ``languages`` may take, estimated from their Markdown."""
    need = 0
    for lang in languages:
        need += LANGUAGE_ROOM
        for page in (site / "docs" / lang).rglob("*.md"):
            need += PAGE_ROOM + 4 * page.stat().st_size
    return need


def staging_parent(site: Path, languages: Sequence[str]) -> Path:
    """Where to stage the builds: the RAM-backed folder when it exists, is writable and has
    room for them (a container's /dev/shm may be 64 MiB), else the temporary folder."""
    usable = RAM.is_dir() and os.access(RAM, os.W_OK)
    if usable and shutil.disk_usage(RAM).free > room_needed(site, languages):
        return RAM
    return Path(tempfile.gettempdir())


class Staging:
    """A new folder for one run's builds, inside ``parent``, locked (flock) while the run
    lasts, so that another run can tell it from one a killed build left behind."""

    def __init__(self, parent: Path) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=parent))
        # Locked under another name, then renamed (the lock goes with the file): a sweep that
        # finds LOCK always finds it locked while this run lasts.
        claiming = self.path / f"{LOCK}-{os.getpid()}"
        self._lock = open(claiming, "wb")  # noqa: SIM115  (held until close)
        fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX)
        os.rename(claiming, self.path / LOCK)

    def close(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        self._lock.close()


def sweep_staging(parent: Path, now: float | None = None) -> None:
    """Delete the staging folders in ``parent`` that builds killed before they could clean up
    left behind (in memory, under /dev/shm, until the machine restarts): those whose lock
    nobody holds. A folder without a lock file is left alone for an hour, in case its run is
    between creating it and locking it."""
    now = time.time() if now is None else now
    for entry in parent.glob(f"{STAGING_PREFIX}*"):
        if entry.is_symlink() or not entry.is_dir():
            continue
        try:
            handle = open(entry / LOCK, "rb")  # noqa: SIM115  (closed below)
        except FileNotFoundError:
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > 3600:
                    shutil.rmtree(entry, ignore_errors=True)
            continue
        except OSError:
            continue  # another user's: not ours to judge
        with handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # its run is still going
            shutil.rmtree(entry, ignore_errors=True)


def _write(destination: Path, data: bytes) -> None:
    """Write ``data`` as ``destination`` through a temporary file and a rename: a reader (a
    web server) never sees half a page, and a file that is also a hard link elsewhere (a
    deploy made with ``cp -al`` or ``rsync --link-dest``) is replaced, never written through.
    A temporary file a killed run leaves is deleted by the next mirror, which has no such
    file in its source."""
    temporary = destination.with_name(f".{destination.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, destination)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def mirror(source: Path, target: Path) -> Mirrored:
    """Make ``target`` hold exactly the files and folders of ``source``.

    A file is written (by a temporary file and a rename) only when ``target`` lacks it or
    holds other bytes; a file with the same bytes is not touched. Whatever ``target`` has that
    ``source`` does not (a page removed from the site, a file where ``source`` has a folder, a
    symbolic link, which is removed, never followed) is deleted. The comparison is by
    content, never by time, so a mirror that was interrupted, or an output edited by hand, is
    put right by the next one.
    """
    if not source.is_dir():
        raise FileNotFoundError(f"{source}: the staged build is missing")
    start = time.perf_counter()
    done = Mirrored()
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        target.unlink()
    target.mkdir(parents=True, exist_ok=True)
    for folder, folders, files in os.walk(source):
        here = Path(folder)
        there = target / here.relative_to(source)
        wanted_files, wanted_folders = set(files), set(folders)
        with os.scandir(there) as entries:
            present = list(entries)
        for entry in present:
            is_folder = entry.is_dir(follow_symlinks=False)
            is_file = entry.is_file(follow_symlinks=False)
            if not (
                (entry.name in wanted_folders and is_folder)
                or (entry.name in wanted_files and is_file)
            ):
                _remove(Path(entry.path))
                done.removed += 1
        for name in folders:
            (there / name).mkdir(exist_ok=True)
        for name in files:
            data = (here / name).read_bytes()
            destination = there / name
            try:
                if destination.stat().st_size == len(data) and destination.read_bytes() == data:
                    done.unchanged += 1
                    continue
            except FileNotFoundError:
                pass
            _write(destination, data)
            done.written += 1
    done.seconds = time.perf_counter() - start
    return done


def commit_time(site: Path) -> str | None:
    """The time of the last commit of the repository that holds ``site``, in seconds since
    the epoch, or None outside a Git work tree (or without git)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(site), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    stamp = done.stdout.strip()
    return stamp if done.returncode == 0 and stamp.isdigit() else None


def reproducible_dates(site: Path) -> None:
    """MkDocs dates sitemap.xml (and the gzip header of sitemap.xml.gz) with the time of the
    build, unless SOURCE_DATE_EPOCH says otherwise. Set it, when it is not set, to the time
    of the last commit: the same sources then build the same bytes on any day and machine,
    and a rebuild the next day does not rewrite the sitemaps."""
    if "SOURCE_DATE_EPOCH" not in os.environ and (stamp := commit_time(site)) is not None:
        os.environ["SOURCE_DATE_EPOCH"] = stamp


def build_one(config: Path, staging: Path) -> Built:
    """``mkdocs build --strict`` of one language, into ``staging/<lang>``."""
    lang = config.name.split(".")[1]
    folder = staging / lang
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)]
    command += ["--site-dir", str(folder)]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    pages = sum(1 for _ in folder.rglob("*.html")) if folder.is_dir() else 0
    cpu = usage.ru_utime + usage.ru_stime
    return Built(config.name, lang, seconds, cpu, proc.returncode, pages, text)


def shown(built: Built) -> str:
    """What a build said worth showing: all of it when it failed, else warnings, errors and
    what the errorbook plugin said."""
    lines = built.output.strip().splitlines()
    if built.code == 0:  # errorbook's notes (catalog problems) stay, MkDocs' own go
        lines = [line for line in lines if not line.startswith("INFO") or "errorbook:" in line]
    return "\n".join(lines)


def as_batch() -> None:
    """Ask the scheduler to treat this process and the builds it starts (they inherit it) as
    batch work (Linux's SCHED_BATCH, which any user may choose): with more builds than CPUs
    they are switched less often, and each keeps its CPU's caches warm for longer. Where the
    system has no such policy, nothing changes."""
    policy = getattr(os, "SCHED_BATCH", None)
    if policy is not None and hasattr(os, "sched_setscheduler"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, policy, os.sched_param(0))


def default_jobs(count: int) -> int:
    return max(1, min(count, 2 * (os.cpu_count() or 1)))


def publish(
    site: Path, staging: Path, target: Path, languages: Sequence[str], whole: bool
) -> Mirrored:
    """Mirror every language's staged build into ``target/<lang>``, the languages side by side
    (creating files waits on the disk, not on Python), then the root page that points to the
    source language. With ``whole``, ``target`` is the site's own output folder, and whatever
    else it holds (a language no longer published) is deleted, as a fresh build would."""
    start = time.perf_counter()
    done = Mirrored()
    target.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, len(languages))) as pool:
        for one in pool.map(lambda lang: mirror(staging / lang, target / lang), languages):
            done.add(one)
    root = site / "root" / "index.html"
    page = target / "index.html"
    for left in target.glob(f".{page.name}.*.tmp"):  # from a run killed while writing it
        left.unlink(missing_ok=True)
    data = root.read_bytes()
    if page.is_file() and not page.is_symlink() and page.read_bytes() == data:
        done.unchanged += 1
    else:
        if page.is_symlink() or page.is_dir():
            _remove(page)
        _write(page, data)
        done.written += 1
    if whole:
        keep = {*languages, page.name}
        for entry in sorted(target.iterdir()):
            if entry.name not in keep:
                _remove(entry)
                done.removed += 1
    done.seconds = time.perf_counter() - start
    return done


def inside(path: Path, folder: Path) -> bool:
    """True when ``path`` is ``folder`` or lies inside it (both resolved)."""
    return path == folder or folder in path.parents


def overlap(site: Path, target: Path, staging: Path | None) -> str | None:
    """Why the output cannot go to ``target``, or None. MkDocs refuses a site_dir that holds
    its docs_dir or lies in it; the staged builds no longer let it see the real output, so
    the same is checked here, for every source folder of the site, and for the staging
    folder (which a mirror into a folder that holds it would delete as it goes)."""
    for name in ("docs", "pages", "root"):
        source = site / name
        if inside(target, source) or inside(source, target):
            return (
                f"the output {target} overlaps the site's sources ({source}); choose another --out"
            )
        if staging is not None and (inside(staging, source) or inside(source, staging)):
            return (
                f"the staging folder {staging} overlaps the site's sources ({source}); "
                "choose another --staging"
            )
    if staging is not None and (inside(staging, target) or inside(target, staging)):
        return (
            f"the staging folder {staging} overlaps the output {target}; choose another --staging"
        )
    return None


def foreign_output(
    out: Path | None, staging: Path | None, report: Path | None, languages: Sequence[str] = ()
) -> str | None:
    """Why ``--out``, ``--staging`` or ``--json`` would touch what errorbook did not write,
    or None. Checked before anything is built.

    ``--out`` may name someone else's folder, and publishing makes each ``<lang>`` folder in
    it hold exactly its build: so it must be new, empty, or one an earlier ``--out`` build
    made (it holds :data:`OUT_MARK`). ``--json`` writes a new file, or again a report such a
    build wrote; ``--staging`` must be a folder, if it exists."""
    if out is not None and (out.is_symlink() or (out.exists() and not out.is_dir())):
        return f"--out {out} is not a folder; give a new or empty folder"
    if out is not None and out.is_dir() and any(out.iterdir()):
        stranger = _not_built(out, languages)
        if stranger is not None:
            return (
                f"--out {out} holds {stranger}, which errorbook did not build and the build "
                "would replace or delete; give a new or empty folder"
            )
    if staging is not None and (
        staging.is_symlink() or (staging.exists() and not staging.is_dir())
    ):
        return f"--staging {staging} is not a folder; give a folder, or a new one"
    if report is not None:
        if not report.parent.is_dir():
            return f"--json {report}: there is no folder {report.parent} to write it in"
        if report.is_symlink() or (report.exists() and not _a_report(report)):
            return f"--json {report} exists and is not a report errorbook wrote; give a new file"
    return None


def _files(out: Path, languages: Sequence[str]) -> list[str]:
    """Every file and link a build into ``out`` replaces (under its languages' folders, and
    its index.html), as paths relative to ``out``."""
    found = []
    for name in ["index.html", *languages]:
        path = out / name
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            found.append(name)  # a link or a file where the build puts its own: replaced
            continue
        for here, folders, files in os.walk(path):
            base = Path(here).relative_to(out)
            links = [name for name in folders if (Path(here) / name).is_symlink()]
            found += [(base / name).as_posix() for name in [*files, *links]]
    return sorted(found)


def _not_built(out: Path, languages: Sequence[str]) -> str | None:
    """The first file the build would replace or delete that the folder's mark does not
    list as one errorbook built (the mark itself, when it is not errorbook's), or None."""
    mark = out / OUT_MARK
    try:
        data = mark.read_bytes() if mark.is_file() and not mark.is_symlink() else b""
    except OSError:
        data = b""
    head = OUT_MARK_TEXT.encode("utf-8")
    if not data.startswith(head):
        if mark.exists() or mark.is_symlink():
            return f"{OUT_MARK} (not the list errorbook writes)"
        return next((entry.name for entry in sorted(out.iterdir())), None)
    listed = set(data[len(head) :].decode("utf-8", "replace").splitlines())
    return next((name for name in _files(out, languages) if name not in listed), None)


def _mark(out: Path, languages: Sequence[str]) -> None:
    """Write the --out folder's mark: the files the build put in its languages' folders and
    index.html. Where it cannot be written (a folder someone made in its place), the next
    --out build into the folder refuses it, which says why."""
    listed = "".join(f"{name}\n" for name in _files(out, languages))
    data = OUT_MARK_TEXT.encode("utf-8") + listed.encode("utf-8")
    path = out / OUT_MARK
    with contextlib.suppress(OSError):
        if path.is_symlink() or not path.is_file() or path.read_bytes() != data:
            _write(path, data)


def _a_report(path: Path) -> bool:
    """Whether ``path`` is a report ``--json`` wrote: a small JSON object with its members."""
    try:
        if not path.is_file() or path.stat().st_size > 1_000_000:
            return False
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and set(data) == REPORT_KEYS


def build_all(found: Sequence[Path], staging: Path, jobs: int) -> list[Built]:
    """Every language's build into ``staging``, ``jobs`` at a time, each reported as it ends
    (so that languages do not interleave)."""
    results: list[Built] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        tasks = [pool.submit(build_one, config, staging) for config in found]
        for future in as_completed(tasks):
            built = future.result()
            verdict = "built" if built.code == 0 else f"FAILED (exit {built.code})"
            print(f"{built.config}: {verdict} in {built.seconds:.1f} s, {built.pages} pages")
            if text := shown(built):
                print(text)
            sys.stdout.flush()
            results.append(built)
    results.sort(key=lambda b: b.config)
    return results


def out_of_room(results: Sequence[Built]) -> bool:
    """Whether a build failed because the staging folder's file system was full."""
    return any(b.code != 0 and "No space left on device" in b.output for b in results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--site", type=Path, default=Path("site"), help="the site folder (default: site)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="builds at a time (default: every language, at most two per CPU)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="build into OUT/<lang>/ and OUT/index.html instead of site/build: a new or "
        "empty folder, or one an earlier --out build made; each OUT/<lang> is made to hold "
        "exactly its build (anything else in it is deleted), and nothing else in OUT is "
        "touched",
    )
    parser.add_argument(
        "--staging",
        type=Path,
        default=None,
        help=f"stage the builds in a new folder inside STAGING (default: {RAM} when it has "
        "room, else the temporary folder)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the timings here")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="say which of the plugin's memos each build keeps none of, and why",
    )
    args = parser.parse_args(argv)
    if args.verbose:
        os.environ[memo.VERBOSE] = "1"  # the builds inherit it
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    site = args.site.resolve()
    found = configs(site)
    if not found:
        print(f"{WHO}: no mkdocs.<lang>.yml in {site}; run `errorbook generate`")
        return 1
    languages = [config.name.split(".")[1] for config in found]
    # Without --out, the output is the site's own build folder, which nothing else writes to:
    # a language no longer published goes. --out may be someone else's folder: only the
    # languages' folders and index.html in it are touched.
    whole = args.out is None
    target = site / "build" if whole else args.out.resolve()
    chosen = args.staging.resolve() if args.staging is not None else None
    report = args.json.absolute() if args.json is not None else None
    mine = None if whole else args.out.absolute()
    if problem := overlap(site, target, chosen) or foreign_output(mine, chosen, report, languages):
        print(f"{WHO}: {problem}")
        return 2
    start = time.perf_counter()
    for place in {RAM, Path(tempfile.gettempdir()), *([chosen] if chosen else [])}:
        if place.is_dir():
            sweep_staging(place)  # before the free space of /dev/shm is judged
    parent = chosen if chosen is not None else staging_parent(site, languages).resolve()
    if chosen is None and inside(parent, target):
        parent = Path(tempfile.gettempdir()).resolve()
    parent.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs or default_jobs(len(found))
    as_batch()
    reproducible_dates(site)
    staging = Staging(parent)
    published: Mirrored | None = None
    try:
        results = build_all(found, staging.path, jobs)
        if chosen is None and parent == RAM.resolve() and out_of_room(results):
            print(f"{WHO}: {RAM} ran out of room; building again in the temporary folder")
            staging.close()
            parent = Path(tempfile.gettempdir()).resolve()
            staging = Staging(parent)
            results = build_all(found, staging.path, jobs)
        failed = [b for b in results if b.code != 0]
        if failed:
            print(f"{WHO}: {len(failed)} of {len(results)} builds failed; {target} is left "
                  "as it was")  # fmt: skip
        else:
            try:
                published = publish(site, staging.path, target, languages, whole)
            except OSError as exc:
                print(f"{WHO}: could not bring {target} in line with the builds: {exc}. "
                      "Files already copied stay; the next build that passes puts the rest "
                      "right.")  # fmt: skip
            else:
                if not whole:
                    _mark(target, languages)
                print(f"{WHO}: {target}: {published.written} files written, "
                      f"{published.unchanged} unchanged, {published.removed} removed")  # fmt: skip
    finally:
        staging.close()
    total = time.perf_counter() - start
    if report is not None:
        data = {
            "seconds": total,
            "jobs": jobs,
            "staging": str(parent),
            "builds": [{k: v for k, v in asdict(b).items() if k != "output"} for b in results],
            "mirror": asdict(published) if published is not None else None,
        }
        _write(report, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
    return 1 if published is None else 0


if __name__ == "__main__":
    sys.exit(main())


def serve(site_config: Path, dev_addr: str) -> None:
    """``errorbook site serve``'s preview: MkDocs' own server for one language's
    configuration, with live reload (the plugin has it watch what the command says, see
    ``SERVING``)."""
    from mkdocs.commands import serve as mkdocs_serve

    mkdocs_serve.serve(config_file=str(site_config), dev_addr=dev_addr, livereload=True)
