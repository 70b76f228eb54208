"""Pages converted without Python-Markdown (markdown_subset): every page it accepts gets what
Markdown and MkDocs make of it (the HTML, the table of contents, the title, the anchors,
the links MkDocs checks and what it logs about them), and it accepts the code pages."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.config import load_config
from mkdocs.structure import pages
from mkdocs.structure.files import File, Files, get_files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from generator.emit.site import markdown as inert
from generator.emit.site.wires import EXAMPLES_END, EXAMPLES_START
from generator.integrations import markdown_subset, plain_text, rendered_pages

from ..conftest import MINIMAL, ROOT, errorbook_process

Made = tuple[Any, ...]


def _tabs_taken_out(text: str) -> str:
    """A page as the errorbook plugin hands it to Markdown: the example tabs are made apart
    (example_tabs) and only their comments are left."""
    start = text.find(EXAMPLES_START)
    end = text.find(EXAMPLES_END, start + 1)
    if start < 0 or end < 0:
        return text
    return text[:start] + EXAMPLES_START + "\n\n" + text[end:]


@contextmanager
def _logged() -> Iterator[list[str]]:
    found: list[str] = []

    class Listener(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            found.append(f"{record.levelname} {record.getMessage()}")

    listener = Listener()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(listener)
    try:
        yield found
    finally:
        logger.removeHandler(listener)


def _links(made: dict[Any, dict[str, str]]) -> dict[str, dict[str, str]]:
    return {target.src_uri: found for target, found in made.items()}


class Site:
    """One language of a site: its configuration and files, and the two conversions."""

    def __init__(self, config_file: Path) -> None:
        self.config = load_config(str(config_file))
        if plain_text.__name__ not in self.config.markdown_extensions:
            self.config.markdown_extensions.append(plain_text.__name__)  # as the plugin does
        self.files = get_files(self.config)
        self.md = markdown.Markdown(
            extensions=self.config.markdown_extensions,
            extension_configs=self.config.mdx_configs or {},
        )

    def markdown(self, text: str, where: File) -> Made:
        """What MkDocs' Page.render makes of the text."""
        md = self.md.reset()
        raw_html = pages._RawHTMLPreprocessor()
        raw_html._register(md)
        anchors = pages._ExtractAnchorsTreeprocessor(where, self.files, self.config)
        anchors._register(md)
        links = pages._RelativePathTreeprocessor(where, self.files, self.config)
        links._register(md)
        title = pages._ExtractTitleTreeprocessor()
        title._register(md)
        with _logged() as logged:
            content = md.convert(text)
        toc = rendered_pages.toc_tokens(list(get_toc(getattr(md, "toc_tokens", []))))
        found = anchors.present_anchor_ids | raw_html.present_anchor_ids
        return content, toc, title.title, found, _links(links.links_to_anchors), logged

    def subset(self, text: str, where: File) -> Made:
        """What the plugin's page conversion makes of it without Markdown; Unknown where
        it leaves the page to Markdown."""
        page = Page(None, where, self.config)
        page.markdown = text
        converter = rendered_pages.RenderedPages.__new__(rendered_pages.RenderedPages)
        converter._subset = None
        with _logged() as logged:
            if not converter._direct(page, self.config, self.files):
                assert not logged  # nothing checked, nothing logged
                raise markdown_subset.Unknown
        toc = rendered_pages.toc_tokens(list(page.toc))
        links = _links(page.links_to_anchors or {})
        return page.content, toc, page._title_from_render, page.present_anchor_ids, links, logged


def _pages(site: Site) -> Iterator[tuple[File, str]]:
    for where in site.files.documentation_pages():
        page = Page(None, where, site.config)
        page.read_source(site.config)
        assert page.markdown is not None
        yield where, _tabs_taken_out(page.markdown)


def _sites() -> list[Path]:
    found = sorted((ROOT / "site").glob("mkdocs.*.yml"))
    found += sorted((ROOT / "examples" / "postgresql" / "site").glob("mkdocs.*.yml"))
    return [path for path in found if path.name != "mkdocs.base.yml"]


@pytest.mark.parametrize("config_file", _sites(), ids=lambda p: p.parent.parent.name + p.stem)
def test_every_page_it_accepts_converts_as_markdown_converts_it(config_file: Path) -> None:
    site = Site(config_file)
    assert markdown_subset.supported(site.config.markdown_extensions, site.config.mdx_configs)
    accepted, code_pages = 0, 0
    for where, text in _pages(site):
        is_code_page = where.src_uri.startswith("codes/") and where.name != "index"
        code_pages += is_code_page
        try:
            ours = site.subset(text, where)
        except markdown_subset.Unknown:
            assert not is_code_page, f"{where.src_uri} is left to Markdown"
            continue
        accepted += 1
        assert ours == site.markdown(text, where), where.src_uri
    assert accepted >= code_pages > 10


