"""Registry and translators' text as inert Markdown.

Everything that reaches a generated page from codes.yaml or a PO file goes through these
functions: Markdown punctuation is backslash-escaped, ``&``, ``<`` and ``>`` become entities,
so ``<script>``, ``[x](javascript:...)``, ``*``, backticks and ``|`` render as the characters
they are and can neither run, link, format, nor break a table.
"""

from __future__ import annotations

import json
import re

#: What Python-Markdown (with the tables extension) accepts after a backslash.
_ESCAPABLE = set("\\`*_{}[]()>#+-.!|")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "=": "&#61;"}  # '=' could underline
#: One table for all of it (an entity wins over a backslash: '>' is in both sets).
_INLINE = str.maketrans(
    {
        **{char: "\\" + char for char in _ESCAPABLE},
        **_ENTITIES,
        **dict.fromkeys("\r\n\t", " "),
    }
)


def inline(text: str, *, start: bool = True) -> str:
    """One line of inline Markdown that renders exactly as ``text``; ``start=False`` for a
    piece that follows other text on its line (its leading space then starts nothing)."""
    text_out = text.translate(_INLINE)
    if start and text_out[:1] == " ":  # four leading spaces would start a code block
        text_out = "&#32;" + text_out[1:]
    return text_out


#: A code span in errorbook's own text: text between single backticks, on one line.
_CODE = re.compile(r"`([^`\n]+)`")


def inline_code(text: str) -> str:
    """:func:`inline` for errorbook's own text, where backticks mark code (`recovery.kind`):
    each such span is a code span, everything else is escaped as ``inline`` escapes it. A
    registry's text never comes here: its backticks are characters."""
    out: list[str] = []
    position = 0
    for match in _CODE.finditer(text):
        out.append(inline(text[position : match.start()], start=not out))
        out.append(code_span(match.group(1)))
        position = match.end()
    out.append(inline(text[position:], start=not out))
    return "".join(out)


def block(text: str) -> str:
    """A paragraph: like :func:`inline`, but line breaks inside the text are kept."""
    return "  \n".join(inline(line.lstrip()) for line in text.split("\n"))


def quote(lines: list[str]) -> str:
    """A blockquote of lines that are already inline Markdown (see :func:`inline`): a hard
    break between two lines, and an empty line starts a new paragraph inside the quote."""
    out: list[str] = []
    for index, line in enumerate(lines):
        if not line:
            out.append(">")
            continue
        follows = index + 1 < len(lines) and lines[index + 1] != ""
        out.append(f"> {line}  " if follows else f"> {line}")
    return "\n".join(out)


def code_block(text: str, language: str = "") -> str:
    """A fenced block whose fence is longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def code_span(text: str) -> str:
    """An inline code span that holds ``text`` whatever backticks it contains."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text.replace(chr(10), ' ')}{pad}{ticks}"


def json_block(value: object) -> str:
    return code_block(json.dumps(value, indent=2, ensure_ascii=False), "json")
