"""The registry's rules: from a node tree to a :class:`~generator.registry.model.Registry`.

Structure first (every section and object read against its schema), then cross-references
(layers, limits and codes that other entries name). Every problem is collected, so one run
shows all of them; a registry is returned only when there are none.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from pathlib import Path

from babel import Locale, UnknownLocaleError

from ..catalogs import plurals
from ..diagnostics import Diagnostics, InvalidInput, Mark
from . import placeholders, schema
from .fields import IDENTIFIER, Fields, entries, integer_value, text_value
from .loader import Mapping, Node, Scalar, Sequence, load_file, load_text
from .model import (
    Actor,
    Adapter,
    Code,
    Deprecation,
    Layer,
    Limit,
    Message,
    Meta,
    Placeholder,
    Recovery,
    Registry,
    Retirement,
    Retry,
    RetryPolicy,
    Shape,
)
from .suggest import closest, suggest

CODE_NAME = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*\Z")
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)\Z")
LOCALE = re.compile(r"[a-z]{2,3}(_([A-Z]{2}|[A-Z][a-z]{3}))?\Z")
URL = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~%!$&'()*+,;=:@-]*)*/\Z")
#: Characters a name may not hold: themes insert the title into HTML without escaping it.
MARKUP = re.compile(r"[<>&\"']")
#: JSON-RPC 2.0 reserves -32768..-32000; only these and the server range may be used there.
JSONRPC_PREDEFINED = {-32700, -32600, -32601, -32602, -32603}
MAX_CODE_LENGTH = 64
MAX_CODES = 50_000
MAX_LOCALES = 100
MAX_MESSAGE = 2_000  # characters of one UI message form
#: Lower-cased code names whose page (codes/<name>.md) is already a page of the site: the
#: docs URL every runtime links to (codes/<name>/) could never show that code.
TAKEN_PAGES = {"index": "table of all codes"}
#: Keyword parameters of the generated functions that also take a code's placeholders as
#: keyword arguments (``**params``: failure(), to_problem(), to_error_details() and the like).
#: A placeholder of one of these names could never be passed, so it is refused.
#: tests/registry/test_validate.py reads the generated signatures and checks this list against them.
RESERVED_PLACEHOLDERS = ("instance", "locale", "message")
#: Keyword parameters of those same functions that fill a placeholder of the same name (the
#: request id in a message is the one the envelope carries), so these names stay allowed.
SHARED_PLACEHOLDERS = ("request_id",)


def load_registry(
    path: Path, display: str | None = None, seen: Callable[[bytes], None] | None = None
) -> Registry:
    """Load and validate a registry file; raise :class:`InvalidInput` with every problem.
    ``seen`` receives the bytes that were read (see :func:`loader.load_file`)."""
    name = display or str(path)
    return validate(load_file(path, name, seen), name)


def load_registry_text(text: str, display: str = "codes.yaml") -> Registry:
    return validate(load_text(text, display), display)


def semver(value: str) -> tuple[int, int, int]:
    major, minor, patch = (int(part) for part in value.split("."))
    return major, minor, patch


def validate(root: Node, path: str) -> Registry:
    found = Diagnostics()
    top = Fields(root, schema.TOP, found, "the registry file")
    if not top.valid:
        raise InvalidInput(found)
    meta = _meta(top, found)
    version = meta.version if meta is not None else _version_alone(top)
    layer_nodes = _section(top, "layers", "layer", found)
    limit_nodes = _section(top, "limits", "limit", found)
    adapter_nodes = _section(top, "adapters", "adapter", found)
    code_nodes = _section(top, "codes", "code", found)
    if len(code_nodes) > MAX_CODES:
        found.error(
            top.mark("codes"),
            f"the registry has {len(code_nodes):,} codes, more than "
            f"the {MAX_CODES:,} errorbook handles",
            "split the registry by system",
        )
        raise InvalidInput(found)
    layers = [_layer(k, v, found) for k, v in layer_nodes]
    limits = [_limit(k, v, found) for k, v in limit_nodes]
    adapters = [_adapter(k, v, found) for k, v in adapter_nodes]
    # References are checked against every defined name, valid or not, so that one broken
    # limit or layer does not make each code that names it report a second, false problem.
    layer_map = {layer.id: layer for layer in layers if layer is not None}
    layer_ids = tuple(key.value for key, _ in layer_nodes)
    limit_ids = tuple(key.value for key, _ in limit_nodes)
    code_names = tuple(key.value for key, _ in code_nodes)
    codes = [
        _code(key, node, layer_ids, layer_map, limit_ids, code_names, version, found)
        for key, node in code_nodes
    ]
    _check_replacements([c for c in codes if c is not None], found)
    if found.has_errors or meta is None:
        raise InvalidInput(found)
    return Registry(
        meta=meta,
        layers=tuple(x for x in layers if x is not None),
        codes=tuple(x for x in codes if x is not None),
        limits=tuple(x for x in limits if x is not None),
        adapters=tuple(x for x in adapters if x is not None),
        path=path,
    )


def _check_replacements(codes: list[Code], found: Diagnostics) -> None:
    """A deprecated code must point at a code that is still emitted."""
    retired = {code.name for code in codes if code.retired is not None}
    for code in codes:
        target = code.deprecated.replaced_by if code.deprecated else None
        if target in retired:
            found.error(
                code.mark,
                f"code {code.name} is replaced by {target}, which is retired",
                "name a code that is still emitted",
            )


def _section(top: Fields, name: str, what: str, found: Diagnostics) -> list[tuple[Scalar, Node]]:
    node = top.node(name)
    if node is None:
        return []
    pairs = entries(node, what, found)
    if not pairs and isinstance(node, Mapping):
        found.error(node.mark, f"'{name}' is empty", f"define at least one {what}")
    pattern = CODE_NAME if what == "code" else IDENTIFIER
    valid = []
    for key, value in pairs:
        if what == "code":
            if not _code_name_ok(key, found):
                continue
        elif not pattern.match(key.value):
            found.error(
                key.mark,
                f"{what} id '{key.value}' is not a lower-case identifier",
                "use a-z, 0-9 and '_', such as 'model_network'",
            )
            continue
        valid.append((key, value))
    return valid


def _code_name_ok(key: Scalar, found: Diagnostics) -> bool:
    name = key.value
    if not CODE_NAME.match(name):
        words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)  # camelCase -> camel_Case
        fixed = re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper()
        hint = (
            f"write it as {fixed}"
            if fixed and CODE_NAME.match(fixed)
            else "use upper-case letters, digits and single '_' between words"
        )
        found.error(key.mark, f"code name '{name}' is not SCREAMING_SNAKE_CASE", hint)
        return False
    if keyword.iskeyword(name.lower()):
        found.error(
            key.mark,
            f"code name '{name}' is the Python keyword '{name.lower()}' once lower-cased",
            f"choose a more specific name, such as {name}_FAILED",
        )
        return False
    if name.lower() in TAKEN_PAGES:
        found.error(
            key.mark,
            f"code name '{name}' would put its reference page at codes/{name.lower()}.md, "
            f"which is the site's {TAKEN_PAGES[name.lower()]}",
            f"choose a more specific name, such as {name}_FAILED",
        )
        return False
    if len(name) > MAX_CODE_LENGTH:
        found.error(
            key.mark,
            f"code name '{name[:20]}...' is longer than {MAX_CODE_LENGTH} characters",
            "choose a shorter name",
        )
        return False
    return True


def _version_alone(top: Fields) -> str | None:
    """The registry's version when other metadata is broken (problems already reported)."""
    node = top.node("registry")
    if node is None:
        return None
    quiet = Diagnostics()
    return _semver(Fields(node, schema.META, quiet, "'registry'"), "version", quiet)


