"""Locale facts the generated runtime needs, computed once at generation time from Babel.

Scripts, digit grouping and writing direction come from CLDR through Babel here; the
generated package carries them as small tables and never imports Babel.

The runtime negotiates locales with the standard library only, so what CLDR knows about
scripts (that ``zh_TW`` is written in Traditional Han, like ``zh_Hant``) is resolved here
from Babel's likely-subtags data and written into the generated module as a small table.
"""

from __future__ import annotations

from babel import Locale
from babel.core import get_global
from babel.numbers import format_decimal


def _script(tag: str) -> str | None:
    parts = tag.split("_")
    return next((p for p in parts[1:] if len(p) == 4), None)


def script_table(locales: tuple[str, ...]) -> dict[str, tuple[str, dict[str, str]]]:
    """For each language among ``locales``: its default script and the regions that differ.
    CLDR's likely subtags (about 8,000) are gone through once, in order, for all of them."""
    likely: dict[str, str] = dict(get_global("likely_subtags"))
    languages = sorted({tag.split("_")[0] for tag in locales})
    defaults = {language: _script(likely.get(language, "")) or "" for language in languages}
    regions: dict[str, dict[str, str]] = {language: {} for language in languages}
    for key, value in sorted(likely.items()):
        language, _, region = key.partition("_")
        if language in regions and "_" not in region and len(region) in (2, 3):
            script = _script(value)
            if script and script != defaults[language]:
                regions[language][region] = script
    return {language: (defaults[language], regions[language]) for language in languages}


def digit_groups(locales: tuple[str, ...]) -> dict[str, str]:
    """For each of ``locales`` that groups the digits of a whole number in threes: the
    separator CLDR gives it (``"."`` in German, a narrow no-break space in French), as
    Babel's format_decimal writes 1234567. The runtime groups integer values with it; a
    locale that groups otherwise (India's lakh, 12,34,567) is left out, and its integers
    are written as they are rather than grouped wrongly."""
    table: dict[str, str] = {}
    for tag in locales:
        written = format_decimal(1234567, locale=Locale.parse(tag))
        separator = written[1 : 1 + (len(written) - 7) // 2]
        if separator and written == f"1{separator}234{separator}567":
            table[tag] = separator
    return table


def right_to_left(locales: tuple[str, ...]) -> tuple[str, ...]:
    """Those of ``locales`` written right to left (CLDR's character order): the runtime
    isolates the values it puts into their messages (U+2068 ... U+2069), so that a value
    written left to right (a date, a version, a path) keeps its own order."""
    return tuple(t for t in locales if Locale.parse(t).character_order == "right-to-left")


#: The units CLDR names, by the words a registry writes them in: Babel formats these in any
#: language with their plural forms ("60 Sekunden"); another unit needs the registry's own
#: singular and its translators (see Limit.unit_one).
CLDR_UNITS = {
    "microseconds": "duration-microsecond",
    "milliseconds": "duration-millisecond",
    "ms": "duration-millisecond",
    "seconds": "duration-second",
    "s": "duration-second",
    "minutes": "duration-minute",
    "hours": "duration-hour",
    "days": "duration-day",
    "bytes": "digital-byte",
    "bits": "digital-bit",
}


def cldr_unit(unit: str) -> str | None:
    """The CLDR unit id of a registry's unit word (``seconds`` -> ``duration-second``)."""
    return CLDR_UNITS.get(unit.strip().lower())
