"""Read an mjai log (JSON lines, or the parsed events) into a ``LoggedGame``.

mjai is the event format of Mortal, mjai-reviewer and riichienv, and the one
``server/records/mjai.py`` writes. A full log (every hand and draw visible)
holds everything the verifier needs to rebuild each round's wall: the dealt
hands (``start_kyoku.tehais``), the draws in order (``tsumo``; the draw after a
kan is the rinshan draw), the dora indicators (``dora_marker``, ``dora``) and
the ura indicators of a riichi win (``hora.ura_markers``).

mjai states less about results than Tenhou's formats: ``hora`` carries the
winner, the discarder and the win's deltas (honba and sticks included), not
the yaku; ``ryukyoku`` carries the draw payments (without this round's riichi
sticks, which ``reach_accepted`` took) and, in some writers, a ``reason``.
Where the reason is missing the draw type is read from the round itself: a
draw right after a ``tsumo`` is kyuushu kyuuhai, one with the live wall used
up is exhaustive (nagashi mangan when the payments are no tenpai payments),
else suucha riichi, suukan sanra, suufon renda or sanchahou by what happened.
Seats are mjai's: seat 0 is ``start_kyoku.oya`` of a first round with kyoku 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from server.engine.tiles import RED_5M, Tile, kind, sort_key
from server.records.model import (
    DrawType,
    LoggedDraw,
    LoggedGame,
    LoggedRound,
    LoggedWin,
    RecordError,
    Step,
    StepType,
)

_HONORS = "ESWNPFC"
_WINDS = "ESWN"

# ``ryukyoku.reason`` as different writers spell it.
DRAW_REASONS: dict[str, DrawType] = {
    "exhaustive_draw": DrawType.EXHAUSTIVE,
    "exhaustive": DrawType.EXHAUSTIVE,
    "fanpai": DrawType.EXHAUSTIVE,
    "nagashi_mangan": DrawType.NAGASHI_MANGAN,
    "nagashimangan": DrawType.NAGASHI_MANGAN,
    "kyushu_kyuhai": DrawType.KYUUSHU,
    "kyuushu_kyuuhai": DrawType.KYUUSHU,
    "kyushukyuhai": DrawType.KYUUSHU,
    "sufuurenta": DrawType.SUUFON_RENDA,
    "suufon_renda": DrawType.SUUFON_RENDA,
    "sufonrenda": DrawType.SUUFON_RENDA,
    "suukansansen": DrawType.SUUKAN_SANRA,
    "suukan_sanra": DrawType.SUUKAN_SANRA,
    "sukaikan": DrawType.SUUKAN_SANRA,
    "suucha_riichi": DrawType.SUUCHA_RIICHI,
    "suuchariichi": DrawType.SUUCHA_RIICHI,
    "sanchaho": DrawType.SANCHAHOU,
    "sanchahou": DrawType.SANCHAHOU,
    "sanchahoo": DrawType.SANCHAHOU,
}

_CALLS = {"chi": StepType.CHI, "pon": StepType.PON, "daiminkan": StepType.DAIMINKAN}
_KANS = ("ankan", "kakan", "daiminkan")
# Tenpai payments at an exhaustive draw (R17): 1, 2 or 3 tenpai seats, or none/all.
_TENPAI_PAYMENTS = ({3000, -1000}, {1500, -1500}, {1000, -3000}, {0})
LIVE_TILES = 70  # live wall at the dealer's first draw (R4)


def _names() -> dict[str, Tile]:
    out = {h: 27 + i for i, h in enumerate(_HONORS)}
    for si, su in enumerate("mps"):
        for n in range(1, 10):
            out[f"{n}{su}"] = 9 * si + n - 1
        out[f"5{su}r"] = RED_5M + si
    return out


_TILE_NAMES = _names()


def mjai_tile(name: Any, where: str) -> Tile | None:
    """An mjai tile name as an engine tile; ``"?"`` (hidden) is None."""
    if name == "?":
        return None
    t = _TILE_NAMES.get(name) if isinstance(name, str) else None
    if t is None:
        raise RecordError(f"{where}: {name!r} is not an mjai tile")
    return t


def _events(
    data: str | bytes | Iterable[Mapping[str, Any]], source: str
) -> list[Mapping[str, Any]]:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{source}: not UTF-8: {exc}") from None
    if isinstance(data, str):
        out = []
        for n, line in enumerate(data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise RecordError(f"{source}: line {n} is not JSON: {exc.msg}") from None
        data = out
    events = list(data)
    for n, e in enumerate(events, 1):
        if not isinstance(e, Mapping) or not isinstance(e.get("type"), str):
            raise RecordError(f"{source}: event {n} is not an object with a type")
    return events


def looks_like_mjai(data: bytes) -> bool:
    """Whether the bytes start like an mjai JSON-lines log."""
    head = data.lstrip()[:200]
    return head.startswith(b'{"type"') or head.startswith(b'{"type":') or b'"start_game"' in head


def _int(e: Mapping[str, Any], key: str, where: str, lo: int = 0, hi: int = 10**9) -> int:
    v = e.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RecordError(f"{where}: {key} must be an integer {lo}..{hi}, got {v!r}")
    return v


def _four(v: Any, where: str) -> tuple[int, int, int, int]:
    if not isinstance(v, list) or len(v) != 4 or not all(type(x) is int for x in v):
        raise RecordError(f"{where}: expected 4 integers, got {v!r}")
    return (v[0], v[1], v[2], v[3])


def _seat(e: Mapping[str, Any], key: str, where: str) -> int:
    return _int(e, key, where, 0, 3)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.rounds: list[LoggedRound] = []
        self.r: LoggedRound | None = None
        self.names: tuple[str, str, str, str] = ("player0", "player1", "player2", "player3")
        self.red = False
        self.final: tuple[int, int, int, int] | None = None
        self.where = source

    def tile(self, e: Mapping[str, Any], key: str = "pai") -> Tile | None:
        t = mjai_tile(e.get(key), f"{self.where} {key}")
        if t is not None and t >= RED_5M:
            self.red = True
        return t

    def tiles(self, v: Any, n: int | None, what: str) -> tuple[Tile, ...]:
        if not isinstance(v, list) or (n is not None and len(v) != n):
            raise RecordError(f"{self.where}: {what} must be a list of {n} tiles, got {v!r}")
        out = []
        for x in v:
            t = mjai_tile(x, f"{self.where} {what}")
            if t is None:
                raise RecordError(f"{self.where}: {what} has a hidden tile; a full log is needed")
            self.red = self.red or t >= RED_5M
            out.append(t)
        return tuple(sorted(out, key=sort_key))

    def round(self) -> LoggedRound:
        if self.r is None:
            raise RecordError(f"{self.where}: event outside a round (no start_kyoku before it)")
        return self.r

    def run(self, events: Sequence[Mapping[str, Any]]) -> LoggedGame:
        for n, e in enumerate(events, 1):
            self.where = f"{self.source}: event {n} ({e['type']})"
            handler = getattr(self, "on_" + str(e["type"]), None)
            if handler is not None:
                handler(e)
        if not self.rounds:
            raise RecordError(f"{self.source}: no round in the log")
        return LoggedGame(
            source=self.source,
            players=self.names,
            red_fives=3 if self.red else 0,
            length="hanchan",
            rounds=self.rounds,
            final_scores=self.final,
        )

    # -- events ------------------------------------------------------------
    def on_start_game(self, e: Mapping[str, Any]) -> None:
        names = e.get("names")
        if isinstance(names, list) and len(names) == 4 and all(isinstance(x, str) for x in names):
            self.names = (names[0][:64], names[1][:64], names[2][:64], names[3][:64])
        if e.get("aka_flag"):
            self.red = True

    def on_start_kyoku(self, e: Mapping[str, Any]) -> None:
        bakaze = e.get("bakaze")
        if bakaze not in tuple(_WINDS):
            raise RecordError(f"{self.where}: bakaze must be one of E S W N, got {bakaze!r}")
        dora = self.tile(e, "dora_marker")
        if dora is None:
            raise RecordError(f"{self.where}: the dora indicator is hidden")
        tehais = e.get("tehais")
        if not isinstance(tehais, list) or len(tehais) != 4:
            raise RecordError(f"{self.where}: tehais must hold 4 hands")
        self.r = LoggedRound(
            round_wind=_WINDS.index(bakaze),
            dealer=_seat(e, "oya", self.where),
            honba=_int(e, "honba", self.where),
            riichi_sticks=_int(e, "kyotaku", self.where),
            scores=_four(e.get("scores"), f"{self.where} scores"),
            hands=tuple(self.tiles(h, 13, f"seat {i} tehai") for i, h in enumerate(tehais)),
            steps=[],
            dora_indicators=[dora],
            index=len(self.rounds),
        )
        self.rounds.append(self.r)
        self.reach = [False] * 4
        self.rinshan = [False] * 4

    def on_tsumo(self, e: Mapping[str, Any]) -> None:
        r, s = self.round(), _seat(e, "actor", self.where)
        r.steps.append(Step(StepType.DRAW, s, self.tile(e), rinshan=self.rinshan[s]))
        self.rinshan[s] = False

    def on_reach(self, e: Mapping[str, Any]) -> None:
        self.round()
        self.reach[_seat(e, "actor", self.where)] = True

    def on_dahai(self, e: Mapping[str, Any]) -> None:
        r, s = self.round(), _seat(e, "actor", self.where)
        t = self.tile(e)
        if t is None:
            raise RecordError(f"{self.where}: a hidden discard")
        r.steps.append(Step(StepType.DISCARD, s, t, riichi=self.reach[s]))
        self.reach[s] = False

    def _call(self, e: Mapping[str, Any]) -> None:
        r, s = self.round(), _seat(e, "actor", self.where)
        typ = str(e["type"])
        t = self.tile(e)
        own = self.tiles(e.get("consumed"), 3 if typ == "daiminkan" else 2, "consumed")
        frm = _seat(e, "target", self.where)
        if t is None or frm == s:
            raise RecordError(f"{self.where}: a call needs the called tile and another seat")
        r.steps.append(Step(_CALLS[typ], s, t, own, from_seat=frm))
        self.rinshan[s] = typ == "daiminkan"

    on_chi = on_pon = on_daiminkan = _call

    def on_kakan(self, e: Mapping[str, Any]) -> None:
        r, s = self.round(), _seat(e, "actor", self.where)
        t = self.tile(e)
        if t is None:
            raise RecordError(f"{self.where}: kakan needs the added tile")
        r.steps.append(Step(StepType.KAKAN, s, t))
        self.rinshan[s] = True

    def on_ankan(self, e: Mapping[str, Any]) -> None:
        r, s = self.round(), _seat(e, "actor", self.where)
        tiles = self.tiles(e.get("consumed"), 4, "consumed")
        if len({kind(t) for t in tiles}) != 1:
            raise RecordError(f"{self.where}: an ankan must hold 4 tiles of one kind")
        r.steps.append(Step(StepType.ANKAN, s, tiles=tiles))
        self.rinshan[s] = True

    def on_dora(self, e: Mapping[str, Any]) -> None:
        r = self.round()
        t = self.tile(e, "dora_marker")
        if t is None:
            raise RecordError(f"{self.where}: a hidden dora indicator")
        r.steps.append(Step(StepType.DORA, -1, t))
        r.dora_indicators.append(t)

    def on_hora(self, e: Mapping[str, Any]) -> None:
        r = self.round()
        who, frm = _seat(e, "actor", self.where), _seat(e, "target", self.where)
        deltas = _four(e.get("deltas"), f"{self.where} deltas")
        ura = e.get("ura_markers")
        if isinstance(ura, list) and ura and not r.ura_indicators:
            self.tiles(ura, None, "ura_markers")  # validates; the log's order is kept below
            r.ura_indicators = [t for x in ura if (t := mjai_tile(x, self.where)) is not None]
        pao = e.get("pao")
        r.wins.append(
            LoggedWin(
                who=who,
                from_who=frm,
                pao=pao if type(pao) is int and 0 <= pao <= 3 and pao != who else None,
                deltas=deltas,
            )
        )

    def on_ryukyoku(self, e: Mapping[str, Any]) -> None:
        r = self.round()
        deltas = _four(e["deltas"], f"{self.where} deltas") if "deltas" in e else None
        reason = e.get("reason")
        if isinstance(reason, str) and reason.lower() in DRAW_REASONS:
            dtype = DRAW_REASONS[reason.lower()]
            if dtype is DrawType.EXHAUSTIVE and not _tenpai_payments(deltas):
                dtype = DrawType.NAGASHI_MANGAN
        elif reason is None:
            dtype = _infer_draw(r, deltas)
        else:
            raise RecordError(f"{self.where}: unknown draw reason {reason!r}")
        tenpai: frozenset[int] | None = None
        tenpais = e.get("tenpais")
        if isinstance(tenpais, list) and len(tenpais) == 4:
            tenpai = frozenset(i for i in range(4) if tenpais[i])
        elif dtype is DrawType.EXHAUSTIVE and deltas is not None and any(deltas):
            tenpai = frozenset(i for i in range(4) if deltas[i] > 0)
        r.draw = LoggedDraw(dtype, deltas, tenpai)

    def on_end_game(self, e: Mapping[str, Any]) -> None:
        if "scores" in e:
            self.final = _four(e["scores"], f"{self.where} scores")


def _tenpai_payments(deltas: tuple[int, int, int, int] | None) -> bool:
    return deltas is None or (sum(deltas) == 0 and set(deltas) in _TENPAI_PAYMENTS)


def _infer_draw(r: LoggedRound, deltas: tuple[int, int, int, int] | None) -> DrawType:
    """The draw type of a ``ryukyoku`` without a reason, from the round's steps."""
    steps = r.steps
    plays = [s for s in steps if s.type is not StepType.DORA]
    if plays and plays[-1].type is StepType.DRAW:
        return DrawType.KYUUSHU
    kans = sum(s.type.value in _KANS for s in steps)
    live_draws = sum(s.type is StepType.DRAW and not s.rinshan for s in steps)
    if live_draws >= LIVE_TILES - kans:
        return DrawType.EXHAUSTIVE if _tenpai_payments(deltas) else DrawType.NAGASHI_MANGAN
    if sum(s.type is StepType.DISCARD and s.riichi for s in steps) == 4:
        return DrawType.SUUCHA_RIICHI
    if kans == 4:
        return DrawType.SUUKAN_SANRA
    discards = [s for s in plays if s.type is StepType.DISCARD]
    first = [s.tile for s in discards[:4]]
    if (
        len(discards) == 4
        and len(plays) == 8
        and first[0] is not None
        and 27 <= first[0] <= 30
        and len(set(first)) == 1
    ):
        return DrawType.SUUFON_RENDA
    return DrawType.SANCHAHOU


def read_mjai(
    data: str | bytes | Iterable[Mapping[str, Any]], source: str = "<mjai>"
) -> LoggedGame:
    """A ``LoggedGame`` from an mjai log: JSON lines (text or bytes) or parsed events.

    Raises ``RecordError`` naming the event for anything that is not a full mjai log.
    """
    return _Reader(source).run(_events(data, source))
