"""The Content-Security-Policy in a real browser: the pages work under it, nothing is
refused, and /docs renders with Swagger UI served by the app itself (no CDN)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import AppServer

pytestmark = pytest.mark.browser


def _watch(page: Any) -> tuple[list[str], list[str]]:
    """Console messages about refused content, and every request's URL."""
    refused: list[str] = []
    urls: list[str] = []
    page.on(
        "console",
        lambda m: (
            refused.append(m.text)
            if "Content Security Policy" in m.text or "Refused" in m.text
            else None
        ),
    )
    page.on("request", lambda r: urls.append(r.url))
    return refused, urls


def test_pages_run_under_the_csp(browser: Any, app_server: AppServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    refused, urls = _watch(page)
    page.goto(app_server.url + "/")
    page.get_by_test_id("name").wait_for()
    page.goto(app_server.url + "/dev/table.html?case=call")
    page.locator(".hand-tiles .tile").first.wait_for()
    page.goto(app_server.url + "/tiles/index.html")
    page.locator("#sets img").first.wait_for()
    assert page.locator("#sets img").count() > 100
    # The tile sheet's style (a file now) applies.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(31, 91, 69)"
    assert refused == []
    assert all(u.startswith(app_server.url) for u in urls), urls
    context.close()


def test_api_docs_render_from_our_own_files(browser: Any, app_server: AppServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    refused, urls = _watch(page)
    page.goto(app_server.url + "/docs")
    page.locator(".swagger-ui .info .title").filter(has_text="Jantaku").wait_for()
    page.locator(".opblock-summary-path").first.wait_for()
    assert page.locator(".opblock").count() >= 20
    assert all(u.startswith(app_server.url) for u in urls), urls
    assert refused == []
    context.close()
