"""``errorbook generate``: write every output that changed."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..config import Config


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "generate",
        parents=[common],
        help="write every generated file",
        description="Validate the registry and write every generated file "
        "that changed. Unchanged files are not touched.",
    )
    parser.add_argument(
        "--python-out",
        metavar="DIR",
        help="folder for the generated Python package (default: [tool.errorbook] "
        "python-out, or the project folder)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="regenerate even if no input changed since the last run",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, config: Config) -> int:
    from .. import stamp

    if not args.force and stamp.unchanged(config):
        print("0 files changed (no input changed since the last run)")
        return 0
    from .. import build, output  # the full pipeline, only when there is work

    registry = build.registry_for(config)
    files, catalog_run = build.run(config, registry)
    results = output.write(config.root, files)
    output.write_cache(
        config.root,
        stamp.STAMP,
        stamp.record(config, [r.path for r in results if r.status != "removed"]),
    )
    problems = catalog_run.problems
    if problems.items:  # generation goes on; `check` fails on these
        for item in problems.sorted():
            print(item.render().replace(": error: ", ": warning: ", 1), file=sys.stderr)
        print(
            "errorbook: the catalogs have problems (above); translations with problems are "
            "not compiled. Fix them, then run `errorbook check`",
            file=sys.stderr,
        )
    changed = [r for r in results if r.status != "unchanged"]
    for result in changed:
        print(f"{result.status:8} {result.path}")
    print(
        f"{len(changed)} file{'s' if len(changed) != 1 else ''} changed, "
        f"{len(results) - len(changed)} unchanged"
    )
    return 0
