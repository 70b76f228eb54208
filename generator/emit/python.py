"""The generated, standard-library-only Python package for a registry."""

from __future__ import annotations

import jinja2

from ..catalogs.locales import script_table
from ..names import header
from ..registry.model import RECOVERY_KINDS, Code, Registry
from . import Files
from .render import render

TEMPLATES = ("__init__.py", "codes.py", "envelope.py", "i18n.py", "wire.py", "py.typed")

_TO_MILLISECONDS = {"milliseconds": 1, "seconds": 1000}


def retry_facts(registry: Registry, code: Code) -> tuple[int | None, int | None]:
    """(delay before a retry in ms, attempts allowed) from the code's limits and retry policy."""
    if code.retry.limit is None:
        return None, None
    attempts = registry.limit(code.retry.limit).default
    delay = next(
        (
            registry.limit(x).default * _TO_MILLISECONDS[registry.limit(x).unit]
            for x in code.limits
            if x != code.retry.limit and registry.limit(x).unit in _TO_MILLISECONDS
        ),
        None,
    )
    return delay, attempts


def emit(registry: Registry, env: jinja2.Environment, package_dir: str) -> Files:
    """Render every file of the package into ``package_dir`` (a relative POSIX path)."""
    context = {
        "registry": registry,
        "meta": registry.meta,
        "header": header(registry.path),
        "recovery_kinds": RECOVERY_KINDS,
        "docs_urls": {code.name: registry.docs_url(code) for code in registry.codes},
        "scripts": script_table(registry.meta.locales),
        "retry_facts": {code.name: retry_facts(registry, code) for code in registry.codes},
        "limit_codes": {
            limit.id: [c.name for c in registry.produced_by(limit.id)] for limit in registry.limits
        },
    }
    return {
        f"{package_dir}/{name}": render(env, f"python/{name}.j2", **context) for name in TEMPLATES
    }
