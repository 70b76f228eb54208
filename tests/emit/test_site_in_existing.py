"""errorbook's pages inside a team's own MkDocs site: its nav, its pages, mkdocs-static-i18n.

Each site here is built as a team builds it, ``mkdocs build --strict`` in the folder of its
mkdocs.yml, with the errorbook plugin under ``path: errors``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import MINIMAL, Run, make_project, po, translate

TEAM_PAGES = {
    "index.md": "# Home\n\nSee the [guide](guide.md).\n",
    "index.de.md": "# Start\n\nSiehe die [Anleitung](guide.md).\n",
    "guide.md": "# Guide\n\n## Setup\n\nText.\n",
    "guide.de.md": "# Anleitung\n\n## Einrichtung\n\nText.\n",
}

I18N = """\
  - i18n:
      docs_structure: suffix
      languages:
        - locale: en
          default: true
          name: English
        - locale: de
          name: Deutsch
"""


def _mkdocs_yml(*, errorbook: bool, extensions: str = "  - toc\n  - attr_list\n") -> str:
    nav = "  - Home: index.md\n  - Guide: guide.md\n"
    plugins = "  - search\n" + I18N
    if errorbook:
        nav += "  - Errors: errors/index.md\n"  # the nav fragment the guide documents
        plugins += "  - errorbook:\n      path: errors\n"
    return (
        "site_name: Team docs\nsite_url: https://team.example.org/\n"
        "theme:\n  name: material\n  font: false\n"
        f"nav:\n{nav}"
        + (f"markdown_extensions:\n{extensions}" if extensions else "")
        + f"plugins:\n{plugins}"
    )


def _team(tmp_path: Path, run: Run, name: str = "team") -> Path:
    """A project whose registry errorbook generates in German too, with a site of its own."""
    root = make_project(tmp_path / name, MINIMAL.replace("docs.example.org", "team.example.org"))
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'errorbook'\n", "utf-8"
    )
    assert run("generate", cwd=root).code == 0
    translate(po(root, "de", "docs"), {"layer.front.title": "Vorne"})  # German is published
    assert run("generate", cwd=root).code == 0
    (root / "docs").mkdir()
    for page, text in TEAM_PAGES.items():
        (root / "docs" / page).write_text(text, "utf-8")
    return root


def _mkdocs_build(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1767225600"},
        capture_output=True,
        text=True,
    )


def _links(html: str) -> list[str]:
    """A page's language links: the head's hreflang links and the switcher's."""
    return re.findall(r'<(?:link rel="alternate"|a) href="[^"]*" hreflang="[^"]*"', html)


def _article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


def test_the_plugin_publishes_its_pages_in_a_team_site_with_static_i18n(
    tmp_path: Path, run: Run
) -> None:
    root = _team(tmp_path, run)
    (root / "mkdocs.yml").write_text(_mkdocs_yml(errorbook=False), "utf-8")
    built = _mkdocs_build(root)
    assert built.returncode == 0, built.stderr
    alone = {
        page: (root / "site" / page).read_text("utf-8")
        for page in ("index.html", "guide/index.html", "de/index.html", "de/guide/index.html")
    }
    (root / "mkdocs.yml").write_text(_mkdocs_yml(errorbook=True), "utf-8")
    built = _mkdocs_build(root)
    assert built.returncode == 0, built.stderr
    site = root / "site"
    for lang in ("en", "de"):
        page = (site / "errors" / lang / "codes" / "door_closed" / "index.html").read_text("utf-8")
        links = {
            other: "./" if other == lang else f"../../../{other}/codes/door_closed/"
            for other in ("en", "de")
        }
        assert _links(page) == [
            *(f'<link rel="alternate" href="{links[x]}" hreflang="{x}"' for x in links),
            *(f'<a href="{links[x]}" hreflang="{x}"' for x in links),
        ]
        assert f'<html lang="{lang}"' in page
        assert 'class="tabbed-set tabbed-alternate"' in page  # the example on every wire
        assert (site / "errors" / lang / "index.html").is_file()
    assert (site / "errors" / "assets" / "errorbook.css").is_file()
    german = (site / "errors" / "de" / "codes" / "door_closed" / "index.html").read_text("utf-8")
    assert "Vorne" in german
    for page, before in alone.items():  # the team's pages: their links and text untouched
        after = (site / page).read_text("utf-8")
        assert _links(after) == _links(before), page
        assert _article(after) == _article(before), page
    every = "".join(path.read_text("utf-8") for path in site.rglob("*.html"))
    assert "/de/de/" not in every and "de/errors/" not in every
    nav = (site / "de" / "guide" / "index.html").read_text("utf-8")
    assert 'href="../../errors/de/"' in nav  # the nav's Errors entry, in the build's language


