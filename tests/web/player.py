"""Driving the client like a person: pages, lobby set-up, and a clicking player.

Everything here goes through the rendered page (clicks and key presses on what a
person sees); the only non-visual reads are the ``data-*`` attributes the client
puts on its elements and the WebSocket frames the page receives, which the tests
use to check the screen against what the server actually sent.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from server.tables.steps import expand
from server.wire.actions import expand_runs
from tests.web.conftest import DESKTOP

# One snapshot of the table as shown: enough to decide what to click.
_STATE_JS = """() => {
  const s = document.querySelector('.table-screen');
  if (!s) return null;
  const card = document.querySelector('[data-testid=overlay] .overlay-card');
  return {
    version: s.dataset.version,
    phase: s.dataset.phase,
    seat: s.dataset.seat,
    overlay: card ? card.dataset.kind : null,
    overlayAt: card ? card.dataset.at || null : null,
    actions: [...document.querySelectorAll('.actions .action-btn')].map((b) => b.dataset.action),
    playable: [...document.querySelectorAll('.hand-tiles .tile.playable')]
      .map((t) => t.dataset.tile),
    drawnPlayable: !!document.querySelector('.hand-tiles .tile.drawn.playable'),
  };
}"""


@dataclass
class Person:
    """One browser context (its own cookie jar, so its own guest identity) and page."""

    context: Any
    page: Any
    base: str
    frames: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def table_frames(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") in ("welcome", "event", "view", "decision")]

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The events of type ``kind`` the page received, in order."""
        return [
            f["event"]
            for f in self.frames
            if f.get("type") == "event" and (f.get("event") or {}).get("type") == kind
        ]


# The table's "Auto" toggles (web/js/autoplay.js), all off: a clicking player makes
# every decision itself (after riichi too), so nothing races its clicks.
_NO_AUTO_JS = """() => localStorage.setItem('jantaku.auto', JSON.stringify(
  {riichiDiscard: false, win: false, noCalls: false, tsumogiri: false}))"""


def no_auto(page: Any) -> None:
    page.evaluate(_NO_AUTO_JS)


