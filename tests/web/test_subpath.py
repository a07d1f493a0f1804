"""The client under a sub-path (JANTAKU_ROOT_PATH): every URL it uses stays under it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AppServer
from tests.web.player import Stats, add_bots, create_lobby, open_person, play_until

pytestmark = pytest.mark.browser

ROOT_PATH = "/mahjong"


@pytest.fixture(scope="module")
def sub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    from server.db import migrate

    db = tmp_path_factory.mktemp("subdb") / "jantaku-sub.db"
    url = f"sqlite:///{db}"
    migrate.upgrade(url)
    srv = AppServer(url, root_path=ROOT_PATH).start()
    yield srv
    srv.stop()


def test_lobby_table_and_history_under_a_sub_path(
    browser: Any, sub_server: AppServer, artifacts: Path
) -> None:
    base = sub_server.url + ROOT_PATH
    me = open_person(browser, base, "Sub")
    page = me.page
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    create_lobby(page, length="tonpuu")
    # The invite link names the sub-path.
    link = page.get_by_test_id("invite-link").input_value()
    code = page.get_by_test_id("lobby-code").inner_text()
    assert link == f"{base}/#/join/{code}"
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".table-screen").wait_for()
    page.locator(".hand-tiles .tile").first.wait_for()
    # Live over the WebSocket under the sub-path: play a few turns by clicking.
    stats = Stats()
    play_until([page], lambda: stats.discards >= 3, stats, deadline_s=60)
    # Every tile face loaded (a broken relative URL would leave empty images).
    broken = page.locator(".hand-tiles img").evaluate_all(
        "(imgs) => imgs.filter((i) => !i.complete || i.naturalWidth === 0).length"
    )
    assert broken == 0
    page.screenshot(path=str(artifacts / "subpath-table.png"))
    page.goto(f"{base}/#/history/all")
    page.locator(".page").first.wait_for()
    assert not me.errors, me.errors
    ours = [u for u in me.requests if u.startswith(sub_server.url)]
    assert ours, "the page made no requests"
    outside = [u for u in ours if not u.startswith(base + "/")]
    assert outside == [], outside
    ws_base = f"ws://127.0.0.1:{sub_server.port}{ROOT_PATH}/ws/"
    assert {u.removeprefix(ws_base).split("/")[0] for u in sockets} == {"lobby", "table"}
    me.context.close()
