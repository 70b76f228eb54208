"""The generated, standard-library-only Python package for a registry."""

from __future__ import annotations

import jinja2

from ..locales import script_table
from ..registry import RECOVERY_KINDS, Registry
from ..render import HEADER, render
from . import Files

TEMPLATES = ("__init__.py", "codes.py", "envelope.py", "i18n.py", "py.typed")


def emit(registry: Registry, env: jinja2.Environment, package_dir: str) -> Files:
    """Render every file of the package into ``package_dir`` (a relative POSIX path)."""
    context = {
        "registry": registry,
        "meta": registry.meta,
        "header": HEADER.format(source=registry.path),
        "recovery_kinds": RECOVERY_KINDS,
        "docs_urls": {code.name: registry.docs_url(code) for code in registry.codes},
        "scripts": script_table(registry.meta.locales),
        "limit_codes": {
            limit.id: [c.name for c in registry.produced_by(limit.id)] for limit in registry.limits
        },
    }
    return {
        f"{package_dir}/{name}": render(env, f"python/{name}.j2", **context) for name in TEMPLATES
    }
