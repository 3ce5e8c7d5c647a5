"""rff's outflank search (geometry.outflanked) tests each enemy in its band written out: it must
say what within's list and on_flank say of every enemy, wherever the enemy stands."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import geometry
from referee.plugins.rff.maneuver import outflank_yards
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables

GAME = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
GAME.state = muster(GAME, load_tables())
YARDS = outflank_yards(GAME.state.tables)
distance = st.one_of(st.floats(0.0, 3 * YARDS), st.floats(YARDS - 40.0, YARDS + 40.0))  # and often near the edge of reach


@settings(max_examples=300, deadline=None)
@given(distance, st.floats(0.0, 359.9), st.floats(0.0, 359.9), st.sampled_from(["good", "disordered", "broken"]),
       st.sampled_from(["line", "field-column", "march-column", "extended-line"]))
def test_outflanked_says_what_within_and_on_flank_say(far: float, toward: float, facing: float, status: str, formation: str) -> None:
    state = GAME.state
    union = next(p for p in state.of_side("union") if p.troops)
    rebels = [p for p in state.of_side("confederate") if p.troops]
    rebel = rebels[0]
    for i, p in enumerate(rebels[1:]):  # every other enemy far off
        p.x, p.y = 10.0 + i, 10.0
        state.moved(p)
    union.facing, rebel.status, rebel.formation = facing, status, formation
    rebel.x, rebel.y = union.x + far * math.sin(math.radians(toward)), union.y + far * math.cos(math.radians(toward))
    state.moved(rebel)
    plain = any(e.status != "broken" and e.parent is None and geometry.on_flank(union, e)
                for _, e in geometry.within(state, union, state.enemies_of("union"), YARDS))
    assert geometry.outflanked(state, union, YARDS) == plain
