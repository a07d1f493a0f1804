"""web/js/wall.js against the engines' physical walls: for positions of self-play games
(riichi, sanma, Nanchang), the stacks the client draws from a seat's view are, stack by
stack, the ones the engine still holds: tiles left, face-up indicators, dead wall and
the break, placed by the engines' own ``stack_order``. Run in Node."""

from __future__ import annotations

import random
from typing import Any

from server.engine import nanchang
from server.engine import riichi as engine
from server.engine.actions import ActionType
from server.engine.nanchang import wall as nc_wall
from server.engine.riichi.rules import preset
from server.engine.riichi.wall import stack_order
from server.engine.tiles import tile_str
from server.wire import nanchang as nc_wire
from server.wire.riichi import seat_views
from tests.web.foldkit import run_client

Stacks = list[list[list[Any]]]
KANS = {ActionType.ANKAN, ActionType.KAKAN, ActionType.DAIMINKAN}


def models(views: list[dict[str, Any]]) -> list[Stacks | None]:
    got: list[Stacks | None] = run_client(
        "wall_model.mjs", ("wall.js", "seats.js", "i18n.js", "tilenames.js"), views
    )
    return got


def physical(walls: int, per: int, order: list[int], present: Any, face: Any, dead: Any) -> Stacks:
    """[wall][stack from its right end] = [count, face-up tile, dead, first after the break]."""
    out: Stacks = [[[] for _ in range(per)] for _ in range(walls)]
    for k, stack in enumerate(order):
        top, bottom = 2 * k, 2 * k + 1
        count = present(top) + present(bottom)
        out[stack // per][stack % per] = [
            count,
            face(top) if present(top) else None,
            count > 0 and dead(top),
            k == 0,
        ]
    return out


def riichi_expected(st: engine.GameState) -> Stacks:
    layout = st.wall.layout
    rinshan = set(layout.rinshan_pos[: st.rinshan_drawn])
    faces = {p: tile_str(t) for p, t in zip(layout.dora_pos, st.dora_indicators(), strict=False)}
    live_end = st.dead_start - st.replaced
    return physical(
        layout.walls,
        layout.stacks_per_wall,
        stack_order(st.dealer, sum(st.wall.dice), layout),
        lambda p: int(p >= st.draw_pos and p not in rinshan),
        faces.get,
        lambda p: p >= live_end,
    )


def nanchang_expected(g: Any) -> Stacks:
    w = g.wall
    live = set(g.live)
    indicator = tile_str(w.indicator)
    return physical(
        4,
        nc_wall.STACKS_PER_WALL,
        nc_wall.stack_order(w.second_roller, w.break_count),
        lambda p: int(p in live),
        lambda p: indicator if p == w.indicator_pos else None,
        lambda p: False,
    )


def test_riichi_and_sanma_walls_match_the_engine() -> None:
    views: list[dict[str, Any]] = []
    want: list[Stacks] = []
    kans = dora = 0
    # (a hanchan whose kans turn up to three indicators; a sanma game pulling norths)
    games = (("standard", b"wm2", "hanchan"), ("tenhou-sanma", b"wall-model-3", "tonpuu"))
    for name, seed, length in games:
        rng = random.Random(seed)
        st = engine.new_game(preset(name).with_overrides(length=length), seed)
        for i in range(2500):
            if st.phase == "game_end":
                break
            if st.phase == "round_end":
                engine.next_round(st)
                continue
            if i % 7 == 0 or st.rinshan_drawn or st.dora_count > 1:
                views.append(seat_views(st, [i % st.n])[0])
                want.append(riichi_expected(st))
                kans = max(kans, st.rinshan_drawn)
            seat = min(engine.waiting_on(st))
            acts = engine.legal_actions(st, seat)
            # every kan offered is made, so that kan dora turn and rinshan draws come often
            kan = [a for a in acts if a.type in KANS]
            engine.apply(st, kan[0] if kan else rng.choice(acts))
            dora = max(dora, st.dora_count)
    assert kans >= 2 and dora >= 3 and len(views) > 300
    got = models(views)
    assert [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w] == []


def test_nanchang_wall_matches_the_engine() -> None:
    rng = random.Random(5)
    g = nanchang.new_game(nanchang.preset("nanchang"), b"wall-model-nc")
    views: list[dict[str, Any]] = []
    want: list[Stacks] = []
    tails = 0
    for i in range(6000):
        if g.phase == "game_end":
            break
        if g.phase == "round_end":
            nanchang.next_round(g)
            continue
        if i % 5 == 0 or g.kans:
            views.append(nc_wire.seat_views(g, [i % 4])[0])
            want.append(nanchang_expected(g))
            tails = max(tails, len(g.kans))
        nanchang.apply(g, rng.choice(nanchang.legal_actions(g, min(nanchang.waiting_on(g)))))
    assert tails >= 1 and len(views) > 300
    got = models(views)
    assert [i for i, (x, w) in enumerate(zip(got, want, strict=True)) if x != w] == []
