"""PO files linted ahead, while `generate` waits for the registry's validation.

What is noted ahead is only the hash of a file found well formed: the worker that reads the
same bytes skips the lint, any other bytes are linted as always, and nothing else is kept.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.catalogs import pofile
from generator.pipeline import catalogs

from ..conftest import Run, make_project, po


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    catalogs._LINTED.clear()
    yield
    catalogs._LINTED.clear()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def project(run: Run, tmp_path: Path) -> Path:
    root = make_project(tmp_path / "p")
    assert run("generate", cwd=root).code == 0
    return root


def test_a_well_formed_file_is_noted_by_its_hash(project: Path) -> None:
    broken = po(project, "pl")
    broken.write_text(broken.read_text("utf-8") + '\nmsgid "x"\nmsgstr "y" z\n', "utf-8")
    catalogs.lint_ahead(project / "locales", None, lambda: False)
    assert sha(po(project, "de")) in catalogs._LINTED
    assert sha(po(project, "de", "docs")) in catalogs._LINTED
    assert sha(broken) not in catalogs._LINTED
    assert not pofile.well_formed(broken.read_bytes())


def test_it_stops_as_soon_as_the_registry_is_ready(project: Path) -> None:
    asked: list[int] = []

    def done() -> bool:
        asked.append(1)
        return len(asked) > 2

    catalogs.lint_ahead(project / "locales", None, done)
    assert len(catalogs._LINTED) == 2  # two files, then done


def test_what_it_cannot_read_is_left_to_the_worker(project: Path, tmp_path: Path) -> None:
    """A link and a FIFO are not read here (the worker reads them and says why); a folder
    that cannot be listed, or none, is nothing to lint."""
    folder = project / "locales" / "de" / "LC_MESSAGES"
    outside = tmp_path / "outside.po"
    outside.write_bytes(po(project, "de").read_bytes() + b"\n# outside\n")
    (folder / "linked.po").symlink_to(outside)
    os.mkfifo(folder / "fifo.po")
    catalogs.lint_ahead(project / "locales", None, lambda: False)
    assert sha(outside) not in catalogs._LINTED
    catalogs.lint_ahead(tmp_path / "none", None, lambda: False)
    assert set() == catalogs._LINTED


def test_a_worker_lints_only_bytes_not_linted_ahead(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file linted ahead is not linted again; a file changed since (other bytes, here
    with a line the lint refuses) is, and its problem is reported as always."""
    catalogs.lint_ahead(project / "locales", None, lambda: False)
    linted: list[str] = []
    lint = pofile.lint

    def counting(text: str, path: str) -> Any:
        linted.append(path)
        return lint(text, path)

    monkeypatch.setattr(pofile, "lint", counting)
    changed = po(project, "pl")
    changed.write_text(changed.read_text("utf-8") + '\nmsgid "x"\nmsgstr "y" z\n', "utf-8")
    result = run("generate", "--force", cwd=project)
    assert result.code != 0
    assert "E-PO-STRING-TRAILING" in result.err
    assert "locales/pl/LC_MESSAGES/messages.po" in linted
    assert "locales/de/LC_MESSAGES/messages.po" not in linted
