"""Work on speed leaves every output as it was (issue 21's acceptance).

A synthetic project (bench/synth.py: 400 codes in German, Polish, Arabic and Japanese, with a
site, translated, then 5% of its messages reworded) is generated in full by the command a
user runs, in a fresh process: the registry is validated in a process of its own, the PO
files are linted ahead, the catalogs merged by forked workers (the PO files hold 3.9 MB,
more than pipeline.catalogs.PARALLEL_MIN_BYTES). Every file the run leaves, but its caches,
must hash to what it hashed before issue 21's speed work (errorbook at c6f6df3), with one
change made on purpose: the generated package's message() takes ``params`` out of its
keywords and groups digits with two plain comparisons, so its i18n.py and _format.py differ
from c6f6df3's (and only they: compared with ``diff -r`` when the digest was recorded again).
Issue 49 changed the generated package on purpose once more: every message writes values
with str(), a template of many fields is filled by a loop, and the wire readers refuse or
keep hostile values, so _format.py, i18n.py and wire.py differ (``diff -r`` again: only they),
and the schema pages list the five diagnostic ids the issue added (only those lines).
Issue 50 took exec out of the generated package: _format.py fills a template with one
``%`` of its values, so it differs (and only it). The runtime's negotiation then read a
subtag as ASCII letters or digits only, as on every Python whatever its Unicode version, so
_negotiate.py differs (and only it); the package's docstring then named the Pythons it runs
on, so its __init__.py differs (and only it).

The outputs also depend on the libraries that make them (CLDR's data in Babel, Jinja2's
rendering, PyYAML's reading), which pyproject.toml does not pin: the digest holds for the
versions it was recorded with. A change meant to change the outputs records the new digest
here, and says why in its commit.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import synth

from ..conftest import cache_of

#: The digest of the outputs, by (Python, Babel, Jinja2, PyYAML) versions.
RECORDED: dict[tuple[str, ...], str] = {
    ("3.11", "2.19.0", "3.1.6", "6.0.4"): (
        "d324f0c6d8c0b14439652f6204a6ff3c366cd30bfecca268b85819669e6ff9d1"
    ),
}


def _versions() -> tuple[str, ...]:
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    return (python, *(importlib.metadata.version(n) for n in ("babel", "jinja2", "pyyaml")))


def outputs_digest(root: Path) -> str:
    """SHA-256 over every file under ``root`` but the caches, by path, in path order."""
    hashed = hashlib.sha256()
    files = sorted(
        path for path in root.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )
    for path in files:
        name = path.relative_to(root).as_posix().encode("utf-8")
        hashed.update(name + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return hashed.hexdigest()


def test_a_full_generation_writes_what_it_wrote_before(tmp_path: Path) -> None:
    recorded = RECORDED.get(_versions())
    if recorded is None:
        pytest.skip(f"the outputs' digest is recorded for {sorted(RECORDED)}, not {_versions()}")
    root = tmp_path / "synth"
    registry = synth.make(root, synth.Size.of(400, ("de", "pl", "ar", "ja")), site=True)
    (root / "codes.yaml").write_text(synth.render(synth.reword(registry)), "utf-8")
    shutil.rmtree(cache_of(root))  # as in a fresh clone: nothing to reuse
    assert sum(path.stat().st_size for path in synth.iter_po(root)) > 2_000_000
    done = subprocess.run(
        [*synth.errorbook_command(), "generate"], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert outputs_digest(root) == recorded
