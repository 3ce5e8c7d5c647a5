"""Hardtack's enemies near an activation (HardtackState.enemies_in, asked by activation._near)
are found regiment by regiment through each regiment's kept box (``Regiment.box``): the answer
is a scan of the enemy list's, in the same order, however the companies have moved and fallen."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.api import Scenario
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from referee.plugins.hardtack import activation, geometry
from referee.plugins.hardtack import state as hardtack_state
from referee.plugins.hardtack.state import HardtackState, centre_of, in_order

yards = st.floats(0, 2000) | st.integers(0, 20).map(lambda v: v * 100.0)  # often on one another's edges
places = st.tuples(yards, yards)
boxes = st.tuples(yards, st.floats(0, 1500), yards, st.floats(0, 1500))
# (company, new place or None, how): 0 named to the state then moved, 1 moved then named, 2 falls, 3 a turn begins
changes = st.lists(st.tuples(st.integers(0, 200), places, st.integers(0, 3)), max_size=30)


@cache
def big_bethel() -> Scenario:
    return load_scenario(find_scenario("big-bethel"))


def mustered() -> HardtackState:
    game = Game.new(build_rules("hardtack"), big_bethel(), 1)
    state: HardtackState = game.rules.pm.hook.referee_muster(game=game)
    return state


def scanned(state: HardtackState, side: str, x0: float, x1: float, y0: float, y1: float) -> list[hardtack_state.Company]:
    return [e for e in state.enemies(side) if x0 <= e.x <= x1 and y0 <= e.y <= y1]


@pytest.mark.parametrize("grid_from", [hardtack_state.GRID_FROM, 1])
@settings(max_examples=150, deadline=None)
@given(changes=changes, asked=st.lists(boxes, min_size=1, max_size=4))
def test_the_enemies_in_a_box_are_those_a_scan_finds_in_the_same_order(
        grid_from: int, changes: list[tuple[int, tuple[float, float], int]], asked: list[tuple[float, float, float, float]]) -> None:
    """Companies move (named to the state once moved, or just before with no search between, as
    HardtackState.moved asks), fall, and turns begin; after each change every box is answered
    as a scan of the enemy list answers it, on Big Bethel's regiments of one to thirteen
    companies (and with every side in a Grid)."""
    state = mustered()
    state.grids.clear()
    if grid_from == 1:
        state.filed = False
        hardtack_state.GRID_FROM, saved = 1, hardtack_state.GRID_FROM
        try:
            state.file_sides(lambda side: geometry.widest(state, side)[0])
        finally:
            hardtack_state.GRID_FROM = saved
    everyone = list(state.companies.values())
    for i, (x, y), how in changes:
        c = everyone[i % len(everyone)]
        if how == 0:
            state.moved(c)
            c.x, c.y = x, y
        elif how == 1:
            c.x, c.y = x, y
            state.moved(c)
        elif how == 2:
            c.figures = 0
            state.forget(c)
        else:
            state.begin_turn()
        for x0, w, y0, h in asked:
            for side in state.by_side:
                assert state.enemies_in(side, x0, x0 + w, y0, y0 + h) == scanned(state, side, x0, x0 + w, y0, y0 + h)


def test_a_regiment_wholly_in_the_box_is_taken_whole_and_one_across_its_edge_is_filtered() -> None:
    """The two ways a regiment's companies are given: all of them, or those in the box."""
    state = mustered()
    side, enemy = list(state.by_side)
    reg = state.by_side[enemy][0]
    for n, c in enumerate(reg.companies):
        state.moved(c)
        c.x, c.y = 5000.0 + 10 * n, 5000.0
    last = 5000.0 + 10 * (len(reg.companies) - 1)
    assert state.enemies_in(side, 4990.0, last, 4990.0, 5010.0) == reg.companies
    assert state.enemies_in(side, 4990.0, last - 1, 4990.0, 5010.0) == reg.companies[:-1]
    assert state.enemies_in(side, 4990.0, 4995.0, 4990.0, 5010.0) == []


@pytest.mark.parametrize("name", [row[0] for row in bundled()])
def test_a_regiments_reach_is_its_first_companys(name: str) -> None:
    """activation._near reads the reach of a regiment's companies from the first: muster gives
    every company of a regiment the same quality die, weapon and gun, and so the same reaches
    (both that _near asks for, each company's against the first's), in every bundled scenario,
    in good light and in failing light (HT-V1)."""
    from referee.plugins.hardtack import fire

    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario(name)), 1)
    state: HardtackState = game.rules.pm.hook.referee_muster(game=game)
    for seen in (float("inf"), 150.0):
        state.visibility = seen
        for reg in state.regiments.values():
            first = reg.companies[0]
            assert all((c.quality, c.weapon, c.gun, c.artillery) == (first.quality, first.weapon, first.gun, first.artillery)
                       for c in reg.companies), reg.id
            assert max(activation._tells(state, c) for c in reg.companies) == activation._tells(state, first)
            assert max(fire.reach_yards(state.tables, c) for c in reg.companies) == fire.reach_yards(state.tables, first)


# (company, new place, how): 0 moves, 1 falls, 2 its unit enters the field and a turn begins, 3 a turn begins
turns = st.lists(st.tuples(st.integers(0, 200), places, st.integers(0, 3)), max_size=30)


@settings(max_examples=100, deadline=None)
@given(waiting=st.sets(st.integers(0, 30), max_size=8), changes=turns, asked=boxes)
def test_a_turn_begins_with_who_stands_as_a_fresh_reckoning_finds(
        waiting: set[int], changes: list[tuple[int, tuple[float, float], int]], asked: tuple[float, float, float, float]) -> None:
    """HardtackState.begin_turn reckons again only the companies that did not stand (entering is
    the one change of who stands between turns): with units waiting off the field to enter, and
    companies moving and falling between turns, every company's standing, the kept lists of the
    living, each regiment's centre and the enemies in a box are, after each change, what a fresh
    reckoning of every company gives."""
    state = mustered()
    units = list(state.regiments.values())
    for k in waiting:  # reinforcements, mustered where they will enter
        units[k % len(units)].unit.on_field = False
    state.forget()
    everyone = list(state.companies.values())
    for i, (x, y), how in changes:
        c = everyone[i % len(everyone)]
        if how == 0 and c.alive:
            c.x, c.y = x, y
            state.moved(c)
        elif how == 1 and c.alive:
            c.figures = 0
            state.forget(c)
        elif how >= 2:
            if how == 2:
                c.unit.on_field = True
            state.begin_turn()
        assert all(e.alive == (not e.gone and e.figures > 0 and e.unit.on_field) for e in everyone)
        for side, regiments in state.by_side.items():
            standing = [e for r in regiments for e in r.companies if not e.gone and e.figures > 0 and e.unit.on_field]
            assert state.living(side) == standing
            assert [e for group in state.living_by_regiment(side) for e in group] == standing
            assert state.enemies_in(side, asked[0], asked[0] + asked[1], asked[2], asked[2] + asked[3]) == [
                e for s, rs in state.by_side.items() if s != side for r in rs for e in r.companies
                if not e.gone and e.figures > 0 and e.unit.on_field
                and asked[0] <= e.x <= asked[0] + asked[1] and asked[2] <= e.y <= asked[2] + asked[3]]
        state.centres.clear()
        for reg in units:
            standing = [e for e in reg.companies if not e.gone and e.figures > 0 and e.unit.on_field]
            assert activation.centre(state, reg) == (centre_of(in_order(standing)) if standing else (reg.x, reg.y))
