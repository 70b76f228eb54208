"""A Babel extractor, so ``pybabel extract`` can read a registry like any other source.

Register it in a mapping file (``[errorbook: **/codes.yaml]``) or call it by name. The option
``domain`` chooses ``messages`` (the default: UI copy) or ``docs`` (reference prose). Each
entry comes out with its code as msgctxt and the same translator comments as the POT files
errorbook writes, so both routes give translators the same catalog.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from ..diagnostics import InvalidInput
from ..registry.loader import decode, load_text
from ..registry.validate import validate
from .entries import entries


def extract_registry(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Yield ``(line, function, messages, comments)`` as Babel's extractors do."""
    name = str(getattr(fileobj, "name", "codes.yaml"))
    try:
        registry = validate(load_text(decode(fileobj.read(), name), name), name)
    except InvalidInput as exc:  # pybabel would print a traceback; say what is wrong instead
        sys.stderr.write(exc.diagnostics.render(with_id=True))
        raise SystemExit(
            f"errorbook: {name} is not a valid registry; nothing was extracted"
        ) from None
    lines = {code.name: code.mark.line for code in registry.codes}
    domain = options.get("domain", "messages")
    for entry in entries(registry, "docs" if domain == "docs" else "messages"):
        line = lines.get(entry.code or "", 1)
        if entry.plural is None:
            yield line, "pgettext", (entry.context, entry.msgid), list(entry.comments)
        else:
            yield (
                line,
                "npgettext",
                (entry.context, entry.msgid, entry.plural),
                list(entry.comments),
            )


def extract_schema(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """errorbook's own site text on the schema page (``make site-strings``): the name and
    meaning of every object of the schema, and the type and meaning of each of its keys.

    They are read from the tables the validator reads (:data:`schema.ALL`), not from the file
    Babel passes, so that the page and its translations follow the schema as it is."""
    from ..registry import schema

    named = "The name of an object of the codes.yaml schema, a heading on the schema page."
    typed = "The type of a key of the codes.yaml schema, in the schema page's table."
    meant = (
        "The meaning of {} of the codes.yaml schema, on the schema page. Text in backticks "
        "and key names in quotes are YAML, written as they are."
    )
    for item in schema.ALL:
        yield 1, None, item.name, [named]
        yield 1, None, item.doc, [meant.format(f"the object {item.name!r}")]
        for key in item.fields:
            yield 1, None, key.type, [typed]
            yield 1, None, key.doc, [meant.format(f"the key {key.name!r} of {item.name!r}")]
