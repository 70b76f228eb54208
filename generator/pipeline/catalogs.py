"""The gettext catalogs: POT templates, merged PO files per locale, compiled MO files.

Pure like every emitter: the existing PO files come in as bytes (they are translators' work,
an input), and the new files go out as bytes. A PO file that cannot be read strictly stops the
run with a diagnostic, so a broken catalog is never overwritten.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import stat
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from .. import inputs, plurals
from ..catalogs import catalog, checks, pofile
from ..catalogs.checks import Counts
from ..catalogs.entries import DOMAINS, code_names, entries, message_contexts
from ..catalogs.paths import NAMES, mo_path, po_path, pot_path
from ..diagnostics import Diagnostic, Diagnostics, Mark
from ..digest import digest
from ..registry.model import Registry
from . import forks
from .cache import (
    CatalogCache,
    Checked,
    Written,
    fingerprint,
    verdicts_bytes,
    verdicts_path,
    verdicts_salt,
)
from .output import Output, Stored, sha256_of

#: How much of a catalog file :func:`claim` looks at.
HEAD = 8192


def errorbooks_header(data: bytes) -> bool:
    """True when the comment lines that open a PO or POT file carry one of the words every
    catalog errorbook starts has (catalog.MARKS)."""
    head = []
    for line in data[:HEAD].split(b"\n"):
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

    files: dict[str, Output] = field(default_factory=dict)  # POT, PO and MO files
    merged: Merged = field(default_factory=dict)  # kept when the site or TypeScript need it
    unreadable: Diagnostics = field(default_factory=Diagnostics)  # PO files that do not parse
    # The catalog checks of the PO files as written (what `generate` reports: the lines of
    # the file it leaves), and of the files as they are on disk (what `check` reports).
    problems: Diagnostics = field(default_factory=Diagnostics)
    on_disk: Diagnostics = field(default_factory=Diagnostics)
    # What a merge changed that a translator wrote on purpose (a Plural-Forms header of
    # their own): said by the `generate` that changed it, and never again.
    changes: Diagnostics = field(default_factory=Diagnostics)
    counts: dict[tuple[str, str], Counts] = field(default_factory=dict)  # as written
    cache: CatalogCache = field(default_factory=CatalogCache)  # what the next run may reuse
    same: list[str] = field(default_factory=list)  # PO files that stay as they are
    hashes: dict[str, str] = field(default_factory=dict)  # outputs made, by path: SHA-256
    # PO files a worker read (see inputs.Later): what it read (None: there was none), and
    # those its stamp entry vouches for, as the stamp has them.
    read: dict[str, Stored | None] = field(default_factory=dict)
    steady: dict[str, list[object]] = field(default_factory=dict)
    # What the caller's tasks run beside the locales returned, by name (see process's
    # ``alongside``).
    alongside: dict[str, object] = field(default_factory=dict)


#: A PO file as a run passes it to the catalogs: its bytes, or where to read them.
Source = bytes | inputs.Later
#: An MO file as it is on disk, likewise: read by the worker that needs its bytes.
Compiled = bytes | inputs.Later


@dataclass(frozen=True)
class Job:
    """What every locale's task reads: set once, shared with forked workers."""

    registry: Registry
    existing: Mapping[str, Source]  # PO files, by path
    compiled: Mapping[str, Compiled]  # MO files as they are on disk, by path
    locales_dir: str
    package_dir: str
    keep: bool  # keep merged catalogs (the site and TypeScript need them)
    previous: CatalogCache
    sources: Mapping[str, str]  # domain -> hash of what its catalogs are made from
    names: Mapping[str, str]  # domain -> the file name of its catalogs
    settled: Mapping[str, str]  # files as the last run left them (the stamp): SHA-256
    counts: Mapping[str, str | None]  # entries.message_contexts, found once for every locale
    code_names: frozenset[str]  # entries.code_names, likewise
    stamped: Mapping[str, list[object]]  # the stamp's entries of PO files a worker reads
    manifest: Collection[str]  # output.previous: the files errorbook wrote last time
    stage: Callable[[str, bytes], Stored] | None  # output.stage: a changed PO or MO file
    forked: bool  # each locale runs in a process forked for it (pipeline.forks)
    #: output.write_cache, for a forked worker's verdict records (None: the parent writes)
    remember: Callable[[str, bytes], None] | None = None
    settled_only: bool = False  # a locale that would read a file raises _Unsettled


