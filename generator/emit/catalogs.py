"""The gettext catalogs: POT templates, merged PO files per locale, compiled MO files.

Pure like every emitter: the existing PO files come in as bytes (they are translators' work,
an input), and the new files go out as bytes. A PO file that cannot be read strictly stops the
run with a diagnostic, so a broken catalog is never overwritten.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath

from .. import catalog, pofile
from ..diagnostics import Diagnostics, InvalidInput
from ..entries import DOMAINS
from ..registry import Registry
from . import Files


def po_path(locales_dir: str, locale: str, domain: str) -> str:
    return str(PurePosixPath(locales_dir) / locale / "LC_MESSAGES" / f"{domain}.po")


def catalog_paths(registry: Registry, locales_dir: str) -> Iterator[tuple[str, str, str]]:
    """(locale, domain, PO path) of every translators' catalog the registry asks for."""
    for locale in registry.meta.locales:
        for domain in DOMAINS:
            yield locale, domain, po_path(locales_dir, locale, domain)


def read_existing(
    registry: Registry, existing: Mapping[str, bytes], locales_dir: str
) -> dict[tuple[str, str], catalog.StableCatalog]:
    """Parse the translators' PO files strictly; any problem stops the run."""
    found = Diagnostics()
    parsed: dict[tuple[str, str], catalog.StableCatalog] = {}
    for locale, domain, path in catalog_paths(registry, locales_dir):
        data = existing.get(path)
        if data is None:
            continue
        cat, _, problems = pofile.read(data, path, locale, domain)
        found.extend(problems)
        parsed[(locale, domain)] = cat
    if found.has_errors:
        raise InvalidInput(found)
    return parsed


Merged = dict[tuple[str, str], catalog.StableCatalog]


def merge_all(registry: Registry, existing: Mapping[str, bytes], locales_dir: str) -> Merged:
    """Every target locale's catalogs, merged with the current registry (see catalog.merge)."""
    parsed = read_existing(registry, existing, locales_dir)
    return {
        (locale, domain): catalog.merge(registry, domain, locale, parsed.get((locale, domain)))
        for locale in registry.meta.locales
        for domain in DOMAINS
    }


def emit(registry: Registry, merged: Merged, locales_dir: str, package_dir: str) -> Files:
    """POT, PO and MO files for every domain and target locale."""
    files: dict[str, bytes] = {}
    counts = {code.name: code.message.count for code in registry.codes}
    for domain in DOMAINS:
        files[str(PurePosixPath(locales_dir) / f"{domain}.pot")] = pofile.write(
            catalog.template(registry, domain)
        )
    for (locale, domain), result in merged.items():
        files[po_path(locales_dir, locale, domain)] = pofile.write(result)
        if domain == "messages":
            mo = PurePosixPath(package_dir) / "locales" / locale / "LC_MESSAGES" / "messages.mo"
            files[str(mo)] = catalog.compile_mo(result, counts)
    return files
