"""All 10,000 scoring cases of majiang-core (MIT, see tests/fixtures/majiang-core/LICENSE).

Each case is converted from majiang notation to our types and scored under the
``standard`` preset, whose options match majiang-core's default rules (double
yakuman on, kazoe on, no kiriage, 4 fu for a double-wind pair, red fives, pao).
Han, fu, every yaku with its han, the yakuman with multipliers, the base total
(``defen``) and the four score deltas (``fenpei``) must agree for every case.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from server.engine.melds import Meld, MeldType
from server.engine.riichi.points import settle_win
from server.engine.riichi.rules import preset
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.win import WinContext
from server.engine.tiles import EAST, Tile, parse_tiles

FIXTURE = Path(__file__).parent.parent / "fixtures" / "majiang-core" / "hule.json"

NAMES: dict[str, str] = {
    "立直": "riichi",
    "ダブル立直": "double_riichi",
    "一発": "ippatsu",
    "門前清自摸和": "menzen_tsumo",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "二盃口": "ryanpeikou",
    "翻牌 白": "yakuhai_haku",
    "翻牌 發": "yakuhai_hatsu",
    "翻牌 中": "yakuhai_chun",
    "嶺上開花": "rinshan_kaihou",
    "槍槓": "chankan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "七対子": "chiitoitsu",
    "対々和": "toitoi",
    "三色同順": "sanshoku_doujun",
    "三色同刻": "sanshoku_doukou",
    "一気通貫": "ittsu",
    "三暗刻": "sanankou",
    "三槓子": "sankantsu",
    "混全帯幺九": "chanta",
    "純全帯幺九": "junchan",
    "混老頭": "honroutou",
    "小三元": "shousangen",
    "混一色": "honitsu",
    "清一色": "chinitsu",
    "天和": "tenhou",
    "地和": "chiihou",
    "国士無双": "kokushi",
    "国士無双十三面": "kokushi",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou",
    "大三元": "daisangen",
    "小四喜": "shousuushii",
    "大四喜": "daisuushii",
    "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "chuuren",
    "四槓子": "suukantsu",
}
DORA_NAMES = {"ドラ": "dora", "赤ドラ": "aka", "裏ドラ": "ura"}
# Which seat a called tile came from, relative to the caller (majiang marks).
OFFSET = {"+": 1, "=": 2, "-": 3}
_GROUP = re.compile(r"([mpsz])([0-9+=\-]+)")


def mj_tiles(text: str) -> list[Tile]:
    """ "m345p40677" -> tiles; markers are dropped."""
    out: list[Tile] = []
    for su, digits in _GROUP.findall(text):
        out += parse_tiles("".join(d for d in digits if d.isdigit()) + su)
    return out


def mj_meld(text: str) -> Meld:
    tiles = tuple(mj_tiles(text))
    digits = re.sub(r"[^0-9+=\-]", "", text)
    if len(tiles) == 3:
        ks = {t if t < 34 else 4 + 9 * (t - 34) for t in tiles}
        mt = MeldType.PON if len(ks) == 1 else MeldType.CHI
    elif not any(ch in digits for ch in "+=-"):
        mt = MeldType.ANKAN
    elif digits[-1] in "+=-":
        mt = MeldType.DAIMINKAN
    else:
        mt = MeldType.KAKAN
    return Meld(mt, tiles, None if mt is MeldType.ANKAN else tiles[0], None)


def convert(case: dict[str, Any]) -> tuple[list[Tile], list[Meld], WinContext, int, int | None]:
    """A case's input as (concealed, melds, context, winner seat, discarder seat)."""
    inp = case["in"]
    param = inp["param"]
    hand, *meld_texts = inp["shoupai"].split(",")
    concealed = mj_tiles(hand)
    melds = [mj_meld(m) for m in meld_texts if m]
    winner = param["menfeng"]
    discarder = None
    if "rongpai" in inp:
        rong = inp["rongpai"]
        win = mj_tiles(rong[:2])[0]
        concealed.append(win)
        discarder = (winner + OFFSET[rong[2]]) % 4
    else:
        win = concealed[-1]
    hp = param["hupai"]
    ctx = WinContext(
        win_tile=win,
        tsumo=discarder is None,
        seat_wind=EAST + param["menfeng"],
        round_wind=EAST + param["zhuangfeng"],
        riichi=hp.get("lizhi", 0) == 1,
        double_riichi=hp.get("lizhi", 0) == 2,
        ippatsu=bool(hp.get("yifa")),
        haitei=hp.get("haidi", 0) == 1,
        houtei=hp.get("haidi", 0) == 2,
        rinshan=bool(hp.get("lingshang")),
        chankan=bool(hp.get("qianggang")),
        tenhou=hp.get("tianhu", 0) == 1,
        chiihou=hp.get("tianhu", 0) == 2,
        dora_indicators=tuple(mj_tiles("".join(param["baopai"]))),
        ura_indicators=tuple(mj_tiles("".join(param["fubaopai"] or []))),
        honba=param["jicun"]["changbang"],
        riichi_sticks=param["jicun"]["lizhibang"],
    )
    return concealed, melds, ctx, winner, discarder


