"""``errorbook init-locale LANG``: start the catalogs of a new language."""

from __future__ import annotations

import argparse

from ..config import Config
from ..errors import UsageError

HELP = "start the catalogs of a new language"
DESCRIPTION = (
    "Write empty messages.po and docs.po for LANG with the right Language and Plural-Forms headers."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("locale", metavar="LANG", help="a locale tag such as pt_BR or de")


def run(args: argparse.Namespace, config: Config) -> int:
    from .. import plurals
    from ..catalogs import catalog, pofile
    from ..catalogs.entries import DOMAINS
    from ..catalogs.paths import po_path
    from ..pipeline import build, output
    from ..registry.validate import locale_problem

    tag, problem, hint = locale_problem(args.locale)
    if problem:
        raise UsageError(f"{problem} ({hint})")
    if plurals.lookup(tag) is None:
        raise UsageError(
            f"errorbook has no plural rule for '{tag}'; add its Plural-Forms to "
            "generator/plurals.py"
        )
    registry = build.registry_for(config)
    if tag == registry.meta.source_locale:
        raise UsageError(f"'{tag}' is the source locale; it needs no catalog")
    locales_dir = config.display(config.locales_dir)
    files = {}
    for domain in DOMAINS:
        path = po_path(locales_dir, tag, config.domains[domain])
        if (config.root / path).exists():
            raise UsageError(f"{path} exists already; `errorbook generate` keeps it up to date")
        merged = catalog.merge(registry, domain, tag, None, name=config.domains[domain])
        files[path] = pofile.write(merged)
    for result in output.write(
        config.root, files, every=False, layout=build.layout(config, registry)
    ):
        print(f"{result.status:8} {result.path}")
    if tag not in registry.meta.locales:
        print(
            f"next: add {tag} to registry.locales in {registry.path}, then run `errorbook generate`"
        )
    return 0
