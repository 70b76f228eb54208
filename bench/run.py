# ruff: noqa: RUF001  (the report writes multiplication and minus signs on purpose)
"""errorbook's benchmark: errorbook side by side with pybabel and GNU gettext.

For each size (codes x target locales) it builds a synthetic project (bench/synth.py), with
PO files about 95% translated, and measures:

- ``errorbook generate`` on a fresh copy whose registry has 5% of its messages reworded
  (a full run: every catalog merges real changes), its peak memory, then ``generate`` again
  on the generated tree (a no-op) and ``errorbook check``;
- the same catalogs through ``pybabel update -N`` + ``pybabel compile`` and through
  ``msgmerge --no-fuzzy-matching`` + ``msgfmt``;
- MO compilation alone: errorbook's ``generator.catalogs.catalog.compile_mo`` in-process against
  ``msgfmt`` per PO file;
- the generated package at run time: ``message()`` against ``GNUTranslations.pgettext`` +
  ``str.format`` on the same MO file, and its import time, under the bench's own
  interpreter and each Python the package supports (3.10 to 3.13) that the machine has.

And the docs site, for 1,000 codes in 3 languages (en, and de and ja translated) and in 7
(en, and de, fr, es, ja, pl and ar translated, Arabic laid out right to left), each with its
own target (``DOCS``): a project with a site, ``errorbook generate`` (which writes every
language's pages), then the site build as ``make site-build`` runs it (``errorbook site build``:
``mkdocs build --strict`` per language), its total wall time, each language's, and the pages
built.

It prints a table and writes the same results to site/pages/performance.md.

    .venv/bin/python bench/run.py                 # 1000x10 and 10000x30, and the docs site
    .venv/bin/python bench/run.py --quick         # 1000x10 only, and the docs site
    .venv/bin/python bench/run.py --sizes 500x5 --no-docs --no-page
    .venv/bin/python bench/run.py --docs-only     # the docs site only (does not write the page)
    .venv/bin/python bench/run.py --docs-only --docs-sizes 1000x7   # one of its sizes
    .venv/bin/python bench/run.py --runtime-only  # the package at run time only, 10000x1

bench/profile_generate.py profiles one full generation by function.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import functools
import gettext
import itertools
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pythons
import synth
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PAGE = ROOT / "site" / "pages" / "performance.md"
BIN = Path(sys.executable).parent
DEFAULT_SIZES = "1000x10,10000x30"
#: The docs site's sizes, each with its target (seconds, for the whole site build): 1,000
#: codes in the source language and two translated ones, and in the seven languages
#: errorbook's own reference is published in (Arabic, right to left, included).
DOCS: tuple[tuple[synth.Size, float], ...] = (
    (synth.Size.of(1000, ("de", "ja")), 10.0),
    (synth.Size.of(1000, ("de", "fr", "es", "ja", "pl", "ar")), 20.0),
)
DOCS_RUNS = 5
FIRST_RUNS = 3  # the site build into an empty site/build, as in a fresh clone
SITE_BUILD = ["-m", "errorbook.integrations.site_build"]  # what `errorbook site build` runs
RUNTIME_LOCALE = "de"
#: What ``--runtime-only`` measures: 10,000 codes, the run-time targets' size, in German.
RUNTIME_ONLY_SIZE = "10000x1"
_START = time.perf_counter()


def log(text: str) -> None:
    elapsed = time.perf_counter() - _START
    print(f"[{elapsed:7.1f}s] {text}", flush=True)


# --- running and timing child processes ------------------------------------------------


@dataclass
class Child:
    seconds: float
    cpu: float  # user + system, the child's waited-for children included
    rss_kb: int  # ru_maxrss: the largest of the child and its waited-for children
    tree_kb: int  # the largest sum of PSS over the child's session, sampled
    code: int | None  # None: killed at the timeout
    out: str
    err: str

    @property
    def timed_out(self) -> bool:
        return self.code is None


def _session_pss_kb(session: int) -> int:
    """The proportional set size (PSS) of every process in ``session``, summed: pages that
    forked workers share with their parent are counted once, not once per process."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stream:
                stat = stream.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
            if int(fields[3]) != session:  # fields: state ppid pgrp session ...
                continue
            with open(f"/proc/{entry.name}/smaps_rollup", "rb") as stream:
                for line in stream:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
    return total


def run_child(
    cmd: Sequence[str],
    cwd: Path,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
    sample: bool = False,
) -> Child:
    """Run ``cmd`` in its own session; kill the session at ``timeout``. Wall time, CPU time
    and peak memory come from wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(cmd), cwd=cwd, stdout=out, stderr=err, env=env, start_new_session=True
        )
        killed = threading.Event()
        done = threading.Event()
        peak = [0]

        def kill() -> None:
            killed.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

        def watch() -> None:
            while not done.wait(0.25):
                peak[0] = max(peak[0], _session_pss_kb(proc.pid))

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer is not None:
            timer.start()
        sampler = threading.Thread(target=watch, daemon=True) if sample else None
        if sampler is not None:
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        if timer is not None:
            timer.cancel()
        if sampler is not None:
            sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # workers the child left behind
        out.seek(0)
        err.seek(0)
        return Child(
            seconds,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss,
            peak[0],
            None if killed.is_set() else proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


# --- results ---------------------------------------------------------------------------


@dataclass
class Step:
    """One measured step: its repetitions, or why it has none."""

    name: str
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_kb: int = 0
    tree_kb: int = 0
    timeout: float | None = None  # set when a run hit its timeout
    error: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def value(self) -> float | None:
        if self.timeout is not None or self.error is not None or not self.times:
            return None
        return statistics.median(self.times)

    def add(self, child: Child) -> None:
        self.rss_kb = max(self.rss_kb, child.rss_kb)
        self.tree_kb = max(self.tree_kb, child.tree_kb)
        if child.timed_out:
            self.timeout = child.seconds
            return
        self.times.append(child.seconds)
        self.cpu.append(child.cpu)

    def show(self) -> str:
        if self.timeout is not None:
            return f"> {self.timeout:.0f} s (timed out)"
        if self.error is not None:
            if self.times:
                return f"{seconds(self.times[0])}, failed ({self.error})"
            return f"failed ({self.error})"
        if not self.times:
            return "not measured"
        text = seconds(statistics.median(self.times))
        return f"{text} (median of {len(self.times)})" if len(self.times) > 1 else text


def seconds(value: float) -> str:
    if value < 1e-3:
        return f"{value * 1e6:.2f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}×"


def megabytes(kb: int) -> str:
    return f"{kb / 1024:.0f} MB" if kb else "n/a"


def repetitions(first: float, limit: int) -> int:
    """How many runs a step gets, from the duration of its first: fewer for slow steps."""
    if first < 2:
        return limit
    if first < 20:
        return min(limit, 3)
    return 1


def measure(step: Step, once: Callable[[], Child], limit: int = 5, runs: int | None = None) -> Step:
    """Run ``once`` until it has run as often as ``repetitions`` allows, or ``runs`` times
    whatever each takes (or until it fails)."""
    child = once()
    step.add(child)
    if child.timed_out:
        return step
    if child.code not in (0, None):
        step.error = f"exit {child.code}"
        step.notes.append(_first_last(child.err or child.out))
        return step
    for _ in range((runs or repetitions(child.seconds, limit)) - 1):
        child = once()
        step.add(child)
        if child.timed_out or child.code != 0:
            break
    return step


def _first_last(text: str) -> str:
    """The first and the last line of a tool's complaint: the first problem and the sum."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) <= 2:
        return " / ".join(lines)
    return f"{lines[0]} … {lines[-1]}"


def _tail(text: str, lines: int = 3) -> str:
    return " / ".join(line.strip() for line in text.strip().splitlines()[-lines:])


@dataclass
class Runtime:
    """The generated package at run time under one interpreter."""

    python: str = ""  # its version, and whose it is
    executable: str = ""
    plain: str = ""
    plural: str = ""
    message_plain: float | None = None
    stdlib_plain: float | None = None
    translator_plain: float | None = None
    message_plural: float | None = None
    stdlib_plural: float | None = None
    translator_plural: float | None = None
    import_net: float | None = None
    import_self: float | None = None
    enum_build: float | None = None  # the first use of ErrorCode, which builds it
    notes: list[str] = field(default_factory=list)


@dataclass
class SizeResult:
    size: synth.Size
    setup: float = 0.0
    entries: dict[str, int] = field(default_factory=dict)
    megabytes: float = 0.0
    full: Step = field(default_factory=lambda: Step("errorbook generate (full)"))
    written_after: float | None = None  # when a timed-out full run had written its outputs
    noop: Step = field(default_factory=lambda: Step("errorbook generate (no-op)"))
    warm: Step = field(default_factory=lambda: Step("errorbook generate (reworded, warm cache)"))
    one_po: Step = field(default_factory=lambda: Step("errorbook generate (one PO file edited)"))
    check: Step = field(default_factory=lambda: Step("errorbook check"))
    pybabel: Step = field(default_factory=lambda: Step("pybabel update -N + compile"))
    gnu: Step = field(default_factory=lambda: Step("msgmerge + msgfmt"))
    compile_mo: Step = field(default_factory=lambda: Step("compile_mo"))
    read_compile: Step = field(default_factory=lambda: Step("pofile.read + compile_mo"))
    msgfmt: Step = field(default_factory=lambda: Step("msgfmt"))
    mo_source: str = ""
    # (errorbook, GNU) seconds of the full generation and the GNU chain run in turns
    pairs: list[tuple[float, float]] = field(default_factory=list)
    import_source: str = ""
    #: The bench's own interpreter first, then each Python the package supports (see
    #: interpreters).
    runtimes: list[Runtime] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def runtime(self) -> Runtime:
        """The package at run time under the bench's own interpreter."""
        return self.runtimes[0] if self.runtimes else Runtime()


# --- the steps -------------------------------------------------------------------------


def errorbook(*args: str) -> list[str]:
    return [*synth.errorbook_command(), *args]


