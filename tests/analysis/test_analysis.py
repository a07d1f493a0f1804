"""server.analysis: numbers checked against the engine's own shanten/ukeire on positions
rebuilt here from the event stream, bots' choices, danger categories, summaries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.analysis import analyse, imported_moments, played_moments
from server.analysis.danger import band, tile_danger
from server.bots import make_bot
from server.engine import find_variant
from server.engine.actions import Action
from server.engine.riichi import observe
from server.engine.riichi.shanten import shanten
from server.engine.riichi.ukeire import ukeire
from server.engine.tiles import kind, parse_tile, tile_str
from server.records.importer import import_log

FIXTURES = Path(__file__).parents[1] / "fixtures"
MJLOG = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"
SANMA = FIXTURES / "tenhou-sanma" / "2021010217gm-00b9-0000-3eb2e915.json"
_K = {tile_str(t): kind(t) for t in range(37)}


def split_hands(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    hands: list[list[dict[str, Any]]] = []
    for e in events:
        if e["type"] == "round_start":
            hands.append([])
        if hands:
            hands[-1].append(e)
    return hands


def position(
    events: list[dict[str, Any]], upto: int, seat: int, seats: int
) -> tuple[list[int], list[int]]:
    """The seat's concealed counts and the counts it sees elsewhere, after events[:upto]
    of one round: folded here from the stream, independently of the analysis."""
    own = [0] * 34
    seen = [0] * 34
    for t in events[0]["data"]["dora_indicators"]:
        seen[_K[t]] += 1
    for e in events[1:upto]:
        d, typ = e["data"], e["type"]
        if typ == "haipai" and d["seat"] == seat:
            for t in d["tiles"]:
                own[_K[t]] += 1
        elif typ == "draw" and d["seat"] == seat:
            own[_K[d["tile"]]] += 1
        elif typ == "discard":
            if d["seat"] == seat:
                own[_K[d["tile"]]] -= 1
            seen[_K[d["tile"]]] += 1  # in the river, or in a meld once called
        elif typ == "call":
            mine = list(d["tiles"])
            mine.remove(d["called"])
            for t in mine:
                if d["seat"] == seat:
                    own[_K[t]] -= 1
                seen[_K[t]] += 1
        elif typ == "kan":
            tiles = [d["added"]] if d["meld"] == "kakan" else d["tiles"]
            for t in tiles:
                if d["seat"] == seat:
                    own[_K[t]] -= 1
                seen[_K[t]] += 1
        elif typ == "nuki":
            if d["seat"] == seat:
                own[_K["4z"]] -= 1
            seen[_K["4z"]] += 1
        elif typ == "new_dora":
            seen[_K[d["indicator"]]] += 1
    if seats == 3:
        for k in range(1, 8):
            seen[k] = 4  # 2m-8m are not in the game
    return own, seen


def check_against_engine(events: list[dict[str, Any]], a: Any, seats: int) -> int:
    hands = split_hands(events)
    checked = 0
    for seat in range(seats):
        for d in a.decisions[seat]:
            if not d.turn:
                continue
            own, seen = position(hands[d.hand], d.event, seat, seats)
            assert d.shanten == shanten(own)
            ev = hands[d.hand][d.event]
            # the event the decision caused is the seat's (a tsumo: the agari of it)
            if ev["type"] == "agari":
                assert ev["data"]["winners"][0]["seat"] == seat
            elif ev["type"] != "ryuukyoku":  # kyuushu kyuuhai
                assert ev["data"]["seat"] == seat
            for c in d.candidates:
                k = kind(c.tile)
                own[k] -= 1
                seen[k] += 1
                assert c.shanten == shanten(own), (d, c)
                want = ukeire(own, seen)
                if seats == 3:  # 2m-8m are not in the game: not listed
                    want = {x: n for x, n in want.items() if not 1 <= x <= 7}
                assert dict(c.ukeire) == want, (d.hand, d.event, c)
                own[k] += 1
                seen[k] -= 1
                checked += 1
    return checked


@pytest.mark.parametrize("path", [MJLOG, SANMA], ids=["four", "sanma"])
def test_imported_numbers_are_the_engines_on_each_position(path: Path) -> None:
    game = import_log(path.read_bytes(), path.name)
    rep = imported_moments(game.events, game.rules)
    a = analyse(rep)
    assert a.seats == game.rules.seats
    assert a.hands == sum(e["type"] == "round_start" for e in game.events)
    assert check_against_engine(game.events, a, a.seats) > 500
    # each turn's actual action is what the stream shows at that place; an answer to a
    # discard (a call offered) points at that discard, by another seat
    hands = split_hands(game.events)
    answers = [d for ds in a.decisions for d in ds if not d.turn]
    assert answers
    for d in answers:
        ev = hands[d.hand][d.event]
        assert ev["type"] in ("discard", "kan", "nuki") and ev["data"]["seat"] != d.seat
        assert not d.candidates
    for seat in range(a.seats):
        for d in a.decisions[seat]:
            ev = hands[d.hand][d.event]
            if d.chosen(d.actual) is not None and d.actual.tile is not None:
                assert ev["type"] == "discard" and ev["data"]["tile"] == tile_str(d.actual.tile)
                assert ev["data"]["riichi"] == d.riichi


def _self_play(level: str, seed: bytes, rules: str = "standard") -> tuple[Any, Any, list[Action]]:
    """A tonpuu played by one bot level at every seat, as a table records it."""
    variant = find_variant("sanma" if rules == "tenhou-sanma" else "riichi")
    options = variant.options({"preset": rules, "length": "tonpuu"})
    st = variant.new_game(options, seed, 0)
    bots = [make_bot(level, s) for s in range(variant.seats)]
    actions: list[Action] = []
    while variant.phase(st) != "game_end":
        if variant.phase(st) == "round_end":
            variant.next_round(st)
            continue
        seat = min(variant.waiting_on(st))
        a = bots[seat].choose(observe(st, seat))
        variant.apply(st, a)
        actions.append(a)
    return variant, options, actions


def test_played_game_agrees_with_the_bot_that_played_it() -> None:
    variant, options, actions = _self_play("efficient", b"analysis-1")
    rep = played_moments(variant, options, b"analysis-1", actions, 0)
    a = analyse(rep)
    for s in a.summaries:
        assert s.discards > 10
        # the efficient bot played every seat: its choice is the actual one, always
        assert s.agree_efficient == s.discards
    turns = [d for ds in a.decisions for d in ds if d.turn]
    assert all(d.actual == d.efficient for d in turns)
    # every tenpai discard lists its waits with copies left, as the engine's hints do
    assert any(d.waits for d in turns)
    assert all(d.after_shanten == 0 for d in turns if d.waits)


def test_sanma_played_game_replays() -> None:
    variant, options, actions = _self_play("defensive", b"analysis-2", "tenhou-sanma")
    a = analyse(played_moments(variant, options, b"analysis-2", actions, 0))
    assert a.seats == 3 and len(a.summaries) == 3
    assert all(s.agree_defensive == s.discards for s in a.summaries)


def _seen(**counts: int) -> list[int]:
    out = [0] * 34
    for name, n in counts.items():
        out[kind(parse_tile(name[1:] if name.startswith("t") else name))] = n
    return out


def K(t: str) -> int:
    return kind(parse_tile(t))


def keys(d: Any) -> set[str]:
    return {k for k, _ in d.reasons}


def test_danger_categories_on_constructed_positions() -> None:
    none = [0] * 34
    river = {K("4m"), K("1z")}
    # genbutsu: safe
    g = tile_danger(K("4m"), 1, river, none, set())
    assert g.level == 0 and keys(g) == {"genbutsu"} and band(g.level) == "safe"
    # 1m and 7m are suji of 4m: both sides of 1m/7m's two-sided waits... 1m has one side
    s1 = tile_danger(K("1m"), 1, river, none, set())
    assert keys(s1) == {"terminal", "suji"} and s1.level == 3
    # 7m has one two-sided wait (56), whose other tile 4m is genbutsu: suji
    s7 = tile_danger(K("7m"), 1, river, none, set())
    assert keys(s7) == {"suji"} and s7.level == 5
    # 4s with 1s genbutsu: the 23 side is ruled out, the 56 side is open
    h4 = tile_danger(K("4s"), 1, {K("1s")}, none, set())
    assert keys(h4) == {"half_suji", "no_suji"} and s7.level < h4.level < 10
    # a middle tile with no information: the most dangerous of the plain ones
    m5 = tile_danger(K("5p"), 1, river, none, set())
    assert keys(m5) == {"no_suji"} and m5.level == 10 and band(m5.level) == "high"
    # kabe: all four 8s seen: 9s cannot be waited on two-sided
    kb = tile_danger(K("9s"), 1, river, _seen(**{"8s": 4}), set())
    assert "kabe" in keys(kb) and kb.level == 3
    # one chance: three 8s seen: 9s less likely than with none seen
    oc = tile_danger(K("9s"), 1, river, _seen(**{"8s": 3}), set())
    plain = tile_danger(K("9s"), 1, river, none, set())
    assert "one_chance" in keys(oc) and kb.level < oc.level < plain.level
    # honours by copies in sight; genbutsu honour is safe
    assert tile_danger(K("2z"), 1, river, _seen(**{"2z": 3}), set()).level == 1
    assert tile_danger(K("2z"), 1, river, none, set()).level == 4
    assert dict(tile_danger(K("2z"), 1, river, _seen(**{"2z": 2}), set()).reasons)["honor"] == 2
    assert tile_danger(K("1z"), 1, river, none, set()).level == 0
    # dora proximity: the dora itself, and tiles within two of it, are worse
    d = tile_danger(K("5p"), 1, river, none, {K("5p")})
    assert "dora" in keys(d) and d.level == m5.level + 2
    near = tile_danger(K("3p"), 1, river, none, {K("5p")})
    assert "dora_near" in keys(near)
    assert near.level == tile_danger(K("3p"), 1, river, none, set()).level + 1
    # let go after the threat's riichi: as safe as its own discards
    p = tile_danger(K("5p"), 1, river, none, set(), {K("5p")})
    assert p.level == 0 and keys(p) == {"passed"}
    # three in sight: pair and triplet waits unlikely
    s3 = tile_danger(K("5p"), 1, river, _seen(**{"5p": 3}), set())
    assert "seen3" in keys(s3) and s3.level == m5.level - 2


def test_deal_ins_carry_the_danger_of_the_tile_thrown() -> None:
    game = import_log(MJLOG.read_bytes(), MJLOG.name)
    a = analyse(imported_moments(game.events, game.rules))
    hands = split_hands(game.events)
    ins = [k for s in a.summaries for k in s.deal_ins]
    rons = [
        (i, w["from_seat"])
        for i, h in enumerate(hands)
        for e in h
        if e["type"] == "agari"
        for w in e["data"]["winners"]
        if w["from_seat"] is not None
    ]
    assert sorted((k.hand, s.seat) for s in a.summaries for k in s.deal_ins) == sorted(rons)
    for k in ins:
        ev = hands[k.hand][k.event]
        assert ev["type"] == "discard" and ev["data"]["tile"] == tile_str(k.tile)
        assert (k.level is None) == (not k.threats)


def test_passed_tiles_were_discarded_after_the_riichi_and_not_won_on() -> None:
    """Every "passed" reason names a kind some other seat discarded after the threat's
    riichi declaration, before the decision, outside the threat's own river."""
    found = 0
    for path in sorted((FIXTURES / "mjx" / "mjlog").glob("*.mjlog"))[:4]:
        game = import_log(path.read_bytes(), path.name)
        a = analyse(imported_moments(game.events, game.rules))
        hands = split_hands(game.events)
        for ds in a.decisions:
            for d in ds:
                for c in d.candidates:
                    for td in c.danger:
                        if ("passed", None) not in td.reasons:
                            continue
                        evs = hands[d.hand][: d.event]
                        decl = next(
                            i
                            for i, e in enumerate(evs)
                            if e["type"] == "discard"
                            and e["data"]["seat"] == td.threat
                            and e["data"]["riichi"]
                        )
                        k = kind(c.tile)
                        after = [
                            e["data"]
                            for e in evs[decl + 1 :]
                            if e["type"] == "discard" and e["data"]["seat"] != td.threat
                        ]
                        assert any(kind(parse_tile(x["tile"])) == k for x in after)
                        own = [
                            kind(parse_tile(e["data"]["tile"]))
                            for e in evs
                            if e["type"] == "discard" and e["data"]["seat"] == td.threat
                        ]
                        assert k not in own  # else it would read genbutsu
                        found += 1
    assert found > 0
