"""Everything errorbook generates for one configuration, as one mapping of files.

``generate`` writes this mapping and ``check`` compares it, so the two can never disagree on
what the outputs are.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from . import cache, output
from .checks import counts
from .config import Config
from .diagnostics import InvalidInput
from .emit import Files, catalogs, jsondata, python, site, typescript
from .registry import Registry
from .render import environment
from .validate import load_registry


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Let Python's cycle collector run rarely while a registry or catalogs are built.

    Both build hundreds of thousands of small objects that stay alive, and the collector,
    which by default runs after every 700 allocations, walks all of them each time it
    reaches the older generations: on 10,000 codes in two languages that tripled the time of
    a run. The objects made here hold few reference cycles, so collecting after every
    200,000 allocations instead costs no memory that matters. The previous setting is
    restored, since errorbook also runs inside other programs (MkDocs, hatchling)."""
    previous = gc.get_threshold()
    gc.set_threshold(200_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def registry_for(config: Config) -> Registry:
    with few_collections():
        return _registry_for(config)


def _registry_for(config: Config) -> Registry:
    """Load the configured registry. Diagnostics name the file as the user can find it;
    generated files name it relative to the project (or by file name), the same on every
    machine."""
    stable = config.display(config.registry)
    if PurePosixPath(stable).is_absolute():
        stable = config.registry.name
    try:
        shown = Path(os.path.relpath(config.registry)).as_posix()
        if shown.startswith("../"):
            shown = config.registry.resolve().as_posix()
    except ValueError:  # another drive on Windows
        shown = str(config.registry)
    return dataclasses.replace(load_registry(config.registry, shown), path=stable)


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


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def compiled_catalogs(config: Config, registry: Registry, package_dir: str) -> dict[str, bytes]:
    """The MO files as they are on disk: a locale whose PO file is unchanged keeps its own."""
    found: dict[str, bytes] = {}
    for locale in registry.meta.locales:
        relative = catalogs.mo_path(package_dir, locale)
        data = _read(config.root / relative)
        if data is not None:
            found[relative] = data
    return found


def run(
    config: Config,
    registry: Registry,
    existing: dict[str, bytes] | None = None,
    use_cache: bool = True,
) -> tuple[Files, catalogs.CatalogRun]:
    """Every generated file, and what the pass over the catalogs found. A PO file that does
    not parse stops the run (InvalidInput): it is never overwritten.

    With ``use_cache``, a catalog the last run wrote and nobody changed since is taken as it
    is (see :mod:`generator.cache`); the files are the same either way."""
    with few_collections():
        return _run(config, registry, existing, use_cache)


def _run(
    config: Config, registry: Registry, existing: dict[str, bytes] | None, use_cache: bool
) -> tuple[Files, catalogs.CatalogRun]:
    env = environment(config.templates)
    package_dir = (
        PurePosixPath(config.display(config.python_out)) / registry.meta.package
    ).as_posix()
    if existing is None:
        existing = existing_catalogs(config, registry)
    locales_dir = config.display(config.locales_dir)
    keep = config.site_dir is not None or config.typescript_out is not None
    previous = cache.load(config.root) if use_cache else None
    catalog_run = catalogs.process(
        registry,
        existing,
        locales_dir,
        package_dir,
        keep,
        compiled=compiled_catalogs(config, registry, package_dir) if use_cache else None,
        previous=previous,
    )
    if catalog_run.unreadable.has_errors:
        raise InvalidInput(catalog_run.unreadable)
    merged = catalog_run.merged
    files: dict[str, bytes] = {}
    files.update(python.emit(registry, env, package_dir))
    files.update(jsondata.emit(registry, env, package_dir))
    files.update(catalog_run.files)
    messages = {locale: c for (locale, d), c in merged.items() if d == "messages"}
    if config.typescript_out is not None:
        files.update(
            typescript.emit(registry, env, config.display(config.typescript_out), messages)
        )
    if config.site_dir is not None:
        pages = None
        if config.templates is None:  # see site.PageCache: only the shipped templates
            pages = site.PageCache(
                cache.templates_fingerprint(),
                previous.pages if previous is not None else {},
                lambda name: _read(config.root / name),
            )
        files.update(
            site.emit(
                registry,
                env,
                config.display(config.site_dir),
                docs={locale: c for (locale, domain), c in merged.items() if domain == "docs"},
                messages=messages,
                progress={key: counts(c) for key, c in merged.items()},
                pages=read_pages(config),
                cache=pages,
            )
        )
        if pages is not None:
            catalog_run.cache.pages = pages.made
    files[output.MANIFEST] = output.manifest(list(files), registry.path)
    return files, catalog_run


def regenerate(
    config: Config, plain: bool = True, use_cache: bool = True
) -> tuple[list[output.FileStatus], catalogs.CatalogRun]:
    """What ``errorbook generate`` does after its stamp check: every output written (only
    those that changed), then the catalog cache and the stamp the next run starts from.

    ``plain`` says the configuration came from pyproject.toml alone (see
    :func:`stamp.record`)."""
    from . import stamp

    registry = registry_for(config)
    files, catalog_run = run(config, registry, use_cache=use_cache)
    results = output.write(config.root, files)
    output.write_cache(config.root, cache.CATALOGS, catalog_run.cache.to_bytes())
    written = [r.path for r in results if r.status != "removed"]
    output.write_cache(config.root, stamp.STAMP, stamp.record(config, written, plain=plain))
    return results, catalog_run


def outputs(config: Config, registry: Registry, existing: dict[str, bytes] | None = None) -> Files:
    """Every generated file (see :func:`run`)."""
    return run(config, registry, existing)[0]


def read_pages(config: Config) -> dict[str, str]:
    """Hand-written pages: every <site>/pages/*.md, by file name (an input, like a PO file)."""
    assert config.site_dir is not None
    folder = config.site_dir / "pages"
    found = {p.stem: p.read_text("utf-8") for p in sorted(folder.glob("*.md"))}
    return found or {
        "guide": "# Using errorbook\n\nSee the README of the project that publishes this site.\n"
    }
