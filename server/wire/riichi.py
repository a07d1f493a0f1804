"""Riichi on the wire: events, observations (views), rules and results as JSON.

The one place where riichi values become JSON-able dicts with tile strings
("5p", "0p" for the red five, "1z".."7z"); shapes in docs/engine.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from server.engine.events import Event, Standing
from server.engine.melds import Meld
from server.engine.riichi.events import (
    Agari,
    Call,
    Discard,
    Draw,
    GameEnd,
    GameStart,
    Haipai,
    Kan,
    NewDora,
    Nuki,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Ryuukyoku,
    Winner,
)
from server.engine.riichi.hints import Hints, hints
from server.engine.riichi.legal import legal
from server.engine.riichi.observe import Observation, SeatInfo, observations
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.state import GameState
from server.engine.riichi.win import WinResult
from server.engine.tiles import EAST, Tile, sort_key, tile_str
from server.wire.actions import action_json, legal_runs

WIND_NAMES = "ESWN"
_TSTR = [tile_str(t) for t in range(37)]
_SORT = [sort_key(t) for t in range(37)]


def tiles_json(tiles: Sequence[Tile]) -> list[str]:
    return [_TSTR[t] for t in tiles]


def meld_json(m: Meld) -> dict[str, Any]:
    return {
        "type": m.type.value,
        "tiles": [_TSTR[t] for t in m.tiles],
        "called": _TSTR[m.called] if m.called is not None else None,
        "from_seat": m.from_seat,
    }


def hand_json(r: WinResult) -> dict[str, Any]:
    """Yaku, han, fu, limit and dora counts (shared by the score API and events)."""
    return {
        "yaku": [{"id": y, "han": h} for y, h in r.yaku],
        "yakuman": [{"id": y, "multiplier": m} for y, m in r.yakuman],
        "han": r.han,
        "fu": r.fu,
        "limit": r.limit,
        "dora": r.dora,
        "aka": r.aka,
        "ura": r.ura,
        "nuki": r.nuki,
    }


_RULES_JSON: dict[RuleSet, dict[str, Any]] = {}


def rules_json(rules: RuleSet) -> dict[str, Any]:
    """Every option of the rules by name (a fresh dict)."""
    hit = _RULES_JSON.get(rules)
    if hit is None:
        if len(_RULES_JSON) > 1000:  # rule sets are a handful; a cap anyway
            _RULES_JSON.clear()
        hit = _RULES_JSON[rules] = rules.to_dict()
    return {**hit, "uma": list(hit["uma"])}  # no caller may change the cached copy


def standing_json(f: Standing) -> dict[str, Any]:
    return {"seat": f.seat, "points": f.points, "rank": f.rank, "score": f.score}


def winner_json(w: Winner) -> dict[str, Any]:
    r = w.result
    return {
        "seat": w.seat,
        "from_seat": w.from_seat,
        "hand": tiles_json(w.hand),
        "melds": [meld_json(m) for m in w.melds],
        "win_tile": _TSTR[w.win_tile],
        **hand_json(r),
        "points": w.points,
        "payments": dict(r.payments),
        "pao": w.pao,
        "deltas": list(w.deltas),
        # what this win was paid for the honba and the riichi sticks on the table
        "honba": w.honba,
        "honba_points": 100 * (len(w.deltas) - 1) * w.honba,
        "riichi_sticks": w.riichi_sticks,
        "stick_points": 1000 * w.riichi_sticks,
    }


def _game_start(e: GameStart) -> dict[str, Any]:
    return {"rules": rules_json(e.rules), "first_dealer": e.first_dealer, "scores": list(e.scores)}


def _round_start(e: RoundStart) -> dict[str, Any]:
    return {
        "round_wind": WIND_NAMES[e.round_wind],
        "kyoku": e.kyoku + 1,
        "honba": e.honba,
        "riichi_sticks": e.riichi_sticks,
        "scores": list(e.scores),
        "dealer": e.dealer,
        "dice": list(e.dice),
        "dora_indicators": tiles_json(e.dora_indicators),
        "wall_left": e.wall_left,
        "round_index": e.round_index,
    }


def _haipai(e: Haipai) -> dict[str, Any]:
    return {"seat": e.seat, "tiles": tiles_json(e.tiles) if e.tiles is not None else None}


def _draw(e: Draw) -> dict[str, Any]:
    return {
        "seat": e.seat,
        "tile": _TSTR[e.tile] if e.tile is not None else None,
        "rinshan": e.rinshan,
        "wall_left": e.wall_left,
    }


def _discard(e: Discard) -> dict[str, Any]:
    return {"seat": e.seat, "tile": _TSTR[e.tile], "tsumogiri": e.tsumogiri, "riichi": e.riichi}


def _call(e: Call) -> dict[str, Any]:
    m = e.meld
    return {
        "seat": e.seat,
        "meld": m.type.value,
        "tiles": tiles_json(m.tiles),
        "called": _TSTR[m.called] if m.called is not None else None,
        "from_seat": m.from_seat,
    }


def _kan(e: Kan) -> dict[str, Any]:
    return {
        "seat": e.seat,
        "meld": e.meld.type.value,
        "tiles": tiles_json(e.meld.tiles),
        "added": _TSTR[e.added] if e.added is not None else None,
    }


def _nuki(e: Nuki) -> dict[str, Any]:
    return {"seat": e.seat, "tile": _TSTR[e.tile]}


def _new_dora(e: NewDora) -> dict[str, Any]:
    return {"indicator": _TSTR[e.indicator], "dora_indicators": tiles_json(e.dora_indicators)}


def _riichi_accepted(e: RiichiAccepted) -> dict[str, Any]:
    return {
        "seat": e.seat,
        "double": e.double,
        "scores": list(e.scores),
        "riichi_sticks": e.riichi_sticks,
    }


def _agari(e: Agari) -> dict[str, Any]:
    return {
        "winners": [winner_json(w) for w in e.winners],
        "dora_indicators": tiles_json(e.dora_indicators),
        "ura_indicators": tiles_json(e.ura_indicators),
        "deltas": list(e.deltas),
        "scores": list(e.scores),
        "honba": e.honba,
        "riichi_sticks": e.riichi_sticks,
    }


def _ryuukyoku(e: Ryuukyoku) -> dict[str, Any]:
    return {
        "reason": e.reason,
        "tenpai": list(e.tenpai),
        "hands": {str(s): tiles_json(h) for s, h in e.hands},
        "nagashi": list(e.nagashi),
        "deltas": list(e.deltas),
        "scores": list(e.scores),
        "honba": e.honba,
        "riichi_sticks": e.riichi_sticks,
    }


def _round_end(e: RoundEnd) -> dict[str, Any]:
    nxt = e.next
    return {
        "scores": list(e.scores),
        "next": {
            "round_wind": WIND_NAMES[nxt.round_wind],
            "kyoku": nxt.kyoku + 1,
            "honba": nxt.honba,
            "dealer": nxt.dealer,
        }
        if nxt is not None
        else None,
    }


def _game_end(e: GameEnd) -> dict[str, Any]:
    return {
        "final": [standing_json(f) for f in e.final],
        "scores": list(e.scores),
        "riichi_sticks_to_first": e.riichi_sticks_to_first,
        "seed": e.seed.hex(),
        "reason": e.reason,
    }


_ENCODERS: dict[type[Event], Callable[[Any], dict[str, Any]]] = {
    GameStart: _game_start,
    RoundStart: _round_start,
    Haipai: _haipai,
    Draw: _draw,
    Discard: _discard,
    Call: _call,
    Kan: _kan,
    Nuki: _nuki,
    NewDora: _new_dora,
    RiichiAccepted: _riichi_accepted,
    Agari: _agari,
    Ryuukyoku: _ryuukyoku,
    RoundEnd: _round_end,
    GameEnd: _game_end,
}


def event_data(e: Event) -> dict[str, Any]:
    """An event's fields as JSON (without its type)."""
    return _ENCODERS[type(e)](e)


