"""Each page's Markdown conversion, kept from one build of a language to the next.

Python-Markdown is about half of what MkDocs spends on a site of many code pages, and a
rebuild after an edit converts every page again although only the pages that list or
describe the edited code changed. MkDocs' ``Page.render`` is a function of the page's
Markdown (after every plugin's ``on_page_markdown``), the page's place among the site's
files (relative links are resolved against them), the Markdown settings, a few of the site's
settings and the libraries' code. So this keeps what it sets on the page (the HTML, the table
of contents, the title the Markdown gave, the anchors the page has and the links it makes to
other pages' anchors, which MkDocs checks once every page is converted) under the hash of all
of those, and gives it back when they are the same.

It does so only where that holds and nothing is lost:

- every Markdown extension is one of :data:`PURE`, named by a string, and its settings can be
  written down exactly (a function among them, a custom slug maker say, gives no memo);
- MkDocs is a version whose ``Page.render`` sets what this restores (:data:`MKDOCS`);
- a conversion that logged anything (a link to a missing page, under any validation level)
  is not kept, so a rebuild logs what the first build logged.

A page it does not hold is converted by MkDocs' own ``Page.render``.

A page converted anew and a page taken from the memo give the same bytes
(``tests/emit/test_page_memos.py`` builds the repository's own site both ways).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

from ..digest import digest
from . import memo

#: Markdown extensions whose output is a function of the page's text and their settings:
#: none reads a file, the clock or anything of the build beyond the page.
PURE = frozenset(
    {
        "abbr",
        "admonition",
        "attr_list",
        "def_list",
        "fenced_code",
        "footnotes",
        "md_in_html",
        "sane_lists",
        "tables",
        "toc",
        "pymdownx.betterem",
        "pymdownx.caret",
        "pymdownx.details",
        "pymdownx.highlight",
        "pymdownx.inlinehilite",
        "pymdownx.keys",
        "pymdownx.mark",
        "pymdownx.smartsymbols",
        "pymdownx.superfences",
        "pymdownx.tabbed",
        "pymdownx.tasklist",
        "pymdownx.tilde",
    }
)
#: The MkDocs versions whose ``Page.render`` sets exactly ``content``, ``toc``, the title,
#: ``present_anchor_ids`` and ``links_to_anchors``.
MKDOCS = ("1.6.",)
#: The libraries whose code decides what a page converts to.
_LIBRARIES = ("mkdocs", "Markdown", "pymdown-extensions", "Pygments")
#: errorbook's own code that keeps and restores a conversion.
_SOURCES = (
    Path(__file__),
    Path(__file__).with_name("memo.py"),
)
#: The loggers a conversion's messages go through: MkDocs' (which does not pass its records
#: on to the root logger under the ``mkdocs`` command) and the root, for the extensions'.
_LOGGERS = ("mkdocs", "")


def fingerprint(mkdocs_config: Any) -> str | None:
    """The hash of what every page's conversion depends on besides the page and the site's
    files; None where a conversion cannot be kept (see the module's docstring)."""
    extensions = mkdocs_config.markdown_extensions
    unknown = [str(name) for name in extensions if not (isinstance(name, str) and name in PURE)]
    if unknown:
        memo.off("page", f"Markdown extensions not known to be pure: {', '.join(unknown)}")
        return None
    try:
        if not (version := metadata.version("mkdocs")).startswith(MKDOCS):
            memo.off("page", f"MkDocs {version} is not a version it knows ({', '.join(MKDOCS)}x)")
            return None
        written = json.dumps(
            [
                list(extensions),
                dict(mkdocs_config.mdx_configs or {}),
                bool(mkdocs_config.use_directory_urls),
                _settings(mkdocs_config.validation),
                [logging.getLogger(name).getEffectiveLevel() for name in _LOGGERS],
                logging.getLogger("mkdocs.structure.pages").getEffectiveLevel(),
            ],
            sort_keys=True,
        )
        versions = [metadata.version(name) for name in _LIBRARIES]
        sources = [path.read_bytes() for path in _SOURCES]
    except (TypeError, ValueError, OSError, metadata.PackageNotFoundError) as exc:
        memo.off("page", f"the site's settings cannot be written down ({exc})")
        return None
    return digest(str(memo.FORMAT), sys.version, written, *versions, *sources)


def _settings(value: Any) -> Any:
    """A configuration section as plain data (MkDocs' sections are mappings of their own)."""
    if isinstance(value, Mapping):
        return {str(key): _settings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_settings(item) for item in value]
    return value


def _site_files(files: Any) -> str:
    """The hash of every file of the site as a relative link sees it."""
    lines = sorted("\0".join((f.src_uri, f.dest_uri, f.url, str(f.inclusion))) for f in files)
    return digest(*lines)


@contextmanager
def _heard() -> Iterator[list[logging.LogRecord]]:
    """The records logged inside the block, by MkDocs or by a Markdown extension."""
    records: list[logging.LogRecord] = []

    class Listener(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    listener = Listener(logging.NOTSET)
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    for logger in loggers:
        logger.addHandler(listener)
    try:
        yield records
    finally:
        for logger in loggers:
            logger.removeHandler(listener)


def toc_tokens(items: Sequence[Any]) -> list[dict[str, Any]]:
    """A table of contents as the tokens MkDocs makes it from."""
    return [
        {"level": i.level, "id": i.id, "name": i.title, "children": toc_tokens(i.children)}
        for i in items
    ]


class RenderedPages:
    """Converts pages for one build, from the memo where it can."""

    def __init__(self, folder: Path | None, name: str, fingerprint: str) -> None:
        self._fingerprint = fingerprint
        self._memo = memo.Memo(folder, name, fingerprint)
        self._files: tuple[int, str] | None = None  # (id of the build's Files, their hash)

    def attach(self, page: Any) -> None:
        """Make ``page.render`` go through the memo (MkDocs calls it once, after the
        plugins' ``on_page_markdown``)."""
        convert: Callable[[Any, Any], None] = page.render

        def render(config: Any, files: Any) -> None:
            self.render(page, convert, config, files)

        page.render = render

    def _key(self, page: Any, files: Any) -> str:
        if self._files is None or self._files[0] != id(files):
            self._files = (id(files), _site_files(files))
        where = page.file
        # The title before the conversion (the navigation's, the front matter's, or the file
        # name's): the one after it, which the record keeps, is made from it.
        return digest(
            self._fingerprint, self._files[1], where.src_uri, where.dest_uri, where.url,
            page.markdown, str(page.title),
        )  # fmt: skip

    def render(
        self, page: Any, convert: Callable[[Any, Any], None], config: Any, files: Any
    ) -> None:
        key = self._key(page, files)
        kept = self._memo.get(key)
        if isinstance(kept, dict) and self._restore(page, kept, files):
            return
        with _heard() as records:
            convert(config, files)
        if not records:
            self._memo.put(key, self._made(page))

    @staticmethod
    def _made(page: Any) -> dict[str, Any]:
        links = page.links_to_anchors
        return {
            "content": page.content,
            "toc": toc_tokens(page.toc or ()),
            "title": page.title,  # as the page's title then reads: its nav, meta or heading
            "anchors": sorted(page.present_anchor_ids or ()),
            "links": None
            if links is None
            else {target.src_uri: dict(found) for target, found in links.items()},
        }

    @staticmethod
    def _restore(page: Any, kept: dict[str, Any], files: Any) -> bool:
        """Set on ``page`` what its conversion set; False (nothing set) when ``kept`` is not
        a whole record of one."""
        from mkdocs.structure.toc import get_toc

        try:
            content, title, links = kept["content"], kept["title"], kept["links"]
            if not isinstance(content, str) or not isinstance(title, str | None):
                return False
            toc = get_toc(kept["toc"])
            anchors = {str(anchor) for anchor in kept["anchors"]}
            targets = None
            if links is not None:
                targets = {}
                for src_uri, found in links.items():
                    target = files.get_file_from_path(src_uri)
                    if target is None or not isinstance(found, dict):
                        return False
                    targets[target] = {str(a): str(link) for a, link in found.items()}
        except (KeyError, TypeError, AttributeError):
            return False
        page.content, page.toc, page.title = content, toc, title
        page.present_anchor_ids = anchors
        if targets is not None:
            page.links_to_anchors = targets
        return True

    def save(self) -> None:
        self._memo.save()
