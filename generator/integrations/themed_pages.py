"""Each page as the theme laid it out, kept from one build of a language to the next.

Once every page is converted, MkDocs renders each one through the theme's template: for
Material, the header, the navigation, the table of contents, the footer and the scripts
around the page's content. On a rebuild with the other memos that is most of what is left,
and it is the same work again for every page whose inputs did not change. What the template
writes is a function of what it is given (the page, the navigation, the site's settings),
the theme's templates and the libraries' code. So this keeps what it wrote around the
page's content (the part before and the part after, the content itself being in
``page.content`` already) under the hash of all of those, and writes it again when they are
the same.

It does so only where that holds and nothing is lost:

- the theme is Material of a version in :data:`MATERIAL`, on an MkDocs version in
  :data:`MKDOCS` (their templates read what the key holds, and no file but their own);
  templates a site overrides (``custom_dir``) are in the key, byte for byte, with the list
  of the site's pages and the build's date, which such a template may read;
- every plugin is one of :data:`PLUGINS` (another could add to what the template reads);
- the site's settings, the page's front matter and the context can be written down exactly;
- the page's content appears exactly once in what the template wrote.

Where a page's template is rendered, nothing changes. A page laid out anew and a page taken
from the memo give the same bytes (``tests/emit/test_page_memos.py`` builds the repository's
own site both ways).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import inputs
from ..digest import digest
from . import memo

#: The Material versions whose templates read only what :meth:`ThemedPages.key` holds.
MATERIAL = ("9.",)
#: The MkDocs versions that render a page with ``env.get_template(name).render(context)``.
MKDOCS = ("1.6.",)
#: The plugins known to add nothing to what the template reads.
PLUGINS = frozenset({"search", "material/search", "errorbook"})
#: The context MkDocs' ``get_context`` makes; a key a plugin adds is written into the key.
_CONTEXT = frozenset(
    {"nav", "pages", "base_url", "extra_css", "extra_javascript", "mkdocs_version",
     "build_date_utc", "config", "page"}
)  # fmt: skip
#: Settings no template reads: where this build writes, and what only ``serve`` uses.
_UNREAD = frozenset({"site_dir", "dev_addr", "watch"})
_LIBRARIES = ("mkdocs", "mkdocs-material", "Jinja2", "MarkupSafe")
_SOURCES = (Path(__file__), Path(__file__).with_name("memo.py"))


def _plain(value: Any) -> Any:
    """A value of the site's settings as JSON can write it; TypeError where it cannot be
    written down exactly (an object whose text names its address, a function say)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_plain(item) for item in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    if value is None or isinstance(value, str | int | float | bool):
        return value
    text = str(value)
    if " at 0x" in text or " object at " in text:
        raise TypeError(f"{type(value).__name__} cannot be written down")
    return [type(value).__qualname__, text]


def _overrides(dirs: Iterable[str]) -> list[str] | None:
    """Every file of the theme's folders other than Material's and MkDocs' own (whose
    versions are in the key), as its path and hash; None where one cannot be read."""
    installed = []
    for name in ("material", "mkdocs"):
        module = sys.modules.get(name)
        if module is not None and module.__file__:
            installed.append(Path(module.__file__).resolve().parent)
    found: list[str] = []
    for folder in dirs:
        where = Path(folder).resolve()
        if any(where.is_relative_to(package) for package in installed):
            continue
        try:  # read as any input is: a FIFO or a device is refused, never waited on
            for path in sorted(p for p in where.rglob("*") if p.is_file()):
                found.append(f"{path.relative_to(where)}\0{digest(inputs.read(path) or b'')}")
        except (OSError, inputs.InputFileError):
            return None
        found.append(f"{where}\0")
    return found


def fingerprint(mkdocs_config: Any) -> str | None:
    """The hash of what every page's layout depends on besides the page and the navigation;
    None where a layout cannot be kept (see the module's docstring)."""
    try:
        if others := sorted(set(mkdocs_config.plugins) - PLUGINS):
            memo.off("layout", f"plugins whose effect on a layout it does not know: {others}")
            return None
        theme = mkdocs_config.theme
        if theme.name != "material":
            memo.off("layout", f"the theme is {theme.name}, not Material")
            return None
        versions = [metadata.version(name) for name in _LIBRARIES]
        if not versions[0].startswith(MKDOCS) or not versions[1].startswith(MATERIAL):
            memo.off("layout", f"MkDocs {versions[0]} or Material {versions[1]} is not known")
            return None
        overrides = _overrides(theme.dirs)
        if overrides is None:
            memo.off("layout", "a file of the theme's folders cannot be read")
            return None
        settings = {
            key: _plain(value)
            for key, value in mkdocs_config.items()
            if key not in _UNREAD and key != "plugins"
        }
        if mkdocs_config.config_file_path:  # the same file, however the command named it
            settings["config_file_path"] = str(Path(mkdocs_config.config_file_path).resolve())
        settings["theme"] = [theme.name, _plain(dict(theme)), overrides]
        settings["plugins"] = {
            name: _plain(dict(plugin.config)) for name, plugin in mkdocs_config.plugins.items()
        }
        written = json.dumps(settings, sort_keys=True, ensure_ascii=False)
        sources = [path.read_bytes() for path in _SOURCES]
    except (TypeError, ValueError, OSError, AttributeError, metadata.PackageNotFoundError) as exc:
        memo.off("layout", f"the site's settings cannot be written down ({exc})")
        return None
    return digest(str(memo.FORMAT), sys.version, written, *versions, *sources)


