"""Accessibility, measured: axe-core in Chromium on every kind of page, in every language.

Each page type of the built site (home, layers, shapes, the code table, a code's page,
recovery, limits, transports, changelog and a version's page, schema, the translators'
pages, a hand-written page) is loaded in each published language, and axe-core
(axe-playwright-python) must find no violation of serious or critical impact.
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_site import LANGUAGES, browser, built, page, server  # noqa: F401  (fixtures)

PAGES = (
    "",
    "overview/",
    "shapes/",
    "codes/",
    "codes/permission_denied/",
    "recovery/",
    "limits/",
    "adapters/",
    "changelog/",
    "changelog/1.0.0/",
    "schema/",
    "translators/",
    "progress/",
    "guide/",
)


@pytest.fixture(scope="module")
def axe() -> Any:
    module = pytest.importorskip("axe_playwright_python.sync_playwright")
    return module.Axe()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violation_on_any_page(
    page: Any,  # noqa: F811  (the fixture imported above)
    server: str,  # noqa: F811
    axe: Any,
    lang: str,
) -> None:
    found = []
    for path in PAGES:
        page.goto(f"{server}{lang}/{path}")
        for violation in axe.run(page).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"][:3]]
                found.append(f"{lang}/{path}: {violation['id']} at {targets}")
    assert found == []
