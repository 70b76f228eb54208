"""Hostile translators (issue 8, part 3): a corpus of PO files, each with its outcome.

Every case in ``tests/hostile/cases.yaml`` edits a translator's PO file of a small project
(the registry of tests/conftest.py, with a site) and states what must happen:

- ``rejected``: ``errorbook check`` fails and names the PO file and the exact line;
- ``inert``: ``check`` finds nothing, and the translation is shown exactly as text, by
  ``message()`` of the generated package and on the site, where no markup of it is live;
- ``ignored``: ``check`` finds nothing, and the translation is never shown (a fuzzy or
  obsolete entry, an entry of no code).

In every case ``message()`` of the package that ``errorbook generate`` builds never raises
because of the translation, and returns the source text where the translation is refused
or ignored; no hostile text that is not shown as itself reaches the site.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator import plurals
from generator.cli import main
from generator.registry import placeholders

from ..conftest import REGISTRY, ROOT, Run, cache_of, po
from ..emit.test_emit_python import load_module
from .test_fuzz import hang_guard
from .test_properties import Page, assert_inert, collapse, page_html

CASES_FILE = ROOT / "tests" / "hostile" / "cases.yaml"
PYPROJECT = "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n"
OUTCOMES = ("rejected", "inert", "ignored")
#: The value every placeholder of type text gets: a hostile parameter is data too.
WHO = "<b>Ann</b>"
SOURCE = {
    "DOOR_CLOSED": ("The door is closed.",),
    "ITEMS_REFUSED": ("{count} item was refused by {who}.", "{count} items were refused by {who}."),
}
#: Reference prose the base project translates, so that each language has a site.
BASE_DOCS = {"de": "Klopfen.", "pl": "Zapukaj."}


# --- the corpus ----------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    what: str
    expect: str
    locale: str = "de"
    domain: str = "messages"
    set: dict[str, Any] = field(default_factory=dict)
    edits: list[dict[str, Any]] = field(default_factory=list)
    encoding: str = "utf-8"
    newline: str = "\n"
    at: Any = None
    problem: str = ""
    shown: dict[str, str] = field(default_factory=dict)
    xfail: str = ""

    @property
    def path(self) -> str:
        return f"locales/{self.locale}/LC_MESSAGES/{self.domain}.po"


def load_cases() -> list[Case]:
    raw = yaml.safe_load(CASES_FILE.read_text("utf-8"))
    cases = [Case(**item) for item in raw]
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    for case in cases:
        assert case.expect in OUTCOMES, case.id
        assert (case.expect == "rejected") == (case.at is not None), case.id
        assert case.what, case.id
    return cases


CASES = load_cases()


def test_the_corpus_has_at_least_100_cases() -> None:
    assert len(CASES) >= 100
    kinds = {case.expect for case in CASES}
    assert kinds == set(OUTCOMES)


# --- writing a hostile PO file -------------------------------------------------------------


def po_quote(text: str) -> str:
    """A PO string as a translator's tool writes it."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
    return f'"{escaped}"'


def value_text(value: Any) -> str:
    """A translation as the case gives it: text, or text repeated."""
    if isinstance(value, dict) and "repeat" in value:
        return str(value["repeat"]) * int(value["times"]) + str(value.get("then", ""))
    assert isinstance(value, str), value
    return value


def is_raw(value: Any) -> bool:
    """A translation given as PO syntax ({po: ...} or {po_lines: ...}), not as text."""
    return isinstance(value, dict) and ("po" in value or "po_lines" in value)


def msgstr_lines(value: Any) -> list[str]:
    """The msgstr line(s) for a value: text, a list of plural forms, {po: raw PO string
    content}, or {po_lines: raw lines}."""
    if isinstance(value, dict) and "po_lines" in value:
        return str(value["po_lines"]).split("\n")
    if isinstance(value, dict) and "po" in value:
        return [f'msgstr "{value["po"]}"']
    if isinstance(value, list):
        return [f"msgstr[{i}] {po_quote(value_text(v))}" for i, v in enumerate(value)]
    return [f"msgstr {po_quote(value_text(value))}"]


