"""Pages written in the few Markdown forms errorbook's page templates use, converted to HTML
without Python-Markdown.

A site of many codes is mostly code pages, and Python-Markdown was the largest part of
building one: it reads every page as any Markdown could be written, one block processor and
one inline pattern after another, through an element tree and its serializer. errorbook's
code pages use a handful of forms, always written the same way (``code.md.j2`` and
``emit/site/markdown``): headings, paragraphs (one with a class), HTML comments, blockquotes,
tables, one-line list items, admonitions; and inline, backslash escapes, entities, code
spans, links and a few HTML tags. The code table and the recovery page add strong emphasis
around a link and a ``div`` (``md_in_html``) around the table. This reads exactly those
forms and writes
what Python-Markdown, with the extensions of errorbook's site configuration, writes for
them, byte for byte: the HTML, the table of contents, the title and the anchors MkDocs takes
from a conversion. Each link goes through MkDocs' own link rewriting and checking, as it
does under Markdown.

Anything else, anywhere in the page (a form not listed, a character Markdown could read in
another way, a setting this does not know), raises :class:`Unknown` and the page is
converted by Markdown as before: the forms are few and strict so that what is accepted is
known. :func:`supported` says which sites this may be used for, and :data:`VERSIONS` the
versions of Markdown and MkDocs whose output it was checked against.
``tests/emit/test_markdown_subset.py`` converts every page of the repository's sites and of
generated registries both ways, and generated text full of Markdown's characters, and
compares.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import plain_text

#: The extensions a site may have for this to write what Markdown writes, each with a check
#: of its settings: those whose output this writes (:data:`REQUIRED`), and those that change
#: none of the forms read here (each needs a line or a character that makes this give up).
EXTENSIONS: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "toc": lambda settings: set(settings) <= {"permalink"} and settings.get("permalink") is True,
    "tables": lambda settings: not settings,
    "attr_list": lambda settings: not settings,
    "admonition": lambda settings: not settings,
    "md_in_html": lambda settings: not settings,
    "fenced_code": lambda _: True,  # fences are not read here
    "pymdownx.superfences": lambda _: True,
    "pymdownx.tabbed": lambda _: True,  # tabs (=== lines) are not read here
    "pymdownx.details": lambda _: True,  # ??? lines
    "def_list": lambda _: True,  # lines starting with ':'
    plain_text.__name__: lambda _: True,  # the same HTML, made sooner
}
#: The extensions whose forms this writes: without one, Markdown reads them as text.
REQUIRED = frozenset({"toc", "tables", "attr_list", "admonition", "md_in_html"})
#: The versions of Markdown and MkDocs whose output this was checked against.
VERSIONS = {"markdown": ("3.11",), "mkdocs": ("1.6.",)}


class Unknown(Exception):
    """The page has something this does not convert: Markdown converts it."""


@dataclass
class Converted:
    """What MkDocs takes from a page's conversion."""

    content: str
    toc: list[Any]  # Markdown's ``toc_tokens``: level, id, name, children
    title: str | None  # the first element's text, when it is a level-one heading
    anchors: set[str]  # the ids of the page's elements


def supported(extensions: Sequence[object], settings: Mapping[str, Any]) -> bool:
    """Whether a site with these Markdown extensions (by name) and settings
    (``mdx_configs``) gets from :func:`convert` what Markdown would write."""
    from importlib import metadata

    try:
        if not metadata.version("markdown").startswith(VERSIONS["markdown"]):
            return False
        if not metadata.version("mkdocs").startswith(VERSIONS["mkdocs"]):
            return False
    except metadata.PackageNotFoundError:
        return False
    names = [name for name in extensions if isinstance(name, str)]
    if len(names) != len(extensions):
        return False  # an extension object: anything could happen
    if not {name.removeprefix("markdown.extensions.") for name in names} >= REQUIRED:
        return False
    for name in names:
        check = EXTENSIONS.get(name.removeprefix("markdown.extensions."))
        found = settings.get(name) or {}
        if check is None or not isinstance(found, Mapping) or not check(found):
            return False
    return True


# -- inline -------------------------------------------------------------------------------

