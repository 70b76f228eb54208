"""Reading a registry as it is in a file, or as it was at a git revision.

``errorbook diff`` and ``errorbook check --against`` compare the registry with another version
of it: a path, a revision (``HEAD~1``, ``origin/main``, a tag), or ``REV:path``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from .. import inputs
from ..config import Config, ConfigError
from ..diagnostics import InvalidInput
from . import source
from .loader import Mapping, Node, decode, load_file, load_text
from .model import Registry
from .validate import validate

#: The sections that declare a registry's vocabulary, and the wires key of 'registry'.
VOCABULARY = ("actors", "shapes", "recovery_kinds")


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, check=False)
    except FileNotFoundError:
        raise ConfigError("git is not installed; name a file instead of a revision") from None


def read_side(spec: str, config: Config) -> tuple[bytes, str]:
    """The bytes of a registry and the name to show for it: a file, read as every input is
    (a regular file within max-input-mib), or a file at a git revision."""
    if not spec.strip():
        raise ConfigError("give a file or a git revision to compare with, not an empty name")
    path = Path(spec)
    if path.is_file():
        try:
            data = inputs.read(path, limit=config.input_limit)
        except inputs.InputFileError as exc:
            raise ConfigError(f"{spec}: {exc.reason} ({exc.hint})") from None
        if data is not None:
            return data, spec
    revision, _, inside = spec.partition(":")
    if revision.startswith("-"):
        # git would take it for an option (`--output=FILE` writes a file anywhere).
        raise ConfigError(
            f"'{spec}' is neither a file nor a git revision: a revision never starts with '-' "
            f"(for a file of that name, write ./{spec})"
        )
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
    name = f"{revision}:{inside}"
    found = _git(toplevel, "cat-file", "-e", "--end-of-options", name)
    if found.returncode != 0:
        message = found.stderr.decode(errors="replace").strip().splitlines()
        why = f"cannot read {inside} at '{revision}' ({message[-1] if message else 'git failed'})"
        if not given_path:  # a mistyped file name reads as a revision: say both
            why = f"'{spec}' is neither a file nor a git revision: {why}"
        raise ConfigError(why)
    return _blob(toplevel, name, config), name


def _blob(toplevel: Path, name: str, config: Config) -> bytes:
    """The blob ``name`` names, within the registry's bound: a revision is as untrusted as the
    work tree. It is read by its object id, so that a branch moved meanwhile cannot swap it."""
    oid = _git(toplevel, "rev-parse", "--verify", "--end-of-options", name).stdout.decode().strip()
    size = _git(toplevel, "cat-file", "-s", oid)
    limit = config.input_limit if config.max_input_mib is not None else source.MAX_BYTES
    if size.returncode != 0 or not size.stdout.strip().isdigit():
        raise ConfigError(f"cannot read {name} (git cat-file failed)")
    if int(size.stdout) > limit:
        raise ConfigError(
            f"{name} is {int(size.stdout):,} bytes, larger than {inputs.limit_text(limit)}, "
            "the limit (raise max-input-mib in [tool.errorbook] if the registry is meant to "
            "be this large)"
        )
    shown = _git(toplevel, "cat-file", "blob", oid)
    if shown.returncode != 0:
        raise ConfigError(f"cannot read {name} (git cat-file failed)")
    return shown.stdout


def load_side(spec: str, config: Config) -> Registry:
    """The registry ``spec`` names. A revision written before registries declared their
    vocabulary (no 'actors', 'shapes' or 'recovery_kinds', no 'registry.wires') is read with
    the working registry's, so that a diff across that change compares codes, not formats."""
    data, name = read_side(spec, config)
    root = load_text(decode(data, name), name)
    return validate(_with_vocabulary(root, config), name)


def _with_vocabulary(root: Node, config: Config) -> Node:
    if not isinstance(root, Mapping) or any(key.value in VOCABULARY for key, _ in root.pairs):
        return root
    try:
        donor = load_file(config.registry, config.display(config.registry))
    except (InvalidInput, OSError):
        return root  # nothing to lend: the old side is judged as it is
    if not isinstance(donor, Mapping):
        return root
    lent = [
        (key, _words_only(node) if key.value == "recovery_kinds" else node)
        for key, node in donor.pairs
        if key.value in VOCABULARY
    ]
    meta = dict((key.value, node) for key, node in root.pairs).get("registry")
    donor_meta = dict((key.value, node) for key, node in donor.pairs).get("registry")
    if isinstance(meta, Mapping) and isinstance(donor_meta, Mapping):
        wires = [(k, v) for k, v in donor_meta.pairs if k.value == "wires"]
        if wires and not any(k.value == "wires" for k, _ in meta.pairs):
            meta = Mapping(meta.mark, pairs=[*meta.pairs, *wires])
            root = Mapping(
                root.mark,
                pairs=[(k, meta if k.value == "registry" else v) for k, v in root.pairs],
            )
    return Mapping(root.mark, pairs=[*root.pairs, *lent])


def _words_only(kinds: Node) -> Node:
    """The recovery kinds without the retry policies each fits: a rule that came with the
    vocabulary, which a revision written before it was never held to (its codes would
    fail it, at lines of another file)."""
    if not isinstance(kinds, Mapping):
        return kinds
    pairs = []
    for key, kind in kinds.pairs:
        if isinstance(kind, Mapping):
            kind = Mapping(kind.mark, pairs=[(k, v) for k, v in kind.pairs if k.value != "retry"])
        pairs.append((key, kind))
    return Mapping(kinds.mark, pairs=pairs)
