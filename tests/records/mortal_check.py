"""Run Mortal's player state (and mjai-reviewer's converter) over mjai logs; print what they refuse.

This script runs in its own virtual environment (``.venv-mjai``: the PyPI
``mjai`` package, which pins an old ``mahjong``, and ``convlog-rs``), started
by ``tests/records/test_mortal.py`` as a subprocess. It imports nothing of
ours. Input on stdin, JSON::

    {"logs": [{"name": str, "mjai": [event, ...], "tenhou6": document | null}]}

Output on stdout, JSON::

    {"versions": {...}, "results": {name: {"events": n, "problems": [str, ...]}}}

Every event of a log goes to four ``PlayerState``s, one per seat, and each
player action is checked as Mortal's ``validate_logs`` and its arena check
them: against what the acting seat's state offered (``last_cans``) when the
seat was asked. A seat is asked right after the event it reacts to; the only
events that may stand between are the ones Mortal's arena writes as results
of that very action: ``reach_accepted`` before a call, a kan ``dora`` before
a discard or an ankan, and the other winners of a multiple ron. Anything else
in between (a kan dora after a discard, say) clears the offer, and the action
is refused, as a bot fed those events would refuse it. Also checked, from the
state: the discarded tile is in the hand and not forbidden (kuikae), a
riichi hand discards only its drawn tile, ``tsumogiri`` only for the drawn
tile, no tile count goes out of 0..4, nine-terminal draws were offered, ura
markers only for a winner whose riichi stands.

For a log with a tenhou.net/6 document, ``convlog_rs`` (mjai-reviewer's
converter) converts the document; its events must pass the same checks and
equal the given mjai events but for three documented differences (see
``_normalise``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mjai.mlibriichi.state import PlayerState

try:
    import convlog_rs
except ImportError:  # pragma: no cover - the test environment installs it
    convlog_rs = None

# Mortal's tile order: 1-9m, 1-9p, 1-9s, E S W N P F C.
_ORDER = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
_INDEX = {t: i for i, t in enumerate(_ORDER)}
_AKA = {"5mr": 0, "5pr": 1, "5sr": 2}

# What Mortal's arena writes between a seat being asked and that seat's action.
_AFTER_ASKED = {
    "chi": {"reach_accepted"},
    "pon": {"reach_accepted"},
    "daiminkan": {"reach_accepted"},
    "dahai": {"dora"},
    "ankan": {"dora"},
    "hora": {"hora"},
}


def _plain(pai: str) -> str:
    return pai[:2] if pai in _AKA else pai


def _deaka(pai: str) -> int:
    return _INDEX[_plain(pai)]


class _Checker:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.events = [json.loads(x) for x in lines]
        self.states = [PlayerState(p) for p in range(4)]
        # Per event index: each seat's offer (cans, ankan and kakan candidates) after it.
        self.offers: list[list[tuple[Any, list[str], list[str]]]] = []
        self.problems: list[str] = []

    def refuse(self, i: int, msg: str) -> None:
        self.problems.append(f"line {i + 1} {self.lines[i]}: {msg}")

    def run(self) -> list[str]:
        for i, e in enumerate(self.events):
            self.check(i, e)
            offers = []
            for p, s in enumerate(self.states):
                try:
                    cans = s.update(self.lines[i])
                except Exception as exc:  # the state refused to read the event
                    self.refuse(i, f"seat {p}: {str(exc).splitlines()[0]}")
                    return self.problems
                offers.append((cans, list(s.ankan_candidates()), list(s.kakan_candidates())))
                if any(c > 4 for c in s.tehai):  # a count below 0 wraps around
                    self.refuse(i, f"seat {p}: tile counts out of range {s.tehai}")
                    return self.problems
            self.offers.append(offers)
            if len(self.problems) >= 5:
                break
        return self.problems

    def asked_at(self, i: int, typ: str) -> int:
        """The event after which the actor of event ``i`` was asked."""
        j = i - 1
        while j > 0 and self.events[j]["type"] in _AFTER_ASKED.get(typ, ()):
            j -= 1
        return j

    def check(self, i: int, e: dict[str, Any]) -> None:
        typ = e["type"]
        if typ == "ryukyoku" and self.events[i - 1]["type"] == "tsumo":
            # only a nine-terminal draw ends a round right after a draw
            a = self.events[i - 1]["actor"]
            if not self.offers[i - 1][a][0].can_ryukyoku:
                self.refuse(i, f"seat {a} was not offered a nine-terminal draw")
            return
        if typ not in ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora"):
            return
        a = e["actor"]
        s = self.states[a]
        cans, ankans, kakans = self.offers[self.asked_at(i, typ)][a]
        ok = True
        if typ == "dahai":
            pai = e["pai"]
            k = _deaka(pai)
            drawn = s.last_self_tsumo()
            if not cans.can_discard:
                ok = False
            elif s.tehai[k] == 0 or (pai in _AKA and not s.akas_in_hand[_AKA[pai]]):
                self.refuse(i, f"discards {pai}, not in the hand")
            elif pai[0] == "5" and pai[1] in "mps" and pai not in _AKA:
                red = f"{pai}r"
                if s.tehai[k] == 1 and s.akas_in_hand[_AKA[red]]:
                    self.refuse(i, f"discards {pai}, the hand holds only {red}")
            if s.forbidden_tiles[k]:
                self.refuse(i, f"discards {pai}, forbidden after the call (kuikae)")
            if e["tsumogiri"] and drawn != pai:
                self.refuse(i, f"tsumogiri of {pai}, the drawn tile was {drawn}")
            if s.self_riichi_accepted and drawn != pai:
                self.refuse(i, f"a riichi hand discards {pai}, not its drawn tile {drawn}")
        elif typ == "chi":
            low = min(_deaka(c) for c in e["consumed"])
            high = max(_deaka(c) for c in e["consumed"])
            called = _deaka(e["pai"])
            if (e["target"] + 1) % 4 != a:
                self.refuse(i, "chi from a seat other than kamicha")
            if called < low:
                ok = cans.can_chi_low
            elif called > high:
                ok = cans.can_chi_high
            else:
                ok = cans.can_chi_mid
        elif typ == "pon":
            ok = cans.can_pon
        elif typ == "daiminkan":
            ok = cans.can_daiminkan
        elif typ == "ankan":
            ok = cans.can_ankan and _plain(e["consumed"][0]) in ankans
        elif typ == "kakan":
            ok = cans.can_kakan and _plain(e["pai"]) in kakans
        elif typ == "reach":
            ok = cans.can_riichi
        elif typ == "hora":
            ok = cans.can_ron_agari if e["target"] != a else cans.can_tsumo_agari
            if e.get("ura_markers") and not s.self_riichi_accepted:
                self.refuse(i, "ura markers for a winner without riichi")
        if not ok:
            self.refuse(i, f"seat {a} was not offered this {typ} ({cans})")


def _normalise(ours: list[dict[str, Any]], conv: list[dict[str, Any]]) -> None:
    """Take out the three ways our export knowingly differs from convlog's conversion.

    * ``end_game`` carries the final scores in ours (tenhou.net/6 has no field
      convlog reads them from);
    * the fourth riichi's ``reach_accepted`` before a four-riichi draw: the
      stick is paid (Tenhou's next round counts it); convlog leaves it out;
    * ura markers of a winner without riichi: convlog copies the round's ura
      indicators to every winner of a double ron; Mortal's arena gives them
      only to winners whose riichi stands, as we do.
    """
    for e in ours:
        if e["type"] == "end_game":
            e.pop("scores", None)
    ours[:] = [
        e
        for n, e in enumerate(ours)
        if not (e["type"] == "reach_accepted" and ours[n + 1]["type"] == "ryukyoku")
    ]
    riichi: set[int] = set()
    for e in conv:
        if e["type"] == "start_kyoku":
            riichi = set()
        elif e["type"] == "reach_accepted":
            riichi.add(e["actor"])
        elif e["type"] == "hora" and e["actor"] not in riichi:
            e["ura_markers"] = []


def _compare(ours: list[dict[str, Any]], conv: list[dict[str, Any]]) -> list[str]:
    for n, (a, b) in enumerate(zip(ours, conv, strict=False)):
        if a != b:
            return [f"convlog differs at event {n + 1}: ours {a}, convlog {b}"]
    if len(ours) != len(conv):
        return [f"convlog wrote {len(conv)} events, ours {len(ours)}"]
    return []


def check_log(log: dict[str, Any]) -> dict[str, Any]:
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in log["mjai"]]
    problems = _Checker(lines).run()
    doc = log.get("tenhou6")
    if doc is not None and convlog_rs is not None:
        try:
            conv_lines = convlog_rs.tenhou_to_mjai(json.dumps(doc, ensure_ascii=False))
        except Exception as exc:  # convlog refuses the document
            problems.append(f"convlog refuses the tenhou.net/6 export: {exc}")
        else:
            ours = [dict(e) for e in log["mjai"]]
            conv = [json.loads(x) for x in conv_lines]
            _normalise(ours, conv)
            conv_lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in conv]
            problems += [f"convlog output: {p}" for p in _Checker(conv_lines).run()]
            problems += _compare(ours, conv)
    return {"events": len(lines), "problems": problems}


def main() -> int:
    from importlib.metadata import version

    request = json.load(sys.stdin)
    out = {
        "versions": {
            "mjai": version("mjai"),
            "convlog-rs": version("convlog-rs") if convlog_rs is not None else None,
        },
        "results": {log["name"]: check_log(log) for log in request["logs"]},
    }
    json.dump(out, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
