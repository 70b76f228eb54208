"""Round trips through translators' tools (issue 19): a PO file saved by GNU msgmerge
(wrapped or not), by polib, or by translate-toolkit's PO writer (what Weblate saves with) is
read without loss; the next generate changes only what it must, and the one after nothing.

Each tool wraps at a narrow width here, so that the short messages of the test registry are
wrapped the way long ones are in a real catalog."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import write_po
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.catalogs import pofile
from generator.catalogs.catalog import StableCatalog, entry_key
from generator.catalogs.catalog import messages as catalog_messages

from ..conftest import MSGFMT, Run, cache_of, po

MSGMERGE = shutil.which("msgmerge")
polib = pytest.importorskip("polib", reason="polib is not installed (the dev extra has it)")
ttk_po = pytest.importorskip(
    "translate.storage.po", reason="translate-toolkit is not installed (the dev extra has it)"
)

Tool = Callable[[Path, Path], None]


def _msgmerge(*flags: str) -> Tool:
    def save(path: Path, pot: Path) -> None:
        if MSGMERGE is None:
            pytest.skip("GNU gettext's msgmerge is not installed")
        command = [MSGMERGE, "--quiet", "--previous", *flags, "-o", str(path), str(path), str(pot)]
        subprocess.run(command, check=True)

    return save


def _polib(path: Path, pot: Path) -> None:
    catalog = polib.pofile(str(path), wrapwidth=30)
    catalog.save(str(path))


def _translate_toolkit(path: Path, pot: Path) -> None:
    """As Weblate saves a file after a translator's edit: the edited unit rewritten (and
    wrapped), the header fields Weblate owns updated, every other unit as it was."""
    store = ttk_po.pofile.parsefile(str(path))
    for unit in store.units:
        if unit.getcontext() == "ITEMS_REFUSED" and "de" in str(path):
            unit.target = [
                "{count} Artikel wurde von {who} abgelehnt, und das ist eine lange Zeile.",
                "{count} Artikel wurden von {who} abgelehnt, und das ist eine lange Zeile.",
            ]
    store.updateheader(
        add=True,
        last_translator="Anna <anna@example.org>",
        po_revision_date="2026-12-02 10:20+0100",
        x_generator="Weblate 5.8",
    )
    path.write_bytes(bytes(store))


TOOLS = {
    "msgmerge": _msgmerge("--width=30"),
    "msgmerge --no-wrap": _msgmerge("--no-wrap"),
    "polib": _polib,
    "translate-toolkit": _translate_toolkit,
}


def _entries(text: str) -> dict[str, str]:
    """Each entry's text by its msgctxt (the header under ''; obsolete ones under '#~ ...')."""
    found: dict[str, str] = {}
    for block in text.rstrip("\n").split("\n\n"):
        context = re.search(r'^(#~ )?msgctxt "(.*)"$', block, re.M)
        name = "" if context is None else (context.group(1) or "") + context.group(2)
        found[name] = block
    return found


def _save_with(tool: Tool, root: Path) -> dict[Path, str]:
    saved = {}
    for locale in ("de", "pl"):
        for domain in ("messages", "docs"):
            path = po(root, locale, domain)
            tool(path, root / "locales" / f"{domain}.pot")
            saved[path] = path.read_text("utf-8")
    return saved


@pytest.mark.parametrize("name", TOOLS)
def test_a_tools_file_converges(run: Run, translated: Path, name: str) -> None:
    saved = _save_with(TOOLS[name], translated)
    assert run("generate", cwd=translated).code == 0
    for path, text in saved.items():  # read without loss, nothing to change
        assert path.read_text("utf-8") == text, path
    assert run("check", cwd=translated).code == 0
    # A rewording changes that entry and nothing else: no header field moves, no other entry
    # is rewrapped.
    registry = translated / "codes.yaml"
    registry.write_text(
        registry.read_text("utf-8").replace("The door is closed.", "The door is shut."), "utf-8"
    )
    assert run("generate", cwd=translated).code == 0
    for path, text in saved.items():
        before, after = _entries(text), _entries(path.read_text("utf-8"))
        assert list(after) == list(before), path
        changed = {k for k in before if before[k] != after[k]}
        if path.name == "messages.po":
            assert changed == {"DOOR_CLOSED"}, (path, changed)
            assert '#| msgid "The door is closed."' in after["DOOR_CLOSED"]
        else:
            assert changed == set(), (path, changed)
    once = {path: path.read_bytes() for path in saved}
    shutil.rmtree(cache_of(translated))  # the next run reads and merges every file
    result = run("generate", cwd=translated)
    assert result.code == 0 and result.out.startswith("0 files changed"), result.out
    assert {path: path.read_bytes() for path in saved} == once


