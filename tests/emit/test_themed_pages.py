"""The memo of laid out pages, on its own: what it keeps of a template's output and what it
writes back (the builds of the whole site are in test_page_memos.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

themed_pages = importlib.import_module("errorbook.integrations.themed_pages")


def _page(content: str) -> Any:
    return SimpleNamespace(
        file=SimpleNamespace(src_uri="guide.md"),
        url="guide/",
        canonical_url="https://example.org/guide/",
        abs_url="/guide/",
        edit_url=None,
        is_homepage=False,
        title="Guide",
        meta={},
        toc=[],
        previous_page=None,
        next_page=None,
        ancestors=[],
        content=content,
    )


def _context(page: Any) -> dict[str, Any]:
    return {
        "nav": SimpleNamespace(items=[], homepage=None),
        "pages": [],
        "base_url": "..",
        "extra_css": [],
        "extra_javascript": [],
        "mkdocs_version": "1.6.1",
        "build_date_utc": "2026-12-03",
        "config": {},
        "page": page,
    }


class Template:
    """Stands in for a Jinja template: lays out a page around its content."""

    def __init__(self, head: str) -> None:
        self.head = head
        self.calls = 0

    def render(self, context: dict[str, Any]) -> str:
        self.calls += 1
        return f"{self.head}<main>{context['page'].content}</main></body>"


def _build(root: Path, token: str, head: str) -> tuple[str, Template]:
    """One build of one page whose content holds ``token``, as the plugin drives the memo."""
    themed = themed_pages.ThemedPages(
        root, "themed.memo", "fingerprint", lambda content: content.replace(token, "held")
    )
    page = _page(f"<p>tabs {token}</p>")
    context = _context(page)
    template = Template(head)
    themed.prepare(context, page, template)
    output = template.render(context)
    themed.keep(output, page)
    themed.save()
    return output, template


def test_a_kept_layout_is_written_around_the_content_of_the_next_build(tmp_path: Path) -> None:
    first, template = _build(tmp_path, "token-1", "<head>Guide</head><body>")
    assert template.calls == 1
    second, template = _build(tmp_path, "token-2", "<head>Guide</head><body>")
    assert template.calls == 0  # taken from the memo
    assert second == first.replace("token-1", "token-2")


def test_a_layout_that_repeats_the_builds_own_token_is_not_kept(tmp_path: Path) -> None:
    """A template that wrote the content's token outside the content (into a description,
    say) would bring the last build's token back: such a layout is laid out each time."""
    head = "<head><meta content='token-1'></head><body>"
    _build(tmp_path, "token-1", head)
    output, template = _build(tmp_path, "token-2", head.replace("token-1", "token-2"))
    assert template.calls == 1
    assert "token-1" not in output
