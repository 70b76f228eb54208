"""The errorbook command line, as a release engineer and a reader use it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import surface_errors as se
from generator import cli

from .conftest import MINIMAL, ROOT, Run, errorbook_process, generated_count, make_project

TOTAL = generated_count()


def mtimes(folder: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in sorted(folder.rglob("*")) if p.is_file()}


def test_generate_on_a_fresh_tree_changes_nothing_and_touches_nothing(
    run: Run, project: Path
) -> None:
    before = mtimes(project / "surface_errors")
    result = run("generate", cwd=project)
    assert result.code == 0
    assert result.out == f"0 files changed, {TOTAL} unchanged\n"
    assert mtimes(project / "surface_errors") == before
    again = run("generate", cwd=project)
    assert again.out == "0 files changed (no input changed since the last run)\n"
    forced = run("generate", "--force", cwd=project)
    assert forced.out == f"0 files changed, {TOTAL} unchanged\n"
    assert mtimes(project / "surface_errors") == before


def test_check_passes_on_a_fresh_tree(run: Run, project: Path) -> None:
    result = run("check", cwd=project)
    assert result.code == 0, result.out + result.err
    assert result.out == f"{TOTAL} generated files are up to date with codes.yaml\n"


def test_rewording_a_message_makes_check_name_the_stale_file(run: Run, project: Path) -> None:
    registry = project / "codes.yaml"
    text = registry.read_text("utf-8")
    registry.write_text(
        text.replace("The action {action} was not allowed.", "The action {action} was refused."),
        "utf-8",
    )
    before = mtimes(project / "surface_errors")
    result = run("check", cwd=project)
    assert result.code == 1
    lines = result.out.splitlines()
    # The module, the template and every catalog whose entry changed are named.
    assert "stale    surface_errors/_records.py" in lines
    assert "stale    locales/messages.pot" in lines
    assert "stale    locales/de/LC_MESSAGES/messages.po" in lines
    assert lines[-1].endswith("run `errorbook generate` to update")
    assert mtimes(project / "surface_errors") == before  # check writes nothing
    fixed = run("generate", cwd=project)
    assert "updated  surface_errors/_records.py\n" in fixed.out
    assert "The action {action} was refused." in (
        project / "surface_errors" / "_records.py"
    ).read_text("utf-8")
    assert run("check", cwd=project).code == 0


def test_check_names_a_missing_file(run: Run, project: Path) -> None:
    (project / "surface_errors" / "envelope.py").unlink()
    result = run("check", cwd=project)
    assert result.code == 1
    assert "missing  surface_errors/envelope.py\n" in result.out


def test_check_reports_as_json(run: Run, project: Path) -> None:
    fresh = run("check", "--format", "json", cwd=project)
    assert fresh.code == 0 and json.loads(fresh.out)["ok"] is True
    (project / "surface_errors" / "envelope.py").unlink()
    result = run("check", "--format", "json", cwd=project)
    assert result.code == 1 and result.err == ""
    report = json.loads(result.out)
    assert report["ok"] is False and report["problems"] == []
    assert {"path": "surface_errors/envelope.py", "status": "missing"} in report["outdated"]


def test_generate_from_a_subfolder_uses_the_project_root(run: Run, project: Path) -> None:
    sub = project / "deep" / "er"
    sub.mkdir(parents=True)
    assert run("check", cwd=sub).code == 0


def test_an_invalid_registry_writes_nothing(run: Run, project: Path) -> None:
    registry = project / "codes.yaml"
    registry.write_text(
        registry.read_text("utf-8").replace("layer: execution", "lyer: execution", 1), "utf-8"
    )
    before = mtimes(project / "surface_errors")
    result = run("generate", cwd=project)
    assert result.code == 1
    lines = result.err.splitlines()
    assert "unknown key 'lyer' in code ACTION_NOT_FOUND (did you mean 'layer'?)" in lines[0]
    assert lines[0].startswith("codes.yaml:")
    assert lines[-1].endswith("nothing was written")
    assert result.out == ""
    assert mtimes(project / "surface_errors") == before


def test_validate_reports_counts_and_json(run: Run) -> None:
    result = run("validate")
    assert result.code == 0
    assert result.out == "codes.yaml: valid (21 codes, 4 layers, 9 limits, 4 adapters)\n"
    assert json.loads(run("validate", "--format", "json").out) == []


def test_validate_json_lists_problems(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("registry: {}\n", "utf-8")
    result = run("validate", "--registry", str(bad), "--format", "json")
    assert result.code == 1
    problems = json.loads(result.out)
    assert problems[0]["line"] == 1 and problems[0]["severity"] == "error"
    assert {"id", "path", "line", "column", "message", "hint", "severity"} == set(problems[0])
    assert problems[0]["id"] == "E-SCHEMA-MISSING-KEY"


def test_explain_text(run: Run) -> None:
    result = run("explain", "PERMISSION_DENIED")
    assert result.code == 0
    out = result.out
    assert out.startswith("PERMISSION_DENIED\n\nTitle:    Permission denied\nLayer:    ")
    assert "Layer:    Execution (execution); page must act" in out
    assert '{"ok": true, "result": {"error": {"code": ...}}}' in out
    assert "Recovery (ask_user):" in out and "  1. Stop this operation." in out
    assert "Retry:    never retry the same request" in out
    assert "Docs:     https://docs.surface.example/errors/en/codes/permission_denied/" in out


def test_explain_json_has_limits_and_retry(run: Run) -> None:
    data = json.loads(run("explain", "llm_retries_exhausted", "--format", "json").out)
    assert data["code"] == "LLM_RETRIES_EXHAUSTED"
    assert data["title"] == "Model retries used up"
    assert data["layer"]["actor"] == "provider"
    assert data["message"]["count"] == "attempts"
    assert [limit["id"] for limit in data["limits"]] == ["llm_retry_attempts", "llm_retry_backoff"]
    assert data["limits"][0]["default"] == 3
    assert data["http_status"] == 503 and data["jsonrpc_code"] == -32019
    assert data["grpc_status"] == 14  # UNAVAILABLE, as codes.json has it
    text = run("explain", "LLM_RETRIES_EXHAUSTED").out
    assert "Wire:     HTTP 503, JSON-RPC -32019, gRPC UNAVAILABLE (14)\n" in text


def test_explain_unknown_code_suggests_the_nearest(run: Run) -> None:
    result = run("explain", "PERMISION_DENIED")
    assert result.code == 2
    assert result.err == (
        "errorbook: unknown code 'PERMISION_DENIED' in codes.yaml; nearest: PERMISSION_DENIED\n"
    )


@pytest.mark.parametrize("command", ["generate", "check", "validate", "explain"])
def test_every_command_has_help(run: Run, command: str) -> None:
    result = run(command, "--help")
    assert result.code == 0
    assert "--registry PATH" in result.out


def test_usage_errors_exit_2(run: Run) -> None:
    assert run("frobnicate").code == 2
    assert run("explain").code == 2
    assert run("validate", "--format", "yaml").code == 2


def test_bad_configuration_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.errorbook]\nregistyr = 'x.yaml'\n", "utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.code == 2
    assert result.err == (
        f"errorbook: {tmp_path / 'pyproject.toml'}:2:1: error: unknown key "
        "'registyr' in [tool.errorbook] (did you mean 'registry'?)\n"
    )


def test_a_templates_folder_that_is_not_there_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    """A typo in `templates` used to fall back to the shipped templates without a word."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\ntemplates = 'my-templates'\n", "utf-8"
    )
    result = run("generate", cwd=tmp_path)
    assert result.code == 2
    assert f"{tmp_path / 'pyproject.toml'}:3:1: error: 'templates' names 'my-templates'" in (
        result.err
    )
    (tmp_path / "my-templates").mkdir()
    assert "'templates'" not in run("generate", cwd=tmp_path).err


