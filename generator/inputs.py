"""Reading an input file without trusting it: a regular file, of bounded size.

Every file errorbook reads that someone else may have put there (the registry, translators'
PO files, hand-written site pages, the manifest) goes through :func:`read`. It opens without
blocking, so a FIFO never hangs a run; it refuses anything that is not a regular file (a
device such as ``/dev/zero``, a folder, a socket); it refuses a file larger than the limit
before reading it; and it can refuse a symbolic link, for files errorbook may later replace
(a PO file replaced through a link would turn the link into a copy). The error says what is
wrong and how to fix it; callers turn it into a diagnostic at line 1, column 1 of the file.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

#: The largest input errorbook reads, in bytes, unless ``max-input-mib`` in
#: ``[tool.errorbook]`` (or ERRORBOOK_MAX_INPUT_MIB) says otherwise. A PO file of 10,000
#: codes is about 11 MiB, so the default leaves room for twenty times that.
DEFAULT_LIMIT_MIB = 256
LIMIT_VARIABLE = "ERRORBOOK_MAX_INPUT_MIB"


class InputFileError(InputError):
    """An input file cannot be read safely; ``reason`` says why and ``hint`` how to fix it.

    Callers normally turn it into a diagnostic at line 1, column 1 of the file; one that
    escapes still ends the run as an input error (exit status 1), not as a crash."""

    def __init__(self, path: Path, reason: str, hint: str) -> None:
        super().__init__(f"{path}: {reason} ({hint})")
        self.path = path
        self.reason = reason
        self.hint = hint


def limit_bytes(mib: int | None = None) -> int:
    """The size limit in bytes: ``mib`` when given, else the environment's, else the default."""
    if mib is None:
        raw = os.environ.get(LIMIT_VARIABLE, "")
        mib = int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_LIMIT_MIB
    return mib * 1024 * 1024


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read(path: Path, *, limit: int | None = None, follow: bool = True) -> bytes | None:
    """The bytes of ``path``, or None when it does not exist.

    Raises :class:`InputFileError` for anything else that keeps it from being read: a file
    that is not a regular file, larger than ``limit`` bytes (default :func:`limit_bytes`), a
    symbolic link when ``follow`` is false, a link that loops, or an OS error.
    """
    return _read(path, limit, follow, None)[0]


def head(path: Path, size: int, *, limit: int | None = None, follow: bool = True) -> bytes | None:
    """The first ``size`` bytes of ``path``, refused for the same reasons as :func:`read`
    (its whole size counts against ``limit``): what a header check needs of a file that is
    read in full elsewhere."""
    return _read(path, limit, follow, size)[0]


#: A file's identity as a read saw it: inode, size, mtime in nanoseconds.
Seen = tuple[int, int, int]


def read_seen(
    path: Path, *, limit: int | None = None, follow: bool = True
) -> tuple[bytes | None, Seen | None]:
    """:func:`read`, with the identity of the file the bytes came from: its inode, size and
    mtime before the read, when they are the same after it (None when the file changed
    while it was read). A later stat of ``path`` that gives the same three is the file these
    bytes were read from, by the trust in mtimes that git and make share."""
    data, before, after = _read(path, limit, follow, None)
    return data, (before if before is not None and before == after else None)


@dataclass(frozen=True)
class Later:
    """A file found and checked where a run starts, read in full where it is used (a worker
    process), so that no one process holds every input at once. ``size`` is its size when
    it was found."""

    path: Path
    size: int
    limit: int | None = None

    def read(self) -> tuple[bytes | None, Seen | None]:
        """Its bytes and identity (see :func:`read_seen`); a link is refused, as when found."""
        return read_seen(self.path, limit=self.limit, follow=False)


def _identity(info: os.stat_result) -> Seen:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _read(
    path: Path, limit: int | None, follow: bool, size: int | None
) -> tuple[bytes | None, Seen | None, Seen | None]:
    limit = limit_bytes() if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                raise InputFileError(
                    path,
                    "is a symbolic link, and errorbook never writes through a link",
                    "replace the link with the file it points to",
                )
        except FileNotFoundError:
            return None, None, None
        except NotADirectoryError:
            return None, None, None
        except OSError as exc:
            raise _os_error(path, exc) from None
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None, None, None
    except OSError as exc:
        raise _os_error(path, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(
                path,
                f"is {kind_of(info.st_mode)}, not a regular file",
                "put a regular file there, or remove it",
            )
        if info.st_size > limit:
            raise InputFileError(
                path,
                f"is {info.st_size:,} bytes, larger than {limit_text(limit)}, the limit",
                f"raise max-input-mib in [tool.errorbook] (or {LIMIT_VARIABLE}) if the "
                "file is meant to be this large",
            )
        if size is not None:
            return os.read(fd, min(size, info.st_size)) if info.st_size else b"", None, None
        # One read of the size fstat gave (no joining of chunks: PO files run to tens of
        # megabytes), then chunks for whatever the file grew by since.
        first = os.read(fd, info.st_size) if info.st_size else b""
        chunks = [first]
        total = len(first)
        while True:  # a file that grows while it is read is still bounded
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise InputFileError(
                    path,
                    f"grew larger than {limit_text(limit)}, the limit, while it was read",
                    f"raise max-input-mib in [tool.errorbook] (or {LIMIT_VARIABLE})",
                )
            chunks.append(chunk)
        data = first if len(chunks) == 1 else b"".join(chunks)
        return data, _identity(info), _identity(os.fstat(fd))
    except InputFileError:
        raise
    except OSError as exc:
        raise _os_error(path, exc) from None
    finally:
        os.close(fd)


def limit_text(limit: int) -> str:
    mib = limit / (1024 * 1024)
    return f"{mib:g} MiB" if mib >= 1 else f"{limit:,} bytes"


def _os_error(path: Path, exc: OSError) -> InputFileError:
    if exc.errno == errno.ELOOP:
        return InputFileError(
            path, "is a symbolic link that loops", "replace the link with a regular file"
        )
    if exc.errno == errno.EISDIR:
        return InputFileError(path, "is a folder, not a file", "remove the folder")
    return InputFileError(
        path, f"cannot be read: {exc.strerror or exc}", "check its permissions and that it exists"
    )
