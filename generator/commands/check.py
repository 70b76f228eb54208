"""``errorbook check``: prove the generated files match the registry, writing nothing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..config import Config

if TYPE_CHECKING:
    from ..registry.model import Registry


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
    from ..diagnostics import InvalidInput
    from ..pipeline import build
    from ..registry import compat, revisions

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
    status = 1 if problems.has_errors else 0
    if files:  # else a catalog could not be read, and there is nothing to compare
        status = max(status, _outputs(config, registry, files, problems.has_errors))
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
        print(f"{len(files)} generated files are up to date with {registry.path}")
    return 1 if not files else status


def _outputs(
    config: Config, registry: Registry, files: Mapping[str, bytes], po_errors: bool
) -> int:
    """Compare the outputs with what is on disk and say what to do: 1 when any differ.
    The comparison refuses what `generate` refuses (an untrusted manifest line, a link)."""
    from ..pipeline import build, output

    layout = build.layout(config, registry)
    drift = [r for r in output.compare(config.root, files, layout) if r.status != "unchanged"]
    for result in drift:
        print(f"{result.status:8} {result.path}")
    foreign = output.foreign(config.root, drift)
    for path in foreign:
        print(
            f"errorbook: {path} exists and was not written by errorbook, so `errorbook "
            f"generate` will not overwrite it; {output.MOVE_IT}",
            file=sys.stderr,
        )
    if not drift:
        return 0
    first = [
        *(["the PO files are fixed"] if po_errors else []),
        *(["the files named above are moved away"] if foreign else []),
    ]
    then = f"once {' and '.join(first)}, run" if first else "run"
    print(
        f"errorbook: {len(drift)} generated file{'s are' if len(drift) != 1 else ' is'} "
        f"out of date with the registry, the catalogs or the templates; {then} "
        "`errorbook generate` to update"
    )
    return 1
