"""Engine event streams to mjai JSON lines (the format Mortal and mjai-reviewer read).

One JSON object per line: ``start_game``, then per round ``start_kyoku``,
``tsumo``, ``dahai``, ``chi``/``pon``/``daiminkan``/``kakan``/``ankan``,
``dora``, ``reach``/``reach_accepted``, ``hora``/``ryukyoku``, ``end_kyoku``,
and ``end_game``. Tiles are mjai names: ``1m``..``9s``, ``5mr`` for a red
five, ``E S W N`` for the winds and ``P F C`` for haku, hatsu, chun.

Seats are rotated like in the tenhou.net/6 export, so that seat 0 is the
first dealer (``oya`` of the first ``start_kyoku`` is 0). ``hora`` and
``ryukyoku`` carry Tenhou's deltas: a win's own deltas (honba and sticks
included), and for a draw the payments without the riichi sticks put down
this round (``reach_accepted`` already took those). Rounds the stream cuts
off before their result are left out.

Events come in the order Mortal's arena and mjai-reviewer's converter
(convlog) write them, which Mortal's ``PlayerState`` follows:

* the kan dora of a daiminkan or kakan between the kanner's rinshan draw and
  their discard (the engine turns it with the discard, as Tenhou does); one
  still pending when the kanner calls another kan comes before an ankan, and
  after a kakan (once it stands), before the rinshan draw;
* ``reach_accepted`` after the discard passes, before a call or the next draw;
* ``ura_markers`` only for a winner whose riichi stands (empty otherwise, also
  for the other winner of a double ron);
* ``kyoku_first`` 0 for a hanchan and 4 for a tonpuu (mjai's convention: the
  round the game would start in to last as long).

A three-player (sanma) game is written as the Mortal-family sanma tools
(mjai-reviewer3p, ``libriichi3p``) read it: four names, ``scores``,
``deltas`` and ``tehais`` four wide with a phantom seat 3 that never acts
(score 0, hand of 13 ``"?"``), and a north set aside as
``{"type": "nukidora", "actor": a, "pai": "N"}`` followed by the replacement
``tsumo``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from server.engine.tiles import is_red, kind, parse_tile, sort_key
from server.records.model import RecordError

EventJson = Mapping[str, Any]

_HONORS = "ESWNPFC"


def mjai_tile(tile: str) -> str:
    """Our notation ("0p", "5z") as mjai's ("5pr", "P")."""
    t = parse_tile(tile)
    k = kind(t)
    if k >= 27:
        return _HONORS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}" + ("r" if is_red(t) else "")


def _tiles(tiles: Sequence[str]) -> list[str]:
    return [mjai_tile(x) for x in sorted(tiles, key=lambda x: sort_key(parse_tile(x)))]


def _consumed(tiles: Sequence[str], called: str) -> list[str]:
    own = list(tiles)
    own.remove(called)
    return _tiles(own)


# the phantom fourth seat's hand in a three-player start_kyoku
_NO_HAND = ["?"] * 13


