"""Rounds dealt from a stacked wall, for what seeded agents almost never reach.

riichienv deals its first round from a wall we give it (``env.reset(wall=...)``,
the same layout as ours for the deal and the live draws: ``wall[0:52]`` dealt
from the dealer, draws from ``wall[52]`` on; its rinshan tiles are 135, 134, 133,
132 and its first dora indicator 131). Scripted agents then play the round:
each seat takes the actions of its plan when they are offered (a kan, a call of
a given tile, riichi with a given discard, a win) and otherwise discards what
it drew (or, after a call, the next tile of its discard list). The round is
replayed through our engine like any other (``replay.replay_game``) and the
game's next header is compared too.

Each scenario names what it must reach, so that a change of riichienv or of
our engine that stops it from being reached fails the test instead of
covering nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import riichienv as rv

from server.engine.tiles import RED_5M, Tile, kind, parse_tiles
from tests.differential.riichienv_play import (
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    PASS,
    PON,
    RIICHI,
    RON,
    RULES,
    TSUMO,
    PlayedGame,
    run_env,
)

_RED_IDS = {RED_5M: 16, RED_5M + 1: 52, RED_5M + 2: 88}


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    hands: tuple[str, str, str, str]  # seat-indexed, 13 tiles each in our notation
    draws: str  # live draws in order from the dealer's first
    plans: dict[int, tuple[str, ...]]  # seat -> wanted actions, e.g. "pon 7z", "riichi 1m"
    discards: dict[int, str] = field(default_factory=dict)  # after a call, in this order
    dealer: int = 0
    round_wind: int = 0
    scores: tuple[int, int, int, int] = (25000, 25000, 25000, 25000)
    honba: int = 0
    # What riichienv's log must show, per rules: mjai event types, "3 hora" for three.
    reaches: dict[str, str] = field(default_factory=dict)


def stacked_wall(s: Scenario, seed: int) -> list[int]:
    """136 tile ids: the hands and draws where riichienv deals them, the rest shuffled."""
    free = set(range(136))

    def take(t: Tile) -> int:
        if t in _RED_IDS:
            tid = _RED_IDS[t]
        else:
            tid = next(
                (
                    i
                    for i in range(4 * kind(t), 4 * kind(t) + 4)
                    if i in free and i not in (16, 52, 88)
                ),
                -1,
            )
        if tid not in free:
            raise ValueError(f"scenario {s.name}: a fifth {t}")
        free.discard(tid)
        return tid

    wall: list[int | None] = [None] * 136
    hands = [[take(t) for t in parse_tiles(h)] for h in s.hands]
    if any(len(h) != 13 for h in hands):
        raise ValueError(f"scenario {s.name}: hands of 13 tiles")
    for r in range(3):
        for i in range(4):
            seat = (s.dealer + i) % 4
            wall[16 * r + 4 * i : 16 * r + 4 * i + 4] = hands[seat][4 * r : 4 * r + 4]
    for i in range(4):
        wall[48 + i] = hands[(s.dealer + i) % 4][12]
    for i, t in enumerate(parse_tiles(s.draws)):
        wall[52 + i] = take(t)
    rest = sorted(free)
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    return [t if t is not None else next(it) for t in wall]


class ScriptAgent:
    def __init__(self, plan: tuple[str, ...], discards: str) -> None:
        self.plan = list(plan)
        self.discards = [kind(t) for t in parse_tiles(discards)]
        self.riichi_tile: int | None = None

    def wants(self, a: Any) -> bool:
        typ = int(a.action_type)
        name = {ANKAN: "ankan", KAKAN: "kakan", DAIMINKAN: "daiminkan", PON: "pon", CHI: "chi"}
        if typ in name:
            return f"{name[typ]} {_notation(a.tile)}" in self.plan or name[typ] in self.plan
        return False

    def act(self, acts: list[Any], drawn: int | None) -> Any:
        by: dict[int, list[Any]] = {}
        for a in acts:
            by.setdefault(int(a.action_type), []).append(a)
        if TSUMO in by:
            return by[TSUMO][0]
        if RON in by and f"no ron {_notation(by[RON][0].tile)}" not in self.plan:
            return by[RON][0]
        for a in acts:
            if self.wants(a):
                return a
        if RIICHI in by:
            for p in self.plan:
                if p.startswith("riichi"):
                    self.riichi_tile = kind(parse_tiles(p.split()[1])[0])
                    return by[RIICHI][0]
        ds = by.get(DISCARD, [])
        if ds:
            if self.riichi_tile is not None:
                want, self.riichi_tile = self.riichi_tile, None
                return next((a for a in ds if a.tile // 4 == want), ds[0])
            if drawn is not None and any(a.tile == drawn for a in ds):
                return next(a for a in ds if a.tile == drawn)
            while self.discards:
                k = self.discards.pop(0)
                pick = next((a for a in ds if a.tile // 4 == k), None)
                if pick is not None:
                    return pick
            return ds[-1]
        return by[PASS][0] if PASS in by else acts[0]


def _notation(tid: int | None) -> str:
    if tid is None:
        return "-"
    k = tid // 4
    return f"{k - 26}z" if k >= 27 else f"{k % 9 + 1}{'mps'[k // 9]}"


def play_scenario(s: Scenario, rules: str, seed: int = 0) -> PlayedGame:
    """riichienv plays the scenario's round; the log ends with the next round's header."""
    env = rv.RiichiEnv(game_mode="4p-red-half", seed=seed, rule=RULES[rules]())
    obs = env.reset(
        oya=s.dealer,
        wall=stacked_wall(s, seed),
        round_wind=s.round_wind,
        scores=list(s.scores),
        honba=s.honba,
        kyotaku=0,
    )
    agents = [ScriptAgent(s.plans.get(i, ()), s.discards.get(i, "")) for i in range(4)]
    game = PlayedGame(seed, rules, ("script",) * 4)

    def choose(seat: int, o: Any, acts: list[Any]) -> Any:
        return agents[seat].act(acts, env.drawn_tile if seat == env.current_player else None)

    run_env(env, obs, game, choose, one_round=True)
    return game


def reached(s: Scenario, game: PlayedGame) -> bool:
    """Whether riichienv's log shows what the scenario is there for."""
    want = s.reaches[game.rules]
    types = [e["type"] for e in game.events]
    if want.startswith("3 "):
        return types.count(want[2:]) == 3
    return want in types


