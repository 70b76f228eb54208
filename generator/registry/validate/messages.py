"""A code's placeholders and its UI message, checked against each other."""

from __future__ import annotations

from ...diagnostics import Diagnostics
from ...suggest import closest, suggest
from .. import placeholders, schema
from ..fields import Fields, entries, integer_value, text_value
from ..loader import Mapping, Scalar
from ..model import Message, Placeholder

MAX_MESSAGE = 2_000  # characters of one UI message form


def read_placeholders(
    f: Fields, where: str, found: Diagnostics, required: tuple[str, ...] = ()
) -> tuple[dict[str, Placeholder], tuple[str, ...]]:
    """The valid placeholders, and every declared name (valid or not) for the message checks,
    so that a broken declaration is reported once and not again as "not declared"."""
    node = f.node("placeholders")
    result: dict[str, Placeholder] = {}
    if node is None:
        return result, ()
    pairs = entries(node, "placeholder", found)
    for key, value in pairs:
        # Any name a message can use as {name} is accepted, Python keywords ('class') and the
        # generated functions' own arguments ('message') too: the runtime takes the values of
        # such names in its params= mapping (see RESERVED_PLACEHOLDERS).
        if not key.value.isidentifier() or not key.value.isascii():
            found.error(
                "E-PLACEHOLDER-NAME",
                key.mark,
                f"placeholder name '{key.value}' in {where} is not a plain identifier",
                "use letters, digits and '_', such as 'action'",
            )
            continue
        p = Fields(
            value, schema.PLACEHOLDER, found, f"placeholder '{key.value}' of {where}", key.mark
        )
        if not p.valid:
            continue
        description = p.text("description")
        kind = p.choice("type") or "text"
        example_node = p.node("example")
        example: str | int | None = None
        if isinstance(example_node, Scalar):
            if kind == "integer":
                if example_node.tag == "int":
                    example = integer_value(example_node, "example", where, found)
                else:
                    found.error(
                        "E-PLACEHOLDER-EXAMPLE",
                        example_node.mark,
                        f"the example of integer placeholder "
                        f"'{key.value}' in {where} is not an integer",
                        "write a whole number",
                    )
            else:
                example = text_value(example_node, "example", where, found)
        elif example_node is not None:
            found.error(
                "E-PLACEHOLDER-EXAMPLE",
                example_node.mark,
                f"the example of placeholder '{key.value}' must be a "
                f"single value, not {example_node.kind}",
                "write one example value",
            )
        for policy_key in required:
            wanted = policy_key.removeprefix("placeholders.")
            if policy_key.startswith("placeholders.") and not p.has(wanted):
                doc = schema.PLACEHOLDER.field(wanted).doc.split(";")[0]
                found.error(
                    "E-POLICY-MISSING-KEY",
                    key.mark,
                    f"placeholder '{key.value}' of {where} has no '{wanted}', which "
                    f"'registry.required' asks of every placeholder",
                    f"add '{wanted}:', {doc[0].lower()}{doc[1:]}",
                )
        if (description is not None or not p.has("description")) and (
            example is not None or not p.has("example")
        ):
            result[key.value] = Placeholder(
                name=key.value, description=description or "", example=example, type=kind
            )
    return result, tuple(key.value for key, _ in pairs)