#: What Markdown escapes after a backslash (``Markdown.ESCAPED_CHARS``, with tables' '|').
_ESCAPED = frozenset("\\`*_{}[]()>#+-.!|")
#: An inline HTML tag: a name, and attributes with quoted values, one space apart.
_INLINE_TAG = re.compile(
    r"</?[a-zA-Z][a-zA-Z0-9]*(?: [a-zA-Z][a-zA-Z0-9-]*(?:=\"[^\"<>&\n`\\\[\]]*\")?)* ?/?>"
)
#: Inline Markdown, left to right: an escape, a code span's opening backticks, a link (plain
#: text and a plain relative or absolute address), an HTML tag, an entity, a hard line
#: break, underscores inside a word, strong emphasis, and any other character that one of
#: Markdown's inline patterns or the attribute lists could read.
_INLINE = re.compile(
    r"\\(.)"
    r"|(`+)"
    r"|\[((?:[^\[\]`\\<>&*_{}!\n]|\\[^\n])+)\]\(([^\s()<>\"'\\`&*{}\[\]]+)\)"
    rf"|({_INLINE_TAG.pattern})"
    r"|(&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)"
    r"|(  \n)"
    r"|((?<=\w)_+(?=\w))"
    r"|(\*\*)"
    r"|([\\`\[\]<*_{}\n]|!\[)",
    re.S,
)
#: Code span content: Markdown takes the shortest text up to the same run of backticks.
_CODE_END: dict[int, re.Pattern[str]] = {}
#: Tags whose HTML Markdown leaves inside a paragraph (never block-level elements).
_INLINE_TAGS = frozenset({"a", "abbr", "bdi", "bdo", "br", "button", "code", "em", "kbd",
                          "small", "span", "strong", "sub", "sup", "time", "wbr"})  # fmt: skip
_RE_AMP = re.compile(r"&(?!(?:\#[0-9]+|\#x[0-9a-f]+|[0-9a-z]+);)", re.I)