def caches_of(root: Path) -> Path:
    """The cache folder of the project in ``root`` (in the scratch folder's user cache)."""
    from errorbook.pipeline import cachedir

    found = cachedir.folder(str(root))
    if found is None:
        raise RuntimeError(f"no cache folder for {root}")
    return Path(found)


def copy_tree(source: Path, target: Path, cache: bool = True) -> Path:
    """A copy of a project; with ``cache``, with what earlier runs left in its cache folder
    (the stamp and the catalog cache), else with none, as in a fresh clone."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    caches = caches_of(target)
    shutil.rmtree(caches)
    if cache:
        shutil.copytree(caches_of(source), caches)
    os.sync()  # the copy is a checkout made before the run: its writes are not the run's
    return target


def pot_for(registry: synth.Registry, folder: Path) -> Path:
    """errorbook's templates (POT) for ``registry``, from a run with one locale and no
    translations (cheap: nothing to merge or check). The baselines merge these."""
    size = synth.Size(registry.size.codes, 1)
    single = synth.Registry(size, registry.codes, registry.limits)
    synth.write_project(folder, single)
    subprocess.run(errorbook("generate"), cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return folder / "locales"


def po_files(tree: Path, locales: Sequence[str], domain: str) -> list[tuple[str, Path]]:
    return [(tag, tree / "locales" / tag / "LC_MESSAGES" / f"{domain}.po") for tag in locales]


def full_generation(
    result: SizeResult, base: Path, reworded: str, work: Path, timeout: float
) -> bool:
    """errorbook generate on fresh copies of ``base`` with the reworded registry. True when
    the last copy has every output: the run succeeded, or it was killed after it had
    rewritten every messages.po and MO file (each of which the rewording changes)."""
    state: dict[str, float] = {}
    size = result.size
    outputs = [po for _, po in po_files(work, size.tags, "messages")] + [
        work / "out" / size.package / "locales" / tag / "LC_MESSAGES" / "messages.mo"
        for tag in size.tags
    ]

    def once() -> Child:
        state["start"] = time.time()
        return full_once(base, reworded, work, timeout)

    measure(result.full, once, limit=3)
    if result.full.error is not None:
        return False
    if result.full.timeout is None:
        return True
    times = [p.stat().st_mtime if p.is_file() else 0.0 for p in outputs]
    if min(times) < state["start"]:
        return False
    result.written_after = max(times) - state["start"]
    result.full.notes.append(
        f"its PO and MO files were all written after {result.written_after:.0f} s; the run "
        "was killed in what follows the writing"
    )
    return True


def full_once(base: Path, reworded: str, work: Path, timeout: float, sample: bool = True) -> Child:
    """One full generation: ``errorbook generate`` on a fresh copy of ``base`` without its
    cache, whose registry is ``reworded``. ``sample``: the memory of its processes is
    sampled meanwhile (see run_child), which costs the bench's process CPU time beside it."""
    copy_tree(base, work, cache=False)  # cold: nothing an earlier run knew
    (work / "codes.yaml").write_text(reworded, "utf-8")
    child = run_child(errorbook("generate"), work, timeout, sample=sample)
    log(
        f"  full generation: {seconds(child.seconds)}"
        + (" (timed out)" if child.timed_out else f", exit {child.code}")
    )
    return child


#: Pairs of a full generation and the GNU chain run in turns, where a full generation takes
#: less than PAIRED_UNDER seconds.
PAIRS = 6
PAIRED_UNDER = 20.0


def side_by_side(
    result: SizeResult, ours: Callable[[], Child], theirs: Callable[[], Child]
) -> None:
    """The full generation and the GNU chain again, in turns (GNU first in every other
    pair), each pair giving a ratio. The steps before measure each side's runs one after
    the other, half a minute or more apart, on a host whose speed drifts over minutes: the
    same full generation took 2.2 s and 3.1 s, and 3.8 s and 5.5 s of CPU, within one
    session. Two runs next to each other see the same host; the median of their ratios is
    what the target is judged on, beside the ratio of the two steps' medians."""
    full, gnu = result.full.value, result.gnu.value
    if full is None or gnu is None or full >= PAIRED_UNDER:
        return
    for turn in range(PAIRS):
        first, second = (theirs, ours) if turn % 2 == 0 else (ours, theirs)
        one, two = first(), second()
        mine, other = (two, one) if turn % 2 == 0 else (one, two)
        if mine.code != 0 or other.code != 0:
            result.notes.append(f"the side-by-side pairs stopped at pair {turn + 1}: a run failed")
            return
        result.pairs.append((mine.seconds, other.seconds))
    log(f"  side by side: {paired_ratio(result)}")


def paired_ratio(result: SizeResult) -> str:
    """The median ratio of the side-by-side pairs, with each pair's, to three places: the
    target is judged on it, and two places can round a miss (0.504) to the target (0.50)."""
    ratios = [mine / other for mine, other in result.pairs]
    each = ", ".join(f"{r:.3f}" for r in ratios)
    return f"{statistics.median(ratios):.3f}× (median of {len(ratios)} pairs: {each})"


def warm_generation(
    result: SizeResult, base: Path, reworded: str, folder: Path, timeout: float
) -> None:
    """The same rewording in a working tree that ``errorbook generate`` ran in after the
    translators' last change, so its catalog cache knows every PO file: the docs catalogs,
    which the rewording does not touch, are kept without a merge."""
    warm = folder / "warm"
    copy_tree(base, warm)
    run_child(errorbook("generate"), warm, timeout)  # as after the translators' commit
    saved = folder / "warm-saved"
    copy_tree(warm, saved)

    def once() -> Child:
        copy_tree(saved, warm)
        (warm / "codes.yaml").write_text(reworded, "utf-8")
        return run_child(errorbook("generate"), warm, timeout)

    measure(result.warm, once, limit=3)
    log(f"  reworded, warm cache: {result.warm.show()}")
    for tree in (warm, saved):
        shutil.rmtree(tree, ignore_errors=True)


def one_po_edited(result: SizeResult, work: Path, timeout: float) -> None:
    """A translator's change to one locale's messages.po, on the tree the full generation
    left: only that locale is merged, written and compiled again."""
    tag = result.size.tags[0]
    po = work / "locales" / tag / "LC_MESSAGES" / "messages.po"
    original = po.read_text("utf-8")
    start = original.index('msgstr "', original.index("\nmsgctxt ")) + len('msgstr "')
    edits = iter(range(1000))

    def once() -> Child:
        po.write_text(original[:start] + f"({next(edits)}) " + original[start:], "utf-8")
        os.sync()  # a translator saves a while after the last run, whose writes are done
        return run_child(errorbook("generate"), work, timeout)

    measure(result.one_po, once, limit=7)
    po.write_text(original, "utf-8")
    run_child(errorbook("generate"), work, timeout)
    log(f"  one PO file edited: {result.one_po.show()}")


def noop_and_check(result: SizeResult, work: Path, timeout: float) -> None:
    os.sync()  # what the full generation wrote (hundreds of MB at the large size) is not theirs

    def noop() -> Child:
        child = run_child(errorbook("generate"), work, timeout)
        changed = re.search(r"^(\d+) files? changed", child.out, re.M)
        if child.code == 0 and (changed is None or changed.group(1) != "0"):
            result.noop.notes.append(f"not a no-op: {_tail(child.out, 1)}")
        return child

    measure(result.noop, noop, limit=7)
    log(f"  no-op generation: {result.noop.show()}")

    def check() -> Child:
        return run_child(errorbook("check"), work, timeout)

    measure(result.check, check, limit=5)
    log(f"  check: {result.check.show()}")


def pybabel_pipeline(
    result: SizeResult, base: Path, pots: Path, scratch: Path, timeout: float
) -> Path:
    pybabel = str(BIN / "pybabel")
    target = scratch / "pybabel"

    def once() -> Child:
        copy_tree(base / "locales", target)
        total = Child(0.0, 0.0, 0, 0, 0, "", "")
        for domain in ("messages", "docs"):
            cmd = [pybabel, "update", "-N", "--no-wrap", "-i", str(pots / f"{domain}.pot"),
                   "-d", str(target), "-D", domain]  # fmt: skip
            total = _sum(total, run_child(cmd, scratch, timeout))
            if total.code != 0:
                return total
        cmd = [pybabel, "compile", "-d", str(target), "-D", "messages"]
        return _sum(total, run_child(cmd, scratch, timeout))

    measure(result.pybabel, once, limit=3)
    log(f"  pybabel update -N + compile: {result.pybabel.show()}")
    return target


def gnu_pipeline(
    result: SizeResult, base: Path, pots: Path, scratch: Path, timeout: float
) -> tuple[Path, Callable[[], Child]]:
    target = scratch / "gnu"
    locales = result.size.tags

    def once() -> Child:
        if target.exists():
            shutil.rmtree(target)
            os.sync()  # as before each of errorbook's runs (see copy_tree)
        total = Child(0.0, 0.0, 0, 0, 0, "", "")
        for domain in ("messages", "docs"):
            for tag, po in po_files(base, locales, domain):
                out = target / tag / "LC_MESSAGES" / f"{domain}.po"
                out.parent.mkdir(parents=True, exist_ok=True)
                cmd = ["msgmerge", "--no-fuzzy-matching", "--no-wrap", "--quiet",
                       "-o", str(out), str(po), str(pots / f"{domain}.pot")]  # fmt: skip
                total = _sum(total, run_child(cmd, scratch, timeout))
                if total.code != 0:
                    return total
        for tag in locales:
            folder = target / tag / "LC_MESSAGES"
            cmd = ["msgfmt", "-o", str(folder / "messages.mo"), str(folder / "messages.po")]
            total = _sum(total, run_child(cmd, scratch, timeout))
            if total.code != 0:
                return total
        return total

    measure(result.gnu, once, limit=3)
    log(f"  msgmerge + msgfmt: {result.gnu.show()}")
    return target, once


