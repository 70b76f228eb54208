"""``errorbook check``: prove the generated files match the registry, writing nothing."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..config import Config


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "check",
        parents=[common],
        help="fail if a generated file is stale",
        description="Validate the registry and compare every generated file "
        "with what generate would write. Writes nothing.",
    )
    parser.add_argument("--python-out", metavar="DIR", help="as for generate")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also fail when the registry's version does not fit its changes "
        "since REV (a file, a git revision or REV:PATH)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, config: Config) -> int:
    from .. import build, compat, output, revisions
    from ..diagnostics import InvalidInput

    registry = build.registry_for(config)
    try:
        files, catalog_run = build.run(config, registry)
        problems = catalog_run.problems
    except InvalidInput as exc:  # a catalog that cannot be read: nothing to compare
        files, problems = {}, exc.diagnostics
    if problems.items:
        sys.stderr.write(problems.render())
    if problems.has_errors:
        count = len(problems.items)
        print(
            f"errorbook: {count} problem{'s' if count != 1 else ''} in the catalogs; fix "
            "them in the PO files named above, then run `errorbook check` again",
            file=sys.stderr,
        )
    if not files:
        return 1
    results = output.compare(config.root, files)
    drift = [r for r in results if r.status != "unchanged"]
    for result in drift:
        print(f"{result.status:8} {result.path}")
    status = 1 if problems.has_errors else 0
    for path in output.foreign(config.root, drift):
        print(
            f"errorbook: {path} exists and was not written by errorbook, so `errorbook "
            "generate` will not overwrite it; move it away, or point python-out, site or "
            "typescript-out elsewhere",
            file=sys.stderr,
        )
    if drift:
        then = "once the PO files are fixed, run" if problems.has_errors else "run"
        print(
            f"errorbook: {len(drift)} generated file{'s are' if len(drift) != 1 else ' is'} "
            f"out of date with the registry, the catalogs or the templates; {then} "
            "`errorbook generate` to update"
        )
        status = 1
    if args.against:  # the registry against an older one: independent of the outputs
        old = revisions.load_side(args.against, config)
        changes = compat.diff(old, registry)
        for problem in compat.version_problems(old, registry, changes):
            print(f"errorbook: {problem}", file=sys.stderr)
            status = 1
        if changes:
            print(
                f"{len(changes)} change{'s' if len(changes) != 1 else ''} since "
                f"{old.meta.version} ({args.against}); `errorbook diff {args.against}` lists "
                "them"
            )
    if status == 0:
        print(f"{len(results)} generated files are up to date with {registry.path}")
    return status
