"""A synthetic registry shaped like another project's error catalog, not like Surface's.

Large public catalogs (a query engine's error conditions, say) differ from Surface's registry
in every way errorbook once assumed: names are grouped as ``PARENT.SUB``, some start with an
underscore (``_LEGACY_ERROR_TEMP_1200``) and some run to 80 characters; a parent condition has
no message of its own; each code carries a SQLSTATE; placeholders are named as the system
sends them (``class``, ``message``, ``from``); and nobody wrote a meaning, a recovery, a retry
policy or a transport status for each code. This module writes such a registry, so that the
tests and the benchmark can hold errorbook to taking it as it is.

    python bench/foreign.py DIR --codes 1500    # DIR/codes.yaml and DIR/pyproject.toml

Everything is deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

PYPROJECT = """\
[tool.errorbook]
registry = "codes.yaml"
python-out = "out"
typescript-out = "ts"
site = "site"
"""

WORDS = (
    "column", "table", "schema", "view", "function", "partition", "index", "row", "value",
    "type", "cast", "query", "plan", "join", "window", "stream", "source", "sink", "catalog",
    "namespace", "file", "format", "path", "field", "struct", "map", "array", "decimal",
    "interval", "timestamp", "literal", "expression", "clause", "option", "constraint",
)  # fmt: skip
VERBS = (
    "cannot be resolved", "is not supported", "is ambiguous", "already exists", "was not found",
)  # fmt: skip
NAMES = ("class", "message", "from", "objectName", "proposal", "sqlExpr", "dataType")


def _name(rng: random.Random, words: int) -> str:
    return "_".join(rng.choice(WORDS).upper() for _ in range(words))


def _sqlstate(rng: random.Random) -> str:
    return rng.choice(("42", "22", "0A", "XX", "KD", "HY")) + f"{rng.randrange(1000):03d}"


def _message(rng: random.Random, names: Sequence[str]) -> str:
    parts = [f"The {rng.choice(WORDS)} {{{name}}} {rng.choice(VERBS)}." for name in names]
    if rng.random() < 0.1:  # a multi-line message, as some catalogs write them
        return "\n".join(parts or ["Something went wrong."])
    return " ".join(parts or [f"The {rng.choice(WORDS)} {rng.choice(VERBS)}."])


def names(codes: int, seed: int = 5) -> list[tuple[str, str | None]]:
    """``codes`` names in registry order, each with its parent's name (None for a top one):
    about a fifth are parents with two to six sub-codes, a tenth start with an underscore,
    and some top names are 80 characters long."""
    rng = random.Random(seed)
    found: list[tuple[str, str | None]] = []
    taken: set[str] = set()
    serial = 1000
    while len(found) < codes:
        roll = rng.random()
        if roll < 0.1:
            serial += rng.randint(1, 7)
            name = f"_LEGACY_ERROR_TEMP_{serial}"
        elif roll < 0.15:
            name = (_name(rng, 14) + "_" * 80)[:79].rstrip("_") + "X"
            name = name[:80]
        else:
            name = _name(rng, rng.randint(1, 4))
        if name in taken:
            continue
        taken.add(name)
        found.append((name, None))
        if roll >= 0.15 and rng.random() < 0.2:
            for _ in range(rng.randint(2, 6)):
                sub = f"{name}.{_name(rng, rng.randint(1, 3))}"
                if sub not in taken and len(found) < codes:
                    taken.add(sub)
                    found.append((sub, name))
    return found


def render(codes: int = 1500, seed: int = 5) -> str:
    """The registry as codes.yaml text."""
    rng = random.Random(seed)
    listed = names(codes, seed)
    parents = {parent for _, parent in listed if parent}
    out = [
        "# A catalog shaped like another project's, by bench/foreign.py.",
        "registry:",
        "  name: engine",
        "  title: Engine",
        "  version: 3.5.0",
        "  package: engine_errors",
        "  source_locale: en",
        "  locales: [de]",
        "  docs_url: https://docs.engine.example/errors/",
        "  description: The error conditions of a query engine.",
        "  naming: {pattern: '_?[A-Z][A-Z0-9]*(_[A-Z0-9]+)*', max_length: 80}",
        "layers:",
        "  engine:",
        "    title: Engine",
        "    proves: The engine refused or failed the query.",
        "    description: Every condition the engine reports.",
        "fields:",
        "  sqlstate:",
        "    type: string",
        "    description: The SQLSTATE the engine reports with the condition.",
        "    pattern: '[0-9A-Z]{5}'",
        "    column: true",
        "codes:",
    ]
    for name, parent in listed:
        out.append(f"  {name}:")
        if parent is None:
            out.append("    layer: engine")
        if name in parents:
            out.append('    message: ""')
        else:
            chosen = rng.sample(NAMES, rng.randint(0, 3))
            out.append(f"    message: {json.dumps(_message(rng, chosen))}")
            if chosen:
                out.append("    placeholders:")
                out += [f"      {p}: {{}}" for p in chosen]
        out.append(f"    sqlstate: {json.dumps(_sqlstate(rng))}")
        out.append("    since: 3.0.0")
    return "\n".join(out) + "\n"


def write_project(root: Path, codes: int = 1500, seed: int = 5) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(render(codes, seed), "utf-8")
    base = Path(__file__).resolve().parent.parent / "site" / "mkdocs.base.yml"
    (root / "site").mkdir(exist_ok=True)
    (root / "site" / "mkdocs.base.yml").write_bytes(base.read_bytes())
    return root


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--codes", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    write_project(args.folder, args.codes, args.seed)
    print(f"{args.folder}: {args.codes} codes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
