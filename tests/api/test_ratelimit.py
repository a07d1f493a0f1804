"""The token bucket of a WebSocket's resyncs, on a fake clock."""

from __future__ import annotations

from server.api.ratelimit import TokenBucket


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_full_bucket_gives_its_burst_then_refuses() -> None:
    clock = FakeClock()
    bucket = TokenBucket(1.0, 2, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, False, False]


def test_tokens_come_back_at_the_rate_and_never_past_the_burst() -> None:
    clock = FakeClock()
    bucket = TokenBucket(0.5, 3, clock)
    assert all(bucket.take() for _ in range(3))
    clock.now += 1.9  # 0.95 of a token
    assert not bucket.take()
    clock.now += 0.2  # now past one token
    assert bucket.take()
    assert not bucket.take()
    clock.now += 1000  # a long pause refills to the burst, no more
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
