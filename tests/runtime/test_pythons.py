"""The generated package on every Python it supports: the same behaviour, byte for byte.

The package runs in projects of their own, on whichever of Python 3.10 to 3.13 they use,
while errorbook itself runs on 3.11 or newer. For each of those interpreters found (in
pyenv's versions folder, or as ``python3.X`` on PATH, as bench/pythons.py finds them for
the benchmark too), pythons_probe.py runs in a fresh process with site-packages left out
(``-I -S``: the standard library alone), on the Surface package and on a generated
registry of 10,000 codes in German and Arabic, and must print exactly what it prints under
the interpreter that runs these tests: messages in every locale with plural counts,
negotiation, code look-ups, envelopes, every wire and what reads it back, and the errors of
wrong calls.

In CI (``CI=true``) a supported Python that is not found fails the test, naming it:
the machine CI runs on has all four. Elsewhere it is skipped.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import surface_errors as se
from bench import pythons, synth

from ..conftest import ROOT

SUPPORTED = pythons.SUPPORTED
PROBE = Path(__file__).with_name("pythons_probe.py")
#: A code of the large registry is probed when its index is a multiple of this: 50 codes.
STRIDE = 200


def probe(python: str, folder: Path, package: str, stride: int = 1) -> str:
    """What pythons_probe.py prints for ``package`` in ``folder`` under ``python``."""
    done = subprocess.run(
        [python, "-I", "-S", str(PROBE), str(folder), package, str(stride)],
        capture_output=True,
        text=True,
        cwd=folder,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert done.returncode == 0, f"{python}: {done.stderr}"
    assert done.stdout.count("\n") > 1000, done.stdout[-2000:]  # it did reach the codes
    return done.stdout


@pytest.fixture(scope="module")
def surface(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A copy of the Surface package, so that no other interpreter writes byte code into the
    repository: (folder, package, stride)."""
    folder = tmp_path_factory.mktemp("surface")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "surface_errors", folder / "surface_errors", ignore=ignore)
    return folder, "surface_errors", 1


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A generated registry of 10,000 codes, translated into German and Arabic (bench/synth):
    digit groups, isolated values and plural forms of several kinds. (folder, package,
    stride)."""
    root = tmp_path_factory.mktemp("large")
    size = synth.Size.of(10_000, ("de", "ar"))
    synth.make(root, size)
    subprocess.run(  # again, to compile the translations synth.make filled in
        [*synth.errorbook_command(), "generate"], cwd=root, check=True, capture_output=True
    )
    return root / "out", size.package, STRIDE


def interpreter(version: str) -> str:
    python = pythons.find(version)
    if python is None:
        why = f"Python {version} is not installed (pyenv or python{version} on PATH)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}: CI must run the generated package on every supported Python")
        pytest.skip(why)
    return python


def same_as_here(python: str, where: tuple[Path, str, int], expected: dict[str, str]) -> None:
    folder, package, stride = where
    if package not in expected:
        expected[package] = probe(sys.executable, folder, package, stride)
    found = probe(python, folder, package, stride)
    if found != expected[package]:
        diff = difflib.unified_diff(
            expected[package].splitlines(),
            found.splitlines(),
            f"{sys.version.split()[0]} (this interpreter)",
            python,
            n=0,
            lineterm="",
        )
        pytest.fail(f"{package} behaves otherwise under {python}:\n" + "\n".join(list(diff)[:40]))


#: What the probe prints under the interpreter that runs the tests, by package.
HERE: dict[str, str] = {}


@pytest.mark.parametrize("version", SUPPORTED)
def test_the_package_behaves_alike_on_every_python(
    version: str, surface: tuple[Path, str, int]
) -> None:
    same_as_here(interpreter(version), surface, HERE)


@pytest.mark.slow
@pytest.mark.parametrize("version", SUPPORTED)
def test_a_package_of_10000_codes_behaves_alike_on_every_python(
    version: str, large: tuple[Path, str, int]
) -> None:
    same_as_here(interpreter(version), large, HERE)


def test_the_package_says_which_pythons_it_supports() -> None:
    assert se.__doc__ is not None
    assert f"Python {SUPPORTED[0]} to {SUPPORTED[-1]}" in " ".join(se.__doc__.split())
