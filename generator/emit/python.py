"""The generated, standard-library-only Python package for a registry."""

from __future__ import annotations

import jinja2

from ..catalogs.locales import script_table
from ..names import header
from ..registry.model import RECOVERY_KINDS, Actor, Registry, RetryPolicy, Shape
from . import Files
from .render import render

#: Modules made from the registry's data: Jinja2 templates (``python/<name>.j2``).
RENDERED = ("codes.py",)
#: Files that are the same for every registry. They are plain files (``python/<name>``) so
#: that ruff checks and formats them as the source they are; only the header line is added.
COPIED = ("__init__.py", "_format.py", "envelope.py", "i18n.py", "wire.py", "py.typed")


def emit(registry: Registry, env: jinja2.Environment, package_dir: str) -> Files:
    """Render every file of the package into ``package_dir`` (a relative POSIX path)."""
    context = {
        "registry": registry,
        "meta": registry.meta,
        "header": header(registry.path),
        "recovery_kinds": RECOVERY_KINDS,
        "docs_urls": {code.name: registry.docs_url(code) for code in registry.codes},
        "scripts": script_table(registry.meta.locales),
        # The enums the generator validates against, so the package's copies cannot drift.
        "shapes": list(Shape),
        "actors": list(Actor),
        "retry_policies": list(RetryPolicy),
        "retry_facts": {code.name: registry.retry_facts(code) for code in registry.codes},
        "limit_codes": {
            limit.id: [c.name for c in registry.produced_by(limit.id)] for limit in registry.limits
        },
    }
    files = {
        f"{package_dir}/{name}": render(env, f"python/{name}.j2", **context) for name in RENDERED
    }
    first_line = f"# {context['header']}\n"
    for name in COPIED:
        files[f"{package_dir}/{name}"] = (first_line + _source(env, f"python/{name}")).encode()
    return files


def _source(env: jinja2.Environment, name: str) -> str:
    """A plain template's text, found as a rendered one is (a project's override folder
    first), but never rendered: Python source is full of braces Jinja2 would read."""
    if env.loader is None:
        raise jinja2.TemplateNotFound(name)
    return env.loader.get_source(env, name)[0]
