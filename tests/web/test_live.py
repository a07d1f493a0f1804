"""Live-table behaviour in the real browser: reload, network drop, two people at one table."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from server.api.auth import watch_key
from tests.web.conftest import PHONE, AppServer
from tests.web.foldkit import fold_view
from tests.web.player import Stats, add_bots, create_lobby, no_auto, open_person, play_until

pytestmark = pytest.mark.browser

# What the table shows, read off the page: own hand, every river, scores, round.
_SNAPSHOT_JS = """() => {
  const tiles = (sel) => [...document.querySelectorAll(sel)].map((t) => t.dataset.tile);
  const rivers = {};
  for (const z of document.querySelectorAll('.zone')) {
    rivers[z.dataset.seat] = tiles(`.zone[data-seat="${z.dataset.seat}"] .river .tile`);
  }
  const plates = {};
  for (const p of document.querySelectorAll('.plate')) {
    plates[p.dataset.seat] = p.querySelector('.plate-score').textContent;
  }
  const s = document.querySelector('.table-screen');
  return {
    version: s.dataset.version,
    hand: tiles('.hand-tiles .tile'),
    drawn: tiles('.hand-tiles .tile.drawn'),
    rivers, plates,
    round: document.querySelector('.round-name').textContent,
    wall: document.querySelector('[data-testid=wall-left]').textContent,
    dora: tiles('[data-testid=dora] .tile'),
  };
}"""


def _snapshot(page: Any) -> dict[str, Any]:
    snap: dict[str, Any] = page.evaluate(_SNAPSHOT_JS)
    return snap


def _start_with_bots(page: Any) -> None:
    create_lobby(page, length="tonpuu")
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()


def _wait_my_discard(page: Any, stats: Stats, discards: int) -> None:
    """Play on until this seat has discarded `discards` times and must discard again."""

    def ready() -> bool:
        return (
            stats.discards >= discards
            and page.locator(".hand-tiles .tile.playable").count() > 0
            and page.locator("[data-testid=overlay]").count() == 0
        )

    play_until([page], ready, stats, deadline_s=120)


def _last_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The view the page's frames make (protocol 2: its last whole view, the events and
    decision frames after it folded in by web/js/fold.js, checked by test_fold.py)."""
    view = fold_view(list(frames))
    assert view is not None, "no view received"
    return view


