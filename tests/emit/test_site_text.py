"""Messages on the site read as the runtime writes them: their line breaks kept, ``{{`` and
``}}`` shown as the single braces a person sees, in every language the site is built in."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import markdown as python_markdown  # type: ignore[import-untyped]

from ..conftest import MINIMAL, ROOT, Run, make_project, po, translate

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc", "admonition", "fenced_code"]

#: A message over several lines (a YAML block, with an empty line between two paragraphs)
#: with escaped braces and a placeholder; a plural message whose other form has a line break.
WRITTEN = MINIMAL.replace(
    "    message: The door is closed.\n",
    "    message: |\n"
    "      The door is closed.\n"
    "      Knock {{twice}} first, then {who} opens.\n"
    "\n"
    "      Nobody else may come in.\n"
    "    placeholders:\n"
    "      who: {description: Who opens., example: the porter}\n",
).replace(
    'other: "{count} items were refused by {who}."',
    'other: "{count} items were refused\\nby {who} {{sic}}."',
)


def _quote(page: Path) -> str:
    """The message's blockquote on a generated page, rendered by Python-Markdown."""
    text = page.read_text("utf-8")
    lines = [line for line in text.split("\n") if line.startswith(">")]
    return str(python_markdown.markdown("\n".join(lines), extensions=EXTENSIONS))


def _site(run: Run, root: Path) -> Path:
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    assert run("generate", cwd=root).code == 0
    return root / "site" / "docs"


def test_a_message_keeps_its_lines_and_shows_single_braces(run: Run, tmp_path: Path) -> None:
    docs = _site(run, make_project(tmp_path / "p", WRITTEN))
    page = docs / "en" / "codes" / "door_closed.md"
    assert (
        "> The door is closed\\.  \n"
        "> Knock \\{twice\\} first, then \\{who\\} opens\\.\n"
        ">\n"
        "> Nobody else may come in\\.\n"
    ) in page.read_text("utf-8")
    assert _quote(page) == (
        "<blockquote>\n"
        "<p>The door is closed.<br />\n"
        "Knock {twice} first, then {who} opens.</p>\n"
        "<p>Nobody else may come in.</p>\n"
        "</blockquote>"
    )
    plural = _quote(docs / "en" / "codes" / "items_refused.md")
    assert plural == (
        "<blockquote>\n<p>{count} items were refused<br />\nby {who} {sic}.</p>\n</blockquote>"
    )


