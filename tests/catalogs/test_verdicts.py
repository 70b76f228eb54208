"""Check verdicts kept between runs: an edited PO file is checked where it changed.

A record of the translations an earlier run found nothing wrong with may only ever spare
work: every input of a check is in its key, a translation with a problem is checked again
on every run, and a record that is damaged, or was made for another file, locale or
errorbook, is no record.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message

from generator.catalogs import catalog, checks, pofile
from generator.catalogs.entries import message_contexts
from generator.pipeline import cache
from generator.registry.validate import load_registry_text

from ..conftest import GERMAN, REGISTRY, Run, cache_of, make_project, po, translate

Checked = list[str]


def spy(monkeypatch: pytest.MonkeyPatch) -> Checked:
    """The msgctxt of every translation a run checks (in this process)."""
    checked: Checked = []
    findings = checks._findings

    def recording(message: Message, *args: Any) -> Any:
        checked.append(message.context or "")
        return findings(message, *args)

    monkeypatch.setattr(checks, "_findings", recording)
    monkeypatch.setenv("ERRORBOOK_JOBS", "1")
    return checked


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def records(root: Path) -> list[Path]:
    return sorted((cache_of(root) / cache.VERDICTS).iterdir())


def test_an_edited_po_file_checks_only_the_translation_that_changed(
    run: Run, translated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = spy(monkeypatch)
    replace(po(translated, "de"), "Die Tür ist zu.", "Die Tür ist geschlossen.")
    result = run("generate", cwd=translated)
    assert result.code == 0, result.err
    assert checked == ["DOOR_CLOSED"]
    assert run("check", cwd=translated).code == 0


def test_a_translation_with_a_problem_is_checked_and_reported_on_every_run(
    run: Run, translated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = spy(monkeypatch)
    replace(po(translated, "de"), "{count} Artikel wurden", "{anzahl} Artikel wurden")
    first = run("generate", cwd=translated)
    assert "E-TRANSLATION-UNKNOWN-PLACEHOLDER" in first.err
    checked.clear()
    replace(po(translated, "de"), "Die Tür ist zu.", "Die Tür ist geschlossen.")
    again = run("generate", cwd=translated)
    assert sorted(checked) == ["DOOR_CLOSED", "ITEMS_REFUSED"]
    assert again.err == first.err
    assert "{anzahl}" in run("check", cwd=translated).err


#: ITEMS_REFUSED with a second integer placeholder, which the registry may make its count.
TRIES = REGISTRY.replace(
    '      one: "{count} item was refused by {who}."\n'
    '      other: "{count} items were refused by {who}."\n',
    '      one: "{count} item was refused by {who} after {tries} tries."\n'
    '      other: "{count} items were refused by {who} after {tries} tries."\n',
).replace(
    "      who: {description: Who refused., example: the page}\n",
    "      who: {description: Who refused., example: the page}\n"
    "      tries: {description: Attempts., example: 3, type: integer}\n",
)


def test_a_changed_count_placeholder_checks_the_translation_again(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form for one may leave out the count: once the template counts another
    placeholder, the translation that left out {count} is wrong, though not a byte of the
    PO file changed."""
    assert TRIES != REGISTRY
    root = make_project(tmp_path / "p", TRIES)
    assert run("generate", cwd=root).code == 0
    one = "Ein Artikel wurde von {who} nach {tries} Versuchen abgelehnt."
    other = "{count} Artikel wurden von {who} nach {tries} Versuchen abgelehnt."
    translate(po(root, "de"), {**GERMAN, "ITEMS_REFUSED": [one, other]})
    assert run("generate", cwd=root).code == 0
    assert run("check", cwd=root).code == 0
    checked = spy(monkeypatch)
    replace(root / "codes.yaml", "count: count", "count: tries")
    result = run("generate", cwd=root)
    assert "ITEMS_REFUSED" in checked
    assert "E-TRANSLATION-MISSING-PLACEHOLDER" in result.err
    assert "leaves out '{count}'" in run("check", cwd=root).err


def damaged(record: bytes, other: bytes) -> bytes:
    """One byte of the record's seals changed."""
    return record[:-1] + bytes([record[-1] ^ 1])


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda record, other: b"", id="empty"),
        pytest.param(lambda record, other: record[:-7], id="truncated"),
        pytest.param(damaged, id="a changed byte"),
        pytest.param(lambda record, other: b"{}\n" + record, id="not a record"),
        pytest.param(lambda record, other: other, id="another file's record"),
    ],
)
def test_a_damaged_or_foreign_record_is_no_record(
    run: Run,
    translated: Path,
    monkeypatch: pytest.MonkeyPatch,
    damage: Callable[[bytes, bytes], bytes],
) -> None:
    folder = cache_of(translated)
    de = folder / cache.verdicts_path(str(po(translated, "de").relative_to(translated)))
    pl = folder / cache.verdicts_path(str(po(translated, "pl").relative_to(translated)))
    assert de.is_file() and pl.is_file()
    de.write_bytes(damage(de.read_bytes(), pl.read_bytes()))
    checked = spy(monkeypatch)
    replace(po(translated, "de"), "Die Tür ist zu.", "Die Tür ist geschlossen.")
    assert run("generate", cwd=translated).code == 0
    assert sorted(checked) == ["DOOR_CLOSED", "ITEMS_REFUSED"]
    checked.clear()
    replace(po(translated, "de"), "Die Tür ist geschlossen.", "Die Tür ist zu.")
    assert run("generate", cwd=translated).code == 0
    assert checked == ["DOOR_CLOSED"]  # the record was made anew