def set_translations(text: str, values: dict[str, Any]) -> str:
    """Replace the msgstr lines of the active entry of each msgctxt."""
    lines = text.split("\n")
    for context, value in values.items():
        start = lines.index(f"msgctxt {po_quote(context)}")
        first = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
        end = first
        while end < len(lines) and (lines[end].startswith("msgstr") or lines[end][:1] == '"'):
            end += 1
        lines[first:end] = msgstr_lines(value)
    return "\n".join(lines)


def apply_edits(text: str, edits: list[dict[str, Any]]) -> str:
    for edit in edits:
        if "replace" in edit:
            old, new = edit["replace"]
            assert old in text, old
            text = text.replace(old, value_text(new), 1)
        elif "append" in edit:
            text += edit["append"]
        elif "prepend" in edit:
            text = edit["prepend"] + text
        elif "replace_line" in edit:
            needle, new = edit["replace_line"]
            lines = text.split("\n")
            at = next(i for i, line in enumerate(lines) if needle in line)
            lines[at] = new
            text = "\n".join(lines)
        elif "remove_line" in edit:
            lines = text.split("\n")
            lines.remove(next(line for line in lines if edit["remove_line"] in line))
            text = "\n".join(lines)
    return text


def encode(text: str, case: Case) -> bytes:
    text = text.replace("\n", case.newline)
    data = text.encode(case.encoding, "surrogatepass")
    for edit in case.edits:
        if "bytes" in edit:
            old, new = (part.encode("latin-1") for part in edit["bytes"])
            assert old in data, old
            data = data.replace(old, new, 1)
    return data


def expected_line(case: Case, text: str) -> int:
    """The line a rejection must name, in the file as written (before any encoding)."""
    at = case.at
    lines = text.split("\n")
    if isinstance(at, int):
        return at
    if at == "header":
        return 1
    if isinstance(at, dict) and "contains" in at:
        return next(i for i, line in enumerate(lines, 1) if at["contains"] in line)
    if isinstance(at, dict) and "last" in at:
        return max(i for i, line in enumerate(lines, 1) if at["last"] in line)
    context = next(iter(case.set))
    start = lines.index(f"msgctxt {po_quote(context)}")
    keyword = "msgstr" if at == "msgstr" else str(at)
    return next(
        i
        for i, line in enumerate(lines[start:], start + 1)
        if line.startswith(keyword + " ") or line.startswith(keyword + "\t")
    )


# --- what the package must say -------------------------------------------------------------

_FIELD = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(template: str, params: dict[str, object]) -> str:
    """Named fields replaced, doubled braces halved (independent of errorbook's own fill)."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        return token[0] if token in ("{{", "}}") else str(params[match.group(1)])

    return _FIELD.sub(one, template)


def expected_messages(case: Case, shown: bool) -> dict[tuple[str, int], str]:
    """(code, count) to the message the package must return in the case's locale."""
    rule = plurals.lookup(case.locale)
    assert rule is not None
    result = {}
    for code, source in SOURCE.items():
        for count in (1, 5):
            params: dict[str, object] = {"count": count, "who": WHO} if len(source) > 1 else {}
            value = case.set.get(code) if case.domain == "messages" else None
            key = f"{code}:{count}"
            if shown and key in case.shown:
                result[(code, count)] = case.shown[key]
            elif shown and code in case.shown:
                result[(code, count)] = case.shown[code]
            elif shown and value is not None and not is_raw(value):
                forms = value if isinstance(value, list) else [value]
                index = rule.index(count) if len(forms) > 1 else 0
                result[(code, count)] = fill(value_text(forms[index]), params)
            else:
                template = source[0] if len(source) == 1 or count == 1 else source[1]
                result[(code, count)] = fill(template, params)
    return result


def shown_on_site(case: Case) -> list[tuple[str, str, str]]:
    """(page, section, text) the site must show for an inert case."""
    found = []
    for context, value in case.set.items():
        code, _, rest = context.partition(".")
        if code not in SOURCE:
            continue
        if case.domain == "messages":
            if is_raw(value):
                text = case.shown.get("site", "")
            else:  # a message reads on the site as the runtime writes it: {{ as {
                text = placeholders.shown(
                    value_text(value[-1] if isinstance(value, list) else value)
                )
            section = "message"
        else:
            text = value_text(value)
            section = {"meaning": "meaning", "placeholder": "message"}.get(
                rest.split(".")[0], "recovery"
            )
        if text:
            found.append((code.lower(), section, text))
    return found