def test_a_translated_message_gets_the_same_treatment(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", WRITTEN)
    _site(run, root)
    translate(
        po(root, "de"),
        {
            "DOOR_CLOSED": "Die Tür ist zu.\\nErst {{zweimal}} klopfen, dann öffnet {who}."
            "\\n\\nSonst kommt niemand herein."
        },
    )
    translate(po(root, "de", "docs"), {"DOOR_CLOSED.meaning": "Niemand kommt herein."})
    docs = _site(run, root)
    assert _quote(docs / "de" / "codes" / "door_closed.md") == (
        "<blockquote>\n"
        "<p>Die Tür ist zu.<br />\n"
        "Erst {zweimal} klopfen, dann öffnet {who}.</p>\n"
        "<p>Sonst kommt niemand herein.</p>\n"
        "</blockquote>"
    )
    # Not translated: the source text, marked line by line, so no mark spans two paragraphs.
    html = _quote(docs / "de" / "codes" / "items_refused.md")
    assert re.sub(r"<span [^>]*>|</span>", "", html) == (
        "<blockquote>\n<p>{count} items were refused<br />\nby {who} {sic}.</p>\n</blockquote>"
    )
    assert html.count('<span class="eb-untranslated" lang="en">') == html.count("</span>") == 2


def test_limit_values_are_localized_numbers_and_units() -> None:
    """Digit grouping and CLDR units in the page's language; sizes in binary units; a unit
    CLDR does not know stays as the registry writes it."""
    from generator.emit.site.pages import quantity

    assert quantity(60, "seconds", "en") == "60 seconds"
    assert quantity(60, "seconds", "de") == "60 Sekunden"
    assert quantity(1, "seconds", "de") == "1 Sekunde"
    assert quantity(60, "seconds", "ja") == "60 秒"
    assert quantity(500, "milliseconds", "de") == "500 Millisekunden"
    assert quantity(60000, "milliseconds", "de") == "60.000 Millisekunden"
    assert quantity(1048576, "bytes", "de") == "1 MiB"
    assert quantity(65536, "bytes", "ja") == "64 KiB"
    assert quantity(1536, "bytes", "de") == "1,5 KiB"
    assert quantity(256, "bytes", "de") == "256 Byte"
    assert quantity(256, "bytes", "ja") == "256 バイト"
    assert quantity(3, "attempts", "de") == "3 attempts"
    assert quantity(12000, "actions", "de") == "12.000 actions"


def test_a_unit_cldr_lacks_takes_the_plural_form_the_number_needs() -> None:
    """With the registry's singular (unit_one) or a translation: 1 attempt, 3 attempts; in
    Polish three forms, in Arabic six, in Japanese one."""
    from generator.emit.site.pages import quantity

    english = ("attempt", "attempts")
    assert quantity(1, "attempts", "en", english) == "1 attempt"
    assert quantity(3, "attempts", "en", english) == "3 attempts"
    assert quantity(0, "attempts", "en", english) == "0 attempts"
    polish = ("próba", "próby", "prób")
    shown = [quantity(n, "attempts", "pl", polish) for n in (1, 2, 5, 22, 25)]
    assert shown == ["1 próba", "2 próby", "5 prób", "22 próby", "25 prób"]
    assert quantity(3, "attempts", "fr", ("tentative", "tentatives")) == "3 tentatives"
    assert quantity(1, "attempts", "fr", ("tentative", "tentatives")) == "1 tentative"
    assert quantity(3, "attempts", "ja", ("回",)) == "3 回"
    arabic = ("محاولة", "محاولة", "محاولتين", "محاولات", "محاولةً", "محاولة")
    assert quantity(11, "attempts", "ar", arabic) == "11 محاولةً"
    # Forms that do not fit the language's rule: the last one, never an index error.
    assert quantity(1, "attempts", "pl", english) == "1 attempts"


def test_a_limit_with_a_singular_gives_translators_its_unit_with_plural_forms() -> None:
    from generator import config
    from generator.catalogs.entries import entries
    from generator.pipeline import build

    registry = build.registry_for(config.load(cwd=ROOT))
    docs = {e.context: e for e in entries(registry, "docs")}
    unit = docs["limit.llm_retry_attempts.unit"]
    assert (unit.msgid, unit.plural) == ("attempt", "attempts")
    assert "limit.llm_timeout.unit" not in docs  # seconds: CLDR's, Babel translates it
    limits = (ROOT / "site" / "docs" / "en" / "limits.md").read_text("utf-8")
    assert "| 3 attempts | 1 attempt \N{EN DASH} 10 attempts |" in limits
    polish = (ROOT / "site" / "docs" / "pl" / "limits.md").read_text("utf-8")
    assert "| 3 próby | 1 próba \N{EN DASH} 10 prób |" in polish


def test_the_pages_show_limits_in_the_readers_language() -> None:
    german = (ROOT / "site" / "docs" / "de" / "codes" / "llm_retries_exhausted.md").read_text(
        "utf-8"
    )
    assert "500 Millisekunden" in german and "60\\.000 Millisekunden" in german  # escaped
    limits = (ROOT / "site" / "docs" / "ja" / "limits.md").read_text("utf-8")
    assert "1 MiB" in limits and "1048576" not in limits


def test_a_recovery_summary_fits_the_codes_retry_policy() -> None:
    """LLM_RETRIES_EXHAUSTED may not be retried now: its page does not say to retry."""
    page = (ROOT / "site" / "docs" / "en" / "codes" / "llm_retries_exhausted.md").read_text("utf-8")
    assert "Retry under the bounded retry policy" not in page
    assert "Stop retrying" in page


def test_a_count_of_codes_takes_the_form_its_number_needs(run: Run, tmp_path: Path) -> None:
    """A registry of one code is "1 code", not "1 codes": on the home page and in the code
    finder's status, whose form is chosen by the number of codes the table has."""
    alone = MINIMAL[: MINIMAL.index("  ITEMS_REFUSED:")] + MINIMAL[MINIMAL.index("limits:") :]
    one = _site(run, make_project(tmp_path / "one", alone))
    home = (one / "en" / "index.md").read_text("utf-8")
    assert "Registry version 1\\.2\\.0, 1 code\\." in home
    finder = (one / "en" / "codes" / "index.md").read_text("utf-8")
    assert 'data-status="{shown} of {total} code"' in finder
    two = _site(run, make_project(tmp_path / "two", MINIMAL))
    assert "Registry version 1\\.2\\.0, 2 codes\\." in (two / "en" / "index.md").read_text("utf-8")
    codes = (two / "en" / "codes" / "index.md").read_text("utf-8")
    assert 'data-status="{shown} of {total} codes"' in codes


def test_the_site_text_takes_each_languages_plural_forms_from_its_file() -> None:
    """Each language's form for a number, by the Plural-Forms header of its site text file:
    Polish has three forms, Arabic six, Spanish one for millions."""
    from generator.emit.render import environment
    from generator.emit.site.pages import _counted, chrome_text
    from generator.plurals import PluralRule

    env = environment(None)
    singular = "Registry version %(version)s, %(count)s code."
    plural = "Registry version %(version)s, %(count)s codes."
    polish = _counted(*chrome_text(env, "pl"))
    assert [polish(singular, plural, n).split(", ")[-1] for n in (1, 2, 5, 22, 112)] == [
        "%(count)s kod.",
        "%(count)s kody.",
        "%(count)s kodów.",
        "%(count)s kody.",
        "%(count)s kodów.",
    ]
    spanish = _counted(*chrome_text(env, "es"))
    assert spanish(singular, plural, 1_000_000).endswith("%(count)s de códigos.")
    assert spanish(singular, plural, 3).endswith("%(count)s códigos.")
    texts, rule = chrome_text(env, "ar")
    assert rule is not None and rule.count == 6
    assert _counted(texts, rule)(singular, plural, 11) == texts[singular].split("\x00")[4]
    english = _counted({}, None)
    assert english(singular, plural, 1) == singular
    assert english(singular, plural, 0) == plural
    # A translation with another number of forms than its header says is not used, nor one
    # whose header's expression gettext cannot read or that picks a form there is not.
    short = {singular: "eins\x00zwei"}
    assert _counted(short, rule)(singular, plural, 2) == plural
    for broken in ("n ? (", "n / 0", "7", "(" * 2000 + "n" + ")" * 2000):
        assert _counted(short, PluralRule(2, broken))(singular, plural, 2) == plural


def test_a_registry_written_in_german_gets_germans_site_text(run: Run, tmp_path: Path) -> None:
    """errorbook's own text is English's: a registry whose source language is German shows
    its site in German, headings and counts included, not in English."""
    german = MINIMAL.replace("source_locale: en", "source_locale: de").replace(
        "locales: [de]", "locales: [en]"
    )
    docs = _site(run, make_project(tmp_path / "p", german))
    assert "Registry\\-Version 1\\.2\\.0, 2 Codes\\." in (docs / "de" / "index.md").read_text(
        "utf-8"
    )


def test_site_text_falls_back_to_english_marked_as_english() -> None:
    """Where errorbook's own text has no translation, it is English, and marked so (not as
    the registry's source language)."""
    from generator.emit.site.pages import Page

    page = Page(registry=None, lang="it", source="de", prose={}, ui={})  # type: ignore[arg-type]
    shown = page.md(page.site_text("mapping of `CODE` to code"))
    assert shown == '<span class="eb-untranslated" lang="en">mapping of `CODE` to code</span>'
    assert page.fallback == ["mapping of `CODE` to code"]
    english = Page(registry=None, lang="en", source="de", prose={}, ui={})  # type: ignore[arg-type]
    assert english.md(english.site_text("text")) == "text"


def test_a_site_text_file_without_plural_forms_takes_errorbooks_rule(tmp_path: Path) -> None:
    """A project's own site text file without a Plural-Forms header: its two French forms are
    used by errorbook's rule for French, where Babel's CLDR rule would ask for three. A
    translator's lone % stays text in plain site text too."""
    import jinja2

    from generator.emit.site.pages import _counted, _plain, chrome_text

    text = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
        'msgid "%(n)s code"\nmsgid_plural "%(n)s codes"\nmsgstr[0] "%(n)s code"\n'
        'msgstr[1] "%(n)s codes, in full"\n'
    )
    env = jinja2.Environment(loader=jinja2.DictLoader({"site/i18n/fr.po": text}))
    texts, rule = chrome_text(env, "fr")
    assert rule is not None and rule.count == 2
    choose = _counted(texts, rule)
    assert choose("%(n)s code", "%(n)s codes", 1) == "%(n)s code"
    assert choose("%(n)s code", "%(n)s codes", 2) == "%(n)s codes, in full"
    assert _plain({"a %(n)s": "b %(n)s (100 %) %(m)s"})("a %(n)s", n=3) == "b 3 (100 %) %(m)s"


