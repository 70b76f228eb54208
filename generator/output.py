"""The only module that writes to disk.

``write`` replaces each changed file atomically (a temporary file in the same folder, then a
rename), so a reader or a crash sees the old file or the new one, never half of it, and leaves
an unchanged file alone so its mtime stays. ``compare`` is ``write`` without writing: it is
what ``errorbook check`` runs.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .emit import Files

Status = Literal["created", "updated", "unchanged", "stale", "missing"]


@dataclass(frozen=True)
class FileStatus:
    path: str
    status: Status


class OutputError(Exception):
    """A file could not be written; the message says which and why."""


def _current(root: Path, name: str) -> bytes | None:
    try:
        return (root / name).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise OutputError(f"{name}: cannot read: {exc.strerror}") from None


def compare(root: Path, files: Files) -> list[FileStatus]:
    """The status of every output against what is on disk, in path order."""
    result = []
    for name in sorted(files):
        current = _current(root, name)
        if current is None:
            result.append(FileStatus(name, "missing"))
        elif current != files[name]:
            result.append(FileStatus(name, "stale"))
        else:
            result.append(FileStatus(name, "unchanged"))
    return result


def _replace(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write(root: Path, files: Files) -> list[FileStatus]:
    """Write every changed output; report what was created, updated or left alone."""
    result = []
    for status in compare(root, files):
        if status.status == "unchanged":
            result.append(status)
            continue
        try:
            _replace(root / status.path, files[status.path])
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise OutputError(
                f"{status.path}: cannot write: {reason} (the previous file, if any, is unchanged)"
            ) from None
        result.append(
            FileStatus(status.path, "created" if status.status == "missing" else "updated")
        )
    return result
