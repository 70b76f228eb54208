"""The translator's workflow across generate runs (issue 19): rewordings that come and go,
what stats counts, and where generate's warnings point."""

from __future__ import annotations

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