def _sum(a: Child, b: Child) -> Child:
    return Child(
        a.seconds + b.seconds,
        a.cpu + b.cpu,
        max(a.rss_kb, b.rss_kb),
        max(a.tree_kb, b.tree_kb),
        None if b.code is None else (a.code or b.code),
        a.out + b.out,
        a.err + b.err,
    )


def mo_compilation(result: SizeResult, tree: Path, registry: synth.Registry, scratch: Path) -> None:
    """compile_mo in-process over each locale's merged messages.po, against msgfmt."""
    counts = {code.name: code.count for code in registry.codes}
    files = po_files(tree, result.size.tags, "messages")
    try:
        from generator.catalogs import catalog as eb_catalog
        from generator.catalogs import pofile as eb_pofile

        parsed = []
        reading = 0.0
        for tag, path in files:
            data = path.read_bytes()
            start = time.perf_counter()
            cat = eb_pofile.read(data, str(path), tag, "messages")[0]
            reading += time.perf_counter() - start
            parsed.append(cat)

        def compile_all() -> float:
            start = time.perf_counter()
            for cat in parsed:
                eb_catalog.compile_mo(cat, counts)
            return time.perf_counter() - start

        first = compile_all()
        result.compile_mo.times.append(first)
        for _ in range(repetitions(first, 5) - 1):
            result.compile_mo.times.append(compile_all())
        result.read_compile.times.append(reading + statistics.median(result.compile_mo.times))
    except Exception as exc:  # errorbook's internals may change: say so, go on
        result.compile_mo.error = f"{type(exc).__name__}: {exc}"
        result.read_compile.error = result.compile_mo.error
    log(f"  compile_mo: {result.compile_mo.show()}")
    out = scratch / "msgfmt.mo"

    def once() -> Child:
        total = Child(0.0, 0.0, 0, 0, 0, "", "")
        for _tag, path in files:
            total = _sum(total, run_child(["msgfmt", "-o", str(out), str(path)], scratch))
        return total

    measure(result.msgfmt, once, limit=5)
    log(f"  msgfmt: {result.msgfmt.show()}")


def _params(code: synth.CodeSpec, count: int | None = None) -> dict[str, object]:
    values: dict[str, object] = {p.name: p.example for p in code.placeholders}
    if code.count is not None and count is not None:
        values[code.count] = count
    return values


def interpreters() -> list[Runtime]:
    """What the run-time step measures the package under: the bench's own interpreter, then
    each Python the package supports that this machine has (bench/pythons.py)."""
    own = Runtime(f"{platform.python_version()} (the bench's)", sys.executable)
    found = [own]
    for _, python in pythons.available():
        found.append(Runtime(pythons.version_of(python, micro=True), python))
    return found


def package_at_run_time(result: SizeResult, tree: Path, registry: synth.Registry | None) -> None:
    """The package generated in ``tree`` under each interpreter: its import, then, where the
    registry it was generated from is known (a complete generation), message()."""
    result.runtimes = interpreters()
    for found in result.runtimes:
        import_time(found, tree / "out", result.size.package)
    if registry is None:
        result.runtime.notes.append("not measured: no generated tree")
        return
    try:
        runtime(result, tree, registry)
    except Exception as exc:
        result.runtime.notes.append(f"not measured: {type(exc).__name__}: {exc}")


def runtime(result: SizeResult, tree: Path, registry: synth.Registry) -> None:
    """message() of the generated package against pgettext/npgettext + str.format, per call,
    on the same MO file, under each interpreter of ``result.runtimes``: measured by
    bench/runtime_child.py in a process of that interpreter, which reads the standard
    library alone (``-I -S``), as the package does."""
    package = registry.size.package
    mo = tree / "out" / package / "locales" / RUNTIME_LOCALE / "LC_MESSAGES" / "messages.mo"
    with mo.open("rb") as stream:
        stdlib = gettext.GNUTranslations(stream)
    plain = next(
        c for c in registry.codes
        if c.plural is None and c.placeholders
        and stdlib.pgettext(c.name, c.message) != c.message
    )  # fmt: skip
    plural = next(
        c for c in registry.codes
        if c.plural is not None and len(c.placeholders) > 1
        and stdlib.npgettext(c.name, c.message, c.plural, 5) not in (c.message, c.plural)
    )  # fmt: skip
    job = {
        "folder": str(tree / "out"),
        "package": package,
        "locale": RUNTIME_LOCALE,
        "mo": str(mo),
        "plain": {"code": plain.name, "message": plain.message, "params": _params(plain)},
        "plural": {
            "code": plural.name,
            "one": plural.message,
            "other": plural.plural,
            "count": 5,
            "params": _params(plural, 5),
        },
    }
    child_script = str(HERE / "runtime_child.py")
    for found in result.runtimes:
        found.plain, found.plural = plain.name, plural.name
        child = run_child([found.executable, "-I", "-S", child_script, json.dumps(job)], tree)
        if child.code != 0:
            found.notes.append(f"not measured: {_tail(child.err)}")
            continue
        data = json.loads(child.out)
        found.notes += data["notes"]
        found.message_plain, found.stdlib_plain = data["message_plain"], data["stdlib_plain"]
        found.message_plural, found.stdlib_plural = data["message_plural"], data["stdlib_plural"]
        found.translator_plain = data["translator_plain"]
        found.translator_plural = data["translator_plural"]
        found.enum_build = data["enum_build"]
        log(
            f"  Python {found.python}: message() {seconds(found.message_plain)} vs stdlib "
            f"{seconds(found.stdlib_plain)}; plural {seconds(found.message_plural)} vs "
            f"{seconds(found.stdlib_plural)}"
        )


def _wall(cmd: Sequence[str], cwd: Path, env: dict[str, str] | None, runs: int = 9) -> float:
    run_child(cmd, cwd, env=env)  # warm: byte-code caches, page cache
    return statistics.median(run_child(cmd, cwd, env=env).seconds for _ in range(runs))


def _wall_net(
    bare: Sequence[str], cmd: Sequence[str], cwd: Path, env: dict[str, str], runs: int = 15
) -> float:
    """The wall time ``cmd`` takes beyond ``bare``: the median of ``runs`` differences, each
    of the two run back to back, so that a change in the machine's speed during the
    measurement (the disk still writing what the generations before it wrote, another
    process) reaches both sides of each difference alike."""
    os.sync()  # what the steps before wrote goes to the disk now, not during the pairs
    run_child(bare, cwd, env=env)  # warm: byte-code caches, page cache
    run_child(cmd, cwd, env=env)
    return statistics.median(
        run_child(cmd, cwd, env=env).seconds - run_child(bare, cwd, env=env).seconds
        for _ in range(runs)
    )


def import_time(found: Runtime, out_dir: Path, package: str) -> None:
    """Import of the generated package as an installed one imports, under ``found``'s
    interpreter: with its byte code cached (the first, unmeasured run writes it, whatever
    PYTHONDONTWRITEBYTECODE says).

    Without the site module (``-S``): what an interpreter's site-packages load at start-up
    differs from one to the next (a ``.pth`` file of pyenv's 3.11 imports certifi, and with
    it ``re`` and ``importlib.resources``), and would lend the package modules it needs
    itself. So the import pays for every standard module it uses, on each Python alike."""
    env = dict(os.environ, PYTHONPATH=str(out_dir))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = found.executable
    found.import_net = _wall_net(
        [python, "-S", "-c", "pass"], [python, "-S", "-c", f"import {package}"], out_dir, env
    )
    selves = []
    for _ in range(5):
        command = [python, "-S", "-X", "importtime", "-c", f"import {package}"]
        child = run_child(command, out_dir, env=env)
        for line in child.err.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == package:
                selves.append(int(parts[1]) / 1e6)
    found.import_self = statistics.median(selves) if selves else None
    log(f"  import {package} on Python {found.python}: {seconds(found.import_net)} net")


#: The example registry of another project, measured beside the synthetic sizes.
EXAMPLE = ROOT / "examples" / "postgresql"
#: The one code whose message the edit step rewords, and how.
EXAMPLE_EDIT = ('message: "division_by_zero"', 'message: "division_by_zero (reworded)"')


@dataclass
class ExampleResult:
    """A real registry, with its site, as its repository holds it (see bench_example)."""

    name: str
    codes: int = 0
    locales: int = 0
    files: int = 0
    full: Step = field(default_factory=lambda: Step("full"))
    noop: Step = field(default_factory=lambda: Step("no-op"))
    check: Step = field(default_factory=lambda: Step("check"))
    edit: Step = field(default_factory=lambda: Step("one message reworded"))
    import_net: float | None = None


def bench_example(scratch: Path, timeout: float) -> ExampleResult | None:
    """errorbook on the example registry in examples/ (None where it is missing): its first
    run in a fresh clone (no cache; every output is there and up to date, so nothing is
    written), then no-op, check, one message reworded, and the import of its package."""
    registry = EXAMPLE / "codes.yaml"
    if not registry.is_file():
        return None
    result = ExampleResult(EXAMPLE.relative_to(ROOT).as_posix())
    data = yaml.safe_load(registry.read_text("utf-8"))
    result.codes = len(data["codes"])
    result.locales = len(data["registry"].get("locales") or [])
    base, work = scratch / "example" / "base", scratch / "example" / "work"
    skip = shutil.ignore_patterns("__pycache__", ".mypy_cache")
    shutil.copytree(EXAMPLE, base, symlinks=True, ignore=skip)
    result.files = len((base / ".errorbook-files").read_text("utf-8").splitlines()) - 1
    log(f"example registry {result.name}: {result.codes} codes, {result.files} outputs")

    def full() -> Child:
        copy_tree(base, work, cache=False)
        return run_child(errorbook("generate"), work, timeout)

    measure(result.full, full, limit=3)
    log(f"  first generation in a fresh clone: {result.full.show()}")
    if result.full.value is None:
        return result
    measure(result.noop, lambda: run_child(errorbook("generate"), work, timeout), runs=7)
    measure(result.check, lambda: run_child(errorbook("check"), work, timeout), runs=5)
    text = (work / "codes.yaml").read_text("utf-8")
    old, new = EXAMPLE_EDIT
    turns = iter(range(1000))

    def edit() -> Child:
        edited = text.replace(old, new) if next(turns) % 2 == 0 else text
        (work / "codes.yaml").write_text(edited, "utf-8")
        os.sync()
        return run_child(errorbook("generate"), work, timeout)

    if old in text:
        measure(result.edit, edit, runs=5)
    else:
        result.edit.notes.append(f"not measured: {old!r} is not in the registry")
    log(f"  no-op {result.noop.show()}, check {result.check.show()}, edit {result.edit.show()}")
    package = str(data["registry"]["package"])
    env = dict(os.environ, PYTHONPATH=str(work))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    result.import_net = _wall_net(
        [python, "-c", "pass"], [python, "-c", f"import {package}"], work, env
    )
    return result


