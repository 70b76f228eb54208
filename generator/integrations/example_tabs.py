"""A code's example tabs as HTML, made once per page instead of by Python-Markdown.

Each code page ends its prose with the code's example on every wire, as content tabs of
fenced blocks (:func:`generator.emit.site.wires.tabs`). Python-Markdown reads them like any
Markdown: ``pymdownx.tabbed`` builds the tabs, ``pymdownx.superfences`` hands each block to
``pymdownx.highlight``, which makes a new Pygments formatter (and its whole stylesheet) for
every block; on a site of many codes that is a large share of the build. The errorbook MkDocs plugin
takes the tabs out of the page's Markdown and puts in their place the HTML made here: the
same markup (``pymdownx.tabbed``'s alternate style, ``pymdownx.highlight``'s blocks, with
one formatter and one lexer per language for the whole build), and the titles and
introducing sentences converted by a Markdown of the site's own configuration, once per
distinct text.

It does so only where the result is known to be what Markdown would have written: a site
whose Markdown configuration has only the extensions in :data:`KNOWN`, in the settings
errorbook's pages assume, and a page whose tabs read back exactly (:func:`read_tabs`) and
that has no other tabs. Anywhere else the page is left to Markdown, as before.

Highlighting the tabs is still most of that work, and a page's tabs change only when its
code's example does: :class:`Memo` keeps each page's tabs as
made, under the hash of everything they are made from, from one build of a language to
the next.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from ..digest import digest
from ..emit.site.wires import Tab
from . import memo

#: Markdown extensions that change nothing in the tabs beyond what :func:`render` makes
#: (or, for inline text, what converting that text alone makes), with the settings they may
#: have. Any other extension, or another setting, leaves the tabs to Markdown.
KNOWN: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "toc": lambda _: True,
    "tables": lambda _: True,
    "fenced_code": lambda _: True,  # MkDocs adds it; superfences takes its place
    "attr_list": lambda _: True,
    "md_in_html": lambda _: True,
    "admonition": lambda _: True,
    "def_list": lambda _: True,
    "pymdownx.details": lambda _: True,
    "pymdownx.superfences": lambda settings: (
        set(settings) <= {"custom_fences"}
        and not {str(fence.get("name", "")) for fence in settings.get("custom_fences") or ()}
        & {"*", "python", "http", "json"}  # the languages of wires.shown
    ),
    "pymdownx.tabbed": lambda settings: (
        bool(settings.get("alternate_style"))
        and not settings.get("slugify")
        and not settings.get("combine_header_slug")
    ),
}

#: A tab anywhere else on a page: the tab sets are numbered in page order.
_OTHER_TABS = re.compile(r"^[ \t]*={3}[!+]* +\"", re.M)
#: The call in a sentence that introduces a value (``to_http(envelope)`` returns:): a code
#: span whose text Markdown writes as it is, with nothing to escape or strip.
_CALL = re.compile(r"(`+)([^`&<>\\\s](?:[^`&<>\\\n]*[^`&<>\\\s])?)\1(?!`)")
#: What holds the call's place while the rest of the sentence is converted: a word that no
#: Markdown extension in :data:`KNOWN` changes.
_CALL_TOKEN = "errorbookcallplaceholder"


def supported(extensions: Sequence[object], settings: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a site with these Markdown extensions (MkDocs' ``markdown_extensions``, by
    name) and their settings (``mdx_configs``) renders the tabs as :func:`render` does."""
    for extension in extensions:
        if not isinstance(extension, str):
            return False  # an extension object: anything could happen
        allowed = KNOWN.get(extension)
        if allowed is None or not allowed(settings.get(extension) or {}):
            return False
    return "pymdownx.superfences" in extensions and "pymdownx.tabbed" in extensions


def alone(markdown: str, start: int, end: int) -> bool:
    """Whether the page ``markdown`` has no tabs outside ``[start:end]`` (the examples')."""
    return not (_OTHER_TABS.search(markdown, 0, start) or _OTHER_TABS.search(markdown, end))


