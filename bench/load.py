"""Load test: many tables of four WebSocket clients against one server process.

Starts ``jantaku serve`` in a subprocess on a fresh database (or uses ``--url``),
creates every table first (in bulk, ``POST /api/bench/tables``, which the spawned
servers offer; else through the public HTTP API), then has four scripted clients
per table connect (``--connect-rate`` tables a second, in waves) and play at a
fixed pace (one action per second per table by default, each table at a random
phase). The clients run in ``--procs`` processes, a table's
four seats in one, so that a single client event loop is not what is measured.
Latency is measured per action: from sending it to the moment all four seats
have received the view that follows it (protocol 2: the acting seat has
received the decision frame that answers it, after the step's events). Prints
actions/s, p50/p99 latency, errors, the server's memory, its CPU per action and
the bytes the seats received per seat per action (from each seat's first view on).
Beside the clients' latency, ``server_p50_ms``/``server_p99_ms`` are the same actions
timed inside the servers (their ``/metrics`` histogram, receipt to frames handed to
every seat, read within its buckets): what the server, not the sockets or the
clients, took.

By default it runs twice, once with every client on protocol 1 (a view per
seat per step) and once on protocol 2 (events and decision frames,
docs/protocol.md), each on a fresh server, and prints the two side by side.

    .venv/bin/python bench/load.py                      # short run: 50 tables, 20 s
    .venv/bin/python bench/load.py --tables 500 --duration 60
    .venv/bin/python bench/load.py --servers 2 --tables 2000 --duration 60

``--servers N`` starts N processes on one PostgreSQL (a fresh schema of ``--db``,
default the local test database) and one Redis (``--redis``, a key prefix of its
own), as docs/operations.md deploys them. Each table is created through one
process (which owns it) and its seats connect to the processes in turn, as a
round-robin proxy would send them: with two, half the sockets are relayed. The
CPU per action is that of all the server processes, and Redis's beside it.
    .venv/bin/python bench/load.py --protocol 2 --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.tables.steps import expand
from server.wire.actions import expand_runs

ROOT = Path(__file__).resolve().parents[1]
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Win when possible, never call, otherwise discard the drawn tile (fast, deterministic)."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    by_type: dict[str, dict[str, Any]] = {}
    for a in legal:
        by_type.setdefault(a["type"], a)
    for t in ("tsumo", "ron", "pass"):
        if t in by_type:
            return by_type[t]
    drawn = view["players"][view["seat"]]["drawn"]
    for a in legal:
        if a["type"] == "discard" and a.get("tile") == drawn:
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # wall-clock send time of each measured action
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.games_finished = 0
        self.measuring = False
        self.bytes = 0  # received by the seats while measuring

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class BenchTable:
    """Four seats of one game and the pacing of its actions."""

    def __init__(self, game_id: int, interval: float, stats: Stats) -> None:
        self.game_id = game_id
        self.interval = interval
        self.stats = stats
        self.views = [0, 0, 0, 0]  # views received per seat
        self.in_flight: tuple[float, list[int]] | None = None
        self.acting: int | None = None  # the seat whose action is in flight
        # A random phase: tables that all began at once would otherwise act in bursts.
        self.next_send = time.monotonic() + random.random() * interval
        self.wake = asyncio.Event()
        self.done = False

    def answered(self, seat: int) -> None:
        """Protocol 2: ``seat`` got a decision frame; it answers the action in flight
        when that action is this seat's."""
        if self.in_flight is not None and self.acting == seat:
            if self.stats.measuring:
                sent = self.in_flight[0]
                self.stats.latencies.append(time.monotonic() - sent)
                self.stats.sent_at.append(time.time() - (time.monotonic() - sent))
            self.in_flight = None
            self.wake.set()

    def on_view(self, seat: int) -> None:
        self.views[seat] += 1
        if self.in_flight is not None:
            sent, before = self.in_flight
            if all(v > b for v, b in zip(self.views, before, strict=True)):
                if self.stats.measuring:
                    self.stats.latencies.append(time.monotonic() - sent)
                    self.stats.sent_at.append(time.time() - (time.monotonic() - sent))
                self.in_flight = None
                self.wake.set()

    def refused(self) -> None:
        """The in-flight action was refused: no views will follow it."""
        self.in_flight = None
        self.wake.set()

    async def send_paced(self, ws: ClientConnection, frame: bytes, seat: int | None = None) -> bool:
        """Send one action when the table's pace allows and no other action is in flight.

        Plain sleeps and event waits (no ``wait_for``, which costs a task and a timer
        per call): a lost action is noticed by ``watchdog`` instead.
        """
        while self.in_flight is not None or time.monotonic() < self.next_send:
            if self.done:
                return False
            if self.in_flight is not None:
                self.wake.clear()
                await self.wake.wait()
            else:
                await asyncio.sleep(self.next_send - time.monotonic())
        now = time.monotonic()
        self.in_flight = (now, list(self.views))
        self.acting = seat
        self.next_send = max(now, self.next_send) + self.interval
        try:
            await ws.send(frame, text=True)
        except ConnectionClosed:
            return False
        if self.stats.measuring:
            self.stats.actions += 1
        return True


