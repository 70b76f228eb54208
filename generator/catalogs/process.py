"""The gettext catalogs: POT templates, merged PO files per locale, compiled MO files.

Pure like every emitter: the existing PO files come in as bytes (they are translators' work,
an input), and the new files go out as bytes. A PO file that cannot be read strictly stops the
run with a diagnostic, so a broken catalog is never overwritten.
"""

from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
from collections.abc import Collection, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics, Mark
from ..digest import digest
from ..pipeline.cache import CatalogCache, Checked, Written, fingerprint
from ..registry.model import Registry
from . import catalog, checks, pofile
from .checks import Counts
from .entries import DOMAINS, code_names, message_contexts
from .paths import NAMES, mo_path, po_path, pot_path


def errorbooks_header(data: bytes) -> bool:
    """True when the comment lines that open a PO or POT file carry one of the words every
    catalog errorbook starts has (catalog.MARKS)."""
    head = []
    for line in data[:8192].split(b"\n"):
        if not line.startswith(b"#"):
            break
        head.append(line.decode("utf-8", "replace"))
    text = "\n".join(head)
    return any(mark in text for mark in catalog.MARKS)


def not_ours(path: str, where: str, fix: str, found: Diagnostics) -> None:
    """Report a catalog file errorbook would take over though another tool wrote it."""
    found.error(
        "E-OUTPUT-FOREIGN-CATALOG",
        Mark(path, 1, 1),
        f"{path} was not written by errorbook ({where}), and errorbook does not take over "
        "another tool's catalog",
        f"{fix}, or move the file away",
    )


def claim(
    path: str, data: bytes, manifest: Collection[str], domain: str | None, found: Diagnostics
) -> None:
    """Report ``path`` unless errorbook may write it: a POT file whose header carries
    errorbook's words; a PO file whose header does, or that the manifest lists; an MO file
    the manifest lists. A template is never merged, only replaced, so its header alone
    decides: one that another tool wrote over errorbook's is that tool's now."""
    listed = path in manifest
    if listed and not path.endswith(".pot"):
        return
    if domain is None:  # an MO file: nothing in it says who compiled it
        fix = "set python-out in [tool.errorbook] to a folder of errorbook's own"
        not_ours(path, ".errorbook-files does not list it", fix, found)
    elif not errorbooks_header(data):
        where = "its header comment does not say so"
        where += "" if listed else ", and .errorbook-files does not list it"
        fix = f"set {domain}-domain in [tool.errorbook] to a name no other catalog uses"
        not_ours(path, where, fix, found)


Merged = dict[tuple[str, str], catalog.StableCatalog]

#: Below this much existing PO text, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


@dataclass
class CatalogRun:
    """Everything one pass over the catalogs produces."""

    files: dict[str, bytes] = field(default_factory=dict)  # POT, PO and MO files
    merged: Merged = field(default_factory=dict)  # kept when the site or TypeScript need it
    unreadable: Diagnostics = field(default_factory=Diagnostics)  # PO files that do not parse
    # The catalog checks of the PO files as written (what `generate` reports: the lines of
    # the file it leaves), and of the files as they are on disk (what `check` reports).
    problems: Diagnostics = field(default_factory=Diagnostics)
    on_disk: Diagnostics = field(default_factory=Diagnostics)
    counts: dict[tuple[str, str], Counts] = field(default_factory=dict)  # as written
    cache: CatalogCache = field(default_factory=CatalogCache)  # what the next run may reuse
    same: list[str] = field(default_factory=list)  # PO files that stay as they are
    hashes: dict[str, str] = field(default_factory=dict)  # PO and MO files made: SHA-256


@dataclass(frozen=True)
class Job:
    """What every locale's task reads: set once, shared with forked workers."""

    registry: Registry
    existing: Mapping[str, bytes]  # PO files, by path
    compiled: Mapping[str, bytes]  # MO files as they are on disk, by path
    locales_dir: str
    package_dir: str
    keep: bool  # keep merged catalogs (the site and TypeScript need them)
    previous: CatalogCache
    sources: Mapping[str, str]  # domain -> hash of what its catalogs are made from
    names: Mapping[str, str]  # domain -> the file name of its catalogs
    settled: Mapping[str, str]  # files as the last run left them (the stamp): SHA-256
    counts: Mapping[str, str | None]  # entries.message_contexts, found once for every locale
    code_names: frozenset[str]  # entries.code_names, likewise


