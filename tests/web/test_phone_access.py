"""The table on a phone and for screen readers and keyboards (issue 15), in Chromium.

On the mock table (web/dev/table.html): hand tiles at least 40 px wide at 390x844,
everything of the table on screen at 844x390, select-then-confirm discards on a touch
screen (mouse and keys act at once), tiles named in words in en/ja/zh, the live region
after a discard and a call, focus on a tile after a discard, the riichi prompt's
contrast computed from the page's styles. With the server: no page wider than a
390 px phone (home, lobby, table, history, replay, account, profile, leaderboard).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, LANDSCAPE, PHONE, AppServer
from tests.web.mocktable import MockTable
from tests.web.player import add_bots, create_lobby, import_log, open_person

pytestmark = pytest.mark.browser

SIZES = [
    pytest.param(DESKTOP, id="desktop"),
    pytest.param(PHONE, id="phone"),
    pytest.param(LANDSCAPE, id="landscape"),
]
ROOT = Path(__file__).parents[2]
# A tile in notation ("3z", "0p"): what a reader should never see or hear.
CODE = re.compile(r"\b[0-9][mpsz]\b")
MJLOG = ROOT / "tests" / "fixtures" / "mjx" / "mjlog" / "double-ron.mjlog"
DICTS = {
    lang: json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    for lang in ("en", "ja", "zh")
}

# Boxes of what must be on screen, in CSS pixels.
_BOXES_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width}; };
  const all = (s) => [...document.querySelectorAll(s)].map(box);
  return {
    hand: all('.hand-tiles .tile'), buttons: all('.actions .action-btn'),
    rivers: all('.river .tile'), board: all('.board'),
    width: innerWidth, height: innerHeight,
    scroll: document.scrollingElement.scrollWidth,
  };
}"""

