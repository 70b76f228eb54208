"""``errorbook generate``: write every output that changed."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op run)
if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from ..config import Config
    from ..diagnostics import Diagnostics


HELP = "write every generated file"
DESCRIPTION = (
    "Validate the registry and write every generated file that changed. Unchanged files are "
    "not touched."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from . import options

    options.python_out(parser)
    parser.add_argument(
        "--force",
        action="store_true",
        help="regenerate even if no input changed since the last run",
    )


def nothing_to_do(root: str | Path, refreshed: bytes | None, problems: list[object]) -> int:
    """The answer of a run that found every input and output as the stamp recorded them;
    ``problems`` are the catalogs' problems the stamp holds (``stamp.verify``)."""
    from ..pipeline import stamp

    if refreshed is not None:  # some stat changed, no content did: note the new stats
        from pathlib import Path

        from ..pipeline import cachedir, output

        folder = cachedir.folder(str(root))
        if folder is not None:
            output.write_cache(Path(folder), stamp.STAMP, refreshed)
    # The catalogs are the ones the last run warned about: the warnings stand until the
    # PO files change, and a run that changes nothing says them again.
    recorded = stamp.recorded_problems(problems)
    if recorded is not None:
        report(recorded)
    print("0 files changed (no input changed since the last run)")
    return 0


def report(problems: Diagnostics) -> None:
    """The catalogs' problems, as warnings: generation goes on, and `check` fails on them."""
    if not problems.items:
        return
    for item in problems.sorted():
        print(item.render(with_id=True).replace(": error: ", ": warning: ", 1), file=sys.stderr)
    if problems.has_errors:
        print(
            "errorbook: the catalogs have problems (above); translations with problems "
            "are not compiled. Fix them, then run `errorbook check`",
            file=sys.stderr,
        )


def run(args: argparse.Namespace, config: Config) -> int:
    from ..pipeline import stamp

    if not args.force:
        fresh, refreshed, problems = stamp.verify(config)
        if fresh:
            return nothing_to_do(config.root, refreshed, problems)
    from ..pipeline import loading

    # The registry is validated in another process while this one imports the pipeline.
    started = loading.begin(config, use_cache=not args.force, ahead=True)
    try:
        from ..pipeline import build  # the full pipeline, only when there is work

        results, catalog_run = build.regenerate(
            config,
            plain=not (args.registry or args.config or args.python_out),
            use_cache=not args.force,
            started=started,
        )
    finally:
        started.stop()
    report(catalog_run.changes)  # what the merge replaced, before what fails check
    report(catalog_run.problems)
    changed = [r for r in results if r.status not in ("unchanged", "left")]
    left = [r for r in results if r.status == "left"]
    for result in sorted([*changed, *left], key=lambda r: r.path):
        print(f"{result.status:8} {result.path}")
    print(
        f"{len(changed)} file{'s' if len(changed) != 1 else ''} changed, "
        f"{len(results) - len(changed) - len(left)} unchanged"
    )
    if left:
        print(left_behind(len(left)))
    return 0


def left_behind(count: int) -> str:
    """What to do about files errorbook wrote under an earlier configuration: they lie
    outside every folder it now writes, so it does not remove them (it could not prove
    they are still its own to remove)."""
    files = f"{count} file{'s' if count != 1 else ''}"
    return (
        f"errorbook: {files} marked 'left' {'were' if count != 1 else 'was'} generated "
        "before, outside the folders errorbook now writes to; errorbook leaves them where "
        "they are: delete them yourself if they are no longer needed"
    )
