"""An MkDocs plugin that keeps the generated pages in step while the site is built or served.

``plugins: [errorbook]`` in mkdocs.yml. Before every build it does what ``errorbook generate``
does: nothing when no input changed since the last run (the stamp says so without parsing
anything), else the whole pipeline, which rewrites only files whose content changed, and a new
stamp. Under ``mkdocs serve`` it also watches the registry and the catalogs, so editing
codes.yaml or a PO file regenerates the pages and reloads the browser.

Under ``errorbook site serve`` the command itself watches the inputs and regenerates, so that
an edit makes MkDocs rebuild once (a regeneration inside the build would write into the
watched pages and start a second build); the plugin then only builds.

Each language is its own MkDocs build, and ``errorbook site build`` runs them side by side: the
builds of one project take turns here (the project's lock), so the first regenerates what
changed and the others find the stamp up to date.

Every page of errorbook's names its translations (a page it did not make keeps the links the
site gives it): the ``<link rel="alternate" hreflang>`` of the head point at the same page in
each published language, with absolute URLs and an ``x-default`` (the source language), and
the language switcher's links at the same page too, relative to it, so that they work under
any base path and in a local preview at the root. Under ``mkdocs serve`` only one language is
there to see: the switcher's other languages point at the published site.

In a team's own site (the ``path`` option, see :mod:`.hosted`) the plugin adds its pages to
the build; while one of them is laid out, the switcher (``extra.alternate``, as the theme
shows it) points at the same page of errorbook's in each language.

Catalog problems that a regeneration finds (a fuzzy entry, a placeholder a translation
dropped) are logged as ``errorbook generate`` prints them: as warnings under ``mkdocs
serve``, where a translator watches the pages change, and as information in a build, where
``--strict`` would otherwise fail on what ``generate`` only warns about (``errorbook check``
is the gate for those).
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from mkdocs.config import base, config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from .. import config
from ..diagnostics import InvalidInput
from ..digest import digest
from ..emit.site.wires import EXAMPLES_END, EXAMPLES_START
from ..errors import ErrorbookError
from ..pipeline import cachedir, output, stamp
from . import (
    hosted,
    rendered_pages,
    search_entries,
    template_code,
    themed_pages,
)
from .site_build import SERVING

log = logging.getLogger("mkdocs.plugins.errorbook")
_SEVERITY = re.compile(r": (?:error|warning): ")  # the log level says it
#: What Material writes for ``extra.alternate``: the head's links, one line each, and the
#: switcher's links.
_HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
_SWITCHER_LINK = re.compile(r'<a href="[^"]*" hreflang="([^"]*)" class="md-select__link">')
#: A code's example tabs in a page's HTML, and the comment that holds their place while the
#: search plugin reads the page.
_EXAMPLES = re.compile(re.escape(EXAMPLES_START) + "(.*?)" + re.escape(EXAMPLES_END), re.S)


#: Markdown extensions the generated pages use, with the settings they need (MkDocs itself
#: always adds toc, tables and fenced_code): anchors and classes written as ``{#id}`` and
#: ``{: .class}``, Markdown inside HTML blocks, the deprecation and retirement boxes, and a
#: code's example on every wire as content tabs holding fenced blocks.
REQUIRED_EXTENSIONS: dict[str, dict[str, object]] = {
    "attr_list": {},
    "md_in_html": {},
    "admonition": {},
    "pymdownx.superfences": {},
    "pymdownx.tabbed": {"alternate_style": True},
}


class ErrorbookConfig(base.Config):  # type: ignore[no-untyped-call]
    """The plugin's options in mkdocs.yml (``plugins: [errorbook: {...}]``)."""

    #: False: the plugin does nothing at all (no regeneration, no links, no memos).
    enabled = config_options.Type(bool, default=True)
    #: False: every page is converted, indexed and laid out afresh, and nothing is kept in
    #: the project's cache folder for the next build.
    cache = config_options.Type(bool, default=True)
    #: The folder the project's cache folder is made in, relative to mkdocs.yml (default:
    #: the user's cache folder, ``$XDG_CACHE_HOME/errorbook``); never one inside the
    #: project's git work tree, where a commit could put caches (see pipeline.cachedir).
    cache_dir = config_options.Optional(config_options.Type(str))
    #: The folder of the site's docs where errorbook's pages go, in a site of a team's own
    #: (see :mod:`.hosted`); empty: the site's docs are errorbook's pages of one language.
    path = config_options.Type(str, default="")
    #: The language whose pages a build under ``path`` publishes (default: the theme's).
    lang = config_options.Optional(config_options.Type(str))


