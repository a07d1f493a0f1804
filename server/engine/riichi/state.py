"""The state of a riichi game: the hanchan's fields and the current round's.

``GameState`` holds data and small read-only helpers; the transitions live in
the modules named after what they do (``deal``, ``turn``, ``kan``, ``claims``,
``settle``, ``end``) and the legal actions in ``legal``. Callers read the
attributes listed in docs/engine.md and never write them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from server.engine.actions import Action
from server.engine.events import EndReason, Event, Standing
from server.engine.melds import Meld
from server.engine.riichi.events import RoundResultEvent, Winner
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.wall import LAYOUTS, Wall
from server.engine.riichi.win import ScoreError, WinContext, WinResult
from server.engine.tiles import EAST, NUM_KINDS, Kind, Tile, TileId, tile_of_id

TILE_RED = [tile_of_id(i, True) for i in range(136)]
TILE_PLAIN = [tile_of_id(i, False) for i in range(136)]


class Step(StrEnum):
    """What the round waits for."""

    TURN = "turn"  # the seat in turn drew and chooses tsumo/kan/riichi/discard
    CALLED = "called"  # the seat in turn called chi/pon and must discard
    CLAIM = "claim"  # other seats answer a discard
    CHANKAN = "chankan"  # others may rob a kakan (an ankan: kokushi only; in sanma a north)
    END = "end"  # the round is over


class RiverTile(NamedTuple):
    """One discard; immutable (a call replaces it with ``called=True``)."""

    tid: TileId
    tile: Tile
    tsumogiri: bool
    riichi: bool
    called: bool = False


@dataclass(slots=True)
class Furo:
    """A declared meld with the physical tile ids behind it."""

    meld: Meld
    ids: tuple[TileId, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_wind: int
    kyoku: int
    honba: int
    riichi_sticks: int
    kind: str  # "agari" | "ryuukyoku"
    reason: str | None
    wins: tuple[Winner, ...]
    tenpai: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    renchan: bool
    dealer_merit: bool  # dealer won or was tenpai at an exhaustive draw (agari-yame)
    event: RoundResultEvent


class GameState:
    """The whole hanchan; see docs/engine.md for the readable attributes."""

    def __init__(self, rules: RuleSet, seed: bytes, first_dealer: int = 0) -> None:
        n = rules.seats
        if first_dealer not in range(n):
            raise ValueError(f"first_dealer must be 0..{n - 1}")
        self.rules = rules
        self.n = n
        self.seed = seed
        self.first_dealer = first_dealer
        self.phase = "play"
        self.scores = [rules.start_points] * n
        self.round_wind = 0
        self.kyoku = 0
        self.dealer = first_dealer
        self.honba = 0
        self.riichi_sticks = 0
        self.round_index = 0
        self.log: list[Action | None] = []
        self.round_results: list[RoundResult] = []
        self.final: tuple[Standing, ...] | None = None
        self.end_reason: EndReason | None = None  # why the game ended (R25), at game_end
        self.start_events: list[Event] = []
        self.total_points = 0
        self._tile = TILE_RED if rules.red_fives else TILE_PLAIN
        self._legal: dict[int, list[Action]] = {}
        # what every seat's observation shares, and the log length it was built at
        self._public: tuple[Any, ...] | None = None
        self._public_key = -1
        self._dora: tuple[Tile, ...] = ()
        self._dora_wall: Wall | None = None
        # each seat's public part (observe.SeatInfo), None once something in it changed
        self._seat_info: list[Any] = [None] * n
        # per-round fields, set by deal.start_round
        layout = LAYOUTS[n]
        self.wall: Wall = Wall(layout.ids, layout=layout)
        self.dead_start = layout.dead_start
        self.hands: list[list[TileId]] = [[] for _ in range(n)]
        # 34-count arrays of the concealed tiles, kept in step with ``hands``
        self.cnt: list[list[int]] = [[0] * NUM_KINDS for _ in range(n)]
        self.shanten13 = [8] * n  # shanten of each seat's last 3n+1 hand
        self.drawn: list[TileId | None] = [None] * n
        self.melds: list[list[Furo]] = [[] for _ in range(n)]
        self.rivers: list[list[RiverTile]] = [[] for _ in range(n)]
        self.draw_pos = layout.first_draw
        self.kans = 0
        # sanma: norths set aside per seat (their ids), and kans + norths: each moved
        # the last live tile into the dead wall (R4, S4)
        self.nuki: list[list[TileId]] = [[] for _ in range(n)]
        self.replaced = 0
        self.rinshan_drawn = 0
        self.kan_seats: list[int] = []
        self.dora_count = 1
        self.pending_dora = 0
        self.pending_dora_seat: int | None = None
        self.kan_is_kakan = False
        self.pulling = False  # the window open is the one of a north set aside
        self.turn = first_dealer
        self.step = Step.END
        self.riichi = [False] * n
        self.double_riichi = [False] * n
        self.ippatsu = [False] * n
        self.riichi_decl: int | None = None
        self.furiten_temp = [False] * n
        self.furiten_riichi = [False] * n
        self.waits: list[list[Kind]] = [[] for _ in range(n)]
        self.discards = [0] * n
        self.uninterrupted = True
        self.rinshan = False
        self.kuikae: frozenset[Kind] = frozenset()
        self.pao_dragon: list[int | None] = [None] * n
        self.pao_wind: list[int | None] = [None] * n
        self.claim_tile: TileId | None = None
        self.claim_from: int | None = None
        self.claim_options: dict[int, list[Action]] = {}
        self.claim_answers: dict[int, Action] = {}
        self.claim_results: dict[int, WinResult] = {}
        self.round_deltas = [0] * n
        self.round_start_honba = 0
        self.round_start_sticks = 0
        self.last_result: RoundResult | None = None

    def clone(self) -> GameState:
        """An independent copy, cheap enough for search (no deepcopy).

        Rules, the wall, actions, melds, results and events are immutable and
        shared; every container the state mutates is copied.
        """
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new.log = list(self.log)
        new.round_results = list(self.round_results)
        new.start_events = list(self.start_events)
        new._legal = {}
        new._public = None
        new._public_key = -1
        new._seat_info = [None] * self.n
        new.hands = [list(h) for h in self.hands]
        new.cnt = [list(c) for c in self.cnt]
        new.shanten13 = list(self.shanten13)
        new.drawn = list(self.drawn)
        new.melds = [list(m) for m in self.melds]
        new.nuki = [list(x) for x in self.nuki]
        new.rivers = [list(rv) for rv in self.rivers]
        new.kan_seats = list(self.kan_seats)
        for name in (
            "riichi",
            "double_riichi",
            "ippatsu",
            "furiten_temp",
            "furiten_riichi",
            "discards",
            "pao_dragon",
            "pao_wind",
            "round_deltas",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.waits = [list(w) for w in self.waits]
        new.claim_options = dict(self.claim_options)
        new.claim_answers = dict(self.claim_answers)
        new.claim_results = dict(self.claim_results)
        return new

    def touch(self, seat: int) -> None:
        """Something everyone sees of ``seat`` changed (its observation part is rebuilt)."""
        self._seat_info[seat] = None

    def touch_all(self) -> None:
        self._seat_info = [None] * self.n

    # --- reading ------------------------------------------------------------

    def tile(self, tid: TileId) -> Tile:
        return self._tile[tid]

    def concealed(self, seat: int) -> list[Tile]:
        return [self._tile[t] for t in self.hands[seat]]

    def counts(self, seat: int) -> list[int]:
        """A copy of the seat's 34-count array of concealed tiles."""
        return list(self.cnt[seat])

    def live_left(self) -> int:
        return self.dead_start - self.replaced - self.draw_pos

    def seat_wind(self, seat: int) -> Kind:
        return EAST + (seat - self.dealer) % self.n

    def is_closed(self, seat: int) -> bool:
        return all(not f.meld.is_open for f in self.melds[seat])

    def dora_tuple(self) -> tuple[Tile, ...]:
        """``dora_indicators()`` as a tuple, kept until another indicator is turned."""
        if self._dora_wall is not self.wall or len(self._dora) != self.dora_count:
            self._dora_wall = self.wall
            self._dora = tuple(self.dora_indicators())
        return self._dora

    def dora_indicators(self) -> list[Tile]:
        tiles, pos = self.wall.tiles, self.wall.layout.dora_pos
        return [self._tile[tiles[pos[i]]] for i in range(self.dora_count)]

    def ura_indicators(self) -> list[Tile]:
        tiles, pos = self.wall.tiles, self.wall.layout.ura_pos
        return [self._tile[tiles[pos[i]]] for i in range(self.dora_count)]

    def river_furiten(self, seat: int) -> bool:
        ws = self.waits[seat]
        if not ws:
            return False
        return any((r.tid >> 2) in ws for r in self.rivers[seat])

    def furiten(self, seat: int) -> bool:
        """Whether the seat may not ron now (R16, all three kinds)."""
        return self.furiten_temp[seat] or self.furiten_riichi[seat] or self.river_furiten(seat)

    def pass_winning_tile(self, seat: int) -> None:
        """R16: a seat whose winning tile passes becomes furiten (unless it rons)."""
        if self.riichi[seat]:
            self.furiten_riichi[seat] = True
        self.furiten_temp[seat] = True

    def is_tenpai_at_draw(self, s: int) -> bool:
        """Tenpai for the exhaustive draw (R17): a wait whose four copies are not all in
        the concealed hand; copies in the seat's own melds do not empty a wait."""
        held = self.cnt[s]
        return any(held[k] < 4 for k in self.waits[s])

    def ranking(self) -> list[int]:
        """Seats from first to last; ties go to the seat nearer the first dealer (R26)."""
        n = self.n
        return sorted(range(n), key=lambda s: (-self.scores[s], (s - self.first_dealer) % n))

    def win_context(
        self, seat: int, win_tile: Tile, tsumo: bool, *, chankan: bool = False
    ) -> WinContext:
        """The situation of a win by ``seat`` on ``win_tile`` now."""
        first = self.uninterrupted and self.discards[seat] == 0 and tsumo and not self.rinshan
        return WinContext(
            win_tile=win_tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=EAST + self.round_wind,
            riichi=self.riichi[seat],
            double_riichi=self.double_riichi[seat],
            ippatsu=self.ippatsu[seat],
            haitei=tsumo and not self.rinshan and self.live_left() == 0,
            # not on a kakan (chankan) nor on a north set aside (S12e): not a discard
            houtei=not tsumo and not chankan and not self.pulling and self.live_left() == 0,
            rinshan=tsumo and self.rinshan,
            chankan=chankan,
            tenhou=first and seat == self.dealer,
            chiihou=first and seat != self.dealer,
            dora_indicators=tuple(self.dora_indicators()),
            ura_indicators=tuple(self.ura_indicators()) if self.riichi[seat] else (),
            honba=self.honba,
            riichi_sticks=self.riichi_sticks,
            nuki=len(self.nuki[seat]),
        )

    def score(
        self, seat: int, win_tile: Tile, tsumo: bool, *, chankan: bool = False
    ) -> WinResult | None:
        """The win if the hand (plus ``win_tile`` for ron) is complete with a yaku."""
        concealed = self.concealed(seat)
        if not tsumo:
            concealed.append(win_tile)
        try:
            return score_hand(
                concealed,
                [f.meld for f in self.melds[seat]],
                self.win_context(seat, win_tile, tsumo, chankan=chankan),
                self.rules,
            )
        except ScoreError as exc:
            # Only "not complete" and "no yaku" mean no win; bad_input is a caller bug.
            if exc.code == "bad_input":
                raise
            return None

    def result_event(self) -> RoundResultEvent | None:
        """The last round's agari or ryuukyoku while the round is over, else None."""
        if self.phase == "round_end" and self.last_result is not None:
            return self.last_result.event
        return None


# Each member as a module constant, as actions.A_*: the per-action paths read them.
S_CALLED = Step.CALLED
S_CHANKAN = Step.CHANKAN
S_CLAIM = Step.CLAIM
S_END = Step.END
S_TURN = Step.TURN
__all__ = [
    "S_CALLED",
    "S_CHANKAN",
    "S_CLAIM",
    "S_END",
    "S_TURN",
    "Furo",
    "GameState",
    "RiverTile",
    "RoundResult",
    "Step",
]
