"""One decision looked at from the deciding seat's observation.

For a turn (a discard to choose): per discardable kind, the shanten after it and
the ukeire (each kind that lowers it, with the copies the seat cannot see; the
discarded tile counts as seen: it lies in the river), and against threats the
danger of each (``danger.py``). For every decision, turns and answers to a discard
alike: the action taken beside the efficient and defensive bots' choices. After
a discard: the waits with copies left when tenpai, and furiten (the engine's
own hints for the seat).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.analysis.danger import TileDanger, tile_danger
from server.analysis.moments import Moment
from server.bots.base import read_hand
from server.bots.defensive import OPEN_THREAT_MELDS, DefensiveBot, read_threats
from server.bots.efficient import EfficientBot
from server.engine.actions import A_DISCARD, A_RIICHI, Action
from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import discard_shanten, ukeire
from server.engine.tiles import Kind, Tile, dora_of, kind

_EFFICIENT = EfficientBot()
_DEFENSIVE = DefensiveBot()
_DISCARDS = (A_DISCARD, A_RIICHI)
_NOT_IN_SANMA = range(1, 8)  # 2m..8m


@dataclass(frozen=True, slots=True)
class Candidate:
    """One discardable kind of a turn."""

    tile: Tile  # the tile a legal discard of this kind throws (the actual one if thrown)
    shanten: int  # after the discard
    ukeire: tuple[tuple[Kind, int], ...]  # kinds that lower it, copies unseen
    danger: tuple[TileDanger, ...]  # one per threat (none without a threat)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.ukeire)

    @property
    def level(self) -> int | None:
        return max((d.level for d in self.danger), default=None)


@dataclass(frozen=True, slots=True)
class Decision:
    seat: int
    hand: int
    event: int
    turn: bool  # True: own turn; False: answering a discard (call or pass)
    junme: int  # the seat's discards this round before this decision
    shanten: int  # of the hand as it is (14 tiles on a turn, 13 when answering)
    actual: Action
    efficient: Action
    defensive: Action
    threats: tuple[int, ...]  # seats in riichi or with three melds
    candidates: tuple[Candidate, ...]  # turns: best shanten, then most ukeire first
    after_shanten: int | None  # after the actual discard
    waits: tuple[tuple[Kind, int], ...]  # when tenpai after it: waits, copies unseen
    furiten: bool

    @property
    def riichi(self) -> bool:
        return self.actual.type is A_RIICHI

    def chosen(self, a: Action) -> Candidate | None:
        """The candidate ``a`` discards, if it discards."""
        if a.type not in _DISCARDS or a.tile is None:
            return None
        k = kind(a.tile)
        return next((c for c in self.candidates if kind(c.tile) == k), None)


def _dora(indicator: Kind, seats: int) -> Kind:
    """R5, and S10 in sanma: 1m points to 9m and 9m to 1m."""
    if seats == 3 and indicator in (0, 8):
        return 8 - indicator
    return dora_of(indicator)


def same_choice(a: Action, b: Action) -> bool:
    """Two actions agree: the same discard kind (riichi or not), or the same action."""
    if a.type in _DISCARDS and b.type in _DISCARDS:
        return a.tile is not None and b.tile is not None and kind(a.tile) == kind(b.tile)
    return (
        a.type is b.type
        and a.tiles == b.tiles
        and (a.tile == b.tile or a.tile is None or b.tile is None)
    )


def analyse_moment(m: Moment) -> Decision:
    obs = m.obs
    seat = m.action.seat
    h = read_hand(obs)
    c = h.counts
    threats = read_threats(obs)
    threat_seats = tuple(
        p.seat
        for p in obs.players
        if p.seat != seat and (p.riichi or len(p.melds) >= OPEN_THREAT_MELDS)
    )
    candidates: list[Candidate] = []
    if obs.in_turn:
        tiles: dict[Kind, Tile] = {}
        for a in obs.legal:
            if a.type in _DISCARDS and a.tile is not None:
                tiles.setdefault(kind(a.tile), a.tile)
        if m.action.type in _DISCARDS and m.action.tile is not None:
            tiles[kind(m.action.tile)] = m.action.tile
        after = discard_shanten(c) if tiles else {}
        seen = [h.visible[k] + c[k] for k in range(34)]
        dora = {_dora(kind(t), obs.rules.seats) for t in obs.dora_indicators}
        sanma = obs.rules.seats == 3
        for k, t in tiles.items():
            c[k] -= 1
            h.visible[k] += 1
            left = ukeire(c, h.visible, known_shanten=after[k])
            if sanma:
                for x in _NOT_IN_SANMA:
                    left.pop(x, None)  # 2m-8m: not in the game, never drawn
            h.visible[k] -= 1
            c[k] += 1
            danger = tuple(
                tile_danger(k, s, g, seen, dora, m.passed[s] if m.passed else frozenset())
                for s, (_, g) in zip(threat_seats, threats, strict=True)
            )
            candidates.append(Candidate(t, after[k], tuple(sorted(left.items())), danger))
        candidates.sort(key=lambda x: (x.shanten, -x.total, kind(x.tile)))
    hints = m.after
    return Decision(
        seat=seat,
        hand=m.hand,
        event=m.event,
        turn=obs.in_turn,
        junme=len(obs.players[seat].river),
        shanten=shanten(c),
        actual=m.action,
        efficient=_EFFICIENT.choose(obs),
        defensive=_DEFENSIVE.choose(obs),
        threats=threat_seats,
        candidates=tuple(candidates),
        after_shanten=hints.shanten if hints is not None else None,
        waits=tuple((w.kind, w.left) for w in hints.waits) if hints is not None else (),
        furiten=hints.furiten if hints is not None else False,
    )