def _meta(top: Fields, found: Diagnostics) -> Meta | None:
    node = top.node("registry")
    if node is None:
        return None
    f = Fields(node, schema.META, found, "'registry'")
    if not f.valid:
        return None
    version = _semver(f, "version", found)
    source = _locale(f.text("source_locale"), f.mark("source_locale"), found)
    locales: list[str] = []
    for value, mark in f.text_list("locales"):
        tag = _locale(value, mark, found)
        if tag is None:
            continue
        if plurals.lookup(tag) is None:
            found.error(
                mark,
                f"errorbook has no plural rule for locale '{tag}'",
                "add its Plural-Forms to generator/plurals.py",
            )
        elif tag == source:
            found.error(mark, f"'{tag}' is the source locale", "list only the target locales")
        elif tag in locales:
            found.error(mark, f"locale '{tag}' is listed twice", "remove the second entry")
        else:
            locales.append(tag)
    if len(locales) > MAX_LOCALES:
        found.error(
            f.mark("locales"),
            f"{len(locales)} target locales are more than the {MAX_LOCALES} allowed",
            "publish fewer languages from one registry",
        )
    docs_url = f.text("docs_url")
    if docs_url is not None and not URL.match(docs_url):
        found.error(
            f.mark("docs_url"),
            f"'docs_url' must be an http(s) URL ending in '/', not '{docs_url}'",
            "write it like https://docs.example.org/errors/",
        )
        docs_url = None
    title = f.text("title")
    if title is not None and MARKUP.search(title):
        found.error(
            f.mark("title"),
            f"the title '{title}' contains markup characters",
            "write it without < > & \" ' (themes put it into HTML as it is)",
        )
        title = None
    package = f.identifier("package")
    if package is not None and (keyword.iskeyword(package) or package in ("generator",)):
        found.error(
            f.mark("package"),
            f"'{package}' cannot be the generated package's name",
            "choose a name that is not a Python keyword nor errorbook's own package",
        )
        package = None
    values = (
        f.identifier("name"),
        title,
        version,
        package,
        source,
        docs_url,
        f.text("description"),
    )
    name, title, version, package, source, docs_url, description = values
    if (
        name is None
        or title is None
        or version is None
        or package is None
        or source is None
        or docs_url is None
        or description is None
    ):
        return None
    return Meta(
        name,
        title,
        version,
        package,
        source,
        tuple(locales),
        docs_url,
        description,
        f.text("error_domain") or "",
    )


