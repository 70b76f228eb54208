"""The "Error codes and diagnostics" site: Markdown pages and MkDocs configuration per language.

One MkDocs build per published language (English, and every locale whose docs catalog has any
translated prose), so that each language gets a search index of its own. Every page is plain
Markdown rendered from ``templates/site``; registry and translation text passes through
:mod:`generator.emit.site.markdown`, and prose with no translation yet appears in the source
language, marked as such.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import jinja2
from babel import Locale
from babel.messages.catalog import Catalog
from babel.numbers import format_decimal, format_percent
from babel.units import format_unit

from ...catalogs import pofile
from ...catalogs.catalog import translations
from ...catalogs.checks import Counts
from ...catalogs.entries import entries, message_contexts
from ...catalogs.locales import cldr_unit, digit_groups
from ...diagnostic_ids import IDS as DIAGNOSTIC_IDS
from ...diagnostics import Diagnostics, InvalidInput, Mark
from ...digest import digest
from ...names import header as header_line
from ...plurals import PluralRule
from ...plurals import lookup as plural_rule
from ...plurals import parse as parse_plural_forms
from ...registry import placeholders, schema
from ...registry.model import Code, Envelope, ExtraField, Limit, Registry, title_context
from ...registry.validate import semver
from .. import Files
from ..render import render
from . import markdown, wires

#: The pages errorbook writes in every language, each with what it is (for diagnostics).
PAGES = {
    "index": "the home page",
    "overview": "the page of failure layers",
    "shapes": "the page of result shapes",
    "codes/index": "the table of all codes",
    "limits": "the page of limits",
    "adapters": "the page of transports",
    "recovery": "the page of recovery for each code",
    "changelog": "the changelog",
    "schema": "the page of the codes.yaml schema",
    "translators": "the translators' guide",
    "progress": "the page of translation progress",
}
ASSETS = ("errorbook.js", "errorbook.css")


#: Two or more empty lines in a row, where sections a code does not have were left out.
_BLANK_RUNS = re.compile(r"\n{3,}")


def after_sentence(text: object) -> str:
    """What goes between a sentence and the next: nothing after a full-width stop (Chinese
    and Japanese set no space there), else a space."""
    return "" if str(text).rstrip().endswith(("\u3002", "\uff01", "\uff1f")) else " "


def site_pages(registry: Registry) -> dict[str, str]:
    """The pages of :data:`PAGES` that ``registry`` has content for: no page of shapes,
    limits, transports or recovery for a registry that declares none."""
    has = {
        "shapes": bool(registry.shapes),
        "limits": bool(registry.limits),
        "adapters": bool(registry.adapters),
        "recovery": any(code.recovery for code in registry.codes),
        "changelog": has_history(registry),
        "translators": bool(registry.meta.locales),
        "progress": bool(registry.meta.locales),
    }
    return {name: what for name, what in PAGES.items() if has.get(name, True)}


@dataclass(frozen=True)
class Source:
    """What made one file of the site, so that a clash can name both makers. ``mark`` and
    ``fix`` say where and how the author resolves it; errorbook's own files have neither."""

    what: str
    mark: Mark | None = None
    fix: str = ""


def served_at(path: str) -> str:
    """Where MkDocs serves a file, with directory URLs: ``x.md`` as ``x/``, ``index.md`` and
    ``README.md`` as their folder; any other file as itself. Two files served at one place
    are a clash even when their names differ."""
    posix = PurePosixPath(path)
    if posix.suffix != ".md":
        return path
    folder = posix.parent if posix.stem in ("index", "README") else posix.with_suffix("")
    return folder.as_posix() + "/"


def _places(path: str) -> tuple[str, str]:
    """The file and the address ``path`` takes (an address ends in '/', a file never does),
    as a case-insensitive disk sees them: on macOS and Windows ``Index.md`` replaces
    ``index.md``, so the two clash on every system."""

    def folded(place: str) -> str:
        return unicodedata.normalize("NFC", place).casefold()

    return folded(path), folded(served_at(path))


