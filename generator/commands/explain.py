"""``errorbook explain CODE``: what a code means and how to recover, from the registry."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import textwrap
from typing import TYPE_CHECKING

from ..config import Config
from ..errors import UsageError
from ..registry import placeholders
from . import options

if TYPE_CHECKING:
    from ..registry.model import Code, Registry

#: How each envelope form looks, by the form's name.
ENVELOPES = {
    "error": '{"ok": false, "error": {"code": ...}}',
    "result": '{"ok": true, "result": {"error": {"code": ...}}}',
}


HELP = "explain one error code"
DESCRIPTION = (
    "Print a code's title, layer, meaning, recovery, retry policy and limits, as the "
    "registry declares them."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", metavar="CODE", help="the code's name, in any case")
    options.output_format(parser)


#: What explain shows exactly as codes.json has it, in explain's order after "limits".
SHARED_TAIL = (
    "related",
    "http_status",
    "jsonrpc_code",
    "since",
    "status",
    "deprecated",
    "retired",
    "docs_url",
)


def facts(registry: Registry, code: Code) -> dict[str, object]:
    """Everything ``explain`` shows, as plain data (the JSON output).

    Values that codes.json also holds are taken from :meth:`Registry.record`, so the two can
    never disagree; the rest are views of explain's own (the layer spelled out, the message
    by form, placeholders by name, each limit with its range)."""
    record = registry.record(code)
    layer = registry.layer(code.layer)
    form = registry.envelope(code)
    return {
        "code": record["code"],
        "title": record["title"],
        "layer": {
            "id": layer.id,
            "title": layer.title,
            "proves": layer.proves,
            "actor": layer.actor,
        },
        "shape": code.shape,
        "envelope": ENVELOPES[form.value] if form else None,
        "shape_reason": code.shape_reason or None,
        "message": {
            "one": code.message.text,
            "other": code.message.plural,
            "count": code.message.count,
        }
        if code.message.is_plural
        else code.message.text,
        "placeholders": {
            p.name: {
                "description": p.description or None,
                "example": p.example,
                "type": p.type,
            }
            for p in code.placeholders
        },
        "meaning": record["meaning"],
        "rationale": code.rationale or None,
        "recovery": record["recovery"],
        "retry": {
            "policy": code.retry.policy.value,
            "limit": code.retry.limit,
            "summary": code.retry.describe(),
        }
        if code.retry
        else None,
        "limits": [
            {
                "id": limit.id,
                "title": limit.title,
                "default": limit.default,
                "unit": limit.unit,
                "min": limit.minimum,
                "max": limit.maximum,
            }
            for limit in map(registry.limit, code.limits)
        ],
        **{key: record.get(key) for key in SHARED_TAIL},
        **({"fields": record["fields"]} if registry.fields else {}),
        **(_family(registry, code) if any(c.parent for c in registry.codes) else {}),
    }


def _family(registry: Registry, code: Code) -> dict[str, object]:
    """A code's parent and sub-codes, for a registry that has sub-codes at all."""
    return {"parent": code.parent, "children": [c.name for c in registry.children(code.name)]}


def _para(text: str, indent: str = "  ") -> str:
    return textwrap.fill(
        " ".join(text.split()), width=78, initial_indent=indent, subsequent_indent=indent
    )