class _Unsettled(Exception):
    """Raised, under ``Job.settled_only``, by a locale that has a file to read: ``domains``
    are those whose files it has to read."""

    def __init__(self, domains: Sequence[str] = ()) -> None:
        super().__init__(*domains)
        self.domains = tuple(domains)


_JOB: Job | None = None


def _locale(locale: str) -> CatalogRun:
    """Read, check, merge, write and compile one locale's catalogs (a worker's task).

    A PO file the previous run wrote, from the same template and code, would merge back to
    itself: it and its MO file are kept as they are, and its check results are reused when
    the cache has them (see :mod:`generator.pipeline.cache`). A PO file passed as an
    :class:`inputs.Later` is read here; when its stamp entry shows it as the last run left
    it, and all of that holds, it is not even read."""

    assert _JOB is not None
    run = CatalogRun()
    unsettled = []
    for domain in DOMAINS:
        # One domain at a time, in a call of its own: its catalogs, text and checks are
        # freed before the next domain's file is read, so a locale's peak is its larger
        # domain's, not the sum of both.
        try:
            _domain(_JOB, run, locale, domain)
        except _Unsettled:  # only under settled_only, which goes on to the other domains
            unsettled.append(domain)
    if unsettled:
        raise _Unsettled(unsettled)
    return run


