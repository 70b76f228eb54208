"""Everything errorbook generates for one configuration, as one mapping of files.

``generate`` writes this mapping and ``check`` compares it, so the two can never disagree on
what the outputs are.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .config import Config
from .emit import Files, python
from .registry import Registry
from .render import environment
from .validate import load_registry


def registry_for(config: Config) -> Registry:
    """Load the configured registry; its display path is stable across machines."""
    shown = config.display(config.registry)
    if PurePosixPath(shown).is_absolute():
        shown = config.registry.name
    return load_registry(config.registry, shown)


def outputs(config: Config, registry: Registry) -> Files:
    env = environment(config.templates)
    package_dir = PurePosixPath(config.display(config.python_out)) / registry.meta.package
    files: dict[str, bytes] = {}
    files.update(python.emit(registry, env, package_dir.as_posix()))
    return files
