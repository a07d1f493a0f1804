"""Storing imported logs like played games, and reading any game's event stream for export.

An imported game uses the existing tables only: a ``games`` row (status
"finished", no lobby, empty seed), its ``game_seats`` with the log's names
and final standings, one ``hands`` row per finished round, and the engine
event stream in ``game_events`` exactly as a table records it, preceded by one
row of kind ``"import"`` that says where the game came from.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from server.db.games import page_games
from server.db.models import Game, GameEvent, GameSeat, Hand, Lobby, utcnow
from server.engine import resolve_rules
from server.records.export_tenhou6 import play_log
from server.records.exports import ExportSource
from server.records.importer import ImportedGame
from server.records.model import RecordError
from server.wire.riichi import event_data

IMPORT_KIND = "import"
_TIMER = ("think_seconds", "bank_seconds")
# Private events: only their seat saw them live (the record keeps them all).
_PRIVATE = frozenset({"haipai", "draw"})


def find_import(s: Session, digest: str) -> int | None:
    """The game already imported with this digest (``ImportedGame.digest``), if any."""
    # Import rows are few (one per imported game); comparing in Python keeps the
    # query the same on SQLite and PostgreSQL.
    rows = s.execute(select(GameEvent.game_id, GameEvent.data).where(GameEvent.kind == IMPORT_KIND))
    for gid, data in rows:
        if isinstance(data, dict) and data.get("digest") == digest:
            return int(gid)
    return None


def find_original(s: Session, game: ImportedGame) -> int | None:
    """The game an export of ours came from, when it is here: the import would repeat it.

    Our export names its game (``jantaku.game``); it is that game when the named
    game here has the very same play (the same rounds as tenhou.net/6 writes
    them: tiles, calls, results). A file from another server naming an id that
    is another game here is no duplicate.
    """
    if game.origin_game is None:
        return None
    src = export_source(s, game.origin_game)
    if src is None or src.status == "live":
        return None
    try:
        same = play_log(src.events) == play_log(game.events)
    except RecordError:
        return None
    return game.origin_game if same else None


def store_imported(s: Session, game: ImportedGame, uploaded_by: int | None) -> int:
    """Insert a verified import; returns the new game id (see ``find_import`` first).

    The game is dated when it was played if its Tenhou log id says so (to the
    hour; the log does not tell when it ended), else when it was imported. The
    import row keeps the import time either way.
    """
    now = utcnow()
    played = game.played_at or now
    g = Game(
        lobby_id=None,
        rules=game.rules.to_dict(),
        seed="",
        first_dealer=0,
        dice=[],
        status="finished",
        started_at=played,
        ended_at=played,
    )
    final = {int(f["seat"]): f for f in game.final or ()}
    for seat in range(len(game.players)):  # three seats in sanma
        f = final.get(seat)
        g.seats.append(
            GameSeat(
                seat=seat,
                player_id=None,
                bot=None,
                name=game.players[seat][:32],
                final_points=int(f["points"]) if f else None,
                rank=int(f["rank"]) if f else None,
                score=float(f["score"]) if f else None,
            )
        )
    for n, r in enumerate(game.results):
        g.hands.append(
            Hand(
                number=n,
                round_wind=r.round_wind,
                kyoku=r.kyoku,
                honba=r.honba,
                kind=r.kind,
                result=event_data(r.event),
                deltas=list(r.deltas),
                scores=list(r.scores),
            )
        )
    s.add(g)
    s.flush()
    rows = [
        GameEvent(
            game_id=g.id,
            version=0,
            kind=IMPORT_KIND,
            type=IMPORT_KIND,
            data={
                "format": game.format,
                "source": game.source[-200:],
                "uploaded_by": uploaded_by,
                "incomplete_rounds": game.incomplete_rounds,
                "digest": game.digest,
                "log_id": game.log_id,
                "imported_at": now.isoformat(),
            },
            seats=None,
        )
    ]
    for v, ev in enumerate(game.events, 1):
        data = ev["data"]
        seats = [int(data["seat"])] if ev["type"] in _PRIVATE else None
        rows.append(
            GameEvent(
                game_id=g.id, version=v, kind="event", type=ev["type"], data=data, seats=seats
            )
        )
    s.add_all(rows)
    return g.id


def export_source(s: Session, game_id: int) -> ExportSource | None:
    """A game's names and full event stream; None when there is no such game."""
    g = s.scalar(select(Game).where(Game.id == game_id).options(selectinload(Game.seats)))
    if g is None:
        return None
    names = {gs.seat: gs.name for gs in g.seats}
    rules = dict(g.rules) if isinstance(g.rules, dict) else {}
    try:
        variant = resolve_rules({k: v for k, v in rules.items() if k not in _TIMER})[0].key
    except ValueError:
        variant = "riichi"  # rules stored by an older version name no variant
    players = tuple(names.get(i, "") for i in range(max(len(names), 3)))
    events: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    log_id: str | None = None
    if g.status != "live":  # a live record holds concealed tiles: never exported
        for e in s.scalars(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.id)
        ):
            if e.kind == IMPORT_KIND:
                found = e.data.get("log_id") if isinstance(e.data, dict) else None
                log_id = found if isinstance(found, str) else None
            elif e.kind == "action":
                actions.append(e.data)
            else:
                events.append({"type": e.type, "data": e.data})
    return ExportSource(
        g.status,
        players,
        events,
        g.started_at.isoformat(),
        log_id,
        variant,
        rules,
        g.seed,
        g.first_dealer,
        actions,
    )


def lobby_games(
    s: Session, code: str, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int] | None:
    """Finished games of the lobby with ``code``, newest first; None for an unknown lobby."""
    lobby_id = s.scalar(select(Lobby.id).where(Lobby.code == code))
    if lobby_id is None:
        return None
    q = select(Game).where(Game.status == "finished", Game.lobby_id == lobby_id)
    return page_games(s, q, limit, offset)


def import_info(s: Session, game_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The import row's data of each imported game among ``game_ids``."""
    if not game_ids:
        return {}
    rows = s.execute(
        select(GameEvent.game_id, GameEvent.data).where(
            GameEvent.game_id.in_(game_ids), GameEvent.kind == IMPORT_KIND
        )
    )
    return {gid: dict(data) for gid, data in rows}