@dataclass
class SiteFiles:
    """The site's files as they are made, each with its :class:`Source`.

    A plain dict keeps whichever file came last; here a second file at a place already
    taken is kept out and becomes a diagnostic naming both, reported once for all
    languages. :meth:`result` raises :class:`InvalidInput` if there was any."""

    docs: str  # <site>/docs, where each language's pages are
    files: dict[str, bytes] = field(default_factory=dict)
    found: Diagnostics = field(default_factory=Diagnostics)
    owners: dict[str, tuple[str, Source]] = field(default_factory=dict)
    reported: set[tuple[str, str]] = field(default_factory=set)

    def add(self, path: str, data: bytes, source: Source) -> None:
        places = _places(path)
        known = next((self.owners[p] for p in places if p in self.owners), None)
        if known is not None:
            self._clash(known, path, source)
            return
        for place in places:
            self.owners[place] = (path, source)
        self.files[path] = data

    def _clash(self, known: tuple[str, Source], path: str, source: Source) -> None:
        first_path, first = known
        if (first.what, source.what) in self.reported:
            return  # the same clash in another language
        self.reported.add((first.what, source.what))
        author = source if source.mark is not None else first
        if first_path == path:
            message = f"{path} is both {source.what} and {first.what}"
        elif first_path.casefold() == path.casefold():
            message = (
                f"{path} ({source.what}) and {first_path} ({first.what}) differ only in "
                "case, so they are one file on macOS and Windows"
            )
        else:
            message = (
                f"{path} ({source.what}) and {first_path} ({first.what}) would be one page "
                f"of the site: MkDocs serves both at {self.address(path)}"
            )
        self.found.error("E-SITE-PAGE-CLASH", author.mark or Mark(path, 1, 1), message, author.fix)

    def address(self, path: str) -> str:
        """Where the site shows a page, as a reader sees it: ``en/codes/`` for a page
        ``<site>/docs/en/codes.md``."""
        return PurePosixPath(served_at(path)).relative_to(self.docs).as_posix() + "/"

    def result(self) -> dict[str, bytes]:
        if self.found.has_errors:
            raise InvalidInput(self.found)
        return self.files


def _hand_written(site_dir: str, name: str) -> Source:
    """A hand-written page as a source: the file the author renames to resolve a clash."""
    shown = (PurePosixPath(site_dir) / "pages" / f"{name}.md").as_posix()
    return Source(
        f"the hand-written page {shown}",
        Mark(shown, 1, 1),
        f"rename {shown}",
    )


def _code_source(code: Code) -> Source:
    return Source(
        f"the page of code {code.name} ({code.mark})",
        code.mark,
        "rename the code",
    )


class Raw(str):
    """Markdown that a template built itself (a link, a code span): inserted as it is."""


@dataclass
class Text:
    """A piece of prose in a page's language, or in the source language where untranslated.
    ``code``: errorbook's own text, whose backticks mark code spans (a registry's text is
    shown as written, backticks included)."""

    value: str
    translated: bool = True
    code: bool = False
    lang: str | None = None  # the language of untranslated text, if not the registry's


@dataclass
class Page:
    """What a page's templates may ask for; records whether any prose fell back."""

    registry: Registry
    lang: str
    source: str
    prose: Mapping[str, str]
    ui: Mapping[str, tuple[str, ...]]
    fallback: list[str] = field(default_factory=list)
    plain: Callable[..., str] = str  # errorbook's own text as plain text (set per language)
    own: Mapping[str, str] = field(default_factory=dict)  # errorbook's own text, translated

    def text(self, context: str, source: str) -> Text:
        found = self.prose.get(context)
        return Text(found, True) if found else Text(source, self.lang == self.source)

    def site_text(self, source: str) -> Text:
        """errorbook's own text (templates/site/i18n) as prose, marked where untranslated."""
        found = self.own.get(source)
        if found:
            return Text(found, True, code=True)
        english = self.lang.split("_")[0] == "en"  # the language errorbook's text is written in
        return Text(source, english, code=True, lang="en")

    def md(self, value: Text | str) -> str:
        """Inline Markdown for prose, with untranslated prose marked in the page's language."""
        if isinstance(value, Raw):
            return str(value)
        if isinstance(value, str):
            return markdown.inline(value)
        shown = markdown.inline_code(value.value) if value.code else markdown.inline(value.value)
        if value.translated:
            return shown
        self.fallback.append(value.value)
        return f'<span class="eb-untranslated" lang="{value.lang or self.source}">{shown}</span>'

    def quote(self, value: Text) -> str:
        """A message as a blockquote, line for line as written (see :func:`markdown.quote`);
        untranslated text is marked line by line, so that no mark spans two paragraphs."""
        lines = [line if line.strip() else "" for line in value.value.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        return markdown.quote(
            [self.md(Text(line, value.translated)) if line else "" for line in lines]
        )


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[\u3002\uff01\uff1f])")  # CJK full stops


def first_sentence(value: Text) -> Text:
    """The first sentence, for one-line summaries in tables (any script)."""
    parts = _SENTENCE_END.split(value.value.strip(), maxsplit=1)
    return Text(parts[0], value.translated)