_JOB: Job | None = None


def _locale(locale: str) -> CatalogRun:
    """Read, check, merge, write and compile one locale's catalogs (a worker's task).

    A PO file the previous run wrote, from the same template and code, would merge back to
    itself: it and its MO file are kept as they are, and its check results are reused when
    the cache has them (see :mod:`generator.pipeline.cache`)."""

    assert _JOB is not None
    job = _JOB
    registry = job.registry
    run = CatalogRun()
    counts, names = job.counts, job.code_names
    for domain in DOMAINS:
        path = po_path(job.locales_dir, locale, job.names[domain])
        mo = mo_path(job.package_dir, locale) if domain == "messages" else None
        key = digest(job.sources[domain], locale, path, mo or "")
        data = job.existing.get(path)
        po_sha = content_hash(data, path, job.settled) if data is not None else None
        compiled = job.compiled.get(mo) if mo is not None else None
        mo_sha = (
            content_hash(compiled, mo, job.settled)
            if mo is not None and compiled is not None
            else None
        )
        written = job.previous.written.get(path)
        kept = (
            data is not None
            and written is not None
            and written.key == key
            and written.po == po_sha
            and (mo is None or (mo_sha is not None and written.mo == mo_sha))
        )
        checked = job.previous.checked.get(path)
        check_key = digest(key, po_sha or "")
        reuse = kept and checked is not None and checked.key == check_key and not job.keep
        parsed = None
        memo: checks.Memo = {}  # the merged catalog is checked after the file it came from
        if data is not None and not reuse:
            parsed, lines, problems = pofile.read(data, path, locale, domain, names)
            if problems.has_errors:
                run.unreadable.extend(problems)
                continue
            text = data.decode("utf-8")
            found, tally = checks.review(
                parsed, lines, path, locale, domain, registry, text, memo=memo
            )
            checked = Checked(check_key, tuple(found.items), _four(tally))
        if checked is not None and data is not None:
            run.on_disk.items.extend(checked.problems)
        if kept:
            assert data is not None
            run.files[path] = data
            if mo is not None and compiled is not None:
                run.files[mo] = compiled
            if job.keep:  # a catalog that merges back to itself is its own merge
                assert parsed is not None
                run.merged[(locale, domain)] = parsed
        else:
            name = job.names[domain]
            named = {"name": name} if name != domain else {}  # by default, the 4-argument call
            merged = catalog.merge(registry, domain, locale, parsed, **named)
            made = pofile.write(merged)
            run.files[path] = made
            if mo is not None:
                run.files[mo] = catalog.compile_mo(merged, counts)
            if job.keep:
                run.merged[(locale, domain)] = merged
            if data is not None and made != data:
                # The checks of the file as written, at the lines it will have: the merge
                # moves entries, and can fix the header or make an entry fuzzy. Entries the
                # merge kept as they were are not checked again (the memo).
                text = made.decode("utf-8")
                lines = pofile.entry_lines(merged, text)
                found, tally = checks.review(
                    merged, lines, path, locale, domain, registry, text, memo=memo
                )
                checked = Checked(digest(key, sha256(made)), tuple(found.items), _four(tally))
        if checked is not None and data is not None:
            run.problems.items.extend(checked.problems)
            run.counts[(locale, domain)] = checks.Counts(*checked.counts)
        output = run.files[path]
        if not kept:  # hashes of what was just made (kept files were hashed above)
            po_sha = sha256(output)
            mo_sha = sha256(run.files[mo]) if mo is not None else None
        run.cache.written[path] = Written(key, po_sha or "", mo_sha)
        run.hashes[path] = po_sha or ""
        if mo is not None and mo_sha is not None:
            run.hashes[mo] = mo_sha
        if checked is not None and data is not None:  # the file as it now is, by its hash
            run.cache.checked[path] = checked
        if output == data:  # a worker need not send back what the parent already has
            del run.files[path]
            run.same.append(path)
    return run


