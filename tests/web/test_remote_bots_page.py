"""The account page's bots card: make a remote bot, see its token once, see it
connected, be refused a taken name, revoke it (its socket is closed), on a laptop and
on a phone (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web.conftest import DESKTOP, PHONE, AppServer
from tests.web.player import open_person

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1366", "390"])
def test_make_see_connected_and_revoke_a_bot(
    browser: Any, app_server: AppServer, viewport: dict[str, int]
) -> None:
    base = app_server.url
    me = open_person(browser, base, "Rin", viewport)
    page = me.page
    user = "rin" + str(viewport["width"])
    body = {"username": user, "password": "tiles and tea 2026"}
    assert page.request.post(f"{base}/api/account/claim", data=body).ok
    page.goto(f"{base}/#/account")
    card = page.get_by_test_id("remote-bots")
    assert "No bots yet." in card.inner_text()

    name = "bot" + str(viewport["width"])
    page.get_by_test_id("new-bot-name").fill(name)
    page.get_by_test_id("new-bot-form").locator("button").click()
    token = page.get_by_test_id("bot-token").input_value()
    assert token.startswith("jtb_") and len(token) > 40
    assert "shown only this once" in page.get_by_test_id("new-bot-token").inner_text()
    row = page.locator(f"[data-bot='{name}']")
    assert f"remote-{name}" in row.inner_text() and "not connected" in row.inner_text()
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= viewport["width"], width

    ws_url = base.replace("http", "ws", 1) + "/ws/bot"
    with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as bot:
        page.reload()
        row = page.locator(f"[data-bot='{name}']")
        assert "connected (1)" in row.inner_text()
        # The token was shown once: the page does not show it again.
        assert page.get_by_test_id("bot-token").count() == 0

        # A taken name is refused with the reason, and nothing is made.
        page.get_by_test_id("new-bot-name").fill(name)
        page.get_by_test_id("new-bot-form").locator("button").click()
        page.get_by_test_id("new-bot-msg").filter(has_text="already").wait_for()
        assert page.locator("[data-bot]").count() == 1

        page.once("dialog", lambda d: d.accept())
        page.get_by_test_id(f"revoke-bot-{name}").click()
        page.get_by_test_id("remote-bot-list").filter(has_text="No bots yet.").wait_for()
        with pytest.raises(ConnectionClosed) as closed:
            bot.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert page.request.get(f"{base}/api/bots/remote").json()["bots"] == []
