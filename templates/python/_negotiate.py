"""Which shipped locales answer a locale a caller asks for: the runtime's negotiation.

Pure functions of their arguments and the standard library, so that ``errorbook explain``
negotiates with this very code (it loads this file) and never disagrees with the runtime.
``i18n`` passes the package's own tables: its translated locales, its source locale and
the scripts CLDR gives each language (``codes.SCRIPTS``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


def parse(tag: str) -> tuple[str, str | None, str | None] | None:
    """(language, script, region) of a tag such as ``de-AT``, ``zh_Hant_TW``, ``de_AT.UTF-8``."""
    base = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip()
    parts = [p for p in base.split("_") if p]
    if not parts or not _letters(parts[0]) or parts[0].upper() in ("C", "POSIX"):
        return None
    language, script, region = parts[0].lower(), None, None
    for part in parts[1:]:
        if len(part) == 4 and _letters(part):
            script = part.title()
        elif (len(part) == 2 and _letters(part)) or (len(part) == 3 and _digits(part)):
            region = part.upper()
    return language, script, region


def _letters(part: str) -> bool:
    """Whether ``part`` is ASCII letters, as a BCP 47 subtag is. ``str.isalpha()`` alone takes
    any letter of the interpreter's Unicode version (13.0 in Python 3.10, 15.1 in 3.13), so a
    tag would mean one thing on one Python and another on the next, and not what the
    TypeScript runtime reads it as."""
    return part.isascii() and part.isalpha()


def _digits(part: str) -> bool:
    """Whether ``part`` is ASCII digits (``str.isdigit()`` also takes ``١٢٣``)."""
    return part.isascii() and part.isdigit()


def script_of(
    scripts: Mapping[str, tuple[str, Mapping[str, str]]],
    language: str,
    script: str | None,
    region: str | None,
) -> str | None:
    """The script a tag is written in: its own, else the region's or the language's."""
    if script is not None:
        return script
    default, regions = scripts.get(language, ("", {}))
    return regions.get(region or "", default) or None


def chain(
    locale: str | None,
    translated: Sequence[str],
    scripts: Mapping[str, tuple[str, Mapping[str, str]]],
    source: str,
) -> tuple[str, ...]:
    """The locales of ``translated`` to try for ``locale``, best first, then ``source``: the
    tag itself and its shorter forms, then the language's other locales in the same script."""
    found: list[str] = []
    parsed = parse(locale) if locale else None
    if parsed is not None:
        language, script, region = parsed
        for candidate in (
            "_".join(p for p in (language, script, region) if p),
            "_".join(p for p in (language, script) if p),
            "_".join(p for p in (language, region) if p),
            language,
        ):
            if candidate in translated and candidate not in found:
                found.append(candidate)
        wanted = script_of(scripts, language, script, region)
        same_script = []
        for tag in translated:
            other = parse(tag)
            if other is None or other[0] != language or tag in found:
                continue
            if script_of(scripts, *other) == wanted:
                same_script.append((other[2] != region, tag))
        found += [tag for _, tag in sorted(same_script)]
    found.append(source)
    return tuple(found)
