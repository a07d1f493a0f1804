"""The live mjai feed: each seat's events as the export writes them, masked for it,
and mjai replies read back as legal actions."""

from __future__ import annotations

from typing import Any

from server.bots import make_bot
from server.bots.selfplay import Checks, game_seed, play_game
from server.engine.actions import Action, ActionType
from server.engine.events import Event
from server.engine.riichi.observe import Observation
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.engine.tiles import parse_tile, parse_tiles
from server.records.importer import record_events
from server.records.mjai import export_mjai
from server.records.mjai_live import REACH, MjaiFeed, mjai_name, reply_action
from server.records.record import GameRecord

A = ActionType


class Recorder:
    """One of our bots that also keeps every event it is shown."""

    def __init__(self, name: str, seed: int) -> None:
        self.bot = make_bot(name, seed)
        self.name = name
        self.events: list[Event] = []

    def see(self, events: Any) -> None:
        self.events.extend(events)

    def choose(self, obs: Observation) -> Action:
        a: Action = self.bot.choose(obs)
        return a


def _masked(export: list[dict[str, Any]], actor: int) -> list[dict[str, Any]]:
    out = []
    for e in export:
        e = dict(e)
        if e["type"] == "start_kyoku":
            e["tehais"] = [h if i == actor else ["?"] * 13 for i, h in enumerate(e["tehais"])]
        if e["type"] == "tsumo" and e["actor"] != actor:
            e["pai"] = "?"
        out.append(e)
    return out


def test_each_seats_feed_is_the_export_masked_for_it() -> None:
    kinds: set[str] = set()
    for g, first_dealer in ((0, 0), (1, 2), (2, 1)):
        rules = preset("tenhou").with_overrides(length="tonpuu")
        bots = [Recorder(n, 10 * g + s) for s, n in enumerate(("random", "efficient") * 2)]
        state, stats = play_game(
            rules, game_seed("feed", g), bots, Checks.none(), first_dealer=first_dealer
        )
        assert not stats.failures
        record = GameRecord.from_state(RIICHI, state, ["a", "b", "c", "d"])
        export = export_mjai(record_events(record), ["a", "b", "c", "d"])
        for seat, bot in enumerate(bots):
            feed = MjaiFeed(seat)
            feed.add_all(bot.events)
            got = feed.take()
            assert got[0]["type"] == "start_game" and got[0]["id"] == feed.actor
            assert feed.actor == (seat - first_dealer) % 4
            assert got[1:] == _masked(export, feed.actor)[1:], (g, seat)
            kinds.update(e["type"] for e in got)
    # the games covered calls, kans with their dora, riichi and both results
    assert {"pon", "chi", "dora", "reach", "reach_accepted", "hora", "ryukyoku"} <= kinds
    assert kinds & {"daiminkan", "kakan", "ankan"}


def test_take_hands_over_each_event_once() -> None:
    rules = preset("tenhou").with_overrides(length="tonpuu")
    bots = [Recorder("efficient", s) for s in range(4)]
    play_game(rules, game_seed("feed", 9), bots, Checks.none())
    feed = MjaiFeed(1)
    half = len(bots[1].events) // 2
    feed.add_all(bots[1].events[:half])
    first = feed.take()
    feed.add_all(bots[1].events[half:])
    whole = MjaiFeed(1)
    whole.add_all(bots[1].events)
    assert first + feed.take() == whole.take()
    assert feed.take() == []


def _acts(*specs: tuple[ActionType, str | None, str]) -> tuple[Action, ...]:
    return tuple(
        Action(t, 1, parse_tile(tile) if tile else None, tuple(parse_tiles(tiles)))
        for t, tile, tiles in specs
    )


def test_replies_name_legal_actions_or_nothing() -> None:
    legal = _acts(
        (A.DISCARD, "5m", ""),
        (A.DISCARD, "0m", ""),
        (A.DISCARD, "1z", ""),
        (A.RIICHI, "1z", ""),
        (A.TSUMO, None, ""),
        (A.ANKAN, "7p", ""),
        (A.KAKAN, "3s", ""),
    )
    assert mjai_name(parse_tile("0m")) == "5mr" and mjai_name(parse_tile("7z")) == "C"
    assert reply_action({"type": "dahai", "pai": "5mr"}, legal) == legal[1]
    assert reply_action({"type": "dahai", "pai": "5m"}, legal) == legal[0]
    assert reply_action({"type": "dahai", "pai": "E"}, legal) == legal[2]
    assert reply_action({"type": "reach", "actor": 1}, legal) == REACH
    assert reply_action({"type": "dahai", "pai": "E"}, legal, declared=True) == legal[3]
    assert reply_action({"type": "dahai", "pai": "5m"}, legal, declared=True) is None
    assert reply_action({"type": "hora", "actor": 1, "target": 1}, legal) == legal[4]
    assert reply_action({"type": "ankan", "consumed": ["7p"] * 4}, legal) == legal[5]
    assert reply_action({"type": "kakan", "pai": "3s", "consumed": ["3s"] * 3}, legal) == legal[6]
    # nothing legal, or not an action at all
    for bad in (
        {"type": "dahai", "pai": "9s"},
        {"type": "dahai", "pai": "xx"},
        {"type": "dahai"},
        {"type": "none"},
        {"type": "pon", "consumed": ["5m", "5m"]},
        {"type": "ryukyoku"},
        {"type": 3},
        ["dahai"],
        None,
        "dahai",
    ):
        assert reply_action(bad, legal) is None, bad


def test_call_replies_match_the_tiles_used() -> None:
    legal = _acts(
        (A.PON, None, "55m"),
        (A.PON, None, "05m"),
        (A.CHI, None, "46m"),
        (A.CHI, None, "67m"),
        (A.PASS, None, ""),
        (A.RON, None, ""),
    )
    assert reply_action({"type": "pon", "consumed": ["5m", "5mr"]}, legal) == legal[1]
    assert reply_action({"type": "pon", "consumed": ["5m", "5m"]}, legal) == legal[0]
    assert reply_action({"type": "chi", "consumed": ["6m", "7m"]}, legal) == legal[3]
    assert reply_action({"type": "chi", "consumed": ["3m", "4m"]}, legal) is None
    assert reply_action({"type": "chi", "consumed": "6m7m"}, legal) is None
    assert reply_action({"type": "none"}, legal) == legal[4]
    assert reply_action({"type": "hora", "actor": 1, "target": 0}, legal) == legal[5]
    assert reply_action({"type": "daiminkan", "consumed": ["5m"] * 3}, legal) is None
