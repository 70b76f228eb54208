"""Locale facts the generated runtime needs, computed once at generation time from Babel.

The runtime negotiates locales with the standard library only, so what CLDR knows about
scripts (that ``zh_TW`` is written in Traditional Han, like ``zh_Hant``) is resolved here
from Babel's likely-subtags data and written into the generated module as a small table.
"""

from __future__ import annotations

from babel.core import get_global


def _script(tag: str) -> str | None:
    parts = tag.split("_")
    return next((p for p in parts[1:] if len(p) == 4), None)


def script_table(locales: tuple[str, ...]) -> dict[str, tuple[str, dict[str, str]]]:
    """For each language among ``locales``: its default script and the regions that differ."""
    likely: dict[str, str] = dict(get_global("likely_subtags"))
    table: dict[str, tuple[str, dict[str, str]]] = {}
    for language in sorted({tag.split("_")[0] for tag in locales}):
        default = _script(likely.get(language, "")) or ""
        regions = {}
        for key, value in sorted(likely.items()):
            parts = key.split("_")
            if len(parts) == 2 and parts[0] == language and len(parts[1]) in (2, 3):
                script = _script(value)
                if script and script != default:
                    regions[parts[1]] = script
        table[language] = (default, regions)
    return table
