"""``jantaku health``: ask the local server's /api/health (the Docker healthcheck).

It reads the same settings as ``jantaku serve`` (``JANTAKU_PORT``,
``JANTAKU_ROOT_PATH``), so the check follows the port the server listens on.
Exit status 0 when the server answers 200, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=None, help="port (default: JANTAKU_PORT)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds (default 3)")


def run(args: argparse.Namespace) -> int:
    import httpx
    from pydantic import ValidationError

    from server.settings import SettingsError, get_settings

    try:
        settings = get_settings()
    except (SettingsError, ValidationError) as exc:
        print(f"jantaku health: {exc}", file=sys.stderr)
        return 2
    url = f"http://127.0.0.1:{args.port or settings.port}{settings.root_path}/api/health"
    try:
        r = httpx.get(url, timeout=args.timeout)
    except httpx.HTTPError as exc:
        print(f"jantaku health: {url}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{url}: {r.status_code} {r.text.strip()}")
    return 0 if r.status_code == 200 else 1
