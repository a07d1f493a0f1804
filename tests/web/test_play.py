"""Playing in the real browser against the real app: lobby, a whole game, a win, reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AppServer
from tests.web.player import (
    Stats,
    add_bots,
    create_lobby,
    open_person,
    play_until,
    table_state,
)

pytestmark = pytest.mark.browser


def _is_final(page: Any) -> bool:
    st = table_state(page)
    return bool(st and st["overlay"] == "final")


def _events(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        f["event"]
        for f in frames
        if f.get("type") == "event" and (f.get("event") or {}).get("type") == kind
    ]


def test_full_game_by_clicking_until_standings(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    """One person creates a lobby, adds three bots, starts, and clicks through a tonpuu game."""
    me = open_person(browser, app_server.url, "Aoi")
    page = me.page
    create_lobby(page, length="tonpuu")
    # The rules summary shows what was chosen.
    summary = page.get_by_test_id("rules-summary").inner_text()
    assert "East only" in summary and "No timer" in summary
    add_bots(page, [1, 2, 3])
    page.screenshot(path=str(artifacts / "lobby.png"))
    page.get_by_test_id("start").click()
    page.locator(".table-screen").wait_for()
    page.locator(".hand-tiles .tile").first.wait_for()
    page.screenshot(path=str(artifacts / "table.png"))

    stats = Stats()
    play_until([page], lambda: _is_final(page), stats, deadline_s=300)
    page.screenshot(path=str(artifacts / "standings.png"))

    # The standings shown are the game_end event's: four rows in rank order,
    # each with the points and result the server computed.
    end = _events(me.frames, "game_end")
    assert len(end) == 1
    final = sorted(end[0]["final"], key=lambda f: f["rank"])
    rows = page.locator("[data-testid=standings] tr[data-rank]")
    assert rows.count() == 4
    for i, f in enumerate(final):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(f["rank"])
        assert cells[2] == str(f["points"])
        assert float(cells[4]) == pytest.approx(round(f["score"], 1))
    # Points and sticks are conserved: the final points sum to 4 x 25000.
    assert sum(f["points"] for f in final) == 100000
    # Every round result was shown and dismissed by clicking.
    rounds = len(_events(me.frames, "agari")) + len(_events(me.frames, "ryuukyoku"))
    assert rounds >= 4
    assert len(stats.results) == rounds
    assert stats.discards > 10
    # Nothing was loaded from anywhere but the app itself.
    assert all(u.startswith(app_server.url) for u in me.requests), me.requests
    assert me.errors == []
    me.context.close()
