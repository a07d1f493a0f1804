"""Riichi as two ``Variant``s: four players, and three (sanma), on one engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from server.engine.events import Event, Standing
from server.engine.riichi.events import mask
from server.engine.riichi.game import (
    apply,
    legal_actions,
    new_game,
    next_round,
    waiting_on,
)
from server.engine.riichi.invariants import check_invariants, check_view
from server.engine.riichi.observe import Observation, observe
from server.engine.riichi.rules import PRESETS, RulesError, RuleSet
from server.engine.riichi.state import GameState, RoundResult
from server.engine.variant import RoundSummary, Variant, VariantError


def _options(
    presets: Mapping[str, RuleSet], default: str
) -> Callable[[str | Mapping[str, Any] | None], RuleSet]:
    def options(spec: str | Mapping[str, Any] | None) -> RuleSet:
        if spec is None:
            return presets[default]
        if isinstance(spec, str):
            if spec not in presets:
                raise VariantError(
                    f"unknown rules preset {spec!r}; choose one of {', '.join(presets)}"
                )
            return presets[spec]
        d = dict(spec)
        name = d.get("preset", d.get("name", default))
        if name not in presets:
            raise RulesError(f"unknown rules preset {name!r}; choose one of {', '.join(presets)}")
        rules = RuleSet.from_dict(d)
        if rules.seats != presets[name].seats:
            raise RulesError(f"seats: {name} is played by {presets[name].seats}")
        return rules

    return options


def _rules_of(st: GameState) -> RuleSet:
    return st.rules


def _first_dealer(st: GameState) -> int:
    return st.first_dealer


def _start_events(st: GameState) -> Sequence[Event]:
    return st.start_events


def _phase(st: GameState) -> str:
    return st.phase


def _final(st: GameState) -> Sequence[Standing] | None:
    return st.final


def _rounds(st: GameState) -> Sequence[RoundSummary]:
    return st.round_results


def _describe(r: RoundSummary) -> tuple[str, ...]:
    assert isinstance(r, RoundResult)
    if r.kind == "agari":
        return tuple("tsumo" if w.from_seat is None else "ron" for w in r.wins)
    return (f"draw:{r.reason}",)


def _drawn(st: GameState, seat: int) -> int | None:
    d = st.drawn[seat]
    return st.tile(d) if d is not None else None


def _riichi_variant(
    key: str, title: str, seats: int, tiles: int, names: Sequence[str]
) -> Variant[GameState, RuleSet, Observation]:
    presets = {name: PRESETS[name] for name in names}
    return Variant(
        key=key,
        title=title,
        seats=seats,
        tiles=tiles,
        options_type=RuleSet,
        presets=presets,
        default_preset=names[0],
        options=_options(presets, names[0]),
        options_dict=RuleSet.to_dict,
        options_of=_rules_of,
        start_seat=_first_dealer,
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
        clone=GameState.clone,
        check_view=check_view,
    )


RIICHI = _riichi_variant("riichi", "Riichi mahjong", 4, 136, ("standard", "tenhou", "majsoul"))
SANMA = _riichi_variant(
    "sanma", "Three-player riichi (sanma)", 3, 108, ("tenhou-sanma", "majsoul-sanma")
)