def _semver(f: Fields, name: str, found: Diagnostics) -> str | None:
    node = f.node(name)
    if isinstance(node, Scalar) and node.tag in ("float", "int"):
        found.error(
            node.mark,
            f"'{name}' must be a version MAJOR.MINOR.PATCH, not the number {node.value}",
            f"write it in full and in quotes, such as '{node.value}.0'"
            if node.tag == "float"
            else "write it as MAJOR.MINOR.PATCH, such as 1.0.0",
        )
        return None
    value = f.text(name)
    if value is not None and not SEMVER.match(value):
        found.error(
            f.mark(name),
            f"'{value}' is not a version MAJOR.MINOR.PATCH",
            "write three numbers without leading zeros, such as 1.2.0",
        )
        return None
    return value


def locale_problem(value: str) -> tuple[str, str, str]:
    """(tag, problem, hint) for a locale tag as the registry accepts it; no problem: ''."""
    tag = value.replace("-", "_")
    if not LOCALE.match(tag):
        return tag, f"'{value}' is not a locale tag", "write it like de, pt_BR or zh_Hant"
    try:
        Locale.parse(tag)
    except (UnknownLocaleError, ValueError):
        return tag, f"'{value}' is not a locale that CLDR knows", "check the language code"
    return tag, "", ""


def _locale(value: str | None, mark: Mark, found: Diagnostics) -> str | None:
    if value is None:
        return None
    tag, problem, hint = locale_problem(value)
    if problem:
        found.error(mark, problem, hint)
        return None
    return tag


def _layer(key: Scalar, node: Node, found: Diagnostics) -> Layer | None:
    f = Fields(node, schema.LAYER, found, f"layer '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, proves, actor, shape, description = (
        f.text("title"),
        f.text("proves"),
        f.choice("actor"),
        f.choice("shape"),
        f.text("description"),
    )
    if title is None or proves is None or actor is None or shape is None or description is None:
        return None
    return Layer(key.value, title, proves, Actor(actor), Shape(shape), description, key.mark)


