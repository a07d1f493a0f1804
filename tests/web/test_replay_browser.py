"""History and replay viewer in the real browser: the replay on the table renderer,
steps, keys, autoplay, viewpoint, open hands, links to a moment, the analysis numbers
(checked against the engine's shanten/ukeire on positions folded here), export."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import ukeire
from server.engine.tiles import kind, parse_tile
from server.records.load import parse_log
from server.records.tenhou6 import parse_tenhou6
from tests.analysis.test_analysis import position, split_hands
from tests.server.wsclient import TableClient
from tests.web.conftest import DESKTOP, PHONE, AppServer
from tests.web.player import import_log, open_person

pytestmark = pytest.mark.browser

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
MJLOG = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"
SANMA = FIXTURES / "tenhou-sanma" / "2021010217gm-00b9-0000-3eb2e915.json"

# Every seat as the table shows it: the viewpoint's hand at the bottom, the others'
# concealed tiles (faces when open, backs with an empty data-tile otherwise).
_SEATS_JS = """() => {
  const screen = document.querySelector('.table-screen');
  const me = Number(screen.dataset.seat);
  return [...document.querySelectorAll('.zone')].map((z) => {
    const seat = Number(z.dataset.seat);
    const hand = seat === me
      ? [...document.querySelectorAll('.myhand .hand-tiles .tile')].map((t) => t.dataset.tile)
      : [...z.querySelectorAll('.opp-concealed .tile')].map((t) => t.dataset.tile);
    const plate = document.querySelector(`.plate[data-seat='${seat}'] .plate-score`);
    return {
      seat, hand,
      river: [...z.querySelectorAll('.river .tile')].map((t) => t.dataset.tile),
      score: Number(plate.textContent),
    };
  }).sort((a, b) => a.seat - b.seat);
}"""

# The decision shown in the analysis panel: each candidate discard's numbers.
_DECISION_JS = """() => {
  const d = document.querySelector('[data-testid=decision]');
  if (!d) return null;
  const rows = [...d.querySelectorAll('tr.candidate')];
  return {
    event: Number(d.dataset.event),
    shanten: Number(d.dataset.shanten),
    candidates: rows.map((r) => ({
      tile: r.dataset.tile,
      shanten: Number(r.dataset.shanten),
      total: Number(r.dataset.total),
      ukeire: Object.fromEntries([...r.nextElementSibling.querySelectorAll('.uke')]
        .map((u) => [u.dataset.tile, Number(u.dataset.left)])),
    })),
    efficient: d.querySelector('[data-testid=efficient]').innerText,
  };
}"""

# A function, not an expression: Playwright evaluates an expression with eval, which
# the CSP refuses.
IMAGES_LOADED = "() => [...document.images].every((i) => i.complete && i.naturalWidth > 0)"

# what starts a step of the viewer (replay-fold.js)
STEP_TYPES = {"draw", "discard", "call", "kan", "nuki", "agari", "ryuukyoku", "chi", "pon"}
STEP_TYPES |= {"minkan", "ankan", "kakan", "win", "wall_exhausted", "game_end"}
SUITS = {"m": "characters", "p": "dots", "s": "bamboo"}
HONORS = ["East wind", "South wind", "West wind", "North wind"]
HONORS += ["White dragon", "Green dragon", "Red dragon"]


def tile_name(t: str) -> str:
    """The English name the viewer shows for a tile (review.tile_* keys)."""
    n = 5 if t[0] == "0" else int(t[0])
    if t[1] == "z":
        return HONORS[n - 1]
    name = f"{n} of {SUITS[t[1]]}"
    return f"red {name}" if t[0] == "0" else name


def _record(base: str, game_id: int) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{game_id}", timeout=10)
    assert r.status_code == 200
    detail: dict[str, Any] = r.json()
    return detail


def _hands(detail: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The record's events split per hand (from each round_start)."""
    return split_hands([{"type": e["type"], "data": e["data"]} for e in _events(detail)])


def _events(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in detail["events"] if e["kind"] == "event"]