def _message(form: str) -> list[str]:
    """A message form as a reader sees it: its literal braces single, each line of it wrapped
    on its own and an empty line kept, so that the text keeps the breaks it was written with."""
    lines = [line if line.strip() else "" for line in placeholders.shown(form).split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return [_para(line) if line else "" for line in lines]


def as_text(registry: Registry, code: Code) -> str:
    layer = registry.layer(code.layer)
    lines = [f"{code.name}", ""]
    if code.title:
        lines.append(f"Title:    {code.title}")
    acts = f"; {layer.actor} must act" if layer.actor else ""
    lines.append(f"Layer:    {layer.title} ({layer.id}){acts}")
    lines.append(_para(layer.proves, " " * 10))
    travels = registry.envelope(code)
    if code.shape and travels:
        lines.append(f"Shape:    {code.shape}  {ENVELOPES[travels.value]}")
    if code.shape_reason:
        lines.append(_para(code.shape_reason, "          "))
    wires = []
    if registry.uses("http"):
        wires.append(f"HTTP {registry.http_status(code)}")
    if registry.uses("jsonrpc"):
        wires.append(
            f"JSON-RPC {code.jsonrpc}"
            if code.jsonrpc is not None
            else "JSON-RPC result (not an error)"
        )
    if wires:
        lines.append(f"Wire:     {', '.join(wires)}")
    if code.since:
        lines.append(f"Since:    {code.since}")
    if code.parent:
        lines.append(f"Parent:   {code.parent}")
    children = [c.name for c in registry.children(code.name)]
    if children:
        lines.append(_para("Sub-codes: " + ", ".join(children), "").replace("\n", "\n" + " " * 11))
    if code.retired is not None:
        lines.append(
            f"Status:   RETIRED since {code.retired.since}: no longer emitted; kept so "
            "that old envelopes can be read and the name is never reused"
        )
        if code.retired.reason:
            lines.append(_para(code.retired.reason, " " * 10))
    elif code.deprecated is not None:
        instead = f"; use {code.deprecated.replaced_by}" if code.deprecated.replaced_by else ""
        lines.append(f"Status:   deprecated since {code.deprecated.since}{instead}")
        if code.deprecated.reason:
            lines.append(_para(code.deprecated.reason, " " * 10))
    lines += ["", "Message:"]
    if not code.message.text:
        lines.append("  (none of its own: programs show the code's name)")
    forms = [_message(form) for form in code.message.forms if form]
    for index, form in enumerate(forms):
        if index and any(len(f) > 1 for f in forms):  # forms of several lines: keep apart
            lines.append("")
        lines += form
    if code.meaning:
        lines += ["", "Meaning:", _para(code.meaning)]
    if code.rationale:
        lines += ["", "Why this code exists:", _para(code.rationale)]
    if code.recovery is not None:
        kind = f" ({code.recovery.kind})" if code.recovery.kind else ""
        lines += ["", f"Recovery{kind}:"]
        if summary := registry.recovery_summary(code):
            lines.append(_para(summary))
        lines += [
            textwrap.fill(
                " ".join(step.split()),
                width=78,
                initial_indent=f"  {n}. ",
                subsequent_indent="     ",
            )
            for n, step in enumerate(code.recovery.steps, 1)
        ]
        lines += [_para(f"Never: {item}") for item in code.recovery.avoid]
    if code.retry is not None:
        lines += ["", f"Retry:    {code.retry.describe()}"]
    if code.limits:
        lines += ["", "Limits:"]
        for limit in map(registry.limit, code.limits):
            lines.append(
                f"  {limit.id}: default {limit.default} {limit.unit} "
                f"(allowed {limit.minimum}..{limit.maximum})"
            )
    if code.related:
        lines += ["", "Related:  " + ", ".join(code.related)]
    given = [(f.name, code.extra[f.name]) for f in registry.fields if f.name in code.extra]
    if given:
        lines += ["", "Fields:"]
        for name, value in given:
            if isinstance(value, bool):
                shown = "yes" if value else "no"
            elif isinstance(value, tuple):
                shown = ", ".join(value)
            else:
                shown = str(value)
            lines.append(_para(f"{name}: {shown}"))
    lines += ["", f"Docs:     {registry.docs_url(code)}"]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, config: Config) -> int:
    from ..pipeline import build

    registry = build.registry_for(config)
    wanted = args.code.strip().upper().replace("-", "_")
    names = [c.name for c in registry.codes]
    if wanted not in names:
        near = difflib.get_close_matches(wanted, names, n=3, cutoff=0.75)
        hint = f"; nearest: {', '.join(near)}" if near else f"; the codes are: {', '.join(names)}"
        raise UsageError(f"unknown code '{args.code}' in {registry.path}{hint}")
    code = registry.code(wanted)
    if args.format == "json":
        print(json.dumps(facts(registry, code), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(as_text(registry, code))
    return 0
