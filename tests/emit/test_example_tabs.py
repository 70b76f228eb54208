"""The example tabs the errorbook MkDocs plugin makes itself: exactly what Markdown makes of
the same page, or left to Markdown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from mkdocs.config import load_config

from generator.emit.site import wires
from generator.integrations import example_tabs
from generator.integrations.mkdocs_plugin import ErrorbookPlugin

from ..conftest import ROOT


def _examples() -> list[wires.Example]:
    envelope = {"ok": False, "error": {"code": "A_B", "message": 'It\'s 5 \u00b5s "late".'}}
    return [
        wires.Example("python", "failure('A_B', n=1)", envelope),
        wires.Example(
            "http", "to_http(envelope)", (429, {"Retry-After": "2"}, b'{"ok": false, "n": -1.5}')
        ),
        wires.Example("problem", "to_http(problem=True)", (418, {}, b"not json\n  at all")),
        wires.Example("jsonrpc", "to_mcp(envelope, 1)", {"id": 1, "x": [], "y": {}, "z": None}),
        wires.Example("grpc", "to_status('A_B')", {"code": 8, "details": ["`tick`", "\\n"]}),
    ]


def _region(text: str) -> str:
    return text.split(wires.EXAMPLES_START, 1)[1].split(wires.EXAMPLES_END, 1)[0]


def test_the_tabs_read_back_as_they_were_written() -> None:
    examples = _examples()
    text = wires.tabs(examples, lambda label: f"«{label}»", lambda call: f"{call} gives:")
    tabs = wires.read_tabs(_region(text))
    assert tabs is not None
    assert [tab.title for tab in tabs] == [f"«{wires.WIRES[e.wire]}»" for e in examples]
    assert tabs[0].intro == "`failure('A_B', n=1)` gives:"
    for tab, example in zip(tabs, examples, strict=True):
        fence = wires.shown(example).split("\n")
        assert tab.code == "\n".join(fence[1:-1])
        assert tab.language == fence[0].lstrip("`")


@pytest.mark.parametrize(
    "change",
    [
        lambda region: region.replace('=== "HTTP"', '===! "HTTP"'),  # not how tabs() writes
        lambda region: region.replace("    `to_http", "`to_http"),  # not in its tab
        lambda region: region.replace("    ```http", "    ~~~http"),
        lambda region: region.replace('  "ok"', '\t"ok"'),  # Markdown expands tabs
        lambda region: region.replace("    {\n", "    {\n      \n", 1),  # and empties this
        lambda region: region.rsplit("    ```", 1)[0],  # a block never closed
        lambda region: "",
    ],
)
def test_tabs_not_in_their_own_form_are_not_read(change: Callable[[str], str]) -> None:
    region = _region(wires.tabs(_examples(), str, lambda call: f"{call} returns:"))
    assert wires.read_tabs(region) is not None
    assert wires.read_tabs(change(region)) is None


def _config(site: Path, lang: str) -> Any:
    config = load_config(str(site / f"mkdocs.{lang}.yml"))
    config.plugins.clear()  # the pages are converted here, not built
    return config


def _page(src_uri: str) -> Any:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), url=src_uri[:-3] + "/")


def _through_plugin(plugin: ErrorbookPlugin, config: Any, page: Any, text: str) -> str:
    """A page's HTML as a build makes it, from its Markdown to what the plugin writes."""
    text = plugin.on_page_markdown(text, page=page, config=config, files=None)
    converter = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs
    )
    html = plugin.on_page_content(converter.convert(text), page=page, config=config, files=None)
    return plugin.on_post_page(html, page=page, config=config)


def _body(path: Path) -> str:
    """A page's Markdown as MkDocs hands it to plugins: without its front matter."""
    text = path.read_text("utf-8")
    return text.split("\n---\n", 1)[1] if text.startswith("---\n") else text


def test_the_tabs_the_plugin_makes_are_those_markdown_makes() -> None:
    """Every code page of every language, through the plugin as it builds (the tabs made by
    it) and as Markdown alone makes it: the same HTML, to the byte."""
    site = ROOT / "site"
    made = 0
    for config_file in sorted(site.glob("mkdocs.*.yml")):
        lang = config_file.name.split(".")[1]
        if lang == "base":
            continue
        config = _config(site, lang)
        fast = ErrorbookPlugin()
        fast.on_config(config)
        assert fast._tabs_renderer(config) is not None, lang
        slow = ErrorbookPlugin()  # the same plugin, leaving the tabs to Markdown
        for path in sorted((site / "docs" / lang / "codes").glob("*.md")):
            text = _body(path)
            if wires.EXAMPLES_START not in text:
                continue
            page = _page(f"codes/{path.name}")
            ours = _through_plugin(fast, config, page, text)
            theirs = _through_plugin(slow, config, page, text)
            assert ours == theirs, path
            made += 1
    assert made >= 20