def chrome_catalog(env: jinja2.Environment, lang: str) -> dict[str, str]:
    """errorbook's own site strings in ``lang`` (templates/site/i18n/<lang>.po), if any."""
    return chrome_text(env, lang)[0]


def chrome_text(env: jinja2.Environment, lang: str) -> tuple[dict[str, str], PluralRule | None]:
    """:func:`chrome_catalog`, with the file's own plural rule (its Plural-Forms header, or
    errorbook's rule for the language where it has none), which says how many forms its
    translators wrote and which one a number takes."""
    try:
        text, _, _ = env.loader.get_source(env, f"site/i18n/{lang}.po")  # type: ignore[union-attr]
    except jinja2.TemplateNotFound:
        return {}, None
    catalog, _, problems = pofile.read(text.encode("utf-8"), f"templates/site/i18n/{lang}.po", lang)
    if problems.has_errors:
        return {}, None
    header = catalog.plural_forms_text  # as read: Babel would put CLDR's rule in its place
    rule = parse_plural_forms(header) if header else plural_rule(lang)
    found = translations(catalog)
    if not header and rule is not None:  # Babel padded each plural entry to CLDR's count
        for message in catalog:
            strings = message.string
            if not isinstance(strings, tuple) or message.fuzzy or len(strings) < rule.count:
                continue
            forms, rest = strings[: rule.count], strings[rule.count :]
            source = str(message.id[0])
            if all(forms) and not any(rest) and not placeholders.text_problems(source, forms):
                found.setdefault(source, "\x00".join(forms))
    return found, rule


def published(registry: Registry, docs: Mapping[str, Catalog]) -> tuple[str, ...]:
    """The source locale, then every target locale with any translated reference prose."""
    translated = [lang for lang in registry.meta.locales if translations(docs.get(lang))]
    return (registry.meta.source_locale, *translated)


def _example_params(code: Code) -> dict[str, object]:
    return {p.name: p.example for p in code.placeholders if p.example is not None}


def example_message(code: Code, forms: tuple[str, ...] | None) -> str:
    """The message of the example envelope, filled as the runtime fills it."""
    params = _example_params(code)
    source = code.message.plural or code.shown_message
    template = (forms[-1] if code.message.count is not None else forms[0]) if forms else source
    return placeholders.fill(template, params) or placeholders.fill(source, params) or source


def envelope(registry: Registry, code: Code, message: str) -> dict[str, object]:
    body: dict[str, object] = {"code": code.name, "message": message}
    params = _example_params(code)
    if params:
        body["params"] = params
    return _enveloped(registry.envelope(code), body)


def _enveloped(form: Envelope | None, error: dict[str, object]) -> dict[str, object]:
    """``error`` inside the envelope ``form``; the error object alone without one."""
    if form is Envelope.ERROR:
        return {"ok": False, "error": error}
    if form is Envelope.RESULT:
        return {"ok": True, "result": {"error": error}}
    return error


def shape_example(registry: Registry, shape: str) -> str:
    """The envelope the shapes page shows for ``shape``, around the registry's own example
    code (:meth:`Registry.example`), so that no registry's site shows another's codes. A
    shape that no code has shows '...' in place of a code."""
    code = registry.example(shape)
    error: dict[str, object] = {"code": code.name if code else "...", "message": "..."}
    return markdown.json_block(_enveloped(registry.shape(shape).envelope, error))


def has_history(registry: Registry) -> bool:
    """Whether any code says when it came, was deprecated or retired: else no changelog."""
    return any(c.since or c.deprecated or c.retired for c in registry.codes)


def changelog(registry: Registry) -> tuple[list[str], dict[str, dict[str, list[Code]]]]:
    """Per version, newest first: the codes it added, deprecated and retired (nothing for a
    registry whose codes give no dates)."""
    events: dict[str, dict[str, list[Code]]] = {}
    if not has_history(registry):
        return [], events

    def at(version: str) -> dict[str, list[Code]]:
        return events.setdefault(version, {"added": [], "deprecated": [], "retired": []})

    at(registry.meta.version)
    for code in registry.codes:
        if code.since is not None:
            at(code.since)["added"].append(code)
        if code.deprecated is not None:
            at(code.deprecated.since)["deprecated"].append(code)
        if code.retired is not None:
            at(code.retired.since)["retired"].append(code)
    versions = sorted(events, key=semver, reverse=True)
    return versions, events


