"""`errorbook check` on translators' catalogs, `stats` and `init-locale`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator import plurals
from generator.catalogs import checks
from generator.diagnostics import Mark

from ..conftest import GERMAN, Run, po, split_id, translate

PATH = "locales/de/LC_MESSAGES/messages.po"


@pytest.fixture
def project(translated: Path, run: Run) -> Path:
    assert run("check", cwd=translated).code == 0
    return translated


def edit(root: Path, old: str, new: str, locale: str = "de") -> int:
    """Replace text in a PO file; return the 1-based line where the replacement starts."""
    path = po(root, locale)
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")
    return text[: text.index(old)].count("\n") + 1


def check_ids(run: Run, root: Path) -> list[tuple[str, str]]:
    """Each diagnostic `errorbook check` prints, as (text, id)."""
    result = run("check", cwd=root)
    assert result.code == 1
    assert "Traceback" not in result.err
    rows = [row for row in result.err.splitlines() if not row.startswith("errorbook:")]
    return [split_id(row) for row in rows]


def check(run: Run, root: Path) -> list[str]:
    """The diagnostics `errorbook check` prints, each without the id at its end."""
    return [text for text, _ in check_ids(run, root)]


def test_a_malformed_line_is_an_error_with_its_line(run: Run, project: Path) -> None:
    line = edit(project, 'msgstr "Die Tür ist zu."', 'msgstr "Die Tür ist zu."\nnonsense here')
    rows = check(run, project)
    assert rows[0].startswith(f"{PATH}:{line + 1}:1: error: unknown keyword 'nonsense'")
    # generate refuses too, and leaves the file as the translator left it
    before = po(project, "de").read_bytes()
    assert run("generate", cwd=project).code == 1
    assert po(project, "de").read_bytes() == before


def test_a_fuzzy_header_is_an_error(run: Run, project: Path) -> None:
    line = edit(project, 'msgid ""\nmsgstr ""', '#, fuzzy\nmsgid ""\nmsgstr ""')
    assert check(run, project)[0] == (
        f"{PATH}:{line}:1: error: the header is marked fuzzy (remove '#, fuzzy' above msgid \"\"; "
        "tools skip a catalog whose header is fuzzy)"
    )


def test_plural_forms_must_be_errorbooks_own(run: Run, project: Path) -> None:
    """At the header's Plural-Forms line, where the translator edits it (it was 1:1)."""
    line = edit(project, "nplurals=2; plural=(n != 1);", "nplurals=2; plural=(n > 1);")
    rows = check(run, project)
    assert rows[0].startswith(
        f"{PATH}:{line}:1: error: Plural-Forms is 'nplurals=2; plural=(n > 1);'"
    )
    assert rows[0].endswith("(set it to: nplurals=2; plural=(n != 1);)")


def test_a_header_field_written_twice_is_named_at_the_line_each_tool_reads(
    run: Run, project: Path
) -> None:
    """GNU gettext reads a doubled header field's first line, Babel (and so errorbook) its
    last: check warns at the second, and the error about the value errorbook reads names
    that line, not the first (which holds errorbook's own rule)."""
    own = '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"'
    line = edit(project, own, own + '\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"')
    result = run("check", cwd=project)
    assert result.code == 1
    assert f"{PATH}:{line + 1}:1: warning: the header has Plural-Forms twice" in result.err
    assert f"{PATH}:{line + 1}:1: error: Plural-Forms is 'nplurals=2; plural=(n > 1);'" in (
        result.err
    )
    # The same value twice: only the warning (check still says the file is not as generate
    # would write it, with the field once).
    edit(project, "plural=(n > 1);", "plural=(n != 1);")
    result = run("check", cwd=project)
    assert f"{PATH}:{line + 1}:1: warning: the header has Plural-Forms twice;" in result.err
    assert ": error:" not in result.err, result.err


def test_a_formula_that_cannot_be_parsed_is_one_problem(run: Run, project: Path) -> None:
    """Not also a second one for differing from errorbook's rule."""
    line = edit(project, "nplurals=2; plural=(n != 1);", "nplurals=2; plural=(n !!= 1;")
    rows = check(run, project)
    assert rows == [
        f"{PATH}:{line}:1: error: the plural formula cannot be parsed "
        "(use errorbook's rule: nplurals=2; plural=(n != 1);)"
    ]


