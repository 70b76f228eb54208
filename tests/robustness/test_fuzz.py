"""Fuzzing the readers of untrusted input (issue 8, part 2): the registry loader and
validator, the PO reader, and the merge that generate runs on a PO file that reads.

Each target runs for ``ERRORBOOK_FUZZ_SECONDS`` (default 10; ``make fuzz`` sets 300) on
mutations of real inputs (codes.yaml, the corpus of invalid registries, the PO files under
locales/: byte flips, deletions, duplicated and swapped lines, inserted YAML fragments or PO
lines) and on raw bytes and text. For every input:

- no exception other than :class:`~generator.diagnostics.InvalidInput` escapes;
- every problem is a diagnostic whose line and column lie inside the input;
- the call uses at most ``HANG_SECONDS`` of CPU time and ends within ``WAIT_SECONDS`` (hang
  guards, not a benchmark: CPU time, because a loaded machine stretches the wall clock, and a
  far longer wall-clock bound for a call that blocks without computing);
- the memory it allocates peaks below ``PEAK_BYTES``, and what stays allocated across all
  inputs, in the code under test (errorbook, Babel, PyYAML; not Hypothesis, which keeps
  what it tried, nor this harness), stays below ``GROWTH_BYTES``;
- for the merge target, the PO file generate writes reads back without a problem.

Each kind of problem is collected over the whole budget with the smallest input that shows
it, and has a test of its own per target, so that one known problem (marked xfail) does not
stop the search for the others. Known problems are checked first on every run (the
regression inputs), so those tests fail the same way each time. The counts and the problems
found go to ``test-artifacts/fuzz.json``.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import re
import signal
import sys
import time
import traceback
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.catalogs import pofile
from generator.catalogs.catalog import compile_mo, merge
from generator.catalogs.checks import check_catalog
from generator.catalogs.entries import DOMAINS
from generator.diagnostics import Diagnostics, InvalidInput
from generator.registry.loader import decode, load_text
from generator.registry.model import Registry
from generator.registry.validate import load_registry, validate

from ..conftest import MINIMAL, ROOT

BUDGET_SECONDS = float(os.environ.get("ERRORBOOK_FUZZ_SECONDS", "10"))
HANG_SECONDS = 5.0  # CPU seconds
WAIT_SECONDS = 60.0  # wall-clock seconds
PEAK_BYTES = 200 * 1024 * 1024
GROWTH_BYTES = 200 * 1024 * 1024
ARTIFACT = ROOT / "test-artifacts" / "fuzz.json"

# --- seeds ---------------------------------------------------------------------------------

YAML_SEEDS = [
    (ROOT / "codes.yaml").read_bytes(),
    MINIMAL.encode("utf-8"),
    *(p.read_bytes() for p in sorted((ROOT / "tests" / "registries" / "invalid").glob("*.yaml"))),
]
PO_SEEDS = [
    p.read_bytes()
    for p in sorted((ROOT / "locales").rglob("*"))
    if p.suffix in (".po", ".pot") and p.is_file()
]
assert len(YAML_SEEDS) > 10 and len(PO_SEEDS) > 10

YAML_FRAGMENTS = [
    b"&a ",
    b"*a",
    b"&anchor [1, 2]",
    b"<<: *a",
    b"!!python/object/apply:os.system ['true']",
    b"!custom ",
    b"!!binary aGk=",
    b"? ",
    b"- ",
    b": ",
    b"{",
    b"}",
    b"[",
    b"]",
    b"'",
    b'"',
    b"|\n",
    b">-\n",
    b"|+2\n",
    b"\t",
    b"---\n",
    b"...\n",
    b"%YAML 1.1\n",
    b"%TAG ! tag:example.org,2000:\n",
    b"#",
    b"\\u",
    b'"\\x"',
    b'"\\U0010FFFF"',
    b'"\\ud800"',
    b"\xc3",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"\x00",
    b"\r",
    b"\r\n",
    b"~",
    b"null",
    b"0x1F",
    b"0o17",
    b"5:00",
    b"1e400",
    b"-.inf",
    b".nan",
    b"2001-12-14",
    b"yes",
    b"999999999999999999999999999999",
    b"-9223372036854775809",
    b"[" * 200,
    b"{a: " * 100,
    b"- " * 100,
    b"    " * 60 + b"x: 1\n",
    b"{{count}}",
    b"{0}",
    b"{x.__class__}",
    b"{count",
    b"since: 1.0.0",
    b"layer: ",
    b"message:\n  one: x\n  other: y\n  count: z\n",
    b"placeholders: {n: {description: d, example: 1, type: integer}}",
    b"retry: {policy: bounded, limit: nope}",
    b"deprecated: {since: 9.9.9, replaced_by: X}",
]
PO_KEYWORDS = [
    "msgid",
    "msgstr",
    "msgctxt",
    "msgid_plural",
    "msgstr[0]",
    "msgstr[1]",
    "msgstr[5]",
    "msgstr[99]",
    "msgstr[-1]",
    "msgstr[]",
    "msgstr[x]",
    "#~ msgid",
    "#~ msgstr",
    "#~ msgctxt",
    "#| msgid",
    "#| msgctxt",
    "#~| msgid",
    "#, fuzzy",
    "#, python-brace-format",
    "#,",
    "#.",
    "#:",
    "#",
    "",
    "msgid ",
    "domain",
]
PO_PIECES = [
    "\\n",
    "\\t",
    '\\"',
    "\\\\",
    "\\x41",
    "\\101",
    "\\7",
    "\\x",
    "\\q",
    "\\u0041",
    "\\",
    '"',
    "{count}",
    "{0}",
    "{x!r}",
    "{",
    "}",
    "Plural-Forms: nplurals=2; plural=(n != 1);\\n",
    "Plural-Forms: nplurals=1; plural=0;\\n",
    "Plural-Forms: nplurals=999999999; plural=n;\\n",
    "Plural-Forms: nplurals=3; plural=(n%7);\\n",
    "Plural-Forms: nplurals=2; plural=((((((((((n))))))))));\\n",
    "Content-Type: text/plain; charset=ISO-8859-1\\n",
    "Content-Type: text/plain; charset=utf-16\\n",
    "Content-Type: text/plain; charset=nonsense\\n",
    "Language: xx_YY\\n",
    "Language: \\n",
    "Language: zh-Hant-TW\\n",
    "POT-Creation-Date: not a date\\n",
    "PO-Revision-Date: 2024-13-45 99:99+9999\\n",
    "X-Generator: fuzz\\n",
    "é",
    "😀",
    "\u202e",
]

# --- strategies ----------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes], fragments: st.SearchStrategy[bytes]) -> bytes:
    """A seed with a few structural or byte-level mutations."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(
            st.sampled_from(
                (
                    "flip",
                    "byte",
                    "delete",
                    "insert",
                    "duplicate line",
                    "delete line",
                    "swap lines",
                    "indent",
                    "truncate",
                    "crlf",
                )
            )
        )
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "byte" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif kind == "insert":
            data[at:at] = draw(fragments)
        elif kind == "truncate":
            del data[at:]
        elif kind == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        else:
            lines = _lines(bytes(data))
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "duplicate line":
                lines.insert(i, lines[i])
            elif kind == "delete line":
                del lines[i]
            elif kind == "swap lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:  # indent: add or take away leading spaces
                delta = draw(st.integers(-4, 4))
                lines[i] = b" " * max(delta, 0) + lines[i][max(-delta, 0) :]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


