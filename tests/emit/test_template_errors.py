"""A broken template is bad input like any other: a diagnostic that names the template's
file and line, exit status 1 and nothing written; never "internal error", which would tell
the author of an override (or of a change to errorbook's own templates) that errorbook has a
bug."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from generator.diagnostics import InvalidInput, Mark
from generator.emit.render import environment, render
from generator.pipeline import forks, loading

from ..conftest import MINIMAL, make_project

#: An override that fails, by kind: (template, its text, the line at fault, the id, words of
#: the message).
BROKEN = {
    "syntax": ("python/codes.py.j2", "# one\n# two\n{{ foo( }}\n", 3, "E-TEMPLATE-SYNTAX",
               "unexpected '}'"),
    "block": ("python/_records.py.j2", "# one\n{% if %}\n{% endif %}\n", 2,
              "E-TEMPLATE-SYNTAX", "expected an expression"),
    "undefined": ("json/document.json.j2", "{\n  \"a\": {{ data.no_such_field }}\n}\n", 2,
                  "E-TEMPLATE-RENDER", "no_such_field"),
    "filter": ("json/document.json.j2", "{\n{{ data | py }}\n", 2, "E-TEMPLATE-RENDER",
               "TypeError: no Python literal for dict"),
    "unclosed": ("python/__init__.py.j2", "# {{ registry.name }}\n\n{% for x in y %}\n", 3,
                 "E-TEMPLATE-SYNTAX", "endfor"),
    # Nested deeper than Jinja2's parser recurses: was an internal error.
    "deep": ("python/codes.py.j2", "{% if true %}" * 3000 + "x" + "{% endif %}" * 3000 + "\n",
             1, "E-TEMPLATE-RENDER", "RecursionError"),
}  # fmt: skip


def _project(tmp_path: Path, template: str, text: str) -> Path:
    root = make_project(tmp_path / "p", MINIMAL)
    path = root / "mine" / template
    path.parent.mkdir(parents=True)
    path.write_text(text, "utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\ntemplates = 'mine'\n", "utf-8"
    )
    return root


@pytest.mark.parametrize("ahead", [False, True], ids=["here", "ahead"])
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_override_is_a_diagnostic_at_its_line(
    case: str,
    ahead: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ahead``: as in a process of its own, where generate compiles the templates while
    another process validates the registry (see pipeline.build._prepare): a template that
    fails there is still reported by the emitter that uses it."""
    from generator.cli import main

    if ahead:
        if not forks.available():
            pytest.skip("no fork here")
        monkeypatch.setattr(loading, "_PIPELINE", "generator.pipeline.not_imported_yet")
    template, text, line, id, words = BROKEN[case]
    root = _project(tmp_path, template, text)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    cwd = os.getcwd()
    os.chdir(root)
    try:
        status = main(["generate"])
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert status == 1, err
    assert "internal error" not in err and "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith(f"mine/{template}:{line}:1: error: "), err
    assert first.endswith(f"[{id}]"), err
    assert words.lower() in first.lower(), err
    assert "nothing was written" in err
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_a_broken_shipped_template_names_its_file(tmp_path: Path) -> None:
    """errorbook's own templates are files in its folder, which a contributor may edit: the
    diagnostic names the file and says how to get errorbook's copy back."""
    shipped = tmp_path / "shipped"
    (shipped / "python").mkdir(parents=True)
    (shipped / "python" / "codes.py.j2").write_text("ok\n{{ registry.name }\n", "utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(shipped)]))
    with pytest.raises(InvalidInput) as raised:
        render(env, "python/codes.py.j2", registry=None)
    (item,) = raised.value.diagnostics.items
    assert item.id == "E-TEMPLATE-SYNTAX"
    assert item.mark.path.endswith("shipped/python/codes.py.j2")
    assert item.mark.line == 2


def _render_broken(folder: str) -> bytes:
    return render(environment(Path(folder)), "python/codes.py.j2")


def test_a_broken_template_in_a_forked_task_arrives_as_its_diagnostic(tmp_path: Path) -> None:
    """Outputs are rendered in forked workers on large registries: the diagnostic is what
    comes back, not a lost worker."""
    if not forks.available():
        pytest.skip("no fork here")
    (tmp_path / "python").mkdir()
    (tmp_path / "python" / "codes.py.j2").write_text("a\nb\n{% for %}\n", "utf-8")
    with pytest.raises(InvalidInput) as raised:
        forks.map_forked(_render_broken, [str(tmp_path)], 2)
    (item,) = raised.value.diagnostics.items
    assert (item.id, item.mark.line) == ("E-TEMPLATE-SYNTAX", 3)


def test_check_reports_a_broken_override_as_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check` renders every output to compare it: a broken override is named there too,
    and the summary does not send the author to the PO files."""
    from generator.cli import main

    root = _project(tmp_path, "json/document.json.j2", "{{ data | json_pretty }}\n")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["generate"]) == 0
        (root / "mine" / "json" / "document.json.j2").write_text("{{ data | }}\n", "utf-8")
        capsys.readouterr()
        status = main(["check"])
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert status == 1, err
    assert err.startswith("mine/json/document.json.j2:1:1: error: "), err
    assert "[E-TEMPLATE-SYNTAX]" in err
    assert "1 problem found; fix them in the files named above" in err
    assert "PO files" not in err and "internal error" not in err


def test_an_exception_in_a_shipped_template_stays_a_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What errorbook's own template raises beyond Jinja2's errors (a filter of errorbook's
    given what it cannot write) is errorbook's bug, reported as one, not the author's."""
    from generator.emit import render as module

    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "document.json.j2").write_text("{{ data | py }}\n", "utf-8")
    monkeypatch.setattr(module, "SHIPPED_TEMPLATES", tmp_path)
    env = environment(None)
    env.loader = jinja2.FileSystemLoader([str(tmp_path)])
    with pytest.raises(TypeError, match="no Python literal for dict"):
        render(env, "json/document.json.j2", data={})


def test_an_error_errorbook_reports_from_inside_an_override_is_kept_as_it_is(
    tmp_path: Path,
) -> None:
    """A call the override makes that fails with errorbook's own diagnostics keeps them:
    they say more than the template's line would."""
    from generator.diagnostics import invalid

    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "document.json.j2").write_text("{{ check() }}\n", "utf-8")

    def check() -> str:
        raise invalid("E-FILE-MISSING", Mark("codes.yaml", 3, 5), "gone")

    env = environment(tmp_path)
    with pytest.raises(InvalidInput) as raised:
        render(env, "json/document.json.j2", check=check)
    (item,) = raised.value.diagnostics.items
    assert (item.id, str(item.mark)) == ("E-FILE-MISSING", "codes.yaml:3:5")


def test_an_override_that_is_not_utf8_is_a_diagnostic_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A template saved in another encoding was an internal error (UnicodeDecodeError from
    Jinja's loader): it is bad input at the line of its first byte that is not UTF-8."""
    from generator.cli import main

    root = _project(tmp_path, "python/codes.py.j2", "")
    (root / "mine" / "python" / "codes.py.j2").write_bytes(b"# one\n# caf\xe9\n")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        status = main(["generate"])
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert status == 1 and "internal error" not in err, err
    first = err.splitlines()[0]
    assert first.startswith("mine/python/codes.py.j2:2:") and first.endswith("[E-FILE-NOT-UTF8]"), (
        err
    )
