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
caches then serve only the process that wrote them, which is slower and as safe; the
first process of a run says so on stderr.

The stamp (``pipeline.stamp``) is sealed too: it vouches for files by their hashes, and a
planted one could name the hashes of files someone changed. A no-op run reads the key and
checks the stamp's seal with this module's lightest part (:func:`known_key`, :func:`unseal`):
hmac and os, nothing of errorbook's own.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op run)
if TYPE_CHECKING:
    from pathlib import Path

#: What a sealed file starts with, before the HMAC-SHA256 of the rest.
MAGIC = b"errorbook-seal-1\n"
_MAC_SIZE = 32
_KEY_SIZE = 32
KEY_FILE = "cache-key"

_key: bytes | None = None


def key_path() -> str | None:
    """Where the key lives: ``$XDG_CACHE_HOME/errorbook/cache-key``, or
    ``~/.cache/errorbook/cache-key``; None where neither can be named (no home folder, or
    an empty or relative one), or where the place is inside the git work tree the command
    runs in: a commit could supply a key there (a CI job that points XDG_CACHE_HOME into
    its checkout), and with it seal caches and a stamp of its own."""
    path = _named()
    return path if path is not None and not _in_checkout(path) else None


def _named() -> str | None:
    """The key's place as the environment names it (see :func:`key_path`)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        if os.environ.get("HOME") == "":
            return None  # expanduser would answer "/"
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "errorbook", KEY_FILE)


def _in_checkout(path: str) -> bool:
    """Whether ``path`` is in the git work tree the command runs in."""
    try:
        here = _work_tree(os.getcwd())
    except OSError:  # the working folder is gone: nothing to compare with
        return False
    return here is not None and _work_tree(os.path.dirname(path)) == here


def _work_tree(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` (its real path) that holds a ``.git``."""
    folder = os.path.realpath(folder)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def key() -> bytes:
    """This user's key, read once per process (a forked worker inherits it), made the first
    time it is needed."""
    global _key
    if _key is None:
        path = key_path()
        found = _read_or_make(path) if path is not None else None
        if found is None:
            import secrets

            _say_no_key(path)
            found = secrets.token_bytes(_KEY_SIZE)
        _key = found
    return _key


#: Set once the note below was printed, so that the processes a run starts (one site build
#: per language) do not print it again.
_NOTED = "ERRORBOOK_NO_CACHE_KEY_NOTED"


def _say_no_key(path: str | None) -> None:
    """One line on stderr: without a key, no run can use what an earlier one learned, and
    nothing else would say why every run does the whole work."""
    if os.environ.get(_NOTED):
        return
    os.environ[_NOTED] = "1"
    named = _named()
    if path is not None:
        where = f"at {path}"
    elif named is not None:
        where = f"at {named}: it is inside this git checkout, where a commit could put one"
    else:
        where = "(no home folder)"
    import sys

    print(
        f"errorbook: note: cannot keep a cache key {where}, so no run reuses the work of "
        "an earlier one; set XDG_CACHE_HOME to a folder you can write",
        file=sys.stderr,
    )


def known_key() -> bytes | None:
    """This user's key when this process has one or the key file holds one; never makes
    one (a run that finds no key has nothing sealed to read)."""
    global _key
    if _key is None:
        path = key_path()
        _key = _read(path) if path is not None else None
    return _key


def _read_or_make(path: str) -> bytes | None:
    """The key in ``path``, made there if there is none (or what is there is not a key);
    None if it can be neither read nor made."""
    import secrets
    from pathlib import Path

    from . import output

    found = _read(path)
    if found is not None:
        return found
    try:
        made = output.create_private(Path(path), secrets.token_bytes(_KEY_SIZE))
        if not made and _read(path) is None:
            output.create_private(Path(path), secrets.token_bytes(_KEY_SIZE), replace=True)
    except OSError:
        return None
    return _read(path)


def _read(path: str) -> bytes | None:
    """The key in ``path``, or None: missing, a link, not a regular file of a key's size, or
    one that another user owns or could read or write."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != _KEY_SIZE:
            return None
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None
        data = os.read(fd, _KEY_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == _KEY_SIZE else None


def _mac(data: bytes) -> bytes:
    return hmac.digest(key(), data, hashlib.sha256)


def seal(data: bytes) -> bytes:
    """``data`` as a cache file holds it: after the magic line and its HMAC."""
    return MAGIC + _mac(data) + data


def unseal(data: bytes | None) -> bytes | None:
    """The bytes :func:`seal` sealed in ``data`` with this user's key; None when ``data`` is
    None, not sealed, or sealed under another key or over other bytes, or when there is no
    key yet (nothing can have been sealed with it)."""
    if data is None or not data.startswith(MAGIC) or known_key() is None:
        return None
    start = len(MAGIC) + _MAC_SIZE
    body = data[start:]
    if len(data) < start or not hmac.compare_digest(data[len(MAGIC) : start], _mac(body)):
        return None
    return body


def write_cache(root: Path, name: str, data: bytes) -> None:
    """``data`` sealed, as the cache file ``name`` in ``root`` (see
    :func:`.output.write_cache`)."""
    from . import output

    output.write_cache(root, name, seal(data))


def read(path: Path, limit: int | None = None) -> bytes | None:
    """A cache file's bytes, unsealed: read as every cache is (a regular file, of bounded
    size, never through a link; :class:`inputs.InputFileError` otherwise), None when it is
    missing or its seal does not hold."""
    from .. import inputs

    if limit is None:
        found = inputs.read(path, follow=False)
    else:
        found = inputs.read(path, follow=False, limit=limit + len(MAGIC) + _MAC_SIZE)
    return unseal(found)
