"""``errorbook init``, ``site build`` and ``site serve``: a project with the tool alone."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from .conftest import Run, errorbook_process

ERRORBOOK = str(Path(sys.executable).parent / "errorbook")


def test_init_then_generate_then_site_build(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "Billing Service"
    result = run("init", str(root), cwd=tmp_path)
    assert result.code == 0, result.err
    assert "next: cd " in result.out
    for name in ("codes.yaml", "pyproject.toml", ".gitignore", "site/mkdocs.base.yml"):
        assert (root / name).is_file(), name
    assert 'name: "billing_service"' in (root / "codes.yaml").read_text("utf-8")
    assert (root / ".gitignore").read_text("utf-8") == "/site/build/\n"
    assert run("generate", cwd=root).code == 0
    assert run("check", cwd=root).code == 0
    loose = sorted(p.name for p in root.iterdir() if p.name.startswith("."))
    assert loose == [".errorbook-files", ".gitignore"]  # the caches live outside
    built = run("site", "build", cwd=root)
    assert built.code == 0, built.out + built.err
    assert (root / "site" / "build" / "en" / "codes" / "invalid_argument" / "index.html").is_file()
    assert (root / "site" / "build" / "index.html").is_file()


@pytest.mark.parametrize(
    ("folder", "name", "title"),
    [
        ("Über app", "uber_app", "Über App"),  # an accent keeps its letter
        ("yes", "yes", "Yes"),  # YAML 1.1 reads a bare yes as true
        ("2024", "project_2024", "2024"),
    ],
)
def test_init_names_the_registry_after_any_folder(
    run: Run, tmp_path: Path, folder: str, name: str, title: str
) -> None:
    root = tmp_path / folder
    result = run("init", str(root), cwd=tmp_path)
    assert result.code == 0, result.err
    assert f"next: cd '{root}' && " in result.out or f"next: cd {root} && " in result.out
    text = (root / "codes.yaml").read_text("utf-8")
    assert f'  name: "{name}"\n' in text and f'  title: "{title}"\n' in text
    assert run("validate", cwd=root).code == 0


def test_init_adds_to_what_is_there_and_replaces_nothing(run: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\n', "utf-8")
    (tmp_path / ".gitignore").write_text("dist/\n/site/build/\n", "utf-8")
    assert run("init", cwd=tmp_path).code == 0
    pyproject = (tmp_path / "pyproject.toml").read_text("utf-8")
    assert pyproject.startswith('[project]\nname = "app"\n\n[tool.errorbook]\n')
    assert (tmp_path / ".gitignore").read_text("utf-8") == "dist/\n/site/build/\n"
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = run("init", cwd=tmp_path)
    assert again.code == 2 and "has a [tool.errorbook] table already" in again.err
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\n', "utf-8")
    again = run("init", cwd=tmp_path)
    assert again.code == 2 and "codes.yaml, site/mkdocs.base.yml exist already" in again.err
    (tmp_path / "pyproject.toml").write_bytes(before[tmp_path / "pyproject.toml"])
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_init_refuses_a_project_that_has_its_table(run: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.errorbook]\nregistry = 'x.yaml'\n", "utf-8")
    result = run("init", cwd=tmp_path)
    assert result.code == 2 and "has a [tool.errorbook] table already" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


def test_site_build_says_what_is_missing(run: Run, tmp_path: Path) -> None:
    assert run("init", cwd=tmp_path).code == 0
    (tmp_path / "site" / "mkdocs.base.yml").unlink()
    result = run("site", "build", cwd=tmp_path)
    assert result.code == 2 and "site/mkdocs.base.yml is missing" in result.err
    (tmp_path / "pyproject.toml").write_text("[tool.errorbook]\n", "utf-8")
    result = run("site", "build", cwd=tmp_path)
    assert result.code == 2 and "no site is configured" in result.err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return str(answer.read().decode("utf-8"))
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _until(check: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.3)


#: Starts the command in argv[1:] with Ctrl-C's default meaning. A shell without job control
#: starts a command it puts in the background (`make test &`) with SIGINT ignored, and every
#: process under it inherits that, so a server started from such a test would not stop on
#: SIGINT (Python installs its KeyboardInterrupt handler only where SIGINT is not ignored).
_WITH_CTRL_C = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def _serve(root: Path, log: Path, port: int) -> subprocess.Popen[bytes]:
    """``errorbook site serve`` in ``root``, its terminal in ``log``, its MkDocs' temporary
    site folder under ``root``/tmp."""
    (root / "tmp").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONFAULTHANDLER": "1",
        "TMPDIR": str(root / "tmp"),
    }
    command = [ERRORBOOK, "site", "serve", "--dev-addr", f"127.0.0.1:{port}"]
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-c", _WITH_CTRL_C, *command],
            cwd=root,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )


def _stop(server: subprocess.Popen[bytes], log: Path, how: int = signal.SIGINT) -> None:
    """Stop the server with ``how``; one that does not stop fails the test with every
    thread's stack (``PYTHONFAULTHANDLER`` dumps them on SIGABRT) and the processes it left."""
    server.send_signal(how)
    try:
        server.wait(timeout=20)
        return
    except subprocess.TimeoutExpired:
        pass
    children = subprocess.run(
        ["ps", "-o", "pid,stat,wchan:20,args", "--ppid", str(server.pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    server.send_signal(signal.SIGABRT)
    server.wait(timeout=20)
    pytest.fail(f"the server did not stop on {how!r}\nchildren:\n{children}\n{log.read_text()}")


@pytest.mark.slow
def test_site_serve_regenerates_once_per_edit_and_shows_problems(run: Run, tmp_path: Path) -> None:
    assert run("init", cwd=tmp_path).code == 0
    port = _free_port()
    log = tmp_path / "serve.log"
    server = _serve(tmp_path, log, port)
    try:
        base = f"http://127.0.0.1:{port}/{tmp_path.name}/errors/en/"
        page = _get(base + "codes/invalid_argument/")
        assert "is not valid" in page

        def builds() -> int:
            return len(re.findall(r"Documentation built in", log.read_text()))

        _until(lambda: builds() >= 1)
        first = builds()
        registry = tmp_path / "codes.yaml"
        text = registry.read_text("utf-8")
        registry.write_text(text.replace("is not valid.", "is not allowed."), "utf-8")
        _until(lambda: "is not allowed" in _get(base + "codes/invalid_argument/"))
        time.sleep(3)  # a second build, if one came, would have started by now
        assert builds() == first + 1, log.read_text()
        assert "errorbook: regenerated" in log.read_text()
        registry.write_text(text.replace("layer: input", "layer: inptu"), "utf-8")
        _until(lambda: "could not regenerate" in _get(base + "assets/errorbook.js"))
        assert "E-REF-UNKNOWN-LAYER" in _get(base + "assets/errorbook.js")
        registry.write_text(text, "utf-8")
        _until(lambda: "could not regenerate" not in _get(base + "assets/errorbook.js"))
    finally:
        _stop(server, log)
    assert server.returncode == 0 and "Shutting down" in log.read_text()
    assert list((tmp_path / "tmp").iterdir()) == []  # MkDocs removed its site folder
    assert run("check", cwd=tmp_path).code == 0


@pytest.mark.slow
def test_site_serve_stops_on_sigterm_as_on_ctrl_c(run: Run, tmp_path: Path) -> None:
    """What a process manager, `timeout` or `kill` sends ends the preview as Ctrl-C does:
    MkDocs removes its temporary site folder, and the exit status says all went well."""
    assert run("init", cwd=tmp_path).code == 0
    port = _free_port()
    log = tmp_path / "serve.log"
    server = _serve(tmp_path, log, port)
    try:
        _get(f"http://127.0.0.1:{port}/{tmp_path.name}/errors/en/")
        made = sorted(p.name.split("-")[0].split("_")[0] for p in (tmp_path / "tmp").iterdir())
        assert made == ["errorbook", "mkdocs"]  # errorbook's signal folder, MkDocs' site
    finally:
        _stop(server, log, signal.SIGTERM)
    assert server.returncode == 0, log.read_text()
    assert "Shutting down" in log.read_text()
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("name", ["pyproject.toml", ".gitignore", "site"])
def test_init_writes_through_no_link_and_reads_no_fifo(run: Run, tmp_path: Path, name: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "pyproject.toml").write_text("[project]\n", "utf-8")
    root = tmp_path / "p"
    root.mkdir()
    target = elsewhere if name == "site" else elsewhere / "pyproject.toml"
    (root / name).symlink_to(target)
    before = {p: p.read_bytes() for p in elsewhere.rglob("*") if p.is_file()}
    result = run("init", str(root), cwd=tmp_path)
    assert result.code == 2 and "link" in result.err, result.err
    assert {p: p.read_bytes() for p in elsewhere.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in root.iterdir()) == [name]  # nothing written
    (root / name).unlink()
    os.mkfifo(root / ".gitignore")  # read as an input: refused at once, never waited on
    result = run("init", str(root), cwd=tmp_path)
    assert result.code == 2 and ".gitignore" in result.err


def test_site_serve_has_mkdocs_watch_one_signal_instead_of_the_pages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """However long a regeneration's writes take, MkDocs' server hears of them once: under
    `errorbook site serve` the plugin has it watch the command's signal folder instead of
    the pages, and the command writes one file there once every page is written (and only
    when a page changed, or the problems shown on the pages did)."""
    from generator.commands import site
    from generator.integrations import site_build
    from generator.integrations.mkdocs_plugin import ErrorbookPlugin
    from generator.pipeline import build

    calls: list[tuple[str, str]] = []
    server = SimpleNamespace(
        watch=lambda path: calls.append(("watch", path)),
        unwatch=lambda path: calls.append(("unwatch", path)),
    )
    signals = tmp_path / "signals"
    signals.mkdir()
    monkeypatch.setenv(site_build.SERVING, str(signals))
    plugin = ErrorbookPlugin()
    mkdocs_config = SimpleNamespace(docs_dir=str(tmp_path / "docs"))
    assert plugin.on_serve(server, config=mkdocs_config, builder=None) is server  # type: ignore[arg-type]
    assert calls == [("unwatch", str(tmp_path / "docs")), ("watch", str(signals))]

    statuses: list[str] = []

    def regenerate(config: object) -> tuple[list[object], object]:
        return [SimpleNamespace(status=s) for s in statuses], SimpleNamespace(
            problems=SimpleNamespace(items=[])
        )

    monkeypatch.setattr(build, "regenerate", regenerate)
    project = SimpleNamespace(
        registry=tmp_path / "codes.yaml",
        root=tmp_path,
        locales_dir=tmp_path / "locales",
        site_dir=tmp_path / "site",
    )
    watcher = site.Watcher(project, "en", str(signals))  # type: ignore[arg-type]
    watcher.regenerate()  # nothing changed: nothing to build
    assert list(signals.iterdir()) == []
    statuses[:] = ["unchanged", "updated", "created"]
    watcher.regenerate()
    assert [p.name for p in signals.iterdir()] == ["written"]
    assert (signals / "written").read_text() == "1\n"


def test_init_ends_a_gitignore_line_before_adding_its_own(run: Run, tmp_path: Path) -> None:
    """A .gitignore whose last line has no newline keeps that line: init's lines go below it
    (they were glued to it, and node_modules was no longer ignored)."""
    (tmp_path / ".gitignore").write_text("node_modules", "utf-8")
    assert run("init", cwd=tmp_path).code == 0
    lines = (tmp_path / ".gitignore").read_text("utf-8").split("\n")
    assert lines[0] == "node_modules" and "/site/build/" in lines


@pytest.mark.parametrize(
    "pyproject",
    ["tool = 1\n", 'tool = "errorbook"\n', "tool = {black = {line-length = 99}}\n"],
)
def test_init_refuses_a_pyproject_it_cannot_add_its_table_to(
    run: Run, tmp_path: Path, pyproject: str
) -> None:
    """A `tool` that is no table, or one written inline, cannot take [tool.errorbook] below it:
    init says so and writes nothing (it was an internal error, or invalid TOML)."""
    (tmp_path / "pyproject.toml").write_text(pyproject, "utf-8")
    result = run("init", cwd=tmp_path)
    assert result.code == 2, result.err
    assert "pyproject.toml" in result.err and "internal error" not in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]
    assert (tmp_path / "pyproject.toml").read_text("utf-8") == pyproject


def test_init_that_cannot_write_leaves_nothing_behind(run: Run, tmp_path: Path) -> None:
    """A write that fails part-way (here the site's folder is a file; a folder it may not
    write in does the same) is a clear error, and what init had written is taken back, so
    that the next init, once that is fixed, starts again instead of refusing its own
    codes.yaml."""
    (tmp_path / ".gitignore").write_text("dist/\n", "utf-8")
    (tmp_path / "site").write_text("notes", "utf-8")
    result = run("init", cwd=tmp_path)
    assert result.code != 0 and "internal error" not in result.err, result.err
    assert "site" in result.err and "Traceback" not in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == [".gitignore", "site"]
    assert (tmp_path / ".gitignore").read_text("utf-8") == "dist/\n"
    (tmp_path / "site").unlink()
    assert run("init", cwd=tmp_path).code == 0


@pytest.mark.parametrize("kind", ["dangling link", "under a file"])
def test_init_into_a_folder_it_cannot_make_is_a_usage_error(
    run: Run, tmp_path: Path, kind: str
) -> None:
    if kind == "dangling link":
        (tmp_path / "dang").symlink_to(tmp_path / "nowhere")
        folder = "dang"
    else:
        (tmp_path / "afile").write_text("x", "utf-8")
        folder = "afile/sub"
    result = run("init", folder, cwd=tmp_path)
    assert result.code == 2 and "internal error" not in result.err, result.err
    assert not (tmp_path / "nowhere").exists()


def test_site_serve_on_an_address_it_cannot_use_is_a_clear_error(run: Run, tmp_path: Path) -> None:
    """A port someone else listens on, a port out of range, an address that is no HOST:PORT:
    each says what is wrong with --dev-addr (they were internal errors)."""
    assert run("init", cwd=tmp_path).code == 0
    assert run("generate", cwd=tmp_path).code == 0
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        for address, said in (
            (f"127.0.0.1:{port}", "cannot serve on"),
            ("127.0.0.1:99999", "--dev-addr"),
            ("nonsense", "--dev-addr"),
        ):
            result = errorbook_process(tmp_path, "site", "serve", "--dev-addr", address)
            out = result.stdout + result.stderr
            assert result.returncode in (1, 2), out
            assert said in out and "internal error" not in out and "Traceback" not in out, out
    finally:
        taken.close()


def test_init_takes_no_registry_or_config_flag_it_would_ignore(run: Run, tmp_path: Path) -> None:
    """`init --registry errors.yaml` wrote codes.yaml all the same: a flag init does not
    follow is a usage error, and nothing is written."""
    for flags in (["--registry", "errors.yaml"], ["--config", "other.toml"]):
        result = run("init", *flags, cwd=tmp_path)
        assert result.code == 2 and "unrecognized arguments" in result.err, result.err
        assert list(tmp_path.iterdir()) == []
