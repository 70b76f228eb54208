"""errorbook's pages inside a site of a team's own: the plugin's ``path`` option.

``errorbook generate`` writes one folder of pages per published language,
``<site>/docs/<lang>/``, the layout errorbook's own site builds one language at a time. A
team's site has its own ``docs_dir``, nav and pages; the plugin adds one language's folder
to its build as files (MkDocs' ``on_files``) and touches nothing else.

A page's source is ``<path>/<page>`` in every language, so that one nav entry
(``errors/index.md``) works in each language's build. It is published at
``<path>/<lang>/<page>``, the layout of errorbook's own site below the registry's
``docs_url``: so ``docs_url`` is the site's URL with ``<path>/`` added. The assets are the
same in every language and go to ``<path>/assets/`` once.

Each plugin owns its own links: mkdocs-static-i18n (or whatever makes the site's language
switcher) those of the team's pages, errorbook those of its own, which point at the same
page of errorbook's in the other language.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from .. import inputs

#: What the stylesheet and the script of errorbook's pages are called below ``path``.
ASSETS = ("assets/errorbook.css", "assets/errorbook.js")
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")


def clean_path(value: str) -> str:
    """The ``path`` option as the plugin uses it: '/'-separated folder names, no slash at
    either end; refused when it could leave the docs or is no plain folder name."""
    path = value.strip("/")
    if not all(_SEGMENT.match(part) for part in path.split("/")):
        raise PluginError(
            f"errorbook: `path: {value}` is not a folder inside the site's docs: give "
            "folder names of letters, digits, '.', '_' and '-', separated by '/' (e.g. errors)"
        )
    return path


def languages(docs: Path) -> list[str]:
    """The languages errorbook publishes: the folders ``generate`` wrote in ``docs``."""
    if not docs.is_dir():
        return []
    return sorted(entry.name for entry in docs.iterdir() if (entry / "index.md").is_file())


def build_language(lang: str | None, config: MkDocsConfig, published: Sequence[str]) -> str:
    """The language whose pages this build publishes: the ``lang`` option, else the theme's
    language (which mkdocs-static-i18n sets for each language it builds)."""
    theme = config.theme
    chosen = lang or theme.get("language") or theme.get("locale")
    chosen = str(chosen) if chosen else ""
    if chosen not in published:
        shown = ", ".join(published) or "none yet (run `errorbook generate`)"
        raise PluginError(
            f"errorbook: this build is in {chosen or 'no language'}, and errorbook publishes "
            f"its pages in {shown}; set the errorbook plugin's `lang` to one of them, or "
            "translate errorbook's docs catalog of that language"
        )
    return chosen


def docs_url_problem(site: Path, lang: str, site_url: str, path: str) -> str | None:
    """What is wrong with the registry's ``docs_url`` for this site, if anything: every code's
    link in the generated outputs is ``<docs_url><lang>/codes/<code>/``, and this site
    publishes the pages at ``<site_url><path>/<lang>/``. The registry's value is read from
    the language's generated MkDocs configuration (its ``site_url`` is ``<docs_url><lang>/``)."""
    try:
        data = inputs.read(site / f"mkdocs.{lang}.yml")
    except inputs.InputFileError:
        data = None
    found = re.search(rb'^site_url: "([^"]*)"$', data or b"", re.M)
    if found is None or not site_url:
        return None
    published = urljoin(site_url.rstrip("/") + "/", f"{path}/")
    docs_url = found.group(1).decode("utf-8", "replace").removesuffix(f"{lang}/")
    if docs_url == published:
        return None
    return (
        f"errorbook: the registry's docs_url is {docs_url}, and this site publishes "
        f"errorbook's pages at {published}: set `docs_url: {published}` in the registry, "
        "so that every code's link leads to its page"
    )


def _walk(folder: Path) -> Iterator[tuple[str, Path]]:
    for item in sorted(folder.rglob("*")):
        if item.is_file():
            yield item.relative_to(folder).as_posix(), item


def add_pages(files: Files, config: MkDocsConfig, folder: Path, path: str, lang: str) -> set[str]:
    """Add the pages of ``folder`` (one language's) to ``files`` below ``path``, and return
    their ``src_uri``: the pages this plugin made, whose links are its own."""
    made: set[str] = set()
    for name, source in _walk(folder):
        uri = f"{path}/{name}"
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"errorbook: the site's docs have {uri} already, where errorbook's page goes; "
                "move that file, or set the errorbook plugin's `path` to another folder"
            )
        file = File.generated(config, uri, abs_src_path=str(source))
        if name not in ASSETS:  # a page: in its language's folder
            file.dest_uri = f"{path}/{lang}/{file.dest_uri[len(path) + 1 :]}"
        files.append(file)
        made.add(uri)
    return made


def switcher(extra: Any) -> list[Any] | None:
    """The list of ``extra.alternate`` the theme will show, as Jinja finds it: an attribute
    first (mkdocs-static-i18n sets one on each of its pages), else the item."""
    found = getattr(extra, "alternate", None)
    if found is None and isinstance(extra, Mapping):
        found = extra.get("alternate")
    return found if isinstance(found, list) else None


def page_alternates(
    alternates: Sequence[Mapping[str, Any]],
    url: str,
    path: str,
    lang: str,
    published: Sequence[str],
) -> list[dict[str, Any]]:
    """The site's language switcher (``extra.alternate``) as one of errorbook's pages shows
    it: each language errorbook publishes points at this page in that language (a link from
    the site's root, which the theme makes relative to the page); any other is left as the
    site has it."""
    within = url[len(f"{path}/{lang}/") :]
    shown = []
    for alternate in alternates:
        entry = copy.deepcopy(dict(alternate))
        other = str(entry.get("lang", "")).replace("-", "_")  # hreflang: errorbook's folder
        if other in published:
            entry["link"] = f"{path}/{other}/{within}"
        shown.append(entry)
    return shown