def _domain(job: Job, run: CatalogRun, locale: str, domain: str) -> None:
    """One domain's catalogs of one locale (see :func:`_locale`), added to ``run``."""
    registry = job.registry
    counts = job.counts
    path = po_path(job.locales_dir, locale, job.names[domain])
    mo = mo_path(job.package_dir, locale) if domain == "messages" else None
    key = digest(job.sources[domain], locale, path, mo or "")
    # The MO file on disk is read only where its bytes are needed: to hash one the stamp
    # does not show settled, or for the site, which imports the package with its MO files.
    handle = job.compiled.get(mo) if mo is not None else None
    compiled = handle if isinstance(handle, bytes) else None
    mo_sha = None
    mo_seen: inputs.Seen | None = None  # the MO file's stat when it was read
    if mo is not None and handle is not None:
        mo_sha = job.settled.get(mo)
        needed = mo_sha is None or job.keep
        if isinstance(handle, inputs.Later) and needed and not job.settled_only:
            compiled, mo_seen = _read_compiled(handle)
            if compiled is None:
                mo_sha = None  # gone or unreadable: compiled again
        if mo_sha is None and compiled is not None:
            mo_sha = sha256(compiled)
    on_disk = mo_sha  # the MO file's hash as it is (None: missing or not known)
    written = job.previous.written.get(path)
    checked = job.previous.checked.get(path)
    source = job.existing.get(path)
    later = isinstance(source, inputs.Later)
    seen: inputs.Seen | None = None
    if isinstance(source, inputs.Later):
        entry = job.stamped.get(path)
        if (
            entry is not None
            and written is not None
            and checked is not None
            and _unread(job, source, entry, written, checked, key, mo, mo_sha)
        ):
            _as_left(run, (locale, domain), path, (mo, handle, mo_seen), entry, written, checked)
            return
        if job.settled_only:
            raise _Unsettled
        try:
            data, seen = source.read()
        except inputs.InputFileError as exc:
            run.unreadable.error(
                "E-FILE-UNREADABLE", Mark(path, 1, 1), f"this path {exc.reason}", exc.hint
            )
            return
        if data is not None:
            found = Diagnostics()
            claim(path, data, job.manifest, domain, found)
            if found.has_errors:
                run.unreadable.extend(found)
                return
        stamped = _vouched(entry, seen)
        if stamped is not None and entry is not None:
            run.steady[path] = entry
        po_sha = (stamped or sha256(data)) if data is not None else None
    else:
        if job.settled_only:
            raise _Unsettled
        data = source
        po_sha = content_hash(data, path, job.settled) if data is not None else None
    kept = (
        data is not None
        and written is not None
        and written.key == key
        and written.po == po_sha
        and (mo is None or (mo_sha is not None and written.mo == mo_sha))
    )
    check_key = digest(key, po_sha or "")
    reuse = kept and checked is not None and checked.key == check_key and not job.keep
    parsed = None
    memo: checks.Memo = {}  # the merged catalog is checked after the file it came from
    verdicts = None
    if data is not None and not reuse:
        salt = verdicts_salt(locale, domain, path)
        verdicts = checks.Verdicts(salt, job.previous.known(path, salt))
        linted = po_sha is not None and po_sha in _LINTED
        read = _review(data, path, locale, domain, job, memo, verdicts, linted)
        if isinstance(read, Diagnostics):
            run.unreadable.extend(read)
            return
        parsed, found, tally = read
        del read  # the catalog as read is let go after the merge (parsed = None below)
        checked = Checked(check_key, tuple(found.items), _four(tally))
    if checked is not None and data is not None:
        run.on_disk.items.extend(checked.problems)
    if later:
        run.read[path] = Stored(po_sha or "", len(data), None, seen) if data is not None else None
    had = data is not None  # from here on, the file as read is known by its hash
    read_sha = po_sha
    if kept:
        assert data is not None
        run.files[path] = data
        if mo is not None and mo_sha is not None:  # kept: a handle, read or not
            assert handle is not None
            run.files[mo] = compiled if compiled is not None else _as_is(handle, mo_sha, None)
        if job.keep:  # a catalog that merges back to itself is its own merge
            assert parsed is not None
            run.merged[(locale, domain)] = parsed
    else:
        name = job.names[domain]
        named = {"name": name} if name != domain else {}  # by default, the 4-argument call
        was = parsed.plural_forms if parsed is not None else ""
        merged = catalog.merge(registry, domain, locale, parsed, **named)
        if parsed is not None and checked is not None:
            _plural_forms_replaced(run, checked.problems, was, merged.plural_forms)
        # A locale's catalogs are large: hold one at a time where possible, and let the
        # file's bytes go before the merged catalog is written.
        parsed = data = None
        made = pofile.write(merged)
        merged.origin = None  # written: the catalog as read, and its lines, can go
        run.files[path] = made
        if mo is not None:  # from the checks' verdicts, where they have one
            run.files[mo] = catalog.compile_mo(merged, counts, memo)
        if job.keep:
            run.merged[(locale, domain)] = merged
        po_sha = sha256(made)
        if had and po_sha != read_sha:
            # The checks of the file as written, at the lines it will have: the merge
            # moves entries, and can fix the header or make an entry fuzzy. Entries the
            # merge kept as they were are not checked again (the memo).
            text = made.decode("utf-8")
            lines = pofile.entry_lines(merged, text)
            found, tally = checks.review(
                merged, lines, path, locale, domain, registry, text, memo=memo, contexts=counts
            )
            checked = Checked(digest(key, po_sha), tuple(found.items), _four(tally))
    if verdicts is not None:  # what the next run need not check again, if it changed
        seals = verdicts.record(memo)
        if seals != verdicts.known:
            record = verdicts_bytes(salt, seals)
            if job.forked and job.remember is not None:
                job.remember(verdicts_path(path), record)  # not sent back to the parent
            else:
                run.cache.verdicts[path] = record
    if checked is not None and had:
        run.problems.items.extend(checked.problems)
        run.counts[(locale, domain)] = checks.Counts(*checked.counts)
    output = run.files[path]
    assert isinstance(output, bytes)
    if not kept:  # the MO file just made (the PO file was hashed where it was written)
        made_mo = run.files[mo] if mo is not None else None
        mo_sha = sha256(made_mo) if isinstance(made_mo, bytes) else None
    run.cache.written[path] = Written(key, po_sha or "", mo_sha)
    run.hashes[path] = po_sha or ""
    if mo is not None and mo_sha is not None:
        run.hashes[mo] = mo_sha
    if checked is not None and had:  # the file as it now is, by its hash
        run.cache.checked[path] = checked
    if mo is not None:
        _compiled_output(job, run, mo, (handle, compiled, on_disk, mo_seen))
    if had and po_sha == read_sha:  # a worker need not send back what the parent has
        if later:
            run.files[path] = Stored(po_sha or "", len(output), None, seen)
        else:
            del run.files[path]
            run.same.append(path)
    elif job.stage is not None and had:
        # A changed PO file goes to a staged file beside it, not back to the parent;
        # where it cannot (a full disk), back to the parent, whose writer then says why.
        with contextlib.suppress(OSError):
            run.files[path] = job.stage(path, output)
    if job.forked and domain == DOMAINS[-1]:
        # The worker ends with this domain: what the call made (catalogs, their lines and
        # checks) goes with the process, not freed one object at a time on the way out.
        forks.spare(locals())


