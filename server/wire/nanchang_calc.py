"""The score calculator's contract for a Nanchang hand (``"rules": "nanchang"``).

Input object (``tiles`` and ``indicator`` required)::

    {"rules": "nanchang", "tiles": "123m456p789s1122z3z", "win": "3z",
     "melds": [{"type": "pon", "tiles": "777z"}], "indicator": "1z",
     "tsumo": false, "dealer": false, "discarder_is_dealer": false,
     "gangkai": false, "qianggang": false, "tianhu": false, "dihu": false,
     "others_hold_jokers": true}

``tiles`` are the concealed tiles including the winning tile (``win``, by default
the last); ``indicator`` is the turned-up tile (its kind is 正精, the next 副精).
Output: ``shape``, ``elements`` and ``payer_elements`` ([{"id", "factor",
"points"}]), ``base``, ``bonus``, ``flat``, ``payments`` (per seat: the winner is
seat 0, see ``server/engine/nanchang/calc.py``), ``total``, ``jokers`` ({"zheng",
"fu"}), ``joker_points`` and ``joker_value`` (after 冲关 and 霸王精), or
``{"error": {...}}`` as for riichi.
"""

from __future__ import annotations

from typing import Any

from server.engine.nanchang.calc import NanchangHandError, score_hand
from server.engine.nanchang.melds import MELD_TYPES, Meld
from server.engine.nanchang.options import NanchangOptions
from server.engine.tiles import TileError, parse_tile, parse_tiles
from server.wire.nanchang import _TSTR, _element

FLAGS = (
    "tsumo",
    "dealer",
    "discarder_is_dealer",
    "gangkai",
    "qianggang",
    "tianhu",
    "dihu",
    "others_hold_jokers",
)
FIELDS = frozenset({"rules", "tiles", "win", "melds", "indicator", *FLAGS})


class _Bad(Exception):
    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _kinds(text: Any, field: str) -> list[int]:
    if not isinstance(text, str):
        raise _Bad(field, f"{field}: must be tiles like '123m55z'")
    try:
        ks = parse_tiles(text)
    except TileError as exc:
        raise _Bad(field, f"{field}: {exc}") from None
    if any(k >= 34 for k in ks):
        raise _Bad(field, f"{field}: Nanchang has no red fives")
    return ks


def _one(v: Any, field: str) -> int:
    if not isinstance(v, str):
        raise _Bad(field, f"{field}: must be one tile like '5p'")
    try:
        k = parse_tile(v)
    except TileError as exc:
        raise _Bad(field, f"{field}: {exc}") from None
    if k >= 34:
        raise _Bad(field, f"{field}: Nanchang has no red fives")
    return k


def _melds(raw: Any) -> list[Meld]:
    if not isinstance(raw, list) or len(raw) > 4:
        raise _Bad("melds", "melds: a list of at most 4 objects")
    out = []
    for i, m in enumerate(raw):
        name = f"melds[{i}]"
        if not isinstance(m, dict) or set(m) - {"type", "tiles"}:
            raise _Bad(name, f'{name}: an object {{"type", "tiles"}}')
        if m.get("type") not in MELD_TYPES:
            raise _Bad(name, f"{name}: type must be one of {', '.join(MELD_TYPES)}")
        tiles = tuple(sorted(_kinds(m.get("tiles"), name)))
        want = 3 if m["type"] in ("chi", "pon") else 4
        if len(tiles) != want:
            raise _Bad(name, f"{name}: a {m['type']} has {want} tiles")
        out.append(Meld(m["type"], tiles))
    return out


def score_request(obj: dict[str, Any], options: NanchangOptions) -> dict[str, Any]:
    """Score one Nanchang request; an error object (never an exception) for bad input."""
    try:
        unknown = sorted(set(obj) - FIELDS)
        if unknown:
            raise _Bad(unknown[0], f"{unknown[0]}: unknown field")
        for name in ("tiles", "indicator"):
            if name not in obj:
                raise _Bad(name, f"{name}: required")
        tiles = _kinds(obj["tiles"], "tiles")
        if not tiles:
            raise _Bad("tiles", "tiles: empty")
        win = _one(obj["win"], "win") if "win" in obj else tiles[-1]
        if win not in tiles:
            raise _Bad("win", "win: must be among the tiles")
        tiles.remove(win)
        indicator = _one(obj["indicator"], "indicator")
        melds = _melds(obj.get("melds", []))
        flags: dict[str, bool] = {}
        for name in FLAGS:
            v = obj.get(name, name == "others_hold_jokers")
            if type(v) is not bool:
                raise _Bad(name, f"{name}: must be true or false")
            flags[name] = v
    except _Bad as exc:
        return {"error": {"code": "bad_input", "message": exc.message, "field": exc.field}}
    try:
        r = score_hand(tiles, win, indicator=indicator, melds=melds, options=options, **flags)
    except NanchangHandError as exc:
        return {"error": {"code": "bad_input", "message": str(exc), "field": None}}
    if r is None:
        return {"error": {"code": "not_agari", "message": "the tiles do not win", "field": None}}
    w = r.win
    return {
        "shape": w.shape,
        "elements": [_element(e) for e in w.elements],
        "payer_elements": [_element(e) for e in w.payer_elements],
        "base": w.base,
        "bonus": w.bonus,
        "flat": w.flat,
        "payments": list(w.payments),
        "total": w.total,
        "jokers": {"zheng": _TSTR[r.jokers.zheng], "fu": _TSTR[r.jokers.fu]},
        "joker_points": r.joker_points,
        "joker_value": r.joker_value,
        "dealer_seat": r.dealer_seat,
    }