#: Codes in the states the repository's registries do not have: deprecated, retired, and
#: a code with sub-codes, and a message over two lines.
MORE_CODES = """\
  DOOR_OLD:
    layer: front
    title: Old door
    shape: action
    shape_reason: It never reaches an action.
    message: "The old door, line one.\\nAnd line two."
    meaning: Replaced by another code.
    rationale: Kept for old clients.
    recovery: {kind: fix_client, steps: [Use the new door., Then knock.], avoid: [Kicking it.]}
    retry: {policy: never}
    since: 1.0.0
    deprecated: {since: 1.1.0, replaced_by: DOOR_CLOSED, reason: Renamed.}
  DOOR_ODD:
    layer: front
    message: Odd.
    meaning: Odd.
    recovery: {kind: fix_client, steps: [Wait.]}
    retry: {policy: never}
    http: 403
    jsonrpc: -32055
    since: 1.0.0
    deprecated: {since: 1.1.0}
  DOOR_GONE:
    layer: front
    message: Gone.
    meaning: Removed.
    recovery: {kind: fix_client, steps: [Stop.]}
    retry: {policy: never}
    http: 410
    jsonrpc: -32052
    since: 1.0.0
    retired: {since: 1.2.0, reason: Nobody used it.}
  DOOR_CLOSED.LOCKED:
    layer: front
    message: Locked.
    meaning: The door is locked, not only closed.
    recovery: {kind: fix_client, steps: [Find the key.]}
    retry: {policy: never}
    http: 403
    jsonrpc: -32053
    since: 1.2.0
  DOOR_CLOSED.JAMMED:
    layer: front
    message: Jammed.
    meaning: The door is stuck.
    recovery: {kind: fix_client, steps: [Push.]}
    retry: {policy: never}
    http: 403
    jsonrpc: -32054
    since: 1.2.0
limits:"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = tmp_path_factory.mktemp("generated")
    (root / "codes.yaml").write_text(MINIMAL.replace("limits:", MORE_CODES, 1), "utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir()
    (root / "site" / "mkdocs.base.yml").write_bytes(
        (ROOT / "site" / "mkdocs.base.yml").read_bytes()
    )
    done = errorbook_process(root, "generate")
    assert done.returncode == 0, done.stderr
    return Site(root / "site" / "mkdocs.en.yml")


def test_a_generated_registrys_code_pages_convert_as_markdown_converts_them(
    generated: Site,
) -> None:
    """Every code page in every state, each form of code.md.j2 among them."""
    texts = []
    for where, text in _pages(generated):
        if where.src_uri.startswith("codes/") and where.name != "index":
            if "\n```" in text:  # a fenced example (a retired code's): left to Markdown
                assert not _compare(generated, text, where.src_uri)
                text = text.split("\n## Example", 1)[0]
            assert _compare(generated, text, where.src_uri), where.src_uri
            texts.append(text)
    joined = "\n".join(texts)
    for form in ("\n!!! warning ", "\n!!! danger ", "\n> ", "  \n", "\n- [", "\n1. ",
                 "\n| ", "\n{: .eb-subtitle }", "&nbsp;<bdi>", "\n<!-- "):  # fmt: skip
        assert form in joined, form
    assert any("\n\n- [" in text.split("## ")[-1] for text in texts)  # a loose list
    for name in ("recovery.md", "overview.md", "limits.md", "codes/index.md"):
        page = generated.files.get_file_from_path(name)
        assert page is not None
        assert _compare(generated, dict(_pages(generated))[page], name), name


def test_a_deprecated_codes_notice_is_inside_its_box(generated: Site) -> None:
    """The notice's text is the admonition's body (it was once written unindented, and
    Markdown left the box empty with the text after it)."""
    for name, text in (("door_old", "clients should handle"), ("door_odd", "should not rely")):
        where = generated.files.get_file_from_path(f"codes/{name}.md")
        assert where is not None
        page = Page(None, where, generated.config)
        page.read_source(generated.config)
        html = generated.markdown(_tabs_taken_out(page.markdown or ""), where)[0]
        box = html.split('<div class="admonition warning">', 1)[1].split("</div>", 1)[0]
        assert text in box


@pytest.fixture(scope="module")
def german() -> Site:
    return Site(ROOT / "site" / "mkdocs.de.yml")


def _compare(site: Site, text: str, where: str = "codes/action_timeout.md") -> bool:
    """Whether the subset took the text; where it did, it made what Markdown makes."""
    page = site.files.get_file_from_path(where)
    assert page is not None
    try:
        ours = site.subset(text, page)
    except markdown_subset.Unknown:
        return False
    assert ours == site.markdown(text, page), text
    return True


#: Text as errorbook writes it and as people write Markdown, with links to pages and
#: anchors that exist and that do not.
pieces = st.sampled_from(
    ["word", " ", "é", "日本", "مرحبا", "\\.", "\\_", "\\*", "\\`", "\\\\", "\\[", "\\]", "\\(",
     "\\{", "\\#", "\\|", "\\a", "\\&", "\\", "&amp;", "&#61;", "&#x3C;", "&nbsp;", "&bogus",
     "&;", "&#32;", "_", "*", "`", "``", "[", "]", "(", ")", "<", ">", "#", "{", "}", "|", "!",
     "-", ".", "1.", "{: .x }", "{#id}", "\n", "  \n", "x_y", "é_日", "<b>", "</b>", "<bdi>",
     '<span class="eb-untranslated" lang="en">', "</span>", "<br/>", '<a name="n">',
     "`{x}`", "`a | b`", "` `", "`<a id=\"z\">`", "[a](b)", "[EX\\_1](execution_failed.md)",
     "[L](../limits.md#action_timeout)", "[M](../limits.md#missing)", "[N](nowhere.md)",
     "[S](#message)", "[U](https://example.com/x_y)", "![i](x.png)", "<https://x.y>",
     "<a@b.c>", "<!-- c -->", "=", "+", ":", "~", "**", "**[a](b)**", "**b**", "***"]
)  # fmt: skip
texts = st.lists(pieces, max_size=10).map("".join)
frames = st.sampled_from(
    ["{}", "# {} {{#top}}", "## {} {{#h}}", "### {}", "{}\n{{: .eb-subtitle }}", "> {}",
     "> {}  \n> {}\n>\n> {}", "| a | b |\n|---|---|\n| {} | {} |", "- {}\n- {}",
     "- {}\n\n- {}", "1. {}\n2. {}", '!!! danger "{}"\n    {}', '!!! note "Title"\n    {}',
     "<!-- {} -->", "{}\n\n{}", "# T {{#t}}\n\n{}\n\n## U {{#u}}\n\n{}",
     "# {}\n\n## {}\n\n## {} {{#{}}}", "## A\n\n## A\n\n## {}\n\n## A {{#a_1}}",
     "**[{}](codes/x.md)**: {}\n\n- {}\n- {}",
     '<div class="eb-finder" data-x="{}"></div>\n\n<div class="eb-sortable" markdown>\n\n'
     "| a | b |\n|---|---|\n| {} | {} |\n| {} | x |\n\n</div>"]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(frames, st.lists(texts, min_size=4, max_size=4))
def test_generated_pages_convert_alike_where_accepted(
    german: Site, frame: str, fills: list[str]
) -> None:
    _compare(german, frame.format(*fills))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(), min_size=3, max_size=3), st.sampled_from(["{}", "1. {}", "- {}"]))
def test_registry_text_as_errorbook_writes_it_is_accepted_and_converts_alike(
    german: Site, values: list[str], item: str
) -> None:
    """Any text of a registry or a PO file, through emit/site/markdown, in every form a
    code page puts it: the subset takes it (so that code pages do not fall back) and
    makes what Markdown makes."""
    lines = [inert.inline(value.replace("\x00", "")) for value in values]
    page = "\n\n".join(
        [
            f"# {lines[0] or 'X'} {{#x}}",
            f"{lines[1] or 'Y'}\n{{: .eb-subtitle }}",
            inert.quote([lines[0], "", lines[1]]) if lines[0] and lines[1] else "> q",
            f"| a | b |\n|---|---|\n| {lines[0]} | {lines[2]} |",
            "\n".join(item.format(line or "z") for line in lines),
            f'!!! warning "W"\n    {lines[2] or "w"}',
            "\n\n".join(f"- [{line or 'v'}](../limits.md#action_timeout)" for line in lines),
            f"## {lines[1] or 'S'}",
            f"**[{lines[0] or 'R'}](../limits.md)**: {lines[1] or 'r'}\n\n- {lines[2] or 's'}",
        ]
    )
    if any(char in page for char in "\x02\x03\r\t"):
        return  # Markdown's placeholders, and white space errorbook's escaping never writes
    if re.search(r"^(?:~~~|\?\?\?|: |\s)", page, re.M):
        _compare(german, page)  # a fence, details, a definition or stripped white space
        return  # (text it does not escape): the subset may leave the page to Markdown
    assert _compare(german, page), page


@pytest.mark.parametrize(
    "text",
    [
        "*emphasis*",
        "**one** and **two**",
        "** spaced**",
        "# A heading {with braces}",
        "## Setext\n---",
        "    indented code",
        "```\nfenced\n```",
        "Term\n:   definition",
        '=== "Tab"\n\n    text',
        "a [link](<spaced url.md>)",
        "<div>block HTML</div>",
        "text  ",
        "- item\ncontinued",
        "- a\n- b\n\n- c",
        "3. starts at three",
        "| a |\n|:--|\n| b |",
        "!!! note\n    untitled",
        '<div class="x" markdown>\n\ntext\n\n</div>',
        '<div class="x" markdown>\n\n| a |\n|---|\n| b |\n\nmore\n\n</div>',
        '<div class="x" markdown>\n| a |\n|---|\n| b |\n\n</div>',
        '<div id="x"></div>\ntext',
        "<section>block</section>",
        '!!! note "T"\n    a\n    \n    b',  # found by review: accepted as one paragraph
        '<div class="a" markdown="1"></div>',  # found by review: kept as written
        '<div markdown="1" class="x"></div>',
        # found by a hostile review, each accepted and converted otherwise than Markdown:
        "a|b\n:|:",  # the tables extension's separator under a paragraph's line
        "| a |\n|---|\nb |",  # a row without its leading pipe
        "&#61",  # a character reference Markdown's HTML parser completes
        "&#e\n\n<!-- `b` -->",  # one that makes the parser read the rest as text
        "> a\n>",  # a blockquote's last line empty
        "> a\n\n> b",  # a blockquote Markdown joins to the one before
        "<!-- a --!> b -->",  # a comment closed early
        "# a\\>",  # an escaped '>' in a heading's name
        '<div class="x" markdown>\n\n| a |\n|---|\n| `</div>` |\n\n</div>',  # HTML in a div
        "## a\n\n# b\n\n[N](nowhere.md)",  # a refusal after the links: logged twice
        '!!! note "T"\n    one\n\n    two',
        "tab\there",
        "a\x02b",
    ],
)
def test_what_it_does_not_read_is_left_to_markdown(german: Site, text: str) -> None:
    assert not _compare(german, text)


def test_a_page_left_to_markdown_checks_no_link_twice(german: Site) -> None:
    """The links of a page the subset gives up on at its end are neither rewritten nor
    checked by it: MkDocs' warning about a missing page comes once, from Markdown."""
    text = "[N](nowhere.md)\n\n*emphasis*"
    assert not _compare(german, text)


