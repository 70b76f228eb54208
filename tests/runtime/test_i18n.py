"""Localized lookup in the generated package: negotiation, plurals, and safe formatting."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import surface_errors as se
from generator import plurals

from ..conftest import MINIMAL, POLISH, ROOT, Run, make_project, po, translate
from ..emit.test_emit_python import load_module

MSGFMT = shutil.which("msgfmt")


def forms_in_repo(locale: str, code: str) -> list[str]:
    with (ROOT / "locales" / locale / "LC_MESSAGES" / "messages.po").open("rb") as stream:
        catalog = read_po(stream, locale=locale)
    message = next(m for m in catalog if m.context == code)
    assert isinstance(message.string, (list, tuple))
    return list(message.string)


@pytest.mark.parametrize(
    ("locale", "counts"), [("pl", (1, 2, 5, 22, 25)), ("ar", (0, 1, 2, 3, 11, 100))]
)
def test_retry_exhaustion_takes_every_plural_form(locale: str, counts: tuple[int, ...]) -> None:
    forms = forms_in_repo(locale, "LLM_RETRIES_EXHAUSTED")
    rule = plurals.lookup(locale)
    assert rule is not None and len(forms) == rule.count
    seen = set()
    for n in counts:
        value = f"\u2068{n}\u2069" if locale == "ar" else str(n)  # isolated right to left
        expected = forms[rule.index(n)].replace("{attempts}", value)
        assert se.message("LLM_RETRIES_EXHAUSTED", locale, attempts=n) == expected
        seen.add(rule.index(n))
    assert seen == set(range(rule.count)) - ({5} if locale == "ar" and 100 not in counts else set())


def test_polish_forms_are_distinct_words() -> None:
    texts = {se.message("LLM_RETRIES_EXHAUSTED", "pl", attempts=n) for n in (1, 2, 5)}
    assert len(texts) == 3


@pytest.mark.parametrize("tag", ["de_AT", "de-AT", "de_AT.UTF-8", "de", "DE-at", "de_DE@euro"])
def test_regional_and_encoded_tags_reach_the_language(tag: str) -> None:
    assert se.fallback_chain(tag) == ("de", "en")
    assert (
        se.message("PERMISSION_DENIED", tag, action="x")
        == se.message("PERMISSION_DENIED", "de", action="x")
        != se.message("PERMISSION_DENIED", action="x")
    )


@pytest.mark.parametrize("tag", [None, "", "C", "POSIX", "xx", "en_GB", "tlh"])
def test_unknown_or_empty_locales_fall_back_to_the_source(tag: str | None) -> None:
    assert se.fallback_chain(tag) == ("en",)
    assert se.message("PERMISSION_DENIED", tag, action="x") == "The action x was not allowed."


@pytest.mark.parametrize("tag", [["de"], {"de": 1}, 5, b"de", ("de",)])
def test_a_locale_that_is_no_str_is_a_type_error_that_says_so(tag: object) -> None:
    """Not Python's unhashable or missing-attribute errors from deep inside: every entry
    point names the argument and what it takes, and a miss on the fast path is no excuse."""
    se.message("PERMISSION_DENIED", "de", action="x")  # the fast path has this code
    calls: list[Callable[[], object]] = [
        lambda: se.message("PERMISSION_DENIED", tag, action="x"),  # type: ignore[arg-type]
        lambda: se.title("PERMISSION_DENIED", tag),  # type: ignore[arg-type]
        lambda: se.Translator(tag),  # type: ignore[arg-type]
        lambda: se.fallback_chain(tag),  # type: ignore[arg-type]
        lambda: se.failure("PERMISSION_DENIED", locale=tag, action="x"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(TypeError, match=f"locale must be a str .*not {type(tag).__name__}"):
            call()


@pytest.mark.parametrize("code", [["PERMISSION_DENIED"], {"PERMISSION_DENIED": 1}, 5])
def test_a_code_of_another_type_is_no_code_of_the_registry(code: object) -> None:
    """As failure() says it: not the unhashable error of a dict look-up inside."""
    se.message("PERMISSION_DENIED", "de", action="x")
    se.Translator("de").message("PERMISSION_DENIED", action="x")
    calls: list[Callable[[], object]] = [
        lambda: se.message(code, action="x"),  # type: ignore[arg-type]
        lambda: se.message(code, "de", action="x"),  # type: ignore[arg-type]
        lambda: se.Translator("de").message(code, action="x"),  # type: ignore[arg-type]
        lambda: se.title(code, "de"),  # type: ignore[arg-type]
        lambda: se.failure(code, action="x"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(ValueError, match="is not a code of this registry"):
            call()


def test_every_shipped_locale_translates_every_code() -> None:
    for locale in se.LOCALES[1:]:
        translator = se.Translator(locale)
        assert translator.locale == locale
        for code, info in se.CODES.items():
            params = {name: 3 if name == info.count else "v" for name in info.placeholders}
            text = translator.message(code, **params)
            source = se.format_message(code, **params)
            assert text and text != source, (locale, code)


def test_parameters_are_checked_in_every_locale() -> None:
    with pytest.raises(TypeError, match="LLM_TIMEOUT: missing placeholder 'seconds'"):
        se.message("LLM_TIMEOUT", "ja")
    with pytest.raises(TypeError, match="unexpected parameter 'extra'"):
        se.Translator("fr").message("INVALID_REQUEST", extra=1)


def test_builders_localize_the_message() -> None:
    envelope = se.protocol_failure("LLM_TIMEOUT", locale="ja", seconds=60)
    assert envelope["error"]["message"] == se.message("LLM_TIMEOUT", "ja", seconds=60)
    assert envelope["error"]["code"] == "LLM_TIMEOUT"


def test_importing_the_package_loads_no_catalog() -> None:
    probe = (
        "import surface_errors.i18n as i; assert not i._catalogs; "
        "i.message('INVALID_REQUEST', 'de'); print(sorted(i._catalogs))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    assert out.strip() == "['de']"


@pytest.fixture
def scripts_package(run: Run, tmp_path: Path):
    text = MINIMAL.replace("locales: [de]", "locales: [de, pt_BR, zh_Hant, sr_Latn]").replace(
        "package: demo_errors", "package: scripts_errors"
    )
    root = make_project(tmp_path / "s", text)
    assert run("generate", cwd=root).code == 0
    return load_module(root / "scripts_errors", "scripts_errors")


@pytest.mark.parametrize(
    ("tag", "chain"),
    [
        ("pt", ("pt_BR", "en")),
        ("pt_PT", ("pt_BR", "en")),
        ("pt-BR", ("pt_BR", "en")),
        ("zh_TW", ("zh_Hant", "en")),
        ("zh_Hant_TW", ("zh_Hant", "en")),
        ("zh_HK", ("zh_Hant", "en")),
        ("zh_CN", ("en",)),
        ("zh", ("en",)),
        ("sr_Latn_RS", ("sr_Latn", "en")),
        ("sr", ("en",)),
        ("de_CH.utf8", ("de", "en")),
        # A subtag of other than ASCII letters or digits is no script or region, as in
        # BCP 47 and the TypeScript runtime, whatever Unicode version the interpreter has:
        # U+0870 is a letter from Unicode 14 (Python 3.11) on, not in 3.10's Unicode 13.
        ("zh_TW_\u0870\u0870", ("zh_Hant", "en")),
        ("zh_TW_\u0661\u0662\u0663", ("zh_Hant", "en")),  # Arabic-Indic digits
        ("sr_\u0870\u0870\u0870\u0870_RS", ("en",)),
        ("sr_Latn_\u0870\u0870\u0870\u0870", ("sr_Latn", "en")),
        ("d\u00e9_CH", ("en",)),
    ],
)
def test_scripts_and_regions_negotiate_sensibly(
    scripts_package, tag: str, chain: tuple[str, ...]
) -> None:
    assert scripts_package.fallback_chain(tag) == chain


@pytest.fixture
def hostile(run: Run, tmp_path: Path) -> tuple[Path, Run]:
    root = make_project(
        tmp_path / "h", MINIMAL.replace("package: demo_errors", "package: hostile_errors")
    )
    assert run("generate", cwd=root).code == 0
    return root, run


@pytest.mark.parametrize(
    "evil",
    [
        "{count.__class__} von {who}",
        "{0} von {who} ({count})",
        "{count!r} von {who}",
        "{count:>99999} {who}",
        "{who.__init__.__globals__} {count}",
        "{count} {who} {secret}",
    ],
)
def test_a_hostile_translation_fails_check_and_falls_back(hostile, evil: str) -> None:
    root, run = hostile
    translate(po(root, "de"), {"ITEMS_REFUSED": [evil, evil]})
    result = run("check", cwd=root)
    assert result.code == 1
    path = "locales/de/LC_MESSAGES/messages.po"
    rows = po(root, "de").read_text("utf-8").split("\n")
    line = rows.index(f'msgstr[0] "{evil}"') + 1
    first = result.err.splitlines()[0]
    column = int(first.split(":")[2])
    assert first.startswith(
        f"{path}:{line}:{column}: error: the translation of 'ITEMS_REFUSED' (msgstr[0])"
    ), first
    # at the placeholder itself; a placeholder left out has no place but its line
    assert rows[line - 1][column - 1] == "{" or "leaves out" in first, first
    assert run("generate", cwd=root).code == 0  # generation still works; the MO skips it
    module = load_module(root / "hostile_errors", "hostile_errors")
    assert (
        module.message("ITEMS_REFUSED", "de", count=2, who="Ann") == "2 items were refused by Ann."
    )


def test_a_forged_catalog_cannot_format_attributes(hostile) -> None:
    """Even an MO file built by hand with a hostile string is only ever read as data."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    root, _ = hostile
    forged = Catalog(locale="de")
    forged.add(
        ("{count} item was refused by {who}.", "{count} items were refused by {who}."),
        ("{who.__class__.__mro__}", "{who.__class__.__mro__}"),
        context="ITEMS_REFUSED",
    )
    forged.add("The door is closed.", "{{literal}} bleibt", context="DOOR_CLOSED")
    target = root / "hostile_errors" / "locales" / "de" / "LC_MESSAGES" / "messages.mo"
    with target.open("wb") as stream:
        write_mo(stream, forged)
    module = load_module(root / "hostile_errors", "hostile_errors_forged")
    assert module.message("ITEMS_REFUSED", "de", count=1, who="Ann") == "1 item was refused by Ann."
    assert module.message("DOOR_CLOSED", "de") == "{literal} bleibt"


_DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "not_a_catalog": lambda mo: b"not a catalog",  # gettext: ValueError (bad magic number)
    "cut_12": lambda mo: mo[:12],  # cut inside the header: struct.error
    "cut_30": lambda mo: mo[:30],
    "cut_200": lambda mo: mo[:200],  # the tables point past the end
    "unknown_charset": lambda mo: mo.replace(b"charset=utf-8", b"charset=xnope"),
}


@pytest.mark.parametrize("damage", sorted(_DAMAGES))
def test_a_broken_mo_file_falls_back_to_the_source(hostile, damage: str) -> None:
    """A damaged MO file (a cut-short copy, a charset Python does not know) is no catalog:
    the message is the source text, on every call, never an exception."""
    root, run = hostile
    translate(po(root, "de"), {"DOOR_CLOSED": "Die Tür ist zu."})
    assert run("generate", cwd=root).code == 0
    target = root / "hostile_errors" / "locales" / "de" / "LC_MESSAGES" / "messages.mo"
    good = target.read_bytes()
    assert b"charset=utf-8" in good and "Die Tür".encode() in good
    assert (
        load_module(root / "hostile_errors", f"hostile_errors_good_{damage}").message(
            "DOOR_CLOSED", "de"
        )
        == "Die Tür ist zu."
    )
    target.write_bytes(_DAMAGES[damage](good))
    # a name of its own: the package's submodules stay in sys.modules under it
    module = load_module(root / "hostile_errors", f"hostile_errors_{damage}")
    for _ in range(2):
        assert module.message("DOOR_CLOSED", "de") == "The door is closed."
        assert module.Translator("de").message("DOOR_CLOSED") == "The door is closed."