def _link(page: Any) -> Any:
    return None if page is None else [page.title, page.url]


def _item(item: Any) -> Any:
    """A navigation item as a template reads it: what it is, its title and URL, a page's
    front matter and a section's children."""
    return {
        "kind": type(item).__name__,
        "title": item.title,
        "url": getattr(item, "url", None),
        "meta": getattr(item, "meta", None),
        "index": getattr(item, "is_index", None),
        "children": [_item(child) for child in item.children or ()],
    }


def _toc(items: Iterable[Any]) -> list[Any]:
    return [[i.title, i.url, i.level, _toc(i.children)] for i in items]


class ThemedPages:
    """Lays out pages for one build, from the memo where it can.

    ``normal`` gives the page's content as the key should see it (the errorbook plugin puts
    a placeholder with a token of its own where a code's examples are held); ``overridden``
    says whether the site overrides templates, which may read more of the context."""

    def __init__(
        self,
        folder: Path | None,
        name: str,
        fingerprint: str,
        normal: Callable[[str], str] = lambda content: content,
        *,
        overridden: bool = False,
    ) -> None:
        self._memo = memo.Memo(folder, name, fingerprint)
        self._fingerprint = fingerprint
        self._normal = normal
        self._overridden = overridden
        self._site: tuple[int, str] | None = None  # (id of the build's navigation, its hash)
        self._kept: dict[str, tuple[str, str]] = {}  # src_uri -> the layout to write again
        self._keys: dict[str, str] = {}  # src_uri -> the key of a layout to keep

    def _site_key(self, context: Mapping[str, Any]) -> str:
        nav = context["nav"]
        if self._site is None or self._site[0] != id(nav):
            parts: list[Any] = [[_item(item) for item in nav.items], _link(nav.homepage)]
            if self._overridden:
                parts.append([[f.src_uri, f.url] for f in context["pages"]])
                parts.append(str(context["build_date_utc"]))
            self._site = (id(nav), digest(json.dumps(parts, sort_keys=True)))
        return self._site[1]

    def key(self, context: Mapping[str, Any], page: Any) -> str | None:
        """The hash of everything the template reads for ``page``; None where something
        cannot be written down (a date in the front matter, say: the page is laid out)."""
        try:
            extra = {k: _plain(v) for k, v in context.items() if k not in _CONTEXT}
            ancestors = [[a.title, getattr(a, "url", None)] for a in page.ancestors]
            written = json.dumps(
                [
                    page.file.src_uri, page.url, page.canonical_url, page.abs_url,
                    page.edit_url, page.is_homepage, page.title, page.meta,
                    _toc(page.toc or ()), _link(page.previous_page), _link(page.next_page),
                    ancestors, context["base_url"], context["extra_css"],
                    _plain(context["extra_javascript"]), extra,
                ],
                sort_keys=True,
                ensure_ascii=False,
            )  # fmt: skip
            return digest(
                self._fingerprint, self._site_key(context), written, self._normal(page.content)
            )
        except (TypeError, ValueError, AttributeError, KeyError):
            return None

    def prepare(self, context: Mapping[str, Any], page: Any, template: Any) -> None:
        """Before ``template`` lays out ``page``: take the layout from the memo when it has
        one for this key, else note the key to keep what the template writes."""
        src_uri = page.file.src_uri
        self._kept.pop(src_uri, None)
        self._keys.pop(src_uri, None)
        key = self.key(context, page)
        if key is None:
            return
        kept = self._memo.get(key)
        if (
            isinstance(kept, list)
            and len(kept) == 2
            and all(isinstance(part, str) for part in kept)
        ):
            self._kept[src_uri] = (kept[0], kept[1])
            self._patch(template)
        else:
            self._keys[src_uri] = key

    def _patch(self, template: Any) -> None:
        """Make ``template.render`` write a kept layout around the page's content (the
        content as it is then: MkDocs may still mark a draft) instead of laying it out."""
        if getattr(template, "_errorbook_themed", None) is self:
            return
        lay_out: Callable[..., str] = template.render
        kept = self._kept

        def render(*args: Any, **kwargs: Any) -> str:
            context = args[0] if len(args) == 1 and not kwargs else None
            page = context.get("page") if isinstance(context, dict) else None
            found = None if page is None else kept.pop(page.file.src_uri, None)
            if page is None or found is None:
                return lay_out(*args, **kwargs)
            return found[0] + str(page.content) + found[1]

        template.render = render
        template._errorbook_themed = self

    def keep(self, output: str, page: Any) -> None:
        """Keep what the template wrote around ``page``'s content, when the page was laid
        out and its content appears exactly once in it."""
        key = self._keys.pop(page.file.src_uri, None)
        content = page.content
        if key is None or not content:
            return
        start = output.find(content)
        if start < 0 or output.find(content, start + 1) >= 0:
            return
        layout = [output[:start], output[start + len(content) :]]
        if any(self._normal(part) != part for part in layout):
            return  # it repeats what only this build's content holds (a token, say)
        self._memo.put(key, layout)

    def save(self) -> None:
        self._memo.save()