_TEXT = st.text(max_size=40)
_SCALAR = st.one_of(
    _TEXT, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False), st.just("")
)
_KEYS = st.sampled_from(
    (
        "registry",
        "layers",
        "codes",
        "limits",
        "adapters",
        "name",
        "title",
        "version",
        "package",
        "source_locale",
        "locales",
        "docs_url",
        "description",
        "proves",
        "actor",
        "shape",
        "layer",
        "message",
        "one",
        "other",
        "count",
        "placeholders",
        "example",
        "type",
        "meaning",
        "recovery",
        "kind",
        "steps",
        "avoid",
        "retry",
        "policy",
        "limit",
        "limits",
        "related",
        "http",
        "jsonrpc",
        "since",
        "deprecated",
        "retired",
        "replaced_by",
        "reason",
        "default",
        "unit",
        "min",
        "max",
        "bounds",
        "protocol",
        "action",
        "DOOR_CLOSED",
        "ITEMS_REFUSED",
        "front",
        "inner",
        "attempts",
    )
)
_TREE = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(_KEYS, _TEXT), inner, max_size=6)
    ),
    max_leaves=30,
)


@st.composite
def yaml_documents(draw: st.DrawFn) -> bytes:
    """A well-formed YAML document with the registry's keys and random values, or the real
    minimal registry with one section replaced by a random tree."""
    if draw(st.booleans()):
        tree = draw(st.dictionaries(_KEYS, _TREE, max_size=6))
    else:
        tree = yaml.safe_load(MINIMAL)
        section = draw(st.sampled_from(sorted(tree)))
        if draw(st.booleans()):
            tree[section] = draw(_TREE)
        elif isinstance(tree[section], dict) and tree[section]:
            key = draw(st.sampled_from(sorted(tree[section])))
            tree[section][key] = draw(_TREE)
    style = draw(st.sampled_from((None, False, True)))
    return yaml.safe_dump(tree, default_flow_style=style, allow_unicode=draw(st.booleans())).encode(
        "utf-8"
    )


