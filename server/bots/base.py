"""What every bot shares: the protocol, and reading a seat's view.

A bot decides from ``view(state, seat)`` and the seat's legal actions only, so
it cannot see other seats' tiles or the wall. For convenience (and speed: a
random bot needs no view) ``choose`` also accepts the ``GameState`` itself;
the bot then builds the seat's view on demand, or reads its ``Hand`` with
``hand_of_state``, which takes from the state exactly the fields that
``read_hand`` takes from the seat's view (tested equal at every decision of
self-play games) and skips building the JSON view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from server.engine import game as engine
from server.engine.actions import Action
from server.engine.tiles import (
    EAST,
    NUM_KINDS,
    WIND_LETTERS,
    Kind,
    Tile,
    kind,
    sort_key,
    tile_str,
)


class Bot(Protocol):
    """A player. ``choose`` returns one of ``legal`` (never anything else)."""

    name: str

    def choose(
        self,
        obs: engine.GameState | Mapping[str, Any],
        seat: int,
        legal: Sequence[Action] | None = None,
    ) -> Action: ...


class Inputs:
    """The view and legal actions of one decision, each built only when asked for."""

    __slots__ = ("_legal", "_obs", "_view", "seat")

    def __init__(
        self,
        obs: engine.GameState | Mapping[str, Any],
        seat: int,
        legal: Sequence[Action] | None,
    ) -> None:
        self._obs = obs
        self.seat = seat
        self._view: Mapping[str, Any] | None = None if isinstance(obs, engine.GameState) else obs
        self._legal = list(legal) if legal is not None else None

    @property
    def view(self) -> Mapping[str, Any]:
        if self._view is None:
            assert isinstance(self._obs, engine.GameState)
            # the bot has the legal list and does its own analysis: no help, no action JSON
            self._view = engine.view(self._obs, self.seat, lean=True)
        return self._view

    @property
    def legal(self) -> list[Action]:
        if self._legal is None:
            if isinstance(self._obs, engine.GameState):
                self._legal = engine.legal_actions(self._obs, self.seat)
            else:
                self._legal = [
                    Action.from_json(a, seat=self.seat) for a in self.view["legal_actions"]
                ]
        return self._legal


def legal_of(
    obs: engine.GameState | Mapping[str, Any], seat: int, legal: Sequence[Action] | None
) -> Sequence[Action]:
    """A decision's legal actions: ``legal`` as given (no copy), else from ``obs``.

    Every bot's ``choose`` starts here: a seat with nothing to decide is an error.
    """
    acts = legal if legal is not None else Inputs(obs, seat, legal).legal
    if not acts:
        raise ValueError(f"seat {seat} has nothing to decide")
    return acts


# Tile strings of a view -> tiles (parse_tile handles any notation and is slower).
_TILE = {tile_str(t): t for t in range(37)}
_KIND = [kind(t) for t in range(37)]
_KIND_OF_STR = {tile_str(t): kind(t) for t in range(37)}
_SORT = [sort_key(t) for t in range(37)]


def _wind(letter: str) -> Kind:
    return EAST + WIND_LETTERS.index(letter)


@dataclass(slots=True)
class Hand:
    """One seat's own situation, read from its view."""

    seat: int
    tiles: list[Tile]  # concealed, including the drawn tile
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


def read_hand(view: Mapping[str, Any], seat: int) -> Hand:
    """Parse the parts of a view a bot needs."""
    me = view["players"][seat]
    tiles = [_TILE[t] for t in me["hand"] or []]
    drawn = _TILE[me["drawn"]] if me.get("drawn") else None
    if drawn is not None:
        tiles.append(drawn)
    c = [0] * NUM_KINDS
    for t in tiles:
        c[_KIND[t]] += 1
    visible = [0] * NUM_KINDS
    melds: list[tuple[str, list[Kind]]] = []
    for p in view["players"]:
        for m in p["melds"]:
            ks = [_KIND_OF_STR[t] for t in m["tiles"]]
            for k in ks:
                visible[k] += 1
            if p["seat"] == seat:
                melds.append((m["type"], ks))
        for d in p["river"]:
            if not d.get("called"):  # a called tile is counted in the caller's meld
                visible[_KIND_OF_STR[d["tile"]]] += 1
    for t in view.get("dora_indicators", []):
        visible[_KIND_OF_STR[t]] += 1
    kuitan = bool(view["rules"]["kuitan"])
    return Hand(
        seat=seat,
        tiles=tiles,
        drawn=drawn,
        counts=c,
        melds=melds,
        visible=visible,
        seat_wind=_wind(me["wind"]),
        round_wind=_wind(view["round"]["wind"]),
        riichi=bool(me.get("riichi")),
        kuitan=kuitan,
    )


def hand_of_state(state: engine.GameState, seat: int) -> Hand:
    """``read_hand(view(state, seat), seat)``, read from the state directly.

    It reads only what that view shows the seat: its own concealed tiles and
    drawn tile, every seat's melds and river, the dora indicators, the winds,
    its riichi flag and the rules' kuitan option.
    """
    drawn_id = state.drawn[seat]
    tiles = state.concealed(seat)  # in tile-id order, the drawn tile among them
    drawn = None
    if drawn_id is not None:
        drawn = tiles.pop(state.hands[seat].index(drawn_id))
    tiles.sort(key=_SORT.__getitem__)
    if drawn is not None:
        tiles.append(drawn)
    # every tile the seat sees outside its hand, by kind (tile id >> 2): melds,
    # rivers (a called tile is counted in the caller's meld), dora indicators
    visible = [0] * NUM_KINDS
    for ms in state.melds:
        for f in ms:
            for t in f.ids:
                visible[t >> 2] += 1
    for river in state.rivers:
        for r in river:
            if not r[4]:  # RiverTile.called
                visible[r[0] >> 2] += 1  # RiverTile.tid
    for t in state.dora_indicators():
        visible[_KIND[t]] += 1
    melds: list[tuple[str, list[Kind]]] = [
        (f.meld.type.value, [_KIND[t] for t in f.meld.tiles]) for f in state.melds[seat]
    ]
    return Hand(
        seat=seat,
        tiles=tiles,
        drawn=drawn,
        counts=state.counts(seat),
        melds=melds,
        visible=visible,
        seat_wind=EAST + (seat - state.dealer) % 4,
        round_wind=EAST + state.round_wind,
        riichi=bool(state.riichi[seat]),
        kuitan=bool(state.rules.kuitan),
    )


def last_discard_of_state(state: engine.GameState) -> Tile | None:
    """The view's ``last_discard`` tile (the discard or kan tile being answered), from the state."""
    if state.phase == "play" and state.claim_from is not None and state.claim_tile is not None:
        return state.tile(state.claim_tile)
    return None
