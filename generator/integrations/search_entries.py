"""Each page's entries in Material's search index, kept from one build of a language to the
next.

Material's search plugin parses every page's HTML (``html.parser``, in Python) to cut it into
the sections it indexes, on every build. The entries it adds for a page are a function of
the page's content as the plugin reads it, its URL, title, table of contents and front
matter, and the plugin's settings; so this keeps them under the hash of those, and adds
them again without parsing when they are the same.

It does so only for the search plugin of the Material versions in :data:`MATERIAL`, whose
index holds its entries in a list that ``add_entry_from_context`` appends to, and not when
``jieba`` is installed (its segmentation of Chinese text reads dictionaries from disk).
Everywhere else the plugin indexes every page itself, as before.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from ..digest import digest
from . import memo
from .rendered_pages import toc_tokens

#: The Material versions whose search index this knows (``SearchIndex.entries``, appended to
#: by ``add_entry_from_context(page)``).
MATERIAL = ("9.",)
_PLUGIN = ("material.plugins.search.plugin", "SearchPlugin")
_SOURCES = (
    Path(__file__),
    Path(__file__).with_name("memo.py"),
)


def index_of(plugins: Any) -> Any:
    """The search index of this build, where it is one this can keep entries for."""
    for plugin in plugins.values():
        kind = type(plugin)
        if (kind.__module__, kind.__qualname__) != _PLUGIN:
            continue
        module = sys.modules.get(kind.__module__)
        index = getattr(plugin, "search_index", None)
        if module is None or getattr(module, "jieba", None) is not None:
            memo.off("search", "jieba is installed (it segments Chinese text from its files)")
            return None
        entries = getattr(index, "entries", None)
        if not isinstance(entries, list) or not callable(
            getattr(index, "add_entry_from_context", None)
        ):
            memo.off("search", "Material's search index is not one it knows")
            return None
        return index
    return None


def fingerprint(index: Any) -> str | None:
    """The hash of what every page's entries depend on besides the page."""
    try:
        if not (version := metadata.version("mkdocs-material")).startswith(MATERIAL):
            memo.off("search", f"Material {version} is not a version it knows (9.x)")
            return None
        settings = json.dumps(dict(index.config), sort_keys=True)
        sources = [path.read_bytes() for path in _SOURCES]
        version = metadata.version("mkdocs-material")
    except (TypeError, ValueError, OSError, AttributeError, metadata.PackageNotFoundError) as exc:
        memo.off("search", f"the search plugin's settings cannot be written down ({exc})")
        return None
    return digest(str(memo.FORMAT), sys.version, version, settings, *sources)


class SearchEntries:
    """Adds each page's entries to one build's search index, from the memo where it can.

    ``normal`` gives the page's content as its key should see it (the errorbook plugin puts
    a placeholder with a token of its own where a code's examples are held, which the search
    plugin skips as the comment it is)."""

    def __init__(
        self,
        folder: Path | None,
        name: str,
        fingerprint: str,
        index: Any,
        normal: Callable[[str], str] = lambda content: content,
    ) -> None:
        self._fingerprint = fingerprint
        self._memo = memo.Memo(folder, name, fingerprint)
        self._index = index
        self._add: Callable[[Any], None] = index.add_entry_from_context
        self._normal = normal
        index.add_entry_from_context = self.add

    def _key(self, page: Any) -> str | None:
        try:
            return digest(
                self._fingerprint,
                str(page.url),
                json.dumps([page.title, page.meta, toc_tokens(page.toc or ())], sort_keys=True),
                self._normal(page.content),
            )
        except (TypeError, ValueError, AttributeError):
            return None  # front matter that cannot be written down: not kept

    def add(self, page: Any) -> None:
        key = self._key(page)
        entries = self._index.entries
        kept = None if key is None else self._memo.get(key)
        if isinstance(kept, list):
            try:  # each entry as its fields in order: the index is written in that order
                restored = [dict(fields) for fields in kept]
            except (TypeError, ValueError):
                restored = None
            if restored is not None and all(isinstance(k, str) for e in restored for k in e):
                entries.extend(restored)
                return
        before = len(entries)
        self._add(page)
        if key is not None:
            self._memo.put(key, [list(map(list, entry.items())) for entry in entries[before:]])

    def save(self) -> None:
        self._memo.save()
