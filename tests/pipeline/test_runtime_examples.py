"""The site's examples are what the generated package returns: pipeline.runtime imports the
package from a run's files (never from disk) and calls its own functions."""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any, cast

import pytest

import surface_errors as se
from generator import config
from generator.emit.site import wires
from generator.pipeline import build, runtime
from generator.registry.model import Registry

from ..conftest import MINIMAL, ROOT, Run, make_project

LANGUAGES = ("en", "de", "ja")


@pytest.fixture(scope="module")
def made() -> tuple[Registry, Mapping[str, bytes], str]:
    settings = config.load(cwd=ROOT)
    registry = build.registry_for(settings)
    files = build.outputs(settings, registry)
    package_dir = (
        PurePosixPath(settings.display(settings.python_out)) / registry.meta.package
    ).as_posix()
    return registry, files, package_dir


def expected(code: se.ErrorCode, lang: str) -> dict[str, object]:
    """Each wire's value, from the package as installed in the working tree."""
    info = se.CODES[code]
    values = {
        p.name: p.example for p in _registry_code(code.value).placeholders if p.example is not None
    }
    asked = None if lang == "en" else lang
    envelope = (
        se.failure(code, locale=asked, params=values) if asked else se.failure(code, params=values)
    )
    assert info.code is code
    found: dict[str, object] = {"python": envelope, "http": se.to_http(envelope)}
    if envelope["ok"] is False:  # a failure inside a result has no problem object
        found["problem"] = se.to_http(envelope, problem=True)
    found["jsonrpc"] = se.to_mcp(envelope, 1)
    found["tool"] = se.to_tool_result(envelope)
    found["grpc"] = se.to_status(code, asked, params=values)
    return found


_REGISTRY: dict[str, Any] = {}


def _registry_code(name: str) -> Any:
    if not _REGISTRY:
        registry = build.registry_for(config.load(cwd=ROOT))
        _REGISTRY.update({c.name: c for c in registry.codes})
    return _REGISTRY[name]


def test_examples_come_from_the_package_the_run_made(
    made: tuple[Registry, Mapping[str, bytes], str],
) -> None:
    registry, files, package_dir = made
    with runtime.imported(files, package_dir) as package:
        examples = runtime.Examples(package, registry.meta.source_locale)
        for code in registry.codes:
            for lang in LANGUAGES:
                got = {e.wire: e.value for e in examples.examples(code, lang)}
                assert got == expected(se.ErrorCode(code.name), lang), (code.name, lang)


def test_the_package_is_read_from_memory_and_leaves_nothing_behind(
    made: tuple[Registry, Mapping[str, bytes], str],
) -> None:
    registry, files, package_dir = made
    # A German message proves the compiled catalog was read from the run's files.
    changed = dict(files)
    mo = f"{package_dir}/locales/de/LC_MESSAGES/messages.mo"
    changed.pop(mo)
    code = next(c for c in registry.codes if c.name == "PERMISSION_DENIED")
    before = set(sys.modules)
    with runtime.imported(files, package_dir) as package:
        german = runtime.Examples(package, "en").examples(code, "de")[0].value
    with runtime.imported(changed, package_dir) as package:
        english = runtime.Examples(package, "en").examples(code, "de")[0].value

    def message(envelope: Any) -> object:
        return envelope["result"]["error"]["message"]

    assert message(german) == se.message(
        se.ErrorCode.PERMISSION_DENIED, "de", action="delete_account"
    )
    assert message(english) == se.message(se.ErrorCode.PERMISSION_DENIED, action="delete_account")
    assert message(german) != message(english)
    assert {m for m in set(sys.modules) - before if m.startswith("_errorbook_runtime")} == set()


def test_the_fingerprint_follows_the_package_and_the_language(
    made: tuple[Registry, Mapping[str, bytes], str],
) -> None:
    _, files, package_dir = made
    wire = f"{package_dir}/wire.py"
    edited = {**files, wire: files[wire] + b"\n# changed\n"}
    with runtime.imported(files, package_dir) as one, runtime.imported(edited, package_dir) as two:
        assert one.fingerprint("de") != one.fingerprint("ja")
        assert one.fingerprint("de") != two.fingerprint("de")
        assert one.module("envelope") is not None
        assert one.module("no_such_module") is None


