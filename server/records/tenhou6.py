"""tenhou.net/6 JSON to ``LoggedGame``.

Each round of ``log`` is ``[[kyoku, honba, sticks], scores, dora, ura,
haipai0, takes0, discards0, ... haipai3, takes3, discards3, result]``.
Tiles are two-digit codes (11-19 man, 21-29 pin, 31-39 sou, 41-47 honors,
51-53 red fives). ``takes`` holds draws and chi/pon/daiminkan strings;
``discards`` holds discards (60 = the drawn tile, ``"r.."`` = riichi), kakan
and ankan strings, and a 0 where a daiminkan replaced the discard.

The format has no global order of play, so it is rebuilt by walking the turn
order: after a discard, a seat whose next "take" calls that very tile from
that seat calls it, otherwise the next seat draws. A call string can match a
discard that is not the one called (same tile, same giver, later in the
round); the walk then backtracks, keeping the one reading that consumes every
list exactly.

Three-player (sanma) documents ("三" in ``rule.disp``) keep the four-seat
shape: scores, deltas and ``sc`` have four seats (the fourth 0) and the
fourth seat's haipai, takes and discards are empty. A north set aside is
``"f44"`` in the discards; the replacement tile is that seat's next take.
Calls keep the four-seat geometry (the empty seat 3 is seat 0's left and
seat 1's opposite). Mahjong Soul's sanma rooms ("…の間") are played under
``majsoul-sanma``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from server.engine.tiles import NORTH, RED_5M, Tile, kind, sort_key
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
from server.records.yaku_names import YAKUMAN_IDS, yaku_by_name

TSUMOGIRI = 60
NUKI = "f44"  # sanma: a north set aside (in the discards)

_LIMIT_NAMES = {
    "満貫": "mangan",
    "跳満": "haneman",
    "倍満": "baiman",
    "三倍満": "sanbaiman",
    "役満": "yakuman",
    "数え役満": "kazoe",
}
_TEN = re.compile(
    r"^(?:(?P<fu>\d+)符(?P<han>\d+)飜|(?P<limit>満貫|跳満|倍満|三倍満|数え役満|役満))"
    r"(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$"
)
_YAKU = re.compile(r"^(?P<name>.+?)\((?P<value>\d+)飜\)$|^(?P<yname>.+?)\(役満\)$")

_DRAW_NAMES = {
    "流局": DrawType.EXHAUSTIVE,
    "全員聴牌": DrawType.EXHAUSTIVE,
    "全員不聴": DrawType.EXHAUSTIVE,
    "流し満貫": DrawType.NAGASHI_MANGAN,
    "九種九牌": DrawType.KYUUSHU,
    "四家立直": DrawType.SUUCHA_RIICHI,
    "四風連打": DrawType.SUUFON_RENDA,
    "四槓散了": DrawType.SUUKAN_SANRA,
    "三家和了": DrawType.SANCHAHOU,
}

# Marker position in a pon / kakan / daiminkan string -> giver relative to the caller.
_PON_GIVER = {0: 3, 2: 2, 4: 1}
_KAN_GIVER = {0: 3, 2: 2, 6: 1}


def looks_like_tenhou6(data: bytes) -> bool:
    return data.lstrip()[:1] == b"{"


def parse_tenhou6(data: bytes, source: str = "<tenhou6>") -> LoggedGame:
    """Parse a tenhou.net/6 JSON document, or JSON lines holding one or more rounds each.

    mjx's ``mjscore`` files hold one round per line; the lines are joined into one game.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text: {exc}") from None
    try:
        docs: list[Any] = [json.loads(text)]
    except json.JSONDecodeError as whole_exc:
        docs = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                docs.append(json.loads(line))
            except json.JSONDecodeError as exc:
                if n == 1:
                    raise RecordError(f"{source}: not JSON: {whole_exc}") from None
                raise RecordError(f"{source}: line {n} is not JSON: {exc}") from None
    if not docs:
        raise RecordError(f"{source}: empty file")
    games = [
        _game(d, f"{source}" + (f" line {i + 1}" if len(docs) > 1 else ""))
        for i, d in enumerate(docs)
    ]
    first = games[0]
    for g in games[1:]:
        for r in g.rounds:
            r.index = len(first.rounds)
            first.rounds.append(r)
        first.final_scores = g.final_scores
    first.source = source
    if len(games) > 1:
        first.final_scores = None  # per-line files carry no game result
    return first


