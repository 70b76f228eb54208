"""The translator's workflow across generate runs (issue 19): rewordings that come and go,
what stats counts, and where generate's warnings point."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import Run, po


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
    for cache in (translated / ".errorbook-cache").iterdir():
        cache.unlink()
    assert where in run("generate", cwd=translated).err
