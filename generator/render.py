"""The Jinja2 environment every emitter renders with.

Templates are looked up first in the user's override folder (``templates`` in
``[tool.errorbook]``), then in the templates shipped with errorbook, so a project can replace
one output's template without copying the rest. The filters here are the only way registry
text enters generated source: each one escapes for the language it lands in.
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from .names import HEADER, SHIPPED_TEMPLATES

__all__ = ["HEADER", "SHIPPED_TEMPLATES", "environment", "render"]


def py_literal(value: object) -> str:
    """A Python literal for a str, int, bool or None: text from the registry stays data."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(py_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def members(names: object, enum: str) -> str:
    """A tuple expression of enum members, such as ``(ErrorCode.A, ErrorCode.B)``."""
    items = [f"{enum}.{name}" for name in names]  # type: ignore[attr-defined]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def json_literal(value: object) -> str:
    """A JSON (and JavaScript/TypeScript) literal: registry text stays a string."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def json_pretty(value: object) -> str:
    """A whole JSON document, keys in the order the emitter built them."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def environment(overrides: Path | None = None) -> jinja2.Environment:
    """A strict environment: an undefined name in a template is an error, not empty text."""
    search = [str(overrides)] if overrides is not None and overrides.is_dir() else []
    search.append(str(SHIPPED_TEMPLATES))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py"] = py_literal
    env.filters["json"] = json_literal
    env.filters["members"] = members
    env.filters["json_pretty"] = json_pretty
    env.filters["upper_snake"] = lambda text: str(text).upper()
    return env


def render(env: jinja2.Environment, template: str, **context: object) -> bytes:
    """Render one template to UTF-8 bytes with Unix newlines."""
    text = env.get_template(template).render(**context)
    return text.encode("utf-8")