@pytest.mark.skipif(MSGFMT is None, reason="GNU gettext is not installed")
def test_gnu_gettext_accepts_the_repository_catalogs() -> None:
    for path in sorted((ROOT / "locales").rglob("*.po")):
        result = subprocess.run(
            ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "LC_ALL": "C"},
        )
        assert result.returncode == 0, result.stderr
        # Every catalog of the repository is complete: nothing fuzzy, nothing left over.
        assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, (
            path,
            result.stderr,
        )


def test_polish_translations_from_the_catalog_fixture_cover_three_forms() -> None:
    assert len(POLISH["ITEMS_REFUSED"]) == 3


@pytest.mark.parametrize(
    ("locale", "shown"),
    [
        (None, "1,048,576"),
        ("de", "1.048.576"),
        ("fr", "1\u202f048\u202f576"),
        ("pl", "1\xa0048\xa0576"),
        ("ja", "1,048,576"),
        ("ar", "\u20681,048,576\u2069"),
    ],
)
def test_whole_numbers_are_grouped_as_the_language_writes_them(
    locale: str | None, shown: str
) -> None:
    text = se.message("ACTION_TIMEOUT", locale, action="x", seconds=1048576)
    assert shown in text
    assert "999" in se.message("ACTION_TIMEOUT", locale, action="x", seconds=999)
    assert "-1" in se.message("ACTION_TIMEOUT", locale, action="x", seconds=-1000).replace(
        "\u2068", ""
    )


def test_only_integer_placeholders_are_grouped() -> None:
    """A whole number given for a text placeholder is text: written as it is."""
    assert "1048576" in se.message("PERMISSION_DENIED", "de", action=1048576)
    assert "1.048.576" in se.message("ACTION_TIMEOUT", "de", action=1048576, seconds=1048576)


def test_values_in_a_right_to_left_message_are_isolated() -> None:
    """An Arabic message keeps a version written left to right in its own order."""
    text = se.message("PROTOCOL_VERSION_UNSUPPORTED", "ar", requested="2024-11-05")
    assert "\u20682024-11-05\u2069" in text
    assert text.count("\u2068") == text.count("\u2069") == 1
    assert "\u2068" not in se.message("PROTOCOL_VERSION_UNSUPPORTED", "de", requested="v")
