"""web/js/fold.js against the server: a seat that folds its events (protocol 2) into the
view it got on connecting sees, after every step, exactly the view the server would
have sent it (protocol 1). Self-play games of each variant, every seat and a spectator,
folded in Node."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from server.engine import find_variant
from tests.web.foldkit import ROOT, client_modules, node, self_play

GAMES = [
    # (variant, preset, overrides, seed): games whose events include calls, kans (a
    # rinshan draw after each), riichi, nuki, robbed-kan windows and round ends
    ("riichi", "tenhou", {"length": "tonpuu"}, b"seeda"),
    ("riichi", "standard", {"length": "tonpuu"}, b"seedb"),
    ("sanma", "tenhou-sanma", {"length": "tonpuu"}, b"fold-sanma"),
    ("nanchang", "nanchang-east", {}, b"fold-nanchang"),
]


def fold_in_node(conns: list[dict[str, Any]], tmp: Path) -> dict[str, Any]:
    js = client_modules(tmp)
    data = tmp / "conns.json"
    data.write_text(json.dumps(conns))
    out = subprocess.run(
        [node(), str(ROOT / "tests" / "web" / "fold_check.mjs"), str(js), str(data)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


@pytest.mark.parametrize(("variant", "preset", "overrides", "seed"), GAMES)
async def test_folded_events_give_the_server_s_view_at_every_step(
    variant: str, preset: str, overrides: dict[str, Any], seed: bytes, tmp_path: Path
) -> None:
    v = find_variant(variant)
    rules = v.options({"preset": preset, **overrides})
    conns = await self_play(v, rules, seed)
    assert [c["seat"] for c in conns] == [*range(v.seats), None]
    steps = len(conns[0]["marks"])
    assert steps > 100
    # every seat got events and decisions, mostly merged into step frames; the spectator
    # no decision
    types = [{f["type"] for f in c["frames"]} for c in conns]
    assert all("step" in t for t in types)
    assert "decision" not in types[-1]
    spectator_steps = [f for f in conns[-1]["frames"] if f["type"] == "step"]
    assert all(set(f) == {"type", "version", "events"} for f in spectator_steps)
    seat_steps = [f for c in conns[:-1] for f in c["frames"] if f["type"] == "step"]
    assert any("legal" in f for f in seat_steps)
    result = fold_in_node(conns, tmp_path)
    assert result["mismatches"] == []
    # every step after the last connection came in (the first few marks precede it)
    assert result["checked"] >= (steps - len(conns) - 1) * len(conns)


async def test_a_fold_that_drops_something_is_caught(tmp_path: Path) -> None:
    """The check can fail: a game whose draws are withheld from the fold mismatches."""
    v = find_variant("riichi")
    conns = await self_play(v, v.options({"preset": "tenhou", "length": "tonpuu"}), b"seedb")

    def no_draw(e: Any) -> Any:
        return None if e and e["type"] == "draw" else e

    for c in conns:
        c["frames"] = [
            {"type": "event", "version": f["version"]}
            if f["type"] == "event" and f["event"]["type"] == "draw"
            else {**f, "events": [no_draw(e) for e in f["events"]]}
            if f["type"] == "step"
            else f
            for f in c["frames"]
        ]
    result = fold_in_node(conns, tmp_path)
    assert any(m["path"] == "view.wall_left" for m in result["mismatches"])