SCENARIOS: tuple[Scenario, ...] = (
    # R12 / item 6: the dealer's ankan of 1m on the first turn; seat 1 waits on 1m for
    # kokushi. Mahjong Soul lets it rob the ankan, Tenhou does not.
    Scenario(
        "kokushi robs an ankan",
        hands=("1111m234567p234s", "99m19p19s1234567z", "223344m556677s8p", "2233445566778p"),
        draws="8s9s",
        plans={0: ("ankan",), 1: ()},
        reaches={"majsoul": "hora", "tenhou": "ankan"},
    ),
    # R24 / item 2: seat 1 pons haku, hatsu, then chun from seat 2 (pao) and draws its
    # tanki 3z: daisangen + tsuuiisou by tsumo.
    Scenario(
        "pao tsumo on daisangen + tsuuiisou",
        hands=("1357m1357p1357s1z", "5566771112344z", "2345678p234567s", "123456789s1122m"),
        draws="8m7s5z6z7z9s3m9p3z",
        plans={1: ("pon 5z", "pon 6z", "pon 7z")},
        discards={1: "2z4z4z"},
        reaches={"majsoul": "hora", "tenhou": "hora"},
    ),
    # R24: the same hand ronned off seat 3 (not the pao seat): pao and discarder share.
    Scenario(
        "pao ron on daisangen + tsuuiisou",
        hands=("1357m1357p1357s1z", "5566771112344z", "2345678p234567s", "123456789s1122m"),
        draws="8m7s5z6z7z9s3z",
        plans={1: ("pon 5z", "pon 6z", "pon 7z")},
        discards={1: "2z4z4z"},
        reaches={"majsoul": "hora", "tenhou": "hora"},
    ),
    # R24: daisangen alone, ronned off seat 3 at 2 honba: who pays the honba.
    Scenario(
        "pao ron with honba",
        hands=("1357m1357p1379s1z", "556677z44m9p1256s", "2345678p234567s", "123456789s1122m"),
        draws="8m9m5z6z7z9s7s",
        plans={1: ("pon 5z", "pon 6z", "pon 7z")},
        discards={1: "9p1s2s"},
        honba=2,
        reaches={"majsoul": "hora", "tenhou": "hora"},
    ),
    # R14 / item 4: the dealer holds 1111m and draws 9m; riichi discarding 9m would
    # leave only a wait on a fifth 1m.
    Scenario(
        "riichi on a fifth-copy wait",
        hands=("1111m234p567p789s", "223344m556677s8p", "2233445566778p", "23456789s23456m"),
        draws="9m",
        plans={0: ("riichi 1m",)},
        reaches={"majsoul": "reach", "tenhou": "reach"},
    ),
    # R14: the dealer declares riichi on 2234555888m123s (waits 2m 5m) and draws the
    # fourth 5m: the ankan keeps the waits, but 555m also reads as 55m + 345m.
    Scenario(
        "ankan in riichi that keeps the waits",
        hands=("2234555888m123s", "1379m1379p1379s1z", "4466p4466s11223z", "7799p7799s44556z"),
        draws="9p7z7z7z0m",
        plans={0: ("riichi 9p",)},
        reaches={"majsoul": "hora", "tenhou": "hora"},
    ),
    # R9 / R18: the dealer's first discard (5p, drawn) is ronned by all three others:
    # three wins under Mahjong Soul, an abortive draw under Tenhou.
    Scenario(
        "triple ron",
        hands=("1199m1199s1357z2z", "234456678m34p88s", "234456678s46p22m", "345567m678s345s5p"),
        draws="5p",
        plans={},
        reaches={"majsoul": "3 hora", "tenhou": "ryukyoku"},
    ),
)