def test_a_formula_that_reaches_nplurals_is_an_error(run: Run, project: Path) -> None:
    rule = plurals.lookup("pl")
    assert rule is not None
    edit(project, rule.header, "nplurals=3; plural=(n%7);", locale="pl")
    rows = check(run, project)
    assert any("the plural formula gives no valid form for n = 3" in row for row in rows)


def test_a_partly_translated_plural_is_an_error(run: Run, project: Path) -> None:
    line = edit(project, 'msgstr[1] "{count} Artikel wurden von {who} abgelehnt."', 'msgstr[1] ""')
    rows = check(run, project)
    assert rows == [
        f"{PATH}:{line}:1: error: the translation of 'ITEMS_REFUSED' leaves "
        "plural form msgstr[1] empty (fill every form, or none)"
    ]


def test_white_space_at_the_edges_must_agree(run: Run, project: Path) -> None:
    line = edit(project, 'msgstr "Die Tür ist zu."', 'msgstr "Die Tür ist zu.\\n"')
    assert check(run, project) == [
        f"{PATH}:{line}:1: error: the translation of 'DOOR_CLOSED' (msgstr) does not start and "
        "end with the same white space and newlines as its source (match the source's leading "
        "and trailing spaces and newlines)"
    ]


def test_a_missing_placeholder_is_an_error(run: Run, project: Path) -> None:
    line = edit(
        project,
        'msgstr[1] "{count} Artikel wurden von {who} abgelehnt."',
        'msgstr[1] "Artikel wurden von {who} abgelehnt."',
    )
    assert check(run, project) == [
        f"{PATH}:{line}:1: error: the translation of 'ITEMS_REFUSED' (msgstr[1]) leaves out "
        "'{count}' (keep {count} in the translation)"
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('msgid ""\nmsgstr ""', '#, fuzzy\nmsgid ""\nmsgstr ""', "E-PO-FUZZY-HEADER"),
        ("{count} Artikel wurden", "Artikel wurden", "E-TRANSLATION-MISSING-PLACEHOLDER"),
        (
            "{count} Artikel wurden",
            "{count} {n} Artikel wurden",
            "E-TRANSLATION-UNKNOWN-PLACEHOLDER",
        ),
        ('msgstr "Die Tür ist zu."', 'msgstr "Die Tür ist zu.\\n"', "E-TRANSLATION-WHITESPACE"),
        ('msgstr "Die Tür ist zu."', 'msgstr "Die Tür ist zu.\\q"', "E-PO-ESCAPE"),
    ],
)
def test_each_catalog_problem_is_named_by_its_id(
    run: Run, project: Path, old: str, new: str, expected: str
) -> None:
    """Tools match a problem by its id, which stays when the wording changes; each is
    reported at the edited line, a header's fuzzy flag too (it was at the top of the file)."""
    line = edit(project, old, new)
    found = [(text.split(": ", 1)[0], kind) for text, kind in check_ids(run, project)]
    assert [kind for _, kind in found] == [expected], found
    assert found[0][0].startswith(f"{PATH}:{line}:"), found


def test_the_singular_form_may_leave_out_the_count(run: Run, project: Path) -> None:
    edit(
        project,
        'msgstr[0] "{count} Artikel wurde von {who} abgelehnt."',
        'msgstr[0] "Ein Artikel wurde von {who} abgelehnt."',
    )
    stale = run("check", cwd=project)  # the PO is fine, but its MO is not compiled yet
    assert stale.code == 1 and stale.err == ""
    assert stale.out.startswith("stale    demo_errors/locales/de/LC_MESSAGES/messages.mo\n")
    assert run("generate", cwd=project).code == 0
    assert run("check", cwd=project).code == 0