def test_missing_registry_is_reported(run: Run, tmp_path: Path) -> None:
    result = run("validate", cwd=tmp_path)
    assert result.code == 1
    assert result.err.startswith("codes.yaml:1:1: error: cannot read the file: No such file")


def test_unwritable_output_is_a_clear_error(run: Run, project: Path) -> None:
    (project / "blocked").write_text("a file where a folder should be", "utf-8")
    result = run("generate", "--python-out", str(project / "blocked"), cwd=project)
    assert result.code == 1
    assert result.err.startswith(
        "errorbook: error: blocked/surface_errors/__init__.py: cannot write:"
    )
    assert "Traceback" not in result.err


def test_python_dash_m_generator_is_the_same_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "generator", "explain", "INVALID_PARAMS", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["recovery"]["kind"] == "correct_input"


def test_explain_shows_a_message_as_it_is_written(run: Run, tmp_path: Path) -> None:
    """Line breaks kept, a long line wrapped under its own indent, ``{{`` and ``}}`` shown
    as the single braces the runtime writes; the JSON keeps the template as codes.json does."""
    from .conftest import MINIMAL, make_project

    template = (
        "The door is closed.\n"
        "Knock {{twice}} first, then {who} opens; " + "knock " * 12 + "again.\n"
        "\n"
        "Nobody else may come in."
    )
    text = MINIMAL.replace(
        "    message: The door is closed.\n",
        f"    message: {json.dumps(template)}\n"
        "    placeholders:\n"
        "      who: {description: Who opens., example: the porter}\n",
    )
    root = make_project(tmp_path / "p", text)
    out = run("explain", "DOOR_CLOSED", cwd=root).out
    assert (
        "Message:\n"
        "  The door is closed.\n"
        "  Knock {twice} first, then {who} opens; knock knock knock knock knock knock\n"
        "  knock knock knock knock knock knock again.\n"
        "\n"
        "  Nobody else may come in.\n"
        "\n"
        "Meaning:\n"
    ) in out
    data = json.loads(run("explain", "DOOR_CLOSED", "--format", "json", cwd=root).out)
    assert data["message"] == template