def example_tables(result: ExampleResult) -> list[str]:
    """The page's section on the example registry."""
    where = "no target locale" if not result.locales else f"{result.locales} target locales"
    rows = [
        ["errorbook generate, first run in a fresh clone (no cache)", result.full.show()],
        ["errorbook generate, no-op", result.noop.show()],
        ["errorbook check", result.check.show()],
        ["errorbook generate, one message reworded", result.edit.show()],
        [
            "import of the generated package (byte code cached)",
            seconds(result.import_net) if result.import_net is not None else "n/a",
        ],
    ]
    notes = [note for step in (result.full, result.edit) for note in step.notes]
    return [
        f"## A real registry: `{result.name}`",
        "",
        f"PostgreSQL's SQLSTATE codes as an errorbook registry ({result.codes} codes, {where}), "
        f"with its site's pages: {result.files} outputs, as its folder in this repository "
        "holds them. The first run copies the folder without its caches, as a fresh clone "
        "has it: every output is there and up to date, so the run validates the registry, "
        "renders every output and writes none. The edit changes one code's message "
        f"({EXAMPLE_EDIT[0].split(': ')[1]}) and back, in turns, with the cache of the "
        "runs before it.",
        "",
        *table(["", result.name], rows),
        *(["", *notes] if notes else []),
    ]


def bench_size(size: synth.Size, scratch: Path, timeout: float) -> SizeResult:
    result = SizeResult(size)
    folder = scratch / size.label
    base, work = folder / "base", folder / "work"
    log(f"{size.codes} codes x {size.locales} locales: building the synthetic project")
    start = time.perf_counter()
    registry = synth.make(base, size)
    reworded_registry = synth.reword(registry)
    reworded = synth.render(reworded_registry)
    result.setup = time.perf_counter() - start
    for domain in ("messages", "docs"):
        text = (base / "locales" / f"{domain}.pot").read_text("utf-8")
        result.entries[domain] = text.count("\nmsgctxt ")
    result.megabytes = sum(p.stat().st_size for p in synth.iter_po(base)) / 2**20
    log(
        f"  setup {seconds(result.setup)}: {result.entries['messages']} messages and "
        f"{result.entries['docs']} docs entries per locale, {result.megabytes:.0f} MB of PO"
    )

    log("  errorbook generate (full) ...")
    complete = full_generation(result, base, reworded, work, timeout)
    if complete:
        noop_and_check(result, work, timeout)
        one_po_edited(result, work, timeout)
    else:
        for step in (result.noop, result.check, result.one_po):
            step.notes.append("not measured: the full generation left no complete tree")
    warm_generation(result, base, reworded, folder, timeout)

    # The baselines merge errorbook's templates (POT) of the reworded registry.
    pots = work / "locales" if complete else pot_for(reworded_registry, folder / "pot")
    log("  pybabel ...")
    pybabel_pipeline(result, base, pots, folder, timeout)
    log("  GNU gettext ...")
    gnu, gnu_once = gnu_pipeline(result, base, pots, folder, timeout)
    if complete:  # the pairs' full generations leave the same complete tree in work
        # Unsampled, as the GNU chain is: the sampler's reads of /proc run beside errorbook.
        pair = functools.partial(full_once, base, reworded, work, timeout, sample=False)
        side_by_side(result, pair, gnu_once)

    gnu_tree = folder / "gnu-tree"
    (gnu_tree / "locales").mkdir(parents=True, exist_ok=True)
    for tag in size.tags:
        (gnu_tree / "locales" / tag).symlink_to(gnu / tag)
    candidates = [(work, "errorbook's merged messages.po")] if complete else []
    candidates.append((gnu_tree, "msgmerge's merged messages.po"))
    mo_tree = gnu_tree
    for tree, source in candidates:
        refused = [
            _first_last(child.err).replace(f"{tree}/", "")
            for _, po in po_files(tree, size.tags, "messages")
            if (child := run_child(["msgfmt", "-o", os.devnull, str(po)], folder)).code != 0
        ]
        if not refused:
            mo_tree, result.mo_source = tree, source
            break
        result.notes.append(
            f"msgfmt refuses {len(refused)} of {len(size.tags)} files ({source}; "
            f"{refused[0]}), so both compile the next candidate"
        )
    mo_compilation(result, mo_tree, reworded_registry, folder)

    result.import_source = "generated tree" if complete else "base tree"
    package_at_run_time(result, work if complete else base, reworded_registry if complete else None)
    shutil.rmtree(folder, ignore_errors=True)
    return result


def bench_runtime(size: synth.Size, scratch: Path, timeout: float) -> SizeResult:
    """The generated package at run time alone (``--runtime-only``): a synthetic project of
    ``size`` generated and translated (bench/synth.py), generated again to compile the
    translations, then measured as bench_size measures its generated tree."""
    result = SizeResult(size)
    work = scratch / size.label / "work"
    log(f"{size.codes} codes x {size.locales} locales: the package at run time")
    registry = synth.make(work, size)
    child = run_child(errorbook("generate"), work, timeout)
    if child.code != 0:
        result.runtime.notes.append(f"not measured: errorbook generate: {_tail(child.err)}")
        return result
    result.import_source = "generated tree"
    package_at_run_time(result, work, registry)
    shutil.rmtree(work, ignore_errors=True)
    return result


# --- the docs site ---------------------------------------------------------------------


@dataclass
class Language:
    lang: str
    seconds: list[float] = field(default_factory=list)  # its build's wall time, per run
    cpu: list[float] = field(default_factory=list)
    pages: int = 0


@dataclass
class DocsResult:
    size: synth.Size
    target: float  # seconds, for the whole site build
    setup: float = 0.0
    markdown_pages: dict[str, int] = field(default_factory=dict)
    generate: Step = field(default_factory=lambda: Step("errorbook generate (with the site)"))
    render: Step = field(default_factory=lambda: Step("site rendering (in-process)"))
    first: Step = field(default_factory=lambda: Step("site build into an empty folder"))
    build: Step = field(default_factory=lambda: Step("site build"))
    # The peer: the same pages built by MkDocs with the errorbook plugin off.
    plain: Step = field(default_factory=lambda: Step("site build, the errorbook plugin off"))
    staging: str = ""
    mirror: list[dict[str, Any]] = field(default_factory=list)  # what each rebuild wrote
    first_mirror: list[dict[str, Any]] = field(default_factory=list)
    languages: dict[str, Language] = field(default_factory=dict)
    jobs: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.languages) or self.wanted

    @property
    def wanted(self) -> tuple[str, ...]:
        """The languages the site should publish: the source language and every target."""
        return ("en", *self.size.tags)

    @property
    def missing(self) -> tuple[str, ...]:
        """The languages it should publish but did not (after ``errorbook generate``)."""
        if not self.languages:
            return ()
        return tuple(lang for lang in self.wanted if lang not in self.languages)


def site_rendering(result: DocsResult, work: Path, runs: int = 3) -> None:
    """How long ``errorbook generate`` spends rendering the site: the pipeline in-process, with
    the site emitter timed (the rest of it, catalogs and Python package, is not)."""
    try:
        from generator import config as eb_config
        from generator.emit.site import pages as eb_site
        from generator.pipeline import build as eb_build

        settings = eb_config.load(work / "pyproject.toml")
        registry = eb_build.registry_for(settings)
        emit = eb_site.emit
        spent: list[float] = []

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return emit(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - start)

        eb_site.emit = timed  # type: ignore[assignment]
        try:
            for _ in range(runs):
                eb_build.run(settings, registry)
        finally:
            eb_site.emit = emit  # type: ignore[assignment]
        if len(spent) != runs:
            raise RuntimeError("the pipeline did not call generator.emit.site.pages.emit")
        result.render.times.extend(spent)
    except Exception as exc:  # errorbook's internals may change: say so, go on
        result.render.error = f"{type(exc).__name__}: {exc}"
    log(f"  site rendering (site.emit): {result.render.show()}")