def test_duplicate_entries_are_errors(run: Run, project: Path) -> None:
    text = po(project, "de").read_text("utf-8")
    block = text[
        text.index('msgctxt "DOOR_CLOSED"') : text.index(
            "\n\n", text.index('msgctxt "DOOR_CLOSED"')
        )
    ]
    po(project, "de").write_text(text + "\n" + block + "\n", "utf-8")
    rows = check(run, project)
    assert "is a duplicate (first at line" in rows[0]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"\xef\xbb\xbf", "starts with a byte-order mark"),
        (b"\r\n", "has CR line endings"),
        (b"\xff", "is not valid UTF-8"),
    ],
)
def test_encoding_problems_are_errors(run: Run, project: Path, data: bytes, problem: str) -> None:
    path = po(project, "de")
    raw = path.read_bytes()
    if data == b"\r\n":
        path.write_bytes(raw.replace(b"\n", b"\r\n"))
    elif data == b"\xff":
        path.write_bytes(raw.replace("Tür".encode(), b"T\xff"))
    else:
        path.write_bytes(data + raw)
    rows = check(run, project)
    assert problem in rows[0] and rows[0].startswith(f"{PATH}:")


def test_stats_table_and_json(run: Run, project: Path) -> None:
    text = run("stats", cwd=project).out.splitlines()
    assert text[0].split() == [
        "locale",
        "domain",
        "translated",
        "rejected",
        "fuzzy",
        "untranslated",
        "done",
    ]
    assert text[1].split() == ["de", "messages", "2", "0", "0", "0", "100%"]
    rows = json.loads(run("stats", "--format", "json", cwd=project).out)
    docs = next(r for r in rows if r["locale"] == "pl" and r["domain"] == "docs")
    assert docs["translated"] == 0 and docs["untranslated"] == docs["total"] > 0
    # A reworded source makes the entry fuzzy after generate.
    project.joinpath("codes.yaml").write_text(
        project.joinpath("codes.yaml")
        .read_text("utf-8")
        .replace("The door is closed.", "The door is shut."),
        "utf-8",
    )
    assert run("generate", cwd=project).code == 0
    rows = json.loads(run("stats", "--format", "json", cwd=project).out)
    de = next(r for r in rows if r["locale"] == "de" and r["domain"] == "messages")
    assert (de["translated"], de["fuzzy"]) == (1, 1)


def test_init_locale_writes_headers(run: Run, project: Path) -> None:
    manifest = (project / ".errorbook-files").read_text("utf-8").splitlines()
    generated = {name: (project / name).read_bytes() for name in manifest[1:]}
    result = run("init-locale", "pt-BR", cwd=project)
    assert result.code == 0
    # It adds two PO files and touches nothing else: no generated file is taken for an orphan.
    assert [row.split()[0] for row in result.out.splitlines()[:-1]] == ["created", "created"]
    assert {name: (project / name).read_bytes() for name in manifest[1:]} == generated
    assert "next: add pt_BR to registry.locales in codes.yaml" in result.out
    text = po(project, "pt_BR").read_text("utf-8")
    assert '"Language: pt_BR\\n"' in text
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in text
    again = run("init-locale", "pt_BR", cwd=project)  # exists already: refused as init refuses
    assert again.code == 2
    assert again.err == (
        "errorbook: locales/pt_BR/LC_MESSAGES/messages.po exists already; "
        "`errorbook generate` keeps it up to date\n"
    )
    assert po(project, "pt_BR").read_text("utf-8") == text
    assert run("init-locale", "tlh", cwd=project).code == 2
    assert run("init-locale", "en", cwd=project).code == 2


