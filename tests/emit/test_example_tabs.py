"""The example tabs the errorbook MkDocs plugin makes itself: exactly what Markdown makes of
the same page, or left to Markdown."""

from __future__ import annotations

import marshal
import zlib
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from mkdocs.config import load_config

from generator.emit.site import wires
from generator.integrations import example_tabs
from generator.integrations.mkdocs_plugin import ErrorbookPlugin

from ..conftest import ROOT, cache_of


@pytest.fixture(autouse=True)
def _no_memo(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin makes every page's tabs afresh, and reads no memo from the repository's
    cache, except in the tests of the memo, which give it a folder of their own."""
    if "memo_root" not in request.fixturenames:
        monkeypatch.setattr(ErrorbookPlugin, "_tabs_memo", lambda self, config: None)


@pytest.fixture
def memo_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        ErrorbookPlugin,
        "_settings",
        lambda self, config: SimpleNamespace(root=tmp_path, cache_dir=None),
    )
    return tmp_path


def _markdown_only() -> ErrorbookPlugin:
    """The plugin as it is where it cannot make the tabs: Markdown makes them."""
    plugin = ErrorbookPlugin()
    plugin._renderer, plugin._renderer_known = None, True
    return plugin


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
        slow = _markdown_only()
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
    assert made == _through_plugin(_markdown_only(), config, page, fine)
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


def _code_pages(lang: str, count: int) -> dict[str, str]:
    folder = ROOT / "site" / "docs" / lang / "codes"
    pages = {
        f"codes/{path.name}": _body(path)
        for path in sorted(folder.glob("*.md"))
        if wires.EXAMPLES_START in path.read_text("utf-8")
    }
    return dict(list(pages.items())[:count])


def _build_pages(
    config: Any, pages: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, str], int]:
    """Each page's HTML as one build of the plugin makes it, and how many pages' tabs it had
    to make (the others came from the memo)."""
    made: list[int] = []
    render = example_tabs.Renderer.render

    def counted(self: example_tabs.Renderer, tabs: Any) -> str | None:
        made.append(1)
        return render(self, tabs)

    monkeypatch.setattr(example_tabs.Renderer, "render", counted)
    plugin = ErrorbookPlugin()
    plugin.on_config(config)
    html = {uri: _through_plugin(plugin, config, _page(uri), text) for uri, text in pages.items()}
    plugin.on_post_build(config=config)
    monkeypatch.setattr(example_tabs.Renderer, "render", render)
    return html, len(made)


def _by_markdown(config: Any, pages: dict[str, str]) -> dict[str, str]:
    plugin = _markdown_only()
    return {uri: _through_plugin(plugin, config, _page(uri), text) for uri, text in pages.items()}


def test_a_rebuild_takes_unchanged_tabs_from_the_memo_and_gives_the_same_bytes(
    memo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through every kind of change (none, a page's example, the Markdown settings, a damaged
    memo, one page gone), each build gives what Markdown alone makes of the pages, to the
    byte, and makes afresh exactly the tabs the memo cannot answer for."""
    config = _config(ROOT / "site", "de")
    pages = _code_pages("de", 12)
    assert len(pages) == 12

    def build(expected_made: int) -> None:
        html, made = _build_pages(config, pages, monkeypatch)
        assert html == _by_markdown(config, pages)
        assert made == expected_made

    build(12)  # the first build makes them all
    (memo,) = cache_of(memo_root).glob("site-tabs-mkdocs.de-*.memo")
    build(0)  # nothing changed
    first = next(iter(pages))
    message = pages[first].split("'message': '", 1)[1].split("'", 1)[0]
    pages[first] = pages[first].replace(message, "Ein anderer Text.")
    assert pages[first].count("Ein anderer Text.") >= 2
    build(1)  # one page's example changed: its tabs only
    build(0)
    config.mdx_configs["toc"] = {**config.mdx_configs.get("toc", {}), "permalink": "#"}
    build(12)  # other Markdown settings: every page's tabs again
    build(0)
    memo.write_bytes((memo.read_bytes())[:-40])
    build(12)  # a damaged memo is an empty one
    del pages[first]
    build(0)
    kept = marshal.loads(zlib.decompress(memo.read_bytes()))["pages"]
    assert len(kept) == 11  # what the last build did not use is not kept


def test_a_memo_of_other_libraries_or_code_is_not_used(
    memo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(ROOT / "site", "en")
    pages = _code_pages("en", 3)
    _build_pages(config, pages, monkeypatch)
    real = metadata.version
    monkeypatch.setattr(
        metadata,
        "version",
        lambda name: "99.0" if name == "Pygments" else real(name),
    )
    html, made = _build_pages(config, pages, monkeypatch)
    assert made == 3
    assert html == _by_markdown(config, pages)
    monkeypatch.setattr(example_tabs, "_SOURCES", (*example_tabs._SOURCES, Path(__file__)))
    assert _build_pages(config, pages, monkeypatch)[1] == 3


def test_markdown_settings_that_cannot_be_written_down_get_no_memo(
    memo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(ROOT / "site", "en")
    config.mdx_configs["toc"] = {**config.mdx_configs.get("toc", {}), "slugify": lambda t, s: t}
    pages = _code_pages("en", 2)
    assert _build_pages(config, pages, monkeypatch)[1] == 2
    assert _build_pages(config, pages, monkeypatch)[1] == 2
    assert not list(cache_of(memo_root).glob("site-tabs-*"))