def _limit(key: Scalar, node: Node, found: Diagnostics) -> Limit | None:
    f = Fields(node, schema.LIMIT, found, f"limit '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, default, unit, low, high, bounds = (
        f.text("title"),
        f.integer("default"),
        f.identifier("unit"),
        f.integer("min"),
        f.integer("max"),
        f.text("bounds"),
    )
    if low is not None and high is not None and low > high:
        found.error(
            f.mark("min"),
            f"limit '{key.value}' has min {low} above max {high}",
            "swap the two values",
        )
        return None
    if default is not None and low is not None and high is not None and not low <= default <= high:
        found.error(
            f.mark("default"),
            f"default {default} of limit '{key.value}' is outside its range {low}..{high}",
            "change the default or widen min/max",
        )
        return None
    if (
        title is None
        or default is None
        or unit is None
        or low is None
        or high is None
        or bounds is None
    ):
        return None
    return Limit(key.value, title, default, unit, low, high, bounds, key.mark)


def _adapter(key: Scalar, node: Node, found: Diagnostics) -> Adapter | None:
    f = Fields(node, schema.ADAPTER, found, f"adapter '{key.value}'", key.mark)
    if not f.valid:
        return None
    title, description, protocol, action = (
        f.text("title"),
        f.text("description"),
        f.text("protocol"),
        f.text("action"),
    )
    if title is None or description is None or protocol is None or action is None:
        return None
    return Adapter(key.value, title, description, protocol, action, key.mark)


def _reference(
    value: str,
    mark: Mark,
    known: tuple[str, ...],
    what: str,
    field: str,
    where: str,
    found: Diagnostics,
) -> bool:
    if value in known:
        return True
    found.error(
        mark,
        f"{where} names {what} '{value}' in '{field}', but no such {what} is defined",
        suggest(value, known) if known else f"define the {what} first",
    )
    return False


