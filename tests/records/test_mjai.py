"""mjai export: tile names, event shapes, and a replay of each export tracking hands and scores."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from server.records.importer import record_events
from server.records.mjai import dumps_mjai, export_mjai, mjai_tile
from server.records.model import RecordError
from tests.records.test_import import ALL_LOGS, FIXTURES, bot_game, imported

PAI = re.compile(r"^(?:[1-9][mps]|5[mps]r|[ESWNPFC])$")


def _plain(p: str) -> str:
    return p[:2] if p.endswith("r") else p


class MjaiReplay:
    """Replays mjai events the way a reader (Mortal, mjai-reviewer) does, checking each one."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.lines = lines
        self.scores: list[int] | None = None
        self.kyotaku = 0
        self.kyoku_count = 0
        self.horas = 0

    def fail(self, i: int, msg: str) -> None:
        raise AssertionError(f"line {i + 1} {self.lines[i]}: {msg}")

    def run(self) -> None:
        lines = self.lines
        assert lines[0]["type"] == "start_game" and len(lines[0]["names"]) == 4
        assert lines[-1]["type"] == "end_game"
        hands: list[list[str]] = []
        melds: list[list[tuple[str, list[str]]]] = []
        last: dict[str, Any] | None = None
        for i, e in enumerate(lines[1:-1], 1):
            for key in ("pai", "dora_marker"):
                if key in e and not PAI.match(e[key]):
                    self.fail(i, f"bad tile name {e[key]!r}")
            for p in e.get("consumed", []):
                if not PAI.match(p):
                    self.fail(i, f"bad tile name {p!r}")
            t = e["type"]
            a = e.get("actor")
            if t == "start_kyoku":
                self.kyoku_count += 1
                if self.scores is not None and e["scores"] != self.scores:
                    self.fail(i, f"scores {e['scores']} but the last round left {self.scores}")
                if self.scores is not None and e["kyotaku"] != self.kyotaku:
                    self.fail(i, f"kyotaku {e['kyotaku']}, expected {self.kyotaku}")
                self.scores = list(e["scores"])
                self.kyotaku = e["kyotaku"]
                hands = [list(h) for h in e["tehais"]]
                melds = [[], [], [], []]
                assert all(len(h) == 13 for h in hands), "tehais of 13"
                assert PAI.match(e["dora_marker"]) and e["bakaze"] in "ESWN"
            elif t == "tsumo":
                hands[a].append(e["pai"])
                if len(hands[a]) % 3 != 2:
                    self.fail(i, "draw into a hand that is not waiting for a tile")
            elif t == "dahai":
                if e["pai"] not in hands[a]:
                    self.fail(i, f"discards {e['pai']} not in hand {sorted(hands[a])}")
                j = i - 1
                while lines[j]["type"] == "dora":  # a minkan's dora: after the rinshan draw
                    j -= 1
                if e["tsumogiri"] and not (
                    lines[j]["type"] in ("tsumo", "reach") and lines[j].get("actor") == a
                ):
                    self.fail(i, "tsumogiri without a draw just before")
                hands[a].remove(e["pai"])
            elif t == "reach":
                if self.lines[i + 1]["type"] != "dahai" or self.lines[i + 1]["actor"] != a:
                    self.fail(i, "reach not followed by the declarer's dahai")
            elif t == "reach_accepted":
                assert self.scores is not None
                self.scores[a] -= 1000
                self.kyotaku += 1
            elif t in ("chi", "pon", "daiminkan"):
                # Only the riichi stick may come between a discard and its call.
                j = i - 1
                while lines[j]["type"] == "reach_accepted":
                    j -= 1
                if not (lines[j]["type"] == "dahai" and lines[j]["actor"] == e["target"]):
                    self.fail(i, "call not right after the target's discard")
                if lines[j]["pai"] != e["pai"]:
                    self.fail(i, f"calls {e['pai']}, the discard was {lines[j]['pai']}")
                if t == "chi" and e["target"] != (a + 3) % 4:
                    self.fail(i, "chi from a seat other than kamicha")
                want = {"chi": 2, "pon": 2, "daiminkan": 3}[t]
                if len(e["consumed"]) != want:
                    self.fail(i, f"{t} consumes {want} tiles")
                for p in e["consumed"]:
                    if p not in hands[a]:
                        self.fail(i, f"consumes {p} not in hand")
                    hands[a].remove(p)
                melds[a].append((t, [e["pai"], *e["consumed"]]))
            elif t == "kakan":
                k = _plain(e["pai"])
                pon = [m for m in melds[a] if m[0] == "pon" and _plain(m[1][0]) == k]
                if not pon or sorted(pon[0][1]) != sorted(e["consumed"]):
                    self.fail(i, "kakan without the matching pon")
                hands[a].remove(e["pai"])
                melds[a].remove(pon[0])
                melds[a].append(("kakan", [*pon[0][1], e["pai"]]))
            elif t == "ankan":
                if len({_plain(p) for p in e["consumed"]}) != 1 or len(e["consumed"]) != 4:
                    self.fail(i, "ankan of 4 tiles of one kind")
                for p in e["consumed"]:
                    hands[a].remove(p)
                melds[a].append(("ankan", e["consumed"]))
            elif t == "nukidora":  # sanma: a north set aside, a replacement tsumo follows
                if e["pai"] != "N" or "N" not in hands[a] or len(hands[a]) % 3 != 2:
                    self.fail(i, "nukidora of a north not in a hand in turn")
                hands[a].remove("N")
            elif t == "hora":
                assert self.scores is not None
                self.horas += 1
                size = len(hands[a]) + (0 if e["target"] == a else 1)
                if size != 14 - 3 * len(melds[a]):
                    self.fail(i, f"a win with {size} concealed tiles and {len(melds[a])} melds")
                j = i - 1
                while lines[j]["type"] in ("dora", "hora"):
                    j -= 1
                if e["target"] != a and lines[j]["type"] not in (
                    "dahai",
                    "kakan",
                    "ankan",
                    "nukidora",
                ):
                    self.fail(i, "ron not after a discard, kan or north set aside")
                if sum(e["deltas"]) not in (0, 1000 * self.kyotaku):
                    self.fail(i, f"deltas {e['deltas']} do not add up (kyotaku {self.kyotaku})")
                if sum(e["deltas"]) > 0:
                    self.kyotaku = 0
                self.scores = [s + d for s, d in zip(self.scores, e["deltas"], strict=True)]
            elif t == "ryukyoku":
                assert self.scores is not None
                self.scores = [s + d for s, d in zip(self.scores, e["deltas"], strict=True)]
            elif t == "dora":
                pass
            elif t == "end_kyoku":
                if last is None or last["type"] not in ("hora", "ryukyoku"):
                    self.fail(i, "end_kyoku without a result")
                for s in range(4):
                    assert len(hands[s]) + 3 * len(melds[s]) in (13, 14), "hand sizes"
            else:
                self.fail(i, f"unexpected type {t}")
            last = e
        end = lines[-1]
        if "scores" in end and self.scores is not None:
            # leftover riichi sticks go to first place at the end (R26)
            assert sum(end["scores"]) == sum(self.scores) + 1000 * self.kyotaku


