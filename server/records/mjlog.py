"""Tenhou mjlog XML (``<mjloggm ver="2.3">``) to ``LoggedGame``.

Tenhou writes a game as a flat list of elements: ``<INIT>`` starts a round,
``<T12/>``..``<W12/>`` are draws of seats 0..3, ``<D12/>``..``<G12/>`` discards,
``<N who m>`` a call with the meld bit-packed into ``m``, ``<REACH>``,
``<DORA>``, and ``<AGARI>`` / ``<RYUUKYOKU>`` end the round. Scores are in
hundreds of points.

Three-player (sanma) logs (GO type bit 0x10) keep the four-seat shape: ``ten``,
``sc`` and ``owari`` still hold four seats (the fourth 0), ``hai3`` is empty,
calls name their giver by four-seat offsets (the empty seat 3 sits opposite
seat 1 and left of seat 0), and a north set aside is ``<N m=(id << 8) | 0x20>``
followed by the same seat's replacement draw.
"""

from __future__ import annotations

import re
import urllib.parse
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterable

from server.engine.tiles import NORTH, Tile, sort_key, tile_of_id
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
from server.records.yaku_names import yaku_by_number

_DRAW_TAGS = "TUVW"
_DISCARD_TAGS = "DEFG"
_TILE_TAG = re.compile(r"^([TUVWDEFG])(\d+)$")

_LIMITS = {0: None, 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}

_DRAW_TYPES = {
    None: DrawType.EXHAUSTIVE,
    "yao9": DrawType.KYUUSHU,
    "reach4": DrawType.SUUCHA_RIICHI,
    "ron3": DrawType.SANCHAHOU,
    "kan4": DrawType.SUUKAN_SANRA,
    "kaze4": DrawType.SUUFON_RENDA,
    "nm": DrawType.NAGASHI_MANGAN,
}

# GO type bits (Tenhou): 0x02 no red fives, 0x04 no kuitan, 0x08 hanchan, 0x10 sanma.
_NO_RED, _NO_KUITAN, _HANCHAN, _SANMA = 0x02, 0x04, 0x08, 0x10
# Sanma: 2m-8m (tile ids 4..31) are not in the game (S1).
_SANMA_ABSENT = range(4, 32)


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=sort_key))


# A hanchan mjlog is ~30 kB of XML (~300 kB for the longest games): far more is not a log.
MAX_XML_BYTES = 8 * 1024 * 1024


def gunzip_capped(data: bytes, source: str, cap: int = MAX_XML_BYTES) -> bytes:
    """Decompress gzip data (one or more members) without ever holding more than
    ``cap`` bytes of output: a small upload may not inflate to gigabytes."""
    out = bytearray()
    rest = data
    while rest:
        d = zlib.decompressobj(wbits=31)
        try:
            out += d.decompress(rest, cap + 1 - len(out))
        except zlib.error as exc:
            raise RecordError(f"{source}: broken gzip data: {exc}") from None
        if len(out) > cap or d.unconsumed_tail:
            raise RecordError(f"{source}: decompresses to more than {cap} bytes")
        if not d.eof:
            raise RecordError(f"{source}: broken gzip data: the stream is cut short")
        rest = d.unused_data
    return bytes(out)


def looks_like_mjlog(data: bytes) -> bool:
    if data[:2] == b"\x1f\x8b":
        return True
    return data.lstrip()[:1] == b"<"


