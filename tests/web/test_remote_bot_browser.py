"""A remote mjai bot (connected on /ws/bot with its account's token) picked in the
lobby's bot picker like a built-in level, and playing a whole game from the browser."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.external.tsumogiri_remote import answer
from tests.web.conftest import AppServer
from tests.web.player import (
    lobby_with_outside_bot,
    open_person,
    start_and_play_to_final,
)

pytestmark = pytest.mark.browser


class ThreadBot:
    """The tsumogiri remote bot on a thread of its own (the browser test is synchronous)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.actor: int | None = None
        self.discards = 0
        self.ws: ClientConnection | None = None
        self.connected = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.connected.wait(10), "the bot could not connect"

    def _run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        try:
            with connect(self.url, additional_headers=headers) as ws:
                self.ws = ws
                self.connected.set()
                for raw in ws:
                    self.actor, reply = answer(json.loads(raw), self.actor)
                    self.discards += reply["type"] == "dahai"
                    ws.send(json.dumps(reply))
        except ConnectionClosed:
            pass

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.thread.join(10)


def test_a_remote_bot_is_picked_and_plays_to_the_standings(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    base = app_server.url
    me = open_person(browser, base, "Mio")
    page = me.page
    body = {"username": "mio", "password": "correct horse battery"}
    assert page.request.post(f"{base}/api/account/claim", data=body).ok
    r = page.request.post(f"{base}/api/bots/remote", data={"name": "tiny"})
    assert r.ok, r.text()
    bot = ThreadBot(base.replace("http", "ws", 1) + "/ws/bot", r.json()["token"])
    try:
        end = time.monotonic() + 10
        while "remote-tiny" not in page.request.get(f"{base}/api/bots").json()["external"]:
            assert time.monotonic() < end, "the bot never showed up"
            time.sleep(0.02)
        # The picker offers it by its level name, with the remote bot's hint.
        lobby_with_outside_bot(page, base, "remote-tiny", "remote mjai bot")
        game_id = start_and_play_to_final(page, deadline_s=75)
    finally:
        bot.close()

    game = page.request.get(f"{base}/api/games/{game_id}").json()
    assert game["status"] == "finished"
    seat = next(s["seat"] for s in game["seats"] if s["bot"] == "remote-tiny")
    # Its seat's discards were the bot's own: as many as it sent, every one tsumogiri.
    discards = [
        e["data"]
        for e in game["events"]
        if e["kind"] == "event" and e["type"] == "discard" and e["data"]["seat"] == seat
    ]
    assert discards and all(d["tsumogiri"] for d in discards), discards
    assert len(discards) == bot.discards
    assert page.locator("[data-testid=standings] tr[data-rank]").count() == 4
    page.screenshot(path=str(artifacts / "standings-remote.png"))
    assert me.errors == []
    me.context.close()
