"""The 'registry' section: names, locales and URLs that every output is built around."""

from __future__ import annotations

import keyword
import re

from babel import Locale, UnknownLocaleError

from ... import plurals
from ...diagnostics import Diagnostics, Mark
from ...suggest import suggest
from .. import regex, schema
from ..fields import Fields, entries, text_value
from ..loader import Mapping, Scalar
from ..model import WIRES, Meta
from .names import MAX_NAMING_LENGTH, Naming
from .versions import SEMVER, semver, semver_field

LOCALE = re.compile(r"[a-z]{2,3}(_([A-Z]{2}|[A-Z][a-z]{3}))?\Z")

URL = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~%!$&'()*+,;=:@-]*)*/\Z")

#: Characters a name may not hold: themes insert the title into HTML without escaping it.
MARKUP = re.compile(r"[<>&\"']")

#: What may not be in the title beyond the control characters every text refuses: it is
#: the catalogs' Project-Id-Version field and a header comment line, each one line.
LINE_BREAK = re.compile(r"[\t\n]")

MAX_LOCALES = 100


def _one_line_title(title: str, f: Fields, found: Diagnostics) -> str | None:
    """The title, or None and an error where it would not stay on one line: a line break
    in a header field would make the rest of it a header field of its own."""
    bad = LINE_BREAK.search(title)
    if bad is None:
        return title
    node = f.node("title")
    found.error(
        "E-META-TITLE-LINE-BREAK",
        node.mark_at(bad.start()) if isinstance(node, Scalar) else f.mark("title"),
        f"the title contains a {'tab' if bad.group() == chr(9) else 'line break'} at "
        f"character {bad.start() + 1}",
        "write it on one line, without tabs (it is a header field of every catalog)",
    )
    return None


def read_meta(top: Fields, found: Diagnostics) -> Meta | None:
    node = top.node("registry")
    if node is None:
        return None
    f = Fields(node, schema.META, found, "'registry'")
    if not f.valid:
        return None
    version = semver_field(f, "version", found)
    source = read_locale(f.text("source_locale"), f.mark("source_locale"), found)
    locales: list[str] = []
    for value, mark in f.text_list("locales"):
        tag = read_locale(value, mark, found)
        if tag is None:
            continue
        if plurals.lookup(tag) is None:
            found.error(
                "E-PLURAL-NO-RULE",
                mark,
                f"errorbook has no plural rule for locale '{tag}'",
                "add its Plural-Forms to generator/plurals.py",
            )
        elif tag == source:
            found.error(
                "E-LOCALE-IS-SOURCE",
                mark,
                f"'{tag}' is the source locale",
                "list only the target locales",
            )
        elif tag in locales:
            found.error(
                "E-LOCALE-DUPLICATE",
                mark,
                f"locale '{tag}' is listed twice",
                "remove the second entry",
            )
        else:
            locales.append(tag)
    if len(locales) > MAX_LOCALES:
        found.error(
            "E-LOCALE-TOO-MANY",
            f.mark("locales"),
            f"{len(locales)} target locales are more than the {MAX_LOCALES} allowed",
            "publish fewer languages from one registry",
        )
    docs_url = f.text("docs_url")
    if docs_url is not None and not URL.match(docs_url):
        found.error(
            "E-META-DOCS-URL",
            f.mark("docs_url"),
            f"'docs_url' must be an http(s) URL ending in '/', not '{docs_url}'",
            "write it like https://docs.example.org/errors/",
        )
        docs_url = None
    title = f.text("title")
    if title is not None and MARKUP.search(title):
        found.error(
            "E-META-TITLE-MARKUP",
            f.mark("title"),
            f"the title '{title}' contains markup characters",
            "write it without < > & \" ' (themes put it into HTML as it is)",
        )
        title = None
    if title is not None:
        title = _one_line_title(title, f, found)
    package = f.identifier("package")
    if package is not None and (keyword.iskeyword(package) or package in ("generator",)):
        found.error(
            "E-META-PACKAGE",
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
        name=name,
        title=title,
        version=version,
        package=package,
        source_locale=source,
        locales=tuple(locales),
        docs_url=docs_url,
        description=description,
        error_domain=f.text("error_domain") or "",
        required=read_policy(f, found),
        wires=read_wires(f, found),
        releases=read_releases(f, version, found),
        version_mark=f.mark("version"),
    )


