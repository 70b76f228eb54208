"""Knowing, without parsing anything, that a ``generate`` would change nothing.

After every full run the stamp (``stamp.json`` in the project's cache folder, see
:mod:`.cachedir`) records each
input (the registry, pyproject.toml, every PO file, every template, the hand-written site
pages, errorbook's own code) and each output by size, modification time, change time and
SHA-256, and the folders whose listing is an input (a new PO file or template must cost a
full run). A later run that finds every input and output with the same content skips
loading, rendering and writing. A file whose size, mtime and ctime are unchanged is not read
again; one whose stat changed (after a checkout, say) is hashed, so touching a file does not
cost a full run. The ctime is what git's index keeps it for: an edit that keeps the size and
gives the mtime back (``cp -p``, ``rsync -t``, ``touch -r``) still sets it, and no user can
set it back, so such an edit is hashed and found, and ``generate`` agrees with ``check``.

The stamp also keeps what ``errorbook check`` would report on the tree the run left (the
catalogs' problems in the PO files as written), and what besides errorbook's own code shaped
the outputs (Python, and each library's first file by place and stat). :func:`proven` gives
``check`` that report when the tree is provably still that tree: the same configuration,
libraries and list of inputs, no output reached through a link, and every input and output
holding, byte for byte, what the run used. Unlike a no-op ``generate``, it trusts no size or
mtime: it hashes every file again, since a file can be edited and given its mtime back.

The stamp vouches for files by their hashes, so one that a commit planted, naming the hashes
of files someone changed, must count for nothing: it lives outside the work tree, in a
folder only its user can write (:mod:`.cachedir`).

This module imports only the standard library's lightest modules: a plain ``errorbook
generate`` calls :func:`fresh_from` before it imports argparse or
reads pyproject.toml, so a no-op run costs little more than starting Python.
"""

from __future__ import annotations

import json
import os
import stat
import time

from .. import __version__
from . import cachedir

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op run)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any, TypeGuard

    from ..config import Config
    from ..diagnostics import Diagnostics
    from .output import Output

STAMP = "stamp.json"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # generator/

Entry = list[object]  # [size, mtime_ns or -1, sha256, ctime_ns]
Scan = list[str]  # [kind, folder]: a folder whose listing is an input

#: A file modified this recently may change again within the same timestamp tick without
#: its size changing; like git's "racy" entries, its stat is not trusted next time. File
#: systems that keep whole seconds (or two, as FAT does) get the long window; those with
#: finer time stamps tick at most every few milliseconds (the kernel's coarse clock).
RACY_SECONDS = 2.0
RACY_SECONDS_FINE = 0.1

#: How many files and folders a scanned folder may hold before the stamp gives up on it.
TREE_LIMIT = 20_000


def scans(config: Config) -> list[Scan]:
    """The folders whose files are inputs, and which of their files count."""
    from ..names import SHIPPED_TEMPLATES

    found = [["po", str(config.locales_dir)]]
    for folder in (config.templates, SHIPPED_TEMPLATES):
        if folder is not None:
            found.append(["tree", str(folder)])
    if config.site_dir is not None:
        found.append(["md", str(config.site_dir / "pages")])
    found.append(["py", _PACKAGE])
    return found


