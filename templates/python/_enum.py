"""The base of the package's enums, in a module of its own: ``codes`` and ``_error_code``
(which ``codes`` imports on first use) both build on it."""

from __future__ import annotations

from enum import Enum


class _Value(str, Enum):
    """A str enum that prints as its value on every Python version (3.11 changed str())."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)
