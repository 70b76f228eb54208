"""Declared extra fields: the 'fields' section, and each code's values for them.

A registry declares per-code metadata of its own (a SQLSTATE, a severity, a component) with a
type, a description, whether codes must give it, what a change of it means to ``diff`` and
whether the site shows it as a column. A code may then carry each declared field as a key of
its own; a key nobody declared stays an unknown key, with a "did you mean" pointing at the
declared ones (see :func:`~generator.registry.schema.code_schema`).
"""

from __future__ import annotations

import functools
import keyword
import re

from ...diagnostics import Diagnostics
from ...suggest import suggest
from .. import regex, schema
from ..fields import IDENTIFIER, Fields, entries, integer_value, text_value
from ..loader import Node, Scalar, Sequence
from ..model import ExtraField, ExtraValue, FrozenMap

#: Options that only some types take: a declaration giving one to another type is refused.
_OPTIONS = {
    "pattern": ("string", "list"),
    "min": ("integer",),
    "max": ("integer",),
    "values": ("choice",),
}


def read_declarations(top: Fields, found: Diagnostics) -> tuple[ExtraField, ...]:
    """The registry's declared fields, in the order written; invalid ones are left out."""
    node = top.node("fields")
    if node is None:
        return ()
    result = []
    builtin = schema.CODE.names
    for key, value in entries(node, "field", found):
        name = key.value
        if not IDENTIFIER.match(name) or keyword.iskeyword(name):
            found.error(
                "E-FIELD-NAME",
                key.mark,
                f"field name '{name}' is not a lower-case identifier a program can use",
                "use a-z, 0-9 and '_', starting with a letter, and no Python keyword",
            )
            continue
        if name in builtin:
            found.error(
                "E-FIELD-NAME",
                key.mark,
                f"field '{name}' is already a key of every code",
                "choose another name for the extra field",
            )
            continue
        declared = _declaration(key, value, found)
        if declared is not None:
            result.append(declared)
    return tuple(result)


def _boolean(f: Fields, name: str) -> bool:
    node = f.node(name)
    if node is None:
        return False
    if not isinstance(node, Scalar) or node.tag != "bool":
        f.found.error(
            "E-SCHEMA-TYPE",
            node.mark,
            f"'{name}' in {f.where} must be true or false, not {node.kind}",
            "write true or false without quotes",
        )
        return False
    return node.value.lower() in ("true", "yes", "on")


def _declaration(key: Scalar, node: Node, found: Diagnostics) -> ExtraField | None:
    where = f"field '{key.value}'"
    f = Fields(node, schema.EXTRA_FIELD, found, where, key.mark)
    if not f.valid:
        return None
    before = len(found.items)
    kind, description = f.choice("type"), f.text("description")
    required, column = _boolean(f, "required"), _boolean(f, "column")
    compat = f.choice("compat") if f.has("compat") else "breaking"
    if kind is not None:
        for option, kinds in _OPTIONS.items():
            if f.has(option) and kind not in kinds:
                found.error(
                    "E-FIELD-OPTION",
                    f.keys[option].mark,
                    f"{where} is of type '{kind}', which takes no '{option}'",
                    f"remove '{option}:'; it applies to type {' or '.join(kinds)}",
                )
    pattern = f.text("pattern")
    if pattern is not None:
        try:
            compiled(pattern)
        except re.error as exc:
            found.error(
                "E-FIELD-PATTERN-INVALID",
                f.mark("pattern"),
                f"the pattern of {where} is not a valid regular expression: {exc}",
                "write a Python regular expression, such as '^[0-9A-Z]{5}$'",
            )
        except regex.RegexError as exc:
            found.error(
                "E-PATTERN-UNSUPPORTED",
                f.mark("pattern"),
                f"the pattern of {where} uses {exc}, which errorbook does not match",
                regex.HINT,
            )
    low, high = f.integer("min"), f.integer("max")
    if low is not None and high is not None and low > high:
        found.error(
            "E-FIELD-RANGE",
            f.mark("min"),
            f"{where} has min {low} above max {high}",
            "swap the two values",
        )
    values = f.text_list("values")
    seen: list[str] = []
    for value, mark in values:
        if value in seen:
            found.error(
                "E-REF-DUPLICATE",
                mark,
                f"{where} lists value '{value}' twice in 'values'",
                "remove the second entry",
            )
        seen.append(value)
    if kind == "choice" and not values and not f.has("values"):
        found.error(
            "E-FIELD-NO-VALUES",
            key.mark,
            f"{where} is a choice but lists no 'values'",
            "add 'values:' with the values a code may choose from",
        )
    if len(found.items) > before or kind is None or description is None or compat is None:
        return None
    return ExtraField(
        name=key.value,
        type=kind,
        description=description,
        required=required,
        compat=compat,
        column=column,
        pattern=pattern,
        minimum=low,
        maximum=high,
        values=tuple(seen),
    )


