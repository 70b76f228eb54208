"""The reference site, built with MkDocs and read in headless Chromium as a reader would."""

from __future__ import annotations

import functools
import gettext
import http.server
import json
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
from surface_errors.codes import SHAPES

from ..conftest import MINIMAL, ROOT, Run, make_project

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
#: Every published language, the source first: one MkDocs configuration each.
LANGUAGES = (
    "en",
    *sorted(
        p.stem.split(".", 1)[1]
        for p in (ROOT / "site").glob("mkdocs.*.yml")
        if p.stem not in ("mkdocs.base", "mkdocs.en")
    ),
)
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 680, "height": 900}
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
        where = (message.location or {}).get("url", "")
        if message.type == "error" and not HARMLESS.search(f"{message.text} {where}"):
            page.problems.append(f"console: {message.text}")

    def on_request(request: Any) -> None:
        # Material looks up each <link rel="alternate"> page's sitemap.xml: those links are
        # the published site's own absolute URLs (as hreflang wants them), so these requests
        # stay on the site's own host once it is published.
        if request.url.startswith(se.DOCS_URL) and request.url.endswith("/sitemap.xml"):
            return
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
    # Material updates the results as each key arrives: read them whole, once they are the
    # same twice in a row (one by one, a link could go between counting and reading it).
    found: list[str] = []
    for _ in range(40):
        page.wait_for_timeout(150)
        now = links.evaluate_all("links => links.map(link => link.getAttribute('href'))")
        if now and now == found:
            break
        found = now
    return found


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
        index = [heading_text(th) for th in page.locator(".eb-sortable thead th").all()].index(
            "HTTP"
        )
        cells = page.locator(f".eb-sortable tbody tr td:nth-child({index + 1})")
        return [int(cells.nth(i).inner_text()) for i in range(cells.count())]

    original = http_column()
    column.click()
    assert http_column() == sorted(original)
    column.click()
    assert http_column() == sorted(original, reverse=True)
    assert column.get_attribute("aria-sort") == "descending"
    assert page.problems == []


