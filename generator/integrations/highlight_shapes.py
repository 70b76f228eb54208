"""Pygments' HTML of a code block, made once per shape of block.

The example tabs of a site's code pages are a few kinds of block (a Python value, an HTTP
response, a JSON document) that differ from one code to the next mostly in their strings
and numbers: a thousand codes' tabs come in a few hundred shapes. Lexing and formatting
each block was most of what making the tabs cost. Here a block's values are taken out,
each replaced by a placeholder; the block so reduced, its shape, is highlighted once; and
every block of that shape is that HTML with each value put back, escaped as the formatter
escapes text.

That gives Pygments' own bytes because of how its lexers read a value, and only where
that holds:

- The block is one its lexer reads in full: a Python literal (``ast.literal_eval``) with
  no comment, no triple quotes and no string continued on the next line (a string with a
  prefix stays in the shape); a JSON document; or an HTTP response
  whose header lines are all plain (no continued header) and whose body is a JSON
  document that Pygments' HTTP lexer hands to its JSON lexer (by the Content-Type). The
  values are then found exactly: a string from quote to quote, an integer as a whole
  token.
- A value taken out becomes a token of the type its placeholder gets, whatever its text:
  a non-empty string that holds none of what the lexer reads apart inside a string
  (:data:`_APART`: for Python a backslash, a line end, and ``%`` and ``{`` of string
  formatting; JSON's lexer makes any string one token) takes a private-use character's
  place between its quotes; a whole integer takes the place of a number of its own
  (:data:`_NUMBERS`); in an HTTP response, a header's value (but the Content-Type's) and
  the status line's reason phrase take a private-use character's place. A JSON key stays
  a key: what follows it is in the shape.
- The block holds no character of the placeholders' range, and the shape's HTML holds
  each placeholder exactly once, in order. Where the formatter's escaping of quotes is
  not known (:func:`_escaping`), no string holding one is taken out. Any other value stays
  in the shape as it is, and a block that is none of these is highlighted whole.

``tests/emit/test_highlight_shapes.py`` compares both ways on generated values.
"""

from __future__ import annotations

import ast
import functools
import html
import json
import re
from collections.abc import Callable

#: Highlights ``code`` in ``language``: Pygments' HTML, or None where it cannot.
Highlight = Callable[[str, str], "str | None"]

#: A text's placeholder: one character of Unicode's private use area, by its place.
_FIRST = 0xE000
_LAST = 0xF8FF
#: An integer's placeholder: this number plus its place (an integer of as many digits).
_NUMBERS = 8_675_309_000_000
_PLACEHOLDER = re.compile("[\ue000-\uf8ff]|(?<![0-9])8675309[0-9]{6}(?![0-9])")
_PRIVATE = re.compile("[\ue000-\uf8ff]")
#: Joins the values to escape them at once: no block taken apart holds it (see _PRIVATE).
_SEPARATOR = "\uf8ff"
#: What a lexer may read apart from the rest of a string, by language: Python's lexer reads
#: escapes, and ``%`` and ``{`` of string formatting, as tokens of their own; JSON's reads a
#: whole string as one token, escapes included.
_APART = {"python": re.compile(r"[\\%{\n\r]"), "json": re.compile(r"\n")}
#: Quotes, which a formatter may escape (Pygments before 2.21 did), where it is not known how.
_QUOTES = re.compile("['\"]")
#: A string literal, escapes included, so that the scan stays in step; or an integer that is
#: a token of its own (no sign: a sign is a token of its own in Python, and part of the
#: number in JSON, in both cases the same for any digits).
_VALUES = {
    "python": re.compile(
        r"""(?P<s>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(?<![\w.])(?P<n>[0-9]+)(?![\w.])"""
    ),
    "json": re.compile(r'(?P<s>"(?:[^"\\]|\\.)*")|(?<![\w.])(?P<n>[0-9]+)(?![\w.])'),
}
#: A backslash at the end of a line, which continues a Python string on the next.
_CONTINUED = re.compile(r"\\[\r\n]")
#: An HTTP response's status line, and a header line, as Pygments' HTTP lexer reads them:
#: the reason phrase, and a header's value, are each one token.
_STATUS = re.compile(r"(HTTP/(?:1\.[01]|2(?:\.0)?|3) +[0-9]{3})(?:( +)([^\r\n]*))?")
_HEADER = re.compile(r"([^\s:]+ *: *)([^\r\n]*)")
_UNSEEN = object()


class Shapes:
    """Highlights blocks through ``highlight``, once per shape (see the module's docstring);
    one for a whole build."""

    def __init__(self, highlight: Highlight) -> None:
        self._highlight = highlight
        self._shapes: dict[tuple[str, str], list[str] | None] = {}
        self._escape: Callable[[str], str] | None = None
        self._quotes = False  # whether a string may hold quotes (their escaping is known)

    def __call__(self, code: str, language: str) -> str | None:
        if self._escape is None:
            self._escape, self._quotes = _escaping(self._highlight)
        taken = reduce(code, language, self._quotes)
        if taken is None:
            return self._highlight(code, language)
        shape, values = taken
        parts = self._shapes.get((language, shape), _UNSEEN)
        if parts is _UNSEEN:
            made = self._highlight(shape, language)
            parts = _split(made, len(values)) if made is not None else None
            self._shapes[(language, shape)] = parts
        if parts is None:
            return self._highlight(code, language)
        assert isinstance(parts, list)
        out = [""] * (2 * len(values) + 1)
        out[0::2] = parts  # the shape's HTML around its placeholders
        if values:  # and each value in its placeholder's place, escaped
            out[1::2] = self._escape(_SEPARATOR.join(values)).split(_SEPARATOR)
        return "".join(out)


