"""Fault bench: kill -9 the server mid-game, again and again; nothing a client saw is lost.

Starts ``jantaku serve`` as a subprocess on SQLite or PostgreSQL, creates tables
of two human WebSocket clients and two bots, and lets the humans play (a seeded
random policy: calls and kans too). Every frame any client receives is kept. At
random moments, and at times right after a game ends, the server gets SIGKILL
and is started again; the clients reconnect with their last version and play
on, and finished tables are replaced by new ones. At the end the record is read
from the database and every frame is checked against it:

* every event a client received is in the record at the same version, with the
  same content (a hidden event: the record has it, and the seat may not see it);
* every view a client received is the view of the recorded game at its version;
* every ``game_over`` shows the standings the database holds.

Prints the kills, the frames checked, and the three figures of issue 12: lost
acknowledged actions (a client's own action it saw accepted, missing from the
record), re-used versions (a version received with content the record does not
have at that version) and changed endings.

    .venv/bin/python bench/faults.py                    # 20 kills on SQLite, 20 on PostgreSQL
    .venv/bin/python bench/faults.py --db sqlite --kills 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG_BASE = os.environ.get("DATABASE_URL_TEST", "postgresql://postgres@127.0.0.1:5432/test")
OWN_ACTION_EVENTS = ("discard", "call", "kan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``jantaku serve`` in a subprocess that can be killed and started again."""

    def __init__(self, db_url: str, workdir: Path, call_window: float) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: Any = None
        self.starts = 0
        self.env = {
            **os.environ,
            "JANTAKU_ENV": "test",
            "JANTAKU_SECRET": secrets.token_urlsafe(48),
            "DATABASE_URL": db_url,
            "JANTAKU_JOIN_RATE_PER_MINUTE": "100000",
            "JANTAKU_GUEST_RATE_PER_MINUTE": "100000",
            "JANTAKU_LOBBY_RATE_PER_MINUTE": "100000",
            "JANTAKU_RENAME_RATE_PER_MINUTE": "100000",
            "JANTAKU_BOT_DELAY_SECONDS": "0.005",
            "JANTAKU_ROUND_END_PAUSE_SECONDS": "0.3",
            "JANTAKU_DISCONNECT_GRACE_SECONDS": "60",
            "JANTAKU_CALL_WINDOW_SECONDS": str(call_window),
            "JANTAKU_WS_RATE_PER_SECOND": "1000",
            "JANTAKU_WS_RATE_BURST": "1000",
        }

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.starts += 1
        log = self.log = (self.workdir / f"server-{self.starts}.log").open("wb")
        # Migrated by the first start; a restart after a crash skips it, as an operator's
        # supervisor would restart the same version.
        extra = ["--no-migrate"] if self.starts > 1 else []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(self.port), *extra],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient(timeout=1) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited; see {log.name}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"{self.http}/api/health")).status_code == 200:
                        return
                await asyncio.sleep(0.05)
        raise RuntimeError(f"the server did not start; see {log.name}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log is not None:
            self.log.close()


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Win when possible, else a random legal action (calls, kans and riichi included)."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    for a in legal:
        if a["type"] in ("tsumo", "ron"):
            return a
    return rng.choice(legal)


@dataclass
class Seat:
    """One human's connection to one game, reconnecting whenever the server goes away."""

    game_id: int
    token: str
    rng: random.Random
    frames: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    version: int | None = None
    game_over: dict[str, Any] | None = None
    connects: int = 0

    async def run(self, srv: Server, stop: asyncio.Event, ended: asyncio.Event) -> None:
        while self.game_over is None and not stop.is_set():
            with contextlib.suppress(TimeoutError, OSError, WebSocketException):
                await self._session(srv, stop, ended)
            if self.game_over is None and not stop.is_set():
                await asyncio.sleep(0.05)

    async def _session(self, srv: Server, stop: asyncio.Event, ended: asyncio.Event) -> None:
        async with connect(f"{srv.ws}/ws/table/{self.game_id}", open_timeout=5) as ws:
            self.connects += 1
            hello = {"type": "hello", "token": self.token, "last_version": self.version}
            await ws.send(json.dumps(hello))
            continued = -1
            while not stop.is_set():
                raw = await ws.recv()
                msg = orjson.loads(raw)
                for m in msg["messages"] if msg["type"] == "batch" else [msg]:
                    self.frames.append(m)
                    t = m["type"]
                    if t == "welcome":
                        self.seat = m["seat"]
                        if m["mode"] == "resync":
                            self.version = None
                    elif t == "event":
                        self.version = m["version"]
                    elif t == "view":
                        self.version = m["version"]
                        view = m["view"]
                        if view["legal_actions"]:
                            action = choose(view, self.rng)
                            await ws.send(
                                json.dumps(
                                    {"type": "action", "action": action, "version": m["version"]}
                                )
                            )
                        elif view["phase"] == "round_end" and continued != m["version"]:
                            continued = m["version"]
                            await ws.send('{"type":"continue"}')
                    elif t == "game_over":
                        self.game_over = m
                        ended.set()
                        return
                    elif t == "error" and m["code"] == "not_found":
                        return


QUICK = {"start_points": 1000, "return_points": 1000}  # the first payment over 1000 ends it


async def new_table(srv: Server, rng: random.Random, quick: bool) -> list[Seat]:
    """Two guests and two bots at a started tonpuu table (retried while the server is down).

    ``quick``: 1000 points each, so that the game ends (tobi) within a round or two.
    """
    while True:
        try:
            async with httpx.AsyncClient(base_url=srv.http, timeout=5) as http:
                tokens = []
                for name in ("Aoi", "Ren"):
                    r = await http.post("/api/guest", json={"name": name})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
                rules: dict[str, Any] = {"preset": "standard", "length": "tonpuu"}
                rules.update(think_seconds=0, **(QUICK if quick else {}))
                r = await http.post("/api/lobbies", json={"rules": rules}, headers=auth[0])
                r.raise_for_status()
                code = r.json()["code"]
                (
                    await http.post(f"/api/lobbies/{code}/join", json={}, headers=auth[1])
                ).raise_for_status()
                (
                    await http.post(f"/api/lobbies/{code}/ready", json={}, headers=auth[1])
                ).raise_for_status()
                for level in ("random", "efficient"):
                    r = await http.post(
                        f"/api/lobbies/{code}/bots", json={"level": level}, headers=auth[0]
                    )
                    r.raise_for_status()
                r = await http.post(f"/api/lobbies/{code}/start", headers=auth[0])
                r.raise_for_status()
                game_id = r.json()["game"]["id"]
                return [Seat(game_id, t, random.Random(rng.random())) for t in tokens]
        except httpx.HTTPError:
            await asyncio.sleep(0.1)


@dataclass
class Run:
    kills: int = 0
    kills_after_game_over: int = 0
    seats: list[Seat] = field(default_factory=list)


async def play(
    srv: Server,
    *,
    kills: int,
    tables: int,
    gap: tuple[float, float],
    settle: float,
    seed: int,
    quick: bool,
    first_at_end: bool,
) -> Run:
    """Play with ``tables`` tables at once and kill the server ``kills`` times.

    ``first_at_end``: the first kill waits (up to 30 s) for a game to end.
    """
    rng = random.Random(seed)
    await srv.start()
    stop = asyncio.Event()
    ended = asyncio.Event()
    run = Run()
    tasks: list[asyncio.Task[None]] = []

    async def add_table() -> None:
        seats = await new_table(srv, rng, quick)
        run.seats.extend(seats)
        tasks.extend(asyncio.create_task(s.run(srv, stop, ended)) for s in seats)

    for _ in range(tables):
        await add_table()
    while run.kills < kills:
        # A random moment, or the moment a game ends (its ending is what must hold).
        ended.clear()
        wait = asyncio.create_task(ended.wait())
        timeout = 30.0 if first_at_end and run.kills == 0 else rng.uniform(*gap)
        done, _ = await asyncio.wait({wait}, timeout=timeout)
        wait.cancel()
        after_end = bool(done)
        if after_end:
            await asyncio.sleep(rng.uniform(0.0, 0.05))
        srv.kill()
        run.kills += 1
        run.kills_after_game_over += after_end
        await srv.start()
        live = {s.game_id for s in run.seats if s.game_over is None}
        for _ in range(tables - len(live)):
            await add_table()
    await asyncio.sleep(settle)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    srv.stop()
    return run


# -- checking the frames against the record ----------------------------------


def canonical(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


def check(db_url: str, run: Run) -> dict[str, Any]:
    """Compare every frame any client received with the recorded games."""
    from sqlalchemy import select

    from server.db.models import Game, GameEvent, GameSeat
    from server.db.session import Database

    db = Database(db_url)
    out = {
        "frames": 0,
        "events_checked": 0,
        "views_checked": 0,
        "lost_acknowledged_actions": 0,
        "reused_versions": 0,
        "views_not_in_record": 0,
        "game_overs": 0,
        "changed_endings": 0,
        "problems": [],
    }
    by_game: dict[int, list[Seat]] = {}
    for s in run.seats:
        by_game.setdefault(s.game_id, []).append(s)
    try:
        with db.session() as session:
            for game_id, seats in by_game.items():
                g = session.get(Game, game_id)
                assert g is not None
                rows = session.execute(
                    select(
                        GameEvent.version,
                        GameEvent.kind,
                        GameEvent.data,
                        GameEvent.type,
                        GameEvent.seats,
                    )
                    .where(GameEvent.game_id == game_id)
                    .order_by(GameEvent.id)
                ).all()
                record = {v: (t, d, st) for v, k, d, t, st in rows if k == "event"}
                final = {
                    gs.seat: (gs.final_points, gs.rank, gs.score)
                    for gs in session.scalars(select(GameSeat).where(GameSeat.game_id == game_id))
                }
                wanted: dict[tuple[int, int | None], set[bytes]] = {}
                for seat in seats:
                    for f in seat.frames:
                        if f["type"] == "view":
                            wanted.setdefault((f["version"], seat.seat), set())
                _recorded_views(g.rules, g.seed, g.first_dealer, rows, len(record), wanted)
                for seat in seats:
                    for f in seat.frames:
                        out["frames"] += 1
                        problem = _check_frame(f, seat, record, wanted, final, out)
                        if problem:
                            out["problems"].append({"game": game_id, "seat": seat.seat, **problem})
    finally:
        db.dispose()
    out["problems"] = out["problems"][:20]
    return out


def _recorded_views(
    rules: Any,
    seed: str,
    first_dealer: int,
    rows: list[Any],
    events: int,
    wanted: dict[tuple[int, int | None], set[bytes]],
) -> None:
    """Fill ``wanted[(version, seat)]`` with the views of the recorded game at that
    version: one per state at a step boundary (a pass that caused no event makes two)."""
    from server.tables.options import game_setup
    from server.wire.actions import parse_action
    from server.wire.codec import codec_for

    variant, resolved, _ = game_setup(rules)
    codec = codec_for(variant)
    st = variant.new_game(resolved, bytes.fromhex(seed), first_dealer)
    by_version: dict[int, list[int | None]] = {}
    for wv, ws in wanted:
        by_version.setdefault(wv, []).append(ws)

    def mark(v: int) -> None:
        for ws in by_version.get(v, ()):
            wanted[(v, ws)].add(canonical(codec.views(st, [ws])[0]))

    version = len(variant.start_events(st))
    mark(version)
    for _v, kind, data, _t, _s in rows:
        if kind != "action":
            continue
        if variant.phase(st) == "round_end":
            version += len(variant.next_round(st))
            mark(version)
        version += len(variant.apply(st, parse_action(data, seats=variant.seats)))
        mark(version)
    if variant.phase(st) == "round_end" and events > version:
        version += len(variant.next_round(st))
        mark(version)


def _check_frame(
    f: dict[str, Any],
    seat: Seat,
    record: dict[int, tuple[str, Any, Any]],
    wanted: dict[tuple[int, int | None], set[bytes]],
    final: dict[int, tuple[Any, Any, Any]],
    out: dict[str, Any],
) -> dict[str, Any] | None:
    t = f["type"]
    if t == "event":
        out["events_checked"] += 1
        v = f["version"]
        rec = record.get(v)
        ev = f.get("event")
        own = ev is not None and ev.get("seat") == seat.seat and ev["type"] in OWN_ACTION_EVENTS
        if rec is None:
            out["reused_versions"] += 1
            out["lost_acknowledged_actions"] += own
            return {"version": v, "why": "not in the record", "event": ev}
        rtype, rdata, rseats = rec
        if rseats is not None and seat.seat not in rseats:
            # what another seat is sent of a private event: a part of it (None where
            # a field is hidden), or its version alone
            if ev is not None and any(x is not None and rdata.get(k) != x for k, x in ev.items()):
                out["reused_versions"] += 1
                return {"version": v, "why": "masked, not a part of the recorded event"}
            return None
        if ev is None:
            out["reused_versions"] += 1
            return {"version": v, "why": "hidden, but the recorded event is visible"}
        if ev["type"] != rtype or canonical(ev) != canonical(rdata):
            out["reused_versions"] += 1
            out["lost_acknowledged_actions"] += own
            return {"version": v, "why": "other content", "got": ev, "recorded": [rtype, rdata]}
    elif t == "view":
        out["views_checked"] += 1
        if canonical(f["view"]) not in wanted[(f["version"], seat.seat)]:
            out["views_not_in_record"] += 1
            return {"version": f["version"], "why": "view not of the recorded game"}
    elif t == "game_over":
        out["game_overs"] += 1
        shown = {r["seat"]: (r["points"], r["rank"], r["score"]) for r in f["results"]}
        if shown != final:
            out["changed_endings"] += 1
            return {"why": "ending", "shown": shown, "recorded": final}
    return None


def pg_schema_url() -> tuple[str, Any]:
    """A fresh PostgreSQL schema (dropped by the returned function)."""
    from sqlalchemy import create_engine, text

    from server.settings import normalize_db_url

    base = normalize_db_url(PG_BASE)
    engine = create_engine(base)
    schema = f"faults_{secrets.token_hex(5)}"
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))

    def drop() -> None:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()

    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", drop


