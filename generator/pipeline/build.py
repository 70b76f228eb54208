"""Everything errorbook generates for one configuration, as one mapping of files.

``generate`` writes this mapping and ``check`` compares it, so the two can never disagree on
what the outputs are.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import os
import stat
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .. import inputs
from ..catalogs import paths as catalog_paths
from ..config import Config
from ..diagnostics import Diagnostics, InvalidInput, Mark
from ..digest import digest
from ..emit import Files
from ..errors import ConfigError
from ..registry.model import Registry
from . import cache, cachedir, catalogs, loading, output, runtime
from . import pages as page_files

if TYPE_CHECKING:
    from jinja2 import Environment

# The emitters, Jinja2, and the registry's reader and rules are imported where they are
# used: a run after a translator's edit takes the registry from its cache and the outputs
# made from it from disk, and needs none of them.


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Let Python's cycle collector run rarely while a registry or catalogs are built.

    Both build hundreds of thousands of small objects that stay alive, and the collector,
    which by default runs after every 700 allocations, walks all of them each time it
    reaches the older generations: on 10,000 codes in two languages that tripled the time of
    a run. The objects made here hold few reference cycles, so collecting after every
    200,000 allocations instead costs no memory that matters. The previous setting is
    restored, since errorbook also runs inside other programs (MkDocs, hatchling)."""
    previous = gc.get_threshold()
    gc.set_threshold(200_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def registry_for(
    config: Config,
    seen: Callable[[bytes], None] | None = None,
    loaded: Callable[[str], None] | None = None,
    use_cache: bool = True,
    started: loading.Loading | None = None,
) -> Registry:
    with few_collections():
        return _registry_for(config, seen, loaded, use_cache, started)


def _registry_for(
    config: Config,
    seen: Callable[[bytes], None] | None = None,
    loaded: Callable[[str], None] | None = None,
    use_cache: bool = True,
    started: loading.Loading | None = None,
) -> Registry:
    """Load the configured registry (see :mod:`.loading`); ``started``: its loading, begun
    by the caller. ``seen`` receives the bytes read (the stamp records what the run used).

    The registry ``generate`` last loaded from the same bytes is taken from its cache;
    ``loaded`` receives the cache key when the registry was read from its file instead,
    so that ``generate`` can cache it. ``use_cache=False`` (``generate --force``) reads the
    file whatever the cache holds."""
    if started is None:
        started = loading.begin(config, use_cache)
    if seen is not None:
        seen(started.data)
    registry, fresh = started.finish()
    if fresh and loaded is not None:
        loaded(started.key)
    return registry


def existing_catalogs(config: Config, registry: Registry) -> dict[str, bytes]:
    """The translators' PO files as they are on disk, read (see :func:`_catalogs`)."""
    return {
        path: data for path, data in _catalogs(config, registry).items() if isinstance(data, bytes)
    }


def found_catalogs(config: Config, registry: Registry) -> dict[str, catalogs.Source]:
    """The translators' PO files found and checked by their headers, for the workers that
    merge them to read (see :func:`_catalogs`)."""
    return _catalogs(config, registry, later=True)


def _catalogs(
    config: Config, registry: Registry, later: bool = False
) -> dict[str, catalogs.Source]:
    """The translators' PO files as they are on disk: an input of the catalog emitter.

    Each is read as untrusted input (a regular file, not a link, of bounded size), and each
    catalog file errorbook would write, PO, POT or MO, must be errorbook's own: another
    tool's catalog in the same folder is never taken over. Raises InvalidInput otherwise.

    With ``later``, a PO file is checked here by its header alone and passed as an
    ``inputs.Later``, for the worker that merges it to read (and check again)."""
    found: dict[str, catalogs.Source] = {}
    problems = Diagnostics()
    known = output.previous(config.root, config.input_limit)
    locales_dir = config.display(config.locales_dir)
    names = config.domains
    for _, domain, relative in catalog_paths.catalog_paths(registry, locales_dir, names):
        data = _catalog_input(config, relative, problems, head=later)
        if data is not None:
            catalogs.claim(relative, data, known, domain, problems)
            found[relative] = data if not later else _later(config, relative)
    for domain, name in names.items():
        relative = catalog_paths.pot_path(locales_dir, name)
        data = _catalog_input(config, relative, problems, head=True)
        if data is not None:
            catalogs.claim(relative, data, known, domain, problems)
    package_dir = PurePosixPath(config.display(config.python_out)) / registry.meta.package
    for locale in registry.meta.locales:
        relative = catalog_paths.mo_path(package_dir.as_posix(), locale)
        data = _catalog_input(config, relative, problems, head=True)
        if data is not None:
            catalogs.claim(relative, data, known, None, problems)
    if problems.has_errors:
        raise InvalidInput(problems)
    return found


def _later(config: Config, relative: str) -> inputs.Later:
    path = config.root / relative
    try:
        size = os.lstat(path).st_size
    except OSError:
        size = 0  # gone since its header was read: the worker finds no file
    return inputs.Later(path, size, config.input_limit)


def _catalog_input(
    config: Config, relative: str, problems: Diagnostics, head: bool = False
) -> bytes | None:
    """A catalog file's bytes (None when there is none); one that cannot be read safely
    (a FIFO, a device, a folder, a link, too large) is a diagnostic at its first line.
    With ``head``, only as much of it as :func:`catalogs.claim` looks at."""
    path = config.root / relative
    try:
        if head:
            return inputs.head(path, catalogs.HEAD, limit=config.input_limit, follow=False)
        return inputs.read(path, limit=config.input_limit, follow=False)
    except inputs.InputFileError as exc:
        problems.error(
            "E-FILE-UNREADABLE", Mark(relative, 1, 1), f"this path {exc.reason}", exc.hint
        )
        return None


def _read(path: Path, limit: int) -> bytes | None:
    """An output as it is on disk, for a cache that may keep it; None when it is missing or
    cannot be read safely (a link, a FIFO, a device: the page is then made again, and the
    writer refuses the path with its own diagnostic)."""
    try:
        return inputs.read(path, limit=limit, follow=False)
    except inputs.InputFileError:
        return None


class Made:
    """Outputs made from the registry alone (the Python package, the JSON data, the catalog
    templates), taken from disk when the last run made them from the same registry, with the
    same errorbook and templates, and they are still as it wrote them (by hash).

    A run after a translator's edit would otherwise render them all again from ten thousand
    codes. Only the shipped templates are trusted this way (a project's own templates are
    not fingerprinted), and only a registry whose source is known (see
    :func:`registry_for`).

    ``vouch`` (``stamp.settled``), when given, names the files the stamp shows as the last
    run left them. Such a file is not even read: a producer in ``by_hash`` gets it as an
    ``output.Stored`` (its hash and size), which the writer and the stamp take as it is
    (see :attr:`vouched`). Only where no later step needs the bytes: the site imports the
    Python package, and the catalogs read their templates."""

    def __init__(
        self,
        config: Config,
        registry: Registry,
        previous: cache.CatalogCache | None,
        vouch: Callable[[list[str]], Mapping[str, list[object]]] | None = None,
        by_hash: Collection[str] = (),
    ):
        self.config = config
        self.previous = previous if config.templates is None and registry.source else None
        self.base = registry.source
        self.records: dict[str, tuple[str, dict[str, str]]] = {}
        self.keys: dict[str, str] = {}
        self.vouch = vouch
        self.by_hash = by_hash
        #: The stamp's entries of the files passed on by hash: unchanged, neither read nor
        #: hashed (the caller adds them to what the run found settled).
        self.vouched: dict[str, list[object]] = {}

    def reused(self, producer: str, *facts: object) -> dict[str, output.Output] | None:
        """What ``producer`` made last time, if it would make the same now, else None."""
        key = digest(self.base, cache.templates_fingerprint(), producer, repr(facts))
        self.keys[producer] = key
        record = self.previous.emitted.get(producer) if self.previous is not None else None
        if record is None or record[0] != key:
            return None
        settled = {}
        if self.vouch is not None and producer in self.by_hash:
            settled = {n: e for n, e in self.vouch(list(record[1])).items() if e[2] == record[1][n]}
        files: dict[str, output.Output] = {}
        for path, sha in record[1].items():
            entry = settled.get(path)
            if entry is not None:
                files[path] = output.Stored(sha, int(str(entry[0])))
                continue
            data = _read(self.config.root / path, self.config.input_limit)
            if data is None or output.sha256_of(data) != sha:
                return None
            files[path] = data
        self.vouched.update(settled)
        return files

    def record(
        self, producer: str, files: Mapping[str, output.Output], known: dict[str, str]
    ) -> None:
        """Note what ``producer`` made, for the next run (not without a known registry).
        ``known`` holds the hashes of outputs made so far, by path (a worker's); those of
        ``files`` are added to it, for the writer and the stamp, so that each is made once."""
        for path, data in files.items():
            if path not in known:
                known[path] = output.sha256_of(data)
        if self.base and self.config.templates is None:
            hashes = {path: known[path] for path in sorted(files)}
            self.records[producer] = (self.keys[producer], hashes)


def compiled_catalogs(
    config: Config, registry: Registry, package_dir: str
) -> dict[str, inputs.Later]:
    """The MO files on disk, to be read where they are needed (by the worker of their
    locale; the parent holds none of them): a locale whose PO file is unchanged keeps its
    own. Anything but a regular file is left out, as one that cannot be read is when its
    worker reads it: its locale is compiled again."""
    found: dict[str, inputs.Later] = {}
    for locale in registry.meta.locales:
        relative = catalog_paths.mo_path(package_dir, locale)
        try:
            info = os.lstat(config.root / relative)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found[relative] = inputs.Later(config.root / relative, info.st_size, config.input_limit)
    return found


def run(
    config: Config,
    registry: Registry,
    existing: Mapping[str, catalogs.Source] | None = None,
    use_cache: bool = True,
    settled: Mapping[str, str] | None = None,
    stamped: Mapping[str, list[object]] | None = None,
    staged: bool = False,
    vouch: Callable[[list[str]], Mapping[str, list[object]]] | None = None,
) -> tuple[dict[str, output.Output], catalogs.CatalogRun]:
    """Every generated file, and what the pass over the catalogs found. A PO file that does
    not parse stops the run (InvalidInput): it is never overwritten.

    With ``use_cache``, a catalog the last run wrote and nobody changed since is taken as it
    is (see :mod:`generator.pipeline.cache`); the files are the same either way. ``settled``
    gives the hashes of the catalogs the stamp shows unchanged (see :func:`stamp.settled`),
    ``stamped`` the stamp's entries of the PO files passed as ``inputs.Later``.

    With ``staged``, a PO file the run changes is written by the worker that made it to a
    staged file beside it, and the mapping holds an ``output.Stored`` for it (as for a PO
    file read by a worker and left as it is): the caller hands the mapping to
    ``output.write`` and then ``output.discard``. A run that fails discards them itself.

    ``vouch`` (``stamp.settled``), when given, lets the outputs made from the registry alone
    that the stamp shows as the last run left them pass as ``output.Stored``, unread (see
    :class:`Made`); their stamp entries are added to the run's ``steady``."""
    with few_collections():
        return _run(config, registry, existing, use_cache, settled, stamped, staged, vouch)


def unlisted_catalogs(config: Config, registry: Registry) -> Diagnostics:
    """A warning for each PO file in the locales folder whose locale the registry does not
    list: errorbook neither merges nor compiles it, which a translator who made the folder
    by hand, or whose locale was taken out of the registry, would not expect without a word.
    The file is left as it is."""
    found = Diagnostics()
    listed = set(registry.meta.locales)
    try:
        with os.scandir(config.locales_dir) as listing:
            folders = sorted(
                entry.name
                for entry in listing
                if entry.name not in listed and entry.is_dir(follow_symlinks=False)
            )
    except OSError:  # no locales folder yet, or not one: nothing to say
        return found
    locales_dir = config.display(config.locales_dir)
    for locale in folders:
        for name in config.domains.values():
            path = catalog_paths.po_path(locales_dir, locale, name)
            if not (config.root / path).is_file():
                continue
            found.warning(
                "W-CATALOG-LOCALE-UNLISTED",
                Mark(path, 1, 1),
                f"the registry does not list {locale!r} in registry.locales, so errorbook "
                "neither merges nor compiles this catalog",
                f"add {locale!r} to registry.locales in {registry.path}, or delete the file",
            )
    return found


def _no_retired_overrides(config: Config) -> None:
    """Refuse an override of a runtime module under its old template name: those modules are
    plain Python files now (python/<name>.py), and an override named python/<name>.py.j2
    would otherwise be passed over without a word."""
    if config.templates is None:
        return
    from ..emit import python

    for name in python.COPIED + python.ENVELOPE_COPIED + python.WIRE_COPIED:
        old = config.templates / "python" / f"{name}.j2"
        if old.exists():
            raise ConfigError(
                f"{config.display(old)}: error: python/{name}.j2 is no longer a template of "
                f"errorbook's; python/{name} is a plain file now (rename the override to "
                f"python/{name} and remove any Jinja2 syntax from it)"
            )


def _run(
    config: Config,
    registry: Registry,
    existing: Mapping[str, catalogs.Source] | None,
    use_cache: bool,
    settled: Mapping[str, str] | None = None,
    stamped: Mapping[str, list[object]] | None = None,
    staged: bool = False,
    vouch: Callable[[list[str]], Mapping[str, list[object]]] | None = None,
) -> tuple[dict[str, output.Output], catalogs.CatalogRun]:
    _no_retired_overrides(config)
    env = functools.cache(functools.partial(_environment, config.templates))
    package_dir = (
        PurePosixPath(config.display(config.python_out)) / registry.meta.package
    ).as_posix()
    if existing is None:
        existing = existing_catalogs(config, registry)
    locales_dir = config.display(config.locales_dir)
    keep = config.site_dir is not None or config.typescript_out is not None
    previous = cache.load(cachedir.of(config)) if use_cache else None
    # The site imports the Python package from the run's files: there, it needs the bytes.
    by_hash = ["templates", "json"] + (["python"] if config.site_dir is None else [])
    same = Made(config, registry, previous, vouch if use_cache else None, by_hash)
    templates = same.reused("templates", locales_dir, *sorted(config.domains.items()))
    # The outputs made from the registry alone: from disk where the last run made the same
    # (see Made), else made beside the catalogs' workers (see pipeline.catalogs).
    kept = {producer: same.reused(producer, package_dir) for producer in REGISTRY_ALONE}
    wanted = [producer for producer, files in kept.items() if files is None]

    makers = {
        producer: functools.partial(REGISTRY_ALONE[producer], registry, env, package_dir)
        for producer in wanted
    }

    catalog_run = catalogs.process(
        registry,
        existing,
        locales_dir,
        package_dir,
        keep,
        compiled=compiled_catalogs(config, registry, package_dir),
        previous=previous,
        names=config.domains,
        templates=templates,
        settled=settled if use_cache else None,
        stamped=stamped if use_cache else None,
        manifest=output.previous(config.root, config.input_limit),
        stage=functools.partial(output.stage, config.root, owner=os.getpid()) if staged else None,
        remember=functools.partial(output.write_cache, cachedir.of(config)) if staged else None,
        alongside=makers,
    )
    unlisted = unlisted_catalogs(config, registry)
    catalog_run.problems.extend(unlisted)
    catalog_run.on_disk.extend(unlisted)
    made: dict[str, Mapping[str, output.Output]] = {p: f for p, f in kept.items() if f is not None}
    made.update(catalog_run.alongside)  # type: ignore[arg-type]
    try:
        return _emit(config, registry, env, package_dir, previous, same, catalog_run, made)
    except BaseException:
        output.discard(catalog_run.files)
        raise


def _python_package(registry: Registry, env: Callable[[], Environment], package_dir: str) -> Files:
    from ..emit import python

    return python.emit(registry, env(), package_dir)


def _json_data(registry: Registry, env: Callable[[], Environment], package_dir: str) -> Files:
    from ..emit import jsondata

    return jsondata.emit(registry, env(), package_dir)


#: The emitters whose outputs come from the registry alone, by producer (see PRODUCERS):
#: each is given the registry, the Jinja2 environment (a function that makes it once) and
#: the package's folder.
REGISTRY_ALONE: dict[str, Callable[[Registry, Callable[[], Environment], str], Files]] = {
    "python": _python_package,
    "json": _json_data,
}


def _environment(templates: Path | None) -> Environment:
    from ..emit.render import environment

    prepared = _PREPARED.pop(templates, None)
    return prepared if prepared is not None else environment(templates)


#: The Jinja2 environment :func:`_prepare` made, by the templates' folder, for the next run
#: to take (once: a later run makes its own, and sees templates added since).
_PREPARED: dict[Path | None, Environment] = {}


def _prepare(config: Config) -> None:
    """What the emitters of the outputs made from the registry alone (``REGISTRY_ALONE``)
    would each do first, done once here while another process validates the registry:
    import them, with Jinja2, and compile their templates. Each of them runs in a process
    forked from this one, which finds it done. A template that does not compile is left
    for its emitter to report, as it always does.

    Not the CLDR data the Python package's tables read (catalogs.locales): loaded here, it
    would be part of every worker forked from this process, and at thirty locales that is
    about 40 MB more in each."""
    from ..emit import jsondata, python

    env = _environment(config.templates)
    for name in (*python.TEMPLATES, jsondata.TEMPLATE):  # the ones they open, and no other
        with contextlib.suppress(Exception):  # whatever it is, the emitter meets it again
            env.get_template(name)
    _PREPARED[config.templates] = env


def _emit(
    config: Config,
    registry: Registry,
    env: Callable[[], Environment],
    package_dir: str,
    previous: cache.CatalogCache | None,
    same: Made,
    catalog_run: catalogs.CatalogRun,
    alone: Mapping[str, Mapping[str, output.Output]],
) -> tuple[dict[str, output.Output], catalogs.CatalogRun]:
    """Every output but the catalogs, added to what the pass over the catalogs made; ``alone``
    holds the outputs made from the registry alone, by producer."""
    pot = {p: d for p, d in catalog_run.files.items() if p.endswith(".pot")}
    same.record("templates", pot, catalog_run.hashes)
    if catalog_run.unreadable.has_errors:
        raise InvalidInput(catalog_run.unreadable)
    merged = catalog_run.merged
    files: dict[str, output.Output] = {}
    owners = Owners()
    where = Mark(config.display(config.root / "pyproject.toml"), 1, 1)

    def add(made: Mapping[str, output.Output], producer: str) -> None:
        merge(files, owners, made, PRODUCERS[producer], where)

    for producer in REGISTRY_ALONE:
        same.record(producer, alone[producer], catalog_run.hashes)
        add(alone[producer], producer)
    add(catalog_run.files, "catalogs")
    messages = {locale: c for (locale, d), c in merged.items() if d == "messages"}
    if config.typescript_out is not None:
        from ..emit import typescript

        typescript_dir = config.display(config.typescript_out)
        made = typescript.emit(registry, env(), typescript_dir, messages)
        add(made, "typescript")
    if config.site_dir is not None:
        from ..emit.site import pages as site

        pages = None
        if config.templates is None:  # see site.PageCache: only the shipped templates
            pages = site.PageCache(
                cache.templates_fingerprint(),
                previous.pages if previous is not None else {},
                lambda name: _read(config.root / name, config.input_limit),
            )
        # The code pages show what the package just made returns on every wire.
        package_files = {p: d for p, d in files.items() if isinstance(d, bytes)}
        with runtime.imported(package_files, package_dir) as package:
            made = site.emit(
                registry,
                env(),
                config.display(config.site_dir),
                docs={locale: c for (locale, domain), c in merged.items() if domain == "docs"},
                messages=messages,
                progress=catalog_run.counts,
                pages=read_pages(config),
                cache=pages,
                examples=runtime.Examples(package, registry.meta.source_locale),
            )
        add(made, "site")
        if pages is not None:
            catalog_run.cache.pages = pages.made
    catalog_run.cache.emitted = same.records
    catalog_run.steady.update(same.vouched)
    catalog_run.hashes.update({name: str(entry[2]) for name, entry in same.vouched.items()})
    add({output.MANIFEST: output.manifest(list(files), registry.path)}, "manifest")
    return files, catalog_run


#: Each emitter's files, as a diagnostic names them: what they are, and the setting of
#: [tool.errorbook] that places them.
PRODUCERS = {
    "python": "the Python package (python-out)",
    "json": "the package's JSON data (python-out)",
    "catalogs": "the gettext catalogs (locales, and python-out for MO files)",
    "typescript": "the TypeScript module (typescript-out)",
    "site": "the site (site)",
    "manifest": "errorbook's list of its files (the project root)",
}


@dataclass
class Owners:
    """Which emitter made each output so far, by path as a case-insensitive disk sees it
    (macOS, Windows: ``A.py`` and ``a.py`` are one file there); and, for every folder those
    paths need, one file inside it."""

    files: dict[str, tuple[str, str]] = dataclasses.field(default_factory=dict)
    folders: dict[str, tuple[str, str]] = dataclasses.field(default_factory=dict)

    def clash(self, path: str, producer: str) -> str | None:
        """Why ``path`` of ``producer`` cannot be written next to the outputs so far."""
        known = self.files.get(_folded(path))
        if known is not None:
            other, owner = known
            if other == path:
                return f"{path} would be written by both {owner} and {producer}"
            return (
                f"{path} ({producer}) and {other} ({owner}) differ only in case, so they "
                "are one file on macOS and Windows"
            )
        inside = self.folders.get(_folded(path))
        if inside is not None:
            return _file_or_folder(path, producer, *inside)
        for folder in PurePosixPath(path).parents:
            known = self.files.get(_folded(folder.as_posix()))
            if known is not None:
                return _file_or_folder(*known, path, producer)
        return None

    def add(self, path: str, producer: str) -> None:
        self.files[_folded(path)] = (path, producer)
        for folder in PurePosixPath(path).parents:
            self.folders.setdefault(_folded(folder.as_posix()), (path, producer))


def _file_or_folder(file: str, owner: str, inside: str, needs: str) -> str:
    return f"{file} would be a file of {owner}, but {needs} needs a folder there for {inside}"


def _folded(path: str) -> str:
    return unicodedata.normalize("NFC", path).casefold()


def merge(
    files: dict[str, output.Output],
    owners: Owners,
    made: Mapping[str, output.Output],
    producer: str,
    where: Mark,
) -> None:
    """Add one emitter's files to ``files``, refusing any that clash with one made before.

    A plain ``dict.update`` would let one output silently replace another (two settings of
    [tool.errorbook] pointing at overlapping folders): here each clash is a diagnostic at
    ``where`` naming both producers, raised before anything is written."""
    found = Diagnostics()
    for path in made:
        problem = owners.clash(path, producer)
        if problem is not None:
            found.error(
                "E-OUTPUT-CLASH",
                where,
                problem,
                "point these settings of [tool.errorbook] at separate folders",
            )
            continue
        owners.add(path, producer)
    if found.has_errors:
        raise InvalidInput(found)
    files.update(made)


def regenerate(
    config: Config,
    plain: bool = True,
    use_cache: bool = True,
    writing: Callable[[], contextlib.AbstractContextManager[object]] | None = None,
    started: loading.Loading | None = None,
) -> tuple[list[output.FileStatus], catalogs.CatalogRun]:
    """What ``errorbook generate`` does after its stamp check: every output written (only
    those that changed), then the catalog cache and the stamp the next run starts from.

    ``plain`` says the configuration came from pyproject.toml alone (see
    :func:`stamp.record`). ``writing``, when given, is entered while the outputs are
    written, and only then (``errorbook site serve`` holds MkDocs' server so). ``started``:
    the registry's loading, begun by the caller (see :mod:`.loading`).

    The collector stays tuned to the end (see :func:`few_collections`): with the default
    threshold back, the first allocations after the catalogs (importing what the stamp
    needs) made it walk every object the registry and the catalogs had left in its younger
    generations, work that a run after a translator's edit need not do.

    The registry, once loaded, is set aside from the collector (``gc.freeze``) until the
    run ends: it lives as long as the run, and holds no cycles to collect, but its hundreds
    of thousands of objects arrive together in the youngest generation, and the first
    collections after it walked them all again, each time they moved up a generation. A
    caller that froze objects of its own is left as it is."""
    ours = gc.get_freeze_count() == 0
    try:
        with few_collections():
            return _regenerate(config, plain, use_cache, writing, ours, started)
    finally:
        if ours:
            gc.unfreeze()


def _regenerate(
    config: Config,
    plain: bool,
    use_cache: bool,
    writing: Callable[[], contextlib.AbstractContextManager[object]] | None = None,
    freeze: bool = False,
    started: loading.Loading | None = None,
) -> tuple[list[output.FileStatus], catalogs.CatalogRun]:
    from . import stamp

    if started is None:
        started = loading.begin(config, use_cache)
    elif started.running:  # while another process validates the registry:
        _prepare(config)
        catalogs.lint_ahead(config.locales_dir, config.input_limit, started.ready)
    seen: list[bytes] = []
    fresh: list[str] = []
    registry = registry_for(config, seen.append, fresh.append, use_cache, started)
    if freeze:
        gc.freeze()  # see regenerate
    # The PO files are read by the workers that merge them (each trusts the stamp's entry of
    # a file it read with the recorded size and mtime), so no process holds them all; a
    # PO file the run changes is staged beside it by its worker.
    existing = found_catalogs(config, registry)
    # The MO files as the last run left them, by their stat: those are neither hashed nor
    # read again to compare. (Only errorbook writes them; one changed between this look and
    # its read keeps the stamp's old entry, so the next run hashes it and compiles it anew.)
    mo_dir = (PurePosixPath(config.display(config.python_out)) / registry.meta.package).as_posix()
    compiled = [catalog_paths.mo_path(mo_dir, x) for x in registry.meta.locales]
    steady = stamp.settled(config, compiled) if use_cache else {}
    files, catalog_run = run(
        config,
        registry,
        existing,
        use_cache=use_cache,
        settled={name: str(entry[2]) for name, entry in steady.items()},
        stamped=stamp.entries(config, existing) if use_cache else {},
        staged=True,
        vouch=functools.partial(stamp.settled, config),
    )
    steady.update(catalog_run.steady)
    try:
        loaded = (seen, [started.record(registry) for _ in fresh])
        return _write(config, registry, plain, loaded, steady, files, catalog_run, writing)
    finally:
        output.discard(files)


def _write(
    config: Config,
    registry: Registry,
    plain: bool,
    loaded: tuple[list[bytes], list[bytes]],
    steady: Mapping[str, list[object]],
    files: dict[str, output.Output],
    catalog_run: catalogs.CatalogRun,
    writing: Callable[[], contextlib.AbstractContextManager[object]] | None = None,
) -> tuple[list[output.FileStatus], catalogs.CatalogRun]:
    """The outputs of :func:`regenerate` written (within ``writing``), then its caches and
    its stamp.
    ``loaded`` holds the registry's bytes as read and its cache file, if it is to be cached;
    ``steady`` the catalogs the stamp vouches for (see :func:`stamp.settled`)."""
    from . import stamp

    seen, fresh = loaded
    hashes = {name: str(entry[2]) for name, entry in steady.items()}
    # A PO file is an input and an output: it is replaced only if it still holds what was
    # read (None: it did not exist), so a translator's save during the run is never lost.
    locales_dir = config.display(config.locales_dir)
    names = catalog_paths.catalog_paths(registry, locales_dir, config.domains)
    read: dict[str, output.Output | None] = {
        path: catalog_run.read.get(path) for _, _, path in names
    }
    with writing() if writing is not None else contextlib.nullcontext():
        results = output.write(
            config.root,
            files,
            layout=layout(config, registry),
            read=read,
            known=catalog_run.hashes,
            settled=hashes,
        )
    folder = cachedir.of(config)
    output.write_cache(folder, cache.CATALOGS, catalog_run.cache.to_bytes())
    for path, record in sorted(catalog_run.cache.verdicts.items()):
        output.write_cache(folder, cache.verdicts_path(path), record)
    for record in fresh:
        output.write_cache(folder, cache.REGISTRY, record)
    written = {r.path: files[r.path] for r in results if r.status not in ("removed", "left")}
    # The stamp records what this run used, not what is on disk by now: an input saved
    # during the run then differs from the stamp, and the next run does the work.
    used = {
        str(config.root / path): files.get(path, was)
        for path, was in read.items()
        if was is not None
    }
    used.update({str(config.registry): data for data in seen[-1:]})
    found = findings(config, registry, read, catalog_run)
    output.write_cache(
        folder,
        stamp.STAMP,
        stamp.record(
            config,
            written,
            plain=plain,
            used=used,
            known=catalog_run.hashes,
            steady=steady,
            findings=found,
        ),
    )
    return results, catalog_run


def findings(
    config: Config,
    registry: Registry,
    read: Mapping[str, output.Output | None],
    catalog_run: catalogs.CatalogRun,
) -> dict[str, object] | None:
    """What ``errorbook check`` reports on the tree a run of ``generate`` left, for the
    stamp (see :func:`stamp.proven`): the registry as outputs name it, the output folders
    (where links are refused), and the catalogs' problems in the PO files as written, which
    ``check`` finds in them as they are on disk. None when the run made a PO file (``read``
    holds None for it, the PO files' bytes as read otherwise): no check of it as a file on
    disk is known."""
    if any(data is None for data in read.values()):
        return None
    return {
        "registry": registry.path,
        "folders": list(layout(config, registry).folders),
        "problems": [item.as_dict() for item in catalog_run.problems.items],
    }


def layout(config: Config, registry: Registry) -> output.Layout:
    """Where this configuration puts the outputs, spelled as the output paths are: what
    output.py needs to judge a manifest line and to refuse links (see output.Layout)."""
    python_out = config.display(config.python_out)
    locales = config.display(config.locales_dir)
    site_dir = config.display(config.site_dir) if config.site_dir is not None else None
    typescript_dir = (
        config.display(config.typescript_out) if config.typescript_out is not None else None
    )
    configured = (python_out, locales, site_dir, typescript_dir)
    return output.Layout(
        package=(PurePosixPath(python_out) / registry.meta.package).as_posix(),
        locales=locales,
        site=site_dir,
        typescript=typescript_dir,
        folders=tuple(folder for folder in configured if folder is not None),
        inputs=(str(config.registry), str(config.root / "pyproject.toml")),
        compiled=f"{config.domains['messages']}.po",
        limit=config.input_limit,
    )


def outputs(config: Config, registry: Registry, existing: dict[str, bytes] | None = None) -> Files:
    """Every generated file, in memory (see :func:`run`, which holds nothing elsewhere
    when the PO files are passed as bytes and nothing is staged)."""
    files = run(config, registry, existing)[0]
    return {path: data for path, data in files.items() if isinstance(data, bytes)}


def read_pages(config: Config) -> dict[str, str]:
    """Hand-written pages: every <site>/pages/*.md, by file name (an input, like a PO file).
    A page that cannot be used is a diagnostic (InvalidInput), see
    :mod:`generator.pipeline.pages`."""
    assert config.site_dir is not None
    folder = config.site_dir / "pages"
    shown = config.display(folder)  # the folder, not a link's target: the name the author sees
    return page_files.read(folder, lambda path: f"{shown}/{path.name}", config.input_limit)
