"""Differential play against riichienv's three-player mode (``RiichiEnv(game_mode=
"3p-red-half")``, PyPI riichienv 0.4.11, Apache-2.0): the machinery shared by
``tests/engine/test_differential_riichienv_sanma.py`` and ``bench/differential_sanma.py``.

``play`` runs one hanchan in riichienv with seeded agents and records every
decision riichienv asked for (which seats, the kinds of action offered to each,
the one chosen) and its mjai log. ``compare`` replays each round in our engine
under ``tenhou-sanma`` on the wall riichienv dealt (rebuilt from its log: hands,
live and replacement draws, dora and ura indicators), applies the same choices,
and compares at every decision the seats asked and the kinds offered, then the
round's winners, deltas, draw type and tenpai seats, the next round's header and
the final scores. Each difference is a string naming the game, round and what
differs; ``KNOWN`` lists the riichienv behaviours we do not follow, with reasons.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import riichienv as rv

from server.engine.actions import Action, ActionType
from server.engine.riichi import (
    GameState,
    apply,
    at_round,
    legal_actions,
    next_round,
    waiting_on,
)
from server.engine.riichi.rules import preset
from server.engine.riichi.shanten import shanten
from server.engine.riichi.wall import SANMA, Wall
from server.engine.tiles import Tile, kind, parse_tile, tile_of_id, tile_str

RULES = preset("tenhou-sanma")
AT = rv.ActionType
# riichienv's action kinds by our names (chi never comes: no chi in sanma)
KIND = {
    int(AT.DISCARD): "discard",
    int(AT.CHI): "chi",
    int(AT.PON): "pon",
    int(AT.DAIMINKAN): "daiminkan",
    int(AT.RON): "ron",
    int(AT.RIICHI): "riichi",
    int(AT.TSUMO): "tsumo",
    int(AT.PASS): "pass",
    int(AT.ANKAN): "ankan",
    int(AT.KAKAN): "kakan",
    int(AT.KITA): "nuki",
    int(AT.KYUSHU_KYUHAI): "kyuushu",
}
DRAW_REASONS = {
    "exhaustive_draw": "exhaustive",
    "kyushu_kyuhai": "kyuushu_kyuuhai",
    "suukansansen": "suukan_sanra",
    "nagashimangan": "nagashi_mangan",
}
YAOCHU = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})
# An action as plain data: (kind, tile id or None, consumed tile ids).
RvAction = tuple[str, int | None, tuple[int, ...]]
RoundKey = tuple[int, int, int]  # (round wind, dealer, honba)


# -- agents ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Profile:
    """How an agent plays; probabilities are per offered decision."""

    discard: str = "efficient"  # efficient | random | yaochu | honours (keeps them)
    pon: float = 0.3
    kan: float = 0.5
    nuki: float = 0.85
    riichi: float = 1.0
    win: float = 1.0  # declining a win makes furiten
    kyuushu: float = 0.5


PROFILES = {
    "efficient": Profile(),
    "caller": Profile(pon=1.0, kan=1.0),
    "kan": Profile(pon=0.8, kan=1.0, nuki=0.5),
    "riichi": Profile(pon=0.0, kan=0.3, kyuushu=0.0),
    "keeper": Profile(nuki=0.2, pon=0.5),  # keeps and throws norths, calls them
    "decliner": Profile(win=0.5, pon=0.3),
    "random": Profile(discard="random", pon=0.5, kan=0.5, nuki=0.5, riichi=0.5, win=0.7),
    "nagashi": Profile(discard="yaochu", pon=0.0, kan=0.0, kyuushu=0.0),
    "honours": Profile(discard="honours", pon=1.0, kan=1.0, nuki=0.3, riichi=0.3),
}
MIX = ["efficient"] * 3 + [
    "caller",
    "kan",
    "riichi",
    "keeper",
    "decliner",
    "random",
    "nagashi",
    "honours",
]


def _counts(ids: Iterable[int]) -> list[int]:
    c = [0] * 34
    for t in ids:
        c[t >> 2] += 1
    return c


class Agent:
    def __init__(self, profile: Profile, seed: int) -> None:
        self.p = profile
        self.rng = random.Random(seed)

    def choose(self, hand: Sequence[int], acts: Sequence[Any]) -> Any:
        rng, p = self.rng, self.p
        by: dict[str, list[Any]] = defaultdict(list)
        for a in acts:
            by[KIND[int(a.action_type)]].append(a)
        for k in ("tsumo", "ron"):
            if by[k] and rng.random() < p.win:
                return by[k][0]
        if by["kyuushu"] and rng.random() < p.kyuushu:
            return by["kyuushu"][0]
        for k, prob in (("ankan", p.kan), ("kakan", p.kan), ("daiminkan", p.kan)):
            if by[k] and rng.random() < prob:
                return rng.choice(by[k])
        if by["pon"] and rng.random() < p.pon:
            return rng.choice(by["pon"])
        if by["nuki"] and rng.random() < p.nuki:
            return by["nuki"][0]
        if by["riichi"] and rng.random() < p.riichi:
            return by["riichi"][0]
        if by["discard"]:
            return self.discard(hand, by["discard"])
        if by["pass"]:
            return by["pass"][0]
        return rng.choice(list(acts))

    def discard(self, hand: Sequence[int], opts: list[Any]) -> Any:
        rng = self.rng
        if self.p.discard == "random":
            return rng.choice(opts)
        if self.p.discard == "yaochu":
            ends = [a for a in opts if a.tile >> 2 in YAOCHU]
            if ends:
                return rng.choice(ends)
        if self.p.discard == "honours":
            opts = [a for a in opts if a.tile >> 2 < 27] or opts
        c = _counts(hand)
        by_kind: dict[int, list[Any]] = defaultdict(list)
        for a in opts:
            by_kind[a.tile >> 2].append(a)
        best: tuple[tuple[int, float], int] | None = None
        for k in by_kind:  # one shanten per kind: the copies of a kind are alike
            c[k] -= 1
            key = (shanten(c), rng.random())
            c[k] += 1
            if best is None or key < best[0]:
                best = (key, k)
        assert best is not None
        return rng.choice(by_kind[best[1]])


# -- playing riichienv --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """One ``env.step``: the seats asked, the kinds offered each, the action each chose.

    riichienv declares riichi in two steps (riichi, then the discard among those it
    allows); the second step's ``allowed`` holds those discards' tile ids.
    """

    key: RoundKey
    offers: dict[int, frozenset[str]]
    chosen: dict[int, RvAction]
    allowed: tuple[int, ...] = ()


@dataclass(slots=True)
class Played:
    seed: int
    agents: tuple[str, ...]
    decisions: list[Decision] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)


def plain(a: Any) -> RvAction:
    return (KIND[int(a.action_type)], a.tile, tuple(a.consume_tiles))


def play(seed: int) -> Played:
    """One riichienv hanchan of three seeded agents drawn from ``MIX``."""
    rng = random.Random(seed)
    names = tuple(rng.choice(MIX) for _ in range(3))
    agents = [Agent(PROFILES[n], seed * 10 + s) for s, n in enumerate(names)]
    env = rv.RiichiEnv(game_mode="3p-red-half", seed=seed)
    obs = env.reset()
    out = Played(seed, names)
    riichi_next: set[int] = set()
    while not env.done():
        offers: dict[int, frozenset[str]] = {}
        chosen: dict[int, RvAction] = {}
        actions: dict[int, Any] = {}
        allowed: tuple[int, ...] = ()
        key: RoundKey | None = None
        for pid, o in obs.items():
            acts = o.legal_actions()
            key = (int(o.round_wind), int(o.oya), int(o.honba))
            offers[pid] = frozenset(KIND[int(a.action_type)] for a in acts)
            if pid in riichi_next:
                allowed = tuple(a.tile for a in acts)
            a = agents[pid].choose(list(o.hand), acts)
            actions[pid] = a
            chosen[pid] = plain(a)
        riichi_next = {pid for pid, c in chosen.items() if c[0] == "riichi"}
        assert key is not None
        out.decisions.append(Decision(key, offers, chosen, allowed))
        obs = env.step(actions)
    out.log = list(env.mjai_log)
    out.scores = list(env.scores())
    return out


# -- comparing ------------------------------------------------------------------------

# riichienv behaviours we do not follow, with reasons (docs/rules.md S-ids). A difference
# whose text contains one of these keys is counted as known, not as a failure.
KNOWN: dict[str, str] = {
    "riichi ankan": (
        "riichienv offers an ankan after riichi that changes the waits, or whose tiles "
        "are not a triplet in every reading of the hand; R14 forbids both (seed 000 #34, "
        "as Tenhou)"
    ),
    "extension renchan": (
        "in the West round riichienv plays on while the dealer keeps the deal although a "
        "seat has 40000; our R25 (shared with four players, S21c) ends the game there. The "
        "four-player differential (branch diff) found the same and holds it pending in our "
        "engine; changing it changes four-player play, which is the lead's call"
    ),
    "tenpai-yame": (
        "riichienv ends the game when the all-last dealer is tenpai at the exhaustive draw "
        "in first place with 40000; tenhou-sanma plays on, as Tenhou does (R25: real "
        "four-player Tenhou games play on; S21c: tenpai-yame on majsoul-sanma only)"
    ),
}


@dataclass(slots=True)
class Report:
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    offers: Counter[str] = field(default_factory=Counter)  # kinds offered, by ours
    results: Counter[str] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)  # rare situations reached
    diffs: list[str] = field(default_factory=list)
    known: Counter[str] = field(default_factory=Counter)

    def add(self, what: str) -> None:
        for k in KNOWN:
            if k in what:
                self.known[k] += 1
                return
        self.diffs.append(what)


def _pai(name: str) -> Tile:
    """An mjai tile name ("5pr", "N") as our tile."""
    if name in ("E", "S", "W", "N", "P", "F", "C"):
        return 27 + "ESWNPFC".index(name)
    if name.endswith("r"):
        return parse_tile("0" + name[1])
    return parse_tile(name)


def _rounds(log: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    for e in log:
        if e["type"] == "start_kyoku":
            out.append([e])
        elif out and e["type"] not in ("end_game",):
            out[-1].append(e)
    return out


def _key(start: dict[str, Any]) -> RoundKey:
    return ("ESWN".index(start["bakaze"]), int(start["oya"]), int(start["honba"]))


def _wall(events: list[dict[str, Any]]) -> Wall:
    """The round's wall as riichienv dealt it, read off its log."""
    start = events[0]
    draws: list[Tile] = []
    rinshan: list[Tile] = []
    dora = [_pai(start["dora_marker"])]
    ura: list[Tile] = []
    replacement = {"ankan", "kakan", "daiminkan", "kita"}
    last: dict[str, Any] | None = None
    for e in events[1:]:
        t = e["type"]
        if t == "tsumo":
            after_kan = last is not None and last["type"] in replacement
            (rinshan if after_kan and last.get("actor") == e["actor"] else draws).append(
                _pai(e["pai"])
            )
        elif t == "dora":
            dora.append(_pai(e["dora_marker"]))
            continue  # a kan dora between the kan and its replacement draw
        elif t == "hora" and e.get("ura_markers") and not ura:
            ura = [_pai(x) for x in e["ura_markers"]]
        last = e
    return Wall.build(
        hands=[[_pai(x) for x in h] for h in start["tehais"]],
        draws=draws,
        rinshan=rinshan,
        dora=dora,
        ura=ura,
        dealer=int(start["oya"]),
        layout=SANMA,
    )