def event_json(e: Event) -> dict[str, Any]:
    """``{"type": ..., **fields}``: an event as the protocol and records carry it."""
    return {"type": e.type, **_ENCODERS[type(e)](e)}


# --- views --------------------------------------------------------------------


def _player_json(p: SeatInfo) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "wind": WIND_NAMES[p.wind - EAST],
        "score": p.score,
        "riichi": p.riichi,
        "hand": None,
        "drawn": None,
        "hand_count": p.hand_count,
        "melds": [meld_json(m) for m in p.melds],
        "nuki": p.nuki,
        "river": [
            {
                "tile": _TSTR[d.tile],
                "tsumogiri": d.tsumogiri,
                "riichi": d.riichi,
                "called": d.called,
            }
            for d in p.river
        ],
    }


def hints_json(h: Hints) -> dict[str, Any]:
    return {
        "shanten": h.shanten,
        "waits": [{"tile": _TSTR[w.kind], "left": w.left, "yaku": w.yaku} for w in h.waits],
        "furiten": h.furiten,
    }


def views_json(
    observations: Sequence[Observation], hints: Sequence[Hints | None] | None = None
) -> list[dict[str, Any]]:
    """Each observation as a view (shape in docs/engine.md), with its seat's hints.

    Observations of one moment share their public parts, and so do the views:
    they are for encoding, not for changing.
    """
    out: list[dict[str, Any]] = []
    cache: dict[int, tuple[Any, ...]] = {}
    for i, obs in enumerate(observations):
        key = id(obs.players)
        shared = cache.get(key)
        if shared is None:
            result = event_data(obs.result) if obs.result is not None else None
            shared = cache[key] = (
                [_player_json(p) for p in obs.players],
                rules_json(obs.rules),
                {
                    "wind": WIND_NAMES[obs.round_wind],
                    "kyoku": obs.kyoku + 1,
                    "honba": obs.honba,
                    "riichi_sticks": obs.riichi_sticks,
                    "dealer": obs.dealer,
                    "dice": list(obs.dice),
                },
                list(obs.scores),
                tiles_json(obs.dora_indicators),
                {"seat": obs.last_discard[0], "tile": _TSTR[obs.last_discard[1]]}
                if obs.last_discard is not None
                else None,
                result,
                [standing_json(f) for f in obs.final] if obs.final is not None else None,
                {"drawn": obs.wall_drawn, "rinshan": obs.rinshan_drawn},
            )
        public, rules, round_json, scores, dora, last, result, final, wall = shared
        players = public
        seat = obs.seat
        if seat is not None:
            players = list(public)
            own = dict(public[seat])
            own["hand"] = tiles_json(sorted(obs.hand, key=_SORT.__getitem__))
            own["drawn"] = _TSTR[obs.drawn] if obs.drawn is not None else None
            players[seat] = own
        # whose turn it is is public; who may call a discard is not: a seat learns
        # only whether it must answer itself
        waiting = [obs.turn] if obs.in_turn else [seat] if obs.to_act and seat is not None else []
        h = hints[i] if hints is not None else None
        out.append(
            {
                "seat": seat,
                "phase": obs.phase,
                "rules": rules,
                "round": round_json,
                "scores": scores,
                "dora_indicators": dora,
                "wall_left": obs.wall_left,
                "wall": wall,
                "turn": obs.turn,
                "waiting_on": waiting,
                "last_discard": last,
                "players": players,
                "legal_actions": [action_json(a) for a in obs.legal],
                "help": hints_json(h) if h is not None else None,
                "result": result,
                "final": final,
            }
        )
    return out


def view_json(obs: Observation, hints: Hints | None = None) -> dict[str, Any]:
    return views_json([obs], [hints])[0]


def seat_views(st: GameState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views a table sends: each seat's observation with its hints while playing."""
    obs = observations(st, seats)
    playing = st.phase == "play"
    return views_json(obs, [hints(st, s) if s is not None and playing else None for s in seats])


def seat_decision(st: GameState, seat: int) -> dict[str, Any]:
    """What a seat's view says of its own decision now: its legal actions and its hints
    (the fields of ``seat_views`` that no event carries; docs/protocol.md, "Frames")."""
    h = hints(st, seat) if st.phase == "play" else None
    return {"legal": legal_runs(legal(st, seat)), "help": hints_json(h) if h is not None else None}
