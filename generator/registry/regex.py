"""The registry's regular expressions, matched in time linear in the text.

A registry names its own patterns (``registry.naming.pattern``, a field's ``pattern``), and
Python's ``re`` backtracks: ``(a|aa)+`` against sixty characters never ends. errorbook
therefore matches them itself, by simulating the pattern's automaton one character at a
time, which is linear in the text whatever the pattern.

It reads the syntax that such rules use, with Python's meaning: literal characters and
escapes (``\\.``, ``\\t``, ``\\x41``, ``\\u00e9``, ``\\N{...}``), ``.``, ``\\d \\w \\s`` and their
negations, character classes with ranges, groups (``(...)``, ``(?:...)``, ``(?P<n>...)``),
``|``, and the repeats ``? * + {m} {m,} {,n} {m,n}`` (greedy or lazy: a full match does not
care). ``^``, ``\\A``, ``$`` and ``\\Z`` are taken where they can only stand for the start or
the end of the text. What needs backtracking or more than the text itself (back-references,
look-around, ``\\b``, inline flags, atomic groups and possessive repeats) is refused with a
:class:`RegexError` naming it, as is a pattern whose automaton would be too large.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

#: The longest pattern errorbook reads.
MAX_LENGTH = 1000
#: The most states a pattern's automaton may have (``{m,n}`` copies what it repeats).
MAX_STATES = 10_000
#: The deepest nesting of groups errorbook reads (Python's own parser recurses).
MAX_DEPTH = 50
#: How many steps of the automaton one pattern remembers; beyond, it works them out again.
_REMEMBERED = 65_536

_ESCAPES = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}
_HEX = {"x": 2, "u": 4, "U": 8}
_CATEGORIES: dict[str, Callable[[str], bool]] = {
    "d": str.isdecimal,
    "w": lambda c: c.isalnum() or c == "_",
    "s": str.isspace,
}
_REPEAT = re.compile(r"\{([0-9]*)(?:(,)([0-9]*))?\}")


#: What a diagnostic about a refused pattern suggests.
HINT = (
    "errorbook matches patterns itself, in time linear in the text: write the rule with "
    "characters, classes, groups, '|', repeats and anchors"
)


class RegexError(ValueError):
    """A pattern errorbook does not match: ``reason`` says what, at ``offset``."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(f"{reason} (at character {offset + 1})")
        self.reason = reason
        self.offset = offset


@dataclass(frozen=True)
class _Set:
    """What one step of the pattern accepts: characters and ranges, classes, or their
    complement; ``dot`` accepts every character but a line feed."""

    ranges: tuple[tuple[int, int], ...] = ()
    classes: tuple[tuple[str, bool], ...] = ()  # (d, w or s; negated)
    negated: bool = False
    dot: bool = False

    def accepts(self, char: str) -> bool:
        if self.dot:
            return char != "\n"
        code = ord(char)
        found = any(low <= code <= high for low, high in self.ranges) or any(
            _CATEGORIES[name](char) != negated for name, negated in self.classes
        )
        return found != self.negated


