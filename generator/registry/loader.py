"""Reading a YAML file into a tree of nodes that remember where they came from.

PyYAML's own loaders drop positions once they build Python objects, silently keep the last of
two duplicate keys, and expand aliases without bound. This module therefore composes the node
tree itself from PyYAML's event stream (the C parser where present): every node keeps its line
and column, every key of a mapping is kept in order (duplicates included, so the validator can
name them), and anchors, aliases and custom tags are refused before anything is expanded.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml
from yaml.resolver import Resolver

from ..diagnostics import Diagnostics, InvalidInput, Mark, invalid
from .source import read_file

#: Limits that keep a hostile or broken file from costing unbounded time or memory (the
#: largest file read, MAX_BYTES, is :mod:`.source`'s).
MAX_DEPTH = 32

_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = Resolver()
_TAGS = {
    "tag:yaml.org,2002:str": "str",
    "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float",
    "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
}
_HINTS = {
    "mapping values are not allowed": "quote a value that contains ': ', or check the indentation",
    "could not find expected ':'": "a key needs ':' after it; look for an unclosed quote above",
    "did not find expected key": "check the indentation of this line against its siblings",
    "found undefined alias": "anchors and aliases are not supported; write the value out",
}


@dataclass
class Node:
    mark: Mark

    @property
    def kind(self) -> str:
        raise NotImplementedError


@dataclass
class Scalar(Node):
    """A scalar with its resolved YAML type: str, int, float, bool or null."""

    value: str = ""
    tag: str = "str"
    block: bool = False  # a literal (|) or folded (>) block scalar
    # The characters from the scalar's start to its end when both are on one line (-1 when
    # not), and whether it is quoted: with them, a character of the value has its column.
    span: int = -1
    quoted: bool = False

    def mark_at(self, offset: int) -> Mark:
        """Where the value's character ``offset`` is written: its own column where the value
        stands on one line as it reads (plain, or quoted without an escape or a doubled
        quote), else the value's start."""
        quote = 1 if self.quoted else 0
        if self.block or self.span != len(self.value) + 2 * quote:
            return self.mark
        return Mark(self.mark.path, self.mark.line, self.mark.column + quote + offset)

    @property
    def kind(self) -> str:
        return {
            "str": "text",
            "int": "an integer",
            "float": "a number",
            "bool": "a boolean",
            "null": "an empty value",
        }[self.tag]


@dataclass
class Sequence(Node):
    items: list[Node] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "a list"