#: The extensions whose forms the subset writes.
BASE = ["toc", "tables", "attr_list", "admonition", "md_in_html"]


@pytest.mark.parametrize(
    ("extensions", "changed"),
    [
        (BASE, {}),
        ([*BASE, "footnotes"], {}),
        ([*BASE, "pymdownx.smartsymbols"], {}),
        (BASE, {"toc": {"permalink": "#"}}),
        (BASE, {"toc": {"permalink": True, "slugify": str}}),
        (["toc", "tables", "attr_list", "md_in_html"], {}),
        ([*BASE, markdown.extensions.Extension()], {}),
    ],
)
def test_a_site_with_other_markdown_is_left_to_markdown(
    extensions: list[Any], changed: dict[str, Any]
) -> None:
    base: dict[str, Any] = {"toc": {"permalink": True}}
    known = markdown_subset.supported(BASE, base)
    assert known  # the repository's own settings, less its other extensions
    assert markdown_subset.supported(extensions, {**base, **changed}) is (
        extensions == BASE and not changed
    )


def test_other_versions_of_markdown_or_mkdocs_are_left_to_markdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib import metadata

    versions = {"markdown": "3.12.0", "mkdocs": "1.6.1"}
    real: Callable[[str], str] = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: versions.get(name.lower()) or real(name))
    assert not markdown_subset.supported(BASE, {"toc": {"permalink": True}})
    versions.update(markdown=markdown.__version__, mkdocs="1.7.0")
    assert not markdown_subset.supported(BASE, {"toc": {"permalink": True}})


def test_a_file_that_is_no_code_page_may_be_read_too(german: Site, tmp_path: Path) -> None:
    """The subset reads pages, not code pages: a page of the site in its forms is taken."""
    files = Files([*german.files, File("extra.md", str(tmp_path), str(tmp_path), True)])
    site = german
    saved = site.files
    site.files = files
    try:
        assert _compare(
            site, "# Extra {#extra}\n\nSee [the limits](limits.md#action_timeout).", "extra.md"
        )
    finally:
        site.files = saved