# The parsed pattern: a tree of these tuples.
#   ("set", _Set)  ("seq", [nodes])  ("alt", [nodes])  ("rep", node, min, max or None)
#   ("at", "start" | "end" | "dollar")
Node = tuple[object, ...]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def peek(self, ahead: int = 0) -> str:
        index = self.at + ahead
        return self.text[index] if index < len(self.text) else ""

    def refuse(self, reason: str, offset: int | None = None) -> RegexError:
        return RegexError(reason, self.at if offset is None else offset)

    def alternation(self) -> Node:
        choices = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            choices.append(self.sequence())
        return choices[0] if len(choices) == 1 else ("alt", choices)

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.peek() not in ("", "|", ")"):
            start = self.at
            item = self.atom()
            if item is None:
                continue
            item = self.repeats(item, start)
            items.append(item)
        return ("seq", items)

    def repeats(self, item: Node, start: int) -> Node:
        while True:
            char = self.peek()
            if char in ("*", "+", "?"):
                self.at += 1
                low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
            elif char == "{" and (match := _REPEAT.match(self.text, self.at)) is not None:
                if not match.group(2) and not match.group(1):
                    return item  # '{}' is two literal characters
                self.at = match.end()
                low = int(match.group(1) or 0)
                high = (int(match.group(3)) if match.group(3) else None) if match.group(2) else low
            else:
                return item
            if item[0] == "at":
                raise self.refuse("a repeated anchor", start)
            if self.peek() == "?":
                self.at += 1  # lazy: the same full matches
            elif self.peek() == "+":
                raise self.refuse("a possessive repeat ('*+', '++', '?+', '{m,n}+')")
            item = ("rep", item, low, high)

    def atom(self) -> Node | None:
        char = self.peek()
        start = self.at
        self.at += 1
        if char == ".":
            return ("set", _Set(dot=True))
        if char == "^":
            return ("at", "start")
        if char == "$":
            return ("at", "dollar")
        if char == "[":
            return ("set", self.character_class())
        if char == "(":
            return self.group(start)
        if char == "\\":
            return self.escape(start)
        return ("set", _Set(ranges=((ord(char), ord(char)),)))

    def group(self, start: int) -> Node | None:
        if self.peek() == "?":
            kind = self.peek(1)
            if kind == ":":
                self.at += 2
            elif kind == "P" and self.peek(2) == "<":
                self.at = self.text.index(">", self.at) + 1
            elif kind == "#":
                self.at = self.text.index(")", self.at) + 1
                return None
            else:
                what = {
                    "=": "a look-ahead",
                    "!": "a look-ahead",
                    "<": "a look-behind",
                    ">": "an atomic group",
                    "(": "a conditional group",
                    "P": "a back-reference",
                }.get(kind, "an inline flag")
                raise self.refuse(what, start)
        inner = self.alternation()
        self.at += 1  # the ')': the pattern compiled, so it is there
        return inner

    def escape(self, start: int) -> Node:
        char = self.peek()
        self.at += 1
        if char in "AZ":
            return ("at", "start" if char == "A" else "end")
        if char in "bB":
            raise self.refuse(f"'\\{char}' (a word boundary)", start)
        if char in "dws":
            return ("set", _Set(classes=((char, False),)))
        if char in "DWS":
            return ("set", _Set(classes=((char.lower(), True),)))
        code = self.literal_escape(char, start)
        return ("set", _Set(ranges=((code, code),)))

    def literal_escape(self, char: str, start: int) -> int:
        """The character an escape stands for, after its backslash and ``char``."""
        if char in _ESCAPES:
            return ord(_ESCAPES[char])
        if char in _HEX:
            digits = self.text[self.at : self.at + _HEX[char]]
            self.at += _HEX[char]
            return int(digits, 16)
        if char == "N":
            end = self.text.index("}", self.at)
            name = self.text[self.at + 1 : end]
            self.at = end + 1
            return ord(unicodedata.lookup(name))
        if char.isdigit():
            raise self.refuse(
                f"'\\{char}' (a back-reference or an octal escape; write '\\x..' for a character)",
                start,
            )
        return ord(char)

    def character_class(self) -> _Set:
        negated = self.peek() == "^"
        if negated:
            self.at += 1
        ranges: list[tuple[int, int]] = []
        classes: list[tuple[str, bool]] = []
        first = True
        while True:
            char = self.peek()
            start = self.at
            self.at += 1
            if char == "]" and not first:
                return _Set(tuple(ranges), tuple(classes), negated)
            first = False
            low = self.class_item(char, start, classes)
            if low is None:
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                end = self.peek()
                where = self.at
                self.at += 1
                high = self.class_item(end, where, classes)
                if high is None:  # compiled, so never a class at a range's end
                    raise self.refuse("a class at the end of a range", where)
                ranges.append((low, high))
            else:
                ranges.append((low, low))

    def class_item(self, char: str, start: int, classes: list[tuple[str, bool]]) -> int | None:
        """One member of a character class: a character's code, or None for a class
        (added to ``classes``)."""
        if char != "\\":
            return ord(char)
        escaped = self.peek()
        self.at += 1
        if escaped in "dws":
            classes.append((escaped, False))
            return None
        if escaped in "DWS":
            classes.append((escaped.lower(), True))
            return None
        if escaped == "b":
            return 8  # a backspace, inside a class
        return self.literal_escape(escaped, start)


@dataclass(frozen=True)
class _State:
    """One state of the automaton: it accepts a character (``accepts``) and moves to
    ``to[0]``; or it moves at once to each of ``to`` (``accepts`` None), after the anchor
    ``anchor`` holds; or it is the match (no ``to``)."""

    accepts: _Set | None
    to: list[int] = field(default_factory=list)
    anchor: str | None = None


