"""The round and hanchan state machine (R2-R26).

One mutable ``GameState`` holds the whole hanchan. ``apply`` validates an
action against ``legal_actions`` (IllegalAction, state unchanged), then mutates
the state and returns the events it caused. Scoring goes only through
``scoring.score_hand`` / ``settle_win``. See docs/engine.md for every shape.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from server.engine.actions import (
    A_ANKAN,
    A_CHI,
    A_DAIMINKAN,
    A_DISCARD,
    A_KAKAN,
    A_KYUUSHU,
    A_PASS,
    A_PON,
    A_RIICHI,
    A_RON,
    A_TSUMO,
    Action,
    ActionType,
    Event,
    IllegalAction,
)
from server.engine.melds import Meld, MeldType
from server.engine.riichi.agari import BlockType, regular_readings
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.scoring import ScoreError, WinContext, WinResult, score_hand, settle_win
from server.engine.riichi.shanten import shanten, shanten_kokushi, waits
from server.engine.riichi.wall import DEAD_START, DORA_POS, FIRST_DRAW, RINSHAN_POS, URA_POS, Wall
from server.engine.tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    WINDS,
    YAOCHU,
    Kind,
    Tile,
    TileId,
    kind,
    sort_key,
    tile_of_id,
    tile_str,
)

# MeldType members as module constants, as actions.A_* for ActionType (faster to read).
_M_ANKAN = MeldType.ANKAN
_M_CHI = MeldType.CHI
_M_DAIMINKAN = MeldType.DAIMINKAN
_M_KAKAN = MeldType.KAKAN
_M_PON = MeldType.PON
WIND_NAMES = "ESWN"
_TILE_RED = [tile_of_id(i, True) for i in range(136)]
_TILE_PLAIN = [tile_of_id(i, False) for i in range(136)]


_ACTIONS: dict[tuple[ActionType, int, Tile | None, tuple[Tile, ...]], Action] = {}


def _act(
    at: ActionType, seat: int, tile: Tile | None = None, tiles: tuple[Tile, ...] = ()
) -> Action:
    """A shared Action object: legal lists are rebuilt at every decision, and
    building frozen dataclasses was a large part of a self-play game's time."""
    key = (at, seat, tile, tiles)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action(at, seat, tile, tiles)
    return a


_DISCARD = [[_act(A_DISCARD, s, t) for t in range(37)] for s in range(4)]
# the shared tile-less actions per seat (an _act lookup hashes an enum in Python)
_PASS_OF = [_act(A_PASS, s) for s in range(4)]
_RON_OF = [_act(A_RON, s) for s in range(4)]
_TSUMO_OF = [_act(A_TSUMO, s) for s in range(4)]
_KYUUSHU_OF = [_act(A_KYUUSHU, s) for s in range(4)]
_TSTR = [tile_str(t) for t in range(37)]
_SORT = [sort_key(t) for t in range(37)]
_KIND = [kind(t) for t in range(37)]
_SEATS = range(4)  # built once: `x in range(4)` in the per-action path built a range each time
_ONLY = [frozenset({s}) for s in range(4)]
_OTHERS = [tuple(o for o in range(4) if o != s) for s in range(4)]  # in seat order
_AFTER = [tuple((s + i) % 4 for i in (1, 2, 3)) for s in range(4)]  # the others in turn order
_MELD_OF_CALL = {at: MeldType(at.value) for at in (A_CHI, A_PON, A_DAIMINKAN)}
_NO_KINDS: frozenset[Kind] = frozenset()


class Step(StrEnum):
    """What the round waits for."""

    TURN = "turn"  # the seat in turn drew and chooses tsumo/kan/riichi/discard
    CALLED = "called"  # the seat in turn called chi/pon and must discard
    CLAIM = "claim"  # other seats answer a discard
    CHANKAN = "chankan"  # other seats may rob a kakan (or an ankan, kokushi only)
    END = "end"  # the round is over


_S_CALLED = Step.CALLED
_S_CHANKAN = Step.CHANKAN
_S_CLAIM = Step.CLAIM
_S_END = Step.END
_S_TURN = Step.TURN


class RiverTile(NamedTuple):
    """One discard; immutable (a call replaces it with ``called=True``)."""

    tid: TileId
    tile: Tile
    tsumogiri: bool
    riichi: bool
    called: bool = False


# RiverTile(...) without the generated __new__'s Python frame: one per discard
_new_tuple = tuple.__new__


@dataclass(slots=True)
class Furo:
    """A declared meld with the physical tile ids behind it."""

    meld: Meld
    ids: tuple[TileId, ...]


@dataclass(frozen=True, slots=True)
class WinRecord:
    seat: int
    from_seat: int | None
    win_tile: Tile
    result: WinResult
    deltas: tuple[int, ...]
    pao: int | None


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_wind: int
    kyoku: int
    honba: int
    riichi_sticks: int
    kind: str  # "agari" | "ryuukyoku"
    reason: str | None
    wins: tuple[WinRecord, ...]
    tenpai: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    renchan: bool
    dealer_merit: bool  # dealer won or was tenpai at an exhaustive draw (agari-yame)
    event: dict[str, Any]


def _meld_json(m: Meld) -> dict[str, Any]:
    return {
        "type": m.type.value,
        "tiles": [tile_str(t) for t in m.tiles],
        "called": tile_str(m.called) if m.called is not None else None,
        "from_seat": m.from_seat,
    }


def _sorted_strs(tiles: Sequence[Tile]) -> list[str]:
    return [_TSTR[t] for t in sorted(tiles, key=_SORT.__getitem__)]


