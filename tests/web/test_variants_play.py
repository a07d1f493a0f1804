"""Sanma and Nanchang played from the browser against the real app: the lobby of each
game (its seats and bot levels), the three-seat table (no toimen), nukidora, jokers
marked on every tile, the Nanchang result card's scoring elements and the final ledger."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, ROOT, AppServer
from tests.web.foldkit import fold_view
from tests.web.player import (
    Stats,
    add_bots,
    at_final,
    create_lobby,
    open_person,
    play_until,
)

pytestmark = pytest.mark.browser

EN: dict[str, str] = json.loads((ROOT / "web/i18n/en.json").read_text(encoding="utf-8"))
ZH: dict[str, str] = json.loads((ROOT / "web/i18n/zh.json").read_text(encoding="utf-8"))


def _round_results(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nanchang's round results as the page got them (protocol 2: a result without its
    ``win`` is the win of the event just before it, docs/protocol.md)."""
    results = []
    win = None
    for f in frames:
        ev = f.get("event") if f.get("type") == "event" else None
        if ev and ev["type"] == "win":
            win = ev["win"]
        elif ev and ev["type"] == "round_end":
            results.append({"win": win, **ev["result"]})
            win = None
    return results


def _last_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's view now: its frames (protocol 2) folded as the client folds them."""
    folded = fold_view(list(frames))
    assert folded is not None
    view: dict[str, Any] = folded["view"]
    return view