def parse_tenhou6_doc(doc: Any, source: str = "<tenhou6>") -> LoggedGame:
    """``parse_tenhou6`` of a document already read (e.g. ``export_tenhou6``'s output)."""
    return _game(doc, source)


def _fail(where: str, msg: str) -> RecordError:
    return RecordError(f"{where}: {msg}")


def _game(doc: Any, source: str) -> LoggedGame:
    if not isinstance(doc, dict):
        raise _fail(source, "top level must be an object")
    log = doc.get("log")
    if not isinstance(log, list) or not log:
        raise _fail(source, "field 'log' must be a non-empty list of rounds")
    rule = doc.get("rule", {})
    if not isinstance(rule, dict):
        raise _fail(source, "field 'rule' must be an object")
    disp = str(rule.get("disp", ""))
    n = 3 if ("三" in disp or "sanma" in disp.lower() or "3-Player" in disp) else 4
    red_flag = any(rule.get(k) for k in ("aka", "aka51", "aka52", "aka53"))
    red_seen = re.search(r"\b5[123]\b", json.dumps(log)) is not None
    if red_flag and not red_seen and _four_plain_fives(log):
        red_flag = False  # a hand-made log that sets "aka" but uses four plain fives
    names_raw = doc.get("name", ["", "", "", ""])
    if not isinstance(names_raw, list) or len(names_raw) != 4:
        raise _fail(source, "field 'name' must list 4 players")
    names = tuple(str(x) for x in names_raw)
    rounds = [_round(rd, i, source, n) for i, rd in enumerate(log)]
    final = None
    sc = doc.get("sc")
    if sc is not None:
        if not isinstance(sc, list) or len(sc) != 8:
            raise _fail(source, "field 'sc' must hold 8 numbers (points, result) x 4")
        try:
            final = tuple(int(sc[2 * i]) for i in range(n))
        except (TypeError, ValueError):
            raise _fail(source, "field 'sc' must hold numbers") from None
    rules, origin = _ours(doc.get("jantaku"), source)
    # Mahjong Soul's rooms ("三銀の間"); their converted records do not say the length
    majsoul = n == 3 and "の間" in disp
    if "東" in disp or "East" in disp:
        length = "tonpuu"
    elif "南" in disp or "South" in disp or not majsoul:
        length = "hanchan"
    else:
        # a game that never reached the South round is taken as East-only: it ended
        # after East 3 (a hanchan ends that early only by tobi, which ends either)
        length = "hanchan" if any(r.round_wind for r in rounds) else "tonpuu"
    return LoggedGame(
        source=source,
        players=names[:n],
        red_fives=((2 if n == 3 else 3) if (red_flag or red_seen) else 0),
        length=length,
        rounds=rounds,
        final_scores=final,
        ref=str(doc["ref"])[:200] if isinstance(doc.get("ref"), str) else None,
        rules=rules,
        origin_game=origin,
        seats=n,
        preset="majsoul-sanma" if majsoul else None,
    )


def _ours(block: Any, source: str) -> tuple[dict[str, Any] | None, int | None]:
    """Our export's ``jantaku`` field: ``{"rules": {...}, "game": id}`` (both optional)."""
    if block is None:
        return None, None
    if not isinstance(block, dict):
        raise _fail(source, "field 'jantaku' must be an object")
    rules = block.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise _fail(source, "field 'jantaku.rules' must be an object")
    game = block.get("game")
    if game is not None and (type(game) is not int or game < 1):
        raise _fail(source, "field 'jantaku.game' must be a game id")
    return rules, game


def _four_plain_fives(log: list[Any]) -> bool:
    """Whether some round shows all four copies of a plain five (impossible with red fives)."""
    for rd in log:
        if not isinstance(rd, list) or len(rd) != 17:
            continue
        seen: Counter[int] = Counter()
        for p in range(4):
            for f in (4, 5):
                part = rd[f + 3 * p]
                if isinstance(part, list):
                    seen.update(c for c in part if type(c) is int)
        if any(seen[c] >= 4 for c in (15, 25, 35)):
            return True
    return False


