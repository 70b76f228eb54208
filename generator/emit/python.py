"""The generated, standard-library-only Python package for a registry."""

from __future__ import annotations

import json

import jinja2

from ..catalogs.locales import digit_groups, right_to_left, script_table
from ..names import header, pascal
from ..registry.model import Code, Registry, RetryPolicy
from . import Files
from .render import render

#: Modules made from the registry's data: Jinja2 templates (``python/<name>.j2``). ``codes``
#: exports what ``_kinds`` (the small enums) and ``_info`` (the dataclasses) define. The large
#: ones are imported on first use, not with the package: ``_error_code`` (the ErrorCode enum)
#: and ``_records`` (each code's facts as a JSON text, which ``codes`` reads one code at a time),
#: and so is ``_info``, which imports dataclasses.
RENDERED = ("__init__.py", "codes.py", "_kinds.py", "_info.py", "_error_code.py", "_records.py")
#: What ``codes`` (and so the package's ``__init__``) serves on first access, not at import.
LAZY = ("CodeInfo", "ErrorCode", "LayerInfo", "LimitInfo")
#: The modules whose names the package's ``__init__`` serves on first access, not at import:
#: a first message needs none of them, and they import much of the standard library.
LAZY_MODULES = ("envelope", "shapes", "wire")
#: Files that are the same for every registry. They are plain files (``python/<name>``) so
#: that ruff checks and formats them as the source they are; only the header line is added.
COPIED = ("_enum.py", "_format.py", "_negotiate.py", "i18n.py", "py.typed")
#: The envelope modules, for a registry that declares result shapes: ``shapes`` is rendered
#: (a builder named after each shape), the others are copied. ``wire`` projects envelopes
#: onto HTTP, RFC 9457, gRPC details and MCP, so it needs both HTTP and JSON-RPC numbers.
ENVELOPE_RENDERED = ("shapes.py",)
ENVELOPE_COPIED = ("envelope.py",)
WIRE_COPIED = ("wire.py",)


def _template(name: str) -> str:
    """The template a rendered file of the package is made from."""
    return f"python/{name}.j2"


#: Every template this emitter may render (what the pipeline compiles ahead of it).
TEMPLATES = tuple(_template(name) for name in (*RENDERED, *ENVELOPE_RENDERED))


def modules(registry: Registry) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rendered and the copied files of ``registry``'s package."""
    rendered: tuple[str, ...] = RENDERED
    copied: tuple[str, ...] = COPIED
    if registry.shapes:
        rendered += ENVELOPE_RENDERED
        copied += ENVELOPE_COPIED
        if registry.uses("http") and registry.uses("jsonrpc"):
            copied += WIRE_COPIED
    return rendered, copied


def exports(registry: Registry) -> list[tuple[str, list[str]]]:
    """What the package's ``__init__`` imports, module by module, each list in the order
    ruff's isort keeps (constants, classes, functions)."""
    found: dict[str, list[str]] = {
        "codes": [
            "CODES",
            "DOCS_URL",
            "LAYERS",
            "LIMITS",
            "LOCALES",
            "REGISTRY_NAME",
            "REGISTRY_VERSION",
            "SOURCE_LOCALE",
            "CodeInfo",
            "ErrorCode",
            "Layer",
            "LayerInfo",
            "LimitInfo",
            "Retry",
        ]
    }
    if registry.actors:
        found["codes"].append("Actor")
    if registry.recovery_kinds:
        found["codes"].append("Recovery")
    if registry.shapes:
        found["codes"] += ["Outcome", "Shape"]
        found["envelope"] = [
            "Classified",
            "Envelope",
            "ErrorBody",
            "MalformedEnvelope",
            "RegistryError",
            "RetiredCode",
            "ShapeError",
            "classify",
            "failure",
            "format_message",
        ]
    found["i18n"] = ["Translator", "fallback_chain", "message", "title"]
    if registry.shapes:
        found["shapes"] = [shape_names(x.id)[0] for x in registry.shapes] + [
            shape_names(x.id)[1] for x in registry.shapes
        ]
    if registry.uses("http") and registry.uses("jsonrpc") and registry.shapes:
        found["wire"] = [
            "PROBLEM_JSON",
            "from_error_details",
            "from_http",
            "from_mcp",
            "from_problem",
            "from_status",
            "from_tool_result",
            "problem_from_envelope",
            "recovery_hint",
            "retry_allowed",
            "to_error_details",
            "to_http",
            "to_mcp",
            "to_problem",
            "to_status",
            "to_tool_result",
        ]
    return [(module, sorted(names, key=_isort)) for module, names in found.items()]


def lazy_exports(
    imported: list[tuple[str, list[str]]],
) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
    """What the package's ``__init__`` imports at import and what it serves on first access,
    each as :func:`exports` lists them, module by module."""
    eager = [
        (module, [name for name in names if name not in LAZY])
        for module, names in imported
        if module not in LAZY_MODULES
    ]
    lazy = [
        (module, [name for name in names if module in LAZY_MODULES or name in LAZY])
        for module, names in imported
    ]
    return eager, [(module, names) for module, names in lazy if names]


