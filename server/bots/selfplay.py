"""Bot self-play with property checks (issue 3): full games in-process, any variant.

``play_game`` drives one game with one bot a seat through the variant's public
functions only (``legal`` / ``apply`` / ``next_round`` / ``observe``), and checks
after every transition:

* the variant's ``check_invariants`` (tiles each in one place, points constant, ...);
* legal actions are accepted: a sample of the listed actions other than the
  chosen one is applied to a clone (the chosen one is applied for real);
* random illegal actions raise ``IllegalAction`` and leave the state
  byte-for-byte unchanged (compared by pickling);
* the variant's ``check_view``: each seat's observation is the same when the
  tiles it may not see are shuffled, and masked events hide their tiles;
* at the end, the variant's ``replay`` of the seed and the action log gives the
  same game.

A failed check is recorded (not raised) so a run reports every problem.
"""

from __future__ import annotations

import hashlib
import pickle
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.bots import Bot, make_bot
from server.engine import AnyVariant, variant_of_options
from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.events import Event
from server.engine.replay import replay


@dataclass(frozen=True, slots=True)
class Checks:
    """Which checks run, and how often (rates are per decision / transition).

    ``invariants`` runs after every transition when on. Applying every listed
    action to a clone, building all five views and fingerprinting the state
    cost far more than a transition, so those are sampled at random rates
    (from a seeded generator: a run is reproducible).
    """

    invariants: bool = True
    legal_rate: float = 0.1  # decisions at which EVERY listed action is tried on a clone
    illegal_rate: float = 1.0  # decisions at which illegal actions are tried
    illegal_tries: int = 2
    view_rate: float = 1.0  # transitions after which all five views are checked
    replay: bool = True

    @classmethod
    def none(cls) -> Checks:
        return cls(False, 0.0, 0.0, 0, 0.0, False)


@dataclass(slots=True)
class Stats:
    """Counts over one or more games."""

    games: int = 0
    rounds: int = 0
    tsumo: int = 0
    ron: int = 0
    draws: Counter[str] = field(default_factory=Counter)
    tags: Counter[str] = field(default_factory=Counter)  # the variant's own (winning shapes ...)
    decisions: int = 0
    actions: Counter[str] = field(default_factory=Counter)  # chosen, by type
    seconds: float = 0.0
    checks: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, other: Stats) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.tsumo += other.tsumo
        self.ron += other.ron
        self.draws.update(other.draws)
        self.tags.update(other.tags)
        self.decisions += other.decisions
        self.actions.update(other.actions)
        self.seconds += other.seconds
        self.checks.update(other.checks)
        self.failures.extend(other.failures)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "wins": {"tsumo": self.tsumo, "ron": self.ron, "total": self.tsumo + self.ron},
            "draws": dict(sorted(self.draws.items())),
            "tags": dict(sorted(self.tags.items())),
            "decisions": self.decisions,
            "actions": dict(sorted(self.actions.items())),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "checks": dict(sorted(self.checks.items())),
            "failures": self.failures[:50],
            "failure_count": len(self.failures),
            "ok": not self.failures,
        }


def game_seed(seed: int | str, index: int) -> bytes:
    """The wall seed of game ``index`` of a run (R6: all walls follow from it)."""
    return hashlib.sha256(f"jantaku-selfplay:{seed}:{index}".encode()).digest()


def bot_seed(seed: int | str, index: int, seat: int) -> int:
    h = hashlib.sha256(f"jantaku-bot:{seed}:{index}:{seat}".encode()).digest()
    return int.from_bytes(h[:8], "big")


# --- checks ----------------------------------------------------------------


def _random_action(rng: random.Random, seats: int) -> Action:
    t = rng.choice(list(ActionType))
    tile = rng.randrange(37) if rng.random() < 0.8 else None
    tiles = tuple(rng.randrange(37) for _ in range(rng.choice((0, 0, 2, 3))))
    return Action(t, rng.randrange(seats), tile, tiles)


# Append-only or immutable attributes: compared by length / identity, since
# pickling a whole game's log on every check would dominate the run time.
_BULKY = ("log", "round_results", "start_events", "rules", "wall")


def _mutate(a: Action, rng: random.Random, seats: int) -> Action:
    r = rng.randrange(4)
    if r == 0:
        return Action(a.type, rng.randrange(seats), a.tile, a.tiles)
    if r == 1:
        return Action(rng.choice(list(ActionType)), a.seat, a.tile, a.tiles)
    if r == 2:
        return Action(a.type, a.seat, rng.randrange(37), a.tiles)
    tiles = tuple(rng.randrange(37) for _ in a.tiles) if a.tiles else (rng.randrange(37),)
    return Action(a.type, a.seat, a.tile, tiles)


