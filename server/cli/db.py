"""``jantaku db``: run Alembic migrations by hand on the configured database."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from server.paths import ProjectRootError, project_root
from server.settings import SettingsError, get_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", required=True)
    up = sub.add_parser("upgrade", help="upgrade the schema (default: to the newest revision)")
    up.add_argument("revision", nargs="?", default="head")
    down = sub.add_parser("downgrade", help="downgrade the schema (default: drop everything)")
    down.add_argument("revision", nargs="?", default="base")
    sub.add_parser("current", help="print the current revision")


def run(args: argparse.Namespace) -> int:
    from server.db import migrate

    try:
        url = get_settings().sqlalchemy_url
        project_root()
    except (SettingsError, ValidationError, ProjectRootError) as exc:
        print(f"jantaku db: {exc}", file=sys.stderr)
        return 2
    if args.db_command == "upgrade":
        migrate.upgrade(url, args.revision)
    elif args.db_command == "downgrade":
        migrate.downgrade(url, args.revision)
    print(migrate.current(url) or "(empty)")
    return 0
