"""``jantaku serve``: migrate the database, then run the web server (one worker)."""

from __future__ import annotations

import argparse
import gc
import sys

from pydantic import ValidationError

from server.paths import ProjectRootError, project_root
from server.settings import DEV_SECRET, Settings, SettingsError, get_settings, is_loopback


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000)")
    parser.add_argument(
        "--no-migrate", action="store_true", help="do not run Alembic upgrade before serving"
    )


def bind_warning(host: str, settings: Settings) -> str | None:
    """What is unsafe about serving on ``host`` with these settings (None: nothing)."""
    if not is_loopback(host) and settings.secret == DEV_SECRET:
        return (
            f"listening on {host} (not only this machine) with the development secret: "
            "anyone who reads the source can check stolen tokens; set JANTAKU_SECRET"
        )
    return None


def backfill_stats(url: str) -> int:
    from server.db import stats
    from server.db.session import Database

    db = Database(url)
    try:
        return db.run(stats.backfill)
    finally:
        db.dispose()


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from server.api.app import create_app
    from server.db import migrate
    from server.logconfig import log_config

    try:
        settings = get_settings()
        project_root()  # migrations/ and web/ must be found before anything starts
    except (SettingsError, ValidationError, ProjectRootError) as exc:
        print(f"jantaku serve: {exc}", file=sys.stderr)
        return 2
    host = args.host or settings.host
    warning = bind_warning(host, settings)
    if warning:
        print(f"jantaku serve: WARNING: {warning}", file=sys.stderr)
    if not args.no_migrate:
        migrate.upgrade(settings.sqlalchemy_url)
        # Stats summaries of games finished before summaries existed (once; then none).
        written = backfill_stats(settings.sqlalchemy_url)
        if written:
            print(f"jantaku serve: {written} stats summaries backfilled", file=sys.stderr)
    # Everything imported so far lives as long as the process: keep it out of the
    # collector's passes; the app freezes what survives from then on (server/api/memory.py),
    # so the collector only ever scans what was allocated in the last second.
    gc.collect()
    gc.freeze()
    # The recorder commits from a worker thread, and every table waits for its step's
    # commit before sending it. With the event loop busy, a thread waits up to the
    # switch interval (5 ms) each time it wants the GIL back, several times a commit:
    # 0.2 ms keeps that wait short (bench/load.py: p50 9 -> 6 ms for the commit alone).
    sys.setswitchinterval(0.0002)
    uvicorn.run(
        create_app(settings, manage_gc=True),
        host=host,
        port=args.port or settings.port,
        workers=1,
        # The sans-I/O implementation: the legacy one is deprecated in websockets >= 14.
        ws="websockets-sansio",
        # Frames above our own limit get a protocol error; only absurd ones are cut here.
        ws_max_size=1 << 20,
        ws_per_message_deflate=settings.ws_compression,
        # Our loggers (server.*) and uvicorn's, JSON lines by default (server/logconfig.py).
        log_config=log_config(settings.log_format, settings.log_level),
        log_level=settings.log_level,
        # X-Forwarded-For/-Proto are trusted from the addresses in FORWARDED_ALLOW_IPS
        # (uvicorn reads it; default 127.0.0.1): docs/operations.md.
        proxy_headers=True,
    )
    return 0