def _check_result_hands(page: Any, end: dict[str, Any]) -> None:
    """After folding a whole hand, the open hands are the ones its result shows."""
    seats = page.evaluate(_SEATS_JS)
    checked = 0
    if end["type"] == "agari":
        for w in end["data"]["winners"]:
            tiles = list(seats[w["seat"]]["hand"])
            if w["from_seat"] is not None:
                tiles.append(w["win_tile"])
            assert sorted(tiles) == sorted(w["hand"])
            checked += 1
    else:
        for seat, tiles in end["data"]["hands"].items():
            assert sorted(seats[int(seat)]["hand"]) == sorted(tiles)
            checked += 1
    assert checked or end["data"].get("reason") == "exhaustive"


def _at(page: Any, hand: int, step: int) -> None:
    page.locator(f"[data-testid=replay][data-hand='{hand}'][data-step='{step}']").wait_for()


def _check_decision(page: Any, hands: list[list[dict[str, Any]]], seat: int, seats: int) -> int:
    """The shown decision's numbers are the engine's on the position folded here."""
    page.locator("[data-testid=analysis][data-ready=true]").wait_for()
    shown = page.evaluate(_DECISION_JS)
    assert shown is not None
    hand = int(page.get_by_test_id("replay").get_attribute("data-hand")) - 1
    own, seen = position(hands[hand], shown["event"], seat, seats)
    assert shown["shanten"] == shanten(own)
    assert shown["candidates"]
    for c in shown["candidates"]:
        k = kind(parse_tile(c["tile"]))
        own[k] -= 1
        seen[k] += 1
        assert c["shanten"] == shanten(own)
        # (in sanma 2m-8m are not in the game: not listed)
        want = {
            parse_tile_name(x): n
            for x, n in ukeire(own, seen).items()
            if seats == 4 or not 1 <= x <= 7
        }
        assert c["ukeire"] == want, c["tile"]
        assert c["total"] == sum(want.values())
        own[k] += 1
        seen[k] -= 1
    # best first: lowest shanten, then most tiles
    order = [(c["shanten"], -c["total"]) for c in shown["candidates"]]
    assert order == sorted(order)
    return len(shown["candidates"])


def parse_tile_name(k: int) -> str:
    from server.engine.tiles import tile_str

    return tile_str(k)


