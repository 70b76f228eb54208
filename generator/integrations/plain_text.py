"""A Markdown extension that does Python-Markdown's inline work for plain text itself, where
that work is only escapes and entities.

Python-Markdown's inline processor tries each of its inline patterns (code spans, escapes,
links, emphasis, raw HTML, entities, line breaks) on every piece of text in a page, one
regular expression search after another, and rebuilds the text around what they find. On a
site of many code pages most pieces are registry text that errorbook wrote as inert
Markdown (``emit/site/markdown.inline``): words, backslash escapes of punctuation, and
entities. Every one of Markdown's own inline patterns needs one of a few characters to
match (:data:`TRIGGERS`: a backtick, a backslash, ``[``, ``<``, ``&``, ``*``, ``_``, or a
line end). So, just before the inline processor runs, this takes each element's text:

- with none of them, it comes out of the inline processor as it went in: it is marked as
  Markdown's ``AtomicString``, which the inline processor passes over;
- with none of them once its backslash escapes (of a character Markdown escapes) and its
  entities are set aside, the only patterns that match are the escape and the entity
  patterns, and what they make of it is what this makes: each ``\\x`` whose ``x`` Markdown
  escapes (``md.ESCAPED_CHARS``) becomes Markdown's placeholder for the character, each
  entity goes to Markdown's HTML stash and its placeholder takes its place; the text so
  made is marked atomic too;
- with any other, the inline processor reads it, as before.

It does so only for a Markdown instance whose inline patterns are exactly Markdown's own,
in their order, of a version whose patterns were read for this (:data:`KNOWN_PATTERNS`, a
hash of their classes and regular expressions); any other pattern turns it off for that
instance. The HTML is the same either way (``tests/emit/test_plain_text.py`` converts the
repository's pages and generated text both ways, and checks the claim about the
characters against each pattern).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from markdown import Markdown, util  # type: ignore[import-untyped]
from markdown.extensions import Extension  # type: ignore[import-untyped]
from markdown.treeprocessors import Treeprocessor  # type: ignore[import-untyped]

from ..digest import digest

#: Characters one of which each of Markdown's own inline patterns needs in order to match;
#: and the placeholders Markdown writes into text (STX, ETX), left to it.
TRIGGERS = re.compile("[`\\\\[!<&*_\n\x02\x03]")
#: Markdown's escape and entity patterns (``ESCAPE_RE``, ``ENTITY_RE``, compiled as its inline
#: processors compile theirs).
ESCAPE = re.compile(r"\\(.)", re.DOTALL | re.UNICODE)
ENTITY = re.compile(r"(&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)", re.DOTALL | re.UNICODE)
#: The hash of Markdown's own inline patterns, in order (see :func:`patterns`), for which
#: the above was checked: those of Markdown 3.11.
KNOWN_PATTERNS = frozenset({"606c52bb5e08cd46d6b775ce75a5a76dde6a78cf34237b1c716d032435687892"})
#: Runs just before Markdown's inline processor (priority 20), after every other.
PRIORITY = 20.5


def patterns(md: Markdown) -> list[tuple[str, str, str]]:
    """Each inline pattern of ``md``, in the order it runs: its class (module and name) and
    its regular expression."""
    return [
        (type(p).__module__, type(p).__qualname__, str(getattr(p, "pattern", None)))
        for p in md.inlinePatterns
    ]


def fingerprint(found: list[tuple[str, str, str]]) -> str:
    return digest(*("\0".join(item) for item in found))


@functools.cache
def _defaults() -> tuple[tuple[str, str, str], ...] | None:
    """Markdown's own inline patterns, where they are those this was checked against."""
    own = patterns(Markdown())
    return tuple(own) if fingerprint(own) in KNOWN_PATTERNS else None


class PlainText(Treeprocessor):  # type: ignore[misc]
    """Does the inline processor's work on text where it is only escapes and entities (see
    the module's docstring)."""

    def run(self, root: Any) -> None:
        known = _defaults()
        if known is None or tuple(patterns(self.md)) != known:
            return
        search = TRIGGERS.search
        atomic = util.AtomicString
        escaped = self.md.ESCAPED_CHARS
        # What the escape and entity patterns take: a backslash and a character Markdown
        # escapes, or an entity. A backslash before any other character is left as it is
        # by the escape pattern, and what follows it stays for the other patterns to read.
        aside = _aside(tuple(escaped)).sub
        store = self.md.htmlStash.store

        def escape(found: re.Match[str]) -> str:
            char = found.group(1)
            return f"{util.STX}{ord(char)}{util.ETX}" if char in escaped else found.group(0)

        def entity(found: re.Match[str]) -> str:
            return str(store(found.group(1)))

        for element in root.iter():
            text = element.text
            if element is root or not text or type(text) is not str:
                continue  # the root's text is not the inline processor's to read
            if search(text):
                if "\n" in text or search(aside("", text)):
                    continue
                text = ENTITY.sub(entity, ESCAPE.sub(escape, text))
            element.text = atomic(text)


@functools.cache
def _aside(escaped: tuple[str, ...]) -> re.Pattern[str]:
    chars = "".join(re.escape(char) for char in escaped)
    return re.compile(rf"\\[{chars}]|&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);")


class PlainTextExtension(Extension):  # type: ignore[misc]
    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(PlainText(md), "errorbook_plain_text", PRIORITY)


def makeExtension(**kwargs: Any) -> PlainTextExtension:
    return PlainTextExtension(**kwargs)
