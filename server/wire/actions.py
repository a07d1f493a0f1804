"""Actions on the wire: ``{"type": "pon", "seat": 1, "tiles": ["5p", "0p"]}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.engine.actions import Action, ActionType
from server.engine.tiles import Tile, TileError, parse_tile, tile_str

_TSTR = [tile_str(t) for t in range(37)]
# Wire form per Action object, keyed by identity: legal lists hold the engine's
# shared Action objects, and each entry keeps its object alive so ids stay valid.
_ACTION_JSON: dict[int, tuple[Action, dict[str, Any]]] = {}


def _encode(a: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"type": a.type.value, "seat": a.seat}
    if a.tile is not None:
        d["tile"] = _TSTR[a.tile]
    if a.tiles:
        d["tiles"] = [_TSTR[t] for t in a.tiles]
    return d


def action_json(a: Action) -> dict[str, Any]:
    """The wire form of an action (a fresh dict)."""
    hit = _ACTION_JSON.get(id(a))
    if hit is None:
        if len(_ACTION_JSON) > 100_000:  # the engine's actions are a few thousand; a cap anyway
            _ACTION_JSON.clear()
        hit = _ACTION_JSON[id(a)] = (a, _encode(a))
    return dict(hit[1])


def legal_runs(actions: list[Action]) -> list[list[Any]]:
    """A seat's legal actions, compact (protocol 2's decision frames, docs/protocol.md):
    runs of one type, in order, ``[type, payload, ...]``, one payload per action: its
    tile (``"5p"``), its tiles (``["5p", "0p"]``), both (``{"tile", "tiles"}``) or ``0``;
    the tiles of consecutive one-tile actions are written as one string (``"1m9p"``: a
    tile is always two characters). The seat is the frame's. ``[["discard", "1m9p"],
    ["pass", 0]]`` are two discards and a pass."""
    runs: list[list[Any]] = []
    for a in actions:
        t = a.type.value
        if a.tile is not None and a.tiles:
            p: Any = {"tile": _TSTR[a.tile], "tiles": [_TSTR[x] for x in a.tiles]}
        elif a.tile is not None:
            p = _TSTR[a.tile]
        elif a.tiles:
            p = [_TSTR[x] for x in a.tiles]
        else:
            p = 0
        if runs and runs[-1][0] == t:
            run = runs[-1]
            if isinstance(p, str) and isinstance(run[-1], str):
                run[-1] += p
            else:
                run.append(p)
        else:
            runs.append([t, p])
    return runs


def expand_runs(runs: list[list[Any]], seat: int | None) -> list[dict[str, Any]]:
    """``legal_runs``' compact runs as wire actions (web/js/fold.js has its own)."""
    out: list[dict[str, Any]] = []
    for t, *payloads in runs:
        for p in payloads:
            if isinstance(p, str):
                out.extend(
                    {"type": t, "seat": seat, "tile": p[i : i + 2]} for i in range(0, len(p), 2)
                )
            elif isinstance(p, list):
                out.append({"type": t, "seat": seat, "tiles": p})
            elif isinstance(p, dict):
                out.append({"type": t, "seat": seat, "tile": p["tile"], "tiles": p["tiles"]})
            else:
                out.append({"type": t, "seat": seat})
    return out


def parse_action(data: Any, seat: int | None = None, seats: int = 4) -> Action:
    """Parse a wire action; ``seat`` (when given) overrides the message's seat.

    Raises ValueError with a message naming the bad field.
    """
    if not isinstance(data, Mapping):
        raise ValueError("action must be an object")
    try:
        at = ActionType(str(data.get("type")))
    except ValueError:
        raise ValueError(f"unknown action type {data.get('type')!r}") from None
    s = seat if seat is not None else data.get("seat")
    if type(s) is not int or not 0 <= s < seats:
        raise ValueError(f"action seat must be 0..{seats - 1}")
    tile: Tile | None = None
    raw = data.get("tile")
    if raw is not None:
        if not isinstance(raw, str):
            raise ValueError("action tile must be a tile string like '5p'")
        try:
            tile = parse_tile(raw)
        except TileError as exc:
            raise ValueError(f"action tile: {exc}") from None
    raw_tiles = data.get("tiles", [])
    if not isinstance(raw_tiles, list) or not all(isinstance(x, str) for x in raw_tiles):
        raise ValueError("action tiles must be a list of tile strings")
    if len(raw_tiles) > 4:
        raise ValueError("action tiles: at most 4")
    try:
        tiles = tuple(parse_tile(x) for x in raw_tiles)
    except TileError as exc:
        raise ValueError(f"action tiles: {exc}") from None
    return Action(at, s, tile, tiles)
