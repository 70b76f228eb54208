"""The translator's workflow across generate runs (issue 19): rewordings that come and go,
what stats counts, and where generate's warnings point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from ..conftest import Run, cache_of, make_project, po, translate


def _entry(text: str, context: str) -> str:
    """The lines of the active entry whose msgctxt is ``context``, its comments included."""
    start = text.index(f'msgctxt "{context}"\n')
    start = text.rfind("\n\n", 0, start) + 2
    end = text.find("\n\n", start)
    return text[start : end if end >= 0 else len(text)]


def test_the_previous_msgid_stays_the_text_the_translation_was_made_for(
    run: Run, translated: Path
) -> None:
    registry = translated / "codes.yaml"
    original = registry.read_text("utf-8")
    before = _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED")
    assert "fuzzy" not in before
    for wording in ("The door is shut.", "The door is locked.", "The gate is locked."):
        registry.write_text(original.replace("The door is closed.", wording), "utf-8")
        assert run("generate", cwd=translated).code == 0
        entry = _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED")
        assert entry.startswith("#. ")
        assert '#, fuzzy\n#| msgid "The door is closed."\n' in entry, entry
        assert f'msgid "{wording}"\nmsgstr "Die Tür ist zu."' in entry
    registry.write_text(original, "utf-8")
    assert run("generate", cwd=translated).code == 0
    assert _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED") == before


def test_a_plural_entry_returning_to_its_text_is_translated_again(
    run: Run, translated: Path
) -> None:
    registry = translated / "codes.yaml"
    original = registry.read_text("utf-8")
    before = _entry(po(translated, "pl").read_text("utf-8"), "ITEMS_REFUSED")
    registry.write_text(original.replace("items were refused", "items were declined"), "utf-8")
    assert run("generate", cwd=translated).code == 0
    fuzzy = _entry(po(translated, "pl").read_text("utf-8"), "ITEMS_REFUSED")
    assert '#| msgid "{count} item was refused by {who}."\n' in fuzzy
    assert '#| msgid_plural "{count} items were refused by {who}."\n' in fuzzy
    registry.write_text(original.replace("items were refused", "items got declined"), "utf-8")
    assert run("generate", cwd=translated).code == 0
    again = _entry(po(translated, "pl").read_text("utf-8"), "ITEMS_REFUSED")
    assert '#| msgid_plural "{count} items were refused by {who}."\n' in again
    registry.write_text(original, "utf-8")
    assert run("generate", cwd=translated).code == 0
    assert _entry(po(translated, "pl").read_text("utf-8"), "ITEMS_REFUSED") == before


def _refuse_a_german_plural(translated: Path) -> None:
    """Misspell a placeholder in the German ITEMS_REFUSED: a translation check refuses."""
    path = po(translated, "de")
    text = path.read_text("utf-8")
    good = "{count} Artikel wurden von {who} abgelehnt."
    assert good in text
    path.write_text(text.replace(good, "{count} Artikel wurden von {wer} abgelehnt."), "utf-8")


def test_stats_counts_a_refused_translation_as_rejected_not_translated(
    run: Run, translated: Path
) -> None:
    _refuse_a_german_plural(translated)
    assert run("check", cwd=translated).code == 1
    rows = json.loads(run("stats", "--format", "json", cwd=translated).out)
    de = next(r for r in rows if r["locale"] == "de" and r["domain"] == "messages")
    assert (de["translated"], de["rejected"], de["fuzzy"], de["untranslated"]) == (1, 1, 0, 0)
    assert (de["total"], de["percent"]) == (2, 50)
    table = run("stats", cwd=translated).out.splitlines()
    assert table[0].split() == [
        "locale",
        "domain",
        "translated",
        "rejected",
        "fuzzy",
        "untranslated",
        "done",
    ]
    assert table[1].split() == ["de", "messages", "1", "1", "0", "0", "50%"]
    # The site's progress page counts it as untranslated: readers get the source text.
    pyproject = translated / "pyproject.toml"
    pyproject.write_text(pyproject.read_text("utf-8") + "site = 'site'\n", "utf-8")
    assert run("generate", cwd=translated).code == 0
    page = (translated / "site" / "docs" / "en" / "progress.md").read_text("utf-8")
    assert "| Deutsch (`de`) | `messages` | 1 | 0 | 1 | 50% |" in page


def test_stats_names_what_keeps_a_catalog_from_being_counted(run: Run, translated: Path) -> None:
    """A catalog errorbook refuses (here its header) is counted as untranslated: stats says
    where and why, as check does, not that it "cannot be read"."""
    path = po(translated, "de")
    text = path.read_text("utf-8")
    path.write_text(text.replace("charset=utf-8", "charset=ISO-8859-1"), "utf-8")
    found = run("stats", cwd=translated)
    assert found.code == 0
    line = next(n for n, row in enumerate(text.split("\n"), 1) if "charset=" in row)
    relative = path.relative_to(translated).as_posix()
    assert f"{relative}:{line}:1: " in found.err, found.err
    assert "charset=ISO-8859-1" in found.err
    assert "counted as untranslated" in found.err
    assert "cannot be read" not in found.err


def test_generate_and_check_name_the_line_of_the_file_as_written(
    run: Run, translated: Path
) -> None:
    _refuse_a_german_plural(translated)
    registry = translated / "codes.yaml"
    # Rewording the entry above makes generate add '#, fuzzy' and '#| msgid' lines to it,
    # which moves every entry below.
    registry.write_text(
        registry.read_text("utf-8").replace("The door is closed.", "The door is shut."), "utf-8"
    )
    warned = run("generate", cwd=translated)
    assert warned.code == 0
    text = po(translated, "de").read_text("utf-8")
    line = text[: text.index("{wer}")].count("\n") + 1
    column = len(text[: text.index("{wer}")].rsplit("\n", 1)[-1]) + 1
    where = f"locales/de/LC_MESSAGES/messages.po:{line}:{column}: "
    assert where in warned.err, warned.err
    checked = run("check", cwd=translated)
    assert where in checked.err, checked.err
    # A run that keeps the file as it is (its cache gone) points at the same place.
    shutil.rmtree(cache_of(translated))
    assert where in run("generate", cwd=translated).err


def _obsolete(text: str, context: str) -> bool:
    return f'#~ msgctxt "{context}"\n' in text


def _translate_docs(translated: Path) -> None:
    translate(
        po(translated, "de", "docs"),
        {"DOOR_CLOSED.meaning": "Niemand wird eingelassen.", "DOOR_CLOSED.recovery.1": "Klopfen."},
    )


def test_a_renamed_code_takes_its_translations_in_every_catalog(run: Run, translated: Path) -> None:
    _translate_docs(translated)
    assert run("generate", cwd=translated).code == 0
    registry = translated / "codes.yaml"
    (translated / "before.yaml").write_text(registry.read_text("utf-8"), "utf-8")
    registry.write_text(
        registry.read_text("utf-8")
        .replace("related: [DOOR_CLOSED]", "related: [DOOR_SHUT]")
        .replace("  DOOR_CLOSED:\n", "  DOOR_SHUT:\n    renamed_from: DOOR_CLOSED\n")
        .replace("The door is closed.", "The door is shut."),
        "utf-8",
    )
    assert run("generate", cwd=translated).code == 0
    messages = po(translated, "de").read_text("utf-8")
    entry = _entry(messages, "DOOR_SHUT")
    assert '#, fuzzy\n#| msgid "The door is closed."\n' in entry, entry
    assert entry.endswith('msgid "The door is shut."\nmsgstr "Die Tür ist zu."')
    assert _obsolete(messages, "DOOR_CLOSED")  # the old entry stays in the file's history
    assert '#| msgid "The door is closed."' in _entry(
        po(translated, "pl").read_text("utf-8"), "DOOR_SHUT"
    )
    docs = po(translated, "de", "docs").read_text("utf-8")
    # The prose did not change: the same code's translations stay translated.
    assert _entry(docs, "DOOR_SHUT.meaning").endswith(
        'msgid "Nobody is let in."\nmsgstr "Niemand wird eingelassen."'
    )
    assert "fuzzy" not in _entry(docs, "DOOR_SHUT.meaning")
    assert _entry(docs, "DOOR_SHUT.recovery.1").endswith('msgstr "Klopfen."')
    rows = json.loads(run("stats", "--format", "json", cwd=translated).out)
    de = next(r for r in rows if r["locale"] == "de" and r["domain"] == "messages")
    assert (de["translated"], de["fuzzy"], de["untranslated"]) == (1, 1, 0)
    diff = run("diff", "before.yaml", "codes.yaml", cwd=translated)
    assert "renamed    code DOOR_CLOSED name: DOOR_CLOSED -> DOOR_SHUT" in diff.out, diff.out
    assert "its translations move to DOOR_SHUT" in diff.out
    assert "the new name of DOOR_CLOSED" in diff.out


def test_a_replacement_is_offered_the_deprecated_codes_translations(
    run: Run, translated: Path
) -> None:
    _translate_docs(translated)
    registry = translated / "codes.yaml"
    text = registry.read_text("utf-8")
    new_code = text[text.index("  DOOR_CLOSED:\n") : text.index("  ITEMS_REFUSED:\n")]
    new_code = (
        new_code.replace("DOOR_CLOSED", "DOOR_LOCKED")
        .replace("The door is closed.", "The door is locked.")
        .replace("jsonrpc: -32050", "jsonrpc: -32051")
    )
    text = text.replace(
        "    since: 1.0.0\n  ITEMS_REFUSED:",
        "    since: 1.0.0\n"
        "    deprecated: {since: 1.2.0, replaced_by: DOOR_LOCKED}\n"
        + new_code.replace("since: 1.0.0", "since: 1.2.0")
        + "  ITEMS_REFUSED:",
    )
    registry.write_text(text, "utf-8")
    assert run("generate", cwd=translated).code == 0, run("validate", cwd=translated).err
    messages = po(translated, "de").read_text("utf-8")
    assert "fuzzy" not in _entry(messages, "DOOR_CLOSED")  # still emitted, still translated
    entry = _entry(messages, "DOOR_LOCKED")
    assert '#, fuzzy\n#| msgid "The door is closed."\n' in entry, entry
    assert entry.endswith('msgid "The door is locked."\nmsgstr "Die Tür ist zu."')
    docs = po(translated, "de", "docs").read_text("utf-8")
    # Another code: its words are a suggestion even where the English is the same.
    meaning = _entry(docs, "DOOR_LOCKED.meaning")
    assert '#, fuzzy\n#| msgid "Nobody is let in."\n' in meaning, meaning
    assert meaning.endswith('msgstr "Niemand wird eingelassen."')


def test_a_fuzzy_entry_stays_fuzzy_through_removal_and_return(run: Run, translated: Path) -> None:
    registry = translated / "codes.yaml"
    original = registry.read_text("utf-8")
    registry.write_text(original.replace("The door is closed.", "The door is shut."), "utf-8")
    assert run("generate", cwd=translated).code == 0
    fuzzy = _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED")
    start = original.index("  DOOR_CLOSED:")
    end = original.index("  ITEMS_REFUSED:")
    removed = original[:start] + original[end:].replace("    related: [DOOR_CLOSED]\n", "")
    registry.write_text(removed, "utf-8")
    assert run("generate", cwd=translated).code == 0
    gone = po(translated, "de").read_text("utf-8")
    assert (
        '#, fuzzy\n#~| msgid "The door is closed."\n#~ msgctxt "DOOR_CLOSED"\n'
        '#~ msgid "The door is shut."\n#~ msgstr "Die Tür ist zu."'
    ) in gone
    assert run("check", cwd=translated).code == 0
    registry.write_text(original.replace("The door is closed.", "The door is shut."), "utf-8")
    assert run("generate", cwd=translated).code == 0
    assert _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED") == fuzzy
    registry.write_text(original, "utf-8")
    assert run("generate", cwd=translated).code == 0
    assert "fuzzy" not in _entry(po(translated, "de").read_text("utf-8"), "DOOR_CLOSED")


def _lower_case(root: Path, old: str, new: str, renamed: bool = False) -> None:
    """Name the code ``old`` ``new`` under a naming rule that allows lower case."""
    registry = root / "codes.yaml"
    text = registry.read_text("utf-8")
    if "naming:" not in text:
        rule = "  naming: {pattern: '[A-Za-z_][A-Za-z0-9_]*'}\n"
        text = text.replace("registry:\n", "registry:\n" + rule, 1)
    text = text.replace(f"related: [{old}]", f"related: [{new}]")
    since = f"    renamed_from: {old}\n" if renamed else ""
    registry.write_text(text.replace(f"  {old}:\n", f"  {new}:\n{since}"), "utf-8")


def _german(root: Path, code: str) -> str:
    """The German message of ``code`` from the package generate wrote, in a fresh process."""
    script = f"import demo_errors as m; print(m.message({code!r}, 'de'))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_a_lower_case_code_name_keeps_its_translations(run: Run, tmp_path: Path) -> None:
    """A registry whose naming rule allows lower case: its codes' entries are errorbook's,
    so their translations are counted, compiled, and carried through a rename; another
    tool's lower-case entry in the same file is still left as it is."""
    root = make_project(tmp_path / "p")
    _lower_case(root, "DOOR_CLOSED", "doorClosed")
    assert run("generate", cwd=root).code == 0
    translate(po(root, "de"), {"doorClosed": "Die Tür ist zu."})
    with po(root, "de").open("a", encoding="utf-8") as stream:
        stream.write('\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "Öffnen"\n')
    assert run("generate", cwd=root).code == 0
    assert run("check", cwd=root).code == 0
    rows = json.loads(run("stats", "--format", "json", cwd=root).out)
    de = next(r for r in rows if r["locale"] == "de" and r["domain"] == "messages")
    assert (de["translated"], de["untranslated"]) == (1, 1), de
    assert _german(root, "doorClosed") == "Die Tür ist zu."
    messages = po(root, "de").read_text("utf-8")
    assert messages.endswith('msgctxt "menu"\nmsgid "Open"\nmsgstr "Öffnen"\n')
    _lower_case(root, "doorClosed", "doorShut", renamed=True)
    assert run("generate", cwd=root).code == 0
    entry = _entry(po(root, "de").read_text("utf-8"), "doorShut")
    assert entry.endswith('msgid "The door is closed."\nmsgstr "Die Tür ist zu."'), entry
    assert "fuzzy" not in entry  # the same text under its new name
    assert _german(root, "doorShut") == "Die Tür ist zu."