def read_message(
    f: Fields,
    where: str,
    declared: dict[str, Placeholder],
    names: tuple[str, ...],
    found: Diagnostics,
    may_be_empty: bool = False,
) -> Message | None:
    """A code's message; ``may_be_empty`` for a code with sub-codes, which may write
    ``message: ""`` (and then declares no placeholders)."""
    node = f.node("message")
    if node is None:
        return None
    empty = isinstance(node, Scalar) and node.tag == "str" and not node.value.strip()
    if empty and not (isinstance(node, Scalar) and node.value == "" and may_be_empty):
        found.error(
            "E-MESSAGE-EMPTY",
            node.mark,
            f"the message of {where} is empty",
            "write the message; only a code with sub-codes (PARENT.SUB) may leave it "
            'empty, as message: ""',
        )
        return None
    if isinstance(node, Mapping):
        m = Fields(node, schema.MESSAGE, found, f"the message of {where}")
        one, other, count = m.text("one"), m.text("other"), m.text("count")
        forms = [(one, m.mark("one"), m.node("one")), (other, m.mark("other"), m.node("other"))]
        if count is not None:
            placeholder = declared.get(count)
            if count not in names:
                near = closest(count, names) if names else None
                found.error(
                    "E-PLURAL-COUNT-UNDECLARED",
                    m.mark("count"),
                    f"the plural message of {where} counts '{count}', "
                    "which is not one of its placeholders",
                    f"did you mean '{near}'?"
                    if near
                    else f"declare '{count}' under 'placeholders:' with type: integer",
                )
            elif placeholder is not None and placeholder.type != "integer":
                found.error(
                    "E-PLURAL-COUNT-TYPE",
                    m.mark("count"),
                    f"the count placeholder '{count}' of {where} is not an integer",
                    f"set 'type: integer' on placeholder '{count}'",
                )
    elif isinstance(node, Scalar):
        text = "" if empty else f.text("message")
        one, other, count = text, None, None
        forms = [(text, node.mark, node)]
    else:
        found.error(
            "E-SCHEMA-TYPE",
            node.mark,
            f"the message of {where} must be text or a mapping with one, "
            f"other and count, not {node.kind}",
            "write the message as one line of text",
        )
        return None
    used: set[str] = set()
    broken = False
    for index, (text, mark, written) in enumerate(forms):
        if text is None:
            continue
        if len(text) > MAX_MESSAGE:
            found.error(
                "E-MESSAGE-TOO-LONG",
                mark,
                f"the message of {where} is {len(text):,} characters long, more "
                f"than the {MAX_MESSAGE:,} a UI message may have",
                "shorten it; put detail into 'meaning' or the recovery steps",
            )
            continue
        parsed = placeholders.parse(text)
        for problem in sorted(parsed.problems, key=lambda problem: problem.offset):
            found.error(
                "E-PLACEHOLDER-SYNTAX",
                written.mark_at(problem.offset) if isinstance(written, Scalar) else mark,
                f"the message of {where} has {problem.message} at character {problem.offset + 1}",
                problem.hint,
            )
        used.update(parsed.names)
        for name in parsed.names:
            if name not in names:
                found.error(
                    "E-PLACEHOLDER-UNDECLARED",
                    mark,
                    f"the message of {where} uses placeholder '{{{name}}}', which is not declared",
                    f"declare '{name}' under 'placeholders:'"
                    if not names
                    else suggest(name, list(names), "placeholder"),
                )
        if parsed.problems:
            broken = True
            continue  # a broken field may be the missing placeholder: one report is enough
        is_singular_form = isinstance(node, Mapping) and index == 0
        for name in names:
            if name not in parsed.names and not (is_singular_form and name == count):
                found.error(
                    "E-PLACEHOLDER-UNUSED",
                    mark,
                    f"the message of {where} does not use its placeholder '{{{name}}}'",
                    "use it in the text, or remove its declaration",
                )
    if isinstance(node, Mapping):
        if one is None or other is None or count is None:
            return None
        if count not in used and count in names and not broken:
            found.error(
                "E-PLURAL-COUNT-UNUSED",
                node.mark,
                f"the plural message of {where} never shows its count '{{{count}}}'",
                f"use {{{count}}} in the 'other' form",
            )
        return Message(text=one, plural=other, count=count)
    return Message(text=one) if one is not None else None


#: The longest title: a summary, shown in a column of the code table and in a tab's name.
MAX_TITLE = 100
#: A title ends without a full stop, in any script (a heading, not a sentence).
_FULL_STOPS = (".", "\u3002", "\uff0e")


def read_title(f: Fields, where: str, found: Diagnostics) -> str | None:
    """A code's title: one short line, the same for every occurrence of the code (RFC 9457
    asks that of a problem's title), so without placeholders or any brace that could read as
    one, and without a final full stop. None when it is broken (reported here); "" when the
    code gives none."""
    title = f.text("title")
    if title is None:
        return "" if not f.has("title") else None
    mark = f.mark("title")
    brace = next((i for i, char in enumerate(title) if char in "{}"), None)
    if brace is not None:
        written = f.node("title")
        if isinstance(written, Scalar):
            mark = written.mark_at(brace)
        names = placeholders.parse(title).names
        if names:
            what = f"the placeholder '{{{names[0]}}}'"
            hint = "a title is the same for every occurrence: leave the value to the message"
        else:
            what = f"a brace '{title[brace]}'"
            hint = "write the title without braces: it is shown as written, never filled in"
        found.error(
            "E-TITLE-PLACEHOLDER",
            mark,
            f"the title of {where} has {what} at character {brace + 1}",
            hint,
        )
        return None
    problem = hint = ""
    if "\n" in title:
        problem, hint = "is more than one line", "write it on one line"
    elif "\t" in title:
        problem, hint = "holds a tab", "write a space instead"
    elif title != title.strip():
        problem, hint = "starts or ends with white space", "remove the white space"
    elif title.endswith(_FULL_STOPS):
        problem, hint = "ends in a full stop", "remove it: a title is a heading, not a sentence"
    elif len(title) > MAX_TITLE:
        problem = f"is {len(title):,} characters long, more than the {MAX_TITLE} a title may have"
        hint = "shorten it to a few words; put the detail into 'meaning'"
    if problem:
        found.error("E-TITLE-FORM", mark, f"the title of {where} {problem}", hint)
        return None
    return title
