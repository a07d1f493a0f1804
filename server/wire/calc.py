"""The score calculator's JSON contract as a pure function (used by the CLI and HTTP).

Input object (only ``tiles`` is required)::

    {"tiles": "234m406p55s789s11z", "melds": [{"type": "pon", "tiles": "777z"}],
     "win": "5s", "tsumo": false, "riichi": false, "double_riichi": false,
     "ippatsu": false, "haitei": false, "houtei": false, "rinshan": false,
     "chankan": false, "tenhou": false, "chiihou": false,
     "seat_wind": "E", "round_wind": "E",
     "dora_indicators": "1m" | ["1m", "4z"], "ura_indicators": ...,
     "honba": 0, "riichi_sticks": 0, "rules": "standard" | {"preset": "tenhou", ...}}

``tiles`` are the concealed tiles including the winning tile; ``win`` defaults
to the last of them. Winds default to "E" (so the winner is the dealer unless
``seat_wind`` says otherwise). Unknown fields are refused, so a typo cannot
silently score a different hand.

Output: ``yaku`` [{"id", "han"}], ``yakuman`` [{"id", "multiplier"}], ``han``,
``fu``, ``limit``, ``dora``, ``aka``, ``ura``, ``payments`` (before honba and
sticks) and ``total``; or ``{"error": {"code", "message", "field"}}`` with code
"not_agari", "no_yaku" or "bad_input" (``field`` names the offending input
field, null when the whole request is at fault).
"""

from __future__ import annotations

from typing import Any

from server.engine import resolve_rules
from server.engine.melds import Meld
from server.engine.riichi.rules import RulesError, RuleSet, resolve
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.win import ScoreError, WinContext, WinResult
from server.engine.tiles import EAST, WIND_LETTERS, Tile, TileError, parse_tile, parse_tiles
from server.wire import nanchang_calc
from server.wire.riichi import hand_json

BOOL_FIELDS = (
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
)
FIELDS = frozenset(
    {
        "tiles",
        "melds",
        "win",
        "seat_wind",
        "round_wind",
        "dora_indicators",
        "ura_indicators",
        "honba",
        "riichi_sticks",
        "rules",
        *BOOL_FIELDS,
    }
)
MAX_HONBA = 100
MAX_STICKS = 100


class _InputError(Exception):
    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def error(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def _tiles(obj: dict[str, Any], name: str) -> list[Tile]:
    v = obj[name]
    if not isinstance(v, str):
        raise _InputError(name, f"{name}: must be a tile string like '234m406p55s'")
    try:
        return parse_tiles(v)
    except TileError as exc:
        raise _InputError(name, f"{name}: {exc}") from None


def _indicators(obj: dict[str, Any], name: str) -> tuple[Tile, ...]:
    v = obj.get(name, [])
    try:
        if isinstance(v, str):
            return tuple(parse_tiles(v))
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return tuple(parse_tile(x) for x in v)
    except TileError as exc:
        raise _InputError(name, f"{name}: {exc}") from None
    raise _InputError(name, f"{name}: must be a tile string or a list of tile strings")


def _wind(obj: dict[str, Any], name: str) -> int:
    v = obj.get(name, "E")
    if not isinstance(v, str) or v not in WIND_LETTERS or len(v) != 1:
        raise _InputError(name, f"{name}: must be one of 'E', 'S', 'W', 'N'")
    return EAST + WIND_LETTERS.index(v)


def _int(obj: dict[str, Any], name: str, limit: int) -> int:
    v = obj.get(name, 0)
    if type(v) is not int or not 0 <= v <= limit:
        raise _InputError(name, f"{name}: must be an integer 0..{limit}")
    return v


def _melds(obj: dict[str, Any]) -> list[Meld]:
    v = obj.get("melds", [])
    if not isinstance(v, list):
        raise _InputError("melds", "melds: must be a list of {type, tiles} objects")
    out: list[Meld] = []
    for i, m in enumerate(v):
        name = f"melds[{i}]"
        if not isinstance(m, dict) or set(m) != {"type", "tiles"}:
            raise _InputError(name, f"{name}: must be an object with 'type' and 'tiles'")
        if not isinstance(m["type"], str) or not isinstance(m["tiles"], str):
            raise _InputError(name, f"{name}: 'type' and 'tiles' must be strings")
        try:
            out.append(Meld.parse(m["type"], m["tiles"]))
        except ValueError as exc:
            raise _InputError(name, f"{name}: {exc}") from None
    return out


def parse_request(obj: Any) -> tuple[list[Tile], list[Meld], WinContext, RuleSet]:
    """Turn a request object into score_hand arguments; raises _InputError."""
    if not isinstance(obj, dict):
        raise _InputError(None, "the request must be a JSON object")
    unknown = sorted(set(obj) - FIELDS)
    if unknown:
        raise _InputError(unknown[0], f"{unknown[0]}: unknown field")
    if "tiles" not in obj:
        raise _InputError("tiles", "tiles: required (the concealed tiles incl. the winning tile)")
    tiles = _tiles(obj, "tiles")
    melds = _melds(obj)
    if "win" in obj:
        v = obj["win"]
        if not isinstance(v, str):
            raise _InputError("win", "win: must be one tile like '5p'")
        try:
            win = parse_tile(v)
        except TileError as exc:
            raise _InputError("win", f"win: {exc}") from None
    elif tiles:
        win = tiles[-1]
    else:
        raise _InputError("tiles", "tiles: empty")
    flags: dict[str, bool] = {}
    for name in BOOL_FIELDS:
        v = obj.get(name, False)
        if type(v) is not bool:
            raise _InputError(name, f"{name}: must be true or false")
        flags[name] = v
    try:
        rules = resolve(obj.get("rules"))
    except RulesError as exc:
        raise _InputError("rules", f"rules: {exc}") from None
    except TypeError as exc:
        raise _InputError("rules", f"rules: {exc}") from None
    ctx = WinContext(
        win_tile=win,
        seat_wind=_wind(obj, "seat_wind"),
        round_wind=_wind(obj, "round_wind"),
        dora_indicators=_indicators(obj, "dora_indicators"),
        ura_indicators=_indicators(obj, "ura_indicators"),
        honba=_int(obj, "honba", MAX_HONBA),
        riichi_sticks=_int(obj, "riichi_sticks", MAX_STICKS),
        **flags,
    )
    return tiles, melds, ctx, rules


def result_json(r: WinResult) -> dict[str, Any]:
    return {**hand_json(r), "payments": dict(r.payments), "total": r.total}


def score_request(obj: Any) -> dict[str, Any]:
    """Score one request object; never raises for bad input (returns an error object).

    A request whose ``rules`` name a Nanchang preset is a Nanchang hand
    (``server/wire/nanchang_calc.py``).
    """
    if isinstance(obj, dict) and obj.get("rules") is not None:
        try:
            variant, options = resolve_rules(obj["rules"])
        except (ValueError, TypeError) as exc:
            return error("bad_input", f"rules: {exc}", "rules")
        if variant.key == "nanchang":
            return nanchang_calc.score_request(obj, options)
    try:
        tiles, melds, ctx, rules = parse_request(obj)
    except _InputError as exc:
        return error("bad_input", exc.message, exc.field)
    try:
        return result_json(score_hand(tiles, melds, ctx, rules))
    except ScoreError as exc:
        field = str(exc).split(":", 1)[0] if exc.code == "bad_input" else None
        if field is not None and field.split("[", 1)[0] not in FIELDS:
            field = None
        return error(exc.code, str(exc), field)