def _tabs(page: str) -> dict[str, str]:
    """Each content tab of a page's example: its first fenced block's text, by label."""
    found = {}
    for match in re.finditer(r'^=== "([^"]+)"\n(.*?)(?=^=== |^## |\Z)', page, re.S | re.M):
        body = "\n".join(line[4:] for line in match.group(2).split("\n"))
        block = re.search(r"^(`{3,})\w*\n(.*?)\n\1$", body, re.S | re.M)
        assert block is not None, match.group(1)
        found[match.group(1)] = block.group(2)
    return found


def _parsed(wire: str, text: str) -> object:
    if wire == "python":
        return ast.literal_eval(text)
    if wire in ("http", "problem"):
        head, _, body = text.partition("\n\n")
        status_line, *headers = head.split("\n")
        status = int(status_line.split(" ")[1])
        return status, dict(h.split(": ", 1) for h in headers), json.loads(body)
    return json.loads(text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_page_shows_what_the_committed_package_returns(lang: str) -> None:
    """The committed pages against the committed package, tab by tab."""
    labels = _labels(lang)
    for code in se.ErrorCode:
        page = (
            ROOT / "site" / "docs" / lang / "codes" / f"{se.CODES[code].docs_url.split('/')[-2]}.md"
        ).read_text()
        tabs = _tabs(page)
        want = expected(code, lang)
        assert [labels[w] for w in want] == list(tabs), code
        for wire, value in want.items():
            if wire in ("http", "problem"):
                status, headers, body = cast("tuple[int, dict[str, str], bytes]", value)
                value = (status, headers, json.loads(body))
            assert _parsed(wire, tabs[labels[wire]]) == value, (code, wire)


def _labels(lang: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    catalog: dict[str, str] = {}
    path = ROOT / "templates" / "site" / "i18n" / f"{lang}.po"
    if path.exists():
        with path.open("rb") as stream:
            catalog = {str(m.id): str(m.string) for m in read_po(stream) if m.id and m.string}
    return {wire: catalog.get(label, label) for wire, label in wires.WIRES.items()}


def test_a_python_value_is_shown_whole_and_as_python() -> None:
    value = {"ok": True, "result": {"error": {"message": "x" * 200, "n": None, "l": [1, "a"]}}}
    text = wires.python_literal(value)
    assert ast.literal_eval(text) == value
    assert "x" * 200 in text  # one string, not pieces


def test_an_http_answer_is_shown_with_its_reason_phrase() -> None:
    text = wires.http_text(429, {"Content-Type": "application/json"}, b'{"a":1}')
    assert text.split("\n")[:3] == [
        "HTTP/1.1 429 Too Many Requests",
        "Content-Type: application/json",
        "",
    ]
    assert json.loads(text.split("\n\n", 1)[1]) == {"a": 1}
    assert wires.http_text(299, {}, b"plain").startswith("HTTP/1.1 299\n")


def test_a_package_that_refuses_an_example_is_a_diagnostic_at_the_code(
    run: Run, tmp_path: Path
) -> None:
    """An overridden envelope.py whose failure() raises: generate names the code, its line
    and the package's error, exits 1 and writes nothing; no traceback."""
    project = make_project(tmp_path / "p")
    (project / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\ntemplates = 'mine'\n", "utf-8"
    )
    shipped = (ROOT / "templates" / "python" / "envelope.py").read_text("utf-8")
    broken = shipped.replace(
        "def failure(",
        "def failure(*args: object, **kwargs: object) -> None:\n"
        "    raise RuntimeError('refused on purpose')\n\n\ndef _old_failure(",
        1,
    )
    assert broken != shipped
    (project / "mine" / "python").mkdir(parents=True)
    (project / "mine" / "python" / "envelope.py").write_text(broken, "utf-8")
    result = run("generate", cwd=project)
    assert result.code == 1, result.err
    line = next(n for n, text in enumerate(MINIMAL.split("\n"), 1) if text == "  DOOR_CLOSED:")
    assert f"codes.yaml:{line}:3: error: the generated package refused the example of " in (
        result.err
    )
    assert "RuntimeError: refused on purpose" in result.err and "[E-EXAMPLE-RUNTIME]" in result.err
    assert "Traceback" not in result.err
    assert not (project / "site" / "docs").exists()
