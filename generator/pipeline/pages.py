"""Hand-written site pages: every ``<site>/pages/*.md``, read as untrusted input.

Anyone with commit access can add a page, so a page is treated like a translator's PO file:
read through :mod:`generator.inputs` (a regular file of bounded size, never a FIFO or a
folder), decoded as UTF-8 with the position of a bad byte, and named so that its name can
be a web address and a navigation entry as it is. Every problem becomes a diagnostic at the
page's path, and all of them are reported together.

Names are refused rather than rewritten: a page's address is the file's name, and an author
who sees ``x-y/`` in a browser should find ``x-y.md`` on disk. So a name holds ASCII letters,
digits, ``-``, ``_`` and ``.`` only (``:``, ``#``, ``?``, ``%`` or a space break a link, and a
non-ASCII name differs between macOS and Linux in its normal form), and does not end in
``.``, which Windows drops. Names starting with ``.`` are editors' backups and lock files:
MkDocs leaves them out of a site, and so does errorbook.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

from .. import inputs
from ..diagnostics import Diagnostics, InvalidInput, Mark

NAME = re.compile(r"[A-Za-z0-9_-]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?\Z")
#: The files a language's built site holds at its top besides its pages: a page of one of these
#: names would be built as a folder of that name (sitemap.xml/index.html), and MkDocs stops
#: with FileExistsError when it writes its own file there (compared without case, as macOS does).
BUILT = frozenset({"sitemap.xml", "sitemap.xml.gz", "index.html", "404.html"})
_BOM = b"\xef\xbb\xbf"


def read(folder: Path, shown: Callable[[Path], str], limit: int) -> dict[str, str]:
    """Every page in ``folder`` by name (its file name without ``.md``), in name order (none
    when the project has written none). ``shown`` gives a path as diagnostics show it.

    Raises :class:`InvalidInput` with a diagnostic for each page that cannot be used."""
    found: dict[str, str] = {}
    problems = Diagnostics()
    for path in sorted(folder.glob("*.md")):
        if path.name.startswith("."):
            continue
        text = _page(path, Mark(shown(path), 1, 1), limit, problems)
        if text is not None:
            found[path.stem] = text
    if problems.has_errors:
        raise InvalidInput(problems)
    return found


def _page(path: Path, mark: Mark, limit: int, problems: Diagnostics) -> str | None:
    """One page's text, or None after adding the reason it cannot be used to ``problems``."""
    if not NAME.match(path.stem):
        problems.error(
            "E-SITE-PAGE-NAME",
            mark,
            f"the page name '{path.stem}' cannot be used as it is in the site's addresses "
            "and navigation",
            f"rename it to {suggested_name(path.stem)}.md: a page name holds only letters "
            "A-Z and a-z, digits, '-', '_' and '.', and does not end in '.'",
        )
        return None
    if path.stem.lower() in BUILT:
        problems.error(
            "E-SITE-PAGE-CLASH",
            mark,
            f"the page name '{path.stem}' is the name of a file MkDocs writes at "
            "the top of every language's site, so the build would stop",
            f"rename the page, such as to {path.stem.replace('.', '-')}-page.md",
        )
        return None
    if path.is_dir():  # checked again by inputs.read; this says it in a page's terms
        problems.error(
            "E-SITE-PAGE-FOLDER",
            mark,
            "this is a folder, but every *.md in the pages folder is read as a page",
            "rename the folder so that its name does not end in .md, or move it elsewhere",
        )
        return None
    try:
        data = inputs.read(path, limit=limit)
    except inputs.InputFileError as exc:
        problems.error("E-FILE-UNREADABLE", mark, f"the page {exc.reason}", exc.hint)
        return None
    if data is None:
        problems.error(
            "E-FILE-MISSING",
            mark,
            "cannot be read: it is a link to a file that does not exist, or it was removed "
            "while errorbook ran",
            "restore the file, or remove the link",
        )
        return None
    return decode(data, mark, problems)


def decode(data: bytes, mark: Mark, problems: Diagnostics) -> str | None:
    """``data`` as UTF-8 (a leading byte order mark dropped), or None after a diagnostic at
    the line and column of the first byte that is not UTF-8, counted as an editor does."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[start : exc.start].decode("utf-8")) + 1
        problems.error(
            "E-FILE-NOT-UTF8",
            Mark(mark.path, line, column),
            f"the page is not UTF-8: byte 0x{data[exc.start]:02X} cannot start or continue "
            "a character here",
            "save the page as UTF-8; `iconv -f latin1 -t utf-8` converts a Latin-1 file",
        )
        return None


def suggested_name(stem: str) -> str:
    """A name :data:`NAME` accepts, close to ``stem``: accents dropped, anything else that
    is not allowed replaced by '-'."""
    plain = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode("ascii")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", plain).strip("-.")
    return name if NAME.match(name) else "page"
