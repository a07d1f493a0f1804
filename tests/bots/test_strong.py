"""The strong bot: its deal-in estimate, push or fold, riichi or dama, and its calls.

Observations are built by hand (``make_obs`` of ``test_bots``); the last test plays
real games with every self-play check.
"""

from __future__ import annotations

from server.bots import BOTS, EfficientBot, StrongBot, make_bot
from server.bots.base import read_hand
from server.bots.danger import Threat, deal_in, read_threats, tile_risk
from server.bots.selfplay import Checks, bot_seed, game_seed, play_game
from server.engine.actions import Action
from server.engine.riichi.rules import preset
from server.engine.tiles import kind, parse_tile
from tests.bots.test_bots import A, act, discards, given, make_obs
from tests.bots.test_defensive import G, K, riichi_view, with_melds


def threat(genbutsu: str = "", weight: float = 1.0) -> Threat:
    return Threat(2, True, False, G(genbutsu), weight, 5200.0)


def sight(**seen: int) -> list[int]:
    s = [1] * 34
    for name, n in seen.items():
        s[K(name[1:] if name.startswith("t") else name)] = n
    return s


def test_registered_as_a_bot_level() -> None:
    assert "strong" in BOTS
    assert isinstance(make_bot("strong", 1), StrongBot)


def test_deal_in_reads_genbutsu_suji_kabe_one_chance_and_honours() -> None:
    t = threat("4m9p")
    s = sight()
    assert deal_in(K("4m"), t, s) == 0 == deal_in(K("9p"), t, s)  # genbutsu
    assert deal_in(K("1m"), t, s) < deal_in(K("1p"), t, s)  # suji of 4m
    assert deal_in(K("7m"), t, s) < deal_in(K("7p"), t, s)
    assert deal_in(K("6p"), t, s) < deal_in(K("5p"), t, s)  # one side ruled out
    # middle tiles the most dangerous, terminals the least of the numbers
    assert deal_in(K("5s"), t, s) > deal_in(K("3s"), t, s) > deal_in(K("1s"), t, s)
    # kabe: with every 6m in sight no two-sided wait on 7m is left (5m6m is needed)
    assert deal_in(K("7s"), t, sight(t6s=4)) < deal_in(K("7s"), t, sight(t6s=3))
    assert deal_in(K("7s"), t, sight(t6s=3)) < deal_in(K("7s"), t, s)  # one chance
    # honours by how many are in sight; none can be left when all four are seen
    honours = [deal_in(K("1z"), t, sight(t1z=n)) for n in (0, 1, 2, 3, 4)]
    assert honours == sorted(honours, reverse=True) and honours[-1] == 0
    # an open hand that may not be ready weighs less; dora cost more
    assert deal_in(K("5s"), threat(weight=0.6), s) < deal_in(K("5s"), t, s)
    assert tile_risk(K("5s"), [t], s, frozenset({K("5s")})) > tile_risk(K("5s"), [t], s, G(""))


def test_threats_are_riichi_and_ready_looking_open_hands() -> None:
    v = riichi_view("123m456p789s1122z", "3z", river="5p8m2z3z", rivers={1: "1m9m7s6s"})
    (r,) = read_threats(v)
    assert r.seat == 2 and r.riichi and r.weight == 1.0
    # seat 1 (plays before seat 2) discarded 1m 9m 7s 6s; the riichi tile was seat 2's
    # 4th discard: seat 1's discards after it are not seen yet (it has only four)
    assert K("5p") in r.genbutsu and K("6s") not in r.genbutsu
    # seat 3 plays after seat 2: its 5th discard and later passed the riichi
    later = riichi_view("123m456p789s1122z", "3z", river="5p8m2z3z", rivers={3: "1m2m3m4m6s7s"})
    (r,) = read_threats(later)
    assert K("6s") in r.genbutsu and K("7s") in r.genbutsu and K("4m") not in r.genbutsu
    # three melds: a threat; two only with dora or a value pon in them
    v = with_melds(make_obs("123m456p789s1122z", "3z"), 1, ["222m", "333p", "444s"])
    assert [(t.seat, t.riichi) for t in read_threats(v)] == [(1, False)]
    assert read_threats(with_melds(make_obs("123m456p789s1122z"), 1, ["222m", "333p"])) == []
    assert read_threats(with_melds(make_obs("123m456p789s1122z"), 1, ["222m", "777z"]))


