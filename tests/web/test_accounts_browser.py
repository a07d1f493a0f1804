"""Accounts in the real browser: claim a guest, sign in from a second browser context,
see the same history, stats and the verified seed (issue 18)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.server.wsclient import TableClient
from tests.web.conftest import AppServer
from tests.web.player import open_person

pytestmark = pytest.mark.browser

PASSWORD = "tiles and tea 2026"


def _finished_game(base: str, token: str) -> int:
    """A tonpuu of this guest and three bots, played to its end by a scripted client."""
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=auth, timeout=10) as c:
        rules = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}
        code = c.post("/api/lobbies", json={"rules": rules}).json()["code"]
        for _ in range(3):
            assert (
                c.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"}).status_code == 200
            )
        game_id: int = c.post(f"/api/lobbies/{code}/start").json()["game"]["id"]

    async def play() -> None:
        ws = base.replace("http", "ws", 1)
        table = await TableClient.open(ws, game_id, token)
        await table.play(timeout=30)
        await table.close()

    # In a thread of its own: Playwright's sync API holds this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result()
    for _ in range(100):
        if httpx.get(f"{base}/api/games/{game_id}", headers=auth).json()["status"] == "finished":
            return game_id
        time.sleep(0.05)  # the end's commit, after the last frame
    raise AssertionError("the game did not finish")


def _stats_text(page: Any) -> str:
    page.get_by_test_id("stats-riichi").wait_for()
    text: str = page.get_by_test_id("stats-riichi").inner_text()
    return text


def test_claim_then_sign_in_from_another_browser(browser: Any, app_server: AppServer) -> None:
    base = app_server.url
    laptop = open_person(browser, base, "Aoi")
    token = next(c["value"] for c in laptop.context.cookies() if c["name"] == "jantaku_token")
    game_id = _finished_game(base, token)
    me = httpx.get(f"{base}/api/me", headers={"Authorization": f"Bearer {token}"}).json()

    page = laptop.page
    page.goto(f"{base}/#/account")
    page.get_by_test_id("claim-form").wait_for()
    page.get_by_test_id("claim-form").get_by_test_id("username").fill("aoi_plays")
    page.get_by_test_id("claim-form").get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("claim-form").locator("button[type=submit]").click()
    page.get_by_test_id("account-username").wait_for()
    assert "aoi_plays" in page.get_by_test_id("account-username").inner_text()

    page.goto(f"{base}/#/history")
    page.get_by_test_id("stats-line").first.wait_for()
    laptop_line = page.get_by_test_id("stats-line").first.inner_text()
    page.goto(f"{base}/#/player/{me['id']}")
    laptop_stats = _stats_text(page)
    assert page.get_by_test_id("stat-games").first.inner_text() == "1"
    page.goto(f"{base}/#/replay/{game_id}")
    page.get_by_test_id("seed-check").wait_for()
    assert "seed-verified" in (page.get_by_test_id("seed-check").get_attribute("class") or "")

    # A second browser (its own cookies: a phone, say) signs in to the same account.
    phone = browser.new_context()
    p2 = phone.new_page()
    errors: list[str] = []
    p2.on("pageerror", lambda e: errors.append(str(e)))
    p2.goto(f"{base}/#/account")
    form = p2.get_by_test_id("login-form")
    form.wait_for()
    assert p2.get_by_test_id("claim-form").count() == 0  # no guest here yet
    form.get_by_test_id("username").fill("AOI_PLAYS")
    form.get_by_test_id("password").fill("not the password")
    form.locator("button[type=submit]").click()
    p2.get_by_test_id("login-form-msg").filter(has_text="wrong").wait_for()
    form.get_by_test_id("password").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    p2.wait_for_function("() => location.hash === '#/'")
    p2.get_by_test_id("me").filter(has_text="Aoi").wait_for()

    p2.goto(f"{base}/#/history")
    p2.get_by_test_id("stats-line").first.wait_for()
    assert p2.get_by_test_id("history-game").first.get_attribute("data-game-id") == str(game_id)
    assert p2.get_by_test_id("stats-line").first.inner_text() == laptop_line
    p2.goto(f"{base}/#/player/{me['id']}")
    assert _stats_text(p2) == laptop_stats
    p2.goto(f"{base}/#/account")
    p2.get_by_test_id("sessions").wait_for()
    assert p2.get_by_test_id("sessions").locator("li").count() == 2
    assert errors == [] and laptop.errors == []
    phone.close()
    laptop.context.close()