def _plural_forms_replaced(
    run: CatalogRun, problems: Sequence[Diagnostic], was: str, now: str
) -> None:
    """Say that the merge replaced the translator's own Plural-Forms (which the checks of
    the file as read found) with errorbook's rule, and what it was."""
    for problem in problems:
        if problem.id in ("E-PLURAL-FORMS-MISMATCH", "E-PLURAL-FORMULA"):
            run.changes.warning(
                "W-PLURAL-FORMS-REPLACED",
                problem.mark,
                f"Plural-Forms was '{was}'; errorbook wrote its rule for the language in "
                f"its place: {now}",
                "errorbook's rule decides which msgstr[N] a count picks, so it is the same "
                "in every catalog of a language; if it is wrong for the language, report "
                "it to errorbook's maintainers",
            )


#: The kinds of task :func:`process` forks: a locale's catalogs, a POT file (by domain), and
#: the caller's own task (``alongside``).
LOCALE, TEMPLATE, ALONGSIDE = "locale", "template", "alongside"
Task = tuple[str, str]


def _task(
    alongside: Mapping[str, Callable[[], object]],
    template: Callable[[str], bytes],
    task: Task,
) -> object:
    """One forked task of :func:`process` (see :data:`Task`). A template, or the files a
    task of the caller's makes (a mapping of paths to bytes), come back with their hashes,
    by path: the writer and the stamp need them, and here they are made on every core
    instead of in the one process that writes."""
    kind, name = task
    if kind == TEMPLATE:
        assert _JOB is not None
        text = template(name)
        return text, {pot_path(_JOB.locales_dir, _JOB.names[name]): sha256(text)}
    if kind == ALONGSIDE:
        made = alongside[name]()
        files = made.items() if isinstance(made, Mapping) else ()
        return made, {path: sha256(data) for path, data in files if isinstance(data, bytes)}
    return _locale(name)


def _forms_dropped(parsed: catalog.StableCatalog, path: str, locale: str) -> Diagnostics:
    """Translations the merge would lose: a Plural-Forms header of the translator's own
    with more forms than errorbook's rule for ``locale``, and entries that fill those forms.
    The merge writes errorbook's rule and keeps as many forms as it has, so the file is
    left as it is until a person decides what the extra forms become."""
    found = Diagnostics()
    rule = plurals.lookup(locale)
    if rule is None or parsed.num_plurals <= rule.count:
        return found
    # Obsolete entries count: they keep a translator's work for a code that may come back.
    lost = [
        message
        for message in [*parsed, *parsed.obsolete.values()]
        if message.id
        and isinstance(message.string, (tuple, list))
        and any(message.string[rule.count :])
    ]
    if not lost:
        return found
    first = min(lost, key=lambda message: message.lineno or 0)
    extra = next(n for n in range(rule.count, len(first.string)) if first.string[n])
    form = f"msgstr[{extra}]"
    rows = parsed.rows
    line = (first.lineno or 1) - 1
    while line < len(rows) and not rows[line].removeprefix("#~").lstrip().startswith(form):
        line += 1
    shown = len(lost)
    kept = "msgstr[0]" if rule.count == 1 else f"msgstr[0] to msgstr[{rule.count - 1}]"
    found.error(
        "E-PLURAL-FORMS-WOULD-DROP",
        Mark(path, line + 1 if line < len(rows) else first.lineno or 1, 1),
        f"Plural-Forms declares {parsed.num_plurals} forms, but errorbook's rule for "
        f"'{locale}' has {rule.count}: generate would drop this {form} and the extra "
        f"forms of {shown - 1} other entr{'y' if shown == 2 else 'ies'}"
        if shown > 1
        else f"Plural-Forms declares {parsed.num_plurals} forms, but errorbook's rule for "
        f"'{locale}' has {rule.count}: generate would drop this {form}",
        f"say what the extra forms say in {kept}, remove the extra lines, and set "
        f"Plural-Forms to: {rule.header}",
    )
    return found


