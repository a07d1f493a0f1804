"""How the table feels (issue 15): call announcements, motion and sounds.

On the mock table (web/dev/table.html) frames are fed to the real GameScreen as the
socket would (`mockScreen.message`), with Playwright's fake clock for the announcements'
second; one live game against bots checks the same on the real server. The sound module's
counters (`soundStats()` in web/js/sounds.js) say which sounds were asked for and played.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import DESKTOP, PHONE, ROOT, AppServer
from tests.web.player import (
    Stats,
    add_bots,
    create_lobby,
    import_log,
    open_person,
    play_until,
)

pytestmark = pytest.mark.browser

T0 = dt.datetime(2026, 1, 1, 12, 0, 0, tzinfo=dt.UTC)

_STATS_JS = """async () => {
  const m = await import(new URL('js/sounds.js', document.baseURI));
  return m.soundStats();
}"""

_FEED_JS = "(frames) => { for (const f of frames) window.mockScreen.message(f); }"

# The call-case mock: seat 3 just discarded 4s; we (seat 0) may chi or ron.
PON = {
    "type": "call",
    "seat": 1,
    "meld": "pon",
    "tiles": ["4s", "4s", "4s"],
    "called": "4s",
    "from_seat": 3,
}


def _event(version: int, event: dict[str, Any]) -> dict[str, Any]:
    return {"type": "event", "version": version, "event": event}


class Contexts:
    """Browser contexts of one viewport: each page gets its own (the fake clock is a
    context's), all closed at the end."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.browser = browser
        self.viewport = viewport
        self.opened: list[Any] = []

    def new_page(self) -> Any:
        ctx = self.browser.new_context(viewport=self.viewport)
        self.opened.append(ctx)
        return ctx.new_page()


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def context(browser: Any, request: Any) -> Iterator[Contexts]:
    c = Contexts(browser, request.param)
    yield c
    for ctx in c.opened:
        ctx.close()


def _open(
    context: Contexts, base: str, query: str, *, reduce: bool = False, clock: bool = True
) -> Any:
    """The mock table; with ``clock`` on a fake clock, paused once the table is shown."""
    page = context.new_page()
    if reduce:
        page.emulate_media(reduced_motion="reduce")
    if clock:
        page.clock.install(time=T0)
    page.goto(f"{base}/dev/table.html?{query}")
    page.locator(".hand-tiles .tile").first.wait_for()
    if clock:
        page.clock.pause_at(T0 + dt.timedelta(minutes=10))
    return page


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _stats(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(_STATS_JS)
    return out


def _sound_panel(page: Any) -> None:
    """Show the mute toggle and the slider: on a phone they fold under a speaker button."""
    opener = page.get_by_test_id("sound-open")
    if opener.is_visible():
        assert opener.get_attribute("aria-expanded") == "false"
        assert not page.get_by_test_id("volume").is_visible()
        opener.click()
        assert opener.get_attribute("aria-expanded") == "true"


def _animations(page: Any) -> list[str]:
    names: list[str] = page.evaluate(
        "() => document.getAnimations().map((a) => a.animationName || a.transitionProperty || '?')"
    )
    return names


def test_a_pon_and_a_riichi_are_announced_at_their_seats_for_a_second(
    context: Contexts, app_server: AppServer, artifacts: Path
) -> None:
    page = _open(context, app_server.url, "case=call")
    board_x, board_y = _centre(page, ".board")
    side = page.locator(".board").bounding_box()["width"]
    assert page.get_by_test_id("announce").count() == 0
    page.evaluate(_FEED_JS, [_event(11, PON)])
    pon = page.locator("[data-testid=announce][data-seat='1']")
    assert pon.inner_text() == "Pon!"
    assert pon.get_attribute("data-call") == "pon"
    # Seat 1 is our shimocha: right of the board's centre, level with it.
    x, y = _centre(page, "[data-testid=announce][data-seat='1']")
    assert x > board_x + side * 0.15 and abs(y - board_y) < side * 0.1
    # It never takes a click: the board's buttons and tiles stay usable under it.
    assert pon.evaluate("(e) => getComputedStyle(e).pointerEvents") == "none"
    # Seat 1 discards 9m; seat 2 draws and declares riichi with 1m.
    page.evaluate(
        _FEED_JS,
        [
            _event(12, {"type": "discard", "seat": 1, "tile": "9m"}),
            _event(13, {"type": "draw", "seat": 2, "wall_left": 37}),
            _event(14, {"type": "discard", "seat": 2, "tile": "1m", "riichi": True}),
        ],
    )
    riichi = page.locator("[data-testid=announce][data-seat='2']")
    assert riichi.inner_text() == "Riichi!"
    x, y = _centre(page, "[data-testid=announce][data-seat='2']")
    assert y < board_y - side * 0.15 and abs(x - board_x) < side * 0.1
    page.screenshot(path=artifacts / f"announce-{context.viewport['width']}.png")
    # Re-renders (a decision frame) keep them both until their second is up.
    page.evaluate(_FEED_JS, [{"type": "decision", "seat": 0, "legal": [["pass", 0]]}])
    page.clock.run_for(900)
    assert page.get_by_test_id("announce").count() == 2
    page.clock.run_for(200)
    assert page.get_by_test_id("announce").count() == 0


def test_wins_and_calls_are_said_in_the_readers_language(
    context: Contexts, app_server: AppServer
) -> None:
    page = _open(context, app_server.url, "case=call&lang=ja")
    page.evaluate(_FEED_JS, [_event(11, PON)])
    assert page.locator("[data-testid=announce][data-seat='1']").inner_text() == "ポン"
    page = _open(context, app_server.url, "case=call&lang=zh")
    page.evaluate(
        """async () => {
          const m = await import(new URL('dev/mock.js', document.baseURI));
          window.mockScreen.message({type: 'event', version: 11, event: m.results.agari});
        }"""
    )
    # Our ron on seat 1's discard: said at the bottom, above the result card.
    ron = page.locator("[data-testid=announce][data-seat='0']")
    assert ron.inner_text() == "荣和"
    assert page.get_by_test_id("overlay").is_visible()
    x, y = _centre(page, "[data-testid=announce][data-seat='0']")
    assert page.evaluate(
        """([x, y]) => !!document.elementsFromPoint(x, y)
             .find((e) => e.dataset.testid === 'overlay')""",
        [x, y],
    )
    assert ron.evaluate("(e) => +getComputedStyle(e).zIndex") > page.get_by_test_id(
        "overlay"
    ).evaluate("(e) => +getComputedStyle(e).zIndex")


def test_sanma_north_and_nanchang_calls_are_announced(
    context: Contexts, app_server: AppServer
) -> None:
    # Sanma: seat 1 sets a north aside; with three seats our shimocha still sits right.
    page = _open(context, app_server.url, "case=sanma")
    page.evaluate(_FEED_JS, [_event(11, {"type": "nuki", "seat": 1, "tile": "4z"})])
    said = page.locator("[data-testid=announce][data-seat='1']")
    assert said.inner_text() == "Kita!"
    assert "announce-pos-1" in (said.get_attribute("class") or "")
    # Seat 2 is the kamicha of three: left.
    page.evaluate(_FEED_JS, [_event(12, {"type": "draw", "seat": 1, "rinshan": True})])
    page.evaluate(_FEED_JS, [_event(13, {"type": "discard", "seat": 1, "tile": "9s"})])
    page.evaluate(_FEED_JS, [_event(14, {"type": "draw", "seat": 2})])
    page.evaluate(
        _FEED_JS, [_event(15, {"type": "discard", "seat": 2, "tile": "1m", "riichi": True})]
    )
    said = page.locator("[data-testid=announce][data-seat='2']")
    assert said.inner_text() == "Riichi!"
    assert "announce-pos-3" in (said.get_attribute("class") or "")
    assert page.get_by_test_id("announce").count() == 2
    # Nanchang: a call event's type is its meld's; a win on a discard is 胡.
    page = _open(context, app_server.url, "case=nanchang&lang=zh")
    pon = {"type": "pon", "meld": "pon", "seat": 3, "tiles": ["6p", "6p", "6p"]}
    pon |= {"called": "6p", "from_seat": 2, "added": None}
    win = {"type": "win", "win": {"seat": 2, "from_seat": 3, "win_tile": "1p"}}
    page.evaluate(_FEED_JS, [_event(11, pon)])
    said = page.locator("[data-testid=announce][data-seat='3']")
    assert said.inner_text() == "碰"
    assert "announce-pos-3" in (said.get_attribute("class") or "")
    page.evaluate(_FEED_JS, [_event(12, win)])
    assert page.locator("[data-testid=announce][data-seat='2']").inner_text() == "胡"


def test_draws_discards_and_calls_move_briefly(context: Contexts, app_server: AppServer) -> None:
    page = _open(context, app_server.url, "case=call")
    moving = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          return document.getAnimations().map((a) => [a.animationName, a.effect.target.dataset.tile
            || a.effect.target.className, a.effect.getTiming().duration]);
        }""",
        [_event(11, PON)],
    )
    kinds = {name for name, _, _ in moving}
    assert {"motion-meld", "announce-pop"} <= kinds
    assert all(150 <= d <= 250 for name, _, d in moving if name.startswith("motion-"))
    moving = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          return document.getAnimations().filter((a) => a.animationName === 'motion-discard')
            .map((a) => a.effect.target.dataset.tile);
        }""",
        [_event(12, {"type": "discard", "seat": 1, "tile": "9m"})],
    )
    assert moving == ["9m"]


