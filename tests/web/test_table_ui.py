"""The table's rendering and input rules, on the mock page (web/dev/table.html).

The mock feeds documented view shapes (docs/engine.md) straight into the table
renderer, so situations that random play reaches rarely (kuikae, riichi choice,
several chi options, furiten, melds from each direction) are checked every run.
Actions the page would send are logged to the console as JSON.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import AppServer
from tests.web.mocktable import MockTable

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mock(browser: Any, app_server: AppServer) -> Iterator[MockTable]:
    m = MockTable(browser, app_server.url)
    yield m
    m.context.close()


def test_r11_kuikae_forbidden_discard_is_greyed_and_ignores_clicks(mock: MockTable) -> None:
    page = mock.open("case=discard")
    # The mock's legal discards leave out 4m (as after a call, R11).
    assert mock.tiles(".hand-tiles .tile.forbidden") == ["4m"]
    page.locator(".hand-tiles .tile.forbidden").click(force=True)
    assert mock.sent == []
    page.locator(".hand-tiles .tile.drawn").click()
    assert mock.sent == [{"type": "discard", "tile": "7s"}]
    # The drawn tile is set apart from the sorted hand.
    assert mock.tiles(".hand-tiles .tile")[-1] == "7s"
    assert mock.tiles(".hand-tiles .tile.drawn") == ["7s"]


def test_arrow_keys_select_and_enter_discards(mock: MockTable) -> None:
    page = mock.open("case=discard")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert mock.tiles(".hand-tiles .tile.selected") == ["3m"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # wraps around to the drawn tile
    assert mock.tiles(".hand-tiles .tile.selected") == ["7s"]
    page.keyboard.press("Enter")
    assert mock.sent == [{"type": "discard", "tile": "7s"}]


def test_r14_riichi_then_choice_among_allowed_discards(mock: MockTable) -> None:
    page = mock.open("case=riichi")
    assert [b.get_attribute("data-action") for b in page.locator(".action-btn").all()] == [
        "tsumo",
        "riichi",
    ]
    page.locator(".action-btn[data-action=riichi]").click()
    assert mock.sent == []
    assert sorted(mock.tiles(".hand-tiles .tile.playable")) == ["3s", "3s", "7s"]
    assert "4m" in mock.tiles(".hand-tiles .tile.forbidden")
    page.locator(".hand-tiles .tile.playable[data-tile='7s']").click()
    assert mock.sent == [{"type": "riichi", "tile": "7s"}]


def test_r8_call_buttons_chi_choice_and_keyboard(mock: MockTable) -> None:
    page = mock.open("case=call")
    buttons = page.locator(".action-btn")
    assert [b.get_attribute("data-action") for b in buttons.all()] == ["ron", "chi", "pass"]
    assert buttons.locator("kbd").all_inner_texts() == ["1", "2", "3"]
    # No discard is possible while answering a discard: nothing playable, nothing greyed.
    assert mock.tiles(".hand-tiles .tile.playable") == []
    assert mock.tiles(".hand-tiles .tile.forbidden") == []
    page.keyboard.press("2")
    options = page.locator(".action-btn[data-action=option-chi]")
    assert options.count() == 2
    shown = [
        o.locator(".tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
        for o in options.all()
    ]
    assert shown == [["3s", "4s", "5s"], ["4s", "5s", "6s"]]
    page.keyboard.press("2")
    assert mock.sent == [{"type": "chi", "tiles": ["5s", "6s"]}]
    # Sent once: the buttons are gone until the server answers with a new view.
    assert page.locator(".action-btn").count() == 0
    page = mock.open("case=call")
    page.keyboard.press("2")
    page.keyboard.press("Escape")  # leaves the chi choice without sending
    assert mock.sent == []
    assert page.locator(".action-btn[data-action=ron]").count() == 1
    page.keyboard.press("Escape")  # passes on the discard
    assert mock.sent == [{"type": "pass"}]


def test_r16_waits_furiten_and_no_yaku_warnings(mock: MockTable) -> None:
    page = mock.open("case=call")
    waits = page.locator(".waits .wait")
    assert waits.count() == 2
    assert waits.nth(0).inner_text().strip() == "2 left"
    assert "no-yaku" in (waits.nth(1).get_attribute("class") or "")
    assert "7 of bamboo" in page.locator(".no-yaku-warn").inner_text()
    assert "tsumo" in page.locator(".furiten-warn").inner_text()


def test_r5_dora_highlighted_from_indicators(mock: MockTable) -> None:
    mock.open("case=discard")
    # Indicators 4p and 9s: dora are 5p (incl. the red 0p) and 1s (R5 wraps 9 to 1).
    dora = set(mock.tiles(".board .tile.dora, .hand-tiles .tile.dora"))
    assert dora == {"0p", "1s", "5p"}
    assert "5p" not in mock.tiles(".hand-tiles .tile") and "0p" in mock.tiles(
        ".hand-tiles .tile.dora"
    )


def test_rivers_riichi_sideways_called_marked_and_melds_turned_to_giver(mock: MockTable) -> None:
    page = mock.open("case=discard")
    # Seat 1 declared riichi with 6m; seat 0's 4z was called by someone.
    assert mock.tiles('.zone[data-seat="1"] .river .tile.sideways') == ["6m"]
    assert mock.tiles('.zone[data-seat="0"] .river .tile.called') == ["4z"]
    rows = page.locator('.zone[data-seat="1"] .river .river-row')
    assert [r.locator(".tile").count() for r in rows.all()] == [6, 4]

    def layout(selector: str) -> list[str]:
        out: list[str] = page.locator(selector).evaluate_all(
            """(ms) => ms.map((m) => [...m.children].map((c) =>
                 c.classList.contains('kakan-stack') ? 'stack' :
                 c.querySelector('img').getAttribute('src').endsWith('back.svg') ? 'back' :
                 c.classList.contains('sideways') ? 'side' : 'up').join(','))"""
        )
        return out

    # Own pon from toimen (seat 2): the middle tile turned.
    assert layout(".own-melds .meld") == ["up,side,up"]
    # Seat 2: chi from its kamicha (seat 1) turned left; kakan from toimen (seat 0) stacked
    # in the middle.
    assert layout('.zone[data-seat="2"] .meld') == ["side,up,up", "up,stack,up"]
    # Seat 3: ankan shows its ends face down.
    assert layout('.zone[data-seat="3"] .meld') == ["back,up,up,back"]
    # Opponents' concealed tiles are backs only, as many as hand_count.
    assert page.locator('.zone[data-seat="2"] .opp-concealed .tile').count() == 7


def test_timer_bar_runs_down(mock: MockTable) -> None:
    page = mock.open("case=discard")
    bar = page.locator(".timer.on .timer-think")
    first = bar.evaluate("(e) => parseFloat(e.style.width)")
    page.wait_for_timeout(600)
    second = bar.evaluate("(e) => parseFloat(e.style.width)")
    assert 0 < second < first <= 100


def test_draw_card_shows_type_and_tenpai_hands(mock: MockTable) -> None:
    page = mock.open("case=discard&overlay=draw")
    card = page.locator(".overlay-card")
    assert card.get_attribute("data-kind") == "ryuukyoku"
    assert "Exhaustive draw" in card.locator("h2").inner_text()
    assert [r.get_attribute("data-seat") for r in card.locator(".draw-hand").all()] == ["0", "2"]
    # the concealed tiles the event revealed, then the melds (chi + kakan: 3 + 4 tiles)
    assert card.locator(".draw-hand[data-seat='2'] .tiles-row .tile").count() == 7
    assert card.locator(".draw-hand[data-seat='2'] .meld .tile").count() == 7
    deltas = card.locator("[data-testid=deltas] td.plus, [data-testid=deltas] td.minus")
    assert deltas.all_inner_texts() == ["+1500", "-1500", "+1500", "-1500"]


def test_side_log_lists_calls_riichi_and_new_dora(mock: MockTable) -> None:
    page = mock.open("case=discard")
    items = page.locator("[data-testid=log] li")
    assert items.all_inner_texts()[:4] == [
        "South 2 · 1 honba",
        "Aoi: Pon",
        "Bot (efficient): riichi",
        "New dora indicator",
    ]
    assert mock.tiles("[data-testid=log] li.log-call .tile") == ["5z", "5z", "5z"]
    assert mock.tiles("[data-testid=log] li.log-dora .tile") == ["9s"]
    assert page.get_by_test_id("log").is_visible()


def test_side_log_is_kept_across_a_reload_and_never_doubled(mock: MockTable) -> None:
    entries = "[data-testid=log] li"
    page = mock.open("case=discard")
    first = page.locator(entries).all_inner_texts()
    assert len(first) == 4
    # The same events replayed (a reconnect resuming from its version): not logged twice.
    page = mock.open("case=discard&keeplog=1")
    assert page.locator(entries).all_inner_texts() == first
    # A reload answered by the view alone still shows the history.
    page = mock.open("case=discard&keeplog=1&noevents=1")
    assert page.locator(entries).all_inner_texts() == first
    # Without the saved log the view alone has none: the history came from storage.
    page = mock.open("case=discard&noevents=1")
    assert page.locator(entries).count() == 0


def test_side_log_never_clips_its_newest_line(mock: MockTable) -> None:
    page = mock.open("case=discard&more=36")
    items = page.locator("[data-testid=log] li")
    assert items.count() == 40
    box = page.get_by_test_id("log").bounding_box()
    first, last = items.first.bounding_box(), items.last.bounding_box()
    assert box and first and last
    assert first["y"] < box["y"]  # the log is full: the oldest lines went off the top
    assert box["y"] <= last["y"] and last["y"] + last["height"] <= box["y"] + box["height"] + 0.5
    assert items.last.inner_text() == "New dora indicator"


def test_a_version_gap_asks_for_one_resync(mock: MockTable) -> None:
    sent: list[str] = []
    mock.page.on("console", lambda m: sent.append(m.text) if m.text.startswith("send ") else None)
    page = mock.open("case=discard&gap=1")
    page.wait_for_timeout(200)
    assert sent.count('send {"type":"resync"}') == 1
    assert page.locator(".table-screen").get_attribute("data-version") == "10"


def test_enter_continues_after_a_result(mock: MockTable) -> None:
    page = mock.open("case=call&overlay=agari")
    page.get_by_test_id("overlay").wait_for()
    page.keyboard.press("2")  # no chi under the card
    assert mock.sent == []
    continued: list[str] = []
    page.on("console", lambda m: continued.append(m.text) if '"continue"' in m.text else None)
    page.keyboard.press("Enter")
    page.wait_for_timeout(100)
    assert continued == ['send {"type":"continue"}']
    assert page.get_by_test_id("overlay").count() == 0


def test_interface_text_in_japanese_and_chinese(mock: MockTable) -> None:
    page = mock.open("case=call&lang=ja")
    assert page.locator(".action-btn[data-action=ron]").inner_text().endswith("ロン")
    assert "フリテン" in page.locator(".furiten-warn").inner_text()
    page = mock.open("case=call&overlay=agari&lang=ja")
    assert "役牌 白" in page.locator("[data-testid=yaku-list]").inner_text()
    assert "断幺九" in page.locator("[data-testid=yaku-list]").inner_text()
    page = mock.open("case=call&lang=zh")
    assert page.locator(".action-btn[data-action=chi]").inner_text().endswith("吃")
    page = mock.open("case=call&overlay=agari&lang=zh")
    assert "断幺九" in page.locator("[data-testid=yaku-list]").inner_text()
    assert "30符" in page.locator("[data-testid=result-summary]").inner_text()


def test_a_discard_shows_before_its_call_window_closes(mock: MockTable) -> None:
    """While the call window is open the server sends the discard event alone (in a
    batch frame here); the tile leaves the hand for the river at once."""
    page = mock.open("case=discard&echo=1")
    river = ".river[data-seat='0'] .tile"
    assert "3m" not in mock.tiles(river)
    before = mock.tiles(".hand-tiles .tile")
    assert "3m" in before
    page.locator(".hand-tiles .tile[data-tile='3m']").first.click()
    page.wait_for_function(
        "() => !document.querySelector(\".hand-tiles .tile[data-tile='3m']\")", timeout=3000
    )
    after = mock.tiles(".hand-tiles .tile")
    # 3m left the hand, the drawn 7s joined it, and nothing is clickable any more.
    assert sorted(after) == sorted([t for t in before if t != "3m"])
    assert page.locator(".hand-tiles .tile.playable").count() == 0
    assert page.locator(".actions .action-btn").count() == 0
    assert mock.tiles(river)[-1] == "3m"
    assert page.locator(".table-screen").get_attribute("data-version") == "11"
