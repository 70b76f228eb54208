"""The theme's templates as Jinja compiled them, kept from one site build to the next.

Every MkDocs build compiles each template it uses into Python code again (Material's are
about thirty), in every language's build: on a rebuild through the memos, that is about a
tenth of the work. Jinja's bytecode cache is made for this; this one keeps the code in one
file of the project's cache folder, shared by the languages (they use the same templates)
and written as every cache file is, whole and atomically (``pipeline.output.write_cache``).

Jinja judges each entry itself: its header names Jinja's format and Python's version, and
its checksum the template's source, so a template edited or a Python upgraded is compiled
again. Like Python's own ``__pycache__``, the file holds code that runs: it is the project's
own cache, trusted as its virtual environment is; one that cannot be read is an empty one.
"""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache

from ..pipeline import cachedir, output

NAME = "site-templates.bin"
#: A file larger than this is not read (about a hundred times what Material's templates take).
LIMIT = 64 << 20


class TemplateCode(BytecodeCache):
    """The compiled templates of a project's site builds."""

    def __init__(self, folder: Path | None) -> None:
        self._folder = folder  # the project's cache folder (None: nothing is kept)
        self._known = self._read()
        self._made: dict[str, bytes] = {}

    def _read(self) -> dict[str, bytes]:
        found = cachedir.read(self._folder, NAME, limit=LIMIT)
        try:
            data = None if found is None else marshal.loads(found)
        except (EOFError, ValueError, TypeError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, bytes)}

    def load_bytecode(self, bucket: Any) -> None:
        found = self._known.get(bucket.key)
        if found is None:
            return
        try:  # Jinja resets the bucket itself on another format, Python or source
            bucket.bytecode_from_string(found)
        except Exception:  # a damaged entry: the template is compiled, as without a cache
            bucket.reset()

    def dump_bytecode(self, bucket: Any) -> None:
        self._made[bucket.key] = bucket.bytecode_to_string()

    def save(self) -> None:
        """Write the templates this build compiled, beside those the file holds (another
        language's build may have added some since this one read it)."""
        if not self._made:
            return
        merged = {**self._read(), **self._made}
        output.write_cache(self._folder, NAME, marshal.dumps(dict(sorted(merged.items()))))
        self._known, self._made = merged, {}
