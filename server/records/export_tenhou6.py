"""Engine event streams to tenhou.net/6 JSON (what the tenhou.net/6 viewer, mjai-reviewer
and Mortal read).

Input is a game's full event stream, each event ``{"type": event type, "data":
{...}}`` with the private ``haipai`` and ``draw`` events included, as stored
for games played here and for imported logs (``importer.py``). Output::

    {"title": [...], "name": [4 names], "rule": {"disp": "般南喰赤", "aka": 1, ...},
     "log": [round, ...], "sc": [points, score] x 4 (when the game ended)}

Each round is ``[[kyoku, honba, sticks], scores, dora, ura, haipai0, takes0,
discards0, ... , result]`` (see ``tenhou6.py`` for the format). Tenhou's seat
0 is always the first dealer, so seats are rotated by ``first_dealer``.
Rounds the stream cuts off before their result are left out: the format
has no way to say "unfinished".

A three-player (sanma) game is written as Tenhou writes one: ``"三"`` before
``rule.disp``, four names, scores and deltas with an empty fourth seat, the
fourth seat's hand and lists empty, calls placed by four-seat geometry, a
north set aside as ``"f44"`` in the discards, and pulled norths counted in
``ドラ``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.engine.tiles import Tile, kind, parse_tile, sort_key
from server.records.model import RecordError
from server.records.tenhou6 import TSUMOGIRI, round_codes
from server.records.yaku_names import TENHOU_YAKU

EventJson = Mapping[str, Any]

# Tenhou's names for the canonical ids (the first one Tenhou uses for each).
_YAKU_NAMES: dict[str, str] = {
    "menzen_tsumo": "門前清自摸和",
    "riichi": "立直",
    "ippatsu": "一発",
    "chankan": "槍槓",
    "rinshan_kaihou": "嶺上開花",
    "haitei": "海底摸月",
    "houtei": "河底撈魚",
    "pinfu": "平和",
    "tanyao": "断幺九",
    "iipeikou": "一盃口",
    "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發",
    "yakuhai_chun": "役牌 中",
    "double_riichi": "両立直",
    "chiitoitsu": "七対子",
    "chanta": "混全帯幺九",
    "ittsu": "一気通貫",
    "sanshoku_doujun": "三色同順",
    "sanshoku_doukou": "三色同刻",
    "sankantsu": "三槓子",
    "toitoi": "対々和",
    "sanankou": "三暗刻",
    "shousangen": "小三元",
    "honroutou": "混老頭",
    "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九",
    "honitsu": "混一色",
    "chinitsu": "清一色",
    "tenhou": "天和",
    "chiihou": "地和",
    "daisangen": "大三元",
    "suuankou": "四暗刻",
    "tsuuiisou": "字一色",
    "ryuuiisou": "緑一色",
    "chinroutou": "清老頭",
    "chuuren": "九蓮宝燈",
    "kokushi": "国士無双",
    "daisuushii": "大四喜",
    "shousuushii": "小四喜",
    "suukantsu": "四槓子",
    "dora": "ドラ",
    "ura": "裏ドラ",
    "aka": "赤ドラ",
}
# The double-yakuman forms have names of their own.
_DOUBLE_NAMES = {"suuankou": "四暗刻単騎", "kokushi": "国士無双１３面", "chuuren": "純正九蓮宝燈"}
# Local yaku Tenhou does not play: written in Japanese all the same.
_LOCAL_NAMES = {"sanrenkou": "三連刻", "isshoku_sanjun": "一色三順"}
_WIND_KANJI = "東南西北"
_LIMITS = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
    "yakuman": "役満",
    "kazoe": "役満",  # Tenhou writes kazoe yakuman as 役満 with the han yaku listed
}
_DRAW_NAMES = {
    "nagashi_mangan": "流し満貫",
    "kyuushu_kyuuhai": "九種九牌",
    "suufon_renda": "四風連打",
    "suukan_sanra": "四槓散了",
    "suucha_riichi": "四家立直",
    "sanchahou": "三家和了",
}
# The order Tenhou lists yaku in, by Tenhou yaku number (10-13 seat wind E..N, 14-17
# round wind E..N, 52 dora, 53 ura, 54 aka). Not the numbers' order: it is read off
# the yaku attributes of real Tenhou mjlogs (every pair of yaku seen together in
# tests/fixtures keeps its order here, checked by tests/records/test_export_tenhou6.py);
# pairs never seen together follow riichi, situational yaku, menzen tsumo, hand shape,
# yakuhai, then dora, aka, ura.
_TENHOU_ORDER = (
    *(1, 21, 2, 3, 4, 5, 6, 0, 7, 22, 9, 32, 24, 25, 29, 28, 27, 26, 8, 30, 17, 16, 12),
    *(15, 20, 19, 13, 11, 14, 10, 18, 23, 33, 31, 34, 35),
    *range(37, 52),
    *(52, 54, 53),
)
_RANK = {n: i for i, n in enumerate(_TENHOU_ORDER)}
_ORDER: dict[str, int] = {}
for _n, (_id, _) in sorted(TENHOU_YAKU.items()):
    _ORDER.setdefault(_id, _RANK[_n])
# Local yaku Tenhou does not play: after the other yaku, before dora.
_LOCAL_RANK = _RANK[52] - 0.5


def code(tile: str) -> int:
    """A tile string ("5p", "0p") as a tenhou.net/6 code (25, 52)."""
    return round_codes([parse_tile(tile)])[0]


def _codes(tiles: Sequence[Tile]) -> str:
    return "".join(f"{c:02d}" for c in round_codes(tiles))


def _own(tiles: Sequence[str], called: str, n: int) -> list[Tile]:
    """The caller's own tiles of a meld (the called tile taken out), in Tenhou's order."""
    own = [parse_tile(t) for t in tiles]
    own.remove(parse_tile(called))
    if len(own) != n:
        raise RecordError(f"meld {tiles} holds {len(own) + 1} tiles, expected {n + 1}")
    return sorted(own, key=sort_key)  # red fives after the plain ones, as Tenhou writes


NUKI_STRING = "f44"  # sanma: a north set aside


def call_string(typ: str, tiles: Sequence[str], called: str, rel: int) -> str:
    """A chi/pon/daiminkan string; ``rel`` is the giver relative to the caller (3 = kamicha,
    counted around four seats also in sanma).

    The letter stands where the called tile lies in the meld: in front for the
    left seat, in the middle for the seat opposite, at the end for the right seat.
    """
    c = _codes([parse_tile(called)])
    if typ == "chi":
        return "c" + c + _codes(_own(tiles, called, 2))
    letter, n = ("p", 2) if typ == "pon" else ("m", 3)
    own = [_codes([t]) for t in _own(tiles, called, n)]
    at = {3: 0, 2: 1, 1: n}[rel]
    own.insert(at, letter + c)
    return "".join(own)


def ankan_string(tiles: Sequence[str]) -> str:
    ts = [_codes([t]) for t in sorted((parse_tile(t) for t in tiles), key=sort_key)]
    return "".join(ts[:3]) + "a" + ts[3]


def points_string(w: EventJson, dealer: int) -> str:
    """``30符2飜2000点``, ``満貫2000-4000点``, ``1300点∀`` ... (payments before honba)."""
    lim = w.get("limit")
    head = f"{_LIMITS[lim]}" if lim else f"{w['fu']}符{w['han']}飜"
    p = w["payments"]
    if w.get("from_seat") is not None:
        return f"{head}{p['ron']}点"
    if w["seat"] == dealer:
        return f"{head}{p['tsumo_nondealer']}点∀"
    return f"{head}{p['tsumo_nondealer']}-{p['tsumo_dealer']}点"


def yaku_strings(w: EventJson, seat_wind: int, round_wind: int) -> list[str]:
    """The winner's yaku as Tenhou writes them, in Tenhou's order (``_TENHOU_ORDER``)."""
    out: list[tuple[float, str]] = []
    for y in w.get("yakuman", []):
        yid, mult = y["id"], y.get("multiplier", 1)
        name = _DOUBLE_NAMES.get(yid) if mult >= 2 else None
        out.append((_ORDER.get(yid, _LOCAL_RANK), f"{name or _YAKU_NAMES[yid]}(役満)"))
    for y in w.get("yaku", []):
        yid = y["id"]
        rank = _ORDER.get(yid, _LOCAL_RANK)
        if yid == "yakuhai_seat_wind":
            name = f"自風 {_WIND_KANJI[seat_wind]}"
            rank = _RANK[10 + seat_wind]
        elif yid == "yakuhai_round_wind":
            name = f"場風 {_WIND_KANJI[round_wind]}"
            rank = _RANK[14 + round_wind]
        else:
            name = _YAKU_NAMES.get(yid) or _LOCAL_NAMES.get(yid, yid)
        out.append((rank, f"{name}({y['han']}飜)"))
    if not w.get("yakuman"):
        counts = {
            "dora": w.get("dora", 0) + w.get("nuki", 0),
            "ura": w.get("ura"),
            "aka": w.get("aka"),
        }
        for k, n in counts.items():  # Tenhou counts the norths set aside as ドラ (S12d)
            if n:
                out.append((_ORDER[k], f"{_YAKU_NAMES[k]}({n}飜)"))
    return [s for _, s in sorted(out, key=lambda x: x[0])]


class _Round:
    def __init__(self, ev: EventJson, fd: int, n: int = 4) -> None:
        self.fd = fd
        self.n = n
        self.dealer = ev["dealer"]
        self.round_wind = "ESWN".index(ev["round_wind"])
        self.header = [
            self.round_wind * 4 + (self.dealer - fd) % n,
            ev["honba"],
            ev["riichi_sticks"],
        ]
        self.scores = self.rot(ev["scores"])
        self.dora = [code(t) for t in ev["dora_indicators"]]
        self.ura: list[int] = []
        self.haipai: list[list[int]] = [[], [], [], []]
        self.takes: list[list[Any]] = [[], [], [], []]
        self.discards: list[list[Any]] = [[], [], [], []]
        self.pons: dict[tuple[int, int], str] = {}  # (seat, kind) -> pon string, for kakan
        self.paid = [0] * n  # riichi sticks put down this round (left out of draw deltas)
        self.result: list[Any] | None = None

    def t(self, seat: int) -> int:
        """Our seat as Tenhou's (seat 0 = first dealer)."""
        return (seat - self.fd) % self.n

    def rot(self, values: Sequence[Any]) -> list[Any]:
        """Per-seat values in Tenhou's seat order, four wide (sanma: the fourth 0)."""
        n = self.n
        return [values[(p + self.fd) % n] for p in range(n)] + [0] * (4 - n)

    def add(self, typ: str, ev: EventJson) -> None:
        if typ == "haipai":
            # sorted by face, a red five in the fives' place (as Tenhou writes haipai)
            tiles = sorted((parse_tile(x) for x in ev["tiles"]), key=sort_key)
            self.haipai[self.t(ev["seat"])] = round_codes(tiles)
        elif typ == "draw":
            self.takes[self.t(ev["seat"])].append(code(ev["tile"]))
        elif typ == "discard":
            c: Any = TSUMOGIRI if ev["tsumogiri"] else code(ev["tile"])
            self.discards[self.t(ev["seat"])].append(f"r{c}" if ev["riichi"] else c)
        elif typ == "call":
            s = ev["seat"]
            rel = (self.t(ev["from_seat"]) - self.t(s)) % 4  # Tenhou's four-seat geometry
            text = call_string(ev["meld"], ev["tiles"], ev["called"], rel)
            self.takes[self.t(s)].append(text)
            if ev["meld"] == "pon":
                self.pons[(s, kind(parse_tile(ev["called"])))] = text
            elif ev["meld"] == "daiminkan":
                self.discards[self.t(s)].append(0)  # the kan takes the place of a discard
        elif typ == "kan":
            s = ev["seat"]
            if ev["meld"] == "ankan":
                self.discards[self.t(s)].append(ankan_string(ev["tiles"]))
            else:
                added = parse_tile(ev["added"])
                pon = self.pons.get((s, kind(added)))
                if pon is None:
                    raise RecordError(f"kakan of {ev['added']} by seat {s} without a pon")
                self.discards[self.t(s)].append(pon.replace("p", "k" + _codes([added]), 1))
        elif typ == "nuki":
            self.discards[self.t(ev["seat"])].append(NUKI_STRING)
        elif typ == "new_dora":
            self.dora.append(code(ev["indicator"]))
        elif typ == "riichi_accepted":
            self.paid[ev["seat"]] += 1000
        elif typ == "agari":
            self.agari(ev)
        elif typ == "ryuukyoku":
            self.ryuukyoku(ev)

    def agari(self, ev: EventJson) -> None:
        self.ura = [code(t) for t in ev.get("ura_indicators") or []]
        res: list[Any] = ["和了"]
        for w in ev["winners"]:
            seat = w["seat"]
            frm = seat if w.get("from_seat") is None else w["from_seat"]
            pao = seat if w.get("pao") is None else w["pao"]
            seat_wind = (seat - self.dealer) % self.n
            res.append(self.rot(w["deltas"]))
            res.append(
                [
                    self.t(seat),
                    self.t(frm),
                    self.t(pao),
                    points_string(w, self.dealer),
                    *yaku_strings(w, seat_wind, self.round_wind),
                ]
            )
        self.result = res

    def ryuukyoku(self, ev: EventJson) -> None:
        reason = ev["reason"]
        deltas = [ev["deltas"][s] + self.paid[s] for s in range(self.n)]
        if reason == "exhaustive":
            n = len(ev.get("tenpai", []))
            if n == self.n:
                self.result = ["全員聴牌"]
            elif n == 0:
                self.result = ["全員不聴"]
            else:
                self.result = ["流局", self.rot(deltas)]
        elif reason == "nagashi_mangan":
            self.result = ["流し満貫", self.rot(deltas)]
        else:
            self.result = [_DRAW_NAMES[reason]]

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.header, self.scores, self.dora, self.ura]
        for p in range(4):
            out += [self.haipai[p], self.takes[p], self.discards[p]]
        out.append(self.result)
        return out