def shape_names(shape: str) -> tuple[str, str]:
    """The type and the builder named after a shape: ``RefusedFailure``, ``refused_failure``
    for a shape ``refused``."""
    return pascal(shape) + "Failure", f"{shape}_failure"


def _isort(name: str) -> tuple[int, str]:
    """ruff's order of imported names: CONSTANTS, then Classes, then functions."""
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


def record_fields(registry: Registry) -> list[str]:
    """The fields of a code's record in ``_records``, in order: CodeInfo's, but ``code``."""
    found = ["layer"]
    found += ["shape"] if registry.shapes else []
    found += ["recovery"] if registry.recovery_kinds else []
    found += ["retry", "retry_limit"]
    found += ["http_status"] if registry.uses("http") else []
    found += ["jsonrpc_code"] if registry.uses("jsonrpc") else []
    found += ["grpc_status", "placeholders", "integers", "count", "limits", "related", "since"]
    found += ["docs_url", "message", "message_plural", "title", "status", "deprecated_since"]
    found += ["replaced_by", "retired_since", "hint", "retry_delay_ms", "retry_attempts"]
    found += ["fields"] if registry.fields else []
    return found


def record(registry: Registry, code: Code) -> str:
    """A code's facts as one JSON array in the order of :func:`record_fields`: enum members
    as their values, tuples as arrays, the declared fields as an object of those it gives."""
    retry = code.retry
    deprecated = code.deprecated
    delay_ms, attempts = registry.retry_facts(code)
    facts: dict[str, object] = {
        "layer": code.layer,
        "shape": code.shape,
        "recovery": code.recovery.kind if code.recovery and code.recovery.kind else None,
        "retry": retry.policy.value if retry else None,
        "retry_limit": retry.limit if retry else None,
        "http_status": registry.http_status(code) if registry.uses("http") else None,
        "jsonrpc_code": code.jsonrpc,
        "grpc_status": registry.grpc_status(code),
        "placeholders": code.placeholder_names,
        "integers": code.integer_placeholders,
        "count": code.message.count,
        "limits": code.limits,
        "related": code.related,
        "since": code.since,
        "docs_url": registry.docs_url(code),
        "message": code.shown_message,
        "message_plural": code.message.plural,
        "title": code.title or None,
        "status": code.status,
        "deprecated_since": deprecated.since if deprecated else None,
        "replaced_by": deprecated.replaced_by if deprecated else None,
        "retired_since": code.retired.since if code.retired else None,
        "hint": code.hint,
        "retry_delay_ms": delay_ms,
        "retry_attempts": attempts,
        "fields": {f.name: code.extra[f.name] for f in registry.fields if f.name in code.extra},
    }
    values = [facts[name] for name in record_fields(registry)]
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def emit(registry: Registry, env: jinja2.Environment, package_dir: str) -> Files:
    """Render every file of the package into ``package_dir`` (a relative POSIX path)."""
    context = {
        "registry": registry,
        "meta": registry.meta,
        "header": header(registry.path),
        "docs_urls": {code.name: registry.docs_url(code) for code in registry.codes},
        "scripts": script_table(registry.meta.locales),
        "digit_groups": digit_groups((registry.meta.source_locale, *registry.meta.locales)),
        "right_to_left": right_to_left((registry.meta.source_locale, *registry.meta.locales)),
        # The policies the generator validates against, so the package's copy cannot drift.
        "retry_policies": list(RetryPolicy),
        "every_recovery": all(c.recovery and c.recovery.kind for c in registry.codes),
        "every_retry": all(c.retry for c in registry.codes),
        "every_since": all(c.since for c in registry.codes),
        "every_title": all(c.title for c in registry.codes),
        "exports": (imported := exports(registry)),
        "all_names": sorted((n for _, names in imported for n in names), key=_isort),
        "shape_names": {x.id: shape_names(x.id) for x in registry.shapes},
        "retry_facts": {code.name: registry.retry_facts(code) for code in registry.codes},
        "limit_codes": {
            limit.id: [c.name for c in registry.produced_by(limit.id)] for limit in registry.limits
        },
        "lazy": LAZY,
        "eager_exports": (split := lazy_exports(imported))[0],
        "lazy_exports": split[1],
        "lazy_modules": LAZY_MODULES,
        "record_fields": record_fields(registry),
        "records": [record(registry, code) for code in registry.codes],
    }
    rendered, copied = modules(registry)
    files = {f"{package_dir}/{name}": render(env, _template(name), **context) for name in rendered}
    first_line = f"# {context['header']}\n"
    for name in copied:
        files[f"{package_dir}/{name}"] = (first_line + _source(env, f"python/{name}")).encode()
    return files


def _source(env: jinja2.Environment, name: str) -> str:
    """A plain template's text, found as a rendered one is (a project's override folder
    first), but never rendered: Python source is full of braces Jinja2 would read."""
    if env.loader is None:
        raise jinja2.TemplateNotFound(name)
    return env.loader.get_source(env, name)[0]
