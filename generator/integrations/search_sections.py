"""A page's sections for Material's search index, read as Material's parser reads them, in a
fraction of its time.

Material's search plugin cuts each page's HTML into sections with a parser built on
``html.parser``: for every tag and every run of text, the standard library's parser finds
it with a handful of regular expressions, and Material's callbacks then look through the
whole stack of open elements more than once. On a site of a thousand code pages that was
about a tenth of each language's build. The HTML is Python-Markdown's: plain tags, quoted
attributes, text without a stray ``<``.

:func:`sections` reads HTML of exactly that form with one regular expression and keeps
counts of what the callbacks look for, and gives the sections Material's parser gives:
the same :class:`Section` and :class:`Element` objects of Material's own module, with the
same titles and texts, quirks included (the elements it skips are known by their tag
name only, as Material's set of them compares them; a closing tag that does not match
the innermost open element is ignored; a kept element left empty is dropped). It gives
None for anything else: a comment it cannot be sure the standard library ends where it
does, a script or style element, a declaration, a processing instruction, CDATA, an
unquoted attribute value, a ``<`` that opens no tag, or a state Material's parser would
fail in; the caller then lets Material's parser read the page.

``tests/emit/test_search_sections.py`` compares both on every page of sites errorbook
builds and on generated HTML.
"""

from __future__ import annotations

import html
import re
from typing import Any

#: Text; a start tag (its attributes each quoted, or without a value); an end tag; or a
#: comment with no "--" inside, which every version of html.parser ends at its "-->".
#: Whitespace is ASCII's only: other characters html.parser's patterns take for whitespace
#: (as ``\s`` does) make the page one this leaves to it.
_TOKEN = re.compile(
    r"""(?P<text>[^<]+)
    |<(?P<start>[a-zA-Z][a-zA-Z0-9]*)
      (?P<attrs>(?:[ \t\n\r\f]+[a-zA-Z_:][-a-zA-Z0-9_:.]*
        (?:[ \t\n\r\f]*=[ \t\n\r\f]*(?:"[^"]*"|'[^']*'))?)*)
      [ \t\n\r\f]*(?P<closed>/?)>
    |</(?P<end>[a-zA-Z][a-zA-Z0-9]*)[ \t\n\r\f]*>
    |<!--(?!-?>)(?:(?!--).)*-->""",
    re.X | re.S,
)
_ATTR = re.compile(
    r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:[ \t\n\r\f]*=[ \t\n\r\f]*(?:"([^"]*)"|'([^']*)'))?"""
)
#: Elements whose content html.parser reads as raw text.
_RAW = frozenset({"script", "style"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ALWAYS_SKIPPED = ("object", "script", "style")
#: The tags Material's parser keeps in a section's text.
_KEPT = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})


class _Unsure(Exception):
    """Material's parser would do something this does not: it reads the page itself."""


def sections(content: str, module: Any) -> list[Any] | None:
    """The sections Material's ``Parser`` (of ``module``, its search plugin's module) makes
    of ``content``; None where this cannot be sure to read it as that parser does."""
    try:
        return _Reader(module).read(content)
    except _Unsure:
        return None