def test_validate_counts_in_words_and_leaves_out_what_is_not_there(
    run: Run, tmp_path: Path
) -> None:
    from .emit.test_bare_registry import BARE

    root = make_project(tmp_path / "p", BARE)
    result = run("validate", cwd=root)
    assert result.out == "codes.yaml: valid (2 codes, 1 layer)\n", result.out


# --- explain in the reader's language (issue 19) -------------------------------------------


def test_explain_answers_in_the_asked_locale(run: Run) -> None:
    out = run("explain", "PERMISSION_DENIED", "--locale", "de").out
    assert "Berechtigung verweigert\n" in out and out.splitlines()[2].startswith("Titel: ")
    assert "Meldung:\n  Die Aktion {action} wurde nicht erlaubt.\n" in out
    assert "Bedeutung:\n  Die Aktion existiert" in out
    assert "  1. Brechen Sie diesen Vorgang ab.\n" in out
    assert "[en]" not in out  # everything of this code is translated
    data = json.loads(run("explain", "PERMISSION_DENIED", "--locale", "de", "--format", "json").out)
    assert data["locale"] == "de" and data["untranslated"] == []
    assert data["title"] == "Berechtigung verweigert"
    english = json.loads(run("explain", "PERMISSION_DENIED", "--format", "json").out)
    assert english["locale"] == "en" and english["title"] == "Permission denied"


@pytest.mark.parametrize(
    ("environment", "locale"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "de_AT.UTF-8"}, "de"),  # negotiated: Austrian German reads German
        ({"LANGUAGE": "fr:de", "LANG": "de_DE.UTF-8"}, "fr"),  # LANGUAGE first, as gettext
        ({"LC_ALL": "pl_PL.UTF-8", "LANG": "de_DE.UTF-8"}, "pl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "pt_BR.UTF-8"}, "en"),  # no Portuguese: the source language
    ],
)
def test_explain_follows_the_environments_locale(
    run: Run, monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], locale: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    data = json.loads(run("explain", "ACTION_TIMEOUT", "--format", "json").out)
    assert data["locale"] == locale