def _escaping(highlight: Highlight) -> tuple[Callable[[str], str], bool]:
    """How the formatter escapes a token's text, and whether that is known for quotes:
    Pygments escapes ``&``, ``<`` and ``>``, and before 2.21 ``"`` and ``'`` too. Found by
    highlighting one JSON string that holds both."""
    made = highlight('"\'\\""', "json") or ""  # the JSON string "'\""
    if "&quot;&#39;\\&quot;&quot;" in made:
        return _escape_quotes, True
    if '"\'\\""' in made:
        return _escape_text, True
    return _escape_text, False


def _escape_text(text: str) -> str:
    return html.escape(text, quote=False)


def _escape_quotes(text: str) -> str:
    return html.escape(text, quote=False).replace('"', "&quot;").replace("'", "&#39;")


def reduce(code: str, language: str, quotes: bool = True) -> tuple[str, list[str]] | None:
    """``code`` with its values replaced by placeholders, and those values in order; None
    where it is not a block this reads (see the module's docstring). ``quotes``: a string
    holding a quote may be taken out."""
    if _PRIVATE.search(code):
        return None
    values: list[str] = []  # each value's place in it is its placeholder's
    head, body = "", code
    if language == "http":
        head, blank, body = code.partition("\n\n")
        reduced = _http_head(head, values, quotes) if blank else None
        if reduced is None:
            return None
        head = reduced + blank
        language = "json"
    python = language == "python"
    if language == "json":
        try:
            json.loads(body)
        except Exception:  # not JSON, or more deeply nested than the parser goes
            return None
    elif python:
        if "'''" in body or '"""' in body:
            return None  # read by the lexer as strings of their own kind
        if _CONTINUED.search(body):
            return None  # a string continued on the next line: not one line's string
        try:
            ast.literal_eval(body)
        except Exception:  # not a literal (or one too large or deep to evaluate)
            return None
    else:
        return None
    apart = _APART[language].search
    plain = _QUOTES.search if not quotes else None
    comments = python and "#" in body
    pieces: list[str] = [head]
    add = pieces.append
    end = 0
    for found in _VALUES[language].finditer(body):
        start, stop = found.span()
        if comments and "#" in body[end:start]:
            return None  # a comment: the lexer reads it as such
        add(body[end:start])
        end = stop
        quote = body[start]
        if quote not in "\"'":
            add(str(_NUMBERS + len(values)))
            values.append(body[start:stop])
        elif (
            stop - start > 2
            and not apart(body, start + 1, stop - 1)
            and (plain is None or not plain(body, start + 1, stop - 1))
            and not (python and start and body[start - 1].isalnum())  # b"", r"": prefixes
        ):
            add(quote + chr(_FIRST + len(values)) + quote)
            values.append(body[start + 1 : stop - 1])
        else:
            add(body[start:stop])
    if comments and "#" in body[end:]:
        return None
    if len(values) > _LAST - _FIRST + 1:
        return None  # more than there are placeholders
    add(body[end:])
    return "".join(pieces), values


def _http_head(head: str, values: list[str], quotes: bool) -> str | None:
    """An HTTP response's status line and headers with the reason phrase and each header's
    value but the Content-Type's taken out (added to ``values``); None unless Pygments' HTTP
    lexer reads them as such and hands the body to its JSON lexer (by the last
    Content-Type's media type, else by the type after its "+": application/problem+json is
    read as application/json)."""

    def placeholder(value: str) -> str:
        values.append(value)
        return chr(_FIRST + len(values) - 1)

    lines = head.split("\n")
    status = _STATUS.fullmatch(lines[0])
    if status is None:
        return None
    reduced = [status.group(1)]
    if status.group(3) and (quotes or not _QUOTES.search(status.group(3))):
        reduced[0] += status.group(2) + placeholder(status.group(3))
    elif status.group(2) is not None:
        reduced[0] += status.group(2) + status.group(3)
    media = None
    for line in lines[1:]:
        header = _HEADER.fullmatch(line)
        if header is None:
            return None  # a continued header, or a line the lexer reads otherwise
        name, value = header.group(1), header.group(2)
        if name.split(":", 1)[0].strip().lower() == "content-type":
            media = value.strip().split(";", 1)[0].strip()
            reduced.append(line)
        elif not value or (not quotes and _QUOTES.search(value)):
            reduced.append(line)
        else:
            reduced.append(name + placeholder(value))
    if media is None or not _json_lexed(media):
        return None
    return "\n".join(reduced)


@functools.cache
def _json_lexed(media: str) -> bool:
    from pygments.lexers import get_lexer_for_mimetype  # type: ignore[import-untyped]
    from pygments.lexers.data import JsonLexer  # type: ignore[import-untyped]
    from pygments.util import ClassNotFound  # type: ignore[import-untyped]

    tried = [media]
    if "+" in media:
        tried.append(re.sub(r"^(.*)/.*\+(.*)$", r"\1/\2", media))
    for name in tried:
        try:
            return type(get_lexer_for_mimetype(name)) is JsonLexer
        except ClassNotFound:
            continue
    return False


def _split(made: str, count: int) -> list[str] | None:
    """The shape's HTML cut at its ``count`` placeholders, or None where they are not each
    there once, in order."""
    found = []
    for match in _PLACEHOLDER.finditer(made):
        text = match.group()
        found.append(ord(text) - _FIRST if len(text) == 1 else int(text) - _NUMBERS)
    if found != list(range(count)):
        return None
    return _PLACEHOLDER.split(made)