def test_mjai_tile_names() -> None:
    assert [mjai_tile(t) for t in ("1m", "9p", "5s", "0m", "0p", "0s")] == [
        "1m",
        "9p",
        "5s",
        "5mr",
        "5pr",
        "5sr",
    ]
    assert [mjai_tile(f"{n}z") for n in range(1, 8)] == ["E", "S", "W", "N", "P", "F", "C"]


@pytest.mark.parametrize("path", ALL_LOGS)
def test_every_fixture_log_exports_to_consistent_mjai(path: Path) -> None:
    game = imported(path)
    lines = export_mjai(game.events, game.players)
    MjaiReplay(lines).run()
    starts = [e for e in lines if e["type"] == "start_kyoku"]
    assert len(starts) == len(game.results)
    # One hora per winner (double ron kept whole), one ryukyoku per draw.
    assert sum(e["type"] == "hora" for e in lines) == sum(len(r.wins) for r in game.results)
    assert sum(e["type"] == "ryukyoku" for e in lines) == sum(
        r.kind == "ryuukyoku" for r in game.results
    )


def test_double_ron_gives_two_horas_with_tenhou_deltas_and_ura_only_for_riichi() -> None:
    game = imported(FIXTURES / "mjai-reviewer" / "double_ron.json")
    lines = export_mjai(game.events, game.players)
    horas = [e for e in lines if e["type"] == "hora"]
    assert horas == [
        {
            "type": "hora",
            "actor": 0,
            "target": 3,
            "deltas": [13000, 0, 0, -12000],
            "ura_markers": ["S"],
        },
        {
            "type": "hora",
            "actor": 2,
            "target": 3,
            "deltas": [0, 0, 2000, -2000],
            "ura_markers": [],  # this winner had no riichi: no ura (as Mortal's arena writes)
        },
    ]
    start = next(e for e in lines if e["type"] == "start_kyoku")
    assert (start["bakaze"], start["kyoku"], start["oya"], start["dora_marker"]) == (
        "S",
        4,
        3,
        "6m",
    )