@cache
def cases() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def yaku_id(name: str) -> str:
    if name.startswith("自風 "):
        return "yakuhai_seat_wind"
    if name.startswith("場風 "):
        return "yakuhai_round_wind"
    return NAMES[name]


def expected(out: dict[str, Any]) -> dict[str, Any]:
    yaku: list[tuple[str, int]] = []
    ym: list[tuple[str, int]] = []
    dora = {"dora": 0, "aka": 0, "ura": 0}
    for h in out["hupai"]:
        if h["name"] in DORA_NAMES:
            dora[DORA_NAMES[h["name"]]] = h["fanshu"]
        elif isinstance(h["fanshu"], str):
            ym.append((yaku_id(h["name"]), len(h["fanshu"])))
        else:
            yaku.append((yaku_id(h["name"]), h["fanshu"]))
    return {
        "yaku": sorted(yaku),
        "yakuman": sorted(ym),
        "han": out["fanshu"] or 0,
        # majiang-core gives no fu for yakuman hands; we keep the reading's fu there.
        "fu": out["fu"],
        **dora,
        "defen": out["defen"],
        "fenpei": out["fenpei"],
    }


def actual(case: dict[str, Any]) -> dict[str, Any]:
    concealed, melds, ctx, winner, discarder = convert(case)
    rules = preset("standard")
    r = score_hand(concealed, melds, ctx, rules)
    deltas = settle_win(
        r,
        winner=winner,
        dealer=0,
        discarder=discarder,
        pao=None,
        honba=ctx.honba,
        riichi_sticks=ctx.riichi_sticks,
        rules=rules,
    )
    return {
        "yaku": sorted(r.yaku),
        "yakuman": sorted(r.yakuman),
        "han": r.han,
        "fu": None if r.yakuman else r.fu,
        "dora": r.dora,
        "aka": r.aka,
        "ura": r.ura,
        "defen": r.total - 300 * ctx.honba - 1000 * ctx.riichi_sticks,
        "fenpei": deltas,
    }


def test_r21_r22_r23_all_majiang_core_hule_cases_agree() -> None:
    data = cases()
    assert len(data) == 10000
    mismatches = []
    for i, case in enumerate(data):
        exp = expected(case["out"])
        got = actual(case)
        if got != exp:
            mismatches.append((i, case["in"], exp, got))
    assert not mismatches, f"{len(mismatches)} cases differ; first: {mismatches[:3]}"


def test_the_fixture_covers_every_situation_flag() -> None:
    # Guards the conversion above: if a flag were never read, the big test would
    # not notice a wrong mapping of it.
    seen: set[str] = set()
    for case in cases():
        _, melds, ctx, _, discarder = convert(case)
        for flag in ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan"):
            if getattr(ctx, flag):
                seen.add(flag)
        if discarder is None:
            seen.add("tsumo")
        if any(m.type is MeldType.ANKAN for m in melds):
            seen.add("ankan")
        if any(m.type is MeldType.KAKAN for m in melds):
            seen.add("kakan")
        if any(m.type is MeldType.DAIMINKAN for m in melds):
            seen.add("daiminkan")
    assert seen >= {"riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "tsumo"}
    assert seen >= {"ankan", "kakan", "daiminkan"}


def test_standard_preset_has_majiang_core_default_rules() -> None:
    # majiang-core's rule() defaults: 連風牌は2符 false, 赤牌 1/1/1, クイタンあり,
    # 役満の複合あり, ダブル役満あり, 数え役満あり, 役満パオあり, 切り上げ満貫あり false.
    r = preset("standard")
    assert r.double_wind_pair_fu == 4
    assert r.red_fives == 3
    assert r.kuitan and r.double_yakuman and r.kazoe_yakuman and r.pao
    assert not r.kiriage_mangan
    assert not r.sanrenkou and not r.isshoku_sanjun
