"""What one site build made, kept for the next build of the same configuration.

The site's languages build side by side, one MkDocs process each, so every memo is a file
of its own in the project's cache folder, named after the configuration it serves. A memo is
a mapping from a key (a hash of everything a value was made from) to a plain value (strings,
numbers, lists, mappings), under a fingerprint: the hash of what every value depends on
besides its key (library versions, settings, errorbook's own code). A file that cannot be
read, or was written under another fingerprint, is an empty memo; the worst a bad file can
cost is the work it would have saved, and every reader checks the type of what it takes.

The file is written with :mod:`marshal`, which reads and writes strings about ten times as
fast as JSON: a memo of 1,000 pages is tens of megabytes, read at the start of every build
and written again after any edit. Like ``registry.pickle``, it is the project's own cache,
trusted as its virtual environment is.
"""

from __future__ import annotations

import logging
import marshal
import os
import zlib
from pathlib import Path
from typing import Any

from ..pipeline import cachedir, output

#: Set by ``errorbook site build --verbose``: each build then says which memo is off, and why.
VERBOSE = "ERRORBOOK_SITE_VERBOSE"


def off(kind: str, why: str) -> None:
    """Say, under ``--verbose``, that a build keeps no ``kind`` memo and why: a fast path
    that turns itself off (a library's new version, a setting it does not know) costs every
    rebuild the work it saved, and nothing else would say so."""
    if os.environ.get(VERBOSE):
        logging.getLogger("mkdocs.plugins.errorbook").info(
            "errorbook: no %s memo in this build: %s", kind, why
        )


#: The layout of a memo file; a file of another format is an empty memo.
FORMAT = 3
#: A memo file larger than this is not read (about 100 times what 10,000 pages need).
LIMIT = 1 << 30


class Memo:
    """A memo file's entries, and the ones this build used: only those are kept."""

    def __init__(self, folder: Path | None, name: str, fingerprint: str) -> None:
        self._folder = folder  # the project's cache folder (None: nothing is kept)
        self._name = name
        self._fingerprint = fingerprint
        self._known: dict[str, Any] = self._read()
        self._used: dict[str, Any] = {}

    def _read(self) -> dict[str, Any]:
        found = cachedir.read(self._folder, self._name, limit=LIMIT)
        try:
            data = None if found is None else marshal.loads(zlib.decompress(found))
        except (EOFError, ValueError, TypeError, zlib.error):
            return {}
        if not isinstance(data, dict) or data.get("fingerprint") != self._fingerprint:
            return {}
        if data.get("format") != FORMAT or not isinstance(data.get("pages"), dict):
            return {}
        return {key: value for key, value in data["pages"].items() if isinstance(key, str)}

    def get(self, key: str) -> Any:
        """The value kept under ``key`` (None when there is none); a value read is kept
        for the next build."""
        value = self._known.get(key)
        if value is not None:
            self._used[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        """Keep ``value`` (strings, numbers, lists, mappings of strings) under ``key``."""
        self._used[key] = value

    def save(self) -> None:
        """Write what this build used, when that differs from what the file holds."""
        if self._used == self._known:
            return
        data = marshal.dumps(
            {"fingerprint": self._fingerprint, "format": FORMAT, "pages": self._used}
        )
        output.write_cache(self._folder, self._name, zlib.compress(data, 1))
