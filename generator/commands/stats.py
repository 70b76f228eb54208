"""``errorbook stats``: translation progress per locale and domain."""

from __future__ import annotations

import argparse
import json
import sys

from ..config import Config
from . import options

HELP = "show translation progress"
DESCRIPTION = (
    "Count translated, rejected, fuzzy and untranslated entries of every locale's catalogs. "
    "A rejected translation is one `errorbook check` refuses: it is never compiled, so it "
    "is not counted as translated."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.output_format(parser, help="a table for people, json for tools (default: text)")


def collect(config: Config) -> list[dict[str, object]]:
    """One row per locale and domain; a missing catalog counts as all untranslated."""
    from ..catalogs import checks
    from ..catalogs.entries import DOMAINS, entries
    from ..catalogs.paths import catalog_paths
    from ..pipeline import build

    registry = build.registry_for(config)
    existing = build.existing_catalogs(config, registry)
    locales_dir = config.display(config.locales_dir)
    problems, found = checks.check_catalogs(registry, existing, locales_dir, config.domains)
    for locale, domain, path in catalog_paths(registry, locales_dir, config.domains):
        if path in existing and (locale, domain) not in found:
            # Refused as a whole (its header, its encoding, its syntax): the first reason.
            why = next(
                (p for p in problems.items if p.mark.path == path and p.severity == "error"), None
            )
            where = f"{why.mark}: {why.message}" if why is not None else f"{path}: refused"
            print(
                f"errorbook: warning: {where}; the catalog is counted as untranslated until "
                "it is fixed (`errorbook check` lists every problem)",
                file=sys.stderr,
            )
    totals = {domain: len(entries(registry, domain)) for domain in DOMAINS}
    rows: list[dict[str, object]] = []
    for locale in registry.meta.locales:
        for domain in DOMAINS:
            counts = found.get((locale, domain), checks.Counts(0, 0, totals[domain]))
            percent = round(100 * counts.translated / counts.total) if counts.total else 100
            rows.append(
                {
                    "locale": locale,
                    "domain": domain,
                    "translated": counts.translated,
                    "rejected": counts.rejected,
                    "fuzzy": counts.fuzzy,
                    "untranslated": counts.untranslated,
                    "total": counts.total,
                    "percent": percent,
                }
            )
    return rows


def run(args: argparse.Namespace, config: Config) -> int:
    rows = collect(config)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    header = ("locale", "domain", "translated", "rejected", "fuzzy", "untranslated", "done")
    table = [header] + [
        (
            str(r["locale"]),
            str(r["domain"]),
            str(r["translated"]),
            str(r["rejected"]),
            str(r["fuzzy"]),
            str(r["untranslated"]),
            f"{r['percent']}%",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        cells = [
            cell.ljust(w) if i < 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    return 0
