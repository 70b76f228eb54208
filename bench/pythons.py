"""The Pythons the generated package supports, and where to find each on this machine.

errorbook runs on 3.11 or newer, but the package it generates runs in projects of their own,
on 3.10 to 3.13. The benchmark measures the package on each of them (bench/run.py) and the
tests run it on each (tests/runtime/test_pythons.py): both find them here, so that they
measure and test the same interpreters.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

#: The Pythons the generated package supports, oldest first, as its docstring says.
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")


def find(version: str) -> str | None:
    """An interpreter of ``version`` (``3.10``): pyenv's newest of that minor version, else
    ``python3.10`` on PATH; each asked which version it is, as a name can mislead."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    numbered = re.compile(re.escape(version) + r"\.(\d+)")
    found = [
        (int(match.group(1)), folder / "bin" / "python3")
        for folder in pyenv.glob(f"{version}.*")
        if (match := numbered.fullmatch(folder.name))
    ]
    candidates = [str(path) for _, path in sorted(found, reverse=True)]
    candidates.append(shutil.which(f"python{version}") or "")
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and version_of(candidate) == version:
            return candidate
    return None


def version_of(python: str, micro: bool = False) -> str:
    """The ``major.minor`` version ``python`` says it is (with ``micro``: ``3.10.13``)."""
    shown = "sys.version_info[:3]" if micro else "sys.version_info[:2]"
    done = subprocess.run(
        [python, "-I", "-S", "-c", f"import sys; print('.'.join(map(str, {shown})))"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def available() -> list[tuple[str, str]]:
    """(version, interpreter) of each supported Python found, oldest first."""
    found = ((version, find(version)) for version in SUPPORTED)
    return [(version, python) for version, python in found if python is not None]
