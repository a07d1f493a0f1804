"""Tenhou's yaku numbers (mjlog) and names (tenhou.net/6) mapped to canonical ids (RULES.md).

Dora, ura and aka (and in sanma pulled norths, Mahjong Soul's 抜きドラ) are not
yaku: they map to the pseudo ids ``dora``, ``ura``, ``aka`` and ``nuki`` and
the importers count them separately.
"""

from __future__ import annotations

# number -> (canonical id, is yakuman). Tenhou has no double yakuman, so each counts once.
TENHOU_YAKU: dict[int, tuple[str, bool]] = {
    0: ("menzen_tsumo", False),
    1: ("riichi", False),
    2: ("ippatsu", False),
    3: ("chankan", False),
    4: ("rinshan_kaihou", False),
    5: ("haitei", False),
    6: ("houtei", False),
    7: ("pinfu", False),
    8: ("tanyao", False),
    9: ("iipeikou", False),
    10: ("yakuhai_seat_wind", False),
    11: ("yakuhai_seat_wind", False),
    12: ("yakuhai_seat_wind", False),
    13: ("yakuhai_seat_wind", False),
    14: ("yakuhai_round_wind", False),
    15: ("yakuhai_round_wind", False),
    16: ("yakuhai_round_wind", False),
    17: ("yakuhai_round_wind", False),
    18: ("yakuhai_haku", False),
    19: ("yakuhai_hatsu", False),
    20: ("yakuhai_chun", False),
    21: ("double_riichi", False),
    22: ("chiitoitsu", False),
    23: ("chanta", False),
    24: ("ittsu", False),
    25: ("sanshoku_doujun", False),
    26: ("sanshoku_doukou", False),
    27: ("sankantsu", False),
    28: ("toitoi", False),
    29: ("sanankou", False),
    30: ("shousangen", False),
    31: ("honroutou", False),
    32: ("ryanpeikou", False),
    33: ("junchan", False),
    34: ("honitsu", False),
    35: ("chinitsu", False),
    # 36 renhou: not played on Tenhou, not in RULES.md; refused below.
    37: ("tenhou", True),
    38: ("chiihou", True),
    39: ("daisangen", True),
    40: ("suuankou", True),
    41: ("suuankou", True),  # tanki: a plain yakuman on Tenhou
    42: ("tsuuiisou", True),
    43: ("ryuuiisou", True),
    44: ("chinroutou", True),
    45: ("chuuren", True),
    46: ("chuuren", True),  # junsei
    47: ("kokushi", True),
    48: ("kokushi", True),  # 13-sided
    49: ("daisuushii", True),
    50: ("shousuushii", True),
    51: ("suukantsu", True),
    52: ("dora", False),
    53: ("ura", False),
    54: ("aka", False),
}

# tenhou.net/6 names (Japanese as written by Tenhou, and the English client's names).
_NAMES: dict[str, str] = {
    "門前清自摸和": "menzen_tsumo",
    "立直": "riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan_kaihou",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "自風 東": "yakuhai_seat_wind",
    "自風 南": "yakuhai_seat_wind",
    "自風 西": "yakuhai_seat_wind",
    "自風 北": "yakuhai_seat_wind",
    "場風 東": "yakuhai_round_wind",
    "場風 南": "yakuhai_round_wind",
    "場風 西": "yakuhai_round_wind",
    "場風 北": "yakuhai_round_wind",
    "役牌 白": "yakuhai_haku",
    "役牌 發": "yakuhai_hatsu",
    "役牌 中": "yakuhai_chun",
    "両立直": "double_riichi",
    "七対子": "chiitoitsu",
    "混全帯幺九": "chanta",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku_doujun",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "小三元": "shousangen",
    "混老頭": "honroutou",
    "二盃口": "ryanpeikou",
    "純全帯幺九": "junchan",
    "混一色": "honitsu",
    "清一色": "chinitsu",
    "天和": "tenhou",
    "地和": "chiihou",
    "大三元": "daisangen",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou",
    "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "chuuren",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi",
    "国士無双13面": "kokushi",
    "大四喜": "daisuushii",
    "小四喜": "shousuushii",
    "四槓子": "suukantsu",
    "ドラ": "dora",
    "裏ドラ": "ura",
    "赤ドラ": "aka",
    # Mahjong Soul records converted to tenhou.net/6 (mjai-reviewer3p): its names for
    # the wind yakuhai, and the pulled norths (sanma) counted apart from dora
    "役牌:場風牌": "yakuhai_round_wind",
    "役牌:自風牌": "yakuhai_seat_wind",
    "抜きドラ": "nuki",
    "国士無双十三面待ち": "kokushi",
    # English client
    "Riichi": "riichi",
    "Ippatsu": "ippatsu",
    "Fully Concealed Hand": "menzen_tsumo",
    "Pinfu": "pinfu",
    "All Simples": "tanyao",
    "Pure Double Sequence": "iipeikou",
    "Twice Pure Double Sequence": "ryanpeikou",
    "Seven Pairs": "chiitoitsu",
    "Dora": "dora",
    "Ura Dora": "ura",
    "Red Five": "aka",
    "Red Fives": "aka",
}

YAKUMAN_IDS = frozenset(v[0] for v in TENHOU_YAKU.values() if v[1])
NOT_YAKU = frozenset({"dora", "ura", "aka", "nuki"})


def yaku_by_number(n: int) -> tuple[str, bool]:
    """(canonical id, is yakuman) for a Tenhou yaku number; KeyError when unknown."""
    return TENHOU_YAKU[n]


def yaku_by_name(name: str) -> str:
    """Canonical id for a tenhou.net/6 yaku name; KeyError when unknown."""
    return _NAMES[name.strip()]
