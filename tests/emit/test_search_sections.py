"""A page's sections for Material's search index, read by errorbook (search_sections): the
sections Material's own parser makes of the same HTML, quirks included, for every page of
the repository's site and for generated HTML; anything else is left to Material's parser."""

from __future__ import annotations

import importlib
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.config import load_config

from generator.integrations.search_sections import sections

from ..conftest import ROOT

material = importlib.import_module("material.plugins.search.plugin")


def parsed(content: str) -> list[Any]:
    """The sections Material's parser makes of ``content``."""
    parser = material.Parser()
    parser.feed(content)
    parser.close()
    return list(parser.data)


def shown(found: list[Any]) -> list[tuple[object, ...]]:
    return [
        (s.el.tag, dict(s.el.attrs), s.depth, s.id, s.title, s.text, s.is_excluded()) for s in found
    ]


def same_as_material(content: str) -> bool:
    """Whether errorbook read ``content`` (not left it to Material) as Material does."""
    ours = sections(content, material)
    if ours is None:
        return False
    assert shown(ours) == shown(parsed(content)), content
    return True


def _site_pages() -> list[tuple[str, str]]:
    """Every page of the repository's site, in every language, as its Markdown makes it."""
    pages = []
    for config_file in sorted((ROOT / "site").glob("mkdocs.*.yml")):
        lang = config_file.name.split(".")[1]
        if lang == "base":
            continue
        config = load_config(str(config_file))
        convert = markdown.Markdown(
            extensions=config.markdown_extensions, extension_configs=config.mdx_configs
        )
        for path in sorted((ROOT / "site" / "docs" / lang).rglob("*.md")):
            text = path.read_text("utf-8")
            if text.startswith("---\n"):
                text = text.split("\n---\n", 1)[1]
            name = f"{lang}/{path.relative_to(ROOT / 'site' / 'docs' / lang)}"
            pages.append((name, convert.reset().convert(text)))
    return pages


def test_every_page_of_the_site_is_read_as_material_reads_it() -> None:
    pages = _site_pages()
    assert len(pages) > 100
    for name, content in pages:
        assert same_as_material(content), name


tags = st.sampled_from(
    ["p", "div", "span", "h1", "h2", "h3", "a", "pre", "code", "ul", "ol", "li", "sub",
     "table", "td", "object", "button", "em", "P", "H2"]
)  # fmt: skip
voids = st.sampled_from(["br", "img", "hr", "input", "BR"])
attributes = st.sampled_from(
    [
        "",
        ' id="x"',
        " id='y-1'",
        ' class="headerlink" href="#x"',
        ' class="linenodiv"',
        " data-search-exclude",
        ' data-search-exclude=""',
        ' title="a &amp; b" ID="Z"',
        ' class="a" class="headerlink"',
        '\n  id = "s"',
    ]
)
words = st.sampled_from(
    ["word", " ", "\n", "  \n ", "a&amp;b", "&lt;tag&gt;", "x &#39;y&#39;", "&nbsp;", "¶",
     "日本", "tab\there", ">"]
)  # fmt: skip


@st.composite
def fragments(draw: st.DrawFn, depth: int = 0) -> str:
    """HTML of the kind Markdown writes, with the cases Material's parser treats apart:
    headings with and without ids, permalinks, excluded and skipped elements, void and
    self-closing tags, closing tags that match nothing, comments, entities."""
    parts = []
    for _ in range(draw(st.integers(0, 5))):
        choice = draw(st.integers(0, 9))
        if choice <= 2 or depth > 3:
            parts.append(draw(words))
        elif choice <= 6:
            tag, attrs = draw(tags), draw(attributes)
            inner = draw(fragments(depth + 1))
            parts.append(f"<{tag}{attrs}>{inner}</{tag.lower() if draw(st.booleans()) else tag}>")
        elif choice == 7:
            parts.append(f"<{draw(voids)}{draw(attributes)}{draw(st.sampled_from(['', ' /']))}>")
        elif choice == 8:
            parts.append(f"</{draw(tags)}>")  # closes nothing, or not the innermost
        else:
            parts.append(draw(st.sampled_from(["<!-- c -->", "<!---->", f"<{draw(tags)}/>"])))
    return "".join(parts)


@settings(max_examples=600, deadline=None)
@given(fragments())
def test_generated_html_is_read_as_material_reads_it(content: str) -> None:
    try:
        expected = shown(parsed(content))
    except ValueError:  # Material's parser fails on it: so must the page, through it
        assert sections(content, material) is None
        return
    ours = sections(content, material)
    assert ours is not None, content
    assert shown(ours) == expected, content


@pytest.mark.parametrize(
    "content",
    [
        "<p>a < b</p>",  # a "<" that opens no tag
        "<script>if (a < b) {}</script><p>x</p>",
        "<style>p > a {}</style>",
        "<!DOCTYPE html><p>x</p>",
        "<?xml version='1.0'?><p>x</p>",
        "<![CDATA[x]]><p>y</p>",
        "<!-- a -- b --><p>x</p>",  # a comment html.parser versions end apart
        "<!--><p>x</p>",
        "<p id=x>unquoted</p>",
        "<my-element>x</my-element>",
        "<p\u00a0id='x'>odd whitespace</p>",
    ],
)
def test_html_it_cannot_be_sure_of_is_left_to_material(content: str) -> None:
    assert sections(content, material) is None


def test_a_page_material_fails_on_is_left_to_it() -> None:
    # The inner div ends the outer one's exclusion (Material's skip set knows tags only),
    # and the paragraph, opened unseen, is closed in sight.
    content = "<div data-search-exclude><p>x<div></div>y</p></div>"
    with pytest.raises(ValueError):
        parsed(content)
    assert sections(content, material) is None
