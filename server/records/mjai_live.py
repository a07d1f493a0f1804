"""One seat's game as mjai events, live, and that seat's mjai replies as our actions.

An external mjai bot (Mortal, the mjai.app bots, akochan) sits at one seat. ``MjaiFeed``
turns the engine's events into the mjai events that seat may see (others' draws and
deals as ``"?"``), in the order Mortal's ``PlayerState`` follows (as the export in
``mjai.py``: a kan dora before the kanner's discard, ``reach`` before its ``dahai``).
Events wait in the feed until the bot is asked to decide: ``take`` hands them over.

mjai seats count from the first dealer (``oya`` of the first ``start_kyoku`` is 0), as
in the export, so ``actor`` is the seat's place from the first dealer.

``reply_action`` reads one reply (``dahai``, ``reach``, ``hora``, ``chi``/``pon``/
``daiminkan``, ``ankan``/``kakan``, ``ryukyoku``, ``none``) against the seat's legal
actions: the listed action it names, ``REACH`` for a riichi declaration (whose
discard the bot names next, after it is sent its own ``reach``), or None when the
reply names nothing the seat may do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final

from server.engine.actions import (
    A_ANKAN,
    A_CHI,
    A_DAIMINKAN,
    A_DISCARD,
    A_KAKAN,
    A_KYUUSHU,
    A_NUKI,
    A_PASS,
    A_PON,
    A_RIICHI,
    A_RON,
    A_TSUMO,
    Action,
)
from server.engine.events import Event
from server.engine.riichi.events import (
    Agari,
    Call,
    Discard,
    Draw,
    GameEnd,
    GameStart,
    Haipai,
    Kan,
    NewDora,
    Nuki,
    RiichiAccepted,
    RoundStart,
    Ryuukyoku,
    mask,
)
from server.engine.tiles import Tile, is_red, kind, sort_key
from server.records.mjai import _Writer
from server.records.mjai_read import mjai_tile
from server.records.model import RecordError

_HONORS = "ESWNPFC"
MjaiEvent = dict[str, Any]

# ``reply_action``'s answer for a riichi declaration (the discard comes next).
REACH: Final = "reach"


def mjai_name(t: Tile) -> str:
    """A tile as mjai names it (``5mr`` a red five, ``E`` .. ``C`` the honours)."""
    k = kind(t)
    if k >= 27:
        return _HONORS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}" + ("r" if is_red(t) else "")


def _names(tiles: Iterable[Tile]) -> list[str]:
    return [mjai_name(t) for t in sorted(tiles, key=sort_key)]


def _without(tiles: Sequence[Tile], t: Tile) -> list[str]:
    own = list(tiles)
    own.remove(t)
    return _names(own)


class MjaiFeed:
    """The mjai events of one seat (``seat`` ours), kept until ``take``."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.fd = 0
        self.n = 4
        self.pending: list[MjaiEvent] = []
        self._start: MjaiEvent | None = None
        self.reach_sent = False  # this seat's own ``reach`` went out with its declaration
        self._riichi: set[int] = set()
        self._paid = [0, 0, 0, 0]  # riichi sticks put down this round, by seat

    @property
    def actor(self) -> int:
        """This seat as mjai numbers it."""
        return self.s(self.seat)

    def s(self, seat: int) -> int:
        return (seat - self.fd) % self.n

    def _rot(self, values: Sequence[int]) -> list[int]:
        n = self.n
        return [values[(p + self.fd) % n] for p in range(n)] + [0] * (4 - n)

    def take(self) -> list[MjaiEvent]:
        """The events not yet handed over, in order."""
        out, self.pending = self.pending, []
        return out

    def add_all(self, events: Iterable[Event]) -> None:
        for e in events:
            self.add(e)

    def add(self, event: Event) -> None:
        """One engine event (whole: the feed masks it for its seat)."""
        e = mask(event, self.seat)
        if e is None:
            return
        k = self.pending
        if isinstance(e, GameStart):
            self.fd = e.first_dealer
            self.n = e.rules.seats
            k.append(
                {
                    "type": "start_game",
                    "id": self.actor,
                    "names": [f"p{i}" for i in range(4)],
                    "kyoku_first": 4 if e.rules.length == "tonpuu" else 0,
                    "aka_flag": bool(e.rules.red_fives),
                }
            )
        elif isinstance(e, RoundStart):
            self._riichi = set()
            self._paid = [0, 0, 0, 0]
            self.reach_sent = False
            hands = [["?"] * 13 for _ in range(4)]
            self._start = {
                "type": "start_kyoku",
                "bakaze": "ESWN"[e.round_wind],
                "dora_marker": mjai_name(e.dora_indicators[0]),
                "kyoku": (e.dealer - self.fd) % self.n + 1,
                "honba": e.honba,
                "kyotaku": e.riichi_sticks,
                "oya": self.s(e.dealer),
                "scores": self._rot(e.scores),
                "tehais": hands,
            }
        elif isinstance(e, Haipai):
            if e.seat == self.seat and e.tiles is not None and self._start is not None:
                self._start["tehais"][self.actor] = _names(e.tiles)
                k.append(self._start)
                self._start = None
        elif isinstance(e, Draw):
            pai = mjai_name(e.tile) if e.tile is not None else "?"
            k.append({"type": "tsumo", "actor": self.s(e.seat), "pai": pai})
        elif isinstance(e, Discard):
            if e.riichi and not (e.seat == self.seat and self.reach_sent):
                k.append({"type": "reach", "actor": self.s(e.seat)})
            if e.seat == self.seat:
                self.reach_sent = False
            k.append(
                {
                    "type": "dahai",
                    "actor": self.s(e.seat),
                    "pai": mjai_name(e.tile),
                    "tsumogiri": e.tsumogiri,
                }
            )
        elif isinstance(e, Call):
            m = e.meld
            assert m.called is not None and m.from_seat is not None
            k.append(
                {
                    "type": m.type.value,
                    "actor": self.s(e.seat),
                    "target": self.s(m.from_seat),
                    "pai": mjai_name(m.called),
                    "consumed": _without(m.tiles, m.called),
                }
            )
        elif isinstance(e, Kan):
            if e.added is None:
                tiles = _names(e.meld.tiles)
                k.append({"type": "ankan", "actor": self.s(e.seat), "consumed": tiles})
            else:
                k.append(
                    {
                        "type": "kakan",
                        "actor": self.s(e.seat),
                        "pai": mjai_name(e.added),
                        "consumed": _without(e.meld.tiles, e.added),
                    }
                )
        elif isinstance(e, Nuki):
            k.append({"type": "nukidora", "actor": self.s(e.seat), "pai": mjai_name(e.tile)})
        elif isinstance(e, NewDora):
            _Writer.dora(k, {"type": "dora", "dora_marker": mjai_name(e.indicator)})
        elif isinstance(e, RiichiAccepted):
            self._riichi.add(e.seat)
            self._paid[e.seat] += 1000
            k.append({"type": "reach_accepted", "actor": self.s(e.seat)})
        elif isinstance(e, Agari):
            ura = [mjai_name(t) for t in e.ura_indicators]
            for w in e.winners:
                frm = w.seat if w.from_seat is None else w.from_seat
                k.append(
                    {
                        "type": "hora",
                        "actor": self.s(w.seat),
                        "target": self.s(frm),
                        "deltas": self._rot(w.deltas),
                        "ura_markers": ura if w.seat in self._riichi else [],
                    }
                )
            k.append({"type": "end_kyoku"})
        elif isinstance(e, Ryuukyoku):
            # as the export: without the sticks reach_accepted already took
            deltas = [d + self._paid[s] for s, d in enumerate(e.deltas)]
            k.append({"type": "ryukyoku", "deltas": self._rot(deltas)})
            k.append({"type": "end_kyoku"})
        elif isinstance(e, GameEnd):
            k.append({"type": "end_game", "scores": self._rot(e.scores)})

    def own_reach(self) -> MjaiEvent:
        """This seat's ``reach``, sent to it when it declares (its discard comes next)."""
        self.reach_sent = True
        return {"type": "reach", "actor": self.actor}