def _po_line(parts: list[str]) -> bytes:
    keyword, *pieces = parts
    text = "".join(pieces)
    quoted = f'"{text}"' if not text.startswith('"') else text
    return f"{keyword} {quoted}\n".encode()


_PO_LINES = st.lists(
    st.one_of(st.sampled_from(PO_PIECES), st.text(max_size=5)), min_size=0, max_size=5
).flatmap(lambda pieces: st.sampled_from(PO_KEYWORDS).map(lambda k: _po_line([k, *pieces])))

YAML_INPUTS = st.one_of(
    mutated(YAML_SEEDS, st.one_of(st.sampled_from(YAML_FRAGMENTS), st.binary(max_size=16))),
    yaml_documents(),
    st.text().map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=512),
)
PO_INPUTS = st.one_of(
    mutated(PO_SEEDS, st.one_of(_PO_LINES, st.binary(max_size=16))),
    st.lists(_PO_LINES, max_size=30).map(b"".join),
    st.text().map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=512),
)

# --- the harness ---------------------------------------------------------------------------


@dataclass
class Tally:
    budget_seconds: float
    seconds: float = 0.0
    tried: int = 0
    generated: int = 0  # of those tried, made by Hypothesis (the rest are regression inputs)
    rejected: int = 0  # refused, with diagnostics
    accepted: int = 0
    failures: int = 0  # inputs that raised an exception other than InvalidInput
    over_bounds: int = 0  # inputs that took too long or too much memory
    misplaced: int = 0  # inputs with a diagnostic that points outside them
    slowest_seconds: float = 0.0
    peak_bytes: int = 0


#: Kinds of problems collected over a whole run, each checked by a test of its own.
CRASHES, BOUNDS, POSITIONS, OUTPUT = "crashes", "bounds", "positions", "output"


@dataclass
class Outcome:
    """What one input did: accepted, or rejected with these diagnostics about this text."""

    accepted: bool
    diagnostics: Diagnostics | None = None
    text: str = ""
    problem: tuple[str, str] | None = None  # (kind, problem) of an accepted input


@dataclass
class Run:
    tally: Tally
    #: kind -> problem -> the smallest input that shows it
    found: dict[str, dict[str, bytes]] = field(
        default_factory=lambda: {CRASHES: {}, BOUNDS: {}, POSITIONS: {}, OUTPUT: {}}
    )

    def record(self, kind: str, problem: str, data: bytes) -> None:
        key = _signature(problem)
        known = self.found[kind].get(key)
        if known is None or len(data) < len(known):
            self.found[kind][key] = data