def bench_docs(size: synth.Size, target: float, scratch: Path, timeout: float) -> DocsResult:
    """A project with a site: ``errorbook generate``, then the site build of ``make
    site-build``, timed as a user runs them."""
    result = DocsResult(size, target)
    folder = scratch / f"docs-{size.label}"
    base, work = folder / "base", folder / "work"
    log(f"docs site: {size.codes} codes, en + {' + '.join(size.tags)}: building the project")
    start = time.perf_counter()
    synth.make(base, size, site=True)
    result.setup = time.perf_counter() - start

    def generate() -> Child:
        copy_tree(base, work)  # the translations are new to it: every language's pages change
        child = run_child(errorbook("generate"), work, timeout)
        log(f"  errorbook generate: {seconds(child.seconds)}, exit {child.code}")
        return child

    measure(result.generate, generate, limit=3)
    if result.generate.value is None:
        result.build.notes.append("not measured: errorbook generate failed")
        return result
    site = work / "site"
    wanted = result.wanted
    found = [c.name.split(".")[1] for c in site.glob("mkdocs.*.yml") if c.name != "mkdocs.base.yml"]
    for lang in sorted(found, key=lambda x: (wanted.index(x) if x in wanted else len(wanted), x)):
        result.languages[lang] = Language(lang)
        result.markdown_pages[lang] = sum(1 for _ in (site / "docs" / lang).rglob("*.md"))
    if sorted(found) != sorted(wanted):
        result.notes.append(
            f"published {', '.join(result.languages) or 'nothing'}, not {', '.join(wanted)}"
        )
    site_rendering(result, work)
    timings = folder / "site-build.json"

    edits = itertools.count(1)

    def edit_one_code() -> None:
        """Reword the next code's message and regenerate (not timed), as a registry author
        does before a rebuild: that code's pages, the pages that list it and the search index
        change."""
        registry = work / "codes.yaml"
        number = next(edits)
        text = registry.read_text("utf-8")
        edited = text.replace('message: "The ', f'message: "Edit {number}: the ', 1)
        if edited == text:
            raise RuntimeError("the docs bench found no message to reword in codes.yaml")
        registry.write_text(edited, "utf-8")
        child = run_child(errorbook("generate"), work, timeout)
        if child.code != 0:
            raise RuntimeError(f"errorbook generate after an edit: {_tail(child.out + child.err)}")

    def build(fresh: bool) -> Child:
        if fresh:  # as in a fresh clone: no earlier build to compare with (not timed)
            shutil.rmtree(site / "build", ignore_errors=True)
            cache = caches_of(work)  # nor what earlier builds kept:
            for memo in [*cache.glob("site-*.memo"), cache / "site-templates.bin"]:
                memo.unlink(missing_ok=True)  # memos of pages, tabs, search; templates
        else:
            edit_one_code()
        os.sync()  # the disk work of what came before must not land in the timed run
        timings.unlink(missing_ok=True)
        child = run_child(
            [sys.executable, *SITE_BUILD, "--site", str(site), "--json", str(timings)],
            work,
            timeout,
        )
        if child.code == 0 and timings.is_file():
            data = json.loads(timings.read_text("utf-8"))
            result.jobs = data["jobs"]
            result.staging = data.get("staging", "")
            mirror = data.get("mirror") or {}
            (result.first_mirror if fresh else result.mirror).append(mirror)
            if not fresh:
                for one in data["builds"]:
                    language = result.languages.setdefault(one["lang"], Language(one["lang"]))
                    language.seconds.append(one["seconds"])
                    language.cpu.append(one["cpu"])
                    language.pages = one["pages"]
            per = ", ".join(f"{b['lang']} {seconds(b['seconds'])}" for b in data["builds"])
            done = (
                f"{mirror.get('written', 0)} files written, {mirror.get('unchanged', 0)} unchanged"
            )
            log(f"  site build{' into an empty folder' if fresh else ''}: "
                f"{seconds(child.seconds)} ({per}; {done})")  # fmt: skip
        else:
            log(f"  site build: exit {child.code}: {_tail(child.out + child.err)}")
        return child

    measure(result.first, lambda: build(fresh=True), runs=FIRST_RUNS)
    measure(result.build, lambda: build(fresh=False), runs=DOCS_RUNS)  # the target

    def plain() -> Child:
        """The same pages as MkDocs builds them without errorbook: its plugin off (no
        regeneration, memos, tabs or links), into an empty folder."""
        shutil.rmtree(site / "build", ignore_errors=True)
        os.sync()
        child = run_child([sys.executable, *SITE_BUILD, "--site", str(site)], work, timeout)
        log(f"  site build, the errorbook plugin off: {seconds(child.seconds)}")
        return child

    config = site / "mkdocs.base.yml"
    text = config.read_text("utf-8")
    if "  errorbook: {}\n" in text:
        config.write_text(text.replace("  errorbook: {}\n", "  errorbook: {enabled: false}\n"))
        measure(result.plain, plain, runs=FIRST_RUNS)
    else:
        result.plain.error = "mkdocs.base.yml does not list the plugin as `errorbook: {}`"
    shutil.rmtree(folder, ignore_errors=True)
    return result


# --- the report ------------------------------------------------------------------------


@dataclass
class Machine:
    cpus: int
    cpu_model: str
    python: str
    babel: str
    gettext: str
    errorbook: str
    commit: str
    date: str
    load: str
    load_end: str = ""
    bare_generator: float = 0.0
    cli_import: float = 0.0
    bare_python: float = 0.0
    total: float = 0.0


def interpreter() -> str:
    """Which build of Python runs the bench: its executable and whether libpython is linked
    into it or loaded as a shared library (which, with no profile-guided optimisation, costs
    MkDocs about 15%; see the Makefile's PYTHON)."""
    executable = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    shared = ""
    with contextlib.suppress(OSError):
        maps = Path("/proc/self/maps").read_text()
        shared = ", libpython shared" if "libpython" in maps else ", libpython linked in"
    return f"{executable}{shared}"


def machine() -> Machine:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    import babel

    import generator

    gnu = subprocess.run(["msgfmt", "--version"], capture_output=True, text=True).stdout
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "generator", "templates"],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    if dirty:
        commit += " with uncommitted changes to generator/ or templates/"
    return Machine(
        cpus=os.cpu_count() or 0,
        cpu_model=model or platform.processor() or platform.machine(),
        python=f"{platform.python_version()} ({interpreter()})",
        babel=babel.__version__,
        gettext=gnu.splitlines()[0].split(")")[-1].strip() if gnu else "not installed",
        errorbook=generator.__version__,
        commit=commit or "unknown",
        date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
    )