def test_imported_game_step_view_link_analysis_and_export(
    browser: Any, app_server: AppServer, artifacts: Path, tmp_path: Path
) -> None:
    me = open_person(browser, app_server.url, "Rei")
    page = me.page
    page.get_by_test_id("history-link").click()
    page.get_by_test_id("history-page").wait_for()

    # A file that is not a log: the error names what is wrong, nothing is stored.
    bad = tmp_path / "notes.txt"
    bad.write_text("not a log", encoding="utf-8")
    page.get_by_test_id("import-file").set_input_files(str(bad))
    page.get_by_test_id("import-form").locator("button").click()
    msg = page.get_by_test_id("import-msg")
    msg.locator("text=neither mjlog XML nor tenhou.net/6 JSON").wait_for()

    page.get_by_test_id("import-file").set_input_files(str(MJLOG))
    page.get_by_test_id("import-form").locator("button").click()
    link = page.get_by_test_id("import-link")
    link.wait_for()
    game_id = int(link.get_attribute("href").split("/")[-1])
    detail = _record(app_server.url, game_id)
    hands = _hands(detail)
    logged = parse_log(MJLOG.read_bytes())
    assert len(hands) == len(logged.rounds)

    link.click()
    _at(page, 1, 0)
    page.wait_for_function(IMAGES_LOADED)
    # Step 0: the dealt hands, all open on the table, exactly the record's haipai.
    seats = page.evaluate(_SEATS_JS)
    assert len(seats) == 4
    haipai = {e["data"]["seat"]: e["data"]["tiles"] for e in hands[0] if e["type"] == "haipai"}
    for s in seats:
        assert sorted(s["hand"]) == sorted(haipai[s["seat"]])
        assert s["river"] == []
    start = hands[0][0]["data"]
    assert [s["score"] for s in seats] == start["scores"]
    page.screenshot(path=str(artifacts / "replay.png"))

    # Forward by button, then by key: the dealer draws, then discards; tile names shown.
    page.get_by_test_id("next-step").click()
    _at(page, 1, 1)
    draw = next(e["data"] for e in hands[0] if e["type"] == "draw")
    dealer = start["dealer"]
    assert draw["seat"] == dealer
    assert len(page.evaluate(_SEATS_JS)[dealer]["hand"]) == 14
    assert tile_name(draw["tile"]) in page.get_by_test_id("step-what").inner_text()
    page.keyboard.press("ArrowRight")
    _at(page, 1, 2)
    discard = next(e["data"] for e in hands[0] if e["type"] == "discard")
    seats = page.evaluate(_SEATS_JS)
    assert seats[dealer]["river"] == [discard["tile"]]
    assert len(seats[dealer]["hand"]) == 13
    assert tile_name(discard["tile"]) in page.get_by_test_id("step-what").inner_text()
    page.keyboard.press("ArrowLeft")
    _at(page, 1, 1)
    assert page.evaluate(_SEATS_JS)[dealer]["river"] == []

    # Viewpoint: another seat at the bottom; closed hands: only its own tiles face up.
    page.get_by_test_id("viewpoint").select_option("2")
    page.locator("[data-testid=replay][data-seat='2']").wait_for()
    assert page.locator(".table-screen").get_attribute("data-seat") == "2"
    page.get_by_test_id("open-hands").uncheck()
    page.locator("[data-testid=replay][data-open='false']").wait_for()
    seats = page.evaluate(_SEATS_JS)
    assert sorted(seats[2]["hand"]) == sorted(haipai[2])
    for s in seats:
        if s["seat"] != 2:
            assert s["hand"] and set(s["hand"]) == {""}  # backs only
    assert page.evaluate("location.hash") == f"#/replay/{game_id}/1/1/3"
    page.keyboard.press("o")  # open again, by key
    page.locator("[data-testid=replay][data-open='true']").wait_for()

    # The analysis of seat 2: its next decision, numbers checked against the engine.
    page.get_by_test_id("next-decision").click()
    page.get_by_test_id("decision").wait_for()
    assert _check_decision(page, hands, 2, 4) > 3
    moment = page.get_by_test_id("moment-link").get_attribute("href")
    shown = page.evaluate(_DECISION_JS)
    hand_no = page.get_by_test_id("replay").get_attribute("data-hand")
    step_no = page.get_by_test_id("replay").get_attribute("data-step")
    assert moment == f"#/replay/{game_id}/{hand_no}/{step_no}/3o"
    page.screenshot(path=str(artifacts / "replay-analysis.png"))

    # The link opens the same moment on a phone: same seat, step and numbers, and
    # nothing wider than the screen.
    phone = browser.new_context(viewport=PHONE)
    other = phone.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(f"{app_server.url}/{moment}")
    _at(other, int(hand_no), int(step_no))
    assert other.get_by_test_id("replay").get_attribute("data-seat") == "2"
    other.locator("[data-testid=analysis][data-ready=true]").wait_for()
    assert other.evaluate(_DECISION_JS) == shown
    other.wait_for_function(IMAGES_LOADED)
    other.screenshot(path=str(artifacts / "replay-phone.png"), full_page=True)
    assert other.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # touch: a swipe to the left is the next step
    box = other.get_by_test_id("replay-table").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    other.evaluate(
        """([x0, x1, y]) => {
          const el = document.querySelector('[data-testid=replay-table]');
          const touch = (x) => new Touch({identifier: 1, target: el, clientX: x, clientY: y});
          el.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(x0)], bubbles: true}));
          const end = {changedTouches: [touch(x1)], bubbles: true};
          el.dispatchEvent(new TouchEvent('touchend', end));
        }""",
        [box["x"] + 300, box["x"] + 100, y],
    )
    _at(other, int(hand_no), int(step_no) + 1)
    assert errors == []
    phone.close()

    # Autoplay at 4x: the steps go on by themselves; space pauses.
    page.get_by_test_id("hand-select").select_option("1")
    _at(page, 2, 0)
    page.get_by_test_id("speed").select_option("3")
    page.get_by_test_id("play").click()
    page.wait_for_function(
        """() => Number(document.querySelector('[data-testid=replay]').dataset.step) >= 3""",
        timeout=10000,
    )
    page.keyboard.press(" ")
    page.locator("[data-testid=play][data-playing='false']").wait_for()
    paused = page.get_by_test_id("replay").get_attribute("data-step")
    page.wait_for_timeout(600)
    assert page.get_by_test_id("replay").get_attribute("data-step") == paused

    # Jump to hand 3, then to its end: the result card of live play, over the table.
    page.get_by_test_id("hand-select").select_option("2")
    _at(page, 3, 0)
    page.keyboard.press("End")
    result = page.get_by_test_id("replay-result")
    result.wait_for()
    end = next(e for e in hands[2] if e["type"] in ("agari", "ryuukyoku"))
    assert result.get_attribute("data-kind") == end["type"]
    rows = result.locator("[data-testid=deltas] tr").all_inner_texts()[1:]
    shown_deltas = [int(r.split("\t")[1]) for r in rows]
    assert shown_deltas == end["data"]["deltas"]
    page.screenshot(path=str(artifacts / "replay-result.png"))
    for i, events in enumerate(hands):
        page.get_by_test_id("hand-select").select_option(str(i))
        _at(page, i + 1, 0)
        page.keyboard.press("End")
        if i == len(hands) - 1:
            page.keyboard.press("ArrowLeft")  # the very last step is the final standings
        page.get_by_test_id("replay-result").wait_for()
        _check_result_hands(page, next(e for e in events if e["type"] in ("agari", "ryuukyoku")))
    page.get_by_test_id("hand-select").select_option("2")
    _at(page, 3, 0)
    page.keyboard.press("ArrowDown")
    _at(page, 4, 0)
    page.keyboard.press("ArrowUp")
    _at(page, 3, 0)
    # Stepping back from a hand's start goes to the previous hand's last step.
    page.keyboard.press("ArrowLeft")
    page.locator("[data-testid=replay][data-hand='2']").wait_for()

    # The last step of the last hand shows the final standings of the log.
    page.get_by_test_id("hand-select").select_option(str(len(hands) - 1))
    _at(page, len(hands), 0)
    page.keyboard.press("End")
    final = page.get_by_test_id("replay-final")
    final.wait_for()
    points = sorted(
        int(r.locator("td").nth(2).inner_text()) for r in final.locator("tr[data-rank]").all()
    )
    assert logged.final_scores is not None
    assert points == sorted(logged.final_scores)

    # Export buttons download the files the API serves.
    with page.expect_download() as dl:
        page.get_by_test_id("export-tenhou6").click()
    path = tmp_path / "export.json"
    dl.value.save_as(str(path))
    back = parse_tenhou6(path.read_bytes())
    assert [r.scores for r in back.rounds] == [r.scores for r in logged.rounds]
    assert back.final_scores == logged.final_scores
    with page.expect_download() as dl2:
        page.get_by_test_id("export-mjai").click()
    lines = [json.loads(x) for x in Path(dl2.value.path()).read_text("utf-8").splitlines()]
    assert lines[0]["type"] == "start_game" and lines[-1]["type"] == "end_game"

    # The history lists the game with its standings and a per-hand summary.
    page.goto(f"{app_server.url}/#/history/all")
    item = page.locator(f"[data-testid=history-game][data-game-id='{game_id}']")
    item.wait_for()
    assert "imported" in item.inner_text()
    assert "hanchan" in item.inner_text()
    assert not page.get_by_role("button", name="More").is_visible()
    standings = item.get_by_test_id("standings-line").inner_text()
    for name in logged.players:
        assert name in standings
    item.get_by_test_id("hands-toggle").click()
    lines_shown = item.locator(".hand-summary li")
    lines_shown.first.wait_for()
    assert lines_shown.count() == len(detail["hands"])
    page.screenshot(path=str(artifacts / "history.png"))
    lines_shown.nth(1).locator("a").click()
    _at(page, 2, 0)

    # A lobby's games by code: an unknown code says so.
    page.goto(f"{app_server.url}/#/history")
    page.get_by_test_id("lobby-form").locator("input").fill("NOSUCH")
    page.get_by_test_id("lobby-form").locator("button").click()
    page.locator("[data-testid=history-list] .error", has_text="no lobby NOSUCH").wait_for()
    assert page.evaluate("location.hash") == "#/history/lobby/NOSUCH"
    assert me.errors == []