def test_a_kakan_drops_its_added_tile_onto_the_pon(
    context: Contexts, app_server: AppServer
) -> None:
    """A kakan changes a meld in place: its added tile drops onto the pon, and the meld
    itself does not slide in again as a new one would."""
    page = _open(context, app_server.url, "case=call")
    page.evaluate(_FEED_JS, [_event(11, PON), _event(12, {"type": "draw", "seat": 1})])
    page.clock.run_for(1000)  # the pon's own motion is over
    kakan = {"type": "kan", "seat": 1, "meld": "kakan", "tiles": ["4s"] * 4, "added": "4s"}
    moving = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          return document.getAnimations().filter((a) => a.animationName.startsWith('motion-'))
            .map((a) => [a.animationName, a.effect.target.dataset.tile || '',
              !!a.effect.target.parentElement.closest('.kakan-stack'),
              a.effect.getTiming().duration]);
        }""",
        [_event(13, kakan)],
    )
    assert moving == [["motion-kakan", "4s", True, 240]], moving
    stack = page.locator(".zone[data-seat='1'] .melds .kakan-stack")
    assert stack.count() == 1
    # Over once its time has passed: the table at rest shows the stack, nothing moving.
    page.clock.run_for(1000)
    page.evaluate(_FEED_JS, [_event(14, {"type": "draw", "seat": 1, "rinshan": True})])
    assert "motion-kakan" not in _animations(page)


def test_a_nanchang_kakan_moves_once_nobody_robbed_it(
    context: Contexts, app_server: AppServer
) -> None:
    """Nanchang's added kan stands only with its replacement draw (N11): its tile drops
    onto the pon then, not while the others may still rob it."""
    page = _open(context, app_server.url, "case=nanchang")
    page.evaluate(
        _FEED_JS,
        [
            _event(11, {"type": "discard", "seat": 0, "tile": "6p"}),
            _event(12, {"type": "draw", "seat": 1}),
        ],
    )
    page.clock.run_for(1000)
    kakan = {"type": "kakan", "meld": "kakan", "seat": 1, "tiles": ["5p"] * 4}
    kakan |= {"called": "5p", "from_seat": 0, "added": "5p"}
    page.evaluate(_FEED_JS, [_event(13, kakan)])
    assert "motion-kakan" not in _animations(page)
    assert page.locator(".zone[data-seat='1'] .melds .kakan-stack").count() == 0
    page.clock.run_for(3000)  # the others think about robbing it
    moving = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          return document.getAnimations().filter((a) => a.animationName === 'motion-kakan')
            .map((a) => a.effect.target.dataset.tile);
        }""",
        [_event(14, {"type": "draw", "seat": 1, "replacement": True})],
    )
    assert moving == ["5p"]
    assert page.locator(".zone[data-seat='1'] .melds .kakan-stack").count() == 1