class Hang(Exception):
    """An input took longer than HANG_SECONDS."""


class _BudgetSpent(BaseException):
    """The time budget is spent: stops Hypothesis (which would take an Exception for a
    failure to shrink)."""


@contextlib.contextmanager
def hang_guard() -> Iterator[None]:
    """A call that computes for HANG_SECONDS of CPU time, or waits WAIT_SECONDS, is a hang."""

    def spun(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"an input took more than {HANG_SECONDS} s of CPU time")

    def waited(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"an input took longer than {WAIT_SECONDS} s")

    on_prof = signal.signal(signal.SIGPROF, spun)
    on_alarm = signal.signal(signal.SIGALRM, waited)
    signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
    signal.setitimer(signal.ITIMER_REAL, WAIT_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, on_prof)
        signal.signal(signal.SIGALRM, on_alarm)


_BREAKS = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")


def misplaced(diagnostics: Diagnostics, text: str) -> str:
    """The first diagnostic that does not point into the input, or ''. Inside means a line
    that exists (lines split at \\n, or at every break YAML knows) and a column no further
    than one past that line's end; there must be at least one diagnostic."""
    if not diagnostics.items:
        return "refused without a diagnostic"
    by_newline = text.split("\n")
    by_break = _BREAKS.split(text)
    for item in diagnostics.items:
        line, column = item.mark.line, item.mark.column
        fits = line >= 1 and any(
            line <= len(rows) and 1 <= column <= len(rows[line - 1]) + 1
            for rows in (by_newline, by_break)
        )
        if not fits:
            return f"{item.render().strip()} [the input has {len(by_newline)} lines]"
    return ""


def _signature(problem: str) -> str:
    """One key per kind of problem: numbers, code points and quoted text do not make a new
    kind."""
    problem = problem.split(": error: ", 1)[-1].split(" [the input has", 1)[0]
    problem = re.sub(r"U\+[0-9A-F]{4,6}", "U+_", problem)
    return re.sub(r"'[^']*'|\d+", "_", problem)[:100]


