"""A code's title on the site: the page's subtitle and name, and a column of the code table.

The demo registry gives DOOR_CLOSED a title and ITEMS_REFUSED none; German is published (some
of its reference prose is translated), first without the title's translation, then with it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import markdown as python_markdown  # type: ignore[import-untyped]

from ..conftest import MINIMAL, ROOT, Run, make_project, po, translate

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc", "admonition", "fenced_code"]
TITLED = MINIMAL.replace(
    "    message: The door is closed.\n",
    "    message: The door is closed.\n    title: Door closed\n",
)


def _site(run: Run, root: Path) -> Path:
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    assert run("generate", cwd=root).code == 0
    translate(po(root, "de", "docs"), {"layer.front.title": "Vorne"})  # German is published
    assert run("generate", cwd=root).code == 0
    return root / "site" / "docs"


def _html(page: Path) -> str:
    """The page's body (after its front matter) as Python-Markdown renders it."""
    text = page.read_text("utf-8").split("\n---\n", 1)[1]
    return str(python_markdown.markdown(text, extensions=EXTENSIONS))


def _front_title(page: Path) -> str:
    match = re.search(r"\Atitle: (.*)$", page.read_text("utf-8").split("---\n")[1], re.M)
    assert match is not None
    return match.group(1)


def _rows(table: Path) -> dict[str, list[str]]:
    """The code table's header and rows by their first cell, each as its cells."""
    rows = {}
    for line in table.read_text("utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split(" |")]
            rows[re.sub(r"\W", "", cells[0].split("](")[0]).lower()] = cells
    return rows


def test_a_titled_code_shows_its_title_under_its_name(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", TITLED))
    page = docs / "en" / "codes" / "door_closed.md"
    assert _front_title(page) == '"DOOR_CLOSED: Door closed"'
    html = _html(page)
    assert '<h1 id="door_closed">DOOR_CLOSED</h1>\n<p class="eb-subtitle">Door closed</p>' in html
    other = docs / "en" / "codes" / "items_refused.md"
    assert _front_title(other) == '"ITEMS_REFUSED"'
    assert "eb-subtitle" not in other.read_text("utf-8")


def test_the_code_table_has_a_title_column_after_the_code(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", TITLED))
    rows = _rows(docs / "en" / "codes" / "index.md")
    assert rows["code"][:3] == ["Code", "Title", "Layer"]
    assert rows["door_closed"][1] == "Door closed"
    assert rows["items_refused"][1] == "\N{EN DASH}"
    finder = (docs / "en" / "codes" / "index.md").read_text("utf-8")
    assert 'data-columns="code title layer ' in finder
    assert _rows(docs / "de" / "codes" / "index.md")["code"][:3] == ["Code", "Titel", "Ebene"]


def test_an_untranslated_title_is_shown_in_english_and_marked(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", TITLED)
    docs = _site(run, root)
    page = docs / "de" / "codes" / "door_closed.md"
    assert _front_title(page) == '"DOOR_CLOSED: Door closed"'
    assert '<span class="eb-untranslated" lang="en">Door closed</span>' in _html(page)
    assert "!!! note" in page.read_text("utf-8")
    translate(po(root, "de"), {"DOOR_CLOSED.title": "Tür zu"})
    assert run("generate", cwd=root).code == 0
    assert _front_title(page) == '"DOOR_CLOSED: Tür zu"'
    assert '<p class="eb-subtitle">Tür zu</p>' in _html(page)
    assert _rows(docs / "de" / "codes" / "index.md")["door_closed"][1] == "Tür zu"


def test_a_registry_without_titles_has_no_title_column(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", MINIMAL))
    rows = _rows(docs / "en" / "codes" / "index.md")
    assert rows["code"][:2] == ["Code", "Layer"]
    assert "eb-subtitle" not in (docs / "en" / "codes" / "door_closed.md").read_text("utf-8")