def test_our_drawn_tile_only_fades_in_and_takes_a_click_at_once(
    context: Contexts, app_server: AppServer
) -> None:
    sent: list[str] = []
    page = _open(context, app_server.url, "case=discard&echo=1")
    page.on("console", lambda m: sent.append(m.text) if m.text.startswith("send ") else None)
    # Our discard, seat 1 to 3 pass the turn round, then our draw and its decision.
    page.locator(".hand-tiles .tile[data-tile='3m']").first.click()
    page.clock.run_for(50)
    page.wait_for_function("() => document.querySelector('.table-screen').dataset.version === '11'")
    props = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          const t = document.querySelector('.hand-tiles .tile.drawn');
          return t.getAnimations().flatMap((a) => a.effect.getKeyframes())
            .flatMap((k) => Object.keys(k).filter((p) =>
              !['offset', 'computedOffset', 'easing', 'composite'].includes(p)));
        }""",
        [
            _event(12, {"type": "draw", "seat": 0, "tile": "1z", "wall_left": 36}),
            {"type": "decision", "seat": 0, "legal": [["discard", "1z", "2m"]]},
        ],
    )
    # Only opacity moves: the tile stays put, so nothing waits for it to settle.
    assert props and set(props) == {"opacity"}
    page.locator(".hand-tiles .tile.drawn").click(timeout=2000)
    assert sent[-1] == 'send {"type":"action","action":{"type":"discard","tile":"1z"},"version":12}'


def test_reduced_motion_moves_nothing_but_still_announces(
    context: Contexts, app_server: AppServer
) -> None:
    page = _open(context, app_server.url, "case=call", reduce=True)
    assert _animations(page) == []
    moving = page.evaluate(
        """(frames) => {
          for (const f of frames) window.mockScreen.message(f);
          return [document.getAnimations().length, document.querySelectorAll('.motion').length];
        }""",
        [
            _event(11, PON),
            _event(12, {"type": "discard", "seat": 1, "tile": "9m", "riichi": True}),
        ],
    )
    assert moving == [0, 0]
    assert page.locator("[data-testid=announce][data-seat='1']").inner_text() == "Riichi!"
    page.clock.run_for(1100)
    assert page.get_by_test_id("announce").count() == 0


def test_sounds_follow_the_events_and_wait_for_a_gesture(
    context: Contexts, app_server: AppServer
) -> None:
    page = _open(context, app_server.url, "case=call")
    # The table waits on us: "your turn" is asked for, but nothing sounds before a gesture.
    st = _stats(page)
    assert st["requested"] == {"turn": 1} and st["played"] == {} and st["context"] is None
    page.locator(".center-info").click()
    page.evaluate(
        _FEED_JS,
        [
            _event(11, PON),
            # the call ended our chance to answer 4s: nothing left to decide
            {"type": "decision", "seat": 0, "legal": []},
            _event(12, {"type": "discard", "seat": 1, "tile": "9m"}),
            _event(13, {"type": "draw", "seat": 2, "wall_left": 37}),
            _event(14, {"type": "discard", "seat": 2, "tile": "1m", "riichi": True}),
            {"type": "decision", "seat": 0, "legal": [["pass", 0]]},
        ],
    )
    st = _stats(page)
    assert st["requested"] == {"turn": 2, "call": 1, "discard": 1, "riichi": 1}
    assert st["played"] == {"turn": 1, "call": 1, "discard": 1, "riichi": 1}
    assert st["context"] in ("running", "suspended")
    page.evaluate(
        """async () => {
          const m = await import(new URL('dev/mock.js', document.baseURI));
          window.mockScreen.message({type: 'event', version: 15, event: m.results.agari});
        }"""
    )
    assert _stats(page)["played"]["win"] == 1
    # Muted: still counted, not played.
    _sound_panel(page)
    page.get_by_test_id("mute").click()
    page.evaluate(_FEED_JS, [_event(16, {"type": "discard", "seat": 3, "tile": "2p"})])
    st = _stats(page)
    assert st["requested"]["discard"] == 2 and st["played"]["discard"] == 1


def test_mute_and_volume_persist_across_reload(context: Contexts, app_server: AppServer) -> None:
    page = _open(context, app_server.url, "case=discard", clock=False)
    _sound_panel(page)
    mute = page.get_by_test_id("mute")
    volume = page.get_by_test_id("volume")
    assert mute.get_attribute("aria-pressed") == "false"
    assert volume.input_value() == "50"  # a moderate default
    assert mute.is_visible() and volume.is_visible()
    volume.fill("30")
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    page.reload()
    page.locator(".hand-tiles .tile").first.wait_for()
    _sound_panel(page)
    assert page.get_by_test_id("mute").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("volume").input_value() == "30"
    assert page.evaluate("() => JSON.parse(localStorage.getItem('jantaku.sound'))") == {
        "muted": True,
        "volume": 0.3,
    }
    # Moving the slider turns the sound back on.
    page.get_by_test_id("volume").fill("70")
    assert page.get_by_test_id("mute").get_attribute("aria-pressed") == "false"
    page.evaluate("() => localStorage.removeItem('jantaku.sound')")


_PLAYED_JS = """async (name) => {
  const m = await import(new URL('js/sounds.js', document.baseURI));
  return m.soundStats().played[name] || 0;
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_live_game_with_bots_sounds_and_moves(
    browser: Any, app_server: AppServer, viewport: dict[str, int]
) -> None:
    me = open_person(browser, app_server.url, "Mio", viewport)
    page = me.page
    create_lobby(page, length="tonpuu")
    add_bots(page, [1, 2, 3])
    page.get_by_test_id("start").click()  # (a gesture: sounds may play from now on)
    page.locator(".table-screen").wait_for()
    page.evaluate(
        """() => {
          window.feltMotion = [];
          document.addEventListener('animationstart',
            (e) => window.feltMotion.push(e.animationName));
        }"""
    )
    # The controls fit the header: no sideways scrolling on the phone either.
    assert page.locator("#header .sound-controls").count() == 1
    _sound_panel(page)
    assert page.get_by_test_id("mute").is_visible() and page.get_by_test_id("volume").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    # The header's links keep their room (the phone's has only the speaker button).
    links = page.locator("#header .history-link").evaluate_all(
        "(ls) => ls.map((l) => l.scrollWidth <= l.clientWidth + 1)"
    )
    assert links and (all(links) or viewport is PHONE)
    if viewport is PHONE:
        # folded, the controls take one small button's room in the header
        page.get_by_test_id("sound-open").click()
        assert page.locator("#header .sound-controls").bounding_box()["width"] <= 32
        page.get_by_test_id("sound-open").click()
        page.locator(".board").click(position={"x": 5, "y": 5})  # a tap elsewhere folds it
        assert not page.get_by_test_id("volume").is_visible()
    # Play (pass on calls, continue after a hand that ends first) until our first
    # discard; discards are heard and slide in, and our turn was announced.
    stats = Stats()
    play_until([page], lambda: stats.discards + stats.actions.get("riichi", 0) >= 1, stats, 120)
    page.wait_for_function(f"async () => ({_PLAYED_JS})('discard').then((n) => n >= 1)")
    assert page.evaluate(_PLAYED_JS, "turn") >= 1
    page.wait_for_function("() => window.feltMotion.includes('motion-discard')")
    assert me.errors == []
    me.context.close()


MJLOG = ROOT / "tests" / "fixtures" / "mjx" / "mjlog" / "double-ron.mjlog"
STEP_TYPES = {"draw", "discard", "call", "kan", "nuki", "agari", "ryuukyoku", "chi", "pon"}
STEP_TYPES |= {"minkan", "ankan", "kakan", "win", "wall_exhausted", "game_end"}


def _moment(
    events: list[dict[str, Any]], kind: str, winners: int = 0
) -> tuple[int, int, dict[str, Any]]:
    """(hand 1-based, the step before it, its data) of the record's first event of `kind`
    (with that many winners, when given)."""
    hand, step = 0, 0
    for e in events:
        if e["type"] == "round_start":
            hand, step = hand + 1, 0
        elif e["type"] in STEP_TYPES:
            if e["type"] == kind and (not winners or len(e["data"]["winners"]) == winners):
                return hand, step, e["data"]
            step += 1
    raise AssertionError(f"no {kind} in the record")


@pytest.fixture(scope="module")
def double_ron(browser: Any, app_server: AppServer) -> tuple[int, list[dict[str, Any]]]:
    """An imported game with calls and a double ron: its id and its record's events."""
    me = open_person(browser, app_server.url, "Rei")
    game_id = import_log(me.context, app_server.url, MJLOG)
    me.context.close()
    record = httpx.get(f"{app_server.url}/api/games/{game_id}", timeout=10).json()
    return game_id, [e for e in record["events"] if e["kind"] == "event"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_replay_says_a_steps_calls_when_stepping_forward(
    browser: Any,
    app_server: AppServer,
    viewport: dict[str, int],
    double_ron: tuple[int, list[dict[str, Any]]],
) -> None:
    game_id, events = double_ron
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install(time=T0)

    def at(hand: int, step: int) -> None:
        page.goto(f"{app_server.url}/#/replay/{game_id}/{hand}/{step}/1o")
        page.wait_for_function(
            "([h, s]) => { const r = document.querySelector('[data-testid=replay]');"
            " return r && r.dataset.hand === String(h) && r.dataset.step === String(s); }",
            arg=[hand, step],
        )

    hand, step, call = _moment(events, "call")
    at(hand, step)
    page.clock.pause_at(T0 + dt.timedelta(minutes=10))
    assert page.get_by_test_id("announce").count() == 0
    page.keyboard.press("ArrowRight")
    said = page.get_by_test_id("announce")
    assert said.count() == 1
    assert said.get_attribute("data-seat") == str(call["seat"])
    assert said.get_attribute("data-call") == {"daiminkan": "kan"}.get(call["meld"], call["meld"])
    page.clock.run_for(1100)
    assert said.count() == 0
    # Back a step: a jump, nothing said.
    page.keyboard.press("ArrowLeft")
    assert said.count() == 0
    page.clock.resume()
    # The double ron: both winners say it at once, over the result card.
    hand, step, agari = _moment(events, "agari", winners=2)
    at(hand, step)
    page.clock.pause_at(T0 + dt.timedelta(minutes=20))
    page.keyboard.press("ArrowRight")
    page.get_by_test_id("replay-result").wait_for()
    winners = sorted(str(w["seat"]) for w in agari["winners"])
    shown = said.evaluate_all("(as) => as.map((a) => [a.dataset.seat, a.textContent])")
    assert sorted(shown) == [[w, "Ron!"] for w in winners]
    assert errors == []
    context.close()
