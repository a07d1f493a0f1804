"""Seat cards (issue 15) on the mock table (web/dev/table.html), in Chromium: every
seat's wind, score and name upright (no rotation on the card or any ancestor), the dealer
marked, names and scores at least 13 px at 1366x768 and 12 px on phones, each card
nearest its own seat's side of the board, clear of rivers, hands, wall stacks, the centre
box, the other cards and the side log, on screen and without horizontal scroll; for four
seats, three (sanma) and Nanchang."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, AppServer
from tests.web.player import import_log, open_person

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
WIDE = {"width": 1920, "height": 1080}
MJLOG = Path(__file__).parents[2] / "tests" / "fixtures" / "mjx" / "mjlog" / "double-ron.mjlog"
SIDES = {0: "bottom", 1: "right", 2: "top", 3: "left"}

_CARDS_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height}; };
  const rotated = (e) => {
    for (; e && e !== document.documentElement; e = e.parentElement) {
      const m = getComputedStyle(e).transform;
      if (m && m !== 'none') {
        const v = m.match(/-?[\\d.e-]+/g).map(Number);
        if (Math.abs(v[1]) > 1e-6 || Math.abs(v[2]) > 1e-6 || v[0] <= 0 || v[3] <= 0) return m;
      }
    }
    return null;
  };
  const shown = (e) => e && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden';
  const cards = [...document.querySelectorAll('.plate')].map((p) => {
    const name = p.querySelector('.plate-name'), score = p.querySelector('.plate-score');
    const wind = p.querySelector('.plate-wind');
    return {
      seat: p.dataset.seat,
      rel: Number([...p.classList].find((c) => /^plate-\\d$/.test(c)).slice(6)),
      box: box(p), name: name.textContent, nameBox: box(name), scoreBox: box(score),
      score: score.textContent, wind: wind.textContent,
      nameSize: parseFloat(getComputedStyle(name).fontSize),
      scoreSize: parseFloat(getComputedStyle(score).fontSize),
      shown: shown(name) && shown(score) && shown(wind), dealer: p.classList.contains('dealer'),
      rotated: rotated(name) || rotated(score) || rotated(wind),
    };
  });
  const log = document.querySelector('.side-log');
  const all = (s) => [...document.querySelectorAll(s)].filter(shown).map(box);
  return {
    cards, board: box(document.querySelector('.board')),
    log: shown(log) ? box(log) : null,
    obstacles: [...all('.river .tile'), ...all('.opp-hand .tile'), ...all('.center'),
                ...all('.hand-tiles .tile'), ...all('.wall-stack')],
    width: innerWidth, height: innerHeight, scroll: document.scrollingElement.scrollWidth,
  };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def _side(card: dict[str, float], board: dict[str, float]) -> str:
    """The side of the board a card's centre is nearest, seen from the board's centre."""
    dx = (card["left"] + card["right"] - board["left"] - board["right"]) / 2
    dy = (card["top"] + card["bottom"] - board["top"] - board["bottom"]) / 2
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "bottom" if dy > 0 else "top"


def _check(m: dict[str, Any], least: int, seats: int) -> None:
    cards, board = m["cards"], m["board"]
    assert len(cards) == seats
    rels = sorted(c["rel"] for c in cards)
    assert rels == ([0, 1, 3] if seats == 3 else [0, 1, 2, 3])
    assert m["scroll"] <= m["width"]
    assert [c["wind"] for c in cards if c["dealer"]] == ["E"]
    for c in cards:
        who = f"seat {c['seat']} ({SIDES[c['rel']]})"
        assert c["shown"] and c["name"] and c["score"] and c["wind"], who
        assert c["rotated"] is None, (who, c["rotated"])
        assert c["nameSize"] >= least and c["scoreSize"] >= least, (who, c)
        # Read left to right: a line of text is wider than it is high.
        assert c["nameBox"]["width"] > c["nameBox"]["height"] > 0, who
        assert 0 < c["scoreBox"]["height"] < 2 * c["scoreSize"], who  # one line, not a column
        b = c["box"]
        assert b["left"] >= 0 and b["right"] <= m["width"], who
        assert b["top"] >= 0 and b["bottom"] <= m["height"], who
        assert _side(b, board) == SIDES[c["rel"]], (who, b, board)
        for o in m["obstacles"]:
            assert not _overlap(b, o), (who, b, o)
        if m["log"]:
            assert not _overlap(b, m["log"]), (who, b, m["log"])
        for other in cards:
            if other is not c:
                assert not _overlap(b, other["box"]), (who, other["seat"])


class Browser:
    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base, self.contexts = browser, base, []

    def measure(self, size: dict[str, int], query: str) -> dict[str, Any]:
        context = self.browser.new_context(viewport=size)
        self.contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{self.base}/dev/table.html?{query}")
        page.locator(".plate").first.wait_for()
        page.locator(".hand-tiles .tile").first.wait_for()
        out: dict[str, Any] = page.evaluate(_CARDS_JS)
        assert errors == []
        context.close()
        return out


@pytest.fixture(scope="module")
def chromium(browser: Any, app_server: AppServer) -> Iterator[Browser]:
    yield Browser(browser, app_server.url)


CASES = [("case=discard", 4), ("case=sanma", 3), ("case=nanchang", 4)]
SIZES = [
    pytest.param(DESKTOP, 13, id="1366x768"),
    pytest.param(WIDE, 13, id="1920x1080"),
    pytest.param(PHONE, 12, id="390x844"),
    pytest.param(LANDSCAPE, 12, id="844x390"),
]


@pytest.mark.parametrize("size,least", SIZES)
@pytest.mark.parametrize("query,seats", CASES, ids=[c[0][5:] for c in CASES])
def test_seat_cards_upright_readable_and_beside_their_seat(
    chromium: Browser, size: dict[str, int], least: int, query: str, seats: int
) -> None:
    m = chromium.measure(size, query)
    _check(m, least, seats)
    # Every mock's round has seat 1 as its dealer (web/dev/mock.js).
    assert [c["seat"] for c in m["cards"] if c["dealer"]] == ["1"]


def test_wide_screens_put_the_side_seats_cards_in_the_empty_felt(chromium: Browser) -> None:
    m = chromium.measure(DESKTOP, "case=discard")
    board = m["board"]
    by_rel = {c["rel"]: c["box"] for c in m["cards"]}
    assert by_rel[1]["left"] >= board["right"]  # right of the board
    assert by_rel[3]["right"] <= board["left"]  # left of the board
    assert m["log"] is not None and by_rel[1]["right"] <= m["log"]["left"]
    # On a phone there is no felt beside the board: the cards stay inside its corners.
    m = chromium.measure(PHONE, "case=discard")
    for c in m["cards"]:
        b = c["box"]
        assert b["left"] >= m["board"]["left"] - 0.5 and b["right"] <= m["board"]["right"] + 0.5


@pytest.fixture(scope="module")
def replay_game(browser: Any, app_server: AppServer) -> int:
    """An imported game (a Tenhou mjlog) anyone may replay; its id."""
    me = open_person(browser, app_server.url, "Rei")
    game_id = import_log(me.context, app_server.url, MJLOG)
    me.context.close()
    return game_id


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1366x768", "390x844"])
def test_the_replay_viewer_keeps_the_cards_upright_in_the_corners(
    browser: Any, app_server: AppServer, replay_game: int, size: dict[str, int]
) -> None:
    me = open_person(browser, app_server.url, "Mei", size)
    page = me.page
    page.goto(f"{app_server.url}/#/replay/{replay_game}/1/8/1o")
    page.locator(".plate").first.wait_for()
    page.locator(".river .tile").first.wait_for()
    m = page.evaluate(_CARDS_JS)
    # The replay page scrolls down (never sideways): the cards may be below the fold.
    m["height"] = max(m["height"], max(c["box"]["bottom"] for c in m["cards"]))
    _check(m, 13 if size is DESKTOP else 12, 4)
    for c in m["cards"]:  # its panel is beside the board: the cards stay on the board
        b = c["box"]
        assert m["board"]["left"] - 0.5 <= b["left"] and b["right"] <= m["board"]["right"] + 0.5
    assert me.errors == []
    me.context.close()
