"""``errorbook check``: prove the generated files match the registry, writing nothing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config import Config
from . import options

if TYPE_CHECKING:
    from ..diagnostics import Diagnostics
    from ..pipeline.output import FileStatus, Output
    from ..registry.model import Registry


HELP = "fail if a generated file is stale"
DESCRIPTION = (
    "Validate the registry and compare every generated file with what generate would write. "
    "Writes nothing."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.python_out(parser)
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also fail when the registry's version does not fit its changes "
        "since REV (a file, a git revision or REV:PATH)",
    )
    options.output_format(parser)


@dataclass(frozen=True)
class Found:
    """What check found before comparing: the registry (None when the stamp answered, see
    :func:`stamp.proven`), the outputs to compare with the disk (none when the stamp
    proves them, or when a catalog cannot be read), the catalogs' problems, how many
    outputs there are, and the registry as they name it."""

    registry: Registry | None
    files: Mapping[str, Output]
    problems: Diagnostics
    count: int
    source: str

    @classmethod
    def of(cls, config: Config) -> Found:
        """From the stamp when it proves the tree is the one the last generate left, else by
        building every output."""
        from ..pipeline import build, stamp

        proof = stamp.proven(config)
        if proof is not None:
            return cls(None, {}, proof.problems, proof.outputs, proof.registry)
        registry = build.registry_for(config)
        files, problems = _catalogs(config, registry)
        return cls(registry, files, problems, len(files), registry.path)

    def the_registry(self, config: Config) -> Registry:
        from ..pipeline import build

        return self.registry or build.registry_for(config)


def _catalogs(config: Config, registry: Registry) -> tuple[Mapping[str, Output], Diagnostics]:
    """Every output ``generate`` would write, and the catalogs' problems; no outputs when a
    catalog cannot be read, since there is then nothing to compare."""
    from ..diagnostics import InvalidInput
    from ..pipeline import build

    try:
        files, catalog_run = build.run(config, registry)
    except InvalidInput as exc:
        return {}, exc.diagnostics
    return files, catalog_run.on_disk


def _drift(
    config: Config, registry: Registry, files: Mapping[str, Output]
) -> tuple[list[FileStatus], list[str]]:
    """The outputs that differ from the disk, and those of them another tool wrote. The
    comparison refuses what `generate` refuses (an untrusted manifest line, a link)."""
    from ..pipeline import build, output

    layout = build.layout(config, registry)
    drift = [r for r in output.compare(config.root, files, layout) if r.status != "unchanged"]
    return drift, output.foreign(config.root, drift)


def run(args: argparse.Namespace, config: Config) -> int:
    from ..registry import compat, revisions

    if args.format == "json":
        return _as_json(args, config)
    found = Found.of(config)
    problems = found.problems
    if problems.items:
        sys.stderr.write(problems.render(with_id=True))
    if problems.has_errors:
        count = len(problems.items)
        # Nearly always the catalogs' problems; a broken template is the other kind.
        po = all(item.mark.path.endswith((".po", ".pot")) for item in problems.items)
        print(
            f"errorbook: {count} problem{'s' if count != 1 else ''} "
            f"{'in the catalogs' if po else 'found'}; fix them in the "
            f"{'PO files' if po else 'files'} named above, then run `errorbook check` again",
            file=sys.stderr,
        )
    status = 1 if problems.has_errors else 0
    if found.files:  # else proven, or a catalog could not be read: nothing to compare
        assert found.registry is not None
        status = max(status, _outputs(config, found.registry, found.files, problems.has_errors))
    if args.against:  # the registry against an older one: independent of the outputs
        registry = found.the_registry(config)
        old = revisions.load_side(args.against, config)
        changes = compat.diff(old, registry)
        versions = compat.version_problems(old, registry, changes)
        if versions.items:
            sys.stderr.write(versions.render(with_id=True))
            status = 1
        if changes:
            print(
                f"{len(changes)} change{'s' if len(changes) != 1 else ''} since "
                f"{old.meta.version} ({args.against}); `errorbook diff {args.against}` lists "
                "them"
            )
    if status == 0:
        print(f"{found.count} generated files are up to date with {found.source}")
    return 1 if not found.count else status


def _outputs(
    config: Config, registry: Registry, files: Mapping[str, Output], po_errors: bool
) -> int:
    """Compare the outputs with what is on disk and say what to do: 1 when any differ."""
    from ..pipeline import output

    drift, foreign = _drift(config, registry, files)
    for result in drift:
        print(f"{result.status:8} {result.path}")
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


def _as_json(args: argparse.Namespace, config: Config) -> int:
    """What the text report says, as one JSON object on standard output: the problems (each
    with its id), the outputs that are out of date, and the version check of --against."""
    from ..diagnostics import Diagnostics, InvalidInput
    from ..registry import compat, revisions

    count = 0  # the outputs (none when the registry or a catalog cannot be read)
    drift: list[FileStatus] = []
    foreign: list[str] = []
    against: dict[str, object] | None = None
    try:
        found = Found.of(config)
        problems, count = found.problems, found.count
        if found.files:
            assert found.registry is not None
            drift, foreign = _drift(config, found.registry, found.files)
    except InvalidInput as exc:  # the registry or the manifest cannot be used
        problems = exc.diagnostics
    else:
        if args.against:
            registry = found.the_registry(config)
            old = revisions.load_side(args.against, config)
            changes = compat.diff(old, registry)
            versions = compat.version_problems(old, registry, changes)
            # With their ids and places, as every other problem.
            problems = Diagnostics([*problems.items, *versions.items])
            against = {
                "source": args.against,
                "version": old.meta.version,
                "changes": len(changes),
                "version_problems": compat.problem_lines(versions),
            }
    failed = not count or problems.has_errors or drift or (against and against["version_problems"])
    report = {
        "ok": not failed,
        "problems": [d.as_dict() for d in problems.sorted()],
        "counts": problems.counts(),
        "outdated": [{"path": r.path, "status": r.status} for r in drift],
        "foreign": foreign,
        "against": against,
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 1 if failed else 0