def letters(text: str) -> str:
    """Only the letters and digits of a text: escapes or markup around them do not hide it."""
    return "".join(char for char in text if char.isalnum())


def hostile_texts(case: Case) -> Iterator[str]:
    """Translations of the case (their letters and digits) that must not appear on the site
    unless the case accepts them."""
    for value in case.set.values():
        if is_raw(value):
            continue
        for form in value if isinstance(value, list) else [value]:
            text = letters(value_text(form))
            if len(text) >= 6:
                yield text


# --- the base project ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated project with every UI message untranslated and one line of reference
    prose translated per language (so that every language has a site)."""
    root = tmp_path_factory.mktemp("hostile") / "base"
    root.mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(REGISTRY, "utf-8")
    (root / "site").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["generate"]) == 0
        for locale, text in BASE_DOCS.items():
            path = po(root, locale, "docs")
            path.write_text(
                set_translations(path.read_text("utf-8"), {"DOOR_CLOSED.recovery.1": text}),
                "utf-8",
            )
        assert main(["generate"]) == 0
        assert main(["check"]) == 0
    shutil.rmtree(cache_of(root), ignore_errors=True)
    return root


_loaded = 0


def messages_of(root: Path, locale: str) -> dict[tuple[str, int], str]:
    global _loaded
    _loaded += 1
    name = f"demo_errors_hostile_{_loaded}"
    module = load_module(root / "demo_errors", name)
    try:
        return {
            (code, count): module.message(code, locale, **params)
            for code, source in SOURCE.items()
            for count in (1, 5)
            for params in [{"count": count, "who": WHO} if len(source) > 1 else {}]
        }
    finally:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]


def catalog_rows(err: str, path: str) -> list[str]:
    return [row for row in err.splitlines() if row.startswith(path + ":")]


# --- the test ------------------------------------------------------------------------------


def _param(case: Case) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_hostile_translation(case: Case, base: Path, tmp_path: Path, run: Run) -> None:
    root = tmp_path / "p"
    shutil.copytree(base, root, ignore=shutil.ignore_patterns("__pycache__"))
    target = root / case.path
    text = set_translations(target.read_text("utf-8"), case.set) if case.set else None
    text = apply_edits(text if text is not None else target.read_text("utf-8"), case.edits)
    target.write_bytes(encode(text, case))
    before = {
        code: Page(page_html(root / f"site/docs/{case.locale}/codes/{code}.md")).text
        for code in ("door_closed", "items_refused")
    }

    with hang_guard():  # every command stays within test_fuzz.HANG_SECONDS of CPU time
        checked = run("check", cwd=root)
    assert checked.code in (0, 1), checked.err
    assert "internal error" not in checked.err and "Traceback" not in checked.err
    rows = catalog_rows(checked.err, case.path)
    if case.expect == "rejected":
        line = expected_line(case, text)
        assert checked.code == 1
        named = [row for row in rows if row.startswith(f"{case.path}:{line}:")]
        assert any(case.problem in row for row in named), (line, rows)
    else:
        assert rows == [], rows

    with hang_guard():
        generated = run("generate", cwd=root)
    assert generated.code in (0, 1), generated.err
    assert "internal error" not in generated.err and "Traceback" not in generated.err
    if case.expect != "rejected":
        assert generated.code == 0, generated.err
        with hang_guard():
            again = run("check", cwd=root)
        assert again.code == 0, again.out + again.err

    # The package: message() never raises, and says what the case expects.
    assert messages_of(root, case.locale) == expected_messages(case, case.expect == "inert")

    # The site: nothing live, the translation shown as text only where it is accepted.
    for code in ("door_closed", "items_refused"):
        source = page_html(root / f"site/docs/{case.locale}/codes/{code}.md")
        page = Page(source)
        assert_inert(source, page)
        if case.expect != "inert":
            for hostile in hostile_texts(case):
                leaked = hostile in letters(page.text) and hostile not in letters(before[code])
                assert not leaked, f"the site shows a translation it must not: {hostile}"
    if case.expect == "inert":
        for code, section, text in shown_on_site(case):
            page = Page(page_html(root / f"site/docs/{case.locale}/codes/{code}.md"))
            assert collapse(text) in page.section(section), (section, text)
