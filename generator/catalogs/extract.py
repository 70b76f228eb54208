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
