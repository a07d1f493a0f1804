"""Abuse bench: the honest players' latency while one client abuses the server.

Starts ``jantaku serve`` (SQLite, the default limits) and has ``--tables`` honest
tables of four WebSocket clients play as in bench/load.py (one action a second
per table), each table from its own loopback address (127.0.1.x), as players
are. Meanwhile one abuser, from 127.0.0.2, runs each abuse of issue 12 in turn
for ``--seconds``: a lobby-creation flood, a rename flood, lobby-code look-ups
over HTTP and /ws/lobby, sockets that never say hello, spectators on a table
whose spectate link leaked, and resync floods. Prints, per abuse, the honest
players' p50/p99 (from sending an action until all four seats have its view),
their errors, and what the abuser got (accepted / refused).

    .venv/bin/python bench/abuse.py                 # 100 tables, 15 s per abuse
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import string
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # bench/load.py: the server's start, the honest clients

ABUSER = "127.0.0.2"


def table_address(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def make_tables(base: str, n: int) -> list[tuple[int, list[str], str, str]]:
    """``n`` started tables, each made from its own address: (game id, tokens, code, watch)."""
    rules = {"preset": "standard", "think_seconds": 0}
    sem = asyncio.Semaphore(10)

    async def one(i: int) -> tuple[int, list[str], str, str]:
        transport = httpx.AsyncHTTPTransport(local_address=table_address(i))
        async with sem, httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
            tokens = []
            for k in range(4):
                r = await http.post("/api/guest", json={"name": f"honest{k}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            r = await http.post("/api/lobbies", json={"rules": rules}, headers=auth[0])
            r.raise_for_status()
            code = r.json()["code"]
            for k in (1, 2, 3):
                (
                    await http.post(f"/api/lobbies/{code}/join", json={"slot": k}, headers=auth[k])
                ).raise_for_status()
                (
                    await http.post(f"/api/lobbies/{code}/ready", json={}, headers=auth[k])
                ).raise_for_status()
            r = await http.post(f"/api/lobbies/{code}/start", headers=auth[0])
            r.raise_for_status()
            game = r.json()["game"]
            return game["id"], tokens, code, game["watch_path"].rsplit("/", 1)[1]

    return list(await asyncio.gather(*(one(i) for i in range(n))))


def _honest(
    conn: Any, ws_base: str, tables: list[Any], addrs: list[str], t0: float, t1: float
) -> None:
    conn.send(uvloop.run(load.play(ws_base, tables, 1.0, True, t0, t1, addrs)))
    conn.close()


# -- the abuses ---------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def _http(base: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=10)


async def _flood(seconds: float, workers: int, once: Callable[[], Awaitable[None]]) -> None:
    end = time.monotonic() + seconds

    async def worker() -> None:
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError, OSError, WebSocketException, TimeoutError):
                await once()

    await asyncio.gather(*(worker() for _ in range(workers)))


async def abuse_lobbies(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    async with _http(base) as http:
        token = (await http.post("/api/guest", json={"name": "Flood"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}

        async def once() -> None:
            t.add(str((await http.post("/api/lobbies", json={}, headers=auth)).status_code))

        await _flood(seconds, 20, once)


async def abuse_renames(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    async with _http(base) as http:
        token = (await http.post("/api/guest", json={"name": "Renamer"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}

        async def once() -> None:
            name = "".join(random.choices(string.ascii_letters, k=12))
            r = await http.patch("/api/me", json={"name": name}, headers=auth)
            t.add(str(r.status_code))

        await _flood(seconds, 20, once)


def _code() -> str:
    return "".join(random.choices(string.ascii_letters + string.digits, k=16))


async def abuse_lookups(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    async with _http(base) as http:

        async def over_http() -> None:
            t.add("http " + str((await http.get(f"/api/lobbies/{_code()}/games")).status_code))

        async def over_ws() -> None:
            async with connect(f"{ws}/ws/lobby/{_code()}", local_addr=(ABUSER, 0)) as c:
                await c.send('{"type": "hello"}')
                t.add("ws " + json.loads(await c.recv())["code"])

        await asyncio.gather(_flood(seconds, 10, over_http), _flood(seconds, 10, over_ws))


async def abuse_idle_sockets(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    held: list[ClientConnection] = []
    end = time.monotonic() + seconds

    async def one() -> None:
        try:
            c = await connect(f"{ws}/ws/table/1", local_addr=(ABUSER, 0), open_timeout=5)
        except (OSError, WebSocketException, TimeoutError):
            t.add("refused")
            return
        held.append(c)
        t.add("opened")

    while time.monotonic() < end:
        await asyncio.gather(*(one() for _ in range(100)))
        await asyncio.sleep(0.2)
        t.counts["open_now"] = sum(1 for c in held if c.close_code is None)
    await asyncio.gather(*(c.close() for c in held), return_exceptions=True)


async def _spectators(ws: str, victim: Any, n: int, t: Tally) -> list[ClientConnection]:
    game_id, _tokens, _code, key = victim
    out = []
    for _ in range(n):
        try:
            c = await connect(f"{ws}/ws/table/{game_id}", local_addr=(ABUSER, 0), max_queue=None)
            await c.send(orjson.dumps({"type": "hello", "watch": key}).decode())
            first = json.loads(await c.recv())
            t.add(first.get("code") or first["type"])
            out.append(c)
        except (OSError, WebSocketException, TimeoutError):
            t.add("refused")
    return out


async def _drain(c: ClientConnection) -> None:
    with contextlib.suppress(WebSocketException, OSError):
        async for _ in c:
            pass


async def abuse_spectators(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    socks = await _spectators(ws, victim, 500, t)
    readers = [asyncio.create_task(_drain(c)) for c in socks]
    await asyncio.sleep(seconds)
    await asyncio.gather(*(c.close() for c in socks), return_exceptions=True)
    for r in readers:
        r.cancel()


async def abuse_resync(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    socks = await _spectators(ws, victim, 100, t)
    end = time.monotonic() + seconds

    async def flood(c: ClientConnection) -> None:
        with contextlib.suppress(WebSocketException, OSError):
            while time.monotonic() < end:
                await c.send('{"type":"resync"}')
                t.add("resync sent")
                await asyncio.sleep(0.05)  # 20 a second a socket

    readers = [asyncio.create_task(_drain(c)) for c in socks]
    await asyncio.gather(*(flood(c) for c in socks))
    await asyncio.gather(*(c.close() for c in socks), return_exceptions=True)
    for r in readers:
        r.cancel()


async def nothing(base: str, ws: str, seconds: float, t: Tally, victim: Any) -> None:
    await asyncio.sleep(seconds)


ABUSES: list[tuple[str, Any]] = [
    ("none", nothing),
    ("lobby creation flood", abuse_lobbies),
    ("rename flood", abuse_renames),
    ("code look-ups (HTTP + /ws/lobby)", abuse_lookups),
    ("sockets without hello", abuse_idle_sockets),
    ("500 spectators, leaked link", abuse_spectators),
    ("resync 20/s on 100 sockets", abuse_resync),
]


async def run_abuses(base: str, ws: str, seconds: float, victim: Any) -> list[dict[str, Any]]:
    out = []
    for name, fn in ABUSES:
        t = Tally()
        start = time.time()
        await fn(base, ws, seconds, t, victim)
        out.append({"abuse": name, "from": start, "to": time.time(), "abuser": t.counts})
        await asyncio.sleep(2.0)  # let the server settle between abuses
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=15.0, help="per abuse (default 15)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="jantaku-abuse-"))
    port = load.free_port()
    # The server as deployed (default limits), but bots never take a seat over.
    proc = load.start_server(
        f"sqlite:///{tmp}/abuse.db", port, tmp / "server.log", 0.0, defaults=True
    )
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        tables = asyncio.run(make_tables(base, args.tables))
        total = len(ABUSES) * (args.seconds + 2.0) + 10
        t0 = time.time() + 3 + 0.02 * len(tables)
        ctx = multiprocessing.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        honest = ctx.Process(
            target=_honest,
            args=(send, ws, [(g, tok) for g, tok, _, _ in tables],
                  [table_address(i) for i in range(len(tables))], t0, t0 + total),
        )  # fmt: skip
        honest.start()
        time.sleep(max(0.0, t0 - time.time()))
        windows = asyncio.run(run_abuses(base, ws, args.seconds, tables[0]))
        part = recv.recv()
        honest.join()
    finally:
        proc.terminate()
        proc.wait(60)
    rows = []
    for w in windows:
        lat = sorted(
            x for at, x in zip(part["sent_at"], part["latencies"], strict=True)
            if w["from"] <= at < w["to"]
        )  # fmt: skip

        def pct(q: float, lat: list[float] = lat) -> float:
            return (
                round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 1) if lat else float("nan")
            )

        rows.append(
            {
                "abuse": w["abuse"],
                "honest_actions": len(lat),
                "honest_p50_ms": pct(0.5),
                "honest_p99_ms": pct(0.99),
                "honest_max_ms": round(lat[-1] * 1000, 1) if lat else None,
                "abuser": w["abuser"],
            }
        )
    result = {
        "tables": args.tables,
        "seconds_each": args.seconds,
        "honest_errors": part["errors"],
        "rows": rows,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.tables} honest tables, {args.seconds:.0f} s per abuse; errors {part['errors']}"
        )
        for r in rows:
            print(
                f"{r['abuse']:>34}: p50 {r['honest_p50_ms']:>6} ms"
                f"  p99 {r['honest_p99_ms']:>7} ms  max {r['honest_max_ms']:>7} ms"
                f"  ({r['honest_actions']} actions)  abuser {r['abuser']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