class _Reader:
    """The state of Material's parser (``Parser`` in material/plugins/search/plugin.py), and
    counts of what its callbacks search the open elements for."""

    def __init__(self, module: Any) -> None:
        self.element = module.Element
        self.section_of = module.Section
        self.void = module.void
        self.escape = module.escape
        self.context: list[Any] = []  # the open elements, innermost last
        self.open: dict[str, int] = {}  # how many of each tag are open
        self.skip: set[str] = set(_ALWAYS_SKIPPED)  # by tag, as Material's set compares
        self.skipped = False  # whether an open element's tag is in skip
        self.permalinks = 0  # open <a class="headerlink">
        self.section: Any = None
        self.data: list[Any] = []

    def read(self, content: str) -> list[Any]:
        position = 0
        end = len(content)
        match = _TOKEN.match
        escape = self.escape
        open_ = self.open
        while position < end:
            found = match(content, position)
            if found is None:
                raise _Unsure  # a "<" this does not read as html.parser would
            position = found.end()
            kind = found.lastgroup
            if kind == "text":  # Material's handle_data
                if self.skipped:
                    continue
                data = found.group()
                if "&" in data:
                    data = html.unescape(data)
                inside_pre = open_.get("pre")
                if not inside_pre:
                    data = data.replace("\n", " ") if not data.isspace() else " "
                section = self.section
                if section is None:
                    section = self.section = self.section_of(self.element("hx"))
                    self.data.append(section)
                if open_.get(section.el.tag):
                    if not self.permalinks:
                        section.title.append(escape(data, quote=False))
                elif data.isspace():
                    text = section.text
                    if not text or not text[-1].isspace() or inside_pre:
                        text.append(data)
                else:
                    section.text.append(escape(data, quote=False))
            elif kind == "closed":  # a start tag (its last group)
                tag = found.group("start").lower()
                if tag in _RAW:
                    raise _Unsure  # read as raw text by html.parser
                attrs: dict[str, str | None] = {}
                given = found.group("attrs")
                if given:
                    for attr in _ATTR.finditer(given):
                        # As html.parser gives them: the name in lower case, the value
                        # without its quotes and unescaped, None for an attribute without
                        # one; of two of one name, Material's dict keeps the last.
                        value = attr.group(2) if attr.group(2) is not None else attr.group(3)
                        if value and "&" in value:
                            value = html.unescape(value)
                        attrs[attr.group(1).lower()] = value
                self.start(tag, attrs)
                if found.group("closed"):
                    self.close(tag)  # <x/>: html.parser's handle_startendtag
            elif kind == "end":
                self.close(found.group("end").lower())
            # a comment: nothing, as for Material's parser
        return self.data

    def _skipping(self) -> bool:
        open_ = self.open
        return any(open_.get(tag) for tag in self.skip)

    def start(self, tag: str, attrs: dict[str, str | None]) -> None:
        """Material's handle_starttag."""
        element = self.element(tag, attrs)
        if tag in self.void:
            return
        self.context.append(element)
        self.open[tag] = self.open.get(tag, 0) + 1
        if tag in self.skip:
            self.skipped = True
        if tag == "a" and attrs.get("class") == "headerlink":
            self.permalinks += 1
        if tag in _HEADINGS:
            depth = len(self.context)
            if "id" in attrs:
                if tag != "h1" and not self.data:
                    self.section = self.section_of(self.element("hx"), depth)
                    self.data.append(self.section)
                self.section = self.section_of(element, depth)
                if self.data:
                    self.section.id = attrs["id"]
                self.data.append(self.section)
        if self.section is None:
            self.section = self.section_of(self.element("hx"))
            self.data.append(self.section)
        if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
            self.skip.add(tag)
            self.skipped = True
            return
        if tag in _KEPT and not self.skipped:
            self._target().append(f"<{tag}>")

    def _target(self) -> list[str]:
        """The section's title while inside an element of its heading's tag, else its text."""
        section = self.section
        title: list[str] = section.title if self.open.get(section.el.tag) else section.text
        return title

    def close(self, tag: str) -> None:
        """Material's handle_endtag."""
        context = self.context
        if not context or context[-1].tag != tag:
            return
        if self.section.depth > len(context):
            for section in reversed(self.data):
                if section.depth <= len(context):
                    self.section.depth = float("inf")
                    self.section = section
                    break
        element = context.pop()
        self.open[tag] -= 1
        if tag == "a" and element.attrs.get("class") == "headerlink":
            self.permalinks -= 1
        if tag in self.skip:
            if tag not in _ALWAYS_SKIPPED:
                self.skip.discard(tag)
            self.skipped = self._skipping()
            return
        if tag in _KEPT and not self.skipped:
            data = self._target()
            try:
                index = data.index(f"<{tag}>")
            except ValueError:
                raise _Unsure from None  # Material's parser fails here
            for later in range(index + 1, len(data)):
                if not data[later].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                del data[index:]
            else:
                data.append(f"</{tag}>")
