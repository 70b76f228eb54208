"""What earlier runs learned about each catalog, so that a run redoes only what changed.

Merging a locale's PO file, writing it and compiling its MO file is most of a run's work,
and the result depends on nothing but the template of its domain (the POT text), the PO
file as it was, the locale, the registry's count placeholders and errorbook's own code. The
cache (``catalogs.json`` in the project's cache folder, see :mod:`.cachedir`) records, per
PO file:

- ``written``: after a run, the hash of the PO and MO files it produced, under the hash of
  everything else they came from. When the next run finds that same PO file, merging it
  again would give it back unchanged (the merge is idempotent), so the file and its MO file
  are taken as they are: no merge, no write, no compile.
- ``checked``: the problems ``errorbook check`` found in that PO file and its counts, under
  the same key plus the file's own hash, so that an unchanged file is not checked again.
- ``pages``: per code page of the site, the hash of what it is made from and of the page
  (see :class:`generator.emit.site.pages.PageCache`), so a change to one code re-renders that
  code's pages only.

A change to one locale's PO file therefore re-merges and recompiles that locale only. Every
value is keyed by content hashes, never by time stamps, and a cache that cannot be read is
an empty one: the cache can make a run faster, never different.

Beside it, one file per PO file in ``verdicts/`` (:func:`verdicts_path`)
holds the seals of the formatted translations whose checks found nothing wrong in it (see
:class:`generator.catalogs.checks.Verdicts`), so that a file a translator edited in one place
is checked in that place. A file of its own, read only by the worker that checks that PO
file: at ten thousand entries a record is 160 KB, which every run would otherwise parse for
every locale in ``catalogs.json``.
"""

from __future__ import annotations

import gc
import hashlib
import json
import pickle
from dataclasses import dataclass, field
from pathlib import Path

import babel

from .. import plurals
from ..catalogs.checks import SEAL_SIZE
from ..diagnostics import Diagnostic
from ..digest import digest
from ..registry.model import Registry
from . import cachedir

CATALOGS = "catalogs.json"
REGISTRY = "registry.pickle"
VERDICTS = "verdicts"
#: The layout of the file; a cache of another format is ignored. 3: diagnostics carry an id;
#: 4: counts carry the rejected translations; 5: outputs made from the registry alone, and
#: PO and MO files hashed as the stamp hashes them (plain SHA-256).
_FORMAT = 5
_PACKAGE = Path(__file__).resolve().parent.parent  # generator/


_FINGERPRINT: list[str] = []
_TEMPLATES: list[str] = []


