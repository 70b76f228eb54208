"""The only module that writes to disk.

``write`` replaces each changed file atomically (a temporary file in the same folder, then a
rename), so a reader or a crash sees the old file or the new one, never half of it, and leaves
an unchanged file alone so its mtime stays. ``compare`` is ``write`` without writing: it is
what ``errorbook check`` runs, so the two refuse the same things.

The manifest (``.errorbook-files``, itself generated) lists every file errorbook wrote, so a
later run can remove what it no longer generates (a renamed code's page, a dropped language)
and can refuse to overwrite a file that someone else wrote. Translators' PO files are never
removed: their translations are kept even when a language leaves the registry.

What the rest of this module guards against, and why:

- The manifest is an input like any other: a commit can add any line to it. A line is
  therefore no proof, and a file it names is removed only when errorbook can show the file
  is its own: inside a folder errorbook writes (see :class:`Layout`), of a kind it writes
  there, reached without a symbolic link, and starting with errorbook's header (an MO file
  has no room for one, so it must sit where errorbook compiles the MO of a PO file in the
  configured locales folder). The registry, pyproject.toml, anything under ``.git``, PO
  files, and anything outside the project and the output folders are never removed. A line
  that fails these rules is a diagnostic at its line of the manifest, and nothing at all is
  written. A file errorbook wrote under an earlier configuration (its header is there, but
  it lies outside today's output folders) is reported as ``left`` and stays where it is.
- errorbook never writes through a symbolic link: a linked folder would put new files
  outside the project, and replacing a linked PO file would turn the link into a copy.
  Inside the project, no folder between the project root and an output, nor the output
  itself, may be a link. An output folder configured outside the project (``python-out =
  "../x"``) is taken as the path the user wrote, links included; below it the same rule
  holds. Every output is checked before anything is written, and `check` refuses the same.
- A file that is also an input (a translator's PO file) may be saved by an editor while a
  run works on what it read. Just before such a file is replaced, its bytes are compared with
  the bytes the run read; if they differ it is left as it is and the run stops, asking for
  another run. Whether it is to be replaced at all is told without reading it while it is
  the very file the run read (its inode, size and mtime, see :func:`_as_read`).
- Temporary files are named ``.<name>.errorbook-<random>.tmp``; a run sweeps only names of
  that shape, so other tools' ``.*.tmp`` files are never touched.
- A large output can be made in a worker process and written there to a staged file next to
  its target (:func:`stage`), so that no process holds every catalog at once; the run
  passes a :class:`Stored` for it, and :func:`write` renames it into place or, when the
  file is unchanged, removes it. Staged files are named
  ``.<name>.errorbook-<pid>-<random>.staged``, after the process that runs the write: a
  run removes the staged files it did not rename (:func:`discard`), and sweeps those of a
  run that no longer lives.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .. import inputs
from ..diagnostics import Diagnostics, InvalidInput, Mark
from ..errors import OutputError as OutputError  # raised here; the class lives in errors.py
from ..names import HEADER, header, one_line

Status = Literal[
    "created", "updated", "unchanged", "removed", "stale", "missing", "orphaned", "left"
]
MANIFEST = ".errorbook-files"
_HEAD = 65536  # the header must appear this near the top of a file (after front matter)
_KEEP = (".po",)  # translators' files: merged into, never removed
_TEMP = ".errorbook-"  # in every temporary file's name, between the target's name and a random part
_TEMP_NAME = re.compile(r"\..+\.errorbook-[a-z0-9_]+\.tmp")
_STAGED_NAME = re.compile(r"\..+\.errorbook-([0-9]+)-[a-z0-9_]+\.staged")
_MO_MAGIC = (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")
_NEVER = {".git", ".hg", ".svn"}  # folders whose content errorbook never removes


@dataclass(frozen=True)
class FileStatus:
    path: str
    status: Status


@dataclass(frozen=True)
class Layout:
    """Where one configuration puts errorbook's outputs, each folder spelled as the paths in
    ``files`` spell it (relative to the project root, or absolute when outside it).

    It is all this module needs to know about the configuration: which folders a manifest
    line may name for removal, which folders outside the project are the user's own choice
    (see the module's notes on links), and which files are inputs that are never removed."""

    package: str | None = None  # the generated Python package's folder
    locales: str | None = None  # the translators' catalogs: errorbook removes only POT files
    site: str | None = None
    typescript: str | None = None
    folders: tuple[str, ...] = ()  # every configured output folder, as the user gave it
    inputs: tuple[str, ...] = ()  # absolute paths of the registry and pyproject.toml
    compiled: str = "messages.po"  # the PO file (in each locale) an MO file is compiled from
    limit: int | None = None  # the size limit of a file errorbook reads (inputs.limit_bytes)


#: The layout of a write that names no configuration: nothing may be removed.
NOWHERE = Layout()


@dataclass(frozen=True)
class Stored:
    """An output whose bytes are in a file, not in memory: by its SHA-256 and size.

    ``staged`` is the absolute path of the staged file that holds it (see :func:`stage`);
    without one, the output is the file already at its path, as a worker read it (``seen``:
    its inode, size and mtime then, when known; see ``inputs.read_seen``)."""

    sha256: str
    size: int
    staged: str | None = None
    seen: inputs.Seen | None = None


Output = bytes | Stored


def stage(root: Path, name: str, data: bytes, owner: int) -> Stored:
    """Write ``data``, the next content of output ``name``, complete and flushed, to a staged
    file beside it, for :func:`write` to rename into place; ``owner`` is the process id of
    the run that will (a worker stages for its parent). The folder must exist: a new
    output is passed as bytes."""
    import hashlib

    path = root / name
    staged = _temporary(path, f".{path.name}{_TEMP}{owner}-", ".staged", data)
    try:
        info = os.stat(staged)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(staged)
        raise
    seen = (info.st_ino, info.st_size, info.st_mtime_ns)
    return Stored(hashlib.sha256(data).hexdigest(), len(data), staged, seen)


def discard(files: Mapping[str, Output]) -> None:
    """Remove the staged files among ``files`` that were not renamed into place: after a run
    that wrote them, or one that stopped before writing."""
    for data in files.values():
        if isinstance(data, Stored) and data.staged is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(data.staged)


def sha256_of(data: Output) -> str:
    """The SHA-256 of an output: computed from its bytes, or the one a Stored carries."""
    if isinstance(data, Stored):
        return data.sha256
    import hashlib

    return hashlib.sha256(data).hexdigest()


def same_content(current: bytes, data: Output) -> bool:
    """Whether ``current`` (a file's bytes) is the output ``data``."""
    if isinstance(data, bytes):
        return current == data
    import hashlib

    return len(current) == data.size and hashlib.sha256(current).hexdigest() == data.sha256


def manifest(paths: list[str], source: str) -> bytes:
    """The manifest's content: the header, then every generated path, sorted."""
    lines = [f"# {header(source)}", *sorted(paths)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def previous(root: Path, limit: int | None = None) -> dict[str, int]:
    """The paths the last manifest lists, each with its line number (the first, if twice)."""
    try:
        data = inputs.read(root / MANIFEST, limit=limit, follow=False)
        text = "" if data is None else data.decode("utf-8")
    except inputs.InputFileError as exc:
        raise OutputError(f"{MANIFEST}: {exc.reason} ({exc.hint})") from None
    except UnicodeDecodeError as exc:
        raise OutputError(
            f"{MANIFEST}: cannot read: not UTF-8 ({exc.reason}); delete it, and errorbook "
            "writes a new one (files it no longer generates are then not removed)"
        ) from None
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line and not line.startswith("#"):
            found.setdefault(line, number)
    return found


def _current(root: Path, name: str, limit: int | None = None) -> bytes | None:
    """An output as it is on disk, or None; never blocks on a FIFO nor reads without bound."""
    try:
        return inputs.read(root / name, limit=limit)
    except inputs.InputFileError as exc:
        raise OutputError(f"{name}: {exc.reason} ({exc.hint})") from None


# --- links ----------------------------------------------------------------------------------


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _outside(root: Path, folders: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The configured folders outside the project, longest first: each as the folder to walk
    from and the prefixes that spell it in a path (as the outputs spell it, and joined to
    the project root, as earlier versions wrote the manifest)."""
    top = os.path.abspath(root)
    found: list[tuple[str, tuple[str, ...]]] = []
    for folder in sorted(folders, key=len, reverse=True):
        base = os.path.join(top, folder)
        if folder not in (".", "") and not _inside(os.path.normpath(base), top):
            found.append((base, (folder.rstrip("/") + "/", base + "/")))
    return found


def _locate(
    root: Path,
    name: str,
    outside: list[tuple[str, tuple[str, ...]]],
    strict: bool = False,
) -> tuple[str, str, list[str]] | None:
    """Where the walk over ``name``'s components starts, for links and for removal: the
    folder, how the user sees it (a prefix), and the components below it.

    A name below a configured output folder outside the project (``outside``, see
    :func:`_outside`) starts at that folder: the user's choice, links included. Any other
    name starts at the project root and must stay inside it; with ``strict`` (a manifest
    line), it must also be spelled as errorbook spells a path, with no '.', '..' or empty
    part. None for a name that fits neither."""
    for base, prefixes in outside:
        prefix = next((p for p in prefixes if name.startswith(p)), None)
        if prefix is not None:
            parts = name[len(prefix) :].split("/")
            return (base, prefix, parts) if _clean(parts) else None
    top = os.path.abspath(root)
    parts = name.split("/")
    if not os.path.isabs(name) and _clean(parts):
        return top, "", parts
    if strict:
        return None
    normal = os.path.normpath(os.path.join(top, name))
    if normal == top or not _inside(normal, top):
        return None
    return top, "", os.path.relpath(normal, top).split(os.sep)


def _first_link(
    base: str, parts: list[str], seen: dict[str, str] | None = None
) -> tuple[int, str] | None:
    """Where a component of ``base/parts`` is a symbolic link: its index and path, or None.

    ``seen`` remembers what each path was, so a run over many outputs looks at each folder
    once. A path that does not exist ends the walk: errorbook creates what follows."""
    seen = {} if seen is None else seen
    path = base
    for index, part in enumerate(parts):
        path = f"{path}{os.sep}{part}"
        state = seen.get(path)
        if state is None:
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                state = "absent"
            else:
                state = "link" if stat.S_ISLNK(mode) else "present"
            seen[path] = state
        if state == "link":
            return index, path
        if state == "absent":
            return None
    return None


def refuse_links(root: Path, names: Iterable[str], folders: Iterable[str]) -> None:
    """Stop, naming the link, when any output would be written through a symbolic link."""
    seen: dict[str, str] = {}
    links: dict[str, bool] = {}  # shown path -> whether it stands for a folder
    outside = _outside(root, folders)
    for name in names:
        where = _locate(root, name, outside)
        if where is None:
            raise OutputError(
                f"{name} lies outside the project and outside every configured output "
                "folder; errorbook does not write there"
            )
        base, shown, parts = where
        found = _first_link(base, parts, seen)
        if found is not None:
            index = found[0]
            links.setdefault(shown + "/".join(parts[: index + 1]), index < len(parts) - 1)
    if not links:
        return
    first, folder = next(iter(links.items()))
    others = [link for link in links if link != first]
    also = f" (so {'is' if len(others) == 1 else 'are'}: {', '.join(others)})" if others else ""
    raise OutputError(
        f"{first} is a symbolic link; errorbook does not write through links: replace it "
        f"with {'a folder' if folder else 'the file it points to'}{also}. Nothing was written"
    )


# --- comparing ------------------------------------------------------------------------------


def compare(
    root: Path,
    files: Mapping[str, Output],
    layout: Layout | None = None,
    orphans: bool = True,
) -> list[FileStatus]:
    """The status of every output against what is on disk, in path order. With ``orphans``,
    ``files`` is every output, and what the last manifest names beyond them is judged (see
    the module's notes): ``orphaned`` when errorbook will remove it, ``left`` when it wrote
    it once but leaves it. A line that cannot be trusted raises InvalidInput; an output
    reached through a link raises OutputError."""
    known = NOWHERE if layout is None else layout
    return _compare(root, files, known, previous(root, known.limit) if orphans else None)


def _compare(
    root: Path,
    files: Mapping[str, Output],
    layout: Layout,
    previous: Mapping[str, int] | None,
    same: Collection[str] = (),
    read: Mapping[str, Output | None] | None = None,
) -> list[FileStatus]:
    refuse_links(root, files, layout.folders)
    result = []
    for name in sorted(files):
        if name in same:  # on disk as it is to be, by its stat and hash (see write)
            result.append(FileStatus(name, "unchanged"))
            continue
        told = _as_read(root, name, files[name], read.get(name)) if read else None
        if told is not None:
            result.append(FileStatus(name, told))
            continue
        current = _current(root, name, layout.limit)
        if current is None:
            result.append(FileStatus(name, "missing"))
        elif not same_content(current, files[name]):
            result.append(FileStatus(name, "stale"))
        else:
            result.append(FileStatus(name, "unchanged"))
    if previous is not None:
        result += _orphans(root, files, layout, previous)
    return sorted(result, key=lambda s: s.path)


def _as_read(root: Path, name: str, data: Output, was: Output | None) -> Status | None:
    """The status of an output that is also an input (a PO file), told by the identity of
    the file on disk alone: when it is still the file a worker read in this run (its inode,
    size and mtime, see ``inputs.read_seen``), it holds what was read, and the output is
    ``unchanged`` if it is those bytes, else ``stale``. None where the identity does not
    tell: the caller reads the file. Reading and hashing every PO file again here was most
    of the time of writing a run's outputs. A stale file is still read and compared right
    before it is replaced (``_still_as_read``), so an edit made since is never lost."""
    if not isinstance(was, Stored) or was.seen is None:
        return None
    seen = was.seen
    try:
        info = os.lstat(root / name)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or (info.st_ino, info.st_size, info.st_mtime_ns) != seen:
        return None
    return "unchanged" if sha256_of(data) == was.sha256 else "stale"


def _orphans(
    root: Path, files: Collection[str], layout: Layout, previous: Mapping[str, int]
) -> list[FileStatus]:
    """What the last manifest lists beyond ``files``, judged; every untrusted line at once."""
    found = Diagnostics()
    statuses = []
    top = os.path.abspath(root)
    # An output spelled another way (an earlier version's manifest) is still an output.
    outputs = {os.path.normpath(os.path.join(top, name)) for name in files}
    for line, number in sorted(previous.items(), key=lambda item: item[1]):
        if line in files or os.path.normpath(os.path.join(top, line)) in outputs:
            continue
        verdict, problem = _judge(root, layout, line)
        if problem:
            found.error(
                "E-MANIFEST-LINE",
                Mark(MANIFEST, number, 1),
                f"'{one_line(line)}' {problem}, so errorbook will not remove it",
                f"delete this line from {MANIFEST}: errorbook removes only files it wrote, "
                "in the folders it writes to. If it did write this file once and you no "
                "longer need it, delete the file yourself",
            )
        elif verdict is not None:
            statuses.append(FileStatus(line, verdict))
    if found.has_errors:
        raise InvalidInput(found)
    return statuses


Verdict = Literal["orphaned", "left"]


def _judge(root: Path, layout: Layout, line: str) -> tuple[Verdict | None, str]:
    """What to do about one manifest line errorbook no longer generates: remove it, leave
    it, or nothing (it is gone, or a PO file); or, as the second value, why the line cannot
    be trusted."""
    target = os.path.join(root, line)
    try:
        mode = os.lstat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None, ""  # nothing to remove
    except (OSError, ValueError) as exc:
        return None, f"cannot be examined ({getattr(exc, 'strerror', None) or exc})"
    where = _locate(root, line, _outside(root, layout.folders), strict=True)
    if where is None:
        return None, (
            "is not a path errorbook writes (it lies outside the project and the configured "
            "output folders, or holds '.', '..' or an empty part)"
        )
    base, shown, parts = where
    why = _protected(root, layout, target, parts, not shown)
    if why:
        return None, why
    if line.endswith(_KEEP):
        return None, ""  # a translator's file: kept even when its language is dropped
    return _judge_file(root, layout, line, target, mode, (base, shown, parts))


def _judge_file(
    root: Path,
    layout: Layout,
    line: str,
    target: str,
    mode: int,
    where: tuple[str, str, list[str]],
) -> tuple[Verdict | None, str]:
    """The checks on the file itself, once its path is one errorbook could have written."""
    base, shown, parts = where
    link = _first_link(base, parts)
    if link is not None:
        index = link[0]
        if index < len(parts) - 1:
            folder = shown + "/".join(parts[: index + 1])
            return None, f"is reached through the symbolic link {folder}"
        return None, "is a symbolic link"
    if not stat.S_ISREG(mode):
        return None, f"is {inputs.kind_of(mode)}, not a file errorbook writes"
    if not _proof(root, layout, target, parts):
        if line.endswith(".mo"):
            return None, "is not the compiled catalog of a PO file in the locales folder"
        return None, (
            "does not carry errorbook's header ('generated by errorbook ...') where errorbook "
            "writes it (the first line, or the line after the front matter)"
        )
    place = _place(root, layout, os.path.join(base, *parts))
    if place is None:
        return "left", ""  # errorbook's, from an earlier configuration: not removed
    if not _fits(*place):
        return None, f"is not a kind of file errorbook writes in {place[0]}"
    return "orphaned", ""


def _clean(parts: list[str]) -> bool:
    return all(part not in ("", ".", "..") for part in parts)


def _protected(root: Path, layout: Layout, target: str, parts: list[str], local: bool) -> str:
    """Why a file may never be removed, whatever the manifest says; empty when it may be."""
    normal = os.path.normpath(target)
    inputs_ = {os.path.normpath(p) for p in layout.inputs}
    inputs_.add(os.path.normpath(os.path.join(root, "pyproject.toml")))
    if normal in inputs_:
        return "is one of errorbook's inputs (the registry or pyproject.toml)"
    never = _NEVER.intersection(parts[:-1])
    if never:
        return f"lies inside {sorted(never)[0]}, where errorbook never removes anything"
    if local and parts == [MANIFEST]:
        return "is errorbook's own bookkeeping"
    return ""


def _proof(root: Path, layout: Layout, target: str, parts: list[str]) -> bool:
    """Whether the file shows it is errorbook's: its header near the top, or, for an MO
    file, the compiled catalog of a PO file in the configured locales folder."""
    head = _head(target)
    if parts[-1].endswith(".mo"):
        return head[:4] in _MO_MAGIC and _owning_po(root, layout, parts) is not None
    return carries_header(head)


def _owning_po(root: Path, layout: Layout, parts: list[str]) -> str | None:
    """The PO file an MO file at ``.../locales/<locale>/LC_MESSAGES/<domain>.mo`` is
    compiled from, when it is a regular file in the configured locales folder."""
    if layout.locales is None or len(parts) < 4 or parts[-4:-1:2] != ["locales", "LC_MESSAGES"]:
        return None
    locale = parts[-3]
    if not _clean([locale]):
        return None
    po = os.path.join(root, layout.locales, locale, "LC_MESSAGES", layout.compiled)
    try:
        return po if stat.S_ISREG(os.lstat(po).st_mode) else None
    except OSError:
        return None


def _head(path: str) -> bytes:
    """The first bytes of a regular file, read without following a link or blocking."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        return os.read(fd, _HEAD) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _place(root: Path, layout: Layout, path: str) -> tuple[str, str, list[str]] | None:
    """Which output folder ``path`` (absolute, its parts clean) lies in: the folder as the
    configuration spells it, its kind, and the parts below it."""
    places = [
        (folder, kind)
        for folder, kind in (
            (layout.package, "package"),
            (layout.locales, "locales"),
            (layout.site, "site"),
            (layout.typescript, "typescript"),
        )
        if folder is not None
    ]
    normal = os.path.normpath(path)
    for folder, kind in sorted(places, key=lambda place: len(place[0]), reverse=True):
        top = os.path.normpath(os.path.join(os.path.abspath(root), folder))
        if normal != top and _inside(normal, top):
            return folder, kind, os.path.relpath(normal, top).split(os.sep)
    return None


_SUFFIXES = {
    "package": (".py", ".pyi", ".json", ".typed"),
    "site": (".md", ".css", ".js", ".html", ".json", ".svg", ".yml"),
    "typescript": (".ts", ".json"),
}


def _fits(folder: str, kind: str, parts: list[str]) -> bool:
    """Whether errorbook writes a file of this name at this place in this kind of folder."""
    name = parts[-1]
    if kind == "locales":
        return len(parts) == 1 and name.endswith(".pot")
    if kind == "package":
        compiled = len(parts) == 4 and parts[0::2] == ["locales", "LC_MESSAGES"]
        return name.endswith(_SUFFIXES[kind]) or (compiled and name.endswith(".mo"))
    if kind == "site":
        if len(parts) == 1:
            return re.fullmatch(r"mkdocs\.[^/]+\.yml", name) is not None
        return parts[0] in ("docs", "root") and name.endswith(_SUFFIXES[kind])
    return name.endswith(_SUFFIXES[kind])


# --- writing --------------------------------------------------------------------------------


def _replace(path: Path, data: Output) -> None:
    if isinstance(data, Stored):
        if data.staged is None:  # the file as read, which is no longer there
            raise OSError(errno.ESTALE, "it changed while errorbook was working on it")
        os.replace(data.staged, path)  # beside its target: one file system, atomic
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary(path, f".{path.name}{_TEMP}", ".tmp", data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _temporary(path: Path, prefix: str, suffix: str, data: bytes) -> str:
    """A new file beside ``path`` holding ``data``, complete and flushed to the disk, with
    the mode of an output; removed again if any of that fails."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(tmp, 0o644)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


#: What to do about an output path that holds a file errorbook did not write.
MOVE_IT = "move it away, or point python-out, site or typescript-out elsewhere"
MOVE_THEM = "move them away, or point python-out, site or typescript-out elsewhere"


#: How many files in the way :func:`in_the_way` names before it counts the rest.
NAMED = 10


def in_the_way(refused: Sequence[str]) -> str:
    """What generate says when files it did not write stand where it would write: every one
    (up to :data:`NAMED`), as check names them, so that one move clears the way."""
    one = len(refused) == 1
    more = f" and {len(refused) - NAMED} more" if len(refused) > NAMED else ""
    return (
        f"{', '.join(refused[:NAMED])}{more} {'exists and was' if one else 'exist and were'} "
        f"not written by errorbook; nothing was written: {MOVE_IT if one else MOVE_THEM}"
    )


def foreign(root: Path, statuses: list[FileStatus]) -> list[str]:
    """The stale outputs that :func:`write` refuses to overwrite: files errorbook did not
    write (they do not carry its header). `check` names them too, so that its advice and
    `generate`'s agree."""
    return [
        s.path
        for s in statuses
        if s.status == "stale" and _foreign(s.path, _current(root, s.path) or b"")
    ]


def _foreign(name: str, current: bytes) -> bool:
    """A file errorbook would overwrite although it did not write it.

    Only the file itself can say so: the manifest is an input anyone can edit, so a line in
    it never makes a hand-written file errorbook's. Catalogs carry no such mark in the same
    place; their owner is judged when they are read (``catalogs.claim``)."""
    if name.endswith((".po", ".pot", ".mo")):
        return False
    return not carries_header(current[:_HEAD])


#: errorbook's header (names.HEADER, whatever it names as the source) inside the comment
#: syntaxes errorbook writes it in, as the whole line.
_SAID = re.escape(HEADER.encode("utf-8")).replace(re.escape(b"{source}"), rb"[^\n]*")
_HEADER_LINE = re.compile(
    rb"(?:# %s|// %s|/\* %s \*/|<!-- %s -->)\Z" % (_SAID, _SAID, _SAID, _SAID)
)
#: The members errorbook writes before "$comment" in a JSON file (a schema's own), and the
#: "$comment" member itself.
_JSON_BEFORE = re.compile(rb'  "\$(?:schema|id)": "[^"\n]*",\Z')
_JSON_HEADER = re.compile(rb'  "\$comment": "%s",?\Z' % _SAID)


def carries_header(head: bytes) -> bool:
    """Whether the first bytes of a file hold errorbook's header line where errorbook
    writes it: the first line; the line after ``<!DOCTYPE html>``; after a page's front
    matter and an empty line; or JSON's ``"$comment"`` as the object's first member (a
    schema's ``$schema`` and ``$id`` before it). The phrase anywhere else, in a docstring,
    prose or a later comment, proves nothing: a hand-written file may mention it. (Lines
    may end in CR LF: git may check the outputs out so.)"""
    lines = [line.removesuffix(b"\r") for line in head.split(b"\n")]
    first = lines[0]
    if _is_header(lines, 0):
        return True
    if first.lower() == b"<!doctype html>":
        return _is_header(lines, 1)
    if first == b"---" and b"---" in lines[1:]:
        end = lines.index(b"---", 1)
        return lines[end + 1 : end + 2] == [b""] and _is_header(lines, end + 2)
    if first == b"{":
        index = 1
        while index < len(lines) and _JSON_BEFORE.fullmatch(lines[index]):
            index += 1
        return index < len(lines) and _JSON_HEADER.fullmatch(lines[index]) is not None
    return False


def _is_header(lines: list[bytes], index: int) -> bool:
    return index < len(lines) and _HEADER_LINE.fullmatch(lines[index]) is not None


#: The projects this process holds the lock of, each with how many times it took it.
_held: dict[str, int] = {}


@contextlib.contextmanager
def locked(root: Path, *, wait: bool = False) -> Iterator[None]:
    """Hold the project's lock: a second ``generate`` in the same tree stops with a clear
    message (or, with ``wait``, waits its turn) instead of interleaving its writes.

    The lock is flock's, on the project's folder itself: there is no lock file a commit
    could replace with a link or a FIFO, and the lock dies with its process, so a killed run
    leaves nothing to clean up. A process that holds it may take it again (the MkDocs
    plugin waits its turn, then generates)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, each file is still replaced atomically
        yield
        return
    key = os.path.realpath(root)
    if _held.get(key):
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    try:
        fd = os.open(key, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:  # a folder it may not read: each file is still replaced atomically
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise OutputError(
                f"another errorbook is already running in {root} (it holds the folder's "
                "lock); wait for it to finish, then run again"
            ) from None
        except OSError:  # no flock on this file system (some network ones): no lock, as above
            yield
            return
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
    finally:
        os.close(fd)  # which lets go of the lock


def _sweep(folders: set[Path]) -> None:
    """Remove temporary files a killed run left behind (they were never renamed into place).
    Only names :func:`_replace` and :func:`stage` make are taken (another tool's ``.*.tmp``
    is its own), and a staged file only once the run it was staged for has ended."""
    for folder in folders:
        with contextlib.suppress(OSError):
            for leftover in folder.glob(f".*{_TEMP}*"):
                staged = _STAGED_NAME.fullmatch(leftover.name)
                if not (_TEMP_NAME.fullmatch(leftover.name) or staged):
                    continue
                if staged and _alive(int(staged.group(1))):
                    continue
                if stat.S_ISREG(leftover.lstat().st_mode):
                    leftover.unlink()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (one of another user counts as running). Where
    a signal cannot ask this without acting (Windows, where ``os.kill`` ends the process),
    every process counts as running, and a staged file is left for the user to remove."""
    if pid == os.getpid() or os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def write(
    root: Path,
    files: Mapping[str, Output],
    every: bool = True,
    layout: Layout | None = None,
    read: Mapping[str, Output | None] | None = None,
    known: Mapping[str, str] | None = None,
    settled: Mapping[str, str] | None = None,
) -> list[FileStatus]:
    """Write every changed output; report what changed. With ``every`` (a whole generation),
    ``files`` is every output and the orphans the last manifest names are judged against
    ``layout`` and removed when they are provably errorbook's; without it (a few files a
    command adds, such as a new locale's PO files) nothing else is touched.

    ``read`` holds the outputs that are also inputs (PO files) as the run read them (None:
    absent then); one that changed since is left alone, and the run stops.

    ``known`` gives the SHA-256 of some of ``files``, ``settled`` that of files on disk the
    stamp shows as the last run left them (``stamp.settled``): where the two agree, the file
    is unchanged without being read."""
    with locked(root):
        same = {n for n, h in (settled or {}).items() if (known or {}).get(n) == h}
        where = NOWHERE if layout is None else layout
        return _write(root, files, every, where, read or {}, same)


def _write(
    root: Path,
    files: Mapping[str, Output],
    every: bool,
    layout: Layout,
    read: Mapping[str, Output | None],
    same: Collection[str] = (),
) -> list[FileStatus]:
    listed = previous(root, layout.limit)  # read even when unused: a broken one is said
    statuses = _compare(root, files, layout, listed if every else None, same, read)
    refused = foreign(root, statuses)
    if refused:
        raise OutputError(in_the_way(refused))
    _sweep({(root / name).parent for name in files})
    result: list[FileStatus] = []
    if every and MANIFEST in files:
        _announce(root, files, listed, statuses)
    # The manifest goes last: until every file is in place, the previous manifest (with
    # what _announce added) still names what a rerun has to finish or clean up.
    statuses.sort(key=lambda st: st.path == MANIFEST)
    for status in statuses:
        if status.status in ("unchanged", "left"):
            result.append(status)
            continue
        try:
            if status.status == "orphaned":
                _remove(root, status.path, layout)
                result.append(FileStatus(status.path, "removed"))
                continue
            if status.path in read:
                _still_as_read(root, status.path, read[status.path], layout, result)
            _replace(root / status.path, files[status.path])
        except OSError as exc:
            raise OutputError(
                f"{status.path}: cannot write: {exc.strerror or exc}. This file is "
                f"unchanged; {_done(result)}. Free the space or fix the permissions, then "
                "run `errorbook generate` again"
            ) from None
        result.append(
            FileStatus(status.path, "created" if status.status == "missing" else "updated")
        )
    return result


def _announce(
    root: Path,
    files: Mapping[str, Output],
    listed: Mapping[str, int],
    statuses: list[FileStatus],
) -> None:
    """Before a file the last manifest does not list is created, list it: a run stopped
    between the two then leaves a manifest that names it. An MO file has no header to prove
    it errorbook's, so without its line a rerun would refuse it as another tool's. What the
    last manifest lists stays listed until the final manifest replaces this one, so a rerun
    still removes what this run was to remove. A file that a stopped run only announced is
    not there, and a rerun makes it."""
    final = files[MANIFEST]
    new = [s.path for s in statuses if s.status == "missing" and s.path not in listed]
    if not isinstance(final, bytes) or not [name for name in new if name != MANIFEST]:
        return
    head = final.split(b"\n", 1)[0].decode("utf-8")
    lines = sorted({*listed, *(name for name in files if name != MANIFEST)})
    interim = ("\n".join([head, *lines]) + "\n").encode("utf-8")
    try:
        _replace(root / MANIFEST, interim)
    except OSError as exc:
        raise OutputError(
            f"{MANIFEST}: cannot write: {exc.strerror or exc}. No file was changed; free "
            "the space or fix the permissions, then run `errorbook generate` again"
        ) from None


def _done(result: list[FileStatus]) -> str:
    done = sum(1 for r in result if r.status not in ("unchanged", "left"))
    return (
        f"{done} changed file{'s were' if done != 1 else ' was'} written before it, each complete"
    )


def _still_as_read(
    root: Path, name: str, was: Output | None, layout: Layout, result: list[FileStatus]
) -> None:
    """Stop before replacing an input that someone changed since the run read it: the run's
    output was made from the old bytes, and replacing the file would lose the edit. ``was``
    is what the run read: its bytes, or a :class:`Stored` naming them by hash."""
    current = _current(root, name, layout.limit)
    if current is None or was is None:
        unchanged = current is None and was is None
    else:
        unchanged = same_content(current, was)
    if not unchanged:
        raise OutputError(
            f"{name} changed while generating; run again (errorbook left it as it is now; "
            f"{_done(result)})"
        )


def _remove(root: Path, name: str, layout: Layout) -> None:
    """Remove an orphan, then the folders it leaves empty, up to the folder it was judged
    from (the project root, or a configured output folder outside it)."""
    path = root / name
    path.unlink()
    where = _locate(root, name, _outside(root, layout.folders), strict=True)
    _prune(path.parent, Path(where[0]) if where is not None else root)


def write_cache(folder: Path | None, name: str, data: bytes) -> None:
    """A cache file (not an output: not in the manifest), replaced atomically in the
    project's cache folder (:mod:`.cachedir`; None: there is none, and nothing is written).
    Not through a link either: a cache that is not written only costs the next run its
    shortcut."""
    if folder is None or not os.path.isdir(folder):
        return  # a folder removed since cachedir made it is not made again here
    if _first_link(os.path.abspath(folder), name.split("/")) is not None:
        return
    with contextlib.suppress(OSError):
        _replace(folder / name, data)


def _prune(folder: Path, stop: Path) -> None:
    """Remove folders left empty by removed files, up to ``stop`` (not included)."""
    top = os.path.abspath(stop)
    here = os.path.abspath(folder)
    while here != top and _inside(here, top):
        try:
            os.rmdir(here)
        except OSError:
            return
        here = os.path.dirname(here)