def cached_byte_code() -> None:
    """Run errorbook as an installed package runs: with its modules' byte code cached.

    pip compiles a package's modules when it installs it, so Babel's (which pybabel runs)
    come cached. errorbook is installed editable here, and where PYTHONDONTWRITEBYTECODE is
    set (it is on some machines) every run would compile each of its modules again, in the
    parent and in each worker that imports one: on a slow machine that was a fifth of a full
    generation at 1,000 x 10, a cost no installed errorbook has. The byte code goes where
    Python keeps it by default (``__pycache__``, which git ignores)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(ROOT / "generator", quiet=1)


def bare_imports(info: Machine, scratch: Path) -> None:
    info.bare_python = _wall([sys.executable, "-c", "pass"], scratch, None)
    info.bare_generator = _wall([sys.executable, "-c", "import generator"], scratch, None)
    info.cli_import = _wall([sys.executable, "-c", "import generator.cli"], scratch, None)
    log(
        f"python -c 'import generator': {seconds(info.bare_generator)}; "
        f"'import generator.cli': {seconds(info.cli_import)}"
    )


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def label(size: synth.Size) -> str:
    return f"{size.codes:,} × {size.locales}"


def results_tables(results: Sequence[SizeResult], info: Machine) -> list[str]:
    head = ["", *(label(r.size) for r in results)]

    def row(name: str, cell: Callable[[SizeResult], str]) -> list[str]:
        return [name, *(cell(r) for r in results)]

    def gen_ratio(r: SizeResult, other: Step) -> str:
        return ratio(r.full.value, other.value)

    lines = ["## Generation and catalogs", ""]
    lines += table(
        head,
        [
            row("PO entries per locale (messages + docs)",
                lambda r: f"{r.entries.get('messages', 0):,} + {r.entries.get('docs', 0):,}"),
            row("PO files to merge (all locales)", lambda r: f"{r.megabytes:.0f} MB"),
            row("errorbook generate, full (5% of messages reworded; no cache)",
                lambda r: r.full.show()),
            row("errorbook generate, the same rewording with the last run's cache",
                lambda r: r.warm.show()),
            row("errorbook generate, one locale's messages.po edited",
                lambda r: r.one_po.show()),
            row("errorbook generate, no-op (again on the generated tree)",
                lambda r: r.noop.show()),
            row("errorbook check", lambda r: r.check.show()),
            row("pybabel update -N + pybabel compile", lambda r: r.pybabel.show()),
            row("msgmerge --no-fuzzy-matching + msgfmt", lambda r: r.gnu.show()),
            row("**ratio** errorbook full / pybabel", lambda r: gen_ratio(r, r.pybabel)),
            row("**ratio** errorbook full / GNU", lambda r: gen_ratio(r, r.gnu)),
            row("**ratio** errorbook full / GNU, side by side in turns",
                lambda r: paired_ratio(r) if r.pairs else "n/a (one run each)"),
            row("**ratio** no-op / bare `python -c \"import generator\"`",
                lambda r: ratio(r.noop.value, info.bare_generator)),
            row("CPU time of errorbook generate, full (workers included)",
                lambda r: seconds(statistics.median(r.full.cpu)) if r.full.cpu else "n/a"),
            row("peak memory, errorbook generate full (ru_maxrss)",
                lambda r: megabytes(r.full.rss_kb)),
            row("peak memory, errorbook generate full (PSS of all its processes, sampled)",
                lambda r: megabytes(r.full.tree_kb)),
            row("peak memory, pybabel update (ru_maxrss)", lambda r: megabytes(r.pybabel.rss_kb)),
            row("peak memory, msgmerge (ru_maxrss)", lambda r: megabytes(r.gnu.rss_kb)),
            row("setup (not measured: synthesis, first generate, translation)",
                lambda r: seconds(r.setup)),
        ],
    )  # fmt: skip
    lines += ["", "## MO compilation (messages domain, all locales)", ""]
    lines += table(
        head,
        [
            row("errorbook `compile_mo`, in-process", lambda r: r.compile_mo.show()),
            row("msgfmt, one process per PO file", lambda r: r.msgfmt.show()),
            row(
                "**ratio** compile_mo / msgfmt",
                lambda r: ratio(r.compile_mo.value, r.msgfmt.value),
            ),
            row("errorbook `pofile.read` (timed once) + `compile_mo`, as msgfmt parses too",
                lambda r: r.read_compile.show()),
            row("**ratio** read + compile_mo / msgfmt",
                lambda r: ratio(r.read_compile.value, r.msgfmt.value)),
            row("PO files compiled", lambda r: r.mo_source or "n/a"),
        ],
    )  # fmt: skip
    notes = []
    for r in results:
        for step in (r.full, r.noop, r.check, r.pybabel, r.gnu, r.compile_mo, r.msgfmt):
            for note in dict.fromkeys(step.notes):
                if note:
                    notes.append(f"- {label(r.size)}, {step.name}: {note}")
        for note in dict.fromkeys(r.notes):
            notes.append(f"- {label(r.size)}, MO compilation: {note}")
    if notes:
        lines += ["", "Notes from the run:", "", *notes]
    return lines + runtime_tables(results)


def per_call(value: float | None) -> str:
    return seconds(value) if value is not None else "n/a"


def runtime_tables(results: Sequence[SizeResult]) -> list[str]:
    """The generated package at run time: under the bench's own interpreter, a column per
    size; then a row per size and Python the package supports."""
    head = ["", *(label(r.size) for r in results)]

    def row(name: str, cell: Callable[[SizeResult], str]) -> list[str]:
        return [name, *(cell(r) for r in results)]

    lines = ["", f"## The generated package at run time (locale `{RUNTIME_LOCALE}`)", ""]
    lines += table(
        head,
        [
            row(
                "code (plain message)",
                lambda r: f"`{r.runtime.plain}`" if r.runtime.plain else "n/a",
            ),
            row("`message()`", lambda r: per_call(r.runtime.message_plain)),
            row("`Translator.message()`", lambda r: per_call(r.runtime.translator_plain)),
            row("stdlib `pgettext` + `str.format`", lambda r: per_call(r.runtime.stdlib_plain)),
            row("**ratio** message() / stdlib",
                lambda r: ratio(r.runtime.message_plain, r.runtime.stdlib_plain)),
            row("code (plural message, count 5)",
                lambda r: f"`{r.runtime.plural}`" if r.runtime.plural else "n/a"),
            row("`message()`", lambda r: per_call(r.runtime.message_plural)),
            row("`Translator.message()`", lambda r: per_call(r.runtime.translator_plural)),
            row("stdlib `npgettext` + `str.format`", lambda r: per_call(r.runtime.stdlib_plural)),
            row("**ratio** message() / stdlib",
                lambda r: ratio(r.runtime.message_plural, r.runtime.stdlib_plural)),
            row("import of the package, byte code cached (process wall time − `python -S -c "
                "pass` run right after it; median of 15 pairs, after a sync)",
                lambda r: per_call(r.runtime.import_net)),
            row("import of the package (`-X importtime`, cumulative)",
                lambda r: per_call(r.runtime.import_self)),
        ],
    )  # fmt: skip
    lines += [
        "",
        f"## The generated package on each Python (locale `{RUNTIME_LOCALE}`)",
        "",
        "The same measurements under each Python the package supports that this machine has "
        "(`bench/pythons.py`: pyenv's newest of each minor version, else `python3.X` on "
        "PATH), the bench's own interpreter first; the same codes as above. Each import "
        "runs without the site module (`-S`), as in the table above: what an interpreter's "
        "site-packages load at start-up would lend the package standard modules it needs. "
        "The last column is the CPU time of the first use of `ErrorCode`, once, in the same "
        "process: it builds the enum of every code (what `failure()` and `CODES` first "
        "need; a message does not).",
        "",
    ]
    rows = [
        [
            f"{label(r.size)}",
            found.python,
            per_call(found.message_plain),
            per_call(found.stdlib_plain),
            ratio(found.message_plain, found.stdlib_plain),
            per_call(found.message_plural),
            per_call(found.stdlib_plural),
            ratio(found.message_plural, found.stdlib_plural),
            per_call(found.import_net),
            per_call(found.import_self),
            per_call(found.enum_build),
        ]
        for r in results
        for found in r.runtimes
    ]
    header = [
        "size", "Python", "`message()`, plain", "stdlib", "**ratio**", "`message()`, plural",
        "stdlib", "**ratio**", "import (net)", "import (`-X importtime`)",
        "first use of `ErrorCode` (builds it)",
    ]  # fmt: skip
    lines += table(header, rows)
    notes = [
        f"- {label(r.size)}, run time on Python {found.python}: {note}"
        for r in results
        for found in r.runtimes
        for note in dict.fromkeys(found.notes)
    ]
    if notes:
        lines += ["", "Notes from the run:", "", *notes]
    return lines


@dataclass
class Target:
    text: str
    measured: str
    met: bool | None  # None: not measured


def docs_label(size: synth.Size) -> str:
    """Codes x languages, the source language included (the site publishes it too)."""
    return f"{size.codes:,} × {size.locales + 1}"


def docs_key(size: synth.Size) -> str:
    """How ``--docs-sizes`` names a docs size: codes x languages, the source one included."""
    return f"{size.codes}x{size.locales + 1}"


def parse_docs_sizes(text: str) -> list[tuple[synth.Size, float]]:
    """The entries of ``DOCS`` that ``text`` names (``1000x3,1000x7``), in the table's order."""
    known = {docs_key(size): (size, target) for size, target in DOCS}
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise ValueError(
            f"unknown docs size {', '.join(unknown) or repr(text)}: choose from " + ", ".join(known)
        )
    return [entry for entry in DOCS if docs_key(entry[0]) in names]


def docs_targets(
    docs: Sequence[DocsResult], sizes: Sequence[tuple[synth.Size, float]] = DOCS
) -> list[Target]:
    """Each docs size's build target, judged twice: on a rebuild after an edit (the build a
    registry author waits for) and on the first build into an empty folder (a fresh clone),
    which also creates every file and folder of the site. A size not in ``docs`` was not
    measured; one whose site left a language out is not met, however fast."""
    found = []
    for size, target in sizes:
        result = next((r for r in docs if r.size == size), None)
        steps = [
            (result.build if result else None, "a rebuild after an edit"),
            (result.first if result else None, "the first, into an empty folder"),
        ]
        missing = result.missing if result else ()
        left_out = f"; {', '.join(missing)} not published" if missing else ""
        for step, what in steps:
            text = f"docs build, {docs_label(size)}, under {target:.0f} s: {what}"
            if step is None:
                found.append(Target(text, "not measured", None))
            elif step.value is None:
                met = False if step.timeout is not None or missing else None
                found.append(Target(text, step.show() + left_out, met))
            else:
                cpu = f"; CPU time {seconds(statistics.median(step.cpu))}" if step.cpu else ""
                met = step.value < target and not missing
                found.append(Target(text, step.show() + cpu + left_out, met))
    return found


def speed_targets(r: SizeResult) -> list[Target]:
    """The targets of one size that the GNU chain and fixed times set: a full generation in
    half the time of msgmerge + msgfmt and a third of msgmerge's memory, an edit of one PO
    file under 1.5 s, check under 2 s."""
    where = label(r.size)
    full, gnu = r.full.value, r.gnu.value
    memory, theirs = r.full.rss_kb, r.gnu.rss_kb
    if r.pairs:  # judged on the runs made side by side (see side_by_side)
        paired = statistics.median(mine / other for mine, other in r.pairs)
        speed = Target(
            f"{where}: full generation ≤ 0.5× msgmerge + msgfmt",
            f"side by side in turns, {paired_ratio(r)}; the steps' medians "
            f"{r.full.show()} vs {r.gnu.show()} ({ratio(full, gnu)})",
            paired <= 0.5,
        )
    else:
        speed = Target(
            f"{where}: full generation ≤ 0.5× msgmerge + msgfmt",
            f"{r.full.show()} vs {r.gnu.show()} ({ratio(full, gnu)})",
            None if full is None or gnu is None else full <= 0.5 * gnu,
        )
    found = [
        speed,
        Target(
            f"{where}: peak memory of a full generation (ru_maxrss) ≤ 3× msgmerge's",
            f"{megabytes(memory)} vs {megabytes(theirs)} ({ratio(memory, theirs)})",
            None if not memory or not theirs else memory <= 3 * theirs,
        ),
    ]
    for step, limit in ((r.one_po, 1.5), (r.check, 2.0)):
        found.append(
            Target(
                f"{where}: {step.name} under {limit:g} s",
                step.show(),
                None if step.value is None else step.value < limit,
            )
        )
    return found


def runtime_targets(r: SizeResult) -> list[Target]:
    """The run-time targets of one size, under the bench's own interpreter: the package
    imported in 30 ms, message() in half the time of stdlib gettext + str.format."""
    where = label(r.size)
    return [import_target(where, r.runtime), *message_targets(where, r.runtime, 0.5)]


def python_targets(results: Sequence[SizeResult]) -> list[Target]:
    """Issue 50's run-time targets, on the largest size, under each Python the package
    supports: message() in at most 0.8 times the time of stdlib gettext + str.format, the
    import in 30 ms. A supported Python this machine does not have is not measured."""
    if not results:
        return []
    r = max(results, key=lambda one: one.size.codes)
    found: list[Target] = []
    for version in pythons.SUPPORTED:
        on = next((one for one in r.runtimes[1:] if one.python.startswith(f"{version}.")), None)
        if on is None:
            where = f"{label(r.size)} on Python {version}"
            found.append(Target(f"{where}: message() and import", "not found", None))
            continue
        where = f"{label(r.size)} on Python {on.python}"
        found += [*message_targets(where, on, 0.8), import_target(where, on)]
    return found


def import_target(where: str, found: Runtime) -> Target:
    return Target(
        f"{where}: import of the generated package (byte code cached) ≤ 30 ms",
        seconds(found.import_net) if found.import_net is not None else "not measured",
        None if found.import_net is None else found.import_net <= 0.030,
    )


def message_targets(where: str, found: Runtime, share: float) -> list[Target]:
    """message() in at most ``share`` of the time of stdlib (n)pgettext + str.format, for the
    plain message and the plural one."""
    return [
        Target(
            f"{where}: message() ≤ {share:g}× stdlib (n)pgettext + format, {what} message",
            f"{per_call(a)} vs {per_call(b)} ({ratio(a, b)})",
            None if a is None or b is None else a <= share * b,
        )
        for what, a, b in (
            ("plain", found.message_plain, found.stdlib_plain),
            ("plural", found.message_plural, found.stdlib_plural),
        )
    ]


