"""Text from the registry or a translation stays text in Markdown."""

from __future__ import annotations

import markdown as python_markdown  # type: ignore[import-untyped]
import pytest

from generator.emit.site.markdown import block, code_block, code_span, inline, inline_code, quote

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc", "admonition", "fenced_code"]


def render(text: str) -> str:
    return str(python_markdown.markdown(text, extensions=EXTENSIONS))


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "![x](http://example.org/x.png)",
        "*a* **b** _c_ `d` ~~e~~",
        "# not a heading",
        "1. not a list",
        "- not a list",
        "> not a quote",
        "!!! note",
        "{#id .class}",
        "a | b",
        "&amp; &lt; &#x41;",
        "<!-- comment -->",
        "\\ back\\slash",
        "+ not a list",
        "2026. not a list either",
        "---",
        "***",
        "===",
        "C#",
        "a (b) - c. d! [e]",
        "x {: .cls}",
        "!!",
    ],
)
def test_inline_text_renders_as_itself(text: str) -> None:
    html = render(inline(text))
    assert html.startswith("<p>") and html.endswith("</p>")
    import html as html_module

    assert html_module.unescape(html[3:-4]) == text


def test_a_table_cell_cannot_break_its_table() -> None:
    cell = inline("a | b\nc")
    html = render(f"| h |\n|---|\n| {cell} |\n")
    assert html.count("<td>") == 1 and "a | b c" in html


def test_block_keeps_line_breaks_and_no_setext_heading() -> None:
    html = render(block("line\n===\n    four spaces"))
    assert "<h1>" not in html and "<pre>" not in html and html.count("<br />") == 2


def test_fences_and_spans_outgrow_the_backticks_inside() -> None:
    assert code_block("a ``` b").startswith("````")
    assert code_span("x`y") == "``x`y``"
    assert code_span("`") == "`` ` ``"


def test_a_quote_keeps_lines_and_paragraphs() -> None:
    html = render(quote([inline("a"), inline("# b"), "", inline("> c")]))
    assert html == "<blockquote>\n<p>a<br />\n# b</p>\n<p>&gt; c</p>\n</blockquote>"


def test_errorbook_text_shows_its_backticks_as_code_and_the_rest_as_itself() -> None:
    """The schema page's own text marks code with backticks: those spans render as code,
    everything around them as the characters it is, in a table cell too."""
    text = "A code's `recovery.kind` names *one* of `[a, b]` | or ` a lone tick"
    html = render(f"| h |\n|---|\n| {inline_code(text)} |\n")
    assert html.count("<td>") == 1
    assert "<code>recovery.kind</code>" in html and "<code>[a, b]</code>" in html
    assert "*one*" in html and "| or ` a lone tick" in html
