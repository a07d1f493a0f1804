"""The ``defensive`` bot: the efficient bot, folding against riichi and big open hands.

A threat is an opponent in riichi, or one with three melds declared. With no threat,
or while the bot stays tenpai with its discard, it plays exactly like ``efficient``
(pushing a tenpai hand, riichi included). Against riichi it folds (betaori) from
2-shanten on, and at 1-shanten unless the efficient discard is fairly safe
(``PUSH_DANGER``); against open hands only, it folds from 2-shanten on. Folding:

* it discards the tile least likely to deal in, by ``danger`` summed over every
  threat: that player's own discards (genbutsu) first, then honours by how many of
  them it can see, then suji, then the rest, terminals before middle tiles; equally
  safe tiles go by the hand's shape (the lowest shanten after the discard), and a
  red five is kept over a plain one;
* it calls nothing and declares no kan, and it takes kyuushu kyuuhai when offered;
  it still takes every win it is offered.

It reads only its seat's observation.
"""

from __future__ import annotations

from server.bots.base import legal_of, read_hand
from server.bots.efficient import EfficientBot
from server.engine.actions import A_DISCARD, A_KYUUSHU, A_PASS, A_RIICHI, A_RON, A_TSUMO, Action
from server.engine.riichi.observe import Observation
from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import discard_shanten
from server.engine.tiles import Kind, is_red, kind

# An opponent with this many melds declared is treated as likely tenpai.
OPEN_THREAT_MELDS = 3
# Against riichi, a 1-shanten hand goes on with its efficient discard only if that
# tile's danger (summed over the threats) is at most this: a suji 4-6 or an honour.
PUSH_DANGER = 5

Threat = tuple[bool, frozenset[Kind]]  # (in riichi, the kinds in their river)


def read_threats(obs: Observation) -> list[Threat]:
    """Each opponent in riichi or with three melds (seat order): whether in riichi, and
    the kinds in their river (called ones too: they are furiten on all of them)."""
    return [
        (p.riichi, frozenset(kind(d.tile) for d in p.river))
        for p in obs.players
        if p.seat != obs.seat and (p.riichi or len(p.melds) >= OPEN_THREAT_MELDS)
    ]


def danger(k: Kind, genbutsu: frozenset[Kind], seen: int) -> int:
    """How likely discarding kind ``k`` deals into one threat's hand, 0 (safe) to 10.

    ``genbutsu`` holds the kinds that player has discarded (they cannot ron those:
    furiten), ``seen`` how many tiles of ``k`` the bot can see, its own included.
    A number tile is waited on by a two-sided wait from each side that can exist
    (45 waits on 3 and 6: 3 has one side, 4-6 have two); a side whose other wait is
    genbutsu is ruled out (suji). A kind with three or four in sight can hardly be
    waited on as a pair or a triplet.
    """
    if k in genbutsu:
        return 0
    if k >= 27:
        return 1 if seen >= 3 else 2 if seen == 2 else 4
    n = k % 9
    open_sides = 0
    if n >= 3 and k - 3 not in genbutsu:
        open_sides += 1
    if n <= 5 and k + 3 not in genbutsu:
        open_sides += 1
    if n in (0, 8):
        d = 3 if open_sides == 0 else 6
    elif n in (1, 7):
        d = 4 if open_sides == 0 else 8
    elif n in (2, 6):
        d = 5 if open_sides == 0 else 9
    else:
        d = 5 if open_sides == 0 else 8 if open_sides == 1 else 10
    return d - 2 if seen >= 3 else d


_DISCARDS = (A_DISCARD, A_RIICHI)


class DefensiveBot(EfficientBot):
    name = "defensive"

    def choose(self, obs: Observation) -> Action:
        acts = legal_of(obs)
        threats = read_threats(obs)
        if not threats or len(acts) == 1 or any(a.type in (A_TSUMO, A_RON) for a in acts):
            return super().choose(obs)
        hand = read_hand(obs)
        if hand.riichi:
            return super().choose(obs)
        c = hand.counts
        riichi = any(r for r, _ in threats)
        # The shanten from which the bot folds: against riichi anything short of
        # tenpai (but see PUSH_DANGER), against open hands only 2-shanten and worse.
        fold_from = 1 if riichi else 2
        discards = [a for a in acts if a.type is A_DISCARD and a.tile is not None]
        if not discards:
            # answering a discard (a win was taken above): no call while folding
            passing = next((a for a in acts if a.type is A_PASS), None)
            if passing is None or shanten(c) < fold_from:
                return super().choose(obs)
            return passing
        after = discard_shanten(c)
        allowed = {kind(a.tile) for a in acts if a.tile is not None and a.type in _DISCARDS}
        best_after = min(after[k] for k in allowed)
        if best_after < fold_from:
            return super().choose(obs)  # close enough: push
        if riichi and best_after == 1:
            push = super().choose(obs)
            if push.tile is not None and push.type in _DISCARDS:
                pk = kind(push.tile)
                seen = hand.visible[pk] + c[pk]
                if sum(danger(pk, g, seen) for _, g in threats) <= PUSH_DANGER:
                    return push
        kyuushu = next((a for a in acts if a.type is A_KYUUSHU), None)
        if kyuushu is not None:
            return kyuushu  # an abortive draw risks nothing
        best: tuple[tuple[int, int, int], Action] | None = None
        for a in discards:
            assert a.tile is not None
            k = kind(a.tile)
            seen = hand.visible[k] + c[k]
            key = (
                sum(danger(k, g, seen) for _, g in threats),
                after[k],
                1 if is_red(a.tile) else 0,
            )
            if best is None or key < best[0]:
                best = (key, a)
        assert best is not None
        return best[1]