def _fingerprint(state: Any) -> bytes:
    """Everything mutable in a state, as bytes (an illegal action must change none of it)."""
    d = (
        dict(vars(state))
        if hasattr(state, "__dict__")
        else {n: getattr(state, n) for n in type(state).__slots__}
    )
    bulky = [d.pop(k, None) for k in _BULKY]
    marks = [(len(b), b[-1] if b else None) if isinstance(b, list) else id(b) for b in bulky]
    return pickle.dumps((d, marks), protocol=pickle.HIGHEST_PROTOCOL)


def _summary(variant: AnyVariant, state: Any) -> tuple[Any, ...]:
    return (
        variant.phase(state),
        tuple(state.scores),
        tuple(state.log),
        tuple(variant.rounds(state)),
        repr(variant.final(state)),
    )


# --- one game ----------------------------------------------------------------


def play_game(
    rules: Any,
    seed: bytes,
    bots: Sequence[Bot],
    checks: Checks = Checks(),
    *,
    first_dealer: int = 0,
    check_rng: random.Random | None = None,
    max_decisions: int = 20_000,
) -> tuple[Any, Stats]:
    """Play one game of ``rules`` (any variant's options) to the end; returns the final
    state and its stats."""
    variant = variant_of_options(rules)
    stats = Stats(games=1)
    rng = check_rng or random.Random(seed)
    t0 = time.perf_counter()
    state = variant.new_game(rules, seed, first_dealer)
    step = 0
    n_seats = variant.seats

    def fail(msg: str) -> None:
        where = f"round {state.round_index} step {step}"
        stats.failures.append(f"{seed.hex()[:12]} {where}: {msg}")

    def after_transition(events: Sequence[Event]) -> None:
        if checks.invariants:
            try:
                variant.check_invariants(state)
            except AssertionError as exc:
                fail(f"invariant: {exc}")
            stats.checks["invariants"] += 1
        if checks.view_rate and rng.random() < checks.view_rate:
            try:
                variant.check_view(state, events, rng)
            except AssertionError as exc:
                fail(f"view: {exc}")
            stats.checks["views"] += 1

    # Counted by the id of the ActionType object and named at the end: Enum.value is a
    # slow property, and hashing an enum member runs Python code.
    chosen: Counter[int] = Counter()
    check_after = checks.invariants or bool(checks.view_rate)
    # the check switches as locals: read at every decision
    invariants, illegal_rate, legal_rate = checks.invariants, checks.illegal_rate, checks.legal_rate
    legal_actions, apply, observe = variant.legal, variant.apply, variant.observe
    phase = variant.phase
    decisions = 0
    # bots that follow the game's events (external mjai bots): each sees them all
    watchers = [(s, b) for s, b in enumerate(bots) if hasattr(b, "see")]
    first = variant.start_events(state)
    for _, b in watchers:
        b.see(first)
    after_transition(first)
    while phase(state) != "game_end":
        step += 1
        if step > max_decisions:
            fail("game did not end")
            break
        if phase(state) == "round_end":
            events = variant.next_round(state)
            for _, b in watchers:
                b.see(events)
            if check_after:
                after_transition(events)
            continue
        waiting = variant.waiting_on(state)
        if not waiting:
            fail(f"phase {phase(state)} waits on nobody")
            break
        # Answers to a discard may come in any order: take a random waiting seat.
        if len(waiting) == 1:
            (seat,) = waiting  # unpacking, cheaper than min() on the common one-seat case
        else:
            seat = rng.choice(sorted(waiting))
        obs = observe(state, seat)
        legal = obs.legal
        if not legal:
            fail(f"seat {seat} is waited on but has no legal action")
            break
        if invariants:
            for s in range(n_seats):
                if s not in waiting and legal_actions(state, s):
                    fail(f"seat {s} has legal actions but is not waited on")
        if illegal_rate and rng.random() < illegal_rate:
            _check_illegal(variant, state, rng, legal, checks.illegal_tries, stats, fail)
        action = bots[seat].choose(obs)
        if legal_rate:
            # bots hand back a listed object: compare by identity before __eq__
            for a in legal:
                if a is action:
                    break
            else:
                if action not in legal:
                    fail(f"bot {bots[seat].name} chose {action!r}, not a legal action")
                    break
            if rng.random() < legal_rate:
                for a in legal:
                    if a == action:
                        continue
                    try:
                        apply(variant.clone(state), a)
                    except IllegalAction as exc:
                        fail(f"listed legal action {a!r} was refused: {exc}")
                    stats.checks["legal_accepted"] += 1
        try:
            # apply checks the action against the same legal list
            events = apply(state, action)
        except IllegalAction as exc:
            if action not in legal:
                fail(f"bot {bots[seat].name} chose {action!r}, not a legal action")
            else:
                decisions += 1
                chosen[id(action.type)] += 1
                fail(f"chosen legal action {action!r} was refused: {exc}")
            break
        decisions += 1
        chosen[id(action.type)] += 1
        for _, b in watchers:
            b.see(events)
        if check_after:
            after_transition(events)
    stats.decisions += decisions
    for t in ActionType:
        n = chosen.get(id(t))
        if n:
            stats.actions[t.value] += n
    stats.seconds = time.perf_counter() - t0
    for r in variant.rounds(state):
        stats.rounds += 1
        for tag in variant.describe(r):
            if tag in ("tsumo", "ron"):
                setattr(stats, tag, getattr(stats, tag) + 1)
            elif tag.startswith("draw:"):
                stats.draws[tag[5:]] += 1
            else:
                stats.tags[tag] += 1
    if checks.replay and phase(state) == "game_end":
        again = replay(variant, rules, seed, state.log, first_dealer)
        if _summary(variant, again) != _summary(variant, state):
            fail("replaying the seed and the action log gave a different game")
        stats.checks["replays"] += 1
    return state, stats