def _review(
    data: bytes,
    path: str,
    locale: str,
    domain: str,
    job: Job,
    memo: checks.Memo,
    verdicts: checks.Verdicts,
    linted: bool = False,
) -> tuple[catalog.StableCatalog, Diagnostics, Counts] | Diagnostics:
    """A PO file as read, and the problems and counts of its checks; or why it does not
    parse. (A function of its own, so that the entries' line table is freed as soon as the
    checks are done.) ``linted``: see :func:`lint_ahead`."""
    parsed, lines, problems = pofile.read(
        data, path, locale, domain, job.code_names, remember=not job.forked, linted=linted
    )
    if problems.has_errors:
        return problems
    dropped = _forms_dropped(parsed, path, locale)
    if dropped.has_errors:
        return dropped
    # The catalog as read keeps the file's lines (see StableCatalog.raw_entry): the checks
    # place their problems in those, with no second copy of the text.
    found, tally = checks.review(
        parsed,
        lines,
        path,
        locale,
        domain,
        job.registry,
        memo=memo,
        rows=parsed.rows,
        verdicts=verdicts,
        contexts=job.counts,
    )
    return parsed, found, tally


#: The SHA-256 (hex) of PO files found well formed ahead of the run (see :func:`lint_ahead`).
_LINTED: set[str] = set()


def lint_ahead(folder: Path, limit: int | None, done: Callable[[], bool]) -> None:
    """Lint the PO files in the locales ``folder`` (``<locale>/LC_MESSAGES/*.po``), largest
    first, until ``done()``; note the hash of each that is well formed (see
    :func:`pofile.well_formed`), so that the worker that reads the same bytes later does
    not lint them again.

    For a process that waits: ``generate`` waits here while another process validates the
    registry, and the catalogs' workers, forked from it after, find the hashes. Nothing is
    kept but the hashes: each file is read, linted and let go. A file that cannot be read
    (a link, a FIFO, too large, gone) is left for its worker, which says why."""
    _LINTED.clear()
    found: list[tuple[int, str]] = []
    for locale in _listing(str(folder)):
        if locale.is_dir(follow_symlinks=False):
            for entry in _listing(os.path.join(locale.path, "LC_MESSAGES")):
                with contextlib.suppress(OSError):
                    if entry.name.endswith(".po") and entry.is_file(follow_symlinks=False):
                        found.append((-entry.stat(follow_symlinks=False).st_size, entry.path))
    for _, path in sorted(found):
        if done():
            return
        try:
            data = inputs.read(Path(path), limit=limit, follow=False)
        except inputs.InputFileError:
            continue
        if data is not None and pofile.well_formed(data):
            _LINTED.add(sha256(data))


def _listing(folder: str) -> list[os.DirEntry[str]]:
    """The entries of ``folder``; none where it cannot be listed."""
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except OSError:
        return []


def _vouched(entry: list[object] | None, seen: inputs.Seen | None) -> str | None:
    """The hash the stamp's ``entry`` gives a file a worker read, when the read saw the
    size and mtime the entry holds (an mtime the stamp trusted); else None."""
    if entry is None or seen is None or entry[1] == -1:
        return None
    return str(entry[2]) if [seen[1], seen[2]] == entry[:2] else None