def fingerprint() -> str:
    """errorbook's own code and Babel's version: a change to either can change any output."""
    if not _FINGERPRINT:
        sources = sorted(p for p in _PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
        parts: list[bytes | str] = [babel.__version__]
        for path in sources:
            parts += [path.relative_to(_PACKAGE).as_posix(), path.read_bytes()]
        _FINGERPRINT.append(digest(*parts))
    return _FINGERPRINT[0]


@dataclass(frozen=True)
class Written:
    """A PO file as a run left it: its key, its hash and its MO file's hash (if any)."""

    key: str
    po: str
    mo: str | None


@dataclass(frozen=True)
class Checked:
    """What checking a PO file found: its problems and its counts."""

    key: str
    problems: tuple[Diagnostic, ...]
    counts: tuple[int, int, int, int]  # translated, fuzzy, untranslated, rejected (Counts)


@dataclass
class CatalogCache:
    """The records, by PO file path (and by page path for ``pages``)."""

    written: dict[str, Written] = field(default_factory=dict)
    checked: dict[str, Checked] = field(default_factory=dict)
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)  # key, hash of the page
    # Per producer of outputs made from the registry alone: its key, each file's hash.
    emitted: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    # The verdict records a run made anew, by PO file path, each a file's bytes
    # (:func:`verdicts_bytes`), for the caller to write beside catalogs.json; not in it.
    verdicts: dict[str, bytes] = field(default_factory=dict)
    # The cache folder this came from (see :func:`load`), where :meth:`known` reads records.
    folder: Path | None = field(default=None, compare=False)

    def known(self, path: str, salt: str) -> frozenset[bytes]:
        """The seals the record of the PO file ``path`` holds, if it was made under ``salt``
        (see :func:`verdicts_salt`) and is whole; else none, and every translation in the
        file is checked again."""
        data = cachedir.read(self.folder, verdicts_path(path))
        return _seals(data, salt) if data is not None else frozenset()

    def to_bytes(self) -> bytes:
        data = {
            "format": _FORMAT,
            "written": {p: [w.key, w.po, w.mo] for p, w in sorted(self.written.items())},
            "checked": {
                p: [c.key, [d.as_dict() for d in c.problems], list(c.counts)]
                for p, c in sorted(self.checked.items())
            },
            "pages": {p: list(k) for p, k in sorted(self.pages.items())},
            "emitted": {p: [k, files] for p, (k, files) in sorted(self.emitted.items())},
        }
        return (json.dumps(data, indent=0, sort_keys=True) + "\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> CatalogCache:
        """The cache in ``data``; an empty one if it is unreadable or from another format."""
        try:
            raw = json.loads(data)
            if raw.get("format") != _FORMAT:
                return cls()
            written = {p: Written(k, po, mo) for p, (k, po, mo) in raw["written"].items()}
            checked = {
                p: Checked(k, tuple(Diagnostic.from_dict(d) for d in problems), _four(counts))
                for p, (k, problems, counts) in raw["checked"].items()
            }
            pages = {p: (str(k), str(h)) for p, (k, h) in raw["pages"].items()}
            emitted = {
                str(p): (str(k), {str(f): str(h) for f, h in files.items()})
                for p, (k, files) in raw["emitted"].items()
            }
        except (ValueError, KeyError, TypeError, AttributeError):
            return cls()
        return cls(written, checked, pages, emitted)


def _four(counts: list[int]) -> tuple[int, int, int, int]:
    translated, fuzzy, untranslated, rejected = (int(n) for n in counts)
    return translated, fuzzy, untranslated, rejected


def templates_fingerprint() -> str:
    """The shipped templates (the site's own translations included)."""
    if not _TEMPLATES:
        from ..names import SHIPPED_TEMPLATES

        parts: list[bytes | str] = [fingerprint()]
        for path in sorted(p for p in SHIPPED_TEMPLATES.rglob("*") if p.is_file()):
            parts += [path.relative_to(SHIPPED_TEMPLATES).as_posix(), path.read_bytes()]
        _TEMPLATES.append(digest(*parts))
    return _TEMPLATES[0]


def load(folder: Path | None) -> CatalogCache:
    """The cache in the cache folder ``folder`` (empty when there is none, or when it is not
    a regular file of bounded size: a FIFO put there must not hang a run)."""
    data = cachedir.read(folder, CATALOGS)
    found = CatalogCache.from_bytes(data) if data is not None else CatalogCache()
    found.folder = folder
    return found


#: The first words of a verdict record; another layout is no record.
_VERDICTS_HEAD = b"errorbook verdicts 1"


def verdicts_path(path: str) -> str:
    """Where the verdict record of the PO file ``path`` (as the project names it) lives."""
    return f"{VERDICTS}/{digest(path)[:32]}"


def verdicts_salt(locale: str, domain: str, path: str) -> str:
    """What every seal of one PO file is made under besides the translation itself:
    errorbook's own code (its checks) and Babel's version, the locale with errorbook's
    plural rule for it, the domain, and the file. A record made under anything else is no
    record (see :meth:`CatalogCache.known`)."""
    rule = plurals.lookup(locale)
    return digest(fingerprint(), "verdicts", locale, rule.header if rule else "", domain, path)


def verdicts_bytes(salt: str, seals: frozenset[bytes]) -> bytes:
    """The record file of ``seals``: a line with the salt and the hash of the seals, then
    the seals, sorted (the same seals make the same bytes)."""
    body = b"".join(sorted(seals))
    head = b"%s %s %s\n" % (_VERDICTS_HEAD, salt.encode("ascii"), _sha256(body).encode("ascii"))
    return head + body


def _seals(data: bytes, salt: str) -> frozenset[bytes]:
    """The seals in a record file made under ``salt``; none when it is not one, or is not
    whole (its hash line guards every byte of the seals)."""
    head, newline, body = data.partition(b"\n")
    words = head.split(b" ")
    if (
        not newline
        or words[:-2] != _VERDICTS_HEAD.split(b" ")
        or words[-2:] != [salt.encode("ascii"), _sha256(body).encode("ascii")]
        or len(body) % SEAL_SIZE
    ):
        return frozenset()
    return frozenset(body[i : i + SEAL_SIZE] for i in range(0, len(body), SEAL_SIZE))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def registry_key(data: bytes, *names: str) -> str:
    """What a loaded registry is made from: its file's bytes, the names it is shown by, and
    errorbook's own code (which the rules and the model are)."""
    return digest(fingerprint(), data, *names)


def load_registry(folder: Path | None, key: str) -> Registry | None:
    """The registry the last ``generate`` loaded from the same bytes, or None.

    Reading and validating a registry of ten thousand codes takes seconds; unpickling it,
    a fraction of one, which is most of what a run after one translator's edit costs
    otherwise. Only a valid registry is ever stored (an invalid one raises before), so a
    hit has no diagnostic to repeat. The file is the project's own cache, as trusted as
    its virtual environment; anything unexpected in it is a miss."""
    data = cachedir.read(folder, REGISTRY, limit=_REGISTRY_LIMIT)
    return None if data is None else registry_from_bytes(data, key)


def registry_from_bytes(data: bytes, key: str) -> Registry | None:
    """The registry in a cache file's bytes (:func:`registry_bytes`) under ``key``, or None."""
    head, _, body = data.partition(b"\n")
    if head != key.encode("ascii"):
        return None
    # The cycle collector would walk the objects unpickled so far again and again (a
    # third of the time at ten thousand codes): a registry holds no cycles to collect.
    collecting = gc.isenabled()
    gc.disable()
    try:
        registry = pickle.loads(body)
    except Exception:  # a damaged cache is a miss, whatever unpickling it raises
        return None
    finally:
        if collecting:
            gc.enable()
    return registry if isinstance(registry, Registry) else None


def registry_bytes(registry: Registry, key: str) -> bytes:
    """The cache file of ``registry`` under ``key`` (see :func:`load_registry`)."""
    return key.encode("ascii") + b"\n" + pickle.dumps(registry, protocol=5)


#: A registry's own bound is 16 MiB of YAML (max-input-mib can raise it); its pickle is
#: about as large.
_REGISTRY_LIMIT = 1 << 30