def test_reach_sequence_and_kan_events() -> None:
    game = imported(FIXTURES / "mjai-reviewer" / "four_reach.json")
    lines = export_mjai(game.events, game.players)
    types = [e["type"] for e in lines]
    for i, t in enumerate(types):
        if t == "reach":
            assert types[i + 1] == "dahai" and lines[i + 1]["actor"] == lines[i]["actor"]
    assert types.count("reach_accepted") == 4
    assert lines[-2] == {"type": "end_kyoku"}
    assert lines[-3] == {"type": "ryukyoku", "deltas": [0, 0, 0, 0]}
    kans = imported(FIXTURES / "mjai-reviewer" / "suukantsu_1.json")
    kl = export_mjai(kans.events, kans.players)
    engine_kans = sum(
        e["type"] == "kan" or (e["type"] == "call" and e["data"]["meld"] == "daiminkan")
        for e in kans.events
    )
    assert engine_kans >= 4
    assert sum(e["type"] in ("ankan", "kakan", "daiminkan") for e in kl) == engine_kans
    assert sum(e["type"] == "dora" for e in kl) == sum(e["type"] == "new_dora" for e in kans.events)


def test_bot_game_exports_to_mjai() -> None:
    record, state = bot_game()
    lines = export_mjai(record_events(record), record.players)
    MjaiReplay(lines).run()
    assert lines[0] == {
        "type": "start_game",
        "names": ["cy", "dee", "ann", "bob"],
        "kyoku_first": 0,
        "aka_flag": True,
    }
    first = lines[1]
    assert (first["type"], first["bakaze"], first["kyoku"], first["oya"]) == (
        "start_kyoku",
        "E",
        1,
        0,
    )
    final = {f.seat: f.points for f in state.final or ()}
    assert lines[-1] == {"type": "end_game", "scores": [final[(p + 2) % 4] for p in range(4)]}
    text = dumps_mjai(lines)
    assert text.endswith("\n")
    assert [json.loads(x) for x in text.splitlines()] == lines


def test_broken_stream_is_refused() -> None:
    with pytest.raises(RecordError, match="4 seats"):
        export_mjai([], ["a"])
    with pytest.raises(RecordError, match="game_start"):
        export_mjai([{"type": "round_start", "data": {}}], ["a", "b", "c", "d"])
    start = {"type": "game_start", "data": {"first_dealer": 0, "rules": {}}}
    with pytest.raises(RecordError, match="no finished round"):
        export_mjai([start], ["a", "b", "c", "d"])


def _around(lines: list[dict[str, Any]], i: int) -> list[str]:
    return [e["type"] for e in lines[i - 1 : i + 3]]


def test_minkan_dora_comes_between_the_rinshan_draw_and_the_discard() -> None:
    """Mortal's arena and mjai-reviewer's convlog: daiminkan/kakan, tsumo, dora, dahai.

    The engine turns the dora with the kanner's discard; written after that
    discard, a call on it would be refused by Mortal's PlayerState. A pending
    minkan dora turned at a later kan comes before an ankan (whose own dora
    follows it) or, after a kakan that stands, before the rinshan draw.
    """
    before_discard = 0
    for param in ALL_LOGS:
        game = imported(param.values[0])  # type: ignore[attr-defined]
        lines = export_mjai(game.events, game.players)
        for i, e in enumerate(lines):
            if e["type"] != "dora":
                continue
            prev, nxt = lines[i - 1], lines[i + 1]
            assert prev["type"] in ("tsumo", "kakan", "ankan", "dora"), _around(lines, i)
            if prev["type"] == "tsumo" and nxt["type"] == "dahai":
                assert nxt["actor"] == prev["actor"]
                before_discard += 1
            elif prev["type"] == "kakan":
                assert nxt["type"] == "tsumo" and nxt["actor"] == prev["actor"]
            elif prev["type"] == "ankan":
                assert nxt["type"] in ("tsumo", "hora"), _around(lines, i)
            else:
                assert nxt["type"] in ("ankan", "dora"), _around(lines, i)
    assert before_discard >= 10


def test_kyoku_first_is_4_for_tonpuu() -> None:
    tonpuu = imported(FIXTURES / "mjai-reviewer" / "chankan.json")  # 上東喰赤速
    assert tonpuu.rules.length == "tonpuu"
    assert export_mjai(tonpuu.events, tonpuu.players)[0]["kyoku_first"] == 4
    hanchan = imported(FIXTURES / "mjai-reviewer" / "ranked_game.json")
    assert export_mjai(hanchan.events, hanchan.players)[0]["kyoku_first"] == 0