def _unread(
    job: Job,
    source: inputs.Later,
    entry: list[object],
    written: Written,
    checked: Checked,
    key: str,
    mo: str | None,
    mo_sha: str | None,
) -> bool:
    """Whether a PO file need not be read at all: its size and mtime are those the stamp
    recorded, and by the hash recorded with them the last run wrote it from the same
    template and code (with the MO file beside it) and checked it. The file then merges
    back to itself, and everything the run needs of it is in the cache. (A save after this
    look is a save after the run: the next one sees a new mtime and does the work.)
    ``written`` and ``checked`` are the cache's records of the file; ``mo`` is the MO file
    compiled from it, if any, and ``mo_sha`` that file's hash (None: it is missing)."""
    if job.keep or entry[1] == -1:
        return False
    sha = str(entry[2])
    if written.key != key or written.po != sha:
        return False
    if mo is not None and (mo_sha is None or written.mo != mo_sha):
        return False
    if checked.key != digest(key, sha):
        return False
    try:
        info = os.lstat(source.path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and [info.st_size, info.st_mtime_ns] == entry[:2]


def _read_compiled(handle: inputs.Later) -> tuple[bytes | None, inputs.Seen | None]:
    """An MO file's bytes and stat; None when it cannot be read (the locale is compiled
    again)."""
    try:
        return handle.read()
    except inputs.InputFileError:
        return None, None


def _as_is(handle: Compiled, sha: str, seen: inputs.Seen | None) -> Output:
    """An MO file that stays as it is on disk, as the run passes it to the writer: with the
    stat its read saw, if it was read (the stamp then records it; one not read is one the
    stamp shows settled, whose entry it keeps)."""
    return handle if isinstance(handle, bytes) else Stored(sha, handle.size, None, seen)


def _compiled_output(
    job: Job,
    run: CatalogRun,
    mo: str,
    found: tuple[Compiled | None, bytes | None, str | None, inputs.Seen | None],
) -> None:
    """How the MO file the run made goes back to the parent. Only where the merged catalogs
    are kept (the site imports the package, MO files included) does the parent need its
    bytes; elsewhere one that stays as it is goes back as its hash, and a new one as a
    staged file beside it, so that the parent never holds every locale's MO file.
    ``found`` is the MO file the run found: its handle, its bytes if they were read, its
    hash (None: none, or unreadable) and the stat of its read."""
    handle, compiled, on_disk, seen = found
    made = run.files.get(mo)
    if not isinstance(made, bytes):
        return
    if made == compiled or (compiled is None and on_disk == run.hashes.get(mo)):
        if isinstance(handle, bytes):
            del run.files[mo]  # the parent has these bytes: no need to send them back
            run.same.append(mo)
        elif handle is not None and not job.keep:
            run.files[mo] = _as_is(handle, run.hashes[mo], seen)
    elif job.stage is not None and not job.keep:
        with contextlib.suppress(OSError):  # a full disk: back to the parent, as before
            run.files[mo] = job.stage(mo, made)


def _as_left(
    run: CatalogRun,
    catalog: tuple[str, str],
    path: str,
    mo_file: tuple[str | None, Compiled | None, inputs.Seen | None],
    entry: list[object],
    written: Written,
    checked: Checked,
) -> None:
    """Record a PO file that stays as the last run left it, without reading it (nor its MO
    file, which stays too)."""
    mo, handle, seen = mo_file  # its path, as the parent found it, and the stat of its read
    sha = str(entry[2])
    as_left = Stored(sha, int(str(entry[0])))
    run.on_disk.items.extend(checked.problems)
    run.problems.items.extend(checked.problems)
    run.counts[catalog] = checks.Counts(*checked.counts)
    run.cache.written[path] = written
    run.cache.checked[path] = checked
    run.hashes[path] = sha
    run.read[path] = run.files[path] = as_left
    run.steady[path] = entry
    if mo is not None and written.mo is not None:
        run.hashes[mo] = written.mo
        if isinstance(handle, bytes):
            run.same.append(mo)
        elif handle is not None:
            run.files[mo] = _as_is(handle, written.mo, seen)


def sha256(data: bytes) -> str:
    """A file's hash as the stamp records it, so that the two can be compared."""
    return hashlib.sha256(data).hexdigest()


def content_hash(data: bytes, path: str, settled: Mapping[str, str]) -> str:
    """The hash of ``data``, read from ``path``: the stamp's, when it shows the file unchanged
    since the last run (and ``data`` was read before that was looked at), else computed."""
    return settled.get(path) or sha256(data)


def _four(counts: Counts) -> tuple[int, int, int, int]:
    return counts.translated, counts.fuzzy, counts.untranslated, counts.rejected


def _template_text(registry: Registry, names: Mapping[str, str], domain: str) -> bytes:
    """The POT file of ``domain``."""
    return pofile.write(catalog.template(registry, domain, names[domain]))


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


def _bytes_of(
    existing: Mapping[str, Source], locales_dir: str, names: Mapping[str, str], locale: str
) -> int:
    """The size of a locale's PO files, as read or as their stat gave it."""
    total = 0
    for domain in DOMAINS:
        data = existing.get(po_path(locales_dir, locale, names[domain]))
        total += data.size if isinstance(data, inputs.Later) else len(data or b"")
    return total


def process(
    registry: Registry,
    existing: Mapping[str, Source],
    locales_dir: str,
    package_dir: str,
    keep_merged: bool,
    compiled: Mapping[str, Compiled] | None = None,
    previous: CatalogCache | None = None,
    names: Mapping[str, str] = NAMES,
    templates: Mapping[str, Output] | None = None,
    settled: Mapping[str, str] | None = None,
    stamped: Mapping[str, list[object]] | None = None,
    manifest: Collection[str] = (),
    stage: Callable[[str, bytes], Stored] | None = None,
    remember: Callable[[str, bytes], None] | None = None,
    alongside: Mapping[str, Callable[[], object]] | None = None,
) -> CatalogRun:
    """Every locale's catalogs, on all cores when there is enough to do. The result is the
    same, byte for byte, however many processes made it: each locale is one task, and the
    results are put together in the registry's locale order.

    ``compiled`` (the MO files on disk) and ``previous`` (the cache of the last run) let a
    locale whose PO file that run wrote skip its merge, write and compile. ``names`` gives
    each domain's file name (Config.domains). ``templates``, by path, are the POT files the
    registry makes, when the caller knows them already (see ``pipeline.build.Made``): as
    bytes, or as an ``output.Stored`` (on disk as the last run left them, unread), since the
    catalogs' keys take a template by its hash.
    ``settled`` holds the hash of each PO and MO file the stamp shows unchanged since the
    last run (see ``pipeline.stamp.settled``): those are not hashed again.

    A PO file passed as an :class:`inputs.Later` is read by the worker that merges it, so
    that no process holds every catalog: ``stamped`` holds the stamp's entries of such files
    (a worker trusts one when its read saw the same size and mtime), and ``manifest`` the
    files errorbook wrote last time (a worker checks that the file it read is one errorbook
    may take over, see :func:`claim`). ``stage`` (``output.stage``), when given, writes a
    changed PO file to a staged file beside it; the run then passes it as an
    ``output.Stored``, and the caller must ``output.write`` or ``output.discard`` it.
    ``remember`` (``output.write_cache``), when given, lets a forked worker write its PO
    file's verdict record itself (see ``cache.verdicts_path``) instead of sending it back:
    a record holds only true seals, whether or not the run goes on to write.

    ``alongside`` holds tasks of the caller's, by name, that need nothing of the catalogs
    (making the outputs that come from the registry alone): where the locales are merged in
    forked processes, each runs in one of its own, after them in the same pool, so that no
    core waits for the other at the end (and no process holds what two of them make);
    elsewhere, here after the locales. What each returns is in the run's ``alongside``,
    under its name."""
    global _JOB
    beside: Mapping[str, Callable[[], object]] = {}  # the tasks run in the pool
    aside: dict[str, object] = {}  # what they returned
    made_hashes: dict[str, str] = {}  # the hashes of the files the pool's other tasks made
    locales = list(registry.meta.locales)
    size = sum(
        data.size if isinstance(data, inputs.Later) else len(data) for data in existing.values()
    )
    count = min(workers(), len(locales))
    forked = count > 1 and size >= PARALLEL_MIN_BYTES and forks.available()
    known = templates or {}
    texts = {
        domain: text
        for domain in DOMAINS
        if (text := known.get(pot_path(locales_dir, names[domain]))) is not None
    }
    missing = [domain for domain in DOMAINS if domain not in texts]
    # A catalog's key names the template it was merged with. With the registry's source (its
    # file's bytes and errorbook's code, which make the template), that needs no template's
    # text, and a missing POT file is made in the pool below, beside the locales.
    later = missing if forked and registry.source else []
    make = functools.partial(_template_text, registry, names)
    now = [domain for domain in missing if domain not in later]
    for domain in now:  # made once here, for every process forked below
        entries(registry, domain)
    # The POT files made now: in processes of their own when the locales will be, so that the
    # template catalogs' garbage is not in every worker's pages.
    made = forks.map_forked(make, now, count) if forked else [make(d) for d in now]
    texts.update(zip(now, made, strict=True))
    count_names = repr(sorted((c.name, c.message.count or "") for c in registry.codes))
    keys = {
        domain: digest(
            fingerprint(),
            domain,
            f"registry {registry.source} {names[domain]}"
            if registry.source
            else sha256_of(texts[domain]),
            count_names,
        )
        for domain in DOMAINS
    }
    _JOB = Job(
        registry,
        existing,
        compiled or {},
        locales_dir,
        package_dir,
        keep_merged,
        previous or CatalogCache(),
        keys,
        names,
        settled or {},
        message_contexts(registry),
        code_names(registry),
        stamped or {},
        manifest,
        stage,
        forked,
        remember=remember,
    )
    try:
        if forked:
            # A locale whose files the stamp shows as the last run left them costs a look at
            # their size and mtime: it is done here, and only the others get a process.
            done: dict[str, CatalogRun] = {}
            needed: set[str] = set()  # the domains a worker will merge
            _JOB = dataclasses.replace(_JOB, settled_only=True)
            for locale in locales:
                try:
                    done[locale] = _locale(locale)
                except _Unsettled as unsettled:
                    needed.update(unsettled.domains)
            _JOB = dataclasses.replace(_JOB, settled_only=False)
            # A domain's entries are made once here, for every worker, but only where a
            # worker will merge that domain: after one translator's edit to a messages.po,
            # the docs entries (five times as many) are not needed at all.
            for domain in DOMAINS:
                if domain in needed or domain in later:
                    entries(registry, domain)
            rest = [locale for locale in locales if locale not in done]
            # The largest first, so that no worker is left with a large locale at the end
            # while the other has nothing to do (the results go back in the locales' order).
            rest.sort(key=lambda locale: -_bytes_of(existing, locales_dir, names, locale))
            # After them, the tasks that need no catalog: the POT files still to make, and
            # the caller's own where the locales give the pool work to share. Smaller, they
            # fill the pool's end; and what they send back (tens of MB at ten thousand
            # codes) is then in no locale's worker, which is forked from this process.
            beside = (alongside or {}) if rest else {}
            tasks: list[Task] = [
                *((LOCALE, locale) for locale in rest),
                *((TEMPLATE, domain) for domain in later),
                *((ALONGSIDE, name) for name in beside),
            ]
            answers = forks.map_forked(functools.partial(_task, beside, make), tasks, count)
            for (kind, name), answer in zip(tasks, answers, strict=True):
                if kind == LOCALE:
                    done[name] = cast(CatalogRun, answer)
                    continue
                value, hashed = cast(tuple[object, dict[str, str]], answer)
                made_hashes.update(hashed)
                if kind == TEMPLATE:
                    texts[name] = cast(bytes, value)
                else:
                    aside[name] = value
            parts = [done[locale] for locale in locales]
        else:
            parts = [_locale(locale) for locale in locales]
    finally:
        _JOB = None
    texts = {domain: texts[domain] for domain in DOMAINS}  # in the domains' order, as before
    run = CatalogRun()
    run.hashes.update(made_hashes)
    for name, task in (alongside or {}).items():
        run.alongside[name] = aside[name] if name in beside else task()
    for domain, text in texts.items():
        run.files[pot_path(locales_dir, names[domain])] = text
    kept = {**(compiled or {}), **existing}
    for part in parts:
        for path in part.same:
            same = kept[path]
            assert isinstance(same, bytes)
            run.files[path] = same
        run.files.update(part.files)
        run.merged.update(part.merged)
        run.unreadable.extend(part.unreadable)
        run.problems.extend(part.problems)
        run.on_disk.extend(part.on_disk)
        run.changes.extend(part.changes)
        run.counts.update(part.counts)
        run.cache.written.update(part.cache.written)
        run.cache.checked.update(part.cache.checked)
        run.cache.verdicts.update(part.cache.verdicts)
        run.hashes.update(part.hashes)
        run.read.update(part.read)
        run.steady.update(part.steady)
    return run