def test_counts_are_numbers_as_the_pages_language_writes_them(run: Run, tmp_path: Path) -> None:
    """A count on a page is grouped and signed as its language writes numbers (CLDR): the
    home page's number of codes, the progress page's counts and percentages, and the
    separator the code finder groups its counts with."""
    more = "".join(
        f"  DOOR_SHUT_{n:04d}:\n    layer: inner\n    message: The door {n} is shut.\n"
        f"    meaning: Nobody is let in.\n    recovery: {{kind: fix_client, steps: [Knock.]}}\n"
        f"    retry: {{policy: never}}\n    since: 1.0.0\n"
        for n in range(999)
    )
    text = MINIMAL.replace("limits:\n", more + "limits:\n", 1)
    docs = _site(run, make_project(tmp_path / "many", text))
    assert "Registry version 1\\.2\\.0, 1,001 codes\\." in (docs / "en" / "index.md").read_text(
        "utf-8"
    )
    assert 'data-group=","' in (docs / "en" / "codes" / "index.md").read_text("utf-8")
    german = (ROOT / "site" / "docs" / "de" / "progress.md").read_text("utf-8")
    assert "| 100\N{NO-BREAK SPACE}% |" in german and "| 100% |" not in german
    assert 'data-group="."' in (ROOT / "site" / "docs" / "de" / "codes" / "index.md").read_text(
        "utf-8"
    )


def test_the_untranslated_note_names_the_registrys_own_language(run: Run, tmp_path: Path) -> None:
    """A page that falls back to the source language says which one: English only where the
    registry is written in English."""
    german = MINIMAL.replace("source_locale: en", "source_locale: de").replace(
        "locales: [de]", "locales: [fr]"
    )
    root = make_project(tmp_path / "p", german)
    _site(run, root)
    translate(po(root, "fr", "docs"), {"DOOR_CLOSED.meaning": "Personne n'entre."})
    docs = _site(run, root)
    page = (docs / "fr" / "codes" / "door_closed.md").read_text("utf-8")
    assert "registre \\(allemand\\)" in page and "English" not in page and "anglais" not in page
    english = (ROOT / "site" / "docs" / "fr" / "guide.md").read_text("utf-8")  # English pages
    assert "s'affichent en anglais" in english
