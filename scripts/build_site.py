"""Build the reference site: one ``mkdocs build --strict`` per published language, side by side.

    make site-build             # or: .venv/bin/python scripts/build_site.py
    .venv/bin/python scripts/build_site.py --site path/to/site --out /tmp/site --jobs 1

Every published language has its own configuration, site/mkdocs.<lang>.yml (which inherits
site/mkdocs.base.yml), and is its own MkDocs build with its own search index, into
site/build/<lang>/; site/build/index.html then points to the source language. The builds are
independent processes, so they run at the same time (by default all of them, at most two per
CPU; ``--jobs`` sets how many), and the previous build is deleted while they run. Each build's
messages are shown when it ends, so languages do not interleave.

``--strict`` turns every MkDocs warning into a failure. The builds do not pass ``--quiet``:
in MkDocs 1.6 it drops warnings before ``--strict`` can count them. Informational lines are
left out of what is shown unless the build fails.

``--json FILE`` also writes what each build took (wall and CPU seconds, pages), for
bench/run.py, which times this script as ``make site-build`` runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "mkdocs.base.yml"


@dataclass
class Built:
    config: str
    lang: str
    seconds: float
    cpu: float  # user + system time of the build process
    code: int
    pages: int  # HTML pages written (every Markdown page, and the 404 page)
    output: str


def configs(site: Path) -> list[Path]:
    """Every language's configuration: site/mkdocs.<lang>.yml, but not the shared base."""
    return sorted(p for p in site.glob("mkdocs.*.yml") if p.name != BASE)


def set_aside(build: Path) -> Path:
    """Move everything in ``build`` (the previous build) into one folder inside it, by renames
    (instant), and return that folder, for deletion while the new build runs: ``build`` is
    git-ignored, so even a folder a killed run leaves there is never committed."""
    aside = build / f".old-{os.getpid()}"
    aside.mkdir(parents=True, exist_ok=True)
    for entry in build.iterdir():
        if entry != aside:
            entry.rename(aside / entry.name)
    return aside


def build_one(config: Path, out: Path | None, site: Path) -> Built:
    lang = config.name.split(".")[1]
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)]
    if out is not None:
        command += ["--site-dir", str(out / lang)]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    folder = (out if out is not None else site / "build") / lang
    pages = sum(1 for _ in folder.rglob("*.html")) if folder.is_dir() else 0
    cpu = usage.ru_utime + usage.ru_stime
    return Built(config.name, lang, seconds, cpu, proc.returncode, pages, text)


def shown(built: Built) -> str:
    """What a build said worth showing: all of it when it failed, else warnings and errors."""
    lines = built.output.strip().splitlines()
    if built.code == 0:
        lines = [line for line in lines if not line.startswith("INFO")]
    return "\n".join(lines)


def default_jobs(count: int) -> int:
    return max(1, min(count, 2 * (os.cpu_count() or 1)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--site", type=Path, default=ROOT / "site", help="the site folder (default: site)"
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
        help="build into OUT/<lang>/ instead of each configuration's site_dir (site/build/<lang>)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the timings here")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    site = args.site.resolve()
    out = args.out.resolve() if args.out is not None else None
    found = configs(site)
    if not found:
        print(f"build_site: no mkdocs.<lang>.yml in {site}; run `errorbook generate`")
        return 1
    start = time.perf_counter()
    if out is None:  # as `rm -rf site/build` did: no language left over from an earlier build
        target = site / "build"
        sweeper = threading.Thread(target=shutil.rmtree, args=(set_aside(target), True))
        sweeper.start()  # deleting thousands of files waits on the disk: do it meanwhile
    else:  # someone else's folder: each build empties only its own OUT/<lang>
        target = out
        target.mkdir(parents=True, exist_ok=True)
        sweeper = None
    jobs = args.jobs or default_jobs(len(found))
    results: list[Built] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        tasks = [pool.submit(build_one, config, out, site) for config in found]
        for future in as_completed(tasks):
            built = future.result()
            verdict = "built" if built.code == 0 else f"FAILED (exit {built.code})"
            print(f"{built.config}: {verdict} in {built.seconds:.1f} s, {built.pages} pages")
            if text := shown(built):
                print(text)
            sys.stdout.flush()
            results.append(built)
    if sweeper is not None:
        sweeper.join()
    results.sort(key=lambda b: b.config)
    failed = [b for b in results if b.code != 0]
    if not failed:
        shutil.copy2(site / "root" / "index.html", target / "index.html")
    total = time.perf_counter() - start
    if args.json is not None:
        data = {
            "seconds": total,
            "jobs": jobs,
            "builds": [{k: v for k, v in asdict(b).items() if k != "output"} for b in results],
        }
        args.json.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
