"""What a seat may do now (R7-R14), and why anything else is refused.

``legal`` lists the actions; ``why_illegal`` explains a refusal. Both read the
same conditions (the ``*_refusal`` functions), so a reason can never disagree
with the list. The list of a call window is built when the window opens
(``claims.open_discard_window``) from ``call_options`` here.
"""

from __future__ import annotations

from server.engine.actions import (
    A_ANKAN,
    A_CHI,
    A_DAIMINKAN,
    A_DISCARD,
    A_KAKAN,
    A_KYUUSHU,
    A_NUKI,
    A_PASS,
    A_PON,
    A_RIICHI,
    A_RON,
    A_TSUMO,
    Action,
    ActionType,
)
from server.engine.melds import MeldType
from server.engine.riichi.agari import BlockType, regular_readings
from server.engine.riichi.shanten import shanten
from server.engine.riichi.state import S_CALLED, S_CHANKAN, S_CLAIM, GameState
from server.engine.riichi.ukeire import waits
from server.engine.tiles import (
    NORTH,
    NUM_KINDS,
    YAOCHU,
    Kind,
    Tile,
    TileId,
    kind,
    sort_key,
    tile_str,
)

_M_PON = MeldType.PON
_ACTIONS: dict[tuple[ActionType, int, Tile | None, tuple[Tile, ...]], Action] = {}


def act(
    at: ActionType, seat: int, tile: Tile | None = None, tiles: tuple[Tile, ...] = ()
) -> Action:
    """A shared Action object: legal lists are rebuilt at every decision, and
    building frozen dataclasses was a large part of a self-play game's time."""
    key = (at, seat, tile, tiles)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action(at, seat, tile, tiles)
    return a


_DISCARD = [[act(A_DISCARD, s, t) for t in range(37)] for s in range(4)]
# the shared tile-less actions per seat (an act lookup hashes an enum in Python)
PASS_OF = [act(A_PASS, s) for s in range(4)]
RON_OF = [act(A_RON, s) for s in range(4)]
_TSUMO_OF = [act(A_TSUMO, s) for s in range(4)]
_KYUUSHU_OF = [act(A_KYUUSHU, s) for s in range(4)]
_NUKI_OF = [act(A_NUKI, s, NORTH) for s in range(3)]
_SORT = [sort_key(t) for t in range(37)]
_KIND = [kind(t) for t in range(37)]
_KAN_TYPES = (A_ANKAN, A_KAKAN, A_DAIMINKAN)
_CALL_TYPES = (A_PON, A_CHI, A_DAIMINKAN)


# --- the conditions, shared by the list and the reasons ---------------------


def riichi_refusal(st: GameState, seat: int) -> str | None:
    """Why the seat may not declare riichi whatever it discards (R14), or None."""
    if st.riichi[seat]:
        return "already in riichi"
    if not st.is_closed(seat):
        return "riichi needs a closed hand"
    if st.scores[seat] < 1000:
        return "riichi needs at least 1000 points"
    if st.live_left() < st.n:
        # R14 / S22: one more draw of one's own, so a tile for every seat: 4, in sanma 3
        return f"riichi needs at least {st.n} tiles left in the live wall"
    return None


def kan_refusal(st: GameState) -> str | None:
    """Why no kan may be declared now (R7, R13), or None."""
    if st.kans >= 4:
        return "a fifth kan is not allowed"
    if st.live_left() == 0:
        return "no kan on the last tile"
    return None


def nuki_refusal(st: GameState, seat: int) -> str | None:
    """Why the seat may not set a north aside now (S12), or None."""
    if st.n != 3:
        return "only three players set norths aside"
    if st.live_left() == 0:
        return "no north set aside on the last tile"
    if not st.cnt[seat][NORTH]:
        return "no north in the hand"
    if st.riichi[seat]:
        d = st.drawn[seat]
        if d is None or d >> 2 != NORTH:
            return "after riichi only a north just drawn may be set aside"
    return None


def suukan_pending(st: GameState) -> bool:
    """R13: four kans by two or more players abort the round when the window closes."""
    return st.kans == 4 and st.rules.abortive_draws and len(set(st.kan_seats)) > 1


def call_refusal(st: GameState) -> str | None:
    """Why no chi, pon or daiminkan may be called on the discard now (R10, R13), or None."""
    if st.live_left() == 0:
        return "no calls on the last discard"
    if suukan_pending(st):
        return "no calls on the discard after the fourth kan: only ron"
    return None


def riichi_wait_ok(c: list[int]) -> bool:
    """R14: a tenpai 13-tile count array waits on a tile it does not hold four of."""
    return 4 not in c or any(c[w] < 4 for w in waits(c))