def tile_of_code(code: Any, where: str, seats: int = 4) -> Tile:
    """A tenhou.net/6 tile code (11..47, 51..53) as an engine tile (sanma: no 12..18, 51)."""
    if type(code) is not int:
        raise _fail(where, f"{code!r} is not a tile code")
    if seats == 3 and (12 <= code <= 18 or code == 51):
        raise _fail(where, f"{code} is a 2m-8m, not in three-player mahjong")
    if 51 <= code <= 53:
        return RED_5M + code - 51
    s, n = divmod(code, 10)
    if 1 <= s <= 3 and 1 <= n <= 9:
        return (s - 1) * 9 + n - 1
    if s == 4 and 1 <= n <= 7:
        return 27 + n - 1
    raise _fail(where, f"{code} is not a tile code")


def _ints(v: Any, n: int, where: str) -> list[int]:
    if not isinstance(v, list) or len(v) != n or not all(type(x) is int for x in v):
        raise _fail(where, f"expected {n} integers, got {v!r}")
    return v


def _round(rd: Any, index: int, source: str, n: int = 4) -> LoggedRound:
    where = f"{source}: round {index}"
    if not isinstance(rd, list) or len(rd) != 17:
        raise _fail(where, "a round must be a list of 17 fields")
    kyoku, honba, sticks = _ints(rd[0], 3, f"{where} field 0 [kyoku, honba, sticks]")
    if not 0 <= kyoku <= 15 or honba < 0 or sticks < 0 or kyoku % 4 >= n:
        raise _fail(where, f"field 0 {rd[0]!r} is not kyoku 0..15, honba, sticks")
    scores = _ints(rd[1], 4, f"{where} field 1 (scores)")
    label = f"{source}: round {'ESWN'[kyoku // 4]}{kyoku % 4 + 1}-{honba}"
    if n == 3 and (scores[3] or rd[13] or rd[14] or rd[15]):
        raise _fail(label, "a three-player round with points or tiles for a fourth seat")
    for f, name in ((2, "dora"), (3, "ura")):
        if not isinstance(rd[f], list):
            raise _fail(label, f"field {f} ({name} indicators) must be a list")
    dora = [tile_of_code(c, f"{label} dora", n) for c in rd[2]]
    ura = [tile_of_code(c, f"{label} ura", n) for c in rd[3]]
    if not dora:
        raise _fail(label, "no dora indicator")
    hands: list[tuple[Tile, ...]] = []
    takes: list[list[Any]] = []
    discards: list[list[Any]] = []
    for p in range(n):
        h, t, d = rd[4 + 3 * p], rd[5 + 3 * p], rd[6 + 3 * p]
        if not isinstance(h, list) or len(h) != 13:
            raise _fail(label, f"seat {p} haipai must hold 13 tiles")
        if not isinstance(t, list) or not isinstance(d, list):
            raise _fail(label, f"seat {p} takes and discards must be lists")
        hands.append(
            tuple(sorted((tile_of_code(c, f"{label} seat {p} haipai", n) for c in h), key=sort_key))
        )
        takes.append(t)
        discards.append(d)
    r = LoggedRound(
        round_wind=kyoku // 4,
        dealer=kyoku % 4,
        honba=honba,
        riichi_sticks=sticks,
        scores=tuple(scores[:n]),
        hands=tuple(hands),
        steps=[],
        dora_indicators=dora,
        ura_indicators=ura,
        index=index,
    )
    r.steps = _Walk(takes, discards, label, n).run(r.dealer)
    _result(r, rd[16], label, n)
    return r


# -- rebuilding the order of play -----------------------------------------


