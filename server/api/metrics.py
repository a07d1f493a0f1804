"""Prometheus metrics of one server process (``GET /metrics``, prometheus-client).

Each app has its own registry, so two apps in one process (tests) never share
counts. What is measured:

* ``jantaku_tables`` (gauge, ``state`` = live | finished): table actors in memory;
* ``jantaku_websockets`` (gauge, ``kind`` = table | lobby): open WebSockets;
* ``jantaku_actions_total`` (counter, ``source`` = player | bot | timeout): actions
  applied by the tables; ``rate(jantaku_actions_total[1m])`` is actions per second;
* ``jantaku_action_latency_seconds`` (histogram): a player's action, from the
  gateway receiving the frame to the step's frames handed to every seat, after
  the step's commit (queue wait in the table actor and the commit included);
* ``jantaku_http_request_duration_seconds`` (histogram, ``method``, ``status``);
* ``jantaku_db_write_lag_seconds`` (gauge): how long the oldest step of the game
  records not yet committed has waited (0 when all are written);
* ``jantaku_db_write_seconds`` (histogram): per group commit of steps, from its
  first step being queued to its commit;
* ``jantaku_db_write_failures_total`` (counter): commits of steps that failed for
  good (after retries; their tables stop and are rebuilt from the record);
* the process collector's ``process_*`` (CPU, memory, open files).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Actions are answered in milliseconds; the load bench's p99 is ~17 ms at 500 tables.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_WRITE_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

__all__ = ["CONTENT_TYPE_LATEST", "Metrics", "MetricsMiddleware"]


class _Live(Collector):
    """Values read at scrape time from the running server (tables, recorder)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        m = self.metrics
        tables = GaugeMetricFamily("jantaku_tables", "Table actors in memory", labels=["state"])
        stats = m.table_stats() if m.table_stats is not None else {"tables": 0, "live": 0}
        tables.add_metric(["live"], stats["live"])
        tables.add_metric(["finished"], stats["tables"] - stats["live"])
        yield tables
        sockets = GaugeMetricFamily("jantaku_websockets", "Open WebSockets", labels=["kind"])
        for kind, n in sorted(m.sockets.items()):
            sockets.add_metric([kind], n)
        yield sockets
        lag = GaugeMetricFamily(
            "jantaku_db_write_lag_seconds",
            "Age of the oldest game-record row not yet written to the database",
        )
        lag.add_metric([], m.write_lag() if m.write_lag is not None else 0.0)
        yield lag
        failures = CounterMetricFamily(
            "jantaku_db_write_failures",
            "Commits of game steps that failed for good (after retries)",
        )
        failures.add_metric([], m.write_failures() if m.write_failures is not None else 0)
        yield failures


class Metrics:
    """The registry and instruments of one app; the running parts are attached in lifespan."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter(
            "jantaku_actions",
            "Actions applied by the tables",
            ["source"],
            registry=self.registry,
        )
        for source in ("player", "bot", "timeout"):
            self.actions.labels(source)
        self.action_latency = Histogram(
            "jantaku_action_latency_seconds",
            "A player's action: gateway receipt to the step's frames handed to every seat "
            "(after its commit)",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.http = Histogram(
            "jantaku_http_request_duration_seconds",
            "HTTP requests by method and status",
            ["method", "status"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.db_write = Histogram(
            "jantaku_db_write_seconds",
            "A batch of game-record rows: first row queued to commit",
            buckets=_WRITE_BUCKETS,
            registry=self.registry,
        )
        self.sockets: dict[str, int] = {"table": 0, "lobby": 0}
        self.table_stats: Callable[[], dict[str, int]] | None = None
        self.write_lag: Callable[[], float] | None = None
        self.write_failures: Callable[[], int] | None = None
        self.registry.register(_Live(self))
        ProcessCollector(registry=self.registry)

    def observe_action(self, source: str, latency: float | None) -> None:
        """``TableConfig.on_action``: count it, and time a player's."""
        self.actions.labels(source).inc()
        if latency is not None:
            self.action_latency.observe(latency)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """Counts open WebSockets by kind and times HTTP requests (ASGI, no body buffering)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            kind = _socket_kind(scope)
            accepted = False

            async def sending(message: Message) -> None:
                nonlocal accepted
                if message["type"] == "websocket.accept" and not accepted:
                    accepted = True
                    self.metrics.sockets[kind] = self.metrics.sockets.get(kind, 0) + 1
                await send(message)

            try:
                await self.app(scope, receive, sending)
            finally:
                if accepted:
                    self.metrics.sockets[kind] -= 1
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = [500]

        async def send_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            self.metrics.http.labels(scope["method"], str(status[0])).observe(
                time.perf_counter() - start
            )


def _socket_kind(scope: Scope) -> str:
    path: str = scope.get("path", "")
    for kind in ("table", "lobby"):
        if f"/ws/{kind}/" in path:
            return kind
    return "other"


def attach(metrics: Metrics, ctx: Any) -> None:
    """Read the running server's state at scrape time, and time the recorder's writes."""
    metrics.table_stats = ctx.tables.stats
    metrics.write_lag = ctx.recorder.write_lag
    metrics.write_failures = lambda: ctx.recorder.failures
    ctx.recorder.on_written = metrics.db_write.observe