def _text(text: str) -> str:
    """Text as Markdown's serializer writes it."""
    if "&" in text:
        text = _RE_AMP.sub("&amp;", text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _attribute(text: str) -> str:
    """An attribute value as Markdown's HTML serializer writes it."""
    if "&" in text:
        text = _RE_AMP.sub("&amp;", text)
    return text.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class _Inline:
    """Converts inline text; one per page, for its links."""

    def __init__(self) -> None:
        self.urls: list[str | int] = []  # an address, or the number of a heading

    def link(self, url: str | int) -> str:
        """A mark for a link's address (or a heading's permalink, by the heading's number,
        whose id may not be known yet): the addresses are rewritten once the whole page is
        read, so that a page this gives up on has had no link checked (and no warning
        logged twice)."""
        self.urls.append(url)
        return f"\x00{len(self.urls) - 1}\x00"

    def convert(self, text: str, *, in_link: bool = False, in_strong: bool = False) -> str:
        if "\x02" in text or "\x03" in text:
            raise Unknown("Markdown's placeholder characters")
        out: list[str] = []
        plain: list[str] = []  # text since the last element or stashed HTML
        position = 0
        search = _INLINE.search
        while (found := search(text, position)) is not None:
            plain.append(text[position : found.start()])
            position = found.end()
            kind = found.lastindex
            if kind == 1:  # an escape
                char = found.group(1)
                if char not in _ESCAPED:
                    raise Unknown("a backslash before a character Markdown does not escape")
                plain.append(char)
                continue
            if kind == 2:  # a code span
                closing = _code_end(found.group(2)).search(text, position)
                if closing is None or closing.start() == position:
                    raise Unknown("a backtick that opens no code span")
                if found.start() > 0 and text[found.start() - 1] == "\\":
                    raise Unknown("a code span after a backslash")
                code = text[position : closing.start()].strip()
                if not code or "\n" in code:
                    raise Unknown("a code span Markdown reads in another way")
                out.append(_text("".join(plain)))
                plain.clear()
                out.append(f"<code>{_code(code)}</code>")
                position = closing.end()
                if text.startswith("{", position):
                    raise Unknown("an attribute list after an element")
                continue
            if kind == 4 and not in_link:  # a link
                label, url = found.group(3), found.group(4)
                out.append(_text("".join(plain)))
                plain.clear()
                inner = self.convert(label, in_link=True)
                out.append(f'<a href="{self.link(url)}">{inner}</a>')
                if text.startswith("{", position):
                    raise Unknown("an attribute list after an element")
                continue
            if kind == 5:  # an HTML tag
                tag = found.group(5)
                if _tag_name(tag) not in _INLINE_TAGS:
                    raise Unknown("an HTML tag Markdown may read as a block")
                out.append(_text("".join(plain)))
                plain.clear()
                out.append(tag)
                continue
            if kind == 6:  # an entity, kept as written
                out.append(_text("".join(plain)))
                plain.clear()
                out.append(found.group(6))
                continue
            if kind == 7:  # a hard line break
                out.append(_text("".join(plain)))
                plain.clear()
                out.append("<br />")
                plain.append("\n")
                continue
            if kind == 8:  # underscores inside a word, which never emphasize
                plain.append(found.group(8))
                continue
            if kind == 9 and not in_link and not in_strong:  # strong, the only emphasis
                close = text.find("**", position)
                if (
                    text.count("*") != 4
                    or close <= position
                    or text[position].isspace()
                    or text[close - 1].isspace()
                ):
                    raise Unknown("emphasis Markdown may read in another way")
                out.append(_text("".join(plain)))
                plain.clear()
                inner = self.convert(text[position:close], in_strong=True)
                out.append(f"<strong>{inner}</strong>")
                position = close + 2
                continue
            if found.group(0) == "\n":
                plain.append("\n")
                continue
            raise Unknown(f"a character Markdown may read: {found.group(0)!r}")
        plain.append(text[position:])
        out.append(_text("".join(plain)))
        return "".join(out)


def _code_end(ticks: str) -> re.Pattern[str]:
    """What closes a code span that ``ticks`` opened: the same run of backticks."""
    found = _CODE_END.get(len(ticks))
    if found is None:
        found = _CODE_END[len(ticks)] = re.compile(rf"(?<!`){ticks}(?!`)", re.S)
    return found


def _code(text: str) -> str:
    """A code span's text as Markdown writes it (``util.code_escape``, then the serializer,
    which leaves the entities so made as they are)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- blocks -------------------------------------------------------------------------------

_HEADING = re.compile(r"(#{1,6}) (?![ #])(.*?[^ #\\])(?: \{#([A-Za-z][A-Za-z0-9_.:-]*)\})?")
_CLASS = re.compile(r"\{: \.([A-Za-z][A-Za-z0-9_-]*) \}")
_COMMENT = re.compile(r"<!--(?:(?!--)[^\n])*-->")  # no '--!>' or '-->' inside
#: Block HTML: an empty ``div`` with attributes (kept as written), and one whose content is
#: Markdown (one table here).
_RAW_DIV = re.compile(r'<div(?: (?!markdown=)[a-z][a-z0-9-]*="[^"<>\n]*")+></div>')
_MARKDOWN_DIV = re.compile(r'<div class="([A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*)" markdown>')
_ADMONITION = re.compile(r'!!! ([a-z]+) "([^"\n]*)"')
_BULLET = re.compile(r"- (?=\S)")
_NUMBER = re.compile(r"([1-9][0-9]{0,8})\. (?=\S)")
_SEPARATOR_CHARS = frozenset("|:- ")
_SEPARATOR = re.compile(r"\|(?:---\|)+")
#: Lines a paragraph may not start or hold (any other block form, Markdown's or an
#: extension's): this gives up on them rather than know which interrupt a paragraph.
_NOT_PARAGRAPH = re.compile(
    r"\s|[#>=+|]|\*(?!\*[^\s*])|:(?= )|-|[0-9]+[.)]|!!!|\?\?\?|```|~~~|<(?!(?:"
    + "|".join(sorted(_INLINE_TAGS))
    + r")[ >])"
    r"|\[(?:TOC|\^)|_{3}|\{"
)


def _refuse_line(line: str) -> None:
    if line != line.rstrip() and not (line.endswith("  ") and line[:-2] == line[:-2].rstrip()):
        raise Unknown("a line with trailing white space")
    if "\t" in line or "\r" in line:
        raise Unknown("a tab or a carriage return")


class _Page:
    def __init__(self) -> None:
        self.inline = _Inline()
        self.headings: list[dict[str, Any]] = []
        self.anchors: set[str] = set()

    def blocks(self, lines: list[str]) -> list[str]:
        """Each block's HTML, in order (Markdown joins them with a line end)."""
        out: list[str] = []
        index, count = 0, len(lines)
        while index < count:
            line = lines[index]
            if not line:
                index += 1
                continue
            end = index
            while end < count and lines[end]:
                end += 1
            block = lines[index:end]
            follows = _next_line(lines, end)
            if _COMMENT.fullmatch(line) or _RAW_DIV.fullmatch(line):
                if len(block) > 1:
                    raise Unknown("block HTML with text after it")
                out.append(line + "\n")  # as Markdown's HTML stash gives it back
                index = end
            elif _MARKDOWN_DIV.fullmatch(line):
                index = self.markdown_div(lines, index, out)
            elif line.startswith("#"):
                if len(block) > 1:
                    raise Unknown("a heading with text after it")
                out.append(self.heading(line))
                index = end
            elif line.startswith("!!! "):
                index = self.admonition(lines, index, out)
            elif line.startswith(">"):
                if out and out[-1].startswith("<blockquote>"):
                    raise Unknown("a blockquote Markdown joins to the one before it")
                out.append(self.blockquote(block))
                index = end
            elif line.startswith("|"):
                out.append(self.table(block))
                index = end
            elif _BULLET.match(line) or _NUMBER.match(line):
                index = self.listing(lines, index, out)
            else:
                out.append(self.paragraph(block))
                index = end
            if follows is not None and follows.startswith("    "):
                raise Unknown("an indented line after a block")
        return out

    def heading(self, line: str) -> str:
        found = _HEADING.fullmatch(line)
        if found is None:
            raise Unknown("a heading with characters around it Markdown may read")
        level, text, anchor = len(found.group(1)), found.group(2), found.group(3)
        if text[0].isspace() or text[-1].isspace():
            raise Unknown("a heading with white space Markdown strips")
        if "\\>" in text:  # its name in the table of contents would hold a bare '>'
            raise Unknown("a heading with an escaped '>'")
        inner = self.inline.convert(text)
        number = len(self.headings)
        permalink = self.inline.link(number)  # a link MkDocs rewrites and records too
        name = _strip_tags(inner)
        self.headings.append({"level": level, "id": anchor, "name": name, "children": []})
        where = anchor or f"\x01{number}\x01"  # toc's slug, once every explicit id is known
        link = f'<a class="headerlink" href="{permalink}" title="Permanent link">&para;</a>'
        return f'<h{level} id="{where}">{inner}{link}</h{level}>'

    def ids(self) -> list[str]:
        """Each heading's id: its own, or the slug Markdown's toc makes of its name, made
        unique among the page's ids in page order (toc's own functions)."""
        from html import unescape

        from markdown.extensions import toc  # type: ignore[import-untyped]

        used = {heading["id"] for heading in self.headings if heading["id"] is not None}
        counters: dict[str, int] = {}
        for heading in self.headings:
            if heading["id"] is None:
                heading["id"] = toc.unique(
                    toc.slugify(unescape(heading["name"]), "-"), used, counters
                )
            self.anchors.add(heading["id"])
        return [heading["id"] for heading in self.headings]

    def paragraph(self, block: list[str], *, tight: bool = False) -> str:
        klass = ""
        found = _CLASS.fullmatch(block[-1])
        if found is not None and len(block) > 1:
            klass = f' class="{found.group(1)}"'
            block = block[:-1]
        for line in block:
            if not line:  # a blank line inside an admonition: two paragraphs
                raise Unknown("a paragraph over a blank line")
            _refuse_line(line)
            if _NOT_PARAGRAPH.match(line):  # HTML included, but for an inline tag
                raise Unknown("a line that may start another block")
        if any(set(line) <= _SEPARATOR_CHARS for line in block[1:]):
            raise Unknown("a line the tables extension may read as a table's separator")
        text = "\n".join(block)
        if not text:
            raise Unknown("an empty paragraph")
        if text.endswith("  "):
            raise Unknown("a paragraph that ends with a line break")
        inner = self.inline.convert(text)
        return inner if tight else f"<p{klass}>{inner}</p>"

    def blockquote(self, block: list[str]) -> str:
        inner: list[str] = []
        for line in block:
            if line == ">":
                inner.append("")
            elif line.startswith("> ") and not line.startswith(">  "):
                inner.append(line[2:])
            else:
                raise Unknown("a blockquote line Markdown may read in another way")
        if not inner[0] or not inner[-1] or "\n\n\n" in "\n".join(inner):
            raise Unknown("a blockquote with empty lines Markdown keeps")
        paragraphs: list[str] = []
        start = 0
        for end in [*(i for i, line in enumerate(inner) if not line), len(inner)]:
            if end > start:
                paragraphs.append(self.paragraph(inner[start:end]))
            start = end + 1
        if not paragraphs:
            raise Unknown("an empty blockquote")
        return "<blockquote>\n" + "\n".join(paragraphs) + "\n</blockquote>"

    def table(self, block: list[str]) -> str:
        if len(block) < 3 or not _SEPARATOR.fullmatch(block[1]):
            raise Unknown("a table without a header and a plain separator")
        columns = block[1].count("|") - 1
        rows = [self.cells(line, columns) for line in (block[0], *block[2:])]
        head = "".join(f"<th>{cell}</th>\n" for cell in rows[0])
        body = "".join(
            "<tr>\n" + "".join(f"<td>{cell}</td>\n" for cell in row) + "</tr>\n" for row in rows[1:]
        )
        return f"<table>\n<thead>\n<tr>\n{head}</tr>\n</thead>\n<tbody>\n{body}</tbody>\n</table>"

    def cells(self, line: str, columns: int) -> list[str]:
        _refuse_line(line)
        if not line.startswith("|"):
            raise Unknown("a table row that does not start with a pipe")
        if not line.endswith("|") or line.endswith("\\|"):
            raise Unknown("a table row that does not end with a pipe")
        # The pipes that divide cells: every one not escaped and not in a code span.
        parts: list[str] = []
        start, position, length = 1, 1, len(line)
        while position < length:
            char = line[position]
            if char == "\\":
                position += 2
                continue
            if char == "`":  # a code span: its pipes would be read in another way
                run = re.match(r"`+", line[position:]).group(0)  # type: ignore[union-attr]
                closing = _code_end(run).search(line, position + len(run))
                if closing is None or "|" in line[position : closing.start()]:
                    raise Unknown("a code span in a table row Markdown may read otherwise")
                position = closing.end()
                continue
            if char == "|":
                parts.append(line[start:position])
                start = position + 1
            position += 1
        if start != length or len(parts) != columns:
            raise Unknown("a table row with another number of cells")
        cells = []
        for part in parts:
            text = part.strip(" ")
            if text.endswith("\\"):
                raise Unknown("a table cell Markdown may read in another way")
            cells.append(self.inline.convert(text) if text else "")
        return cells

    def listing(self, lines: list[str], index: int, out: list[str]) -> int:
        """A list of one-line items: all in one block (tight), or each item a block of its
        own (loose, each item's text a paragraph)."""
        first = lines[index]
        numbered = _NUMBER.match(first) is not None
        marker = _NUMBER if numbered else _BULLET
        if numbered and _NUMBER.match(first).group(1) != "1":  # type: ignore[union-attr]
            raise Unknown("a numbered list that does not start at 1")
        items: list[str] = []
        loose: bool | None = None
        count = len(lines)
        while index < count:
            line = lines[index]
            found = marker.match(line)
            if found is None:
                raise Unknown("a list item over more than one line")
            items.append(line[found.end() :])
            index += 1
            if index >= count:
                break
            if lines[index]:
                if loose:
                    raise Unknown("a list loose in part")
                loose = False
                continue
            after = _next_line(lines, index)
            if after is None or marker.match(after) is None:
                if after is not None and (after.startswith(" ") or _BULLET.match(after)
                                          or _NUMBER.match(after)):  # fmt: skip
                    raise Unknown("a list followed by text Markdown may join to it")
                break
            if loose is False:
                raise Unknown("a list loose in part")
            loose = True
            while not lines[index]:
                index += 1
        tag = "ol" if numbered else "ul"
        if loose:
            made = [f"<li>\n{self.paragraph([item])}\n</li>" for item in items]
        else:
            made = [f"<li>{self.paragraph([item], tight=True)}</li>" for item in items]
        out.append(f"<{tag}>\n" + "\n".join(made) + f"\n</{tag}>")
        return index

    def markdown_div(self, lines: list[str], index: int, out: list[str]) -> int:
        """A ``<div class="..." markdown>`` around one table (``md_in_html``): the opening
        tag alone, the table, the closing tag alone, blank lines between."""
        found = _MARKDOWN_DIV.fullmatch(lines[index])
        assert found is not None
        count = len(lines)
        start = index + 1
        while start < count and not lines[start]:
            start += 1
        end = start
        while end < count and lines[end]:
            end += 1
        close = end
        while close < count and not lines[close]:
            close += 1
        if (
            start == index + 1
            or close == end
            or close >= count
            or lines[close] != "</div>"
            or (close + 1 < count and lines[close + 1])
            or not lines[start].startswith("|")
        ):
            raise Unknown("block HTML around anything but one table")
        for line in lines[start:end]:  # md_in_html reads them as HTML first
            if "<" in _INLINE_TAG.sub(_inline_tag_out, line):
                raise Unknown("HTML inside block HTML, which md_in_html may read")
        table = self.table(lines[start:end])
        out.append(f'<div class="{found.group(1)}">\n{table}\n</div>')
        return close + 1

    def admonition(self, lines: list[str], index: int, out: list[str]) -> int:
        found = _ADMONITION.fullmatch(lines[index])
        if found is None:
            raise Unknown("an admonition Markdown may read in another way")
        kind, title = found.group(1), found.group(2)
        index += 1
        body: list[str] = []
        while index < len(lines) and lines[index].startswith("    "):
            body.append(lines[index][4:])
            index += 1
        if not body or (index < len(lines) and lines[index]):
            raise Unknown("an admonition without a body of one paragraph")
        after = _next_line(lines, index)
        if after is not None and after.startswith(" "):
            raise Unknown("an admonition with more than one paragraph")
        if not title.strip() or title != title.strip() or "  " in title:
            raise Unknown("an admonition title Markdown may read in another way")
        heading = self.inline.convert(title)
        paragraph = self.paragraph(body)
        out.append(
            f'<div class="admonition {kind}">\n<p class="admonition-title">{heading}</p>\n'
            f"{paragraph}\n</div>"
        )
        return index


def _tag_name(tag: str) -> str:
    """The name of a tag :data:`_INLINE_TAG` matched, in lower case."""
    return tag.lstrip("</").split(" ", 1)[0].rstrip("/>").lower()


def _inline_tag_out(found: re.Match[str]) -> str:
    """Nothing for an inline tag of :data:`_INLINE_TAGS`, the tag itself for another."""
    return "" if _tag_name(found.group(0)) in _INLINE_TAGS else found.group(0)


def _next_line(lines: list[str], index: int) -> str | None:
    """The first line that is not empty from ``index`` on."""
    while index < len(lines):
        if lines[index]:
            return lines[index]
        index += 1
    return None


def _strip_tags(html: str) -> str:
    """A heading's name in the table of contents (``toc.strip_tags``, and MkDocs' own
    for a title): its text without tags, white space collapsed; entities stay."""
    text = re.sub(r"<[^>]*>", "", html)
    return " ".join(text.split())


def _nest(headings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Headings as Markdown's ``toc`` nests them, for headings whose levels never skip
    upward (others are refused)."""
    top: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for heading in headings:
        while stack and stack[-1]["level"] >= heading["level"]:
            stack.pop()
        if stack:
            if heading["level"] != stack[-1]["level"] + 1:
                raise Unknown("a heading that skips a level")
            stack[-1]["children"].append(heading)
        else:
            if top and heading["level"] != top[0]["level"]:
                raise Unknown("headings that start at another level")
            top.append(heading)
        stack.append(heading)
    return top


_URL = re.compile("\x00([0-9]+)\x00")
_CHARACTER_REFERENCE = re.compile(r"&#(?![0-9]+;|x[0-9a-fA-F]+;)")
_ID = re.compile("\x01([0-9]+)\x01")


def convert(text: str, link: Callable[[str], str]) -> Converted:
    """A page's Markdown (without its front matter) as Markdown and MkDocs convert it, each
    link's address passed through ``link`` (MkDocs' rewriting) in page order; raises
    :class:`Unknown` for anything outside the forms this reads."""
    if re.search("[\r\t\x00\x01\x02\x03]", text):
        raise Unknown("a tab, a carriage return, a NUL or a placeholder character")
    if _CHARACTER_REFERENCE.search(text):  # the HTML parser completes or misreads it
        raise Unknown("'&#' that starts no whole character reference")
    page = _Page()
    lines = text.split("\n")
    content = "\n".join(page.blocks(lines)).strip()
    ids = page.ids()
    toc = _nest(page.headings)  # before any link is checked: it may give up too
    if "\x01" in content:
        content = _ID.sub(lambda found: ids[int(found.group(1))], content)
    urls = [
        _attribute(link(url if isinstance(url, str) else "#" + ids[url]))
        for url in page.inline.urls
    ]
    content = _URL.sub(lambda found: urls[int(found.group(1))], content)
    title = None
    first = next((line for line in lines if line), "")
    if first.startswith("# ") and page.headings and page.headings[0]["level"] == 1:
        title = page.headings[0]["name"]  # the first element is that heading
    return Converted(content, toc, title, page.anchors)