class _Writer:
    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        self.fd = 0
        self.n = 4
        self.out: list[dict[str, Any]] = []
        self.kyoku: list[dict[str, Any]] = []
        self.haipai: list[list[str]] = [[], [], [], []]
        self.start: dict[str, Any] | None = None
        self.paid = [0, 0, 0, 0]
        self.riichi: set[int] = set()  # seats (ours) whose riichi stands this round
        self.scores_end: list[int] | None = None

    def s(self, seat: int) -> int:
        return (seat - self.fd) % self.n

    def rot(self, values: Sequence[Any]) -> list[Any]:
        """Per-seat values rotated to seat 0 = first dealer, four wide (sanma: 4th 0)."""
        n = self.n
        return [values[(p + self.fd) % n] for p in range(n)] + [0] * (4 - n)

    def add(self, typ: str, ev: EventJson) -> None:
        k = self.kyoku
        if typ == "game_start":
            self.fd = int(ev.get("first_dealer", 0))
            rules = ev.get("rules") or {}
            self.n = int(rules.get("seats", 4))
            if self.n not in (3, 4):
                raise ValueError(f"seats {self.n}")
            n = self.n
            names = [self.players[(p + self.fd) % n] for p in range(n)] + [""] * (4 - n)
            self.out.append(
                {
                    "type": "start_game",
                    "names": names,
                    "kyoku_first": 4 if rules.get("length") == "tonpuu" else 0,
                    "aka_flag": bool(rules.get("red_fives", 3)),
                }
            )
        elif typ == "round_start":
            if not self.out:
                raise RecordError("the event stream does not start with game_start")
            self.kyoku = []
            self.haipai = [[], [], [], []] if self.n == 4 else [[], [], [], list(_NO_HAND)]
            self.paid = [0] * self.n
            self.riichi = set()
            self.start = {
                "type": "start_kyoku",
                "bakaze": ev["round_wind"],
                "dora_marker": mjai_tile(ev["dora_indicators"][0]),
                "kyoku": (ev["dealer"] - self.fd) % self.n + 1,
                "honba": ev["honba"],
                "kyotaku": ev["riichi_sticks"],
                "oya": self.s(ev["dealer"]),
                "scores": self.rot(ev["scores"]),
                "tehais": [],
            }
        elif typ == "haipai":
            self.haipai[self.s(ev["seat"])] = _tiles(ev["tiles"])
        elif typ == "draw":
            k.append({"type": "tsumo", "actor": self.s(ev["seat"]), "pai": mjai_tile(ev["tile"])})
        elif typ == "discard":
            actor = self.s(ev["seat"])
            if ev["riichi"]:
                k.append({"type": "reach", "actor": actor})
            k.append(
                {
                    "type": "dahai",
                    "actor": actor,
                    "pai": mjai_tile(ev["tile"]),
                    "tsumogiri": bool(ev["tsumogiri"]),
                }
            )
        elif typ == "call":
            k.append(
                {
                    "type": ev["meld"],
                    "actor": self.s(ev["seat"]),
                    "target": self.s(ev["from_seat"]),
                    "pai": mjai_tile(ev["called"]),
                    "consumed": _consumed(ev["tiles"], ev["called"]),
                }
            )
        elif typ == "kan":
            actor = self.s(ev["seat"])
            if ev["meld"] == "ankan":
                k.append({"type": "ankan", "actor": actor, "consumed": _tiles(ev["tiles"])})
            else:
                k.append(
                    {
                        "type": "kakan",
                        "actor": actor,
                        "pai": mjai_tile(ev["added"]),
                        "consumed": _consumed(ev["tiles"], ev["added"]),
                    }
                )
        elif typ == "nuki":
            k.append(
                {"type": "nukidora", "actor": self.s(ev["seat"]), "pai": mjai_tile(ev["tile"])}
            )
        elif typ == "new_dora":
            self.dora(k, {"type": "dora", "dora_marker": mjai_tile(ev["indicator"])})
        elif typ == "riichi_accepted":
            self.paid[ev["seat"]] += 1000
            self.riichi.add(ev["seat"])
            k.append({"type": "reach_accepted", "actor": self.s(ev["seat"])})
        elif typ == "agari":
            ura = [mjai_tile(x) for x in ev.get("ura_indicators") or []]
            for w in ev["winners"]:
                frm = w["seat"] if w.get("from_seat") is None else w["from_seat"]
                k.append(
                    {
                        "type": "hora",
                        "actor": self.s(w["seat"]),
                        "target": self.s(frm),
                        "deltas": self.rot(w["deltas"]),
                        "ura_markers": ura if w["seat"] in self.riichi else [],
                    }
                )
            self.end_kyoku()
        elif typ == "ryuukyoku":
            deltas = [ev["deltas"][s] + self.paid[s] for s in range(self.n)]
            k.append({"type": "ryukyoku", "deltas": self.rot(deltas)})
            self.end_kyoku()
        elif typ == "game_end":
            self.scores_end = self.rot(ev["scores"])

    @staticmethod
    def dora(k: list[dict[str, Any]], dora: dict[str, Any]) -> None:
        """Place a kan dora where mjai readers expect it (see the module docstring).

        The engine turns a minkan's dora right after the kanner's discard: it
        goes before that discard. After an ankan the engine turns a pending
        minkan dora, then the ankan's own: the pending one goes before the ankan.
        """
        if k and k[-1]["type"] == "dahai":
            k.insert(len(k) - 1, dora)
        elif len(k) >= 2 and k[-1]["type"] == "dora" and k[-2]["type"] == "ankan":
            k[-2], k[-1] = k[-1], k[-2]
            k.append(dora)
        else:
            k.append(dora)

    def end_kyoku(self) -> None:
        if self.start is None:
            raise RecordError("a round result before any round_start")
        self.start["tehais"] = self.haipai
        self.out.append(self.start)
        self.out.extend(self.kyoku)
        self.out.append({"type": "end_kyoku"})
        self.start = None


def export_mjai(events: Sequence[EventJson], players: Sequence[str]) -> list[dict[str, Any]]:
    """The mjai events of a game's full event stream (``{"type", "data"}`` per event)."""
    if len(players) not in (3, 4):
        raise RecordError("players must name 4 seats (3 in sanma)")
    w = _Writer(players)
    try:
        for item in events:
            w.add(item["type"], item["data"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"malformed event stream: {type(exc).__name__}: {exc}") from None
    if not w.out or w.out[0]["type"] != "start_game":
        raise RecordError("the event stream does not start with game_start")
    if not any(e["type"] == "end_kyoku" for e in w.out):
        raise RecordError("the game has no finished round to export")
    end: dict[str, Any] = {"type": "end_game"}
    if w.scores_end is not None:
        end["scores"] = w.scores_end
    w.out.append(end)
    return w.out


def dumps_mjai(lines: Sequence[Mapping[str, Any]]) -> str:
    """JSON lines, one event each, compact, ending with a newline."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in lines)
