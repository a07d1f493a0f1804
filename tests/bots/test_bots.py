"""Bots decide from a seat's observation only: most cases here hand them an
observation built by hand, so each rule of the efficient bot is tested in
isolation; the last tests play real games."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from server.bots import BOTS, EfficientBot, RandomBot, TsumogiriBot, make_bot, read_hand
from server.bots.selfplay import Checks, bot_seed, game_seed, play_game
from server.engine import riichi as engine
from server.engine.actions import Action, ActionType
from server.engine.melds import Meld, MeldType
from server.engine.riichi import Observation, RiverTile, SeatInfo
from server.engine.riichi.rules import preset
from server.engine.tiles import EAST, NUM_KINDS, kind, parse_tile, parse_tiles

A = ActionType


def make_obs(
    hand: str,
    drawn: str | None = None,
    *,
    seat: int = 0,
    melds: list[tuple[str, str]] | None = None,
    last_discard: tuple[int, str] | None = None,
    rivers: dict[int, str] | None = None,
    round_wind: int = 0,
    dora: str = "1z",
    kuitan: bool = True,
    legal: Sequence[Action] = (),
) -> Observation:
    """An observation of ``seat`` holding ``hand`` (+ ``drawn``), East dealer."""
    players = []
    for s in range(4):
        own_melds = tuple(
            Meld(MeldType(mt), tuple(parse_tiles(tiles))) for mt, tiles in (melds or [])
        )
        river = tuple(
            RiverTile(kind(t) * 4, t, False, False) for t in parse_tiles((rivers or {}).get(s, ""))
        )
        players.append(
            SeatInfo(s, EAST + s, 25000, False, 13, own_melds if s == seat else (), 0, river)
        )
    return Observation(
        seat=seat,
        rules=preset("standard").with_overrides(kuitan=kuitan),
        phase="play",
        round_wind=round_wind,
        kyoku=0,
        honba=0,
        riichi_sticks=0,
        dealer=0,
        dice=(3, 4),
        scores=(25000,) * 4,
        dora_indicators=tuple(parse_tiles(dora)),
        wall_left=50,
        wall_drawn=66,
        rinshan_drawn=0,
        turn=seat,
        to_act=bool(legal),
        in_turn=last_discard is None,
        last_discard=(last_discard[0], parse_tile(last_discard[1])) if last_discard else None,
        players=tuple(players),
        hand=tuple(parse_tiles(hand)),
        drawn=parse_tile(drawn) if drawn else None,
        legal=tuple(legal),
        result=None,
        final=None,
    )


def given(obs: Observation, legal: Sequence[Action]) -> Observation:
    return obs._replace(legal=tuple(legal), to_act=bool(legal))


def discards(seat: int, hand: str, drawn: str) -> list[Action]:
    tiles = sorted(set(parse_tiles(hand + drawn)))
    return [Action(A.DISCARD, seat, t) for t in tiles]


def act(t: ActionType, seat: int = 0, tile: str | None = None, tiles: str = "") -> Action:
    return Action(
        t, seat, parse_tile(tile) if tile else None, tuple(parse_tiles(tiles)) if tiles else ()
    )


# --- registry ------------------------------------------------------------------


def test_make_bot_by_name() -> None:
    assert set(BOTS) == {"random", "tsumogiri", "efficient", "defensive", "strong"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("tsumogiri"), TsumogiriBot)
    assert isinstance(make_bot("efficient", 3), EfficientBot)
    with pytest.raises(ValueError, match="unknown bot 'mortal'"):
        make_bot("mortal", 1)


def test_bots_refuse_an_empty_decision() -> None:
    for name in BOTS:
        with pytest.raises(ValueError, match="nothing to decide"):
            make_bot(name).choose(make_obs("123m"))


def test_read_hand_counts_what_the_seat_sees() -> None:
    v = make_obs(
        "123m456p78s1z2z",
        "3z",
        melds=[("pon", "555s")],
        rivers={1: "9m9m", 2: "1z"},
        dora="4z",
    )
    h = read_hand(v)
    assert len(h.tiles) == 11 and h.drawn == parse_tile("3z")
    assert h.counts[parse_tile("3z")] == 1
    assert h.visible[parse_tile("9m")] == 2
    assert h.visible[parse_tile("1z")] == 1
    assert h.visible[parse_tile("5s")] == 3
    assert h.visible[parse_tile("4z")] == 1
    assert h.is_open and h.seat_wind == parse_tile("1z") and h.round_wind == parse_tile("1z")


# --- efficient ---------------------------------------------------------------


def test_efficient_takes_tsumo_and_ron() -> None:
    bot = EfficientBot(0)
    v = make_obs("123m456p789s1122z", "1z")
    legal = [*discards(0, "123m456p789s1122z", "1z"), act(A.TSUMO)]
    assert bot.choose(given(v, legal)).type is A.TSUMO
    v = make_obs("123m456p789s1122z", seat=1, last_discard=(0, "2z"))
    legal = [act(A.RON, 1), act(A.PON, 1, tiles="22z"), act(A.PASS, 1)]
    assert bot.choose(given(v, legal)).type is A.RON


def test_efficient_minimises_shanten() -> None:
    # 123m456p789s11z + 58m + 7z drawn: throwing 7z keeps 1-shanten with most ukeire
    hand = "123m58m456p789s11z"
    v = make_obs(hand, "7z")
    a = EfficientBot(0).choose(given(v, discards(0, hand, "7z")))
    assert a == act(A.DISCARD, tile="7z")


def test_efficient_prefers_more_ukeire() -> None:
    # 1-shanten either way; throwing 5z keeps 34m (ryanmen) and 79m (kanchan)
    hand = "34m79m456p789s111z"
    v = make_obs(hand, "5z")
    assert EfficientBot(0).choose(given(v, discards(0, hand, "5z"))) == act(A.DISCARD, tile="5z")


def test_efficient_counts_visible_tiles_in_ukeire() -> None:
    # Tenpai on a tanki either way: keep 9p or keep 4z. With nothing seen, both
    # have 3 left and the honor goes; with three 9p in a kawa, 9p is dead.
    hand = "123m456p789s111z9p"
    v = make_obs(hand, "4z")
    legal = discards(0, hand, "4z")
    assert EfficientBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="4z")
    v2 = make_obs(hand, "4z", rivers={2: "9p9p9p"})
    assert EfficientBot(0).choose(given(v2, legal)) == act(A.DISCARD, tile="9p")


def test_efficient_declares_riichi_when_tenpai_closed() -> None:
    hand = "23m456p789s11z222z"
    v = make_obs(hand, "9p")
    legal = [*discards(0, hand, "9p"), act(A.RIICHI, tile="9p")]
    assert EfficientBot(0).choose(given(v, legal)) == act(A.RIICHI, tile="9p")


def test_efficient_keeps_the_red_five() -> None:
    hand = "50m123p456p789s11z"
    v = make_obs(hand, "1z")
    legal = [act(A.DISCARD, tile=t) for t in ("5m", "0m", "1z")]
    # 1z keeps a shanpon (4 tiles) over a tanki (3); then plain five before red.
    assert EfficientBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="1z")
    legal2 = [act(A.DISCARD, tile=t) for t in ("5m", "0m")]
    assert EfficientBot(0).choose(given(v, legal2)) == act(A.DISCARD, tile="5m")


def test_efficient_pons_yakuhai() -> None:
    hand = "13m456p78s99s5577z"
    v = make_obs(hand, seat=1, last_discard=(0, "7z"))
    legal = [act(A.PON, 1, tiles="77z"), act(A.PASS, 1)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.PON


def test_efficient_never_calls_without_a_yaku() -> None:
    # Pon of 9s would improve shanten but leaves no yaku (terminals + mixed suits).
    hand = "19m456p99s11p2358s"
    v = make_obs(hand, seat=1, last_discard=(0, "9s"))
    legal = [act(A.PON, 1, tiles="99s"), act(A.PASS, 1)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.PASS


def test_efficient_chi_for_tanyao() -> None:
    # All simples: chi of 4m from 23m improves and keeps tanyao (kuitan on).
    hand = "23m456p678s22p577s"
    v = make_obs(hand, seat=1, last_discard=(0, "4m"))
    legal = [act(A.CHI, 1, tiles="23m"), act(A.PASS, 1)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.CHI
    # With terminals in the hand, the same chi has no yaku: pass.
    hand2 = "23m456p678s11p579s"
    v2 = make_obs(hand2, seat=1, last_discard=(0, "4m"))
    assert EfficientBot(0).choose(given(v2, legal)).type is A.PASS


def test_efficient_reads_kuitan_from_the_view() -> None:
    # The same tanyao chi as above, but the view's rules say kuitan is off: no yaku, pass.
    hand = "23m456p678s22p577s"
    legal = [act(A.CHI, 1, tiles="23m"), act(A.PASS, 1)]
    v = make_obs(hand, seat=1, last_discard=(0, "4m"), kuitan=False)
    assert read_hand(v).kuitan is False
    assert EfficientBot(0).choose(given(v, legal)).type is A.PASS


def test_efficient_reads_kuitan_from_a_real_games_view() -> None:
    st = engine.new_game(preset("standard").with_overrides(kuitan=False), b"kuitan off")
    assert read_hand(engine.observe(st, 0)).kuitan is False
    st = engine.new_game(preset("standard"), b"kuitan on")
    assert read_hand(engine.observe(st, 0)).kuitan is True


def test_efficient_passes_a_useless_call() -> None:
    hand = "234m456p678s22p55s"  # tenpai (shanpon); a pon of 5s keeps tenpai, no better
    v = make_obs(hand, seat=1, last_discard=(0, "5s"))
    legal = [act(A.PON, 1, tiles="55s"), act(A.PASS, 1)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.PASS


def test_efficient_kyuushu_only_when_far() -> None:
    far = "19m159p1s1234z258m"  # 9 terminal/honor kinds, many shanten
    v = make_obs(far, "6m")
    legal = [*discards(0, far, "6m"), act(A.KYUUSHU)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.KYUUSHU
    near = "19m19p19s123455z5m"  # with 6z: 12 kinds and a pair, kokushi tenpai
    v2 = make_obs(near, "6z")
    legal2 = [*discards(0, near, "6z"), act(A.KYUUSHU)]
    assert EfficientBot(0).choose(given(v2, legal2)).type is A.DISCARD


def test_efficient_ankan_when_it_does_not_hurt() -> None:
    hand = "1111m456p789s23s5z"
    v = make_obs(hand, "5z")
    legal = [*discards(0, hand, "5z"), act(A.ANKAN, tile="1m")]
    assert EfficientBot(0).choose(given(v, legal)).type is A.ANKAN


# --- tsumogiri and random --------------------------------------------------------


def test_tsumogiri_throws_the_drawn_tile_and_never_calls() -> None:
    hand = "123m456p789s1123z"
    v = make_obs(hand, "9m")
    assert TsumogiriBot(0).choose(given(v, discards(0, hand, "9m"))) == act(A.DISCARD, tile="9m")
    v2 = make_obs(hand, seat=1, last_discard=(0, "1z"))
    legal = [act(A.PON, 1, tiles="11z"), act(A.PASS, 1)]
    assert TsumogiriBot(0).choose(given(v2, legal)).type is A.PASS


def test_random_is_seeded_and_legal() -> None:
    hand = "123m456p789s1234z"
    v = make_obs(hand, "9m")
    legal = discards(0, hand, "9m")
    picks = [RandomBot(7).choose(given(v, legal)) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    bot = RandomBot(7)
    seq = [bot.choose(given(v, legal)) for _ in range(40)]
    assert all(a in legal for a in seq)
    assert len(set(seq)) > 3  # it really varies


# --- real games ------------------------------------------------------------------


@pytest.mark.parametrize("red", [True, False])
def test_read_hand_sees_exactly_what_the_seat_may(red: bool) -> None:
    """At every decision (calls, kans, riichi included), for every seat: the hand is
    the seat's own concealed tiles, and ``visible`` counts every tile shown outside it
    (melds, rivers but called tiles, dora indicators), as the state has them."""
    rules = preset("standard").with_overrides(red_fives=3 if red else 0)
    names = ["efficient", "random", "efficient", "random"]
    checked = 0
    for g in range(3):
        st = engine.new_game(rules, game_seed("hand-of-state", g), g % 4)
        bots = [make_bot(n, bot_seed("hand-of-state", g, s)) for s, n in enumerate(names)]
        while st.phase != "game_end":
            if st.phase == "round_end":
                engine.next_round(st)
                continue
            for seat in range(4):
                h = read_hand(engine.observe(st, seat))
                assert h.counts == st.counts(seat)
                assert sorted(h.tiles) == sorted(st.concealed(seat))
                assert h.drawn == (st.tile(st.drawn[seat]) if st.drawn[seat] is not None else None)
                shown = [0] * NUM_KINDS
                for s in range(4):
                    for f in st.melds[s]:
                        for t in f.ids:
                            shown[t >> 2] += 1
                    for r in st.rivers[s]:
                        if not r.called:
                            shown[r.tid >> 2] += 1
                for t in st.dora_indicators():
                    shown[kind(t)] += 1
                assert h.visible == shown
                checked += 1
            seat = min(engine.waiting_on(st))
            engine.apply(st, bots[seat].choose(engine.observe(st, seat)))
    assert checked > 1000


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_deterministic_games(name: str) -> None:
    rules = preset("standard").with_overrides(length="tonpuu")

    def play() -> engine.GameState:
        bots = [make_bot(name, bot_seed("det", 0, s)) for s in range(4)]
        st, stats = play_game(rules, game_seed("det", 0), bots, Checks.none())
        assert not stats.failures
        return st

    a, b = play(), play()
    assert a.phase == "game_end"
    assert a.log == b.log and a.scores == b.scores


def test_efficient_beats_random() -> None:
    """Two efficient bots against two random ones win nearly every round."""
    rules = preset("standard").with_overrides(length="tonpuu")
    rng = random.Random(3)
    wins = {"efficient": 0, "random": 0}
    for g in range(2):
        names = ["efficient", "random", "efficient", "random"]
        bots = [make_bot(n, rng.randrange(1 << 30)) for n in names]
        st, stats = play_game(rules, game_seed("duel", g), bots, Checks.none())
        assert not stats.failures
        for r in st.round_results:
            for w in r.wins:
                wins[names[w.seat]] += 1
    assert wins["efficient"] >= 6 and wins["efficient"] > 3 * wins["random"]


class _CheatingBot:
    """Plays randomly, but at its 5th decision discards a kind it does not hold."""

    name = "cheater"

    def __init__(self) -> None:
        self.inner = RandomBot(1)
        self.n = 0
        self.bad: Action | None = None

    def choose(self, obs: Observation) -> Action:
        self.n += 1
        if self.n == 5:
            assert obs.seat is not None
            absent = read_hand(obs).counts.index(0)
            self.bad = Action(A.DISCARD, obs.seat, absent, ())
            return self.bad
        return self.inner.choose(obs)


@pytest.mark.parametrize("checks", [Checks.none(), Checks()])
def test_self_play_reports_an_illegal_choice(checks: Checks) -> None:
    rules = preset("standard").with_overrides(length="tonpuu")
    cheater = _CheatingBot()
    bots = [cheater, RandomBot(2), RandomBot(3), RandomBot(4)]
    st, stats = play_game(rules, game_seed("cheat", 0), bots, checks)
    assert len(stats.failures) == 1
    assert f"chose {cheater.bad!r}, not a legal action" in stats.failures[0]
    assert st.phase == "play"  # the game stopped there
    assert stats.decisions == len(st.log)  # the illegal choice is not counted
