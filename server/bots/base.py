"""What every riichi bot shares: the protocol, and reading a seat's observation.

A bot decides from an ``Observation`` (``server.engine.riichi.observe``): its
seat's hand, what every seat has shown, and its legal actions. An observation
holds no reference to the game state, so a bot cannot see the wall or another
seat's concealed tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from server.engine.actions import Action
from server.engine.riichi.observe import Observation
from server.engine.tiles import NORTH, NUM_KINDS, Kind, Tile, kind

_KIND = [kind(t) for t in range(37)]
_NO_SANMA = range(1, 8)  # 2m..8m


class Bot(Protocol):
    """A player. ``choose`` returns one of ``obs.legal`` (never anything else)."""

    name: str

    def choose(self, obs: Observation) -> Action: ...


def legal_of(obs: Observation) -> Sequence[Action]:
    """A decision's legal actions; a seat with nothing to decide is an error."""
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has nothing to decide")
    return obs.legal


@dataclass(slots=True)
class Hand:
    """One seat's own situation, read from its observation."""

    seat: int
    tiles: list[Tile]  # concealed, the drawn tile last
    drawn: Tile | None
    counts: list[int]  # 34 kinds of ``tiles``
    melds: list[tuple[str, list[Kind]]]  # (type, kinds) of own declared sets
    visible: list[int]  # 34 kinds seen outside own concealed tiles
    seat_wind: Kind
    round_wind: Kind
    riichi: bool
    kuitan: bool

    @property
    def is_open(self) -> bool:
        return any(t != "ankan" for t, _ in self.melds)


def read_hand(obs: Observation) -> Hand:
    """The parts of an observation a bot needs about its own hand."""
    seat = obs.seat
    if seat is None:
        raise ValueError("a spectator has no hand")
    tiles = obs.tiles()
    c = [0] * NUM_KINDS
    for t in tiles:
        c[_KIND[t]] += 1
    # every tile the seat sees outside its hand, by kind: melds, rivers (a called
    # tile is counted in the caller's meld), dora indicators
    visible = [0] * NUM_KINDS
    melds: list[tuple[str, list[Kind]]] = []
    for p in obs.players:
        for m in p.melds:
            ks = [_KIND[t] for t in m.tiles]
            for k in ks:
                visible[k] += 1
            if p.seat == seat:
                melds.append((m.type.value, ks))
        for d in p.river:
            if not d.called:
                visible[_KIND[d.tile]] += 1
    for t in obs.dora_indicators:
        visible[_KIND[t]] += 1
    if obs.rules.seats == 3:
        visible[NORTH] += sum(p.nuki for p in obs.players)  # norths set aside
        for k in _NO_SANMA:
            visible[k] = 4  # 2m-8m are not in the game: never to be drawn
    return Hand(
        seat=seat,
        tiles=tiles,
        drawn=obs.drawn,
        counts=c,
        melds=melds,
        visible=visible,
        seat_wind=obs.seat_wind,
        round_wind=obs.round_wind_kind,
        riichi=obs.players[seat].riichi,
        kuitan=obs.rules.kuitan,
    )
