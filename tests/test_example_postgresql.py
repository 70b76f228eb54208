"""The second real registry, examples/postgresql: PostgreSQL's SQLSTATE table as errorbook sees it.

codes.yaml there is made by convert.py from PostgreSQL's own errcodes.txt, kept beside it. These
tests hold the example to its source (every line a code, every name unchanged, nothing added),
run errorbook on it as a project of its own (validate, generate, check, the site built
strictly) and use the package it generates. `make example` runs the same CI steps in the
example's folder.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

from .conftest import ROOT, SUBPROCESS_TIMEOUT, errorbook_process
from .test_registry_words import words

EXAMPLE = ROOT / "examples" / "postgresql"
SOURCE = EXAMPLE / "errcodes.txt"


class Line(NamedTuple):
    sqlstate: str
    severity: str
    macro: str
    spec_name: str | None


def source_lines() -> list[Line]:
    """Every code line of errcodes.txt, read as its header describes them (independently of
    convert.py): whitespace-separated sqlstate, E/W/S, macro and an optional spec_name."""
    lines = []
    for raw in SOURCE.read_text("utf-8").splitlines():
        if not raw.strip() or raw.startswith(("#", "Section:")):
            continue
        parts = raw.split()
        assert len(parts) in (3, 4), raw
        lines.append(Line(parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else None))
    return lines


def sections() -> list[str]:
    text = SOURCE.read_text("utf-8")
    return re.findall(r"^Section: Class [0-9A-Z]{2} - (.+)$", text, re.M)


@pytest.fixture(scope="module")
def package() -> Iterator[ModuleType]:
    sys.path.insert(0, str(EXAMPLE))
    try:
        yield importlib.import_module("postgresql_errors")
    finally:
        sys.path.remove(str(EXAMPLE))


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The example as a project of its own, outside this repository's tree."""
    target = tmp_path / "postgresql"
    shutil.copytree(
        EXAMPLE,
        target,
        ignore=shutil.ignore_patterns("__pycache__", "build"),
    )
    return target


def test_the_source_is_postgresqls_table() -> None:
    lines = source_lines()
    assert len(lines) == 265 and len(sections()) == 43
    assert Line("22012", "E", "ERRCODE_DIVISION_BY_ZERO", "division_by_zero") in lines
    assert SOURCE.read_text("utf-8").startswith(
        "#\n# errcodes.txt\n#      PostgreSQL error codes\n"
    )


def test_codes_yaml_is_what_convert_py_makes_of_the_source() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE / "convert.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_every_line_is_one_code_with_its_names_unchanged(package: ModuleType) -> None:
    lines = source_lines()
    codes, error_code = package.CODES, package.ErrorCode
    assert len(codes) == len(lines)
    for line in lines:
        info = codes[error_code(line.macro)]  # the code's name is the macro, as written
        assert info.code.value == line.macro
        assert (info.fields.sqlstate, info.fields.severity) == (line.sqlstate, line.severity)
        assert info.fields.spec_name == line.spec_name
        # No message text in the source: the condition name, else the macro, and nothing else.
        assert info.message == (line.spec_name or line.macro)
        # The title is the condition name as words: its letters, only spaced and cased.
        if line.spec_name is None:
            assert info.title is None
        else:
            assert re.sub(r"[^a-z0-9]", "", info.title.lower()) == line.spec_name.replace("_", "")
            assert info.title[0].isupper() and "_" not in info.title
        # Nothing invented: no retry, recovery hint, limits or since.
        assert (info.retry, info.hint, info.limits, info.since) == (None, "", (), None)
    # Every SQLSTATE is there, and exactly one code of each carries its condition name; the
    # other lines of a SQLSTATE (aliases such as ERRCODE_UNDEFINED_DATABASE) link to it.
    named = Counter(info.fields.sqlstate for info in codes.values() if info.fields.spec_name)
    assert set(named) == {line.sqlstate for line in lines}
    assert set(named.values()) == {1}
    alias = codes[error_code("ERRCODE_UNDEFINED_DATABASE")]
    assert alias.fields.sqlstate == "3D000" and alias.fields.spec_name is None
    assert alias.related == (error_code("ERRCODE_INVALID_CATALOG_NAME"),)