async def lag_monitor(lags: list[float], stop: asyncio.Event) -> None:
    """How late a 10 ms sleep wakes: the client's own event-loop delay."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - t - 0.01)


async def watchdog(tables: list[BenchTable], stats: Stats, stop: asyncio.Event) -> None:
    """Count an action with no answer after 5 s as lost, and let its table go on."""
    while not stop.is_set():
        await asyncio.sleep(1.0)
        now = time.monotonic()
        for t in tables:
            if t.in_flight is not None and now - t.in_flight[0] > 5.0:
                stats.error("lost_action")
                t.in_flight = None
                t.wake.set()


async def seat_client(
    url: str,
    token: str,
    table: BenchTable,
    stats: Stats,
    stop: asyncio.Event,
    batch: bool,
    local_addr: str | None = None,
    protocol: int = 1,
    delay: float = 0.0,
) -> None:
    # bench/abuse.py gives each table its own loopback address (per-address limits).
    source = {"local_addr": (local_addr, 0)} if local_addr else {}
    if delay:
        await asyncio.sleep(delay)  # this table's wave of connections (play)
    async with connect(
        f"{url}/ws/table/{table.game_id}",
        **source,  # type: ignore[arg-type]
        max_queue=None,
        open_timeout=60,
        compression=None,
        # The server pings every connection; 1000 client pings a process would add nothing.
        ping_interval=None,
    ) as ws:
        hello = {"type": "hello", "token": token, "batch": batch, "protocol": protocol}
        await ws.send(orjson.dumps(hello), text=True)
        seat: int | None = None
        pending: asyncio.Task[bool] | None = None
        # Protocol 2: what the seat follows of its view (its drawn tile, the version).
        drawn: str | None = None
        version = 0
        # One frame arrives about every second per table: the stop flag is seen soon.
        # Bytes count from the seat's first view on: a connection's welcome and view are
        # not what an action costs (with slow connects they fell into the measured time).
        viewed = False
        async for raw in ws:
            if stop.is_set():
                return
            if stats.measuring and viewed:
                stats.bytes += len(raw)
            first = orjson.loads(raw)
            frames = first["messages"] if first["type"] == "batch" else (first,)
            viewed = viewed or any(f["type"] == "view" for f in frames)
            for msg in [x for f in frames for x in expand(f, seat)]:
                t = msg["type"]
                if t == "welcome":
                    seat = msg["seat"]
                elif t == "event" and protocol == 2:
                    version = msg["version"]
                    ev = msg.get("event") or {}
                    if ev.get("seat") == seat and ev.get("type") == "draw":
                        drawn = ev["tile"]
                    elif ev.get("type") in ("agari", "ryuukyoku"):
                        await ws.send('{"type":"continue"}')
                elif t == "decision":
                    if "legal" not in msg:
                        continue  # only its hints or timer changed
                    table.answered(msg["seat"])
                    legal = expand_runs(msg["legal"], msg["seat"])
                    if legal and (pending is None or pending.done()):
                        view = {"legal_actions": legal, "seat": 0, "players": [{"drawn": drawn}]}
                        action = {"type": "action", "action": choose(view), "version": version}
                        pending = asyncio.create_task(
                            table.send_paced(ws, orjson.dumps(action), seat)
                        )
                elif t == "view" and protocol == 2:
                    view = msg["view"]
                    version = msg["version"]
                    drawn = view["players"][view["seat"]]["drawn"] if seat is not None else None
                    if view["legal_actions"] and (pending is None or pending.done()):
                        frame = orjson.dumps(
                            {"type": "action", "action": choose(view), "version": version}
                        )
                        pending = asyncio.create_task(table.send_paced(ws, frame, seat))
                elif t == "view" and seat is not None:
                    table.on_view(seat)
                    view = msg["view"]
                    if view["legal_actions"] and (pending is None or pending.done()):
                        frame = orjson.dumps(
                            {"type": "action", "action": choose(view), "version": msg["version"]}
                        )
                        pending = asyncio.create_task(table.send_paced(ws, frame))
                    elif view["phase"] == "round_end" and not view["legal_actions"]:
                        await ws.send('{"type":"continue"}')
                elif t == "error":
                    # "stale" is expected now and then: a decision can be overtaken by
                    # another seat's answer between the view and our paced send.
                    if msg["code"] != "stale":
                        stats.error(msg["code"])
                    table.refused()
                elif t == "game_over":
                    if not table.done:  # counted once per table, not once per seat
                        stats.games_finished += 1
                    table.done = True
                    table.wake.set()
                    return


async def make_table(http: httpx.AsyncClient, rules: dict[str, Any]) -> tuple[int, list[str]]:
    """Four guests in one lobby, slot i = seat i (seat mode "choose"), started."""
    tokens = []
    for i in range(4):
        r = await http.post("/api/guest", json={"name": f"load{i}"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    r = await http.post("/api/lobbies", json={"rules": rules}, headers=auth[0])
    r.raise_for_status()
    code = r.json()["code"]
    for i in (1, 2, 3):
        r = await http.post(f"/api/lobbies/{code}/join", json={"slot": i}, headers=auth[i])
        r.raise_for_status()
        r = await http.post(f"/api/lobbies/{code}/ready", json={}, headers=auth[i])
        r.raise_for_status()
    r = await http.post(f"/api/lobbies/{code}/start", headers=auth[0])
    r.raise_for_status()
    return r.json()["game"]["id"], tokens


# Tables per bulk request (POST /api/bench/tables).
BULK = 50
# Tables whose seats connect together (--connect-rate).
WAVE = 25


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def machine_cpu() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, every core (Linux
    /proc/stat; idle and waiting for the disk are not busy)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return float("nan"), float("nan")
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / tick, sum(fields) / tick


def start_server(
    db_url: str, port: int, log: Path, call_window: float, *, defaults: bool = False
) -> subprocess.Popen[bytes]:
    """``jantaku serve`` on ``db_url``; ``defaults``: keep the abuse limits as deployed
    (bench/abuse.py), else raise them (every client of this bench is on 127.0.0.1)."""
    proc = spawn_server(db_url, port, log, call_window, defaults=defaults)
    wait_server(proc, port, log)
    return proc


def server_env(
    db_url: str, call_window: float, *, defaults: bool = False, **extra: str
) -> dict[str, str]:
    limits = {
        "JANTAKU_JOIN_RATE_PER_MINUTE": "1000000",
        "JANTAKU_GUEST_RATE_PER_MINUTE": "1000000",
        "JANTAKU_LOBBY_RATE_PER_MINUTE": "1000000",
        "JANTAKU_MAX_SOCKETS_PER_ADDRESS": "100000",
        # The tables are made in bulk (setup_tables).
        "JANTAKU_BENCH_TABLES": "true",
    }
    env = {
        **os.environ,
        "JANTAKU_ENV": "test",
        "JANTAKU_SECRET": secrets.token_urlsafe(48),
        "DATABASE_URL": db_url,
        **({} if defaults else limits),
        "JANTAKU_ROUND_END_PAUSE_SECONDS": "1",
        # Every seat is a bench client: no bot may take one over while tables are set up.
        "JANTAKU_DISCONNECT_GRACE_SECONDS": "3600",
        # The call window holds every discard's outcome for this long (by design):
        # off by default, so that the latency is the server's own work.
        "JANTAKU_CALL_WINDOW_SECONDS": str(call_window),
        **extra,
    }
    return env


def spawn_server(
    db_url: str,
    port: int,
    log: Path,
    call_window: float,
    *,
    defaults: bool = False,
    migrate: bool = True,
    **extra: str,
) -> subprocess.Popen[bytes]:
    env = server_env(db_url, call_window, defaults=defaults, **extra)
    return subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--port", str(port)]
        + ([] if migrate else ["--no-migrate"]),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )


def wait_server(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start; see {log}")


class Cluster:
    """``n`` server processes on a fresh PostgreSQL schema and a Redis key prefix
    (``redis_url`` None: one process without Redis, as deployed before)."""

    def __init__(self, n: int, pg_base: str, redis_url: str | None, tmp: Path, call_window: float):
        from sqlalchemy import create_engine, text

        from server.settings import normalize_db_url

        self.redis_url = redis_url
        self.prefix = f"jantaku-load-{secrets.token_hex(4)}:"
        self.schema = f"load_{secrets.token_hex(4)}"
        base = normalize_db_url(pg_base)
        self.engine = create_engine(base)
        with self.engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {self.schema}"))
        sep = "&" if "?" in base else "?"
        self.db_url = f"{base}{sep}options=-csearch_path%3D{self.schema}"
        # Tokens are HMACs keyed by the secret: one for every process.
        secret = secrets.token_urlsafe(48)
        env = server_env(self.db_url, call_window, JANTAKU_SECRET=secret)
        # Migrated once, before the processes (each starts with --no-migrate).
        subprocess.run(
            [sys.executable, "-m", "server", "db", "upgrade"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.ports = [free_port() for _ in range(n)]
        self.logs = [tmp / f"server-{i}.log" for i in range(n)]
        self.procs = [
            spawn_server(
                self.db_url,
                port,
                log,
                call_window,
                migrate=False,
                JANTAKU_SECRET=secret,
                **(
                    {"JANTAKU_REDIS_URL": redis_url, "JANTAKU_REDIS_PREFIX": self.prefix}
                    if redis_url
                    else {}
                ),
            )
            for port, log in zip(self.ports, self.logs, strict=True)
        ]
        for proc, port, log in zip(self.procs, self.ports, self.logs, strict=True):
            wait_server(proc, port, log)

    def redis_pid(self) -> int | None:
        import redis

        if not self.redis_url:
            return None
        with redis.Redis.from_url(self.redis_url) as r:
            pid = r.info("server").get("process_id")
        return int(pid) if pid else None

    def close(self) -> None:
        import redis
        from sqlalchemy import text

        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.redis_url:
            with redis.Redis.from_url(self.redis_url) as r:
                for key in r.scan_iter(match=self.prefix + "*", count=1000):
                    r.delete(key)
        with self.engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {self.schema} CASCADE"))
        self.engine.dispose()


async def setup_spread(bases: list[str], n: int) -> list[tuple[int, list[str], int]]:
    """``n`` tables made through the servers in turn: (game id, tokens, server index)."""
    parts = await asyncio.gather(
        *(setup_tables(base, len(range(i, n, len(bases)))) for i, base in enumerate(bases))
    )
    return [(g, tokens, i) for i, part in enumerate(parts) for g, tokens in part]


async def setup_tables(base: str, n: int) -> list[tuple[int, list[str]]]:
    """``n`` started tables, before any seat connects: in bulk (``POST
    /api/bench/tables``, a transaction per ``BULK`` tables) when the server offers it,
    else through the public HTTP API, twelve requests a table."""
    rules = {"preset": "standard", "think_seconds": 0}
    # No keep-alive: a pooled connection the server just timed out gives ReadError.
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as http:
        probe = await http.post("/api/bench/tables", json={"count": min(n, BULK), "rules": rules})
        # (without the route, the static files answer: 404 or 405)
        if probe.status_code not in (404, 405):
            probe.raise_for_status()
            made = [(t["game_id"], t["tokens"]) for t in probe.json()["tables"]]
            # A few transactions at once: the database writes one at a time anyway.
            sem = asyncio.Semaphore(2)

            async def bulk(count: int) -> list[tuple[int, list[str]]]:
                async with sem:
                    r = await http.post("/api/bench/tables", json={"count": count, "rules": rules})
                    r.raise_for_status()
                    return [(t["game_id"], t["tokens"]) for t in r.json()["tables"]]

            left = n - len(made)
            chunks = [min(BULK, left - i) for i in range(0, left, BULK)]
            for part in await asyncio.gather(*(bulk(c) for c in chunks)):
                made.extend(part)
            return made
        sem = asyncio.Semaphore(20)

        async def one() -> tuple[int, list[str]]:
            async with sem:
                return await make_table(http, rules)

        return list(await asyncio.gather(*(one() for _ in range(n))))


async def play(
    ws_base: str,
    tables: list[tuple[int, list[str]]],
    rate: float,
    batch: bool,
    measure_from: float,
    measure_to: float,
    addresses: list[str] | None = None,
    routes: dict[int, list[str]] | None = None,
    protocol: int = 1,
    connect_rate: float | None = None,
) -> dict[str, Any]:
    """Connect every seat of ``tables`` and play; measure between two wall-clock times.

    ``addresses``: a local address per table to connect from (default: any);
    ``routes``: per game, the server each seat connects to (default: ``ws_base``);
    ``connect_rate``: tables per second whose seats connect, in waves of ``WAVE``
    tables (default: all at once). Thousands of sockets opening at once keep the
    server from reading their hellos in time (``hello_timeout``)."""
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    bench_tables: list[BenchTable] = []
    for i, (game_id, tokens) in enumerate(tables):
        table = BenchTable(game_id, 1.0 / rate, stats)
        bench_tables.append(table)
        addr = addresses[i] if addresses else None
        urls = routes[game_id] if routes else [ws_base] * len(tokens)
        delay = (i // WAVE) * WAVE / connect_rate if connect_rate else 0.0
        tasks.extend(
            asyncio.create_task(
                seat_client(url, token, table, stats, stop, batch, addr, protocol, delay)
            )
            for token, url in zip(tokens, urls, strict=True)
        )
    dog = asyncio.create_task(watchdog(bench_tables, stats, stop))
    await asyncio.sleep(max(0.0, measure_from - time.time()))
    lags: list[float] = []
    lag_task = asyncio.create_task(lag_monitor(lags, stop))
    # The client's own collector passes (a thousand connections' objects) would show
    # up as latency: collected once now, then off while measuring.
    gc.collect()
    gc.disable()
    stats.measuring = True
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, measure_to - time.time()))
    stats.measuring = False
    cpu = time.process_time() - cpu0
    gc.enable()
    stop.set()
    await dog
    await lag_task
    # Seats still waiting for a frame are cancelled (their connections close).
    for task in tasks:
        task.cancel()
    for r in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError):
            stats.error(type(r).__name__)
    return {
        "latencies": stats.latencies,
        "sent_at": stats.sent_at,
        "lags": lags,
        "actions": stats.actions,
        "errors": stats.errors,
        "games_finished": stats.games_finished,
        "cpu_s": cpu,
        "bytes": stats.bytes,
    }


_LATENCY_BUCKET = 'jantaku_action_latency_seconds_bucket{le="'


def action_histogram(bases: list[str]) -> dict[float, float]:
    """The servers' own histogram of player actions (``GET /metrics``,
    ``jantaku_action_latency_seconds``: from the gateway's receipt of an action to its
    step's frames handed to every seat), summed over the servers: upper bound -> count.
    Empty when a server does not answer (``--url`` with metrics off, say)."""
    out: dict[float, float] = {}
    for base in bases:
        try:
            r = httpx.get(f"{base}/metrics", timeout=10)
        except httpx.HTTPError:
            return {}
        if r.status_code != 200:
            return {}
        for line in r.text.splitlines():
            if line.startswith(_LATENCY_BUCKET):
                le, _, count = line[len(_LATENCY_BUCKET) :].partition('"} ')
                bound = float("inf") if le == "+Inf" else float(le)
                out[bound] = out.get(bound, 0.0) + float(count)
    return out


def histogram_figures(start: dict[float, float], end: dict[float, float]) -> dict[str, Any]:
    """p50 and p99 (ms, linear within a bucket) and the share within 50 ms, of the
    actions observed between two readings of ``action_histogram``."""
    bounds = sorted(end)
    cum = [end[b] - start.get(b, 0.0) for b in bounds]
    total = cum[-1] if cum else 0.0
    if total <= 0:
        return {"server_p50_ms": None, "server_p99_ms": None, "server_within_50ms_pct": None}

    def quantile(q: float) -> float | None:
        want = q * total
        lower, below = 0.0, 0.0
        for bound, n in zip(bounds, cum, strict=True):
            if n >= want:
                if bound == float("inf"):
                    return None  # beyond the last bucket: unknown
                share = (want - below) / (n - below) if n > below else 1.0
                return round(1000 * (lower + share * (bound - lower)), 1)
            lower, below = bound, n
        return None

    within = dict(zip(bounds, cum, strict=True)).get(0.05)
    return {
        "server_p50_ms": quantile(0.5),
        "server_p99_ms": quantile(0.99),
        "server_within_50ms_pct": None if within is None else round(100 * within / total, 1),
    }


def _p99(xs: list[float]) -> float:
    return sorted(xs)[int(0.99 * len(xs))] if xs else 0.0


def _client_process(conn: Connection, *args: Any) -> None:
    # uvloop, as the server runs on (uvicorn[standard]): the default loop's selector
    # and transports were a large part of the clients' CPU time.
    conn.send(uvloop.run(play(*args)))
    conn.close()


def run(args: argparse.Namespace) -> dict[str, Any]:
    proc = None
    cluster: Cluster | None = None
    routes: dict[int, list[str]] | None = None
    pg = (args.db or "").startswith(("postgres://", "postgresql"))
    if args.servers is not None or (pg and not args.url):
        # Many processes (or one, on PostgreSQL): a fresh schema, dropped afterwards.
        tmp = Path(tempfile.mkdtemp(prefix="jantaku-load-"))
        redis_url = args.redis if args.servers is not None else None
        n = args.servers or 1
        cluster = Cluster(n, args.db or PG_DEFAULT, redis_url, tmp, args.call_window)
        print(f"server logs: {tmp}", file=sys.stderr)
        bases = [f"http://127.0.0.1:{port}" for port in cluster.ports]
        base = bases[0]
        servers = bases
    elif args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        tmp = Path(tempfile.mkdtemp(prefix="jantaku-load-"))
        db_url = args.db or f"sqlite:///{tmp}/load.db"
        proc = start_server(db_url, port, tmp / "server.log", args.call_window)
        print(f"server log: {tmp / 'server.log'}", file=sys.stderr)
        base = f"http://127.0.0.1:{port}"
    if cluster is None:
        servers = [base]
    ws_base = "ws" + base[len("http") :]
    try:
        t0 = time.monotonic()
        if cluster is None:
            tables = asyncio.run(setup_tables(base, args.tables))
        else:
            spread = asyncio.run(setup_spread(bases, args.tables))
            tables = [(g, tokens) for g, tokens, _ in spread]
            # Seat s of a table made (and owned) by server i connects to server i + s:
            # as a round-robin proxy would, most sockets reach another process.
            n = len(bases)
            ws_bases = ["ws" + b[len("http") :] for b in bases]
            routes = {g: [ws_bases[(i + s) % n] for s in range(4)] for g, _, i in spread}
        setup = time.monotonic() - t0
        # The clients run in several processes (a table's four seats in one), so that
        # one client event loop is not what the latency measures.
        # Every seat connects first (a WebSocket handshake, a welcome and a view each),
        # in waves of WAVE tables at --connect-rate tables a second.
        measure_from = time.time() + args.warmup + len(tables) / args.connect_rate
        measure_to = measure_from + args.duration
        ctx = multiprocessing.get_context("fork")
        pipes, procs = [], []
        for i in range(args.procs):
            part = tables[i :: args.procs]
            if not part:
                continue
            recv, send = ctx.Pipe(duplex=False)
            p = ctx.Process(
                target=_client_process,
                args=(
                    send,
                    ws_base,
                    part,
                    args.rate,
                    not args.no_batch,
                    measure_from,
                    measure_to,
                    None,
                    routes,
                    args.protocol,
                    args.connect_rate / args.procs,
                ),
            )
            p.start()
            pipes.append(recv)
            procs.append(p)
        pids = [p.pid for p in cluster.procs] if cluster else [proc.pid] if proc else []
        redis_pid = cluster.redis_pid() if cluster else None
        time.sleep(max(0.0, measure_from - time.time()))
        mem_start = [rss_mb(pid) for pid in pids]
        hist_start = action_histogram(servers)
        cpu_start = sum(cpu_seconds(pid) for pid in pids) if pids else float("nan")
        redis_start = cpu_seconds(redis_pid) if redis_pid else float("nan")
        machine_start = machine_cpu()
        time.sleep(max(0.0, measure_to - time.time()))
        machine_end = machine_cpu()
        mem_end = [rss_mb(pid) for pid in pids]
        cpu = (sum(cpu_seconds(pid) for pid in pids) if pids else float("nan")) - cpu_start
        hist_end = action_histogram(servers)
        redis_cpu = (cpu_seconds(redis_pid) if redis_pid else float("nan")) - redis_start
        elapsed = args.duration
        parts = [r.recv() for r in pipes]
        for p in procs:
            p.join()
    finally:
        if cluster is not None:
            cluster.close()
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    lat = sorted(x for part in parts for x in part["latencies"])
    # p99 per tenth of the measured time: a steady run or a stall at some moment?
    buckets: list[list[float]] = [[] for _ in range(10)]
    for part in parts:
        for at, x in zip(part["sent_at"], part["latencies"], strict=True):
            i = int(10 * (at - measure_from) / elapsed)
            buckets[min(9, max(0, i))].append(x)
    p99_by_tenth = [
        round(sorted(b)[min(len(b) - 1, int(0.99 * len(b)))] * 1000, 1) if b else None
        for b in buckets
    ]
    actions = sum(part["actions"] for part in parts)
    errors: dict[str, int] = {}
    for part in parts:
        for k, v in part["errors"].items():
            errors[k] = errors.get(k, 0) + v

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    received = sum(part["bytes"] for part in parts)
    # Cores busy, as a share of the machine's time between the two readings (the
    # readings' window is not exactly the measured one: reading the servers' metrics
    # first takes a while on a loaded machine).
    cores = os.cpu_count() or 1
    machine_all = machine_end[1] - machine_start[1]
    machine_busy = (machine_end[0] - machine_start[0]) / machine_all if machine_all else 0.0
    clients_cpu = sum(part["cpu_s"] for part in parts)
    return {
        "tables": args.tables,
        "protocol": args.protocol,
        "batch": not args.no_batch,
        "connections": args.tables * 4,
        "client_processes": len(procs),
        "setup_s": round(setup, 1),
        "duration_s": round(elapsed, 1),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "latency_samples": len(lat),
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "p99_ms_by_tenth": p99_by_tenth,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        # The same actions timed inside the servers (their metrics' histogram, so only
        # as fine as its buckets): receipt to frames handed to every seat. The rest of
        # the client's figure is the sockets, the kernel and the clients.
        **histogram_figures(hist_start, hist_end),
        "errors": errors,
        "games_finished": sum(part["games_finished"] for part in parts),
        "servers": args.servers or 1,
        "redis": bool(cluster and cluster.redis_url),
        # One figure per server process.
        "server_rss_mb": {
            "start": [round(m, 1) for m in mem_start],
            "end": [round(m, 1) for m in mem_end],
        },
        # CPU the server used per action: what the machine's load does not distort.
        "server_cpu_pct": round(100 * cpu / elapsed, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / max(1, actions), 2),
        # Redis's own process (many servers only): leases, relayed frames, pushes.
        "redis_cpu_ms_per_action": round(1000 * redis_cpu / max(1, actions), 2)
        if cluster and cluster.redis_url
        else None,
        # What the seats received while measuring, per seat and per action.
        "bytes_per_seat_per_action": round(received / max(1, actions) / 4),
        # Each client process's share of one core: near 100 % means the clients, not
        # the server, set the latency.
        "client_cpu_pct": [round(100 * part["cpu_s"] / elapsed, 1) for part in parts],
        # How late each client's event loop ran (p99, max): the clients' share of the latency.
        "client_loop_lag_ms": [
            (round(1000 * _p99(part["lags"]), 1), round(1000 * max(part["lags"], default=0), 1))
            for part in parts
        ],
        # The whole machine while measuring, in cores busy (of ``cores``): the servers,
        # the clients, and the rest (the databases, Redis, the kernel, anything else).
        "cores": cores,
        "machine_busy_pct": round(100 * machine_busy, 1),
        "cores_busy": {
            "servers": round(cpu / elapsed, 2),
            "clients": round(clients_cpu / elapsed, 2),
            "rest": round(machine_busy * cores - (cpu + clients_cpu) / elapsed, 2),
        },
        "load_average": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=50, help="concurrent tables (default 50)")
    p.add_argument("--duration", type=float, default=20.0, help="measured seconds (default 20)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    p.add_argument("--rate", type=float, default=1.0, help="actions per second per table")
    p.add_argument(
        "--procs", type=int, default=2, help="client processes (default 2; tables split evenly)"
    )
    p.add_argument(
        "--db",
        help="DATABASE_URL for the spawned server (default: temp SQLite; with --servers, "
        f"PostgreSQL, a fresh schema of {PG_DEFAULT})",
    )
    p.add_argument(
        "--servers",
        type=int,
        help="server processes on one PostgreSQL and one Redis (default: one process "
        "without Redis, as before; --db postgresql://... then uses a fresh schema of it)",
    )
    p.add_argument(
        "--redis", default="redis://127.0.0.1:6379/0", help="Redis for --servers above 1"
    )
    p.add_argument(
        "--url",
        help="use a running server instead, e.g. http://127.0.0.1:8000 (started with "
        "JANTAKU_GUEST_RATE_PER_MINUTE, JANTAKU_JOIN_RATE_PER_MINUTE, "
        "JANTAKU_LOBBY_RATE_PER_MINUTE and JANTAKU_MAX_SOCKETS_PER_ADDRESS above 4 x tables)",
    )
    p.add_argument(
        "--call-window",
        type=float,
        default=0.0,
        help="the server's call window in seconds (default 0: off; a discard's latency "
        "then includes the window)",
    )
    p.add_argument(
        "--connect-rate",
        type=float,
        default=50.0,
        help=f"tables per second whose seats connect, in waves of {WAVE} tables (default 50: "
        "2,000 tables connect in 40 s)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--no-batch", action="store_true", help="one frame per message (no hello batch option)"
    )
    p.add_argument(
        "--protocol",
        choices=("1", "2", "both"),
        default="both",
        help="the clients' protocol: 1 views, 2 events and decisions, both (default): a run "
        "of each, side by side",
    )
    args = p.parse_args(argv)
    protocols = [1, 2] if args.protocol == "both" else [int(args.protocol)]
    outs = []
    for protocol in protocols:
        args.protocol = protocol
        outs.append(run(args))
    if args.json:
        print(json.dumps(outs[0] if len(outs) == 1 else outs))
    elif len(outs) == 1:
        for k, v in outs[0].items():
            print(f"{k:>25}: {v}")
    else:
        print(f"{'':>25}  {'protocol 1 (views)':<28}protocol 2 (events)")
        for k in outs[0]:
            print(f"{k:>25}: {outs[0][k]!s:<28}{outs[1][k]}")
        b1, b2 = (o["bytes_per_seat_per_action"] for o in outs)
        print(f"{'bytes ratio (2 / 1)':>25}: {b2 / max(1, b1):.3f}")
    return 0 if not any(o["errors"] for o in outs) else 1


if __name__ == "__main__":
    sys.exit(main())
