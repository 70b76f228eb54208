"""'Did you mean' hints for names a person typed.

A hint names a handful of candidates at most, never a whole registry: a mistyped reference
in a registry of 10,000 codes gets three names, not 10,000. Numbered names are read as
numbers: for ``TEMP_1200`` the names of the same stem nearest in number (``TEMP_1199``,
``TEMP_1201``) come before names that are merely spelt alike (``TEMP_3200``). The candidates
and their order depend on the word and the choices alone, never on anything else.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence

#: The most candidates a hint names.
MAX_CANDIDATES = 3

#: A closed set of at most this many choices (a schema's keys, the wires) is listed whole
#: when nothing is close; a larger one is not.
MAX_LISTED = 8

#: The least difflib ratio of a name spelt alike, and how far behind the best one a second
#: candidate may be.
CUTOFF = 0.6
MARGIN = 0.1

_DIGITS = re.compile(r"[0-9]+")


@functools.lru_cache(maxsize=1 << 16)
def _numbered(name: str) -> tuple[str, tuple[int, ...]] | None:
    """A name's stem (its digits replaced by '#') and its numbers; None without digits."""
    numbers = tuple(int(run) for run in _DIGITS.findall(name))
    return (_DIGITS.sub("#", name), numbers) if numbers else None


def nearest(word: str, choices: Sequence[str], n: int = MAX_CANDIDATES) -> list[str]:
    """Up to ``n`` choices close to ``word``, the closest first: the names of the same stem
    nearest in number, then the names spelt most alike."""
    found: list[str] = []
    numbered = _numbered(word)
    if numbered is not None:
        stem, numbers = numbered
        same: list[tuple[int, str]] = []
        for choice in choices:
            other = _numbered(choice)
            if other is not None and other[0] == stem and choice != word:
                distance = sum(abs(a - b) for a, b in zip(numbers, other[1], strict=True))
                same.append((distance, choice))
        found = [choice for _, choice in sorted(same)[:n]]
    if len(found) < n:
        found += [choice for choice in _alike(word, choices) if choice not in found][
            : n - len(found)
        ]
    return found


def _alike(word: str, choices: Sequence[str]) -> list[str]:
    """The choices spelt like ``word`` (difflib's ratio of at least :data:`CUTOFF`), the most
    alike first, ties by name; those far behind the best are left out: next to 'colour' for
    'color', 'collar' is noise.

    ``ratio`` is the costly part and never exceeds ``quick_ratio``, so the choices are scored
    in falling order of their quick ratio, and scoring stops where that bound falls below what
    can still be kept: in a registry of many similar names, most are never scored."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounded = []
    for choice in choices:
        matcher.set_seq1(choice)
        if matcher.real_quick_ratio() >= CUTOFF:
            bound = matcher.quick_ratio()
            if bound >= CUTOFF:
                bounded.append((-bound, choice))
    bounded.sort()
    scored: list[tuple[float, str]] = []
    best = 0.0
    for negative, choice in bounded:
        if -negative < max(CUTOFF, best - MARGIN):
            break  # no choice from here on can reach the kept range
        matcher.set_seq1(choice)
        ratio = matcher.ratio()
        if ratio >= CUTOFF:
            scored.append((-ratio, choice))
            best = max(best, ratio)
    scored.sort()
    return [choice for ratio, choice in scored if -ratio >= best - MARGIN]


def closest(word: str, choices: Sequence[str]) -> str | None:
    close = nearest(word, choices, 1)
    return close[0] if close else None


def quoted(names: Sequence[str]) -> str:
    """'a', 'b' or 'c'."""
    shown = [f"'{name}'" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def suggest(word: str, choices: Sequence[str], what: str = "name") -> str:
    """A "did you mean" hint naming the nearest choices; when nothing is close, the choices
    of a small closed set, or a short "no ``what`` has a similar name"."""
    close = nearest(word, choices)
    if close:
        return f"did you mean {quoted(close)}?"
    if len(choices) <= MAX_LISTED:
        return "expected one of: " + ", ".join(choices)
    return f"no {what} has a similar name"


def some_of(choices: Sequence[str], limit: int = MAX_LISTED) -> str:
    """The choices of a small set, or the first few of a large one and how many there are."""
    if len(choices) <= limit:
        return ", ".join(choices)
    return ", ".join(choices[:MAX_CANDIDATES]) + f" or another of the {len(choices):,}"