def _settled_view(page: Any, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The newest view once the page shows it (the table may still move for a moment
    after the test stops clicking, until it waits on a person again)."""
    deadline = time.monotonic() + 20
    while True:
        last = _last_view(frames)
        shown = page.evaluate("document.querySelector('.table-screen').dataset.version")
        if shown == str(last["version"]):
            page.wait_for_timeout(200)
            if _last_view(frames)["version"] == last["version"]:
                return last
        assert time.monotonic() < deadline, "the table did not settle"
        page.wait_for_timeout(50)


def _rivers_of(view: dict[str, Any]) -> dict[str, list[str]]:
    return {str(p["seat"]): [d["tile"] for d in p["river"]] for p in view["players"]}


def test_reload_mid_hand_restores_the_table_on_a_phone(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    me = open_person(browser, app_server.url, "Mei", viewport=PHONE)
    page = me.page
    _start_with_bots(page)
    stats = Stats()
    _wait_my_discard(page, stats, 3)
    before = _snapshot(page)
    assert sum(len(r) for r in before["rivers"].values()) >= 6
    page.screenshot(path=str(artifacts / "table-phone.png"))
    # The portrait layout fits: no sideways scrolling, board and hand on screen.
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]
    board = page.locator(".board").bounding_box()
    hand = page.locator(".hand-tiles").bounding_box()
    assert board and hand
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    assert hand["y"] + hand["height"] <= PHONE["height"]

    url = page.url
    page.reload()
    assert page.url == url
    page.wait_for_function(
        "(v) => document.querySelector('.table-screen')?.dataset.version === v",
        arg=before["version"],
    )
    page.locator(".hand-tiles .tile.playable").first.wait_for()
    after = _snapshot(page)
    assert after == before
    # The restored table is live: "d" discards the drawn tile (keyboard shortcut).
    drawn = before["drawn"][0]
    page.keyboard.press("d")
    page.wait_for_function(
        "(v) => document.querySelector('.table-screen').dataset.version !== v",
        arg=before["version"],
    )
    my_seat = page.locator(".table-screen").get_attribute("data-seat")
    page.wait_for_function(
        '([s, n]) => document.querySelectorAll(`.zone[data-seat="${s}"] .river .tile`).length > n',
        arg=[my_seat, len(before["rivers"][my_seat])],
    )
    assert _snapshot(page)["rivers"][my_seat][len(before["rivers"][my_seat])] == drawn
    me.context.close()


def test_network_drop_reconnects_and_catches_up_by_version(
    browser: Any, app_server: AppServer
) -> None:
    """Cut the socket while the server plays on; the client reconnects and replays."""
    me = open_person(browser, app_server.url, "Sora")
    page = me.page
    held: list[str] = []
    state = {"hold": False}
    routes: list[Any] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))

        def from_server(m: str | bytes) -> None:
            # While "the network is down", frames from the server never arrive.
            if state["hold"]:
                held.append(m if isinstance(m, str) else m.decode())
            else:
                ws.send(m)

        server.on_message(from_server)
        routes.append(ws)

    page.route_web_socket(re.compile(r".*/ws/table/.*"), route)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(str(p))))
    _start_with_bots(page)
    stats = Stats()
    _wait_my_discard(page, stats, 2)
    before = page.evaluate("document.querySelector('.table-screen').dataset.version")
    state["hold"] = True
    page.locator(".hand-tiles .tile.drawn.playable, .hand-tiles .tile.playable").first.click()
    # Wait until the server has moved on past our discard (its frames pile up unseen),
    # then drop the connection.
    deadline = time.monotonic() + 15

    # (the decision ending our turn comes when the call window closes: a decision
    # frame, or a step frame with the events it closed)
    def told(h: str) -> bool:
        h = h.replace(" ", "")
        return '"type":"decision"' in h or ('"type":"step"' in h and '"legal":' in h)

    while not any(told(h) for h in held):
        assert time.monotonic() < deadline, "server sent nothing after the discard"
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    assert page.evaluate("document.querySelector('.table-screen').dataset.version") == before
    n_routes = len(routes)
    state["hold"] = False
    routes[-1].close(code=4000, reason="network drop")
    page.locator("[data-testid=conn]").wait_for()
    # The client reconnects on its own and resumes from its last version.
    page.wait_for_function(
        "(v) => document.querySelector('.table-screen').dataset.version !== v"
        " && !document.querySelector('[data-testid=conn]')",
        arg=before,
        timeout=15000,
    )
    assert len(routes) == n_routes + 1
    welcomes = [f for f in me.frames if f.get("type") == "welcome"]
    assert welcomes[-1]["mode"] == "replay"
    hellos = [json.loads(s) for s in sent if '"hello"' in s]
    assert hellos[-1]["last_version"] == int(before)
    # The replayed events chained onto the last version: no gap, so no resync asked.
    assert not any('"resync"' in s for s in sent)
    replayed = [f for f in me.frames if f.get("type") == "event" and f["version"] > int(before)]
    assert [f["version"] for f in replayed][:1] == [int(before) + 1]
    view = _settled_view(page, me.frames)["view"]
    snap = _snapshot(page)
    assert snap["rivers"] == _rivers_of(view)
    mine = next(p for p in view["players"] if p["seat"] == view["seat"])
    assert sorted(snap["hand"]) == sorted(mine["hand"] + ([mine["drawn"]] if mine["drawn"] else []))
    me.context.close()


def _invited(browser: Any, link: str, name: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        import json

        ws.on(
            "framereceived", lambda p: frames.append(json.loads(p)) if isinstance(p, str) else None
        )

    page.on("websocket", on_ws)
    page.goto(link)
    no_auto(page)
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("save-name").click()
    page.get_by_test_id("slots").wait_for()
    return ctx, page, frames


def _assert_private(frames: list[dict[str, Any]], seat: int) -> None:
    """No frame carries another seat's concealed tiles."""
    for f in frames:
        if f.get("type") == "view":
            for p in f["view"]["players"]:
                if p["seat"] != seat:
                    assert p["hand"] is None and p["drawn"] is None, f
        if f.get("type") == "event" and f.get("event"):
            ev = f["event"]
            if ev["type"] in ("haipai", "draw") and ev["seat"] != seat:
                # another seat's draw or deal: masked, never its tiles
                assert ev.get("tile") is None and ev.get("tiles") is None, ev


def test_two_people_join_by_link_see_discards_never_hands(
    browser: Any, app_server: AppServer
) -> None:
    host = open_person(browser, app_server.url, "Hana")
    create_lobby(host.page, length="tonpuu")
    link = host.page.get_by_test_id("invite-link").input_value()
    assert "/#/join/" in link
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_server.url)
    host.page.get_by_test_id("copy-link").click()
    host.page.locator(".copied", has_text="Link copied").wait_for()
    assert host.page.evaluate("navigator.clipboard.readText()") == link
    ctx_b, page_b, frames_b = _invited(browser, link, "Yuki")
    # Both see the same lobby, live: the guest appears on the host's screen.
    host.page.locator(".slot.human", has_text="Yuki").wait_for()
    add_bots(host.page, [2, 3])
    page_b.get_by_test_id("ready").click()
    host.page.locator(".slot.human", has_text="Yuki").locator(".tag.ready").wait_for()
    host.page.get_by_test_id("start").click()
    host.page.locator(".hand-tiles .tile").first.wait_for()
    page_b.locator(".hand-tiles .tile").first.wait_for()
    seat_a = int(host.page.locator(".table-screen").get_attribute("data-seat") or "-1")
    seat_b = int(page_b.locator(".table-screen").get_attribute("data-seat") or "-1")
    assert {seat_a, seat_b} == {0, 1}

    def discards_by(frames: list[dict[str, Any]], seat: int) -> int:
        return sum(
            1
            for f in frames
            if f.get("type") == "event"
            and (f.get("event") or {}).get("type") == "discard"
            and f["event"]["seat"] == seat
        )

    def enough() -> bool:
        return discards_by(host.frames, seat_b) >= 4 and discards_by(frames_b, seat_a) >= 4

    stats = Stats()
    play_until([host.page, page_b], enough, stats, deadline_s=120)

    # Each screen shows the other's river exactly as the server sent it, and the
    # other's hand only as backs.
    for page, frames, other in ((host.page, host.frames, seat_b), (page_b, frames_b, seat_a)):
        view = _settled_view(page, frames)["view"]
        snap = _snapshot(page)
        assert snap["rivers"][str(other)] == _rivers_of(view)[str(other)]
        concealed = page.locator(f'.zone[data-seat="{other}"] .opp-concealed img')
        srcs = concealed.evaluate_all("(imgs) => imgs.map((i) => i.getAttribute('src'))")
        other_view = next(p for p in view["players"] if p["seat"] == other)
        assert len(srcs) == other_view["hand_count"]
        assert all(s == "tiles/back.svg" for s in srcs)  # relative: works under a sub-path
    _assert_private(host.frames, seat_a)
    _assert_private(frames_b, seat_b)
    # The guest's river as the host sees it equals the guest's own.
    own_b = _rivers_of(_last_view(frames_b)["view"])[str(seat_b)]
    host_sees_b = _rivers_of(_last_view(host.frames)["view"])[str(seat_b)]
    assert own_b == host_sees_b
    # Anyone else who opens the table's address is told it is not there (a private
    # game); with the spectate link they watch as a spectator: no hand, and every
    # seat's concealed tiles as backs.
    watcher = open_person(browser, app_server.url, "Watcher")
    watcher.page.goto(host.page.url)
    watcher.page.get_by_text("This game is no longer live.").wait_for()
    game_id = int(host.page.url.rsplit("/", 1)[1])
    key = watch_key(app_server.app.state.ctx.settings.secret, game_id)
    watcher.page.goto(f"{host.page.url}/{key}")
    watcher.page.get_by_test_id("turn-status").filter(has_text="Spectating").wait_for()
    assert watcher.page.locator(".hand-tiles .tile").count() == 0
    assert watcher.page.locator(".action-btn").count() == 0
    backs = watcher.page.locator(".opp-concealed img").evaluate_all(
        "(imgs) => imgs.map((i) => i.getAttribute('src'))"
    )
    assert len(backs) >= 4 * 10 and set(backs) == {"tiles/back.svg"}
    for f in watcher.frames:
        if f.get("type") == "view":
            assert all(p["hand"] is None for p in f["view"]["players"])
    watcher.context.close()
    host.context.close()
    ctx_b.close()


