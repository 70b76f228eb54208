"""The Plural-Forms header errorbook writes for each language, in one table.

Babel derives plural rules from CLDR, but its gettext rendering uses operands GNU gettext does
not know (``e``) and counts categories for fractions that gettext never selects (Polish gets
four forms, French three). Translators' tools (msginit, Weblate, Poedit) use the classic
integer formulas below, so errorbook writes and checks these. The tests prove that each one
partitions the integers exactly as Babel's CLDR rule does.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass

_ONE_FORM = "nplurals=1; plural=0;"
_NOT_ONE = "nplurals=2; plural=(n != 1);"
_ABOVE_ONE = "nplurals=2; plural=(n > 1);"
_EAST_SLAVIC = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);"
)

#: Language (or language_REGION) to its Plural-Forms value.
PLURAL_FORMS: dict[str, str] = {
    **dict.fromkeys(("ja", "ko", "zh", "vi", "th", "id", "ms", "lo", "my"), _ONE_FORM),
    **dict.fromkeys(
        (
            "en",
            "de",
            "nl",
            "sv",
            "da",
            "nb",
            "nn",
            "no",
            "fi",
            "et",
            "el",
            "he",
            "hu",
            "it",
            "es",
            "ca",
            "pt",
            "bg",
            "eo",
            "tr",
            "af",
            "eu",
            "gl",
            "sq",
            "az",
            "ka",
            "kk",
            "sw",
        ),
        _NOT_ONE,
    ),
    **dict.fromkeys(("fr", "pt_BR", "oc", "hy"), _ABOVE_ONE),
    **dict.fromkeys(("ru", "uk", "be", "sr", "hr", "bs"), _EAST_SLAVIC),
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "cs": "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);",
    "sk": "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);",
    "lt": (
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) "
        "? 1 : 2);"
    ),
    "lv": (
        "nplurals=3; plural=(n%10==0 || (n%100>=11 && n%100<=19) ? 0 : "
        "n%10==1 && n%100!=11 ? 1 : 2);"
    ),
    "ro": "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",
    "sl": "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
    "ar": (
        "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
        "n%100>=11 ? 4 : 5);"
    ),
}

_HEADER = re.compile(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*\Z", re.S)


@dataclass(frozen=True)
class PluralRule:
    count: int
    expression: str

    @property
    def header(self) -> str:
        return f"nplurals={self.count}; plural={self.expression};"

    def index(self, n: int) -> int:
        return int(gettext.c2py(self.expression)(n))


#: More digits than any count of plural forms has. Python refuses to convert a string of
#: over 4,300 digits to a number (a ValueError), and a translator's header may hold one.
_MAX_DIGITS = 9


def count(digits: str) -> int | None:
    """The number ``nplurals`` gives, or None when it has too many digits to be a count."""
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        return None
    return int(digits)


def parse(header: str) -> PluralRule | None:
    """A Plural-Forms value, or None when it is not of the form gettext reads."""
    match = _HEADER.match(header)
    if match is None:
        return None
    forms = count(match.group(1))
    if forms is None:
        return None
    expression = match.group(2).strip()
    if expression.endswith(";"):
        expression = expression[:-1].strip()
    return PluralRule(forms, expression)


def lookup(locale: str) -> PluralRule | None:
    """The rule for a locale tag such as ``pt_BR`` or ``zh_Hant``: the most specific entry."""
    parts = locale.split("_")
    for size in range(len(parts), 0, -1):
        header = PLURAL_FORMS.get("_".join(parts[:size]))
        if header is not None:
            return parse(header)
    return None


def same_rule(a: PluralRule, b: PluralRule) -> bool:
    """Equal up to white space and redundant outer parentheses."""

    def norm(expression: str) -> str:
        text = re.sub(r"\s+", "", expression)
        while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
            text = text[1:-1]
        return text

    return a.count == b.count and norm(a.expression) == norm(b.expression)


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def out_of_range(rule: PluralRule, upto: int = 1000) -> int | None:
    """The first n whose form index is not below nplurals, or None (also None if unparsable)."""
    try:
        select = gettext.c2py(rule.expression)
    except (ValueError, SyntaxError, RecursionError):
        return -1
    for n in range(upto + 1):
        try:
            form = select(n)
        except ArithmeticError:  # plural=(n%0)
            return -1
        if not 0 <= form < rule.count:
            return n
    return None


def samples(rule: PluralRule, upto: int = 1000) -> list[tuple[int, ...]]:
    """For each form of ``rule``, the first counts (up to three) that select it: what tells
    a reader which form is which, as msginit's and Poedit's form labels do."""
    found: list[list[int]] = [[] for _ in range(rule.count)]
    try:
        select = gettext.c2py(rule.expression)
        for n in range(upto + 1):
            form = select(n)
            if 0 <= form < rule.count and len(found[form]) < 3:
                found[form].append(n)
    except (ValueError, SyntaxError, RecursionError, ArithmeticError):
        pass
    return [tuple(counts) for counts in found]
