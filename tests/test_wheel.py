"""An installed errorbook works outside this repository: the wheel ships its templates."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with errorbook installed from a freshly built wheel."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    # Build from a copy so that nothing of the repository's own state leaks in.
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "__pycache__", "*.egg-info", "build", "dist", ".*_cache"
        ),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(work / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next((work / "dist").glob("errorbook-*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(  # with the site extra: MkDocs and Material, for `errorbook site build`
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{wheel}[site]"],
        check=True,
        capture_output=True,
    )
    return venv


def test_explain_works_from_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    wheel = next(installed.parent.joinpath("dist").glob("errorbook-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "errorbook/templates/python/codes.py.j2" in names  # installed as errorbook
    assert not [n for n in names if n.startswith("generator/")]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    registry = shutil.copy2(ROOT / "codes.yaml", outside / "codes.yaml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    errorbook = str(installed / "bin" / "errorbook")
    text = subprocess.run(
        [errorbook, "explain", "PERMISSION_DENIED"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert text.startswith("PERMISSION_DENIED\n") and "Recovery (ask_user):" in text
    data = json.loads(
        subprocess.run(
            [
                errorbook,
                "explain",
                "PERMISSION_DENIED",
                "--format",
                "json",
                "--registry",
                str(registry),
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert data["code"] == "PERMISSION_DENIED" and data["shape"] == "action"


def test_generate_works_from_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    shutil.copy2(ROOT / "codes.yaml", tmp_path / "codes.yaml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    subprocess.run(
        [str(installed / "bin" / "errorbook"), "generate"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    for path in (ROOT / "surface_errors").iterdir():
        if path.is_file():
            assert (tmp_path / "surface_errors" / path.name).read_bytes() == path.read_bytes()


def test_the_wheel_lives_beside_a_project_of_its_own_named_generator(
    installed: Path, tmp_path: Path
) -> None:
    """Many projects have a package named generator: errorbook installs as errorbook, so the
    two import side by side in one environment."""
    project = tmp_path / "theirs"
    (project / "generator").mkdir(parents=True)
    (project / "generator" / "__init__.py").write_text("WHO = 'the project'\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    python = str(installed / "bin" / "python")
    both = subprocess.run(
        [python, "-c", "import generator, errorbook.cli; print(generator.WHO, errorbook.__name__)"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert both == "the project errorbook\n"
    for command in (
        [str(installed / "bin" / "errorbook"), "--help"],
        [python, "-m", "errorbook", "--help"],
    ):
        shown = subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, check=True
        ).stdout
        assert shown.startswith("usage: errorbook")


def test_a_new_project_builds_its_site_with_the_installed_tool_alone(
    installed: Path, tmp_path: Path
) -> None:
    """init, generate and site build from the wheel, in a folder with nothing of this
    repository's: the site's shared settings come from init, the rest from generate."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    errorbook = str(installed / "bin" / "errorbook")
    project = tmp_path / "orders"
    for argv, cwd in (
        ([errorbook, "init", "orders"], tmp_path),
        ([errorbook, "generate"], project),
        ([errorbook, "site", "build"], project),
        ([errorbook, "check"], project),
    ):
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    page = project / "site" / "build" / "en" / "codes" / "invalid_argument" / "index.html"
    assert "The value of" in page.read_text("utf-8")
    assert (project / "orders_errors" / "codes.py").is_file()
