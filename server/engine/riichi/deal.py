"""The wall at work: dealing a round, drawing, and turning dora indicators (R2-R4)."""

from __future__ import annotations

from bisect import insort

from server.engine.events import Event
from server.engine.riichi.events import Draw, Haipai, NewDora, RoundStart
from server.engine.riichi.shanten import shanten
from server.engine.riichi.state import S_TURN, TILE_PLAIN, TILE_RED, GameState
from server.engine.riichi.ukeire import waits
from server.engine.riichi.wall import LAYOUTS, Wall
from server.engine.tiles import NUM_KINDS, Tile, sort_key

_SORT = [sort_key(t) for t in range(37)]
_NO_KINDS: frozenset[int] = frozenset()


def sorted_tiles(tiles: list[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=_SORT.__getitem__))


def update_waits(st: GameState, seat: int, bound: int | None = None) -> None:
    """Recompute a 3n+1 hand's waits; ``bound`` is a known lower bound of its shanten.

    One draw (or call) and one discard lower shanten by one at most, so a hand
    two away before its turn cannot be tenpai after it: then neither the
    shanten nor the wait search runs, and ``shanten13`` keeps the bound.
    """
    if bound is not None and bound >= 1:
        st.shanten13[seat] = bound
        st.waits[seat] = []
        return
    # one shanten call is much cheaper than the full wait search, and most hands are not tenpai
    c = st.cnt[seat]
    sh = shanten(c)
    st.shanten13[seat] = sh
    st.waits[seat] = waits(c) if sh == 0 else []


def start_round(st: GameState, wall: Wall | None) -> list[Event]:
    """Deal the round (R3) from ``wall``, or from the seed when None (R6)."""
    n = st.n
    if wall is None:
        wall = Wall.from_seed(
            st.seed, st.round_index, st.dealer, st.rules.red_fives > 0, LAYOUTS[n]
        )
    elif wall.layout.seats != n:
        raise ValueError(f"a wall for {wall.layout.seats} players in a game of {n}")
    st.wall = wall
    st.dead_start = wall.layout.dead_start
    # the wall says whether ids 16/52/88 are red (a logged wall may differ from the rules)
    st._tile = TILE_RED if wall.red_fives else TILE_PLAIN
    st.phase = "play"
    st.hands = [sorted(wall.hand(s, st.dealer)) for s in range(n)]
    st.cnt = [[0] * NUM_KINDS for _ in range(n)]
    for s in range(n):
        for t in st.hands[s]:
            st.cnt[s][t >> 2] += 1
    st.drawn = [None] * n
    st.melds = [[] for _ in range(n)]
    st.rivers = [[] for _ in range(n)]
    st.draw_pos = wall.layout.first_draw
    st.kans = 0
    st.nuki = [[] for _ in range(n)]
    st.replaced = 0
    st.rinshan_drawn = 0
    st.kan_seats = []
    st.dora_count = 1
    st.pending_dora = 0
    st.pending_dora_seat = None
    st.kan_is_kakan = False
    st.pulling = False
    st.riichi = [False] * n
    st.double_riichi = [False] * n
    st.ippatsu = [False] * n
    st.riichi_decl = None
    st.furiten_temp = [False] * n
    st.furiten_riichi = [False] * n
    st.discards = [0] * n
    st.uninterrupted = True
    st.rinshan = False
    st.kuikae = _NO_KINDS
    st.pao_dragon = [None] * n
    st.pao_wind = [None] * n
    clear_claims(st)
    st.round_deltas = [0] * n
    st.round_start_honba = st.honba
    st.round_start_sticks = st.riichi_sticks
    st.last_result = None
    st.touch_all()
    for s in range(n):
        update_waits(st, s)
    events: list[Event] = [
        RoundStart(
            round_wind=st.round_wind,
            kyoku=st.kyoku,
            honba=st.honba,
            riichi_sticks=st.riichi_sticks,
            scores=tuple(st.scores),
            dealer=st.dealer,
            dice=wall.dice,
            dora_indicators=tuple(st.dora_indicators()),
            wall_left=st.live_left(),
            round_index=st.round_index,
        )
    ]
    for s in range(n):
        events.append(Haipai(s, sorted_tiles(st.concealed(s))))
    events.append(draw(st, st.dealer, rinshan=False))
    return events


def clear_claims(st: GameState) -> None:
    st.claim_tile = None
    st.claim_from = None
    # new dicts only when something was put in them: most windows stay empty
    if st.claim_options:
        st.claim_options = {}
    if st.claim_answers:
        st.claim_answers = {}
    if st.claim_results:
        st.claim_results = {}


def draw(st: GameState, seat: int, *, rinshan: bool) -> Draw:
    """The seat draws from the live wall, or from the dead wall after a kan."""
    if rinshan:
        tid = st.wall.tiles[st.wall.layout.rinshan_pos[st.rinshan_drawn]]
        st.rinshan_drawn += 1
    else:
        tid = st.wall.tiles[st.draw_pos]
        st.draw_pos += 1
    insort(st.hands[seat], tid)  # hands stay sorted: legal.discards relies on it
    st.cnt[seat][tid >> 2] += 1
    st.drawn[seat] = tid
    st.touch(seat)
    st.turn = seat
    st.step = S_TURN
    st.rinshan = rinshan
    st.kuikae = _NO_KINDS
    st._legal = {}
    return Draw(seat, st._tile[tid], rinshan, st.dead_start - st.replaced - st.draw_pos)


def reveal_dora(st: GameState) -> NewDora:
    st.dora_count += 1
    inds = tuple(st.dora_indicators())
    return NewDora(inds[-1], inds)


def reveal_pending(st: GameState) -> list[Event]:
    """Turn the kan dora that wait for a discard or the next kan (R12)."""
    out: list[Event] = []
    while st.pending_dora:
        st.pending_dora -= 1
        out.append(reveal_dora(st))
    st.pending_dora_seat = None
    return out