def _tiles_of(raw: Any) -> Counter[Tile] | None:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        return None
    try:
        out = [mjai_tile(x, "consumed") for x in raw]
    except RecordError:
        return None
    if any(t is None for t in out):
        return None
    return Counter(t for t in out if t is not None)


def _tile_of(raw: Any) -> Tile | None:
    if not isinstance(raw, str):
        return None
    try:
        return mjai_tile(raw, "pai")
    except RecordError:
        return None


def reply_action(reply: Any, legal: Sequence[Action], *, declared: bool = False) -> Any:
    """The legal action an mjai ``reply`` names; ``REACH`` for a riichi declaration;
    None when it names nothing legal. ``declared``: the seat has just said ``reach``,
    so its ``dahai`` is the riichi discard."""
    if not isinstance(reply, dict):
        return None
    typ = reply.get("type")
    if not isinstance(typ, str):
        return None
    if declared:
        if typ != "dahai":
            return None
        t = _tile_of(reply.get("pai"))
        return next((a for a in legal if a.type is A_RIICHI and a.tile == t), None)
    if typ == "dahai":
        t = _tile_of(reply.get("pai"))
        return next((a for a in legal if a.type is A_DISCARD and a.tile == t), None)
    if typ == "reach":
        return REACH if any(a.type is A_RIICHI for a in legal) else None
    if typ == "hora":
        return next((a for a in legal if a.type is A_TSUMO or a.type is A_RON), None)
    if typ == "none":
        return next((a for a in legal if a.type is A_PASS), None)
    if typ == "ryukyoku":
        return next((a for a in legal if a.type is A_KYUUSHU), None)
    if typ == "nukidora":
        return next((a for a in legal if a.type is A_NUKI), None)
    wanted = {"chi": A_CHI, "pon": A_PON, "daiminkan": A_DAIMINKAN, "ankan": A_ANKAN}.get(typ)
    if wanted is not None:
        consumed = _tiles_of(reply.get("consumed"))
        if consumed is None:
            return None
        for a in legal:
            if a.type is not wanted:
                continue
            own = a.tiles
            if wanted is A_ANKAN:
                # an ankan action names its kind; the four tiles are all of it
                if a.tile is not None and all(kind(t) == kind(a.tile) for t in consumed):
                    return a
            elif Counter(own) == consumed:
                return a
        return None
    if typ == "kakan":
        t = _tile_of(reply.get("pai"))
        return next((a for a in legal if a.type is A_KAKAN and a.tile == t), None)
    return None
