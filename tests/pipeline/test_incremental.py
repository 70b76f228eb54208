"""Incremental generation: a no-op run does nothing, and a change redoes only what it touches."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.util import TextWrapper
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import config, inputs
from generator.catalogs import catalog, paths, pofile
from generator.emit import jsondata, python
from generator.emit.site import pages as site
from generator.names import SHIPPED_TEMPLATES
from generator.pipeline import build, cache, catalogs, output, stamp
from generator.registry import loader

from ..conftest import PYPROJECT, ROOT, Run, cache_of, make_project, po

NO_OP = "0 files changed (no input changed since the last run)\n"
HEAVY = ("argparse", "tomllib", "yaml", "babel", "jinja2", "generator.config")

PROBE = """
import sys
from generator.cli import main
code = main(sys.argv[1:])
print("loaded:", sorted(m for m in {heavy!r} if m in sys.modules))
sys.exit(code)
"""


def probe(cwd: Path, *args: str) -> tuple[int, str]:
    """``errorbook ARGS`` in a fresh interpreter; also says which heavy modules it loaded."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def settle(*paths: Path) -> None:
    """Date files 10 s back, so the stamp trusts their stat (they are not "racy")."""
    past = time.time() - 10
    for path in paths:
        os.utime(path, (past, past))


def test_a_no_op_answers_before_loading_the_pipeline(run: Run, project: Path) -> None:
    assert run("generate", cwd=project).code == 0
    code, out = probe(project, "generate")
    assert code == 0
    assert out == NO_OP + "loaded: []\n"


def test_the_fast_answer_agrees_with_a_full_run(run: Run, project: Path) -> None:
    """After the no-op, a forced run finds every file already as it would write it."""
    run("generate", cwd=project)
    assert probe(project, "generate")[1].startswith(NO_OP)
    forced = run("generate", "--force", cwd=project)
    assert forced.out.startswith("0 files changed, ")


@pytest.mark.parametrize(
    "change",
    [
        "new_po_file",
        "edited_po_file",
        "edited_registry",
        "removed_output",
        "edited_output",
        "edited_pyproject",
    ],
)
def test_any_changed_input_or_output_costs_a_full_run(run: Run, project: Path, change: str) -> None:
    run("generate", cwd=project)
    de = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    if change == "new_po_file":
        extra = project / "locales" / "xx" / "LC_MESSAGES" / "messages.po"
        extra.parent.mkdir(parents=True)
        extra.write_bytes(de.read_bytes())
    elif change == "edited_po_file":
        de.write_text(de.read_text("utf-8") + "\n# a translator's note\n", "utf-8")
    elif change == "edited_registry":
        registry = project / "codes.yaml"
        registry.write_text(registry.read_text("utf-8") + "\n# a comment\n", "utf-8")
    elif change == "removed_output":
        (project / "surface_errors" / "wire.py").unlink()
    elif change == "edited_output":
        codes = project / "surface_errors" / "codes.py"
        codes.write_text(codes.read_text("utf-8") + "# hand edit\n", "utf-8")
    elif change == "edited_pyproject":
        toml = project / "pyproject.toml"
        toml.write_text(toml.read_text("utf-8") + "\n# a comment\n", "utf-8")
    code, out = probe(project, "generate")
    assert code == 0, out
    assert NO_OP not in out
    loaded = [line for line in out.splitlines() if line.startswith("loaded:")]
    assert "tomllib" in loaded[-1]  # it took the ordinary way
    if change == "new_po_file":  # of a locale the registry does not list: named, left alone
        assert "locales/xx/LC_MESSAGES/messages.po:1:1: warning: " in out


def test_a_touched_file_stays_a_no_op_and_the_stamp_learns_its_stat(
    run: Run, project: Path
) -> None:
    run("generate", cwd=project)
    registry = project / "codes.yaml"
    settle(registry)
    assert probe(project, "generate")[1].startswith(NO_OP)
    recorded = json.loads((cache_of(project) / stamp.STAMP).read_bytes())
    size, mtime, _, _ = recorded["inputs"][str(registry)]
    assert (size, mtime) == (registry.stat().st_size, registry.stat().st_mtime_ns)


def test_a_stamp_made_with_flags_is_not_trusted_without_the_configuration(
    run: Run, project: Path
) -> None:
    run("generate", "--registry", "codes.yaml", cwd=project)
    code, out = probe(project, "generate")
    assert code == 0
    assert out.startswith(NO_OP)  # the same configuration after all ...
    assert "tomllib" in out  # ... but only pyproject.toml could tell


