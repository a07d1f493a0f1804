"""Getting in and back, and the table's information (issue 15), in Chromium at
1366x768 and 390x844: the invite link during a game ("Return to your game" for a
member, "Watch" for anyone else), your games on the home page, the host never
"not ready", Start saying what it waits for, translated errors, rematch and back
to lobby from the final screen; on the mock table: automatic discard after riichi,
the last discard, the claimed tile on call buttons, riichi sticks, tsumogiri, the
watcher count, the clock's discard and the tab title."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.short_game import SHORT
from tests.web.conftest import DESKTOP, PHONE, AppServer
from tests.web.mocktable import MockTable
from tests.web.player import (
    Stats,
    add_bots,
    at_final,
    click_on,
    create_lobby,
    open_person,
    play_until,
    step,
    table_state,
)

pytestmark = pytest.mark.browser

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _game_id(page: Any) -> int:
    page.wait_for_function("() => /^#\\/game\\/\\d+$/.test(location.hash)")
    return int(page.evaluate("location.hash").split("/")[2])


@pytest.mark.parametrize("size", SIZES)
def test_invite_link_during_a_game_returns_members_and_lets_others_watch(
    browser: Any, app_server: AppServer, size: dict[str, int], artifacts: Any
) -> None:
    host = open_person(browser, app_server.url, "Hana", size)
    code = create_lobby(host.page)
    add_bots(host.page, [1, 2, 3])
    host.page.get_by_test_id("start").click()
    host.page.locator(".hand-tiles .tile").first.wait_for()
    game_id = _game_id(host.page)
    invite = f"{app_server.url}/#/join/{code}"

    # The member follows the invite link again: no error, a way back to the seat.
    host.page.goto(invite)
    back = host.page.get_by_test_id("return-game")
    back.wait_for()
    assert back.inner_text() == "Return to your game"
    assert host.page.locator(".error").count() == 0
    _no_sideways_scroll(host.page)
    back.click()
    host.page.locator(".table-screen[data-seat='0']").wait_for()
    assert _game_id(host.page) == game_id

    # Anyone else with the link may watch (the lobby's code lets them join, so watch).
    kai = open_person(browser, app_server.url, "Kai", size)
    kai.page.goto(invite)
    watch = kai.page.get_by_test_id("watch")
    watch.wait_for()
    assert watch.inner_text() == "Watch" and kai.page.get_by_test_id("return-game").count() == 0
    watch.click()
    kai.page.get_by_test_id("turn-status").filter(has_text="Spectating").wait_for()
    assert kai.page.locator(".hand-tiles .tile").count() == 0
    # The player sees who is watching.
    host.page.get_by_test_id("watching").filter(has_text="1 watching").wait_for()
    assert host.page.locator(".table-screen").get_attribute("data-spectators") == "1"

    # Closing the tab and opening the site again: home lists the live game.
    host.page.goto(app_server.url + "/")
    mine = host.page.locator(f"[data-testid=my-lobbies] li[data-code='{code}']")
    mine.wait_for()
    assert mine.get_attribute("data-status") == "playing"
    mine.get_by_test_id("return-game").click()
    host.page.locator(".table-screen[data-seat='0']").wait_for()
    assert _game_id(host.page) == game_id
    # Bot names are shown in the reader's language.
    host.page.get_by_test_id("lang").select_option("ja")
    host.page.locator(".plate-name", has_text="ボット (効率型)").first.wait_for()
    assert "Bot (" not in host.page.locator(".center").inner_text()
    host.page.screenshot(path=str(artifacts / f"return-{size['width']}.png"))
    assert host.errors == [] and kai.errors == []
    host.context.close()
    kai.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_host_is_never_not_ready_and_start_says_what_is_missing(
    browser: Any, app_server: AppServer, size: dict[str, int], artifacts: Any
) -> None:
    host = open_person(browser, app_server.url, "Hana", size)
    code = create_lobby(host.page, timer=True)
    page = host.page
    # The private lobby's relaxed thinking time, shown before start.
    assert page.get_by_test_id("timer-line").inner_text() == (
        "Thinking time: 10 s per move + 60 s bank"
    )
    slot0 = page.locator(".slot[data-slot='0']")
    assert "host" in slot0.inner_text() and "Not ready" not in slot0.inner_text()
    assert page.get_by_test_id("ready").count() == 0  # the host starts; no ready to give
    assert page.get_by_test_id("start-hint").inner_text() == (
        "3 empty seat(s): add a bot or wait for someone to join."
    )
    yuki = open_person(browser, app_server.url, "Yuki", size)
    yuki.page.goto(f"{app_server.url}/#/join/{code}")
    ready = yuki.page.get_by_test_id("ready")
    ready.wait_for()
    assert ready.inner_text() == "I'm ready"
    add_bots(page, [2, 3])
    page.get_by_test_id("start-hint").filter(has_text="Waiting for Yuki to be ready.").wait_for()
    # The server's refusal, in the player's language.
    page.get_by_test_id("lang").select_option("ja")
    page.get_by_test_id("start").click()
    err = page.get_by_test_id("lobby-error")
    err.wait_for()
    assert "まだ全席が埋まって準備完了になっていません。" in err.inner_text()
    assert "not ready" not in err.inner_text()
    assert "未準備" not in page.locator(".slot[data-slot='0']").inner_text()
    ready.click()
    yuki.page.get_by_test_id("ready").filter(has_text="Cancel my ready").wait_for()
    page.get_by_test_id("start-hint").filter(has_text="全員準備完了です").wait_for()
    _no_sideways_scroll(page)
    yuki.page.screenshot(path=str(artifacts / f"lobby-guest-{size['width']}.png"), full_page=True)
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    yuki.page.locator(".hand-tiles .tile").first.wait_for()
    assert host.errors == [] and yuki.errors == []
    host.context.close()
    yuki.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_final_screen_goes_back_to_lobby_and_rematches(
    browser: Any, app_server: AppServer, size: dict[str, int], artifacts: Any
) -> None:
    me = open_person(browser, app_server.url, "Rin", size)
    page = me.page
    r = page.request.post(f"{app_server.url}/api/lobbies", data={"rules": SHORT})
    assert r.ok, r.text()
    code = r.json()["code"]
    page.goto(f"{app_server.url}/#/lobby/{code}")
    page.get_by_test_id("slots").wait_for()
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    first = _game_id(page)

    play_until([page], lambda: at_final(page), Stats(), deadline_s=180)
    page.get_by_test_id("rematch").wait_for()
    page.screenshot(path=str(artifacts / f"final-actions-{size['width']}.png"))
    page.get_by_test_id("back-lobby").click()
    page.locator(".lobby[data-status='open']").wait_for()
    assert page.evaluate("location.hash") == f"#/lobby/{code}"
    assert page.locator(".slot.bot .tag.ready").count() == 3  # the bots stay
    page.go_back()
    page.get_by_test_id("rematch").click()
    # Alone with bots, asking is enough: the same rules and seats, a new game.
    page.wait_for_function("(h) => location.hash !== h", arg=f"#/game/{first}")
    second = _game_id(page)
    assert second > first
    page.locator(".table-screen[data-seat='0'] .hand-tiles .tile").first.wait_for()
    lobby = page.request.get(f"{app_server.url}/api/lobbies/{code}").json()
    assert lobby["game"]["id"] == second and lobby["status"] == "playing"
    bots = [s["bot"] for s in lobby["game"]["seats"]]
    assert bots == [None, "efficient", "efficient", "efficient"]
    assert me.errors == []
    me.context.close()


def _play_together(pages: list[Any], deadline_s: float) -> None:
    """Click through a game with several people: a round goes on once all of them
    continued, so each result card is answered without waiting for the next round."""
    stats = Stats()
    end = time.monotonic() + deadline_s
    while True:
        states = [table_state(p) for p in pages]
        if all(st is not None and st["overlay"] == "final" for st in states):
            return
        assert time.monotonic() < end, f"the game did not end in {deadline_s}s: {stats}"
        moved = False
        for page, st in zip(pages, states, strict=True):
            if st is None or st["overlay"] == "final":
                continue
            if st["overlay"] in ("agari", "ryuukyoku"):
                button = page.get_by_test_id("continue")
                if button.count():
                    button.click()
                    moved = True
                continue
            # A card may have come since the states were read: step() continues it
            # without waiting for a round that needs the others to continue too.
            moved = step(page, stats, wait_round=False) != "idle" or moved
        if not moved:
            time.sleep(0.03)


def test_rematch_waits_in_the_lobby_for_the_others(browser: Any, app_server: AppServer) -> None:
    host = open_person(browser, app_server.url, "Hana")
    r = host.page.request.post(f"{app_server.url}/api/lobbies", data={"rules": SHORT})
    code = r.json()["code"]
    yuki = open_person(browser, app_server.url, "Yuki")
    yuki.page.goto(f"{app_server.url}/#/join/{code}")
    yuki.page.get_by_test_id("ready").click()
    host.page.goto(f"{app_server.url}/#/lobby/{code}")
    add_bots(host.page, [2, 3])
    host.page.get_by_test_id("start-hint").filter(has_text="Everyone is ready").wait_for()
    host.page.get_by_test_id("start").click()
    host.page.locator(".hand-tiles .tile").first.wait_for()
    yuki.page.locator(".hand-tiles .tile").first.wait_for()
    first = _game_id(host.page)

    _play_together([host.page, yuki.page], deadline_s=180)
    # The host asks first and waits in the lobby, marked as asking.
    host.page.get_by_test_id("rematch").click()
    host.page.locator(".lobby[data-status='open']").wait_for()
    assert "Rematch asked" in host.page.locator(".slot[data-slot='0']").inner_text()
    assert host.page.get_by_test_id("start-hint").inner_text() == "Waiting for Yuki to be ready."
    # Yuki's request starts it: both are taken to the new game, in the same seats.
    yuki.page.get_by_test_id("rematch").click()
    for person, seat in ((host, "0"), (yuki, "1")):
        person.page.wait_for_function("(h) => location.hash !== h", arg=f"#/game/{first}")
        person.page.locator(f".table-screen[data-seat='{seat}'] .hand-tiles .tile").first.wait_for()
    assert _game_id(host.page) == _game_id(yuki.page) > first
    assert host.errors == [] and yuki.errors == []
    host.context.close()
    yuki.context.close()


@pytest.fixture(params=SIZES)
def mock(request: Any, browser: Any, app_server: AppServer) -> Iterator[MockTable]:
    m = MockTable(browser, app_server.url, request.param)
    m.page.clock.install()  # runs on its own until a test pauses it
    yield m
    m.context.close()


def test_automatic_discard_after_riichi_is_on_by_default(mock: MockTable) -> None:
    page = mock.open("case=after_riichi")
    toggle = page.locator("[data-auto=riichiDiscard]")
    assert toggle.is_checked()
    assert [page.locator(f"[data-auto={k}]").is_checked() for k in ("win", "noCalls")] == [
        False,
        False,
    ]
    page.wait_for_function("() => document.querySelector('.table-screen').dataset.busy === 'true'")
    assert mock.sent == [{"type": "discard", "tile": "7s"}]
    # Turned off, it is remembered and the player decides.
    mock.open("case=discard")
    page.locator("[data-auto=riichiDiscard]").uncheck()
    page = mock.open("case=after_riichi")
    assert not page.locator("[data-auto=riichiDiscard]").is_checked()
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    page.clock.run_for(5000)
    assert mock.sent == []
    assert page.locator(".table-screen").get_attribute("data-busy") == "false"
    page.clock.resume()
    # The other toggles: auto-win takes the ron, no calls would pass.
    page.locator("[data-auto=riichiDiscard]").check()
    page.locator("[data-auto=win]").check()
    page = mock.open("case=call")
    page.wait_for_function("() => document.querySelector('.table-screen').dataset.busy === 'true'")
    assert mock.sent == [{"type": "ron", "tile": "4s"}]
    page.locator("[data-auto=win]").uncheck()


def test_table_marks_last_discard_claims_sticks_and_tsumogiri(mock: MockTable) -> None:
    page = mock.open("case=discard&echo=1&watchers=2")
    # The newest discard (seat 3's 7z, the view's last_discard) is marked.
    marked = page.locator(".river .tile.last-discard")
    assert marked.count() == 1
    assert marked.get_attribute("data-tile") == "7z"
    # Our own discard takes the mark.
    page.locator(".hand-tiles .tile.drawn").click()
    page.locator(".zone[data-seat='0'] .river .tile.last-discard").wait_for()
    assert page.locator(".river .tile.last-discard").count() == 1
    # Riichi sticks lie in front of whoever declared (seat 1 only), facing them.
    assert page.locator("[data-testid=zone-stick]").count() == 1
    assert page.locator(".zone[data-seat='1'] [data-testid=zone-stick]").count() == 1
    # Tsumogiri discards look different in every river.
    tg = page.locator(".zone[data-seat='1'] .river .tile.tsumogiri")
    assert tg.count() == 3
    f = tg.first.locator("img").evaluate("(i) => getComputedStyle(i).filter")
    plain = page.locator(".zone[data-seat='1'] .river .tile:not(.tsumogiri) img").first
    assert f != "none" and f != plain.evaluate("(i) => getComputedStyle(i).filter")
    # The watchers.
    assert page.get_by_test_id("watching").inner_text().endswith("2 watching")
    # Call buttons show the tile they would take.
    page = mock.open("case=call")
    for kind in ("chi", "ron"):
        claimed = page.locator(f".action-btn[data-action='{kind}'] .tile.claimed")
        assert claimed.get_attribute("data-tile") == "4s", kind


def test_tab_title_your_turn_and_the_clock_discarding(mock: MockTable) -> None:
    page = mock.open("case=discard")
    assert page.title() == "● Your turn · Jantaku"
    page = mock.open("case=discard&clock=1")
    page.locator(".toast", has_text="Time ran out: 7 of bamboo was discarded for you.").wait_for()
    assert mock.sent == []
    # The discard is made: no longer our turn.
    assert page.title() == "Jantaku"
    page = mock.open("case=discard&lang=zh&clock=1")
    page.locator(".toast", has_text="超时：已自动为你打出 7条。").wait_for()
    page = mock.open("case=call&lang=zh")
    assert page.title() == "● 轮到你 · 雀桌"


def test_the_clicking_player_gives_up_a_click_the_table_moved_past(mock: MockTable) -> None:
    """The player read Pass (and chi, ron) on a discard, then a bot's ron ended the call
    window before the click landed: the result card replaced the buttons. The click is
    given up at once and the state read again, not waited on for 30 s."""
    page = mock.open("case=call")
    st = table_state(page)
    assert st is not None and "pass" in st["actions"]
    page.evaluate(
        """async (v) => {
          const m = await import(new URL('dev/mock.js', document.baseURI));
          window.mockScreen.message({type: 'event', version: v, event: m.results.agari});
        }""",
        int(st["version"]) + 1,
    )
    began = time.monotonic()
    assert not click_on(page, st, ".action-btn[data-action='pass']")
    assert time.monotonic() - began < 15
    assert mock.sent == []
    # Read again: the card, continued.
    stats = Stats()
    assert step(page, stats, wait_round=False) == "result"
    assert stats.results == ["agari"]
    page.get_by_test_id("overlay").wait_for(state="detached")