def test_explain_marks_each_field_it_shows_in_the_source_language(run: Run, tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "site",
            "ts",
            "node_modules",
            "examples",
            "test-artifacts",
        ),
    )
    po = project / "locales" / "de" / "LC_MESSAGES" / "docs.po"
    text = po.read_text("utf-8")
    entry = 'msgctxt "PERMISSION_DENIED.meaning"'
    assert entry in text
    po.write_text(text.replace(entry, "#, fuzzy\n" + entry), "utf-8")  # not usable now
    data = json.loads(
        run("explain", "PERMISSION_DENIED", "--locale", "de", "--format", "json", cwd=project).out
    )
    assert data["untranslated"] == ["meaning"]
    assert data["meaning"].startswith("The action exists and could run")
    assert data["title"] == "Berechtigung verweigert"
    out = run("explain", "PERMISSION_DENIED", "--locale", "de", cwd=project).out
    assert "Bedeutung: [en]\n  The action exists" in out


@pytest.mark.parametrize("locale", ["C", "!!", "", "x1"])
def test_explain_refuses_a_locale_that_names_no_language(run: Run, locale: str) -> None:
    """A tag that cannot name a language is a mistake to point out ('!!' and an empty
    --locale were answered in English, exit 0); a language without a catalog is not."""
    result = run("explain", "ACTION_TIMEOUT", "--locale", locale)
    assert result.code == 2 and f"--locale {locale!r} names no language" in result.err
    assert "the registry's locales: en, de" in result.err


def test_explain_finds_a_code_named_in_lower_case(run: Run, tmp_path: Path) -> None:
    """Under a naming rule that allows lower case, the name as written is found (explain
    used to upper-case every request), and so is the same name in another case."""
    root = make_project(tmp_path / "p")
    registry = root / "codes.yaml"
    text = registry.read_text("utf-8").replace(
        "registry:\n", "registry:\n  naming: {pattern: '[A-Za-z_][A-Za-z0-9_]*'}\n", 1
    )
    text = text.replace("related: [DOOR_CLOSED]", "related: [doorClosed]")
    registry.write_text(text.replace("  DOOR_CLOSED:\n", "  doorClosed:\n"), "utf-8")
    for asked in ("doorClosed", "DOORCLOSED", "ITEMS_REFUSED", "items-refused"):
        result = run("explain", asked, cwd=root)
        assert result.code == 0, (asked, result.err)
    assert run("explain", "doorClosed", cwd=root).out.startswith("doorClosed\n")