def test_the_fast_path_finds_the_same_pyproject_as_the_configuration(
    run: Run, project: Path
) -> None:
    run("generate", cwd=project)
    plain = project / "docs" / "tool"
    plain.mkdir(parents=True)
    (plain / "pyproject.toml").write_text("[project]\nname = 'docs'\n", "utf-8")
    assert config.load(cwd=plain).root == project
    found = stamp.fresh_from(str(plain))
    assert found is not None and found[0] == str(project)
    other = project / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text("[tool.errorbook]\nregistry = 'x.yaml'\n", "utf-8")
    assert config.load(cwd=other).root == other
    assert stamp.fresh_from(str(other)) is None  # its own project, without a stamp


def test_an_unreadable_stamp_means_a_full_run(run: Run, project: Path) -> None:
    run("generate", cwd=project)
    (cache_of(project) / stamp.STAMP).write_text("{not json", "utf-8")
    assert stamp.fresh_from(str(project)) is None
    assert run("generate", cwd=project).out.startswith("0 files changed, ")


# The catalog cache: a change to one PO file re-merges and recompiles that locale only.

Calls = list[tuple[str, ...]]


def spy(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Record every merge, PO write and MO compile of a run (in this process)."""
    calls: Calls = []
    merge, write, compile_mo = catalog.merge, pofile.write, catalog.compile_mo

    def merging(registry: Any, domain: str, locale: str, existing: Any) -> Any:
        calls.append(("merge", locale, domain))
        return merge(registry, domain, locale, existing)

    def writing(made: catalog.StableCatalog) -> bytes:
        calls.append(("write", made.locale_identifier or "template", made.domain or ""))
        return write(made)

    def compiling(made: catalog.StableCatalog, counts: Any, *verdicts: Any) -> bytes:
        calls.append(("compile", made.locale_identifier or "", made.domain or ""))
        return compile_mo(made, counts, *verdicts)

    monkeypatch.setattr(catalog, "merge", merging)
    monkeypatch.setattr(pofile, "write", writing)
    monkeypatch.setattr(catalog, "compile_mo", compiling)
    monkeypatch.setenv("ERRORBOOK_JOBS", "1")
    return calls


def work(calls: Calls) -> set[tuple[str, ...]]:
    """The per-locale work of a run (writing the two templates is not per locale)."""
    return {c for c in calls if c[1] != "template"}


def edit_translation(path: Path, context: str = "") -> None:
    """Put a word in front of the first translation (or that of ``context``)."""
    text = path.read_text("utf-8")
    marker = 'msgstr "'
    start = text.index(marker, text.index(f'msgctxt "{context}'))
    path.write_text(text[: start + len(marker)] + "Geändert: " + text[start + len(marker) :])


def test_one_changed_po_file_re_merges_and_recompiles_that_locale_only(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = spy(monkeypatch)
    run("generate", "--force", cwd=project)  # --force: no cache, every locale
    locales = {c[1] for c in work(calls) if c[0] == "merge"}
    assert {"de", "ja", "pl"} <= locales
    calls.clear()
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert work(calls) == {
        ("merge", "de", "messages"),
        ("write", "de", "messages"),
        ("compile", "de", "messages"),
    }
    assert "updated  surface_errors/locales/de/LC_MESSAGES/messages.mo" in result.out
    calls.clear()
    assert run("generate", "--force", cwd=project).out.startswith("0 files changed, ")
    assert {c[1] for c in work(calls) if c[0] == "merge"} == locales


def test_a_po_file_rewritten_by_the_last_run_is_not_merged_again(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a registry change every catalog is rewritten; the next run that has work to do
    (another PO file changed) leaves those rewritten files alone."""
    calls = spy(monkeypatch)
    registry = project / "codes.yaml"
    text = registry.read_text("utf-8")
    old = "The action {action} was not allowed."
    registry.write_text(text.replace(old, "The action {action} was refused."), "utf-8")
    assert "updated  locales/ja/LC_MESSAGES/messages.po" in run("generate", cwd=project).out
    calls.clear()
    edit_translation(project / "locales" / "pl" / "LC_MESSAGES" / "messages.po")
    run("generate", cwd=project)
    assert {c[1] for c in work(calls)} == {"pl"}


def test_cached_problems_are_reported_like_fresh_ones(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    text = po.read_text("utf-8")
    start = text.index("{action}", text.index('msgstr "', text.index('"PERMISSION_DENIED"')))
    po.write_text(text[:start] + "{aktion}" + text[start + len("{action}") :], "utf-8")
    run("generate", "--force", cwd=project)
    (cache_of(project) / cache.CATALOGS).unlink()
    first = run("check", cwd=project)  # checked afresh
    assert first.code == 1 and "{aktion}" in first.err
    run("generate", "--force", cwd=project)  # now the cache holds the file's problems
    calls = spy(monkeypatch)
    again = run("check", cwd=project)
    assert (again.code, again.out, again.err) == (first.code, first.out, first.err)
    assert not work(calls)


def outputs_with(project: Path, use_cache: bool) -> Mapping[str, bytes | output.Stored]:
    settings = config.load(cwd=project)
    registry = build.registry_for(settings)
    return build.run(settings, registry, use_cache=use_cache)[0]


def test_the_cache_never_changes_a_byte(run: Run, project: Path) -> None:
    """Every kind of change the caches must notice, after a run that filled them."""
    run("generate", "--force", cwd=project)
    de = project / "locales" / "de" / "LC_MESSAGES"
    ja = project / "locales" / "ja" / "LC_MESSAGES"
    edit_translation(ja / "docs.po")
    edit_translation(ja / "docs.po", "adapter.python.title")  # prose every code page shows
    edit_translation(de / "docs.po", "PERMISSION_DENIED.meaning")  # one code's prose
    edit_translation(de / "messages.po", "INVALID_PARAMS")  # one code's UI message
    registry = project / "codes.yaml"
    text = registry.read_text("utf-8")
    limit = "    title: Action timeout\n    default: 30\n"
    assert limit in text
    text = text.replace(limit, limit.replace("30", "45"))  # shown on ACTION_TIMEOUT's page
    branch = "Callers branch on error["
    assert branch in text
    text = text.replace(branch, "Callers must branch on error[")  # shown on every code page
    registry.write_text(text, "utf-8")
    assert outputs_with(project, True) == outputs_with(project, False)


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"{broken",
        lambda data: data.replace(b'"format": %d' % cache._FORMAT, b'"format": 99'),
        lambda data: data.replace(b'"written": {', b'"written": {"x": 1, ', 1),
    ],
)
def test_a_damaged_cache_is_an_empty_one(
    run: Run, project: Path, damage: Callable[[bytes], bytes]
) -> None:
    run("generate", "--force", cwd=project)
    path = cache_of(project) / cache.CATALOGS
    path.write_bytes(damage(path.read_bytes()))
    assert cache.load(project).written == {} or damage(b"") == b"{broken"
    assert outputs_with(project, True) == outputs_with(project, False)


