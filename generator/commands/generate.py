"""``errorbook generate``: write every output that changed."""

from __future__ import annotations

import argparse
from typing import Any

from .. import build, output
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, config: Config) -> int:
    registry = build.registry_for(config)
    results = output.write(config.root, build.outputs(config, registry))
    changed = [r for r in results if r.status != "unchanged"]
    for result in changed:
        print(f"{result.status:8} {result.path}")
    print(
        f"{len(changed)} file{'s' if len(changed) != 1 else ''} changed, "
        f"{len(results) - len(changed)} unchanged"
    )
    return 0
