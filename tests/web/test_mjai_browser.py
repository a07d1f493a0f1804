"""An operator's external stdio mjai bot (JANTAKU_MJAI_BOTS) playing a whole game in a
lobby from the browser: the host picks its level, adds it beside two of ours, and
clicks through to the standings; the record shows the bot's seat deciding itself."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AppServer
from tests.web.player import (
    lobby_with_outside_bot,
    open_person,
    start_and_play_to_final,
)

pytestmark = pytest.mark.browser

BOT = Path(__file__).resolve().parents[1] / "external" / "tsumogiri_mjai.py"


@pytest.fixture(scope="module")
def mjai_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app with the tiny tsumogiri bot registered as ``mjai-tiny`` (its own server,
    so the other browser tests keep theirs without it)."""
    from server.db import migrate

    db = tmp_path_factory.mktemp("mjaidb") / "jantaku-mjai.db"
    url = f"sqlite:///{db}"
    migrate.upgrade(url)
    srv = AppServer(url, mjai_bots=f"tiny={sys.executable} {BOT}").start()
    yield srv
    srv.stop()


def test_external_bot_plays_a_lobby_game_to_the_standings(
    browser: Any, mjai_server: AppServer, artifacts: Path
) -> None:
    base = mjai_server.url
    me = open_person(browser, base, "Mio")
    page = me.page
    # The picker offers the operator's bot, named as registered, with its own hint.
    lobby_with_outside_bot(page, base, "mjai-tiny", "external mjai bot")
    page.screenshot(path=str(artifacts / "lobby-mjai.png"))
    game_id = start_and_play_to_final(page, deadline_s=75)

    game = page.request.get(f"{base}/api/games/{game_id}").json()
    assert game["status"] == "finished"
    seats = {s["seat"]: s["bot"] for s in game["seats"]}
    assert sorted(seats.values(), key=str) == sorted(
        [None, "efficient", "efficient", "mjai-tiny"], key=str
    )
    ext = next(s for s, b in seats.items() if b == "mjai-tiny")
    # Every decision of the bot's seat came from a bot (none from a person or a timer),
    # and were its own: it passes on every call or win and discards what it drew, where
    # the defensive bot standing in for a failed answer would keep a useful tile.
    acts = [e["data"] for e in game["events"] if e["kind"] == "action" and ext in e["seats"]]
    assert acts and {a["source"] for a in acts} == {"bot"}
    assert {a["type"] for a in acts} <= {"discard", "pass"}, acts
    discards = [
        e["data"]
        for e in game["events"]
        if e["kind"] == "event" and e["type"] == "discard" and e["data"]["seat"] == ext
    ]
    assert discards and all(d["tsumogiri"] for d in discards), discards
    # The standings are shown, one row a seat.
    assert page.locator("[data-testid=standings] tr[data-rank]").count() == 4
    page.screenshot(path=str(artifacts / "standings-mjai.png"))
    assert me.errors == []
    me.context.close()
