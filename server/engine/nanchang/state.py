"""The state of a Nanchang game: the ledger, the round in play, the call window.

Callers read it (never write it); ``game.py`` makes every transition. Tiles
are physical ids (``id // 4`` is the kind) wherever they sit: hands, melds,
rivers and the wall, so that every tile can be accounted for (invariants).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Literal

from server.engine.actions import Action
from server.engine.events import Event, Standing
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.melds import Meld, MeldType, RiverTile
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.settlement import RoundResult
from server.engine.nanchang.wall import Dice, NanchangWall
from server.engine.tiles import Kind, TileId

Phase = Literal["play", "round_end", "game_end"]
# act: the seat in turn has drawn (or holds the dealer's 14); discard: it called and must
# discard; calls: the other seats answer a discard; rob: they may rob an added kan.
Step = Literal["act", "discard", "calls", "rob"]


@dataclass(slots=True)
class NanchangGame:
    options: NanchangOptions
    seed: bytes
    roller: int  # the seat given to new_game: rolls for the dealer (N3)
    dealer_dice: Dice | None
    first_dealer: int
    phase: Phase
    scores: list[int]
    points_total: int  # what the scores add up to, always (N26)
    round_index: int  # rounds dealt before this one; seeds the wall
    round_wind: int  # 圈 0..3 (东南西北)
    hand_number: int  # 0..3 within the 圈
    dealer: int
    repeat: int  # 连庄: deals the dealer has kept in a row
    wall: NanchangWall
    live: list[int]  # wall positions not yet drawn, in drawing order
    jokers: Jokers
    hands: list[list[TileId]]  # concealed tiles, the drawn one included
    drawn: list[TileId | None]
    melds: list[list[Meld]]
    meld_ids: list[list[tuple[TileId, ...]]]
    rivers: list[list[RiverTile]]
    river_ids: list[list[TileId]]
    taken: list[list[tuple[Kind, int]]]  # tiles taken from other seats (kind, from seat), N23
    kans: list[tuple[int, Kind, MeldType]]  # kans that stand, in order (N24)
    turn: int
    step: Step
    replacement: bool  # the seat in turn drew from the wall's end (杠开, N18)
    first_turn: bool  # the dealer's first decision, nothing happened before (天糊, N18)
    dihu_window: bool  # the window is on the dealer's first discard (地糊, N18)
    last_discard: tuple[int, TileId] | None  # (seat, tile) of the open call window
    kakan: tuple[int, TileId, int] | None  # (seat, tile, meld index) of an added kan to rob
    choices: dict[int, list[Action]]  # per seat: what it may answer in the open window
    answers: dict[int, Action]
    log: list[Action | None]
    round_results: list[RoundResult]
    start_events: list[Event]
    final: tuple[Standing, ...] | None
    # legal actions per seat since the last transition (apply and next_round clear it)
    legal_cache: dict[int, list[Action]] = field(default_factory=dict, compare=False, repr=False)

    def clone(self) -> NanchangGame:
        """An independent copy (what may change is copied; frozen values are shared)."""
        wall = copy.copy(self.wall)
        wall.tiles = list(self.wall.tiles)
        return replace(
            self,
            scores=list(self.scores),
            wall=wall,
            live=list(self.live),
            hands=[list(h) for h in self.hands],
            drawn=list(self.drawn),
            melds=[list(m) for m in self.melds],
            meld_ids=[list(m) for m in self.meld_ids],
            rivers=[list(r) for r in self.rivers],
            river_ids=[list(r) for r in self.river_ids],
            taken=[list(t) for t in self.taken],
            kans=list(self.kans),
            choices=dict(self.choices),
            answers=dict(self.answers),
            log=list(self.log),
            round_results=list(self.round_results),
            start_events=list(self.start_events),
            legal_cache={},
        )

    def live_left(self) -> int:
        return len(self.live)

    def hand_kinds(self, seat: int) -> list[Kind]:
        return sorted(t // 4 for t in self.hands[seat])

    def holdings(self, seat: int) -> list[Kind]:
        """Every tile a seat holds: concealed and melded (what its joker bonus counts, N22)."""
        out = [t // 4 for t in self.hands[seat]]
        for ids in self.meld_ids[seat]:
            out += [t // 4 for t in ids]
        return out
