"""The memos of converted pages, search entries and laid out pages, and the compiled
templates: a rebuild takes from them what did not change, and writes the bytes a build
without them writes, warnings included."""

from __future__ import annotations

import importlib
import json
import logging
import marshal
import os
import shutil
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.pages import Page

from ..conftest import ROOT, cache_of

# MkDocs finds the plugin through its entry point, under the name the package installs as.
plugin_module = importlib.import_module("errorbook.integrations.mkdocs_plugin")
rendered_pages = importlib.import_module("errorbook.integrations.rendered_pages")
search_entries = importlib.import_module("errorbook.integrations.search_entries")
themed_pages = importlib.import_module("errorbook.integrations.themed_pages")
template_code = importlib.import_module("errorbook.integrations.template_code")
memo = importlib.import_module("errorbook.integrations.memo")
SERVING = importlib.import_module("errorbook.integrations.site_build").SERVING
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
        lambda self, config: SimpleNamespace(root=tmp_path, site_dir=folder, cache_dir=None),
    )
    return folder


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many pages each build converted with Markdown, parsed for the search index and
    laid out through the theme's template, and how many templates it compiled."""
    counts = {"converted": 0, "indexed": 0, "laid out": 0, "compiled": 0}
    render = Page.render
    index_class = importlib.import_module("material.plugins.search.plugin").SearchIndex
    add = index_class.add_entry_from_context

    def converting(self: Page, config: Any, files: Any) -> None:
        counts["converted"] += 1
        render(self, config, files)

    def indexing(self: Any, page: Any) -> None:
        counts["indexed"] += 1
        add(self, page)

    lay_out = jinja2.Template.render
    compile_ = jinja2.Environment.compile

    def laying_out(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        if args and isinstance(args[0], dict) and args[0].get("page") is not None:
            counts["laid out"] += 1  # a page (404.html and the sitemap have none)
        return lay_out(self, *args, **kwargs)

    def compiling(self: jinja2.Environment, *args: Any, **kwargs: Any) -> Any:
        if isinstance(self.bytecode_cache, template_code.TemplateCode):
            counts["compiled"] += 1  # the build's own templates (the search plugin has more)
        return compile_(self, *args, **kwargs)

    monkeypatch.setattr(Page, "render", converting)
    monkeypatch.setattr(index_class, "add_entry_from_context", indexing)
    monkeypatch.setattr(jinja2.Template, "render", laying_out)
    monkeypatch.setattr(jinja2.Environment, "compile", compiling)
    return counts


def _build(
    site: Path, out: Path, counts: dict[str, int] | None = None, config_file: str | None = None
) -> dict[str, bytes]:
    """Build the site into ``out`` (strict, as `errorbook site build`); every file's bytes."""
    if counts is not None:
        counts.update({name: 0 for name in counts})
    shutil.rmtree(out, ignore_errors=True)
    config_file = config_file or str(site / f"mkdocs.{LANG}.yml")
    config = load_config(config_file, site_dir=str(out), strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _memos(tmp_path: Path) -> list[Path]:
    return sorted(cache_of(tmp_path).glob("site-*-mkdocs.de-*.memo"))


def _kinds(tmp_path: Path) -> list[str]:
    """The kinds of memo the builds left: pages, search, tabs (the example tabs'), themed
    (the pages as the theme laid them out)."""
    return [memo.name.split("-")[1] for memo in _memos(tmp_path)]


def _without_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page made afresh: no memo, no compiled template kept."""
    monkeypatch.setattr(rendered_pages, "fingerprint", lambda config: None)
    monkeypatch.setattr(search_entries, "fingerprint", lambda index: None)
    monkeypatch.setattr(themed_pages, "fingerprint", lambda config: None)
    monkeypatch.setattr(template_code.TemplateCode, "load_bytecode", lambda self, bucket: None)
    monkeypatch.setattr(template_code.TemplateCode, "dump_bytecode", lambda self, bucket: None)


def test_a_rebuild_converts_and_indexes_only_what_changed_and_gives_the_same_bytes(
    site: Path, tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    compiled = counted["compiled"]
    assert compiled > 10  # Material's templates
    assert counted == {
        "converted": pages,
        "indexed": pages,
        "laid out": pages,
        "compiled": compiled,
    }
    assert _kinds(tmp_path) == []

    assert _build(site, tmp_path / "first", counted) == expected
    nothing_kept = {"converted": pages, "indexed": pages, "laid out": pages, "compiled": compiled}
    assert counted == nothing_kept
    assert _kinds(tmp_path) == ["pages", "search", "themed"]

    assert _build(site, tmp_path / "again", counted) == expected
    assert counted == {"converted": 0, "indexed": 0, "laid out": 0, "compiled": 0}

    page = site / "docs" / LANG / "guide.md"
    page.write_text(page.read_text("utf-8") + "\nEin neuer Absatz.\n", "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "edited", counted) == expected
    assert counted == {"converted": 1, "indexed": 1, "laid out": 1, "compiled": 0}

    # The same configuration named by a relative path: the same memos.
    with monkeypatch.context() as elsewhere:
        elsewhere.chdir(site)
        relative = _build(site, tmp_path / "relative", counted, f"mkdocs.{LANG}.yml")
    assert relative == expected
    assert counted == {"converted": 0, "indexed": 0, "laid out": 0, "compiled": 0}

    # A page more: every page's links may resolve differently, so every page is converted.
    (site / "docs" / LANG / "extra.md").write_text("# Extra\n\nNoch eine Seite.\n", "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "added", counted) == expected
    assert counted["converted"] == pages + 1
    assert counted["indexed"] == 1  # the search entries depend on the HTML alone
    assert counted["laid out"] == 1  # nor does the navigation list it

    # A page's title in the navigation: every page shows the navigation.
    config = site / f"mkdocs.{LANG}.yml"
    text = config.read_text("utf-8")
    title = text.split("nav:\n", 1)[1].split(":", 1)[0].strip(" -")
    config.write_text(text.replace(f"{title}:", "Anders:", 1), "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "renamed", counted) == expected
    assert counted["laid out"] == pages + 1
    assert b"Anders" in expected["index.html"]


def test_a_damaged_memo_is_an_empty_one(
    site: Path, tmp_path: Path, counted: dict[str, int]
) -> None:
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    expected = _build(site, tmp_path / "first", counted)
    compiled = counted["compiled"]
    every = {"converted": pages, "indexed": pages, "laid out": pages}
    templates = cache_of(tmp_path) / template_code.NAME
    for memo in [*_memos(tmp_path), templates]:
        memo.write_bytes(_unsealed(memo)[:-40])  # cut short, under a good seal
    assert _build(site, tmp_path / "damaged", counted) == expected
    assert counted == {**every, "compiled": compiled}
    # Well-formed files whose records are not what a build keeps: each record is a miss.
    for memo in _memos(tmp_path):
        data = marshal.loads(zlib.decompress(_unsealed(memo)))
        data["pages"] = {key: {"content": 1} for key in data["pages"]}
        memo.write_bytes(zlib.compress(marshal.dumps(data)))
    code = marshal.loads(_unsealed(templates))
    templates.write_bytes(marshal.dumps({key: b"j2" + bytes(40) for key in code}))
    assert _build(site, tmp_path / "odd", counted) == expected
    assert counted == {**every, "compiled": compiled}
    # A file of another kind, JSON as memos were once written: an empty memo.
    for memo in [*_memos(tmp_path), templates]:
        memo.write_bytes(zlib.compress(json.dumps({"format": 2, "pages": {}}).encode()))
    assert _build(site, tmp_path / "json", counted) == expected
    assert counted == {**every, "compiled": compiled}
    # A FIFO where a memo or the compiled templates were: refused, never waited on.
    for memo in [*_memos(tmp_path), templates]:
        memo.unlink()
        os.mkfifo(memo)
    assert _build(site, tmp_path / "fifo", counted) == expected
    assert counted == {**every, "compiled": compiled}


def _unsealed(path: Path) -> bytes:
    data = path.read_bytes()
    assert isinstance(data, bytes)  # written by this user's errorbook
    return data


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
    site: Path,
    tmp_path: Path,
    counted: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """And `errorbook site build --verbose` says why: the fast path is off in silence
    otherwise."""
    base = site / "mkdocs.base.yml"
    base.write_text(
        base.read_text("utf-8").replace("  - tables\n", "  - tables\n  - meta\n"), "utf-8"
    )
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    _build(site, tmp_path / "first", counted)
    assert "no page memo" not in caplog.text  # said only when asked
    monkeypatch.setenv(memo.VERBOSE, "1")
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.errorbook"):
        _build(site, tmp_path / "again", counted)
    assert counted == {"converted": pages, "indexed": 0, "laid out": 0, "compiled": 0}
    assert _kinds(tmp_path) == ["search", "themed"]
    assert "no page memo in this build: Markdown extensions not known to be pure: meta" in (
        caplog.text
    )
    assert "no search memo" not in caplog.text and "no layout memo" not in caplog.text


def test_a_template_the_site_overrides_is_part_of_every_layout(
    site: Path, tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An override may read more of the context than Material does: the build's date,
    which `errorbook site build` fixes (SOURCE_DATE_EPOCH), and the site's pages."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    overrides = site / "overrides"
    overrides.mkdir()
    main = overrides / "main.html"
    main.write_text(
        '{% extends "base.html" %}\n{% block announce %}Erste Fassung{% endblock %}\n', "utf-8"
    )
    base = site / "mkdocs.base.yml"
    base.write_text(
        base.read_text("utf-8").replace(
            "  name: material\n", "  name: material\n  custom_dir: overrides\n"
        ),
        "utf-8",
    )
    first = _build(site, tmp_path / "first", counted)
    assert b"Erste Fassung" in first["index.html"]
    assert _build(site, tmp_path / "again", counted) == first
    assert counted["laid out"] == 0

    main.write_text(main.read_text("utf-8").replace("Erste", "Zweite"), "utf-8")
    second = _build(site, tmp_path / "second", counted)
    assert counted["laid out"] == pages
    assert b"Zweite Fassung" in second["index.html"]
    assert b"Erste Fassung" not in second["index.html"]

    monkeypatch.delenv("SOURCE_DATE_EPOCH")  # each build has a date of its own
    _build(site, tmp_path / "dated", counted)
    _build(site, tmp_path / "dated", counted)
    assert counted["laid out"] == pages


def test_a_site_with_a_plugin_not_known_to_errorbook_gets_no_layout_memo(
    site: Path, tmp_path: Path, counted: dict[str, int]
) -> None:
    """A hook (a plugin of the site's own) may change what the template reads."""
    pages = len(list((site / "docs" / LANG).rglob("*.md")))
    (site / "hook.py").write_text(
        "def on_page_context(context, page, config, nav):\n"
        "    page.meta['description'] = 'Beschreibung ' + page.url\n"
        "    return context\n",
        "utf-8",
    )
    config = site / f"mkdocs.{LANG}.yml"
    config.write_text(config.read_text("utf-8") + "hooks:\n  - hook.py\n", "utf-8")
    first = _build(site, tmp_path / "first", counted)
    assert b"Beschreibung " in first["index.html"]
    assert _build(site, tmp_path / "again", counted) == first
    assert counted["laid out"] == pages
    assert "themed" not in _kinds(tmp_path)


def test_pages_that_use_many_extensions_come_back_from_the_memo_as_made(
    site: Path, tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages that use many extensions, each page after others that used them too: a build
    and a rebuild through the memos write the bytes of a build without them."""
    base = site / "mkdocs.base.yml"
    more = "  - tables\n  - def_list\n  - pymdownx.details\n  - fenced_code\n"
    base.write_text(base.read_text("utf-8").replace("  - tables\n", more), "utf-8")
    page = """# Seite {n}

## Gleich {{#gleich-{n}}}

## Gleich

Begriff
:   Erklärung mit `Code` und [Verweis](index.md).

??? note "Mehr {n}"
    Verborgen.

!!! warning
    Achtung.

```python
x = {n}
```

=== "Eins"

    Erster Reiter.

=== "Zwei"

    Zweiter Reiter.

<div markdown="1" class="eb">

*Betont* in HTML.

</div>

| Spalte | Wert |
|---|---|
| a | {n} |
{{: .tabelle }}
"""
    for number in range(3):
        (site / "docs" / LANG / f"extra{number}.md").write_text(page.format(n=number), "utf-8")
    with monkeypatch.context() as plain:
        _without_memos(plain)
        expected = _build(site, tmp_path / "plain", counted)
    assert _build(site, tmp_path / "first", counted) == expected
    assert _build(site, tmp_path / "again", counted) == expected
    assert counted["converted"] == 0  # every page from the memo
    assert b"__tabbed_1_1" in expected["extra2/index.html"]  # each page's tabs count from 1
