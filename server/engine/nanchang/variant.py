"""Nanchang mahjong as a ``Variant`` (docs/rules.md "Nanchang (seed 003)")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.events import Event, Standing
from server.engine.nanchang.events import RoundEnded, mask
from server.engine.nanchang.game import apply, final, new_game, next_round, waiting_on
from server.engine.nanchang.invariants import check_invariants, check_view
from server.engine.nanchang.legal import legal_actions
from server.engine.nanchang.observation import NanchangObservation, observe
from server.engine.nanchang.options import PRESETS, NanchangOptions, NanchangOptionsError
from server.engine.nanchang.settlement import RoundResult
from server.engine.nanchang.state import NanchangGame
from server.engine.variant import RoundSummary, Variant, VariantError


@dataclass(frozen=True, slots=True)
class _Summary:
    """A finished round as every game describes it (``RoundSummary``)."""

    round_wind: int
    kyoku: int  # which dealer of the 圈
    honba: int  # the dealer's repeats (连庄)
    kind: str
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    event: Event


def _summary(r: RoundResult) -> _Summary:
    kind = "agari" if r.win is not None else "ryuukyoku"
    return _Summary(
        r.round_wind, r.hand_number, r.repeat, kind, tuple(r.deltas), r.scores, RoundEnded(r)
    )


def _options(spec: str | Mapping[str, Any] | None) -> NanchangOptions:
    if spec is None:
        return PRESETS["nanchang"]
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise VariantError(f"unknown rules preset {spec!r}; choose one of {', '.join(PRESETS)}")
        return PRESETS[spec]
    d = dict(spec)
    name = d.pop("preset", None) or d.get("name") or "nanchang"
    if name not in PRESETS:
        raise NanchangOptionsError(
            f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}"
        )
    d.pop("name", None)
    return PRESETS[name].with_overrides(**d)


def _describe(summary: RoundSummary) -> tuple[str, ...]:
    event = summary.event
    assert isinstance(event, RoundEnded)
    r = event.result
    if r.win is None:
        tags = ["draw:exhaustive"]
    else:
        w = r.win
        tags = ["tsumo" if w.from_seat is None else "ron", f"shape:{w.score.shape}"]
        tags += [f"element:{e.id}" for e in w.score.elements]
    for b in r.joker_bonus:
        tags.append("element:jokers")
        if b.chongguan:
            tags.append("element:chongguan")
        if b.bawang:
            tags.append("element:bawang")
        if b.payer is not None:
            tags.append("element:chongguan_paid_by_discarder")
    for k in r.kans:
        tags.append(f"element:{k.type}")
        if k.joker:
            tags.append("element:gangjing")
    return tuple(tags)


def _options_of(g: NanchangGame) -> NanchangOptions:
    return g.options


def _roller(g: NanchangGame) -> int:
    return g.roller


def _rounds(g: NanchangGame) -> Sequence[RoundSummary]:
    return [_summary(r) for r in g.round_results]


def _drawn(g: NanchangGame, seat: int) -> int | None:
    d = g.drawn[seat]
    return d // 4 if d is not None else None


def _start_events(g: NanchangGame) -> Sequence[Event]:
    return g.start_events


def _phase(g: NanchangGame) -> str:
    return g.phase


def _final(g: NanchangGame) -> Sequence[Standing] | None:
    return final(g)


def _clone(g: NanchangGame) -> NanchangGame:
    return g.clone()


def _options_dict(o: NanchangOptions) -> dict[str, Any]:
    return o.to_dict()


NANCHANG: Variant[NanchangGame, NanchangOptions, NanchangObservation] = Variant(
    key="nanchang",
    title="Nanchang mahjong",
    seats=4,
    tiles=136,
    options_type=NanchangOptions,
    presets=PRESETS,
    default_preset="nanchang",
    options=_options,
    options_dict=_options_dict,
    options_of=_options_of,
    start_seat=_roller,
    new_game=new_game,
    start_events=_start_events,
    legal=legal_actions,
    apply=apply,
    next_round=next_round,
    waiting_on=waiting_on,
    phase=_phase,
    observe=observe,
    mask=mask,
    final=_final,
    rounds=_rounds,
    describe=_describe,
    drawn=_drawn,
    check_invariants=check_invariants,
    clone=_clone,
    check_view=check_view,
)
