"""The memos of converted pages and search entries: a rebuild takes from them what did not
change, and writes the bytes a build without them writes, warnings included."""

from __future__ import annotations

import importlib
import json
import logging
import shutil
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.pages import Page

from ..conftest import ROOT

# MkDocs finds the plugin through its entry point, under the name the package installs as.
plugin_module = importlib.import_module("errorbook.integrations.mkdocs_plugin")
rendered_pages = importlib.import_module("errorbook.integrations.rendered_pages")
search_entries = importlib.import_module("errorbook.integrations.search_entries")
SERVING = importlib.import_module("errorbook.commands.site").SERVING
LANG = "de"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's German site, built without regenerating its pages (as
    under `errorbook site serve`), with the memos in a cache folder of its own."""
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("mkdocs.base.yml", f"mkdocs.{LANG}.yml"):
        shutil.copy(ROOT / "site" / name, folder / name)
    shutil.copytree(ROOT / "site" / "docs" / LANG, folder / "docs" / LANG)
    monkeypatch.setenv(SERVING, "1")
    monkeypatch.setattr(
        plugin_module.ErrorbookPlugin,
        "_settings",
        lambda self, config: SimpleNamespace(root=tmp_path),
    )
    return folder


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many pages each build converted with Markdown and parsed for the search index."""
    counts = {"converted": 0, "indexed": 0}
    render = Page.render
    index_class = importlib.import_module("material.plugins.search.plugin").SearchIndex
    add = index_class.add_entry_from_context

    def converting(self: Page, config: Any, files: Any) -> None:
        counts["converted"] += 1
        render(self, config, files)

    def indexing(self: Any, page: Any) -> None:
        counts["indexed"] += 1
        add(self, page)

    monkeypatch.setattr(Page, "render", converting)
    monkeypatch.setattr(index_class, "add_entry_from_context", indexing)
    return counts


def _build(site: Path, out: Path, counts: dict[str, int] | None = None) -> dict[str, bytes]:
    """Build the site into ``out`` (strict, as `errorbook site build`); every file's bytes."""
    if counts is not None:
        counts.update(converted=0, indexed=0)
    shutil.rmtree(out, ignore_errors=True)
    config = load_config(str(site / f"mkdocs.{LANG}.yml"), site_dir=str(out), strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _memos(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / ".errorbook-cache").glob("site-*-mkdocs.de-*.json.z"))


def _kinds(tmp_path: Path) -> list[str]:
    """The kinds of memo the builds left: pages, search, tabs (the example tabs')."""
    return [memo.name.split("-")[1] for memo in _memos(tmp_path)]


def _without_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rendered_pages, "fingerprint", lambda config: None)
    monkeypatch.setattr(search_entries, "fingerprint", lambda index: None)


def test_a_rebuild_converts_and_indexes_only_what_changed_and_gives_the_same_bytes(
    site: Path, tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert counted == {"converted": pages, "indexed": pages}
    assert _kinds(tmp_path) == ["tabs"]

    assert _build(site, tmp_path / "first", counted) == expected
    assert counted == {"converted": pages, "indexed": pages}  # nothing kept yet
    assert _kinds(tmp_path) == ["pages", "search", "tabs"]

    assert _build(site, tmp_path / "again", counted) == expected
    assert counted == {"converted": 0, "indexed": 0}

    page = site / "docs" / LANG / "guide.md"
    page.write_text(page.read_text("utf-8") + "\nEin neuer Absatz.\n", "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "edited", counted) == expected
    assert counted == {"converted": 1, "indexed": 1}

    # A page more: every page's links may resolve differently, so every page is converted.
    (site / "docs" / LANG / "extra.md").write_text("# Extra\n\nNoch eine Seite.\n", "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "added", counted) == expected
    assert counted["converted"] == pages + 1
    assert counted["indexed"] == 1  # the search entries depend on the HTML alone


def test_a_damaged_memo_is_an_empty_one(
    site: Path, tmp_path: Path, counted: dict[str, int]
) -> None:
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    expected = _build(site, tmp_path / "first", counted)
    for memo in _memos(tmp_path):
        memo.write_bytes(memo.read_bytes()[:-40])
    assert _build(site, tmp_path / "damaged", counted) == expected
    assert counted == {"converted": pages, "indexed": pages}
    # Well-formed files whose records are not what a build keeps: each record is a miss.
    for memo in _memos(tmp_path):
        data = json.loads(zlib.decompress(memo.read_bytes()))
        data["pages"] = {key: {"content": 1} for key in data["pages"]}
        memo.write_bytes(zlib.compress(json.dumps(data).encode()))
    assert _build(site, tmp_path / "odd", counted) == expected
    assert counted == {"converted": pages, "indexed": pages}


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_what_a_conversion_warned_about_is_warned_about_on_every_build(
    site: Path, tmp_path: Path, counted: dict[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    """A link to a missing page warns while the page is converted: such a page is never
    taken from the memo. A link to a missing anchor of another page is checked after every
    page is converted: the memo keeps the link, and the check warns again."""
    for name, link in (
        ("guide.md", "[weg](nowhere.md)"),
        ("limits.md", "[da](index.md#kein-anker)"),
    ):
        page = site / "docs" / LANG / name
        page.write_text(page.read_text("utf-8") + f"\n{link}\n", "utf-8")
    for name in ("first", "again"):
        caplog.clear()
        with pytest.raises(Abort):
            _build(site, tmp_path / name, counted)
        found = _warnings(caplog)
        assert any("nowhere.md" in line for line in found), found
        assert any("#kein-anker" in line for line in found), found
    assert counted["converted"] == 1  # the page with the missing page's link, again


def test_a_site_whose_markdown_is_not_known_to_be_pure_gets_no_page_memo(
    site: Path, tmp_path: Path, counted: dict[str, int]
) -> None:
    base = site / "mkdocs.base.yml"
    base.write_text(
        base.read_text("utf-8").replace("  - tables\n", "  - tables\n  - meta\n"), "utf-8"
    )
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    _build(site, tmp_path / "first", counted)
    _build(site, tmp_path / "again", counted)
    assert counted == {"converted": pages, "indexed": 0}
    assert _kinds(tmp_path) == ["search"]  # the example tabs too are left to Markdown
