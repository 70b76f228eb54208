"""Material's navigation, laid out once for all the pages of a folder that are not in it.

Material writes the site's whole navigation (``partials/nav.html``) into every page: on a
site of many codes, a third of what its template costs. What it writes for a page depends
on the page only through which of the navigation's items are active (the page and the
sections above it) and through the page's place, which its links are made relative to.
A page that is not in the navigation (every code page) marks no item active, and pages of
one folder see every link alike: so the navigation of one such page is the navigation of
every other page whose links to the navigation's items read the same. This lays it out for
the first of them and writes the same text for the others.

It does so only where that holds: for Material of a version in
:data:`.themed_pages.MATERIAL` on MkDocs of a version in :data:`.themed_pages.MKDOCS`, whose
``nav.html`` reads only the build's settings and navigation besides the page; with no
template of the site's own (``custom_dir``, which may read anything) and no plugin but those
known to add nothing to what a template reads (:data:`.themed_pages.PLUGINS`). A page in
the navigation, or one below an active item, is laid out as before. A build with it and
one without give the same bytes (``tests/emit/test_page_memos.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from typing import Any

from . import themed_pages

#: The template this lays out once per folder.
NAME = "partials/nav.html"


def supported(mkdocs_config: Any) -> bool:
    """Whether the navigation of this site's pages may be shared (see the docstring)."""
    try:
        if set(mkdocs_config.plugins) - themed_pages.PLUGINS:
            return False
        theme = mkdocs_config.theme
        if theme.name != "material" or theme.custom_dir:
            return False
        return metadata.version("mkdocs").startswith(themed_pages.MKDOCS) and metadata.version(
            "mkdocs-material"
        ).startswith(themed_pages.MATERIAL)
    except (AttributeError, TypeError, metadata.PackageNotFoundError):
        return False


def _items(items: Iterable[Any]) -> Iterator[Any]:
    for item in items:
        yield item
        yield from _items(getattr(item, "children", None) or ())


class SharedNav:
    """Lays out the navigation once per folder of pages outside it, for one build."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], str] = {}

    def attach(self, env: Any) -> None:
        """Make the environment's ``nav.html`` go through :meth:`_render` (a template of
        the environment's cache; should Jinja load it again, that copy lays out as before)."""
        template = env.get_template(NAME)
        if getattr(template, "_errorbook_shared", None) is self:
            return
        lay_out: Callable[[Any], Iterator[str]] = template.root_render_func
        made = self._made

        def render(context: Any) -> Iterator[str]:
            key = _key(context)
            if key is None:
                yield from lay_out(context)
                return
            text = made.get(key)
            if text is None:
                text = made[key] = "".join(lay_out(context))
            yield text

        template.root_render_func = render
        template._errorbook_shared = self


def _key(context: Any) -> tuple[Any, ...] | None:
    """For a page outside the navigation with no active item: the navigation, and every
    link of it as the page's ``url`` filter writes it (the links are all that differ from
    one such page to another); None for any other page."""
    from mkdocs.utils import normalize_url

    page, nav, config = context.get("page"), context.get("nav"), context.get("config")
    if page is None or nav is None or config is None or page in nav.pages:
        return None
    items = list(_items(nav.items))
    if any(getattr(item, "active", False) for item in items):
        return None
    base = context.get("base_url")
    urls = [getattr(item, "url", None) for item in items]
    urls.append(config.extra.get("homepage"))
    links = tuple(None if url is None else normalize_url(str(url), page, base) for url in urls)
    return id(nav), base, links
