"""Nanchang on the wire: events, observations (views) and options as JSON.

Tiles are notation strings as everywhere (``"5p"``, ``"1z"``..``"7z"``); Nanchang
has no red fives. Shapes in docs/protocol.md ("Nanchang").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from server.engine.events import Event, Standing
from server.engine.nanchang.events import (
    Called,
    Dealt,
    Discarded,
    Drew,
    GameEnded,
    GameStarted,
    JokerRevealed,
    Kanned,
    RoundEnded,
    RoundStarted,
    WallExhausted,
    Won,
)
from server.engine.nanchang.legal import legal_actions
from server.engine.nanchang.melds import Meld, RiverTile
from server.engine.nanchang.observation import NanchangObservation, observe
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.scoring import Element, WinScore
from server.engine.nanchang.settlement import JokerBonus, KanPoints, RoundResult, WinRecord
from server.engine.nanchang.state import NanchangGame
from server.engine.tiles import tile_str
from server.wire.actions import action_json, legal_runs

_TSTR = [tile_str(t) for t in range(34)]
WIND_NAMES = "ESWN"


def _tiles(ts: Sequence[int]) -> list[str]:
    return [_TSTR[t] for t in ts]


def _tile(t: int | None) -> str | None:
    return _TSTR[t] if t is not None else None


def options_json(o: NanchangOptions) -> dict[str, Any]:
    return o.to_dict()


def meld_json(m: Meld) -> dict[str, Any]:
    return {
        "type": m.type,
        "tiles": _tiles(m.tiles),
        "called": _tile(m.called),
        "from_seat": m.from_seat,
        "added": _tile(m.added),
    }


def _element(e: Element) -> dict[str, Any]:
    return {"id": e.id, "factor": e.factor, "points": e.points}


def _score(s: WinScore) -> dict[str, Any]:
    return {
        "shape": s.shape,
        "elements": [_element(e) for e in s.elements],
        "payer_elements": [_element(e) for e in s.payer_elements],
        "base": s.base,
        "bonus": s.bonus,
        "flat": s.flat,
        "payments": list(s.payments),
        "total": s.total,
    }


def _win(w: WinRecord) -> dict[str, Any]:
    return {
        "seat": w.seat,
        "from_seat": w.from_seat,
        "win_tile": _tile(w.tile),
        "hand": _tiles(w.hand),
        "melds": [meld_json(m) for m in w.melds],
        "score": _score(w.score),
    }


def _joker_bonus(b: JokerBonus) -> dict[str, Any]:
    return {
        "seat": b.seat,
        "zheng": b.zheng,
        "fu": b.fu,
        "points": b.points,
        "value": b.value,
        "chongguan": b.chongguan,
        "bawang": b.bawang,
        "payer": b.payer,
        "deltas": list(b.deltas),
    }


def _kan_points(k: KanPoints) -> dict[str, Any]:
    return {
        "seat": k.seat,
        "tile": _TSTR[k.tile],
        "meld": k.type,
        "joker": k.joker,
        "points": k.points,
        "deltas": list(k.deltas),
    }


def result_json(r: RoundResult) -> dict[str, Any]:
    return {
        "round_index": r.round_index,
        "round_wind": WIND_NAMES[r.round_wind],
        "hand_number": r.hand_number + 1,
        "dealer": r.dealer,
        "repeat": r.repeat,
        "kind": r.kind,
        "win": _win(r.win) if r.win is not None else None,
        "hands": [_tiles(h) for h in r.hands],
        "joker_bonus": [_joker_bonus(b) for b in r.joker_bonus],
        "kans": [_kan_points(k) for k in r.kans],
        "deltas": list(r.deltas),
        "scores": list(r.scores),
        "dealer_keeps": r.dealer_keeps,
    }


def _standing(f: Standing) -> dict[str, Any]:
    return {"seat": f.seat, "points": f.points, "rank": f.rank, "score": f.score}


_ENCODERS: dict[type[Event], Callable[[Any], dict[str, Any]]] = {
    GameStarted: lambda e: {
        "rules": options_json(e.options),
        "roller": e.roller,
        "dice": list(e.dice) if e.dice is not None else None,
        "first_dealer": e.first_dealer,
    },
    RoundStarted: lambda e: {
        "round_index": e.round_index,
        "round_wind": WIND_NAMES[e.round_wind],
        "hand_number": e.hand_number + 1,
        "dealer": e.dealer,
        "repeat": e.repeat,
        "dice": list(e.break_dice),
        "second_roller": e.second_roller,
        "second_dice": list(e.second_dice),
        "scores": list(e.scores),
    },
    Dealt: lambda e: {
        "seat": e.seat,
        "tiles": _tiles(e.tiles) if e.tiles is not None else None,
        "count": e.count,
    },
    JokerRevealed: lambda e: {
        "dice": list(e.dice),
        "indicator": _TSTR[e.indicator],
        "zheng": _TSTR[e.zheng],
        "fu": _TSTR[e.fu],
    },
    Drew: lambda e: {
        "seat": e.seat,
        "tile": _tile(e.tile),
        "replacement": e.replacement,
        "shown": e.shown,
    },
    Discarded: lambda e: {"seat": e.seat, "tile": _TSTR[e.tile], "tsumogiri": e.tsumogiri},
    Called: lambda e: {"seat": e.seat, **meld_json(e.meld), "meld": e.meld.type},
    Kanned: lambda e: {"seat": e.seat, **meld_json(e.meld), "meld": e.meld.type},
    Won: lambda e: {"win": _win(e.win)},
    WallExhausted: lambda e: {},
    RoundEnded: lambda e: {"result": result_json(e.result)},
    GameEnded: lambda e: {"final": [_standing(f) for f in e.standings], "reason": e.reason},
}


def event_json(e: Event) -> dict[str, Any]:
    """``{"type": ..., **fields}``: a Nanchang event as the protocol and records carry it."""
    return {"type": e.type, **_ENCODERS[type(e)](e)}


def _river(r: RiverTile) -> dict[str, Any]:
    return {"tile": _TSTR[r.tile], "tsumogiri": r.tsumogiri, "called": r.called}


def view_json(obs: NanchangObservation) -> dict[str, Any]:
    """A seat's observation as its view (shape in docs/protocol.md)."""
    seat = obs.seat
    return {
        "variant": "nanchang",
        "seat": seat,
        "phase": obs.phase,
        "step": obs.step,
        "rules": options_json(obs.options),
        "round": {
            "index": obs.round_index,
            "wind": WIND_NAMES[obs.round_wind],
            "hand_number": obs.hand_number + 1,
            "dealer": obs.dealer,
            "repeat": obs.repeat,
        },
        "first_dealer": obs.first_dealer,
        "turn": obs.turn,
        "waiting_on": sorted(obs.waiting_on),
        "scores": list(obs.scores),
        "indicator": _TSTR[obs.indicator],
        "jokers": {"zheng": _TSTR[obs.jokers.zheng], "fu": _TSTR[obs.jokers.fu]},
        "wall_left": obs.wall_left,
        "wall": {
            "dice": list(obs.break_dice),
            "second_roller": obs.second_roller,
            "second_dice": list(obs.second_dice),
            "joker_dice": list(obs.joker_dice),
            "drawn": obs.wall_drawn,
            "rinshan": obs.rinshan_drawn,
        },
        "players": [
            {
                "seat": s,
                "hand": _tiles(obs.hand) if s == seat else None,
                "drawn": _tile(obs.drawn) if s == seat else None,
                "hand_count": obs.hand_sizes[s],
                "melds": [meld_json(m) for m in obs.melds[s]],
                "river": [_river(r) for r in obs.rivers[s]],
                "score": obs.scores[s],
            }
            for s in range(4)
        ],
        "last_discard": {"seat": obs.last_discard[0], "tile": _TSTR[obs.last_discard[1]]}
        if obs.last_discard is not None
        else None,
        "kakan": {"seat": obs.kakan[0], "tile": _TSTR[obs.kakan[1]]}
        if obs.kakan is not None
        else None,
        "legal_actions": [action_json(a) for a in obs.legal],
        "result": result_json(obs.last_result)
        if obs.last_result is not None and obs.phase != "play"
        else None,
        "final": [_standing(f) for f in obs.final] if obs.final is not None else None,
    }


def seat_views(g: NanchangGame, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views a table sends to ``seats`` (None: a spectator)."""
    return [view_json(observe(g, s)) for s in seats]


def seat_decision(g: NanchangGame, seat: int) -> dict[str, Any]:
    """What a seat's view says of its own decision now (docs/protocol.md, "Frames")."""
    return {"legal": legal_runs(legal_actions(g, seat))}