# --- the list ------------------------------------------------------------------


def legal(st: GameState, seat: int) -> list[Action]:
    """The seat's legal actions (cached until the next transition; do not mutate)."""
    # .get, not try/except: every decision has one miss, and a raised KeyError costs more
    hit = st._legal.get(seat)
    if hit is not None:
        return hit
    if st.phase != "play" or not 0 <= seat < st.n:
        out: list[Action] = []
    elif st.step is S_CLAIM or st.step is S_CHANKAN:
        out = [] if seat in st.claim_answers else st.claim_options.get(seat, [])
    elif seat != st.turn:
        out = []
    elif st.step is S_CALLED:
        out = discards(st, seat)
    else:
        out = _turn_actions(st, seat)
    st._legal[seat] = out
    return out


def discards(st: GameState, seat: int) -> list[Action]:
    if st.riichi[seat]:
        d = st.drawn[seat]
        assert d is not None
        return [act(A_DISCARD, seat, st.tile(d))]
    kuikae = st.kuikae
    table = _DISCARD[seat]
    tiles = st._tile
    if not kuikae:
        # the common case, deduplicated in C; dict keys keep first-seen (id) order
        return list(map(table.__getitem__, dict.fromkeys(map(tiles.__getitem__, st.hands[seat]))))
    out = []
    prev = -1
    # hands are kept in id order, where equal tiles are adjacent (a red five
    # has its own id), so one comparison with the previous tile drops duplicates
    for tid in st.hands[seat]:
        t = tiles[tid]
        if t != prev:
            prev = t
            if (tid >> 2) not in kuikae:
                out.append(table[t])
    return out


def _turn_actions(st: GameState, seat: int) -> list[Action]:
    out: list[Action] = []
    drawn = st.drawn[seat]
    assert drawn is not None
    c = st.cnt[seat]
    riichi = st.riichi[seat]
    if (drawn >> 2) in st.waits[seat] and st.score(seat, st._tile[drawn], True):
        out.append(_TSUMO_OF[seat])
    if (
        st.uninterrupted
        and st.discards[seat] == 0
        and st.rules.abortive_draws
        and sum(1 for k in YAOCHU if c[k]) >= 9
    ):
        out.append(_KYUUSHU_OF[seat])
    if kan_refusal(st) is None:
        if 4 in c:
            for k in range(NUM_KINDS):
                if c[k] == 4 and (not riichi or _riichi_ankan_ok(st, seat, k)):
                    out.append(act(A_ANKAN, seat, k))
        if not riichi:
            for f in st.melds[seat]:
                # a pon's tiles are all of one kind: the fourth must be in hand
                if f.meld.type is _M_PON and c[_KIND[f.meld.tiles[0]]]:
                    k = _KIND[f.meld.tiles[0]]
                    for tid in st.hands[seat]:
                        if tid >> 2 == k:
                            out.append(act(A_KAKAN, seat, st._tile[tid]))
                            break
    if st.n == 3 and c[NORTH] and nuki_refusal(st, seat) is None:
        out.append(_NUKI_OF[seat])
    if (
        st.shanten13[seat] <= 1  # one draw lowers shanten by one at most
        and riichi_refusal(st, seat) is None
        and shanten(c) <= 0
    ):
        seen: set[Tile] = set()
        for tid in st.hands[seat]:
            t = st._tile[tid]
            if t in seen:
                continue
            seen.add(t)
            c[tid >> 2] -= 1
            try:
                if shanten(c) == 0 and riichi_wait_ok(c):
                    out.append(act(A_RIICHI, seat, t))
            finally:
                c[tid >> 2] += 1
    if not out:
        return discards(st, seat)  # the common turn: only discards, no copy needed
    out.extend(discards(st, seat))
    return out


def _riichi_ankan_ok(st: GameState, seat: int, k: Kind) -> bool:
    """R14: after riichi, an ankan of the drawn tile that keeps the waits and the reading."""
    drawn = st.drawn[seat]
    if drawn is None or drawn >> 2 != k:
        return False
    before = st.counts(seat)
    before[k] -= 1  # the hand before the draw, whose waits are stored
    after = list(before)
    after[k] -= 3
    if waits(after) != st.waits[seat]:
        return False
    if not st.rules.riichi_ankan_triplet_only:
        return True
    for w in st.waits[seat]:
        before[w] += 1
        readings = regular_readings(before)
        before[w] -= 1
        if not readings:
            return False  # only chiitoitsu/kokushi: impossible with three of k, be safe
        for r in readings:
            if not any(b.type is BlockType.KOUTSU and b.first == k for b in r):
                return False
    return True