def test_a_cache_entry_for_other_content_is_not_used(run: Run, project: Path) -> None:
    """The MO file on disk is compared with the one the cache remembers: a hand-replaced MO
    file is rebuilt, not kept."""
    run("generate", "--force", cwd=project)
    mo = project / paths.mo_path("surface_errors", "de")
    good = mo.read_bytes()
    mo.write_bytes(good[:-1] + b"\x00")
    assert outputs_with(project, True)[paths.mo_path("surface_errors", "de")] == good


# The shortcuts past Babel's slow paths must give exactly what Babel gives.

COMMENTS = st.lists(
    st.sampled_from([*"ab -\t\n\r\x0b\x0c\u00a0\u3000é{}", "word", "long-word"]), max_size=20
).map("".join)


@given(text=COMMENTS, width=st.sampled_from([5, 20, 76, pofile.NO_WRAP]))
@settings(max_examples=400, deadline=None)
def test_the_one_line_wrapper_wraps_as_babel_does(text: str, width: int) -> None:
    ours = pofile._OneLineWrapper(width=width, break_long_words=False)
    babels = TextWrapper(width=width, break_long_words=False)
    assert ours.wrap(text) == babels.wrap(text)


@given(
    msgid=st.one_of(COMMENTS, st.tuples(COMMENTS, COMMENTS)),
    string=st.one_of(st.just(""), COMMENTS, st.tuples(COMMENTS, COMMENTS)),
    flags=st.sets(st.sampled_from(["fuzzy", "python-brace-format", "python-format"])),
    comments=st.lists(st.sampled_from(["a", "b", "a b"]), max_size=4),
    context=st.one_of(st.none(), st.just("CODE")),
)
@settings(max_examples=300, deadline=None)
def test_the_message_factory_makes_what_babel_makes(
    msgid: str | tuple[str, str],
    string: str | tuple[str, str],
    flags: set[str],
    comments: list[str],
    context: str | None,
) -> None:
    babels = Message(
        msgid,
        string,
        auto_comments=comments,
        user_comments=comments[::-1],
        previous_id=["old"],
        context=context,
    )
    babels.flags = set(flags)
    ours = catalog.message(
        msgid,
        string,
        flags=flags,
        auto_comments=comments,
        user_comments=comments[::-1],
        previous_id=["old"],
        context=context,
    )
    assert vars(ours) == vars(babels)


