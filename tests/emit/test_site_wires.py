"""A code's example on every wire, as a reader sees it in the browser: each tab holds what
the generated package returns, in every published language, and the code's name copies."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

import surface_errors as se

from ..pipeline.test_runtime_examples import _labels, _parsed, expected
from .test_site import LANGUAGES, browser, built, server  # noqa: F401  (fixtures)

#: One code of each envelope form: a failure inside a result, and one in the error form.
CODES = (se.ErrorCode.PERMISSION_DENIED, se.ErrorCode.REQUEST_TOO_LARGE)


#: A desktop and a 390 px phone.
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(VIEWPORTS))
def reader(browser: Any, request: pytest.FixtureRequest) -> Any:  # noqa: F811
    context = browser.new_context(viewport=VIEWPORTS[request.param])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context.new_page()
    context.close()


def _slug(code: se.ErrorCode) -> str:
    return se.CODES[code].docs_url.rstrip("/").rsplit("/", 1)[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_tab_shows_what_the_runtime_returns(reader: Any, server: str, lang: str) -> None:  # noqa: F811
    labels = _labels(lang)
    for code in CODES:
        reader.goto(f"{server}{lang}/codes/{_slug(code)}/")
        tabs = reader.locator(".tabbed-set").first
        for wire, value in expected(code, lang).items():
            label = tabs.locator(".tabbed-labels label", has_text=labels[wire]).first
            assert label.is_visible()  # every tab in sight, on a phone too: labels wrap
            label.click()
            shown = tabs.locator(".tabbed-block:visible pre code").first.inner_text()
            if wire in ("http", "problem"):
                status, headers, body = cast("tuple[int, dict[str, str], bytes]", value)
                value = (status, headers, json.loads(body))
            assert _parsed(wire, shown.rstrip("\n")) == value, (code, lang, wire)


def test_the_code_name_copies(reader: Any, server: str) -> None:  # noqa: F811
    reader.goto(f"{server}de/codes/{_slug(CODES[0])}/")
    button = reader.locator("button[data-eb-copy]")
    assert button.is_visible()
    assert button.inner_text() == "Code kopieren"
    button.click()
    assert reader.evaluate("navigator.clipboard.readText()") == CODES[0].value
    assert button.inner_text() == "Kopiert"


def test_without_javascript_there_is_no_copy_button(browser: Any, server: str) -> None:  # noqa: F811
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}en/codes/{_slug(CODES[0])}/")
    assert page.locator("button[data-eb-copy]").is_hidden()
    assert page.locator(".tabbed-set").count() == 1  # the tabs are CSS: they work without it
    context.close()