class ErrorbookPlugin(BasePlugin[ErrorbookConfig]):  # type: ignore[no-untyped-call]
    serving = False

    def __init__(self) -> None:
        super().__init__()
        self.load_config({})  # the defaults, until MkDocs loads the site's options
        #: The example tabs taken out of each page's content until the page is written.
        self._held: dict[str, list[str]] = {}
        # In the comment that holds their place: no text on a page can forge it, and it never
        # reaches the output (the tabs replace it), which stays byte-identical.
        self._token = secrets.token_hex(8)
        #: Converts each page's Markdown, or takes what an earlier build converted (None:
        #: MkDocs converts every page); decided at the first page of each build.
        self._pages: rendered_pages.RenderedPages | None = None
        self._pages_known = False
        #: Adds each page's entries to the search index, or takes those an earlier build
        #: made (None: the search plugin parses every page).
        self._search: search_entries.SearchEntries | None = None
        #: Lays out each page through the theme's template, or takes the layout an earlier
        #: build made (None: the template lays out every page).
        self._themed: themed_pages.ThemedPages | None = None
        #: The build's template environment, where the pages' templates come from.
        self._env: Any = None
        #: The theme's templates as earlier builds compiled them.
        self._templates: template_code.TemplateCode | None = None
        #: Under ``path``: the pages this build added, the languages errorbook publishes,
        #: the site's language switcher as the build began, and what a page of errorbook's
        #: replaced in it.
        self._own: set[str] = set()
        self._lang = ""
        self._published: list[str] = []
        #: Without ``path``: whether the site's docs are errorbook's pages (its own layout).
        self._owns_docs = False
        self._alternates: list[Any] | None = None
        self._replaced: list[Any] | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Turn on the Markdown extensions the generated pages need (:data:`REQUIRED_EXTENSIONS`),
        when the site's own configuration does not list them: a site of a team's own, or a
        project that set up its mkdocs.base.yml before the pages used one, renders them
        without an edit."""
        if not self.config.enabled:
            return config
        for name, settings in REQUIRED_EXTENSIONS.items():
            if name not in config.markdown_extensions:
                config.markdown_extensions.append(name)
                config.mdx_configs.setdefault(name, dict(settings))
        if self.config.path:
            path = self.config.path = hosted.clean_path(self.config.path)
            for asset, listed in zip(
                hosted.ASSETS, (config.extra_css, config.extra_javascript), strict=True
            ):
                if f"{path}/{asset}" not in [str(item) for item in listed]:
                    listed.append(f"{path}/{asset}")
        self._forget()
        return config

    @event_priority(-200)  # after mkdocs-static-i18n's, which keeps only the files it knows
    def on_files(self, files: Any, /, *, config: MkDocsConfig) -> Any:
        """Under ``path``, add errorbook's pages of this build's language to the site's files
        (see :mod:`.hosted`)."""
        self._own, self._owns_docs = set(), False
        if not self.config.enabled:
            return files
        settings = self._settings(config)
        if not self.config.path:  # errorbook's own layout: are these docs its pages?
            docs = Path(config.docs_dir).resolve()
            site = settings.site_dir
            self._owns_docs = site is not None and docs.is_relative_to(site.resolve() / "docs")
            return files
        if settings.site_dir is None:
            raise PluginError(
                "errorbook: `path` needs the pages `errorbook generate` makes: set `site` "
                "in [tool.errorbook] (init sets it)"
            )
        docs = settings.site_dir / "docs"
        self._published = hosted.languages(docs)
        lang = self._lang = hosted.build_language(self.config.lang, config, self._published)
        problem = hosted.docs_url_problem(
            settings.site_dir, lang, config.site_url or "", self.config.path
        )
        if problem is not None:
            log.warning(problem)
        self._own = hosted.add_pages(files, config, docs / lang, self.config.path, lang)
        alternates = config.extra.get("alternate")
        # As the site (or mkdocs-static-i18n, at each build's start) sets it.
        self._alternates = copy.deepcopy(alternates) if isinstance(alternates, list) else None
        return files

    def _forget(self) -> None:
        """Decide again, at the next build's first page, what may be taken from memos: the
        site's settings may have changed."""
        self._pages, self._pages_known, self._search = None, False, None
        self._themed, self._env, self._templates = None, None, None

    def _page_memos(self, mkdocs_config: MkDocsConfig) -> None:
        """Decide, at a build's first page, when every plugin has configured the site,
        whether its pages are converted and indexed through the memos of the last build of
        this configuration."""
        if self._pages_known:
            return
        self._pages_known = True
        if not self.config.cache or self.config.path:  # a team's pages are not errorbook's
            return
        folder = cachedir.of(self._settings(mkdocs_config))
        made_with = rendered_pages.fingerprint(mkdocs_config)
        if made_with is not None:
            name = _memo_name("pages", mkdocs_config)
            self._pages = rendered_pages.RenderedPages(folder, name, made_with)
        self._search = self._search_entries(mkdocs_config, folder)
        made_with = themed_pages.fingerprint(mkdocs_config)
        if made_with is not None:
            token = self._token
            self._themed = themed_pages.ThemedPages(
                folder,
                _memo_name("themed", mkdocs_config),
                made_with,
                lambda content: content.replace(token, "held"),
                overridden=bool(mkdocs_config.theme.custom_dir),
            )

    def _search_entries(
        self, mkdocs_config: MkDocsConfig, folder: Path | None
    ) -> search_entries.SearchEntries | None:
        """What adds this build's pages to Material's search index, through the memo of the
        last build of this configuration where the index is one it knows."""
        index = search_entries.index_of(mkdocs_config.plugins)
        made_with = None if index is None else search_entries.fingerprint(index)
        if made_with is None:
            return None
        token = self._token
        return search_entries.SearchEntries(
            folder,
            _memo_name("search", mkdocs_config),
            made_with,
            index,
            lambda content: content.replace(token, "held"),
        )

    def _settings(self, mkdocs_config: MkDocsConfig) -> config.Config:
        folder = Path(mkdocs_config.config_file_path).resolve().parent
        try:
            settings = config.load(cwd=folder)
        except config.ConfigError as exc:
            raise PluginError(f"errorbook: {exc}") from None
        if self.config.cache_dir is None:
            return settings
        return dataclasses.replace(settings, cache_dir=folder / self.config.cache_dir)

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        if os.environ.get(SERVING):
            return  # `errorbook site serve` regenerates before MkDocs sees a change
        settings = self._settings(config)
        with output.locked(settings.root, wait=True):  # the languages build side by side
            if stamp.unchanged(settings):
                return  # nothing changed since the last generate: no need to parse anything
            self._generate(settings)

    def _generate(self, settings: config.Config) -> None:
        from ..pipeline import build  # the full pipeline, only when there is work

        try:
            _, catalog_run = build.regenerate(settings)
        except InvalidInput as exc:
            raise PluginError("errorbook:\n" + exc.diagnostics.render(with_id=True)) from None
        except ErrorbookError as exc:  # configuration, output, an unreadable input
            raise PluginError(f"errorbook: {exc}") from None
        problems = catalog_run.problems
        if problems.items:
            level = logging.WARNING if self.serving else logging.INFO
            for item in problems.sorted():
                log.log(
                    level, "errorbook: %s", _SEVERITY.sub(": ", item.render(with_id=True), count=1)
                )
            log.log(
                level,
                "errorbook: the translations above are left out of the pages until they are "
                "fixed; `errorbook check` lists the same problems",
            )

    def on_pre_page(self, page: Any, /, *, config: MkDocsConfig, files: Any) -> Any:
        """Convert the page's Markdown through the memo of converted pages, when there is
        one (see :mod:`.rendered_pages`; the search index's memo, :mod:`.search_entries`,
        is set up here too)."""
        if not self.config.enabled:
            return page
        self._page_memos(config)
        if self._pages is not None:
            self._pages.attach(page)
        return page

    def on_page_content(self, html: str, /, *, page: Any, config: MkDocsConfig, files: Any) -> str:
        """Take a code's example tabs out of the page's content until it is written.

        The search plugin indexes ``page.content`` when the page's context is made, which comes
        after this event; the tabs (every wire's rendering of the code's example, a
        highlighted token per ``<span>``) would be most of what it parses and would add to
        the index only what the page states above them. ``on_post_page`` puts them back."""
        if not self.config.enabled:
            return html
        held: list[str] = []

        def hold(found: re.Match[str]) -> str:
            held.append(found.group(1))
            return self._placeholder(len(held) - 1)

        content = _EXAMPLES.sub(hold, html)
        if held:
            self._held[page.file.src_uri] = held
        return content

    def _placeholder(self, number: int) -> str:
        return f"<!-- errorbook:held {self._token} {number} -->"

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Any) -> Any:
        """Compile the theme's templates through the project's cache of compiled
        templates (see :mod:`.template_code`), unless the site brought a cache of its own."""
        if not self.config.enabled:
            return env
        self._env = env
        if env.bytecode_cache is None and self.config.cache:
            self._templates = template_code.TemplateCode(cachedir.of(self._settings(config)))
            env.bytecode_cache = self._templates
        return env

    @event_priority(-100)  # after every other plugin's: the context as the template gets it
    def on_page_context(self, context: Any, /, *, page: Any, config: MkDocsConfig, nav: Any) -> Any:
        """Lay out the page through the memo of laid out pages, when there is one (see
        :mod:`.themed_pages`)."""
        if not self.config.enabled:
            return context
        shown = hosted.switcher(config.extra)
        if page.file.src_uri in self._own and self._alternates and shown is not None:
            self._replaced = list(shown)
            shown[:] = hosted.page_alternates(
                self._alternates, page.url, self.config.path, self._lang, self._published
            )
        if self._themed is not None and self._env is not None:
            name = page.meta.get("template", "main.html")
            if isinstance(name, str):  # the template MkDocs took for the page, from its cache
                self._themed.prepare(context, page, self._env.get_template(name))
        return context

    @event_priority(100)  # before every other plugin's: the output as the template wrote it
    def on_post_page(self, output: str, /, *, page: Any, config: MkDocsConfig) -> str:
        if not self.config.enabled:
            return output
        if self._themed is not None:
            self._themed.keep(output, page)
        held = self._held.pop(page.file.src_uri, None)
        if held:
            for number, tabs in enumerate(held):
                output = output.replace(self._placeholder(number), tabs, 1)
        if page.file.src_uri in self._own:
            shown = hosted.switcher(config.extra)
            if shown is not None and self._replaced is not None:
                shown[:] = self._replaced  # as the site has it, for its own pages
            self._replaced = None
            return output
        alternates = config.extra.get("alternate")
        if not self._owns_docs or not isinstance(alternates, Sequence) or not config.site_url:
            return output  # a page errorbook did not make keeps the links it has
        return translations(output, page.url, config.site_url, alternates, serving=self.serving)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Keep what this build made for the next one (under ``mkdocs serve``, the next
        rebuild), and decide again then: the site's Markdown settings may have changed."""
        if not self.config.enabled:
            return
        for memo in (self._pages, self._search, self._themed, self._templates):
            if memo is not None:
                memo.save()
        self._forget()

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        if not self.config.enabled:
            return server
        signal_folder = os.environ.get(SERVING)
        if signal_folder:  # the command watches the inputs and says when the pages are written
            server.unwatch(config.docs_dir)
            server.watch(signal_folder)
            return server
        settings = self._settings(config)
        server.watch(str(settings.registry))
        if settings.locales_dir.is_dir():
            server.watch(str(settings.locales_dir))
        return server


