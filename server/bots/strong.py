"""The ``strong`` bot: efficient shape play, weighed push/fold, riichi or dama, valued calls.

With no threat on the table it plays like ``efficient`` (shanten, then ukeire), with two
judgements of value on top:

* riichi or dama: a tenpai hand that has a yaku of its own and is worth enough without
  riichi (``DAMA_POINTS``, the dealer's one and a half times that) stays dama (it keeps
  its wait hidden and can still change it); any other tenpai hand declares riichi;
* calls: a call must keep a yaku (yakuhai, tanyao, honitsu/chinitsu, toitoi); a value
  pon is taken when it does not slow the hand; any other call only when it makes the
  hand faster and it is then at most 1-shanten, and a closed hand at 1-shanten or
  tenpai keeps its riichi unless the call makes it tenpai.

Against threats (``danger.read_threats``: riichi, or a ready-looking open hand) every
discard is an estimate in points: the chance of winning after it (from shanten, ukeire
and the tiles left, lowered by the threats' own chances) times the hand's value
(scored exactly once tenpai), less the risk of the discards still to come while pushing;
a push that is not worth its future risk is a fold, worth nothing. From that is taken
the tile's own deal-in risk now (``danger.tile_risk``: genbutsu, suji, kabe,
one-chance, honours in sight, dora). So it pushes a good tenpai, folds a cheap or slow
hand, and keeps a hand's shape while the tiles it throws are safe anyway. Against a
riichi it calls only into tenpai.

All-last: the leader folds sooner, the last seat pushes harder.

It decides from its seat's observation alone; ``bench/bots.py`` and ``bench/arena.py``
measure it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from server.bots.base import Hand, legal_of, read_hand
from server.bots.danger import Threat, read_threats, tile_risk
from server.bots.efficient import EfficientBot
from server.engine.actions import (
    A_CHI,
    A_DISCARD,
    A_KYUUSHU,
    A_PASS,
    A_PON,
    A_RIICHI,
    A_RON,
    A_TSUMO,
    Action,
)
from server.engine.melds import Meld
from server.engine.riichi.observe import Observation
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import discard_shanten, ukeire, waits
from server.engine.riichi.win import ScoreError, WinContext
from server.engine.tiles import DRAGONS, YAOCHU, Kind, Tile, dora_of, is_red, kind

# A tenpai hand with a yaku of its own worth this much (non-dealer, ron) stays dama.
DAMA_POINTS = 5200
# A discard whose expected deal-in loss is at most this many points is played as if
# there were no threat.
SAFE_ENOUGH = 60.0
# Push a tenpai hand when its expected gain is at least this many times the discard's
# expected loss; a 1-shanten hand (against riichi) needs this many times more (the
# discards still to come are as risky, and it may never be ready).
TENPAI_PUSH_RISK = 1.0
SHANTEN_PUSH_RISK = 2.5

_WIN = (A_TSUMO, A_RON)


def _last_round(obs: Observation) -> bool:
    last_wind = 0 if obs.rules.length == "tonpuu" else 1
    return obs.round_wind >= last_wind and obs.kyoku == len(obs.players) - 1


def _placement_factors(obs: Observation, seat: int) -> tuple[float, float]:
    """(risk factor, value factor) for all-last placement: the leader risks less."""
    if not _last_round(obs):
        return 1.0, 1.0
    me = obs.scores[seat]
    others = sorted((s for i, s in enumerate(obs.scores) if i != seat), reverse=True)
    if me > others[0] + 8000:
        return 2.0, 0.5  # a safe lead: only a deal-in can lose it
    if me < others[-1]:
        return 0.6, 1.3  # last: only a win helps
    return 1.0, 1.0


def win_chance(sh: int, uke: int, wall_left: int) -> float:
    """A rough chance of winning the hand from shanten ``sh`` with ``uke`` tiles that
    advance it, ``wall_left`` tiles left to draw."""
    turns = wall_left / 4.0
    if sh == 0:
        return 0.6 * (1.0 - math.exp(-uke * turns / 40.0))
    turns -= 2.0 * sh
    if turns <= 0:
        return 0.0
    speed = min(1.0, uke / (16.0 * sh))
    return 0.6 * (1.0 - math.exp(-5.0 * turns / 40.0)) * speed * (0.45**sh)


class StrongBot(EfficientBot):
    name = "strong"

    def choose(self, obs: Observation) -> Action:
        acts = legal_of(obs)
        for a in acts:
            if a.type is A_TSUMO or a.type is A_RON:
                return a
        if len(acts) == 1:
            return acts[0]
        h = read_hand(obs)
        if h.riichi:
            return super().choose(obs)
        threats = read_threats(obs)
        turn = any(a.type is A_DISCARD or a.type is A_RIICHI for a in acts)
        if turn:
            if not threats:
                return self._calm_turn(obs, h, acts)
            return self._weighed_turn(obs, h, acts, threats)
        return self._call(obs, h, acts, threats)

    # values -------------------------------------------------------------

    def _tenpai_value(self, obs: Observation, h: Hand, rest: list[Tile], riichi: bool) -> float:
        """The average ron value of a 13-tile hand (``rest``) over its waits still to be
        drawn; 0 when it has no yaku (and no riichi)."""
        c = [0] * 34
        for t in rest:
            c[kind(t)] += 1
        melds = _own_melds(obs, h.seat)
        total = 0.0
        weight = 0
        for w in waits(c):
            left = 4 - c[w] - h.visible[w]
            if left <= 0:
                continue
            ctx = WinContext(
                win_tile=w,
                tsumo=False,
                seat_wind=h.seat_wind,
                round_wind=h.round_wind,
                riichi=riichi,
                dora_indicators=obs.dora_indicators,
            )
            try:
                r = score_hand([*rest, w], melds, ctx, obs.rules)
            except ScoreError:
                value = 0
            else:
                value = r.total
            total += value * left
            weight += left
        if not weight:
            return 0.0
        v = total / weight
        if riichi:
            v *= 1.3  # ura dora, ippatsu and tsumo on average
        return v

    def _rough_value(self, obs: Observation, h: Hand, c: list[int], reds: int) -> float:
        """A hand short of tenpai: its likely worth from dora, value pairs and riichi."""
        doras = [dora_of(kind(t)) for t in obs.dora_indicators]
        meld_kinds = [k for _, ks in h.melds for k in ks]
        han = float(reds + sum(c[d] + meld_kinds.count(d) for d in doras))
        values = (*DRAGONS, h.seat_wind, h.round_wind)
        for v in values:
            if c[v] >= 3 or any(ks[0] == v and ks[-1] == v for _, ks in h.melds):
                han += 1
            elif c[v] == 2:
                han += 0.4
        if not h.is_open:
            han += 1.4  # riichi, with ura and tsumo now and then
        elif all(k not in YAOCHU for k in meld_kinds) and h.kuitan:
            han += 1
        dealer = h.seat == obs.dealer
        return _han_points(han, dealer)

    # own turn -------------------------------------------------------------

    def _calm_turn(self, obs: Observation, h: Hand, acts: Sequence[Action]) -> Action:
        """No threat: the efficient choice, made dama when the hand is worth it."""
        pick = self._turn(h, list(acts))
        if pick.type is A_RIICHI and pick.tile is not None:
            dama = self._dama_instead(obs, h, acts, pick)
            if dama is not None:
                return dama
        return pick

    def _dama_instead(
        self, obs: Observation, h: Hand, acts: Sequence[Action], riichi: Action
    ) -> Action | None:
        assert riichi.tile is not None
        plain = next(
            (a for a in acts if a.type is A_DISCARD and a.tile == riichi.tile),
            None,
        )
        if plain is None:
            return None
        rest = list(h.tiles)
        rest.remove(riichi.tile)
        dama = self._tenpai_value(obs, h, rest, riichi=False)
        need = DAMA_POINTS * (1.5 if h.seat == obs.dealer else 1.0)
        return plain if dama >= need else None

    def _weighed_turn(
        self, obs: Observation, h: Hand, acts: Sequence[Action], threats: list[Threat]
    ) -> Action:
        """Push the efficient choice, or fold to the safest tile (see the module doc)."""
        c = h.counts
        kyuushu = next((a for a in acts if a.type is A_KYUUSHU), None)
        if kyuushu is not None and shanten(c) >= 2:
            return kyuushu  # an abortive draw risks nothing
        push = self._calm_turn(obs, h, acts)
        if push.tile is None or (push.type is not A_DISCARD and push.type is not A_RIICHI):
            return push
        risk_factor, value_factor = _placement_factors(obs, h.seat)
        sight = [h.visible[k] + c[k] for k in range(34)]
        doras = frozenset(dora_of(kind(t)) for t in obs.dora_indicators)
        pk = kind(push.tile)
        risk = risk_factor * tile_risk(pk, threats, sight, doras)
        if risk <= SAFE_ENOUGH or self._worth_pushing(obs, h, push, risk, threats, value_factor):
            return push
        after = discard_shanten(c)
        best: tuple[tuple[float, int, int], Action] | None = None
        for a in acts:
            if a.type is not A_DISCARD or a.tile is None:
                continue
            k = kind(a.tile)
            key = (tile_risk(k, threats, sight, doras), after[k], 1 if is_red(a.tile) else 0)
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best is not None else push

    def _worth_pushing(
        self,
        obs: Observation,
        h: Hand,
        push: Action,
        risk: float,
        threats: list[Threat],
        value_factor: float,
    ) -> bool:
        """Whether the efficient discard's gain outweighs its deal-in ``risk`` (points)."""
        assert push.tile is not None
        c = h.counts
        k = kind(push.tile)
        c[k] -= 1
        try:
            sh = shanten(c)
            if sh == 0:
                rest = list(h.tiles)
                rest.remove(push.tile)
                value = self._tenpai_value(obs, h, rest, riichi=push.type is A_RIICHI)
                left = sum(max(0, 4 - c[w] - h.visible[w]) for w in waits(c))
                gain = value * value_factor * win_chance(0, left, obs.wall_left)
                return gain >= risk * TENPAI_PUSH_RISK
            riichi_threat = any(t.riichi for t in threats)
            if sh == 1:
                if not riichi_threat:
                    return True  # an open hand may not be ready: push 1-shanten
                reds = sum(1 for t in h.tiles if is_red(t)) - (1 if is_red(push.tile) else 0)
                value = self._rough_value(obs, h, c, reds)
                left = sum(ukeire(c, h.visible).values())
                gain = value * value_factor * win_chance(1, left, obs.wall_left)
                return gain >= risk * SHANTEN_PUSH_RISK
            return False
        finally:
            c[k] += 1

    # answering a discard ---------------------------------------------------

    def _keeps_yaku(self, h: Hand, c: list[int], new_meld: list[Kind]) -> bool:
        if super()._keeps_yaku(h, c, new_meld):
            return True
        # toitoi: every set a triplet, the concealed tiles pairs and sets but one
        melds = [ks for _, ks in h.melds] + [new_meld]
        if any(ks[0] != ks[1] for ks in melds):
            return False
        singles = sum(1 for n in c if n == 1)
        pairs = sum(1 for n in c if n >= 2)
        return singles <= 1 and pairs + len(melds) >= 4

    def _call(
        self, obs: Observation, h: Hand, acts: Sequence[Action], threats: list[Threat]
    ) -> Action:
        pass_action = next((a for a in acts if a.type is A_PASS), acts[-1])
        if obs.last_discard is None:
            return pass_action
        called = obs.last_discard[1]
        ck = kind(called)
        c = h.counts
        before = shanten(c)
        values = frozenset((*DRAGONS, h.seat_wind, h.round_wind))
        riichi_threat = any(t.riichi for t in threats)
        best: tuple[tuple[int, int], Action] | None = None
        for a in acts:
            if a.type is not A_PON and a.type is not A_CHI:
                continue
            own = [kind(t) for t in a.tiles]
            for k in own:
                c[k] -= 1
            after = 99
            if self._keeps_yaku(h, c, sorted([*own, ck])):
                options = [sh for d, sh in discard_shanten(c).items() if d != ck]
                after = min(options, default=99)
            for k in own:
                c[k] += 1
            value_pon = a.type is A_PON and ck in values
            if riichi_threat:
                ok = after == 0
            elif value_pon:
                ok = after <= before
            elif not h.is_open and before <= 1:
                ok = after == 0 and after < before
            else:
                ok = after < before and after <= 1
            if threats and not riichi_threat and after > 1:
                ok = False
            if ok:
                key = (after, 0 if a.type is A_PON else 1)
                if best is None or key < best[0]:
                    best = (key, a)
        return best[1] if best is not None else pass_action


def _own_melds(obs: Observation, seat: int) -> tuple[Meld, ...]:
    return obs.players[seat].melds


def _han_points(han: float, dealer: bool) -> float:
    """Ron points for ``han`` at about 30-40 fu."""
    if han < 1:
        v = 1000.0 * max(han, 0.3)
    elif han < 2:
        v = 1300.0
    elif han < 3:
        v = 2600.0
    elif han < 4:
        v = 5200.0
    elif han < 6:
        v = 8000.0
    elif han < 8:
        v = 12000.0
    else:
        v = 16000.0
    return v * 1.5 if dealer else v


__all__ = ["StrongBot", "win_chance"]
