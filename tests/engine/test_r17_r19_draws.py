"""Exhaustive draw and nagashi mangan (R17), abortive draws (R18), honba and dealer (R19)."""

import pytest

from server.engine.actions import IllegalAction
from server.engine.riichi import apply, next_round
from server.engine.tiles import parse_tiles, tile_str
from tests.engine.scenario import act, action, ev, game, pass_all, tsumogiri, types

# seat 1 tenpai (tanki 5p); seat 2 waits only on 1z, which it holds all four of (karaten).
DRAW_HANDS = [
    "2468m2468p24567s",
    "234m345m456678s5p",
    "1111z234p567p888s",
    "3579m3579p3579s5m",
]


def test_r17_exhaustive_draw_tenpai_payments_and_karaten_is_noten() -> None:
    st = game(DRAW_HANDS, honba=1, sticks=1)
    evs = tsumogiri(st, 70)
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "exhaustive"
    assert r.data["tenpai"] == [1]
    assert r.data["hands"] == {
        "1": ["2m", "3m", "3m", "4m", "4m", "5m", "5p", "4s", "5s", "6s", "6s", "7s", "8s"]
    }
    assert r.data["deltas"] == [-1000, 3000, -1000, -1000]
    assert st.scores == [24000, 28000, 24000, 24000] and st.riichi_sticks == 1
    next_round(st)
    # R19: dealer noten, the deal passes; a draw adds a honba; sticks stay
    assert st.dealer == 1 and st.honba == 2 and st.riichi_sticks == 1


def test_r17_nagashi_mangan_replaces_tenpai_payments() -> None:
    draws: list[str | None] = [None] * 70
    yaochu = "1m1m1m1m9m9m9m1p1p1p1p9p9p9p1s1s1s"
    for i, t in enumerate(parse_tiles(yaochu)):
        draws[3 + 4 * i] = tile_str(t)
    st = game(DRAW_HANDS, draws=draws)
    evs = tsumogiri(st, 70)
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "nagashi_mangan" and r.data["nagashi"] == [3]
    # a non-dealer's mangan tsumo: dealer 4000, others 2000; seat 1's tenpai earns nothing
    assert r.data["deltas"] == [-4000, -2000, -2000, 8000]
    next_round(st)
    assert st.dealer == 1 and st.honba == 1  # dealer noten: as an exhaustive draw


def test_r18_kyuushu_kyuuhai_on_the_first_draw_only() -> None:
    hands = ["192345m19p19s123z", "19m1239p159s4567z", None, None]
    st = game(hands, draws="5p" + "8p" + "8m8m" + "8s")
    assert "kyuushu" in types(st, 0)
    act(st, 0, "discard", "5p")
    pass_all(st)
    assert "kyuushu" in types(st, 1)
    tsumogiri(st, 3)
    assert st.turn == 0 and "kyuushu" not in types(st, 0)  # second draw
    with pytest.raises(IllegalAction):
        apply(st, action(0, "kyuushu"))


def test_r18_kyuushu_kyuuhai_ends_the_round_dealer_stays() -> None:
    hands = ["192345m19p19s123z", None, None, None]
    st = game(hands, draws="5p", honba=2)
    evs = act(st, 0, "kyuushu")
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "kyuushu_kyuuhai" and "0" in r.data["hands"]
    assert r.data["deltas"] == [0, 0, 0, 0]
    next_round(st)
    assert st.dealer == 0 and st.honba == 3


def test_r18_suufon_renda() -> None:
    hands = ["147m258p369s2341z", "147p258s369m1567z", "258m369p147s1567z", "369m147p258s1567z"]
    st = game(hands)
    evs = []
    for s in range(4):
        evs += act(st, s, "discard", "1z")
        evs += pass_all(st)
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "suufon_renda"


def test_r18_suucha_riichi_when_the_fourth_stick_is_placed() -> None:
    hands = ["123m456m789m1122z", "123p456p789p3344z", "123s456s789s5566z", "111m999m111p999p7z"]
    st = game(hands, draws="3s" + "4m" + "5p" + "6m")
    evs = []
    for s, t in zip(range(4), ("3s", "4m", "5p", "6m"), strict=True):
        assert "riichi" in types(st, s)
        evs += act(st, s, "riichi", t)
        evs += pass_all(st)
    assert len(ev(evs, "riichi_accepted")) == 4
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "suucha_riichi"
    assert st.scores == [24000] * 4 and st.riichi_sticks == 4
    next_round(st)
    assert st.dealer == 0 and st.honba == 1 and st.riichi_sticks == 4


def test_r19_dealer_tsumo_keeps_the_deal_and_adds_honba() -> None:
    hands = ["234m345m456678s5p", None, None, None]
    st = game(hands, draws="9m" + "1m1m1m" + "5p", honba=1)
    tsumogiri(st, 4)
    evs = act(st, 0, "tsumo")
    (w,) = ev(evs, "agari")[0].data["winners"]
    # dealer tsumo 30 fu 2 han (tsumo, tanyao) = 1000 all, plus 100 per seat for the honba
    assert w["deltas"] == [3300, -1100, -1100, -1100]
    next_round(st)
    assert st.dealer == 0 and st.honba == 2


def test_r17_copies_in_own_melds_do_not_make_karaten() -> None:
    # seat 1: 33m567p12s + kakan 3333s + pon 777z waits on 3s (penchan), all four
    # 3s in its own kan: tenpai, as Tenhou and Mahjong Soul score it
    hands = [
        "3s2468m2468p9p145z",
        "33m567p12s33s77z9m1z",
        "7z1357m1357p579s2z",
        "468m1389p468s346z",
    ]
    draws: list[str | None] = [None] * 70
    draws[5] = "3s"  # seat 1's first own draw
    st = game(hands, draws=draws)
    act(st, 0, "discard", "3s")
    act(st, 1, "pon", tiles="3s3s")
    pass_all(st)
    act(st, 1, "discard", "9m")
    pass_all(st)
    act(st, 2, "discard", "7z")
    act(st, 1, "pon", tiles="7z7z")
    pass_all(st)
    act(st, 1, "discard", "1z")
    pass_all(st)
    tsumogiri(st, 3)
    act(st, 1, "kakan", "3s")
    pass_all(st)
    tsumogiri(st, 1)  # the rinshan tile
    assert st.concealed(1) == parse_tiles("33m567p12s")
    assert st.waits[1] == [parse_tiles("3s")[0]] and st.is_tenpai_at_draw(1)
    evs = tsumogiri(st, st.live_left() + 1)
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["tenpai"] == [1]
