"""The registry a run works on: taken from the cache, or read from its file and validated,
in a process forked for it where that lets the caller go on meanwhile.

``generate`` starts loading the registry (:func:`begin`) before it imports the rest of the
pipeline (``pipeline.build``, the catalogs' workers, the emitters and Jinja2) and compiles
the emitters' templates (``build._prepare``). At a thousand codes, reading and validating
the registry takes about as long as that, and the two then run on two cores instead of
one after the other. Where the pipeline is imported
already (a long-lived process, a test), there is nothing to overlap, and a registry is
validated in the calling process, unless it is large (:data:`FORKED_VALIDATION_BYTES`): a
large one is always validated in a process of its own, which gives back the memory its
YAML took when it ends.

This module imports little, so that the fork comes early: the YAML reader and the rules
are imported by the process that validates.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..config import Config
from ..registry import source
from ..registry.model import Registry
from . import cache, cachedir, forks

#: A registry file at least this large is validated in a process of its own in any case.
#: Reading and validating ten thousand codes leaves the process that did it about a hundred
#: megabytes larger than the registry it made: the YAML's nodes and the validators'
#: intermediate objects are freed, but CPython keeps most of their pages, since a page is
#: given back only when nothing on it is alive. Every catalog worker is forked from this
#: process later and would start with those pages. Unpickled, the registry is compact.
FORKED_VALIDATION_BYTES = 2_000_000

#: The module whose import :func:`begin` overlaps with the validation (see the docstring).
_PIPELINE = __name__.rsplit(".", 1)[0] + ".build"


@dataclass
class Loading:
    """A registry being loaded: its file's bytes as read and its cache key, with the
    registry from the cache, or the validation under way in another process, if any."""

    data: bytes
    shown: str  # the file as diagnostics name it
    stable: str  # the file as generated outputs name it
    key: str
    cached: Registry | None = None
    started: forks.Started[bytes] | None = None
    # The registry's cache file (cache.registry_bytes), where the process that validated it
    # made it: the run that caches the registry need not pickle it again.
    made: bytes | None = None

    @property
    def running(self) -> bool:
        """True while the validation runs in another process and has not been collected."""
        return self.started is not None

    def ready(self) -> bool:
        """True when :meth:`finish` would not wait: no validation runs elsewhere, or it has
        sent its result."""
        return self.started is None or self.started.ready()

    def finish(self) -> tuple[Registry, bool]:
        """The registry, and whether it was validated now (rather than taken from the cache);
        its diagnostics raised as :class:`~errorbook.diagnostics.InvalidInput`."""
        if self.cached is not None:
            return self.cached, False
        started, self.started = self.started, None
        if started is not None:
            self.made = started.result()
            registry = cache.registry_from_bytes(self.made, self.key)
            if registry is None:
                raise RuntimeError("the registry validated in another process did not arrive")
            return registry, True
        return _validate(self.data, self.shown, self.stable, self.key), True

    def record(self, registry: Registry) -> bytes:
        """The cache file of ``registry``, the registry this loading made."""
        return self.made if self.made is not None else cache.registry_bytes(registry, self.key)

    def stop(self) -> None:
        """Let a validation still under way go (for a caller that failed before it asked)."""
        started, self.started = self.started, None
        if started is not None:
            started.stop()


def begin(config: Config, use_cache: bool = True, ahead: bool = False) -> Loading:
    """Read the configured registry and take it from the cache, or start validating it.

    ``ahead``: the caller imports the pipeline next (see the module's docstring), so the
    validation runs in a forked process meanwhile, where processes can be forked. Diagnostics
    name the file as the user can find it; generated files name it relative to the project
    (or by file name), the same on every machine. ``use_cache=False`` (``generate --force``)
    reads the file whatever the cache holds."""
    stable = config.display(config.registry)
    if PurePosixPath(stable).is_absolute():
        stable = config.registry.name
    try:
        shown = Path(os.path.relpath(config.registry)).as_posix()
        if shown.startswith("../"):
            shown = Path(os.path.abspath(config.registry)).as_posix()
    except ValueError:  # another drive on Windows
        shown = str(config.registry)
    # The registry's own bound (16 MiB) stands unless max-input-mib asks for another.
    limit = config.input_limit if config.max_input_mib is not None else None
    data = source.read_file(config.registry, shown, limit)
    key = cache.registry_key(data, shown, stable)
    loading = Loading(data, shown, stable, key)
    loading.cached = cache.load_registry(cachedir.of(config), key) if use_cache else None
    if loading.cached is None and forks.available():
        overlap = ahead and _PIPELINE not in sys.modules
        if overlap or len(data) >= FORKED_VALIDATION_BYTES:
            task = functools.partial(_validated_record, shown=shown, stable=stable, key=key)
            loading.started = forks.start(task, data)
    return loading


def _validate(data: bytes, shown: str, stable: str, key: str) -> Registry:
    from ..registry import loader
    from ..registry.validate import validate

    registry = validate(loader.load_text(loader.decode(data, shown), shown), shown)
    return dataclasses.replace(registry, path=stable, source=key)


def _validated_record(data: bytes, shown: str, stable: str, key: str) -> bytes:
    """:func:`_validate` in a forked process: the registry as its cache file, which the
    caller unpickles and may write as it is."""
    return cache.registry_bytes(_validate(data, shown, stable, key), key)