# WCAG 2 contrast of an element's text against the first opaque background under it.
_CONTRAST_JS = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = null;
  for (let e = el; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] === 1) { bg = c.slice(0, 3); break; }
    if (c[3] > 0) return {error: 'translucent background ' + getComputedStyle(e).backgroundColor};
  }
  if (!bg) return {error: 'no opaque background'};
  const fg = rgb(getComputedStyle(el).color);
  if (fg.length === 4 && fg[3] < 1) return {error: 'translucent text'};
  const [a, b] = [lum(fg.slice(0, 3)), lum(bg)].sort((x, y) => y - x);
  return {ratio: (a + 0.05) / (b + 0.05), fg: getComputedStyle(el).color,
          bg: 'rgb(' + bg.join(', ') + ')', size: getComputedStyle(el).fontSize};
}"""

LIVE_HAS = "(text) => document.querySelector('[data-testid=live]').innerText.includes(text)"

_FOCUSED_TILE_JS = """() => {
  const a = document.activeElement;
  const tile = a && a.closest('.hand-tiles .tile');
  return tile ? {tile: tile.dataset.tile, index: Number(tile.dataset.index)} : null;
}"""


class Mock(MockTable):
    """The mock table in one browser context; the actions it would send."""

    def tile(self, tile: str) -> Any:
        return self.page.locator(f".hand-tiles .tile[data-tile='{tile}']").first

    def live(self) -> str:
        text: str = self.page.get_by_test_id("live").inner_text()
        return text

    def close(self) -> None:
        assert self.errors == []
        self.context.close()


@pytest.fixture
def mocks(browser: Any, app_server: AppServer) -> Iterator[Any]:
    opened: list[Mock] = []

    def make(size: dict[str, int] = DESKTOP, touch: bool = False) -> Mock:
        m = Mock(browser, app_server.url, size, touch)
        opened.append(m)
        return m

    yield make
    for m in opened:
        m.close()


def _inside(box: dict[str, float], w: float, h: float) -> bool:
    inside_x = box["left"] >= -0.5 and box["right"] <= w + 0.5
    return inside_x and box["top"] >= -0.5 and box["bottom"] <= h + 0.5


@pytest.mark.parametrize("size", SIZES)
def test_the_whole_table_is_on_screen_and_hand_tiles_are_big(
    mocks: Any, size: dict[str, int], artifacts: Path
) -> None:
    m = mocks(size)
    page = m.open("case=discard")
    b = page.evaluate(_BOXES_JS)
    w, h = b["width"], b["height"]
    assert b["scroll"] <= w
    # 11 hand tiles (a pon beside them), at least 40 px wide, all on screen.
    assert len(b["hand"]) == 11
    assert min(t["width"] for t in b["hand"]) >= 40
    for part in ("hand", "buttons", "rivers", "board"):
        assert b[part], part
        assert all(_inside(x, w, h) for x in b[part]), part
    # Every seat's river tile is shown, none hidden under another part.
    assert len(b["rivers"]) == 7 + 10 + 8 + 5
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.screenshot(path=str(artifacts / f"table-mock-{size['width']}x{size['height']}.png"))


@pytest.mark.parametrize("size", [PHONE, LANDSCAPE], ids=["phone", "landscape"])
def test_touch_selects_first_and_discards_on_confirm(mocks: Any, size: dict[str, int]) -> None:
    m = mocks(size, touch=True)
    page = m.open("case=discard")
    # A first tap raises the tile and offers the confirm button; nothing is sent.
    m.tile("3m").tap()
    assert m.tile("3m").get_attribute("class").split().count("selected") == 1
    confirm = page.locator("[data-action=confirm-discard]")
    confirm.wait_for()
    assert m.sent == []
    # Another tile takes the selection; a second tap on it discards it.
    m.tile("6p").tap()
    assert page.locator(".hand-tiles .tile.selected").evaluate_all(
        "(els) => els.map((e) => e.dataset.tile)"
    ) == ["6p"]
    assert m.sent == []
    m.tile("6p").tap()
    assert m.sent == [{"type": "discard", "tile": "6p"}]
    # The confirm button discards the raised tile.
    page = m.open("case=discard")
    m.tile("7s").tap()
    assert m.sent == []
    page.locator("[data-action=confirm-discard]").tap()
    assert m.sent == [{"type": "discard", "tile": "7s"}]
    # Riichi's declaration tile is chosen the same way.
    page = m.open("case=riichi")
    page.locator(".actions [data-action=riichi]").tap()
    m.tile("3s").tap()
    assert m.sent == []
    page.locator("[data-action=confirm-discard]").tap()
    assert m.sent == [{"type": "riichi", "tile": "3s"}]


def test_mouse_and_keys_discard_at_once(mocks: Any) -> None:
    m = mocks(DESKTOP)
    page = m.open("case=discard")
    m.tile("3m").click()
    assert m.sent == [{"type": "discard", "tile": "3m"}]
    assert page.locator("[data-action=confirm-discard]").count() == 0
    page = m.open("case=discard")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert m.sent == [{"type": "discard", "tile": "2m"}]


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_tiles_have_spoken_names(mocks: Any, lang: str) -> None:
    m = mocks(DESKTOP)
    page = m.open(f"case=discard&lang={lang}")
    d = DICTS[lang]
    red_dots = d["review.tile_red"].replace("{name}", d["review.tile_p"].replace("{n}", "5"))
    drawn = d["a11y.drawn_tile"].replace("{tile}", d["review.tile_s"].replace("{n}", "7"))
    # The browser's accessible names: the hand's tiles are buttons named in words.
    assert page.get_by_role("button", name=red_dots, exact=True).count() == 1
    assert page.get_by_role("button", name=drawn, exact=True).count() == 1
    names = page.locator(".hand-tiles .tile").evaluate_all(
        "(els) => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label')])"
    )
    assert len(names) == 11
    assert all(role == "button" and name and not CODE.search(name) for role, name in names)
    # One tab stop in the hand; the forbidden tile says it is unavailable.
    tabbable = page.locator(".hand-tiles .tile[tabindex='0']")
    assert tabbable.count() == 1
    assert m.tile("4m").get_attribute("aria-disabled") == "true"
    # Rivers, melds and dora indicators: images named in words, never "3z".
    alts = page.locator(".board img, .dora-box img, .own-melds img").evaluate_all(
        "(els) => els.map((e) => e.alt)"
    )
    assert d["review.tile_red_dragon"] in alts  # 7z in two rivers
    assert d["review.tile_white"] in alts  # our pon of 5z
    assert alts and not any(CODE.search(a) for a in alts)


def test_live_region_says_calls_turns_and_discards(mocks: Any) -> None:
    m = mocks(DESKTOP)
    page = m.open("case=discard&echo=1")
    region = page.get_by_test_id("live")
    assert region.get_attribute("aria-live") == "polite"
    assert region.get_attribute("role") == "status"
    # The mock's events: Aoi's pon, then the view: our turn with the drawn tile.
    live = m.live()
    assert "Aoi calls Pon" in live
    assert "Your turn: you drew 7 of bamboo" in live
    m.tile("6p").click()
    page.wait_for_function(LIVE_HAS, arg="Aoi discards 6 of dots")
    # The region is outside the re-rendered table: the lines stay.
    assert "Aoi calls Pon" in m.live()
    # Japanese.
    page = m.open("case=call&lang=ja")
    d = DICTS["ja"]
    assert d["a11y.call"].format(name="Aoi", action=d["action.pon"]) in m.live()
    actions = ", ".join(d[f"action.{a}"] for a in ("chi", "ron", "pass"))
    assert d["a11y.may_call"].format(actions=actions) in m.live()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_focus_stays_on_a_tile_after_a_discard(mocks: Any, size: dict[str, int]) -> None:
    m = mocks(size, touch=size is PHONE)
    page = m.open("case=discard&echo=1")
    # Keys: the selection brings the focus into the hand, Enter discards, the focus
    # goes to the next tile (not the page body).
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(_FOCUSED_TILE_JS) == {"tile": "3m", "index": 1}
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.hand-tiles .tile').length === 10")
    assert m.sent == [{"type": "discard", "tile": "3m"}]
    assert page.evaluate(_FOCUSED_TILE_JS) == {"tile": "4m", "index": 1}
    # The pointer (a click, or a tap then a second tap).
    page = m.open("case=discard&echo=1")
    if size is PHONE:
        m.tile("6p").tap()
        m.tile("6p").tap()
    else:
        m.tile("6p").click()
    page.wait_for_function("() => document.querySelectorAll('.hand-tiles .tile').length === 10")
    focused = page.evaluate(_FOCUSED_TILE_JS)
    assert focused is not None and focused["index"] == 4
    if size is DESKTOP:
        # A button's action: the button goes, the focus goes to the hand.
        page = m.open("case=call")
        page.locator(".actions [data-action=pass]").click()
        assert m.sent == [{"type": "pass"}]
        assert page.evaluate(_FOCUSED_TILE_JS) == {"tile": "2m", "index": 0}
        page = m.open("case=discard&echo=1")
        m.tile("6p").click()
        page.wait_for_function("() => document.querySelectorAll('.hand-tiles .tile').length === 10")
    # Tab moves from the hand to what follows, Shift+Tab comes back to one tile.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(_FOCUSED_TILE_JS) is not None


@pytest.mark.parametrize("size", [DESKTOP, PHONE, LANDSCAPE], ids=["desktop", "phone", "landscape"])
def test_riichi_prompt_contrast(mocks: Any, size: dict[str, int]) -> None:
    m = mocks(size)
    page = m.open("case=riichi")
    page.locator(".actions [data-action=riichi]").click()
    hint = page.locator(".actions .hint")
    assert hint.inner_text() == "Choose the tile to discard for riichi"
    c = hint.evaluate(_CONTRAST_JS)
    assert "error" not in c, c
    assert c["ratio"] >= 4.5, c
    box = hint.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_no_page_is_wider_than_a_phone(browser: Any, app_server: AppServer) -> None:
    me = open_person(browser, app_server.url, "Aoi Nakamura-Lee", PHONE)
    page = me.page

    def fits(what: str) -> None:
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{what}: {width} px"

    fits("home")
    create_lobby(page)
    fits("lobby")
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    fits("table")
    # Measured once laid out: in one CI run every tile read 0 px just after the first
    # had shown (cause not found). A hand that stays hidden still fails here.
    page.wait_for_function(
        """() => {
          const ts = [...document.querySelectorAll('.hand-tiles .tile')];
          return ts.length >= 13 && ts.every((t) => t.getBoundingClientRect().width > 0);
        }""",
        timeout=10000,
    )
    hand = page.locator(".hand-tiles .tile").evaluate_all(
        "(els) => els.map((e) => e.getBoundingClientRect().width)"
    )
    assert len(hand) >= 13 and min(hand) >= 40
    # A live game with bots: our turn, our discard and the next seat's are said.
    drawn = page.locator(".hand-tiles .tile.drawn.playable")
    passing = page.locator(".action-btn[data-action=pass]")
    # Until our first draw, pass on any call offered (no timer: it would wait for us).
    page.wait_for_function(
        "() => !!document.querySelector('.hand-tiles .tile.drawn.playable, [data-action=pass]')"
    )
    while not drawn.count():
        if passing.count():
            passing.click()
        page.wait_for_function(
            "() => !!document.querySelector('.hand-tiles .tile.drawn.playable, [data-action=pass]')"
        )
    page.wait_for_function(LIVE_HAS, arg="Your turn: you drew ")
    drawn.click()
    page.wait_for_function(LIVE_HAS, arg="Aoi Nakamura-Lee discards ")
    # The next seat's move (its discard, a call or a win) is said too.
    page.wait_for_function(
        "() => /Bot \\(efficient\\) \\d/.test(document.getElementById('table-live').innerText)"
    )
    assert page.evaluate(_FOCUSED_TILE_JS) is not None
    game_id = import_log(me.context, app_server.url, MJLOG)
    my_id = me.context.request.get(f"{app_server.url}/api/me").json()["id"]
    for route, ready in [
        ("#/history", "[data-testid=history-page]"),
        ("#/history/all", "[data-testid=history-page]"),
        (f"#/replay/{game_id}/1/0/1o", ".table-screen"),
        (f"#/replay/{game_id}/1/8/1o", ".table-screen"),
        ("#/account", ".card"),
        (f"#/player/{my_id}", ".card"),
        ("#/leaderboard", ".card"),
        ("#/leaderboard/sanma", ".card"),
    ]:
        page.goto(f"{app_server.url}/{route}")
        page.locator(ready).first.wait_for()
        fits(route)
        # Tiles in words everywhere, the replay included: never "3z".
        alts = page.locator("img").evaluate_all("(els) => els.map((e) => e.alt)")
        assert not any(CODE.search(a) for a in alts), route
    assert me.errors == []
    me.context.close()