def _check_illegal(
    variant: AnyVariant,
    state: Any,
    rng: random.Random,
    legal: list[Action],
    tries: int,
    stats: Stats,
    fail: Callable[[str], None],
) -> None:
    # Ask every seat first, so that a cache the engine may fill on demand is
    # already filled and does not count as a change.
    n = variant.seats
    for s in range(n):
        variant.legal(state, s)
    before = _fingerprint(state)
    for _ in range(tries):
        # Half near-misses (a legal action with one field changed), half noise.
        a = _mutate(rng.choice(legal), rng, n) if rng.random() < 0.5 else _random_action(rng, n)
        if a in variant.legal(state, a.seat):
            continue
        try:
            variant.apply(state, a)
        except IllegalAction:
            pass
        except Exception as exc:  # a crash on bad input is a failure too
            fail(f"illegal {a!r} raised {type(exc).__name__}: {exc}")
        else:
            fail(f"illegal {a!r} was accepted")
        stats.checks["illegal_refused"] += 1
    if _fingerprint(state) != before:
        fail("an illegal action changed the state")


def run_games(
    rules: Any,
    names: Sequence[str],
    games: int,
    seed: int | str = 0,
    checks: Checks = Checks(),
    progress: Callable[[int, Stats], None] | None = None,
    factory: Callable[[str, int, str, int], Any] | None = None,
) -> Stats:
    """Play ``games`` games with bots by name (one per seat, seat order).

    ``factory(name, seed, game, seat)`` makes a seat's bot (default ``make_bot``); a
    bot with a ``close`` method is closed after its game."""
    variant = variant_of_options(rules)
    if len(names) != variant.seats:
        raise ValueError(f"{variant.seats} bots are needed, one per seat")
    total = Stats()
    for g in range(games):
        if factory is None:
            bots = [make_bot(n, bot_seed(seed, g, s), variant.key) for s, n in enumerate(names)]
        else:
            bots = [factory(n, bot_seed(seed, g, s), variant.key, s) for s, n in enumerate(names)]
        try:
            _, st = play_game(
                rules,
                game_seed(seed, g),
                bots,
                checks,
                check_rng=random.Random(bot_seed(seed, g, 9)),
            )
        finally:
            for b in bots:
                close = getattr(b, "close", None)
                if close is not None:
                    close()
        total.add(st)
        if progress is not None:
            progress(g, total)
    return total


def parse_bots(spec: str, seats: int = 4) -> list[str]:
    """``"efficient,random"`` -> one name per seat, the list repeated to fill the seats."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names or seats % len(names):
        counts = [str(k) for k in (1, 2, 3, 4) if seats % k == 0]
        allowed = ", ".join(counts[:-1]) + f" or {counts[-1]}"
        raise ValueError(f"--bots takes {allowed} comma-separated bot names for {seats} seats")
    return (names * seats)[:seats]