def crash_signature(exc: BaseException) -> str:
    """The exception and where in errorbook (or below it) it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/generator/" in f.filename] or frames
    where = f"{Path(ours[-1].filename).name}:{ours[-1].name}" if ours else "?"
    return f"{type(exc).__name__} in {where}: {exc}"


RUNS: dict[str, Run] = {}

#: Whose allocations count towards GROWTH_BYTES: the code under test. Hypothesis keeps every
#: choice it made (hundreds of MiB in a `make fuzz` run), and this harness keeps the
#: smallest input of each problem; neither is a leak in errorbook.
UNDER_TEST = (f"{ROOT / 'generator'}{os.sep}*", "*/babel/*", "*/yaml/*")


def _kept_by_code_under_test() -> int:
    """Bytes allocated in the code under test that are still alive. Grouped by file first:
    filtering a snapshot trace by trace takes seconds once Hypothesis holds millions."""
    stats = tracemalloc.take_snapshot().statistics("filename")
    return sum(
        stat.size
        for stat in stats
        if any(fnmatch.fnmatch(stat.traceback[0].filename, pattern) for pattern in UNDER_TEST)
    )


#: The fuzz runs' Hypothesis settings: the budget is ours, and problems are recorded here with
#: their inputs, not in Hypothesis's database.
UNTIMED = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def warm_up(inputs: st.SearchStrategy[bytes]) -> None:
    """Draw one input, untimed and untraced. The first text strategy of a fresh checkout makes
    Hypothesis build its table of Unicode characters (.hypothesis/unicode_data), which takes
    about 20 s under tracemalloc: in CI, always a fresh clone, it used to spend the whole budget
    before the first generated input."""

    @settings(UNTIMED, max_examples=1)
    @given(inputs)
    def once(data: bytes) -> None:
        pass

    once()


def fuzz(
    name: str,
    inputs: st.SearchStrategy[bytes],
    call: Callable[[bytes], Outcome],
    regressions: list[bytes],
) -> Run:
    """Run ``call`` on the regression inputs, then on generated inputs for the time budget,
    once per target and session. Every problem (an exception other than InvalidInput, an
    input over the time or memory bound, a misplaced diagnostic, a problem with the output)
    is recorded by kind with the smallest input that shows it, and the run goes on: one
    known problem must not stop the search for others. Each kind has a test of its own."""
    if name in RUNS:
        return RUNS[name]
    warm_up(inputs)
    run = RUNS[name] = Run(Tally(BUDGET_SECONDS))
    tally = run.tally
    start = time.monotonic()
    stop = start + BUDGET_SECONDS
    tracemalloc.start()
    baseline = _kept_by_code_under_test()

    def grown() -> list[str]:
        kept = _kept_by_code_under_test() - baseline
        return [f"{kept >> 20} MiB stay allocated"] if kept >= GROWTH_BYTES else []

    def check(data: bytes) -> None:
        tally.tried += 1
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        began, cpu_began = time.monotonic(), time.process_time()
        try:
            with hang_guard():
                outcome = call(data)
        except Hang as exc:
            tally.over_bounds += 1
            run.record(BOUNDS, str(exc), data)
            return
        except Exception as exc:
            tally.failures += 1
            run.record(CRASHES, crash_signature(exc), data)
            return
        took, cpu = time.monotonic() - began, time.process_time() - cpu_began
        _, peak = tracemalloc.get_traced_memory()
        tally.slowest_seconds = max(tally.slowest_seconds, round(took, 3))
        tally.peak_bytes = max(tally.peak_bytes, peak - before)
        bounds = []
        if cpu >= HANG_SECONDS:
            bounds.append(f"an input took {cpu:.1f} s of CPU time")
        if peak - before >= PEAK_BYTES:
            bounds.append(f"an input allocated {(peak - before) >> 20} MiB")
        for problem in bounds:
            run.record(BOUNDS, problem, data)
        tally.over_bounds += bool(bounds)
        if outcome.problem is not None:
            run.record(*outcome.problem, data)
        if outcome.accepted:
            tally.accepted += 1
        else:
            tally.rejected += 1
            assert outcome.diagnostics is not None
            problem = misplaced(outcome.diagnostics, outcome.text)
            if problem:
                tally.misplaced += 1
                run.record(POSITIONS, problem, data)

    @settings(UNTIMED, max_examples=10**6)
    @given(inputs)
    def generated(data: bytes) -> None:
        if time.monotonic() > stop:
            raise _BudgetSpent
        tally.generated += 1
        check(data)

    try:
        for data in regressions:
            check(data)
        generated()
    except _BudgetSpent:
        pass
    finally:
        for problem in grown():  # once, at the end: a look takes seconds, and a leak only grows
            run.record(BOUNDS, problem, b"")
        tracemalloc.stop()
        tally.seconds = round(time.monotonic() - start, 2)
        report(name, run)
    return run


def report(name: str, run: Run) -> None:
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    try:
        found = json.loads(ARTIFACT.read_text("utf-8"))
    except (OSError, ValueError):
        found = {}
    if not isinstance(found, dict):
        found = {}
    found[name] = {**asdict(run.tally), "problems": {k: sorted(v) for k, v in run.found.items()}}
    ARTIFACT.write_text(json.dumps(found, indent=2, sort_keys=True) + "\n", "utf-8")


def show(name: str, run: Run, capsys: pytest.CaptureFixture[str]) -> None:
    t = run.tally
    with capsys.disabled():
        print(
            f"\nfuzz {name}: {t.tried} inputs ({t.generated} generated) in {t.seconds} s "
            f"({t.rejected} rejected with "
            f"diagnostics, {t.accepted} accepted, {t.failures} failures, {t.over_bounds} over "
            f"the time or memory bound, {t.misplaced} with a misplaced diagnostic; slowest "
            f"{t.slowest_seconds:.2f} s, peak {t.peak_bytes >> 20} MiB)"
        )


def listing(found: dict[str, bytes]) -> str:
    return "\n".join(f"{key}\n    input: {data[:300]!r}" for key, data in sorted(found.items()))


# --- the targets ---------------------------------------------------------------------------


def load_registry_bytes(data: bytes) -> Outcome:
    """What ``errorbook validate`` does with a file's bytes."""
    text: str | None = None
    try:
        text = decode(data, "codes.yaml")
        validate(load_text(text, "codes.yaml"), "codes.yaml")
    except InvalidInput as exc:
        shown = text if text is not None else data.decode("utf-8", "replace")
        return Outcome(False, exc.diagnostics, shown)
    return Outcome(True)