def test_timer_bar_and_server_default_action_on_timeout(
    browser: Any, app_server: AppServer
) -> None:
    """With 1 s per action and no bank, the bar shows and the server discards for us."""
    me = open_person(browser, app_server.url, "Toki")
    page = me.page
    page.select_option("select[name=length]", "tonpuu")
    page.select_option("select[name=timer]", "on")
    page.fill("input[name=think_seconds]", "1")
    page.fill("input[name=bank_seconds]", "0")
    page.get_by_test_id("create").click()
    page.get_by_test_id("slots").wait_for()
    assert "1s + 0s" in page.get_by_test_id("rules-summary").inner_text()
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    # Seat 0 is not always the first dealer: wait for our own first decision.
    page.locator(".timer.on").wait_for()
    timers = [
        f["timer"] for f in me.frames if f.get("type") in ("view", "decision") and f.get("timer")
    ]
    assert timers and timers[-1]["seat"] == 0 and timers[-1]["think_ms"] <= 1000
    assert page.locator(".timer-text").inner_text() in ("1s + 0s", "0s + 0s")
    my_river = '.zone[data-seat="0"] .river .tile'
    before = page.locator(my_river).count()
    # Nobody clicks: the server plays the default action for the seat.
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length > n", arg=[my_river, before]
    )
    me.context.close()
