"""``errorbook usage PATH...``: codes never used, and used names that are not codes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config
from ..errors import UsageError
from ..suggest import nearest, quoted
from . import options

if TYPE_CHECKING:
    from ..registry.model import Code


HELP = "find unused and undefined codes in Python sources"
DESCRIPTION = (
    "Scan Python files (by syntax tree) for uses of the registry's codes. Exit status 1 when "
    "a name is used that the registry does not define, or when a code that is still emitted "
    "is never used."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", metavar="PATH", nargs="+", help="files or folders to scan")
    parser.add_argument(
        "--allow-unused", action="store_true", help="report unused codes without failing"
    )
    options.output_format(parser)


def _replacement(code: Code) -> str | None:
    return code.deprecated.replaced_by if code.deprecated is not None else None


def run(args: argparse.Namespace, config: Config) -> int:
    from .. import usage
    from ..pipeline import build

    registry = build.registry_for(config)
    defined = {code.name: code for code in registry.codes}
    package = config.python_out / registry.meta.package
    roots = [Path(p) for p in args.paths]
    missing = [str(p) for p in roots if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    uses: list[usage.Use] = []
    problems: list[str] = []
    files = usage.python_files(roots, exclude=[package])
    for path in files:
        found, problem = usage.scan(path, path.as_posix())
        uses += found
        if problem:
            problems.append(problem)
    undefined = [u for u in uses if u.name not in defined]
    used = {u.name for u in uses}
    unused = [c for c in registry.codes if c.name not in used and c.retired is None]
    deprecated = [u for u in uses if u.name in defined and defined[u.name].deprecated]
    if args.format == "json":
        print(
            json.dumps(
                {
                    "files": len(files),
                    "undefined": [u.__dict__ for u in undefined],
                    "unused": [c.name for c in unused],
                    "deprecated": [
                        {**u.__dict__, "replaced_by": _replacement(defined[u.name])}
                        for u in deprecated
                    ],
                    "problems": problems,
                },
                indent=2,
            )
        )
    else:
        names = list(defined)
        for u in undefined:
            near = nearest(u.name, names)
            meant = f"; did you mean {quoted(near)}?" if near else ""
            print(
                f"{u.path}:{u.line}:{u.column}: error: '{u.name}' is not a code of "
                f"{registry.path} ({u.how}{meant})"
            )
        for u in deprecated:
            info = defined[u.name].deprecated
            instead = f"; use {info.replaced_by}" if info and info.replaced_by else ""
            print(f"{u.path}:{u.line}:{u.column}: warning: {u.name} is deprecated{instead}")
        for code in unused:
            print(
                f"{registry.path}:{code.mark.line}:{code.mark.column}: "
                f"{'warning' if args.allow_unused else 'error'}: {code.name} is never used "
                f"in {len(files)} scanned file{'s' if len(files) != 1 else ''}"
            )
        for problem in problems:
            print(problem)
        print(
            f"{len(files)} file{'s' if len(files) != 1 else ''} scanned: {len(undefined)} "
            f"undefined, {len(unused)} unused, {len(deprecated)} deprecated "
            f"use{'s' if len(deprecated) != 1 else ''}"
        )
    failed = bool(undefined or problems or (unused and not args.allow_unused))
    return 1 if failed else 0
