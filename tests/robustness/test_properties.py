"""Properties of the whole pipeline (issue 8, part 1): nothing is lost and nothing gets in.

- Any text a registry may hold survives exactly into the generated Python package, the
  gettext catalogs and the site's HTML; what the validator refuses by design gets a
  diagnostic at the field's own line and column.
- Any sequence of registry edits, each followed by ``errorbook generate``, keeps every
  translation ever written in the PO files (active, fuzzy or obsolete ``#~``).
- Generation is byte-identical under any PYTHONHASHSEED, TZ, LC_ALL and working directory.
"""

from __future__ import annotations

import contextlib
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
import yaml
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from generator.catalogs import pofile
from generator.cli import main
from generator.diagnostics import InvalidInput
from generator.registry.validate import load_registry_text

from ..conftest import MINIMAL, ROOT, Run
from ..emit.test_emit_python import load_module

# --- text a registry may hold ------------------------------------------------------------

#: Pieces that have broken escaping somewhere before: quotes of every language the outputs are
#: written in, backslashes, braces, line breaks, bidi controls, astral characters, markup,
#: Markdown and PO syntax.
TOKENS = (
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\\n",
    '\\"',
    "\\u0041",
    "\n",
    "\t",
    "\n\n",
    "  ",
    "    ",
    "\t\t",
    "[x]: /url",
    "1) ",
    ":::",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u200f",
    "\u200b",
    "\ufeff",
    "\u00a0",
    "\u0301",
    "😀",
    "👩‍👩‍👧",
    "\U00020bb7",
    "\U0010fffd",
    "\uffff",
    "日本語",
    "Größe",
    "</script>",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!--",
    "-->",
    "&amp;",
    "&lt;b&gt;",
    "&#x3C;",
    "[x](javascript:alert(1))",
    "![i](x.png)",
    "<https://example.org>",
    "[TOC]",
    "*",
    "**b**",
    "_i_",
    "`",
    "```",
    "~~~",
    "# ",
    "## h",
    "- ",
    "+ ",
    "1. ",
    "> ",
    "|",
    "| a | b |",
    "---",
    "===",
    "!!! note",
    "{: .x}",
    "{#id}",
    "%s",
    "%(name)s",
    "${x}",
    "msgid",
    'msgstr "x"',
    "#~ ",
    "#, fuzzy",
    "'); import os; ('",
    "\\x41",
    "$",
    ":",
    "?",
    "@",
)
#: Any other character except surrogates, control characters (C0, C1) and the two Unicode
#: line separators, which are refused by design (see REFUSED).
_OTHER = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"))
_PIECE = st.one_of(st.sampled_from(TOKENS), _OTHER, st.text(_OTHER, max_size=5))
#: Arbitrary text, braces included: prose keeps them as they are.
ANY_TEXT = st.lists(st.one_of(_PIECE, st.sampled_from("{}")), max_size=12).map("".join)
#: Control characters the validator refuses, whether written raw or as a YAML escape.
REFUSED = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\t\n"]
REFUSED += ["\u2028", "\u2029"]


