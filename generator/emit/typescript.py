"""The TypeScript module for a registry's browser and Node clients.

``index.ts`` holds the codes and layers as ``as const`` objects with their union types, a
discriminated union for results that makes a caller handle both failure shapes, ``classify``,
the limits, and localized lookup with the same safe formatting as the Python package. Each
locale's messages are compiled into ``locales/<lang>.json`` from the same merged catalogs as
the MO files, with gettext's plural forms renamed to the CLDR categories ``Intl.PluralRules``
returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

import jinja2
from babel import Locale

from .. import plurals
from ..catalogs.catalog import StableCatalog, usable
from ..catalogs.entries import message_contexts
from ..catalogs.locales import digit_groups, right_to_left, script_table
from ..names import header as header_line
from ..names import pascal
from ..registry.model import Registry
from . import Files
from .render import render


def categories(locale: str) -> list[str]:
    """gettext plural index -> CLDR category name, for ``locale`` (proved equal in tests)."""
    rule = plurals.lookup(locale)
    cldr = Locale.parse(locale).plural_form
    assert rule is not None
    names: dict[int, str] = {}
    for n in range(0, 1000):
        names.setdefault(rule.index(n), cldr(n))
    return [names.get(i, "other") for i in range(rule.count)]


def locale_messages(
    registry: Registry, locale: str, catalog: StableCatalog | None
) -> dict[str, object]:
    """Usable translations of one locale by msgctxt (a code's message under its name, its
    title under ``CODE.title``): text, or forms by CLDR category."""
    found: dict[str, object] = {}
    if catalog is None:
        return found
    names = categories(locale)
    counts = message_contexts(registry)
    for message in catalog:
        code = message.context
        if code is None or code not in counts or not usable(message, counts[code]):
            continue
        if isinstance(message.string, (list, tuple)):
            found[code] = dict(zip(names, message.string, strict=False))
        else:
            found[code] = message.string
    return found


def emit(
    registry: Registry, env: jinja2.Environment, out_dir: str, messages: Mapping[str, StableCatalog]
) -> Files:
    root = PurePosixPath(out_dir) / registry.meta.package
    header = header_line(registry.path)
    context = {
        "registry": registry,
        "meta": registry.meta,
        "header": header,
        "retry_facts": {c.name: registry.retry_facts(c) for c in registry.codes},
        "docs_urls": {c.name: registry.docs_url(c) for c in registry.codes},
        "locales": registry.meta.locales,
        "shape_names": {x.id: pascal(x.id) for x in registry.shapes},
        "result_type": pascal(registry.meta.name) + "Result",
        "every_retry": all(c.retry for c in registry.codes),
        "every_title": all(c.title for c in registry.codes),
        "digit_groups": digit_groups((registry.meta.source_locale, *registry.meta.locales)),
        "right_to_left": right_to_left((registry.meta.source_locale, *registry.meta.locales)),
        "scripts": script_table(registry.meta.locales),
    }
    files: dict[str, bytes] = {
        str(root / "index.ts"): render(env, "typescript/index.ts.j2", **context),
        str(root / "locales" / "index.ts"): render(env, "typescript/locales.ts.j2", **context),
    }
    for locale in registry.meta.locales:
        data = {
            "$comment": header,
            "locale": locale,
            "messages": locale_messages(registry, locale, messages.get(locale)),
        }
        files[str(root / "locales" / f"{locale}.json")] = render(
            env, "json/document.json.j2", data=data
        )
    return files
