"""History and replay viewer in the real browser: import, steps, keys, jump, links, export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.records.load import parse_log
from server.records.tenhou6 import parse_tenhou6
from tests.web.conftest import PHONE, AppServer
from tests.web.player import open_person

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"
MJLOG = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"

_SEATS_JS = """() => [...document.querySelectorAll('.replay-seat')].map((s) => ({
  seat: Number(s.dataset.seat),
  hand: [...s.querySelectorAll('[data-testid=seat-hand] > .tile')].map((t) => t.dataset.tile),
  river: [...s.querySelectorAll('[data-testid=seat-river] .tile')].map((t) => t.dataset.tile),
  score: Number(s.querySelector('[data-testid=seat-score]').textContent),
}))"""

# A function, not an expression: Playwright evaluates an expression with eval, which
# the CSP refuses.
IMAGES_LOADED = "() => [...document.images].every((i) => i.complete && i.naturalWidth > 0)"


def _record(base: str, game_id: int) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{game_id}", timeout=10)
    assert r.status_code == 200
    detail: dict[str, Any] = r.json()
    return detail


def _hands(detail: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The record's events split per hand (from each round_start)."""
    out: list[list[dict[str, Any]]] = []
    for e in detail["events"]:
        if e["kind"] != "event":
            continue
        if e["type"] == "round_start":
            out.append([])
        if out:
            out[-1].append(e)
    return out


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


def test_import_then_replay_step_jump_link_and_export(
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
    # every tile face loads (the viewer draws each tile from /tiles/*.svg)
    page.wait_for_function(IMAGES_LOADED)
    page.screenshot(path=str(artifacts / "replay.png"))
    # Step 0: the four dealt hands, all open, exactly the record's haipai.
    seats = page.evaluate(_SEATS_JS)
    haipai = {e["data"]["seat"]: e["data"]["tiles"] for e in hands[0] if e["type"] == "haipai"}
    for s in seats:
        assert sorted(s["hand"]) == sorted(haipai[s["seat"]])
        assert s["river"] == []
    start = hands[0][0]["data"]
    assert [s["score"] for s in seats] == start["scores"]

    # Forward by button, then by key: the dealer draws, then discards.
    page.get_by_test_id("next-step").click()
    _at(page, 1, 1)
    draw = next(e["data"] for e in hands[0] if e["type"] == "draw")
    dealer = start["dealer"]
    assert draw["seat"] == dealer
    assert len(page.evaluate(_SEATS_JS)[dealer]["hand"]) == 14
    assert draw["tile"] in page.get_by_test_id("step-what").inner_text()
    page.keyboard.press("ArrowRight")
    _at(page, 1, 2)
    discard = next(e["data"] for e in hands[0] if e["type"] == "discard")
    seats = page.evaluate(_SEATS_JS)
    assert seats[dealer]["river"] == [discard["tile"]]
    assert len(seats[dealer]["hand"]) == 13
    page.keyboard.press("ArrowLeft")
    _at(page, 1, 1)
    assert page.evaluate(_SEATS_JS)[dealer]["river"] == []

    # The address names hand and step: opening it elsewhere shows the same position.
    assert page.evaluate("location.hash") == f"#/replay/{game_id}/1/1"
    # On a phone, the same link: every hand fits the width (no sideways scrolling).
    phone = browser.new_context(viewport=PHONE)
    other = phone.new_page()
    other.goto(f"{app_server.url}/#/replay/{game_id}/2/3")
    _at(other, 2, 3)
    other.wait_for_function(IMAGES_LOADED)
    other.screenshot(path=str(artifacts / "replay-phone.png"))
    assert other.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    phone.close()

    # Jump to hand 3, then to its end: the same result card as live play.
    page.get_by_test_id("hand-select").select_option("2")
    _at(page, 3, 0)
    page.keyboard.press("End")
    result = page.get_by_test_id("replay-result")
    result.wait_for()
    end = next(e for e in hands[2] if e["type"] in ("agari", "ryuukyoku"))
    assert result.get_attribute("data-kind") == end["type"]
    rows = result.locator("[data-testid=deltas] tr").all_inner_texts()[1:]
    shown = [int(r.split("\t")[1]) for r in rows]
    assert shown == end["data"]["deltas"]
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
    page.keyboard.press("End")
    page.screenshot(path=str(artifacts / "replay-result.png"))
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
    # a single game: nothing more to page through
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


@pytest.mark.parametrize(
    "name", ["suukantsu_1.json", "chankan.json", "rinshan.json", "complex_nakis_0.json"]
)
def test_replay_folds_calls_and_kans_to_the_result_hands(
    browser: Any, app_server: AppServer, name: str
) -> None:
    me = open_person(browser, app_server.url, "Kan")
    page = me.page
    data = (FIXTURES / "mjai-reviewer" / name).read_bytes()
    resp = me.context.request.post(
        f"{app_server.url}/api/games/import?filename={name}",
        data=data,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert resp.ok, resp.text()
    game_id = resp.json()["id"]
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
        assert page.locator(".replay-seat .meld").count() == melds
    assert me.errors == []
