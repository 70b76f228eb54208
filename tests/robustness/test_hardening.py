"""What a careful newcomer tried to break, and must stay fixed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import surface_errors as se
from generator.diagnostics import InvalidInput
from generator.registry import placeholders
from generator.registry.validate import load_registry_text

from ..conftest import MINIMAL, ROOT, Run, make_project, po, translate


def problems(text: str) -> str:
    with pytest.raises(InvalidInput) as info:
        load_registry_text(text, "r.yaml")
    return info.value.diagnostics.render()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('msgstr "Die Tür ist zu.', ":8: error: the string is not closed on this line"),
        ("msgstr Die Tür ist zu.", ":8: error: a quoted string is missing"),
        ('msgstr "Die Tür" ist zu."', ":17: error: text after the closing quote"),
        ('msgstr "Die T\\qür"', ":14: error: unknown escape '\\q'"),
        ('msgctx "DOOR_CLOSED"', ":1: error: unknown keyword 'msgctx'"),
    ],
)
def test_malformed_po_lines_are_errors_and_nothing_is_written(
    run: Run, translated: Path, line: str, expected: str
) -> None:
    path = po(translated, "de")
    text = path.read_text("utf-8")
    target = (
        'msgstr "Die Tür ist zu."' if not line.startswith("msgctx") else 'msgctxt "DOOR_CLOSED"'
    )
    number = text.split("\n").index(target) + 1
    path.write_text(text.replace(target, line, 1), "utf-8")
    result = run("check", cwd=translated)
    assert result.code == 1
    first = result.err.splitlines()[0]
    column = expected.split(":")[1]
    assert first.startswith(f"locales/de/LC_MESSAGES/messages.po:{number}:{column}: error:"), first
    assert expected.split(": ", 1)[1] in first
    assert result.err.count(first) == 1  # reported once
    before = path.read_bytes()
    assert run("generate", cwd=translated).code == 1
    assert path.read_bytes() == before


def test_removed_outputs_are_reported_then_removed(run: Run, translated: Path) -> None:
    (translated / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (translated / "site").mkdir()
    assert run("generate", cwd=translated).code == 0
    page = translated / "site/docs/en/codes/door_closed.md"
    mo = translated / "demo_errors/locales/pl/LC_MESSAGES/messages.mo"
    assert page.exists() and mo.exists()
    registry = translated / "codes.yaml"
    registry.write_text(
        registry.read_text("utf-8")
        .replace("DOOR_CLOSED", "DOOR_SHUT")
        .replace("locales: [de, pl]", "locales: [de]"),
        "utf-8",
    )
    result = run("check", cwd=translated)
    assert result.code == 1
    assert "orphaned site/docs/en/codes/door_closed.md" in result.out
    assert "orphaned demo_errors/locales/pl/LC_MESSAGES/messages.mo" in result.out
    generated = run("generate", cwd=translated)
    assert "removed  site/docs/en/codes/door_closed.md" in generated.out
    assert not page.exists() and not mo.exists() and not mo.parent.exists()
    assert po(translated, "pl").exists()  # a translator's work is never removed
    assert run("check", cwd=translated).code == 0


def test_a_file_errorbook_did_not_write_is_not_overwritten(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    hand_written = root / "demo_errors" / "codes.py"
    hand_written.parent.mkdir()
    hand_written.write_text("# my own module\n", "utf-8")
    # check says so first, rather than sending the user to a generate that will refuse
    checked = run("check", cwd=root)
    assert checked.code == 1
    assert "demo_errors/codes.py exists and was not written by errorbook" in checked.err
    assert "once the files named above are moved away, run `errorbook generate`" in checked.out
    result = run("generate", cwd=root)
    assert result.code == 1
    assert "demo_errors/codes.py exists and was not written by errorbook" in result.err
    assert hand_written.read_text("utf-8") == "# my own module\n"
    assert not (root / "demo_errors" / "__init__.py").exists()  # nothing half-written


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("title: Demo", "title: Demo <img src=x onerror=alert(1)>", "contains markup characters"),
        (
            "docs_url: https://docs.example.org/errors/",
            "docs_url: 'https://docs.example.org/e\"><svg/onload=alert(1)>/'",
            "must be an http(s) URL ending in '/'",
        ),
        ("package: demo_errors", "package: class", "cannot be the generated package's name"),
        ("package: demo_errors", "package: generator", "cannot be the generated package's name"),
        (
            "meaning: Nobody is let in.",
            'meaning: "red \\e[31m alert"',
            "contains the control character U+001B at character 5",
        ),
        ("meaning: Nobody is let in.", 'meaning: "a\\Nb"', "contains the control character U+0085"),
        ("http: 403", "http: 0x_", "must be a decimal integer, not 0x_"),
        ("layer: front", "layer: front\n    shape_reason: Why.", "has a 'shape_reason' but"),
    ],
)
def test_registry_values_that_would_do_harm_are_refused(old: str, new: str, message: str) -> None:
    assert message in problems(MINIMAL.replace(old, new, 1))


def test_a_broken_layer_does_not_blame_its_codes() -> None:
    text = MINIMAL.replace("    title: Inner\n", "    titel: Inner\n").replace(
        "    related: [DOOR_CLOSED]\n",
        "    related: [DOOR_CLOSED]\n    shape: protocol\n    shape_reason: Why.\n"
        "    http: 409\n    jsonrpc: -32055\n",
    )
    found = problems(text)
    assert "unknown key 'titel'" in found and "shape_reason" not in found


def test_control_characters_in_the_file_are_diagnosed() -> None:
    assert "r.yaml:2:10: error: the character U+0007 is not allowed" in problems(
        "registry:\n  name: a\x07b\n"
    )


def test_diagnostics_name_a_registry_outside_the_project_as_it_is(run: Run, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "reg.yaml"
    outside.parent.mkdir()
    outside.write_text(MINIMAL.replace("layer: front", "layer: frnt"), "utf-8")
    result = run("validate", "--registry", str(outside))
    line = MINIMAL.split("\n").index("  DOOR_CLOSED:") + 2  # its 'layer:' line
    assert result.err.startswith(f"{outside.as_posix()}:{line}:12: error:")


def test_a_broken_pyproject_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nversion = "1.0\n', "utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.code == 2 and "not valid TOML" in result.err
    # at the place tomllib names, as every other problem (it said "(at line 2, column 15)")
    assert f"{tmp_path / 'pyproject.toml'}:2:15: error: not valid TOML: " in result.err
    assert "(at line" not in result.err


@pytest.mark.parametrize("tag", ["de_DE.UTF-8", "es_419", "zh-Hant-TW"])
def test_init_locale_refuses_what_the_registry_would(run: Run, tag: str) -> None:
    result = run("init-locale", tag)
    assert result.code == 2 and "is not a locale tag" in result.err


def test_a_translation_of_a_message_without_placeholders_is_checked(
    run: Run, translated: Path
) -> None:
    translate(po(translated, "de"), {"DOOR_CLOSED": "Die {0} ist {x.__class__} zu."})
    result = run("check", cwd=translated)
    assert "has a positional placeholder '{0}'" in result.err
    assert "has attribute access in '{x.__class__}'" in result.err


def test_a_translation_check_refuses_is_not_compiled(run: Run, translated: Path) -> None:
    translate(
        po(translated, "de"),
        {"ITEMS_REFUSED": ["{count} Artikel abgelehnt.", "{count} Artikel abgelehnt."]},
    )
    generated = run("generate", cwd=translated)
    assert (
        "warning: the translation of 'ITEMS_REFUSED' (msgstr[1]) leaves out '{who}'"
        in generated.err
    )
    from ..emit.test_emit_python import load_module

    shutil.rmtree(translated / "demo_errors" / "__pycache__", ignore_errors=True)
    module = load_module(translated / "demo_errors", "demo_errors_refused")
    assert (
        module.message("ITEMS_REFUSED", "de", count=2, who="Ann") == "2 items were refused by Ann."
    )


def test_the_site_fills_examples_as_the_runtime_does() -> None:
    for template in ("{field}}} x", "{{field}} {field}", "a {field} b"):
        runtime = se.envelope.fill(template, ("field",), {"field": "qty"})
        assert placeholders.fill(template, {"field": "qty"}) == runtime


def test_runtime_edges() -> None:
    with pytest.raises(TypeError, match="unexpected parameter 'foo'"):
        se.failure("PERMISSION_DENIED", message="custom", action="x", foo=1)
    assert se.classify({"ok": True, "result": {"error": False, "items": []}}).ok
    assert isinstance(hash(se.classify({"ok": False, "error": {"code": "INVALID_REQUEST"}})), int)
    assert str(se.ErrorCode.PERMISSION_DENIED) == "PERMISSION_DENIED"
    assert f"{se.Layer.EXECUTION}" == "execution"
    for i in range(1500):
        se.message("NOT_CONFIGURED", f"de-x-{i}")
    assert len(se.i18n._translators) <= 512


def test_mkdocs_configs_keep_every_character(run: Run, tmp_path: Path) -> None:
    text = MINIMAL.replace("title: Demo", "title: Demo 😀 𠮷").replace(
        "locales: [de]", "locales: [pt_BR]"
    )
    root = make_project(tmp_path / "p", text)
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir()
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    assert run("generate", cwd=root).code == 0
    config = (root / "site" / "mkdocs.en.yml").read_text("utf-8")
    assert "Demo 😀 𠮷" in config and "\\ud83d" not in config
    assert json.dumps("x")  # the config is read by YAML, which accepts these literally


def test_the_fast_path_checks_what_the_slow_path_checks() -> None:
    words = se.Translator("pl")
    first = words.message("LLM_RETRIES_EXHAUSTED", attempts=5)
    assert words.message("LLM_RETRIES_EXHAUSTED", attempts=5) == first  # now cached
    with pytest.raises(TypeError, match="must be an int"):
        words.message("LLM_RETRIES_EXHAUSTED", attempts=True)  # True == 1 as a dict key
    with pytest.raises(TypeError, match="missing placeholder 'action'"):
        words.message("PERMISSION_DENIED", actor="x")
    assert words.message("PERMISSION_DENIED", action="{x}") == words.message(
        "PERMISSION_DENIED", action="{x}"
    )
    assert "{x}" in words.message("PERMISSION_DENIED", action="{x}")  # values are not formats


def test_generate_names_every_file_in_its_way_as_check_does(run: Run, tmp_path: Path) -> None:
    """With two hand-written files where errorbook would write, check named both and
    generate only the first: the user moved one away, ran again, and met the next."""
    root = make_project(tmp_path / "p")
    package = root / "demo_errors"
    package.mkdir()
    for name in ("codes.py", "i18n.py"):
        (package / name).write_text("# my own module\n", "utf-8")
    checked = run("check", cwd=root)
    result = run("generate", cwd=root)
    assert result.code == 1
    for name in ("codes.py", "i18n.py"):
        assert f"demo_errors/{name}" in checked.err, checked.err
        assert f"demo_errors/{name}" in result.err, result.err
        assert (package / name).read_text("utf-8") == "# my own module\n"
    assert "were not written by errorbook" in result.err and "move them away" in result.err