def open_person(
    browser: Any,
    base: str,
    name: str,
    viewport: dict[str, int] = DESKTOP,
    *,
    auto: bool = False,
) -> Person:
    """A new guest on the home page; ``auto`` keeps the table's default Auto toggles."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    person = Person(context, page, base)

    def on_ws(ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            if isinstance(payload, str):
                # a step frame as the event and decision frames it stands for
                person.frames.extend(expand(json.loads(payload), None))

        ws.on("framereceived", received)

    page.on("websocket", on_ws)
    page.on("request", lambda r: person.requests.append(r.url))
    page.on("pageerror", lambda e: person.errors.append(str(e)))
    page.goto(base + "/")
    if not auto:
        no_auto(page)
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("save-name").click()
    page.get_by_test_id("create-form").wait_for()
    return person


def create_lobby(
    page: Any, *, length: str = "tonpuu", timer: bool = False, preset: str | None = None
) -> str:
    """Fill the home page's create form; returns the lobby code. ``length`` is riichi's
    (``tonpuu``/``hanchan``) or, for a Nanchang preset, the rounds (``"1"``..``"4"``)."""
    if preset is not None:
        page.select_option("select[name=preset]", preset)
    name = "rounds" if preset is not None and preset.startswith("nanchang") else "length"
    page.select_option(f"select[name={name}]", length)
    page.select_option("select[name=timer]", "on" if timer else "off")
    page.get_by_test_id("create").click()
    page.get_by_test_id("slots").wait_for()
    code: str = page.get_by_test_id("lobby-code").inner_text()
    return code


def add_bots(page: Any, slots: list[int]) -> None:
    for s in slots:
        page.get_by_test_id(f"add-bot-{s}").click()
        page.locator(f".slot[data-slot='{s}'].bot").wait_for()


def table_state(page: Any) -> dict[str, Any] | None:
    state: dict[str, Any] | None = page.evaluate(_STATE_JS)
    return state


def import_log(context: Any, base: str, path: Path, name: str | None = None) -> int:
    """Import the log file at ``path`` (as ``name``, default its own) through the HTTP
    route, as the browser context's guest; the new game's id."""
    resp = context.request.post(
        f"{base}/api/games/import?filename={name or path.name}",
        data=path.read_bytes(),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert resp.ok, resp.text()
    game_id: int = resp.json()["id"]
    return game_id


def at_final(page: Any) -> bool:
    """The final standings are up."""
    st = table_state(page)
    return bool(st and st["overlay"] == "final")


def start_and_play_to_final(page: Any, deadline_s: float) -> int:
    """Start the lobby on the page, play our seat to the final standings; the game id."""
    page.get_by_test_id("start").click()
    page.locator(".hand-tiles .tile").first.wait_for()
    page.wait_for_function("() => /^#\\/game\\/\\d+$/.test(location.hash)")
    game_id = int(page.evaluate("location.hash").rsplit("/", 1)[1])
    play_until([page], lambda: at_final(page), Stats(), deadline_s=deadline_s)
    return game_id


def wait_version_change(page: Any, version: str, timeout: float = 15000) -> None:
    """Wait until the server answered our last action: a new version, a result card, or
    a fresh view at the same version (a pass while another seat still decides)."""
    page.wait_for_function(
        """(v) => {
          const s = document.querySelector('.table-screen');
          const ov = document.querySelector('[data-testid=overlay]');
          return (s && (s.dataset.version !== v || s.dataset.busy === 'false')) || !!ov;
        }""",
        arg=version,
        timeout=timeout,
    )


@dataclass
class Stats:
    """What a clicking player did. With ``calls`` it also takes pon and chi (the
    first option) instead of passing; with ``frames`` (the page's received frames)
    every screen it acts on is checked against the server's legal actions."""

    actions: dict[str, int] = field(default_factory=dict)
    discards: int = 0
    results: list[str] = field(default_factory=list)
    calls: bool = False
    frames: list[dict[str, Any]] | None = None
    checked: int = 0
    # Discard towards tenpai (lowest shanten after the discard) instead of tsumogiri,
    # so that riichi, tsumo and ron come up on the real server.
    smart: bool = False

    def count(self, kind: str) -> None:
        self.actions[kind] = self.actions.get(kind, 0) + 1


# How long one click waits for its target (ms). The game may move on between reading
# the state and clicking, without us: a bot's ron on the discard we could chi or pass
# on ends the call window, and a result card replaces our buttons. A target gone by
# then is not waited on (the game now waits for us elsewhere): the state is read again.
CLICK_MS = 3000
# How long a target may stay on an unchanged table and still refuse clicks (s): then
# the page is broken (covered, disabled, detached on every frame), a person could not
# click it either, and the test fails saying so.
STUCK_S = 30


def click_on(page: Any, st: dict[str, Any], selector: str) -> bool:
    """Click ``selector`` on the table as read in ``st`` (matched only on a screen at
    ``st``'s version and not busy, re-resolved at every try). False when the table
    moved on before the click could land: the caller reads the state again."""
    target = page.locator(
        f".table-screen[data-version='{st['version']}'][data-busy='false'] {selector}"
    ).first
    return _click(page, target, selector, st, lambda now: now == st)


def _click(page: Any, target: Any, what: str, st: Any, still: Any) -> bool:
    """Click ``target`` while ``still(table_state)`` holds; False once it does not."""
    end = time.monotonic() + STUCK_S
    while True:
        try:
            target.click(timeout=CLICK_MS)
            return True
        except PlaywrightTimeoutError as e:
            if not still(table_state(page)):
                return False
            if time.monotonic() > end:
                raise AssertionError(
                    f"{what!r} stayed on an unchanged table for {STUCK_S}s "
                    f"but could not be clicked: {st}"
                ) from e


def _result_card(st: dict[str, Any] | None) -> bool:
    return bool(st and st["overlay"] in ("agari", "ryuukyoku"))


def step(page: Any, stats: Stats, on_result: Any = None, *, wait_round: bool = True) -> str:
    """Make this seat's next decision by clicking, if it has one (``wait_round``: after
    continuing from a result card, wait for the next round; with several people at the
    table it starts only once all of them continued, so their loop must not wait).

    Policy: win when offered (tsumo, ron), declare riichi when offered (then pick
    the first allowed tile), pass on calls, otherwise discard the drawn tile (or the
    first allowed tile). Returns what happened: "final", "result", "acted" or "idle"
    (nothing to do, or the table moved on before a click landed: read it again).
    """
    st = table_state(page)
    if st is None:
        return "idle"
    if st["overlay"] == "final":
        return "final"
    if _result_card(st):
        if on_result:
            on_result(page, st["overlay"])
        stats.results.append(st["overlay"])
        version = st["version"]
        # The card is the same one while it is up, whatever version the table moved
        # to under it (the game's end comes with the last round's result). Not clicked:
        # the card went before the click could land (the round moved on without us).
        button = page.locator("[data-testid=overlay] [data-testid=continue]")
        if not _click(page, button, "continue", st, _result_card) or not wait_round:
            return "result"
        # The next round's first view (or the standings) replaces the card; or the next
        # round's own result already does (bots can end it before our first turn).
        page.wait_for_function(
            """([v, at]) => {
              const card = document.querySelector('[data-testid=overlay] .overlay-card');
              const s = document.querySelector('.table-screen');
              if (card) return card.dataset.kind === 'final' || (card.dataset.at || null) !== at;
              return !!s && s.dataset.version !== v;
            }""",
            arg=[version, st["overlayAt"]],
            timeout=20000,
        )
        return "result"
    acts = st["actions"]
    version = st["version"]
    if stats.frames is not None and (acts or st["playable"]):
        check_against_server(page, st, stats)
    # Wins first; a sanma north is always set aside when it may be (nukidora).
    for kind in ("tsumo", "ron", "nuki"):
        if kind in acts:
            if not click_on(page, st, f".action-btn[data-action='{kind}']"):
                return "idle"
            stats.count(kind)
            wait_version_change(page, version)
            return "acted"
    if "riichi" in acts:
        if not click_on(page, st, ".action-btn[data-action='riichi']"):
            return "idle"
        # The riichi tiles to choose from (a new state: the choice is a mode of the page).
        chosen = table_state(page)
        if chosen is None or not click_on(page, chosen, ".hand-tiles .tile.playable"):
            return "idle"
        stats.count("riichi")
        wait_version_change(page, version)
        return "acted"
    for kind in ("pon", "chi") if stats.calls else ():
        if kind in acts:
            if not click_on(page, st, f".action-btn[data-action='{kind}']"):
                return "idle"
            # Several ways to call open a choice; take the first.
            option = page.locator(f".action-btn[data-action='option-{kind}']")
            if option.count():
                choice = table_state(page)
                if choice is None or not click_on(
                    page, choice, f".action-btn[data-action='option-{kind}']"
                ):
                    return "idle"
            stats.count(kind)
            wait_version_change(page, version)
            return "acted"
    if "pass" in acts:
        if not click_on(page, st, ".action-btn[data-action='pass']"):
            return "idle"
        stats.count("pass")
        wait_version_change(page, version)
        return "acted"
    if st["playable"]:
        if stats.smart:
            hand = page.locator(".hand-tiles .tile").evaluate_all(
                "(ts) => ts.map((t) => t.dataset.tile)"
            )
            index = best_discard(hand, st["playable"])
            tile = f".hand-tiles .tile.playable[data-index='{index}']"
        elif st["drawnPlayable"]:
            tile = ".hand-tiles .tile.drawn.playable"
        else:
            tile = ".hand-tiles .tile.playable"
        if not click_on(page, st, tile):
            return "idle"
        stats.discards += 1
        wait_version_change(page, version)
        return "acted"
    return "idle"


def play_until(
    pages: list[Any], stop: Any, stats: Stats, deadline_s: float = 240, on_result: Any = None
) -> None:
    """Step every page in turn until stop() is true; fails after deadline_s seconds."""
    end = time.monotonic() + deadline_s
    while not stop():
        if time.monotonic() > end:
            shown = [table_state(p) for p in pages]
            raise AssertionError(
                f"game did not reach the goal in {deadline_s}s: {stats}; the tables show {shown}"
            )
        moved = False
        for p in pages:
            if stop():
                return
            r = step(p, stats, on_result)
            moved = moved or r != "idle"
        if not moved:
            time.sleep(0.03)


def check_against_server(page: Any, st: dict[str, Any], stats: Stats) -> None:
    """The buttons and the clickable/greyed tiles are exactly the view's legal actions."""
    assert stats.frames is not None
    # the seat's decision as told at the version the page shows (protocol 2: a view, or
    # a decision frame when it changed)
    told = [
        f
        for f in stats.frames
        if (f.get("type") == "view" or (f.get("type") == "decision" and "legal" in f))
        and str(f["version"]) == st["version"]
    ]
    if not told:
        return
    last = told[-1]
    legal = (
        last["view"]["legal_actions"]
        if last["type"] == "view"
        else expand_runs(last["legal"], None)
    )
    kinds = {a["type"] for a in legal} - {"discard"}
    assert set(st["actions"]) == kinds, (st["actions"], legal)
    discards = {a["tile"] for a in legal if a["type"] == "discard"}
    assert set(st["playable"]) == discards, (st["playable"], legal)
    forbidden: list[str] = page.locator(".hand-tiles .tile.forbidden").evaluate_all(
        "(ts) => ts.map((t) => t.dataset.tile)"
    )
    if discards:
        hand: list[str] = page.locator(".hand-tiles .tile").evaluate_all(
            "(ts) => ts.map((t) => t.dataset.tile)"
        )
        assert sorted(forbidden) == sorted(x for x in hand if x not in discards)
    else:
        assert forbidden == []
    stats.checked += 1


def best_discard(hand: list[str], playable: list[str]) -> int:
    """Index in the shown hand of the allowed discard leaving the lowest shanten
    (the drawn tile, shown last, wins ties)."""
    from server.engine.riichi.shanten import shanten
    from server.engine.tiles import counts, parse_tile

    tiles = [parse_tile(x) for x in hand]
    best: tuple[int, int] | None = None
    for i in reversed(range(len(hand))):
        if hand[i] not in playable:
            continue
        rest = tiles[:i] + tiles[i + 1 :]
        score = (shanten(counts(rest)), -i)
        if best is None or score[0] < best[0]:
            best = score
    assert best is not None
    return -best[1]


def lobby_with_outside_bot(page: Any, base: str, level: str, hint: str) -> None:
    """A lobby of ``SHORT`` rules, not started: ``level`` (an external or remote bot)
    picked by its name in the picker, its ``hint`` shown, at slot 1; ours at 2 and 3."""
    from tests.short_game import SHORT

    r = page.request.post(f"{base}/api/lobbies", data={"rules": SHORT})
    assert r.ok, r.text()
    page.goto(f"{base}/#/lobby/{r.json()['code']}")
    page.get_by_test_id("slots").wait_for()
    picker = page.get_by_test_id("bot-level")
    assert level in picker.locator("option").all_inner_texts()
    picker.select_option(level)
    assert hint in page.get_by_test_id("bot-hint").inner_text()
    add_bots(page, [1])
    assert level in page.locator(".slot[data-slot='1']").inner_text()
    page.get_by_test_id("bot-level").select_option("efficient")
    add_bots(page, [2, 3])
