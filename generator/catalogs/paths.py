"""Where the catalogs live: the file of each locale and domain, the templates, the MO files.

Every stage that names a catalog file (the catalog pass, its checks, the commands) asks here,
so the layout is written down once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath

from ..registry.model import Registry
from .entries import DOMAINS

#: Each domain (by role, entries.DOMAINS) to the file name of its catalogs, by default.
NAMES: Mapping[str, str] = {domain: domain for domain in DOMAINS}


def po_path(locales_dir: str, locale: str, name: str) -> str:
    """The PO file of a locale in the domain whose file name is ``name``."""
    return str(PurePosixPath(locales_dir) / locale / "LC_MESSAGES" / f"{name}.po")


def pot_path(locales_dir: str, name: str) -> str:
    """The template of the domain whose file name is ``name``."""
    return str(PurePosixPath(locales_dir) / f"{name}.pot")


def catalog_paths(
    registry: Registry, locales_dir: str, names: Mapping[str, str] = NAMES
) -> Iterator[tuple[str, str, str]]:
    """(locale, domain, PO path) of every translators' catalog the registry asks for;
    ``names`` gives each domain's file name (Config.domains)."""
    for locale in registry.meta.locales:
        for domain in DOMAINS:
            yield locale, domain, po_path(locales_dir, locale, names[domain])


def mo_path(package_dir: str, locale: str) -> str:
    return str(PurePosixPath(package_dir) / "locales" / locale / "LC_MESSAGES" / "messages.mo")
