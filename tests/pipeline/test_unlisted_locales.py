"""A catalog in the locales folder for a locale the registry does not list is neither merged
nor compiled: a translator who made the folder by hand (rather than with `errorbook
init-locale`) is told so, once per file, and errorbook leaves the file alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.cli import main

from ..conftest import MINIMAL, make_project, po

ID = "[W-CATALOG-LOCALE-UNLISTED]"


def _in(root: Path, *argv: str) -> int:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return main(list(argv))
    finally:
        os.chdir(cwd)


def test_a_catalog_of_an_unlisted_locale_is_named_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_project(tmp_path / "p", MINIMAL)
    assert _in(root, "generate") == 0
    fr = po(root, "fr")
    fr.parent.mkdir(parents=True)
    shutil.copyfile(po(root, "de"), fr)
    (root / "locales" / "notes").mkdir()  # a folder without catalogs is nobody's business
    before = fr.read_bytes()
    capsys.readouterr()

    assert _in(root, "generate") == 0
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if ID in line]
    assert lines == [
        "locales/fr/LC_MESSAGES/messages.po:1:1: warning: the registry does not list 'fr' in "
        "registry.locales, so errorbook neither merges nor compiles this catalog (add 'fr' to "
        f"registry.locales in codes.yaml, or delete the file) {ID}"
    ], err
    assert "not compiled" not in err  # that line is for catalogs with errors
    assert fr.read_bytes() == before
    assert not list(root.rglob("fr/LC_MESSAGES/*.mo"))

    assert _in(root, "check") == 0
    out, err = capsys.readouterr()
    assert ID in err and "up to date" in out
    assert "problem" not in err


def test_every_domain_of_a_dropped_locale_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A locale taken out of the registry keeps its files: each is named."""
    root = make_project(tmp_path / "p", MINIMAL)
    text = MINIMAL.replace("locales: [de]", "locales: [de, fr]")
    assert text != MINIMAL
    (root / "codes.yaml").write_text(text, "utf-8")
    assert _in(root, "generate") == 0
    (root / "codes.yaml").write_text(MINIMAL, "utf-8")
    capsys.readouterr()
    assert _in(root, "generate") == 0
    err = capsys.readouterr().err
    named = sorted(line.split(":")[0] for line in err.splitlines() if ID in line)
    assert named == [
        "locales/fr/LC_MESSAGES/docs.po",
        "locales/fr/LC_MESSAGES/messages.po",
    ], err
