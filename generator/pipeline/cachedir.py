"""Where a project's caches live: a folder of its own in the user's cache folder.

errorbook trusts its caches: a pickled registry runs code when it is loaded, a page's memo
puts its HTML on the published site, a verdict spares a translation its checks, and the
stamp vouches for files by their hashes. So they live outside the work tree, where no commit
can put one: in ``$XDG_CACHE_HOME/errorbook/`` (by default ``~/.cache/errorbook/``, or the
folder the MkDocs plugin's ``cache_dir`` names), one folder per project, named after the
project's folder and the hash of its real path.

That folder is used only when its owner is the user running errorbook and nobody else may
read or write it, as Jinja's ``FileSystemBytecodeCache`` checks its own; never when it lies
inside the project's git work tree (a CI job that points ``XDG_CACHE_HOME`` into its
checkout), where a commit could supply one. Where no folder can be used, a run works without
caches, which is slower and as correct, and says so once.

This module imports only ``os``, ``hashlib`` and ``stat``: a no-op ``generate`` finds its
stamp here before anything else is imported.
"""

from __future__ import annotations

import hashlib
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op run)
if TYPE_CHECKING:
    from pathlib import Path

    from ..config import Config

#: Set once the note below was printed, so that the processes a run starts (one site build
#: per language) do not print it again.
_NOTED = "ERRORBOOK_NO_CACHE_NOTED"


def folder(root: str, base: str | None = None) -> str | None:
    """The cache folder of the project in ``root``, made if need be, under ``base`` (None:
    the user's cache folder); None where no folder may be used (see the module's text).
    Looked at anew on every call: someone may remove it between two."""
    found, why = _usable(root, base)
    if found is None:
        _say(why)
    return found


def _usable(root: str, base: str | None) -> tuple[str | None, str]:
    top = _base() if base is None else os.path.abspath(base)
    if top is None:
        return None, "no home folder to keep it in"
    real = os.path.realpath(root)
    name = f"{os.path.basename(real) or 'root'}-{hashlib.sha256(real.encode()).hexdigest()[:16]}"
    path = os.path.join(top, name)
    tree = _work_tree(real) or real
    if _inside(os.path.realpath(top), tree):
        return None, f"{top} is inside the project's work tree, where a commit could put one"
    try:
        os.makedirs(top, mode=0o700, exist_ok=True)
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        return None, f"{path} cannot be made ({error.strerror})"
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        return None, f"{path} is not a folder"
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
        return None, f"{path} is not a folder only you can use (chmod 700 it, or remove it)"
    return path, ""


def _base() -> str | None:
    """``$XDG_CACHE_HOME/errorbook``, or ``~/.cache/errorbook``; None where neither can be
    named (an empty or relative home folder)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        home = os.path.expanduser("~") if os.environ.get("HOME") != "" else ""
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "errorbook")


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _work_tree(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that holds a ``.git``."""
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _say(why: str) -> None:
    """One line on stderr: without caches every run does the whole work, and nothing else
    would say why."""
    if not os.environ.get(_NOTED):
        os.environ[_NOTED] = "1"
        import sys

        print(
            f"errorbook: note: working without caches: {why}; "
            "set XDG_CACHE_HOME to a folder of your own outside the project",
            file=sys.stderr,
        )


def of(config: Config) -> Path | None:
    """The cache folder of a loaded configuration (see :func:`folder`)."""
    from pathlib import Path

    base = str(config.cache_dir) if config.cache_dir is not None else None
    found = folder(str(config.root), base)
    return Path(found) if found is not None else None


def read(folder: Path | None, name: str, limit: int | None = None) -> bytes | None:
    """The cache file ``name`` in ``folder``, read as every input is (a regular file of
    bounded size, never through a link); None when there is no folder, no such file, or
    one that cannot be read so."""
    from .. import inputs

    if folder is None:
        return None
    try:
        return inputs.read(folder / name, follow=False, limit=limit)
    except inputs.InputFileError:
        return None