@dataclass
class Mapping(Node):
    """A mapping whose pairs stay in file order; duplicate keys are kept for the validator."""

    pairs: list[tuple[Scalar, Node]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "a mapping"


class _YamlMark(Protocol):
    line: int
    column: int


def _mark(path: str, event_mark: _YamlMark | None) -> Mark:
    if event_mark is None:
        return Mark(path, 1, 1)
    return Mark(path, event_mark.line + 1, event_mark.column + 1)


def decode(data: bytes, path: str) -> str:
    """UTF-8 text of a file, or a diagnostic pointing at the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        line_start = head.rfind(b"\n") + 1
        column = len(head[line_start:].decode("utf-8", "replace")) + 1
        raise invalid(
            "E-FILE-NOT-UTF8",
            Mark(path, line, column),
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            "save the file with UTF-8 encoding",
        ) from None


_SEPARATORS = re.compile("[\x85\u2028\u2029]")


def load_text(text: str, path: str) -> Node:
    """Compose one YAML document into a :class:`Node` tree, or raise :class:`InvalidInput`."""
    found = Diagnostics()
    separator = _SEPARATORS.search(text)
    if separator is not None:  # YAML reads these as line breaks: text and lines would shift
        head = text[: separator.start()]
        found.error(
            "E-YAML-LINE-SEPARATOR",
            Mark(path, head.count("\n") + 1, separator.start() - head.rfind("\n")),
            f"the character U+{ord(separator.group()):04X} (a line separator) is not allowed",
            "remove it; write \\n inside double quotes for a new line",
        )
        raise InvalidInput(found)
    try:
        root = _compose(text, path, found)
    except yaml.MarkedYAMLError as exc:
        where, problem, hint = _explain_syntax(exc, text, path)
        found.error("E-YAML-SYNTAX", where, f"invalid YAML: {problem}", hint)
        raise InvalidInput(found) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow in a file
        # The C reader counts UTF-8 bytes, the Python one characters.
        position = exc.position
        if getattr(yaml, "__with_libyaml__", False) and _Parser is not yaml.SafeLoader:
            position = len(text.encode("utf-8")[: exc.position].decode("utf-8", "ignore"))
        head = text[:position]
        line = head.count("\n") + 1
        column = position - (head.rfind("\n") + 1) + 1
        found.error(
            "E-YAML-CHARACTER",
            Mark(path, line, column),
            f"the character U+{exc.character:04X} is not allowed in a YAML file",
            "remove it; write it as an escape such as \\t "
            "inside double quotes if it is meant to be there",
        )
        raise InvalidInput(found) from None
    except yaml.YAMLError as exc:
        found.error(
            "E-YAML-SYNTAX", Mark(path, 1, 1), f"invalid YAML: {exc}", "fix the YAML syntax"
        )
        raise InvalidInput(found) from None
    if found.has_errors:
        raise InvalidInput(found)
    if root is None:
        found.error(
            "E-YAML-EMPTY",
            Mark(path, 1, 1),
            "the registry is empty",
            "start from the example in the README: registry, layers, codes, limits, adapters",
        )
        raise InvalidInput(found)
    if isinstance(root, Scalar):  # the whole file is one value: it may end past the input
        mark = _clamp(root.mark, text)
        if mark != root.mark:
            root = dataclasses.replace(root, mark=mark)
    return root


_OPENERS = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}")}


def _clamp(mark: Mark, text: str) -> Mark:
    """A mark inside the file: the parser reports the end of input one line past it."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if mark.line <= len(lines) or not lines:
        return mark
    return Mark(mark.path, len(lines), len(lines[-1]) + 1)


def _explain_syntax(exc: yaml.MarkedYAMLError, text: str, path: str) -> tuple[Mark, str, str]:
    """Where a syntax error is, what it is, and a hint; an unclosed bracket or quote is
    reported where it opens, which is where the author has to look."""
    problem = exc.problem or "the file is not valid YAML"
    if exc.context:
        problem = f"{problem} {exc.context}"
    where = _clamp(_mark(path, exc.problem_mark or exc.context_mark), text)
    for name, (opener, closer) in _OPENERS.items():
        if exc.context and name in exc.context and exc.context_mark is not None:
            return _mark(path, exc.context_mark), problem, f"close this '{opener}' with '{closer}'"
    if exc.context and "quoted scalar" in exc.context and exc.context_mark is not None:
        return _mark(path, exc.context_mark), problem, "close the quote that starts here"
    runaway = _runaway_quote(text, path, exc.problem_mark)
    if runaway is not None:
        return runaway
    lines = text.splitlines()
    if (
        0 < where.line <= len(lines)
        and lines[where.line - 1][where.column - 1 : where.column] == "\t"
    ):
        return where, problem, "indent with spaces, not tabs"
    hint = next((h for key, h in _HINTS.items() if key in problem), "fix the YAML syntax here")
    return where, problem, hint


def _runaway_quote(text: str, path: str, problem: _YamlMark | None) -> tuple[Mark, str, str] | None:
    """A quote left open is closed by the next quote in the file, lines further down, and
    YAML then fails just after that one, far from the mistake: where a quoted value that
    spans lines ends exactly where the parser failed, the quote that opened it is the
    place to look."""
    if problem is None:
        return None
    try:
        for token in yaml.scan(text, Loader=_Parser):
            start, end = token.start_mark, token.end_mark
            if start.line > problem.line:
                break
            if (
                isinstance(token, yaml.ScalarToken)
                and token.style in ('"', "'")
                and start.line < end.line
                and (end.line, end.column) == (problem.line, problem.column)
            ):
                inner = '\\"' if token.style == '"' else "''"  # the quote inside such a value
                return (
                    _mark(path, start),
                    f"the quoted value that starts here runs on to line {end.line + 1}, "
                    f"where the next {token.style} closes it",
                    f"close the quote on this line; write {inner} for a quote inside the value",
                )
    except yaml.YAMLError:
        return None
    return None


def load_file(
    path: Path,
    display: str | None = None,
    seen: Callable[[bytes], None] | None = None,
    limit: int | None = None,
) -> Node:
    """Read, decode and compose a registry file, with every failure as a diagnostic.

    ``seen`` receives the bytes read, before they are parsed: the stamp records the hash of
    what the run used, since the file may change on disk while the run goes on. ``limit`` is
    the largest registry read, in bytes (default :data:`.source.MAX_BYTES`; ``max-input-mib``
    raises it)."""
    name = display or str(path)
    data = read_file(path, name, limit)
    if seen is not None:
        seen(data)
    return load_text(decode(data, name), name)


def _compose(text: str, path: str, found: Diagnostics) -> Node | None:
    """The node tree of ``text``'s one document, from the parser's events.

    This loop runs once per event, about fifty thousand times for a registry of a thousand
    codes, before anything else can start: it dispatches on the event's exact class and
    attaches each node to the collection it is in without a call per event."""
    parser = _Parser(text)
    try:
        return _compose_events(parser, path, found)
    finally:
        parser.dispose()


def _compose_events(parser: Any, path: str, found: Diagnostics) -> Node | None:
    """:func:`_compose`'s loop over ``parser``'s events. They are taken from the parser
    with ``iter(get_event, None)`` (it gives None after the last), and the event classes
    and the node makers are local names, looked up once, not per event."""
    scalar_event, mapping_start, sequence_start = (
        yaml.ScalarEvent,
        yaml.MappingStartEvent,
        yaml.SequenceStartEvent,
    )
    mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    make_mark, make_scalar, mapping_node = Mark, Scalar, Mapping
    stack: list[Node] = []  # the open collections, innermost last
    keys: list[Scalar | None] = []  # for each, the key read and not yet given a value
    root: Node | None = None
    parent: Node | None = None  # stack[-1]
    in_mapping = False  # parent is a Mapping
    documents = 0
    plain = _plain_tag
    for event in iter(parser.get_event, None):  # dispatched on exact classes
        kind = type(event)
        if kind is scalar_event or kind is mapping_start or kind is sequence_start:
            start = event.start_mark
            mark = make_mark(path, start.line + 1, start.column + 1)
            if event.anchor is not None:
                found.error(
                    "E-YAML-ANCHOR",
                    mark,
                    f"anchor '&{event.anchor}' is not supported",
                    "remove the anchor and write each value out in full",
                )
                return root
            node: Node
            if kind is scalar_event:
                value, tag, style, end = event.value, event.tag, event.style, event.end_mark
                if tag is None or tag == "!":
                    tag = plain(value) if event.implicit[0] else "str"
                else:
                    tag = _explicit_tag(event, mark, found)
                span = end.column - start.column if end.line == start.line else -1
                node = make_scalar(
                    mark,
                    value,
                    tag,
                    style == "|" or style == ">",
                    span,
                    style == "'" or style == '"',
                )
                opened = False
            else:
                _check_collection_tag(event, mark, found)
                if len(stack) >= MAX_DEPTH:
                    found.error(
                        "E-YAML-TOO-DEEP",
                        mark,
                        f"the file nests deeper than {MAX_DEPTH} levels",
                        "a registry needs only a few levels; check the indentation",
                    )
                    return root
                node = mapping_node(mark) if kind is mapping_start else Sequence(mark)
                opened = True
            if parent is None:
                root = node
            elif not in_mapping:
                parent.items.append(node)  # type: ignore[attr-defined]
            elif keys[-1] is not None:
                parent.pairs.append((keys[-1], node))  # type: ignore[attr-defined]
                keys[-1] = None
            elif isinstance(node, Scalar):
                keys[-1] = node
            else:
                found.error(
                    "E-YAML-COMPLEX-KEY",
                    mark,
                    "a mapping key must be plain text",
                    "write the key as a single word such as 'code'",
                )
                keys[-1] = Scalar(mark, "?", "str")
            if opened:
                stack.append(node)
                keys.append(None)
                parent, in_mapping = node, kind is mapping_start
        elif kind is mapping_end or kind is sequence_end:
            stack.pop()
            keys.pop()
            parent = stack[-1] if stack else None
            in_mapping = type(parent) is mapping_node
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                found.error(
                    "E-YAML-MULTIPLE-DOCUMENTS",
                    _mark(path, event.start_mark),
                    "the file holds more than one YAML document",
                    "remove the '---' line; a registry is one document",
                )
                return root
        elif kind is yaml.AliasEvent:
            found.error(
                "E-YAML-ALIAS",
                _mark(path, event.start_mark),
                f"alias '*{event.anchor}' is not supported",
                "write the value out in full; anchors and aliases are refused",
            )
            return root
    return root


#: The first characters of a plain scalar that YAML may read as something other than text
#: (a number, a boolean, null, ...): any other plain scalar is text without asking the
#: resolver, which tries a list of patterns for each.
_RESOLVED_FIRST = frozenset(key for key in _RESOLVER.yaml_implicit_resolvers if key is not None)
_RESOLVED_ANY = bool(_RESOLVER.yaml_implicit_resolvers.get(None))


def _plain_tag(value: str) -> str:
    """The type of a plain (unquoted, untagged) scalar, as YAML 1.1 resolves it."""
    if not value or _RESOLVED_ANY or value[0] in _RESOLVED_FIRST:
        resolved = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
        return _TAGS.get(resolved, "str")
    return "str"


def _explicit_tag(event: yaml.ScalarEvent, mark: Mark, found: Diagnostics) -> str:
    """The type a tagged scalar asks for: one of YAML's own, any other refused."""
    tag = _TAGS.get(event.tag or "")
    if tag is None:
        found.error(
            "E-YAML-TAG",
            mark,
            f"the tag '{event.tag}' is not supported",
            "remove the tag; values are plain text, numbers and booleans",
        )
        return "str"
    return tag


def _check_collection_tag(event: yaml.NodeEvent, mark: Mark, found: Diagnostics) -> None:
    tag = getattr(event, "tag", None)
    if tag not in (None, "!", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"):
        found.error(
            "E-YAML-TAG",
            mark,
            f"the tag '{tag}' is not supported",
            "remove the tag; lists and mappings need none",
        )
