"""What one seat (or a spectator) may know of a game, as an immutable value.

An ``Observation`` holds no reference to the state: a bot or a client given one
cannot reach the wall or another seat's concealed tiles, by construction (as
Mortal's ``PlayerState``). It tells a seat whether it must act, never which
other seats may call a discard (the seat in turn is public: everyone sees
whose turn it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from server.engine.actions import Action
from server.engine.events import Standing
from server.engine.melds import Meld
from server.engine.riichi.events import RoundResultEvent
from server.engine.riichi.legal import legal
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.state import S_CALLED, S_TURN, GameState, RiverTile
from server.engine.tiles import EAST, Kind, Tile, sort_key

_SORT = [sort_key(t) for t in range(37)]


class SeatInfo(NamedTuple):
    """What everyone sees of one seat."""

    seat: int
    wind: Kind  # EAST..NORTH: the seat wind this round
    score: int
    riichi: bool
    hand_count: int  # concealed tiles, the drawn one included
    melds: tuple[Meld, ...]
    nuki: int  # sanma: norths set aside (each a dora)
    # Its discards as everyone saw them (a ``RiverTile``'s ``tid`` is the physical
    # tile's id: public once the tile is discarded, it tells nothing of any other).
    river: tuple[RiverTile, ...]


class Observation(NamedTuple):
    """One seat's (``seat`` None: a spectator's) knowledge of the game now.

    A tuple (immutable, and built fast: one per decision of every bot).
    """

    seat: int | None
    rules: RuleSet
    phase: str  # "play" | "round_end" | "game_end"
    round_wind: int  # 0..3
    kyoku: int  # 0-based
    honba: int
    riichi_sticks: int
    dealer: int
    dice: tuple[int, int]
    scores: tuple[int, ...]
    dora_indicators: tuple[Tile, ...]
    wall_left: int
    # Public wall counts (docs/engine.md, "The wall"): tiles taken from the live wall's
    # front since the break (the deal included), and replacement draws from the dead wall.
    wall_drawn: int
    rinshan_drawn: int
    turn: int  # the seat in turn (who drew or called last)
    to_act: bool  # this seat must decide now
    in_turn: bool  # the seat in turn decides (not a call window)
    last_discard: tuple[int, Tile] | None  # (seat, tile) being answered
    players: tuple[SeatInfo, ...]
    hand: tuple[Tile, ...]  # own concealed tiles in tile-id order, the drawn one left out
    drawn: Tile | None
    legal: tuple[Action, ...]
    result: RoundResultEvent | None  # the last round's result, in phase round_end
    final: tuple[Standing, ...] | None  # in phase game_end

    @property
    def seat_wind(self) -> Kind:
        assert self.seat is not None
        return self.players[self.seat].wind

    @property
    def round_wind_kind(self) -> Kind:
        return EAST + self.round_wind

    def tiles(self) -> list[Tile]:
        """Own concealed tiles, the drawn tile last."""
        return [*self.hand, self.drawn] if self.drawn is not None else list(self.hand)


_Public = tuple[Any, ...]


def seat_info(st: GameState, s: int) -> SeatInfo:
    """What everyone sees of seat ``s`` now (``_public`` keeps it until it changes)."""
    return _new(
        SeatInfo,
        (
            s,
            EAST + (s - st.dealer) % st.n,
            st.scores[s],
            st.riichi[s],
            len(st.hands[s]),
            tuple([f.meld for f in st.melds[s]]),
            len(st.nuki[s]),
            tuple(st.rivers[s]),
        ),
    )


def _public(st: GameState) -> _Public:
    """The part every seat's observation shares, built once per state (the log's length
    changes with every transition)."""
    key = len(st.log)
    if st._public_key == key and st._public is not None:
        return st._public
    n = st.n
    playing = st.phase == "play"
    last = None
    if playing and st.claim_from is not None and st.claim_tile is not None:
        last = (st.claim_from, st._tile[st.claim_tile])
    infos = st._seat_info
    for s in range(n):
        if infos[s] is None:
            infos[s] = seat_info(st, s)
    players = tuple(infos)
    public = (
        st.rules,
        st.phase,
        st.round_wind,
        st.kyoku,
        st.honba,
        st.riichi_sticks,
        st.dealer,
        st.wall.dice,
        tuple(st.scores),
        st.dora_tuple(),
        st.live_left(),
        st.draw_pos,
        st.rinshan_drawn,
        st.turn,
        playing and (st.step is S_TURN or st.step is S_CALLED),
        last,
        players,
        st.result_event(),
        st.final,
    )
    st._public_key = key
    st._public = public
    return public


_new = tuple.__new__  # a NamedTuple without its generated __new__'s Python frame


def observe(st: GameState, seat: int | None) -> Observation:
    """``seat``'s observation (None: a spectator's); ValueError for a bad seat."""
    if seat is not None and not 0 <= seat < st.n:
        raise ValueError(f"seat must be 0..{st.n - 1} or None")
    (
        rules,
        phase,
        round_wind,
        kyoku,
        honba,
        sticks,
        dealer,
        dice,
        scores,
        dora,
        wall_left,
        wall_drawn,
        rinshan_drawn,
        turn,
        in_turn,
        last,
        players,
        result,
        final,
    ) = _public(st)
    hand: tuple[Tile, ...] = ()
    drawn = None
    acts: tuple[Action, ...] = ()
    if seat is not None:
        d = st.drawn[seat]
        tiles = st._tile
        # hands are kept in tile-id order: no sort here (a view sorts them for people)
        hand = tuple([tiles[x] for x in st.hands[seat] if x != d])
        drawn = tiles[d] if d is not None else None
        acts = tuple(legal(st, seat))
    return _new(
        Observation,
        (
            seat,
            rules,
            phase,
            round_wind,
            kyoku,
            honba,
            sticks,
            dealer,
            dice,
            scores,
            dora,
            wall_left,
            wall_drawn,
            rinshan_drawn,
            turn,
            bool(acts),
            in_turn,
            last,
            players,
            hand,
            drawn,
            acts,
            result,
            final,
        ),
    )


def observations(st: GameState, seats: Sequence[int | None]) -> list[Observation]:
    """``[observe(st, s) for s in seats]``: they share one public part."""
    return [observe(st, s) for s in seats]