def _ours(st: GameState, seat: int, c: RvAction, allowed_riichi: int | None) -> Action | None:
    """Our legal action matching riichienv's choice ``c`` (None: we offer no such action)."""
    kind_, tile, consumed = c
    if allowed_riichi is not None:  # the discard of a two-step riichi
        kind_, tile = "riichi", allowed_riichi
    want = ActionType(kind_) if kind_ != "nuki" else ActionType.NUKI
    tv = tile_of_id(tile, True) if tile is not None else None
    own = sorted(tile_of_id(t, True) for t in consumed)
    for a in legal_actions(st, seat):
        if a.type is not want:
            continue
        if want in (ActionType.DISCARD, ActionType.RIICHI, ActionType.KAKAN):
            if a.tile == tv:
                return a
        elif want is ActionType.ANKAN:
            if tv is not None and a.tile == kind(tv):
                return a
        elif want in (ActionType.PON, ActionType.DAIMINKAN):
            if sorted(a.tiles) == own:
                return a
        else:
            return a
    return None


def _kinds(st: GameState, seat: int) -> frozenset[str]:
    return frozenset(a.type.value for a in legal_actions(st, seat))


class _Round:
    def __init__(self, game: Played, events: list[dict[str, Any]], report: Report) -> None:
        self.game = game
        self.events = events
        self.report = report
        start = events[0]
        self.key = _key(start)
        self.label = f"seed {game.seed} {'ESWN'[self.key[0]]}{self.key[1] + 1}-{self.key[2]}"
        self.st = at_round(
            RULES,
            round_wind=self.key[0],
            dealer=self.key[1],
            honba=self.key[2],
            riichi_sticks=int(start["kyotaku"]),
            scores=list(start["scores"]),
            wall=_wall(events),
        )

    def diff(self, what: str) -> None:
        self.report.add(f"{self.label}: {what}")

    def play(self, decisions: list[Decision]) -> bool:
        """Apply riichienv's decisions; False when the engines part ways."""
        st = self.st
        i = 0
        while i < len(decisions):
            d = decisions[i]
            if st.phase != "play":
                self.diff(f"riichienv asks {sorted(d.offers)} after our round ended")
                return False
            asked = {s for s in waiting_on(st) if legal_actions(st, s)}
            if asked != set(d.offers):
                self.diff(
                    f"decision {i}: riichienv asks {sorted(d.offers)}, we ask {sorted(asked)}"
                )
                return False
            self.report.decisions += 1
            for s in sorted(asked):
                ours = _kinds(st, s)
                self.report.offers.update(ours)
                if ours != d.offers[s]:
                    riichi_ankan = st.riichi[s] and d.offers[s] - ours == {"ankan"}
                    self.diff(
                        ("riichi ankan: " if riichi_ankan and ours < d.offers[s] else "")
                        + f"decision {i} seat {s}: riichienv offers {sorted(d.offers[s])}, "
                        f"we offer {sorted(ours)}"
                    )
            riichi_tile: dict[int, int] = {}
            for s, c in d.chosen.items():
                if c[0] == "riichi":  # the discard comes in riichienv's next step
                    nxt = decisions[i + 1] if i + 1 < len(decisions) else None
                    if nxt is None or set(nxt.chosen) != {s}:
                        self.diff(f"decision {i}: riichi without its discard")
                        return False
                    self.compare_riichi_tiles(i, s, nxt.allowed)
                    tile = nxt.chosen[s][1]
                    assert tile is not None
                    riichi_tile[s] = tile
                    i += 1
            for s in sorted(d.chosen, key=lambda x: (x - (st.claim_from or 0)) % 3):
                if not legal_actions(st, s):
                    continue  # our window resolved before this answer was needed
                a = _ours(st, s, d.chosen[s], riichi_tile.get(s))
                if a is None:
                    known = "riichi ankan: " if st.riichi[s] and d.chosen[s][0] == "ankan" else ""
                    self.diff(f"{known}decision {i} seat {s}: we offer no {d.chosen[s]}")
                    return False
                apply(st, a)
            i += 1
        if st.phase == "play":
            self.diff(f"riichienv ended the round, we wait on {sorted(waiting_on(st))}")
            return False
        return True

    def compare_riichi_tiles(self, i: int, seat: int, allowed: Sequence[int]) -> None:
        ours = {
            a.tile
            for a in legal_actions(self.st, seat)
            if a.type is ActionType.RIICHI and a.tile is not None
        }
        theirs = {tile_of_id(t, True) for t in allowed}
        if ours != theirs:
            want, got = sorted(map(tile_str, theirs)), sorted(map(tile_str, ours))
            self.diff(f"decision {i} seat {seat}: riichi discards riichienv {want}, ours {got}")

    def count_features(self) -> None:
        """The rare situations this round reached (read off riichienv's log)."""
        f = self.report.features
        ev = self.events
        horas = [i for i, e in enumerate(ev) if e["type"] == "hora"]
        if len(horas) > 1:
            f["double ron"] += 1
        for i in horas:
            before = ev[i - 1]["type"] if ev[i - 1]["type"] != "hora" else ev[horas[0] - 1]["type"]
            if ev[i]["actor"] != ev[i]["target"]:
                f[{"kita": "ron on a north aside", "kakan": "chankan"}.get(before, "ron")] += 1
            elif ev[i - 1]["type"] == "tsumo" and ev[i - 2]["type"] in ("kita", "ankan", "kakan"):
                f["rinshan tsumo"] += 1
            else:
                f["tsumo"] += 1
        rr = self.st.round_results[-1]
        for w in rr.wins:
            if w.pao is not None:
                f["pao"] += 1
            if w.result.yakuman:
                f["yakuman"] += 1
            if w.result.nuki:
                f["win with norths aside"] += 1

    def compare_result(self) -> None:
        rr = self.st.round_results[-1]
        self.count_features()
        horas = [e for e in self.events if e["type"] == "hora"]
        draws = [e for e in self.events if e["type"] == "ryukyoku"]
        if horas:
            self.report.results["agari"] += 1
            want = [(e["actor"], None if e["actor"] == e["target"] else e["target"]) for e in horas]
            got = [(w.seat, w.from_seat) for w in rr.wins]
            if want != got:
                self.diff(f"winners (seat, from): riichienv {want}, ours {got}")
                return
            for e, w in zip(horas, rr.wins, strict=True):
                if list(e["deltas"]) != list(w.deltas):
                    self.diff(
                        f"seat {w.seat} deltas: riichienv {e['deltas']}, ours {list(w.deltas)}"
                    )
            return
        (e,) = draws
        reason = DRAW_REASONS.get(e.get("reason", ""), e.get("reason", ""))
        self.report.results[str(reason)] += 1
        if rr.reason != reason:
            self.diff(f"draw: riichienv {e.get('reason')}, ours {rr.reason}")
            return
        paid = [0, 0, 0]
        for ev in self.events:
            if ev["type"] == "reach_accepted":
                paid[ev["actor"]] += 1000
        got = [d + p for d, p in zip(rr.deltas, paid, strict=True)]
        if list(e["deltas"]) != got:
            self.diff(f"draw deltas: riichienv {e['deltas']}, ours {got}")
        if reason == "exhaustive" and any(e["deltas"]):
            want_t = sorted(s for s in range(3) if e["deltas"][s] > 0)
            if want_t != sorted(rr.tenpai):
                self.diff(f"tenpai: riichienv {want_t}, ours {sorted(rr.tenpai)}")

    def compare_next(self, nxt: list[dict[str, Any]] | None) -> None:
        st = self.st
        rr = st.round_results[-1]
        tenpai_yame = (
            rr.kind == "ryuukyoku"
            and rr.dealer_merit
            and (st.round_wind, st.kyoku) >= (1, 2)
            and st.ranking()[0] == st.dealer
            and st.scores[st.dealer] >= st.rules.target
        )
        extension_renchan = (
            rr.renchan
            and st.round_wind > (0 if st.rules.length == "tonpuu" else 1)
            and max(st.scores) >= st.rules.target
        )
        next_round(st)
        if nxt is None:
            if st.phase != "game_end":
                why = "tenpai-yame: " if tenpai_yame else ""
                self.diff(f"{why}riichienv ends the game, we play on")
                return
            if list(st.scores) != self.game.scores:
                self.diff(f"final scores: riichienv {self.game.scores}, ours {st.scores}")
            return
        if st.phase == "game_end":
            why = "extension renchan: " if extension_renchan else ""
            self.diff(f"{why}riichienv plays {_key(nxt[0])}, our game is over")
            return
        s = nxt[0]
        want = (_key(s), int(s["kyotaku"]), list(s["scores"]))
        got = ((st.round_wind, st.dealer, st.honba), st.riichi_sticks, list(st.scores))
        if want != got:
            self.diff(f"next round (key, sticks, scores): riichienv {want}, ours {got}")


def compare(game: Played, report: Report) -> None:
    """Replay ``game`` round by round in our engine; differences go to ``report``."""
    report.games += 1
    by_round: dict[RoundKey, list[Decision]] = defaultdict(list)
    for d in game.decisions:
        by_round[d.key].append(d)
    rounds = _rounds(game.log)
    for n, events in enumerate(rounds):
        if not any(e["type"] in ("hora", "ryukyoku") for e in events):
            continue  # riichienv's log stops in this round
        report.rounds += 1
        r = _Round(game, events, report)
        if not r.play(by_round.get(r.key, [])):
            continue
        r.compare_result()
        r.compare_next(rounds[n + 1] if n + 1 < len(rounds) else None)