def read_releases(
    f: Fields, version: str | None, found: Diagnostics
) -> tuple[tuple[str, str], ...]:
    """``registry.releases``: per version, the text that says why it changed what it did."""
    node = f.node("releases")
    if node is None:
        return ()
    result: list[tuple[str, str]] = []
    for key, value in entries(node, "release", found):
        if not SEMVER.match(key.value):
            found.error(
                "E-VERSION-FORMAT",
                key.mark,
                f"'{key.value}' in 'releases' is not a version MAJOR.MINOR.PATCH",
                "write three numbers without leading zeros, such as 1.2.0",
            )
            continue
        if version is not None and semver(key.value) > semver(version):
            found.error(
                "E-VERSION-AFTER-REGISTRY",
                key.mark,
                f"'releases' describes {key.value}, after the registry's version {version}",
                f"set registry.version to {key.value}, or describe a version up to {version}",
            )
            continue
        if not isinstance(value, Scalar):
            found.error(
                "E-SCHEMA-TYPE",
                value.mark,
                f"the release notes of {key.value} must be text, not {value.kind}",
                "write a sentence or a few",
            )
            continue
        text = text_value(value, key.value, "'releases'", found)
        if text is not None:
            result.append((key.value, text))
    return tuple(result)


def wires_alone(top: Fields, found: Diagnostics) -> tuple[str, ...]:
    """``registry.wires`` when other metadata is broken (those problems already reported),
    so that the codes are checked against the wires the registry names, not against none:
    a bad version must not make every code's 'http:' a problem too."""
    node = top.node("registry")
    if node is None or not isinstance(node, Mapping):
        return ()
    return read_wires(Fields(node, schema.META, Diagnostics(), "'registry'"), found)


def read_wires(f: Fields, found: Diagnostics) -> tuple[str, ...]:
    """``registry.wires``: the wires errorbook maps the codes onto, in the tool's order."""
    named: list[str] = []
    for wire, mark in f.text_list("wires"):
        if wire not in WIRES:
            found.error(
                "E-WIRE-UNKNOWN",
                mark,
                f"'registry.wires' names '{wire}', which is not a wire errorbook knows",
                suggest(wire, WIRES),
            )
        elif wire in named:
            found.error(
                "E-REF-DUPLICATE",
                mark,
                f"'registry.wires' names '{wire}' twice",
                "remove the second entry",
            )
        else:
            named.append(wire)
    return tuple(w for w in WIRES if w in named)


def read_policy(f: Fields, found: Diagnostics) -> tuple[str, ...]:
    """``registry.required``: which optional per-code keys every code must give."""
    keys: list[str] = []
    for key, mark in f.text_list("required"):
        if key not in schema.POLICY_KEYS:
            found.error(
                "E-POLICY-UNKNOWN-KEY",
                mark,
                f"'registry.required' names '{key}', which is not an optional code key",
                suggest(key, schema.POLICY_KEYS, "key"),
            )
        elif key in keys:
            found.error(
                "E-REF-DUPLICATE",
                mark,
                f"'registry.required' names '{key}' twice",
                "remove the second entry",
            )
        else:
            keys.append(key)
    return tuple(keys)


def read_naming(top: Fields, found: Diagnostics) -> Naming:
    """``registry.naming``: the rule code names follow. Read on its own, before the codes
    and whatever else is wrong in 'registry', so that no name is judged by the wrong rule;
    what is invalid in it falls back to the default."""
    registry = top.node("registry")
    node = None
    if isinstance(registry, Mapping):
        node = next((value for key, value in registry.pairs if key.value == "naming"), None)
    if node is None:
        return Naming()
    f = Fields(node, schema.NAMING, found, "'registry.naming'")
    if not f.valid:
        return Naming()
    pattern, length = None, Naming().max_length
    text = f.text("pattern")
    if text is not None:
        try:
            pattern = regex.compile(text)
        except re.error as exc:
            found.error(
                "E-META-NAMING-PATTERN",
                f.mark("pattern"),
                f"'registry.naming.pattern' is not a valid regular expression: {exc}",
                "write a Python regular expression, such as '[A-Za-z_][A-Za-z0-9_]*'",
            )
        except regex.RegexError as exc:
            found.error(
                "E-PATTERN-UNSUPPORTED",
                f.mark("pattern"),
                f"'registry.naming.pattern' uses {exc}, which errorbook does not match",
                regex.HINT,
            )
    value = f.integer("max_length")
    if value is not None:
        if 1 <= value <= MAX_NAMING_LENGTH:
            length = value
        else:
            found.error(
                "E-META-NAMING-LENGTH",
                f.mark("max_length"),
                f"'registry.naming.max_length' is {value}, outside 1 to {MAX_NAMING_LENGTH}",
                f"use a length from 1 to {MAX_NAMING_LENGTH}: a code's page is a file named "
                "after it",
            )
    return Naming(pattern=pattern, max_length=length)


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


def read_locale(value: str | None, mark: Mark, found: Diagnostics) -> str | None:
    if value is None:
        return None
    tag, problem, hint = locale_problem(value)
    if problem:
        found.error("E-LOCALE-TAG", mark, problem, hint)
        return None
    return tag
