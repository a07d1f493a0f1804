"""The table for three seats and for Nanchang, on the mock page (web/dev/table.html):
no toimen, melds turned toward the kamicha on the left, nukidora and the nuki button;
the turned-up tile, joker badges (en and zh), and the Nanchang result card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import ROOT, AppServer
from tests.web.mocktable import MockTable

pytestmark = pytest.mark.browser

EN: dict[str, str] = json.loads((ROOT / "web/i18n/en.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def mock(browser: Any, app_server: AppServer) -> Iterator[MockTable]:
    m = MockTable(browser, app_server.url)
    yield m
    m.context.close()


def _layout(page: Any, selector: str) -> list[str]:
    out: list[str] = page.locator(selector).evaluate_all(
        """(ms) => ms.map((m) => [...m.children].map((c) =>
             c.classList.contains('sideways') ? 'side' : 'up').join(','))"""
    )
    return out


def test_three_seats_no_toimen_kamicha_left_and_nukidora(mock: MockTable) -> None:
    page = mock.open("case=sanma")
    assert page.locator(".table-screen").get_attribute("data-seats") == "3"
    zones = {
        z.get_attribute("data-seat"): z.get_attribute("class") for z in page.locator(".zone").all()
    }
    assert zones == {"0": "zone zone-0", "1": "zone zone-1", "2": "zone zone-3"}
    assert page.locator(".zone-2, .plate-2").count() == 0
    # Own pon from seat 2, the kamicha of three seats: the left tile turned.
    assert _layout(page, ".own-melds .meld") == ["side,up,up"]
    # Seat 2's pon from seat 1, its kamicha: turned left too.
    assert _layout(page, '.zone[data-seat="2"] .meld') == ["side,up,up"]
    # Winds from the view; the dealer (seat 1) is East.
    plates = {p.get_attribute("data-seat"): p.inner_text() for p in page.locator(".plate").all()}
    assert plates["1"].startswith("E") and plates["0"].startswith("W")
    # Norths set aside beside the hands: one of ours, two of seat 1's; north (4z) is dora
    # under the 3z indicator.
    assert mock.tiles(".myhand [data-testid=nuki] .tile") == ["4z"]
    assert mock.tiles('.zone[data-seat="1"] [data-testid=nuki] .tile') == ["4z", "4z"]
    assert page.locator(".myhand [data-testid=nuki] .tile.dora").count() == 1
    # S10: with three seats a 1m indicator points to 9m (there is no 2m).
    assert sorted(mock.tiles(".hand-tiles .tile.dora")) == ["4z", "9m"]
    assert page.locator('.zone[data-seat="2"] [data-testid=nuki]').count() == 0
    # The nuki button shows the north and sends the action.
    button = page.locator(".action-btn[data-action='nuki']")
    assert button.inner_text().strip().endswith(EN["action.nuki"])
    assert mock.tiles(".action-btn[data-action='nuki'] .tile") == ["4z"]
    button.click()
    assert mock.sent == [{"type": "nuki", "tile": "4z"}]


def test_nanchang_turned_up_tile_and_joker_badges(mock: MockTable) -> None:
    page = mock.open("case=nanchang")
    assert page.locator(".table-screen").get_attribute("data-variant") == "nanchang"
    assert mock.tiles("[data-testid=indicator] .tile") == ["5p"]
    assert mock.tiles("[data-testid=jokers] .tile") == ["5p", "6p"]
    assert page.get_by_test_id("dora").count() == 0
    marks = page.locator(".table-screen .tile[data-tile]").evaluate_all(
        """(ts) => ts.filter((t) => t.dataset.tile).map((t) => [t.dataset.tile,
             t.dataset.joker || '', (t.querySelector('.joker-badge') || {}).textContent || ''])"""
    )
    want = {"5p": ("zheng", "J2"), "6p": ("fu", "J1")}
    for tile, kind, badge in marks:
        assert (kind, badge) == want.get(tile, ("", "")), tile
    # Hand (5p, 6p and the drawn 6p), a river 6p of ours and seat 2's, seat 1's pon of 5p,
    # and the indicator row: every one is marked.
    assert sum(1 for tile, kind, _ in marks if kind) == 3 + 2 + 3 + 3
    info = page.locator(".center-info").inner_text()
    assert "East 2" in info and "Dealer repeats: 1" in info
    plates = {p.get_attribute("data-seat"): p.inner_text() for p in page.locator(".plate").all()}
    assert plates["1"].startswith("E") and plates["0"].startswith("N")
    assert "+12" in plates["0"] and "-5" in plates["3"]
    # Nanchang lays a concealed kan face up (N11).
    assert page.locator('.zone[data-seat="2"] .meld img[src$="back.svg"]').count() == 0
    page.goto(f"{mock.base}/dev/table.html?case=nanchang&lang=zh")
    page.locator(".hand-tiles .tile").first.wait_for()
    badges = page.locator(".hand-tiles .joker-badge").all_inner_texts()
    assert badges == ["正精", "副精", "副精"]


def test_nanchang_result_card_names_each_element(mock: MockTable) -> None:
    page = mock.open("case=nanchang&overlay=nc_win")
    card = page.locator("[data-testid=overlay] .overlay-card")
    card.wait_for()
    assert card.get_attribute("data-kind") == "agari"
    items = card.locator("[data-testid=element-list] li").evaluate_all(
        "(ls) => ls.map((l) => [l.dataset.element, l.innerText.replace(/\\s+/g, ' ')])"
    )
    assert [i for i, _ in items] == ["pinghu", "zimo", "deguo", "zhuang"]
    for element, text in items:
        assert EN[f"nc_el.{element}"] in text
    assert "×2" in items[1][1] and "+5 points" in items[2][1]
    assert card.get_by_test_id("result-summary").inner_text() == (
        "Base 4 per payer · +5 bonus per payer · Total 30"
    )
    bonus = card.get_by_test_id("joker-bonus").inner_text()
    assert EN["nc_el.chongguan"] in bonus and "正精 1 · 副精 3" in bonus
    assert "10 from each other seat" in bonus and "pays all three shares" in bonus
    assert card.locator("[data-element=joker_kan]").count() == 1
    deltas = card.locator("[data-testid=deltas] tr td:nth-child(2)").all_inner_texts()
    assert deltas == ["+46", "-27", "+3", "-22"]
    # The winning hand's jokers are badged in the card too.
    assert card.locator(".win-tile .tile.joker-fu .joker-badge").count() == 1
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=overlay]").count() == 0