@pytest.mark.parametrize(
    "char", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
def test_a_comment_with_a_character_babel_reads_as_a_line_break_is_refused(
    run: Run, project: Path, char: str
) -> None:
    """str.splitlines() breaks lines at these. Babel's writer splits the header's comment
    with it and breaks a `#|` line holding one, so such a file would be written back
    unreadable (the fuzzer found it). Other comments come back readable and are accepted;
    in a translation the checks refuse the character as a control character."""
    path = po(project, "de")
    lines = path.read_text("utf-8").split("\n")
    path.write_text("\n".join([f'#| msgid "before {char} after"', *lines]), "utf-8")
    rows = check(run, project)
    assert rows[0].startswith(
        f"{PATH}:1:18: error: a previous-msgid line (#|) contains U+{ord(char):04X}"
    ), rows
    path.write_text("\n".join([f"# Translation of the demo {char} registry", *lines]), "utf-8")
    rows = check(run, project)
    assert rows[0].startswith(f"{PATH}:1:27: error: the header's comment contains"), rows
    entry = lines.index('msgctxt "DOOR_CLOSED"')
    commented = [*lines[:entry], f"# checked by Ana {char} and Bo", *lines[entry:]]
    path.write_text("\n".join(commented), "utf-8")
    accepted = run("check", cwd=project)  # the file is fresh: generate keeps it as it is
    assert accepted.code == 0 and "contains U+" not in accepted.err, accepted.err
    number = next(i for i in range(entry, len(lines)) if lines[i].startswith("msgstr")) + 1
    column = len(lines[number - 1])  # where the character goes: before the closing quote
    lines[number - 1] = lines[number - 1][:-1] + f'{char}"'
    path.write_text("\n".join(lines), "utf-8")
    rows = check(run, project)
    assert all(row.startswith(f"{PATH}:{number}:") for row in rows[:-1]), rows
    control = [row for row in rows if "control character" in row]
    assert control and control[0].startswith(f"{PATH}:{number}:{column}: error:"), rows
    assert not [row for row in rows if "contains U+" in row], rows


def test_check_tells_to_fix_the_po_files_before_generating(run: Run, translated: Path) -> None:
    """A broken translation also makes its outputs stale: `check` says which comes first."""
    broken = dict(GERMAN, ITEMS_REFUSED=["{count} von {wer}.", "{count} von {wer}."])
    translate(po(translated, "de"), broken)
    result = run("check", cwd=translated)
    assert result.code == 1
    assert "uses '{wer}', which its source does not have" in result.err
    assert "once the PO files are fixed, run `errorbook generate` to update" in result.out
    # Each diagnostic points at the placeholder itself: line and column.
    lines = po(translated, "de").read_text("utf-8").split("\n")
    number = lines.index('msgstr[0] "{count} von {wer}."') + 1
    column = lines[number - 1].index("{wer}") + 1
    where = f"messages.po:{number}:{column}: error: the translation of 'ITEMS_REFUSED'"
    assert f"{where} (msgstr[0]) uses '{{wer}}'" in result.err


def test_a_run_that_changes_nothing_repeats_the_catalogs_warnings(
    run: Run, translated: Path
) -> None:
    """The warnings stand until the PO files change: a second `generate` finds nothing to do,
    and says them again (it once printed only "0 files changed", as if all were well)."""
    broken = dict(GERMAN, ITEMS_REFUSED=["{count} von {wer}.", "{count} von {wer}."])
    translate(po(translated, "de"), broken)
    first = run("generate", cwd=translated)
    assert first.code == 0 and "uses '{wer}'" in first.err, first.err
    again = run("generate", cwd=translated)
    assert again.code == 0 and again.out.startswith("0 files changed"), again.out
    assert again.err == first.err  # every warning, and the line on what is not compiled
    assert "translations with problems are not compiled" in again.err
    translate(po(translated, "de"), GERMAN)
    fixed = run("generate", cwd=translated)
    assert fixed.code == 0 and fixed.err == "", fixed.err
    assert run("generate", cwd=translated).err == ""


def test_a_column_is_found_across_escapes_and_continued_lines() -> None:
    rows = ['msgstr ""', '"Die \\"Tür\\" {0} "', '"ist {wer}\\n zu."']
    text = 'Die "Tür" {0} ist {wer}\n zu.'
    assert checks._written_at(rows, 0, text.index("{0}")) == (2, 14)
    assert checks._written_at(rows, 0, text.index("{wer}")) == (3, 6)
    assert checks._written_at(rows, 0, text.index("zu")) == (3, 14)
    assert checks._written_at(rows, 0, len(text)) is None  # past the end: the keyword's line


def test_a_form_is_found_after_a_blank_line_or_indented() -> None:
    """Layouts the line check accepts (and GNU and Babel read) are located too."""
    rows = [
        'msgctxt "X"',
        'msgid "{n} a"',
        'msgid_plural "{n} as"',
        "",
        'msgstr[0] "{n} b"',
        '  msgstr[1] "{x} c"',
        "",
        'msgctxt "Y"',
    ]
    locate = checks.locator(lambda: rows, "x.po", 1)
    assert locate("msgstr[0]", 0) == Mark("x.po", 5, 12)
    assert locate("msgstr[1]", 0) == Mark("x.po", 6, 14)
    assert locate("msgstr[1]", None) == Mark("x.po", 6, 3)
    assert locate("msgstr[2]", None) == Mark("x.po", 1, 1)  # not in this entry
