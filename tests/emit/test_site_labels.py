"""Shapes and retry policies on the site: labels in the reader's language, ids for the finder.

A shape is shown by its title (the registry's prose, translated through docs.po), a retry
policy by errorbook's own label (templates/site/i18n); each such cell of the code table
carries the id the finder's chips filter on, and a legend under the table explains both.
"""

from __future__ import annotations

from pathlib import Path

from ..conftest import MINIMAL, Run, make_project, po, translate
from .test_bare_registry import BARE
from .test_site_titles import _html, _rows, _site

#: MINIMAL uses the retry policies never (DOOR_CLOSED) and bounded (ITEMS_REFUSED).
GERMAN_SHAPES: dict[str, str | list[str]] = {
    "shape.protocol.title": "Protokollfehler",
    "shape.action.title": "Aktionsfehler",
}


def _legend(page: Path) -> str:
    text = page.read_text("utf-8")
    return text[text.index("## ") :]


def test_table_cells_show_labels_and_carry_ids(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", MINIMAL))
    rows = _rows(docs / "en" / "codes" / "index.md")
    header = rows["code"]
    door = dict(zip(header, rows["door_closed"], strict=True))
    items = dict(zip(header, rows["items_refused"], strict=True))
    assert door["Layer"] == '<span data-eb-value="front">Front</span>'
    assert door["Shape"] == '<span data-eb-value="protocol">Protocol failure</span>'
    assert door["Retry"] == '<span data-eb-value="never">Never</span>'
    assert items["Shape"] == '<span data-eb-value="action">Action failure</span>'
    assert items["Retry"] == '<span data-eb-value="bounded">Bounded</span>'
    # The code's own page names its shape by its title too, linked to the shapes page.
    page = (docs / "en" / "codes" / "door_closed.md").read_text("utf-8")
    assert "Result shape: [Protocol failure](../shapes.md#protocol)" in page
    overview = (docs / "en" / "overview.md").read_text("utf-8")
    assert "| [Protocol failure](shapes.md#protocol) |" in overview
    # An actor is named by its id, an identifier in every language, not a word of prose.
    assert "| `client` | [Protocol failure]" in overview
    assert "- `client`: The caller\\.\n" in overview


def test_the_legend_explains_each_shape_and_each_retry_policy_used(
    run: Run, tmp_path: Path
) -> None:
    docs = _site(run, make_project(tmp_path / "p", MINIMAL))
    legend = _legend(docs / "en" / "codes" / "index.md")
    assert legend.startswith("## Legend {#legend}\n")
    assert "- [Protocol failure](../shapes.md#protocol) (`protocol`): No action ran\\.\n" in legend
    assert (
        "- [Action failure](../shapes.md#action) (`action`): The call reached an action\\.\n"
        in (legend)
    )
    assert "- **Never** (`never`): Never send the same request again\\.\n" in legend
    assert "- **Bounded** (`bounded`): Retry automatically" in legend
    assert "after_fix" not in legend  # no code of this registry has it
    html = _html(docs / "en" / "codes" / "index.md")
    assert '<h2 id="legend">Legend</h2>' in html


def test_labels_and_legend_are_in_the_pages_language(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", MINIMAL)
    docs = _site(run, root)
    translate(po(root, "de", "docs"), GERMAN_SHAPES)
    assert run("generate", cwd=root).code == 0
    rows = _rows(docs / "de" / "codes" / "index.md")
    door = dict(zip(rows["code"], rows["door_closed"], strict=True))
    assert door["Ergebnisform"] == '<span data-eb-value="protocol">Protokollfehler</span>'
    assert door["Erneute Versuche"] == '<span data-eb-value="never">Nie</span>'
    legend = _legend(docs / "de" / "codes" / "index.md")
    assert legend.startswith("## Legende {#legend}\n")
    assert "- **Nie** (`never`): Senden Sie dieselbe Anfrage niemals erneut\\.\n" in legend
    assert "[Aktionsfehler](../shapes.md#action) (`action`)" in legend


def test_a_registry_without_shapes_shows_only_its_retry_policies(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", BARE))
    legend = _legend(docs / "en" / "codes" / "index.md")
    assert "`after_fix`" in legend and "shape" not in legend.lower()
    without = BARE.replace("    retry: {policy: after_fix}\n", "")
    docs = _site(run, make_project(tmp_path / "q", without))
    table = (docs / "en" / "codes" / "index.md").read_text("utf-8")
    assert "## " not in table  # neither shapes nor retry policies: no legend at all


def test_a_code_pages_facts_are_whole_sentences_a_translator_can_punctuate() -> None:
    """ "Layer: …" is one translatable text with its placeholder, not a label joined to ": "
    by the template: French sets a no-break space before the colon, Japanese a full-width
    colon, and each committed page writes the facts as its language's text says."""
    from .test_site import LANGUAGES, said

    assert said("fr", "Layer: %(layer)s", layer="X") == "Couche\u00a0: X"
    assert said("ja", "Layer: %(layer)s", layer="X") == "レイヤー\uff1aX"  # a full-width colon
    root = Path(__file__).resolve().parents[2]
    for lang in LANGUAGES:
        page = (root / "site" / "docs" / lang / "codes" / "llm_rate_limited.md").read_text("utf-8")
        layer = said(lang, "Layer: %(layer)s", layer="[")
        shape = said(lang, "Result shape: %(shape)s", shape="[")
        assert layer in page and shape in page, lang
