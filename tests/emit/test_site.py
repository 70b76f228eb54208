"""The reference site, built with MkDocs and read in headless Chromium as a reader would."""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import surface_errors as se

from ..conftest import MINIMAL, ROOT, Run, make_project

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
LANGUAGES = ("en", "de", "ja")
BASE_PATH = "/" + se.DOCS_URL.split("://", 1)[1].split("/", 1)[1]  # "/errors/"
#: Console messages that are not the site's fault: Material asks for sitemap.xml of
#: alternate languages relative to the page, and the favicon may be probed.
HARMLESS = re.compile(r"sitemap\.xml|favicon\.ico")


def heading_text(locator: Any) -> str:
    """A heading's text without the permalink sign MkDocs adds."""
    return str(locator.inner_text()).replace("¶", "").strip()


def build_site(site_dir: Path, out: Path) -> None:
    """One MkDocs build per language, as `errorbook site build` runs them (`mkdocs build
    --strict`, a warning fails), into ``out``."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.integrations.site_build",
            "--site",
            str(site_dir),
            "--out",
            str(out),
        ],
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "index.html").is_file()


class _Handler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        if path.startswith(BASE_PATH):
            path = "/" + path[len(BASE_PATH) :]
        return super().translate_path(path)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site(ROOT / "site", out)
    return out


@pytest.fixture(scope="module")
def server(built: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(built))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{BASE_PATH}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium for the browser tests")
        pytest.skip("Debian's chromium is not installed")
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.problems = []  # console errors, failed and outside requests

    def on_console(message: Any) -> None:
        if message.type == "error" and not HARMLESS.search(message.text):
            page.problems.append(f"console: {message.text}")

    def on_request(request: Any) -> None:
        if not request.url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            page.problems.append(f"outside request: {request.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
    page.on("request", on_request)
    page.on("dialog", lambda dialog: page.problems.append(f"dialog: {dialog.message}"))
    yield page
    context.close()


def test_every_code_has_one_page_per_language_with_its_heading(page: Any, server: str) -> None:
    for lang in LANGUAGES:
        for code in se.ErrorCode:
            page.goto(f"{server}{lang}/codes/{code.value.lower()}/")
            heading = page.locator("h1").first
            assert heading_text(heading) == code.value
            assert heading.get_attribute("id") == code.value.lower()
    assert page.problems == []


def test_every_docs_url_of_the_module_resolves(built: Path) -> None:
    for info in se.CODES.values():
        assert info.docs_url.startswith(se.DOCS_URL)
        relative = info.docs_url[len(se.DOCS_URL) :]
        assert (built / relative / "index.html").is_file(), info.docs_url
        html = (built / relative / "index.html").read_text("utf-8")
        assert f'id="{info.code.value.lower()}"' in html


def test_switching_to_german_keeps_the_code_and_its_anchor(page: Any, server: str) -> None:
    page.goto(f"{server}en/codes/permission_denied/#recovery")
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__link[hreflang="de"]').click()
    page.wait_for_url("**/de/codes/permission_denied/#recovery")
    assert heading_text(page.locator("h1").first) == "PERMISSION_DENIED"
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.problems == []


def _search(page: Any, query: str) -> list[str]:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    meta = page.locator(".md-search-result__meta")
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && !/Initiali|初期化|Initialisier/.test(m.textContent); }"
    )
    # Material listens to key events: type the query as a person does.
    page.locator(".md-search__input").press_sequentially(query, delay=10)
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length > 0")
    assert meta.count() == 1
    links = page.locator(".md-search-result__link")
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


def test_search_in_german_finds_german_pages_only(page: Any, server: str) -> None:
    page.goto(f"{server}de/")
    hrefs = _search(page, "PERMISSION_DENIED")
    assert any("codes/permission_denied/" in h for h in hrefs), hrefs
    resolved = [page.evaluate("h => new URL(h, location.href).pathname", h) for h in hrefs]
    assert all(path.startswith(f"{BASE_PATH}de/") for path in resolved), resolved


def test_the_code_table_sorts(page: Any, server: str) -> None:
    page.goto(f"{server}en/codes/")
    column = page.locator(".eb-sortable thead th", has_text="HTTP")

    def http_column() -> list[int]:
        cells = page.locator(".eb-sortable tbody tr td:nth-child(4)")
        return [int(cells.nth(i).inner_text()) for i in range(cells.count())]

    original = http_column()
    column.click()
    assert http_column() == sorted(original)
    column.click()
    assert http_column() == sorted(original, reverse=True)
    assert column.get_attribute("aria-sort") == "descending"
    assert page.problems == []


def test_untranslated_prose_is_marked(page: Any, server: str) -> None:
    page.goto(f"{server}de/schema/")
    assert page.locator(".admonition.note").count() >= 1
    assert page.locator(".eb-untranslated[lang='en']").count() > 0
    page.goto(f"{server}de/codes/permission_denied/")
    assert page.locator(".eb-untranslated").count() == 0  # fully translated page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screenshots(page: Any, server: str, lang: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, path in (("home", ""), ("codes", "codes/"), ("code", "codes/permission_denied/")):
        page.goto(f"{server}{lang}/{path}")
        target = ARTIFACTS / f"{lang}-{name}.png"
        page.screenshot(path=str(target), full_page=False)
        assert target.stat().st_size > 10_000
    assert page.problems == []


class _Text(HTMLParser):
    """The text of <article>, and every tag and attribute on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag == "article":
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[click](javascript:alert(3))",
    "a | b | c",
    "*not bold* and _not italic_ and `not code`",
    "{#not-an-id} ==mark== !!! note",
]


def test_markup_in_the_registry_renders_as_literal_text(
    run: Run, tmp_path: Path, browser: Any
) -> None:
    meaning = " ".join(HOSTILE).replace('"', '\\"')
    text = MINIMAL.replace("meaning: Nobody is let in.", f'meaning: "{meaning}"')
    text = text.replace("description: Protocol problems.", 'description: "<b>bold?</b> | x"')
    root = make_project(tmp_path / "hostile", text)
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    (root / "site").mkdir()
    shutil.copy2(ROOT / "site" / "mkdocs.base.yml", root / "site" / "mkdocs.base.yml")
    assert run("generate", cwd=root).code == 0
    out = tmp_path / "out"
    build_site(root / "site", out)
    for page_path in (
        "en/codes/door_closed/index.html",
        "en/codes/index.html",
        "en/overview/index.html",
        "en/recovery/index.html",
    ):
        html = (out / page_path).read_text("utf-8")
        parser = _Text()
        parser.feed(html)
        body = re.sub(r"\s+", " ", "".join(parser.text))
        assert all(
            attrs == [] or not any(name.startswith("on") for name, _ in attrs)
            for _, attrs in parser.tags
        ), page_path
        assert not any(
            tag in ("script",)
            and not any(n == "src" for n, _ in attrs)
            and "alert" in html.split("<script", 1)[-1][:200]
            for tag, attrs in parser.tags
        )
        assert "javascript:" not in " ".join(v or "" for _, attrs in parser.tags for _, v in attrs)
        if page_path.startswith("en/codes/door_closed"):
            for item in HOSTILE:
                assert item in body, (item, body)
    # The code table still has exactly one row per code.
    table = (out / "en/codes/index.html").read_text("utf-8")
    assert table.count("<tr>") == 1 + 2
    # And in a browser, nothing runs.
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto((out / "en/codes/door_closed/index.html").as_uri())
    assert HOSTILE[0] in page.locator("article").inner_text()
    assert dialogs == []
    context.close()