def test_the_sentence_with_a_call_is_what_markdown_makes() -> None:
    """A sentence converted with its call left out, then the call put in, is what Markdown
    makes of the whole sentence; a call Markdown would change is converted with it."""
    config = _config(ROOT / "site", "de")
    convert = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs
    )
    calls: list[str] = []

    def inline(text: str) -> str:
        calls.append(text)
        return str(convert.reset().convert(text))

    renderer = example_tabs.Renderer(inline)
    sentences = [
        "`to_http(envelope)` gibt zurück:",
        "Rückgabe von `failure('A', x=\"<b>\")`:",
        "`failure('A', x='a & b')` returns:",
        "`` failure('`') `` returns\\:",
        "`x`` y` returns: \\*",
        "`to_mcp(envelope, 1)` returns `x`:",
        "\\`not a call\\` `to_status('A')`:",
        "`  spaced  ` returns:",
    ]
    for sentence in sentences:
        expected = str(convert.reset().convert(sentence))
        assert f"<p>{renderer._intro(sentence)}</p>" == expected, sentence
    # One conversion serves every call of the same sentence.
    calls.clear()
    renderer._intro("`f(1)` liefert:")
    renderer._intro("`f(2)` liefert:")
    assert len(calls) == 1


Settings = dict[str, dict[str, Any]]


def test_a_site_with_other_markdown_settings_leaves_the_tabs_to_markdown() -> None:
    base = ["toc", "tables", "fenced_code", "pymdownx.superfences", "pymdownx.tabbed"]
    tabbed: Settings = {"pymdownx.tabbed": {"alternate_style": True}}
    assert example_tabs.supported(base, tabbed)
    assert not example_tabs.supported(base, {})  # the classic tab style
    slugs: Settings = {"pymdownx.tabbed": {"alternate_style": True, "slugify": str}}
    assert not example_tabs.supported(base, slugs)
    highlight: Settings = {**tabbed, "pymdownx.highlight": {"linenums": True}}
    assert not example_tabs.supported([*base, "pymdownx.highlight"], highlight)
    assert not example_tabs.supported([*base, "abbr"], tabbed)
    assert not example_tabs.supported([*base, object()], tabbed)
    fences: Settings = {**tabbed, "pymdownx.superfences": {"custom_fences": [{"name": "json"}]}}
    assert not example_tabs.supported(base, fences)
    mermaid: Settings = {
        **tabbed,
        "pymdownx.superfences": {"custom_fences": [{"name": "mermaid"}]},
    }
    assert example_tabs.supported(base, mermaid)


def test_a_page_with_tabs_of_its_own_leaves_the_examples_to_markdown() -> None:
    """The tab sets of a page are numbered in page order: with another set on the page, the
    examples' would not be the first, and Markdown makes them."""
    config = _config(ROOT / "site", "en")
    plugin = ErrorbookPlugin()
    plugin.on_config(config)
    examples = wires.tabs(_examples(), str, lambda call: f"{call} returns:")
    page = _page("codes/a_b.md")
    alone = plugin.on_page_markdown(f"# A\n\n{examples}", page=page, config=config, files=None)
    assert "```" not in alone
    plugin._made.clear()
    other = f'# A\n\n=== "Mine"\n\n    text\n\n{examples}'
    assert plugin.on_page_markdown(other, page=page, config=config, files=None) == other
    assert not plugin._made


@pytest.mark.parametrize("title", [" Python", "# Python", "<div>Python</div>", "", "1. Python"])
def test_a_title_markdown_makes_more_of_than_a_label_is_left_to_markdown(title: str) -> None:
    config = _config(ROOT / "site", "en")
    plugin = ErrorbookPlugin()
    plugin.on_config(config)
    text = wires.tabs(_examples(), lambda label: title if label == "Python" else label, str)
    page = _page("codes/a_b.md")
    assert plugin.on_page_markdown(text, page=page, config=config, files=None) == text
    fine = wires.tabs(_examples(), lambda label: f"*{label}* <b>x</b>", str)
    assert plugin.on_page_markdown(fine, page=page, config=config, files=None) != fine
    made = _through_plugin(plugin, config, page, fine)
    assert made == _through_plugin(ErrorbookPlugin(), config, page, fine)
    assert '<label for="__tabbed_1_1"><em>Python</em> <b>x</b></label>' in made


def test_an_extension_another_plugin_adds_is_seen() -> None:
    """What the site's Markdown is made of is read at the first page, after every plugin's
    ``on_config``: an extension added after errorbook's leaves the tabs to Markdown."""
    config = _config(ROOT / "site", "en")
    plugin = ErrorbookPlugin()
    plugin.on_config(config)
    config.markdown_extensions.append("abbr")
    text = wires.tabs(_examples(), str, lambda call: f"{call} returns:")
    page = _page("codes/a_b.md")
    assert plugin.on_page_markdown(text, page=page, config=config, files=None) == text