def test_a_team_site_without_attr_list_still_renders_the_anchors(tmp_path: Path, run: Run) -> None:
    """The pages write anchors as attr_list does (``{#door_closed}``): a site whose
    mkdocs.yml lists no extension at all still shows them as ids, not as text."""
    root = _team(tmp_path, run)
    (root / "mkdocs.yml").write_text(_mkdocs_yml(errorbook=True, extensions=""), "utf-8")
    built = _mkdocs_build(root)
    assert built.returncode == 0, built.stderr
    for lang in ("en", "de"):
        page = root / "site" / "errors" / lang / "codes" / "door_closed" / "index.html"
        body = _article(page.read_text("utf-8"))
        assert "{#" not in body and "{:" not in body, body[:2000]
        assert 'id="door_closed"' in body


@pytest.mark.parametrize(
    "plugins",
    ["plugins:\n  - search\n" + I18N, "plugins:\n  search: {}\n# the team's last plugin\n", ""],
)
def test_init_adds_the_plugin_to_the_sites_mkdocs_yml(
    tmp_path: Path, run: Run, plugins: str
) -> None:
    """In a project with a mkdocs.yml, init makes no second site: it adds the plugin to the
    site's plugins (or a plugins list, when it had none), every other line as it was."""
    root = tmp_path / "team"
    (root / "docs").mkdir(parents=True)
    for page, text in TEAM_PAGES.items():
        (root / "docs" / page).write_text(text, "utf-8")
    own = (
        "site_name: Team docs\nsite_url: https://team.example.org/\n"
        "theme:\n  name: material\n  font: false\n"
        "nav:\n  - Home: index.md\n  - Guide: guide.md\n  - Errors: errors/index.md\n"
        f"{plugins}extra:\n  team: yes  # a comment of the team's\n"
    )
    (root / "mkdocs.yml").write_text(own, "utf-8")
    result = run("init", cwd=root)
    assert result.code == 0, result.err
    assert "updated  mkdocs.yml" in result.out
    assert not (root / "site").exists()  # no second site
    text = (root / "mkdocs.yml").read_text("utf-8")
    listed = "search: {}" not in plugins
    added = "  - errorbook:\n      path: errors\n" if listed else "  errorbook:\n    path: errors\n"
    assert added in text
    kept = text.replace(added, "", 1)
    assert kept == own or kept == own + "plugins:\n  - search\n"
    assert "docs_url: https://team.example.org/errors/" in (root / "codes.yaml").read_text("utf-8")
    assert 'site = "errorbook"' in (root / "pyproject.toml").read_text("utf-8")
    assert run("generate", cwd=root).code == 0
    if "i18n" in plugins:
        translate(po(root, "de", "docs"), {"layer.input.title": "Eingabe"})  # for i18n's de
        assert run("generate", cwd=root).code == 0
    built = _mkdocs_build(root)
    assert built.returncode == 0, built.stderr
    assert (root / "site" / "errors" / "en" / "codes" / "invalid_argument" / "index.html").is_file()


