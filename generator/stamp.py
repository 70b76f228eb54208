"""Knowing, without parsing anything, that a ``generate`` would change nothing.

After every full run the stamp (``.errorbook-cache/stamp.json``, git-ignored) records each
input (the registry, pyproject.toml, every PO file, every template, the hand-written site
pages, errorbook's own code) and each output by size, modification time and SHA-256. A later
run that finds every input and output with the same content skips loading, rendering and
writing. A file whose size and mtime are unchanged is not read again; one whose stat changed
(after a checkout, say) is hashed, so touching a file does not cost a full run.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from pathlib import Path

from . import __version__
from .config import Config
from .names import SHIPPED_TEMPLATES

CACHE_DIR = ".errorbook-cache"
STAMP = f"{CACHE_DIR}/stamp.json"
_PACKAGE = Path(__file__).resolve().parent

Entry = list[object]  # [size, mtime_ns, sha256]


def inputs(config: Config) -> list[Path]:
    """Every file whose content can change what ``generate`` writes."""
    found: list[Path] = [config.registry]
    pyproject = config.root / "pyproject.toml"
    if pyproject.is_file():
        found.append(pyproject)
    if config.locales_dir.is_dir():
        found += sorted(config.locales_dir.glob("*/LC_MESSAGES/*.po"))
    for folder in (config.templates, SHIPPED_TEMPLATES):
        if folder is not None and folder.is_dir():
            found += sorted(p for p in folder.rglob("*") if p.is_file())
    if config.site_dir is not None and (config.site_dir / "pages").is_dir():
        found += sorted((config.site_dir / "pages").glob("*.md"))
    found += sorted(_PACKAGE.rglob("*.py"))
    return found


#: A file modified this recently may change again within the same timestamp tick without
#: its size changing; like git's "racy" entries, its stat is not trusted next time.
RACY_SECONDS = 2.0


def _entry(path: Path, known: Entry | None) -> Entry | None:
    try:
        info = path.stat()
    except OSError:
        return None
    if known is not None and known[0] == info.st_size and known[1] == info.st_mtime_ns:
        return known  # same size and mtime: the recorded hash stands
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
    racy = time.time() - info.st_mtime_ns / 1e9 < RACY_SECONDS
    return [info.st_size, -1 if racy else info.st_mtime_ns, digest]


def _key(config: Config, path: Path) -> str:
    return config.display(path)


def record(config: Config, outputs: Iterable[str]) -> bytes:
    """The stamp after a full run: every input and output as it is now."""
    files = {_key(config, p): _entry(p, None) for p in inputs(config)}
    files.update({name: _entry(config.root / name, None) for name in outputs})
    data = {"errorbook": __version__, "config": repr(config), "files": files}
    return (json.dumps(data, indent=0, sort_keys=True) + "\n").encode("utf-8")


def unchanged(config: Config) -> bool:
    """True when every recorded input and output still has its recorded content."""
    try:
        data = json.loads((config.root / STAMP).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    if data.get("errorbook") != __version__ or data.get("config") != repr(config):
        return False
    recorded: dict[str, Entry] = data.get("files", {})
    current = {_key(config, p) for p in inputs(config)}
    outputs = set(recorded) - current
    if not current <= set(recorded):
        return False  # a new input (a PO file, a template) appeared
    for name in current | outputs:
        path = config.root / name if name in outputs else Path(name)
        if not path.is_absolute():
            path = config.root / path
        entry = _entry(path, recorded[name])
        if entry is None or entry[2] != recorded[name][2]:
            return False
    return True
