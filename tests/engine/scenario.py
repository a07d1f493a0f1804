"""Helpers for state-machine scenario tests: build a round from known tiles, act by strings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.actions import Action, ActionType
from server.engine.events import Event
from server.engine.riichi import GameState, apply, at_round, check_invariants, legal_actions
from server.engine.riichi.rules import RuleSet, preset
from server.engine.riichi.wall import LAYOUTS, Wall
from server.engine.tiles import parse_tile
from server.wire.riichi import event_json

PLAIN = preset("standard").with_overrides(red_fives=0)


def game(
    hands: Sequence[str | None],
    draws: str | Sequence[str | None] = "",
    *,
    rinshan: str = "",
    dora: str = "",
    ura: str = "",
    dealer: int = 0,
    rules: RuleSet = PLAIN,
    scores: Sequence[int] | None = None,
    honba: int = 0,
    sticks: int = 0,
    round_wind: int = 0,
) -> GameState:
    """A round whose hands and draws (in global order from the dealer's first) are given."""
    wall = Wall.build(
        hands=list(hands),
        draws=draws,
        rinshan=rinshan,
        dora=dora,
        ura=ura,
        dealer=dealer,
        red_fives=rules.red_fives > 0,
        layout=LAYOUTS[rules.seats],
    )
    st = at_round(
        rules,
        round_wind=round_wind,
        dealer=dealer,
        honba=honba,
        riichi_sticks=sticks,
        scores=scores,
        wall=wall,
    )
    check_invariants(st)
    return st


def action(seat: int, type_: str, tile: str | None = None, tiles: str = "") -> Action:
    from server.engine.tiles import parse_tiles

    return Action(
        ActionType(type_),
        seat,
        parse_tile(tile) if tile is not None else None,
        tuple(parse_tiles(tiles)) if tiles else (),
    )


def act(
    st: GameState, seat: int, type_: str, tile: str | None = None, tiles: str = ""
) -> list[Event]:
    """Apply one action (it must be legal) and check the invariants afterwards."""
    evs = apply(st, action(seat, type_, tile, tiles))
    check_invariants(st)
    return evs


def types(st: GameState, seat: int) -> set[str]:
    return {a.type.value for a in legal_actions(st, seat)}


def discard_cycle(st: GameState, tiles: Sequence[str]) -> list[Event]:
    """Each seat in turn discards the given tile (everyone else passes any call)."""
    out: list[Event] = []
    for t in tiles:
        s = st.turn
        out += act(st, s, "discard", t)
        out += pass_all(st)
    return out


def pass_all(st: GameState) -> list[Event]:
    """Every seat with an open claim passes."""
    out: list[Event] = []
    for s in range(st.n):
        if st.phase == "play" and {a.type for a in legal_actions(st, s)} & {ActionType.PASS}:
            out += act(st, s, "pass")
    return out


@dataclass(frozen=True)
class Wired:
    """An event as the protocol carries it: tests read its JSON fields in ``data``."""

    type: str
    data: dict[str, Any]
    event: Event


def ev(events: Sequence[Event], type_: str) -> list[Wired]:
    """The events of one type, each with its wire JSON (``data``) and the typed value."""
    return [Wired(e.type, event_json(e), e) for e in events if e.type == type_]


def tsumogiri(st: GameState, times: int = 1) -> list[Event]:
    """The seat in turn discards its drawn tile, everyone passes; ``times`` turns."""
    from server.engine.tiles import tile_str

    out: list[Event] = []
    for _ in range(times):
        s = st.turn
        d = st.drawn[s]
        assert d is not None, f"seat {s} has no drawn tile"
        out += act(st, s, "discard", tile_str(st.tile(d)))
        out += pass_all(st)
    return out


def rotate(hands: Sequence[str], dealer: int) -> list[str]:
    """Hands given relative to the dealer (dealer first) as a seat-indexed list."""
    n = len(hands)
    out = [""] * n
    for i, h in enumerate(hands):
        out[(dealer + i) % n] = h
    return out