def _open_replay(page: Any, base: str, game_id: int) -> None:
    """The finished game in the replay viewer, at the last step of its first hand."""
    deadline = time.monotonic() + 15
    while page.request.get(f"{base}/api/games/{game_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game was not recorded as finished"
        time.sleep(0.1)
    page.goto(f"{base}/#/replay/{game_id}")
    page.get_by_test_id("replay").wait_for()
    page.keyboard.press("End")
    page.get_by_test_id("replay-result").wait_for()


def _fits(page: Any, size: dict[str, int]) -> None:
    """The table fits the screen's width, and the own hand is on it."""
    page.set_viewport_size(size)
    page.locator(".hand-tiles .tile").first.wait_for()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"]
    hand = page.locator(".hand-tiles").bounding_box()
    assert hand and hand["x"] >= 0 and hand["x"] + hand["width"] <= size["width"]


def test_sanma_lobby_to_final_standings(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    """One person and two bots: three slots, three seats round the board (self bottom,
    shimocha right, kamicha left, no toimen), nukidora shown, standings of three."""
    me = open_person(browser, app_server.url, "Sora", DESKTOP)
    page = me.page
    # A four-player lobby with a bot in the fourth seat; the host changes the game in
    # the lobby: sanma has three seats, so that bot goes (a person there would refuse
    # it, tests/server/test_lobby_variants.py), East-only stays.
    create_lobby(page, length="tonpuu")
    assert page.locator(".slot").count() == 4
    add_bots(page, [3])
    groups = page.locator("[data-testid=lobby-preset] optgroup").evaluate_all(
        "(gs) => gs.map((g) => [g.label, [...g.children].map((o) => o.value)])"
    )
    assert groups == [
        [EN["game.riichi"], ["standard", "tenhou", "majsoul"]],
        [EN["game.sanma"], ["tenhou-sanma", "majsoul-sanma"]],
        [EN["game.nanchang"], ["nanchang", "nanchang-east"]],
    ]
    page.get_by_test_id("lobby-preset").select_option("tenhou-sanma")
    page.locator(".slot").nth(3).wait_for(state="detached")
    assert page.locator(".slot").count() == 3 and page.locator(".slot.bot").count() == 0
    summary = page.get_by_test_id("rules-summary").inner_text()
    assert "Tenhou sanma" in summary and "East only" in summary
    levels = page.locator("[data-testid=bot-level] option").evaluate_all(
        "(os) => os.map((o) => o.value)"
    )
    assert sorted(levels) == ["defensive", "efficient", "random", "strong", "tsumogiri"]
    add_bots(page, [1, 2])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()

    screen = page.locator(".table-screen")
    assert screen.get_attribute("data-seats") == "3"
    assert page.locator(".zone").count() == 3 and page.locator(".plate").count() == 3
    assert page.locator(".zone-2, .plate-2").count() == 0  # no toimen
    welcome = next(f for f in me.frames if f.get("type") == "welcome")
    seat = welcome["seat"]
    positions = {
        int(z.get_attribute("data-seat")): z.get_attribute("class")
        for z in page.locator(".zone").all()
    }
    assert "zone-0" in positions[seat]
    assert "zone-1" in positions[(seat + 1) % 3]  # shimocha on the right
    assert "zone-3" in positions[(seat + 2) % 3]  # kamicha on the left
    # On the board the kamicha's zone is left of the centre, the shimocha's right of it.
    centre = page.locator(".center").bounding_box()
    left = page.locator(f".zone[data-seat='{(seat + 2) % 3}']").bounding_box()
    right = page.locator(f".zone[data-seat='{(seat + 1) % 3}']").bounding_box()
    assert centre and left and right
    assert left["x"] + left["width"] <= centre["x"] + 1
    assert right["x"] >= centre["x"] + centre["width"] - 1
    _fits(page, PHONE)
    page.screenshot(path=str(artifacts / "sanma-phone.png"))
    _fits(page, DESKTOP)

    nuki_seen: list[int] = []

    def stop() -> bool:
        # Whenever the screen shows a table, its norths set aside are the view's.
        if (
            page.locator(".table-screen[data-busy=false]").count()
            and not page.locator("[data-testid=overlay]").count()
        ):
            shown = page.locator("[data-testid=nuki] .tile").count()
            if shown:
                nuki_seen.append(shown)
        return at_final(page)

    stats = Stats(frames=me.frames)
    play_until([page], stop, stats, deadline_s=90)
    page.screenshot(path=str(artifacts / "sanma-standings.png"))

    nukis = me.events("nuki")
    assert nukis, "no north was set aside in the whole game"
    assert nuki_seen, "a north was set aside but never shown"
    assert stats.actions.get("nuki", 0) == len([n for n in nukis if n["seat"] == seat])
    end = me.events("game_end")
    assert len(end) == 1
    final = sorted(end[0]["final"], key=lambda f: f["rank"])
    assert len(final) == 3 and sum(f["points"] for f in final) == 105000
    rows = page.locator("[data-testid=standings] tr[data-rank]")
    assert rows.count() == 3
    for i, f in enumerate(final):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(f["rank"]) and cells[2] == str(f["points"])

    # History and the replay viewer: three seats, the norths set aside in the record.
    page.get_by_test_id("home-link").click()
    page.get_by_test_id("history").locator("li").first.wait_for()
    assert "Tenhou sanma" in page.get_by_test_id("history").inner_text()
    _open_replay(page, app_server.url, welcome["game_id"])
    assert page.locator("[data-testid=replay-table] .zone").count() == 3
    assert page.get_by_test_id("export-tenhou6").count() == 1
    hands = page.get_by_test_id("hand-select").locator("option").count()
    shown = 0
    for h in range(hands):
        page.get_by_test_id("hand-select").select_option(str(h))
        # Keys in the picker are the picker's: the viewer's keys work off it.
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("End")
        # A hand's last step is its result, the last hand's the final standings.
        page.locator("[data-testid=replay-result], [data-testid=replay-final]").wait_for()
        shown += page.locator("[data-testid=replay-table] [data-testid=nuki] .tile").count()
    assert shown >= 1  # the hands' last steps show the norths set aside
    assert me.errors == []
    me.context.close()


def test_nanchang_game_to_the_final_ledger_on_a_phone(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    """One person and three bots at Nanchang (one round): the turned-up tile, jokers
    badged on every tile, every result card listing the round's scoring elements by
    name, the ledger at the end."""
    me = open_person(browser, app_server.url, "Mei", PHONE)
    page = me.page
    create_lobby(page, preset="nanchang-east", length="1")
    assert page.locator(".slot").count() == 4
    levels = page.locator("[data-testid=bot-level] option").evaluate_all(
        "(os) => os.map((o) => o.value)"
    )
    assert sorted(levels) == ["efficient", "random"]
    assert "十三烂" in page.get_by_test_id("bot-hint").inner_text()
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    screen = page.locator(".table-screen")
    assert screen.get_attribute("data-variant") == "nanchang"
    assert page.locator(".zone").count() == 4

    view = _last_view(me.frames)
    indicator = page.get_by_test_id("indicator").locator(".tile")
    assert indicator.get_attribute("data-tile") == view["indicator"]
    _check_jokers(page, view)
    _fits(page, DESKTOP)
    page.screenshot(path=str(artifacts / "nanchang-table.png"))
    _fits(page, PHONE)

    cards: list[dict[str, Any]] = []

    def on_result(p: Any, kind: str) -> None:
        card = p.locator("[data-testid=overlay] .overlay-card")
        items = card.locator("[data-element]").evaluate_all(
            "(ls) => ls.map((l) => [l.dataset.element, l.innerText])"
        )
        deltas = card.locator("[data-testid=deltas] tr td:nth-child(2)").all_inner_texts()
        cards.append({"kind": kind, "items": items, "deltas": deltas})
        _check_jokers(p, _last_view(me.frames))

    stats = Stats(frames=me.frames)
    play_until([page], lambda: at_final(page), stats, deadline_s=90, on_result=on_result)
    page.screenshot(path=str(artifacts / "nanchang-ledger.png"))

    results = _round_results(me.frames)
    assert len(cards) == len(results) >= 4  # four dealers at least
    wins = 0
    for card, r in zip(cards, results, strict=True):
        assert card["kind"] == ("agari" if r["win"] else "ryuukyoku")
        assert card["deltas"] == [f"+{d}" if d > 0 else str(d) for d in r["deltas"]]
        expected: list[str] = []
        if r["win"]:
            wins += 1
            sc = r["win"]["score"]
            expected += [e["id"] for e in sc["elements"] + sc["payer_elements"]]
        for b in r["joker_bonus"]:
            expected += [k for k in ("chongguan", "bawang") if b[k]]
        expected += ["joker_kan" if k["joker"] else "kan" for k in r["kans"]]
        shown = [i for i, _ in card["items"]]
        assert sorted(shown) == sorted(expected), (shown, r)
        for element, text in card["items"]:
            if element != "kan":
                assert EN[f"nc_el.{element}"] in text, (element, text)
    assert wins >= 1, "no hand of the game was won"
    end = me.events("game_end")
    assert len(end) == 1
    final = sorted(end[0]["final"], key=lambda f: f["rank"])
    assert sum(f["points"] for f in final) == 0  # a ledger: what one wins the others pay
    rows = page.locator("[data-testid=standings] tr[data-rank]")
    assert rows.count() == 4
    for i, f in enumerate(final):
        cells = rows.nth(i).locator("td").all_inner_texts()
        points = f["points"]
        assert cells[0] == str(f["rank"])
        assert cells[2] == (f"+{points}" if points > 0 else str(points))

    # The replay viewer: four seats, jokers badged, the first hand's card with its
    # elements, and only our own record to download (no Tenhou or mjai format).
    welcome = next(f for f in me.frames if f.get("type") == "welcome")
    _open_replay(page, app_server.url, welcome["game_id"])
    assert page.locator("[data-testid=replay-table] .zone").count() == 4
    assert page.get_by_test_id("export-tenhou6").count() == 0
    assert page.get_by_test_id("export-mjai").count() == 0
    assert page.get_by_test_id("export-jantaku").count() == 1
    assert EN["history.own_record_only"] in page.get_by_test_id("replay").inner_text()
    badged = page.locator(".replay .tile.joker").evaluate_all(
        "(ts) => ts.map((t) => t.dataset.tile)"
    )
    record = page.request.get(f"{app_server.url}/api/games/{welcome['game_id']}").json()
    assert set(badged) <= first_jokers(record["events"])
    first = record["hands"][0]["result"]["result"]
    # The turned-up tile is the 正精 itself.
    assert (
        page.locator("[data-testid=replay-table] [data-testid=indicator] .tile.joker-zheng").count()
        == 1
    )
    card = page.get_by_test_id("replay-result")
    assert card.locator("[data-testid=deltas] tr").count() == 5
    if first["win"]:
        ids = card.locator("[data-testid=element-list] li").evaluate_all(
            "(ls) => ls.map((l) => l.dataset.element)"
        )
        sc = first["win"]["score"]
        assert ids == [e["id"] for e in sc["elements"] + sc["payer_elements"]]

    # History: the game under its preset, one line per hand naming the elements.
    page.goto(f"{app_server.url}/#/history")
    item = page.get_by_test_id("history-game").first
    item.wait_for()
    assert EN["preset.nanchang-east"] in item.inner_text()
    item.get_by_test_id("hands-toggle").click()
    lines = item.locator(".hand-summary li")
    lines.first.wait_for()
    assert lines.count() == len(record["hands"])
    for i, h in enumerate(record["hands"]):
        r = h["result"]["result"]
        text = lines.nth(i).inner_text()
        if r["win"]:
            names = [EN[f"nc_el.{e['id']}"] for e in r["win"]["score"]["elements"]]
            assert all(n in text for n in names) and f"Total {r['win']['score']['total']}" in text
        else:
            assert EN["nc.wall_exhausted"] in text
    assert me.errors == []
    me.context.close()


def first_jokers(rows: list[dict[str, Any]]) -> frozenset[str]:
    """The first hand's jokers, from the record's first ``jokers`` event."""
    ev = next(r["data"] for r in rows if r.get("kind") == "event" and r["type"] == "jokers")
    return frozenset((ev["zheng"], ev["fu"]))


def _check_jokers(page: Any, view: dict[str, Any]) -> None:
    """Every face-up tile of a joker kind carries its badge, and no other tile does."""
    jokers = view["jokers"]
    tiles = page.locator(".table-screen .tile[data-tile]").evaluate_all(
        """(ts) => ts.filter((t) => t.dataset.tile).map((t) => [
             t.dataset.tile, t.dataset.joker || null,
             (t.querySelector('.joker-badge') || {}).textContent || null])"""
    )
    assert tiles
    badge = {"zheng": EN["joker.zheng"], "fu": EN["joker.fu"]}
    marked = 0
    for tile, kind, text in tiles:
        want = "zheng" if tile == jokers["zheng"] else "fu" if tile == jokers["fu"] else None
        assert kind == want, (tile, kind, jokers)
        assert text == (badge[want] if want else None)
        marked += want is not None
    assert marked >= 2  # the jokers row shows both
    assert ZH["joker.zheng"] == "正精" and ZH["joker.fu"] == "副精"