def _played_game(base: str, rules: dict[str, Any] | None = None) -> tuple[int, int]:
    """A game played here (default a tonpuu): a scripted person and three efficient
    bots. Returns the game id and a bot's seat."""
    with httpx.Client(base_url=base, timeout=10) as client:
        guest = client.post("/api/guest", json={"name": "Host"}).json()
        rules = rules or {"preset": "standard", "length": "tonpuu", "think_seconds": 0}
        r = client.post("/api/lobbies", json={"rules": rules})
        code = r.json()["code"]
        for _ in range(3):
            assert client.post(f"/api/lobbies/{code}/bots", json={"level": "efficient"}).is_success
        game_id = client.post(f"/api/lobbies/{code}/start").json()["game"]["id"]

        async def play() -> None:
            ws = base.replace("http://", "ws://")
            player = await TableClient.open(ws, game_id, guest["token"], name="Host")
            await asyncio.wait_for(player.play(timeout=30), 180)
            await player.close()

        # Playwright's sync API keeps an event loop on this thread: play on another.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(lambda: asyncio.run(play())).result()
        deadline = time.monotonic() + 10
        while client.get(f"/api/games/{game_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        seats = client.get(f"/api/games/{game_id}").json()["seats"]
    return game_id, next(s["seat"] for s in seats if s["bot"] == "efficient")


def test_played_game_viewpoint_analysis_and_key_moment_links(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    game_id, bot = _played_game(app_server.url)
    detail = _record(app_server.url, game_id)
    hands = _hands(detail)
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{app_server.url}/#/replay/{game_id}/1/0/{bot + 1}")
        _at(page, 1, 0)
        assert page.get_by_test_id("replay").get_attribute("data-seat") == str(bot)
        assert page.get_by_test_id("replay").get_attribute("data-open") == "false"
        page.keyboard.press("n")  # the bot's first decision
        page.get_by_test_id("decision").wait_for()
        # (a call offered before its first draw has no discards to weigh: on to its turn)
        for _ in range(10):
            decision = page.get_by_test_id("decision")
            if decision.get_attribute("data-turn") == "true":
                break
            event = decision.get_attribute("data-event")
            page.keyboard.press("n")
            page.locator(
                f"[data-testid=decision][data-turn]:not([data-event='{event}'])"
            ).wait_for()
        assert _check_decision(page, hands, bot, 4) > 3
        # the efficient bot played this seat: the actual discard is its own
        assert "same" in page.get_by_test_id("efficient").inner_text()
        agreement = page.locator(
            f"[data-testid=summary] .summary-seat[data-seat='{bot}'] [data-testid=agreement]"
        )
        assert agreement.get_attribute("data-efficient") == agreement.get_attribute("data-discards")
        # a key moment of anyone: its link goes there, seen from that seat
        km = page.get_by_test_id("key-moment").first
        href = km.get_attribute("href")
        assert href is not None
        km.click()
        parts = href.split("/")
        _at(page, int(parts[3]), int(parts[4]))
        assert page.evaluate("location.hash") == href
        page.get_by_test_id("viewpoint").select_option(str((bot + 1) % 4))
        page.locator(f"[data-testid=replay][data-seat='{(bot + 1) % 4}']").wait_for()
        page.wait_for_function(IMAGES_LOADED)
        page.screenshot(path=str(artifacts / f"replay-played-{name}.png"))
        assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
        assert errors == []
        ctx.close()


def test_sanma_replay_has_three_seats_and_analysis(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    me = open_person(browser, app_server.url, "San")
    game_id = import_log(me.context, app_server.url, SANMA, "sanma.json")
    hands = _hands(_record(app_server.url, game_id))
    page = me.page
    page.goto(f"{app_server.url}/#/replay/{game_id}/1/0/2o")
    _at(page, 1, 0)
    assert len(page.evaluate(_SEATS_JS)) == 3
    assert page.get_by_test_id("viewpoint").locator("option").count() == 3
    page.get_by_test_id("next-decision").click()
    page.get_by_test_id("decision").wait_for()
    assert _check_decision(page, hands, 1, 3) > 3
    page.screenshot(path=str(artifacts / "replay-sanma.png"))
    # Japanese and Chinese: the same moment, the words and tile names translated
    where = page.evaluate("location.hash")
    dicts = {
        lang: json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
        for lang in ("ja", "zh")
    }
    for lang, d in dicts.items():
        page.get_by_test_id("lang").select_option(lang)
        title = d["review.title"].split("{")[0]
        page.locator("[data-testid=analysis] h3", has_text=title).wait_for()
        assert page.evaluate("location.hash") == where
        page.locator("[data-testid=analysis][data-ready=true]").wait_for()
        row = page.locator("tr.candidate").first
        tile = row.get_attribute("data-tile")
        assert tile is not None
        n = "5" if tile[0] == "0" else tile[0]
        if tile[1] != "z":
            name = d[f"review.tile_{tile[1]}"].replace("{n}", n)
            assert name in row.inner_text()
        assert d["review.efficient"] in page.get_by_test_id("efficient").inner_text()
    page.get_by_test_id("lang").select_option("en")
    assert me.errors == []


def test_nanchang_replay_on_the_table_says_it_has_no_analysis(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    game_id, bot = _played_game(app_server.url, {"preset": "nanchang-east", "think_seconds": 0})
    hands = _hands(_record(app_server.url, game_id))
    r = httpx.get(f"{app_server.url}/api/games/{game_id}/analysis", timeout=10)
    assert r.status_code == 422 and r.json()["detail"]["code"] == "not_analysable"
    me = open_person(browser, app_server.url, "Nan")
    page = me.page
    page.goto(f"{app_server.url}/#/replay/{game_id}/1/0/{bot + 1}o")
    _at(page, 1, 0)
    page.get_by_test_id("no-analysis").wait_for()
    assert "Nanchang" in page.get_by_test_id("no-analysis").inner_text()
    # the dealt hands, open on the table: each seat's deal
    seats = page.evaluate(_SEATS_JS)
    assert len(seats) == 4
    deal = {e["data"]["seat"]: e["data"]["tiles"] for e in hands[0] if e["type"] == "deal"}
    for s in seats:
        assert sorted(x for x in s["hand"] if x) == sorted(deal[s["seat"]])
    # the first discard, stepped to by key: its tile named in words
    at = next(i for i, e in enumerate(hands[0]) if e["type"] == "discard")
    step = sum(e["type"] in STEP_TYPES for e in hands[0][1 : at + 1])
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    _at(page, 1, step)
    tile = hands[0][at]["data"]["tile"]
    assert tile_name(tile) in page.get_by_test_id("step-what").inner_text()
    page.keyboard.press("End")
    page.get_by_test_id("replay-result").wait_for()
    page.wait_for_function(IMAGES_LOADED)
    page.screenshot(path=str(artifacts / "replay-nanchang.png"))
    # no Tenhou formats for Nanchang: our own record, which replays the game
    assert page.get_by_test_id("export-tenhou6").count() == 0
    with page.expect_download() as dl:
        page.get_by_test_id("export-jantaku").click()
    record = json.loads(Path(dl.value.path()).read_text("utf-8"))
    assert record["variant"] == "nanchang" and record["format"] == "jantaku-record"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= DESKTOP["width"]
    assert me.errors == []


@pytest.mark.parametrize(
    "name", ["suukantsu_1.json", "chankan.json", "rinshan.json", "complex_nakis_0.json"]
)
def test_replay_folds_calls_and_kans_to_the_result_hands(
    browser: Any, app_server: AppServer, name: str
) -> None:
    me = open_person(browser, app_server.url, "Kan")
    page = me.page
    game_id = import_log(me.context, app_server.url, FIXTURES / "mjai-reviewer" / name)
    hands = _hands(_record(app_server.url, game_id))
    page.goto(f"{app_server.url}/#/replay/{game_id}/1/0")
    for i, events in enumerate(hands):
        page.get_by_test_id("hand-select").select_option(str(i))
        _at(page, i + 1, 0)
        page.keyboard.press("End")
        if page.get_by_test_id("replay-final").count():
            page.keyboard.press("ArrowLeft")
        page.get_by_test_id("replay-result").wait_for()
        _check_result_hands(page, next(e for e in events if e["type"] in ("agari", "ryuukyoku")))
        # every call and kan of the hand is on the table as a meld
        melds = sum(e["type"] in ("call", "kan") for e in events) - sum(
            e["type"] == "kan" and e["data"]["meld"] == "kakan" for e in events
        )
        # (on the table: the result card over it shows the winner's melds again)
        assert page.locator(".board .meld, .myhand .meld").count() == melds
    assert me.errors == []
