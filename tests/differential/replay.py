"""Replay a riichienv game through our engine and list every difference.

Each round starts fresh (``GameState.at_round``) on the wall rebuilt from
riichienv's mjai log (``server.records.mjai_read`` + ``verify.build_wall``)
under the matching preset. The decisions riichienv asked for are replayed in
order: at each one the seats we wait on and the kinds of action we offer each
of them are compared with riichienv's, then the agents' choices are applied.
A seat we ask that riichienv did not is answered with pass; a seat riichienv
asked that we do not is dropped if its agent passed, else the round cannot go
on (``diverged``). When the round ends, the winners, each win's deltas, the
draw type, tenpai seats and payments, the next round's header (or the game's
end), the final scores and the placement are compared with riichienv's.

A difference has a category (what kind of disagreement, one line, the key the
known-differences lists use) and a detail (seed, rules, round, decision, hands:
enough to reproduce it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.events import Event
from server.engine.riichi import (
    Call,
    Discard,
    Draw,
    GameEnd,
    GameState,
    Kan,
    RiichiAccepted,
    RoundResult,
    RuleSet,
    Winner,
    apply,
    at_round,
    legal_actions,
    next_round,
    preset,
    waiting_on,
)
from server.engine.riichi.ukeire import waits
from server.engine.tiles import kind, sort_key, tile_of_id, tile_str, tiles_str
from server.records.mjai_read import read_mjai
from server.records.model import DrawType, LoggedGame, LoggedRound, StepType
from server.records.verify import ENGINE_DRAW_REASON, build_wall
from tests.differential.coverage import count_round
from tests.differential.riichienv_play import (
    CHI,
    DAIMINKAN,
    KIND_NAMES,
    PASS,
    PON,
    RIICHI,
    RON,
    Decision,
    PlayedGame,
    RvAction,
)

# riichienv's rule presets and ours.
PRESET = {"tenhou": "tenhou", "majsoul": "majsoul"}
_PRIORITY = {RON: 0, PON: 1, DAIMINKAN: 1, CHI: 2}
_KAN_ACTIONS = (ActionType.ANKAN, ActionType.KAKAN, ActionType.DAIMINKAN)
_WIND = "ESWN"


@dataclass(frozen=True, slots=True)
class Difference:
    category: str
    detail: str


@dataclass(slots=True)
class GameReport:
    seed: int
    rules: str
    differences: list[Difference] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    decisions: int = 0


class _Diverged(Exception):
    """The round cannot be replayed further (riichienv's choice is not possible for us)."""


def rules_for(name: str) -> RuleSet:
    return preset(PRESET[name])


def our_action(seat: int, a: RvAction, legal: Sequence[Action]) -> Action | None:
    """Our legal action matching riichienv's (type, tile id, consumed ids), if any."""
    typ, tid, consumed = a
    name = KIND_NAMES[typ]
    want_type = ActionType(name)
    own = tuple(sorted((tile_of_id(t) for t in consumed), key=sort_key))
    for b in legal:
        if b.type is not want_type:
            continue
        if name in ("chi", "pon", "daiminkan"):
            if tuple(sorted(b.tiles, key=sort_key)) == own:
                return b
        elif name in ("ankan", "kakan"):
            if tid is not None and b.tile is not None and kind(b.tile) == tid // 4:
                return b
        elif name == "discard":
            if tid is not None and b.tile == tile_of_id(tid):
                return b
        else:
            return b
    return None


class RoundReplay:
    def __init__(
        self,
        game: PlayedGame,
        logged: LoggedGame,
        index: int,
        decisions: list[Decision],
        report: GameReport,
        rules: RuleSet,
    ) -> None:
        self.g = game
        self.r: LoggedRound = logged.rounds[index]
        self.nxt = logged.rounds[index + 1] if index + 1 < len(logged.rounds) else None
        self.decisions = decisions
        self.report = report
        self.rules = rules
        self.where = ""
        self.draws: list[tuple[int, int, bool]] = []  # our engine's draws: seat, tile, rinshan
        self.riichi_paid = [0, 0, 0, 0]
        self.last = "deal"  # what happened last in our engine, for the categories
        self.root: str | None = None  # the round's first difference that changes its result

    # -- reporting --------------------------------------------------------------
    def diff(self, category: str, detail: str, root: bool = True) -> None:
        """Record a difference. Once a round's result differs, everything after it in
        the round (deltas, the next round, the final scores) is marked as following it."""
        if self.root is not None:
            category = f"{category} (follows: {self.root})"
        elif root:
            self.root = category
        self.report.differences.append(
            Difference(category, f"seed {self.g.seed} {self.g.rules} {self.r.label}: {detail}")
        )

    def hands(self, seats: Sequence[int]) -> str:
        st = self.st
        parts = []
        for s in seats:
            melds = " ".join(f"{f.meld.type.value}:{tiles_str(f.meld.tiles)}" for f in st.melds[s])
            parts.append(
                f"seat {s} hand {tiles_str(sorted(st.concealed(s), key=sort_key))}"
                + (f" melds {melds}" if melds else "")
                + (" riichi" if st.riichi[s] else "")
            )
        return "; ".join(parts)

    # -- driving ----------------------------------------------------------------
    def run(self) -> None:
        r = self.r
        self.st: GameState = at_round(
            self.rules,
            round_wind=r.round_wind,
            dealer=r.dealer,
            honba=r.honba,
            riichi_sticks=r.riichi_sticks,
            scores=r.scores,
            wall=build_wall(r, red_fives=True),
        )
        self.note(self.st.start_events)
        try:
            riichi_seat: int | None = None
            for n, d in enumerate(self.decisions):
                self.where = f"decision {n}"
                self.report.decisions += 1
                if riichi_seat is not None:
                    self.riichi_discard(riichi_seat, d)
                    riichi_seat = None
                    continue
                riichi_seat = self.decision(d)
            self.where = "after the last decision"
            self.pass_extra({})
        except _Diverged as exc:
            self.diff(exc.args[0], f"{self.where}: {exc.args[1]}")
            return
        self.check_draws()
        if self.st.phase != "round_end":
            self.diff(
                "round: riichienv ends it, ours goes on",
                f"after the last decision we wait on {sorted(waiting_on(self.st))}",
            )
            return
        self.compare_result()
        self.compare_next()

    def note(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, Draw):
                assert e.tile is not None
                self.draws.append((e.seat, e.tile, e.rinshan))
                self.last = "rinshan draw" if e.rinshan else "draw"
            elif isinstance(e, RiichiAccepted):
                self.riichi_paid[e.seat] += 1000
            elif isinstance(e, Discard):
                self.last = "discard"
            elif isinstance(e, Call | Kan):
                self.last = e.meld.type.value

    def do(self, a: Action) -> None:
        try:
            self.note(apply(self.st, a))
        except IllegalAction as exc:  # pragma: no cover - legal_actions listed it
            raise _Diverged("refused: engine error", f"{a!r}: {exc}") from None

    def offers(self) -> dict[int, list[Action]]:
        return {s: legal_actions(self.st, s) for s in sorted(waiting_on(self.st))}

    def decision(self, d: Decision) -> int | None:
        """Compare the offers, apply the choices; the seat that chose riichi, if any."""
        theirs = {s: {KIND_NAMES[k] for k in kinds} for s, kinds in d.offers.items()}
        ours = self.offers()
        for s in theirs.keys() - ours.keys():  # seats only riichienv asks, reported first
            self.offer_diff(s, set(), theirs[s])
        ours = self.pass_extra(theirs, ours)
        for s, kinds in theirs.items():
            mine = {a.type.value for a in ours.get(s, ())}
            if mine != kinds and s in ours:
                self.offer_diff(s, mine, kinds)
        riichi_seat = None
        chosen = d.chosen
        if len(chosen) > 1:
            chosen = dict(sorted(chosen.items(), key=lambda x: (_PRIORITY.get(x[1][0], 3), x[0])))
        fresh = True  # ``ours`` still describes the state (nothing applied yet)
        for s, a in chosen.items():
            if a[0] == RIICHI:
                riichi_seat = s
                continue
            if s not in (ours if fresh else waiting_on(self.st)):
                if a[0] == PASS or s in ours:
                    continue  # not asked, or our engine resolved the window without it
                raise _Diverged(
                    f"refused: {KIND_NAMES[a[0]]} not offered by ours",
                    f"riichienv's seat {s} chose {KIND_NAMES[a[0]]} {a}; {self.hands([s])}",
                )
            mine = our_action(s, a, ours[s] if fresh else legal_actions(self.st, s))
            fresh = False
            if mine is None:
                raise _Diverged(
                    f"refused: {KIND_NAMES[a[0]]} ({self.last})",
                    f"riichienv's seat {s} chose {KIND_NAMES[a[0]]} {a}, we offer "
                    f"{legal_actions(self.st, s)[:8]}; {self.hands([s])}",
                )
            self.do(mine)
        return riichi_seat

    def pass_extra(
        self, theirs: dict[int, set[str]], ours: dict[int, list[Action]] | None = None
    ) -> dict[int, list[Action]]:
        """Report the seats only we ask and answer pass for them (as riichienv's players
        could only have done); our offers once only the seats riichienv asks are left."""
        ours = self.offers() if ours is None else ours
        extra = [s for s in ours if s not in theirs]
        while extra:
            for s in extra:
                kinds = {a.type.value for a in ours[s]}
                self.offer_diff(s, kinds, set())
                if "pass" not in kinds:
                    raise _Diverged(
                        f"seats: ours waits on a turn riichienv skips ({self.last})",
                        f"we wait on seat {s} for {sorted(kinds)}; riichienv asks {sorted(theirs)}",
                    )
                self.do(Action(ActionType.PASS, s))
            ours = self.offers()
            extra = [s for s in ours if s not in theirs]
        return ours

    def riichi_discard(self, seat: int, d: Decision) -> None:
        """riichienv's second step of riichi: the declaration discard (ours: one action)."""
        theirs = {tile_of_id(t) for t in d.riichi_tiles}
        legal = legal_actions(self.st, seat)
        mine = {a.tile for a in legal if a.type is ActionType.RIICHI and a.tile is not None}
        if theirs != mine:
            only_t, only_o = (
                sorted(theirs - mine, key=sort_key),
                sorted(mine - theirs, key=sort_key),
            )
            causes = set()
            for t in only_t + only_o:
                c = self.st.counts(seat)
                c[kind(t)] -= 1
                ws = waits(c)
                fifth = bool(ws) and all(c[k] >= 4 for k in ws)
                causes.add("only a fifth-copy wait left" if fifth else "waits left")
            self.diff(
                "riichi discards: "
                + ("riichienv allows more" if only_t else "ours allows more")
                + f" ({'; '.join(sorted(causes))})",
                f"{self.where}: riichienv only {tiles_str(only_t)}, ours only "
                f"{tiles_str(only_o)}; {self.hands([seat])}",
                root=False,
            )
        tid = d.chosen[seat][1]
        t = tile_of_id(tid) if tid is not None else None
        a = next((b for b in legal if b.type is ActionType.RIICHI and b.tile == t), None)
        if a is None:
            raise _Diverged(
                "refused: riichi",
                f"riichienv's seat {seat} declares riichi with {tile_str(t or 0)}; "
                f"{self.hands([seat])}",
            )
        self.do(a)

    def offer_diff(self, seat: int, mine: set[str], theirs: set[str]) -> None:
        st = self.st
        context = self.context(seat)
        for k in sorted(mine - theirs):
            self.diff(
                f"offer {k}: ours only ({context})",
                f"{self.where}: we offer {k} to seat {seat}, riichienv offers "
                f"{sorted(theirs) or 'nothing'}; {self.hands([seat])}; kans {st.kans}",
                root=False,
            )
        for k in sorted(theirs - mine):
            self.diff(
                f"offer {k}: riichienv only ({context})",
                f"{self.where}: riichienv offers {k} to seat {seat}, we offer "
                f"{sorted(mine) or 'nothing'}; {self.hands([seat])}; kans {st.kans}",
                root=False,
            )

    def context(self, seat: int) -> str:
        """The situation of an offer, as far as it matters for telling differences apart."""
        st = self.st
        parts = [f"after {self.last}"]
        if st.kans == 4 and len(set(st.kan_seats)) > 1:
            parts.append("4th kan by 2+ players")
        if st.riichi[seat]:
            parts.append("in riichi")
            c = st.counts(seat)
            for k in (k for k in range(34) if c[k] == 4):
                rest = list(c)
                rest[k] = 0
                kept = sorted(waits(rest)) == sorted(st.waits[seat])
                parts.append(f"an ankan of 4 would {'keep' if kept else 'change'} the waits")
        if st.live_left() == 0:
            parts.append("wall empty")
        return ", ".join(parts)

    # -- comparing ---------------------------------------------------------------
    def check_draws(self) -> None:
        want = [
            (s.seat, s.tile, s.rinshan)
            for s in self.r.steps
            if s.type is StepType.DRAW and s.tile is not None
        ]
        got = self.draws
        if got != want:
            i = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
            i = min(len(got), len(want)) if i is None else i
            self.diff(
                "draws: ours and riichienv's differ",
                f"draw {i}: ours {got[i : i + 1]}, riichienv {want[i : i + 1]} "
                f"({len(got)} against {len(want)} draws)",
            )

    def compare_result(self) -> None:
        r, rr = self.r, self.st.round_results[-1]
        if len(r.dora_indicators) != self.st.dora_count:
            more = "riichienv" if len(r.dora_indicators) > self.st.dora_count else "ours"
            self.diff(
                f"dora indicators: {more} shows more ({self.dora_context()})",
                f"riichienv {tiles_str(r.dora_indicators)}, ours "
                f"{tiles_str(self.st.dora_indicators())}; {rr.kind}",
            )
        if r.wins:
            if rr.kind != "agari":
                self.diff("result: riichienv win, ours draw", f"ours {rr.reason}")
                return
            want = [(w.who, w.from_who, w.deltas) for w in r.wins]
            got = [
                (w.seat, w.seat if w.from_seat is None else w.from_seat, w.deltas) for w in rr.wins
            ]
            if sorted(x[:2] for x in want) != sorted(x[:2] for x in got):
                self.diff("result: winners", f"riichienv {want}, ours {got}")
                return
            mine = {x[0]: x for x in got}
            for w in want:
                if tuple(mine[w[0]][2]) != tuple(w[2]):
                    wr = next(x for x in rr.wins if x.seat == w[0])
                    self.diff(
                        "win deltas" + self.pao_context(wr, w[2]),
                        f"seat {w[0]} from {w[1]}: riichienv {list(w[2])}, ours "
                        f"{list(mine[w[0]][2])}; ours {_describe(wr)}",
                    )
            return
        d = r.draw
        assert d is not None
        if rr.kind != "ryuukyoku":
            self.diff("result: riichienv draw, ours win", f"riichienv {d.type.value}")
            return
        want_reason = ENGINE_DRAW_REASON[d.type]
        if rr.reason != want_reason:
            self.diff(f"draw type: riichienv {want_reason}, ours {rr.reason}", self.hands(range(4)))
            return
        ours_t = frozenset(rr.tenpai)
        if d.type is DrawType.EXHAUSTIVE and d.deltas == (0, 0, 0, 0) and 0 < len(ours_t) < 4:
            theirs_t = frozenset(range(4)) if len(ours_t) >= 2 else frozenset()  # all or none
            self.tenpai_diff(theirs_t, ours_t, "all or none")
        elif d.tenpai is not None and ours_t != d.tenpai:
            self.tenpai_diff(d.tenpai, ours_t, str(sorted(d.tenpai)))
        if d.deltas is not None:
            got_d = tuple(rr.deltas[i] + self.riichi_paid[i] for i in range(4))
            if got_d != d.deltas:
                self.diff(
                    f"draw deltas ({rr.reason})",
                    f"riichienv {list(d.deltas)}, ours {list(got_d)}; {self.hands(range(4))}",
                )

    def pao_context(self, wr: Winner, theirs: tuple[int, ...]) -> str:
        """Tell pao differences apart: several yakuman, or only who pays the honba."""
        if wr.pao is None:
            return ""
        if len(wr.result.yakuman) > 1:
            return " (pao, several yakuman)"
        moved = [theirs[i] - wr.deltas[i] for i in range(4)]
        h = 300 * self.r.honba
        if wr.from_seat is not None and h and moved[wr.pao] == -h and moved[wr.from_seat] == h:
            return " (pao ron: riichienv charges the honba to the pao seat)"
        return " (pao)"

    def tenpai_diff(self, theirs: frozenset[int], ours: frozenset[int], shown: str) -> None:
        """A different tenpai judgement at an exhaustive draw, told apart by its cause."""
        st = self.st
        causes = set()
        for s in sorted(theirs ^ ours):
            held = st.counts(s)
            with_melds = list(held)
            for f in st.melds[s]:
                for t in f.ids:
                    with_melds[t >> 2] += 1
            ws = st.waits[s]
            if not ws:
                causes.add("no wait")
            elif all(with_melds[k] >= 4 for k in ws) and any(held[k] < 4 for k in ws):
                causes.add("every wait's 4 copies are in own hand and melds")
            elif all(held[k] >= 4 for k in ws):
                causes.add("every wait's 4 copies are in the concealed hand")
            else:
                causes.add("waits left")
        who = "riichienv" if theirs - ours else "ours"
        self.diff(
            f"tenpai seats: {who} counts more ({'; '.join(sorted(causes))})",
            f"riichienv {shown}, ours {sorted(ours)}; {self.hands(range(4))}",
        )

    def dora_context(self) -> str:
        """The kans behind a different count of dora indicators (from our engine's log)."""
        acts = [a for a in self.st.log if a is not None and a.type is not ActionType.PASS]
        kans = [a.type.value for a in acts if a.type in _KAN_ACTIONS]
        robbed = len(acts) > 1 and acts[-1].type is ActionType.RON and acts[-2].type in _KAN_ACTIONS
        if robbed and any(k != "ankan" for k in kans[:-1]):
            return f"a {kans[-1]} robbed by chankan after an earlier open kan"
        return ", ".join(kans) + (" robbed by chankan" if robbed else "")

    def compare_next(self) -> None:
        st, n = self.st, self.nxt
        try:
            events = next_round(st)
        except IllegalAction as exc:  # pragma: no cover
            self.diff("next round: engine error", str(exc))
            return
        rr = st.round_results[-1]
        how = f"after {rr.kind} {rr.reason or ''} renchan={rr.renchan} scores {rr.scores}"
        if n is not None:
            if st.phase == "game_end":
                self.diff(
                    f"game end: ours ends, riichienv plays on ({self.end_kind(rr)})",
                    f"riichienv plays {n.label}; {how}; {self.end_context(rr)}",
                )
                return
            want = (n.round_wind, n.dealer, n.honba, n.riichi_sticks, n.scores)
            got = (st.round_wind, st.dealer, st.honba, st.riichi_sticks, tuple(st.scores))
            if want != got:
                self.diff(
                    "next round header",
                    f"riichienv (wind, dealer, honba, sticks, scores) {want}, ours {got}; {how}",
                )
            return
        if st.phase != "game_end":
            self.diff(
                f"game end: riichienv ends, ours plays on ({self.end_kind(rr)})",
                f"ours plays {_WIND[st.round_wind]}{st.kyoku + 1}-{st.honba}; {how}; "
                f"{self.end_context(rr)}",
            )
            return
        end = next(e for e in events if isinstance(e, GameEnd))
        if list(end.scores) != list(self.g.scores):
            self.diff("final scores", f"riichienv {self.g.scores}, ours {list(end.scores)}")
        ranks = [0, 0, 0, 0]
        for f in end.final:
            ranks[f.seat] = f.rank
        if ranks != list(self.g.ranks):
            self.diff("final placement", f"riichienv {self.g.ranks}, ours {ranks}")

    def end_context(self, rr: RoundResult) -> str:
        st = self.st
        return f"dealer {self.r.dealer}, ranking {st.ranking()}, dealer_merit {rr.dealer_merit}"

    def end_kind(self, rr: RoundResult) -> str:
        """Why a game might end here: agari-yame, tenpai-yame, tobi, extension, last round."""
        r = self.r
        if any(p < 0 for p in rr.scores):
            return "tobi"
        if r.round_wind >= 2:
            return "West round, the dealer keeps the deal" if rr.renchan else "West round"
        all_last = (r.round_wind, r.dealer) == (1, 3)
        if all_last and rr.renchan and rr.dealer_merit:
            return "agari-yame" if rr.kind == "agari" else "tenpai-yame"
        if all_last:
            return "all-last"
        return "before all-last"


def _describe(w: object) -> str:
    res = getattr(w, "result", None)
    if res is None:
        return "?"
    yaku = ",".join(f"{y}:{h}" for y, h in res.yaku) or "-"
    yakuman = ",".join(f"{y}x{m}" for y, m in res.yakuman)
    return (
        f"han {res.han} fu {res.fu} yaku {yaku}"
        + (f" yakuman {yakuman}" if yakuman else "")
        + f" pao {getattr(w, 'pao', None)}"
    )


def _rounds_of(decisions: list[Decision]) -> list[tuple[tuple[int, int, int], list[Decision]]]:
    out: list[tuple[tuple[int, int, int], list[Decision]]] = []
    for d in decisions:
        if not out or out[-1][0] != d.round_key:
            out.append((d.round_key, []))
        out[-1][1].append(d)
    return out


def replay_game(game: PlayedGame, rules: RuleSet | None = None) -> GameReport:
    """Every difference between riichienv's game and ours, plus rare-situation counts.

    ``rules`` defaults to our preset matching riichienv's rules (``PRESET``).
    """
    rules = rules or rules_for(game.rules)
    report = GameReport(game.seed, game.rules)
    logged = read_mjai(game.events, f"riichienv seed {game.seed}")
    groups = _rounds_of(game.decisions)
    played = logged.rounds if game.complete else logged.rounds[: len(groups)]
    keys = [(r.round_wind, r.dealer, r.honba) for r in played]
    if [k for k, _ in groups] != keys:
        report.differences.append(
            Difference("log: decisions and rounds do not line up", f"seed {game.seed}: {keys}")
        )
        return report
    for i, (_, ds) in enumerate(groups):
        rp = RoundReplay(game, logged, i, ds, report, rules)
        rp.run()
        report.rounds += 1
        count_round(report.coverage, logged.rounds[i], rp.st)
    if any(s < 0 for s in game.scores):
        report.coverage["tobi"] += 1
    return report
