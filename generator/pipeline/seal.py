"""A cache file's seal: the proof that errorbook wrote it on this machine, for this user.

``.errorbook-cache/`` is git-ignored, but nothing stops a commit from adding files to it, and
a clone of that commit starts with a cache someone else wrote. Taken as errorbook's own, such
a cache does harm: a pickled registry runs code when it is loaded, compiled templates run in
the site build, a page's memo puts its HTML on the published site, and a verdict spares a
translation its checks. So every cache file starts with an HMAC of its bytes under a key
that lives outside the project, in the user's cache folder (``$XDG_CACHE_HOME/errorbook``,
by default ``~/.cache/errorbook``), made the first time it is needed. A file whose seal
does not hold is a miss, as a damaged one is: the run does the work and writes it again.

Where that folder cannot be read or written, each process makes a key of its own: the
caches then serve only the process that wrote them, which is slower and as safe.

The stamp (``pipeline.stamp``) is not sealed: a no-op run does not import hashlib, and the
stamp proves nothing on another machine, since it names each library's file by its size and
modification time in nanoseconds, which installing the libraries sets anew.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from .. import inputs
from . import output

#: What a sealed file starts with, before the HMAC-SHA256 of the rest.
MAGIC = b"errorbook-seal-1\n"
_MAC_SIZE = 32
_KEY_SIZE = 32
KEY_FILE = "cache-key"

_key: bytes | None = None


def key_folder() -> Path | None:
    """Where the key lives: ``$XDG_CACHE_HOME/errorbook``, or ``~/.cache/errorbook``; None
    where neither can be named (no home folder)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):
            return None
    return Path(base) / "errorbook"


def key() -> bytes:
    """This user's key, read once per process (a forked worker inherits it)."""
    global _key
    if _key is None:
        folder = key_folder()
        found = _read_or_make(folder / KEY_FILE) if folder is not None else None
        _key = found if found is not None else secrets.token_bytes(_KEY_SIZE)
    return _key


def _read_or_make(path: Path) -> bytes | None:
    """The key in ``path``, made there if there is none (or what is there is not a key);
    None if it can be neither read nor made."""
    found = _read(path)
    if found is not None:
        return found
    try:
        if not output.create_private(path, secrets.token_bytes(_KEY_SIZE)) and _read(path) is None:
            output.create_private(path, secrets.token_bytes(_KEY_SIZE), replace=True)
    except OSError:
        return None
    return _read(path)


def _read(path: Path) -> bytes | None:
    """The key in ``path``, or None: missing, not a regular file, or not a key's size."""
    try:
        data = inputs.read(path, follow=False, limit=_KEY_SIZE + 1)
    except inputs.InputFileError:
        return None
    return data if data is not None and len(data) == _KEY_SIZE else None


def _mac(data: bytes) -> bytes:
    return hmac.digest(key(), data, hashlib.sha256)


def seal(data: bytes) -> bytes:
    """``data`` as a cache file holds it: after the magic line and its HMAC."""
    return MAGIC + _mac(data) + data


def unseal(data: bytes | None) -> bytes | None:
    """The bytes :func:`seal` sealed in ``data`` with this user's key; None when ``data`` is
    None, not sealed, or sealed under another key or over other bytes."""
    if data is None or not data.startswith(MAGIC):
        return None
    start = len(MAGIC) + _MAC_SIZE
    body = data[start:]
    if len(data) < start or not hmac.compare_digest(data[len(MAGIC) : start], _mac(body)):
        return None
    return body


def write_cache(root: Path, name: str, data: bytes) -> None:
    """``data`` sealed, as the cache file ``name`` in ``root`` (see
    :func:`.output.write_cache`)."""
    output.write_cache(root, name, seal(data))


def read(path: Path, limit: int | None = None) -> bytes | None:
    """A cache file's bytes, unsealed: read as every cache is (a regular file, of bounded
    size, never through a link; :class:`inputs.InputFileError` otherwise), None when it is
    missing or its seal does not hold."""
    if limit is None:
        found = inputs.read(path, follow=False)
    else:
        found = inputs.read(path, follow=False, limit=limit + len(MAGIC) + _MAC_SIZE)
    return unseal(found)