def usable(text: str) -> bool:
    return bool(text.strip())


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar; every character that is not printable in a
    YAML stream is written as an escape, so the file itself stays valid."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            out.append('\\"')
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif (
            code < 0x20
            or 0x7F <= code <= 0x9F
            or char in "\u2028\u2029\ufeff\ufffe\uffff"
            or 0xD800 <= code <= 0xDFFF
        ):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def braces(text: str) -> str:
    """Literal text as a message template: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


# --- a registry with text in every field -------------------------------------------------

TEMPLATE = (
    MINIMAL.replace("message: The door is closed.", "message: @@door@@")
    .replace("meaning: Nobody is let in.", "meaning: @@meaning@@\n    agent_hint: @@hint@@")
    .replace("steps: [Knock.]", "steps: [@@step@@]")
    .replace('one: "{count} item was refused by {who}."', "one: @@one@@")
    .replace('other: "{count} items were refused by {who}."', "other: @@other@@")
    .replace(
        "who: {description: Who refused., example: the page}",
        "who: {description: @@description@@, example: @@example@@}",
    )
)
FIELDS = ("door", "meaning", "hint", "step", "one", "other", "description", "example")
assert all(f"@@{name}@@" in TEMPLATE for name in FIELDS)


def render(values: dict[str, str]) -> tuple[str, dict[str, tuple[int, int]]]:
    """The registry with each field's (already quoted) value, and the line and column of
    each value (1-based, lines split at \\n as editors count them)."""
    lines = TEMPLATE.split("\n")
    where: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(lines):
        while (match := re.search(r"@@(\w+)@@", line)) is not None:
            where[match.group(1)] = (number + 1, match.start() + 1)
            line = line[: match.start()] + values[match.group(1)] + line[match.end() :]
        lines[number] = line
    return "\n".join(lines), where


@dataclass(frozen=True)
class Texts:
    """The literal text of every field; messages are built from literal pieces."""

    door: str
    meaning: str
    hint: str
    step: str
    description: str
    example: str
    one: tuple[str, str]  # literal text around {who}
    other: tuple[str, str, str]  # literal text around {count} and {who}

    def fields(self) -> dict[str, str]:
        """The registry's value of every field (messages as templates)."""
        one = braces(self.one[0]) + "{who}" + braces(self.one[1])
        a, b, c = (braces(x) for x in self.other)
        return {
            "door": braces(self.door),
            "meaning": self.meaning,
            "hint": self.hint,
            "step": self.step,
            "description": self.description,
            "example": self.example,
            "one": one,
            "other": f"{a}{{count}}{b}{{who}}{c}",
        }

    def registry(self) -> str:
        return render({k: yaml_quoted(v) for k, v in self.fields().items()})[0]


GOOD = ANY_TEXT.filter(usable)
texts = st.builds(
    Texts,
    door=GOOD,
    meaning=GOOD,
    hint=GOOD,
    step=GOOD,
    description=GOOD,
    example=GOOD,
    one=st.tuples(ANY_TEXT, ANY_TEXT),
    other=st.tuples(ANY_TEXT, ANY_TEXT, ANY_TEXT),
)

SITE_PYPROJECT = "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n"
_built = 0


@contextlib.contextmanager
def generated(registry: str) -> Iterator[Path]:
    """A temporary project holding ``registry``, after an in-process ``errorbook generate``."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        root = Path(folder)
        (root / "pyproject.toml").write_text(SITE_PYPROJECT, "utf-8")
        (root / "codes.yaml").write_text(registry, "utf-8")
        (root / "site").mkdir()
        patch.chdir(root)
        status = main(["generate"])
        assert status == 0, "errorbook generate failed"
        yield root


@contextlib.contextmanager
def package(root: Path) -> Iterator[ModuleType]:
    """The generated package of ``root``, imported under a name of its own."""
    global _built
    _built += 1
    name = f"demo_errors_property_{_built}"
    module = load_module(root / "demo_errors", name)
    try:
        yield module
    finally:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]


# --- the site: the page's Markdown as MkDocs renders it ----------------------------------


def _extensions() -> tuple[list[str], dict[str, dict[str, Any]]]:
    config = yaml.safe_load((ROOT / "site" / "mkdocs.base.yml").read_text("utf-8"))
    names: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    for item in config["markdown_extensions"]:
        if isinstance(item, dict):
            ((name, value),) = item.items()
            names.append(name)
            options[name] = value or {}
        else:
            names.append(item)
    return names, options


EXTENSIONS = _extensions()


def page_html(path: Path) -> str:
    """A generated page as HTML: front matter off (MkDocs reads it), then Python-Markdown
    with the extensions of site/mkdocs.base.yml."""
    text = path.read_text("utf-8")
    if text.startswith("---\n"):
        text = text[text.index("\n---\n", 4) + 5 :]
    names, options = EXTENSIONS
    rendered: str = markdown.markdown(text, extensions=names, extension_configs=options)
    return rendered


class Page(html.parser.HTMLParser):
    """Text content, elements and attributes of a page."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.code: list[str] = []
        self.sections: dict[str, list[str]] = {"": []}  # text under each h2, by its id
        self._section = ""
        self._in_code = 0
        self._in_heading = False
        self.feed(source)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag in ("h1", "h2"):
            self._in_heading = True
        if tag == "h2":
            self._section = dict(attrs).get("id") or "?"
            self.sections.setdefault(self._section, [])
        if tag == "code":
            self._in_code += 1
            self.code.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2"):
            self._in_heading = False
        if tag == "code":
            self._in_code -= 1

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        if not self._in_heading:
            self.sections[self._section].append(data)
        if self._in_code:
            self.code[-1] += data

    @property
    def text(self) -> str:
        return collapse("".join(self.parts))

    def section(self, anchor: str) -> str:
        """The text of the section under the heading with this id."""
        return collapse("".join(self.sections[anchor]))


