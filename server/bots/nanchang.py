"""Bots for Nanchang mahjong: they decide from a ``NanchangObservation`` and the legal list only.

``NanchangBot`` plays by shanten over the four shapes it can aim for: four
sets and a pair, seven pairs (七对), 十三烂 and 七星十三烂 (the last two when
the hand is scattered, seven pairs when it is pairy), weighted by what each
pays. It never discards a joker while another tile will do, wins whenever it
can (it does not wait for a bigger hand), always calls a discarded joker with
pon or kan (the joker bonus, and 冲关 paid by the discarder), and otherwise
calls only when the call brings the hand closer to winning and leaves it at
most two steps away; it kans when the kan does not set the hand back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from server.engine.actions import Action, ActionType
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.observation import NanchangObservation
from server.engine.nanchang.shanten import lan_shanten, normal_shanten, pairs_shanten
from server.engine.tiles import Kind

# Cost offsets per shape, in shanten: seven pairs waits on one kind (narrower) but
# pays double; 十三烂 pays double; 七星十三烂 pays four times.
PAIRS_OFFSET = 0.25
LAN_OFFSET = 0.0
QIXING_OFFSET = -0.25


@lru_cache(maxsize=200_000)
def _costs(counts: tuple[int, ...], jokers: int, melds: int) -> tuple[float, float, float]:
    """How far a hand is from winning per shape family, in shanten, the values weighed in:
    (four sets and a pair, seven pairs, 十三烂 or 七星十三烂)."""
    normal = float(normal_shanten(counts, jokers, melds))
    if melds:
        return normal, 99.0, 99.0
    pairs = pairs_shanten(counts, jokers) + PAIRS_OFFSET
    plain, seven = lan_shanten(counts, jokers)
    return normal, pairs, min(plain + LAN_OFFSET, seven + QIXING_OFFSET)


def _shape_cost(shape: int, counts: tuple[int, ...], jokers: int, melds: int) -> float:
    """One of ``_costs``, computed alone."""
    if shape == 0:
        return float(normal_shanten(counts, jokers, melds))
    if shape == 1:
        return pairs_shanten(counts, jokers) + PAIRS_OFFSET
    plain, seven = lan_shanten(counts, jokers)
    return min(plain + LAN_OFFSET, seven + QIXING_OFFSET)


def _cost(counts: tuple[int, ...], jokers: int, melds: int) -> float:
    return min(_costs(counts, jokers, melds))


def _split(hand: Sequence[Kind], jk: Jokers) -> tuple[list[int], int]:
    counts = [0] * 34
    n = 0
    for k in hand:
        if jk.is_joker(k):
            n += 1
        else:
            counts[k] += 1
    return counts, n


def cost(hand: Sequence[Kind], jk: Jokers, melds: int) -> float:
    counts, n = _split(hand, jk)
    return _cost(tuple(counts), n, melds)


def _remove(hand: Sequence[Kind], *tiles: Kind) -> list[Kind]:
    out = list(hand)
    for t in tiles:
        out.remove(t)
    return out


CALL_WITHIN = 2  # calls for speed only from this shanten (after the call) down
MAX_MEASURED = 5  # tied discards whose useful draws are counted


def _looseness(hand: Sequence[Kind], k: Kind) -> float:
    """How little a tile does in a hand: honours and terminals, and tiles without neighbours."""
    score = 0.5 if k >= 27 else 0.25 if k % 9 in (0, 8) else 0.0
    if k < 27:
        near = sum(1 for x in hand if x != k and x // 9 == k // 9 and abs(x - k) <= 2)
    else:
        near = sum(1 for x in hand if x != k and (x >= 31) == (k >= 31) and x >= 27)
    return score - near - 2 * (hand.count(k) - 1)


def _relevant(counts: Sequence[int], costs: tuple[float, float, float]) -> list[Kind]:
    """Draws that may bring a hand closer by its best shapes: for sets, tiles near its suit
    tiles and honours of a group it holds; for pairs, kinds it holds; for 十三烂, any."""
    low = min(costs)
    if costs[2] == low:
        return list(range(34))
    out: set[Kind] = set()
    if costs[1] == low:
        out.update(k for k in range(34) if counts[k])
    if costs[0] == low:
        for k in range(27):
            if counts[k]:
                lo, hi = k - k % 9, k - k % 9 + 8
                out.update(range(max(lo, k - 2), min(hi, k + 2) + 1))
        if any(counts[27:31]):
            out.update(range(27, 31))
        if any(counts[31:34]):
            out.update(range(31, 34))
    return sorted(out)


def _unseen(obs: NanchangObservation) -> list[int]:
    """Copies of each kind this seat has not seen (own hand, melds, rivers, the indicator)."""
    left = [4] * 34
    for k in obs.hand:
        left[k] -= 1
    for ms in obs.melds:
        for m in ms:
            for k in m.tiles:
                left[k] -= 1
    for river in obs.rivers:
        for rt in river:
            if not rt.called:
                left[rt.tile] -= 1
    left[obs.indicator] -= 1
    return [max(0, n) for n in left]


class NanchangRandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: NanchangObservation) -> Action:
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has nothing to decide")
        return self.rng.choice(obs.legal)


class NanchangBot:
    """A sensible player (see the module docstring)."""

    name = "efficient"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: NanchangObservation) -> Action:
        legal = obs.legal
        if not legal:
            raise ValueError(f"seat {obs.seat} has nothing to decide")
        for a in legal:
            if a.type in (ActionType.TSUMO, ActionType.RON):
                return a
        if obs.step in ("calls", "rob"):
            return self._answer(obs, legal)
        return self._turn(obs, legal)

    # -- own turn ---------------------------------------------------------

    def _turn(self, obs: NanchangObservation, legal: Sequence[Action]) -> Action:
        assert obs.seat is not None
        jk = obs.jokers
        melds = len(obs.melds[obs.seat])
        discards = [a for a in legal if a.type is ActionType.DISCARD]
        best_discard, best_cost = self._best_discard(obs, list(obs.hand), melds, discards)
        for a in legal:
            if a.type is ActionType.KAKAN:
                return a  # the tile is dead weight beside its pon; a joker's adds 杠精
            if a.type is ActionType.ANKAN:
                assert a.tile is not None
                after = cost(_remove(obs.hand, *[a.tile] * 4), jk, melds + 1)
                if jk.is_joker(a.tile) or after <= best_cost:
                    return a
        return best_discard

    def _best_discard(
        self,
        obs: NanchangObservation,
        hand: list[Kind],
        melds: int,
        discards: Sequence[Action],
    ) -> tuple[Action, float]:
        """The discard that leaves the hand closest to winning; ties by tiles that help."""
        jk = obs.jokers
        keep = [a for a in discards if a.tile is not None and not jk.is_joker(a.tile)]
        cands = keep or list(discards)
        scored = []
        for a in cands:
            assert a.tile is not None
            scored.append((cost(_remove(hand, a.tile), jk, melds), a))
        low = min(c for c, _ in scored)
        tied = [a for c, a in scored if c == low]
        if len(tied) == 1:
            return tied[0], low
        # many ties: the loosest tiles (honours, terminals, no neighbours) are measured first
        tied.sort(key=lambda a: -_looseness(hand, a.tile))  # type: ignore[arg-type]
        tied = tied[:MAX_MEASURED]
        unseen = _unseen(obs)
        best: tuple[int, float, Action] | None = None
        for a in tied:
            assert a.tile is not None
            rest = _remove(hand, a.tile)
            counts, n = _split(rest, jk)
            costs = _costs(tuple(counts), n, melds)
            base = min(costs)
            useful = 0
            # a draw moves a shape by one step at most: only shapes within one step can beat base
            shapes = [i for i, c in enumerate(costs) if c < base + 1]
            for x in _relevant(counts, costs):
                if unseen[x] and not jk.is_joker(x):
                    counts[x] += 1
                    if any(_shape_cost(i, tuple(counts), n, melds) < base for i in shapes):
                        useful += unseen[x]
                    counts[x] -= 1
            key = (useful, _looseness(hand, a.tile) + self.rng.random() * 0.01, a)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        return best[2], low

    # -- answering a discard ----------------------------------------------

    def _answer(self, obs: NanchangObservation, legal: Sequence[Action]) -> Action:
        assert obs.seat is not None
        pass_ = next(a for a in legal if a.type is ActionType.PASS)
        if obs.last_discard is None:
            return pass_
        jk = obs.jokers
        called = obs.last_discard[1]
        hand = list(obs.hand)
        melds = len(obs.melds[obs.seat])
        now = cost(hand, jk, melds)
        best: tuple[float, int, Action] | None = None
        for a in legal:
            if a.type not in (ActionType.PON, ActionType.CHI, ActionType.DAIMINKAN):
                continue
            rest = _remove(hand, *a.tiles)
            if a.type is ActionType.DAIMINKAN:
                after = cost(rest, jk, melds + 1)
            else:
                after = min(
                    cost(_remove(rest, d), jk, melds + 1)
                    for d in set(rest)
                    if not jk.is_joker(d) or all(jk.is_joker(x) for x in rest)
                )
            joker = jk.is_joker(called)
            if joker and a.type is not ActionType.CHI:
                # three or four of a joker: 冲关 is near, and the discarder would pay for all
                ok = True
            elif joker:
                ok = after <= now + 1  # the joker bonus is worth a step back
            elif a.type is ActionType.DAIMINKAN:
                ok = after <= now
            else:
                # a chi or pon that brings a hand near waiting; far off, keep it closed
                ok = after < now and after <= CALL_WITHIN
            if ok:
                rank = 0 if a.type is ActionType.DAIMINKAN else 1
                key = (after, rank, a)
                if best is None or key[:2] < best[:2]:
                    best = key
        return best[2] if best is not None else pass_