class GameState:
    """The whole hanchan; see docs/engine.md for the readable attributes."""

    def __init__(self, rules: RuleSet, seed: bytes, first_dealer: int = 0) -> None:
        if first_dealer not in range(4):
            raise ValueError("first_dealer must be 0..3")
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.phase = "play"
        self.scores = [rules.start_points] * 4
        self.round_wind = 0
        self.kyoku = 0
        self.dealer = first_dealer
        self.honba = 0
        self.riichi_sticks = 0
        self.round_index = 0
        self.log: list[Action | None] = []
        self.round_results: list[RoundResult] = []
        self.final: list[dict[str, Any]] | None = None
        self.start_events: list[Event] = []
        self.total_points = 0
        self._tile = _TILE_RED if rules.red_fives else _TILE_PLAIN
        self._legal: dict[int, list[Action]] = {}
        # per-round fields, set by _start_round
        self.wall: Wall = Wall(list(range(136)))
        self.hands: list[list[TileId]] = [[], [], [], []]
        # 34-count arrays of the concealed tiles, kept in step with ``hands``
        self.cnt: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.shanten13 = [8, 8, 8, 8]  # shanten of each seat's last 3n+1 hand
        self.drawn: list[TileId | None] = [None] * 4
        self.melds: list[list[Furo]] = [[], [], [], []]
        self.rivers: list[list[RiverTile]] = [[], [], [], []]
        self.draw_pos = FIRST_DRAW
        self.kans = 0
        self.rinshan_drawn = 0
        self.kan_seats: list[int] = []
        self.dora_count = 1
        self.pending_dora = 0
        self.pending_dora_seat: int | None = None
        self.kan_is_kakan = False
        self.turn = first_dealer
        self.step = _S_END
        self.riichi = [False] * 4
        self.double_riichi = [False] * 4
        self.ippatsu = [False] * 4
        self.riichi_decl: int | None = None
        self.furiten_temp = [False] * 4
        self.furiten_riichi = [False] * 4
        self.waits: list[list[Kind]] = [[], [], [], []]
        self.discards = [0] * 4
        self.uninterrupted = True
        self.rinshan = False
        self.kuikae: frozenset[Kind] = frozenset()
        self.pao_dragon: list[int | None] = [None] * 4
        self.pao_wind: list[int | None] = [None] * 4
        self.claim_tile: TileId | None = None
        self.claim_from: int | None = None
        self.claim_options: dict[int, list[Action]] = {}
        self.claim_answers: dict[int, Action] = {}
        self.claim_results: dict[int, WinResult] = {}
        self.round_deltas = [0, 0, 0, 0]
        self.round_start_honba = 0
        self.round_start_sticks = 0
        self.last_result: RoundResult | None = None

    # --- construction -----------------------------------------------------

    @classmethod
    def at_round(
        cls,
        rules: RuleSet,
        *,
        round_wind: int,
        dealer: int,
        honba: int = 0,
        riichi_sticks: int = 0,
        scores: Sequence[int] | None = None,
        wall: Wall | None = None,
        first_dealer: int = 0,
        seed: bytes = b"",
        round_index: int = 0,
    ) -> GameState:
        """A game starting at an arbitrary round (scenario tests, log replay)."""
        if round_wind not in range(4) or dealer not in range(4):
            raise ValueError("round_wind and dealer must be 0..3")
        if honba < 0 or riichi_sticks < 0:
            raise ValueError("honba and riichi_sticks must be non-negative")
        st = cls(rules, seed, first_dealer)
        if scores is not None:
            if len(scores) != 4:
                raise ValueError("scores must have 4 entries")
            st.scores = list(scores)
        st.round_wind = round_wind
        st.dealer = dealer
        st.kyoku = (dealer - first_dealer) % 4
        st.honba = honba
        st.riichi_sticks = riichi_sticks
        st.round_index = round_index
        st.total_points = sum(st.scores) + 1000 * riichi_sticks
        st.start_events = st._start_round(wall)
        return st

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
        new.hands = [list(h) for h in self.hands]
        new.cnt = [list(c) for c in self.cnt]
        new.shanten13 = list(self.shanten13)
        new.drawn = list(self.drawn)
        new.melds = [list(m) for m in self.melds]
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

    # --- helpers ----------------------------------------------------------

    def tile(self, tid: TileId) -> Tile:
        return self._tile[tid]

    def concealed(self, seat: int) -> list[Tile]:
        return [self._tile[t] for t in self.hands[seat]]

    def counts(self, seat: int) -> list[int]:
        """A copy of the seat's 34-count array of concealed tiles."""
        return list(self.cnt[seat])

    def live_left(self) -> int:
        return DEAD_START - self.kans - self.draw_pos

    def seat_wind(self, seat: int) -> Kind:
        return EAST + (seat - self.dealer) % 4

    def is_closed(self, seat: int) -> bool:
        return all(not f.meld.is_open for f in self.melds[seat])

    def dora_indicators(self) -> list[Tile]:
        return [self._tile[self.wall.tiles[DORA_POS[i]]] for i in range(self.dora_count)]

    def ura_indicators(self) -> list[Tile]:
        return [self._tile[self.wall.tiles[URA_POS[i]]] for i in range(self.dora_count)]

    def river_furiten(self, seat: int) -> bool:
        ws = self.waits[seat]
        if not ws:
            return False
        return any((r.tid >> 2) in ws for r in self.rivers[seat])

    def furiten(self, seat: int) -> bool:
        return self.furiten_temp[seat] or self.furiten_riichi[seat] or self.river_furiten(seat)

    def _ctx(self, seat: int, win_tile: Tile, tsumo: bool, *, chankan: bool = False) -> WinContext:
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
            houtei=not tsumo and not chankan and self.live_left() == 0,
            rinshan=tsumo and self.rinshan,
            chankan=chankan,
            tenhou=first and seat == self.dealer,
            chiihou=first and seat != self.dealer,
            dora_indicators=tuple(self.dora_indicators()),
            ura_indicators=tuple(self.ura_indicators()) if self.riichi[seat] else (),
            honba=self.honba,
            riichi_sticks=self.riichi_sticks,
        )

    def _score(
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
                self._ctx(seat, win_tile, tsumo, chankan=chankan),
                self.rules,
            )
        except ScoreError as exc:
            # Only "not complete" and "no yaku" mean no win; bad_input is a caller bug.
            if exc.code == "bad_input":
                raise
            return None

    def _update_waits(self, seat: int, bound: int | None = None) -> None:
        """Recompute a 3n+1 hand's waits; ``bound`` is a known lower bound of its shanten.

        One draw (or call) and one discard lower shanten by one at most, so a hand
        two away before its turn cannot be tenpai after it: then neither the
        shanten nor the wait search runs, and ``shanten13`` keeps the bound.
        """
        if bound is not None and bound >= 1:
            self.shanten13[seat] = bound
            self.waits[seat] = []
            return
        # one shanten call is much cheaper than the full wait search, and most hands are not tenpai
        c = self.cnt[seat]
        sh = shanten(c)
        self.shanten13[seat] = sh
        self.waits[seat] = waits(c) if sh == 0 else []

    # --- round start ------------------------------------------------------

    def _start_round(self, wall: Wall | None) -> list[Event]:
        if wall is None:
            wall = Wall.from_seed(
                self.seed, self.round_index, self.dealer, red_fives=self.rules.red_fives > 0
            )
        self.wall = wall
        # the wall says whether ids 16/52/88 are red (a logged wall may differ from the rules)
        self._tile = _TILE_RED if wall.red_fives else _TILE_PLAIN
        self.phase = "play"
        self.hands = [sorted(wall.hand(s, self.dealer)) for s in range(4)]
        self.cnt = [[0] * NUM_KINDS for _ in range(4)]
        for s in range(4):
            for t in self.hands[s]:
                self.cnt[s][t >> 2] += 1
        self.drawn = [None] * 4
        self.melds = [[], [], [], []]
        self.rivers = [[], [], [], []]
        self.draw_pos = FIRST_DRAW
        self.kans = 0
        self.rinshan_drawn = 0
        self.kan_seats = []
        self.dora_count = 1
        self.pending_dora = 0
        self.pending_dora_seat = None
        self.kan_is_kakan = False
        self.riichi = [False] * 4
        self.double_riichi = [False] * 4
        self.ippatsu = [False] * 4
        self.riichi_decl = None
        self.furiten_temp = [False] * 4
        self.furiten_riichi = [False] * 4
        self.discards = [0] * 4
        self.uninterrupted = True
        self.rinshan = False
        self.kuikae = frozenset()
        self.pao_dragon = [None] * 4
        self.pao_wind = [None] * 4
        self._clear_claims()
        self.round_deltas = [0, 0, 0, 0]
        self.round_start_honba = self.honba
        self.round_start_sticks = self.riichi_sticks
        self.last_result = None
        for s in range(4):
            self._update_waits(s)
        events = [
            Event(
                "round_start",
                {
                    "round_wind": WIND_NAMES[self.round_wind],
                    "kyoku": self.kyoku + 1,
                    "honba": self.honba,
                    "riichi_sticks": self.riichi_sticks,
                    "scores": list(self.scores),
                    "dealer": self.dealer,
                    "dice": list(wall.dice),
                    "dora_indicators": [_TSTR[t] for t in self.dora_indicators()],
                    "wall_left": self.live_left(),
                    "round_index": self.round_index,
                },
            )
        ]
        for s in range(4):
            events.append(
                Event(
                    "haipai",
                    {"seat": s, "tiles": _sorted_strs(self.concealed(s))},
                    frozenset({s}),
                )
            )
        events += self._draw(self.dealer, rinshan=False)
        return events

    def _clear_claims(self) -> None:
        self.claim_tile = None
        self.claim_from = None
        # new dicts only when something was put in them: most windows stay empty
        if self.claim_options:
            self.claim_options = {}
        if self.claim_answers:
            self.claim_answers = {}
        if self.claim_results:
            self.claim_results = {}

    def _draw(self, seat: int, *, rinshan: bool) -> list[Event]:
        if rinshan:
            tid = self.wall.tiles[RINSHAN_POS[self.rinshan_drawn]]
            self.rinshan_drawn += 1
        else:
            tid = self.wall.tiles[self.draw_pos]
            self.draw_pos += 1
        insort(self.hands[seat], tid)  # hands stay sorted: _discards relies on it
        self.cnt[seat][tid >> 2] += 1
        self.drawn[seat] = tid
        self.turn = seat
        self.step = _S_TURN
        self.rinshan = rinshan
        self.kuikae = _NO_KINDS
        left = DEAD_START - self.kans - self.draw_pos
        self._legal = {}
        return [
            Event(
                "draw",
                {
                    "seat": seat,
                    "tile": _TSTR[self._tile[tid]],
                    "rinshan": rinshan,
                    "wall_left": left,
                },
                _ONLY[seat],
            ),
            Event("tsumo_turn", {"seat": seat, "rinshan": rinshan, "wall_left": left}),
        ]

    # --- legal actions ----------------------------------------------------

    def legal(self, seat: int) -> list[Action]:
        """The seat's legal actions (cached until the next transition; do not mutate)."""
        # .get, not try/except: every decision has one miss, and a raised KeyError costs more
        hit = self._legal.get(seat)
        if hit is not None:
            return hit
        if self.phase != "play" or seat not in _SEATS:
            out: list[Action] = []
        elif self.step is _S_CLAIM or self.step is _S_CHANKAN:
            out = [] if seat in self.claim_answers else self.claim_options.get(seat, [])
        elif seat != self.turn:
            out = []
        elif self.step is _S_CALLED:
            out = self._discards(seat)
        else:
            out = self._turn_actions(seat)
        self._legal[seat] = out
        return out

    def _discards(self, seat: int) -> list[Action]:
        if self.riichi[seat]:
            d = self.drawn[seat]
            assert d is not None
            return [_act(A_DISCARD, seat, self.tile(d))]
        kuikae = self.kuikae
        table = _DISCARD[seat]
        tiles = self._tile
        if not kuikae:
            # the common case, deduplicated in C; dict keys keep first-seen (id) order
            return list(
                map(table.__getitem__, dict.fromkeys(map(tiles.__getitem__, self.hands[seat])))
            )
        out = []
        prev = -1
        # hands are kept in id order, where equal tiles are adjacent (a red five
        # has its own id), so one comparison with the previous tile drops duplicates
        for tid in self.hands[seat]:
            t = tiles[tid]
            if t != prev:
                prev = t
                if (tid >> 2) not in kuikae:
                    out.append(table[t])
        return out

    def _turn_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        drawn = self.drawn[seat]
        assert drawn is not None
        c = self.cnt[seat]
        riichi = self.riichi[seat]
        left = DEAD_START - self.kans - self.draw_pos
        if (drawn >> 2) in self.waits[seat] and self._score(seat, self._tile[drawn], True):
            out.append(_TSUMO_OF[seat])
        if (
            self.uninterrupted
            and self.discards[seat] == 0
            and self.rules.abortive_draws
            and sum(1 for k in YAOCHU if c[k]) >= 9
        ):
            out.append(_KYUUSHU_OF[seat])
        # R7/R13: no kan on the last tile, none beyond the fourth
        if left > 0 and self.kans < 4:
            if 4 in c:
                for k in range(NUM_KINDS):
                    if c[k] == 4 and (not riichi or self._riichi_ankan_ok(seat, k)):
                        out.append(_act(A_ANKAN, seat, k))
            if not riichi:
                for f in self.melds[seat]:
                    # a pon's tiles are all of one kind: the fourth must be in hand
                    if f.meld.type is _M_PON and c[_KIND[f.meld.tiles[0]]]:
                        k = _KIND[f.meld.tiles[0]]
                        for tid in self.hands[seat]:
                            if tid >> 2 == k:
                                out.append(_act(A_KAKAN, seat, self._tile[tid]))
                                break
        if (
            not riichi
            and self.shanten13[seat] <= 1  # one draw lowers shanten by one at most
            and left >= 4
            and self.scores[seat] >= 1000
            and self.is_closed(seat)
            and shanten(c) <= 0
        ):
            seen: set[Tile] = set()
            for tid in self.hands[seat]:
                t = self._tile[tid]
                if t in seen:
                    continue
                seen.add(t)
                c[tid >> 2] -= 1
                try:
                    # R14: not on a wait held four times in the concealed hand
                    if shanten(c) == 0 and (4 not in c or any(c[w] < 4 for w in waits(c))):
                        out.append(_act(A_RIICHI, seat, t))
                finally:
                    c[tid >> 2] += 1
        if not out:
            return self._discards(seat)  # the common turn: only discards, no copy needed
        out.extend(self._discards(seat))
        return out

    def _riichi_ankan_ok(self, seat: int, k: Kind) -> bool:
        """R14: after riichi, an ankan of the drawn tile that keeps the waits and the reading."""
        drawn = self.drawn[seat]
        if drawn is None or drawn >> 2 != k:
            return False
        before = list(self.counts(seat))
        before[k] -= 1  # the hand before the draw, whose waits are stored
        after = list(before)
        after[k] -= 3
        if waits(after) != self.waits[seat]:
            return False
        for w in self.waits[seat]:
            before[w] += 1
            readings = regular_readings(before)
            before[w] -= 1
            if not readings:
                return False  # only chiitoitsu/kokushi: impossible with three of k, be safe
            for r in readings:
                if not any(b.type is BlockType.KOUTSU and b.first == k for b in r):
                    return False
        return True

    # --- claim options after a discard / kan --------------------------------

    def _claim_options_for_discard(self, discarder: int, tid: TileId) -> None:
        """Every other seat's claims on a discard; then R16: a seat whose winning
        tile passes becomes furiten (as ``_mark_passed_furiten``, in the same loop:
        marking one seat changes no other seat's options)."""
        t = self._tile[tid]
        k = tid >> 2
        # R10: none on the last discard; R13: none on the discard that aborts the
        # round after the fourth kan by two or more players (only ron or pass)
        calls_ok = DEAD_START - self.kans - self.draw_pos > 0 and not self._suukan_pending()
        chi_seat = (discarder + 1) % 4
        waits, riichi, cnt = self.waits, self.riichi, self.cnt  # locals: read 3 times a discard
        for s in _OTHERS[discarder]:
            opts: list[Action] | None = None
            w = waits[s]
            if w and k in w:
                if not self.furiten(s):
                    res = self._score(s, t, False)
                    if res is not None:
                        opts = [_RON_OF[s]]
                        self.claim_results[s] = res
                self._mark_passed_furiten_seat(s)
            if calls_ok and not riichi[s]:
                c = cnt[s]
                # cheap test first: most discards give nobody a call
                if c[k] >= 2 or (
                    s == chi_seat
                    and k < 27
                    and (
                        (
                            k % 9 >= 1
                            and c[k - 1]
                            and ((k % 9 >= 2 and c[k - 2]) or (k % 9 <= 7 and c[k + 1]))
                        )
                        or (k % 9 <= 6 and c[k + 1] and c[k + 2])
                    )
                ):
                    calls = self._call_options(s, discarder, t)
                    if calls:
                        if opts is None:
                            opts = calls
                        else:
                            opts.extend(calls)
            if opts:
                opts.append(_PASS_OF[s])
                self.claim_options[s] = opts

    def _call_options(self, s: int, discarder: int, t: Tile) -> list[Action]:
        k = t if t < NUM_KINDS else kind(t)
        c = self.cnt[s]
        n_k = c[k]
        # (own kinds, the kind at the run's other end that kuikae also forbids)
        shapes: list[tuple[Kind, Kind, Kind]] = []
        if s == (discarder + 1) % 4 and k < 27:
            n = k % 9
            if n >= 2 and c[k - 2] and c[k - 1]:
                shapes.append((k - 2, k - 1, k - 3 if n >= 3 else -1))
            if 1 <= n <= 7 and c[k - 1] and c[k + 1]:
                shapes.append((k - 1, k + 1, -1))
            if n <= 6 and c[k + 1] and c[k + 2]:
                shapes.append((k + 1, k + 2, k + 3 if n <= 5 else -1))
        if n_k < 2 and not shapes:
            return []  # the common case, decided without building anything
        by_tile: dict[Tile, list[TileId]] = {}
        for tid in self.hands[s]:
            by_tile.setdefault(self._tile[tid], []).append(tid)
        n_total = len(self.hands[s])
        out: list[Action] = []
        if n_k >= 2 and n_total > n_k:  # R11: a tile other than k must remain to discard
            for pair in _variants(by_tile, [k, k]):
                out.append(_act(A_PON, s, None, pair))
        if n_k >= 3 and self.kans < 4:
            own = sorted((self._tile[x] for x in self.hands[s] if x >> 2 == k), key=sort_key)
            out.append(_act(A_DAIMINKAN, s, None, tuple(own)))
        for a, b, other in shapes:
            # R11: after the chi some tile must remain that is neither k nor the other end
            allowed = n_total - 2 - c[k] - (c[other] if other >= 0 else 0)
            if allowed > 0:
                for pair in _variants(by_tile, [a, b]):
                    out.append(_act(A_CHI, s, None, pair))
        return out

    # --- apply --------------------------------------------------------------

    def why_illegal(self, action: Action) -> str:
        s = action.seat
        if self.phase != "play":
            return f"no action is possible in phase {self.phase}"
        if s not in range(4):
            return "seat must be 0..3"
        if any(t not in range(37) for t in (*action.tiles, action.tile) if t is not None):
            return "no such tile"
        legal = self.legal(s)
        if not legal:
            if self.step in (_S_CLAIM, _S_CHANKAN) and s in self.claim_answers:
                return f"seat {s} has already answered"
            return f"seat {s} is not to act now"
        types = {a.type for a in legal}
        at = action.type
        if at not in types:
            if at is A_RIICHI:
                if self.riichi[s]:
                    return "already in riichi"
                if not self.is_closed(s):
                    return "riichi needs a closed hand"
                if self.scores[s] < 1000:
                    return "riichi needs at least 1000 points"
                if self.live_left() < 4:
                    return "riichi needs at least 4 tiles left in the live wall"
                return "the hand is not tenpai"
            if at in (A_ANKAN, A_KAKAN, A_DAIMINKAN):
                if self.kans >= 4:
                    return "a fifth kan is not allowed"
                if self.live_left() == 0:
                    return "no kan on the last tile"
            if at in (A_PON, A_CHI, A_DAIMINKAN) and self.live_left() == 0:
                return "no calls on the last discard"
            if at is A_RON:
                return "no ron: not a winning tile, no yaku, or furiten"
            if at is A_TSUMO:
                return "no tsumo: the hand is not complete with a yaku"
            return f"{at.value} is not possible now"
        if at is A_DISCARD and action.tile is not None:
            if self.riichi[s]:
                return "after riichi only the drawn tile may be discarded"
            if kind(action.tile) in self.kuikae:
                return f"{tile_str(action.tile)} is kuikae-forbidden after the call"
            return f"{tile_str(action.tile)} is not in the hand"
        if at is A_RIICHI:
            if action.tile is not None and action.tile in {self._tile[t] for t in self.hands[s]}:
                c = self.counts(s)
                c[kind(action.tile)] -= 1
                if shanten(c) == 0:
                    return "that discard leaves only waits on tiles the hand holds all four of"
            return "discarding that tile does not leave the hand tenpai"
        if at is A_ANKAN and action.tile is not None and action.tile >= NUM_KINDS:
            return f"name an ankan by its kind ({tile_str(kind(action.tile))}), not the red five"
        if len(action.tiles) > 1 and tuple(sorted(action.tiles, key=sort_key)) != action.tiles:
            return "list the own tiles in the order legal_actions gives (sorted)"
        return f"that {at.value} is not possible (wrong tiles)"

    def apply(self, action: Action) -> list[Event]:
        if action.seat not in _SEATS:
            raise IllegalAction(self.why_illegal(action))
        legal = self.legal(action.seat)
        for a in legal:
            if a is action:  # bots hand back the very objects listed: no __eq__ calls
                break
        else:
            if action not in legal:
                raise IllegalAction(self.why_illegal(action))
        self._legal = {}
        self.log.append(action)
        at = action.type
        s = action.seat
        if self.step in (_S_CLAIM, _S_CHANKAN):
            self.claim_answers[s] = action
            return self._maybe_resolve()
        if at is A_DISCARD:
            return self._discard(s, action.tile, riichi=False)
        if at is A_RIICHI:
            return self._discard(s, action.tile, riichi=True)
        if at is A_TSUMO:
            return self._tsumo(s)
        if at is A_KYUUSHU:
            hand = {str(s): _sorted_strs(self.concealed(s))}
            return self._ryuukyoku("kyuushu_kyuuhai", hands=hand)
        if at is A_ANKAN:
            assert action.tile is not None
            return self._ankan(s, action.tile)
        if at is A_KAKAN:
            assert action.tile is not None
            return self._kakan(s, action.tile)
        raise IllegalAction(f"{at.value} is not possible now")  # pragma: no cover

    # --- own turn ------------------------------------------------------------

    def _discard(self, s: int, tile: Tile | None, *, riichi: bool) -> list[Event]:
        assert tile is not None
        drawn = self.drawn[s]
        tiles = self._tile
        hand = self.hands[s]
        if drawn is not None and tiles[drawn] == tile:
            tid = drawn
            tsumogiri = True
            del hand[bisect_left(hand, tid)]
        else:
            # hands are in id order and a kind's ids are 4k..4k+3: start the search there
            # (the action was validated, so the tile is in the hand)
            i = bisect_left(hand, _KIND[tile] << 2)
            while tiles[hand[i]] != tile or hand[i] == drawn:
                i += 1
            tid = hand.pop(i)
            tsumogiri = False
        self.cnt[s][tid >> 2] -= 1
        self.drawn[s] = None
        self.rivers[s].append(_new_tuple(RiverTile, (tid, tile, tsumogiri, riichi, False)))
        if riichi:
            self.riichi_decl = s
        elif self.ippatsu[s]:
            self.ippatsu[s] = False  # R15: ippatsu ends at the declarer's next discard
        self.furiten_temp[s] = False  # R16: lifted by one's own discard
        self.discards[s] += 1
        self.rinshan = False
        self.kuikae = _NO_KINDS
        if not tsumogiri:
            # a tsumogiri leaves the hand as it was before the draw: waits unchanged
            self._update_waits(s, self.shanten13[s] - 1)
        events = [
            Event(
                "discard",
                {"seat": s, "tile": _TSTR[tile], "tsumogiri": tsumogiri, "riichi": riichi},
            )
        ]
        if self.pending_dora and self.pending_dora_seat == s:
            events += self._reveal_pending()
        self._clear_claims()
        self.claim_tile = tid
        self.claim_from = s
        self.step = _S_CLAIM
        self._claim_options_for_discard(s, tid)  # marks passed-tile furiten too (R16)
        return events + self._maybe_resolve()

    def _mark_passed_furiten(self, source: int, k: Kind) -> None:
        """R16: a seat whose winning tile passes becomes furiten (unless it rons)."""
        waits = self.waits
        for o in range(4):
            if o != source and k in waits[o]:
                self._mark_passed_furiten_seat(o)

    def _mark_passed_furiten_seat(self, o: int) -> None:
        if self.riichi[o]:
            self.furiten_riichi[o] = True
        self.furiten_temp[o] = True

    def _reveal_pending(self) -> list[Event]:
        out = []
        while self.pending_dora:
            self.pending_dora -= 1
            out.append(self._reveal_dora())
        self.pending_dora_seat = None
        return out

    def _reveal_dora(self) -> Event:
        self.dora_count += 1
        inds = self.dora_indicators()
        return Event(
            "new_dora",
            {"indicator": _TSTR[inds[-1]], "dora_indicators": [_TSTR[t] for t in inds]},
        )

    def _tsumo(self, s: int) -> list[Event]:
        drawn = self.drawn[s]
        assert drawn is not None
        res = self._score(s, self.tile(drawn), True)
        assert res is not None
        win = self._settle(s, None, self.tile(drawn), res, self.honba, self.riichi_sticks)
        return self._agari([win])

    def _ankan(self, s: int, k: Kind) -> list[Event]:
        ids = tuple(t for t in self.hands[s] if t >> 2 == k)
        for t in ids:
            self.hands[s].remove(t)
        self.cnt[s][k] -= 4
        tiles = tuple(sorted((self.tile(t) for t in ids), key=sort_key))
        self.melds[s].append(Furo(Meld(_M_ANKAN, tiles), ids))
        self.drawn[s] = None
        self._kan_common(s)
        events = [
            Event(
                "kan",
                {"seat": s, "meld": "ankan", "tiles": [tile_str(t) for t in tiles], "added": None},
            )
        ]
        events += self._reveal_pending()
        events.append(self._reveal_dora())  # R12: ankan reveals at once
        self._update_waits(s)
        # R12: only kokushi may rob an ankan, where the rules allow it
        self._clear_claims()
        self.claim_tile = ids[0]
        self.claim_from = s
        for o in range(4):
            if (
                o == s
                or not self.rules.kokushi_ankan_chankan
                or k not in self.waits[o]
                or self.furiten(o)
            ):
                continue
            c = self.counts(o)
            if sum(c) == 13 and shanten_kokushi(c) == 0:
                res = self._score(o, self.tile(ids[0]), False, chankan=True)
                if res is not None:
                    self.claim_results[o] = res
                    self.claim_options[o] = [_RON_OF[o], _PASS_OF[o]]
        self.kan_is_kakan = False
        if self.claim_options:
            self.step = _S_CHANKAN
            for o in self.claim_options:
                self._mark_passed_furiten_seat(o)
            return events
        return events + self._finish_kan(s)

    def _kakan(self, s: int, t: Tile) -> list[Event]:
        k = kind(t)
        tid = next(x for x in self.hands[s] if self.tile(x) == t)
        self.hands[s].remove(tid)
        self.cnt[s][k] -= 1
        idx = next(
            i for i, f in enumerate(self.melds[s]) if f.meld.type is _M_PON and f.meld.first == k
        )
        old = self.melds[s][idx]
        self.melds[s][idx] = Furo(
            Meld(_M_KAKAN, (*old.meld.tiles, t), old.meld.called, old.meld.from_seat),
            (*old.ids, tid),
        )
        self.drawn[s] = None
        self._kan_common(s)
        events = [
            Event(
                "kan",
                {
                    "seat": s,
                    "meld": "kakan",
                    "tiles": [tile_str(x) for x in self.melds[s][idx].meld.tiles],
                    "added": tile_str(t),
                },
            )
        ]
        self._update_waits(s)
        # R12: chankan
        self._clear_claims()
        self.claim_tile = tid
        self.claim_from = s
        for o in range(4):
            if o == s or k not in self.waits[o] or self.furiten(o):
                continue
            res = self._score(o, t, False, chankan=True)
            if res is not None:
                self.claim_results[o] = res
                self.claim_options[o] = [_RON_OF[o], _PASS_OF[o]]
        self._mark_passed_furiten(s, k)
        self.kan_is_kakan = True
        if self.claim_options:
            self.step = _S_CHANKAN
            return events
        return events + self._finish_kan(s)

    def _kan_common(self, s: int) -> None:
        self.kans += 1
        self.kan_seats.append(s)

    def _finish_kan(self, s: int) -> list[Event]:
        """An ankan/kakan that was not robbed: it takes effect, then the rinshan draw."""
        # R15: any kan, an own ankan included, breaks ippatsu and the first go; only
        # now, since a chankan ron still counts ippatsu (as Tenhou scores it)
        self.ippatsu = [False] * 4
        self.uninterrupted = False
        events: list[Event] = []
        if self.kan_is_kakan:
            # R12: an earlier kan's pending dora shows at this kan; Tenhou turns it
            # only once the kakan stands (not when it is robbed)
            events += self._reveal_pending()
            self.pending_dora = 1
            self.pending_dora_seat = s
        self.kan_is_kakan = False
        return events + self._draw(s, rinshan=True)

    # --- call window ----------------------------------------------------------

    def _maybe_resolve(self) -> list[Event]:
        """Resolve the window once its outcome is certain (R8)."""
        opts = self.claim_options
        if not opts:
            return self._after_window(None)
        ans = self.claim_answers
        src = self.claim_from
        assert src is not None
        order = _AFTER[src]
        # a seat has a ron option exactly when its win was scored into claim_results
        results = self.claim_results
        ron_seats = [s for s in order if s in results] if results else []
        pending_ron = [s for s in ron_seats if s not in ans]
        rons = [s for s in ron_seats if s in ans and ans[s].type is A_RON]
        if self.rules.multiple_ron == "atamahane":
            # the first ron in turn order wins; later seats cannot change that
            for s in ron_seats:
                if s not in ans:
                    return []
                if ans[s].type is A_RON:
                    return self._ron([s])
            rons = []
        elif pending_ron:
            return []
        if rons:
            return self._ron(rons)
        if self.step is _S_CHANKAN:
            self._clear_claims()
            return self._finish_kan(src)
        # no ron: pon/daiminkan beats chi
        call: Action | None = None
        for s in order:
            kinds = {a.type for a in opts.get(s, [])}
            if kinds & {A_PON, A_DAIMINKAN}:
                if s not in ans:
                    return []
                if ans[s].type in (A_PON, A_DAIMINKAN):
                    call = ans[s]
        if call is None:
            for s in order:
                if any(a.type is A_CHI for a in opts.get(s, [])):
                    if s not in ans:
                        return []
                    if ans[s].type is A_CHI:
                        call = ans[s]
        return self._after_window(call)

    def _after_window(self, call: Action | None) -> list[Event]:
        src = self.claim_from
        tid = self.claim_tile
        assert src is not None and tid is not None
        self._clear_claims()
        events: list[Event] = []
        if self.riichi_decl is not None:
            s = self.riichi_decl
            self.riichi_decl = None
            self.riichi[s] = True
            self.ippatsu[s] = True
            self.double_riichi[s] = self.uninterrupted and self.discards[s] == 1
            self.scores[s] -= 1000
            self.round_deltas[s] -= 1000
            self.riichi_sticks += 1
            events.append(
                Event(
                    "riichi_accepted",
                    {
                        "seat": s,
                        "double": self.double_riichi[s],
                        "scores": list(self.scores),
                        "riichi_sticks": self.riichi_sticks,
                    },
                )
            )
            if all(self.riichi) and self.rules.abortive_draws:
                return events + self._ryuukyoku("suucha_riichi")
        if self._suukan_pending():
            return events + self._ryuukyoku("suukan_sanra")
        if call is not None:
            return events + self._call(call, src, tid)
        if (
            self.uninterrupted
            and sum(self.discards) == 4
            and self.rules.abortive_draws
            and all(len(r) == 1 for r in self.rivers)
            and len({r[0].tid >> 2 for r in self.rivers}) == 1
            and self.rivers[0][0].tid >> 2 in WINDS
        ):
            return events + self._ryuukyoku("suufon_renda")
        if DEAD_START - self.kans - self.draw_pos == 0:  # live_left(), inlined: every discard
            return events + self._exhaustive()
        return events + self._draw((src + 1) % 4, rinshan=False)

    def _suukan_pending(self) -> bool:
        """R13: four kans by two or more players abort the round when the window closes."""
        return self.kans == 4 and self.rules.abortive_draws and len(set(self.kan_seats)) > 1

    def _call(self, a: Action, src: int, tid: TileId) -> list[Event]:
        s = a.seat
        tiles_of = self._tile
        t = tiles_of[tid]
        own: list[TileId] = []
        pool = list(self.hands[s])
        for want in a.tiles:
            x = next(x for x in pool if tiles_of[x] == want)
            pool.remove(x)
            own.append(x)
        self.hands[s] = pool
        for x in own:
            self.cnt[s][x >> 2] -= 1
        self.rivers[src][-1] = self.rivers[src][-1]._replace(called=True)
        self.ippatsu = [False] * 4
        self.uninterrupted = False
        ids = (*own, tid)
        tiles = tuple(sorted((tiles_of[x] for x in ids), key=_SORT.__getitem__))
        mt = _MELD_OF_CALL[a.type]
        self.melds[s].append(Furo(Meld(mt, tiles, t, src), ids))
        k = tid >> 2
        if mt is not _M_CHI:
            self._track_pao(s, src, k)
        events = [
            Event(
                "call",
                {
                    "seat": s,
                    "meld": mt.value,
                    "tiles": [_TSTR[x] for x in tiles],
                    "called": _TSTR[t],
                    "from_seat": src,
                },
            )
        ]
        self.turn = s
        if mt is _M_DAIMINKAN:
            self._kan_common(s)
            events += self._reveal_pending()
            self.pending_dora = 1
            self.pending_dora_seat = s
            self._update_waits(s)
            return events + self._draw(s, rinshan=True)
        self.step = _S_CALLED
        if mt is _M_PON:
            self.kuikae = frozenset({k})
        else:
            lo = min(kind(x) for x in a.tiles)
            hi = max(kind(x) for x in a.tiles)
            forb = {k}
            if k < lo and hi + 1 < 27 and (hi + 1) // 9 == k // 9:
                forb.add(hi + 1)
            if k > hi and lo - 1 >= 0 and (lo - 1) // 9 == k // 9:
                forb.add(lo - 1)
            self.kuikae = frozenset(forb)
        return events

    def _track_pao(self, s: int, src: int, k: Kind) -> None:
        """R24: remember who fed the third dragon set or the fourth wind set."""
        sets = {f.meld.first for f in self.melds[s] if f.meld.type is not _M_CHI}
        if k in DRAGONS and all(d in sets for d in DRAGONS):
            self.pao_dragon[s] = src
        if k in WINDS and all(w in sets for w in WINDS):
            self.pao_wind[s] = src

    # --- round end -----------------------------------------------------------

    def _pao_for(self, seat: int, res: WinResult) -> int | None:
        ids = {y for y, _ in res.yakuman}
        if "daisangen" in ids and self.pao_dragon[seat] is not None:
            return self.pao_dragon[seat]
        if "daisuushii" in ids and self.pao_wind[seat] is not None:
            return self.pao_wind[seat]
        return None

    def _settle(
        self,
        seat: int,
        from_seat: int | None,
        win_tile: Tile,
        res: WinResult,
        honba: int,
        sticks: int,
    ) -> WinRecord:
        pao = self._pao_for(seat, res)
        if pao == seat:
            pao = None
        deltas = settle_win(
            res,
            winner=seat,
            dealer=self.dealer,
            discarder=from_seat,
            pao=pao,
            honba=honba,
            riichi_sticks=sticks,
            rules=self.rules,
        )
        return WinRecord(seat, from_seat, win_tile, res, tuple(deltas), pao)

    def _ron(self, seats: list[int]) -> list[Event]:
        src = self.claim_from
        assert src is not None
        if len(seats) == 3 and self.rules.multiple_ron == "double" and self.rules.abortive_draws:
            self.riichi_decl = None
            return self._ryuukyoku("sanchahou")
        results = dict(self.claim_results)
        assert self.claim_tile is not None
        win_tile = self.tile(self.claim_tile)
        self.riichi_decl = None  # R14: a declaration tile that is ronned puts no stick down
        wins = []
        for i, s in enumerate(seats):
            first = i == 0
            wins.append(
                self._settle(
                    s,
                    src,
                    win_tile,
                    results[s],
                    self.honba if first else 0,
                    self.riichi_sticks if first else 0,
                )
            )
        return self._agari(wins)

    def _agari(self, wins: list[WinRecord]) -> list[Event]:
        self._clear_claims()
        self.step = _S_END
        self.phase = "round_end"
        total = list(self.round_deltas)
        for w in wins:
            for i in range(4):
                total[i] += w.deltas[i]
                self.scores[i] += w.deltas[i]
        self.riichi_sticks = 0
        winners = []
        for w in wins:
            win_tile = w.win_tile
            if w.from_seat is None:
                hand = self.concealed(w.seat)
            else:
                win_tile = w.win_tile
                hand = [*self.concealed(w.seat), win_tile]
            r = w.result
            winners.append(
                {
                    "seat": w.seat,
                    "from_seat": w.from_seat,
                    "hand": _sorted_strs(hand),
                    "melds": [_meld_json(f.meld) for f in self.melds[w.seat]],
                    "win_tile": tile_str(win_tile),
                    **r.hand_json(),
                    "points": sum(r.payments.values())
                    if w.from_seat is not None
                    else _tsumo_points(r, w.seat == self.dealer),
                    "payments": dict(r.payments),
                    "pao": w.pao,
                    "deltas": list(w.deltas),
                }
            )
        any_riichi = any(self.riichi[w.seat] for w in wins)
        data = {
            "winners": winners,
            "dora_indicators": [tile_str(t) for t in self.dora_indicators()],
            "ura_indicators": [tile_str(t) for t in self.ura_indicators()] if any_riichi else [],
            "deltas": total,
            "scores": list(self.scores),
            "honba": self.honba,
            "riichi_sticks": 0,
        }
        dealer_won = any(w.seat == self.dealer for w in wins)
        self._record("agari", None, tuple(wins), (), total, dealer_won, dealer_won, data)
        return [Event("agari", data)]

    def _record(
        self,
        kind_: str,
        reason: str | None,
        wins: tuple[WinRecord, ...],
        tenpai: tuple[int, ...],
        deltas: list[int],
        renchan: bool,
        merit: bool,
        data: dict[str, Any],
    ) -> None:
        rr = RoundResult(
            self.round_wind,
            self.kyoku,
            self.round_start_honba,
            self.round_start_sticks,
            kind_,
            reason,
            wins,
            tenpai,
            tuple(deltas),
            tuple(self.scores),
            renchan,
            merit,
            data,
        )
        self.round_results.append(rr)
        self.last_result = rr

    def _ryuukyoku(
        self,
        reason: str,
        *,
        hands: dict[str, list[str]] | None = None,
        tenpai: tuple[int, ...] = (),
        nagashi: tuple[int, ...] = (),
        pay: list[int] | None = None,
        renchan: bool = True,
        merit: bool = False,
    ) -> list[Event]:
        self._clear_claims()
        self.step = _S_END
        self.phase = "round_end"
        pay = pay or [0, 0, 0, 0]
        total = [self.round_deltas[i] + pay[i] for i in range(4)]
        for i in range(4):
            self.scores[i] += pay[i]
        data = {
            "reason": reason,
            "tenpai": list(tenpai),
            "hands": hands or {},
            "nagashi": list(nagashi),
            "deltas": total,
            "scores": list(self.scores),
            "honba": self.honba + 1,
            "riichi_sticks": self.riichi_sticks,
        }
        self._record("ryuukyoku", reason, (), tenpai, total, renchan, merit, data)
        return [Event("ryuukyoku", data)]

    def is_tenpai_at_draw(self, s: int) -> bool:
        """Tenpai for the exhaustive draw (R17): a wait whose four copies are not all in
        the concealed hand; copies in the seat's own melds do not empty a wait."""
        held = self.cnt[s]
        return any(held[k] < 4 for k in self.waits[s])

    def _exhaustive(self) -> list[Event]:
        tenpai = tuple(s for s in range(4) if self.is_tenpai_at_draw(s))
        hands = {str(s): _sorted_strs(self.concealed(s)) for s in tenpai}
        dealer_tenpai = self.dealer in tenpai
        nagashi: tuple[int, ...] = ()
        if self.rules.nagashi_mangan:
            nagashi = tuple(
                s
                for s in range(4)
                if self.rivers[s]
                and all((r.tid >> 2) in YAOCHU and not r.called for r in self.rivers[s])
            )
        pay = [0, 0, 0, 0]
        if nagashi:
            # R17: a mangan tsumo per nagashi seat, no honba, no tenpai payments (Tenhou)
            for s in nagashi:
                for o in range(4):
                    if o == s:
                        continue
                    p = 4000 if (s == self.dealer or o == self.dealer) else 2000
                    pay[o] -= p
                    pay[s] += p
            return self._ryuukyoku(
                "nagashi_mangan",
                hands=hands,
                tenpai=tenpai,
                nagashi=nagashi,
                pay=pay,
                renchan=dealer_tenpai,
                merit=dealer_tenpai,
            )
        n = len(tenpai)
        if 0 < n < 4:
            for s in range(4):
                pay[s] = 3000 // n if s in tenpai else -3000 // (4 - n)
        return self._ryuukyoku(
            "exhaustive",
            hands=hands,
            tenpai=tenpai,
            pay=pay,
            renchan=dealer_tenpai,
            merit=dealer_tenpai,
        )

    # --- between rounds (R19, R25, R26) ----------------------------------------

    def next_round(self) -> list[Event]:
        if self.phase != "round_end" or self.last_result is None:
            raise IllegalAction(f"next_round needs phase round_end, not {self.phase}")
        self._legal = {}
        self.log.append(None)
        rr = self.last_result
        renchan = rr.renchan
        # R19: a non-dealer win resets the honba; a dealer win or any draw adds one
        honba = 0 if rr.kind == "agari" and not renchan else self.honba + 1
        last_wind = 0 if self.rules.length == "tonpuu" else 1
        if renchan:
            nxt = (self.round_wind, self.kyoku)
        else:
            nxt = (self.round_wind + (self.kyoku + 1) // 4, (self.kyoku + 1) % 4)
        over = self._game_over(rr, nxt, last_wind)
        if over:
            return [
                Event("round_end", {"scores": list(self.scores), "next": None}),
                *self._end_game(),
            ]
        self.round_wind, self.kyoku = nxt
        self.dealer = (self.first_dealer + self.kyoku) % 4
        self.honba = honba
        self.round_index += 1
        events = [
            Event(
                "round_end",
                {
                    "scores": list(self.scores),
                    "next": {
                        "round_wind": WIND_NAMES[self.round_wind],
                        "kyoku": self.kyoku + 1,
                        "honba": self.honba,
                        "dealer": self.dealer,
                    },
                },
            )
        ]
        return events + self._start_round(None)

    def ranking(self) -> list[int]:
        """Seats from first to fourth; ties go to the seat nearer the first dealer (R26)."""
        return sorted(range(4), key=lambda s: (-self.scores[s], (s - self.first_dealer) % 4))

    def _game_over(self, rr: RoundResult, nxt: tuple[int, int], last_wind: int) -> bool:
        if self.rules.tobi and any(p < 0 for p in self.scores):
            return True
        reached = max(self.scores) >= self.rules.return_points
        all_last = (self.round_wind, self.kyoku) >= (last_wind, 3)
        if not all_last:
            return False
        if self.round_wind > last_wind and reached:
            return True  # the extension ends as soon as someone reaches the return points
        if rr.renchan:
            # R25 agari-yame / tenpai-yame: the dealer kept the deal by merit and is top
            yame = self.rules.agari_yame if rr.kind == "agari" else self.rules.tenpai_yame
            return (
                yame
                and rr.dealer_merit
                and self.ranking()[0] == self.dealer
                and self.scores[self.dealer] >= self.rules.return_points
            )
        if nxt[0] > last_wind + 1 or not self.rules.west_extension:
            return True
        return reached

    def _end_game(self) -> list[Event]:
        self.phase = "game_end"
        self.step = _S_END
        order = self.ranking()
        sticks = self.riichi_sticks
        if sticks and self.rules.leftover_sticks_to_first:
            self.scores[order[0]] += 1000 * sticks
            self.riichi_sticks = 0
        oka = (self.rules.return_points - self.rules.start_points) * 4
        final = []
        for rank, s in enumerate(order):
            pts = self.scores[s]
            score = (pts - self.rules.return_points + (oka if rank == 0 else 0)) / 1000
            score += self.rules.uma[rank]
            final.append({"seat": s, "points": pts, "rank": rank + 1, "score": round(score, 1)})
        final.sort(key=lambda d: d["seat"])
        self.final = final
        return [
            Event(
                "game_end",
                {
                    "final": final,
                    "scores": list(self.scores),
                    "riichi_sticks_to_first": sticks if self.rules.leftover_sticks_to_first else 0,
                    "seed": self.seed.hex(),
                },
            )
        ]


def _tsumo_points(r: WinResult, dealer: bool) -> int:
    if dealer:
        return 3 * r.payments.get("tsumo_nondealer", 0)
    return r.payments.get("tsumo_dealer", 0) + 2 * r.payments.get("tsumo_nondealer", 0)


def _variants(by_tile: dict[Tile, list[TileId]], want: list[Kind]) -> list[tuple[Tile, ...]]:
    """Distinct choices of own tiles (a red five or a plain one) for the two kinds in ``want``."""
    a, b = want
    opts_a = [t for t in by_tile if kind(t) == a]
    if a == b:
        # two tiles of one kind: plain+plain and/or plain+red (one red five per suit)
        plain = [t for t in opts_a if t < NUM_KINDS]
        red = [t for t in opts_a if t >= NUM_KINDS]
        out: list[tuple[Tile, ...]] = []
        if plain and len(by_tile[plain[0]]) >= 2:
            out.append((plain[0], plain[0]))
        if plain and red:
            out.append((plain[0], red[0]))
        return out
    opts_b = [t for t in by_tile if kind(t) == b]
    key = _SORT.__getitem__
    pairs = {tuple(sorted((x, y), key=key)) for x in opts_a for y in opts_b}
    return sorted(pairs, key=lambda p: [key(t) for t in p])


# --- the functional API of docs/engine.md -----------------------------------


def new_game(rules: RuleSet, seed: bytes, first_dealer: int = 0) -> GameState:
    """A hanchan with round 1 dealt; ``start_events`` holds its opening events."""
    st = GameState(rules, seed, first_dealer)
    st.total_points = sum(st.scores)
    start = Event(
        "game_start",
        {"rules": rules.to_dict(), "first_dealer": first_dealer, "scores": list(st.scores)},
    )
    st.start_events = [start, *st._start_round(None)]
    return st


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Exactly what ``seat`` may do now (a fresh list; empty if nothing to decide)."""
    return list(state.legal(seat))


def waiting_on(state: GameState) -> frozenset[int]:
    """Seats whose decision the state awaits now."""
    if state.phase != "play":
        return frozenset()
    if state.step is _S_TURN or state.step is _S_CALLED:
        return _ONLY[state.turn]  # the seat in turn always has a discard at least
    return frozenset(s for s in state.claim_options if s not in state.claim_answers)


def apply(state: GameState, action: Action) -> list[Event]:
    """Validate and apply one action; IllegalAction (state unchanged) if not legal now."""
    return state.apply(action)


def next_round(state: GameState) -> list[Event]:
    """In phase round_end: start the next round, or end the game (R19, R25, R26)."""
    return state.next_round()


def replay(
    rules: RuleSet, seed: bytes, log: Sequence[Action | None], first_dealer: int = 0
) -> GameState:
    """Rebuild a game from its seed and ``state.log`` (R6)."""
    st = new_game(rules, seed, first_dealer)
    for a in log:
        if a is None:
            st.next_round()
        else:
            st.apply(a)
    return st


from server.engine.riichi.invariants import check_invariants  # noqa: E402
from server.engine.view import view  # noqa: E402

__all__ = [
    "Action",
    "Event",
    "GameState",
    "IllegalAction",
    "RoundResult",
    "Wall",
    "WinRecord",
    "apply",
    "check_invariants",
    "legal_actions",
    "new_game",
    "next_round",
    "replay",
    "view",
    "waiting_on",
]
