"""sumter's box round a phase's enemies (``geometry.Foes``): ``beyond`` answers as the
distance from the box, clamped with ``max``, would, and never leaves out an enemy in reach."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.sumter.geometry import Foes
from referee.plugins.sumter.state import SumterState

GAME = Game.new(build_rules("sumter"), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
STATE: SumterState = GAME.rules.muster(GAME)
PIECES = list(STATE.pieces.values())
YARDS = st.floats(-3000.0, 3000.0)


@given(st.lists(st.tuples(YARDS, YARDS), min_size=1, max_size=len(PIECES) - 1), st.tuples(YARDS, YARDS),
       st.floats(0.0, 1500.0))
def test_beyond_is_the_clamped_distance_from_the_box_and_leaves_out_no_enemy_in_reach(
        places: list[tuple[float, float]], here: tuple[float, float], reach: float) -> None:
    p, *others = PIECES
    enemies = others[:len(places)]
    for e, (x, y) in zip(enemies, places):
        e.unit.x, e.unit.y = x, y
    p.unit.x, p.unit.y = here
    foes = Foes.of(enemies)
    dx, dy = max(foes.x0 - here[0], 0.0, here[0] - foes.x1), max(foes.y0 - here[1], 0.0, here[1] - foes.y1)
    assert foes.beyond(p, reach) == (dx * dx + dy * dy > (reach + 1.0) ** 2)
    if foes.beyond(p, reach):
        assert all(math.hypot(e.unit.x - here[0], e.unit.y - here[1]) > reach for e in enemies)
