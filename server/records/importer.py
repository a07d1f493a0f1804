"""Import a Tenhou log (mjlog XML or tenhou.net/6 JSON) as a verified engine event stream.

A log is parsed with the existing parsers (``load.parse_log``) and every round
is replayed through the engine on the ``log verify`` path (``verify.py``): the
engine deals the logged wall, the players' logged decisions are applied, and
the engine's own results must match the log's. A round that differs refuses
the whole import, naming the round and the difference.

What comes out is the engine's full event stream (``{"type", "data"}`` per
event, private events such as ``haipai`` and ``draw`` included), the same shape a
game played on the server leaves in its record. Both exporters
(``export_tenhou6``, ``mjai``) and the replay viewer read only that stream.
Tenhou's seat 0 is the first dealer, so imported games have ``first_dealer`` 0.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from server.engine import riichi as engine
from server.engine.events import EndReason, Event, Standing
from server.engine.riichi import GameEnd, GameStart
from server.engine.riichi.rules import RuleSet
from server.records.load import parse_log
from server.records.mjlog import looks_like_mjlog
from server.records.model import LoggedGame, LoggedRound, RecordError, Step, StepType
from server.records.record import GameRecord, replayed
from server.records.verify import _RoundReplay, rules_for
from server.wire.codec import codec_for
from server.wire.riichi import event_json, standing_json

EventJson = dict[str, Any]


class LogImportError(RecordError):
    """A log that parses but does not replay through the engine with the logged results."""


# A Tenhou log id, e.g. 2010081709gm-00a9-0000-fe3371ad: the game began in that hour, JST.
_LOG_ID = re.compile(r"(\d{10})gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")
_JST = timezone(timedelta(hours=9))


def tenhou_log_id(*texts: str | None) -> tuple[str, datetime] | None:
    """The first Tenhou log id in ``texts`` (a file name, a document's ref) and its start.

    The start is the hour the id names, in UTC; an id naming no real hour, or one
    still to come, is not taken.
    """
    for text in texts:
        for m in _LOG_ID.finditer(text or ""):
            try:
                at = datetime.strptime(m.group(1), "%Y%m%d%H").replace(tzinfo=_JST)
            except ValueError:
                continue
            if at <= datetime.now(UTC):
                return m.group(0), at.astimezone(UTC)
    return None


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A verified log, ready to be stored like a game played here."""

    source: str  # file name (or "<upload>")
    format: str  # "mjlog" | "tenhou6"
    players: tuple[str, ...]  # one name per seat (three in sanma)
    rules: RuleSet
    events: list[EventJson]
    results: list[engine.RoundResult]
    final: list[dict[str, Any]] | None  # [{seat, points, rank, score}] when the log has an end
    incomplete_rounds: int  # rounds the log cuts off before their result
    log_id: str | None = None  # the Tenhou log id, from the document or the file name
    played_at: datetime | None = None  # when the game began, from the log id (UTC)
    digest: str = ""  # play_digest of the engine's events (see there)
    origin_game: int | None = None  # the game our own export names (jantaku.game)


# What identifies a game's play: the deal and every tile drawn, discarded, called or
# set aside, by seat (results follow from them under the rules). Other fields of
# the events (scores, the wire shape of results, helper events that came and
# went between versions) do not enter the digest, so it stays the same across
# versions of the engine and of the event format.
_PLAY_FIELDS: dict[str, tuple[str, ...]] = {
    "round_start": ("round_wind", "kyoku", "honba", "dealer", "dora_indicators"),
    "haipai": ("seat", "tiles"),
    "draw": ("seat", "tile", "rinshan"),
    "discard": ("seat", "tile"),
    "call": ("seat", "meld", "tiles", "from_seat"),
    "kan": ("seat", "meld", "tiles"),
    "nuki": ("seat",),
}


def play_digest(events: Sequence[EventJson]) -> str:
    """SHA-256 of the play: the same game imported twice, even once as mjlog and once
    as tenhou.net/6, has the same digest (``_PLAY_FIELDS`` say of what)."""
    play = [
        [e["type"], *(e["data"].get(f) for f in _PLAY_FIELDS[e["type"]])]
        for e in events
        if e["type"] in _PLAY_FIELDS
    ]
    text = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _tsumogiri_from_log(events: list[EventJson], steps: Sequence[Step]) -> None:
    """Copy the log's tsumogiri flag into the round's discard events.

    The engine discards the drawn tile whenever the hand holds an identical one
    (the rules cannot tell them apart); the log knows which physical tile left
    the hand, and the replay and the exports show what the log says.
    """
    logged = [st for st in steps if st.type is StepType.DISCARD]
    played = [e["data"] for e in events if e["type"] == "discard"]
    for data, st in zip(played, logged, strict=False):
        if st.tsumogiri is False and data["tsumogiri"]:
            data["tsumogiri"] = False


def _json(
    events: Sequence[Event], encode: Callable[[Event], dict[str, Any]] = event_json
) -> list[EventJson]:
    """``{"type", "data"}`` per event, ``data`` as the table records it (the codec's JSON).

    A JSON round trip turns tuples into lists, exactly what the database gives back.
    """
    return [
        {"type": e.type, "data": json.loads(json.dumps(encode(e), ensure_ascii=False))}
        for e in events
    ]


class _Collecting(_RoundReplay):
    """The verifier's replay of one round, keeping every engine event it sees."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.events: list[Event] = []

    def note(self, events: list[Event]) -> None:
        self.events.extend(events)
        super().note(events)


def import_game(game: LoggedGame, fmt: str) -> ImportedGame:
    """Replay ``game`` round by round; LogImportError names every round that differs."""
    rules = rules_for(game)
    events: list[Event] = [GameStart(rules, 0, tuple(game.rounds[0].scores))]
    results: list[engine.RoundResult] = []
    problems: list[str] = []
    incomplete = 0
    spans: list[tuple[int, int, LoggedRound]] = []  # each round's events in ``events``
    final: tuple[Standing, ...] | None = None
    reason: EndReason = "last_round"
    for i, r in enumerate(game.rounds):
        nxt: LoggedRound | None = game.rounds[i + 1] if i + 1 < len(game.rounds) else None
        end = game.final_scores if nxt is None else None
        rep = _Collecting(r, rules, nxt, end)
        report = rep.run()
        if not report.ok:
            problems.append(f"round {report.label}: {'; '.join(report.diffs)}")
            continue
        if not report.complete:
            if nxt is not None:
                problems.append(f"round {report.label}: no result, but the log goes on")
            incomplete += 1
            spans.append((len(events), len(events) + len(rep.events), r))
            events.extend(rep.events)
            continue
        spans.append((len(events), len(events) + len(rep.events), r))
        events.extend(rep.events)
        results.append(rep.st.round_results[0])
        if nxt is None and rep.st.phase == "game_end" and rep.st.final:
            final = rep.st.final
            reason = rep.st.end_reason or reason
    if problems:
        shown = problems[:5]
        more = f" (and {len(problems) - 5} more rounds)" if len(problems) > 5 else ""
        raise LogImportError(
            f"{game.source}: the engine does not reproduce the log: {' | '.join(shown)}{more}"
        )
    if final is not None:
        scores = tuple(f.points for f in sorted(final, key=lambda f: f.seat))
        events.append(GameEnd(final, scores, 0, b"", reason))
    found = tenhou_log_id(game.ref, game.source)
    stream = _json(events)
    digest = play_digest(stream)
    for first, last, logged in spans:
        _tsumogiri_from_log(stream[first:last], logged.steps)
    return ImportedGame(
        source=game.source,
        format=fmt,
        players=game.players,
        rules=rules,
        events=stream,
        results=results,
        final=[standing_json(f) for f in final] if final is not None else None,
        incomplete_rounds=incomplete,
        log_id=found[0] if found else None,
        played_at=found[1] if found else None,
        digest=digest,
        origin_game=game.origin_game,
    )


def import_log(data: bytes, source: str = "<upload>") -> ImportedGame:
    """Parse mjlog XML (plain or gzip) or tenhou.net/6 JSON and verify it (RecordError if not)."""
    game = parse_log(data, source)
    if not game.rounds:
        raise RecordError(f"{source}: the log holds no rounds")
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    fmt = "mjlog" if looks_like_mjlog(body) else "tenhou6"
    return import_game(game, fmt)


def record_events(record: GameRecord) -> list[EventJson]:
    """The full event stream of one of our own games, rebuilt from its record (R6)."""
    events: list[Event] = []
    for _, step in replayed(record):
        events.extend(step.events)
    return _json(events, codec_for(record.variant).event_json)
