"""Full hanchan played by riichienv (the independent Rust engine) with seeded agents.

Each game records what the differential replay needs: riichienv's mjai log
(hands, draws, dora, results), and every decision riichienv asked for: which
seats it asked, the actions it offered each of them, and the one each agent
chose. The agents are simple and seeded; several are biased toward the
situations that are rare in real play (kans of every kind, calls, riichi,
kyuushu, terminal-only discards for nagashi mangan, honour calls for pao,
kokushi, winds on the first go-around for suufon renda, declining wins for
furiten) so that a few hundred games reach them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import riichienv as rv

AT = rv.ActionType
DISCARD, CHI, PON, DAIMINKAN = int(AT.DISCARD), int(AT.CHI), int(AT.PON), int(AT.DAIMINKAN)
RON, RIICHI, TSUMO, PASS = int(AT.RON), int(AT.RIICHI), int(AT.TSUMO), int(AT.PASS)
ANKAN, KAKAN, KYUSHU = int(AT.ANKAN), int(AT.KAKAN), int(AT.KYUSHU_KYUHAI)
KIND_NAMES = {
    DISCARD: "discard",
    CHI: "chi",
    PON: "pon",
    DAIMINKAN: "daiminkan",
    RON: "ron",
    RIICHI: "riichi",
    TSUMO: "tsumo",
    PASS: "pass",
    ANKAN: "ankan",
    KAKAN: "kakan",
    KYUSHU: "kyuushu",
}
CALLS = (CHI, PON, DAIMINKAN)
KANS = (ANKAN, KAKAN, DAIMINKAN)
YAOCHU_KINDS = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})

RULES = {"tenhou": rv.GameRule.default_tenhou, "majsoul": rv.GameRule.default_mjsoul}

# An action as plain data: (riichienv action type, tile id or None, consumed tile ids).
RvAction = tuple[int, int | None, tuple[int, ...]]


def plain(a: Any) -> RvAction:
    return (int(a.action_type), a.tile, tuple(a.consume_tiles))


@dataclass(frozen=True, slots=True)
class Decision:
    """One ``env.step``: the round it belongs to, what was offered and what was chosen.

    ``offers`` holds the kinds of action offered to each seat asked. riichienv
    declares riichi in two steps (riichi, then the discard); for the second,
    ``riichi_tiles`` lists the discards it allows (tile ids), else it is empty.
    """

    round_key: tuple[int, int, int]  # (round wind, dealer, honba) of the round being played
    offers: dict[int, frozenset[int]]
    chosen: dict[int, RvAction]
    riichi_tiles: tuple[int, ...] = ()


@dataclass(slots=True)
class PlayedGame:
    seed: int
    rules: str  # "tenhou" | "majsoul"
    agents: tuple[str, str, str, str]
    events: list[dict[str, Any]] = field(default_factory=list)  # riichienv's mjai log
    decisions: list[Decision] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)  # env.scores() after the game
    ranks: list[int] = field(default_factory=list)  # env.ranks(): 1..4 per seat
    complete: bool = True  # False: the log stops at the next round's header


# -- agents ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Profile:
    """How an agent plays. Probabilities are per offered decision."""

    discard: str = "efficient"  # efficient | random | yaochu | kokushi | honours
    chi: float = 0.3
    pon: float = 0.3
    kan: float = 0.5  # ankan, kakan and daiminkan alike
    honour_pon: float = 0.6  # pon / daiminkan of a wind or dragon
    riichi: float = 1.0
    win: float = 1.0  # declining a win makes furiten
    kyuushu: float = 0.5
    first_wind: bool = False  # first discard: a wind, the one already out if held


PROFILES: dict[str, Profile] = {
    "random": Profile(discard="random", chi=0.5, pon=0.5, kan=0.5, riichi=0.5, win=0.5),
    "efficient": Profile(),
    "caller": Profile(chi=1.0, pon=1.0, kan=1.0, honour_pon=1.0, riichi=1.0),
    "kan": Profile(chi=0.0, pon=1.0, kan=1.0, honour_pon=1.0),
    "riichi": Profile(chi=0.0, pon=0.0, kan=0.3, honour_pon=0.0, kyuushu=0.0),
    "nagashi": Profile(discard="yaochu", chi=0.0, pon=0.0, kan=0.0, honour_pon=0.0, kyuushu=0.0),
    "honours": Profile(discard="honours", chi=0.2, pon=0.5, kan=1.0, honour_pon=1.0),
    "kokushi": Profile(discard="kokushi", chi=0.0, pon=0.0, kan=0.0, honour_pon=0.0, kyuushu=0.0),
    "winds": Profile(first_wind=True, chi=0.2, pon=0.2, kyuushu=0.0),
    "decliner": Profile(win=0.6, pon=0.4, chi=0.2),
    "riichi_decliner": Profile(chi=0.0, pon=0.0, kan=0.2, honour_pon=0.0, kyuushu=0.0, win=0.35),
}
# A game's table: "mixed" draws each seat's profile from MIX; the others seat four
# players of one style, which is what suucha riichi, suukan sanra, suufon renda,
# triple ron and pao need.
TABLES = {
    "mixed": 10,
    "riichi": 2,  # four riichi players who often decline a win: suucha riichi, triple ron
    "kan": 2,  # four kan lovers: suukan sanra, chankan, rinshan
    "winds": 2,  # everyone opens with a wind: suufon renda
    "honours": 1,  # honour callers: daisangen / daisuushii pao
    "nagashi": 1,
}
TABLE_SEATS = {
    "riichi": ("riichi_decliner",) * 4,
    "kan": ("kan", "caller", "kan", "caller"),
    "winds": ("winds",) * 4,
    "honours": ("honours",) * 4,
    "nagashi": ("nagashi", "nagashi", "riichi", "efficient"),
}
MIX = {
    "efficient": 3,
    "caller": 2,
    "kan": 2,
    "riichi": 2,
    "random": 1,
    "nagashi": 1,
    "honours": 1,
    "kokushi": 1,
    "winds": 1,
    "decliner": 1,
}


class Agent:
    def __init__(self, profile: Profile, seed: int) -> None:
        self.p = profile
        self.rng = random.Random(seed)

    def act(self, seat: int, hand: list[int], acts: list[Any], env: Any) -> Any:
        rng, p = self.rng, self.p
        by: dict[int, list[Any]] = {}
        for a in acts:
            by.setdefault(int(a.action_type), []).append(a)
        for t, prob in ((TSUMO, p.win), (RON, p.win)):
            if t in by and rng.random() < prob:
                return by[t][0]
        if KYUSHU in by and rng.random() < p.kyuushu:
            return by[KYUSHU][0]
        for t in (ANKAN, KAKAN):
            if t in by and rng.random() < p.kan:
                return rng.choice(by[t])
        if RIICHI in by and rng.random() < p.riichi:
            return by[RIICHI][0]
        for t in (DAIMINKAN, PON, CHI):
            for a in by.get(t, ()):
                honour = a.tile // 4 >= 27
                prob = {DAIMINKAN: p.kan, PON: p.pon, CHI: p.chi}[t]
                if honour and t != CHI:
                    prob = max(prob, p.honour_pon)
                if rng.random() < prob:
                    return a
        if DISCARD in by:
            return self.discard(seat, hand, by[DISCARD], env)
        return by[PASS][0] if PASS in by else rng.choice(acts)

    def discard(self, seat: int, hand: list[int], acts: list[Any], env: Any) -> Any:
        rng, style = self.rng, self.p.discard
        if self.p.first_wind and not env.discards[seat]:
            winds = [a for a in acts if 27 <= a.tile // 4 <= 30]
            out = {t // 4 for d in env.discards for t in d}
            same = [a for a in winds if a.tile // 4 in out]
            if out and not same:
                winds = []  # the first wind is out and we lack it: suufon renda is off
            if same or winds:
                return rng.choice(same or winds)
        if style == "random":
            return rng.choice(acts)
        if style == "yaochu":
            yao = [a for a in acts if a.tile // 4 in YAOCHU_KINDS]
            if yao:
                return rng.choice(yao)
        elif style == "kokushi":
            kinds = [t // 4 for t in hand]
            useless = [
                a for a in acts if a.tile // 4 not in YAOCHU_KINDS or kinds.count(a.tile // 4) > 1
            ]
            if useless:
                return rng.choice(useless)
        best = 99
        options: list[Any] = []
        after: dict[int, int] = {}  # shanten after discarding a kind
        for a in acts:
            k = a.tile // 4
            if k not in after:
                rest = list(hand)
                rest.remove(a.tile)
                after[k] = rv.calculate_shanten(rest)
                if style == "honours" and k >= 27:
                    after[k] += 1  # keeps winds and dragons unless nothing else is as good
            s = after[k]
            if s < best:
                best, options = s, [a]
            elif s == best:
                options.append(a)
        return rng.choice(options)


def agents_for(seed: int) -> tuple[str, str, str, str]:
    rng = random.Random(f"agents-{seed}")
    table = rng.choices(list(TABLES), weights=list(TABLES.values()))[0]
    if table in TABLE_SEATS:
        seats = list(TABLE_SEATS[table])
        rng.shuffle(seats)
    else:
        names = list(MIX)
        seats = rng.choices(names, weights=[MIX[n] for n in names], k=4)
    return (seats[0], seats[1], seats[2], seats[3])


MAX_STEPS = 20000
Chooser = Callable[[int, Any, list[Any]], Any]  # (seat, observation, legal actions) -> action


def run_env(env: Any, obs: Any, game: PlayedGame, choose: Chooser, one_round: bool) -> None:
    """Step ``env`` until the game ends (or, with ``one_round``, the round does),
    recording every decision into ``game`` and riichienv's log and scores after it."""
    start = (env.round_wind, env.oya, env.honba)
    riichi_seat: int | None = None
    for _ in range(MAX_STEPS):
        key = (env.round_wind, env.oya, env.honba)
        if env.done() or (one_round and key != start):
            break
        offers: dict[int, frozenset[int]] = {}
        chosen: dict[int, RvAction] = {}
        step: dict[int, Any] = {}
        riichi_tiles: tuple[int, ...] = ()
        for seat, o in obs.items():
            acts = o.legal_actions()
            if not acts:
                continue
            a = choose(seat, o, acts)
            offers[seat] = frozenset(int(x.action_type) for x in acts)
            if riichi_seat == seat:
                riichi_tiles = tuple(x.tile for x in acts if int(x.action_type) == DISCARD)
            chosen[seat] = plain(a)
            step[seat] = a
        riichi_seat = next((s for s, a in chosen.items() if a[0] == RIICHI), None)
        game.decisions.append(Decision(key, offers, chosen, riichi_tiles))
        obs = env.step(step)
    else:
        raise RuntimeError(f"riichienv game {game.seed} did not end in {MAX_STEPS} steps")
    game.events = list(env.mjai_log)
    game.scores = list(env.scores())
    game.ranks = list(env.ranks())
    game.complete = env.done()


def play(seed: int, rules: str) -> PlayedGame:
    """One riichienv hanchan (4 players, red fives) under its ``rules`` preset."""
    names = agents_for(seed)
    env = rv.RiichiEnv(game_mode="4p-red-half", seed=seed, rule=RULES[rules]())
    agents = [Agent(PROFILES[n], seed * 4 + s) for s, n in enumerate(names)]
    game = PlayedGame(seed, rules, names)

    def choose(seat: int, o: Any, acts: list[Any]) -> Any:
        return agents[seat].act(seat, o.hand, acts, env)

    run_env(env, env.reset(), game, choose, one_round=False)
    return game
