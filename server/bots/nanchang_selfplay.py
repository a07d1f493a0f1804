"""Nanchang self-play with property checks (tests, ``bench/nanchang.py``, ``jantaku simulate``).

Checks, each optional: ``check_invariants`` after every transition; the final
state rebuilt exactly by ``replay``; sampled decisions where each seat's
observation must not change when every tile it may not see (other hands, the
wall) is shuffled, and every event masked for other seats must hide the tiles;
sampled illegal actions refused with the state unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.nanchang import (
    Dealt,
    Drew,
    Event,
    NanchangGame,
    NanchangObservation,
    NanchangOptions,
    RoundEnded,
    apply,
    check_invariants,
    legal_actions,
    mask,
    new_game,
    next_round,
    observe,
    replay,
    waiting_on,
)


class NanchangPlayer(Protocol):
    name: str

    def choose(self, obs: NanchangObservation, legal: Sequence[Action]) -> Action: ...


@dataclass(frozen=True)
class Checks:
    invariants: bool = True
    replay: bool = True
    observation_rate: float = 0.0
    illegal_rate: float = 0.0

    @classmethod
    def none(cls) -> Checks:
        return cls(False, False, 0.0, 0.0)


@dataclass
class Stats:
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    wins: int = 0
    draws: int = 0
    shapes: Counter[str] = field(default_factory=Counter)
    elements: Counter[str] = field(default_factory=Counter)
    checks: int = 0

    def add(self, other: Stats) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.wins += other.wins
        self.draws += other.draws
        self.shapes.update(other.shapes)
        self.elements.update(other.elements)
        self.checks += other.checks


def shadow(g: NanchangGame, seat: int | None, rng: random.Random) -> NanchangGame:
    """A copy of ``g`` with every tile ``seat`` may not see shuffled among their places."""
    s = g.clone()
    places: list[tuple[str, int, int]] = []
    for other in range(4):
        if other != seat:
            places += [("hand", other, i) for i in range(len(s.hands[other]))]
    places += [("wall", p, 0) for p in s.live if p != s.wall.indicator_pos]
    drawn_at = {
        o: s.hands[o].index(d) for o in range(4) if o != seat and (d := s.drawn[o]) is not None
    }
    ids = [s.hands[a][b] if kind == "hand" else s.wall.tiles[a] for kind, a, b in places]
    rng.shuffle(ids)
    for (kind, a, b), tid in zip(places, ids, strict=True):
        if kind == "hand":
            s.hands[a][b] = tid
        else:
            s.wall.tiles[a] = tid
    for o, i in drawn_at.items():
        s.drawn[o] = s.hands[o][i]
    return s


def _check_masks(events: Sequence[Event]) -> None:
    for e in events:
        for viewer in (None, 0, 1, 2, 3):
            m = mask(e, viewer)
            if isinstance(e, Dealt) and viewer != e.seat:
                assert m.tiles is None, "a deal leaks to another seat"  # type: ignore[union-attr]
            if isinstance(e, Drew) and viewer != e.seat and not e.shown:
                assert m.tile is None, "a draw leaks to another seat"  # type: ignore[union-attr]


def _illegal_tries(g: NanchangGame, rng: random.Random) -> list[Action]:
    out = [Action(ActionType.DISCARD, rng.randrange(4), rng.randrange(34))]
    out.append(Action(ActionType.TSUMO, rng.randrange(4)))
    out.append(Action(ActionType.RON, rng.randrange(4), rng.randrange(34)))
    out.append(Action(ActionType.PON, rng.randrange(4), None, (rng.randrange(34),) * 2))
    out.append(Action(ActionType.RIICHI, rng.randrange(4), rng.randrange(34)))
    return [a for a in out if a not in legal_actions(g, a.seat)]


def play_game(
    options: NanchangOptions,
    seed: bytes,
    bots: Sequence[NanchangPlayer],
    checks: Checks | None = None,
    first_dealer: int = 0,
    check_seed: int = 0,
) -> tuple[NanchangGame, Stats]:
    """Play one game to its end with ``bots[seat]`` deciding for each seat."""
    checks = checks or Checks()
    rng = random.Random(check_seed)
    st = Stats(games=1)
    g = new_game(options, seed, first_dealer)
    events: list[Event] = list(g.start_events)

    def after(evs: Sequence[Event]) -> None:
        if checks.invariants:
            check_invariants(g)
            _check_masks(evs)
        for e in evs:
            if isinstance(e, RoundEnded):
                st.rounds += 1
                w = e.result.win
                if w is None:
                    st.draws += 1
                else:
                    st.wins += 1
                    st.shapes[w.score.shape] += 1
                    for el in w.score.elements:
                        st.elements[el.id] += 1
                for b in e.result.joker_bonus:
                    st.elements["jokers"] += 1
                    if b.chongguan:
                        st.elements["chongguan"] += 1
                    if b.payer is not None:
                        st.elements["chongguan_paid_by_discarder"] += 1
                    if b.bawang:
                        st.elements["bawang"] += 1
                for k in e.result.kans:
                    st.elements[k.type] += 1
                    if k.joker:
                        st.elements["gangjing"] += 1

    after(events)
    while g.phase != "game_end":
        if g.phase == "round_end":
            after(next_round(g))
            continue
        if checks.illegal_rate and rng.random() < checks.illegal_rate:
            before = g.clone()
            for bad in _illegal_tries(g, rng):
                try:
                    apply(g, bad)
                except IllegalAction:
                    pass
                else:  # pragma: no cover - a failure
                    raise AssertionError(f"illegal action accepted: {bad!r}")
                assert g == before, "a refused action changed the state"
                st.checks += 1
        seat = min(waiting_on(g))
        obs = observe(g, seat)
        if checks.observation_rate and rng.random() < checks.observation_rate:
            for viewer in (None, 0, 1, 2, 3):
                assert observe(shadow(g, viewer, rng), viewer) == observe(g, viewer), (
                    f"seat {viewer}'s observation depends on tiles it may not see"
                )
                st.checks += 1
        legal = legal_actions(g, seat)
        action = bots[seat].choose(obs, legal)
        st.decisions += 1
        after(apply(g, action))
    if checks.replay:
        again = replay(options, seed, g.log, first_dealer)
        assert again == g, "replay does not rebuild the game"
        st.checks += 1
    return g, st