class _Builder:
    def __init__(self) -> None:
        self.states: list[_State] = [_State(None)]  # state 0: the match

    def add(self, state: _State) -> int:
        if len(self.states) >= MAX_STATES:
            raise RegexError(
                f"the pattern's automaton would have more than {MAX_STATES:,} states "
                "(a large {m,n} repeats what it repeats that many times)",
                0,
            )
        self.states.append(state)
        return len(self.states) - 1

    def build(self, node: Node, then: int) -> int:
        """The state that matches ``node`` and goes on to ``then``."""
        kind = node[0]
        if kind == "set":
            accepts = node[1]
            assert isinstance(accepts, _Set)
            return self.add(_State(accepts, [then]))
        if kind == "at":
            return self.add(_State(None, [then], str(node[1])))
        if kind == "seq":
            items = node[1]
            assert isinstance(items, list)
            for item in reversed(items):
                then = self.build(item, then)
            return then
        if kind == "alt":
            choices = node[1]
            assert isinstance(choices, list)
            return self.add(_State(None, [self.build(choice, then) for choice in choices]))
        inner, low, high = node[1], node[2], node[3]
        assert isinstance(inner, tuple) and isinstance(low, int)
        if high is None:
            loop = self.add(_State(None, []))
            self.states[loop].to.extend([self.build(inner, loop), then])
            after = loop
        else:
            assert isinstance(high, int)
            after = then
            for _ in range(high - low):
                after = self.add(_State(None, [self.build(inner, after), then]))
        for _ in range(low):
            after = self.build(inner, after)
        return after


#: What holds where a step lands in the text (bits), for the anchors to be judged.
_START, _END, _BEFORE_LAST_LINE_FEED = 1, 2, 4
_HOLDS = {"start": _START, "end": _END, "dollar": _END | _BEFORE_LAST_LINE_FEED}


@dataclass(eq=False)
class Regex:
    """A registry's pattern, compiled; :meth:`fullmatch` tells whether a whole text
    matches it, as ``re.fullmatch`` would."""

    pattern: str
    _states: list[_State]
    _start: int
    _sets: list[frozenset[int]] = field(default_factory=list)
    _ids: dict[frozenset[int], int] = field(default_factory=dict)
    _moves: dict[tuple[int, str, int], int] = field(default_factory=dict)

    def fullmatch(self, text: str) -> bool:
        current = self._closed({self._start}, _place(0, text))
        for index, char in enumerate(text):
            place = _place(index + 1, text)
            key = (current, char, place)
            found = self._moves.get(key)
            if found is None:
                moved = {
                    state.to[0]
                    for state in (self._states[s] for s in self._sets[current])
                    if state.accepts is not None and state.accepts.accepts(char)
                }
                found = self._closed(moved, place)
                if len(self._moves) < _REMEMBERED:
                    self._moves[key] = found
            current = found
        return 0 in self._sets[current]

    def _closed(self, states: set[int], place: int) -> int:
        """The id of the set of states reached from ``states`` without reading, the
        anchors judged at ``place``: the states that read a character, and the match."""
        seen: set[int] = set()
        todo = list(states)
        while todo:
            index = todo.pop()
            if index in seen:
                continue
            seen.add(index)
            state = self._states[index]
            if state.accepts is not None:
                continue
            if state.anchor is None or place & _HOLDS[state.anchor]:
                todo.extend(state.to)
        found = frozenset(s for s in seen if self._states[s].accepts is not None or s == 0)
        number = self._ids.get(found)
        if number is None:
            number = self._ids[found] = len(self._sets)
            self._sets.append(found)
        return number


def _place(index: int, text: str) -> int:
    """What holds at ``index`` in ``text``, as :data:`_HOLDS` reads it."""
    place = _START if index == 0 else 0
    if index == len(text):
        place |= _END
    elif index == len(text) - 1 and text[-1] == "\n":
        place |= _BEFORE_LAST_LINE_FEED
    return place


def compile(pattern: str) -> Regex:
    """``pattern`` compiled, or RegexError saying why errorbook does not match it.

    ``re.error`` for a pattern Python itself refuses: the caller says so first."""
    if len(pattern) > MAX_LENGTH:
        raise RegexError(f"the pattern is longer than {MAX_LENGTH:,} characters", MAX_LENGTH)
    _nesting(pattern)
    re.compile(pattern)
    parser = _Parser(pattern)
    tree = parser.alternation()
    builder = _Builder()
    start = builder.build(tree, 0)
    return Regex(pattern, builder.states, start)


def _nesting(pattern: str) -> None:
    """Refuse groups nested deeper than :data:`MAX_DEPTH`, before anything recurses over
    them. A lenient scan: what it misreads in a broken pattern, ``re.compile`` refuses."""
    depth, index, size = 0, 0, len(pattern)
    while index < size:
        char = pattern[index]
        if char == "\\":
            index += 1
        elif char == "[":
            index += 1
            index += 1 if pattern.startswith("^", index) else 0
            index += 1 if pattern.startswith("]", index) else 0  # a first ']' is a character
            while index < size and pattern[index] != "]":
                index += 2 if pattern[index] == "\\" else 1
        elif char == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise RegexError(f"groups are nested more than {MAX_DEPTH} deep", index)
        elif char == ")":
            depth = max(depth - 1, 0)
        index += 1
