"""Everything errorbook generates for one configuration, as one mapping of files.

``generate`` writes this mapping and ``check`` compares it, so the two can never disagree on
what the outputs are.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .config import Config
from .emit import Files, catalogs, python
from .registry import Registry
from .render import environment
from .validate import load_registry


def registry_for(config: Config) -> Registry:
    """Load the configured registry; its display path is stable across machines."""
    shown = config.display(config.registry)
    if PurePosixPath(shown).is_absolute():
        shown = config.registry.name
    return load_registry(config.registry, shown)


def existing_catalogs(config: Config, registry: Registry) -> dict[str, bytes]:
    """The translators' PO files as they are on disk: an input of the catalog emitter."""
    found: dict[str, bytes] = {}
    locales_dir = config.display(config.locales_dir)
    for _, _, relative in catalogs.catalog_paths(registry, locales_dir):
        try:
            found[relative] = (config.root / relative).read_bytes()
        except FileNotFoundError:
            continue
    return found


def outputs(config: Config, registry: Registry, existing: dict[str, bytes] | None = None) -> Files:
    """Every generated file. ``existing`` is the PO files already read, if the caller has them."""
    env = environment(config.templates)
    package_dir = (
        PurePosixPath(config.display(config.python_out)) / registry.meta.package
    ).as_posix()
    files: dict[str, bytes] = {}
    files.update(python.emit(registry, env, package_dir))
    files.update(
        catalogs.emit(
            registry,
            existing_catalogs(config, registry),
            config.display(config.locales_dir),
            package_dir,
        )
    )
    return files