def call_options(st: GameState, s: int, discarder: int, t: Tile) -> list[Action]:
    """Seat ``s``'s pon, daiminkan and chi options on tile ``t`` from ``discarder``."""
    k = t if t < NUM_KINDS else kind(t)
    c = st.cnt[s]
    n_k = c[k]
    # (own kinds, the kind at the run's other end that kuikae also forbids)
    shapes: list[tuple[Kind, Kind, Kind]] = []
    if st.n == 4 and s == (discarder + 1) % 4 and k < 27:  # no chi in sanma (S11)
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
    for tid in st.hands[s]:
        by_tile.setdefault(st._tile[tid], []).append(tid)
    n_total = len(st.hands[s])
    out: list[Action] = []
    if n_k >= 2 and n_total > n_k:  # R11: a tile other than k must remain to discard
        for pair in _variants(by_tile, k, k):
            out.append(act(A_PON, s, None, pair))
    if n_k >= 3 and st.kans < 4:
        own = sorted((st._tile[x] for x in st.hands[s] if x >> 2 == k), key=sort_key)
        out.append(act(A_DAIMINKAN, s, None, tuple(own)))
    for a, b, other in shapes:
        # R11: after the chi some tile must remain that is neither k nor the other end
        allowed = n_total - 2 - c[k] - (c[other] if other >= 0 else 0)
        if allowed > 0:
            for pair in _variants(by_tile, a, b):
                out.append(act(A_CHI, s, None, pair))
    return out


def _variants(by_tile: dict[Tile, list[TileId]], a: Kind, b: Kind) -> list[tuple[Tile, ...]]:
    """Distinct choices of own tiles (a red five or a plain one) for kinds ``a`` and ``b``."""
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


def chi_possible(st: GameState, s: int, discarder: int, k: Kind) -> bool:
    """A cheap test before ``call_options``: could seat ``s`` chi kind ``k`` at all?"""
    if st.n != 4 or s != (discarder + 1) % 4 or k >= 27:
        return False
    c = st.cnt[s]
    n = k % 9
    return bool(
        (n >= 1 and c[k - 1] and ((n >= 2 and c[k - 2]) or (n <= 7 and c[k + 1])))
        or (n <= 6 and c[k + 1] and c[k + 2])
    )


# --- the reasons -----------------------------------------------------------------


def why_illegal(st: GameState, action: Action) -> str:
    """Why ``action`` is refused now (call only for an action ``legal`` does not list)."""
    s = action.seat
    if st.phase != "play":
        return f"no action is possible in phase {st.phase}"
    if not 0 <= s < st.n:
        return f"seat must be 0..{st.n - 1}"
    if any(t not in range(37) for t in (*action.tiles, action.tile) if t is not None):
        return "no such tile"
    lst = legal(st, s)
    if not lst:
        if st.step in (S_CLAIM, S_CHANKAN) and s in st.claim_answers:
            return f"seat {s} has already answered"
        return f"seat {s} is not to act now"
    types = {a.type for a in lst}
    at = action.type
    if at not in types:
        reason = None
        if at is A_RIICHI:
            reason = riichi_refusal(st, s) or "the hand is not tenpai"
        elif at in _KAN_TYPES:
            reason = kan_refusal(st)
        elif at is A_NUKI:
            reason = nuki_refusal(st, s)
        if reason is None and at in _CALL_TYPES and st.step is S_CLAIM:
            reason = call_refusal(st)
        if reason is not None:
            return reason
        if at is A_RON:
            return "no ron: not a winning tile, no yaku, or furiten"
        if at is A_TSUMO:
            return "no tsumo: the hand is not complete with a yaku"
        return f"{at.value} is not possible now"
    if at is A_DISCARD and action.tile is not None:
        if st.riichi[s]:
            return "after riichi only the drawn tile may be discarded"
        if kind(action.tile) in st.kuikae:
            return f"{tile_str(action.tile)} is kuikae-forbidden after the call"
        return f"{tile_str(action.tile)} is not in the hand"
    if at is A_RIICHI:
        if action.tile is not None and action.tile in {st.tile(t) for t in st.hands[s]}:
            c = st.counts(s)
            c[kind(action.tile)] -= 1
            if shanten(c) == 0 and not riichi_wait_ok(c):
                return "that discard leaves only waits on tiles the hand holds all four of"
        return "discarding that tile does not leave the hand tenpai"
    if at is A_ANKAN and action.tile is not None and action.tile >= NUM_KINDS:
        return f"name an ankan by its kind ({tile_str(kind(action.tile))}), not the red five"
    if len(action.tiles) > 1 and tuple(sorted(action.tiles, key=sort_key)) != action.tiles:
        return "list the own tiles in the order legal_actions gives (sorted)"
    return f"that {at.value} is not possible (wrong tiles)"
