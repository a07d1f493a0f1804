"""Typed events: who may see them, and what the others see (masking)."""

import dataclasses

import pytest

from server.engine.riichi import Discard, Draw, Haipai, mask
from server.engine.tiles import parse_tile, parse_tiles


def test_event_visibility() -> None:
    public = Discard(0, parse_tile("1m"), False, False)
    private = Draw(2, parse_tile("5s"), False, 60)
    assert public.seats is None and public.visible_to(None) and public.visible_to(3)
    assert private.seats == frozenset({2}) and private.visible_to(2)
    assert not private.visible_to(1)
    assert not private.visible_to(None)


def test_mask_hides_the_tiles_of_a_draw_and_a_deal_only() -> None:
    draw = Draw(2, parse_tile("5s"), True, 60)
    assert mask(draw, 2) is draw
    assert mask(draw, 1) == Draw(2, None, True, 60)
    assert mask(draw, None) == Draw(2, None, True, 60)
    deal = Haipai(1, tuple(parse_tiles("123m456p789s1234z")))
    assert mask(deal, 1) is deal and mask(deal, 0) == Haipai(1, None)
    discard = Discard(0, parse_tile("1m"), True, False)
    assert mask(discard, 3) is discard


def test_events_are_frozen_values() -> None:
    d = Discard(0, parse_tile("1m"), False, False)
    assert d == Discard(0, parse_tile("1m"), False, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.seat = 1  # type: ignore[misc]