def _memo_name(kind: str, mkdocs_config: MkDocsConfig) -> str:
    """The cache file of one kind of memo for one site configuration (a file each: the
    languages build side by side)."""
    source = Path(mkdocs_config.config_file_path).resolve()
    return f"site-{kind}-{source.stem}-{digest(str(source))[:12]}.memo"


def translations(
    html: str,
    url: str,
    site_url: str,
    alternates: Sequence[Any],
    *,
    serving: bool = False,
) -> str:
    """``html`` (the page at ``url`` of the language published at ``site_url``) with its
    translations named per page: in the head, absolute URLs and an ``x-default`` (the first
    alternate, the source language); in the switcher, links relative to the page (under
    ``serving``, absolute ones for the languages not served)."""
    folders: dict[str, str] = {}  # hreflang -> the language's home, relative to this one's
    for alternate in alternates:
        if isinstance(alternate, dict) and alternate.get("lang") and alternate.get("link"):
            folders.setdefault(str(alternate["lang"]), str(alternate["link"]))
    if not folders:
        return html
    absolute = {lang: urljoin(site_url, link) + url for lang, link in folders.items()}
    head = "".join(
        f'    <link rel="alternate" href="{href}" hreflang="{lang}">\n'
        for lang, href in [*absolute.items(), ("x-default", next(iter(absolute.values())))]
    )
    # Material writes both in the head and the header, before the page's content: the rest
    # (most of the page) is neither searched nor rewritten.
    cut = html.find("</header>")
    html, rest = (html, "") if cut < 0 else (html[:cut], html[cut:])
    first = iter([head])  # the first of Material's links gives way to ours, the others go
    html = _HEAD_ALTERNATE.sub(lambda _: next(first, ""), html)
    up = "../" * url.count("/")  # from this page's folder to the language's home
    here = urljoin(site_url, ".")

    def switch(match: re.Match[str]) -> str:
        lang = match.group(1)
        link = folders.get(lang)
        if link is None:
            return match.group(0)
        if serving and urljoin(site_url, link) != here:
            target = absolute[lang]  # not served here: the published page
        elif link.startswith(("/", "http:", "https:")):
            target = link + url
        else:
            target = up + link + url
        return f'<a href="{target}" hreflang="{lang}" class="md-select__link">'

    return _SWITCHER_LINK.sub(switch, html) + rest
