"""``errorbook diff OLD NEW``: what changed between two versions of a registry."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..config import Config
from . import options

if TYPE_CHECKING:
    from ..registry import compat

SYMBOL = {"breaking": "!", "compatible": "+", "cosmetic": "~"}


HELP = "compare two versions of the registry"
DESCRIPTION = (
    "Compare two versions of the registry: each side is a file, a git revision (HEAD~1, "
    "origin/main, a tag) or REV:PATH. Exit status 1 when any change breaks clients, 0 "
    "otherwise."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", metavar="OLD", help="the earlier version")
    parser.add_argument(
        "new",
        metavar="NEW",
        nargs="?",
        help="the later version (default: the registry file as it is now)",
    )
    options.output_format(
        parser,
        ("text", "markdown", "json"),
        "text for people, markdown for a pull request, json for tools (default: text)",
    )


def report(
    old_name: str,
    new_name: str,
    old_version: str,
    new_version: str,
    changes: list[compat.Change],
    problems: list[str],
    fmt: str,
) -> str:
    from ..registry import compat

    severity = compat.worst(changes)
    needed = compat.required_version(old_version, changes)
    if fmt == "json":
        return (
            json.dumps(
                {
                    "old": {"source": old_name, "version": old_version},
                    "new": {"source": new_name, "version": new_version},
                    "breaking": severity == "breaking",
                    "required_version": needed,
                    "version_problems": problems,
                    "changes": [c.as_dict() for c in changes],
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    counts = {s: sum(1 for c in changes if c.severity == s) for s in compat.ORDER}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no changes"
    if fmt == "markdown":
        summary = summary[:1].upper() + summary[1:]  # it begins a sentence there
    if fmt == "markdown":
        lines = [
            f"### Registry changes: {md_text(old_version)} → {md_text(new_version)}",
            "",
            f"{summary}. Required version: **{md_text(needed)}**.",
            "",
        ]
        if changes:
            lines += ["| | What | Change | Why |", "|---|---|---|---|"]
            for c in changes:
                what = f"{c.entity} {md_code(c.name)}"
                what += f" ({md_text(c.field)})" if c.field else ""
                detail = c.kind + _values(md_code(c.old), md_code(c.new), "{}", " → ")
                lines.append(f"| {c.severity} | {what} | {detail} | {md_text(c.reason)} |")
        lines += [""] + [f"- :warning: {md_text(p)}" for p in problems]
        return "\n".join(lines).rstrip() + "\n"
    lines = [f"{old_name} ({old_version}) -> {new_name} ({new_version}): {summary}"]
    for c in changes:
        what = f"{c.entity} {c.name}" + (f" {c.field}" if c.field else "")
        detail = _values(c.old, c.new, "{}", " -> ")
        lines.append(f"  {SYMBOL[c.severity]} {c.severity:10} {c.kind:10} {what}{detail}")
        lines.append(f"      {c.reason}")
    lines.append(f"required version: {needed}")
    lines += problems  # warnings here: `check --against` fails on them
    return "\n".join(lines) + "\n"


#: The characters that can begin inline Markdown (emphasis, code, links, images, HTML, a
#: reference, strike-through, a table's cell break). Block syntax needs a line of its own,
#: which text here never gets: its line breaks are shown as escapes.
MARKUP = frozenset("\\`*_[]<>&|!~")


def md_text(text: str) -> str:
    """Text as Markdown that stays text, in a table cell too: each character that can begin
    markup a character reference, and every control character, line breaks included, shown
    as an escape (a row stays one line)."""
    out = []
    for char in text:
        if char in MARKUP:
            out.append(f"&#{ord(char)};")
        elif not char.isprintable() and char != " ":
            shown = char.encode("unicode_escape").decode("ascii")
            out.append(shown.replace("\\", "&#92;"))
        else:
            out.append(char)
    return "".join(out)


def md_code(value: str) -> str:
    """A value shown as code: HTML's ``<code>`` around :func:`md_text` (a Markdown code span
    cannot hold a '|' in a table cell, nor a backslash before one, as written)."""
    return f"<code>{md_text(value)}</code>" if value else ""


def _values(old: str, new: str, shown: str, arrow: str) -> str:
    """A change's values after its kind: both, or the one there is (a code added gives no
    old value, a field removed no new one)."""
    if old and new:
        return f": {shown.format(old)}{arrow}{shown.format(new)}"
    if old or new:
        return f": {shown.format(old or new)}"
    return ""


def run(args: argparse.Namespace, config: Config) -> int:
    from ..pipeline import build
    from ..registry import compat, revisions

    old = revisions.load_side(args.old, config)
    new = revisions.load_side(args.new, config) if args.new else build.registry_for(config)
    changes = compat.diff(old, new)
    problems = compat.problem_lines(compat.version_problems(old, new, changes))
    print(
        report(
            old.path, new.path, old.meta.version, new.meta.version, changes, problems, args.format
        ),
        end="",
    )
    return 1 if compat.worst(changes) == "breaking" else 0
