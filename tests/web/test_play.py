"""Playing in the real browser against the real app: lobby, a whole game, a win, reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AppServer
from tests.web.player import (
    Stats,
    add_bots,
    at_final,
    create_lobby,
    open_person,
    play_until,
    table_state,
)

pytestmark = pytest.mark.browser


def test_full_game_by_clicking_until_standings(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    """One person creates a lobby, adds three bots (two efficient, one defensive), starts,
    and clicks through a tonpuu game."""
    me = open_person(browser, app_server.url, "Aoi")
    page = me.page
    create_lobby(page, length="tonpuu")
    # The rules summary shows what was chosen.
    summary = page.get_by_test_id("rules-summary").inner_text()
    assert "East only" in summary and "No timer" in summary
    # Each bot level says what it does, and the level chosen is the one added.
    hint = page.get_by_test_id("bot-hint")
    assert "never folds" in hint.inner_text()
    add_bots(page, [1, 2])
    page.get_by_test_id("bot-level").select_option("defensive")
    assert "folds against riichi" in hint.inner_text()
    add_bots(page, [3])
    assert "Bot (defensive)" in page.locator(".slot[data-slot='3']").inner_text()
    assert "Bot (efficient)" in page.locator(".slot[data-slot='2']").inner_text()
    page.screenshot(path=str(artifacts / "lobby.png"))
    page.get_by_test_id("start").click()
    page.locator(".table-screen").wait_for()
    page.locator(".hand-tiles .tile").first.wait_for()
    page.screenshot(path=str(artifacts / "table.png"))
    # The desktop layout fits 1366x768 without scrolling.
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 768
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 1366
    hand = page.locator(".hand-tiles").bounding_box()
    assert hand and hand["y"] + hand["height"] <= 768

    # This player also calls pon and chi, so kuikae (R11) greying is met on the real
    # server, and every decision screen is checked against the server's legal actions.
    stats = Stats(calls=True, frames=me.frames, smart=True)
    play_until([page], lambda: at_final(page), stats, deadline_s=300)
    assert stats.checked >= stats.discards
    page.screenshot(path=str(artifacts / "standings.png"))

    # The standings shown are the game_end event's: four rows in rank order,
    # each with the points and result the server computed.
    end = me.events("game_end")
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
    # Every round result was shown and dismissed by clicking (a tonpuu has four rounds
    # or more, unless someone busts first).
    rounds = len(me.events("agari")) + len(me.events("ryuukyoku"))
    assert rounds >= 4 or min(f["points"] for f in final) < 0
    assert len(stats.results) == rounds
    assert stats.discards > 10
    # Nothing was loaded from anywhere but the app itself.
    assert all(u.startswith(app_server.url) for u in me.requests), me.requests
    assert me.errors == []
    # Back home, the finished game is in the person's history with their rank.
    my_rank = next(f["rank"] for f in final if f["seat"] == 0)
    page.get_by_test_id("home-link").click()
    history = page.get_by_test_id("history")
    history.locator("li").first.wait_for()
    assert history.locator("li").count() == 1
    assert f"Rank {my_rank}" in history.inner_text()
    assert all(str(f["points"]) in history.inner_text() for f in final)
    game_id = next(f["game_id"] for f in me.frames if f.get("type") == "welcome")
    assert history.locator("a").first.get_attribute("href") == f"#/replay/{game_id}"
    # The seed is revealed now: the replay viewer checks it against the commitment this
    # page was told in the table's welcome, before the first hand (issue 18).
    welcome = next(f for f in me.frames if f.get("type") == "welcome")
    assert len(welcome["seed_commitment"]) == 64
    kept = page.evaluate("(id) => localStorage.getItem(`jantaku.commitment.${id}`)", game_id)
    assert kept == welcome["seed_commitment"]
    page.goto(f"{app_server.url}/#/replay/{game_id}")
    page.get_by_test_id("seed-check").wait_for()
    assert "seed-verified" in (page.get_by_test_id("seed-check").get_attribute("class") or "")
    me.context.close()


def _en() -> dict[str, str]:
    import json

    from tests.web.conftest import ROOT

    data: dict[str, str] = json.loads((ROOT / "web/i18n/en.json").read_text(encoding="utf-8"))
    return data


def _start_with_bots(person: Any, artifacts: Path | None = None) -> None:
    page = person.page
    create_lobby(page, length="tonpuu")
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()


def test_win_screen_lists_yaku_han_fu_and_score_changes(
    browser: Any, app_server: AppServer, artifacts: Path
) -> None:
    """Play until someone wins; the card shows exactly what the agari event says."""
    me = open_person(browser, app_server.url, "Kai")
    page = me.page
    _start_with_bots(me)

    def agari_shown() -> bool:
        st = table_state(page)
        return bool(st and st["overlay"] == "agari")

    stats = Stats(frames=me.frames, smart=True)
    play_until([page], agari_shown, stats, deadline_s=240)
    page.screenshot(path=str(artifacts / "win.png"))
    ev = me.events("agari")[-1]
    # The card says which result it is: the version of the event that brought it.
    agari_at = [
        f["version"]
        for f in me.frames
        if f.get("type") == "event" and (f.get("event") or {}).get("type") == "agari"
    ][-1]
    card = page.locator("[data-testid=overlay] .overlay-card")
    assert card.get_attribute("data-at") == str(agari_at)
    en = _en()
    winners = page.locator("[data-testid=winner]")
    assert winners.count() == len(ev["winners"])
    for i, w in enumerate(ev["winners"]):
        box = winners.nth(i)
        items = box.locator("[data-testid=yaku-list] li")
        expected = [(y["id"], f"yakuman ×{y['multiplier']}") for y in w["yakuman"]]
        expected += [(y["id"], f"{y['han']} han") for y in w["yaku"]]
        expected += [(k, f"{w[k]} han") for k in ("dora", "aka", "ura") if w[k] > 0]
        assert len(expected) >= 1
        assert items.count() == len(expected)
        for j, (yid, value) in enumerate(expected):
            li = items.nth(j)
            assert li.get_attribute("data-yaku") == yid
            text = li.inner_text()
            assert en[f"yaku.{yid}"] in text and value in text, (yid, text)
        summary = box.get_by_test_id("result-summary").inner_text()
        assert f"{w['points']} points" in summary
        if not w["yakuman"]:
            assert f"{w['han']} han" in summary and f"{w['fu']} fu" in summary
        # The hand shown is the winner's: concealed tiles with the winning tile apart.
        shown = box.locator(".result-hand > .tiles-row:not(.melds) .tile")
        tiles = [shown.nth(k).get_attribute("data-tile") for k in range(shown.count())]
        assert sorted(t or "" for t in tiles) == sorted(w["hand"])
        assert box.locator(".win-tile .tile").get_attribute("data-tile") == w["win_tile"]
    rows = page.locator("[data-testid=deltas] tr").all()[1:]
    assert len(rows) == 4
    for s, row in enumerate(rows):
        cells = row.locator("td").all_inner_texts()
        d = ev["deltas"][s]
        assert cells[1] == (f"+{d}" if d > 0 else str(d))
        assert cells[2] == str(ev["scores"][s])
    me.context.close()


def test_language_switch_is_remembered(browser: Any, app_server: AppServer) -> None:
    me = open_person(browser, app_server.url, "Lin")
    page = me.page
    assert page.locator("#header .brand").inner_text() == "Jantaku"
    page.get_by_test_id("lang").select_option("ja")
    page.locator("#header .brand", has_text="雀卓").wait_for()
    assert page.get_by_test_id("create").inner_text() == "ロビー作成"
    page.reload()
    page.get_by_test_id("create").wait_for()
    assert page.get_by_test_id("create").inner_text() == "ロビー作成"
    assert page.get_by_test_id("lang").input_value() == "ja"
    page.get_by_test_id("lang").select_option("zh")
    page.locator("#header .brand", has_text="雀桌").wait_for()
    assert page.get_by_test_id("create").inner_text() == "创建房间"
    me.context.close()


def test_join_by_code_and_bad_input(browser: Any, app_server: AppServer) -> None:
    host = open_person(browser, app_server.url, "Host")
    code = create_lobby(host.page)
    guest = open_person(browser, app_server.url, "Guest")
    page = guest.page
    # Not a code: a clear message, no navigation.
    page.get_by_test_id("join-input").fill("not a code!")
    page.get_by_test_id("join").click()
    assert page.get_by_test_id("home-error").inner_text() == "That is not an invite link or code."
    assert page.url.endswith("/#/") or page.url.endswith("/")
    # A well-formed code that does not exist: the server's error is shown.
    page.get_by_test_id("join-input").fill("NoSuchLobby123")
    page.get_by_test_id("join").click()
    page.locator(".error", has_text="Error").wait_for()
    # The real code, pasted bare, joins the lobby; the host sees the guest arrive.
    page.goto(app_server.url + "/")
    page.get_by_test_id("join-input").fill(code)
    page.get_by_test_id("join").click()
    page.locator(".slot .tag.you").wait_for()
    host.page.locator(".slot.human", has_text="Guest").wait_for()
    # The guest is not the host: no start or bot buttons.
    assert page.get_by_test_id("start").count() == 0
    assert page.locator("[data-testid^=add-bot]").count() == 0
    host.context.close()
    guest.context.close()


def test_unknown_game_address_says_so(browser: Any, app_server: AppServer) -> None:
    me = open_person(browser, app_server.url, "Lost")
    me.page.goto(app_server.url + "/#/game/999999")
    me.page.locator(".error", has_text="This game is no longer live.").wait_for()
    assert me.page.get_by_text("Back to home").count() == 1
    me.context.close()


def test_create_form_options_become_the_lobby_rules(browser: Any, app_server: AppServer) -> None:
    me = open_person(browser, app_server.url, "Rin")
    page = me.page
    page.select_option("select[name=preset]", "tenhou")
    # Choosing a preset loads its defaults into the form (RULES.md presets).
    assert page.locator("select[name=multiple_ron]").input_value() == "double"
    assert not page.locator("input[name=double_yakuman]").is_checked()
    # The thinking time is the lobby's, not the preset's: it stays relaxed.
    assert page.locator("input[name=bank_seconds]").input_value() == "60"
    page.select_option("select[name=length]", "tonpuu")
    page.select_option("select[name=red_fives]", "0")
    page.fill("input[name=think_seconds]", "7")
    page.fill("input[name=bank_seconds]", "15")
    page.select_option("select[name=multiple_ron]", "atamahane")
    page.uncheck("input[name=kuitan]")
    page.select_option("select[name=seat_mode]", "draw")
    page.get_by_test_id("create").click()
    page.get_by_test_id("slots").wait_for()
    code = page.get_by_test_id("lobby-code").inner_text()
    lobby = page.request.get(f"{app_server.url}/api/lobbies/{code}").json()
    rules = lobby["rules"]
    assert lobby["seat_mode"] == "draw"
    assert (rules["name"], rules["length"], rules["red_fives"]) == ("tenhou", "tonpuu", 0)
    assert (rules["think_seconds"], rules["bank_seconds"]) == (7, 15)
    assert rules["multiple_ron"] == "atamahane" and rules["kuitan"] is False
    assert rules["double_yakuman"] is False and rules["uma"] == [20, 10, -10, -20]
    summary = page.get_by_test_id("rules-summary").inner_text()
    for text in ("Tenhou", "East only", "7s + 15s", "Head bump", "+20 +10 -10 -20"):
        assert text in summary, text
    # In "draw" mode nobody picks a seat.
    assert page.locator("[data-testid^=sit-]").count() == 0
    me.context.close()