def sha256(data: bytes) -> str:
    """A file's hash as the stamp records it, so that the two can be compared."""
    return hashlib.sha256(data).hexdigest()


def content_hash(data: bytes, path: str, settled: Mapping[str, str]) -> str:
    """The hash of ``data``, read from ``path``: the stamp's, when it shows the file unchanged
    since the last run (and ``data`` was read before that was looked at), else computed."""
    return settled.get(path) or sha256(data)


def _four(counts: Counts) -> tuple[int, int, int, int]:
    return counts.translated, counts.fuzzy, counts.untranslated, counts.rejected


def workers() -> int:
    """How many processes the catalogs may use: ERRORBOOK_JOBS, or every core."""
    try:
        return (
            max(1, int(os.environ.get("ERRORBOOK_JOBS", "0")))
            if os.environ.get("ERRORBOOK_JOBS")
            else (os.cpu_count() or 1)
        )
    except ValueError:
        return 1


def process(
    registry: Registry,
    existing: Mapping[str, bytes],
    locales_dir: str,
    package_dir: str,
    keep_merged: bool,
    compiled: Mapping[str, bytes] | None = None,
    previous: CatalogCache | None = None,
    names: Mapping[str, str] = NAMES,
    templates: Mapping[str, bytes] | None = None,
    settled: Mapping[str, str] | None = None,
) -> CatalogRun:
    """Every locale's catalogs, on all cores when there is enough to do. The result is the
    same, byte for byte, however many processes made it: each locale is one task, and the
    results are put together in the registry's locale order.

    ``compiled`` (the MO files on disk) and ``previous`` (the cache of the last run) let a
    locale whose PO file that run wrote skip its merge, write and compile. ``names`` gives
    each domain's file name (Config.domains). ``templates``, by path, are the POT files the
    registry makes, when the caller knows them already (see ``pipeline.build.Made``).
    ``settled`` holds the hash of each PO and MO file the stamp shows unchanged since the
    last run (see ``pipeline.stamp.settled``): those are not hashed again."""
    global _JOB
    known = templates or {}
    texts = {
        domain: known.get(pot_path(locales_dir, names[domain]))
        or pofile.write(catalog.template(registry, domain, names[domain]))
        for domain in DOMAINS
    }
    count_names = repr(sorted((c.name, c.message.count or "") for c in registry.codes))
    _JOB = Job(
        registry,
        existing,
        compiled or {},
        locales_dir,
        package_dir,
        keep_merged,
        previous or CatalogCache(),
        {d: digest(fingerprint(), d, text, count_names) for d, text in texts.items()},
        names,
        settled or {},
        message_contexts(registry),
        code_names(registry),
    )
    locales = list(registry.meta.locales)
    size = sum(len(data) for data in existing.values())
    count = min(workers(), len(locales))
    try:
        if count > 1 and size >= PARALLEL_MIN_BYTES and "fork" in mp.get_all_start_methods():
            with ProcessPoolExecutor(max_workers=count, mp_context=mp.get_context("fork")) as pool:
                parts = list(pool.map(_locale, locales))
        else:
            parts = [_locale(locale) for locale in locales]
    finally:
        _JOB = None
    run = CatalogRun()
    for domain, text in texts.items():
        run.files[pot_path(locales_dir, names[domain])] = text
    for part in parts:
        run.files.update({path: existing[path] for path in part.same})
        run.files.update(part.files)
        run.merged.update(part.merged)
        run.unreadable.extend(part.unreadable)
        run.problems.extend(part.problems)
        run.on_disk.extend(part.on_disk)
        run.counts.update(part.counts)
        run.cache.written.update(part.cache.written)
        run.cache.checked.update(part.cache.checked)
        run.hashes.update(part.hashes)
    return run