def _code(
    key: Scalar,
    node: Node,
    layer_ids: tuple[str, ...],
    layers: dict[str, Layer],
    limit_ids: tuple[str, ...],
    code_names: tuple[str, ...],
    version: str | None,
    found: Diagnostics,
) -> Code | None:
    name = key.value
    where = f"code {name}"
    f = Fields(node, schema.CODE, found, where, key.mark)
    if not f.valid:
        return None
    before = len(found.items)

    layer_id = f.text("layer")
    layer = None
    if layer_id is not None and _reference(
        layer_id, f.mark("layer"), layer_ids, "layer", "layer", where, found
    ):
        layer = layers.get(layer_id)  # None when the layer itself is invalid

    shape_value = f.choice("shape")
    shape_reason = f.text("shape_reason") or ""
    shape = Shape(shape_value) if shape_value else (layer.shape if layer else None)
    if layer is not None and shape is not None and shape is not layer.shape and not shape_reason:
        found.error(
            f.mark("shape"),
            f"{where} has shape '{shape.value}' but its layer "
            f"'{layer.id}' uses '{layer.shape.value}'",
            "add 'shape_reason:' to say why this code differs, or remove 'shape:'",
        )
    if shape_reason and layer is not None and shape is layer.shape:
        found.error(
            f.mark("shape_reason"),
            f"{where} has a 'shape_reason' but its shape is its layer's",
            "remove 'shape_reason:'; it explains an override only",
        )

    declared, declared_names = _placeholders(f, where, found)
    message = _message(f, where, declared, declared_names, found)

    http, jsonrpc = f.integer("http"), f.integer("jsonrpc")
    if shape is Shape.PROTOCOL:
        for field_name, value in (("http", http), ("jsonrpc", jsonrpc)):
            if value is None and not f.has(field_name):
                found.error(
                    key.mark,
                    f"{where} is protocol-shaped but has no '{field_name}'",
                    f"add '{field_name}:' with the status its transport answers",
                )
        if http is not None and not 400 <= http <= 599:
            found.error(
                f.mark("http"),
                f"{where} has HTTP status {http}, which is not an error",
                "use a 4xx status for the client's fault or 5xx for the server's",
            )
        if (
            jsonrpc is not None
            and -32768 <= jsonrpc <= -32000
            and not (jsonrpc in JSONRPC_PREDEFINED or -32099 <= jsonrpc <= -32000)
        ):
            found.error(
                f.mark("jsonrpc"),
                f"{where} uses JSON-RPC code {jsonrpc}, which JSON-RPC 2.0 reserves",
                "use a predefined code or one from -32099 to -32000",
            )
    elif shape is Shape.ACTION:
        for field_name in ("http", "jsonrpc"):
            if f.has(field_name):
                found.error(
                    f.mark(field_name),
                    f"{where} is action-shaped, so it has no '{field_name}' of its own",
                    "remove it: an action failure travels inside {ok: true} as HTTP 200 "
                    "and as a JSON-RPC result",
                )

    recovery = _recovery(f, where, found)
    retry = _retry(f, where, limit_ids, found)
    limits: list[str] = []
    for limit_id, mark in f.text_list("limits"):
        if limit_id in limits:
            found.error(
                mark,
                f"{where} names limit '{limit_id}' twice in 'limits'",
                "remove the second entry",
            )
        elif _reference(limit_id, mark, limit_ids, "limit", "limits", where, found):
            limits.append(limit_id)
    if retry is not None and retry.limit is not None and retry.limit not in limits:
        limits.append(retry.limit)
    related: list[str] = []
    for other, mark in f.text_list("related"):
        if other == name:
            found.error(mark, f"{where} names itself in 'related'", "remove it")
        elif other in related:
            found.error(
                mark, f"{where} names code '{other}' twice in 'related'", "remove the second entry"
            )
        elif _reference(other, mark, code_names, "code", "related", where, found):
            related.append(other)

    since = _semver(f, "since", found)
    if since is not None and version is not None and semver(since) > semver(version):
        found.error(
            f.mark("since"),
            f"{where} is since {since}, after the registry's version {version}",
            f"set registry.version to {since} or later (the release that adds it), or use a "
            f"version up to {version}",
        )

    deprecated, retired = _lifecycle(f, name, since, version, code_names, found)
    meaning, rationale = f.text("meaning"), f.text("rationale") or ""
    if (
        len(found.items) > before
        or layer is None
        or shape is None
        or message is None
        or meaning is None
        or recovery is None
        or retry is None
        or since is None
    ):
        return None  # the problem is reported already, here or where the layer is defined
    return Code(
        name,
        layer.id,
        shape,
        message,
        tuple(declared.values()),
        meaning,
        recovery,
        retry,
        since,
        tuple(limits),
        tuple(related),
        http,
        jsonrpc,
        shape_reason,
        rationale,
        deprecated,
        retired,
        f.text("agent_hint") or "",
        key.mark,
    )


def _lifecycle(
    f: Fields,
    name: str,
    since: str | None,
    version: str | None,
    code_names: tuple[str, ...],
    found: Diagnostics,
) -> tuple[Deprecation | None, Retirement | None]:
    """A code's deprecation and retirement, each dated between its 'since' and now."""
    where = f"code {name}"

    def dated(fields: Fields, what: str, after: str | None, after_what: str) -> str | None:
        value = _semver(fields, "since", found)
        if value is None:
            return None
        if after is not None and semver(value) < semver(after):
            found.error(
                fields.mark("since"),
                f"{where} is {what} since {value}, before it was {after_what} ({after})",
                f"use a version from {after} on",
            )
            return None
        if version is not None and semver(value) > semver(version):
            found.error(
                fields.mark("since"),
                f"{where} is {what} since {value}, after the registry's version {version}",
                f"set registry.version to {value} or later (the release that {what} it), or "
                f"use a version up to {version}",
            )
            return None
        return value

    deprecation = retirement = None
    node = f.node("deprecated")
    if node is not None:
        d = Fields(node, schema.DEPRECATION, found, f"the deprecation of {where}")
        if d.valid:
            when = dated(d, "deprecated", since, "introduced")
            target = d.text("replaced_by")
            if target == name:
                found.error(
                    d.mark("replaced_by"),
                    f"{where} names itself in 'replaced_by'",
                    "name the code that replaces it",
                )
                target = None
            elif target is not None and not _reference(
                target, d.mark("replaced_by"), code_names, "code", "replaced_by", where, found
            ):
                target = None
            if when is not None:
                deprecation = Deprecation(when, target, d.text("reason") or "")
    node = f.node("retired")
    if node is not None:
        r = Fields(node, schema.RETIREMENT, found, f"the retirement of {where}")
        if r.valid:
            after, after_what = (
                (deprecation.since, "deprecated") if deprecation else (since, "introduced")
            )
            when = dated(r, "retired", after, after_what)
            if when is not None:
                retirement = Retirement(when, r.text("reason") or "")
    return deprecation, retirement