def run_faults(
    db: str,
    *,
    kills: int,
    tables: int = 2,
    gap: tuple[float, float] = (0.3, 1.5),
    settle: float = 2.0,
    call_window: float = 0.01,
    seed: int = 1,
    quick: bool = False,
    first_at_end: bool = False,
    workdir: Path | None = None,
) -> dict[str, Any]:
    """Play, kill ``kills`` times on ``db`` ("sqlite" or "postgres"), and check everything."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix=f"jantaku-faults-{db}-"))
    drop = None
    if db == "sqlite":
        url = f"sqlite:///{workdir / 'faults.db'}"
    else:
        url, drop = pg_schema_url()
    srv = Server(url, workdir, call_window)
    try:
        t0 = time.monotonic()
        run = asyncio.run(
            play(
                srv,
                kills=kills,
                tables=tables,
                gap=gap,
                settle=settle,
                seed=seed,
                quick=quick,
                first_at_end=first_at_end,
            )
        )
        played = time.monotonic() - t0
        result = check(url, run)
    finally:
        srv.stop()
        if drop is not None:
            drop()
    finished = {s.game_id for s in run.seats if s.game_over is not None}
    return {
        "database": db,
        "kills": run.kills,
        "kills_right_after_game_over": run.kills_after_game_over,
        "server_starts": srv.starts,
        "games": len({s.game_id for s in run.seats}),
        "games_finished": len(finished),
        "reconnects": sum(max(0, s.connects - 1) for s in run.seats),
        "seconds": round(played, 1),
        **result,
        "server_logs": str(workdir),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    p.add_argument("--kills", type=int, default=20, help="kill -9 per database (default 20)")
    p.add_argument("--tables", type=int, default=3, help="tables playing at once (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--call-window", type=float, default=0.01, help="JANTAKU_CALL_WINDOW_SECONDS (0.01)"
    )
    p.add_argument("--quick", action="store_true", help="1000 points each: short games")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    failed = False
    for db in dbs:
        out = run_faults(
            db,
            kills=args.kills,
            tables=args.tables,
            seed=args.seed,
            call_window=args.call_window,
            quick=args.quick,
        )
        failed |= bool(
            out["lost_acknowledged_actions"]
            or out["reused_versions"]
            or out["changed_endings"]
            or out["views_not_in_record"]
        )
        if args.json:
            print(json.dumps(out))
        else:
            for k, v in out.items():
                print(f"{k:>28}: {v}")
            print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
