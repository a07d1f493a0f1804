"""Result cards and the final screen (issue 15), in Chromium at 1366x768 and 390x844:
honba and riichi sticks itemised, who declared riichi, tenpai hands with their melds
at a draw, the automatic advance counted down (fake clock), why the game ended, your
row, the per-hand list and the score graph; the watchers' names. On the mock table
(web/dev/table.html) and in a live game against bots.

The screenshots linked from docs/client.md are taken here: into test-artifacts/, and
into docs/screenshots/ when JANTAKU_SCREENSHOTS=1."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.short_game import SHORT
from tests.web.conftest import DESKTOP, PHONE, ROOT, AppServer
from tests.web.player import Stats, add_bots, at_final, open_person, play_until

pytestmark = pytest.mark.browser

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
# With 1000 points any payment busts someone: the game ends by tobi after a hand or two.
MOCK_JS = ROOT / "web" / "dev" / "mock.js"


def _shot(page: Any, name: str, artifacts: Path) -> None:
    """A screenshot for the docs: always into test-artifacts, into docs/screenshots on demand."""
    size = page.viewport_size
    file = f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(artifacts / file))
    if os.environ.get("JANTAKU_SCREENSHOTS") == "1":
        out = ROOT / "docs" / "screenshots"
        out.mkdir(exist_ok=True)
        page.screenshot(path=str(out / file))


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture(params=SIZES)
def page(request: Any, browser: Any, app_server: AppServer) -> Iterator[Any]:
    context = browser.new_context(viewport=request.param)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.clock.install()
    p.base = app_server.url  # type: ignore[attr-defined]
    yield p
    assert errors == []
    context.close()


def _open(page: Any, query: str) -> Any:
    page.goto(f"{page.base}/dev/table.html?{query}")
    page.locator(".table-screen").wait_for()
    return page


def _pause(page: Any) -> None:
    """Stop the page's clock now (Python's pause_at takes a date, not milliseconds)."""
    now = page.evaluate("Date.now()") / 1000
    page.clock.pause_at(datetime.fromtimestamp(now + 0.2, tz=UTC))


def _amount(text: str) -> int:
    return int(text.replace(",", "").replace("+", ""))


def test_a_win_itemises_honba_and_sticks_and_marks_riichi(page: Any, artifacts: Path) -> None:
    _open(page, "case=discard&watchers=2&names=Kai")
    page.get_by_test_id("watcher-names").wait_for()
    _shot(page, "table", artifacts)
    _open(page, "case=discard&overlay=agari")
    card = page.locator("[data-testid=overlay] .overlay-card[data-kind=agari]")
    card.wait_for()
    items = card.locator("[data-testid=payout] li")
    got = {li.get_attribute("data-item"): li.inner_text() for li in items.all()}
    assert list(got) == ["hand", "honba", "sticks", "total"]
    assert got["honba"].split("\n") == ["Honba 1", "+300"]
    assert got["sticks"].split("\n") == ["Riichi sticks 1", "+1,000"]
    parts = [int(li.get_attribute("data-points")) for li in items.all()]
    # hand + honba + sticks = the total = the winner's change in the deltas table
    assert sum(parts[:-1]) == parts[-1] == 9000
    row = card.locator("[data-testid=deltas] tr[data-seat='0'] td").nth(1)
    assert _amount(row.inner_text()) == parts[-1]
    # Seat 1 declared riichi (its stick paid the winner): marked in the deltas, nobody else.
    marks = card.locator("[data-testid=deltas] [data-testid=riichi-mark]")
    assert marks.count() == 1
    assert card.locator("[data-testid=deltas] tr[data-seat='1'] [data-testid=riichi-mark]").count()
    # Your own row is marked.
    assert card.locator("[data-testid=deltas] tr.me").get_attribute("data-seat") == "0"
    _no_sideways_scroll(page)
    _shot(page, "result", artifacts)


def test_a_draw_shows_the_tenpai_hands_with_their_melds(page: Any) -> None:
    mock = MOCK_JS.read_text(encoding="utf-8")
    assert '"ryuukyoku", reason: "exhaustive", tenpai: [0, 2]' in mock
    _open(page, "case=discard&overlay=draw")
    card = page.locator(".overlay-card[data-kind=ryuukyoku]")
    card.wait_for()
    hands = card.locator("[data-testid=draw-hand]")
    assert [h.get_attribute("data-seat") for h in hands.all()] == ["0", "2"]  # noten: none
    # the tiles the event revealed, and the melds each seat had called
    seat2 = card.locator("[data-testid=draw-hand][data-seat='2']")
    assert seat2.locator(".tiles-row .tile").count() == 7
    assert seat2.locator(".meld").count() == 2
    assert card.locator("[data-testid=draw-hand][data-seat='0'] .meld").count() == 1
    assert "Tenpai hands" in card.inner_text()


def test_the_automatic_advance_counts_down(page: Any) -> None:
    _open(page, "case=discard&overlay=agari&pause=6000")
    line = page.get_by_test_id("next-round")
    line.wait_for()
    # Time stands still from here (a moment after the pause was told).
    _pause(page)
    left = int(line.get_attribute("data-seconds") or 0)
    assert left in (5, 6)
    assert line.inner_text() == f"Next round in {left} s"
    page.clock.run_for(2000)
    assert line.get_attribute("data-seconds") == str(left - 2)
    page.clock.run_for(1000)
    assert line.inner_text() == f"Next round in {left - 3} s"
    page.clock.run_for(4000)
    assert line.get_attribute("data-seconds") == "0"
    assert line.inner_text() == "Next round starting…"
    page.clock.resume()
    # In Japanese too.
    _open(page, "case=discard&overlay=agari&pause=30000&lang=ja")
    page.get_by_test_id("next-round").wait_for()
    _pause(page)
    assert page.get_by_test_id("next-round").inner_text() in (
        "次の局まで 30 秒",
        "次の局まで 29 秒",
    )


def test_the_final_screen_says_why_and_shows_hands_and_graph(page: Any, artifacts: Path) -> None:
    _open(page, "case=discard&overlay=final")
    card = page.locator(".overlay-card[data-kind=final]")
    card.wait_for()
    page.get_by_test_id("score-graph").wait_for()
    reason = page.get_by_test_id("end-reason")
    assert reason.get_attribute("data-reason") == "last_round"
    assert reason.inner_text() == "The game ended: its last round was played."
    assert card.locator("[data-testid=standings] tr.me").get_attribute("data-seat") == "0"
    # One row per hand of the record (web/dev/mock.js), with each seat's change.
    rows = page.locator("[data-testid=hand-list] tr[data-hand]")
    assert rows.count() == 4
    first = rows.first.locator("td").all_inner_texts()
    assert first[1] == "East 1 · 0 honba" and first[2] == "Aoi Ron"
    assert first[3:] == ["+11200", "-11200", "0", "0"]
    assert rows.nth(1).locator("td").nth(2).inner_text() == "Exhaustive draw"
    lines = page.locator("[data-testid=score-graph] polyline")
    assert lines.count() == 4
    final = {0: 41200, 1: 8700, 2: 30100, 3: 20000}
    for ln in lines.all():
        scores = [int(x) for x in (ln.get_attribute("data-scores") or "").split(",")]
        assert scores[0] == 25000 and scores[-1] == final[int(ln.get_attribute("data-seat") or 0)]
        # one point a hand, after the start
        assert len((ln.get_attribute("points") or "").split()) == 5
    assert "me" in (lines.nth(0).get_attribute("class") or "")
    _no_sideways_scroll(page)
    _shot(page, "final", artifacts)


def test_players_see_the_watchers_names(page: Any) -> None:
    _open(page, "case=discard&watchers=3&names=Kai,Mei")
    assert page.get_by_test_id("watching").inner_text().endswith("3 watching")
    names = page.get_by_test_id("watcher-names")
    assert names.inner_text() == "Watching: Kai, Mei, 1 without a name"
    _no_sideways_scroll(page)


@pytest.mark.parametrize("size", SIZES)
def test_a_live_game_to_its_end_by_tobi(
    browser: Any, app_server: AppServer, size: dict[str, int], artifacts: Path
) -> None:
    me = open_person(browser, app_server.url, "Rin", size)
    page = me.page
    r = page.request.post(f"{app_server.url}/api/lobbies", data={"rules": SHORT})
    assert r.ok, r.text()
    page.goto(f"{app_server.url}/#/lobby/{r.json()['code']}")
    page.get_by_test_id("slots").wait_for()
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    checked: list[str] = []

    def on_result(p: Any, kind: str) -> None:
        """Each card against the event the server sent."""
        ev = [
            f["event"]
            for f in me.frames
            if f.get("type") == "event" and f["event"]["type"] in ("agari", "ryuukyoku")
        ][-1]
        card = p.locator(".overlay-card")
        # The pause the server told (30 s in the web tests) is counted down.
        line = p.get_by_test_id("next-round")
        line.wait_for()
        assert 0 < int(line.get_attribute("data-seconds") or 0) <= 30
        if kind == "agari":
            for w in ev["winners"]:
                items = card.locator("[data-testid=winner]").nth(ev["winners"].index(w))
                pts = [
                    int(x)
                    for x in items.locator("[data-testid=payout] li").evaluate_all(
                        "(ls) => ls.map((l) => l.dataset.points)"
                    )
                ]
                assert sum(pts[:-1]) == pts[-1] == w["deltas"][w["seat"]]
        else:
            shown = card.locator("[data-testid=draw-hand]").evaluate_all(
                "(ds) => ds.map((d) => Number(d.dataset.seat))"
            )
            assert sorted(shown) == sorted(int(s) for s in ev["hands"])
        checked.append(kind)

    play_until([page], lambda: at_final(page), Stats(), deadline_s=180, on_result=on_result)
    page.get_by_test_id("score-graph").wait_for()
    (end,) = [
        f["event"]
        for f in me.frames
        if f.get("type") == "event" and f["event"]["type"] == "game_end"
    ]
    assert end["reason"] == "tobi" and min(f["points"] for f in end["final"]) < 0
    assert page.get_by_test_id("end-reason").get_attribute("data-reason") == "tobi"
    assert "below zero" in page.get_by_test_id("end-reason").inner_text()
    played = [
        f
        for f in me.frames
        if f.get("type") == "event" and f["event"]["type"] in ("agari", "ryuukyoku")
    ]
    assert len(checked) == len(played) >= 1
    assert page.locator("[data-testid=hand-list] tr[data-hand]").count() == len(played)
    points = {f["seat"]: f["points"] for f in end["final"]}
    lines = page.locator("[data-testid=score-graph] polyline")
    assert lines.count() == 4
    for ln in lines.all():
        scores = [int(x) for x in (ln.get_attribute("data-scores") or "").split(",")]
        assert scores[0] == 1000 and scores[-1] == points[int(ln.get_attribute("data-seat") or 0)]
    assert page.locator("[data-testid=standings] tr.me").get_attribute("data-seat") == "0"
    _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"final-live-{size['width']}.png"))
    assert me.errors == []
    me.context.close()
