"""A remote bot's channel (server/external/remote.py) over fake sockets: who gets which
link, what a link claimed mid-game is sent, late and missing answers, the game's end."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.external.remote import MAX_INBOX, RemoteChannel, RemoteHub, RemoteLink

START = [{"type": "start_game", "id": 1}, {"type": "start_kyoku", "kyoku": 1}]
TSUMO = {"type": "tsumo", "actor": 1, "pai": "5m"}
DAHAI = {"type": "dahai", "actor": 1, "pai": "5m", "tsumogiri": True}


class FakeSocket:
    """What the API's socket handler gives a link: sent messages kept, closes counted."""

    def __init__(self, hub: RemoteHub, name: str = "tiny", owner: int = 7, form: Any = "array"):
        self.sent: list[Any] = []
        self.closed: list[int] = []
        self.answers: list[dict[str, Any]] = []  # answered as soon as a request comes
        self.link = RemoteLink(name, owner, form, self._send, self.closed.append)
        hub.add(self.link)

    async def _send(self, text: str) -> None:
        self.sent.append(json.loads(text))
        if self.answers:
            self.link.received(json.dumps(self.answers.pop(0)))


async def test_a_seat_without_a_connected_bot_gets_no_answer_then_the_whole_game() -> None:
    hub = RemoteHub()
    ch = RemoteChannel(hub, "tiny", timeout=5.0)
    assert await ch.ask(START) is None  # nobody there: the stand-in decides
    sock = FakeSocket(hub)
    sock.answers.append(DAHAI)
    assert await ch.ask([TSUMO]) == DAHAI
    # The first request on the link is every event so far, from start_game.
    assert sock.sent == [[*START, TSUMO]]
    sock.answers.append({"type": "none"})
    assert await ch.ask([DAHAI]) == {"type": "none"}
    assert sock.sent[1] == [DAHAI]


async def test_one_link_plays_one_seat() -> None:
    hub = RemoteHub()
    a, b = RemoteChannel(hub, "tiny"), RemoteChannel(hub, "tiny")
    sock = FakeSocket(hub)
    sock.answers += [{"type": "none"}]
    assert await a.ask(START) == {"type": "none"}
    assert await b.ask(START) is None  # the bot's only socket is a's
    second = FakeSocket(hub)
    assert hub.connections("tiny") == 2 and hub.levels() == ["remote-tiny"]
    second.answers.append({"type": "none"})
    assert await b.ask([]) == {"type": "none"} and b.link is second.link
    assert second.sent == [START]  # all b's seat saw, though it was not answered before
    assert hub.connections("nope") == 0


async def test_a_late_answer_is_skipped_and_never_answers_the_next_request() -> None:
    hub = RemoteHub()
    sock = FakeSocket(hub)
    ch = RemoteChannel(hub, "tiny", timeout=0.05)
    assert await ch.ask([*START, TSUMO]) is None
    assert sock.link.owed == 1
    sock.link.received(json.dumps(DAHAI))  # the answer to the first request, late
    sock.answers.append({"type": "none"})
    assert await ch.ask([DAHAI]) == {"type": "none"}
    assert sock.link.owed == 0


async def test_garbage_is_no_answer_and_a_flood_is_refused() -> None:
    hub = RemoteHub()
    sock = FakeSocket(hub)
    ch = RemoteChannel(hub, "tiny")
    sock.link.received("not json")
    sock.link.owed = 0
    assert await ch.ask(START) is None  # "not json" answered it
    assert all(sock.link.received("x") for _ in range(MAX_INBOX))
    assert not sock.link.received("x")


async def test_a_bot_that_leaves_mid_decision_is_given_up_at_once() -> None:
    hub = RemoteHub()
    sock = FakeSocket(hub)
    ch = RemoteChannel(hub, "tiny", timeout=3600.0)
    asking = asyncio.create_task(ch.ask(START))
    for _ in range(100):  # a few turns of the loop, no time passing
        if sock.sent:
            break
        await asyncio.sleep(0)
    hub.remove(sock.link)
    assert sock.sent == [START]
    assert await asyncio.wait_for(asking, 5) is None
    assert hub.levels() == []
    # It comes back on a new socket: that one gets the whole game again.
    again = FakeSocket(hub)
    again.answers.append(DAHAI)
    assert await ch.ask([TSUMO]) == DAHAI
    assert again.sent == [[*START, TSUMO]]


async def test_the_game_end_frees_the_link_for_another_seat() -> None:
    hub = RemoteHub()
    sock = FakeSocket(hub)
    ch = RemoteChannel(hub, "tiny")
    sock.answers.append({"type": "none"})
    await ch.ask(START)
    await ch.close()
    assert sock.sent[-1] == [{"type": "end_game"}] and sock.link.owed == 1
    sock.link.received(json.dumps({"type": "none"}))  # its answer to end_game
    nxt = RemoteChannel(hub, "tiny")
    sock.answers.append(DAHAI)
    assert await nxt.ask([*START, TSUMO]) == DAHAI and nxt.link is sock.link


async def test_lines_form_sends_one_event_a_message() -> None:
    hub = RemoteHub()
    sock = FakeSocket(hub, form="lines")
    ch = RemoteChannel(hub, "tiny")
    sock.link.received(json.dumps({"type": "none"}))  # unasked: skipped
    sock.answers.append(DAHAI)
    assert await ch.ask([*START, TSUMO]) == DAHAI
    assert sock.sent == [*START, TSUMO]


async def test_kick_closes_a_bots_sockets_or_an_owners() -> None:
    hub = RemoteHub()
    a, b, c = FakeSocket(hub, "a", 1), FakeSocket(hub, "b", 1), FakeSocket(hub, "c", 2)
    assert hub.kick(name="a") == 1 and a.closed == [4401]
    assert hub.levels() == ["remote-b", "remote-c"]
    assert hub.kick(owner=1) == 1 and b.closed == [4401] and not c.closed
    assert hub.levels() == ["remote-c"]


class FakeElsewhere:
    """The other processes' bots (server/cluster/bots.py), as the hub asks them."""

    def __init__(self, link: Any) -> None:
        self.link = link
        self.claims: list[str] = []
        self.kicks: list[tuple[int | None, str | None]] = []

    async def claim(self, name: str) -> Any:
        self.claims.append(name)
        link, self.link = self.link, None
        return link

    async def counts(self) -> dict[str, int]:
        return {"far": 2}

    def kick(self, owner: int | None, name: str | None) -> None:
        self.kicks.append((owner, name))


async def test_a_bot_of_another_process_is_claimed_only_when_none_is_here() -> None:
    hub = RemoteHub()
    far = FakeSocket(RemoteHub(), "far")  # a socket of another process's hub
    hub.elsewhere = away = FakeElsewhere(far.link)
    near = FakeSocket(hub, "far")
    assert await hub.all_levels() == ["remote-far"]
    assert await hub.all_counts() == {"far": 3} and hub.connections("far") == 1
    first, second = RemoteChannel(hub, "far"), RemoteChannel(hub, "far")
    near.answers.append({"type": "none"})
    far.answers.append(DAHAI)
    assert await first.ask(START) == {"type": "none"} and away.claims == []
    assert await second.ask([*START, TSUMO]) == DAHAI and away.claims == ["far"]
    assert far.sent == [[*START, TSUMO]] and second.link is far.link
    # The game's end frees it where it is; a kick reaches the other processes too.
    await second.close()
    assert far.sent[-1] == [{"type": "end_game"}] and not far.link.claimed
    assert hub.kick(name="far") == 1 and away.kicks == [(None, "far")]
    assert near.closed == [4401] and hub.levels() == []
