"""A registry file's bytes, read as any input is, or the diagnostic that says why not.

Apart from :mod:`.loader`, which parses them: a run after a translator's edit takes the
registry from its cache by the hash of these bytes, and never needs YAML at all.
"""

from __future__ import annotations

from pathlib import Path

from .. import inputs
from ..diagnostics import Mark, invalid

#: The largest registry file read, unless ``max-input-mib`` raises it.
MAX_BYTES = 16 * 1024 * 1024


def read_file(path: Path, name: str, limit: int | None = None) -> bytes:
    """The bytes of a registry file, or the diagnostic that says why they cannot be read."""
    try:
        data = inputs.read(path, limit=MAX_BYTES if limit is None else limit)
    except inputs.InputFileError as exc:
        hint = exc.hint
        if "larger than" in exc.reason:
            hint = (
                "split the prose out, or raise max-input-mib in [tool.errorbook] if the "
                "registry is meant to be this large"
            )
        raise invalid(
            "E-FILE-UNREADABLE", Mark(name, 1, 1), f"the file {exc.reason}", hint
        ) from None
    if data is None:
        raise invalid(
            "E-FILE-MISSING",
            Mark(name, 1, 1),
            "cannot read the file: No such file or directory",
            "check the path, or pass --registry PATH; `errorbook init` starts a registry here",
        )
    return data
