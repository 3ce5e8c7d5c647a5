"""sumter's answers to the commander (rulings SU-CR1 to SU-CR3) are numbers worked out when the
tables are built (``SumterTables.charge_reach``, ``move_reach``, ``firearm_ranges``, ``gun_ranges``): each checked
here against the expected throw of the dice the game throws, found by enumerating their faces,
and against the ranges read from the raw tables, for every movement rate, formation, firearm and
gun type."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from referee.core.engine import world
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.sumter import move
from referee.plugins.sumter.state import SumterState
from referee.plugins.sumter.tables import DIE, RATES, SumterTables


def _state() -> SumterState:
    game = Game.new(build_rules("sumter"), load_scenario(find_scenario("drill-charge-battery")), 1, EventLog(enabled=False))
    state: SumterState = game.rules.muster(game)
    return state


def _expected(die: str, count: int, inches: float) -> Fraction:
    """The mean of ``count`` dice of ``die`` plus ``inches``, over every way they can fall."""
    faces = DIE[die].faces
    throws = list(itertools.product(faces, repeat=count))
    return Fraction(sum(sum(t) for t in throws), len(throws)) + Fraction(inches)


@pytest.mark.parametrize("rate", RATES)
def test_the_tables_charge_and_move_reach_are_the_expected_throws_of_the_dice_thrown(rate: str) -> None:
    state = _state()
    t: SumterTables = state.tables
    piece = next(iter(state.pieces.values()))
    piece.rate = rate
    r = t["movement"]["rates"][rate]
    assert t.charge_reach[rate] == _expected(r["die"], r["line"][-1] + r["charge_dice"], r["charge_inches"])  # SU-CR1
    for formation in world.FORMATIONS:  # SU-CR3: the dice a move throws toward a distant goal (SU-M4)
        assert t.move_reach[rate, formation] == _expected(*move.move_dice(state, piece, formation, math.inf)), formation


def test_the_tables_fire_ranges_are_the_effective_and_close_ranges_of_each_firearm_and_gun() -> None:
    t = _state().tables
    for weapon in world.WEAPONS:  # SU-CR2: a firearm's effective band starts at the muzzle
        effective = t["fire"]["ranges"][weapon][0]
        assert t.firearm_ranges[weapon] == (effective, effective), weapon
    for gun in world.GUN_TYPES:  # a gun's close range is its canister range
        canister, effective, _ = t["artillery"]["bands"][str(t["artillery"]["guns"][gun]["band"])]
        assert t.gun_ranges[gun] == (effective, canister), gun