def read_po_bytes(data: bytes) -> Outcome:
    """What ``errorbook check`` and ``generate`` do first with a translator's PO file."""
    text = data.decode("utf-8", "replace")
    try:
        _, lines, found = pofile.read(data, "messages.po", "de", "messages")
    except InvalidInput as exc:  # allowed, although read() reports problems as values
        return Outcome(False, exc.diagnostics, text)
    if found.has_errors:
        return Outcome(False, found, text)
    rows = len(text.split("\n"))
    wrong = [line for line in lines.values() if not 1 <= line <= rows]
    if wrong:
        return Outcome(True, problem=(POSITIONS, f"entry lines {wrong[:3]} outside the input"))
    return Outcome(True)


_REGISTRY: list[Registry] = []


def merge_po_bytes(data: bytes) -> Outcome:
    """What ``generate`` does with a PO file that reads: check it, merge it with the
    registry (this repository's, both domains), write it (and compile the UI messages), and
    read what it wrote."""
    if not _REGISTRY:
        _REGISTRY.append(load_registry(ROOT / "codes.yaml"))
    registry = _REGISTRY[0]
    text = data.decode("utf-8", "replace")
    problem = None
    for domain in DOMAINS:
        path = f"{domain}.po"
        parsed, lines, found = pofile.read(data, path, "de", domain)
        if found.has_errors:
            return Outcome(False, found, text)
        checked = check_catalog(parsed, lines, path, "de", domain, registry, text)
        wrong = misplaced(checked, text) if checked.items else ""
        if wrong and problem is None:
            problem = (POSITIONS, wrong)
        merged = merge(registry, domain, "de", parsed)
        written = pofile.write(merged)
        if domain == "messages":
            compile_mo(merged, {code.name: code.message.count for code in registry.codes})
        _, _, again = pofile.read(written, f"{domain}.po", "de", domain)
        if again.has_errors and problem is None:
            first = again.sorted()[0].message
            problem = (OUTPUT, f"errorbook wrote a {domain}.po it cannot read: {first}")
    return Outcome(True, problem=problem)


#: Inputs that once showed a problem; each run checks them first, so that the tests of a
#: known problem fail the same way on every run.
YAML_REGRESSIONS = [
    "meaning: 日本語の説明\nnext: ok\nbad: \x01\n".encode(),
    b"a: 1\nl",
    b"a: {",
]
HUGE_NPLURALS = (
    b'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=200000000; plural=n;\\n"\n\n'
    b'msgctxt "ITEMS"\nmsgid "x"\nmsgid_plural "xs"\nmsgstr[0] "y"\n'
)
PO_REGRESSIONS = [
    b"",
    b'\xef\xbb\xbfmsgid ""\nmsgstr ""\n',
    b'msgid "a\r\nmsgstr ""',
    HUGE_NPLURALS,
]
_LONG = "A long source text that a translator's tool kept as the previous msgid, " * 2
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={charset}\\n"\n"{plural}\\n"\n\n'
GERMAN = "Plural-Forms: nplurals=2; plural=(n != 1);"
MERGE_REGRESSIONS = [
    # Babel wrote the \x1d in this header comment back as a line break (str.splitlines).
    b'#| msgctxt ""\n#| msgid "{Plural-Forms: nplurals=2; plural=(n);\\n{\xc2\xa4hx\x1d"\n',
    (
        HEADER.format(charset="UTF-8", plural=GERMAN)
        + f'#, fuzzy\n#| msgid "{_LONG}"\nmsgctxt "PERMISSION_DENIED"\nmsgid "{_LONG}"\n'
        'msgstr "Übersetzung"\n'
    ).encode(),
    HUGE_NPLURALS,
    HEADER.format(charset="UTF-8", plural="Plural-Forms: nplurals=2; plural=n%0;").encode(),
    HEADER.format(charset="nonsense", plural=GERMAN).encode(),
    (
        HEADER.format(charset="ISO-8859-1", plural=GERMAN)
        + 'msgctxt "NOT_CONFIGURED"\n'
        + 'msgid "Surface is not set up yet, so it cannot answer requests."\nmsgstr "日本"\n'
    ).encode(),
    ("# Tür\n" + HEADER.format(charset="ISO-8859-1", plural=GERMAN)).encode(),
]
TARGETS = {
    "yaml": (YAML_INPUTS, load_registry_bytes, YAML_REGRESSIONS),
    "po": (PO_INPUTS, read_po_bytes, PO_REGRESSIONS),
    "po-merge": (PO_INPUTS, merge_po_bytes, MERGE_REGRESSIONS),
}