class _Walk:
    def __init__(
        self, takes: list[list[Any]], discards: list[list[Any]], where: str, n: int = 4
    ) -> None:
        self.takes = takes
        self.discards = discards
        self.where = where
        self.n = n
        self.nodes = 0

    def run(self, dealer: int) -> list[Step]:
        # Recursion happens only at calls (one frame each), far below the default limit.
        n = self.n
        steps = self.walk([0] * n, [0] * n, dealer, "draw", None, False)
        if steps is None:
            raise _fail(
                self.where,
                "takes and discards do not form a valid order of play "
                "(a call that matches no discard, or a list with entries left over)",
            )
        return steps

    def done(self, ti: list[int], di: list[int]) -> bool:
        return all(
            ti[p] == len(self.takes[p]) and di[p] == len(self.discards[p]) for p in range(self.n)
        )

    def walk(
        self,
        ti: list[int],
        di: list[int],
        seat: int,
        mode: str,
        last_draw: Any,
        rinshan: bool,
    ) -> list[Step] | None:
        self.nodes += 1
        if self.nodes > 10000:
            raise _fail(self.where, "order of play is ambiguous beyond reason")
        steps: list[Step] = []
        where = self.where
        while True:
            if mode == "draw":
                if ti[seat] == len(self.takes[seat]):
                    return steps if self.done(ti, di) else None
                x = self.takes[seat][ti[seat]]
                if type(x) is not int:
                    return None  # a call where this seat should draw
                ti[seat] += 1
                steps.append(
                    Step(
                        StepType.DRAW,
                        seat,
                        tile_of_code(x, f"{where} seat {seat} take", self.n),
                        rinshan=rinshan,
                    )
                )
                last_draw = x
            if di[seat] == len(self.discards[seat]):
                # the round ended on this seat's own turn (tsumo, kyuushu)
                return steps if self.done(ti, di) else None
            y = self.discards[seat][di[seat]]
            di[seat] += 1
            if y == NUKI and self.n == 3:
                # a north set aside, then the replacement draw (the seat's next take)
                steps.append(Step(StepType.NUKI, seat, NORTH))
                mode, rinshan = "draw", True
                continue
            if isinstance(y, str) and ("a" in y or "k" in y):
                steps.append(_kan_step(y, seat, f"{where} seat {seat} discard {y!r}"))
                mode, rinshan = "draw", True
                continue
            riichi = False
            if isinstance(y, str) and y.startswith("r") and y[1:].isdigit():
                riichi, y = True, int(y[1:])
            tsumogiri = y == TSUMOGIRI
            if tsumogiri:
                if last_draw is None:
                    return None  # tsumogiri right after a call: impossible
                y = last_draw
            if type(y) is not int or y == 0:
                return None
            tile = tile_of_code(y, f"{where} seat {seat} discard", self.n)
            steps.append(Step(StepType.DISCARD, seat, tile, riichi=riichi, tsumogiri=tsumogiri))
            # Who acts next: a caller of this very tile, else the next seat draws.
            for q, call in self.callers(ti, seat, y):
                ti2, di2 = list(ti), list(di)
                ti2[q] += 1
                if call.type is StepType.DAIMINKAN:
                    if di2[q] >= len(self.discards[q]) or self.discards[q][di2[q]] != 0:
                        continue
                    di2[q] += 1
                    rest = self.walk(ti2, di2, q, "draw", None, True)
                else:
                    rest = self.walk(ti2, di2, q, "discard", None, False)
                if rest is not None:
                    return [*steps, call, *rest]
            seat = (seat + 1) % self.n
            mode, rinshan, last_draw = "draw", False, None

    def callers(self, ti: list[int], discarder: int, code: int) -> list[tuple[int, Step]]:
        out: list[tuple[int, Step]] = []
        for q in range(self.n):
            if q == discarder or ti[q] >= len(self.takes[q]):
                continue
            x = self.takes[q][ti[q]]
            if not isinstance(x, str):
                continue
            step, called_code = _call_step(x, q, f"{self.where} seat {q} take {x!r}", self.n)
            if step.from_seat == discarder and called_code == code:
                out.append((q, step))
        # pon and kan outrank chi (R8), so try them first
        out.sort(key=lambda c: c[1].type is StepType.CHI)
        return out


def _codes(s: str, where: str) -> list[int]:
    if len(s) % 2 or not s.isdigit():
        raise _fail(where, "malformed call string")
    return [int(s[i : i + 2]) for i in range(0, len(s), 2)]


