"""Operations routes: the health check and Prometheus metrics (docs/operations.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.orm import Session

from server.api.context import Ctx, api_error
from server.api.metrics import CONTENT_TYPE_LATEST, Metrics

router = APIRouter(tags=["operations"])


@router.get(
    "/api/health",
    responses={503: {"description": "the database is unreachable"}},
)
async def health(ctx: Ctx) -> Any:
    """200 when the database answers ``SELECT 1`` in time, else 503 (for load balancers)."""

    def ping(s: Session) -> None:
        s.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(ctx.run_db(ping), ctx.settings.health_timeout_seconds)
        database = "ok"
    except TimeoutError:
        database = "error: no answer within the timeout"
    except Exception as exc:
        database = f"error: {type(exc).__name__}"
    body: dict[str, Any] = {
        "status": "ok" if database == "ok" else "unavailable",
        "database": database,
        **ctx.tables.stats(),
    }
    if ctx.node is not None:
        body["cluster"] = {"node": ctx.node.name, **ctx.node.stats()}
    return JSONResponse(body, status_code=200 if database == "ok" else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, ctx: Ctx) -> Response:
    """Prometheus text format (``JANTAKU_METRICS=false``: 404)."""
    if not ctx.settings.metrics:
        raise api_error(404, "not_found", "metrics are turned off (JANTAKU_METRICS)")
    registry: Metrics = request.app.state.metrics
    return Response(registry.render(), media_type=CONTENT_TYPE_LATEST)