def fuzzed(name: str) -> Run:
    return fuzz(name, *TARGETS[name])


HUGE_NPLURALS_REASON = (
    "a Plural-Forms header with a huge nplurals costs time and memory in proportion: Babel's "
    "parser builds a list of nplurals empty strings for each plural entry (nplurals=2e8: over "
    "5 s and GBs; 1e9 takes minutes)"
)


@pytest.mark.parametrize(
    "name",
    [
        "yaml",
        "po",
        "po-merge",
    ],
)
def test_fuzz_raises_nothing_but_invalid_input(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run = fuzzed(name)
    show(name, run, capsys)
    assert run.found[CRASHES] == {}, listing(run.found[CRASHES])
    assert run.tally.rejected > 0
    if name != "yaml":
        assert run.tally.accepted > 0


@pytest.mark.parametrize(
    "name",
    [
        "yaml",
        "po",
        "po-merge",
    ],
)
def test_fuzz_spends_its_budget_on_generated_inputs(name: str) -> None:
    """Set-up must not eat the budget (see warm_up): a run of regression inputs alone proves
    nothing new."""
    run = fuzzed(name)
    assert run.tally.generated > 0, f"only the {run.tally.tried} regression inputs ran"


@pytest.mark.parametrize(
    "name",
    [
        "yaml",
        "po",
        "po-merge",
    ],
)
def test_fuzz_stays_within_time_and_memory_bounds(name: str) -> None:
    run = fuzzed(name)
    assert run.found[BOUNDS] == {}, listing(run.found[BOUNDS])


@pytest.mark.parametrize(
    "name",
    [
        "yaml",
        "po",
        "po-merge",
    ],
)
def test_fuzz_diagnostics_point_into_the_input(name: str) -> None:
    run = fuzzed(name)
    assert run.found[POSITIONS] == {}, listing(run.found[POSITIONS])


def test_fuzz_the_po_merge_writes_what_it_can_read_back() -> None:
    run = fuzzed("po-merge")
    assert run.found[OUTPUT] == {}, listing(run.found[OUTPUT])


def test_the_hang_guard_stops_a_call_that_spins_or_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard is CPU time for a call that computes and the wall clock for one that
    waits; a loaded machine, which stretches only the wall clock, trips neither early."""
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "HANG_SECONDS", 0.2)
    # A spinning call on a machine busy with ten others still gets its 0.2 s of CPU well
    # within 60 s of the wall clock: only the CPU-time guard can stop it.
    monkeypatch.setattr(module, "WAIT_SECONDS", 60)
    with pytest.raises(Hang, match="CPU time"), hang_guard():
        while True:
            pass
    monkeypatch.setattr(module, "WAIT_SECONDS", 0.5)  # a wait uses no CPU time at all
    with pytest.raises(Hang, match=r"longer than 0\.5 s"), hang_guard():
        time.sleep(5)
