"""``POST /api/score``: the score calculator over HTTP.

The body and the answer are the objects of ``server.wire.calc``. Status
codes: 200 with the result; 400 with ``{"error": {"code": "bad_input", ...}}``
for malformed JSON or fields (the message and ``field`` name the field); 422
with code "not_agari" or "no_yaku" for a well-formed hand that cannot be
scored; 413 for a body over 16 KiB.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from server.wire.calc import error, score_request

MAX_BODY = 16 * 1024

router = APIRouter(prefix="/api", tags=["score"])

_EXAMPLE = {
    "tiles": "234m406p55s789s11z",
    "melds": [],
    "win": "5s",
    "riichi": True,
    "seat_wind": "S",
    "round_wind": "E",
    "dora_indicators": ["4p"],
}


async def _read_limited(request: Request) -> bytes | None:
    """The body, or None once it grows past MAX_BODY (without reading the rest)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


@router.post(
    "/score",
    summary="Score a winning hand",
    responses={
        200: {"description": "the scored hand"},
        400: {"description": "bad_input: malformed JSON or a bad field (named)"},
        413: {"description": "body larger than 16 KiB"},
        422: {"description": "not_agari or no_yaku"},
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}, "example": _EXAMPLE}},
        }
    },
)
async def score(request: Request) -> JSONResponse:
    body = await _read_limited(request)
    if body is None:
        return JSONResponse(
            error("bad_input", f"request body larger than {MAX_BODY} bytes"), status_code=413
        )
    try:
        obj: Any = json.loads(body)
    except ValueError as exc:
        return JSONResponse(error("bad_input", f"body is not valid JSON: {exc}"), status_code=400)
    except RecursionError:
        return JSONResponse(error("bad_input", "body is nested too deeply"), status_code=400)
    out = score_request(obj)
    if "error" in out:
        status = 400 if out["error"]["code"] == "bad_input" else 422
        return JSONResponse(out, status_code=status)
    return JSONResponse(out)