def _placeholders(
    f: Fields, where: str, found: Diagnostics
) -> tuple[dict[str, Placeholder], tuple[str, ...]]:
    """The valid placeholders, and every declared name (valid or not) for the message checks,
    so that a broken declaration is reported once and not again as "not declared"."""
    node = f.node("placeholders")
    result: dict[str, Placeholder] = {}
    if node is None:
        return result, ()
    pairs = entries(node, "placeholder", found)
    for key, value in pairs:
        if keyword.iskeyword(key.value):
            found.error(
                key.mark,
                f"placeholder name '{key.value}' in {where} is a Python keyword",
                f"choose another name, such as '{key.value}_name'",
            )
            continue
        if not key.value.isidentifier() or not key.value.isascii():
            found.error(
                key.mark,
                f"placeholder name '{key.value}' in {where} is not a plain identifier",
                "use letters, digits and '_', such as 'action'",
            )
            continue
        if key.value in RESERVED_PLACEHOLDERS:
            found.error(
                key.mark,
                f"placeholder name '{key.value}' in {where} is reserved",
                f"the generated API takes '{key.value}' as an argument of its own; "
                "choose another name",
            )
            continue
        p = Fields(
            value, schema.PLACEHOLDER, found, f"placeholder '{key.value}' of {where}", key.mark
        )
        if not p.valid:
            continue
        description = p.text("description")
        kind = p.choice("type") or "text"
        example_node = p.node("example")
        example: str | int | None = None
        if isinstance(example_node, Scalar):
            if kind == "integer":
                if example_node.tag == "int":
                    example = integer_value(example_node, "example", where, found)
                else:
                    found.error(
                        example_node.mark,
                        f"the example of integer placeholder "
                        f"'{key.value}' in {where} is not an integer",
                        "write a whole number",
                    )
            else:
                example = text_value(example_node, "example", where, found)
        elif example_node is not None:
            found.error(
                example_node.mark,
                f"the example of placeholder '{key.value}' must be a "
                f"single value, not {example_node.kind}",
                "write one example value",
            )
        if description is not None and example is not None:
            result[key.value] = Placeholder(key.value, description, example, kind)
    return result, tuple(key.value for key, _ in pairs)


