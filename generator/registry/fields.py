"""Reading one YAML mapping against its :class:`~generator.registry.schema.ObjectSchema`.

The validator asks for fields by name and type; this module does the checks every field
shares (unknown keys with a "did you mean", duplicate and missing keys, wrong types with a
hint to quote) so that the registry rules in :mod:`generator.registry.validate` stay short.
"""

from __future__ import annotations

import contextlib
import re

from ..diagnostics import Diagnostics, Mark
from ..suggest import closest, some_of, suggest
from .loader import Mapping, Node, Scalar, Sequence
from .schema import ObjectSchema

#: A schema of at most this many keys is listed whole in a hint.
MAX_KEYS_LISTED = 12

IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*\Z")


def entries(node: Node, what: str, found: Diagnostics) -> list[tuple[Scalar, Node]]:
    """The (key, value) pairs of a section such as ``codes:``, each key named once."""
    if not isinstance(node, Mapping):
        found.error(
            "E-SCHEMA-NOT-MAPPING",
            node.mark,
            f"'{what}s' must be a mapping of {what} names to {what}s, not {node.kind}",
            f"write each {what} as 'NAME:' followed by its fields",
        )
        return []
    seen: dict[str, Scalar] = {}
    result: list[tuple[Scalar, Node]] = []
    for key, value in node.pairs:
        first = seen.get(key.value)
        if first is not None:
            found.error(
                "E-NAME-DUPLICATE",
                key.mark,
                f"{what} '{key.value}' is defined twice (first at line {first.mark.line})",
                f"remove or rename one of the two {what}s",
            )
            continue
        seen[key.value] = key
        result.append((key, value))
    return result


def _fields_hint(schema: ObjectSchema) -> str:
    """How to write a mapping of ``schema``: its keys, or its required ones when it has
    many (a code's schema grows with the fields a registry declares)."""
    required = [field.name for field in schema.fields if field.required]
    if len(schema.names) <= MAX_KEYS_LISTED or not required:
        return "give its fields as 'key: value' lines: " + some_of(schema.names, MAX_KEYS_LISTED)
    return "give its fields as 'key: value' lines, starting with " + ", ".join(required)


class Fields:
    """Typed, checked access to the fields of one mapping node."""

    def __init__(
        self,
        node: Node,
        schema: ObjectSchema,
        found: Diagnostics,
        where: str,
        anchor: Mark | None = None,
    ) -> None:
        self.schema = schema
        self.found = found
        self.where = where
        self.anchor = anchor or node.mark
        self.nodes: dict[str, Node] = {}
        self.keys: dict[str, Scalar] = {}
        # The keys unknown keys already point at, with the unknown keys' values.
        self.misspelt_nodes: dict[str, list[Node]] = {}
        if not isinstance(node, Mapping):
            found.error(
                "E-SCHEMA-NOT-MAPPING",
                node.mark,
                f"{where} must be a mapping, not {node.kind}",
                _fields_hint(schema),
            )
            self.valid = False
            return
        self.valid = True
        for key, value in node.pairs:
            if key.value in self.keys:
                found.error(
                    "E-SCHEMA-DUPLICATE-KEY",
                    key.mark,
                    f"key '{key.value}' appears twice in {where} (first at line "
                    f"{self.keys[key.value].mark.line})",
                    "keep one of the two",
                )
                continue
            if key.value not in schema.known:
                meant = closest(key.value, schema.names) or ""
                self.misspelt_nodes.setdefault(meant, []).append(value)
                found.error(
                    "E-SCHEMA-UNKNOWN-KEY",
                    key.mark,
                    f"unknown key '{key.value}' in {where}",
                    suggest(key.value, schema.names, "key"),
                )
                continue
            self.keys[key.value] = key
            self.nodes[key.value] = value
        for field in schema.fields:
            if (
                field.required
                and field.name not in self.nodes
                and field.name not in self.misspelt_nodes
            ):
                doc = field.doc.rstrip(".")
                found.error(
                    "E-SCHEMA-MISSING-KEY",
                    self.anchor,
                    f"{where} has no '{field.name}'",
                    f"add '{field.name}:', {doc[0].lower()}{doc[1:]}",
                )

    def has(self, name: str) -> bool:
        return name in self.nodes

    def mark(self, name: str) -> Mark:
        node = self.nodes.get(name)
        return node.mark if node is not None else self.anchor

    def node(self, name: str) -> Node | None:
        assert name in self.schema.known, name
        return self.nodes.get(name)

    def _scalar(self, name: str, tag: str, expected: str, hint: str = "") -> Scalar | None:
        node = self.node(name)
        if node is None:
            return None
        if not isinstance(node, Scalar) or node.tag != tag:
            if hint:
                pass
            elif isinstance(node, Scalar) and node.tag == "null":
                hint = f"write {expected} after '{name}:'"
            elif tag == "str" and isinstance(node, Scalar):
                hint = "put the value in quotes"
            elif isinstance(node, Scalar):
                hint = f"write {expected}"
            else:  # a list or a mapping where one value belongs
                hint = f"write one value, {expected}, not {node.kind}"
            self.found.error(
                "E-SCHEMA-TYPE",
                node.mark,
                f"'{name}' in {self.where} must be {expected}, not {node.kind}",
                hint,
            )
            return None
        return node

    def text(self, name: str, hint: str = "") -> str | None:
        """A text field; ``hint`` replaces "put the value in quotes" for a non-text value."""
        node = self._scalar(name, "str", "text", hint)
        if node is None:
            return None
        return text_value(node, name, self.where, self.found)

    def integer(self, name: str) -> int | None:
        node = self._scalar(name, "int", "an integer")
        if node is None:
            return None
        return integer_value(node, name, self.where, self.found)

    def identifier(self, name: str) -> str | None:
        value = self.text(name)
        if value is not None and not IDENTIFIER.match(value):
            self.found.error(
                "E-SCHEMA-IDENTIFIER",
                self.mark(name),
                f"'{name}' in {self.where} must be a lower-case identifier, not '{value}'",
                "use a-z, 0-9 and '_', such as 'billing'",
            )
            return None
        return value

    def choice(self, name: str) -> str | None:
        value = self.text(name)
        choices = self.schema.field(name).choices
        if value is not None and value not in choices:
            self.found.error(
                "E-SCHEMA-CHOICE",
                self.mark(name),
                f"'{value}' is not a valid '{name}' in {self.where}",
                suggest(value, choices),
            )
            return None
        return value

    def text_list(self, name: str) -> list[tuple[str, Mark]]:
        node = self.node(name)
        if node is None:
            return []
        if not isinstance(node, Sequence):
            self.found.error(
                "E-SCHEMA-TYPE",
                node.mark,
                f"'{name}' in {self.where} must be a list, not {node.kind}",
                "write one '- item' line per entry, or [a, b] on one line",
            )
            return []
        result = []
        for item in node.items:
            if not isinstance(item, Scalar) or item.tag != "str":
                self.found.error(
                    "E-SCHEMA-TYPE",
                    item.mark,
                    f"each entry of '{name}' in {self.where} must be text, not {item.kind}",
                    "put the entry in quotes",
                )
                continue
            value = text_value(item, name, self.where, self.found)
            if value is not None:
                result.append((value, item.mark))
        return result


DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9_]*)\Z")
#: The largest integer a JSON reader in JavaScript (the TypeScript module, a browser) holds
#: exactly: 2**53 - 1. Every integer of the registry reaches codes.json and the TypeScript
#: module, so a larger one would change on its way there.
MAX_EXACT = 2**53 - 1


def integer_value(node: Scalar, name: str, where: str, found: Diagnostics) -> int | None:
    """A decimal integer from -(2**53 - 1) to 2**53 - 1 (:data:`MAX_EXACT`). YAML 1.1 also
    reads 030 as octal, 0x1F as hex and 5:00 as 300; such a value is refused, since nobody
    writes a timeout in base 60 on purpose."""
    text = node.value
    if DECIMAL.match(text):
        digits = text.lstrip("+-").replace("_", "")
        # The length first: Python refuses to convert more than 4,300 digits at all.
        if len(digits) <= len(str(MAX_EXACT)) and int(digits) <= MAX_EXACT:
            return int(text.replace("_", ""))
        found.error(
            "E-SCHEMA-INTEGER-RANGE",
            node.mark,
            f"'{name}' in {where} is {_shown(text)}, beyond what JSON and TypeScript hold "
            f"exactly (up to {MAX_EXACT:,} either side of zero)",
            f"write a number from -{MAX_EXACT} to {MAX_EXACT}",
        )
        return None
    body = text.lstrip("+-").replace("_", "")
    if ":" in body:
        hint = "write a whole number"
        with contextlib.suppress(ValueError):
            meant = 0
            for part in body.split(":"):
                meant = meant * 60 + int(part or "0")
            hint = f"write a whole number, such as {meant}"
    elif body[:2].lower() in ("0x", "0b", "0o"):
        hint = "write it in decimal"
        with contextlib.suppress(ValueError):
            hint = f"write it in decimal, such as {int(body, 0)}"
    else:
        hint = "write a whole number in decimal digits"
        with contextlib.suppress(ValueError):
            hint = f"write it without leading zeros, such as {int(body)}"
    found.error(
        "E-SCHEMA-INTEGER",
        node.mark,
        f"'{name}' in {where} must be a decimal integer, not {text}",
        hint,
    )
    return None


def _shown(digits: str) -> str:
    """A number as a diagnostic names it: a very long one by its ends and its length."""
    if len(digits) <= 40:
        return digits
    return f"{digits[:12]}...{digits[-4:]} ({len(digits):,} characters)"


#: Control characters that would reach terminals, PO files and pages as raw bytes. Tab and
#: newline are text; NEL and the Unicode line separators split lines differently per tool.
MAX_TEXT = 20_000  # characters of one text value (prose); messages have their own limit
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def text_value(node: Scalar, name: str, where: str, found: Diagnostics) -> str | None:
    """The text of a scalar; a block scalar's final newline is YAML's, not the author's."""
    value = node.value.rstrip("\n") if node.block else node.value
    if not value.strip():
        found.error(
            "E-SCHEMA-EMPTY-TEXT",
            node.mark,
            f"'{name}' in {where} is empty",
            "write the text, or remove the key",
        )
        return None
    if len(value) > MAX_TEXT:
        found.error(
            "E-SCHEMA-TEXT-TOO-LONG",
            node.mark,
            f"'{name}' in {where} is {len(value):,} characters long, more "
            f"than the {MAX_TEXT:,} allowed",
            "shorten it; link to a longer text instead",
        )
        return None
    control = _CONTROL.search(value)
    if control is not None:
        found.error(
            "E-SCHEMA-CONTROL-CHARACTER",
            node.mark_at(control.start()),
            f"'{name}' in {where} contains the control character "
            f"U+{ord(control.group()):04X} at character {control.start() + 1}",
            "remove it; only tab and newline are allowed in text",
        )
        return None
    return value