def targets(
    results: Sequence[SizeResult], info: Machine, docs: Sequence[DocsResult] = ()
) -> list[Target]:
    found: list[Target] = []
    big = next((r for r in results if r.size == synth.Size(10000, 30)), None)
    noop = big.noop if big else None
    if noop is None or noop.value is None:
        why = "not measured" if noop is None else noop.show()
        found.append(
            Target(
                "no-op regeneration at 10,000 × 30 under 1 s",
                why,
                None if noop is None or noop.timeout is None else False,
            )
        )
        found.append(
            Target(
                'no-op regeneration at 10,000 × 30 under 5× bare `python -c "import generator"`',
                why,
                found[-1].met,
            )
        )
    else:
        found.append(
            Target(
                "no-op regeneration at 10,000 × 30 under 1 s", seconds(noop.value), noop.value < 1
            )
        )
        limit = 5 * info.bare_generator
        found.append(
            Target(
                'no-op regeneration at 10,000 × 30 under 5× bare `python -c "import generator"`',
                f"{seconds(noop.value)} vs 5 × {seconds(info.bare_generator)} = {seconds(limit)} "
                f"({ratio(noop.value, info.bare_generator)})",
                noop.value < limit,
            )
        )
    for r in results:
        where = label(r.size)
        full, other = r.full.value, r.pybabel.value
        if full is not None and other is not None:
            found.append(
                Target(
                    f"{where}: full catalog generation faster than pybabel update + compile",
                    f"{seconds(full)} vs {seconds(other)} ({ratio(full, other)})",
                    full < other,
                )
            )
        elif r.full.timeout is not None and other is not None:
            found.append(
                Target(
                    f"{where}: full catalog generation faster than pybabel update + compile",
                    f"{r.full.show()} vs {seconds(other)}",
                    False if r.full.timeout >= other else None,
                )
            )
        else:
            found.append(
                Target(
                    f"{where}: full catalog generation faster than pybabel update + compile",
                    f"{r.full.show()} vs {r.pybabel.show()}",
                    None,
                )
            )
        mine, theirs = r.compile_mo.value, r.msgfmt.value
        found.append(
            Target(
                f"{where}: MO compilation within 2× msgfmt",
                f"{r.compile_mo.show()} vs {r.msgfmt.show()} ({ratio(mine, theirs)})",
                None if mine is None or theirs is None else mine <= 2 * theirs,
            )
        )
        found += speed_targets(r)
        found += runtime_targets(r)
    found += python_targets(results)
    found += docs_targets(docs)
    return found


def docs_tables(docs: DocsResult) -> list[str]:
    """The docs site's section: the whole build, each language, and the generation."""
    tags = docs.tags
    lines = [
        f"## Docs site ({docs_label(docs.size)}: {', '.join(tags)})",
        "",
    ]

    def cell(values: list[float]) -> str:
        if not values:
            return "n/a"
        text = seconds(statistics.median(values))
        return f"{text} (median of {len(values)})" if len(values) > 1 else text

    def written(mirrors: list[dict[str, Any]]) -> str:
        if not mirrors:
            return "n/a"
        last = mirrors[-1]
        return (f"{last.get('written', 0):,} written, {last.get('unchanged', 0):,} unchanged, "
                f"{last.get('removed', 0):,} removed (the last run)")  # fmt: skip

    def pages(lang: str) -> str:
        found = docs.languages.get(lang)
        built = f"{found.pages:,} HTML" if found and found.pages else "n/a"
        return f"{docs.markdown_pages.get(lang, 0):,} Markdown → {built}"

    cpu = [
        sum(values) for values in zip(*(lang.cpu for lang in docs.languages.values()), strict=False)
    ]
    rows = [
        ["languages (one MkDocs build each)",
         f"{len(docs.languages)}, {docs.jobs or 'n/a'} at a time"],
        [f"site build as `make site-build` runs it, all {len(tags)} languages, into an "
         "empty `site/build` as in a fresh clone (wall)", docs.first.show()],
        ["— files it wrote", written(docs.first_mirror)],
        [f"site build again after one code's message was edited, all {len(tags)} languages "
         "(wall)", docs.build.show()],
        ["— files it rewrote", written(docs.mirror)],
        [f"the peer: the same pages built by MkDocs with the errorbook plugin off, all "
         f"{len(tags)} languages, into an empty folder (wall)", docs.plain.show()],
        ["— **ratio** the first build / the peer", ratio(docs.first.value, docs.plain.value)],
        ["— **ratio** a rebuild after an edit / the peer",
         ratio(docs.build.value, docs.plain.value)],
        ["where the builds were staged", f"`{docs.staging}`" if docs.staging else "n/a"],
        *[[f"— {lang}: its build's wall time, in the same runs", cell(found.seconds)]
          for lang, found in docs.languages.items()],
        *[[f"— {lang}: its build's CPU time", cell(found.cpu)]
          for lang, found in docs.languages.items()],
        ["CPU time of all the builds", cell(cpu)],
        *[[f"pages, {lang}", pages(lang)] for lang in docs.languages],
        ["errorbook generate, writing every language's pages (wall)", docs.generate.show()],
        ["— of which rendering the site (`site.emit`, in-process)", docs.render.show()],
        ["setup (not measured: synthesis, first generate, translation)", seconds(docs.setup)],
    ]  # fmt: skip
    lines += table(["", docs_label(docs.size)], rows)
    notes = [f"- {note}" for note in dict.fromkeys(docs.notes) if note]
    for step in (docs.generate, docs.render, docs.first, docs.build, docs.plain):
        notes += [f"- {step.name}: {note}" for note in dict.fromkeys(step.notes) if note]
        if step.error:
            notes.append(f"- {step.name}: {step.error}")
    if notes:
        lines += ["", "Notes from the run:", "", *notes]
    return lines


def docs_sizes_text(sizes: Sequence[tuple[synth.Size, float]] = DOCS) -> str:
    """The docs sizes in words: ``1,000 x 3: the source language en, and de and ja
    translated, under 10 s``, and so on."""

    def tags(size: synth.Size) -> str:
        *rest, last = size.tags
        return f"{', '.join(rest)} and {last}" if rest else last

    return "; ".join(
        f"{docs_label(size)}: the source language en, and {tags(size)} translated, "
        f"under {target:.0f} s"
        for size, target in sizes
    )


def verdict(met: bool | None) -> str:
    return {True: "met", False: "**not met**", None: "not measured"}[met]


