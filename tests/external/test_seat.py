"""External mjai bots at a seat: full games over stdio in both forms, and a bot that
hangs, talks garbage, answers late or dies is replaced by defensive per decision."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from server.bots.selfplay import Checks, game_seed, play_game
from server.cli import main
from server.engine.actions import A_DISCARD, A_PASS, Action
from server.engine.events import Event
from server.engine.riichi.events import Discard
from server.engine.riichi.rules import preset
from server.external.channel import AsyncChannel, SyncChannel, command_for
from server.external.registry import make_seat_bot, parse_registry, parse_spec
from server.external.seat import AsyncMjaiBot, MjaiBot

BOT = Path(__file__).with_name("tsumogiri_mjai.py")
TONPUU = preset("tenhou").with_overrides(length="tonpuu")


def cmd(mode: str = "array", *extra: str) -> str:
    return f"{sys.executable} {BOT} {{seat}} {mode} {' '.join(extra)}".strip()


def _play(bots: list[object], seed: str = "ext") -> tuple[object, list[object]]:
    state, stats = play_game(TONPUU, game_seed(seed, 0), bots, Checks())  # type: ignore[arg-type]
    for b in bots:
        close = getattr(b, "close", None)
        if close is not None:
            close()
    assert not stats.failures, stats.failures[:3]
    assert state.phase == "game_end"
    return state, bots


def test_command_gets_the_seat() -> None:
    assert command_for("python bot.py", 2) == ["python", "bot.py", "2"]
    assert command_for("bot --seat={seat} -q", 1) == ["bot", "--seat=1", "-q"]
    with pytest.raises(ValueError):
        command_for("  ", 0)


def test_names_and_the_operators_registry() -> None:
    assert parse_spec("efficient") is None
    assert parse_spec("mjai:python b.py") == ("python b.py", "array")
    assert parse_spec("mjai-lines:mortal x") == ("mortal x", "lines")
    with pytest.raises(ValueError, match="command"):
        parse_spec("mjai:")
    reg = parse_registry("rule=python bot.py ; mortal = lines: mortal --x ;")
    assert {k: (v.command, v.form) for k, v in reg.items()} == {
        "mjai-rule": ("python bot.py", "array"),
        "mjai-mortal": ("mortal --x", "lines"),
    }
    for bad in ("noequals", "=cmd", "x=", "a b=cmd", "x=1;x=2"):
        with pytest.raises(ValueError, match="JANTAKU_MJAI_BOTS"):
            parse_registry(bad)


class Watched(MjaiBot):
    """An external seat that also keeps the discards it is shown."""

    def __init__(self, channel: SyncChannel, seat: int) -> None:
        super().__init__(channel, seat)
        self.discards: list[Discard] = []

    def see(self, events: Iterable[Event]) -> None:
        events = list(events)
        self.discards += [e for e in events if isinstance(e, Discard)]
        super().see(events)


def test_an_external_bot_plays_a_full_game_in_mjai_apps_form() -> None:
    ext = [Watched(SyncChannel(cmd(), "array", 5.0), s) for s in (1, 3)]
    bots = [make_seat_bot("efficient", 0, "riichi", 0), ext[0]]
    bots += [make_seat_bot("efficient", 2, "riichi", 2), ext[1]]
    _play(bots)
    for b in ext:
        assert b.decisions > 20 and b.replaced == 0
        # its own turns were its own: every discard the tile it had just drawn
        own = [d for d in b.discards if d.seat == b.seat]
        assert own and all(d.tsumogiri for d in own)


def test_mortals_one_event_a_line_form() -> None:
    # The tiny bot answers only its own draws (as Mortal answers only what it may act
    # on): asked about a discard it stays silent, so those decisions time out and
    # defensive passes for it; every own turn is its tsumogiri.
    bot = MjaiBot(SyncChannel(cmd("lines"), "lines", timeout=0.3, startup=0), 1)
    bots = [make_seat_bot("efficient", 0, "riichi", 0), bot]
    bots += [make_seat_bot("efficient", s, "riichi", s) for s in (2, 3)]
    _play(bots, "lines")
    assert bot.decisions > 20
    assert bot.replaced < bot.decisions / 2


def test_simulate_plays_ours_against_external_bots(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"efficient,efficient,mjai:{cmd()},mjai:{cmd()}"
    code = main(
        [
            "simulate",
            "--games",
            "1",
            "--rules",
            "tenhou",
            "--length",
            "tonpuu",
            "--bots",
            spec,
            "--json",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert '"ok": true' in out and '"games": 1' in out
    assert main(["simulate", "--rules", "nanchang", "--bots", f"mjai:{cmd()}"]) == 2


@pytest.mark.parametrize("mode", ["hang", "garbage", "die"])
def test_a_failing_bot_is_replaced_per_decision(mode: str) -> None:
    bot = MjaiBot(SyncChannel(cmd(mode), "array", timeout=0.05, startup=0), 2)
    bots = [make_seat_bot("efficient", s, "riichi", s) for s in range(4)]
    bots[2] = bot
    _play(bots, mode)
    assert bot.decisions > 20
    assert bot.replaced == bot.decisions  # defensive made every decision; the game ended


def test_a_late_answer_is_not_taken_for_the_next_one() -> None:
    ch = SyncChannel(cmd("late", "1.0"), "array", timeout=0.1, startup=0)
    ch.start(0)
    try:
        draw = {"type": "tsumo", "actor": 0, "pai": "1m"}
        assert ch.ask([draw]) is None  # too late
        assert ch.owed == 1
        # given time, the late answer (to 1m) comes first: skipped, this one is the 2p
        ch.timeout = 30.0
        got = ch.ask([{"type": "tsumo", "actor": 0, "pai": "2p"}])
        assert got == {"type": "dahai", "actor": 0, "pai": "2p", "tsumogiri": True}
        assert ch.owed == 0
    finally:
        ch.close()


def test_the_async_channel_never_blocks_the_event_loop() -> None:
    async def run() -> tuple[object, int, object]:
        ch = AsyncChannel(cmd("hang"), "array", timeout=0.3, startup=0)
        await ch.start(0)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        t = asyncio.create_task(tick())
        got = await ch.ask([{"type": "tsumo", "actor": 0, "pai": "1m"}])
        t.cancel()
        await ch.close()
        ok = AsyncChannel(cmd(), "array", timeout=5)
        await ok.start(0)
        answer = await ok.ask([{"type": "tsumo", "actor": 0, "pai": "3s"}])
        await ok.close()
        return got, ticks, answer

    got, ticks, answer = asyncio.run(run())
    assert got is None
    assert ticks >= 5  # the loop ran while the bot said nothing
    assert answer == {"type": "dahai", "actor": 0, "pai": "3s", "tsumogiri": True}


def test_an_async_seat_decides_or_is_replaced() -> None:
    from tests.bots.test_bots import discards, given, make_obs

    async def run() -> tuple[Action, Action, int]:
        good = AsyncMjaiBot(AsyncChannel(cmd(), "array", timeout=5), 0)
        bad = AsyncMjaiBot(AsyncChannel(cmd("garbage"), "array", timeout=5), 0)
        obs = given(make_obs("123456789m1234p", "5p"), discards(0, "123456789m1234p", "5p"))
        good.feed.pending.append({"type": "tsumo", "actor": 0, "pai": "5p"})
        a = await good.decide(obs)
        b = await bad.decide(obs)
        await good.close()
        await bad.close()
        return a, b, bad.replaced

    a, b, replaced = asyncio.run(run())
    assert a.type is A_DISCARD and a.tile == 13  # 5p, as the bot said
    assert b.type in (A_DISCARD, A_PASS) and replaced == 1
