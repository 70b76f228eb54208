"""The locale tables the generated runtime carries, against CLDR read the plain way."""

from __future__ import annotations

from babel.core import get_global

from generator.catalogs.locales import script_table


def _one_language(language: str) -> tuple[str, dict[str, str]]:
    """A language's default script and the regions written in another, from CLDR's likely
    subtags, looked up for this language alone."""
    likely: dict[str, str] = dict(get_global("likely_subtags"))

    def script(tag: str) -> str | None:
        return next((part for part in tag.split("_")[1:] if len(part) == 4), None)

    default = script(likely.get(language, "")) or ""
    regions = {}
    for key in sorted(likely):
        parts = key.split("_")
        if len(parts) == 2 and parts[0] == language and len(parts[1]) in (2, 3):
            found = script(likely[key])
            if found and found != default:
                regions[parts[1]] = found
    return default, regions


def test_the_script_table_is_each_languages_own_lookup() -> None:
    """script_table goes through CLDR's likely subtags once for every language asked; each
    language must come out as looking it up alone gives, in the same order: for a sample of
    the languages CLDR knows, those written in several scripts, and tags with a script or
    a region."""
    known = sorted({key.split("_")[0] for key in get_global("likely_subtags")})
    several = ["az", "bs", "ha", "ks", "mn", "ms", "pa", "sd", "sr", "uz", "vai", "zh"]
    languages = sorted({*known[::97], *several})
    table = script_table(tuple(languages))
    assert list(table) == languages
    for language in languages:
        expected = _one_language(language)
        assert table[language] == expected
        assert list(table[language][1].items()) == list(expected[1].items())
    asked = ("zh_TW", "sr_Latn", "uz_Arab", "de_AT", "pa")
    assert script_table(asked) == {x: _one_language(x) for x in ("de", "pa", "sr", "uz", "zh")}
