"""The ``efficient`` bot: tile efficiency with a few rules that keep it legal and useful.

* takes every win it is offered (tsumo, ron);
* discards to minimise shanten, then maximise ukeire (unseen tiles that
  improve the hand, counting what its view shows: kawa, melds, dora indicators);
* declares riichi whenever it can with the best discard (closed tenpai);
* calls pon/chi only when the call improves the hand and the open hand keeps
  a yaku (yakuhai, tanyao with kuitan, honitsu/chinitsu); never daiminkan;
* ankan/kakan when the kan does not worsen the hand;
* kyuushu kyuuhai when it may and is at least 3-shanten;
* in sanma, sets a north aside (a dora and a free draw) unless the hand needs it.
It never folds.

It reads its ``Hand`` from its seat's observation.
"""

from __future__ import annotations

import random
from operator import attrgetter

from server.bots.base import Hand, legal_of, read_hand
from server.engine.actions import (
    A_ANKAN,
    A_CHI,
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
)
from server.engine.riichi.observe import Observation
from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import best_discards, discard_shanten
from server.engine.tiles import DRAGONS, NORTH, YAOCHU, Kind, Tile, is_red, kind

_WIN = (A_TSUMO, A_RON)
_TYPE = attrgetter("type")
_KIND = [kind(t) for t in range(37)]
_RED = [is_red(t) for t in range(37)]


def _value_kinds(h: Hand) -> frozenset[Kind]:
    return frozenset((*DRAGONS, h.seat_wind, h.round_wind))


def _discard_preference(k: Kind, values: frozenset[Kind]) -> int:
    """Lower = thrown first among equally efficient discards."""
    if k >= 27:
        return 0 if k not in values else 2
    n = k % 9
    return 1 if n in (0, 8) else 3 + min(n, 8 - n)


# _discard_preference of each kind that is not a value kind (only honors can be)
_PREFERENCE = [_discard_preference(k, frozenset()) for k in range(34)]


def _suits(kinds: list[Kind]) -> set[int]:
    return {k // 9 for k in kinds if k < 27}


class EfficientBot:
    name = "efficient"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        acts = legal_of(obs)
        types = set(map(_TYPE, acts))
        if A_TSUMO in types or A_RON in types:
            return next(a for a in acts if a.type in _WIN)
        turn = A_DISCARD in types or A_RIICHI in types
        if len(acts) == 1:
            return acts[0]
        hand = read_hand(obs)
        if turn:
            return self._turn(hand, list(acts))
        called: Tile | None = obs.last_discard[1] if obs.last_discard is not None else None
        return self._answer(hand, list(acts), called)

    # own turn ------------------------------------------------------------

    def _plan_violations(self, h: Hand, c: list[int]) -> int:
        """For an open hand: concealed tiles that do not fit the yaku it called for."""
        if not h.is_open:
            return 0
        values = _value_kinds(h)
        meld_kinds = [k for _, ks in h.melds for k in ks]
        if any(ks[0] in values and ks[0] == ks[-1] for _, ks in h.melds):
            return 0  # yakuhai already declared
        if any(c[v] >= 3 for v in values):
            return 0
        plans = []
        if h.kuitan and all(k not in YAOCHU for k in meld_kinds):
            plans.append(sum(c[k] for k in YAOCHU))
        suits = _suits(meld_kinds)
        if len(suits) == 1:
            s = next(iter(suits))
            plans.append(sum(c[k] for k in range(27) if k // 9 != s))
        if any(c[v] == 2 for v in values):
            plans.append(0)  # a value pair that may still become a set
        return min(plans) if plans else 0

    def _turn(self, h: Hand, acts: list[Action]) -> Action:
        c = h.counts
        kans: list[Action] = []
        choices: list[Action] = []
        kinds: dict[Kind, None] = {}
        pull: Action | None = None
        for a in acts:
            at = a.type
            if at is A_NUKI:
                pull = a
            elif at is A_DISCARD or at is A_RIICHI:
                if a.tile is not None:
                    choices.append(a)
                    kinds[_KIND[a.tile]] = None
            elif at is A_KYUUSHU:
                if shanten(c) >= 3:
                    return a
            elif at is A_ANKAN or at is A_KAKAN:
                kans.append(a)
        # the shanten after each discard, and the ukeire of the best allowed ones
        after, uke = best_discards(c, h.visible, kinds)
        best_sh = min(map(after.__getitem__, kinds))
        if pull is not None and after.get(NORTH, 99) <= best_sh:
            return pull  # throwing the north would cost nothing: setting it aside gains
        for a in kans:
            if a.tile is None:
                continue
            k = _KIND[a.tile]
            n = 4 if a.type is A_ANKAN else 1
            c[k] -= n
            ok = shanten(c) <= best_sh
            c[k] += n
            if ok:
                return a
        if len(uke) == 1:
            # one best kind: ukeire cannot change the choice among its actions
            uke = dict.fromkeys(uke, 0)
        values = _value_kinds(h)
        is_open = h.is_open
        best: tuple[tuple[int, int, int, int, int], Action] | None = None
        for a in choices:
            t = a.tile
            assert t is not None
            k = _KIND[t]
            u = uke.get(k)
            if u is None:
                continue  # not among the lowest shanten
            viol = 0
            if is_open:
                c[k] -= 1
                viol = self._plan_violations(h, c)
                c[k] += 1
            key = (
                viol,
                -u,
                0 if a.type is A_RIICHI else 1,
                2 if k in values else _PREFERENCE[k],
                # keep red fives: throw the plain five of the same kind first
                1 if _RED[t] else 0,
            )
            if best is None or key < best[0]:
                best = (key, a)
        assert best is not None
        return best[1]

    # answering a discard ---------------------------------------------------

    def _keeps_yaku(self, h: Hand, c: list[int], new_meld: list[Kind]) -> bool:
        values = _value_kinds(h)
        melds = [ks for _, ks in h.melds] + [new_meld]
        if any(ks[0] == ks[-1] and ks[0] in values for ks in melds):
            return True
        if any(c[v] >= 3 for v in values):
            return True
        meld_kinds = [k for ks in melds for k in ks]
        if h.kuitan and all(k not in YAOCHU for k in meld_kinds) and sum(c[k] for k in YAOCHU) <= 1:
            return True
        # honitsu/chinitsu: melds in one suit, at most one concealed tile outside it
        suits = _suits(meld_kinds)
        if len(suits) != 1:
            return False
        s = next(iter(suits))
        return sum(c[k] for k in range(27) if k // 9 != s) <= 1

    def _answer(self, h: Hand, acts: list[Action], called: int | None) -> Action:
        pass_action = next((a for a in acts if a.type is A_PASS), acts[-1])
        if called is None or h.riichi:
            return pass_action
        ck = kind(called)
        c = h.counts
        before = shanten(c)
        values = _value_kinds(h)
        best: tuple[tuple[int, int], Action] | None = None
        for a in acts:
            if a.type not in (A_PON, A_CHI):
                continue
            own = [kind(t) for t in a.tiles]
            for k in own:
                c[k] -= 1
            meld = sorted([*own, ck])
            after = 99
            if self._keeps_yaku(h, c, meld):
                # kuikae (R11) forbids throwing the called kind right away
                options = [sh for d, sh in discard_shanten(c).items() if d != ck]
                after = min(options, default=99)
            for k in own:
                c[k] += 1
            yakuhai_pon = a.type is A_PON and ck in values
            if after < before or (yakuhai_pon and after <= before):
                key = (after, 0 if a.type is A_PON else 1)
                if best is None or key < best[0]:
                    best = (key, a)
        return best[1] if best is not None else pass_action
