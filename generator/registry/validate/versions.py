"""Versions: the registry's own and the dates in a code's life, all MAJOR.MINOR.PATCH."""

from __future__ import annotations

import re

from ...diagnostics import Diagnostics
from .. import schema
from ..fields import Fields
from ..loader import Scalar

SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\Z")  # ASCII digits only


def semver(value: str) -> tuple[int, int, int]:
    major, minor, patch = (int(part) for part in value.split("."))
    return major, minor, patch


def semver_field(f: Fields, name: str, found: Diagnostics) -> str | None:
    node = f.node(name)
    if isinstance(node, Scalar) and node.tag in ("float", "int"):
        found.error(
            "E-VERSION-NUMBER",
            node.mark,
            f"'{name}' must be a version MAJOR.MINOR.PATCH, not the number {node.value}",
            f"write it in full and in quotes, such as '{node.value}.0'"
            if node.tag == "float"
            else "write it as MAJOR.MINOR.PATCH, such as 1.0.0",
        )
        return None
    value = f.text(name)
    if value is not None and not SEMVER.match(value):
        found.error(
            "E-VERSION-FORMAT",
            f.mark(name),
            f"'{value}' is not a version MAJOR.MINOR.PATCH",
            "write three numbers without leading zeros, such as 1.2.0",
        )
        return None
    return value


def version_alone(top: Fields) -> str | None:
    """The registry's version when other metadata is broken (problems already reported)."""
    node = top.node("registry")
    if node is None:
        return None
    quiet = Diagnostics()
    return semver_field(Fields(node, schema.META, quiet, "'registry'"), "version", quiet)
