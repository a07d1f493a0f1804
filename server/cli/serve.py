"""``jantaku serve``: migrate the database, then run the web server (one worker)."""

from __future__ import annotations

import argparse
import gc
import sys

from pydantic import ValidationError

from server.settings import SettingsError, get_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000)")
    parser.add_argument(
        "--no-migrate", action="store_true", help="do not run Alembic upgrade before serving"
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from server.api.app import create_app
    from server.db import migrate

    try:
        settings = get_settings()
    except (SettingsError, ValidationError) as exc:
        print(f"jantaku serve: {exc}", file=sys.stderr)
        return 2
    if not args.no_migrate:
        migrate.upgrade(settings.sqlalchemy_url)
    # Everything imported so far lives as long as the process: keep it out of the
    # collector's full passes, which otherwise pause every table now and then.
    gc.collect()
    gc.freeze()
    # Each action builds thousands of short-lived objects (views, frames); with the
    # default thresholds (700, 10, 10) the collector ran hundreds of times a second
    # and its older passes paused every table for tens of milliseconds under load
    # (bench/load.py: p50 40 -> 8 ms, p99 257 -> 115 ms at 150 tables). Nearly
    # everything is freed by reference counting; cycles are rare and still collected.
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(
        create_app(settings),
        host=args.host or settings.host,
        port=args.port or settings.port,
        workers=1,
        # The sans-I/O implementation: the legacy one is deprecated in websockets >= 14.
        ws="websockets-sansio",
        # Frames above our own limit get a protocol error; only absurd ones are cut here.
        ws_max_size=1 << 20,
        ws_per_message_deflate=settings.ws_compression,
        log_level="info",
    )
    return 0
