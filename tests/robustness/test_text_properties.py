"""Any registry or translator text stays text in every output (issue 49's property tests).

Each example puts random text, made of pieces that mean something in one output syntax or
another (markup, comments, Markdown, template and format syntax, quotes, escapes, bidi
controls) and of random characters, into every field of a small registry that reaches an
output, and into a translator's PO file; then reads what errorbook made the way its reader
does: the built site in Chromium, the catalogs with msgfmt and Babel, the YAML files with
PyYAML, the Python package with Python's parser and the TypeScript module with tsc. Each
output must have the same form as the one made from plain text, and hold the text as text.
A text the validator or `check` refuses is fine, as long as it is refused with a diagnostic.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from ..conftest import MINIMAL, MSGFMT, ROOT, Run, po
from ..emit.test_site import browser  # noqa: F401  (a fixture: Chromium, or a skip)

PIECES = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "</title>", "</textarea>",
    "-->", "--!>", "<!--", "<![CDATA[", "]]>", "&lt;", "&amp;", "&#60;", "&", "<", ">",
    "<x-inj data-inj=1>", '" data-inj="1', "' data-inj='1", "`", "``", "*", "**", "_", "__",
    "[x](javascript:alert(3))", "![i](x)", "<https://example.org>", "{: .inj }", "{:", "|",
    "\\", "#", "> ", "- ", "1. ", "!!! note", "```", "~~~", "$", "${x}", "%(x)s", "%s",
    "{{ x }}", "{% if %}", "{#", '"', "'", "'''", '"""', "*/", "/*", "//", "\\u0041",
    "\\x41", "\\n", ": ", "---", "...", "- [x]", "~~x~~", "==x==", "^^x^^", ":smile:", "[^1]",
    "*[HTML]: x", "\u202e", "\u200b", "\u00a0",
    "\n", "msgstr \"x\"", "\\\"", "Plural-Forms: nplurals=9;", "#, fuzzy", "\u02bb", "日本語",
    "\U0001f600", "\ufeff", "\ufffd", "  ", "@", "?>", "<?php",
]  # fmt: skip
DIAGNOSTIC = re.compile(r"\[([EW]-[A-Z0-9-]+)\]")
#: Characters a YAML file may hold (the validator refuses the others, each with its own
#: diagnostic, tested where they are refused).
CHARACTERS = st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"), include_characters="\n")
#: Random text: pieces and characters, as a hostile contributor or translator would type.
texts = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(CHARACTERS, min_size=1, max_size=4)),
    min_size=1,
    max_size=6,
).map("".join)
#: Text for a message or a title: braces are placeholder syntax there, so it has none.
messages = texts.map(lambda text: text.replace("{", "(").replace("}", ")"))

#: Text for the registry's title, a one-line header field of every catalog, in which the
#: validator refuses markup characters (E-META-TITLE-MARKUP).
titles = texts.map(lambda text: "".join(c for c in text if c not in "<>&\"'\n").strip() or "T")

#: The fields that reach an output, each a path into the registry.
FIELDS = {
    "registry_title": ("registry", "title"),
    "description": ("registry", "description"),
    "layer": ("layers", "front", "title"),
    "layer_text": ("layers", "front", "description"),
    "proves": ("layers", "front", "proves"),
    "title": ("codes", "DOOR_CLOSED", "title"),
    "message": ("codes", "DOOR_CLOSED", "message"),
    "meaning": ("codes", "DOOR_CLOSED", "meaning"),
    "rationale": ("codes", "DOOR_CLOSED", "rationale"),
    "step": ("codes", "DOOR_CLOSED", "recovery", "steps", 0),
    "who": ("codes", "ITEMS_REFUSED", "placeholders", "who", "description"),
    "example": ("codes", "ITEMS_REFUSED", "placeholders", "who", "example"),
    "limit": ("limits", "attempts", "title"),
    "bounds": ("limits", "attempts", "bounds"),
    "adapter": ("adapters", "python", "description"),
}
#: The translations a translator gives, by catalog and msgctxt.
TRANSLATED = {
    "message_de": ("messages", "DOOR_CLOSED"),
    "title_de": ("messages", "DOOR_CLOSED.title"),
    "layer_de": ("docs", "layer.front.title"),
}
BRACED = {"message", "title", "message_de", "title_de"}  # where braces are placeholders
PLAIN = dict.fromkeys([*FIELDS, *TRANSLATED], "Plain words")
PYPROJECT = "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\ntypescript-out = 'ts'\n"


