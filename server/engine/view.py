"""What one seat (or a spectator) may see of a game: never another seat's concealed tiles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from server.engine.actions import Action
from server.engine.rules import RuleSet
from server.engine.scoring import ScoreError, score_hand
from server.engine.shanten import shanten
from server.engine.tiles import NUM_KINDS, RED_IDS, red_of, sort_key, tile_str

if TYPE_CHECKING:
    from server.engine.game import GameState

WIND_NAMES = "ESWN"
_TSTR = [tile_str(t) for t in range(37)]
_SORT = [sort_key(t) for t in range(37)]
_FIVES = (4, 13, 22)
# Wire form per Action object, keyed by identity: legal lists hold the engine's
# shared Action objects, and each entry keeps its object alive so ids stay valid.
_ACTION_JSON: dict[int, tuple[Action, dict[str, Any]]] = {}


def _action_json(a: Action) -> dict[str, Any]:
    hit = _ACTION_JSON.get(id(a))
    if hit is None:
        if len(_ACTION_JSON) > 100_000:  # the engine's actions are a few thousand; a cap anyway
            _ACTION_JSON.clear()
        hit = _ACTION_JSON[id(a)] = (a, a.to_json())
    return dict(hit[1])


_RULES_JSON: dict[RuleSet, dict[str, Any]] = {}


def _rules_json(rules: RuleSet) -> dict[str, Any]:
    """Every option of the game's rules (kuitan, red_fives, length, timers, ...) by name."""
    hit = _RULES_JSON.get(rules)
    if hit is None:
        if len(_RULES_JSON) > 1000:  # rule sets are a handful; a cap anyway
            _RULES_JSON.clear()
        hit = _RULES_JSON[rules] = rules.to_dict()
    return {**hit, "uma": list(hit["uma"])}  # no caller may change the cached copy


def view(state: GameState, seat: int | None, *, lean: bool = False) -> dict[str, Any]:
    """A JSON-able view for ``seat`` (None = spectator); shape in docs/engine.md.

    ``lean``: "legal_actions" and "help" left empty (None), for a bot that holds
    the legal list itself and does its own hand analysis; they cost the most.
    """
    return views(state, (seat,), lean=lean)[0]  # views() refuses a bad seat


def views(
    state: GameState, seats: Sequence[int | None], *, lean: bool = False
) -> list[dict[str, Any]]:
    """``[view(state, s) for s in seats]``, with the public parts built once.

    Rivers, melds, scores and the round are the same for every seat: a server
    that sends a view to each seat after every action builds them once here.
    The views SHARE those sub-objects, so they are for encoding, not for
    changing; ``view`` returns objects of its own.
    """
    from server.engine.game import waiting_on  # game imports this module

    for seat in seats:
        if seat is not None and seat not in range(4):
            raise ValueError("seat must be 0..3 or None")
    playing = state.phase == "play"
    last = None
    if playing and state.claim_from is not None and state.claim_tile is not None:
        last = {"seat": state.claim_from, "tile": _TSTR[state.tile(state.claim_tile)]}
    public = [_public_player(state, s) for s in range(4)]
    rules = _rules_json(state.rules)
    round_json = {
        "wind": WIND_NAMES[state.round_wind],
        "kyoku": state.kyoku + 1,
        "honba": state.honba,
        "riichi_sticks": state.riichi_sticks,
        "dealer": state.dealer,
        "dice": list(state.wall.dice),
    }
    scores = list(state.scores)
    dora = [_TSTR[t] for t in state.dora_indicators()]
    wall_left = state.live_left()
    # Each seat learns only whether it must act itself: the set of seats that may
    # call a discard would tell everyone who holds a pair (issue 12).
    waiting = waiting_on(state)
    result = state.last_result.event if state.phase == "round_end" and state.last_result else None
    out: list[dict[str, Any]] = []
    for seat in seats:
        players = public
        if seat is not None:
            players = list(public)
            players[seat] = _own_player(state, seat, public[seat])
        out.append(
            {
                "seat": seat,
                "phase": state.phase,
                "rules": rules,
                "round": round_json,
                "scores": scores,
                "dora_indicators": dora,
                "wall_left": wall_left,
                "turn": state.turn,
                "waiting_on": [seat] if seat in waiting else [],
                "last_discard": last,
                "players": players,
                "legal_actions": [_action_json(a) for a in state.legal(seat)]
                if seat is not None and not lean
                else [],
                "help": _help(state, seat) if seat is not None and playing and not lean else None,
                "result": result,
                "final": state.final,
            }
        )
    return out