LINES = st.sampled_from(
    [
        "",
        " ",
        "#",
        "# translator",
        "#. extracted",
        "#, fuzzy",
        '#| msgid "old"',
        '#|msgid "old"',
        '#| msgctxt "A"',
        "#~",
        '#~ msgctxt "A"',
        '#~ msgid "x"',
        '#~ msgstr "y"',
        '#~ msgid_plural "xs"',
        '#~ msgstr[0] "y"',
        '#~| msgid "old"',
        '#~ "more"',
        'msgctxt "A"',
        'msgctxt "B"',
        'msgid ""',
        'msgid "x"',
        'msgid "x" ',
        'msgid  "x"',
        'msgid "a\\qb"',
        'msgid "unclosed',
        'msgid "x" tail',
        'msgid_plural "xs"',
        'msgstr ""',
        'msgstr "y"',
        'msgstr[0] "y"',
        'msgstr[1] "ys"',
        'msgstr[2] "ys"',
        'msgstr[7] "ys"',
        '"Language: de\\n"',
        '"more"',
        '  "indented"',
        "msgfoo",
        '"\\t\\"\\\\"',
    ]
)


_GOOD = st.sampled_from(['""', '"x"', '"t\\t"', '"q\\""', '"b\\\\"'])
_BAD = st.sampled_from(['"a\\qb"', '"open', '"x" tail', '"x" ', "x"])
QUOTED = st.one_of(*[_GOOD] * 15, _BAD)  # mostly good: the shortcut must see many files


@st.composite
def entries(draw: st.DrawFn) -> list[str]:
    """Lines of one entry, mostly well formed, sometimes not in one place."""
    prefix = draw(st.sampled_from(["", "", "#~ "]))
    lines = draw(st.lists(st.sampled_from(["#. note", "#, fuzzy", '#| msgid "old"']), max_size=2))
    if draw(st.booleans()):
        lines.append(f"{prefix}msgctxt {draw(QUOTED)}")
    lines.append(f"{prefix}msgid {draw(QUOTED)}")
    lines += [prefix + draw(QUOTED) for _ in range(draw(st.integers(0, 1)))]
    if draw(st.booleans()):
        lines.append(f"{prefix}msgid_plural {draw(QUOTED)}")
        order = draw(st.sampled_from([[0, 1]] * 6 + [[0, 1, 2], [1, 0], [0], [0, 0], [0, 2], []]))
        lines += [f"{prefix}msgstr[{i}] {draw(QUOTED)}" for i in order]
    else:
        count = draw(st.sampled_from([1] * 8 + [0, 2]))
        lines += [f"{prefix}msgstr {draw(QUOTED)}" for _ in range(count)]
    if draw(st.integers(0, 9)) == 0:  # one line out of place or foreign
        lines.insert(draw(st.integers(0, len(lines))), draw(LINES))
    return lines


@given(parts=st.lists(st.tuples(entries(), st.sampled_from(["", "\n"])), max_size=6))
@settings(max_examples=2000, deadline=None)
def test_the_well_formed_shortcut_never_hides_a_problem(
    parts: list[tuple[list[str], str]],
) -> None:
    text = "".join("\n".join(lines) + "\n" + gap for lines, gap in parts)
    if pofile._well_formed(text):
        assert not pofile.lint_lines(text, "x.po").items


#: The shortcut's quoted string and header count as they were before they were made faster:
#: the faster ones must take exactly the same files.
_STRING_BEFORE = r'"(?>[^"\\\n]|\\[\\"ntr])*+"'
_HEADER_BEFORE = re.compile(r'^msgid ""\nmsgstr', re.M)
_WELL_FORMED_BEFORE = re.compile(
    pofile._WELL_FORMED.pattern.replace(pofile._STRING, _STRING_BEFORE)
)
_SOUP = st.lists(
    st.sampled_from(
        [
            *("msgid ", "msgstr ", "msgctxt ", "msgid_plural ", "msgstr[0] ", "#~ ", "#| ", "#"),
            *('"', '""', "\\", "n", "q", "abc", " ", "\t", "\n", 'msgid ""\nmsgstr ""\n', "é"),
        ]
    ),
    max_size=40,
).map("".join)