def _listdir(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _files(kind: str, folder: str) -> list[str]:
    """The input files in one scanned folder, as absolute paths, sorted."""
    join, isfile = os.path.join, os.path.isfile
    if kind == "po":  # <locales>/<locale>/LC_MESSAGES/<domain>.po
        return [
            join(folder, locale, "LC_MESSAGES", name)
            for locale in _listdir(folder)
            if not locale.startswith(".")
            for name in _listdir(join(folder, locale, "LC_MESSAGES"))
            if name.endswith(".po") and isfile(join(folder, locale, "LC_MESSAGES", name))
        ]
    if kind == "md":
        return [join(folder, n) for n in _listdir(folder) if n.endswith(".md")]
    # Through linked folders, as Jinja's loader reads templates; each real folder once, so
    # that a link to a folder above ends the walk instead of looping. A link to / (which a
    # commit can add) would have every run list the whole file system: past TREE_LIMIT
    # files the walk stops, and the folder itself stands for its files; a folder is no
    # file, so its entry is never valid and the stamp proves nothing (see _recorded).
    found: list[str] = []
    seen: set[str] = set()
    for top, dirs, names in os.walk(folder, followlinks=True):
        real = os.path.realpath(top)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [join(top, n) for n in names if kind == "tree" or n.endswith(".py")]
        if len(found) + len(seen) > TREE_LIMIT:
            return [folder]
    return sorted(found)


def _inputs(fixed: list[str], scanned: list[Scan]) -> list[str]:
    found = list(fixed)
    for kind, folder in scanned:
        found += _files(kind, folder)
    return found


def _entry(path: str, known: Entry | None) -> Entry | None:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None  # a FIFO or a device is never read here (it could block or not end)
        if known is not None and _same_stat(info, known):
            return known  # same size, mtime and ctime: the recorded hash stands
        import hashlib

        with open(path, "rb") as stream:
            digest = hashlib.sha256(stream.read()).hexdigest()
    except OSError:
        return None
    return [info.st_size, _mtime(info), digest, info.st_ctime_ns]


def _same_stat(info: os.stat_result, entry: Entry) -> bool:
    """Whether a file's stat is the one an entry recorded, with an mtime it trusted (one
    that was not racy): then the entry's hash is the file's."""
    recorded = [info.st_size, info.st_mtime_ns, info.st_ctime_ns]
    return entry[1] != -1 and recorded == [entry[0], entry[1], entry[3]]


def _mtime(info: os.stat_result) -> int:
    """The mtime to record, or -1 when it is too recent to be trusted (see RACY_SECONDS)."""
    coarse = info.st_mtime_ns % 1_000_000_000 == 0
    racy = time.time() - info.st_mtime_ns / 1e9 < (RACY_SECONDS if coarse else RACY_SECONDS_FINE)
    return -1 if racy else info.st_mtime_ns


def _entry_of(path: str, used: Output, known: str | None = None) -> Entry:
    """The entry of a file whose content the run used (read, or wrote): its stat and hash
    when the disk still holds exactly ``used``. When it does not (an editor saved it during
    the run), the entry keeps the hash of ``used`` with a stat no file matches, so the next
    run hashes the file, finds that it differs, and does the work. ``known`` is the hash of
    ``used`` when the run has it already.

    A file a worker read or staged (an ``output.Stored``) holds ``used`` when its inode,
    size and mtime are still those the worker saw."""
    import hashlib

    if not isinstance(used, bytes):  # an output.Stored (not imported: see the module's notes)
        try:
            info = os.stat(path)
            now = (info.st_ino, info.st_size, info.st_mtime_ns)
            if stat.S_ISREG(info.st_mode) and used.seen is not None and now == used.seen:
                return [info.st_size, _mtime(info), used.sha256, info.st_ctime_ns]
        except OSError:
            pass
        return [-1, -1, used.sha256, -1]
    digest = known or hashlib.sha256(used).hexdigest()
    try:
        info = os.stat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size == len(used):
            with open(path, "rb") as stream:
                if stream.read() == used:
                    return [info.st_size, _mtime(info), digest, info.st_ctime_ns]
    except OSError:
        pass
    return [-1, -1, digest, -1]


def _pyproject(root: str) -> str | None:
    path = os.path.join(root, "pyproject.toml")
    return path if os.path.isfile(path) else None


def entries(config: Config, names: Iterable[str]) -> dict[str, Entry]:
    """The last run's stamp entries of the files among ``names`` (relative to the project
    root): for a worker to compare with the size and mtime it sees when it reads one (see
    ``pipeline.catalogs``). A worker has no ctime to compare, so it is compared here: a file
    whose ctime changed gets its entry with the mtime untrusted (-1), and is hashed. Empty
    when the stamp is missing, damaged, or another errorbook's."""
    root = str(config.root)
    try:
        data = json.loads(_stamp_bytes(root, _base(config)))
        if data["errorbook"] != __version__ or data["root"] != root:
            return {}
        recorded: dict[str, Entry] = dict(data["inputs"])
        recorded.update({os.path.join(root, name): e for name, e in data["outputs"].items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    found: dict[str, Entry] = {}
    for name in names:
        path = os.path.join(root, name)
        entry = recorded.get(path)
        if _valid(entry) and len(str(entry[2])) == 64:
            mtime = entry[1] if _ctime(path) == entry[3] else -1
            found[name] = [entry[0], mtime, str(entry[2]), entry[3]]
    return found


def _ctime(path: str) -> int | None:
    try:
        return os.stat(path).st_ctime_ns
    except OSError:
        return None


def settled(config: Config, names: Iterable[str]) -> dict[str, Entry]:
    """The files among ``names`` (relative to the project root) that are as the last run
    left them, with their entries in its stamp: same size, mtime and ctime, an mtime the stamp
    trusted (not racy). This is the trust the no-op answer rests on, extended to a run that
    has work to do: a file it finds settled need not be hashed, nor read to be compared.

    Call it after reading the files: a file saved after that has a new mtime, so it is not
    settled, and one saved before was read as it is now."""
    root = str(config.root)
    found: dict[str, Entry] = {}
    for name, entry in entries(config, names).items():
        try:
            info = os.stat(os.path.join(root, name))
            if stat.S_ISREG(info.st_mode) and _same_stat(info, entry):
                found[name] = entry
        except OSError:
            continue
    return found


def record(
    config: Config,
    outputs: Mapping[str, Output],
    plain: bool,
    used: Mapping[str, Output] | None = None,
    known: Mapping[str, str] | None = None,
    steady: Mapping[str, Entry] | None = None,
    findings: Mapping[str, object] | None = None,
) -> bytes:
    """The stamp after a full run: every input and output as the run used it.

    ``outputs`` holds each output's path and the bytes the run wrote (or found in place);
    ``used`` the bytes of the inputs the run read, by absolute path (the registry, the PO
    files). A file that differs on disk from these by now changed during the run; its entry
    makes the next run do the work (see :func:`_entry_of`). Other inputs (pyproject.toml,
    templates, hand-written pages) are recorded as they are on disk.

    ``plain`` says the run used no flags that change the configuration (``--registry``,
    ``--config``, ``--python-out``); only such a stamp lets :func:`fresh_from` answer
    without reading pyproject.toml.

    ``known`` gives the SHA-256 of some of those bytes (by name relative to the root), and
    ``steady`` the files :func:`settled` found as the last run left them: a file in both,
    with the same hash, keeps its entry without being hashed or read again. (Had it changed
    since, its mtime no longer matches that entry, and the next run does the work.)

    ``findings`` is what ``errorbook check`` reports on the tree the run leaves (see
    :func:`proven`), or None when the run cannot tell.
    """
    realpath = _RealPaths()
    read = {realpath(path): data for path, data in (used or {}).items()}
    root = str(config.root)
    kept: dict[str, Entry] = {
        realpath(os.path.join(root, name)): entry
        for name, entry in (steady or {}).items()
        if (known or {}).get(name) == entry[2]
    }
    hashes = {realpath(os.path.join(root, n)): h for n, h in (known or {}).items()}
    fixed = _fixed(config)
    scanned = scans(config)
    data: dict[str, object] = {
        "errorbook": __version__,
        "libraries": libraries(),
        "check": findings,
        "config": repr(config),
        "plain": plain,
        "root": root,
        "fixed": fixed,
        "scans": scanned,
        "inputs": {
            path: kept.get(realpath(path)) or _input_entry(path, read, hashes, realpath)
            for path in _inputs(fixed, scanned)
        },
        "outputs": {
            name: kept.get(realpath(os.path.join(root, name)))
            or _entry_of(os.path.join(root, name), data, (known or {}).get(name))
            for name, data in outputs.items()
        },
    }
    return _dump(data)


def _fixed(config: Config) -> list[str]:
    """The inputs named by the configuration: the registry and pyproject.toml."""
    pyproject = _pyproject(str(config.root))
    return [str(config.registry), *([pyproject] if pyproject is not None else [])]


#: The libraries whose code shapes the outputs, by import name.
LIBRARIES = ("babel", "jinja2", "markupsafe", "yaml")


def libraries() -> dict[str, object]:
    """Python's version, and where each library the outputs depend on lives, with the size
    and mtime of the file it starts from: a sign of an upgrade that a no-op can afford (no
    library is imported, nor its metadata read; installing a version writes new files).
    A library that moved, changed or went away makes the next run do the work, and keeps
    ``check`` from answering from the stamp. (Not the versions the installed packages'
    metadata name: reading those cost more than any other step of a run after one
    translator's edit.)"""
    import sys
    from importlib.util import find_spec

    found: dict[str, object] = {"python": sys.version}
    for name in LIBRARIES:
        try:
            spec = find_spec(name)
            origin = spec.origin if spec is not None else None
            info = os.stat(origin) if origin else None
        except (ImportError, ValueError, OSError):
            info = origin = None
        found[name] = [origin, info.st_size, info.st_mtime_ns] if info is not None else None
    return found


def _input_entry(
    path: str,
    read: Mapping[str, Output],
    hashes: Mapping[str, str],
    realpath: Callable[[str], str] = os.path.realpath,
) -> Entry | None:
    """An input's entry: from the bytes the run read when it read them, else from disk.
    ``hashes`` has some of those bytes' hashes (by real path)."""
    real = realpath(path)
    data = read.get(real)
    return _entry(path, None) if data is None else _entry_of(path, data, hashes.get(real))


class _RealPaths:
    """``os.path.realpath``, with each folder's real path found once: the stamp names a few
    hundred files in a handful of folders, and realpath looks at every component of every
    path it is given. A file's own name is still looked at (it may be a link)."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        folder, name = os.path.split(path)
        if not folder or name in ("", ".", ".."):
            return os.path.realpath(path)
        real = self.folders.get(folder)
        if real is None:
            real = self.folders[folder] = os.path.realpath(folder)
        joined = os.path.join(real, name)
        return os.path.realpath(joined) if os.path.islink(joined) else joined


def _dump(data: dict[str, object]) -> bytes:
    """The stamp's bytes: its JSON."""
    return (json.dumps(data, indent=0, sort_keys=True) + "\n").encode("utf-8")


#: A stamp is a few megabytes even for 10,000 codes in 30 languages.
_STAMP_LIMIT = 256 * 1024 * 1024


def _base(config: Config) -> str | None:
    """Where the configuration keeps its caches (None: the user's cache folder)."""
    return str(config.cache_dir) if config.cache_dir is not None else None


def _stamp_bytes(root: str, base: str | None) -> bytes:
    """The stamp's JSON, read as any input is (a regular file of bounded size, never a FIFO,
    a device or a link); OSError when there is none, which makes the run take the ordinary
    way."""
    folder = cachedir.folder(root, base)
    if folder is None:
        raise OSError("no cache folder")
    return _read_stamp(os.path.join(folder, STAMP))


def _read_stamp(path: str) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _STAMP_LIMIT:
            raise OSError(f"{path}: not a regular file of a stamp's size")
        with os.fdopen(os.dup(fd), "rb") as stream:
            return stream.read(_STAMP_LIMIT + 1)
    finally:
        os.close(fd)


def _recorded(root: str, config_repr: str | None, base: str | None) -> dict[str, Any] | None:
    """The stamp in ``root`` when this errorbook made it, for this configuration (None: a
    plain run's), every entry is one, and every input it lists is still one and no other;
    else None."""
    try:
        data = json.loads(_stamp_bytes(root, base))
        if (
            data["errorbook"] != __version__
            or data["root"] != root
            or (config_repr is None and data["plain"] is not True)
            or (config_repr is not None and data["config"] != config_repr)
        ):
            return None
        entries = [*data["inputs"].values(), *data["outputs"].values()]
        if not all(_valid(entry) for entry in entries):
            return None
        if set(data["inputs"]) != set(_inputs(data["fixed"], data["scans"])):
            return None  # an input appeared or went away
        if data["libraries"] != json.loads(json.dumps(libraries())):
            return None  # Python or a library changed: the outputs may too
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return data if isinstance(data, dict) else None


def _valid(entry: object) -> TypeGuard[Entry]:
    return (
        type(entry) is list
        and len(entry) == 4
        and type(entry[0]) is int
        and type(entry[1]) is int
        and type(entry[2]) is str
        and type(entry[3]) is int
    )


def _fresh(
    root: str, config_repr: str | None, base: str | None = None
) -> tuple[bool, bytes | None, list[object]]:
    """Whether nothing changed since the stamp in ``root``; when only the stat of some files
    changed (a racy entry settled, a checkout touched them), the refreshed stamp; and the
    catalogs' problems the stamp holds, as recorded (see :func:`recorded_problems`)."""
    data = _recorded(root, config_repr, base)
    if data is None:
        return False, None, []
    recorded: dict[str, dict[str, Entry]] = {"inputs": data["inputs"], "outputs": data["outputs"]}
    refreshed = False
    for group, entries in recorded.items():
        for name, known in entries.items():
            path = name if group == "inputs" else os.path.join(root, name)
            entry = _entry(path, known)
            if entry is None or entry[2] != known[2]:
                return False, None, []
            if entry != known:
                entries[name] = entry
                refreshed = True
    found = data.get("check")
    problems = found.get("problems") if isinstance(found, dict) else None
    return True, _dump(data) if refreshed else None, problems if type(problems) is list else []


def verify(config: Config) -> tuple[bool, bytes | None, list[object]]:
    """:func:`_fresh` for a loaded configuration, which must be the one recorded: whether
    nothing changed, the refreshed stamp to save if only some stat did, and the catalogs'
    problems it holds."""
    return _fresh(str(config.root), repr(config), _base(config))


def unchanged(config: Config) -> bool:
    """True when a ``generate`` with this configuration would change nothing."""
    return verify(config)[0]


def recorded_problems(found: list[object]) -> Diagnostics | None:
    """The catalogs' problems as :func:`_fresh` found them in the stamp (what ``check``
    reports on the tree the last run left), for a run that found nothing changed; None when
    there are none, or the stamp cannot say (diagnostics are imported only when there are
    some)."""
    if not found:
        return None
    try:
        return _problems(found)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class Proof:
    """What ``errorbook check`` reports on a tree :func:`proven` vouches for."""

    def __init__(self, outputs: int, registry: str, problems: Diagnostics) -> None:
        self.outputs = outputs  # how many generated files there are, every one up to date
        self.registry = registry  # the registry as the outputs name it
        self.problems = problems  # the catalogs' problems, in the PO files as they are


def proven(config: Config) -> Proof | None:
    """What ``errorbook check`` would report, when the stamp proves that the tree is still
    the one the last ``generate`` left: the stamp was made with this configuration, this
    errorbook, this Python and these libraries, and holds what ``check`` would report; the
    inputs are the same files; no output is reached through a symbolic link; and every
    input and output (none a link) holds the bytes the run used, by its hash.

    None when anything is less certain (a damaged stamp included): ``check`` then compares
    every output, as it does without a stamp."""
    from pathlib import Path

    from . import output

    root = str(config.root)
    data = _recorded(root, repr(config), _base(config))
    try:
        if (
            data is None
            or data["fixed"] != _fixed(config)
            or data["scans"] != scans(config)
            or data["libraries"] != json.loads(json.dumps(libraries()))
        ):
            return None
        found = data["check"]
        proof = Proof(len(data["outputs"]), str(found["registry"]), _problems(found["problems"]))
        output.refuse_links(Path(root), data["outputs"], [str(f) for f in found["folders"]])
        if {*output.previous(Path(root)), output.MANIFEST} != set(data["outputs"]):
            return None  # the stamp lists other outputs than the manifest (hashed below)
    except (KeyError, TypeError, ValueError, AttributeError, output.OutputError):
        return None
    files: dict[str, Entry] = {}
    named = [(os.path.join(root, name), entry) for name, entry in data["outputs"].items()]
    for path, entry in [*data["inputs"].items(), *named]:
        known = files.setdefault(os.path.normpath(path), entry)
        if (known[0], known[2]) != (entry[0], entry[2]):
            return None  # one file, recorded with two contents
    return proof if _all_hold(files) else None


def _problems(found: object) -> Diagnostics:
    from ..diagnostics import Diagnostic, Diagnostics

    if type(found) is not list:
        raise TypeError("not a list of problems")
    return Diagnostics([Diagnostic.from_dict(item) for item in found])


def _all_hold(files: Mapping[str, Entry]) -> bool:
    """Whether every file holds the bytes of its entry; the largest are hashed first, on
    every core (hashlib lets go of the interpreter while it hashes)."""
    from concurrent.futures import ThreadPoolExecutor

    largest = sorted(files.items(), key=lambda item: _size(item[1]), reverse=True)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for holds in pool.map(_holds, largest):
            if not holds:
                pool.shutdown(cancel_futures=True)
                return False
    return True


def _size(entry: Entry) -> int:
    return entry[0] if isinstance(entry[0], int) else -1


def _holds(item: tuple[str, Entry]) -> bool:
    """Whether ``path`` is a regular file, not a link, of the size and hash of its entry."""
    import hashlib

    path, (size, _, sha, _) = item
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    with open(fd, "rb", buffering=0) as stream:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size != size:
                return False
            return hashlib.file_digest(stream, "sha256").hexdigest() == sha
        except OSError:
            return False


def fresh_from(cwd: str) -> tuple[str, bytes | None, list[object]] | None:
    """The project root when a plain ``errorbook generate`` run in ``cwd`` would change
    nothing (with the refreshed stamp, if any), found without parsing pyproject.toml.

    The configuration comes from the nearest pyproject.toml with an ``[tool.errorbook]``
    table. A file whose bytes never mention ``errorbook`` cannot have one, so it is passed
    over; the first that does is taken as the root, and the answer counts only if that
    folder's stamp was made by a plain run with this very pyproject.toml (its hash is one of
    the recorded inputs). Anything less certain returns None: the caller then takes the
    ordinary way.
    """
    folder = os.path.abspath(cwd)
    while True:
        path = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(path):
            try:
                with open(path, "rb") as stream:
                    text = stream.read()
            except OSError:
                return None
            if b"\\u" in text or b"\\U" in text:
                return None  # an escaped key might spell errorbook
            if b"errorbook" in text:
                fresh, refreshed, problems = _fresh(folder, None)
                return (folder, refreshed, problems) if fresh else None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