def _as_the_source_is_spaced(values: dict[str, str]) -> dict[str, str]:
    """A translation keeps its source's leading and trailing white space, as `check` asks
    (E-TRANSLATION-WHITESPACE): the translator's text between the source's."""
    for name, source in (("message_de", "message"), ("title_de", "title"), ("layer_de", "layer")):
        text, original = values[name].strip() or "x", values[source]
        lead = original[: len(original) - len(original.lstrip())]
        values[name] = lead + text + original[len(original.rstrip()) :]
    return values


hostile = st.fixed_dictionaries(
    {
        **{
            name: (messages if name in BRACED else titles if name == "registry_title" else texts)
            for name in FIELDS
        },
        **{name: (messages if name in BRACED else texts) for name in TRANSLATED},
    }
).map(_as_the_source_is_spaced)
#: One example that the validator accepts, so the property never holds for want of input.
_HOSTILE = "</title><script>alert(1)</script> `{name}` <x-inj data-inj=1> --!> *a* \\ ${{x}}"
ACCEPTED = {
    name: _HOSTILE.format(name=name).replace("{x}", "(x)" if name in BRACED else "{x}")
    for name in PLAIN
} | {"registry_title": "P1 --! */ %(x)s {{ x }} \\ ` Plural-Forms: x"}


#: How each property runs: the same examples on every run (CI must not flake), each
#: example a project of its own, however long it takes.
PROPERTY = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _registry(values: dict[str, str]) -> str:
    data = yaml.safe_load(MINIMAL)
    for name, path in FIELDS.items():
        where: Any = data
        for key in path[:-1]:
            where = where[key]
        where[path[-1]] = values[name]
    return json.dumps(data, ensure_ascii=False, indent=1)  # JSON is YAML: every text exact


def _translate(root: Path, values: dict[str, str]) -> None:
    import polib  # type: ignore[import-untyped]  # polib ships no type hints

    for domain in ("messages", "docs"):
        path = po(root, "de", domain)
        catalog = polib.pofile(str(path))
        for name, (where, context) in TRANSLATED.items():
            for entry in catalog:
                if where == domain and entry.msgctxt == context:
                    entry.msgstr = values[name]
        catalog.save(str(path))


def _project(run: Run, root: Path, values: dict[str, str], record: bool = True) -> tuple[bool, str]:
    """A project made from ``values``, generated with its translations: whether errorbook
    accepted them, and what it said. A refusal must be a diagnostic, never a traceback."""
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(_registry(values), "utf-8")
    (root / "site").mkdir()
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    said = []
    for step in ("generate", "translate", "generate", "check"):
        if step == "translate":
            _translate(root, values)
            continue
        result = run(step, cwd=root)
        said.append(result.err)
        assert "Traceback" not in result.err, result.err
        if result.code != 0:
            assert result.code == 1 and "[E-" in result.err, result.err
            if record:
                event(f"refused by {step}: {sorted(set(DIAGNOSTIC.findall(result.err)))}")
            return False, "".join(said)
    if record:
        event("accepted")
    return True, "".join(said)


def test_the_example_every_property_starts_with_is_accepted(run: Run, tmp_path: Path) -> None:
    """So that each property below holds for at least one hostile text, not for want of one."""
    accepted, said = _project(run, tmp_path / "p", ACCEPTED, record=False)
    assert accepted, said


# --- the built site, in Chromium ----------------------------------------------------------

#: Every element but line breaks, with its attributes' names, in document order; what is
#: inside a code block is Pygments' (it marks escapes in strings) and is judged apart.
_FORM = """() => {
  const form = [], inCode = [];
  for (const e of document.querySelectorAll('*')) {
    const names = Array.from(e.attributes).map(a => a.name).sort().join(',');
    if (e.closest('pre') && e.tagName !== 'PRE') inCode.push(e.tagName + '[' + names + ']');
    else if (e.tagName !== 'BR') form.push(e.tagName + '[' + names + ']');
  }
  return {form, inCode, text: document.body.textContent, title: document.title};
}"""