@given(
    parts=st.lists(st.tuples(entries(), st.sampled_from(["", "\n"])), max_size=6),
    soup=_SOUP,
    header=st.sampled_from(["", 'msgid ""\nmsgstr ""\n"A: b\\n"\n\n']),
)
@settings(max_examples=1000, deadline=None)
def test_the_well_formed_shortcut_takes_what_it_took_before(
    parts: list[tuple[list[str], str]], soup: str, header: str
) -> None:
    for text in (header + "".join("\n".join(lines) + "\n" + gap for lines, gap in parts), soup):
        before = (
            _WELL_FORMED_BEFORE.fullmatch(text) is not None
            and len(_HEADER_BEFORE.findall(text)) <= 1
        )
        assert pofile._well_formed(text) == before, text


def test_the_well_formed_shortcut_takes_real_catalogs() -> None:
    for path in sorted((ROOT / "locales").rglob("*.po*")):
        assert pofile._well_formed(path.read_text("utf-8")), path


def test_the_collector_is_tuned_only_while_errorbook_builds(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run raises the cycle collector's threshold for its own work and puts it back, since
    errorbook also runs inside MkDocs and hatchling."""
    seen: list[tuple[int, int, int]] = []
    process = catalogs.process

    def recording(*args: Any, **kwargs: Any) -> catalogs.CatalogRun:
        seen.append(gc.get_threshold())
        return process(*args, **kwargs)

    monkeypatch.setattr(catalogs, "process", recording)
    before = gc.get_threshold()
    settings = config.load(cwd=project)
    build.run(settings, build.registry_for(settings))
    assert seen and seen[0][0] > before[0]
    assert gc.get_threshold() == before


def test_the_collector_stays_tuned_until_the_stamp_is_written(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stamp is made after the catalogs, whose objects a collection at the default
    threshold would walk again; the threshold is put back once generate is done."""
    seen: list[tuple[int, int, int]] = []
    record = stamp.record

    def recording(*args: Any, **kwargs: Any) -> bytes:
        seen.append(gc.get_threshold())
        return record(*args, **kwargs)

    monkeypatch.setattr(stamp, "record", recording)
    before = gc.get_threshold()
    assert run("generate", "--force", cwd=project).code == 0
    assert seen and seen[0][0] > before[0]
    assert gc.get_threshold() == before


def test_a_changed_code_re_renders_that_codes_pages_only(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("generate", "--force", cwd=project)
    rendered: list[str] = []
    render = site.render  # type: ignore[attr-defined]

    def recording(env: Any, name: str, **context: Any) -> bytes:
        if name == "site/code.md.j2":
            rendered.append(f"{context['lang']}:{context['code'].name}")
        return render(env, name, **context)

    monkeypatch.setattr(site, "render", recording)
    registry = project / "codes.yaml"
    text = registry.read_text("utf-8")
    meaning = "This is a decision, not a fault."
    assert meaning in text
    registry.write_text(text.replace(meaning, meaning + " Nothing ran."), "utf-8")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    languages = ("ar", "de", "en", "es", "fr", "ja", "pl")  # every published language
    assert sorted(rendered) == [f"{lang}:PERMISSION_DENIED" for lang in languages]
    assert "updated  site/docs/en/codes/permission_denied.md" in result.out
    assert "Nothing ran\\." in (project / "site/docs/en/codes/permission_denied.md").read_text()
    rendered.clear()
    page = project / "site/docs/de/codes/action_timeout.md"
    page.write_text(page.read_text("utf-8") + "hand edit\n", "utf-8")  # a page someone changed
    assert run("generate", "--force", cwd=project).code == 0
    assert len(rendered) > 3  # --force renders every page
    assert "hand edit" not in page.read_text("utf-8")


def test_a_file_written_a_moment_ago_is_hashed_again_next_time(tmp_path: Path) -> None:
    """Its stat may not show a change made within the same clock tick: like git's racy
    entries, it is recorded without its mtime. How long "a moment" is depends on whether the
    file system keeps fractions of a second."""
    path = tmp_path / "f"
    path.write_bytes(b"x")

    def recorded_mtime() -> object:
        entry = stamp._entry(str(path), None)
        assert entry is not None
        return entry[1]

    now = time.time_ns()
    fine = now - 50_000_001  # 50 ms ago, with nanoseconds
    os.utime(path, ns=(fine, fine))
    assert recorded_mtime() == -1
    fine = now - 500_000_001  # half a second ago
    os.utime(path, ns=(fine, fine))
    assert recorded_mtime() == fine
    whole = (now // 1_000_000_000 - 1) * 1_000_000_000  # a second ago, whole seconds only
    os.utime(path, ns=(whole, whole))
    assert recorded_mtime() == -1


def test_the_po_read_cache_holds_a_bounded_amount_of_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long `mkdocs serve` or fuzzing run reads many PO files; the cache keeps at most its
    limit of PO text, and still answers a repeated read with the same parse."""
    monkeypatch.setattr(pofile, "_READ_CACHE", {})
    monkeypatch.setattr(pofile, "_read_cache_bytes", 0)
    monkeypatch.setattr(pofile, "_READ_CACHE_LIMIT", 4096)
    header = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
    texts = [
        f'{header}msgctxt "C{i}"\nmsgid "{"x" * 500}"\nmsgstr ""\n'.encode() for i in range(40)
    ]
    for data in texts:
        first = pofile.read(data, "de.po", "de", "messages")
        assert pofile.read(data, "de.po", "de", "messages") is first
        held = sum(len(key_data) for key_data in texts if _cached(pofile, key_data))
        assert held <= 4096 and pofile._read_cache_bytes <= 4096
    huge = texts[0] + b"#" * 5000 + b"\n"
    pofile.read(huge, "de.po", "de", "messages")
    assert not _cached(pofile, huge)  # larger than the whole cache: parsed, not kept


def _cached(module: Any, data: bytes) -> bool:
    key = (hashlib.sha256(data).digest(), "de.po", "de", "messages")
    return key in module._READ_CACHE


def test_a_translated_limit_unit_re_renders_the_code_pages_that_show_it(
    run: Run, project: Path
) -> None:
    """A code page shows its limits' units in its language: a change to a unit's translation
    must reach it through the page cache (it did not: the key left the unit out)."""
    assert run("generate", "--force", cwd=project).code == 0
    po = project / "locales" / "de" / "LC_MESSAGES" / "docs.po"
    text = po.read_text("utf-8")
    entry = 'msgctxt "limit.llm_retry_attempts.unit"\nmsgid "attempt"\nmsgid_plural "attempts"\n'
    assert entry + 'msgstr[0] "Versuch"\nmsgstr[1] "Versuche"\n' in text
    po.write_text(
        text.replace(
            entry + 'msgstr[0] "Versuch"\nmsgstr[1] "Versuche"\n',
            entry + 'msgstr[0] "Anlauf"\nmsgstr[1] "Anläufe"\n',
        ),
        "utf-8",
    )
    assert run("generate", cwd=project).code == 0
    page = (project / "site/docs/de/codes/llm_retries_exhausted.md").read_text("utf-8")
    assert "| 3 Anläufe | 1 Anlauf" in page and "| 3 Versuche |" not in page
    assert run("check", cwd=project).code == 0


# The registry cache: the registry the last run read, unpickled instead of parsed.


def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every registry read from its YAML text (in this process)."""
    calls: list[str] = []
    load_text = loader.load_text

    def loading(text: str, name: str) -> Any:
        calls.append(name)
        return load_text(text, name)

    monkeypatch.setattr(loader, "load_text", loading)
    return calls


def test_a_run_after_a_translators_edit_takes_the_registry_from_the_cache(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = loads(monkeypatch)
    run("generate", "--force", cwd=project)
    assert calls == ["codes.yaml"] and (cache_of(project) / cache.REGISTRY).is_file()
    fresh = build.registry_for(config.load(cwd=project), use_cache=False)
    calls.clear()
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    assert run("generate", cwd=project).code == 0
    assert calls == []
    cached = build.registry_for(config.load(cwd=project))
    assert cached == fresh and cached.path == fresh.path
    assert outputs_with(project, True) == outputs_with(project, False)


def test_an_edited_registry_is_read_again(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = loads(monkeypatch)
    run("generate", cwd=project)
    registry = project / "codes.yaml"
    old = "The action {action} was not allowed."
    new = "The action {action} was refused."
    registry.write_text(registry.read_text("utf-8").replace(old, new), "utf-8")
    calls.clear()
    result = run("generate", cwd=project)
    assert result.code == 0 and calls == ["codes.yaml"]
    assert "was refused" in (project / "locales" / "messages.pot").read_text("utf-8")
    calls.clear()
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    run("generate", cwd=project)
    assert calls == []  # the edited registry is the one cached now


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-40],  # cut short
        lambda data: data.split(b"\n", 1)[0] + b"\nnot a pickle",
        lambda data: b"0" * 64 + data[64:],  # another key
        lambda data: data.split(b"\n", 1)[0] + b"\n" + __import__("pickle").dumps(["a list"]),
    ],
)
def test_a_damaged_registry_cache_is_a_miss(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[bytes], bytes]
) -> None:
    run("generate", cwd=project)
    path = cache_of(project) / cache.REGISTRY
    data = path.read_bytes()
    assert data is not None
    path.write_bytes(damage(data))
    calls = loads(monkeypatch)
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert calls == ["codes.yaml"]
    assert run("check", cwd=project).code == 0


# Outputs made from the registry alone: taken from disk while they are as the last run made them.


def emits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every run of the emitters that read the registry alone (in this process)."""
    calls: list[str] = []
    for module, name in ((python, "python"), (jsondata, "json")):
        monkeypatch.setattr(module, "emit", _counting(module.emit, calls, name))
    monkeypatch.setattr(catalog, "template", _counting(catalog.template, calls, "template"))
    return calls


def _counting(function: Callable[..., Any], calls: list[str], name: str) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return function(*args, **kwargs)

    return counted


def test_a_translators_edit_does_not_render_the_package_again(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("generate", "--force", cwd=project)
    calls = emits(monkeypatch)
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert "python" not in calls and "json" not in calls and "template" not in calls
    assert outputs_with(project, True) == outputs_with(project, False)
    assert run("check", cwd=project).code == 0


def test_an_output_edited_by_hand_is_made_again(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("generate", "--force", cwd=project)
    codes = next(project.glob("surface_errors/codes.json"))
    pot = project / "locales" / "messages.pot"
    made = codes.read_bytes(), pot.read_bytes()
    codes.write_bytes(made[0][:-1] + b" \n")
    pot.write_bytes(made[1] + b"\n")
    calls = emits(monkeypatch)
    edit_translation(project / "locales" / "de" / "LC_MESSAGES" / "messages.po")
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    assert "json" in calls and "template" in calls and "python" not in calls
    assert (codes.read_bytes(), pot.read_bytes()) == made


def test_a_changed_registry_renders_the_package_again(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("generate", "--force", cwd=project)
    calls = emits(monkeypatch)
    registry = project / "codes.yaml"
    old, new = "The action {action} was not allowed.", "The action {action} was refused."
    registry.write_text(registry.read_text("utf-8").replace(old, new), "utf-8")
    assert run("generate", cwd=project).code == 0
    assert {"python", "json", "template"} <= set(calls)
    assert outputs_with(project, True) == outputs_with(project, False)


def test_files_the_stamp_shows_unchanged_are_not_read_again_to_be_compared(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a translator's edit, only what changed is read: a PO file touched since the
    last run (new mtime) is read by the worker that merges it, and the writer and the stamp
    take it by the identity that read saw, without reading it again."""
    run("generate", "--force", cwd=project)
    run("generate", "--force", cwd=project)  # the stamp now trusts every file's stat
    settle(*project.rglob("*.po"), *project.rglob("*.mo"))
    assert run("generate", "--force", cwd=project).code == 0  # a stamp with settled stats
    read: list[str] = []
    merged: list[str] = []
    current = output._current
    read_seen = inputs.read_seen

    def reading(root: Path, name: str, limit: int | None = None) -> bytes | None:
        read.append(name)
        return current(root, name, limit)

    def merging(path: Path, **kwargs: Any) -> tuple[bytes | None, inputs.Seen | None]:
        merged.append(path.relative_to(project).as_posix())
        return read_seen(path, **kwargs)

    monkeypatch.setattr(output, "_current", reading)
    monkeypatch.setattr(inputs, "read_seen", merging)
    edited = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    edit_translation(edited)
    touched = project / "locales" / "ja" / "LC_MESSAGES" / "docs.po"
    os.utime(touched)  # same bytes, a new mtime: not trusted, so read again
    result = run("generate", cwd=project)
    assert result.code == 0, result.err
    # (The site needs every catalog merged, so here every PO file is read by its worker.)
    assert {"locales/de/LC_MESSAGES/messages.po", "locales/ja/LC_MESSAGES/docs.po"} <= set(merged)
    po_read = {name for name in read if name.endswith((".po", ".mo"))}
    assert not {name for name in po_read if name.endswith(".po")}  # as the workers saw them
    assert "surface_errors/locales/pl/LC_MESSAGES/messages.mo" not in po_read
    monkeypatch.setattr(output, "_current", current)
    monkeypatch.setattr(inputs, "read_seen", read_seen)
    assert run("check", cwd=project).code == 0
    assert run("generate", cwd=project).out == NO_OP


def test_a_library_that_changed_since_the_stamp_costs_a_full_run(run: Run, project: Path) -> None:
    """After an upgrade of Babel (here: the stamp says another Babel made it), a run with
    no input changed is not a no-op: Babel writes the catalogs, and `check` would find them
    stale (bug: generate answered "nothing to do")."""
    run("generate", cwd=project)
    assert probe(project, "generate")[1].startswith(NO_OP)
    path = cache_of(project) / stamp.STAMP
    recorded = json.loads(path.read_bytes())
    for key in ("runtime", "libraries"):
        if isinstance(recorded.get(key, {}).get("babel"), list):
            recorded[key]["babel"][2] += 1  # where the file it starts from was installed
        elif key in recorded:
            recorded[key]["babel"] = "0.1"
    path.write_bytes(json.dumps(recorded).encode("utf-8"))
    code, out = probe(project, "generate")
    assert code == 0, out
    assert NO_OP not in out
    assert probe(project, "generate")[1].startswith(NO_OP)  # the new stamp knows this Babel


def test_a_template_in_a_linked_folder_is_an_input(run: Run, tmp_path: Path) -> None:
    """A project's templates folder may link to a folder kept elsewhere, and Jinja reads
    through the link. The stamp walked the folder without following it, so a change to
    such a template was no change: generate answered that nothing changed, and check that
    every output was up to date."""
    root = make_project(tmp_path / "p")
    (root / "pyproject.toml").write_text(PYPROJECT + "templates = 'tpl'\n", "utf-8")
    shared = tmp_path / "shared" / "python"
    shared.mkdir(parents=True)
    template = shared / "codes.py.j2"
    shutil.copy(SHIPPED_TEMPLATES / "python" / "codes.py.j2", template)
    (root / "tpl").mkdir()
    (root / "tpl" / "python").symlink_to(shared, target_is_directory=True)
    (root / "tpl" / "loop").symlink_to(root / "tpl", target_is_directory=True)  # a cycle
    assert run("generate", cwd=root).code == 0
    assert run("generate", "--force", cwd=root).code == 0  # records what check reports
    assert probe(root, "generate")[1].startswith(NO_OP)
    assert run("check", cwd=root).code == 0
    template.write_text("# ours\n" + template.read_text("utf-8"), "utf-8")
    checked = run("check", cwd=root)
    assert checked.code == 1, checked.out
    code, out = probe(root, "generate")
    assert code == 0 and NO_OP not in out
    assert "codes.py" in out
    assert probe(root, "generate")[1].startswith(NO_OP)


def test_a_link_to_a_huge_tree_ends_the_walk_and_the_shortcut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit can put a link to / in the templates folder: followed to the end, it made
    every run list the whole file system. Past TREE_LIMIT the walk stops, and the folder
    stands for its files with an entry that is never valid: no run is then a no-op."""
    shared = tmp_path / "shared"
    shared.mkdir()
    for number in range(10):
        (shared / f"t{number}.j2").write_text("x", "utf-8")
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "big").symlink_to(shared, target_is_directory=True)
    assert len(stamp._files("tree", str(templates))) == 10
    monkeypatch.setattr(stamp, "TREE_LIMIT", 5)
    assert stamp._files("tree", str(templates)) == [str(templates)]
    assert stamp._entry(str(templates), None) is None


@pytest.mark.parametrize("edited", ["po", "mo", "page"])
def test_an_edit_that_keeps_size_and_mtime_is_not_missed(
    run: Run, translated: Path, edited: str
) -> None:
    """Issue 49: a file edited without changing its size and given its mtime back (``cp
    -p``, ``rsync -t``, ``touch -r``) was missed by generate ("no input changed") while
    check called the MO file stale and sent the user back to generate: a loop. Such an
    edit still changes the file's ctime, which the stamp records too."""
    (translated / "pyproject.toml").write_text(PYPROJECT + "site = 'site'\n", "utf-8")
    (translated / "site").mkdir()
    assert run("generate", cwd=translated).code == 0
    settle(*[p for p in translated.rglob("*") if p.is_file()])
    assert run("generate", cwd=translated).out == NO_OP  # the stamp trusts every stat now
    target = {
        "po": po(translated, "de"),
        "mo": translated / "demo_errors/locales/de/LC_MESSAGES/messages.mo",
        "page": translated / "site/docs/en/codes/door_closed.md",
    }[edited]
    info = target.stat()
    data = target.read_bytes()
    if edited == "po":
        data = data.replace("Die Tür ist zu.".encode(), "Die Tür ist ab.".encode())
    else:
        data = data[:-1] + (b"x" if data[-1:] != b"x" else b"y")
    target.write_bytes(data)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert target.stat().st_size == info.st_size
    generated = run("generate", cwd=translated)
    assert generated.code == 0 and generated.out != NO_OP, generated.out
    checked = run("check", cwd=translated)
    assert checked.code == 0, checked.out + checked.err
