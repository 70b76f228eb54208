"""The registry's rules: from a node tree to a :class:`~generator.registry.model.Registry`.

Structure first (every section and object read against its schema), then cross-references
(layers, limits and codes that other entries name). Every problem is collected, so one run
shows all of them; a registry is returned only when there are none.

The rules live in one module per concern: ``names`` (what a name may be, references),
``versions``, ``meta`` (the 'registry' section), ``sections`` (layers, limits, adapters),
``messages`` (placeholders and UI copy), ``extras`` (the declared extra fields and their
values) and ``codes``. This module runs them in order and keeps the names other packages
import from ``registry.validate``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from ...diagnostics import Diagnostics, InvalidInput
from .. import schema
from ..fields import Fields
from ..loader import Mapping, Node, load_file, load_text
from ..model import Code, Registry
from .codes import (
    Vocabulary,
    check_recovery_retry,
    check_renames,
    check_replacements,
    read_code,
)
from .extras import read_declarations
from .messages import MAX_MESSAGE
from .meta import (
    LOCALE,
    MARKUP,
    MAX_LOCALES,
    URL,
    locale_problem,
    read_meta,
    read_naming,
    wires_alone,
)
from .names import (
    CODE_NAME,
    MAX_CODE_LENGTH,
    RESERVED_PLACEHOLDERS,
    SHARED_PLACEHOLDERS,
    check_hierarchy,
    section,
)
from .sections import (
    check_envelopes,
    read_actor,
    read_adapter,
    read_glossary_term,
    read_kind,
    read_layer,
    read_limit,
    read_shape,
)
from .versions import SEMVER, semver, version_alone

__all__ = [
    "CODE_NAME",
    "LOCALE",
    "MARKUP",
    "MAX_CODES",
    "MAX_CODE_LENGTH",
    "MAX_LOCALES",
    "MAX_MESSAGE",
    "RESERVED_PLACEHOLDERS",
    "SEMVER",
    "SHARED_PLACEHOLDERS",
    "URL",
    "load_registry",
    "load_registry_text",
    "locale_problem",
    "semver",
    "validate",
]


T = TypeVar("T")

#: The most codes one registry may hold; a larger one is refused before its codes are read.
MAX_CODES = 50_000


def load_registry(
    path: Path,
    display: str | None = None,
    seen: Callable[[bytes], None] | None = None,
    limit: int | None = None,
) -> Registry:
    """Load and validate a registry file; raise :class:`InvalidInput` with every problem.
    ``seen`` receives the bytes that were read, ``limit`` bounds their number (see
    :func:`loader.load_file`)."""
    name = display or str(path)
    return validate(load_file(path, name, seen, limit), name)


def load_registry_text(text: str, display: str = "codes.yaml") -> Registry:
    return validate(load_text(text, display), display)


def misspelt_names(top: Fields, name: str) -> tuple[str, ...]:
    """The entry names under a top-level key that is a misspelling of the section ``name``
    (reported as an unknown key already), so that a reference to one is not reported too."""
    names: list[str] = []
    for node in top.misspelt_nodes.get(name, ()):
        if isinstance(node, Mapping):
            names.extend(key.value for key, _ in node.pairs)
    return tuple(names)


def validate(root: Node, path: str) -> Registry:
    """The registry ``root`` describes; every problem is collected first, so that one run
    reports them all, and :class:`InvalidInput` carries them when there is any."""
    found = Diagnostics()
    top = Fields(root, schema.TOP, found, "the registry file")
    if not top.valid:
        raise InvalidInput(found)
    meta = read_meta(top, found)
    version = meta.version if meta is not None else version_alone(top)
    actor_nodes = section(top, "actors", "actor", found)
    actors = _valid(read_actor(k, v, found) for k, v in actor_nodes)
    glossary_nodes = section(top, "glossary", "glossary term", found)
    glossary = _valid(read_glossary_term(k, v, found) for k, v in glossary_nodes)
    shape_nodes = section(top, "shapes", "shape", found)
    shapes = _valid(read_shape(k, v, found) for k, v in shape_nodes)
    check_envelopes(shapes, found)
    if meta is not None and meta.wires and not shape_nodes:
        found.error(
            "E-WIRE-WITHOUT-SHAPES",
            top.mark("registry"),
            "'registry.wires' names wires, but the registry declares no shapes: a wire "
            "carries a code's envelope",
            "declare 'shapes:' (each code's shape says whether it travels as an error or "
            "inside a result), or remove 'wires:'",
        )
    kind_nodes = section(top, "recovery_kinds", "recovery kind", found)
    kinds = _valid(read_kind(k, v, found) for k, v in kind_nodes)
    # Names are checked against every declared entry, valid or not, as references below are;
    # an entry whose own name breaks the rules counts too (see names.section).
    actor_ids = tuple(key.value for key, _ in actor_nodes) + misspelt_names(top, "actors")
    shape_ids = tuple(key.value for key, _ in shape_nodes) + misspelt_names(top, "shapes")
    kind_ids = tuple(key.value for key, _ in kind_nodes) + misspelt_names(top, "recovery_kinds")
    layer_nodes = section(top, "layers", "layer", found)
    limit_nodes = section(top, "limits", "limit", found)
    adapter_nodes = section(top, "adapters", "adapter", found)
    misnamed: set[str] = set()
    naming = read_naming(top, found)
    code_nodes = section(top, "codes", "code", found, naming, misnamed)
    declared = read_declarations(top, found)
    if len(code_nodes) > MAX_CODES:
        found.error(
            "E-SCHEMA-TOO-MANY-CODES",
            top.mark("codes"),
            f"the registry has {len(code_nodes):,} codes, more than "
            f"the {MAX_CODES:,} errorbook handles",
            "split the registry by system",
        )
        raise InvalidInput(found)
    layers = [read_layer(k, v, found, actor_ids, shape_ids) for k, v in layer_nodes]
    limits = [read_limit(k, v, found) for k, v in limit_nodes]
    adapters = [read_adapter(k, v, found, shape_ids) for k, v in adapter_nodes]
    vocabulary = Vocabulary(
        shapes={x.id: x for x in shapes},
        shape_ids=shape_ids,
        kind_ids=kind_ids,
        wires=meta.wires if meta is not None else wires_alone(top, found),
        transports=tuple(
            sorted({x.transport for x in adapters if x is not None and x.transport is not None})
        ),
        naming=naming,
    )
    # References are checked against every defined name, valid or not, so that one broken
    # limit or layer does not make each code that names it report a second, false problem.
    layer_map = {layer.id: layer for layer in layers if layer is not None}
    # So are the names of a section whose key is misspelt (already reported): 'limts:' makes
    # one problem, not one more per code that names a limit.
    layer_ids = tuple(key.value for key, _ in layer_nodes) + misspelt_names(top, "layers")
    limit_ids = tuple(key.value for key, _ in limit_nodes) + misspelt_names(top, "limits")
    code_names = tuple(key.value for key, _ in code_nodes)
    # Parents are read before their sub-codes, which inherit from them; the registry keeps
    # the order it was written in.
    parents = check_hierarchy(top.node("codes"), code_nodes, found, misnamed)
    resolved: dict[str, Code | None] = {}
    for key, node in sorted(code_nodes, key=lambda pair: pair[0].value.count(".")):
        name = key.value
        resolved[name] = read_code(
            key,
            node,
            layer_ids,
            layer_map,
            limit_ids,
            code_names,
            version,
            declared,
            found,
            meta.required if meta is not None else (),
            vocabulary,
            parent=resolved.get(name.rpartition(".")[0]),
            is_sub="." in name,
            has_children=name in parents,
        )
    codes = [resolved[key.value] for key, _ in code_nodes]
    check_replacements([c for c in codes if c is not None], found)
    check_renames([c for c in codes if c is not None], found)
    check_recovery_retry([c for c in codes if c is not None], kinds, found)
    if found.has_errors or meta is None:
        raise InvalidInput(found)
    return Registry(
        meta=meta,
        layers=tuple(x for x in layers if x is not None),
        codes=tuple(x for x in codes if x is not None),
        limits=tuple(x for x in limits if x is not None),
        adapters=tuple(x for x in adapters if x is not None),
        fields=declared,
        actors=tuple(actors),
        glossary=tuple(glossary),
        shapes=tuple(shapes),
        recovery_kinds=tuple(kinds),
        path=path,
    )


def _valid(items: Iterable[T | None]) -> list[T]:
    return [x for x in items if x is not None]
