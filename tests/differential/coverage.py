"""What rare situations a round reached: the counts the differential test and
bench print, so that it is known what the comparison covered."""

from __future__ import annotations

from collections import Counter

from server.engine.actions import ActionType
from server.engine.riichi import GameState
from server.records.model import LoggedRound, StepType

_KAN_ACTIONS = (ActionType.ANKAN, ActionType.KAKAN, ActionType.DAIMINKAN)


def count_round(cov: Counter[str], r: LoggedRound, st: GameState) -> None:
    """Rare situations of one round, from riichienv's log and our engine's result."""
    if r.round_wind == 2:
        cov["West round"] += 1
    if r.wins:
        n = len(r.wins)
        if n == 2:
            cov["double ron"] += 1
        elif n == 3:
            cov["triple ron"] += 1
    elif r.draw is not None:
        cov[f"draw: {r.draw.type.value}"] += 1
    steps = [s for s in r.steps if s.type is not StepType.DORA]
    for s in steps:
        if s.type in (StepType.ANKAN, StepType.KAKAN, StepType.DAIMINKAN):
            cov[s.type.value] += 1
    acts = [a for a in st.log if a is not None and a.type is not ActionType.PASS]
    if len(acts) > 1 and acts[-1].type is ActionType.RON and acts[-2].type in _KAN_ACTIONS:
        cov[f"chankan on {acts[-2].type.value}"] += 1
    rr = st.round_results[-1] if st.round_results else None
    if (
        rr is not None
        and (r.round_wind, r.dealer) == (1, 3)  # all-last (a hanchan from seat 0)
        and rr.renchan
        and rr.dealer_merit
        and st.ranking()[0] == r.dealer
        and rr.scores[r.dealer] >= st.rules.return_points
    ):
        cov["agari-yame" if rr.kind == "agari" else "tenpai-yame"] += 1
    if st.round_results and st.round_results[-1].kind == "agari":
        for w in st.round_results[-1].wins:
            names = {y for y, _ in w.result.yaku} | {y for y, _ in w.result.yakuman}
            for y in ("rinshan_kaihou", "haitei", "houtei", "double_riichi", "ippatsu"):
                if y in names:
                    cov[y] += 1
            if w.result.yakuman:
                cov["yakuman"] += 1
            if w.pao is not None:
                cov["pao"] += 1