def _console(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` run before the console entry point ``cli.run`` with ``args``, in a process."""
    argv = f"sys.argv = ['errorbook', *{args!r}]"
    script = "\n".join(["import sys", code, "from generator import cli", argv, "cli.run()"])
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )


def test_the_command_runs_exit_functions_and_flushes_before_it_ends() -> None:
    """The console entry point skips the interpreter's teardown, not what is owed at exit:
    functions registered with atexit while the command runs (as logging registers its
    own when a verb first imports it) run, and buffered output reaches a pipe in full."""
    result = _console(
        "import atexit\nfrom generator import cli\nreal = cli.main\n"
        "def main():\n"
        "    atexit.register(lambda: print('registered at exit ran'))\n"
        "    return real()\n"
        "cli.main = main",
        "explain",
        "INVALID_PARAMS",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    shown, _, last = result.stdout.rpartition("\n")[0].rpartition("\n")
    assert last == "registered at exit ran"
    assert json.loads(shown)["code"] == "INVALID_PARAMS"


def test_the_command_keeps_its_exit_status_and_waits_for_other_threads() -> None:
    """An unknown code still exits 2; a thread still running when the command is done is
    waited for, as at any exit, instead of being cut off."""
    result = _console(
        "import threading, time\n"
        "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done'))).start()",
        "explain",
        "NO_SUCH_CODE_AT_ALL",
    )
    assert result.returncode == 2, result.stderr
    assert "unknown code" in result.stderr
    assert result.stdout.strip() == "thread done"


def test_explain_shows_a_message_of_one_plural_form_once(run: Run) -> None:
    """Japanese has one plural form: its message is one line, not the same line twice."""
    out = run("explain", "LLM_TIMEOUT", "--locale", "ja").out
    block = out.split("\n\n")
    message = next(part for part in block if part.startswith("メッセージ:"))
    assert len(message.splitlines()) == 2, message  # the heading and the one form
    english = run("explain", "LLM_TIMEOUT").out
    assert "within {seconds} second.\n  The AI model provider" in english  # both forms


def test_explain_links_the_reference_in_the_readers_language(run: Run) -> None:
    data = json.loads(run("explain", "LLM_TIMEOUT", "--locale", "ja", "--format", "json").out)
    assert data["docs_url"] == "https://docs.surface.example/errors/ja/codes/llm_timeout/"
    out = run("explain", "LLM_TIMEOUT", "--locale", "ja").out
    assert out.endswith("https://docs.surface.example/errors/ja/codes/llm_timeout/\n")
    english = json.loads(run("explain", "LLM_TIMEOUT", "--format", "json").out)
    assert english["docs_url"] == "https://docs.surface.example/errors/en/codes/llm_timeout/"


@pytest.mark.parametrize("locale", ["jp", "pt_BR"])
def test_explain_says_when_no_catalog_matches_the_asked_locale(run: Run, locale: str) -> None:
    result = run("explain", "LLM_TIMEOUT", "--locale", locale)
    assert result.code == 0
    assert result.err == (
        f"errorbook: no catalog for {locale!r}: shown in en, the source language (the "
        "registry's locales: en, de, fr, es, ja, pl, ar)\n"
    )
    assert "The AI model provider did not answer" in result.out
    quiet = run("explain", "LLM_TIMEOUT", "--locale", "en_GB")  # the source language itself
    assert quiet.code == 0 and quiet.err == ""


def test_explain_names_a_few_codes_when_none_is_near(run: Run) -> None:
    """On a registry of hundreds of codes, an unknown code names a few, not all of them."""
    result = run("explain", "99999", cwd=ROOT / "examples" / "postgresql")
    assert result.code == 2
    assert result.err.startswith("errorbook: unknown code '99999' in codes.yaml; the codes are: ")
    assert result.err.rstrip().endswith("or another of the 265")
    assert len(result.err) < 300


def test_explain_heads_its_fields_in_the_readers_language(run: Run) -> None:
    """The headings the site has words for (Title, Layer, Since...) are the reader's too, and
    the values after them line up where the heading fits, a wide character taking two
    columns of a terminal."""
    german = run("explain", "LLM_TIMEOUT", "--locale", "de").out.splitlines()
    column = german[2].index("Zeitüberschreitung des Modellanbieters")
    assert german[2].startswith("Titel: ") and column > len("Titel: ")
    layer = next(line for line in german if line.startswith("Ebene:"))
    assert layer.index("Modell und Netzwerk (model_network)") == column  # lined up
    assert next(line for line in german if line.startswith("Seit:")).index("1.0.0") == column
    assert next(line for line in german if line.startswith("Ergebnisform:"))[column - 1] == " "
    japanese = run("explain", "LLM_TIMEOUT", "--locale", "ja").out.splitlines()
    title = next(line for line in japanese if line.startswith("タイトル:"))
    since = next(line for line in japanese if line.startswith("導入バージョン:"))
    # lined up by terminal columns, a wide character taking two
    assert _columns(title[: title.index("モデル")]) == _columns(since[: since.index("1.0.0")])
    english = run("explain", "LLM_TIMEOUT").out.splitlines()
    assert "Title:    Model provider timed out" in english and "Since:    1.0.0" in english


def test_explain_writes_limits_as_the_readers_site_does(run: Run) -> None:
    """In another language a limit's values have the locale's digit grouping and unit names,
    as on the site; the source language keeps its compact form."""
    german = run("explain", "LLM_TIMEOUT", "--locale", "de").out
    assert (
        "  llm_retry_backoff: Standardwert 500 Millisekunden (Zulässiger Bereich: "
        "50 Millisekunden \u2013 60.000 Millisekunden)\n"
    ) in german
    polish = run("explain", "TOO_MANY_ACTIONS", "--locale", "pl").out
    assert "(Dozwolony zakres: 1 akcja \u2013 512 akcji)" in polish  # a translated unit
    english = run("explain", "LLM_TIMEOUT").out
    assert "  llm_retry_backoff: default 500 milliseconds (allowed 50..60000)\n" in english


def _site_words(locale: str) -> dict[str, str]:
    """The site's own sentences in ``locale``, as its translators wrote them."""
    from babel.messages.pofile import read_po

    with (ROOT / "templates" / "site" / "i18n" / f"{locale}.po").open("rb") as handle:
        catalog = read_po(handle)
    return {m.id: m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str)}


def test_explain_writes_its_own_lines_in_the_readers_language(run: Run, tmp_path: Path) -> None:
    """Who must act, the wires, a deprecation or a retirement and the related codes read as
    the code's page has them in the reader's language, not in explain's English."""
    deprecated = MINIMAL.replace(
        "    since: 1.0.0\n",
        "    since: 1.0.0\n    deprecated: {since: 1.2.0, replaced_by: ITEMS_REFUSED}\n",
        1,
    )
    root = make_project(tmp_path / "p", deprecated)
    german = _site_words("de")
    out = run("explain", "DOOR_CLOSED", "--locale", "de", cwd=root).out
    for english in ("must act", "Wire:", "Status:", "deprecated since", "Related:"):
        assert english not in out, english
    assert f"; {german['Who must act:']} client [en]\n" in out  # the layer's title: English
    assert german["Deprecated since %(version)s"] % {"version": "1.2.0"} + "\n" in out
    still = german["Still emitted, but clients should handle %(code)s instead."]
    assert " ".join((still % {"code": "ITEMS_REFUSED"}).split()[:3]) in out
    items = run("explain", "ITEMS_REFUSED", "--locale", "de", cwd=root).out
    assert f"{german['Related codes']}: DOOR_CLOSED\n" in items
    assert f"{german['JSON-RPC']} {german['result, not an error']}" in items
    retired = deprecated.replace(
        "replaced_by: ITEMS_REFUSED}\n",
        "replaced_by: ITEMS_REFUSED}\n    retired: {since: 1.2.0}\n",
    )
    (root / "codes.yaml").write_text(retired, "utf-8")
    gone = run("explain", "DOOR_CLOSED", "--locale", "de", cwd=root).out
    assert german["Retired since %(version)s"] % {"version": "1.2.0"} + "\n" in gone
    assert "RETIRED" not in gone
    english = run("explain", "DOOR_CLOSED", cwd=root).out  # the source language as before
    assert "Status:   RETIRED since 1.2.0: no longer emitted" in english
    assert "; client must act\n" in english


def test_explain_heads_declared_fields_and_the_docs_link_in_the_readers_language(
    run: Run, tmp_path: Path
) -> None:
    """The two headings the site has no words of its own for (it shows fields inline)."""
    text = MINIMAL.replace(
        "codes:\n",
        "fields:\n  ticket:\n    type: string\n    description: The tracker's ticket.\ncodes:\n",
        1,
    ).replace("    since: 1.0.0\n", "    since: 1.0.0\n    ticket: T-7\n", 1)
    root = make_project(tmp_path / "p", text)
    german = _site_words("de")
    out = run("explain", "DOOR_CLOSED", "--locale", "de", cwd=root).out
    assert f"\n{german['Fields']}:\n  ticket: T-7\n" in out
    assert f"\n{german['Docs']}: https://" in out
    assert "Fields:" not in out and "Docs:" not in out
    english = run("explain", "DOOR_CLOSED", cwd=root).out
    assert "\nFields:\n  ticket: T-7\n" in english and "\nDocs:     https://" in english


def _columns(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_explain_wraps_japanese_at_the_terminals_width(run: Run) -> None:
    """A paragraph of wide characters is wrapped at 78 columns, each taking two (textwrap
    counts them as one and breaks only at spaces), and no line starts with a closing mark."""
    out = run("explain", "TOO_MANY_ACTIONS", "--locale", "ja").out
    lines = out.splitlines()
    assert max(map(_columns, lines[:-1])) <= 80  # a closing mark may hang past the margin
    assert sum(1 for line in lines if _columns(line) > 60) >= 4  # long paragraphs are filled
    assert not any(line.lstrip()[:1] in "、。」）" for line in lines if line.strip())  # noqa: RUF001
    # the first codes too, with the URL line left out (it does not break)
    codes = json.loads((ROOT / "surface_errors" / "codes.json").read_text("utf-8"))
    for entry in codes["codes"][:12]:
        text = run("explain", entry["code"], "--locale", "ja").out.splitlines()
        assert all(_columns(line) <= 80 for line in text if "https://" not in line), entry


def test_explain_finds_a_code_by_the_value_an_error_carried(run: Run) -> None:
    """A reader often has the SQLSTATE (a declared field) or the JSON-RPC code in hand, not
    the code's name: a value that one code has finds that code; one that several share
    names them."""
    postgresql = ROOT / "examples" / "postgresql"
    found = run("explain", "22012", cwd=postgresql)
    assert found.code == 0
    assert found.out.startswith("ERRCODE_DIVISION_BY_ZERO\n")
    assert found.err == "errorbook: 22012 is the sqlstate of ERRCODE_DIVISION_BY_ZERO\n"
    by_name = run("explain", "ERRCODE_DIVISION_BY_ZERO", cwd=postgresql)
    assert by_name.out == found.out and by_name.err == ""
    shared = run("explain", "W", cwd=postgresql)  # a severity many codes have
    assert shared.code == 2
    assert shared.err.startswith("errorbook: 'W' is the severity of ")
    assert "explain one of them by name" in shared.err
    rpc = run("explain", "-32014")
    assert rpc.code == 0 and rpc.out.startswith("TOO_MANY_ACTIONS\n")
    assert rpc.err == "errorbook: -32014 is the JSON-RPC code of TOO_MANY_ACTIONS\n"


def test_explain_says_which_count_each_of_many_plural_forms_is_for(run: Run) -> None:
    """Arabic has six forms, two of them written alike: each is headed by the first counts
    that select it, from the locale's Plural-Forms rule."""
    out = run("explain", "TOO_MANY_ACTIONS", "--locale", "ar").out
    heads = [line.strip() for line in out.splitlines() if line.strip().startswith("(n = ")]
    assert heads == [
        "(n = 0)",
        "(n = 1)",
        "(n = 2)",
        "(n = 3, 4, 5, …)",
        "(n = 11, 12, 13, …)",
        "(n = 100, 101, 102, …)",
    ]
    polish = run("explain", "TOO_MANY_ACTIONS", "--locale", "pl").out
    assert "  (n = 2, 3, 4, …)\n  Ta strona deklaruje {count} akcje;" in polish
    assert "(n = " not in run("explain", "TOO_MANY_ACTIONS").out  # two forms need no heads


@pytest.mark.parametrize(
    "args",
    [["--help"], ["--version"], ["explain", "LLM_TIMEOUT"], ["validate", "--format", "json"]],
)
def test_a_reader_that_goes_away_is_neither_a_traceback_nor_a_success(
    args: list[str], tmp_path: Path
) -> None:
    """`errorbook ... | head -1`: once the reader has gone, the output cannot all be written,
    and the exit status says so as a shell does for a program stopped by SIGPIPE (141), never
    0 (under `set -o pipefail` a failing check must not pass) and never with a traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("registry: {}\n", "utf-8")
    extra = ["--registry", str(bad)] if args[0] == "validate" else []
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", *args, *extra],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before anything is written
    err = process.stderr.read().decode("utf-8", "replace")
    assert process.wait(timeout=60) == 141, err
    assert "Traceback" not in err and "internal error" not in err, err


def test_usage_reads_no_fifo_and_counts_a_file_once(run: Run, tmp_path: Path) -> None:
    """`usage` over a tree with a FIFO named like a module reported it unreadable instead of
    waiting for a writer forever; a folder named x.py is no file; a file named twice (as
    itself and inside a folder given too) is scanned once."""
    tree = tmp_path / "src"
    (tree / "pkg.py").mkdir(parents=True)  # a folder, named like a module
    (tree / "a").mkdir()
    (tree / "a" / "uses.py").write_text("x = 'LLM_TIMEOUT'\n", "utf-8")
    os.mkfifo(tree / "pipe.py")
    result = errorbook_process(ROOT, "usage", str(tree), str(tree / "a" / ".." / "a" / "uses.py"))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert "pipe.py:1:1: error: cannot read" in out, out
    assert "pkg.py" not in out and "Traceback" not in out, out
    assert out.count("uses.py") <= 1, out
    result = errorbook_process(ROOT, "usage", str(tree / "pipe.py"))
    assert "pipe.py:1:1: error: cannot read" in result.stdout + result.stderr


def test_a_terminal_that_cannot_show_a_character_gets_an_escape(tmp_path: Path) -> None:
    """An output encoding without the reader's script (PYTHONIOENCODING=ascii) was an
    internal error when explain printed Japanese: the characters come out escaped."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "explain", "LLM_TIMEOUT", "--locale", "ja"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"},
        capture_output=True,
        text=True,
        encoding="ascii",
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "\\u" in result.stdout and "LLM_TIMEOUT" in result.stdout


@pytest.mark.parametrize(
    ("asked", "locale"), [("DE", "de"), ("De-at", "de"), ("JA", "ja"), ("ar-EG", "ar")]
)
def test_explain_negotiates_as_the_runtime_does(run: Run, asked: str, locale: str) -> None:
    """`--locale DE` was English with every field marked [en] and "locale": "DE"; the
    runtime reads it as German. explain now negotiates with the runtime's own code."""
    data = json.loads(
        run("explain", "PERMISSION_DENIED", "--locale", asked, "--format", "json").out
    )
    assert data["locale"] == locale and data["untranslated"] == []
    assert se.fallback_chain(asked)[0] == locale


def test_explain_and_the_runtime_share_one_negotiation() -> None:
    """A tag in another region reaches the locale written in its script (``zh_TW`` reads
    ``zh_Hant``, ``sr_Latn_RS`` reads ``sr_Latn``), in explain as in the package, whose
    ``_negotiate`` module is the file explain loads."""
    from generator.catalogs.locales import script_table
    from generator.commands.explain import negotiation

    locales = ("zh_Hans", "zh_Hant", "sr", "sr_Latn", "de")
    chain = negotiation().chain
    scripts = script_table(locales)
    assert chain("zh_TW", locales, scripts, "en")[0] == "zh_Hant"
    assert chain("zh-Hant-TW", locales, scripts, "en")[0] == "zh_Hant"
    assert chain("zh_CN", locales, scripts, "en")[0] == "zh_Hans"
    assert chain("sr-Latn-RS", locales, scripts, "en")[:2] == ("sr_Latn", "sr")
    assert chain("DE", locales, scripts, "en") == ("de", "en")
    shipped = (ROOT / "templates" / "python" / "_negotiate.py").read_text("utf-8")
    assert (ROOT / "surface_errors" / "_negotiate.py").read_text("utf-8").endswith(shipped)


@pytest.mark.parametrize("verb", cli.VERBS)
def test_a_command_line_that_names_its_verb_parses_as_with_every_verb(
    verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser a run builds holds only the verb its command line names first (the other
    verbs' modules are not imported): what it prints for help, and for a mistake, is what
    the parser of every verb prints."""
    name = verb.replace("_", "-")
    for argv in ([name, "--help"], [name, "--no-such-flag"], [name, "a", "b", "c", "d"]):
        said: list[object] = []
        for only in (None, cli._verb(argv)):
            try:
                said.append(vars(cli.build_parser(only).parse_args(argv)))
            except SystemExit as exited:
                said.append((exited.code, capsys.readouterr()))
        assert said[0] == said[1], argv
    assert cli._verb([name]) == verb


def test_a_command_line_that_names_no_verb_first_gets_every_verb() -> None:
    for argv in ([], ["--help"], ["--version"], ["frobnicate"], ["init_locale"], ["--x", "init"]):
        assert cli._verb(argv) is None, argv
