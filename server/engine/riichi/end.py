"""Between rounds and the end of the game (R19, R25, R26)."""

from __future__ import annotations

from server.engine.actions import IllegalAction
from server.engine.events import EndReason, Event, Standing
from server.engine.riichi.deal import start_round
from server.engine.riichi.events import GameEnd, NextRound, RoundEnd
from server.engine.riichi.state import S_END, GameState, RoundResult


def next_round(st: GameState) -> list[Event]:
    """In phase round_end: start the next round, or end the game."""
    if st.phase != "round_end" or st.last_result is None:
        raise IllegalAction(f"next_round needs phase round_end, not {st.phase}")
    st._legal = {}
    st.log.append(None)
    rr = st.last_result
    renchan = rr.renchan
    n = st.n
    # R19: a non-dealer win resets the honba; a dealer win or any draw adds one
    honba = 0 if rr.kind == "agari" and not renchan else st.honba + 1
    last_wind = 0 if st.rules.length == "tonpuu" else 1
    if renchan:
        nxt = (st.round_wind, st.kyoku)
    else:
        nxt = (st.round_wind + (st.kyoku + 1) // n, (st.kyoku + 1) % n)
    reason = _end_reason(st, rr, nxt, last_wind)
    if reason is not None:
        return [RoundEnd(tuple(st.scores), None), *_end_game(st, reason)]
    st.round_wind, st.kyoku = nxt
    st.dealer = (st.first_dealer + st.kyoku) % n
    st.honba = honba
    st.round_index += 1
    events: list[Event] = [
        RoundEnd(tuple(st.scores), NextRound(st.round_wind, st.kyoku, st.honba, st.dealer))
    ]
    return events + start_round(st, None)


def _end_reason(
    st: GameState, rr: RoundResult, nxt: tuple[int, int], last_wind: int
) -> EndReason | None:
    """Why the game ends after this round (R25), or None: it goes on."""
    rules = st.rules
    if rules.tobi and any(p < 0 for p in st.scores):
        return "tobi"
    target = rules.target
    reached = max(st.scores) >= target
    all_last = (st.round_wind, st.kyoku) >= (last_wind, st.n - 1)
    if not all_last:
        return None
    if rr.renchan:
        # (in the West extension too: Tenhou plays each of its hands like all-last)
        # R25 agari-yame / tenpai-yame: the dealer kept the deal by merit and is top
        yame = rules.agari_yame if rr.kind == "agari" else rules.tenpai_yame
        if (
            yame
            and rr.dealer_merit
            and st.ranking()[0] == st.dealer
            and st.scores[st.dealer] >= target
        ):
            return "agari_yame" if rr.kind == "agari" else "tenpai_yame"
        return None
    if st.round_wind > last_wind:
        if reached:
            return "extension_reached"  # as soon as someone reaches the return points
        return "extension_limit" if nxt[0] > last_wind + 1 else None
    if not rules.west_extension or reached:
        return "last_round"
    return None


def _end_game(st: GameState, reason: EndReason) -> list[Event]:
    st.phase = "game_end"
    st.end_reason = reason
    st.step = S_END
    rules = st.rules
    order = st.ranking()
    sticks = st.riichi_sticks
    st.touch_all()
    if sticks and rules.leftover_sticks_to_first:
        st.scores[order[0]] += 1000 * sticks
        st.riichi_sticks = 0
    oka = (rules.return_points - rules.start_points) * st.n
    final = []
    for rank, s in enumerate(order):
        pts = st.scores[s]
        score = (pts - rules.return_points + (oka if rank == 0 else 0)) / 1000
        score += rules.uma[rank]
        final.append(Standing(s, pts, rank + 1, round(score, 1)))
    final.sort(key=lambda d: d.seat)
    st.final = tuple(final)
    return [
        GameEnd(
            final=st.final,
            scores=tuple(st.scores),
            riichi_sticks_to_first=sticks if rules.leftover_sticks_to_first else 0,
            seed=st.seed,
            reason=reason,
        )
    ]