def _public_player(state: GameState, s: int) -> dict[str, Any]:
    """What every seat sees of seat ``s``: no concealed tile, no drawn tile."""
    return {
        "seat": s,
        "wind": WIND_NAMES[(s - state.dealer) % 4],
        "score": state.scores[s],
        "riichi": state.riichi[s],
        "hand": None,
        "drawn": None,
        "hand_count": len(state.hands[s]),
        "melds": [
            {
                "type": f.meld.type.value,
                "tiles": [_TSTR[t] for t in f.meld.tiles],
                "called": _TSTR[f.meld.called] if f.meld.called is not None else None,
                "from_seat": f.meld.from_seat,
            }
            for f in state.melds[s]
        ],
        "river": [
            {
                "tile": _TSTR[r.tile],
                "tsumogiri": r.tsumogiri,
                "riichi": r.riichi,
                "called": r.called,
            }
            for r in state.rivers[s]
        ],
    }


def _own_player(state: GameState, s: int, public: dict[str, Any]) -> dict[str, Any]:
    """Seat ``s`` as it sees itself: the public entry plus its hand and drawn tile."""
    drawn = state.drawn[s]
    tile = state.tile
    hand = [tile(x) for x in state.hands[s] if x != drawn]
    hand.sort(key=_SORT.__getitem__)
    own = dict(public)
    own["hand"] = [_TSTR[t] for t in hand]
    own["drawn"] = _TSTR[tile(drawn)] if drawn is not None else None
    return own


def _help(state: GameState, seat: int) -> dict[str, Any]:
    c = state.counts(seat)
    out: dict[str, Any] = {"shanten": shanten(c), "waits": [], "furiten": state.furiten(seat)}
    if sum(c) % 3 != 1 or out["shanten"] != 0:
        return out
    visible = list(c)
    for s in range(4):
        for f in state.melds[s]:
            for t in f.ids:
                visible[t >> 2] += 1
        for r in state.rivers[s]:
            if not r.called:
                visible[r.tid >> 2] += 1
    for t in state.dora_indicators():
        visible[t if t < NUM_KINDS else 4 + 9 * (t - NUM_KINDS)] += 1
    melds = [f.meld for f in state.melds[seat]]
    concealed = state.concealed(seat)
    own = [*concealed, *(t for m in melds for t in m.tiles)]
    red_on = state.tile(RED_IDS[0]) != RED_IDS[0] >> 2
    for k in state.waits[seat]:
        if sum(1 for x in own if x == k or (x >= NUM_KINDS and _FIVES[x - NUM_KINDS] == k)) >= 4:
            # the seat holds all four itself: the wait can never arrive (karaten)
            out["waits"].append({"tile": _TSTR[k], "left": 0, "yaku": False})
            continue
        t = k
        # With red fives on, a seat holding all three plain fives can only get the red one.
        if red_on and k in _FIVES and own.count(k) >= 3:
            t = red_of(k)
        ctx = state._ctx(seat, t, False)
        try:
            score_hand([*concealed, t], melds, ctx, state.rules)
            has_yaku = True
        except ScoreError as exc:
            if exc.code == "bad_input":
                raise
            has_yaku = False
        out["waits"].append({"tile": _TSTR[k], "left": max(0, 4 - visible[k]), "yaku": has_yaku})
    return out
