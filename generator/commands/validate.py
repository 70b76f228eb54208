"""``errorbook validate``: check the registry alone."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..config import Config


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "validate",
        parents=[common],
        help="check the registry file only",
        description="Check the registry against its schema and rules, "
        "reporting every problem with its line and column.",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for people, json for tools (default: text)",
    )
    parser.set_defaults(run=run)


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
        "codes": len(registry.codes),
        "layers": len(registry.layers),
        "limits": len(registry.limits),
        "adapters": len(registry.adapters),
    }
    if args.format == "json":
        print(json.dumps([], indent=2))
    else:
        summary = ", ".join(f"{n} {what}" for what, n in counts.items())
        print(f"{registry.path}: valid ({summary})")
    return 0