def _call_step(s: str, seat: int, where: str, n: int = 4) -> tuple[Step, int]:
    """A chi / pon / daiminkan string from ``takes``, and the called tile's code.

    The giver is named by four-seat geometry, in sanma too (S11).
    """
    m = re.fullmatch(r"(\d*)([cpm])(\d+)", s)
    if not m:
        raise _fail(where, "not a chi (c), pon (p) or daiminkan (m) string")
    pos, letter = len(m.group(1)), m.group(2)
    codes = _codes(m.group(1) + m.group(3), where)
    called = int(m.group(3)[:2])
    own_codes = list(codes)
    own_codes.pop(pos // 2)
    if letter == "c":
        if n == 3:
            raise _fail(where, "no chi in three-player mahjong")
        if pos != 0 or len(codes) != 3:
            raise _fail(where, "chi must be 'c' + called tile + two own tiles")
        rel, kind = 3, StepType.CHI
    elif letter == "p":
        if pos not in _PON_GIVER or len(codes) != 3:
            raise _fail(where, "pon must hold 3 tiles with 'p' at position 0, 2 or 4")
        rel, kind = _PON_GIVER[pos], StepType.PON
    else:
        if pos not in _KAN_GIVER or len(codes) != 4:
            raise _fail(where, "daiminkan must hold 4 tiles with 'm' at position 0, 2 or 6")
        rel, kind = _KAN_GIVER[pos], StepType.DAIMINKAN
    step = Step(
        kind,
        seat,
        tile_of_code(called, where, n),
        tuple(sorted((tile_of_code(c, where, n) for c in own_codes), key=sort_key)),
        from_seat=(seat + rel) % 4,
    )
    if step.from_seat is not None and step.from_seat >= n:
        raise _fail(where, f"a call from the empty seat {step.from_seat}")
    return step, called


def _kan_step(s: str, seat: int, where: str) -> Step:
    m = re.fullmatch(r"(\d*)([ak])(\d+)", s)
    if not m:
        raise _fail(where, "not a kakan (k) or ankan (a) string")
    codes = _codes(m.group(1) + m.group(3), where)
    tiles = [tile_of_code(c, where) for c in codes]
    if len(tiles) != 4 or len({kind(t) for t in tiles}) != 1:
        raise _fail(where, "a kan must hold 4 tiles of one kind")
    if m.group(2) == "a":
        return Step(StepType.ANKAN, seat, tiles=tuple(sorted(tiles, key=sort_key)))
    added = tile_of_code(int(m.group(3)[:2]), where)
    return Step(StepType.KAKAN, seat, added)


# -- results ---------------------------------------------------------------


def _deltas(v: Any, where: str, n: int) -> tuple[int, ...]:
    d = _ints(v, 4, f"{where} deltas")
    if n == 3 and d[3]:
        raise _fail(where, f"deltas {d} pay the empty fourth seat")
    return tuple(d[:n])


def _result(r: LoggedRound, res: Any, where: str, n: int = 4) -> None:
    if not isinstance(res, list) or not res or not isinstance(res[0], str):
        raise _fail(where, "field 16 (result) must be a list starting with its name")
    name = res[0]
    if name in ("和了", "Agari", "Ron", "Tsumo"):
        if len(res) < 3 or len(res) % 2 == 0:
            raise _fail(where, "a win result must hold (deltas, details) pairs")
        for i in range(1, len(res), 2):
            r.wins.append(_win(res[i], res[i + 1], r.dealer, f"{where} win {i // 2 + 1}", n))
        return
    dtype = _DRAW_NAMES.get(name)
    if dtype is None:
        raise _fail(where, f"unknown result {name!r}")
    deltas = _deltas(res[1], where, n) if len(res) > 1 else None
    if deltas is None and (dtype is not DrawType.EXHAUSTIVE or name != "流局"):
        # Abortive draws and all-tenpai / all-noten draws move no points; Tenhou
        # leaves the deltas out for them.
        deltas = (0,) * n
    tenpai: frozenset[int] | None = None
    if name == "全員聴牌":
        tenpai = frozenset(range(n))
    elif name == "全員不聴":
        tenpai = frozenset()
    elif dtype is DrawType.EXHAUSTIVE and deltas is not None and any(deltas):
        # With mixed tenpai the tenpai seats are exactly those who receive points.
        tenpai = frozenset(i for i in range(n) if deltas[i] > 0)
    r.draw = LoggedDraw(dtype, deltas, tenpai)


def _win(deltas_raw: Any, info: Any, dealer: int, where: str, n: int = 4) -> LoggedWin:
    deltas = _deltas(deltas_raw, where, n)
    if not isinstance(info, list) or len(info) < 3:
        raise _fail(where, "win details must start with [who, from, pao]")
    who, from_who, pao = _ints(info[:3], 3, f"{where} [who, from, pao]")
    if not all(0 <= x < n for x in (who, from_who, pao)):
        raise _fail(where, f"who, from and pao must be seats 0..{n - 1}")
    if deltas[who] <= 0 or (from_who != who and deltas[from_who] >= 0):
        raise _fail(
            where,
            f"details say seat {who} won from seat {from_who}, but the deltas {list(deltas)} "
            "do not pay that seat from that seat",
        )
    base = LoggedWin(who, from_who, None if pao == who else pao, deltas)
    if len(info) == 3:
        return base  # some exporters leave out the score details
    ten = info[3]
    m = _TEN.match(ten) if isinstance(ten, str) else None
    if m is None:
        raise _fail(where, f"score {ten!r} is not like '30符2飜2000点' or '満貫8000点'")
    a = int(m.group("a"))
    if who != from_who:
        points = a
    elif m.group("all"):
        points = (n - 1) * a  # dealer tsumo: every other seat pays a
    elif m.group("b") is not None:
        points = (n - 2) * a + int(m.group("b"))  # non-dealers pay a, the dealer b
    else:
        raise _fail(where, f"tsumo score {ten!r} lacks the payment split")
    yaku: list[tuple[str, int]] = []
    yakuman: list[tuple[str, int]] = []
    extra = {"dora": 0, "ura": 0, "aka": 0, "nuki": 0}
    nuki_apart = False  # Mahjong Soul's converter lists 抜きドラ apart; Tenhou counts ドラ
    for y in info[4:]:
        ym = _YAKU.match(y) if isinstance(y, str) else None
        if ym is None:
            raise _fail(where, f"yaku {y!r} is not like '立直(1飜)' or '大三元(役満)'")
        raw_name = ym.group("name") or ym.group("yname")
        try:
            yid = yaku_by_name(raw_name)
        except KeyError:
            raise _fail(where, f"unknown yaku name {raw_name!r}") from None
        if ym.group("yname"):
            if yid not in YAKUMAN_IDS:
                raise _fail(where, f"{raw_name!r} is not a yakuman")
            yakuman.append((yid, 1))
            continue
        han = int(ym.group("value"))
        nuki_apart = nuki_apart or yid == "nuki"
        if yid in extra:
            extra[yid] += han
        elif han:
            yaku.append((yid, han))
    limit = _LIMIT_NAMES[m.group("limit")] if m.group("limit") else None
    if limit == "yakuman" and not yakuman:
        limit = "kazoe"
    return LoggedWin(
        who=who,
        from_who=from_who,
        pao=base.pao,
        deltas=deltas,
        yaku=tuple(yaku),
        yakuman=tuple(yakuman),
        han=None if yakuman else sum(h for _, h in yaku) + sum(extra.values()),
        fu=int(m.group("fu")) if m.group("fu") else None,
        points=points,
        limit=limit,
        dora=extra["dora"],
        aka=extra["aka"],
        ura=extra["ura"],
        nuki=extra["nuki"] if nuki_apart else None,
    )


def round_codes(tiles: Sequence[Tile]) -> list[int]:
    """Engine tiles as tenhou.net/6 codes (used by the exporter and tests)."""
    out = []
    for t in tiles:
        if t >= RED_5M:
            out.append(51 + t - RED_5M)
        elif t >= 27:
            out.append(41 + t - 27)
        else:
            out.append((t // 9 + 1) * 10 + t % 9 + 1)
    return out