def parse_mjlog(data: bytes, source: str = "<mjlog>") -> LoggedGame:
    """Parse one mjlog file (plain or gzip-compressed); RecordError names what is wrong."""
    if data[:2] == b"\x1f\x8b":
        data = gunzip_capped(data, source)
    # Entity declarations are never in a Tenhou log; refusing them keeps
    # entity-expansion tricks out of an uploaded file.
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise RecordError(f"{source}: DOCTYPE/ENTITY declarations are not allowed in mjlog")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise RecordError(f"{source}: not well-formed XML: {exc}") from None
    if root.tag != "mjloggm":
        raise RecordError(f"{source}: root element is <{root.tag}>, expected <mjloggm>")
    return _Parser(source).run(root)


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.red = True
        self.length = "hanchan"
        self.kuitan = True
        self.seats = 4
        self.names: list[str] = ["", "", "", ""]
        self.rounds: list[LoggedRound] = []
        self.cur: LoggedRound | None = None
        self.final: tuple[int, ...] | None = None
        self.pending_riichi: set[int] = set()
        self.rinshan_next: int | None = None
        self.drawn: list[int | None] = [None] * 4  # each seat's last drawn tile id
        self.seen_un = False

    # -- helpers ---------------------------------------------------------
    def err(self, el: ET.Element, msg: str) -> RecordError:
        where = f"round {len(self.rounds)}" if self.rounds else "header"
        return RecordError(f"{self.source}: <{el.tag}> in {where}: {msg}")

    def attr(self, el: ET.Element, name: str) -> str:
        v = el.get(name)
        if v is None:
            raise self.err(el, f"missing attribute {name!r}")
        return v

    def ints(self, el: ET.Element, name: str, n: int | None = None) -> list[int]:
        raw = self.attr(el, name)
        try:
            vals = [int(x) for x in raw.split(",")] if raw.strip() else []
        except ValueError:
            raise self.err(el, f"attribute {name}={raw!r} is not a list of integers") from None
        if n is not None and len(vals) != n:
            raise self.err(el, f"attribute {name} has {len(vals)} values, expected {n}")
        return vals

    def seat(self, el: ET.Element, name: str = "who") -> int:
        (s,) = self.ints(el, name, 1)
        if not 0 <= s < self.seats:
            raise self.err(el, f"{name}={s} is not a seat 0..{self.seats - 1}")
        return s

    def tile(self, el: ET.Element, tid: int, what: str = "tile") -> Tile:
        if not 0 <= tid <= 135:
            raise self.err(el, f"{what} id {tid} is not 0..135")
        if self.seats == 3 and tid in _SANMA_ABSENT:
            raise self.err(el, f"{what} id {tid} is a 2m-8m, not in three-player mahjong")
        return tile_of_id(tid, self.red)

    def round(self, el: ET.Element, result: bool = False) -> LoggedRound:
        """The open round. Only another <AGARI> may follow an <AGARI> (double ron)."""
        r = self.cur
        if r is None:
            raise self.err(el, "comes before the first <INIT>")
        if r.draw is not None or (r.wins and not (result and el.tag == "AGARI")):
            raise self.err(el, f"comes after round {r.label} ended")
        return r

    # -- elements --------------------------------------------------------
    def run(self, root: ET.Element) -> LoggedGame:
        handlers: dict[str, Callable[[ET.Element], None]] = {
            "GO": self.go,
            "UN": self.un,
            "INIT": self.init,
            "N": self.call,
            "REACH": self.reach,
            "DORA": self.dora,
            "AGARI": self.agari,
            "RYUUKYOKU": self.ryuukyoku,
        }
        for el in root:
            m = _TILE_TAG.match(el.tag)
            if m:
                self.tile_step(el, m.group(1), int(m.group(2)))
                continue
            h = handlers.get(el.tag)
            if h is not None:
                h(el)
            elif el.tag not in ("SHUFFLE", "TAIKYOKU", "BYE"):
                raise self.err(el, "unknown element")
        if not self.rounds:
            raise RecordError(f"{self.source}: no <INIT> element: the log has no rounds")
        # A log cut off mid-round (a disconnect, a partial download) keeps its
        # last round without a result; the verifier replays what is there.
        n = self.seats
        return LoggedGame(
            source=self.source,
            players=tuple(self.names[:n]),
            red_fives=(2 if n == 3 else 3) if self.red else 0,  # sanma has no 0m (S2)
            length=self.length,
            rounds=self.rounds,
            final_scores=self.final,
            kuitan=self.kuitan,
            seats=n,
        )

    def go(self, el: ET.Element) -> None:
        (t,) = self.ints(el, "type", 1)
        if self.rounds:
            raise self.err(el, "<GO> after the first round")
        self.seats = 3 if t & _SANMA else 4
        self.red = not t & _NO_RED
        self.kuitan = not t & _NO_KUITAN
        self.length = "hanchan" if t & _HANCHAN else "tonpuu"

    def un(self, el: ET.Element) -> None:
        # Later <UN> elements without names mark reconnects; only the first names players.
        if self.seen_un:
            return
        self.seen_un = True
        self.names = [urllib.parse.unquote(el.get(f"n{i}", "")) for i in range(4)]

    def init(self, el: ET.Element) -> None:
        if self.cur is not None and not self.cur.wins and self.cur.draw is None:
            raise self.err(el, f"round {self.cur.label} has no <AGARI> or <RYUUKYOKU>")
        n = self.seats
        seed = self.ints(el, "seed", 6)
        ten = self.ints(el, "ten", 4)
        (oya,) = self.ints(el, "oya", 1)
        kyoku, honba, sticks = seed[0], seed[1], seed[2]
        if not 0 <= kyoku <= 15 or honba < 0 or sticks < 0:
            raise self.err(el, f"seed {seed[:3]} is not kyoku 0..15, honba, sticks")
        if oya != kyoku % 4 or oya >= n:
            raise self.err(el, f"oya={oya} does not match kyoku {kyoku} with {n} players")
        if n == 3 and (ten[3] or el.get("hai3")):
            raise self.err(el, "a three-player round with points or tiles for a fourth seat")
        hands = []
        for i in range(n):
            ids = self.ints(el, f"hai{i}", 13)
            hands.append(_sorted(self.tile(el, t, f"hai{i}") for t in ids))
        self.cur = LoggedRound(
            round_wind=kyoku // 4,
            dealer=oya,
            honba=honba,
            riichi_sticks=sticks,
            scores=tuple(x * 100 for x in ten[:n]),
            hands=tuple(hands),
            steps=[],
            dora_indicators=[self.tile(el, seed[5], "dora indicator")],
            index=len(self.rounds),
        )
        self.rounds.append(self.cur)
        self.pending_riichi = set()
        self.rinshan_next = None
        self.drawn = [None] * 4

    def tile_step(self, el: ET.Element, tag: str, tid: int) -> None:
        r = self.round(el)
        t = self.tile(el, tid)
        if tag in _DRAW_TAGS:
            seat = _DRAW_TAGS.index(tag)
            if seat >= self.seats:
                raise self.err(el, f"a draw by seat {seat} in a three-player game")
            rinshan = self.rinshan_next == seat
            self.rinshan_next = None
            r.steps.append(Step(StepType.DRAW, seat, t, rinshan=rinshan))
            self.drawn[seat] = tid
        else:
            seat = _DISCARD_TAGS.index(tag)
            if seat >= self.seats:
                raise self.err(el, f"a discard by seat {seat} in a three-player game")
            riichi = seat in self.pending_riichi
            self.pending_riichi.discard(seat)
            # mjlog names the physical tile: the drawn one left the hand or another
            tsumogiri = self.drawn[seat] == tid
            self.drawn[seat] = None
            r.steps.append(Step(StepType.DISCARD, seat, t, riichi=riichi, tsumogiri=tsumogiri))

    def reach(self, el: ET.Element) -> None:
        self.round(el)
        who = self.seat(el)
        (step,) = self.ints(el, "step", 1)
        if step == 1:
            self.pending_riichi.add(who)
        elif step != 2:
            raise self.err(el, f"step={step}, expected 1 or 2")

    def dora(self, el: ET.Element) -> None:
        r = self.round(el)
        (tid,) = self.ints(el, "hai", 1)
        t = self.tile(el, tid, "dora")
        r.dora_indicators.append(t)
        r.steps.append(Step(StepType.DORA, -1, t))

    def call(self, el: ET.Element) -> None:
        r = self.round(el)
        who = self.seat(el)
        (m,) = self.ints(el, "m", 1)
        step = self.decode_meld(el, who, m)
        if step.type in (StepType.DAIMINKAN, StepType.KAKAN, StepType.ANKAN, StepType.NUKI):
            self.rinshan_next = who
        r.steps.append(step)

    def decode_meld(self, el: ET.Element, who: int, m: int) -> Step:
        """Decode Tenhou's bit-packed meld ``m`` (see module docstring)."""
        rel = m & 3  # giver relative to the caller: 1 shimocha, 2 toimen, 3 kamicha
        giver = (who + rel) % 4  # four-seat offsets, in sanma too
        if rel and giver >= self.seats:
            raise self.err(el, f"m={m}: a call from the empty seat {giver}")
        if m & 0x4:  # chi: 6 bits base/called, 2 bits per tile copy
            t = m >> 10
            called_pos = t % 3
            t //= 3
            if t >= 21:
                raise self.err(el, f"m={m}: chi base {t} out of range")
            base = (t // 7) * 9 + t % 7
            ids = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
            if rel != 3 or self.seats == 3:
                raise self.err(el, f"m={m}: chi not from kamicha (or in three-player mahjong)")
            called = ids[called_pos]
            own = [x for x in ids if x != called]
            return Step(
                StepType.CHI,
                who,
                self.tile(el, called),
                _sorted(self.tile(el, x) for x in own),
                from_seat=giver,
            )
        if m & 0x18:  # pon (0x8) or kakan (0x10)
            t = m >> 9
            called_pos = t % 3
            kind = t // 3
            if kind >= 34:
                raise self.err(el, f"m={m}: pon kind {kind} out of range")
            unused = (m >> 5) & 3
            ids = [kind * 4 + i for i in range(4) if i != unused]
            called = ids[called_pos]
            if rel == 0:
                raise self.err(el, f"m={m}: pon without a giver")
            if m & 0x8:
                own = [x for x in ids if x != called]
                return Step(
                    StepType.PON,
                    who,
                    self.tile(el, called),
                    _sorted(self.tile(el, x) for x in own),
                    from_seat=giver,
                )
            added = kind * 4 + unused
            return Step(StepType.KAKAN, who, self.tile(el, added))
        if m & 0x20:  # sanma: a north set aside (nukidora), tile id in the high bits
            t = m >> 8
            if self.seats != 3:
                raise self.err(el, f"m={m}: nukidora is three-player only")
            if t // 4 != NORTH or m & 0xFF != 0x20:
                raise self.err(el, f"m={m}: nukidora of tile id {t}, not a north")
            return Step(StepType.NUKI, who, self.tile(el, t))
        t = m >> 8  # kan: the called (or, for ankan, any) tile id
        if t > 135:
            raise self.err(el, f"m={m}: kan tile {t} out of range")
        kind = t // 4
        ids = [kind * 4 + i for i in range(4)]
        if rel == 0:
            return Step(StepType.ANKAN, who, tiles=_sorted(self.tile(el, x) for x in ids))
        own = [x for x in ids if x != t]
        return Step(
            StepType.DAIMINKAN,
            who,
            self.tile(el, t),
            _sorted(self.tile(el, x) for x in own),
            from_seat=giver,
        )

    def deltas(self, el: ET.Element) -> tuple[int, ...]:
        sc = self.ints(el, "sc", 8)
        if self.seats == 3 and (sc[6] or sc[7]):
            raise self.err(el, "sc gives points to the empty fourth seat")
        return tuple(sc[2 * i + 1] * 100 for i in range(self.seats))

    def owari(self, el: ET.Element) -> None:
        raw = el.get("owari")
        if raw is None:
            return
        # (points in hundreds, uma-adjusted result) for each seat; the second is a float
        try:
            parts = [float(x) for x in raw.split(",")]
        except ValueError:
            raise self.err(el, f"owari={raw!r} is not a list of numbers") from None
        if len(parts) != 8:
            raise self.err(el, f"owari has {len(parts)} values, expected 8")
        self.final = tuple(round(parts[2 * i]) * 100 for i in range(self.seats))

    def agari(self, el: ET.Element) -> None:
        r = self.round(el, result=True)
        who = self.seat(el)
        from_who = self.seat(el, "fromWho")
        pao = self.seat(el, "paoWho") if el.get("paoWho") is not None else None
        fu, points, limit_code = self.ints(el, "ten", 3)
        if limit_code not in _LIMITS:
            raise self.err(el, f"ten limit {limit_code} is not 0..5")
        deltas = self.deltas(el)
        if deltas[who] <= 0 or (from_who != who and deltas[from_who] >= 0):
            raise self.err(
                el, f"who={who} fromWho={from_who} but sc deltas {list(deltas)} do not match"
            )
        yaku: list[tuple[str, int]] = []
        yakuman: list[tuple[str, int]] = []
        extra = {"dora": 0, "ura": 0, "aka": 0}
        if el.get("yaku"):
            vals = self.ints(el, "yaku")
            if len(vals) % 2:
                raise self.err(el, "yaku must hold (number, han) pairs")
            for n, value in zip(vals[::2], vals[1::2], strict=True):
                name = self.yaku_name(el, n)
                if name in extra:
                    extra[name] += value
                else:
                    yaku.append((name, value))
        if el.get("yakuman"):
            for n in self.ints(el, "yakuman"):
                yakuman.append((self.yaku_name(el, n), 1))
        hand = tuple(self.tile(el, t, "hai") for t in self.ints(el, "hai"))
        (machi,) = self.ints(el, "machi", 1)
        limit = _LIMITS[limit_code]
        if limit == "yakuman" and not yakuman:
            limit = "kazoe"
        han = None if yakuman else sum(h for _, h in yaku) + sum(extra.values())
        if el.get("doraHaiUra") and not r.ura_indicators:
            r.ura_indicators = [self.tile(el, t, "doraHaiUra") for t in self.ints(el, "doraHaiUra")]
        r.wins.append(
            LoggedWin(
                who=who,
                from_who=from_who,
                pao=pao,
                deltas=deltas,
                yaku=tuple(yaku),
                yakuman=tuple(yakuman),
                han=han,
                fu=fu,
                points=points,
                limit=limit,
                dora=extra["dora"],
                aka=extra["aka"],
                ura=extra["ura"],
                hand=hand,
                win_tile=self.tile(el, machi, "machi"),
            )
        )
        self.owari(el)

    def yaku_name(self, el: ET.Element, n: int) -> str:
        try:
            return yaku_by_number(n)[0]
        except KeyError:
            raise self.err(el, f"unknown Tenhou yaku number {n}") from None

    def ryuukyoku(self, el: ET.Element) -> None:
        r = self.round(el, result=True)
        kind = el.get("type")
        if kind not in _DRAW_TYPES:
            raise self.err(el, f"unknown draw type {kind!r}")
        dtype = _DRAW_TYPES[kind]
        n = self.seats
        tenpai = frozenset(i for i in range(n) if el.get(f"hai{i}") is not None)
        # Tenhou also shows hands at a nagashi mangan, but only the nagashi payment counts.
        shown = dtype is DrawType.EXHAUSTIVE
        hands = {
            i: _sorted(self.tile(el, t, f"hai{i}") for t in self.ints(el, f"hai{i}"))
            for i in range(n)
            if el.get(f"hai{i}") is not None
        }
        r.draw = LoggedDraw(
            type=dtype,
            deltas=self.deltas(el) if el.get("sc") else None,
            tenpai=tenpai if shown else None,
            hands=hands,
        )
        self.owari(el)
