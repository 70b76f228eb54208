"""errorbook's Markdown extension for plain text (plain_text): Markdown with it writes the
HTML Markdown without it writes, for the repository's pages and for generated text, and
what it assumes of Markdown's inline patterns holds for the Markdown installed."""

from __future__ import annotations

from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.config import load_config

from generator.emit.site import markdown as inert
from generator.integrations import plain_text

from ..conftest import ROOT

SETTINGS: dict[str, Any] = {
    "toc": {"permalink": True},
    "pymdownx.tabbed": {"alternate_style": True},
}
EXTENSIONS = [
    "toc", "tables", "attr_list", "md_in_html", "admonition", "def_list",
    "pymdownx.superfences", "pymdownx.tabbed",
]  # fmt: skip

active = plain_text._defaults() is not None


def convert(text: str, extensions: list[str], settings: dict[str, Any]) -> tuple[str, Any]:
    md = markdown.Markdown(extensions=extensions, extension_configs=settings)
    html = md.convert(text)
    return html, getattr(md, "toc_tokens", None)


def both(text: str, extensions: list[str] = EXTENSIONS, settings: Any = None) -> None:
    settings = SETTINGS if settings is None else settings
    plain = convert(text, extensions, settings)
    ours = convert(text, [*extensions, plain_text.__name__], settings)
    assert ours == plain, text


def test_it_is_on_for_the_markdown_installed() -> None:
    """The extension does its work only for Markdown's inline patterns as they were read for
    it; a Markdown whose patterns changed turns it off (and this is where to look)."""
    if not active:
        found = plain_text.fingerprint(plain_text.patterns(markdown.Markdown()))
        pytest.skip(f"Markdown's inline patterns changed ({found}): check TRIGGERS against them")
    md = markdown.Markdown(extensions=[plain_text.__name__])
    md.convert("Plain words\\. And &amp; more\\.")
    assert isinstance(md.parser.root, object)  # converted; the HTML is checked below


def test_every_page_of_the_site_converts_alike() -> None:
    pages = 0
    for config_file in sorted((ROOT / "site").glob("mkdocs.*.yml")):
        if config_file.name == "mkdocs.base.yml":
            continue
        config = load_config(str(config_file))
        extensions = [e for e in config.markdown_extensions if e != plain_text.__name__]
        lang = config_file.name.split(".")[1]
        for path in sorted((ROOT / "site" / "docs" / lang).rglob("*.md")):
            text = path.read_text("utf-8")
            if text.startswith("---\n"):
                text = text.split("\n---\n", 1)[1]
            both(text, extensions, config.mdx_configs)
            pages += 1
    assert pages > 100


def test_no_pattern_matches_text_without_a_trigger() -> None:
    """The claim the extension rests on, against each of Markdown's own inline patterns."""
    if not active:
        pytest.skip("the extension is off for this Markdown")
    md = markdown.Markdown()
    texts = st.text(alphabet=st.characters(blacklist_characters="`\\[!<&*_\n\x02\x03"))

    @settings(max_examples=400, deadline=None)
    @given(texts)
    def check(text: str) -> None:
        for pattern in md.inlinePatterns:
            assert pattern.compiled_re.search(text) is None, (pattern, text)

    check()


#: Text as errorbook writes it (escapes, entities) and as people write Markdown.
pieces = st.sampled_from(
    ["word", " ", "é", "日本", "\\.", "\\_", "\\*", "\\`", "\\\\", "\\[", "\\]", "\\(", "\\{",
     "\\#", "\\|", "\\a", "\\&", "\\", "&amp;", "&#61;", "&#x3C;", "&nbsp;", "&bogus", "&;",
     "&#32;", "_", "*", "`", "[", "]", "(", ")", "<", ">", "#", "{", "}", "|", "!", "-", ".",
     "1.", "{: .x }", "{#id}", "\n", "  \n", "x_y", "<b>", "[a](b)"]
)  # fmt: skip
texts = st.lists(pieces, max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(["{}", "## {}", "## {} {{#h}}", "| a | b |\n|---|---|\n| {} | x |",
                               "- {}", "1. {}", "> {}", "!!! note\n    {}", "{}\n{{: .c }}",
                               "Term\n:   {}", '<div markdown="1">\n{}\n</div>']))  # fmt: skip
def test_generated_text_converts_alike(text: str, frame: str) -> None:
    both(frame.format(text))


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_errorbooks_inert_text_converts_alike(text: str) -> None:
    """What errorbook writes of any registry text (emit/site/markdown.inline)."""
    line = inert.inline(text)
    both(line)
    both(f"## {line} {{#x}}")
    both(f"| h |\n|---|\n| {line} |")
