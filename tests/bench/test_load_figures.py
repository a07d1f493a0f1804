"""bench/load.py's server-side latency: the servers' own histogram of player actions
(``GET /metrics``), read before and after the measured time, summed over the servers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.bench.modules import bench_module

INF = float("inf")
load = bench_module("load")

# Cumulative counts, as Prometheus gives them.
BEFORE = {0.005: 5.0, 0.01: 5.0, 0.025: 5.0, 0.05: 5.0, 0.1: 5.0, INF: 5.0}
AFTER = {0.005: 15.0, 0.01: 55.0, 0.025: 95.0, 0.05: 104.0, 0.1: 105.0, INF: 105.0}


def test_quantiles_are_read_within_their_bucket() -> None:
    # 100 actions measured: 10 up to 5 ms, 40 in 5-10 ms, 40 in 10-25, 9 in 25-50, 1 above.
    f = load.histogram_figures(BEFORE, AFTER)
    # the 50th is the last of the 5-10 ms bucket; the 99th the last of the 25-50 ms one
    assert f == {"server_p50_ms": 10.0, "server_p99_ms": 50.0, "server_within_50ms_pct": 99.0}
    more = {0.005: 5.0, 0.01: 25.0, 0.025: 95.0, 0.05: 104.0, 0.1: 105.0, INF: 105.0}
    # 50th of 100: 30 of the 70 in 10-25 ms, 10 + 15 * 30 / 70 = 16.4 ms
    assert load.histogram_figures(BEFORE, more)["server_p50_ms"] == 16.4


def test_beyond_the_last_bucket_and_no_actions_say_so() -> None:
    slow = {0.005: 0.0, 0.01: 0.0, 0.025: 0.0, 0.05: 0.0, 0.1: 0.0, INF: 10.0}
    f = load.histogram_figures({}, slow)
    assert f == {"server_p50_ms": None, "server_p99_ms": None, "server_within_50ms_pct": 0.0}
    idle = load.histogram_figures(BEFORE, BEFORE)
    assert idle == {"server_p50_ms": None, "server_p99_ms": None, "server_within_50ms_pct": None}


def test_the_servers_histograms_are_summed(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {
        "http://a": 'x_bucket{le="0.05"} 7.0\n'
        'jantaku_action_latency_seconds_bucket{le="0.05"} 3.0\n'
        'jantaku_action_latency_seconds_bucket{le="+Inf"} 4.0\n',
        "http://b": 'jantaku_action_latency_seconds_bucket{le="0.05"} 2.0\n'
        'jantaku_action_latency_seconds_bucket{le="+Inf"} 2.0\n'
        "jantaku_action_latency_seconds_count 2.0\n",
    }

    def get(url: str, **_: Any) -> httpx.Response:
        base, _, path = url.rpartition("/")
        assert path == "metrics"
        return httpx.Response(200, text=texts[base])

    monkeypatch.setattr(load.httpx, "get", get)
    assert load.action_histogram(["http://a", "http://b"]) == {0.05: 5.0, INF: 6.0}
    monkeypatch.setattr(load.httpx, "get", lambda url, **_: httpx.Response(404))
    assert load.action_histogram(["http://a"]) == {}


def test_the_machines_cpu_counts_busy_time_of_every_core() -> None:
    busy0, all0 = load.machine_cpu()
    end = load.time.process_time() + 0.2
    while load.time.process_time() < end:  # busy on this core for 200 ms of CPU
        pass
    busy1, all1 = load.machine_cpu()
    # (counted in ticks of 10 ms: a few may fall either side)
    assert 0 <= busy0 <= all0 and busy1 - busy0 >= 0.15
    assert all1 - all0 >= busy1 - busy0
