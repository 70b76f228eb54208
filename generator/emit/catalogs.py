"""The gettext catalogs: POT templates, merged PO files per locale, compiled MO files.

Pure like every emitter: the existing PO files come in as bytes (they are translators' work,
an input), and the new files go out as bytes. A PO file that cannot be read strictly stops the
run with a diagnostic, so a broken catalog is never overwritten.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from .. import catalog, pofile
from ..diagnostics import Diagnostics
from ..entries import DOMAINS
from ..registry import Registry

if TYPE_CHECKING:
    from ..checks import Counts


def po_path(locales_dir: str, locale: str, domain: str) -> str:
    return str(PurePosixPath(locales_dir) / locale / "LC_MESSAGES" / f"{domain}.po")


def catalog_paths(registry: Registry, locales_dir: str) -> Iterator[tuple[str, str, str]]:
    """(locale, domain, PO path) of every translators' catalog the registry asks for."""
    for locale in registry.meta.locales:
        for domain in DOMAINS:
            yield locale, domain, po_path(locales_dir, locale, domain)


Merged = dict[tuple[str, str], catalog.StableCatalog]

#: Below this much existing PO text, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


@dataclass
class CatalogRun:
    """Everything one pass over the catalogs produces."""

    files: dict[str, bytes] = field(default_factory=dict)  # POT, PO and MO files
    merged: Merged = field(default_factory=dict)  # kept when the site or TypeScript need it
    unreadable: Diagnostics = field(default_factory=Diagnostics)  # PO files that do not parse
    problems: Diagnostics = field(default_factory=Diagnostics)  # catalog checks
    counts: dict[tuple[str, str], Counts] = field(default_factory=dict)


_JOB: tuple[Registry, Mapping[str, bytes], str, str, bool] | None = None


def _locale(locale: str) -> CatalogRun:
    """Read, check, merge, write and compile one locale's catalogs (a worker's task)."""
    from .. import checks  # checks imports this module for catalog_paths

    assert _JOB is not None
    registry, existing, locales_dir, package_dir, keep = _JOB
    run = CatalogRun()
    counts = {code.name: code.message.count for code in registry.codes}
    for domain in DOMAINS:
        path = po_path(locales_dir, locale, domain)
        data = existing.get(path)
        parsed = None
        if data is not None:
            parsed, lines, problems = pofile.read(data, path, locale, domain)
            if problems.has_errors:
                run.unreadable.extend(problems)
                continue
            run.problems.extend(
                checks.check_catalog(
                    parsed, lines, path, locale, domain, registry, data.decode("utf-8")
                )
            )
            run.counts[(locale, domain)] = checks.counts(parsed)
        merged = catalog.merge(registry, domain, locale, parsed)
        run.files[path] = pofile.write(merged)
        if domain == "messages":
            mo = PurePosixPath(package_dir) / "locales" / locale / "LC_MESSAGES" / "messages.mo"
            run.files[str(mo)] = catalog.compile_mo(merged, counts)
        if keep:
            run.merged[(locale, domain)] = merged
    return run


def workers() -> int:
    """How many processes the catalogs may use: ERRORBOOK_JOBS, or every core."""
    try:
        return (
            max(1, int(os.environ.get("ERRORBOOK_JOBS", "0")))
            if os.environ.get("ERRORBOOK_JOBS")
            else (os.cpu_count() or 1)
        )
    except ValueError:
        return 1


def process(
    registry: Registry,
    existing: Mapping[str, bytes],
    locales_dir: str,
    package_dir: str,
    keep_merged: bool,
) -> CatalogRun:
    """Every locale's catalogs, on all cores when there is enough to do. The result is the
    same, byte for byte, however many processes made it: each locale is one task, and the
    results are put together in the registry's locale order."""
    global _JOB
    _JOB = (registry, existing, locales_dir, package_dir, keep_merged)
    locales = list(registry.meta.locales)
    size = sum(len(data) for data in existing.values())
    count = min(workers(), len(locales))
    try:
        if count > 1 and size >= PARALLEL_MIN_BYTES and "fork" in mp.get_all_start_methods():
            with ProcessPoolExecutor(max_workers=count, mp_context=mp.get_context("fork")) as pool:
                parts = list(pool.map(_locale, locales))
        else:
            parts = [_locale(locale) for locale in locales]
    finally:
        _JOB = None
    run = CatalogRun()
    for domain in DOMAINS:
        run.files[str(PurePosixPath(locales_dir) / f"{domain}.pot")] = pofile.write(
            catalog.template(registry, domain)
        )
    for part in parts:
        run.files.update(part.files)
        run.merged.update(part.merged)
        run.unreadable.extend(part.unreadable)
        run.problems.extend(part.problems)
        run.counts.update(part.counts)
    return run