def test_a_record_of_another_errorbook_is_no_record(
    run: Run, translated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """errorbook's own code is in every seal: a record an older errorbook made, whose
    checks may have let something through, is not taken."""
    monkeypatch.setattr(cache, "_FINGERPRINT", ["another errorbook"])
    checked = spy(monkeypatch)
    replace(po(translated, "de"), "Die Tür ist zu.", "Die Tür ist geschlossen.")
    assert run("generate", cwd=translated).code == 0
    # each translation of both locales, German and Polish
    assert sorted(checked) == ["DOOR_CLOSED", "DOOR_CLOSED", "ITEMS_REFUSED", "ITEMS_REFUSED"]


def test_records_change_no_output(run: Run, translated: Path) -> None:
    replace(po(translated, "de"), "{count} Artikel wurden", "{anzahl} Artikel wurden")
    replace(po(translated, "pl"), "Drzwi są zamknięte.", "Drzwi są zamknięte!")
    with_records = run("generate", cwd=translated)
    kept = {p: p.read_bytes() for p in translated.rglob("*") if p.is_file()}
    assert records(translated)
    for record in records(translated):
        record.unlink()
    (cache_of(translated) / cache.CATALOGS).unlink()
    (cache_of(translated) / "stamp.json").unlink()
    again = run("generate", "--force", cwd=translated)
    assert again.err == with_records.err
    now = {p: p.read_bytes() for p in translated.rglob("*") if p.is_file()}
    assert kept == now


# The seal of a translation covers everything its check reads.

PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgctxt "DOOR_CLOSED"
msgid "The door is closed."
msgstr "Die Tür ist zu."

msgctxt "ITEMS_REFUSED"
msgid "{count} item was refused by {who}."
msgid_plural "{count} items were refused by {who}."
msgstr[0] "Ein Artikel wurde von {who} abgelehnt."
msgstr[1] "{count} Artikel wurden von {who} abgelehnt."
"""


def review(
    text: str, verdicts: checks.Verdicts, counts: dict[str, str | None], domain: str = "messages"
) -> tuple[list[str], checks.Memo]:
    """The problems of ``text`` checked with ``verdicts``, and what the checks found."""
    registry = load_registry_text(REGISTRY)
    parsed, lines, problems = pofile.read(text.encode(), "x.po", "de", domain)
    assert not problems.items
    memo: checks.Memo = {}
    found, _ = checks.review(
        parsed, lines, "x.po", "de", domain, registry, text, memo=memo, verdicts=verdicts,
        contexts=counts,
    )  # fmt: skip
    return [item.id for item in found.items], memo


COUNTS: dict[str, str | None] = {"DOOR_CLOSED": None, "ITEMS_REFUSED": "count"}


@pytest.mark.parametrize(
    ("text", "counts", "problem"),
    [
        pytest.param(
            PO.replace('"Ein Artikel', '"{n} Artikel'),
            COUNTS,
            "E-TRANSLATION-UNKNOWN-PLACEHOLDER",
            id="the translation",
        ),
        pytest.param(
            PO.replace('msgid "{count} item was refused by {who}."', 'msgid "{n} item {who}."'),
            COUNTS,
            "E-TRANSLATION-MISSING-PLACEHOLDER",
            id="the source text in the file",
        ),
        pytest.param(
            PO, {**COUNTS, "ITEMS_REFUSED": "who"}, "E-TRANSLATION-MISSING-PLACEHOLDER", id="count"
        ),
    ],
)
def test_a_seal_covers_every_input_of_the_check(
    text: str, counts: dict[str, str | None], problem: str
) -> None:
    salt = cache.verdicts_salt("de", "messages", "x.po")
    first = checks.Verdicts(salt)
    clean, memo = review(PO, first, COUNTS)
    assert clean == []
    known = first.record(memo)
    assert len(known) == 2
    found, _ = review(text, checks.Verdicts(salt, known), counts)
    assert problem in found


def test_a_seal_covers_whether_the_text_is_formatted() -> None:
    """Reference prose is never formatted: '{zu}' there is text, in a UI message a field."""
    text = PO.replace("Die Tür ist zu.", "Die Tür ist {zu}.")
    salt = cache.verdicts_salt("de", "messages", "x.po")
    first = checks.Verdicts(salt)
    prose, memo = review(text, first, {})
    assert prose == []
    known = first.record(memo)
    found, _ = review(text, checks.Verdicts(salt, known), COUNTS)
    assert "E-TRANSLATION-UNKNOWN-PLACEHOLDER" in found


def test_prose_is_checked_on_every_run_and_never_sealed() -> None:
    """Unformatted text costs less to check than to seal (see checks.verdict): the checks
    run and find what they find, and the record keeps nothing of it."""
    salt = cache.verdicts_salt("de", "messages", "x.po")
    verdicts = checks.Verdicts(salt)
    clean, memo = review(PO, verdicts, {})  # no count placeholders: unformatted
    assert clean == []
    assert len(memo) == 2  # both translations were checked
    assert verdicts.seals == {}
    assert verdicts.record(memo) == frozenset()
    broken = PO.replace("Die Tür ist zu.", "Die Tür\x07 ist zu.")
    found, _ = review(broken, checks.Verdicts(salt), {})
    assert found == ["E-TRANSLATION-CONTROL-CHARACTER"]


def test_the_salt_covers_the_file_locale_domain_and_errorbook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    salts = {
        cache.verdicts_salt("de", "messages", "x.po"),
        cache.verdicts_salt("pl", "messages", "x.po"),
        cache.verdicts_salt("de", "docs", "x.po"),
        cache.verdicts_salt("de", "messages", "y.po"),
    }
    monkeypatch.setattr(cache, "_FINGERPRINT", ["another errorbook"])
    salts.add(cache.verdicts_salt("de", "messages", "x.po"))
    assert len(salts) == 5


# The MO file compiled from verdicts already made is the one compiled from scratch.


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text,
        lambda text: text.replace('"Ein Artikel', '"{n} Artikel'),
        lambda text: text.replace("Die Tür ist zu.", "Die Tür ist zu.\\n"),
        lambda text: text.replace("Die Tür ist zu.", "Die Tür ist {zu}."),
        lambda text: text.replace('msgstr[1] "{count} Artikel wurden', 'msgstr[1] "Artikel wurden'),
        lambda text: text.replace(
            'msgstr[0] "Ein Artikel wurde von {who} abgelehnt."', 'msgstr[0] ""'
        ),
        lambda text: text.replace('msgctxt "DOOR_CLOSED"', '#, fuzzy\nmsgctxt "DOOR_CLOSED"'),
    ],
)
def test_an_mo_file_compiled_from_verdicts_is_the_same(edit: Callable[[str], str]) -> None:
    registry = load_registry_text(REGISTRY)
    counts = message_contexts(registry)
    text = edit(PO)
    _, memo = review(text, checks.Verdicts(cache.verdicts_salt("de", "messages", "x.po")), counts)
    parsed, _, _ = pofile.read(text.encode(), "x.po", "de", "messages")
    merged = catalog.merge(registry, "messages", "de", parsed)
    assert catalog.compile_mo(merged, counts, memo) == catalog.compile_mo(merged, counts)


def test_a_translation_checked_clean_but_fuzzy_after_the_merge_is_not_compiled() -> None:
    """A verdict is about the text: whether the entry may be shown is the merge's to say."""
    registry = load_registry_text(REGISTRY)
    counts = message_contexts(registry)
    _, memo = review(PO, checks.Verdicts(cache.verdicts_salt("de", "messages", "x.po")), counts)
    assert memo and not any(memo.values())
    parsed, _, _ = pofile.read(PO.encode(), "x.po", "de", "messages")
    merged = catalog.merge(registry, "messages", "de", parsed)
    for message in merged:
        if message.context == "DOOR_CLOSED":
            message.flags.add("fuzzy")
    compiled = catalog.compile_mo(merged, counts, memo)
    assert compiled == catalog.compile_mo(merged, counts)
    assert "Die Tür ist zu.".encode() not in compiled


def test_a_seal_depends_on_the_values_of_its_key_not_on_their_objects() -> None:
    """The same texts give the same seal whether they are one object or two, interned or
    not (a record must match in the next run, whose strings are other objects), and keys
    that differ in any part, or only in where a text ends, give different seals."""
    import sys

    salt = cache.verdicts_salt("de", "messages", "x.po")
    text = "".join(["Die Tür ", "ist zu."])
    same = "".join(["Die Tür ist", " zu."])
    keys: list[tuple[object, ...]] = [
        ("DOOR", (text,), (text,), True, None),
        ("DOOR", (same,), ("".join(["Die Tür ", "ist zu."]),), True, None),
        (sys.intern("DOOR"), (sys.intern(text),), (same,), True, None),
    ]
    seals = set()
    for key in keys:
        verdicts = checks.Verdicts(salt)
        verdicts.vouch(key)
        seals.add(verdicts.seals[key])
    assert len(seals) == 1
    others: list[tuple[object, ...]] = [
        ("DOOR", (text,), (text,), False, None),
        ("DOOR", (text,), (text,), True, "count"),
        ("DOOR", (text, text), (text,), True, None),
        ("DOOR", (text,), (text, ""), True, None),
        ("DOOR", ("Die Tür", " ist zu."), (text,), True, None),
        (None, (text,), (text,), True, None),
        ("DOO", ("R" + text,), (text,), True, None),
    ]
    for key in others:
        verdicts = checks.Verdicts(salt)
        verdicts.vouch(key)
        seals.add(verdicts.seals[key])
    assert len(seals) == 1 + len(others)