class Renderer:
    """Makes the HTML of a page's example tabs; one for a whole build.

    ``inline`` converts one paragraph of Markdown as the site's Markdown does (``<p>...</p>``),
    or gives None when it cannot."""

    def __init__(self, inline: Callable[[str], str | None]) -> None:
        from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
        from pymdownx.highlight import BlockHtmlFormatter  # type: ignore[import-untyped]

        self._inline = inline
        self._paragraphs: dict[str, str | None] = {}
        self._lexers: dict[str, Any] = {}
        self._get_lexer = get_lexer_by_name
        # What pymdownx.highlight passes for a fenced block without options, as one
        # formatter: creating one builds its whole stylesheet.
        self._formatter = BlockHtmlFormatter(
            cssclass="highlight",
            linenos=False,
            linenostart=1,
            linenostep=1,
            linenospecial=0,
            style="default",
            noclasses=False,
            hl_lines=[],
            wrapcode=True,
            filename="",
            linespans="",
            lineanchors="",
            anchorlinenos=False,
        )

    def _paragraph(self, text: str) -> str | None:
        """``text`` as the inline content Markdown makes of it."""
        if text not in self._paragraphs:
            made = self._inline(text)
            inner = None
            if made is not None and made.startswith("<p>") and made.endswith("</p>"):
                inner = made[3:-4]
                if "<p>" in inner or "</p>" in inner:
                    inner = None
            self._paragraphs[text] = inner
        return self._paragraphs[text]

    def _intro(self, text: str) -> str | None:
        """The sentence that introduces a value: converted once per language with its call
        left out (the sentences of one language differ only in it), then the call put in as
        the code span Markdown makes of it."""
        if "\\`" not in text and _CALL_TOKEN not in text:
            call = _CALL.search(text)
            if call is not None and text.count("`") == 2 * len(call.group(1)):
                shape = self._paragraph(text[: call.start()] + _CALL_TOKEN + text[call.end() :])
                if shape is not None and shape.count(_CALL_TOKEN) == 1:
                    return shape.replace(_CALL_TOKEN, f"<code>{call.group(2)}</code>")
        return self._paragraph(text)

    def _highlighted(self, code: str, language: str) -> str | None:
        """``code`` as pymdownx.highlight writes it."""
        from pygments import highlight  # type: ignore[import-untyped]

        lexer = self._lexers.get(language)
        if lexer is None:
            try:
                lexer = self._get_lexer(language or "text", stripnl=True)
            except Exception:  # a language Pygments does not know: Markdown decides
                return None
            self._lexers[language] = lexer
        return str(highlight(code, lexer, self._formatter))

    def render(self, tabs: Sequence[Tab]) -> str | None:
        """The tabs as ``pymdownx.tabbed`` (alternate style) writes the first tab set of a
        page; None when a part of them is not what this can make."""
        count = len(tabs)
        inputs: list[str] = []
        labels: list[str] = []
        blocks: list[str] = []
        for number, tab in enumerate(tabs, 1):
            # A label keeps the spaces around its text, a paragraph does not.
            title = self._paragraph(tab.title) if tab.title == tab.title.strip() else None
            intro = self._intro(tab.intro)
            code = self._highlighted(tab.code, tab.language)
            if title is None or intro is None or code is None:
                return None
            checked = 'checked="checked" ' if number == 1 else ""
            inputs.append(
                f'<input {checked}id="__tabbed_1_{number}" name="__tabbed_1" type="radio" />'
            )
            labels.append(f'<label for="__tabbed_1_{number}">{title}</label>')
            blocks.append(f'<div class="tabbed-block">\n<p>{intro}</p>\n{code}</div>\n')
        return (
            f'<div class="tabbed-set tabbed-alternate" data-tabs="1:{count}">'
            + "".join(inputs)
            + f'<div class="tabbed-labels">{"".join(labels)}</div>\n'
            + '<div class="tabbed-content">\n'
            + "".join(blocks)
            + "</div>\n</div>"
        )


#: The libraries whose code decides what :class:`Renderer` makes: Pygments lexes and formats,
#: pymdown-extensions gives the formatter, Python-Markdown and its extensions convert the
#: titles and sentences.
_LIBRARIES = ("Markdown", "pymdown-extensions", "Pygments")
#: errorbook's own code that makes the tabs: this module and the plugin's inline converter.
_SOURCES = (
    Path(__file__),
    Path(__file__).with_name("mkdocs_plugin.py"),
)


def fingerprint(extensions: Sequence[object], settings: Mapping[str, Any]) -> str | None:
    """The hash of everything but the tabs themselves that :class:`Renderer` reads: the
    site's Markdown settings, the versions of Python and of the libraries that make the
    HTML, and errorbook's code that calls them. None when the settings cannot be written
    down exactly (an object among them): such a site is given no memo."""
    try:
        written = json.dumps([list(extensions), dict(settings)], sort_keys=True)
        versions = [metadata.version(name) for name in _LIBRARIES]
        sources = [path.read_bytes() for path in _SOURCES]
    except (TypeError, ValueError, OSError, metadata.PackageNotFoundError):
        return None
    return digest(str(memo.FORMAT), sys.version, written, *versions, *sources)


class Memo:
    """Each page's example tabs as :class:`Renderer` made them, kept from one build to the
    next (a :class:`~.memo.Memo` per site configuration).

    An entry is found by the hash of the fingerprint and the text the tabs are read from
    (between :data:`~errorbook.emit.site.wires.EXAMPLES_START` and ``EXAMPLES_END``), which
    is all that their HTML is made from: a rebuild after an edit reads and highlights only
    the tabs that changed, and gives the bytes a build without a memo gives."""

    def __init__(self, folder: Path | None, name: str, fingerprint: str) -> None:
        self._fingerprint = fingerprint
        self._memo = memo.Memo(folder, name, fingerprint)

    def render(self, text: str, make: Callable[[str], str | None]) -> str | None:
        """The HTML of the tabs ``text`` holds: as an earlier build made it, else
        ``make(text)`` (None: the tabs are left to Markdown, and nothing is kept)."""
        key = digest(self._fingerprint, text)
        html = self._memo.get(key)
        if not isinstance(html, str):
            html = make(text)
            if html is None:
                return None
            self._memo.put(key, html)
        return html

    def save(self) -> None:
        """Keep what this build used, when that differs from what the file holds."""
        self._memo.save()
