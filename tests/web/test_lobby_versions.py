"""web/js/lobbyversions.js in Node: a page applies each next lobby push, ignores older
ones and asks for the lobby again once when a version was skipped (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from tests.web.foldkit import run_client


def accept(frames: list[Any]) -> list[str]:
    """What the client module makes of each frame (``"reconnect"``: a new socket)."""
    made: list[str] = run_client("lobby_versions.mjs", ("lobbyversions.js",), frames, 60)
    return made


def lobby(version: int, **extra: Any) -> dict[str, Any]:
    return {"type": "lobby", "version": version, "lobby": {"code": "X"}, **extra}


def test_next_versions_apply_older_ones_are_ignored() -> None:
    # a connection's first push is applied whatever its version (held pushes it already
    # includes follow it)
    got = accept([lobby(7), lobby(6), lobby(7), lobby(8), lobby(9), lobby(8)])
    assert got == ["apply", "stale", "stale", "apply", "apply", "stale"]


def test_a_gap_asks_for_the_lobby_once_and_its_answer_is_taken() -> None:
    frames = [lobby(3), lobby(5), lobby(6), lobby(4), lobby(6, resync=True), lobby(7)]
    assert accept(frames) == ["apply", "resync", "wait", "apply", "apply", "apply"]
    # a resync answer further on is taken too
    assert accept([lobby(3), lobby(5), lobby(9, resync=True)]) == ["apply", "resync", "apply"]


def test_a_new_connection_starts_over() -> None:
    frames = [lobby(5), "reconnect", lobby(2), lobby(3)]
    assert accept(frames) == ["apply", "reset", "apply", "apply"]