def _pages(root: Path) -> dict[str, Path]:
    build = root / "site" / "build"
    return {p.relative_to(build).as_posix(): p for p in sorted(build.rglob("*.html"))}


def _read(chromium: Any, pages: dict[str, Path], scripts: bool) -> tuple[dict[str, Any], list[str]]:
    """Each page as Chromium reads it (with the page's scripts off, what its parser made),
    and the dialogs a script opened (with them on)."""
    context = chromium.new_context(java_script_enabled=scripts)
    opened: list[str] = []
    page = context.new_page()

    def dismissed(dialog: Any) -> None:
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismissed)
    found = {}
    for name, path in pages.items():
        page.goto(path.as_uri(), wait_until="load")
        found[name] = page.evaluate(_FORM) if not scripts else None
    context.close()
    return found, opened


def _normal(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def plain_site(
    tmp_path_factory: pytest.TempPathFactory,
    browser: Any,  # noqa: F811
) -> dict[str, Any]:
    from generator.cli import main

    root = tmp_path_factory.mktemp("plain") / "p"
    accepted, said = _project(_InProcess(main), root, PLAIN, record=False)
    assert accepted, said
    assert _InProcess(main)("site", "build", cwd=root).code == 0
    return _read(browser, _pages(root), scripts=False)[0]


class _InProcess:
    """The CLI in this process, for a module-scoped fixture (``run`` is per test)."""

    def __init__(self, main: Any) -> None:
        self.main = main

    def __call__(self, *args: str, cwd: Path) -> Any:
        from ..conftest import Result

        old = Path.cwd()
        os.chdir(cwd)
        try:
            return Result(self.main(list(args)), "", "")
        finally:
            os.chdir(old)


@settings(PROPERTY, max_examples=4)
@given(values=hostile)
@example(values=ACCEPTED)
def test_any_text_stays_text_on_every_built_page(
    values: dict[str, str],
    run: Run,
    tmp_path_factory: pytest.TempPathFactory,
    browser: Any,  # noqa: F811
    plain_site: dict[str, Any],
) -> None:
    root = tmp_path_factory.mktemp("site") / "p"
    accepted, _ = _project(run, root, values)
    if not accepted:
        return
    built = run("site", "build", cwd=root)
    assert built.code == 0, built.err
    pages = _pages(root)
    assert set(pages) == set(plain_site)  # German is published: the layer title is in
    read, _ = _read(browser, pages, scripts=False)
    everything = ""
    for name, page in read.items():
        assert page["form"] == plain_site[name]["form"], name
        assert set(page["inCode"]) <= {"SPAN[]", "SPAN[class]", "CODE[]", "CODE[class]"}, name
        everything += _normal(page["text"]) + " " + _normal(page["title"]) + " "
    _, opened = _read(browser, pages, scripts=True)
    assert opened == []  # no text ran as script
    for name in ("meaning", "step", "layer_text", "limit", "message_de", "title_de"):
        shown = _normal(values[name])
        assert shown in everything, (name, shown)


# --- catalogs, YAML, Python and TypeScript ---------------------------------------------------


def _catalog_form(path: Path) -> tuple[list[str], list[tuple[str | None, bool]]]:
    """A catalog's form as Babel reads it: its header fields' names, and each entry's
    context and whether it has plural forms."""
    from babel.messages.pofile import read_po

    with path.open("rb") as stream:
        catalog = read_po(stream)
    entries = [(m.context, isinstance(m.id, tuple)) for m in catalog if m.id]
    return [name for name, _ in catalog.mime_headers], entries


def _yaml_form(data: Any) -> Any:
    """A YAML document's form: its mappings' keys and its lists' lengths, not its values."""
    if isinstance(data, dict):
        return {key: _yaml_form(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_yaml_form(value) for value in data]
    return type(data).__name__


def _python_form(path: Path) -> tuple[str, list[tuple[int, str]]]:
    """A Python file's form: its syntax tree with every string emptied, and its tokens with
    strings and comments emptied (a comment that a line break ended would add tokens)."""
    import io
    import tokenize

    source = path.read_text("utf-8")
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    tokens = [
        (t.type, "" if t.type in (tokenize.STRING, tokenize.COMMENT) else t.string)
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
    ]
    return ast.dump(tree), tokens


def _forms(root: Path) -> dict[str, Any]:
    """The form of every catalog, YAML document and Python file errorbook wrote."""
    forms: dict[str, Any] = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if name.startswith("site/build") or "__pycache__" in name:
            continue
        if path.suffix in (".po", ".pot"):
            forms[name] = _catalog_form(path)
        elif path.suffix == ".yml" and path.name != "mkdocs.base.yml":
            forms[name] = _yaml_form(yaml.safe_load(path.read_text("utf-8")))
        elif path.suffix == ".md":
            text = path.read_text("utf-8")
            front = text.split("\n---\n", 1)[0] if text.startswith("---\n") else None
            forms[name] = _yaml_form(yaml.safe_load(front[4:])) if front else None
        elif path.suffix == ".py":
            forms[name] = _python_form(path)
        elif path.suffix == ".json":
            forms[name] = _yaml_form(json.loads(path.read_text("utf-8")))
    return forms


#: Each TypeScript file's syntax tree as TypeScript's own parser reads it: the kind of every
#: node, with the parser's complaints (a comment that text ended would add nodes or them).
_TS_FORM = """
const ts = require(process.argv[1]);
const fs = require("fs");
const out = {};
for (const file of process.argv.slice(2)) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const kinds = [];
  const walk = (node) => { kinds.push(ts.SyntaxKind[node.kind]); ts.forEachChild(node, walk); };
  walk(source);
  out[file] = {kinds, problems: source.parseDiagnostics.length};
}
console.log(JSON.stringify(out));
"""
TYPESCRIPT = ROOT / "ts" / "node_modules" / "typescript" / "lib" / "typescript.js"


def _typescript_forms(root: Path) -> dict[str, Any]:
    if not TYPESCRIPT.exists() or shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("`make ts-test` installs TypeScript before the Python tests run")
        return {}  # without TypeScript, the other outputs are still judged
    files = sorted(str(p.relative_to(root)) for p in (root / "ts").rglob("*.ts"))
    done = subprocess.run(
        ["node", "-e", _TS_FORM, str(TYPESCRIPT), *files],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _said_by_python(root: Path) -> list[str]:
    """What the generated package says for the texts, in a process of its own."""
    script = (
        "import json, demo_errors as m\n"
        "c = m.ErrorCode.DOOR_CLOSED\n"
        "print(json.dumps([m.message(c), m.message(c, 'de'), m.title(c), m.title(c, 'de')]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.fixture(scope="module")
def plain_forms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from generator.cli import main

    root = tmp_path_factory.mktemp("plain-forms") / "p"
    accepted, said = _project(_InProcess(main), root, PLAIN, record=False)
    assert accepted, said
    return _forms(root) | {"typescript": _typescript_forms(root)}


@settings(PROPERTY, max_examples=25)
@given(values=hostile)
@example(values=ACCEPTED)
def test_any_text_keeps_the_form_of_every_catalog_yaml_and_python_file(
    values: dict[str, str],
    run: Run,
    tmp_path_factory: pytest.TempPathFactory,
    plain_forms: dict[str, Any],
) -> None:
    root = tmp_path_factory.mktemp("forms") / "p"
    accepted, _ = _project(run, root, values)
    if not accepted:
        return
    forms = _forms(root) | {"typescript": _typescript_forms(root)}
    assert set(forms) == set(plain_forms)
    for name, form in forms.items():
        assert form == plain_forms[name], name
    if MSGFMT is not None:  # GNU gettext reads each catalog as errorbook wrote it
        for path in sorted((root / "locales").rglob("*.po")):
            done = subprocess.run(
                [MSGFMT, "--check", "-o", os.devnull, str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0, (path, done.stderr)
    assert _said_by_python(root) == [
        values["message"],
        values["message_de"],
        values["title"],
        values["title_de"],
    ]
