"""``errorbook validate``: check the registry alone."""

from __future__ import annotations

import argparse
import json

from ..config import Config
from . import options

HELP = "check the registry file only"
DESCRIPTION = (
    "Check the registry against its schema and rules, reporting every problem with its line "
    "and column."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.output_format(parser)


def run(args: argparse.Namespace, config: Config) -> int:
    from ..diagnostics import InvalidInput
    from ..pipeline import build

    try:
        registry = build.registry_for(config)
    except InvalidInput as exc:
        if args.format != "json":
            raise
        print(exc.diagnostics.to_json())
        return 1
    counts = {
        ("code", "codes"): len(registry.codes),
        ("layer", "layers"): len(registry.layers),
        ("limit", "limits"): len(registry.limits),
        ("adapter", "adapters"): len(registry.adapters),
    }
    if args.format == "json":
        print(json.dumps([], indent=2))
    else:
        summary = ", ".join(
            f"{n:,} {one if n == 1 else many}" for (one, many), n in counts.items() if n
        )
        print(f"{registry.path}: valid ({summary})")
    return 0