@pytest.mark.parametrize(
    "plugins",
    ["plugins: [search]\n", "plugins:\n\t- search\n", "plugins:\n  - errorbook\n"],
)
def test_init_says_what_to_add_to_a_mkdocs_yml_it_cannot_edit(
    tmp_path: Path, run: Run, plugins: str
) -> None:
    root = tmp_path / "team"
    root.mkdir()
    own = f"site_name: Team docs\n{plugins}"
    (root / "mkdocs.yml").write_text(own, "utf-8")
    result = run("init", cwd=root)
    assert result.code == 2
    assert "  - errorbook:\n      path: errors\n" in result.err
    assert (root / "mkdocs.yml").read_text("utf-8") == own
    assert sorted(path.name for path in root.iterdir()) == ["mkdocs.yml"]  # nothing written


def test_without_path_the_plugin_leaves_a_team_sites_links_alone(tmp_path: Path, run: Run) -> None:
    """The plugin used to point every page's language links at "the same page" in each
    language, as in errorbook's own site; in a team's site that made them wrong. Pages
    errorbook did not make keep the links the site gives them."""
    root = _team(tmp_path, run)
    own = (
        "site_name: Team docs\nsite_url: https://team.example.org/en/\n"
        "theme:\n  name: material\n  font: false\n"
        "extra:\n  alternate:\n"
        "    - {name: English, link: /en/, lang: en}\n"
        "    - {name: Deutsch, link: /de/, lang: de}\n"
        "plugins:\n  - search\n"
    )
    for page in ("index.de.md", "guide.de.md"):
        (root / "docs" / page).unlink()
    (root / "mkdocs.yml").write_text(own, "utf-8")
    assert _mkdocs_build(root).returncode == 0
    before = _links((root / "site" / "guide" / "index.html").read_text("utf-8"))
    (root / "mkdocs.yml").write_text(own + "  - errorbook\n", "utf-8")
    built = _mkdocs_build(root)
    assert built.returncode == 0, built.stderr
    assert _links((root / "site" / "guide" / "index.html").read_text("utf-8")) == before
    assert '<a href="/de/" hreflang="de"' in before


@pytest.mark.parametrize(
    ("theme", "option", "published"),
    [("de", "", "de"), ("en", "\n      lang: de", "de"), ("fr", "", None)],
)
def test_a_site_in_one_language_publishes_the_pages_of_that_language(
    tmp_path: Path, run: Run, theme: str, option: str, published: str | None
) -> None:
    """Without mkdocs-static-i18n a build publishes the theme's language, or ``lang``; a
    language errorbook does not publish is a clear error, not a site without its pages."""
    root = _team(tmp_path, run)
    (root / "mkdocs.yml").write_text(
        f"site_name: Team docs\ntheme:\n  name: material\n  language: {theme}\n"
        f"plugins:\n  - search\n  - errorbook:\n      path: errors{option}\n",
        "utf-8",
    )
    built = _mkdocs_build(root)
    if published is None:
        assert built.returncode == 1
        assert "Traceback" not in built.stderr
        assert "errorbook publishes its pages in de, en" in built.stderr
        assert "`lang`" in built.stderr
        return
    assert built.returncode == 0, built.stderr
    assert sorted(path.name for path in (root / "site" / "errors").iterdir()) == [
        "assets",
        published,
    ]


def test_a_docs_url_that_does_not_follow_path_fails_a_strict_build(
    tmp_path: Path, run: Run
) -> None:
    """Every code's link in the generated outputs is its docs_url: in a team's site it must
    name the place where the plugin publishes the pages, ``site_url`` then ``path``."""
    root = _team(tmp_path, run)
    (root / "mkdocs.yml").write_text(
        _mkdocs_yml(errorbook=True).replace("path: errors", "path: reference/errors"), "utf-8"
    )
    built = _mkdocs_build(root)
    assert built.returncode == 1
    assert (
        "the registry's docs_url is https://team.example.org/errors/, and this site publishes "
        "errorbook's pages at https://team.example.org/reference/errors/: set "
        "`docs_url: https://team.example.org/reference/errors/` in the registry"
    ) in " ".join(built.stderr.split())
