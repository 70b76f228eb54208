"""Every registry in tests/registries/invalid/ is refused with exactly the diagnostics it states.

Each case is one small registry, ``<name>.yaml``, with its expected outcome in comment lines at
the top of the file, ended by the first line that is not a comment::

    # case: what the mistake is
    # exit: 1
    # expect: LINE:COLUMN: error: MESSAGE (HINT) [ID]
    # xfail: why errorbook's output is known to be wrong (optional)

There is one ``expect`` line per diagnostic, in the order errorbook prints them, without the
file's path: the test adds the path as errorbook displays it. Each ends in the diagnostic's id
(see generator/diagnostic_ids.py), as errorbook prints it. The test first compares what must
not change between releases, each diagnostic's position, severity and id, and then the whole
text, so a reworded message fails on its wording alone and a different problem fails on its
id. A file whose bytes cannot carry that header (an empty file, bytes that are not UTF-8)
takes it from a sidecar ``<name>.expect`` in the same syntax instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.cli import main

from ..conftest import split_id

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "registries" / "invalid"
PYPROJECT = ROOT / "pyproject.toml"
MIN_CASES = 25

_HEADER_LINE = re.compile(r"# (case|exit|expect|xfail): (.*)\Z")
#: The start of a diagnostic line after its path: line, column and severity.
_POSITION = re.compile(r"(\d+):(\d+): (error|warning): ")


@dataclass(frozen=True)
class Case:
    path: Path
    title: str
    exit: int
    expect: tuple[str, ...]
    xfail: str | None

    @property
    def shown(self) -> str:
        """The registry's path as errorbook shows it: relative to the project root, with '/'."""
        return self.path.relative_to(ROOT).as_posix()


def _header_lines(path: Path) -> tuple[Path, list[str]]:
    """The header's lines: all of a sidecar, or the leading comment lines of the case itself."""
    sidecar = path.with_suffix(".expect")
    if sidecar.exists():
        lines = [line for line in sidecar.read_text("utf-8").splitlines() if line.strip()]
        return sidecar, lines
    header = []
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    return path, header


def read_case(path: Path) -> Case:
    source, lines = _header_lines(path)
    fields: dict[str, list[str]] = {"case": [], "exit": [], "expect": [], "xfail": []}
    for number, line in enumerate(lines, 1):
        match = _HEADER_LINE.match(line.rstrip())
        if match is None:
            raise ValueError(
                f"{source}:{number}: a header line must be '# case|exit|expect|xfail: VALUE', "
                f"not {line!r}"
            )
        fields[match.group(1)].append(match.group(2))
    for key in ("case", "exit", "xfail"):
        if len(fields[key]) > 1:
            raise ValueError(f"{source}: '# {key}:' is given more than once")
    if not fields["case"] or not fields["exit"]:
        raise ValueError(f"{source}: the header needs '# case:' and '# exit:' lines")
    if not fields["expect"]:
        raise ValueError(f"{source}: an invalid registry needs at least one '# expect:' line")
    for line in fields["expect"]:
        if _POSITION.match(line) is None or " [" not in line:
            raise ValueError(
                f"{source}: an '# expect:' line is 'LINE:COLUMN: error: MESSAGE (HINT) [ID]', "
                f"not {line!r}"
            )
    return Case(
        path=path,
        title=fields["case"][0],
        exit=int(fields["exit"][0]),
        expect=tuple(fields["expect"]),
        xfail=fields["xfail"][0] if fields["xfail"] else None,
    )


CASES = [read_case(path) for path in sorted(CORPUS.glob("*.yaml"))]


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.path.stem, marks=marks)


def _summary(expect: tuple[str, ...]) -> list[str]:
    """The lines that end the report: the count, then each id's count when there are several
    problems, the most frequent first."""
    count = len(expect)
    lines = [f"errorbook: {count} problem{'s' if count != 1 else ''} found; nothing was written"]
    if count > 1:
        ids = Counter(split_id(line)[1] for line in expect)
        width = max(len(str(n)) for n in ids.values())
        lines += [
            f"errorbook: {n:>{width}} {id}"
            for id, n in sorted(ids.items(), key=lambda p: (-p[1], p[0]))
        ]
    return lines


def _kinds(lines: list[str]) -> list[tuple[str, str, str, str]]:
    """(line, column, severity, id) of each diagnostic line, given without its path: what a
    case pins down whatever the wording of its messages."""
    kinds = []
    for line in lines:
        position = _POSITION.match(line)
        assert position is not None, line
        row, column, severity = position.groups()
        kinds.append((row, column, severity, split_id(line)[1]))
    return kinds


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_invalid_registry(
    case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ERRORBOOK_DEBUG", raising=False)
    status = main(["validate", "--config", str(PYPROJECT), "--registry", str(case.path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    prefix = f"{case.shown}:"
    shown = [row[len(prefix) :] for row in err.splitlines() if row.startswith(prefix)]
    assert _kinds(shown) == _kinds(list(case.expect)), case.title
    expected = [f"{case.shown}:{line}" for line in case.expect]
    expected += _summary(case.expect)
    assert err == "".join(line + "\n" for line in expected), case.title
    assert out == ""
    assert status == case.exit


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= MIN_CASES, f"only {len(CASES)} invalid registries in {CORPUS}"


def test_every_sidecar_has_its_registry() -> None:
    orphans = [p.name for p in CORPUS.glob("*.expect") if not p.with_suffix(".yaml").exists()]
    assert orphans == []