def test_the_schema_page_is_translated_and_its_english_ids_say_so(page: Any, server: str) -> None:
    """The German schema page is German throughout (no note, nothing marked untranslated);
    the explanations of the diagnostic ids, English by design, are marked as English."""
    page.goto(f"{server}de/schema/")
    assert page.locator(".admonition.note").count() == 0
    assert page.locator(".eb-untranslated").count() == 0
    assert page.locator("td span[lang='en']").count() > 0
    assert page.locator("td code", has_text="recovery.kind").count() >= 1
    page.goto(f"{server}de/codes/permission_denied/")
    assert page.locator(".eb-untranslated").count() == 0  # fully translated page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screenshots(browser: Any, server: str, lang: str) -> None:
    """The home page, the code table, a code page and the root page (which sends a reader of
    ``lang`` to their language), on a desktop and on a 390 px phone."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for device, options in (
        ("desktop", {"viewport": {"width": 1280, "height": 900}}),
        ("phone", {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True}),
    ):
        context = browser.new_context(locale=lang, **options)
        page = context.new_page()
        for name, path in (
            ("home", f"{lang}/"),
            ("codes", f"{lang}/codes/"),
            ("code", f"{lang}/codes/llm_retries_exhausted/#limits"),
            ("example", f"{lang}/codes/permission_denied/#example"),
            ("root", ""),
        ):
            page.goto(f"{server}{path}")
            if name == "root":
                page.wait_for_url(f"{server}{lang}/")
            suffix = "" if device == "desktop" else "-phone"
            target = ARTIFACTS / f"{lang}-{name}{suffix}.png"
            page.screenshot(path=str(target), full_page=False)
            assert target.stat().st_size > 10_000
        context.close()


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


# --- What a careful reader met (issue 18), each first reproduced here. ---------------------

SITE_URL = se.DOCS_URL  # "https://docs.surface.example/errors/"


class _RootHandler(http.server.SimpleHTTPRequestHandler):
    """The built site served at the root of the host, as a local preview serves it."""

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def root_server(built: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_RootHandler, directory=str(built))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_names_its_own_translations_with_absolute_urls(
    page: Any, server: str, lang: str
) -> None:
    for path in ("", "codes/", "codes/permission_denied/", "guide/"):
        page.goto(f"{server}{lang}/{path}")
        links = page.locator("head link[rel='alternate'][hreflang]")
        found = {
            links.nth(i).get_attribute("hreflang"): links.nth(i).get_attribute("href")
            for i in range(links.count())
        }
        wanted = {x: f"{SITE_URL}{x}/{path}" for x in LANGUAGES}
        assert found == {**wanted, "x-default": f"{SITE_URL}en/{path}"}, path


@pytest.mark.parametrize("where", ["base path", "root"])
def test_switching_language_works_under_any_base_path(
    page: Any, server: str, root_server: str, where: str
) -> None:
    base = server if where == "base path" else root_server
    page.goto(f"{base}en/codes/permission_denied/#recovery")
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__link[hreflang="ja"]').click()
    page.wait_for_url(f"{base}ja/codes/permission_denied/#recovery")
    assert heading_text(page.locator("h1").first) == "PERMISSION_DENIED"
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.problems == []


def test_the_switcher_works_without_javascript(browser: Any, root_server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{root_server}de/codes/permission_denied/")
    href = page.locator('.md-select__link[hreflang="en"]').get_attribute("href")
    assert not href.startswith("/"), href  # relative: right under any base path
    page.goto(page.evaluate("h => new URL(h, location.href).href", href))
    assert page.url == f"{root_server}en/codes/permission_denied/"
    assert heading_text(page.locator("h1").first) == "PERMISSION_DENIED"
    context.close()


@pytest.mark.parametrize(
    ("query", "slug", "within"),
    [
        # The code table holds the number too. (-32016: the changelog's notes on 2.0.0 and
        # the schema's text on MCP's free band name -32013 and -32019 as well.)
        ("-32016", "llm_timeout", 2),
        ("retries exhausted", "llm_retries_exhausted", 1),
        ("action timeout", "action_timeout", 1),
        ("PERMISSION_DENIED", "permission_denied", 1),
    ],
)
def test_search_finds_a_code_by_its_number_and_its_words(
    page: Any, server: str, query: str, slug: str, within: int
) -> None:
    page.goto(f"{server}en/")
    pages: list[str] = []  # each page once, in the order of its best result
    for href in _search(page, query):
        path = href.split("?", 1)[0].split("#", 1)[0]
        if path not in pages:
            pages.append(path)
    if query.startswith("-"):  # not "every page without the number"
        assert len(pages) <= 3, pages
    assert any(p.endswith(f"codes/{slug}/") for p in pages[:within]), (query, pages[:5])


def test_every_tab_stop_is_visible_and_not_hidden_from_assistive_technology(
    page: Any, server: str
) -> None:
    page.goto(f"{server}en/codes/")
    for _ in range(8):
        page.keyboard.press("Tab")
        state = page.evaluate(
            """() => { const e = document.activeElement; const r = e.getBoundingClientRect();
            return {tag: e.tagName, id: e.id, hidden: !!e.closest('[aria-hidden="true"]'),
                    size: r.width * r.height}; }"""
        )
        assert not state["hidden"], state
        assert state["size"] > 0 or state["tag"] == "BODY", state


def test_sortable_headers_stay_column_headers_with_a_button_inside(page: Any, server: str) -> None:
    page.goto(f"{server}en/codes/")
    header = page.get_by_role("columnheader", name="HTTP")
    assert header.count() == 1
    assert header.get_attribute("role") is None
    button = header.get_by_role("button")
    assert button.count() == 1
    button.focus()
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "ascending"
    assert button.get_attribute("aria-sort") is None
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "descending"
    assert page.problems == []


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_english_fallback_of_hand_written_pages_is_marked_as_english(
    page: Any, server: str, lang: str
) -> None:
    page.goto(f"{server}{lang}/guide/")
    text = page.locator("article p", has_text="errorbook is not tied to Surface").first
    assert text.evaluate("e => e.closest('[lang]').getAttribute('lang')") == "en"
    note = page.locator("article .admonition.note").first  # the note is in the page's language
    assert note.evaluate("e => e.closest('[lang]').getAttribute('lang')") == lang
    heading = page.locator("article h1").first
    assert heading.evaluate("e => e.closest('[lang]').getAttribute('lang')") == "en"


@pytest.mark.parametrize(
    ("languages", "landing"),
    [
        ("de-DE", "de"),
        ("ja", "ja"),
        ("fr-FR", "fr"),
        ("ar-EG", "ar"),
        ("pt-BR", "en"),
        ("en-GB", "en"),
    ],
)
def test_the_root_page_picks_the_readers_language(
    browser: Any, server: str, languages: str, landing: str
) -> None:
    context = browser.new_context(locale=languages)
    page = context.new_page()
    page.goto(server)
    page.wait_for_url(f"{server}{landing}/")
    assert page.evaluate("document.documentElement.lang") == landing
    context.close()


def test_the_root_page_lists_every_language_without_javascript(browser: Any, server: str) -> None:
    context = browser.new_context(java_script_enabled=False, locale="de-DE")
    page = context.new_page()
    page.goto(server)
    assert page.url == server  # nothing moves a reader without JavaScript
    links = page.locator("a[hreflang]")
    assert {links.nth(i).get_attribute("hreflang") for i in range(links.count())} == set(LANGUAGES)
    page.locator('a[hreflang="ja"]').click()
    assert page.url == f"{server}ja/"
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_code_table_on_a_small_tablet_says_it_scrolls_and_keeps_the_code_in_view(
    browser: Any, server: str, lang: str
) -> None:
    # Above 600 px the table scrolls sideways; at 600 px and less its rows are cards (below).
    context = browser.new_context(viewport=TABLET, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}{lang}/codes/")
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    hint = page.locator(".eb-scroll-hint")
    assert hint.is_visible()
    scroller = page.locator(".eb-sortable .md-typeset__scrollwrap").first
    assert scroller.evaluate("e => e.scrollWidth > e.clientWidth")
    # To the far end: left in a left-to-right page, right in a right-to-left one.
    scroller.evaluate(
        "e => { e.scrollLeft = getComputedStyle(e).direction === 'rtl' ? -e.scrollWidth"
        " : e.scrollWidth; }"
    )
    first = page.locator(".eb-sortable tbody tr").first.locator("td").first
    box = first.bounding_box()
    # The code column leads: on the left, or on the right in a right-to-left language.
    assert box is not None, box
    if page.evaluate("document.body.dir") == "rtl":
        assert TABLET["width"] / 2 < box["x"] + box["width"] <= TABLET["width"], box
    else:
        assert 0 <= box["x"] < TABLET["width"] / 2, box
    assert first.locator("a").is_visible()
    context.close()
    # On a desktop the hint is not needed.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}{lang}/codes/")
    assert not page.locator(".eb-scroll-hint").is_visible()
    context.close()


# --- The code finder (issue 18, "what to build" 1). ------------------------------------------

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True},
}


@functools.cache
def site_text(lang: str) -> dict[str, str]:
    """errorbook's own site text in ``lang``, as its translators wrote it."""
    from babel.messages.pofile import read_po

    path = ROOT / "templates" / "site" / "i18n" / f"{lang}.po"
    if not path.exists():
        return {}
    with path.open("rb") as stream:
        return {str(m.id): str(m.string) for m in read_po(stream) if m.id and m.string}


