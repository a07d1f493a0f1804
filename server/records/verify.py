"""Replay logged rounds through the engine and compare every result with the log.

Each round starts fresh with ``GameState.at_round`` (rules: the ``tenhou``
preset with the log's length and red fives) on a wall built from the logged
tiles, so one wrong round never spoils the next. Only the players' decisions
are applied: discards, riichi, calls, kans, tsumo, ron, kyuushu, and PASS for
every seat that could have called but did not. Draws, dora, furiten, every
win and every draw are the engine's own; the verifier compares them with the
log: winners, yaku, han, fu, points, limit, dora/aka/ura, score deltas, draw
type, tenpai seats, the next round's header and the final scores.

Three-player logs replay under ``tenhou-sanma`` (Mahjong Soul's rooms under
``majsoul-sanma``) on the sanma wall; a logged north set aside is the
seat's ``nuki`` decision. Tenhou counts pulled norths inside its dora, so
the engine's ``dora + nuki`` is compared with the log's dora unless the log
lists them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.events import Event
from server.engine.riichi import (
    Draw,
    GameState,
    NewDora,
    RiichiAccepted,
    Ryuukyoku,
    Winner,
    apply,
    at_round,
    legal_actions,
    next_round,
    waiting_on,
)
from server.engine.riichi.rules import RulesError, RuleSet, preset
from server.engine.riichi.wall import LAYOUTS, Wall
from server.engine.riichi.win import WinResult
from server.engine.tiles import kind, sort_key, tile_str, tiles_str
from server.records.model import (
    DrawType,
    LoggedGame,
    LoggedRound,
    LoggedWin,
    RecordError,
    Step,
    StepType,
)

# The engine's ryuukyoku reasons (docs/engine.md) for each logged draw type.
ENGINE_DRAW_REASON: dict[DrawType, str] = {
    DrawType.EXHAUSTIVE: "exhaustive",
    DrawType.NAGASHI_MANGAN: "nagashi_mangan",
    DrawType.KYUUSHU: "kyuushu_kyuuhai",
    DrawType.SUUFON_RENDA: "suufon_renda",
    DrawType.SUUKAN_SANRA: "suukan_sanra",
    DrawType.SUUCHA_RIICHI: "suucha_riichi",
    DrawType.SANCHAHOU: "sanchahou",
}


# Mahjong Soul (S21c): the all-last dealer who keeps the deal in first place chooses
# whether the game ends (MS-chankan stops there, MS-kokushi13 plays on); the engine
# ends it (``agari_yame``), and a log that plays on made the other choice.
_YAME_IS_A_CHOICE = frozenset({"majsoul-sanma"})
# Mahjong Soul's converted records may leave the riichi sticks on the table out of
# the deltas of the win that ends the game (MS-kokushi: the final points hold them).
_STICKS_LEFT_OUT_AT_END = frozenset({"majsoul-sanma"})


@dataclass(slots=True)
class RoundReport:
    label: str
    diffs: list[str] = field(default_factory=list)
    complete: bool = True  # False for a round the log cuts off

    @property
    def ok(self) -> bool:
        return not self.diffs


@dataclass(slots=True)
class GameReport:
    source: str
    rounds: list[RoundReport]

    @property
    def matched(self) -> int:
        return sum(r.ok for r in self.rounds)


class _Mismatch(Exception):
    """Replay cannot go on: the engine refused or disagreed with a logged step."""


def rules_for(game: LoggedGame) -> RuleSet:
    """The rules a log was played under.

    Our own export names them (``jantaku.rules``: uma, oka, double yakuman ...);
    any other log gets the ``tenhou`` preset (three players: ``tenhou-sanma``, or
    the log's own, ``majsoul-sanma``) with its length, red fives and kuitan.
    """
    if game.rules is not None:
        try:
            rules = RuleSet.from_dict(game.rules)
        except (RulesError, TypeError, ValueError) as exc:
            raise RecordError(f"{game.source}: field 'jantaku.rules': {exc}") from None
        if rules.seats != game.seats:
            raise RecordError(
                f"{game.source}: field 'jantaku.rules' is for {rules.seats} players, "
                f"the log has {game.seats}"
            )
        return rules
    name = "tenhou" if game.seats == 4 else (game.preset or "tenhou-sanma")
    return preset(name).with_overrides(
        length=game.length, red_fives=game.red_fives, kuitan=game.kuitan
    )


def build_wall(r: LoggedRound, red_fives: bool, seats: int = 4) -> Wall:
    """The round's wall: logged hands, draws, rinshan draws and indicators in place."""
    draws = [s.tile for s in r.steps if s.type is StepType.DRAW and not s.rinshan]
    rinshan = [s.tile for s in r.steps if s.type is StepType.DRAW and s.rinshan]
    try:
        return Wall.build(
            hands=[list(h) for h in r.hands],
            draws=[t for t in draws if t is not None],
            rinshan=[t for t in rinshan if t is not None],
            dora=r.dora_indicators,
            ura=r.ura_indicators[: len(r.dora_indicators)],
            dealer=r.dealer,
            red_fives=red_fives,
            layout=LAYOUTS[seats],
        )
    except ValueError as exc:
        raise RecordError(f"round {r.label}: the logged tiles do not fit one wall: {exc}") from None


def verify_game(game: LoggedGame, rules: RuleSet | None = None) -> GameReport:
    """Replay every round of ``game``; one RoundReport per round."""
    rules = rules or rules_for(game)
    reports: list[RoundReport] = []
    for i, r in enumerate(game.rounds):
        nxt = game.rounds[i + 1] if i + 1 < len(game.rounds) else None
        final = game.final_scores if nxt is None else None
        reports.append(_RoundReplay(r, rules, nxt, final).run())
    return GameReport(game.source, reports)


def _fmt_yaku(ys: Iterable[tuple[str, int]]) -> str:
    return ",".join(f"{y}:{h}" for y, h in sorted(ys)) or "-"


def win_points(res: WinResult, seats: int = 4) -> int:
    """What the log calls the points: the ron payment or the sum of tsumo payments."""
    p = res.payments
    if "ron" in p:
        return p["ron"]
    if "tsumo_dealer" in p:
        return p["tsumo_dealer"] + (seats - 2) * p["tsumo_nondealer"]
    return (seats - 1) * p["tsumo_nondealer"]


class _RoundReplay:
    def __init__(
        self,
        r: LoggedRound,
        rules: RuleSet,
        nxt: LoggedRound | None,
        final: tuple[int, ...] | None,
    ) -> None:
        self.r = r
        self.rules = rules
        self.n = rules.seats
        self.nxt = nxt
        self.final = final
        self.report = RoundReport(r.label, complete=bool(r.wins) or r.draw is not None)
        self.draws: list[tuple[int, str, bool]] = []  # engine draw events not yet checked
        self.riichi_paid = [0] * self.n
        self.revealed = 1  # dora indicators the engine has shown
        self.logged_dora = 1  # <DORA> steps seen so far, plus the first indicator
        self.dora_due: str | None = None  # a <DORA> the engine has not matched yet

    # -- driving -----------------------------------------------------------
    def run(self) -> RoundReport:
        r = self.r
        try:
            if len(r.hands) != self.n:
                raise RecordError(f"round {r.label}: {len(r.hands)} hands for {self.n} players")
            wall = build_wall(r, self.rules.red_fives > 0, self.n)
            self.st: GameState = at_round(
                self.rules,
                round_wind=r.round_wind,
                dealer=r.dealer,
                honba=r.honba,
                riichi_sticks=r.riichi_sticks,
                scores=r.scores,
                wall=wall,
            )
            self.note(self.st.start_events)
            for n, step in enumerate(r.steps):
                self.step(n, step)
            if self.report.complete:
                self.finish()
                self.compare()
                self.compare_next()
        except _Mismatch as exc:
            self.report.diffs.append(str(exc))
        except RecordError as exc:
            self.report.diffs.append(str(exc))
        return self.report

    def note(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, Draw):
                assert e.tile is not None
                self.draws.append((e.seat, tile_str(e.tile), e.rinshan))
            elif isinstance(e, RiichiAccepted):
                self.riichi_paid[e.seat] += 1000
            elif isinstance(e, NewDora):
                self.revealed += 1

    def do(self, a: Action, where: str) -> None:
        try:
            self.note(apply(self.st, a))
        except IllegalAction as exc:
            raise _Mismatch(f"{where}: engine refused {a!r}: {exc}") from None
        self.check_dora_due()

    def check_dora_due(self) -> None:
        """R12 timing: mjlog writes <DORA> when the indicator turns over (at once for
        ankan, with the kan player's discard or next kan for daiminkan/kakan), so the
        engine must have revealed it by the decision that follows."""
        if self.dora_due is not None and self.revealed < self.logged_dora:
            raise _Mismatch(
                f"{self.dora_due}: kan dora {self.logged_dora} not revealed by the engine "
                f"(it shows {self.revealed})"
            )
        self.dora_due = None

    def pick(self, seat: int, pred: Callable[[Action], bool], what: str, where: str) -> Action:
        acts = legal_actions(self.st, seat)
        for a in acts:
            if pred(a):
                return a
        shown = ", ".join(repr(a) for a in acts[:12]) or "none"
        raise _Mismatch(f"{where}: {what} is not legal for seat {seat} (legal: {shown})")

    def pass_all(self, keep: int | None, where: str) -> None:
        """Answer PASS for every waiting seat in a call window except ``keep``."""
        while True:
            waiting = sorted(waiting_on(self.st))
            passers = [
                s
                for s in waiting
                if s != keep and any(a.type is ActionType.PASS for a in legal_actions(self.st, s))
            ]
            if not passers:
                return
            for s in passers:
                self.do(Action(ActionType.PASS, s), where)

    def expect_turn(self, seat: int, where: str) -> None:
        self.pass_all(None, where)
        waiting = waiting_on(self.st)
        if waiting != frozenset({seat}):
            raise _Mismatch(
                f"{where}: log has seat {seat} to act, engine waits on {sorted(waiting)}"
                + (f" (phase {self.st.phase})" if self.st.phase != "play" else "")
            )

    def step(self, n: int, s: Step) -> None:
        where = f"step {n} {s!r}"
        t = s.tile
        if s.type is StepType.DORA:
            self.logged_dora += 1
            if self.revealed < self.logged_dora:
                self.dora_due = where  # checked after the next decision is applied
            elif self.revealed > self.logged_dora:
                raise _Mismatch(f"{where}: engine revealed {self.revealed} dora indicators early")
            return
        if s.type is StepType.DRAW:
            self.pass_all(None, where)
            if not self.draws:
                raise _Mismatch(f"{where}: engine did not deal a draw (phase {self.st.phase})")
            got = self.draws.pop(0)
            want = (s.seat, tile_str(t) if t is not None else "?", s.rinshan)
            if got != want:
                raise _Mismatch(f"{where}: engine drew {got}, log {want}")
            return
        if s.type in (StepType.CHI, StepType.PON, StepType.DAIMINKAN):
            self.pass_all(s.seat, where)
            own = tuple(sorted(s.tiles, key=sort_key))
            at = ActionType(s.type.value)
            a = self.pick(
                s.seat,
                lambda a: a.type is at and tuple(sorted(a.tiles, key=sort_key)) == own,
                f"{s.type.value} with {tiles_str(own)}",
                where,
            )
            self.do(a, where)
            return
        self.expect_turn(s.seat, where)
        if s.type is StepType.DISCARD:
            at = ActionType.RIICHI if s.riichi else ActionType.DISCARD
            a = self.pick(
                s.seat,
                lambda a: a.type is at and a.tile == t,
                f"{at.value} {tile_str(t or 0)}",
                where,
            )
        elif s.type is StepType.NUKI:
            a = self.pick(s.seat, lambda a: a.type is ActionType.NUKI, "nuki", where)
        elif s.type is StepType.KAKAN:
            a = self.pick(
                s.seat,
                lambda a: a.type is ActionType.KAKAN and a.tile == t,
                f"kakan {tile_str(t or 0)}",
                where,
            )
        else:
            k = kind(s.tiles[0])
            a = self.pick(
                s.seat,
                lambda a: a.type is ActionType.ANKAN and a.tile is not None and kind(a.tile) == k,
                f"ankan {tile_str(k)}",
                where,
            )
        self.do(a, where)

    def finish(self) -> None:
        """Apply the round's ending decisions (tsumo, ron, kyuushu) or let it end by itself."""
        r = self.r
        where = "end of round"
        if r.wins:
            first = r.wins[0]
            if first.tsumo:
                self.expect_turn(first.who, where)
                self.do(
                    self.pick(first.who, lambda a: a.type is ActionType.TSUMO, "tsumo", where),
                    where,
                )
            else:
                for w in r.wins:
                    a = self.pick(w.who, lambda a: a.type is ActionType.RON, "ron", where)
                    self.do(a, where)
                self.pass_all(None, where)
        elif r.draw is not None and r.draw.type is DrawType.KYUUSHU:
            self.pass_all(None, where)
            seat = self.st.turn
            self.expect_turn(seat, where)
            self.do(
                self.pick(seat, lambda a: a.type is ActionType.KYUUSHU, "kyuushu", where), where
            )
        elif r.draw is not None and r.draw.type is DrawType.SANCHAHOU:
            # mjlog shows the three ronning hands; tenhou.net/6 names no seat, and then
            # every seat that can ron must have (three did, and only three could try).
            seats = (
                sorted(r.draw.hands)
                if r.draw.hands
                else [
                    s
                    for s in sorted(waiting_on(self.st))
                    if any(a.type is ActionType.RON for a in legal_actions(self.st, s))
                ]
            )
            for s in seats:
                a = self.pick(s, lambda a: a.type is ActionType.RON, "ron (sanchahou)", where)
                self.do(a, where)
            self.pass_all(None, where)
        else:
            self.pass_all(None, where)
        self.check_dora_due()
        if self.st.phase != "round_end":
            waiting = sorted(waiting_on(self.st))
            raise _Mismatch(f"{where}: the log ends the round, the engine waits on {waiting}")

    # -- comparing -----------------------------------------------------------
    def diff(self, what: str, want: object, got: object) -> None:
        self.report.diffs.append(f"{what}: log {want}, engine {got}")

    def compare(self) -> None:
        r = self.r
        rr = self.st.round_results[-1]
        if self.revealed != len(r.dora_indicators):
            self.diff("dora indicators revealed", len(r.dora_indicators), self.revealed)
        if r.wins:
            if rr.kind != "agari":
                self.diff("result", "agari", f"ryuukyoku {rr.reason}")
                return
            want_w = [(w.who, None if w.tsumo else w.from_who) for w in r.wins]
            got_w = [(w.seat, w.from_seat) for w in rr.wins]
            if sorted(want_w, key=str) != sorted(got_w, key=str):
                self.diff("winners (seat, from)", want_w, got_w)
                return
            by_seat = {w.seat: w for w in rr.wins}
            for lw in r.wins:
                ew = by_seat[lw.who]
                deltas = ew.deltas
                if ew is rr.wins[0] and self.sticks_left_out(lw.deltas, ew.seat, deltas):
                    deltas = lw.deltas  # the final points (compare_next) hold the sticks
                self.compare_win(lw, ew.result, deltas, ew.pao)
                self.compare_hand(lw, ew)
            return
        d = r.draw
        assert d is not None
        if rr.kind != "ryuukyoku":
            self.diff("result", f"ryuukyoku {d.type.value}", "agari")
            return
        reason = ENGINE_DRAW_REASON[d.type]
        if rr.reason != reason:
            self.diff("draw type", reason, rr.reason)
        if d.tenpai is not None and d.type is DrawType.EXHAUSTIVE:
            if frozenset(rr.tenpai) != d.tenpai:
                self.diff("tenpai seats", sorted(d.tenpai), sorted(rr.tenpai))
        elif d.type is DrawType.EXHAUSTIVE and len(set(rr.tenpai)) not in (0, self.n):
            # the log only says that everyone or no one was tenpai
            self.diff("tenpai seats", "all or none", sorted(rr.tenpai))
        if d.hands and d.type in (DrawType.EXHAUSTIVE, DrawType.KYUUSHU):
            assert isinstance(rr.event, Ryuukyoku)
            shown = dict(rr.event.hands)
            for seat, tiles in sorted(d.hands.items()):
                got = shown.get(seat)
                want = tiles_str(tiles)
                got_s = tiles_str(sorted(got, key=sort_key)) if got else None
                if want != got_s:
                    self.diff(f"seat {seat} shown hand", want, got_s)
        if d.deltas is not None:
            # Tenhou's draw deltas leave out riichi sticks put down this round.
            got = tuple(rr.deltas[i] + self.riichi_paid[i] for i in range(self.n))
            if got != d.deltas:
                self.diff("deltas", list(d.deltas), list(got))

    def sticks_left_out(self, logged: tuple[int, ...], winner: int, got: tuple[int, ...]) -> bool:
        """Whether ``logged`` is the engine's ``got`` less the sticks the winner took, in
        the game's last round of a log that writes them so (``_STICKS_LEFT_OUT_AT_END``)."""
        if self.final is None or self.rules.name not in _STICKS_LEFT_OUT_AT_END:
            return False
        sticks = 1000 * self.r.riichi_sticks + sum(self.riichi_paid)
        want = tuple(d - (sticks if i == winner else 0) for i, d in enumerate(got))
        return sticks > 0 and logged == want

    def compare_win(
        self, lw: LoggedWin, res: WinResult, deltas: tuple[int, ...], pao: int | None
    ) -> None:
        tag = f"seat {lw.who}"
        if lw.deltas != tuple(deltas):
            self.diff(f"{tag} deltas", list(lw.deltas), list(deltas))
        if lw.yaku is None:
            return  # the log gives no score details for this win
        if Counter(lw.yaku) != Counter(res.yaku):
            self.diff(f"{tag} yaku", _fmt_yaku(lw.yaku), _fmt_yaku(res.yaku))
        want_ym = sorted(y for y, _ in lw.yakuman or ())
        got_ym = sorted(y for y, _ in res.yakuman)
        if want_ym != got_ym:
            self.diff(f"{tag} yakuman", want_ym, got_ym)
        if lw.han is not None and not res.yakuman and lw.han != res.han:
            self.diff(f"{tag} han", lw.han, res.han)
        if lw.fu is not None and not lw.yakuman and lw.fu != res.fu:
            self.diff(f"{tag} fu", lw.fu, res.fu)
        points = win_points(res, self.n)
        if lw.points is not None and lw.points != points:
            self.diff(f"{tag} points", lw.points, points)
        if lw.limit != res.limit:
            self.diff(f"{tag} limit", lw.limit, res.limit)
        got_dora = {"dora": res.dora, "aka": res.aka, "ura": res.ura, "nuki": res.nuki}
        if lw.nuki is None:
            got_dora["dora"] += got_dora.pop("nuki")  # Tenhou: pulled norths are ドラ
        for name, got_n in got_dora.items():
            want = getattr(lw, name)
            if want is not None and want != got_n:
                self.diff(f"{tag} {name}", want, got_n)
        if lw.pao != pao:
            self.diff(f"{tag} pao", lw.pao, pao)

    def compare_hand(self, lw: LoggedWin, shown: Winner) -> None:
        """The winning hand as the engine shows it (mjlog records it; red fives included)."""
        if lw.hand is None:
            return
        want = tiles_str(sorted(lw.hand, key=sort_key))
        got = tiles_str(sorted(shown.hand, key=sort_key))
        if want != got:
            self.diff(f"seat {lw.who} hand", want, got)
        if lw.win_tile is not None and lw.win_tile != shown.win_tile:
            self.diff(
                f"seat {lw.who} winning tile", tile_str(lw.win_tile), tile_str(shown.win_tile)
            )

    def compare_next(self) -> None:
        """The next round's header (or the game's end) and the scores carried into it."""
        st = self.st
        if self.nxt is None and self.final is None:
            return  # the log stops here without saying how the game went on
        if self.nxt is not None and st.rules.name in _YAME_IS_A_CHOICE:
            st.rules = st.rules.with_overrides(agari_yame=False, tenpai_yame=False)
        try:
            next_round(st)
        except (IllegalAction, ValueError) as exc:
            raise _Mismatch(f"next_round failed: {exc}") from None
        if self.nxt is not None:
            n = self.nxt
            if st.phase == "game_end":
                self.diff("next round", n.label, "game end")
                return
            want = (n.round_wind, n.dealer, n.honba, n.riichi_sticks, n.scores)
            got = (st.round_wind, st.dealer, st.honba, st.riichi_sticks, tuple(st.scores))
            if want != got:
                self.diff("next round (wind, dealer, honba, sticks, scores)", want, got)
            return
        if st.phase != "game_end":
            self.diff("game end", "game over", f"next round {'ESWN'[st.round_wind]}{st.dealer + 1}")
            return
        got_pts = [0] * self.n
        for f in st.final or ():
            got_pts[f.seat] = f.points
        if self.final is not None and tuple(got_pts) != self.final:
            self.diff("final points", list(self.final), got_pts)