def collapse(text: str) -> str:
    """HTML white space collapsing: runs of ASCII white space become one space."""
    return re.sub(r"[ \t\n\r\f]+", " ", text).strip()


#: Elements that run script, load something, take input or restyle the page: none of them
#: may come from registry or translation text.
LIVE_TAGS = {
    "script",
    "style",
    "img",
    "iframe",
    "frame",
    "object",
    "embed",
    "svg",
    "math",
    "link",
    "meta",
    "base",
    "form",
    "input",
    "button",
    "textarea",
    "select",
    "video",
    "audio",
    "source",
    "picture",
    "template",
}


def _own_copy_button(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """The button the code page template writes under a code's name, exactly: its fixed
    attributes (``data-search-exclude`` keeps its label out of the search index), a code
    name to copy, and nothing else."""
    names = [name for name, _ in attrs]
    found = dict(attrs)
    return (
        tag == "button"
        and names
        == ["type", "class", "data-search-exclude", "data-eb-copy", "data-eb-done", "hidden"]
        and found["data-search-exclude"] is None
        and found["type"] == "button"
        and found["class"] == "eb-copy-name"
        and re.fullmatch(r"[A-Z0-9_.]+", found["data-eb-copy"] or "") is not None
    )


def _tab_switch(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A radio input of pymdownx.tabbed's wire tabs, exactly as it writes them."""
    found = dict(attrs)
    return (
        tag == "input"
        and set(found) <= {"checked", "id", "name", "type"}
        and found.get("type") == "radio"
        and re.fullmatch(r"__tabbed_\d+_\d+", found.get("id") or "") is not None
        and re.fullmatch(r"__tabbed_\d+", found.get("name") or "") is not None
    )


def assert_inert(source: str, page: Page) -> None:
    """Nothing from the registry became live: no script, no image, no handler, no link to
    script, no style."""
    lowered = source.lower()
    assert "<script" not in lowered and "<img" not in lowered
    for tag, attrs in page.tags:
        if _own_copy_button(tag, attrs) or _tab_switch(tag, attrs):
            continue  # errorbook's and pymdownx.tabbed's own markup, not registry text
        assert tag not in LIVE_TAGS, (tag, attrs)
        for name, value in attrs:
            assert not name.lower().startswith("on"), (tag, attrs)
            assert name.lower() != "style", (tag, attrs)
            target = (value or "").strip().lower()
            assert not target.startswith(("javascript:", "vbscript:", "data:")), (tag, attrs)


# --- 1a. text survives -------------------------------------------------------------------

SURVIVAL = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SURVIVAL
@given(texts, st.integers(min_value=0, max_value=10**9).filter(lambda n: n != 1))
def test_any_text_survives_into_the_python_package(t: Texts, count: int) -> None:
    fields = t.fields()
    with generated(t.registry()) as root, package(root) as module:
        door = module.CODES[module.ErrorCode.DOOR_CLOSED]
        items = module.CODES[module.ErrorCode.ITEMS_REFUSED]
        assert door.message == fields["door"]
        assert door.hint == t.hint
        assert module.recovery_hint("DOOR_CLOSED") == t.hint
        assert items.message == fields["one"]
        assert items.message_plural == fields["other"]
        assert module.format_message("DOOR_CLOSED") == t.door
        assert module.message("DOOR_CLOSED") == t.door
        who = t.example
        one = t.one[0] + who + t.one[1]
        other = t.other[0] + str(count) + t.other[1] + who + t.other[2]
        assert module.format_message("ITEMS_REFUSED", count=1, who=who) == one
        assert module.format_message("ITEMS_REFUSED", count=count, who=who) == other
        # The runtime writes a German whole number with German digit grouping (1.000).
        grouped = f"{count:,}".replace(",", ".")
        german = t.other[0] + grouped + t.other[1] + who + t.other[2]
        assert module.message("ITEMS_REFUSED", "de", count=count, who=who) == german
        envelope = module.failure("DOOR_CLOSED")
        assert envelope["error"]["message"] == t.door
        data = json.loads((root / "demo_errors" / "codes.json").read_text("utf-8"))
        codes = {c["code"]: c for c in data["codes"]}
        assert codes["DOOR_CLOSED"]["meaning"] == t.meaning
        assert codes["DOOR_CLOSED"]["recovery"]["steps"] == [t.step]
        assert codes["DOOR_CLOSED"]["message"]["text"] == fields["door"]
        placeholder = codes["ITEMS_REFUSED"]["placeholders"][1]
        assert (placeholder["description"], placeholder["example"]) == (t.description, who)


def _by_context(path: Path) -> dict[str | None, Any]:
    with path.open("rb") as stream:
        catalog = read_po(stream)
    return {message.context: message for message in catalog if message.id}


@SURVIVAL
@given(texts)
def test_any_text_survives_into_the_catalogs(t: Texts) -> None:
    fields = t.fields()
    with generated(t.registry()) as root:
        locales = root / "locales"
        po_files = [
            locales / "messages.pot",
            locales / "docs.pot",
            locales / "de" / "LC_MESSAGES" / "messages.po",
            locales / "de" / "LC_MESSAGES" / "docs.po",
        ]
        for path in po_files:
            # errorbook's own strict reader accepts what errorbook wrote.
            _, _, problems = pofile.read(path.read_bytes(), path.name)
            assert not problems.items, problems.render()
        for path in po_files[0::2]:
            messages = _by_context(path)
            assert messages["DOOR_CLOSED"].id == fields["door"]
            assert tuple(messages["ITEMS_REFUSED"].id) == (fields["one"], fields["other"])
        for path in po_files[1::2]:
            messages = _by_context(path)
            assert messages["DOOR_CLOSED.meaning"].id == t.meaning
            assert messages["DOOR_CLOSED.recovery.1"].id == t.step
            assert messages["ITEMS_REFUSED.placeholder.who"].id == t.description


INDENTED = "    Nobody is let in."


@SURVIVAL
@given(texts)
def test_no_text_becomes_markup_on_the_site(t: Texts) -> None:
    """Whatever the registry holds, its pages hold no element or attribute of its making."""
    with generated(t.registry()) as root:
        for name in ("door_closed", "items_refused", "index"):
            source = page_html(root / "site" / "docs" / "en" / "codes" / f"{name}.md")
            assert_inert(source, Page(source))
        for name in ("index", "overview", "recovery", "limits"):
            source = page_html(root / "site" / "docs" / "en" / f"{name}.md")
            assert_inert(source, Page(source))


@SURVIVAL
@example(Texts(INDENTED, INDENTED, "h", "s", "w", "e", ("", ""), ("", "", "")))
@given(texts)
def test_any_text_reads_on_the_site_exactly_as_written(t: Texts) -> None:
    with generated(t.registry()) as root:
        pages = root / "site" / "docs" / "en" / "codes"
        door = Page(page_html(pages / "door_closed.md"))
        # A message reads as the runtime writes it: single braces, its lines kept.
        assert collapse(as_shown(t.door)) in door.section("message")
        assert collapse(t.meaning) in door.section("meaning")
        assert collapse(t.step) in door.section("recovery")
        items = Page(page_html(pages / "items_refused.md"))
        # The message section shows the template (its literal braces single, its fields as
        # they are), then the placeholders' table.
        template = t.other[0] + "{count}" + t.other[1] + "{who}" + t.other[2]
        message = items.section("message")
        for value in (as_shown(template), t.description, t.example):
            assert collapse(value) in message, value
        # The example envelope holds the example exactly (JSON keeps every character).
        answer = next(c for c in items.code if c.startswith("HTTP/1.1 "))  # the HTTP tab
        envelope = json.loads(answer.split("\n\n", 1)[1])
        error = envelope["result"]["error"]
        assert error["params"]["who"] == t.example
        assert error["message"] == t.other[0] + "2" + t.other[1] + t.example + t.other[2]


def as_shown(text: str) -> str:
    """A message as its site page shows it, before HTML collapses white space: a line of
    nothing but white space (any script's) breaks the paragraph, as Markdown reads it."""
    return "\n".join(line if line.strip() else "" for line in text.split("\n"))


def test_text_with_leading_spaces_reads_as_written_on_the_site() -> None:
    t = Texts(INDENTED, INDENTED, "h", "s", "w", "e", ("", ""), ("", "", ""))
    with generated(t.registry()) as root:
        source = page_html(root / "site" / "docs" / "en" / "codes" / "door_closed.md")
    page = Page(source)
    assert page.section("message") == "Nobody is let in."
    assert page.section("meaning") == "Nobody is let in."


# --- 1b. what is refused by design gets a diagnostic at the field -------------------------


@st.composite
def refused_registry(draw: st.DrawFn) -> tuple[str, tuple[int, int], str]:
    """A registry whose one field holds a refused character or nothing but white space;
    returns the registry, where that field's value starts, and the expected problem."""
    name = draw(st.sampled_from(FIELDS))
    values = Texts("d", "m", "h", "s", "w", "e", ("", ""), ("", "", "")).fields()
    if draw(st.booleans()):
        bad = draw(st.sampled_from(REFUSED))
        text = draw(ANY_TEXT) + bad + draw(ANY_TEXT)
        problem = "is empty" if not text.strip() else "contains the control character"
    else:
        text = draw(st.text(st.sampled_from(" \t\n\u00a0\u3000\u2003"), min_size=0, max_size=6))
        problem = "is empty"
    suffix = ""
    if problem != "is empty":
        suffix = {"one": "{who}", "other": "{count} {who}"}.get(name, "")
    values[name] = (braces(text) if name in ("door", "one", "other") else text) + suffix
    registry, where = render({k: yaml_quoted(v) for k, v in values.items()})
    return registry, where[name], problem


@settings(max_examples=300, deadline=None)
@given(refused_registry())
def test_refused_text_gets_a_diagnostic_at_its_field(
    case: tuple[str, tuple[int, int], str],
) -> None:
    registry, (line, column), problem = case
    with pytest.raises(InvalidInput) as info:
        load_registry_text(registry, "codes.yaml")
    at_field = [
        d for d in info.value.diagnostics.items if (d.mark.line, d.mark.column) == (line, column)
    ]
    assert any(problem in d.message for d in at_field), info.value.diagnostics.render()


RAW_SEPARATORS = [
    pytest.param("\x85", id="NEL"),
    pytest.param("\u2028", id="LS"),
    pytest.param("\u2029", id="PS"),
]


@pytest.mark.parametrize("separator", RAW_SEPARATORS)
@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(("door", "meaning", "step", "description", "example")),
    before=GOOD,
    after=GOOD,
)
def test_a_raw_line_separator_is_diagnosed_at_its_line(
    separator: str, name: str, before: str, after: str
) -> None:
    """Written into the file as it is (not as an escape), inside a quoted value."""
    values = Texts("d", "m", "h", "s", "w", "e", ("", ""), ("", "", "")).fields()
    quoted = {k: yaml_quoted(v) for k, v in values.items()}
    quoted[name] = yaml_quoted(before)[:-1] + separator + yaml_quoted(after)[1:]
    registry, where = render(quoted)
    line = where[name][0]
    with pytest.raises(InvalidInput) as info:
        load_registry_text(registry, "codes.yaml")
    assert any(d.mark.line == line for d in info.value.diagnostics.items), (
        info.value.diagnostics.render()
    )


# --- 2. registry edits never lose a translation ------------------------------------------

NAMES = ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT")
WORDS = st.lists(st.sampled_from(("door", "shut", "the", "items", "late", "Tür")), min_size=1)
SINGULAR = WORDS.map(lambda w: " ".join(w).capitalize() + ".")
PLURAL = st.tuples(WORDS, WORDS).map(
    lambda w: (" ".join(w[0]) + " {n}.", "{n} " + " ".join(w[1]) + ".")
)
EDIT_PYPROJECT = "[tool.errorbook]\nregistry = 'codes.yaml'\n"


@dataclass
class Code:
    text: str  # the singular message, or the plural's other form
    one: str | None = None  # set for a plural message

    def yaml(self, name: str) -> str:
        lines = [f"  {name}:", "    layer: inner"]
        if self.one is None:
            lines.append(f"    message: {yaml_quoted(self.text)}")
        else:
            lines += [
                "    message:",
                f"      one: {yaml_quoted(self.one)}",
                f"      other: {yaml_quoted(self.text)}",
                "      count: n",
                "    placeholders:",
                "      n: {description: How many., example: 3, type: integer}",
            ]
        lines += [
            f"    meaning: {yaml_quoted('What ' + name + ' means.')}",
            "    recovery: {kind: ask_user, steps: [Ask.]}",
            "    retry: {policy: never}",
            "    since: 1.0.0",
        ]
        return "\n".join(lines)


def edit_registry(codes: dict[str, Code]) -> str:
    head = MINIMAL.split("codes:\n", 1)[0].replace("locales: [de]", "locales: [de, pl]")
    tail = "limits:\n" + MINIMAL.split("\nlimits:\n", 1)[1]
    body = "\n".join(code.yaml(name) for name, code in codes.items())
    return f"{head}codes:\n{body}\n{tail}"


_FIELD_NAME = re.compile(r"\{([A-Za-z_]\w*)\}")


def fill_untranslated(path: Path, serial: Iterator[int]) -> list[str]:
    """As a translator: fill every active entry whose msgstr lines are all empty, with a
    new, unique text that keeps the source's placeholders. Returns what was written."""
    written: list[str] = []
    blocks = path.read_text("utf-8").split("\n\n")
    for index, block in enumerate(blocks):
        lines = block.split("\n")
        if any(line.startswith("#~") for line in lines):
            continue
        if not any(line.startswith("msgctxt ") for line in lines):
            continue  # the header
        strings = [line for line in lines if line.startswith("msgstr")]
        if not strings or any(not line.endswith(' ""') for line in strings):
            continue
        source = " ".join(line for line in lines if line.startswith("msgid"))
        fields = " ".join(dict.fromkeys(f"{{{n}}}" for n in _FIELD_NAME.findall(source)))
        for i, line in enumerate(lines):
            if line.startswith("msgstr"):
                text = f"Übersetzung {next(serial)} {fields}".strip()
                keyword = line.split(" ", 1)[0]
                lines[i] = f'{keyword} "{text}"'
                written.append(text)
        blocks[index] = "\n".join(lines)
    path.write_text("\n\n".join(blocks), "utf-8")
    return written


def every_string(path: Path) -> set[str]:
    """Every msgstr of a PO file, active or obsolete (read strictly: errorbook wrote it)."""
    catalog, _, problems = pofile.read(path.read_bytes(), path.name)
    assert not problems.items, problems.render()
    found: set[str] = set()
    for message in [*catalog, *catalog.obsolete.values()]:
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        found.update(s for s in strings if s)
    return found


class RegistryEdits(RuleBasedStateMachine):
    """Edit the registry, run ``errorbook generate``, translate what is new, repeat."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        self.patch = pytest.MonkeyPatch()
        self.patch.chdir(self.root)
        (self.root / "pyproject.toml").write_text(EDIT_PYPROJECT, "utf-8")
        self.codes: dict[str, Code] = {}
        self.removed: dict[str, Code] = {}
        self.written: dict[str, set[str]] = {"de": set(), "pl": set()}
        self.serial = iter(range(10**9))
        self.log: list[str] = []

    def teardown(self) -> None:
        self.patch.undo()
        self.folder.cleanup()

    def generate(self, what: str) -> None:
        self.log.append(what)
        (self.root / "codes.yaml").write_text(edit_registry(self.codes), "utf-8")
        assert main(["generate"]) == 0, self.log
        self.assert_nothing_lost()
        for locale in self.written:
            path = self.root / "locales" / locale / "LC_MESSAGES" / "messages.po"
            self.written[locale].update(fill_untranslated(path, self.serial))

    def assert_nothing_lost(self) -> None:
        for locale, written in self.written.items():
            path = self.root / "locales" / locale / "LC_MESSAGES" / "messages.po"
            missing = written - every_string(path)
            assert not missing, (locale, sorted(missing), self.log)

    @initialize(first=SINGULAR, second=PLURAL)
    def start(self, first: str, second: tuple[str, str]) -> None:
        self.codes = {"ALPHA": Code(first), "BRAVO": Code(second[1], second[0])}
        self.generate("start")

    @rule(data=st.data(), text=SINGULAR)
    def reword(self, data: st.DataObject, text: str) -> None:
        name = data.draw(st.sampled_from(sorted(self.codes)))
        code = self.codes[name]
        code.text = text if code.one is None else "{n} " + text
        self.generate(f"reword {name}")

    @rule(data=st.data())
    def rename(self, data: st.DataObject) -> None:
        free = [n for n in NAMES if n not in self.codes]
        if not free:
            return
        old = data.draw(st.sampled_from(sorted(self.codes)))
        new = data.draw(st.sampled_from(free))
        self.codes = {new if k == old else k: v for k, v in self.codes.items()}
        self.removed.pop(new, None)
        self.generate(f"rename {old} {new}")

    @precondition(lambda self: len(self.codes) > 1)
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(self.codes)))
        self.removed[name] = self.codes.pop(name)
        self.generate(f"remove {name}")

    @precondition(lambda self: bool(self.removed))
    @rule(data=st.data())
    def bring_back(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(self.removed)))
        self.codes[name] = self.removed.pop(name)
        self.generate(f"bring back {name}")

    @rule(data=st.data(), text=SINGULAR)
    def add(self, data: st.DataObject, text: str) -> None:
        free = [n for n in NAMES if n not in self.codes]
        if not free:
            return
        name = data.draw(st.sampled_from(free))
        self.removed.pop(name, None)
        self.codes[name] = Code(text)
        self.generate(f"add {name}")

    @rule(data=st.data(), plural=PLURAL)
    def change_plural(self, data: st.DataObject, plural: tuple[str, str]) -> None:
        """Make a message plural, reword a plural, or make a plural singular again."""
        name = data.draw(st.sampled_from(sorted(self.codes)))
        code = self.codes[name]
        if code.one is not None and data.draw(st.booleans()):
            code.one, code.text = None, code.text.replace("{n}", "some")
        else:
            code.one, code.text = plural
        self.generate(f"change plural {name}")

    @invariant()
    def po_files_keep_every_translation(self) -> None:
        if self.codes:
            self.assert_nothing_lost()


def test_registry_edits_never_lose_a_translation() -> None:
    """Random edit sequences; derandomized so that the outcome is the same on every run (and
    not shrunk: each step runs generate, and shrinking a failure takes minutes)."""
    run_state_machine_as_test(
        RegistryEdits,
        settings=settings(
            max_examples=12,
            stateful_step_count=8,
            deadline=None,
            derandomize=True,
            database=None,
            phases=(Phase.explicit, Phase.generate),
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


def _edit_project(root: Path, codes: dict[str, Code]) -> None:
    (root / "pyproject.toml").write_text(EDIT_PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(edit_registry(codes), "utf-8")


def _translate_all(root: Path, serial: Iterator[int]) -> set[str]:
    path = root / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    return set(fill_untranslated(path, serial))


@pytest.mark.parametrize("path", ["edited", "removed and brought back"])
def test_a_plural_that_becomes_singular_keeps_its_translations(
    run: Run, tmp_path: Path, path: str
) -> None:
    serial = iter(range(10**6))
    codes = {"ALPHA": Code("Door.")}
    codes["BRAVO"] = Code("{n} doors.", "One door {n}.")
    _edit_project(tmp_path, codes)
    assert run("generate", cwd=tmp_path).code == 0
    written = _translate_all(tmp_path, serial)
    assert written == {"Übersetzung 0", "Übersetzung 1 {n}", "Übersetzung 2 {n}"}
    if path == "edited":
        codes["BRAVO"] = Code("Some doors.")
    else:
        del codes["BRAVO"]
        _edit_project(tmp_path, codes)
        assert run("generate", cwd=tmp_path).code == 0
        assert written <= every_string(tmp_path / "locales/de/LC_MESSAGES/messages.po")
        codes["BRAVO"] = Code("Some doors.")
    _edit_project(tmp_path, codes)
    assert run("generate", cwd=tmp_path).code == 0
    kept = every_string(tmp_path / "locales/de/LC_MESSAGES/messages.po")
    assert written - kept == set()


LONG = "The door " + "is closed and locked and barred " * 3 + "for now."


def test_rewording_a_long_message_leaves_a_po_file_that_reads_back(
    run: Run, tmp_path: Path
) -> None:
    _edit_project(tmp_path, {"ALPHA": Code(LONG)})
    assert run("generate", cwd=tmp_path).code == 0
    assert _translate_all(tmp_path, iter(range(10))) == {"Übersetzung 0"}
    _edit_project(tmp_path, {"ALPHA": Code(LONG.replace("for now", "for today"))})
    assert run("generate", cwd=tmp_path).code == 0
    path = tmp_path / "locales/de/LC_MESSAGES/messages.po"
    _, _, problems = pofile.read(path.read_bytes(), "messages.po")
    assert problems.render() == ""
    assert run("check", cwd=tmp_path).code == 0


# --- 3. byte-identical under any environment ---------------------------------------------

#: Outputs of this repository, removed before each run so that each run writes all of them.
GENERATED = ("surface_errors", "locales/messages.pot", "locales/docs.pot", "site/docs", "site/root")


def fresh_project(target: Path) -> Path:
    """This repository's inputs (registry, PO files, site pages) without generated files."""
    target.mkdir(parents=True)
    for name in ("codes.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(ROOT / "locales", target / "locales")
    (target / "site").mkdir()
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", target / "site" / "mkdocs.base.yml")
    shutil.copytree(ROOT / "site" / "pages", target / "site" / "pages")
    for name in GENERATED:
        path = target / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    return target


#: errorbook's own bookkeeping, git-ignored: a stat cache and a lock, not outputs.
NOT_OUTPUTS = ("__pycache__",)


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not any(part in NOT_OUTPUTS for part in p.relative_to(root).parts)
    }


def generate_in_subprocess(root: Path, env: dict[str, str], where: str) -> dict[str, bytes]:
    args = [sys.executable, "-m", "generator", "generate"]
    cwd = root
    if where == "subfolder":
        cwd = root / "locales" / "de"
    elif where == "outside":
        cwd = root.parent
        args += ["--config", str(root / "pyproject.toml")]
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "TZ"))}
    environment.update(env, PYTHONPATH=str(ROOT))
    result = subprocess.run(args, cwd=cwd, env=environment, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return tree(root)


@dataclass
class _Baseline:
    files: dict[str, bytes] = field(default_factory=dict)


_BASELINE = _Baseline()


def baseline() -> dict[str, bytes]:
    if not _BASELINE.files:
        with tempfile.TemporaryDirectory() as folder:
            root = fresh_project(Path(folder) / "project")
            env = {"PYTHONHASHSEED": "0", "TZ": "UTC", "LC_ALL": "C.UTF-8"}
            _BASELINE.files = generate_in_subprocess(root, env, "root")
    return _BASELINE.files


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(seed="4242", tz="Pacific/Kiritimati", lc_all="POSIX", where="outside")
@given(
    seed=st.one_of(st.just("random"), st.integers(1, 2**32 - 1).map(str)),
    tz=st.sampled_from(("Asia/Kathmandu", "America/St_Johns", "Etc/GMT+12", "Europe/Berlin")),
    lc_all=st.sampled_from(("C", "C.UTF-8", "POSIX", "de_DE.UTF-8", "ja_JP.eucJP")),
    where=st.sampled_from(("root", "subfolder", "outside")),
)
def test_generation_is_byte_identical_in_any_environment(
    seed: str, tz: str, lc_all: str, where: str
) -> None:
    expected = baseline()
    assert len(expected) > 100  # the whole repository's outputs
    with tempfile.TemporaryDirectory() as folder:
        root = fresh_project(Path(folder) / "project")
        env = {"PYTHONHASHSEED": seed, "TZ": tz, "LC_ALL": lc_all, "LANG": lc_all}
        files = generate_in_subprocess(root, env, where)
    assert sorted(files) == sorted(expected)
    different = [name for name in expected if files[name] != expected[name]]
    assert different == [], different
