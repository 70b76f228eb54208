"""Configuration and registry input that would do harm: control characters in paths, and a
registry that is not a regular file. Each ends in a diagnostic, never a traceback or a hang."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator import config
from generator.names import HEADER
from generator.pipeline import build

from .conftest import MINIMAL, ROOT, Run, make_project

TEXT_SUFFIXES = (".py", ".ts", ".yml", ".pot", ".po", ".md", ".typed")


@pytest.mark.parametrize(
    ("key", "value", "char"),
    [
        ("registry", "codes.yaml\\nimport os", "U+000A"),
        ("registry", "codes\\u0000.yaml", "U+0000"),
        ("python-out", "out\\tdir", "U+0009"),
        ("locales", "loc\\u2028ales", "U+2028"),
        ("site", "site\\u001b[31m", "U+001B"),
    ],
)
def test_a_control_character_in_a_configured_path_is_a_usage_error(
    run: Run, tmp_path: Path, key: str, value: str, char: str
) -> None:
    make_project(tmp_path, MINIMAL)
    (tmp_path / "pyproject.toml").write_text(f'[tool.errorbook]\n{key} = "{value}"\n', "utf-8")
    result = run("check", cwd=tmp_path)
    assert result.code == 2, result.err
    assert f"pyproject.toml:2:1: error: '{key}' holds the control character {char}" in result.err
    assert "Traceback" not in result.err
    assert run("generate", cwd=tmp_path).code == 2
    assert not (tmp_path / "doors").exists()  # nothing was written


def test_a_control_character_in_a_flag_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    make_project(tmp_path, MINIMAL)
    result = run("generate", "--registry", "codes.yaml\nimport os", cwd=tmp_path)
    assert result.code == 2
    assert "--registry holds the control character U+000A" in result.err


def test_every_header_is_one_line_whatever_the_registry_path_holds(tmp_path: Path) -> None:
    """The emitters themselves keep the header on one line, even if a path with a line break
    ever reached them by another way than the configuration."""
    root = make_project(tmp_path, MINIMAL)
    (root / "site").mkdir()
    settings = dataclasses.replace(
        config.load(cwd=root), site_dir=root / "site", typescript_out=root / "ts"
    )
    registry = dataclasses.replace(build.registry_for(settings), path="x\nimport os\r\u2028#*/-->")
    files = build.outputs(settings, registry)
    marked = 0
    for name, data in files.items():
        if name.endswith(".mo"):
            continue
        text = data.decode("utf-8")
        if "import os" in text:
            (line,) = [row for row in text.splitlines() if "import os" in row]
            assert "errorbook" in line, f"{name}: {line!r}"
            assert line.startswith(("#", "//", "<!--", "/*", '  "$comment"')), f"{name}: {line!r}"
            assert "u000aimport os" in line and "u2028#" in line
            marked += 1
            for opens, closes in (("/*", "*/"), ("<!--", "-->")):
                if line.startswith(opens):  # the comment ends where the line does
                    assert line.count(closes) == 1 and line.endswith(closes), line
    assert marked > 10  # the Python package, TypeScript, catalogs, mkdocs files, manifest


def test_the_header_text_is_unchanged_for_a_plain_path() -> None:
    from generator.names import header

    assert header("codes.yaml") == HEADER.format(source="codes.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "loop"])
def test_a_registry_that_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, kind: str
) -> None:
    registry = tmp_path / "codes.yaml"
    if kind == "fifo":
        os.mkfifo(registry)
    elif kind == "device":
        registry.symlink_to("/dev/zero")
    elif kind == "folder":
        registry.mkdir()
    else:
        registry.symlink_to(registry)
    words = {
        "fifo": "is a named pipe (FIFO)",
        "device": "is a character device",
        "folder": "is a folder",
        "loop": "is a symbolic link that loops",
    }
    for verb in ("validate", "check", "generate"):
        done = subprocess.run(
            [sys.executable, "-m", "generator", verb],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1, done.stderr
        assert f"codes.yaml:1:1: error: the file {words[kind]}" in done.stderr
        assert "internal error" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_configuration_that_is_not_a_regular_file_is_refused(run: Run, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "folder.toml").mkdir()
    for name, what in (("fifo.toml", "named pipe"), ("folder.toml", "folder")):
        result = run("check", "--config", name, cwd=tmp_path)
        assert result.code == 2 and f"{name}: error: is a {what}" in result.err
    result = run("check", "--config", "py\x01project.toml", cwd=tmp_path)
    assert result.code == 2 and "--config holds the control character U+0001" in result.err


def test_max_input_mib_also_bounds_the_registry(run: Run, tmp_path: Path) -> None:
    """The registry is bounded at 16 MiB by default; max-input-mib replaces that bound, and
    the hint says so (it named a module path before, which an installed errorbook lacks)."""
    root = make_project(tmp_path, MINIMAL)
    filler = "# " + "x" * 98 + "\n"
    with (root / "codes.yaml").open("a", encoding="utf-8") as stream:
        stream.write(filler * (17 * 1024 * 1024 // len(filler)))
    refused = run("validate", cwd=root)
    assert refused.code == 1 and "larger than 16 MiB" in refused.err
    assert "raise max-input-mib in [tool.errorbook]" in refused.err
    (root / "pyproject.toml").write_text("[tool.errorbook]\nmax-input-mib = 32\n", "utf-8")
    assert run("validate", cwd=root).code == 0


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[tool.foo]\nregistry = 'x'\n\n[tool.errorbook]\nregistry = 5\n", 5),
        ("[tool.errorbook]\nregistry-x = 1\nregistry = 5\n", 2),  # the unknown key first
        ("[tool.errorbook]\n# registry = 'old'\n  registry   = 5\n", 3),
    ],
)
def test_a_configuration_problem_names_the_line_in_tool_errorbook(
    run: Run, tmp_path: Path, text: str, line: int
) -> None:
    """The line of a key in [tool.errorbook], not the first line of the file that starts
    with the key's name (another tool's table, a comment, a longer key)."""
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.code == 2, result.err
    assert f"pyproject.toml:{line}:1: error: " in result.err, result.err