def test_weblates_header_fields_and_order_are_kept(run: Run, translated: Path) -> None:
    saved = _save_with(_translate_toolkit, translated)
    text = saved[po(translated, "de")]
    assert '"Last-Translator: Anna <anna@example.org>\\n"' in text
    assert '"X-Generator: Weblate 5.8\\n"' in text
    assert run("generate", cwd=translated).code == 0
    assert po(translated, "de").read_text("utf-8") == text


@pytest.mark.skipif(MSGFMT is None, reason="GNU gettext's msgfmt is not installed")
def test_msgfmt_check_has_no_warning_for_a_file_errorbook_starts(
    run: Run, translated: Path
) -> None:
    assert run("init-locale", "fr", cwd=translated).code == 0
    registry = translated / "codes.yaml"
    registry.write_text(
        registry.read_text("utf-8").replace("locales: [de, pl]", "locales: [de, pl, ja]"), "utf-8"
    )
    assert run("generate", cwd=translated).code == 0
    for locale in ("fr", "ja"):
        for domain in ("messages", "docs"):
            path = po(translated, locale, domain)
            text = path.read_text("utf-8")
            assert '"PO-Revision-Date: 1970-01-01 00:00+0000\\n"' in text
            assert '"Last-Translator: none yet\\n"' in text
            checked = subprocess.run(
                [str(MSGFMT), "--check", "--check-format", "-o", "/dev/null", str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert (checked.returncode, checked.stderr) == (0, ""), checked.stderr


def test_babels_placeholders_in_a_header_are_replaced(run: Run, translated: Path) -> None:
    path = po(translated, "pl")
    text = path.read_text("utf-8")
    old = re.search(r'"PO-Revision-Date: .*\\n"\n"Last-Translator: .*\\n"', text)
    assert old is not None
    path.write_text(
        text.replace(
            old.group(0),
            '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"\n'
            '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"',
        ),
        "utf-8",
    )
    assert run("generate", cwd=translated).code == 0
    assert path.read_text("utf-8") == text


def test_an_obsolete_fuzzy_entry_as_msgmerge_writes_it_is_read(run: Run, translated: Path) -> None:
    """msgmerge writes the previous msgid of an obsolete fuzzy entry as '#~| msgid'."""
    path = po(translated, "de")
    text = path.read_text("utf-8").rstrip("\n") + (
        '\n\n#, fuzzy\n#~| msgid "Gone before."\n#~ msgctxt "GONE"\n'
        '#~ msgid "Gone now."\n#~ msgstr "Weg."\n'
    )
    path.write_text(text, "utf-8")
    if MSGFMT is not None:
        subprocess.run([MSGFMT, "--check", "-o", "/dev/null", str(path)], check=True)
    assert run("generate", cwd=translated).code == 0
    assert path.read_text("utf-8") == text


def _repository_po_files() -> list[Path]:
    root = Path(__file__).resolve().parents[2]
    patterns = ("locales/*/LC_MESSAGES/*.po", "examples/*/locales/*/LC_MESSAGES/*.po")
    found = sorted(path for pattern in patterns for path in root.glob(pattern))
    return found + sorted(root.glob("templates/site/i18n/*.po"))


def _babels(catalog: StableCatalog) -> bytes:
    """What Babel's own writer writes of ``catalog`` under errorbook's policy."""
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=pofile.NO_WRAP,
        no_location=True,
        include_previous=True,
        include_lineno=False,
    )
    return buffer.getvalue().rstrip(b"\n") + b"\n"


def _as_babel_writes_it(catalog: StableCatalog) -> None:
    """``catalog`` with nothing errorbook writes otherwise than Babel: no entry or header
    to copy as read, comments that are no whole lines, no obsolete entry's flags."""
    catalog.origin, catalog.foreign, catalog.trailing = None, {}, []
    for message in [*catalog_messages(catalog), *catalog.obsolete.values()]:
        message.user_comments = [line.lstrip("#").strip() for line in message.user_comments]
    for message in catalog.obsolete.values():
        message.flags, message.previous_id = set(), []


@pytest.mark.parametrize(
    "path", _repository_po_files(), ids=lambda p: "/".join(p.parts[-4:])
)  # fmt: skip
def test_a_catalog_is_written_as_read_or_as_babel_writes_it(path: Path) -> None:
    """A catalog a merge left as it was read is written back byte for byte; an entry that
    changed is written the way Babel's writer writes it, and so is a whole catalog with
    nothing to keep as read."""
    data = path.read_bytes()
    locale = path.stem if path.parent.name == "i18n" else path.parts[-3]
    catalog, _, problems = pofile.read(data, str(path), locale, remember=False)
    assert not problems.has_errors
    catalog.origin = pofile.read(data, str(path), locale, remember=False)[0]  # as a merge
    joined = pofile.write(catalog)  # that changed nothing leaves it
    if path.name == "messages.po":  # every entry reads back whole: byte for byte
        assert joined == data
    first = next(message for message in catalog if message.id and not message.pluralizable)
    first.string = "changed"
    changed = pofile.write(catalog)
    assert changed != joined
    assert changed.replace(b'"changed"', b"").count(b"\n") <= joined.count(b"\n") + 1
    _as_babel_writes_it(catalog)
    assert pofile.write(catalog) == _babels(catalog)


@pytest.mark.parametrize("gap", [b"\n\n\n", b"\n  \n", b"\n\t\n\n"])
def test_entries_read_further_apart_are_written_one_blank_line_apart(gap: bytes) -> None:
    """A file whose entries are written as read, but with more than one blank line (or a
    line of spaces) between two of them, comes back as Babel's writer would write it: one
    empty line apart, joined from each entry's own lines."""
    path = Path(__file__).resolve().parents[2] / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    data = path.read_bytes()
    second = data.index(b"\n\n#.", data.index(b"\n\n#.") + 1)
    spaced = data[:second] + gap + data[second + 2 :]
    catalog = pofile.read(spaced, "x.po", "de", remember=False)[0]
    catalog.origin = pofile.read(spaced, "x.po", "de", remember=False)[0]
    assert pofile.write(catalog) == data


_TEXT = st.lists(
    st.sampled_from([*'ab -\t\n\r"\\\x0b\u00a0é{}', "word", "long-word", "%s"]), max_size=12
).map("".join)


@given(
    entries=st.lists(
        st.tuples(
            st.one_of(_TEXT.filter(bool), st.tuples(_TEXT.filter(bool), _TEXT)),
            st.one_of(_TEXT, st.tuples(_TEXT, _TEXT)),
            st.sets(st.sampled_from(["fuzzy", "python-brace-format", "c-format"])),
            st.lists(_TEXT, max_size=2),
            st.lists(_TEXT.filter(bool), max_size=2),
            st.one_of(st.none(), _TEXT),
            st.booleans(),
        ),
        max_size=5,
    ),
    comment=st.sampled_from(["# A header.", "# A header.\n#", "#"]),
    fuzzy=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_errorbooks_writer_writes_what_babels_writes(
    entries: list[tuple[Any, ...]], comment: str, fuzzy: bool
) -> None:
    """Every entry errorbook writes itself (not as read) is what Babel's writer writes of
    it under errorbook's policy: comments, flags, previous msgids, contexts, plural forms,
    obsolete entries, every escape."""
    made = StableCatalog(locale="de", fuzzy=fuzzy, header_comment=comment)
    for msgid, string, flags, extracted, previous, context, obsolete in entries:
        if isinstance(msgid, tuple) != isinstance(string, tuple):
            string = (string, string) if isinstance(msgid, tuple) else string[0]
        message = Message(msgid, string, flags=flags, auto_comments=extracted, context=context)
        message.flags = set(flags)
        message.previous_id = list(previous)
        if obsolete:
            made.obsolete[entry_key(message.id, context)] = message
        else:
            made[message.id] = message
    _as_babel_writes_it(made)
    assert pofile.write(made) == _babels(made)