def _message(
    f: Fields,
    where: str,
    declared: dict[str, Placeholder],
    names: tuple[str, ...],
    found: Diagnostics,
) -> Message | None:
    node = f.node("message")
    if node is None:
        return None
    if isinstance(node, Mapping):
        m = Fields(node, schema.MESSAGE, found, f"the message of {where}")
        one, other, count = m.text("one"), m.text("other"), m.text("count")
        forms = [(one, m.mark("one")), (other, m.mark("other"))]
        if count is not None:
            placeholder = declared.get(count)
            if count not in names:
                near = closest(count, names) if names else None
                found.error(
                    m.mark("count"),
                    f"the plural message of {where} counts '{count}', "
                    "which is not one of its placeholders",
                    f"did you mean '{near}'?"
                    if near
                    else f"declare '{count}' under 'placeholders:' with type: integer",
                )
            elif placeholder is not None and placeholder.type != "integer":
                found.error(
                    m.mark("count"),
                    f"the count placeholder '{count}' of {where} is not an integer",
                    f"set 'type: integer' on placeholder '{count}'",
                )
    elif isinstance(node, Scalar):
        text = f.text("message")
        one, other, count = text, None, None
        forms = [(text, node.mark)]
    else:
        found.error(
            node.mark,
            f"the message of {where} must be text or a mapping with one, "
            f"other and count, not {node.kind}",
            "write the message as one line of text",
        )
        return None
    used: set[str] = set()
    broken = False
    for index, (text, mark) in enumerate(forms):
        if text is None:
            continue
        if len(text) > MAX_MESSAGE:
            found.error(
                mark,
                f"the message of {where} is {len(text):,} characters long, more "
                f"than the {MAX_MESSAGE:,} a UI message may have",
                "shorten it; put detail into 'meaning' or the recovery steps",
            )
            continue
        parsed = placeholders.parse(text)
        for problem in parsed.problems:
            found.error(
                mark,
                f"the message of {where} has {problem.message} at character {problem.offset + 1}",
                problem.hint,
            )
        used.update(parsed.names)
        for name in parsed.names:
            if name not in names:
                found.error(
                    mark,
                    f"the message of {where} uses placeholder '{{{name}}}', which is not declared",
                    f"declare '{name}' under 'placeholders:'"
                    if not names
                    else suggest(name, list(names)),
                )
        if parsed.problems:
            broken = True
            continue  # a broken field may be the missing placeholder: one report is enough
        is_singular_form = isinstance(node, Mapping) and index == 0
        for name in names:
            if name not in parsed.names and not (is_singular_form and name == count):
                found.error(
                    mark,
                    f"the message of {where} does not use its placeholder '{{{name}}}'",
                    "use it in the text, or remove its declaration",
                )
    if isinstance(node, Mapping):
        if one is None or other is None or count is None:
            return None
        if count not in used and count in names and not broken:
            found.error(
                node.mark,
                f"the plural message of {where} never shows its count '{{{count}}}'",
                f"use {{{count}}} in the 'other' form",
            )
        return Message(one, other, count)
    return Message(one) if one is not None else None


def _recovery(f: Fields, where: str, found: Diagnostics) -> Recovery | None:
    node = f.node("recovery")
    if node is None:
        return None
    r = Fields(node, schema.RECOVERY, found, f"the recovery of {where}")
    if not r.valid:
        return None
    kind = r.choice("kind")
    steps = [text for text, _ in r.text_list("steps")]
    avoid = [text for text, _ in r.text_list("avoid")]
    steps_node = r.node("steps")
    if isinstance(steps_node, Sequence) and not steps_node.items:
        found.error(r.mark("steps"), f"the recovery of {where} has no steps", "list at least one")
        return None
    if kind is None or not steps:
        return None
    return Recovery(kind, tuple(steps), tuple(avoid))


def _retry(f: Fields, where: str, limit_ids: tuple[str, ...], found: Diagnostics) -> Retry | None:
    node = f.node("retry")
    if node is None:
        return None
    r = Fields(node, schema.RETRY, found, f"the retry policy of {where}")
    if not r.valid:
        return None
    example = f", such as '{limit_ids[0]}'" if limit_ids else ""
    policy, limit = r.choice("policy"), r.text("limit", f"write the id of a limit{example}")
    if policy is None:
        return None
    if policy == RetryPolicy.BOUNDED.value:
        if limit is None:
            if not r.has("limit"):
                found.error(
                    r.mark("policy"),
                    f"the bounded retry policy of {where} names no limit",
                    "add 'limit:' with the limit that caps the attempts",
                )
            return None
        if not _reference(limit, r.mark("limit"), limit_ids, "limit", "retry.limit", where, found):
            return None
    elif limit is not None:
        found.error(
            r.mark("limit"),
            f"the retry policy '{policy}' of {where} takes no limit",
            "remove 'limit:', or use policy: bounded",
        )
        return None
    return Retry(RetryPolicy(policy), limit)