def rule_json(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Tenhou's ``rule`` object: ``disp`` like 般南喰赤 (lobby, length, kuitan, red fives),
    三般南喰赤 for three players (whose red fives Tenhou still lists as aka51-53)."""
    red = int(rules.get("red_fives", 3))
    disp = "三" if rules.get("seats", 4) == 3 else ""
    disp += "般" + ("東" if rules.get("length") == "tonpuu" else "南")
    disp += "喰" if rules.get("kuitan", True) else ""
    disp += "赤" if red else ""
    out: dict[str, Any] = {"disp": disp, "aka": 1 if red else 0}
    if red:
        out.update({"aka51": 1, "aka52": 1, "aka53": 1})
    return out


def tenhou_score(scores: Sequence[float], ranks: Sequence[int]) -> list[int]:
    """Final scores as the integers Tenhou writes in ``sc``.

    Tenhou rounds each score but the winner's to a whole number, a half going
    toward zero (its 五捨六入 on thousands of points), and gives first place
    what makes the scores sum to zero.
    """
    n = len(scores)
    out = [0] * n
    first = min(range(n), key=lambda p: (ranks[p], p))
    for p in range(n):
        if p != first:
            mag = abs(scores[p])
            whole = int(mag) + (1 if mag - int(mag) > 0.5 + 1e-9 else 0)
            out[p] = whole if scores[p] >= 0 else -whole
    out[first] = -sum(out)
    return out


def play_log(events: Sequence[EventJson]) -> list[Any]:
    """The ``log`` field of a stream's export: its finished rounds, seat 0 the first dealer.

    Two streams of the same play (a game and the import of its export) give the
    same log, whatever their dice and seats; RecordError if malformed.
    """
    log: list[Any] = export_tenhou6(events, ("", "", "", ""))["log"]
    return log


def export_tenhou6(
    events: Sequence[EventJson],
    players: Sequence[str],
    title: Sequence[str] = ("", ""),
    *,
    ref: str | None = None,
    game_id: int | None = None,
) -> dict[str, Any]:
    """The tenhou.net/6 document of a game's full event stream (RecordError if malformed).

    ``ref``: the Tenhou log id of an imported game (Tenhou's own field).
    ``game_id``: written with the rules in the ``jantaku`` field, so that an
    import of this file keeps the rules and is known as this game.
    """
    if len(players) not in (3, 4):
        raise RecordError("players must name 4 seats (3 in sanma)")
    fd = 0
    n = 4
    rules: Mapping[str, Any] = {}
    rounds: list[_Round] = []
    cur: _Round | None = None
    final: list[Mapping[str, Any]] | None = None
    try:
        for item in events:
            typ, ev = item["type"], item["data"]
            if typ == "game_start":
                fd = int(ev.get("first_dealer", 0))
                rules = ev.get("rules") or {}
                n = int(rules.get("seats", 4))
                if n not in (3, 4):
                    raise ValueError(f"seats {n}")
            elif typ == "round_start":
                cur = _Round(ev, fd, n)
                rounds.append(cur)
            elif typ == "game_end":
                final = ev.get("final")
            elif cur is not None:
                cur.add(typ, ev)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"malformed event stream: {type(exc).__name__}: {exc}") from None
    log = [r.to_json() for r in rounds if r.result is not None]
    if not log:
        raise RecordError("the game has no finished round to export")
    if len(players) < n:
        raise RecordError(f"players must name {n} seats")
    doc: dict[str, Any] = {"title": list(title)}
    if ref:
        doc["ref"] = ref
    doc.update(
        {
            "name": [players[(p + fd) % n] for p in range(n)] + [""] * (4 - n),
            "rule": rule_json(rules),
            "log": log,
        }
    )
    if final:
        try:
            by_seat = {int(f["seat"]): f for f in final}
            seats = [(p + fd) % n for p in range(n)]
            score = tenhou_score(
                [float(by_seat[s]["score"]) for s in seats],
                [int(by_seat[s]["rank"]) for s in seats],
            )
            doc["sc"] = [
                x for p, s in enumerate(seats) for x in (int(by_seat[s]["points"]), score[p])
            ] + [0, 0] * (4 - n)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed final standings: {exc}") from None
    ours: dict[str, Any] = {"rules": dict(rules)}
    if game_id is not None:
        ours["game"] = game_id
    doc["jantaku"] = ours
    return doc