def test_layers_are_the_classes_in_the_sources_words(package: ModuleType) -> None:
    titles = [info.title for info in package.LAYERS.values()]
    assert titles == [re.sub(r"^Class .. - ", "", s) for s in sections()]
    info = package.CODES[package.ErrorCode.ERRCODE_DIVISION_BY_ZERO]
    assert package.LAYERS[info.layer].title == "Data Exception"


def test_messages(package: ModuleType) -> None:
    assert package.message("ERRCODE_DIVISION_BY_ZERO") == "division_by_zero"
    assert package.message(package.ErrorCode.ERRCODE_UNDEFINED_CURSOR) == "ERRCODE_UNDEFINED_CURSOR"
    # English only: any other locale falls back to it.
    assert package.Translator("de_AT").message("ERRCODE_QUERY_CANCELED") == "query_canceled"
    with pytest.raises(TypeError, match="ERRCODE_DISK_FULL"):
        package.message("ERRCODE_DISK_FULL", path="/")  # no placeholders to fill


def test_the_generated_package_is_strictly_typed() -> None:
    """The example's registry declares fields of its own (severity, macro, spec name): the
    package that carries them must type-check as strictly as errorbook's own."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "postgresql_errors"],
        cwd=EXAMPLE,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_validate_generate_check_on_a_copy(copy: Path) -> None:
    before = {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    for args in (("validate",), ("generate",), ("check",)):
        done = errorbook_process(copy, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    after = {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    assert [p for p in after if after[p] != before.get(p)] == []


def test_site_builds_strictly_and_has_a_page_per_code(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.integrations.site_build",
            "--site",
            str(copy / "site"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    site = out / "en"
    for page in ("index.html", "overview/index.html", "codes/index.html"):
        assert (site / page).is_file(), page
    for line in source_lines():
        assert (site / "codes" / line.macro.lower() / "index.html").is_file(), line.macro
    table = (site / "codes" / "index.html").read_text("utf-8")
    assert "ERRCODE_DIVISION_BY_ZERO" in table and "22012" in table
    no_surface_word([*sorted(site.rglob("*.html")), site / "search" / "search_index.json"])


def test_outputs_contain_no_word_of_surface() -> None:
    listed = (EXAMPLE / ".errorbook-files").read_text("utf-8").splitlines()
    outputs = [EXAMPLE / name for name in listed if name and not name.startswith("#")]
    assert len(outputs) > 265
    no_surface_word([EXAMPLE / "codes.yaml", EXAMPLE / "site" / "mkdocs.base.yml", *outputs])


def no_surface_word(paths: list[Path]) -> None:
    """As tests/test_registry_words.py searches the tool (whole words, any letter case; its
    sentences anywhere), by sets: a few hundred pages against every word at once."""
    listed = [w.lower() for w in words()]
    tokens = {w for w in listed if re.fullmatch(r"\w+", w)}
    phrases = [w for w in listed if w not in tokens]
    hits = []
    for path in paths:
        text = " ".join(path.read_text("utf-8").split()).lower()
        found = tokens & set(re.findall(r"\w+", text))
        found |= {w for w in phrases if w in text}
        hits += [f"{path.relative_to(path.parents[1])}: {w}" for w in sorted(found)]
    assert hits == []


def test_no_page_of_the_example_has_an_empty_section() -> None:
    """Every heading of the generated pages is followed by something before the next
    heading of the same or a higher level, or the page's end: what the registry does not
    have is left out, not shown as an empty section or an empty table."""
    empty = []
    for page in sorted((EXAMPLE / "site" / "docs").rglob("*.md")):
        lines = [line for line in page.read_text("utf-8").splitlines() if line.strip()]
        for index, line in enumerate(lines):
            if not line.startswith("#"):
                continue
            level = len(line) - len(line.lstrip("#"))
            after = lines[index + 1] if index + 1 < len(lines) else ""
            if not after or (
                after.startswith("#") and len(after) - len(after.lstrip("#")) <= level
            ):
                empty.append(f"{page.relative_to(EXAMPLE)}: {line}")
        rows = [line for line in lines if line.startswith("|")]
        if rows and len(rows) <= 2:  # a header and its rule, no row
            empty.append(f"{page.relative_to(EXAMPLE)}: an empty table")
    assert empty == []
