"""Reading a registry as it is in a file, or as it was at a git revision.

``errorbook diff`` and ``errorbook check --against`` compare the registry with another version
of it: a path, a revision (``HEAD~1``, ``origin/main``, a tag), or ``REV:path``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..config import Config, ConfigError
from .loader import decode, load_text
from .model import Registry
from .validate import validate


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, check=False)
    except FileNotFoundError:
        raise ConfigError("git is not installed; name a file instead of a revision") from None


def read_side(spec: str, config: Config) -> tuple[bytes, str]:
    """The bytes of a registry and the name to show for it."""
    path = Path(spec)
    if path.is_file():
        return path.read_bytes(), spec
    revision, _, inside = spec.partition(":")
    top = _git(config.root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise ConfigError(
            f"'{spec}' is neither a file nor a revision: {config.root} is not in a git repository"
        )
    toplevel = Path(top.stdout.decode().strip())
    given_path = bool(inside)
    if not inside:
        try:
            inside = config.registry.resolve().relative_to(toplevel.resolve()).as_posix()
        except ValueError:
            raise ConfigError(
                f"the registry {config.registry} is outside the repository "
                f"{toplevel}; write REV:PATH"
            ) from None
    shown = _git(toplevel, "show", f"{revision}:{inside}")
    if shown.returncode != 0:
        message = shown.stderr.decode(errors="replace").strip().splitlines()
        why = f"cannot read {inside} at '{revision}' ({message[-1] if message else 'git failed'})"
        if not given_path:  # a mistyped file name reads as a revision: say both
            why = f"'{spec}' is neither a file nor a git revision: {why}"
        raise ConfigError(why)
    return shown.stdout, f"{revision}:{inside}"


def load_side(spec: str, config: Config) -> Registry:
    data, name = read_side(spec, config)
    return validate(load_text(decode(data, name), name), name)
