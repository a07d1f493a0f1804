"""The wall round the centre box (web/js/wall.js), at 1366x768, 390x844 and 844x390.

On the mock page (web/dev/table.html): every stack where the view's public wall puts it
(riichi after two kans, sanma after norths, Nanchang with its three rolls); in a live
game against bots: the stacks left follow the wall count turn after turn; in the replay
viewer: the same wall from the replay's fold, a kan's indicator turned face up.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import DESKTOP, LANDSCAPE, PHONE, AppServer
from tests.web.player import add_bots, create_lobby, import_log, open_person

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"

WALL_JS = """() => {
  const ring = document.querySelector('[data-testid=wall]');
  if (!ring) return null;
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const sides = [...ring.querySelectorAll('.wall-side')].map((s) => ({
    seat: Number(s.dataset.seat),
    box: box(s),
    stacks: [...s.querySelectorAll('.wall-stack')].map((e) => ({
      count: Number(e.dataset.count), dead: e.classList.contains('dead'),
      face: e.dataset.tile || null, brk: e.dataset.testid === 'wall-break',
      w: Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height),
      imgs: e.querySelectorAll('img').length,
    })),
  }));
  const dice = [...document.querySelectorAll('[data-testid=dice] .dice-pair')].map((p) => ({
    kind: p.dataset.kind,
    values: [...p.querySelectorAll('.die')].map((d) => Number(d.dataset.value)),
    pips: [...p.querySelectorAll('.die')].map((d) => d.querySelectorAll('.pip').length),
  }));
  const m = document.querySelector('[data-testid=wall-left]').textContent.match(/\\d+/);
  const dora = [...document.querySelectorAll('[data-testid=dora] .tile')]
    .map((t) => t.dataset.tile).filter((t) => t);
  const rivers = [...document.querySelectorAll('.board .river .tile')].map(box);
  return {
    sides, dice, dora, rivers, left: m ? Number(m[0]) : null, ringLeft: Number(ring.dataset.left),
    board: box(document.querySelector('.board')), center: box(document.querySelector('.center')),
    scroll: document.scrollingElement.scrollWidth, width: innerWidth,
  };
}"""


def wall(page: Any) -> dict[str, Any]:
    w: dict[str, Any] | None = page.evaluate(WALL_JS)
    assert w is not None, "no wall on the table"
    return w


def tiles(w: dict[str, Any]) -> int:
    return sum(s["count"] for side in w["sides"] for s in side["stacks"])


def faces(w: dict[str, Any]) -> list[str]:
    return [s["face"] for side in w["sides"] for s in side["stacks"] if s["face"]]


def where(w: dict[str, Any], flag: str) -> list[tuple[int, int]]:
    """(seat, stack index from its wall's right end) of every stack with ``flag``."""
    sides = w["sides"]
    return [(d["seat"], i) for d in sides for i, s in enumerate(d["stacks"]) if s[flag]]


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def check_fits(w: dict[str, Any], min_stack: float) -> None:
    """Inside the board, clear of the centre box and the rivers, no sideways scroll."""
    assert w["scroll"] <= w["width"]
    b = w["board"]
    for side in w["sides"]:
        x0, y0, x1, y1 = side["box"]
        assert b[0] - 1 <= x0 and x1 <= b[2] + 1 and b[1] - 1 <= y0 and y1 <= b[3] + 1
        assert not overlaps(side["box"], w["center"])
        for r in w["rivers"]:
            assert not overlaps(side["box"], r), (side["seat"], side["box"], r)
        assert all(s["w"] >= min_stack for s in side["stacks"]), min(s["w"] for s in side["stacks"])


@pytest.fixture(scope="module")
def pages(browser: Any, app_server: AppServer) -> Any:
    made: dict[str, Any] = {}

    def page(viewport: dict[str, int], query: str) -> Any:
        key = json.dumps(viewport)
        if key not in made:
            made[key] = browser.new_context(viewport=viewport).new_page()
        p = made[key]
        p.goto(f"{app_server.url}/dev/table.html?{query}")
        p.locator("[data-testid=wall]").wait_for()
        return p

    yield page
    for p in made.values():
        p.context.close()


# The narrowest stack each size allows (px). A phone turned sideways has the least height
# for the board, which is as high as the screen: sanma's 18 stacks a side are 5.5 px.
SIZES = [
    pytest.param(DESKTOP, 9, id="1366"),
    pytest.param(PHONE, 6, id="390"),
    pytest.param(LANDSCAPE, 5.4, id="844"),
]


@pytest.mark.parametrize(("viewport", "min_stack"), SIZES)
def test_riichi_wall_after_two_kans(
    pages: Any, viewport: dict[str, int], min_stack: float, artifacts: Path
) -> None:
    # the mock: dealer seat 1, dice 3+4, 38 left, two kans: 82 taken, 2 rinshan draws
    page = pages(viewport, "case=wall_kan")
    w = wall(page)
    assert sorted(s["seat"] for s in w["sides"]) == [0, 1, 2, 3]
    assert all(len(s["stacks"]) == 17 for s in w["sides"])
    # the live wall and the 14 of the dead wall, nothing else
    assert w["left"] == 38 and tiles(w) == w["ringLeft"] == 38 + 14
    assert w["dice"] == [{"kind": "break", "values": [3, 4], "pips": [3, 4]}]
    # 3+4 counted from the dealer (seat 1) is seat 3's wall; 7 stacks from its right end
    breaks = where(w, "brk")
    assert breaks == [(3, 7)]
    left_wall = next(side["stacks"] for side in w["sides"] if side["seat"] == 3)
    # the dead wall right of the break: both rinshan tiles of its last stack gone, the
    # indicator and both kan dora face up on the 3rd, 4th and 5th stacks from the break
    assert [s["count"] for s in left_wall[:7]] == [2, 2, 2, 2, 2, 2, 0]
    assert [s["face"] for s in left_wall[:7]] == [None, None, "1z", "9s", "4p", None, None]
    assert faces(w) == ["1z", "9s", "4p"] and sorted(faces(w)) == sorted(w["dora"])
    assert all(s["imgs"] == 1 for s in left_wall[2:5])
    dead = where(w, "dead")
    assert dead == [(0, 16)] + [(3, i) for i in range(6)]
    # drawn from the break clockwise: seat 3's wall left of the break, then seat 2's,
    # then most of seat 1's
    assert all(s["count"] == 0 for s in left_wall[7:])
    by_seat = {side["seat"]: side["stacks"] for side in w["sides"]}
    assert all(s["count"] == 0 for s in by_seat[2])
    assert [s["count"] for s in by_seat[1]] == [0] * 14 + [2, 2, 2]
    assert all(s["count"] == 2 for s in by_seat[0])
    check_fits(w, min_stack)
    page.screenshot(path=str(artifacts / f"wall-mock-{viewport['width']}.png"))


@pytest.mark.parametrize(("viewport", "min_stack"), SIZES)
def test_sanma_wall_has_three_walls_of_eighteen(
    pages: Any, viewport: dict[str, int], min_stack: float
) -> None:
    page = pages(viewport, "case=sanma")
    w = wall(page)
    assert sorted(s["seat"] for s in w["sides"]) == [0, 1, 2]
    assert all(len(s["stacks"]) == 18 for s in w["sides"])
    assert tiles(w) == 40 + 14 and w["dice"][0]["values"] == [2, 5]
    assert sorted(faces(w)) == sorted(w["dora"]) == ["1m", "3z"]
    # three norths pulled: three replacement tiles gone from beside the break
    breaks = where(w, "brk")
    seat, i = breaks[0]
    assert len(breaks) == 1 and seat == (1 + 7 - 1) % 3 and i == 7
    dead_end = next(side["stacks"] for side in w["sides"] if side["seat"] == seat)[:7]
    assert [s["count"] for s in dead_end][-2:] == [1, 0]
    # no wall where no seat sits (the top): every wall's middle is below the centre's top
    c = w["center"]
    assert all((side["box"][1] + side["box"][3]) / 2 > c[1] for side in w["sides"])
    check_fits(w, min_stack)


@pytest.mark.parametrize(("viewport", "min_stack"), SIZES)
def test_nanchang_wall_with_three_rolls_and_the_turned_up_tile(
    pages: Any, viewport: dict[str, int], min_stack: float, artifacts: Path
) -> None:
    page = pages(viewport, "case=nanchang")
    w = wall(page)
    assert all(len(s["stacks"]) == 17 for s in w["sides"]) and len(w["sides"]) == 4
    # no dead wall: every tile left is drawable
    assert tiles(w) == w["left"] == 61
    assert not any(s["dead"] for side in w["sides"] for s in side["stacks"])
    assert [(d["kind"], d["values"]) for d in w["dice"]] == [
        ("break", [5, 6]),
        ("second", [6, 6]),
        ("joker", [4, 2]),
    ]
    # the second roller (seat 3) counts 11 + 12 = 23: past its 17 stacks onto seat 2's
    breaks = where(w, "brk")
    assert breaks == [(2, 6)]
    by_seat = {side["seat"]: side["stacks"] for side in w["sides"]}
    # one kan replacement: the top of the last stack before the break
    assert by_seat[2][5]["count"] == 1
    # the joker roll 4+2: the 6th stack from the wall's end, face up
    assert faces(w) == ["5p"] and by_seat[2][0]["face"] == "5p"
    check_fits(w, min_stack)
    page.screenshot(path=str(artifacts / f"wall-nanchang-{viewport['width']}.png"))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1366", "390"])
def test_live_game_wall_follows_the_draws(
    browser: Any, app_server: AppServer, viewport: dict[str, int], artifacts: Path
) -> None:
    me = open_person(browser, app_server.url, "Wall", viewport)
    page = me.page
    create_lobby(page)
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()
    page.locator(".table-screen").wait_for()
    seen: list[int] = []
    while len(seen) < 6:
        # Our turn, a call to pass on, or the hand over (a bot's win ends it early).
        page.wait_for_function(
            "() => document.querySelector("
            "'.hand-tiles .tile.playable, .action-btn[data-action=pass], [data-testid=overlay]')",
            timeout=20000,
        )
        if page.get_by_test_id("overlay").count():
            if len(seen) >= 2:
                break
            # The hand ended before we saw two turns: go on with the next one.
            page.get_by_test_id("continue").click()
            page.wait_for_function("() => !document.querySelector('[data-testid=overlay]')")
            seen = []
            continue
        if page.locator(".action-btn[data-action=pass]").count():
            version = page.locator(".table-screen").get_attribute("data-version")
            page.locator(".action-btn[data-action=pass]").click()
            # Answered: the game went on (the next discard may offer a call again).
            page.wait_for_function(
                "(v) => document.querySelector('.table-screen').dataset.version !== v"
                " || !document.querySelector('.action-btn[data-action=pass]')",
                arg=version,
            )
            continue
        w = wall(page)
        view = next(f["view"] for f in reversed(me.frames) if f.get("type") == "view")
        assert w["dice"][0]["values"] == view["round"]["dice"]
        # the live wall and the dead wall (its 14, whatever kans took and gave)
        assert tiles(w) == w["ringLeft"] == w["left"] + 14
        assert len(faces(w)) == len(w["dora"]) >= 1
        seen.append(w["left"])
        version = page.locator(".table-screen").get_attribute("data-version")
        page.locator(".hand-tiles .tile.drawn.playable, .hand-tiles .tile.playable").first.click()
        page.wait_for_function(
            "(v) => document.querySelector('.table-screen').dataset.version !== v", arg=version
        )
        if page.get_by_test_id("overlay").count():
            break
    assert len(seen) >= 2 and seen == sorted(seen, reverse=True) and seen[0] > seen[-1]
    check_fits(wall(page), 6)
    page.screenshot(path=str(artifacts / f"wall-live-{viewport['width']}.png"))
    assert me.errors == []
    me.context.close()


def test_replay_wall_turns_a_kan_indicator_face_up(browser: Any, app_server: AppServer) -> None:
    me = open_person(browser, app_server.url, "Rin")
    game_id = import_log(me.context, app_server.url, FIXTURES / "mjai-reviewer" / "rinshan.json")
    record = httpx.get(f"{app_server.url}/api/games/{game_id}", timeout=10).json()
    start = next(e for e in record["events"] if e["type"] == "round_start")["data"]
    page = me.page
    page.goto(f"{app_server.url}/#/replay/{game_id}/1/0/1o")
    page.locator("[data-testid=replay][data-hand='1'][data-step='0']").wait_for()
    most_faces = 0
    lefts: list[int] = []
    for step in range(400):
        w = wall(page)
        assert w["dice"][0]["values"] == start["dice"]
        assert tiles(w) == w["left"] + 14, step
        assert sorted(faces(w)) == sorted(w["dora"]), step
        most_faces = max(most_faces, len(faces(w)))
        lefts.append(w["left"])
        if page.get_by_test_id("replay-result").count():
            break
        page.keyboard.press("ArrowRight")
        page.locator(f"[data-testid=replay][data-step='{step + 1}']").wait_for()
    assert most_faces >= 2, "the kan's dora indicator lies face up in the dead wall"
    assert lefts[0] == start["wall_left"] and min(lefts) < lefts[0]
    assert me.errors == []
