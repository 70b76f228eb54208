"""A code's example as each wire carries it: what the generated package returned, as tabs.

The values come from :mod:`generator.pipeline.runtime`, which calls the package's own
functions; this module only lays them out as Markdown (Python-Markdown's ``pymdownx.tabbed``,
which the errorbook MkDocs plugin turns on), so that the site never writes an envelope, an
HTTP answer or a JSON-RPC message of its own.
"""

from __future__ import annotations

import contextlib
import http
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from ...registry.model import Code
from . import markdown


def plain(text: str) -> str:
    """Marks errorbook's own site text for `make site-strings` (babel.cfg): the label is
    translated when the page is made, through templates/site/i18n."""
    return text


#: The comments around a code's example tabs. The errorbook MkDocs plugin keeps what lies
#: between them out of the search index: the examples repeat the code's name, number and
#: message, which the page already states, and their highlighted markup (a ``<span>`` per
#: token) is most of what the search plugin would otherwise parse on every code page.
EXAMPLES_START = "<!-- errorbook:examples -->"
EXAMPLES_END = "<!-- /errorbook:examples -->"


#: Every wire a tab can show, in the order of the tabs, with its label.
WIRES = {
    "python": "Python",
    "http": "HTTP",
    "problem": plain("Problem details"),
    "jsonrpc": plain("JSON-RPC (MCP)"),
    "tool": plain("Tool result"),
    "grpc": plain("gRPC status"),
}


@dataclass(frozen=True)
class Example:
    """What one function of the generated package returned for a code's example values.

    ``call`` is the call as a reader would write it (``to_http(envelope)``); ``value`` its
    result: a JSON value, or for ``http`` the status, headers and body ``to_http`` gives."""

    wire: str
    call: str
    value: object


class Examples(Protocol):
    """Where the examples come from (the generated package, see pipeline.runtime)."""

    def fingerprint(self, locale: str) -> str:
        """What every example in ``locale`` depends on, for the site's page cache."""

    def examples(self, code: Code, locale: str) -> Sequence[Example]:
        """The code's examples in ``locale``, in the order of :data:`WIRES`."""


def tabs(
    examples: Sequence[Example], label: Callable[[str], str], returns: Callable[[str], str]
) -> str:
    """The examples as content tabs; ``label`` translates a tab's label, ``returns`` makes
    the sentence that introduces a value ("``to_http(envelope)`` returns:")."""
    out: list[str] = [EXAMPLES_START, ""]
    for example in examples:
        title = label(WIRES[example.wire]).replace('"', "'")
        out.append(f'=== "{title}"')
        out.append("")
        body = [returns(markdown.code_span(example.call)), "", shown(example)]
        out.extend(_indented("\n".join(body)))
        out.append("")
    out.append(EXAMPLES_END)
    return "\n".join(out) + "\n"


def shown(example: Example) -> str:
    """One example's value as a fenced block."""
    if example.wire == "python":
        return markdown.code_block(python_literal(example.value), "python")
    if example.wire in ("http", "problem"):
        status, headers, body = cast("tuple[int, dict[str, str], bytes]", example.value)
        return markdown.code_block(http_text(status, headers, body), "http")
    return markdown.json_block(example.value)


def python_literal(value: object, depth: int = 0) -> str:
    """A value as Python writes it, one item per line like ``json.dumps(indent=2)``: unlike
    pprint, which splits a long string into pieces, every string stays whole."""
    pad = "    " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{k!r}: {python_literal(v, depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + "\n" + "    " * depth + "}"
    if isinstance(value, (list, tuple)) and value:
        items = [f"{pad}{python_literal(v, depth + 1)}," for v in value]
        close = "]" if isinstance(value, list) else ")"
        return (
            ("[" if isinstance(value, list) else "(")
            + "\n"
            + "\n".join(items)
            + "\n"
            + "    " * depth
            + close
        )
    return repr(value)


def http_text(status: int, headers: dict[str, str], body: bytes) -> str:
    """An HTTP/1.1 response as text: the status line with its reason phrase, the headers as
    returned, and a JSON body indented for reading (another body as it is)."""
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:  # a status outside the standard list
        phrase = ""
    text = body.decode("utf-8", "replace")
    with contextlib.suppress(ValueError):  # not JSON: shown as it is
        text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    lines = [f"HTTP/1.1 {status} {phrase}".rstrip()]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return "\n".join([*lines, "", text])


def _indented(text: str) -> list[str]:
    return [f"    {line}" if line else "" for line in text.split("\n")]