def said(lang: str, text: str, **values: object) -> str:
    """``text`` of errorbook's site text as a page in ``lang`` shows it."""
    found = site_text(lang).get(text, text)
    return found % values if values else found


def said_of(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    """A text about ``n`` things as a page in ``lang`` shows it: the form its file's
    Plural-Forms header gives ``n`` (English: the singular for 1 only)."""
    from babel.messages.pofile import read_po

    text = singular if n == 1 else plural
    path = ROOT / "templates" / "site" / "i18n" / f"{lang}.po"
    if path.exists():
        with path.open("rb") as stream:
            catalog = read_po(stream)
        message = catalog.get(singular)
        forms = message.string if message is not None else None
        if isinstance(forms, tuple) and all(forms):
            text = forms[gettext.c2py(catalog.plural_expr)(n)]
    return text % values


@functools.cache
def reference_text(lang: str) -> dict[str, str]:
    """The registry's reference prose in ``lang`` (its docs.po), by msgctxt."""
    from babel.messages.pofile import read_po

    path = ROOT / "locales" / lang / "LC_MESSAGES" / "docs.po"
    if not path.exists():
        return {}
    with path.open("rb") as stream:
        catalog = read_po(stream)
    return {str(m.context): str(m.string) for m in catalog if m.context and m.string}


def shape_title(lang: str, shape: str) -> str:
    """A shape's title as a page in ``lang`` shows it (the registry's words in English)."""
    return reference_text(lang).get(f"shape.{shape}.title") or SHAPES[se.Shape(shape)].title


#: The retry policies and their labels, errorbook's own site text.
RETRY_LABELS = {"never": "Never", "after_fix": "After a fix", "bounded": "Bounded"}


def _shown(page: Any) -> list[str]:
    """The names of the codes the table shows, in its order."""
    return [
        name.strip()
        for name in page.locator(".eb-sortable tbody tr:visible td:first-child a").all_inner_texts()
    ]


def _status(page: Any, lang: str, shown: int) -> None:
    total = len(se.ErrorCode)
    wanted = said_of(
        lang, "%(shown)s of %(total)s code", "%(shown)s of %(total)s codes", total,
        shown=shown, total=total,
    )  # fmt: skip
    status = page.get_by_role("status").filter(has_text=wanted)
    status.wait_for()
    assert status.get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_finder_filters_by_name_number_and_chip(
    browser: Any, server: str, lang: str, device: str
) -> None:
    context = browser.new_context(locale=lang, **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}{lang}/codes/")
    total = len(se.ErrorCode)
    _status(page, lang, total)
    label = said(lang, "Find a code")
    field = page.get_by_label(label)
    assert field.is_visible()
    # A name, with underscores read as spaces and in any case.
    field.fill("retries exhausted")
    assert _shown(page) == ["LLM_RETRIES_EXHAUSTED"]
    field.fill("permission_denied")
    assert _shown(page) == ["PERMISSION_DENIED"]
    _status(page, lang, 1)
    # A number: the JSON-RPC code exactly, and an HTTP status exactly (503 is not -32503).
    field.fill("-32019")
    assert _shown(page) == ["LLM_RETRIES_EXHAUSTED"]
    field.fill("503")
    with_503 = [c.value for c in se.ErrorCode if se.CODES[c].http_status == 503]
    assert sorted(_shown(page)) == sorted(with_503) and with_503
    field.fill("32019")  # a number is matched whole, not as a part of -32019
    assert _shown(page) == []
    _status(page, lang, 0)
    field.fill("")
    assert len(_shown(page)) == total
    # A chip: the shape "action"; a second chip of the same column widens the choice.
    group = page.get_by_role("group", name=heading_text(page.locator("thead th").nth(3)))
    action = group.locator('.eb-chip[data-value="action"]')  # it filters on the shape's id
    assert action.inner_text() == shape_title(lang, "action")  # and shows its title
    assert action.get_attribute("aria-pressed") == "false"
    action.click()
    assert action.get_attribute("aria-pressed") == "true"
    actions = [c.value for c in se.ErrorCode if str(se.CODES[c].shape) == "action"]
    assert sorted(_shown(page)) == sorted(actions)
    _status(page, lang, len(actions))
    field.fill("timeout")  # chips and words together narrow the table
    assert _shown(page) == ["ACTION_TIMEOUT"]
    field.fill("")
    action.click()
    assert len(_shown(page)) == total
    # A code's title, in the page's language, finds its row (the second column holds it).
    field.fill(str(se.title(se.ErrorCode.LLM_RETRIES_EXHAUSTED, lang)))
    assert _shown(page) == ["LLM_RETRIES_EXHAUSTED"]
    field.fill("")
    if device == "phone":
        # Each row is a card: no sideways scrolling, every cell under its column's name.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not page.locator(".eb-scroll-hint").is_visible()
        row = page.locator(".eb-sortable tbody tr").first
        assert row.evaluate("e => getComputedStyle(e).display") == "block"
        cell = row.locator("td").nth(1)
        assert cell.get_attribute("data-label") == heading_text(page.locator("thead th").nth(1))
        box = row.bounding_box()
        assert box is not None and box["width"] <= PHONE["width"]
    else:
        assert (
            page.locator(".eb-sortable tbody tr").first.evaluate("e => getComputedStyle(e).display")
            == "table-row"
        )
    assert errors == []
    context.close()


def test_the_finder_works_from_the_keyboard(page: Any, server: str) -> None:
    page.goto(f"{server}en/codes/")
    field = page.get_by_label("Find a code")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == field.get_attribute("id"):
            break
    else:
        pytest.fail("Tab never reaches the finder's field")
    page.keyboard.type("llm")
    llm = [c.value for c in se.ErrorCode if c.value.startswith("LLM_")]
    assert sorted(_shown(page)) == sorted(llm)
    page.keyboard.press("Tab")  # the first chip
    chip = page.evaluate_handle("document.activeElement")
    assert chip.evaluate("e => e.classList.contains('eb-chip')")
    assert chip.evaluate("e => e.getAttribute('aria-pressed')") == "false"
    page.keyboard.press("Enter")
    assert chip.evaluate("e => e.getAttribute('aria-pressed')") == "true"
    page.keyboard.press("Space")
    assert chip.evaluate("e => e.getAttribute('aria-pressed')") == "false"
    page.keyboard.press("Tab")  # the next chip is a tab stop too
    assert page.evaluate("document.activeElement.classList.contains('eb-chip')")
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    assert page.problems == []


def test_without_javascript_the_code_page_is_the_plain_table(browser: Any, server: str) -> None:
    for options in DEVICES.values():
        context = browser.new_context(java_script_enabled=False, **options)
        page = context.new_page()
        page.goto(f"{server}en/codes/")
        assert page.locator(".eb-sortable tbody tr").count() == len(se.ErrorCode)
        assert page.locator(".eb-sortable tbody tr:visible").count() == len(se.ErrorCode)
        assert page.locator(".eb-finder input, .eb-finder button").count() == 0
        assert page.locator(".eb-finder").evaluate("e => e.getBoundingClientRect().height") == 0
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_finder_screenshots(browser: Any, server: str, lang: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for device, options in DEVICES.items():
        context = browser.new_context(locale=lang, **options)
        page = context.new_page()
        page.goto(f"{server}{lang}/codes/")
        page.locator(".eb-finder input").fill("llm")
        page.locator('.eb-chip[data-value="bounded"]').click()
        page.locator(".eb-finder").scroll_into_view_if_needed()
        suffix = "" if device == "desktop" else "-phone"
        target = ARTIFACTS / f"{lang}-finder{suffix}.png"
        page.screenshot(path=str(target), full_page=False)
        assert target.stat().st_size > 10_000
        context.close()


def test_arabic_reads_right_to_left_with_code_left_to_right(page: Any, server: str) -> None:
    page.goto(f"{server}ar/codes/protocol_version_unsupported/")
    assert page.evaluate("document.body.dir") == "rtl"
    article = page.locator("article").first
    assert article.evaluate("e => getComputedStyle(e).direction") == "rtl"
    block = page.locator("article pre").first
    assert block.evaluate("e => getComputedStyle(e).direction") == "ltr"
    # A negative JSON-RPC number keeps its sign in front inside right-to-left text.
    number = page.locator("article bdi", has_text="-32010").first
    assert number.is_visible()
    box = number.bounding_box()
    sign = number.evaluate(
        """e => { const r = document.createRange(); r.setStart(e.firstChild, 0);
        r.setEnd(e.firstChild, 1); return r.getBoundingClientRect().x; }"""
    )
    assert box is not None and abs(sign - box["x"]) < 1  # the minus is the leftmost glyph
    assert page.problems == []


# --- A code's title (issue 18, "what to build" 2 and 7). -----------------------------------


def page_name(lang: str, code: se.ErrorCode) -> str:
    """A code page's name in ``lang``: "CODE: Title", as the language joins the two (French
    sets a no-break space before the colon)."""
    return said(lang, "%(code)s: %(title)s", code=code.value, title=se.title(code, lang))


def test_a_codes_own_search_entry_is_titled_with_its_name_and_title(built: Path) -> None:
    """What a search result leads with for a code's page: "CODE: Title", in the language."""
    for lang in LANGUAGES:
        index = json.loads((built / lang / "search" / "search_index.json").read_text("utf-8"))
        titles = {doc["location"]: doc["title"] for doc in index["docs"]}
        for code in se.ErrorCode:
            own = titles[f"codes/{code.value.lower()}/"]
            assert own == page_name(lang, code), lang


def _ranked(page: Any, query: str) -> list[tuple[str, str]]:
    """The pages a search for ``query`` lists, best first: (path, the title it shows). The
    field is emptied first, so that no result of the previous query is read."""
    field = page.locator(".md-search__input")
    field.fill("")
    field.press("End")  # Material searches on key events
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    field.fill(query)
    field.press("End")
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length > 0")
    items = page.locator(".md-search-result__item")
    found = []
    for i in range(min(items.count(), 3)):
        href = items.nth(i).locator("a").first.get_attribute("href") or ""
        path = page.evaluate("h => new URL(h, location.href).pathname", href)
        found.append((path, heading_text(items.nth(i).locator("article h1").first)))
    return found


#: What Material's search says while it starts, in each language (the first words of
#: "search.result.initializer"): a query typed before then is lost.
SEARCH_STARTING = "/^\\s*(initiali|suche wird|検索を初期化|inicializ|inicjow|بدء البحث)/i"
#: Codes whose own page a search must rank first, by their title and by their name in words:
#: one whose title is its name, some whose title says it in other words, and titles whose
#: short words ("de" in Spanish) or Japanese script once led search elsewhere.
RANKED = (
    se.ErrorCode.PERMISSION_DENIED,
    se.ErrorCode.ACTION_TIMEOUT,
    se.ErrorCode.SNAPSHOT_TOO_LARGE,
    se.ErrorCode.LLM_RETRIES_EXHAUSTED,
    se.ErrorCode.MODEL_BASE_URL_MISSING,
    se.ErrorCode.LIMIT_OUT_OF_RANGE,
    se.ErrorCode.TOO_MANY_ACTIONS,
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_ranks_a_codes_own_page_first_for_its_title_and_its_name(
    page: Any, server: str, lang: str
) -> None:
    page.goto(f"{server}{lang}/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.wait_for_function(  # the worker is ready once the meta no longer says it starts
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && !STARTING.test(m.textContent); }".replace("STARTING", SEARCH_STARTING)
    )
    for code in RANKED:
        title = str(se.title(code, lang))
        for query in (title, code.value.lower().replace("_", " ")):
            ranked = _ranked(page, query)
            own = f"{BASE_PATH}{lang}/codes/{code.value.lower()}/"
            assert ranked[0] == (own, page_name(lang, code)), (query, ranked)
    assert page.problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_retry_chips_show_labels_and_filter_on_the_policy(
    browser: Any, server: str, lang: str
) -> None:
    context = browser.new_context(locale=lang, **DEVICES["desktop"])
    page = context.new_page()
    page.goto(f"{server}{lang}/codes/")
    _status(page, lang, len(se.ErrorCode))
    chips = page.locator(".eb-chip[data-value]")
    shown = {
        chips.nth(i).get_attribute("data-value"): chips.nth(i).inner_text()
        for i in range(chips.count())
    }
    labels = {policy: said(lang, label) for policy, label in RETRY_LABELS.items()}
    assert {policy: shown[policy] for policy in labels} == labels
    for policy in labels:
        chip = page.locator(f'.eb-chip[data-value="{policy}"]')
        chip.click()
        wanted = [c.value for c in se.ErrorCode if str(se.CODES[c].retry) == policy]
        assert sorted(_shown(page)) == sorted(wanted) and wanted, policy
        chip.click()
    # The policy's id finds its rows in any language, as a word of the query.
    page.locator(".eb-finder input").fill("after_fix")
    wanted = [c.value for c in se.ErrorCode if str(se.CODES[c].retry) == "after_fix"]
    assert sorted(_shown(page)) == sorted(wanted)
    # The legend under the table explains each label.
    items = page.locator("#legend ~ ul").last.locator("li")
    explained = {
        items.nth(i).locator("code").inner_text(): items.nth(i).locator("strong").inner_text()
        for i in range(items.count())
    }
    assert explained == labels
    context.close()


def test_example_tabs_are_on_the_page_but_not_in_the_search_index(built: Path) -> None:
    """The plugin holds a code's example tabs back from the search plugin and puts them
    back where they were: the page shows every tab under its Example heading, the index has
    the heading with no text, and no call or value of the examples."""
    for lang in LANGUAGES:
        index = json.loads((built / lang / "search" / "search_index.json").read_text("utf-8"))
        texts = {doc["location"]: doc["text"] for doc in index["docs"]}
        for code in se.ErrorCode:
            slug = code.value.lower()
            html = (built / lang / "codes" / slug / "index.html").read_text("utf-8")
            assert "errorbook:" not in html  # neither marker nor placeholder is left
            heading = html.index('id="example"')
            tabs = html.index('class="tabbed-set', heading)
            assert tabs < html.index("</article>")
            assert html.count('class="tabbed-block"') >= 2
            assert texts[f"codes/{slug}/#example"] == ""
            page_text = " ".join(t for loc, t in texts.items() if loc.startswith(f"codes/{slug}/"))
            assert "to_mcp" not in page_text and "jsonrpc" not in page_text, (lang, code)
            assert "Copy the code" not in page_text