def test_folds_a_slow_hand_against_riichi_with_genbutsu() -> None:
    hand = "1349m2357p5689s1z"
    v = riichi_view(hand, "6z", river="5p8m2z3z")
    legal = discards(0, hand, "6z")
    assert EfficientBot(0).choose(given(v, legal)).tile != parse_tile("5p")
    assert StrongBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="5p")


def test_pushes_a_valuable_tenpai_with_a_dangerous_tile() -> None:
    # tenpai on 1s-4s (pinfu, 2s dora) after throwing the drawn 5m, a non-suji middle tile
    hand = "234m456p678s23s99s"
    v = riichi_view(hand, "5m", river="1p8p2z3z", dora="1s")
    legal = [*discards(0, hand, "5m"), act(A.RIICHI, tile="5m")]
    pick = StrongBot(0).choose(given(v, legal))
    assert pick.tile == parse_tile("5m")


def test_dama_with_a_yaku_and_value_riichi_otherwise() -> None:
    # tanyao, pinfu, aka, two dora (6s): a mangan without riichi -> dama
    hand = "234m406p678s34s66s"
    legal = [*discards(0, hand, "9m"), act(A.RIICHI, tile="9m")]
    v = given(make_obs(hand, "9m", dora="5s"), legal)
    assert EfficientBot(0).choose(v) == act(A.RIICHI, tile="9m")
    assert StrongBot(0).choose(v) == act(A.DISCARD, tile="9m")
    # no yaku (kanchan, terminals): riichi
    hand = "123m456p789s13s99s"
    legal = [*discards(0, hand, "5z"), act(A.RIICHI, tile="5z")]
    assert StrongBot(0).choose(given(make_obs(hand, "5z"), legal)) == act(A.RIICHI, tile="5z")
    # cheap with a yaku (pinfu alone): riichi too
    hand = "234m456p789s23s99s"
    legal = [*discards(0, hand, "5z"), act(A.RIICHI, tile="5z")]
    assert StrongBot(0).choose(given(make_obs(hand, "5z"), legal)) == act(A.RIICHI, tile="5z")


def _answer(hand: str, tile: str, calls: list[Action], **kw: object) -> Action:
    legal = [*calls, act(A.PASS)]
    v = given(make_obs(hand, last_discard=(3, tile), **kw), legal)  # type: ignore[arg-type]
    return StrongBot(0).choose(v)


def test_calls_keep_a_yaku_and_pay_off() -> None:
    # a value pon (chun) that does not slow the hand
    assert _answer("123m45p789s199s77z", "7z", [act(A.PON, tiles="77z")]) == act(A.PON, tiles="77z")
    # no yakuless call: 5m pon leaves terminals and honours but no yaku
    assert _answer("55m19p77p23s789s11z", "5m", [act(A.PON, tiles="55m")]) == act(A.PASS)
    # a tanyao chi from 2- to 1-shanten: taken, but not against a riichi (only into tenpai)
    chi = act(A.CHI, tiles="56p")
    assert _answer("2458m56p2346s688s", "4p", [chi]) == chi
    legal = given(
        riichi_view("2458m56p2346s688s", river="1z2z3z", last_discard=(3, "4p")), [chi, act(A.PASS)]
    )
    assert StrongBot(0).choose(legal) == act(A.PASS)


def test_toitoi_counts_as_a_yaku_for_pons() -> None:
    v = with_melds(make_obs("11m55p99s2233z8s"), 0, ["444m"])
    h = read_hand(v)
    c = list(h.counts)
    c[K("1m")] -= 2
    assert StrongBot(0)._keeps_yaku(h, c, [K("1m")] * 3)
    c2 = list(h.counts)
    c2[kind(parse_tile("5p"))] -= 2
    c2[K("2z")] -= 1  # a second single: no longer toitoi-shaped
    assert not StrongBot(0)._keeps_yaku(h, c2, [K("5p")] * 3)


def test_plays_full_games_with_every_check() -> None:
    rules = preset("tenhou")
    for g in range(2):
        names = ["strong", "defensive", "strong", "efficient"]
        bots = [make_bot(n, bot_seed("strong", g, s)) for s, n in enumerate(names)]
        state, stats = play_game(rules, game_seed("strong", g), bots, Checks())
        assert not stats.failures, stats.failures[:3]
        assert state.phase == "game_end"
