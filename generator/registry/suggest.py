"""'Did you mean' hints for names a person typed."""

from __future__ import annotations

import difflib


def closest(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    """A "did you mean" hint, or the list of choices when nothing is close."""
    close = closest(word, choices)
    if close:
        return f"did you mean '{close}'?"
    return "expected one of: " + ", ".join(choices)