#: A field's pattern compiled once per run, however many codes it checks.
compiled = functools.lru_cache(maxsize=256)(regex.compile)


def read_values(
    f: Fields, declared: tuple[ExtraField, ...], where: str, found: Diagnostics
) -> FrozenMap:
    """A code's values for the declared fields it gives, each checked against its declaration."""
    values: dict[str, ExtraValue] = {}
    for field in declared:
        node = f.node(field.name)
        if node is None:
            continue
        value = _value(field, node, where, found)
        if value is not None:
            values[field.name] = value
    return FrozenMap(values)


def _value(field: ExtraField, node: Node, where: str, found: Diagnostics) -> ExtraValue | None:
    expected, hint = {
        "string": ("text", "put the value in quotes"),
        "choice": ("text", "put the value in quotes"),
        "integer": ("an integer", "write a whole number without quotes"),
        "boolean": ("true or false", "write true or false without quotes"),
        "list": ("a list", "write one '- item' line per entry, or [a, b] on one line"),
    }[field.type]
    tag = {"string": "str", "choice": "str", "integer": "int", "boolean": "bool"}.get(field.type)
    if (tag is None and not isinstance(node, Sequence)) or (
        tag is not None and (not isinstance(node, Scalar) or node.tag != tag)
    ):
        if not isinstance(node, Scalar) and field.type != "list":
            hint = f"write {expected}"
        found.error(
            "E-SCHEMA-TYPE",
            node.mark,
            f"'{field.name}' in {where} must be {expected}, not {node.kind}",
            hint,
        )
        return None
    if field.type == "boolean":
        assert isinstance(node, Scalar)
        return node.value.lower() in ("true", "yes", "on")
    if field.type == "integer":
        assert isinstance(node, Scalar)
        number = integer_value(node, field.name, where, found)
        if number is None:
            return None
        low = field.minimum if field.minimum is not None else number
        high = field.maximum if field.maximum is not None else number
        if not low <= number <= high:
            bounds = (
                f"{field.minimum}..{field.maximum}"
                if field.minimum is not None and field.maximum is not None
                else f"at least {field.minimum}"
                if field.minimum is not None
                else f"at most {field.maximum}"
            )
            found.error(
                "E-FIELD-OUT-OF-RANGE",
                node.mark,
                f"'{field.name}' in {where} is {number}, outside its range {bounds}",
                f"use a value the declaration of '{field.name}' allows",
            )
            return None
        return number
    if field.type == "list":
        assert isinstance(node, Sequence)
        items: list[str] = []
        for item in node.items:
            if not isinstance(item, Scalar) or item.tag != "str":
                found.error(
                    "E-SCHEMA-TYPE",
                    item.mark,
                    f"each entry of '{field.name}' in {where} must be text, not {item.kind}",
                    "put the entry in quotes",
                )
                return None
            text = text_value(item, field.name, where, found)
            if text is None or not _matches(field, text, item, where, found):
                return None
            items.append(text)
        return tuple(items)
    assert isinstance(node, Scalar)
    text = text_value(node, field.name, where, found)
    if text is None:
        return None
    if field.type == "choice" and text not in field.values:
        found.error(
            "E-SCHEMA-CHOICE",
            node.mark,
            f"'{text}' is not a valid '{field.name}' in {where}",
            suggest(text, field.values, "value"),
        )
        return None
    if not _matches(field, text, node, where, found):
        return None
    return text


def _matches(field: ExtraField, text: str, node: Scalar, where: str, found: Diagnostics) -> bool:
    if field.pattern is None or compiled(field.pattern).fullmatch(text):
        return True
    found.error(
        "E-FIELD-PATTERN-MISMATCH",
        node.mark,
        f"'{field.name}' in {where} is '{text}', which does not match {field.pattern}",
        f"write a value matching the pattern declared for '{field.name}'",
    )
    return False