#: The free-text units of limits that CLDR knows, as its unit ids; any other unit is shown as
#: the registry writes it, after the number.
#: Sizes of 1 KiB and more in binary units (the symbols are the same in every language).
_BINARY = (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def limit_unit_forms(limit: Limit, prose: Mapping[str, str]) -> tuple[str, ...]:
    """A limit's unit in a language, by plural form: the translation of its unit entry in
    ``prose`` (the docs catalog's translations), else the registry's singular and plural
    (none for a CLDR unit, which :func:`quantity` names itself)."""
    if cldr_unit(limit.unit) is not None:
        return ()
    translated = prose.get(f"limit.{limit.id}.unit")
    if translated:
        return tuple(translated.split("\x00"))
    return (limit.unit_one, limit.unit) if limit.unit_one else (limit.unit,)


def quantity(value: int, unit: str, lang: str, forms: tuple[str, ...] = ()) -> str:
    """A limit's value with its unit, as the page's language writes it: digit grouping,
    CLDR's unit names and plural forms ("60 Sekunden", "500 ミリ秒"), a size of 1 KiB or more
    in binary units ("1 MiB"). A unit CLDR does not have takes ``forms``, its plural forms in
    the page's language (the registry's singular and plural, or a translation), chosen by the
    language's plural rule ("1 attempt", "3 attempts", "5 prób"); without them it is written
    as the registry gives it."""
    locale = Locale.parse(lang)
    cldr = cldr_unit(unit)
    if cldr == "digital-byte":
        for symbol, size in _BINARY:
            if abs(value) >= size:
                return f"{format_decimal(round(value / size, 2), locale=locale)} {symbol}"
    if cldr is not None:
        return str(format_unit(value, cldr, locale=locale))
    word = unit
    rule = plural_rule(lang)
    if len(forms) > 1 and rule is not None and rule.count == len(forms):
        word = forms[rule.index(value)]
    elif forms:
        word = forms[-1]
    return f"{format_decimal(value, locale=locale)} {word}"


def _number(value: int, lang: str) -> str:
    return str(format_decimal(value, locale=Locale.parse(lang)))


def _percent(value: int, lang: str) -> str:
    """``value`` per cent (a whole number) with the language's sign and spacing."""
    return str(format_percent(value / 100, locale=Locale.parse(lang)))


def direction(lang: str) -> str:
    """``rtl`` for a language written right to left (CLDR's character order, through
    Babel), else ``ltr``: Material lays out the whole page, navigation and tables
    included, in that direction."""
    return "rtl" if Locale.parse(lang).character_order == "right-to-left" else "ltr"


def _language_name(lang: str) -> str:
    return Locale.parse(lang).get_display_name(lang) or lang


@dataclass
class PageCache:
    """Code pages that need not be rendered again.

    A code's page is made from that code, its layer and limits, the transports, the page's
    language, the prose and UI translations of exactly those, errorbook's own site text in
    that language and the templates. ``previous`` maps each page to the hash of all that
    (and the hash of the page) as the last run made it; ``read`` gives a page as it is on
    disk. A page whose inputs and file are both unchanged is taken from disk, so a change to
    one code re-renders that code's pages only. ``made`` collects the same for this run.
    Only the shipped templates are trusted with this: a project's own code template may
    show anything, so with override templates every page is rendered."""

    fingerprint: str
    previous: Mapping[str, tuple[str, str]]
    read: Callable[[str], bytes | None]
    made: dict[str, tuple[str, str]] = field(default_factory=dict)


def _owner(context: str, names: Set[str]) -> str:
    """What a prose context belongs to: the longest code name it starts with (a sub-code's
    name has dots of its own, A.B.meaning is A.B's), else its first part ("adapter", ...)."""
    parts = context.split(".")
    for end in range(len(parts) - 1, 1, -1):
        name = ".".join(parts[:end])
        if name in names:
            return name
    return parts[0]


def _code_page_keys(
    cache: PageCache,
    page: Page,
    chrome: tuple[Mapping[str, str], PluralRule | None],
    header: str,
    examples: str,
) -> Callable[[Code], str]:
    """The key of each code's page in ``page``'s language (see :class:`PageCache`).

    The prose is grouped by the first part of its context once per language (a code's name,
    or "adapter", "layer", ...), so that a key costs only that code's own entries."""
    registry = page.registry
    owned: dict[str, list[tuple[str, str]]] = {}
    names = {code.name for code in registry.codes}
    for context, text in page.prose.items():
        owned.setdefault(_owner(context, names), []).append((context, text))
    common = digest(
        cache.fingerprint,
        examples,  # what the generated package answers in this language
        page.lang,
        page.source,
        header,
        repr(sorted(chrome[0].items())),
        repr(chrome[1]),
        repr(registry.adapters),
        repr(registry.fields),
        repr((registry.shapes, registry.recovery_kinds, registry.actors, registry.meta.wires)),
    )

    def key(code: Code) -> str:
        shared = (
            f"layer.{code.layer}.title",
            f"recovery.{code.recovery.kind if code.recovery else ''}",
            *(f"limit.{limit}.{part}" for limit in code.limits for part in ("bounds", "unit")),
        )
        prose = sorted(
            [*owned.get(code.name, ()), *owned.get("adapter", ())]
            + [(k, page.prose[k]) for k in shared if k in page.prose]
        )
        return digest(
            common,
            repr(code),
            repr([(c.name, c.slug) for c in registry.children(code.name)]),
            repr(registry.layer(code.layer)),
            repr([registry.limit(limit) for limit in code.limits]),
            repr(page.ui.get(code.name)),
            repr(page.ui.get(title_context(code.name))),
            repr(prose),
        )

    return key


def emit(
    registry: Registry,
    env: jinja2.Environment,
    site_dir: str,
    docs: Mapping[str, Catalog],
    messages: Mapping[str, Catalog],
    progress: Mapping[tuple[str, str], Counts],
    pages: Mapping[str, str],
    cache: PageCache | None = None,
    examples: wires.Examples | None = None,
) -> Files:
    """Every page, asset and MkDocs configuration of the site, for every published language.
    With ``cache``, code pages whose inputs did not change are taken from disk (see
    :class:`PageCache`), and ``cache.made`` is filled for the next run. ``examples`` gives
    each code's example as the generated package's functions return it on every wire
    (:mod:`generator.emit.site.wires`); without it, a code's page shows its envelope.

    Raises :class:`InvalidInput` when two files would take one place (see :class:`SiteFiles`):
    a hand-written page named like one of errorbook's, for instance."""
    out = SiteFiles(str(PurePosixPath(site_dir) / "docs"))
    languages = published(registry, docs)
    source = registry.meta.source_locale
    versions, _ = changelog(registry)  # the same for every language
    header = header_line(registry.path)
    totals = {d: len(entries(registry, d)) for d in ("messages", "docs")}
    roots: list[dict[str, str]] = []  # each language as the root page lists it
    for lang in languages:
        chrome, plural = chrome_text(env, lang)  # errorbook's own text is English's
        roots.append(
            {
                "folder": lang,
                "tag": lang.replace("_", "-"),
                "name": _language_name(lang),
                "site": _plain(chrome)("%(title)s error codes", title=registry.meta.title),
            }
        )

        ui = {
            k: tuple(v.split("\x00"))
            for k, v in translations(messages.get(lang), message_contexts(registry)).items()
        }
        page = Page(registry, lang, source, translations(docs.get(lang)), ui)
        t, tn = _chrome(chrome, plural, page)
        page.plain = _plain(chrome)
        page.own = chrome
        context = _context(registry, page, languages, progress, totals, t, pages, examples)
        context.update(tn=tn, tp=page.plain, tpn=_plain_counted(chrome, plural))
        root = PurePosixPath(site_dir) / "docs" / lang
        for name, what in site_pages(registry).items():
            page.fallback.clear()
            body = render(env, f"site/{name.replace('/index', '')}.md.j2", **context).decode()
            data = _stamp(_with_note(body, page, t), header).encode()
            out.add(str(root / f"{name}.md"), data, Source(what))
        for name, text in pages.items():  # hand-written, in the source language only
            page.fallback[:] = [name] if lang != source else []
            shown = text if lang == source else in_language(text, source)
            body = render(env, "site/page.md.j2", text=shown, **context).decode()
            data = _stamp(_with_note(body, page, t), header).encode()
            out.add(str(root / f"{name}.md"), data, _hand_written(site_dir, name))
        shown = examples.fingerprint(lang) if examples is not None else ""
        page_key = _code_page_keys(cache, page, (chrome, plural), header, shown) if cache else None
        for code in registry.codes:
            path = str(root / "codes" / f"{code.slug}.md")
            key = page_key(code) if page_key is not None else ""
            kept = _kept(cache, path, key) if cache is not None else None
            if kept is None:
                page.fallback.clear()
                body = render(env, "site/code.md.j2", code=code, **context).decode()
                body = _BLANK_RUNS.sub("\n\n", body)  # sections a code leaves out
                kept = _stamp(_with_note(body, page, t), header).encode()
            out.add(path, kept, _code_source(code))
            if cache is not None:
                cache.made[path] = (key, digest(kept))
        for version in versions:
            page.fallback.clear()
            body = render(env, "site/version.md.j2", version=version, **context).decode()
            data = _stamp(_with_note(body, page, t), header).encode()
            what = f"the page of version {version}"
            out.add(str(root / "changelog" / f"{version}.md"), data, Source(what))
        for asset in ASSETS:
            data = render(env, f"site/assets/{asset}.j2", header=header)
            out.add(str(root / "assets" / asset), data, Source(f"errorbook's {asset}"))
        context.update(
            header=header,
            languages=languages,
            names={x: _language_name(x) for x in languages},
            # One language needs no switcher: Material shows it for any non-empty list.
            alternate=[_alternate(x) for x in languages] if len(languages) > 1 else [],
            authored=[{_title(text): f"{name}.md"} for name, text in pages.items()],
            search_lang=_search_language(lang),
            search_separator=SEARCH_SEPARATOR,
            direction=direction(lang),
        )
        config = render(env, "site/mkdocs.lang.yml.j2", **context)
        what = f"the MkDocs configuration of {lang}"
        out.add(str(PurePosixPath(site_dir) / f"mkdocs.{lang}.yml"), config, Source(what))
    redirect = render(
        env,
        "site/redirect.html.j2",
        header=header,
        docs_url=registry.meta.docs_url,
        languages=roots,
    )
    what = "the redirect to the home page"
    out.add(str(PurePosixPath(site_dir) / "root" / "index.html"), redirect, Source(what))
    return out.result()


def _alternate(lang: str) -> dict[str, str]:
    """One entry of Material's language switcher (``extra.alternate``): the language's home,
    relative to this language's, so that it is right under any base path. The errorbook
    plugin points each page's links at the same page in every language."""
    return {
        "name": _language_name(lang),
        "link": f"../{lang}/",
        "lang": lang.replace("_", "-"),
    }


#: Characters YAML does not accept as they are, or reads as a line break inside quotes.
_NOT_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def yaml_json(value: object) -> str:
    """A JSON value that YAML reads back as the same value (front matter, for instance).

    JSON text is YAML, except that YAML refuses some characters JSON leaves as they are
    (DEL, C1 controls) and reads others as line breaks: those are written as escapes."""
    text = json.dumps(value, ensure_ascii=False)
    return _NOT_YAML.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def title_json(value: object) -> str:
    """A page's ``title`` for its front matter: MkDocs themes put ``page.meta.title`` and
    ``page.title`` into the HTML as they are (Material's ``<title>``, the navigation, the
    search index), so the title is written as HTML text, its ``&``, ``<`` and ``>`` as
    character references, and reads as itself in every one of them."""
    return yaml_json(html.escape(str(value), quote=False))


def _kept(cache: PageCache, path: str, key: str) -> bytes | None:
    """The page as on disk, if the last run made it from the same inputs and nobody has
    changed it since."""
    known = cache.previous.get(path)
    if known is None or known[0] != key:
        return None
    data = cache.read(path)
    return data if data is not None and digest(data) == known[1] else None


def in_language(text: str, lang: str) -> str:
    """A hand-written page shown on another language's site, marked as written in ``lang``
    (so that a screen reader reads it with the right voice): its first heading through its
    attribute list, everything after it in a ``<div lang>`` (md_in_html), so that the note
    placed under the heading (:func:`_with_note`) stays in the page's language."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if at is None:
        return f'<div lang="{lang}" markdown>\n\n{text.strip()}\n\n</div>\n'
    heading = lines[at].rstrip()
    if heading.endswith("}") and "{" in heading:  # an attribute list of its own
        heading = f'{heading[:-1].rstrip()} lang="{lang}" }}'
    else:
        heading = f'{heading} {{ lang="{lang}" }}'
    rest = "\n".join(lines[at + 1 :]).strip()
    return "\n".join(
        [*lines[:at], heading, "", f'<div lang="{lang}" markdown>', "", rest, "", "</div>", ""]
    )


def _title(markdown_text: str) -> str:
    """A hand-written page's title: its first level-one heading."""
    return next(
        (line[2:].strip() for line in markdown_text.splitlines() if line.startswith("# ")), "Page"
    )


#: Where search splits words, in the pages and in a query: white space, hyphens and
#: underscores (so DISK_FULL_NOW is found by "disk full"), a dot not followed
#: by a digit (PARENT.SUB, but not 0.5), and the full-width punctuation of Chinese and
#: Japanese that Material's own Japanese separator lists. A minus before a number is taken
#: off the query by errorbook.js, where search would read it as "must not contain".
SEARCH_SEPARATOR = "[\\s\\-_\u3000\u3001\u3002\uff0c\uff0e]+|\\.(?!\\d)"


def _search_language(lang: str) -> str:
    """The language code Material's search (lunr) knows for a locale, or English."""
    known = {
        "ar",
        "da",
        "de",
        "du",
        "es",
        "fi",
        "fr",
        "hi",
        "hu",
        "hy",
        "it",
        "ja",
        "kn",
        "ko",
        "nl",
        "no",
        "pt",
        "ro",
        "ru",
        "sa",
        "sv",
        "ta",
        "te",
        "th",
        "tr",
        "vi",
        "zh",
    }
    language = lang.split("_")[0]
    return language if language in known else "en"


def _plain(catalog: Mapping[str, str]) -> Callable[..., str]:
    """``tp(message, **params)``: site text as plain text, for YAML and front matter."""

    def tp(message: str, **params: object) -> str:
        return _fill(catalog.get(message) or message, params)

    return tp


def _counted(catalog: Mapping[str, str], rule: PluralRule | None) -> Callable[[str, str, int], str]:
    """The site text for a number ``n`` of things, as ``ngettext`` picks it: the translation's
    plural form that its file's Plural-Forms ``rule`` gives ``n``, or else the English singular
    for 1 and the plural for any other number. A translation with another number of forms than
    the rule counts is not used."""

    def choose(singular: str, plural: str, n: int) -> str:
        forms = catalog.get(singular, "").split("\x00")
        if rule is not None and len(forms) == rule.count and all(forms):
            try:  # a header in a project's own site text may hold any expression
                index = rule.index(n)
            except (ValueError, SyntaxError, RecursionError, ArithmeticError):
                index = -1
            if 0 <= index < len(forms):
                return forms[index]
        return singular if n == 1 else plural

    return choose


def _plain_counted(catalog: Mapping[str, str], rule: PluralRule | None) -> Callable[..., str]:
    """``tpn(singular, plural, n, **params)``: :func:`_plain` for a text about ``n`` things."""
    choose = _counted(catalog, rule)

    def tpn(singular: str, plural: str, n: int, **params: object) -> str:
        return _fill(choose(singular, plural, n), params)

    return tpn


_PARAM = re.compile(r"%\((\w+)\)s")


def _fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with each ``%(name)s`` field replaced by its parameter, as ``t`` fills them:
    a field without a parameter and any other ``%`` (a translator's "100 %") stay as they
    are, where ``%`` formatting would raise."""
    if not params:
        return text
    return _PARAM.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def _chrome(
    catalog: Mapping[str, str], rule: PluralRule | None, page: Page
) -> tuple[Callable[..., str], Callable[..., str]]:
    """``t(message, **params)`` and ``tn(singular, plural, n, **params)``: errorbook's own site
    text in the page's language, as Markdown; ``tn`` takes the form for ``n`` things (see
    :func:`_counted`).

    The (translated) message is escaped like any other text; ``%(name)s`` fields are replaced
    by their parameters, each escaped too unless the template built it as :class:`Raw`.
    """

    def filled(text: str, params: Mapping[str, object]) -> str:
        out: list[str] = []
        position = 0
        for match in _PARAM.finditer(text):
            out.append(markdown.inline(text[position : match.start()], start=not out))
            value = params.get(match.group(1), match.group(0))
            out.append(page.md(value) if isinstance(value, (str, Text)) else str(value))
            position = match.end()
        out.append(markdown.inline(text[position:], start=not out))
        return "".join(out)

    choose = _counted(catalog, rule)

    def t(message: str, **params: object) -> str:
        return filled(catalog.get(message) or message, params)

    def tn(singular: str, plural: str, n: int, **params: object) -> str:
        return filled(choose(singular, plural, n), params)

    return t, tn


def _stamp(body: str, header: str) -> str:
    """The "generated" notice as an HTML comment, after the front matter MkDocs reads."""
    if body.startswith("---\n"):
        end = body.index("\n---\n", 4) + 5
        return f"{body[:end]}\n<!-- {header} -->\n{body[end:]}"
    return f"<!-- {header} -->\n\n{body}"


def _with_note(body: str, page: Page, t: Callable[..., str]) -> str:
    """Say at the top of a page that some of it is still in the source language."""
    if not page.fallback or page.lang == page.source:
        return body
    source = Locale.parse(page.source)
    if source.language == "en":
        note = t("Parts of this page are not translated yet and are shown in English.")
    else:  # the registry's text falls back to its own language, named in the page's
        note = t(
            "Parts of this page are not translated yet and are shown in the registry's own "
            "language (%(language)s).",
            language=source.get_display_name(page.lang) or page.source,
        )
    lines = body.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("# ")), 0) + 1
    # An admonition title is plain text (Markdown does not format it): no escaping, no quotes.
    title = page.plain("Not yet translated").replace('"', "'")
    lines[at:at] = ["", f'!!! note "{title}"', "    " + note]
    return "\n".join(lines)


def _context(
    registry: Registry,
    page: Page,
    languages: tuple[str, ...],
    progress: Mapping[tuple[str, str], Counts],
    totals: Mapping[str, int],
    t: Callable[..., str],
    pages: Mapping[str, str],
    examples: wires.Examples | None,
) -> dict[str, object]:
    def ui_message(code: Code) -> Text:
        """The message as a reader sees it: literal braces single (placeholders.shown)."""
        forms = page.ui.get(code.name)
        if forms:
            shown = [placeholders.shown(form) for form in forms]
            return Text(" / ".join(shown) if code.message.count is None else shown[-1], True)
        text = code.message.plural or code.message.text
        return Text(placeholders.shown(text), page.lang == page.source)

    def code_title(code: Code) -> Text:
        """The code's title in the page's language (its UI translation), else as written."""
        forms = page.ui.get(title_context(code.name))
        if forms:
            return Text(forms[0], True)
        return Text(code.title, page.lang == page.source)

    def example(code: Code) -> str:
        """The code's example on every wire the generated package has, as tabs; or its
        envelope alone, when the package cannot make one (a registry without shapes)."""
        made = examples.examples(code, page.lang) if examples is not None else ()
        if made:
            return wires.tabs(
                made,
                lambda label: page.plain(label),
                lambda call: t("%(call)s returns:", call=Raw(call)),
            )
        forms = page.ui.get(code.name)
        return markdown.json_block(envelope(registry, code, example_message(code, forms)))

    def unit_forms(limit: Limit) -> tuple[str, ...]:
        return limit_unit_forms(limit, page.prose)

    def extra(code: Code, declared: ExtraField) -> Raw:
        """A code's value of a declared field as inline Markdown; a dash when it has none."""
        value = code.extra.get(declared.name)
        if value is None:
            return Raw("\N{EN DASH}")
        if isinstance(value, bool):
            return Raw(t("yes") if value else t("no"))
        if isinstance(value, tuple):
            return Raw(", ".join(page.md(item) for item in value))
        return Raw(page.md(str(value)))

    rows = []
    for lang in page.registry.meta.locales:
        for domain in ("messages", "docs"):
            counts = progress.get((lang, domain), Counts(0, 0, totals[domain]))
            done = round(100 * counts.translated / counts.total) if counts.total else 100
            rows.append(
                {
                    "lang": lang,
                    "name": _language_name(lang),
                    "domain": domain,
                    "counts": counts,
                    "percent": done,
                    "published": lang in languages,
                }
            )
    versions, events = changelog(registry)
    return {
        "versions": versions,
        "events": events,
        "registry": registry,
        "meta": registry.meta,
        "page": page,
        "T": page.text,
        "S": page.site_text,
        "md": page.md,
        "cell": page.md,
        "quote": page.quote,
        "first": first_sentence,
        "ui_message": ui_message,
        "code_title": code_title,
        "example": example,
        "extra": extra,
        "recovery_kinds": {kind.id: kind.summary for kind in registry.recovery_kinds},
        "schemas": schema.ALL,
        "examples": schema.EXAMPLES,
        "diagnostic_ids": DIAGNOSTIC_IDS,
        "progress": rows,
        "has_page": site_pages(registry),
        "after": after_sentence,
        "shape_example": {shape.id: shape_example(registry, shape.id) for shape in registry.shapes},
        "pages": {name: _title(text) for name, text in pages.items()},
        "t": t,
        "Raw": Raw,
        "link": lambda text, target: Raw(f"[{page.md(text)}]({target})"),
        "codespan": lambda text: Raw(markdown.code_span(str(text))),
        # Counts as the page's language writes numbers (CLDR, through Babel): "1.000" in German.
        "number": lambda value: Raw(markdown.inline(_number(value, page.lang), start=False)),
        "percent": lambda value: Raw(markdown.inline(_percent(value, page.lang), start=False)),
        # The finder groups its counts in threes with this; "" where the language does not.
        "group": digit_groups((page.lang,)).get(page.lang, ""),
        "quantity": lambda value, limit: Raw(
            markdown.inline(quantity(value, limit.unit, page.lang, unit_forms(limit)))
        ),
        "anchor": lambda name: "{#" + str(name).replace(" ", "-") + "}",
        "lang": page.lang,
        "source": page.source,
        "json": yaml_json,
        "title_json": title_json,
    }
