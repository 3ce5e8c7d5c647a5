"""sumter's answers about where pieces stand: the box round a phase's enemies (``geometry.Foes``),
whose ``beyond`` answers as the distance from the box clamped with ``max`` would and never leaves
out an enemy in reach; and a piece's cover kept with the place it was read at (``Piece.cover``)."""

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


def test_a_pieces_kept_cover_is_the_grounds_reading_where_it_stands() -> None:
    """``combat.cover_of`` keeps a piece's cover with the place it read it at (``Piece.cover``): as
    the piece goes about the field, returning to places it stood on, every answer is the ground's
    own reading there (behind works, else woods or buildings)."""
    from referee.plugins.sumter.combat import COVER, cover_of

    ground, p = GAME.ground, PIECES[0]
    width, height = GAME.scenario.width, GAME.scenario.height
    places = [(width * i / 40, height * j / 40) for i in range(41) for j in range(41)]
    found = set()
    for x, y in places + places[::-3] + places[::7]:
        p.unit.x, p.unit.y = x, y
        for _ in range(2):  # asked again where it stands
            want = "works" if ground.behind("works", x, y, 30.0) else COVER.get(ground.kind_at(x, y), "")
            assert cover_of(GAME, p) == want, (x, y)
        found.add(want)
    assert {"works", "hedge-trees", ""} <= found  # (the field has works, woods and open ground)
