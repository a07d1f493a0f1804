"""The ``jantaku`` command. Each subcommand lives in its own module of this package."""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand -> module in server.cli providing add_arguments(parser) and run(args) -> int
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run the web server (migrates the database first)"),
    "score": ("score", "score hands: JSON lines on stdin, JSON lines on stdout"),
    "log": ("log", "game logs: verify, import, export"),
    "simulate": ("simulate", "play bot hanchan in-process and check invariants"),
    "db": ("db", "database maintenance: upgrade, downgrade, backup"),
    "health": ("health", "ask the local server's /api/health (exit 0 when healthy)"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jantaku", description="Jantaku riichi mahjong server")
    sub = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name, (mod_name, help_text) in COMMANDS.items():
        try:
            mod = importlib.import_module(f"server.cli.{mod_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"server.cli.{mod_name}":
                raise
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(p)
        modules[name] = mod
    args = parser.parse_args(argv)
    return int(modules[args.command].run(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
