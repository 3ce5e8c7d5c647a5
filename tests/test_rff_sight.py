"""rff's line of sight: without plunging fire it asks only whether a wood or building stands in
the way (geometry._blocked, stopping at the first), which must answer as the heights of every
one between (geometry._blocking) would, on a real battlefield's woods and buildings."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import geometry as geo
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables

GAME = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
GAME.state = muster(GAME, load_tables())
FIRER, TARGET = GAME.state.of_side("union")[0], GAME.state.of_side("confederate")[0]
GROUND = GAME.ground
x = st.floats(-100.0, GROUND.width + 100.0, allow_nan=False)
y = st.floats(-100.0, GROUND.height + 100.0, allow_nan=False)


@settings(max_examples=500, deadline=None)
@given(x, y, x, y)
def test_sight_is_blocked_where_a_wood_or_building_stands_between(ax: float, ay: float, bx: float, by: float) -> None:
    FIRER.x, FIRER.y, TARGET.x, TARGET.y = ax, ay, bx, by
    between = [h for kind, h in GROUND.samples(5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5), geo.SIGHT_SKIP)
               if kind in geo.BLOCKING]  # every cell read, none skipped
    assert geo._blocked(GAME, ax, ay, bx, by) == bool(geo._blocking(GAME, ax, ay, bx, by)) == bool(between)
    assert geo.sight(GAME, FIRER, TARGET) == ("blocked" if between else "clear")