def report(
    results: Sequence[SizeResult],
    info: Machine,
    argv: Sequence[str],
    docs: Sequence[DocsResult] = (),
    example: ExampleResult | None = None,
) -> str:
    sizes = ", ".join(label(r.size) for r in results)
    lines = [
        "# Performance",
        "",
        f"Measured on {info.date} on a machine with {info.cpus} CPUs ({info.cpu_model}), "
        f"Python {info.python}, Babel {info.babel} and GNU gettext {info.gettext}; errorbook "
        f"{info.errorbook} at commit {info.commit}. Load average (1, 5, 15 min) at the start "
        f"of the run: {info.load}; at its end: {info.load_end}. The whole run took "
        f"{info.total / 60:.1f} minutes.",
        "",
        "These numbers come from `make bench` (which runs `.venv/bin/python bench/run.py"
        + (" " + " ".join(argv) if argv else "")
        + "`; `--quick` measures the small size only, `--sizes 1000x10,10000x30` chooses "
        "them, `--no-docs` leaves the docs site out and `--docs-only` measures it alone, "
        "without writing this page; `--docs-sizes "
        + ",".join(docs_key(size) for size, _ in DOCS)
        + "` chooses its sizes; `--runtime-only` measures the generated package at run time "
        "alone, without writing this page). Run it again to reproduce them; it rewrites this "
        "page. "
        "`.venv/bin/python bench/profile_generate.py` shows where one full generation spends "
        "its time, by function.",
        "",
        "## How it is measured",
        "",
        f"For each size ({sizes}; codes × target locales) `bench/synth.py` writes a synthetic "
        "project: a `codes.yaml` with varied prose (sentences of 10 to 40 words), 0 to 3 "
        "placeholders per code and a plural message for about one code in five, and a "
        "`pyproject.toml` without a site or a TypeScript module, so that only the Python package "
        "and the catalogs are generated. `errorbook generate` runs once, then a script fills "
        "about 95% of the entries of every PO file (both domains) with made-up text in each "
        "language's script that keeps every placeholder and fills every plural form.",
        "",
        "- **Full generation**: `errorbook generate` on a fresh copy of that project whose "
        "registry has 5% of its messages reworded, so every catalog merges real changes "
        "(a reworded entry keeps its translation as fuzzy). The copy has no "
        "cache folder, as in a fresh clone, so nothing an earlier run learned is used. "
        "The time is the whole command: it also validates the registry, writes the templates "
        "and the Python package, and checks the catalogs. **With the last run's cache**: the "
        "same rewording in a copy where `errorbook generate` ran after the translators' "
        "change, as in a working tree; the docs catalogs, which the rewording leaves alone, "
        "are then kept without a merge. **One PO file edited**: one msgstr of the first "
        "locale's messages.po changed, on the tree the full generation left.",
        "- **No-op**: `errorbook generate` again on the tree the full generation left; "
        "**check**: `errorbook check` on the same tree (which has the cache of the runs "
        "before it).",
        "- **pybabel**: `pybabel update -N --no-wrap` for both domains from errorbook's "
        "templates (POT) into a copy of the same translated PO files, then `pybabel compile` "
        "of the messages domain (the only one errorbook compiles). `-N` turns fuzzy matching "
        "off: Babel's fuzzy matching compares each new message with every old one and does "
        "not finish at these sizes. **GNU**: `msgmerge --no-fuzzy-matching --no-wrap` per PO "
        "file, then `msgfmt` per messages.po. Without fuzzy matching both drop a reworded "
        "message's translation (it becomes obsolete and the entry untranslated), which is "
        "less work than errorbook does.",
        f"- **Side by side**: where a full generation takes under {PAIRED_UNDER:.0f} s, the "
        f"full generation and the GNU chain run again in {PAIRS} pairs, one right after the "
        "other (GNU first in every other pair), and each pair gives a ratio. The steps above "
        "measure each side's runs apart, minutes apart at most, and this host's speed drifts "
        "over minutes (the CPU time of the same full generation has varied by half within an "
        "hour); a pair sees one host. In the pairs, errorbook's memory is not sampled: the "
        "sampler reads /proc four times a second from the bench's own process, on the same "
        "two cores, and the GNU chain has none beside it. The full generation's target is "
        "judged on the median of the pairs' ratios, shown beside the ratio of the two steps' "
        "medians.",
        "- **MO compilation**: `generator.catalogs.catalog.compile_mo` in-process on the parsed "
        "messages catalogs (parsing not timed; a second row includes errorbook's strict "
        "reader), against one `msgfmt` process per PO file (process start and parsing "
        "included).",
        "- **Run time**: `message(code, locale, **params)` of the generated package against "
        "`gettext.GNUTranslations.pgettext` (or `npgettext`) followed by `str.format` on the "
        "same MO file, per call with `timeit` after a first call has loaded the catalog: "
        "CPU time (`time.process_time`), the two sides measured in turns, 7 rounds each, "
        "the median of each. `bench/runtime_child.py` measures it in a process of its own "
        "that sees the standard library alone (`-I -S`), as the package does, under the "
        "bench's interpreter and under each Python the package supports (3.10 to 3.13) "
        "that the machine has; the import is timed under each of them too, without the site "
        "module (`-S`).",
        f"- **Docs site** ({docs_sizes_text()}; each size has its own target): the same kind "
        "of project, with a site (errorbook's own `mkdocs.base.yml`), translated the same "
        "way, so that every target language is published (a language that is not is noted, "
        "and its size's target is not met); Arabic is laid out right to left (`direction: "
        "rtl`, from CLDR). Each size is measured in the same run, one after the other. "
        "`errorbook generate` on a fresh copy writes every language's pages; then "
        "the site is built as `make site-build` builds it, with `errorbook site build`: one "
        "`mkdocs build --strict` process per language (the errorbook plugin included), side "
        "by side, each into a staging folder (in memory where the machine has room in "
        "`/dev/shm`), then `site/build` is brought in line with them, rewriting only the "
        "files whose bytes differ. It is timed twice: into an empty `site/build`, as in a "
        f"fresh clone ({FIRST_RUNS} runs; before each, untimed, the folder and the "
        "memos the plugin kept from the last build (converted pages, search entries, "
        "layouts, compiled templates) are deleted), then "
        "again over the build it left, as `make` rebuilds after an edit "
        f"({DOCS_RUNS} runs; before each, untimed, one more code's message is reworded and "
        "`errorbook generate` run). The disk is synced before each run, so that no earlier "
        "write lands in it; what a run writes is on its way to the disk when it ends, as "
        "after any build. The target is judged on both. The time is the "
        "whole script; each language's wall and CPU time come from its own process (in the "
        "rebuilds). The share "
        "of `errorbook generate` that renders the site is the site emitter's time, measured "
        "in-process over the same pipeline.",
        "- Times are wall-clock medians of a few runs (one run for steps over 20 s, except "
        f"the site build: always {DOCS_RUNS}); peak "
        "memory is `ru_maxrss` of the child process. A step that exceeds its timeout is "
        "killed and shown as timed out. The disk is synced (untimed) before every timed "
        "run, errorbook's and its peers' alike: after the copy of the project it starts "
        "from, after the full generation (before the no-op and check runs) and after a "
        "translator's save, so that no step pays for the writes of the one before it.",
        "- errorbook runs with its modules' byte code cached, as a package pip installed "
        "does (pybabel's Babel was compiled so by pip): the bench compiles errorbook's "
        "modules before it starts and lets Python keep byte code even where "
        "`PYTHONDONTWRITEBYTECODE` is set.",
        "",
        "## Targets",
        "",
    ]
    lines += table(
        ["target", "measured", "verdict"],
        [[t.text, t.measured, verdict(t.met)] for t in targets(results, info, docs)],
    )
    lines += [""]
    if results:
        lines += results_tables(results, info)
        lines += [
            "",
            f"Bare interpreter: `python -c pass` {seconds(info.bare_python)}, "
            f'`python -c "import generator"` {seconds(info.bare_generator)}, '
            f'`python -c "import generator.cli"` {seconds(info.cli_import)} (what the '
            "`errorbook` command imports before it reads anything); whole processes, medians "
            "of 9.",
            "",
        ]
    if example is not None:
        lines += [*example_tables(example), ""]
    for one in docs:
        lines += [*docs_tables(one), ""]
    return "\n".join(lines)


# --- main ------------------------------------------------------------------------------


def parse_sizes(text: str) -> list[synth.Size]:
    sizes = [synth.Size.parse(part) for part in text.split(",") if part.strip()]
    for size in sizes:
        size.tags  # noqa: B018 - validates the locale count
    return sizes


@contextlib.contextmanager
def scratch_folder(keep: bool) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="errorbook-bench-"))
    # The projects' caches, in the scratch folder too: gone with it, never the user's own.
    os.environ["XDG_CACHE_HOME"] = str(folder / "user-cache")
    try:
        yield folder
    finally:
        if keep:
            log(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def runtime_only(sizes: Sequence[synth.Size], keep: bool, timeout: float) -> int:
    """``--runtime-only``: the run-time step alone, for each size; prints its targets and
    tables, and does not write the page, which shows every step or none."""
    missing = [size for size in sizes if RUNTIME_LOCALE not in size.tags]
    if missing:
        raise SystemExit(
            f"the run time is measured in {RUNTIME_LOCALE}: {label(missing[0])} lacks it"
        )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    with scratch_folder(keep) as scratch:
        results = [bench_runtime(size, scratch, timeout) for size in sizes]
    end = " ".join(f"{x:.2f}" for x in os.getloadavg())
    found = [t for r in results for t in runtime_targets(r)] + python_targets(results)
    text = "\n".join(
        [
            f"Load average at the start: {load}; at the end: {end}.",
            "",
            *table(
                ["target", "measured", "verdict"],
                [[t.text, t.measured, verdict(t.met)] for t in found],
            ),
            *runtime_tables(results),
        ]
    )
    print()
    print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="errorbook against pybabel and GNU gettext.")
    parser.add_argument("--quick", action="store_true", help="only the small size (1000x10)")
    parser.add_argument("--sizes", default=None, help=f"sizes, default {DEFAULT_SIZES}")
    parser.add_argument(
        "--timeout",
        type=float,
        default=300,
        help="seconds after which one run of a step is killed and shown as timed out (default 300)",
    )
    parser.add_argument("--no-page", action="store_true", help=f"do not write {PAGE.name}")
    every = ",".join(docs_key(size) for size, _ in DOCS)
    parser.add_argument("--no-docs", action="store_true", help=f"skip the docs site ({every})")
    parser.add_argument(
        "--docs-only",
        action="store_true",
        help=f"only the docs site ({every}); prints, does not write {PAGE.name}",
    )
    parser.add_argument(
        "--docs-sizes",
        default=None,
        help=f"the docs site's sizes, codes x languages with the source one (default {every})",
    )
    parser.add_argument(
        "--runtime-only",
        action="store_true",
        help=f"only the generated package at run time, on each Python it supports "
        f"({RUNTIME_ONLY_SIZE} unless --sizes); prints, does not write {PAGE.name}",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects")
    args = parser.parse_args(argv)
    if args.docs_only and (args.no_docs or args.quick or args.sizes):
        parser.error("--docs-only measures the docs site alone")
    if args.runtime_only and (args.docs_only or args.quick or args.docs_sizes):
        parser.error("--runtime-only measures the package at run time alone")
    if args.runtime_only:
        return runtime_only(parse_sizes(args.sizes or RUNTIME_ONLY_SIZE), args.keep, args.timeout)
    if args.no_docs and args.docs_sizes:
        parser.error("--no-docs leaves the docs site out: no --docs-sizes")
    try:
        docs_sizes = parse_docs_sizes(args.docs_sizes) if args.docs_sizes else list(DOCS)
    except ValueError as exc:
        parser.error(str(exc))
    if len(docs_sizes) < len(DOCS) and not args.docs_only and not args.no_page:
        print(f"{Path(__file__).name}: --docs-sizes measures some docs sizes only, so "
              f"{PAGE.name} is not written")  # fmt: skip
        args.no_page = True  # the page shows every docs size, or none with --no-docs
    sizes = parse_sizes(args.sizes or ("1000x10" if args.quick else DEFAULT_SIZES))
    if args.docs_only:
        sizes, args.no_page = [], True
    elif shutil.which("msgfmt") is None or shutil.which("msgmerge") is None:
        parser.error("GNU gettext (msgmerge, msgfmt) is needed: apt-get install gettext")
    info = machine()
    log(f"errorbook {info.errorbook} ({info.commit}); load average {info.load}")
    results = []
    cached_byte_code()
    with scratch_folder(args.keep) as scratch:
        bare_imports(info, scratch)
        for size in sizes:
            results.append(bench_size(size, scratch, args.timeout))
        example = bench_example(scratch, args.timeout) if sizes else None
        docs = [] if args.no_docs else [
            bench_docs(size, target, scratch, args.timeout) for size, target in docs_sizes
        ]  # fmt: skip
    info.total = time.perf_counter() - _START
    info.load_end = " ".join(f"{x:.2f}" for x in os.getloadavg())
    shown = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--no-page"]
    if args.docs_only:  # not the page: only what was measured
        text = "\n".join(
            [
                f"Load average at the start: {info.load}; at the end: {info.load_end}.",
                "",
                *table(
                    ["target", "measured", "verdict"],
                    [[t.text, t.measured, verdict(t.met)] for t in docs_targets(docs, docs_sizes)],
                ),
                *(line for one in docs for line in ["", *docs_tables(one)]),
            ]
        )
    else:
        text = report(results, info, shown, docs, example)
    print()
    print(text)
    if not args.no_page:
        PAGE.write_text(text, "utf-8")
        log(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
