"""web/js/announce.js on real frames: in self-play games of each variant, as a seat
receives them over protocol 2, every call, kan, north, riichi declaration and win is
announced once, for the right seat, and nothing else is (run in Node)."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import find_variant
from server.tables.steps import expand
from tests.web.foldkit import run_client, self_play

GAMES = [
    ("riichi", "tenhou", {"length": "tonpuu"}, b"seeda"),
    ("sanma", "tenhou-sanma", {"length": "tonpuu"}, b"fold-sanma"),
    ("nanchang", "nanchang-east", {}, b"fold-nanchang"),
]
MELD_CALL = {"chi": "chi", "pon": "pon", "daiminkan": "kan", "minkan": "kan"}
MELD_CALL |= {"ankan": "kan", "kakan": "kan"}


def expected(ev: dict[str, Any]) -> list[dict[str, Any]]:
    """What a table says for an event, read from the event's documented fields."""
    kind = ev["type"]
    meld = ev.get("meld")
    if meld in MELD_CALL and kind in ("call", "kan", meld):
        return [{"seat": ev["seat"], "call": MELD_CALL[meld]}]
    if kind == "discard" and ev.get("riichi"):
        return [{"seat": ev["seat"], "call": "riichi"}]
    if kind == "nuki":
        return [{"seat": ev["seat"], "call": "nuki"}]
    if kind == "agari":
        return [
            {"seat": w["seat"], "call": "tsumo" if w["from_seat"] is None else "ron"}
            for w in ev["winners"]
        ]
    if kind == "win":
        w = ev["win"]
        return [{"seat": w["seat"], "call": "zimo" if w["from_seat"] is None else "hu"}]
    return []


def calls_in_node(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    said: list[list[dict[str, Any]]] = run_client(
        "feel_calls.mjs", ("announce.js", "i18n.js", "seats.js"), events
    )
    return said


@pytest.mark.parametrize(("variant", "preset", "overrides", "seed"), GAMES)
async def test_every_call_and_win_of_a_game_is_announced_at_its_seat(
    variant: str, preset: str, overrides: dict[str, Any], seed: bytes
) -> None:
    v = find_variant(variant)
    conns = await self_play(v, v.options({"preset": preset, **overrides}), seed)
    seat = conns[0]["seat"]
    frames = [
        f
        for top in conns[0]["frames"]
        for sent in (top["messages"] if top["type"] == "batch" else [top])
        for f in expand(sent, seat)  # step frames: their events (server/tables/steps.py)
    ]
    events = [f["event"] for f in frames if f["type"] == "event" and f.get("event")]
    said = calls_in_node(events)
    assert said == [expected(e) for e in events]
    kinds = {a["call"] for calls in said for a in calls}
    # the games are chosen so that calls and wins come up
    assert {"pon", "kan"} <= kinds
    assert kinds & {"ron", "tsumo", "hu", "zimo"}
    if variant == "sanma":
        assert "nuki" in kinds
    if variant != "nanchang":
        assert "riichi" in kinds
