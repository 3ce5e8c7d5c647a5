"""Ruling HT-O7: a hardtack regiment whose companies have split stands in the neutral world where
its companies in good order stand, and what the commander is told it can do (HT-CR1) is measured
from there; its broken companies fallen back to the rear drag neither."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.engine.reach import capabilities
from referee.core.input.scenario import load_scenario
from referee.plugins.hardtack import activation, morale
from referee.plugins.hardtack.muster import sync
from referee.plugins.hardtack.state import BROKEN, ROUTED, SHAKEN, Company, HardtackState

DRILL = Path(__file__).parent / "scenarios" / "drill-engage.toml"
FALLEN_BACK = 800.0  # yards: how far its broken companies have fled (Valverde saw up to 1,000)


def centre_of(companies: list[Company]) -> tuple[float, float]:
    """Their centre, weighted by figures."""
    figures = sum(c.figures for c in companies)
    return sum(c.x * c.figures for c in companies) / figures, sum(c.y * c.figures for c in companies) / figures


def split(log: bool = False, broken: int = 4) -> tuple[Game, HardtackState, list[Company], list[Company]]:
    """The drill's Union regiment (11 companies in line, facing north) with ``broken`` of its
    companies, from its right wing, broken and fled 800 yards to its rear, written back."""
    game = Game.new(build_rules("hardtack"), load_scenario(DRILL), 1, EventLog(enabled=log))
    game.state = state = game.rules.muster(game)
    companies = state.regiments["us-regiment"].companies
    assert len(companies) > broken + 2
    fled = companies[len(companies) - broken:]
    for c in fled:
        state.strength_changed(c)  # (named to the state, as every change of level and place is)
        c.level, c.y = BROKEN, c.y - FALLEN_BACK
        c.form("skirmish")
        state.moved(c)
    sync(game, state, every=True)
    return game, state, companies[:len(companies) - broken], fled


def test_a_split_regiment_stands_where_its_companies_in_good_order_stand() -> None:
    game, state, good, _fled = split()
    unit = game.world.units["us-regiment"]
    assert (unit.x, unit.y) == pytest.approx(centre_of(good))
    assert min(c.y for c in good) <= unit.y <= max(c.y for c in good)  # not dragged toward its fugitives
    assert min(c.x for c in good) <= unit.x <= max(c.x for c in good)
    assert unit.formation == "line"  # its companies in good order's, not the skirmish order of the broken
    assert unit.status == "good"  # HT-O4: fewer than half its figures are broken
    assert unit.men == unit.spec.men  # the broken companies' men are still its men
    # a company keeps its place from the same centre (HT-M5), and the commander goes to it (HT-T6)
    assert activation.centre(state, state.regiments["us-regiment"]) == pytest.approx((unit.x, unit.y))


def test_a_shaken_company_is_still_in_order() -> None:
    game, state, good, _fled = split()
    state.strength_changed(good[0])
    good[0].level = SHAKEN
    sync(game, state, every=True)
    unit = game.world.units["us-regiment"]
    assert (unit.x, unit.y) == pytest.approx(centre_of(good))


def test_with_no_company_in_good_order_it_stands_where_its_companies_stand() -> None:
    game, state, good, fled = split()
    for c in good:
        state.strength_changed(c)
        c.level = ROUTED
    sync(game, state, every=True)
    unit = game.world.units["us-regiment"]
    assert (unit.x, unit.y) == pytest.approx(centre_of(good + fled))
    assert unit.status == "routed"


def test_its_charge_reach_is_measured_from_its_place_and_counts_only_companies_that_may_assault() -> None:
    game, _state, good, _fled = split()
    unit = game.world.units["us-regiment"]
    caps = capabilities(game, unit)
    assert caps is not None and caps.may_charge and "HT-O7" in caps.rulings
    spread = max(math.hypot(c.x - unit.x, c.y - unit.y) for c in good)
    assert caps.charge_yards == pytest.approx(2 * 4 * 10 + spread)  # two moves in line, 4" at 10 yards (HT-CR1)
    assert caps.charge_yards < FALLEN_BACK / 2  # the fugitives add nothing to it


def test_a_shaken_wing_adds_nothing_to_the_charge_reach() -> None:
    game, state, good, _fled = split(broken=1)
    wing = good[0]
    state.strength_changed(wing)
    wing.level, wing.y = SHAKEN, wing.y + 150  # ahead of the line, but it may not assault until rallied (p.12)
    state.moved(wing)
    sync(game, state, every=True)
    unit = game.world.units["us-regiment"]
    caps = capabilities(game, unit)
    assert caps is not None
    going = [c for c in good if c is not wing]
    assert caps.charge_yards == pytest.approx(2 * 4 * 10 + max(math.hypot(c.x - unit.x, c.y - unit.y) for c in going))
    assert caps.charge_yards < 2 * 4 * 10 + math.hypot(wing.x - unit.x, wing.y - unit.y)


def test_a_company_that_breaks_leaves_its_regiments_order_in_the_log() -> None:
    game, _state, good, _fled = split(log=True)
    morale.lose_levels(game, good[0], BROKEN - good[0].level)
    event = game.log.events[-1]
    assert event["kind"] == "confidence" and event["rulings"] == ["HT-O7"] and "good order" in event["text"]
