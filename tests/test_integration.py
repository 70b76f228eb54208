"""Where projects build: the pre-commit hooks and the hatchling build hook."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml

from .conftest import MINIMAL, ROOT

BIN = Path(sys.executable).parent


def sample(root: Path, extra: str = "") -> Path:
    root.mkdir(parents=True)
    (root / "codes.yaml").write_text(MINIMAL, "utf-8")
    (root / "pyproject.toml").write_text(
        "[build-system]\nrequires = ['hatchling', 'errorbook']\n"
        "build-backend = 'hatchling.build'\n\n"
        "[project]\nname = 'demo-app'\nversion = '0.1.0'\n\n"
        "[tool.hatch.build.targets.wheel]\npackages = ['src/demo_errors']\n\n"
        "[tool.hatch.build.hooks.errorbook]\n\n"
        "[tool.errorbook]\nregistry = 'codes.yaml'\npython-out = 'src'\n" + extra,
        "utf-8",
    )
    return root


def hook_commands() -> dict[str, list[str]]:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert all(h["language"] == "python" and h["pass_filenames"] is False for h in hooks)
    return {h["id"]: shlex.split(h["entry"]) for h in hooks}


def run_hook(entry: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """What pre-commit runs: the entry, from the hook's own environment, in the project."""
    command = [str(BIN / entry[0]), *entry[1:]]
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""}
    )


def test_pre_commit_hooks_guard_a_sample_project(tmp_path: Path) -> None:
    hooks = hook_commands()
    assert set(hooks) == {"errorbook-check", "errorbook-generate"}
    project = sample(tmp_path / "app")
    stale = run_hook(hooks["errorbook-check"], project)
    assert stale.returncode == 1
    assert stale.stdout.rstrip().endswith("run `errorbook generate` to update")
    assert run_hook(hooks["errorbook-generate"], project).returncode == 0
    assert run_hook(hooks["errorbook-check"], project).returncode == 0


def test_building_a_wheel_regenerates_first(tmp_path: Path) -> None:
    project = sample(tmp_path / "app")
    assert not (project / "src" / "demo_errors").exists()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path / "dist"),
            str(project),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next((tmp_path / "dist").glob("demo_app-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "demo_errors/codes.py" in names
    assert "demo_errors/locales/de/LC_MESSAGES/messages.mo" in names


def test_an_invalid_registry_stops_the_build(tmp_path: Path) -> None:
    project = sample(tmp_path / "app")
    (project / "codes.yaml").write_text(MINIMAL.replace("layer: front", "layer: frnt"), "utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "-w",
            str(tmp_path / "dist"),
            str(project),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "names layer 'frnt'" in result.stdout + result.stderr
