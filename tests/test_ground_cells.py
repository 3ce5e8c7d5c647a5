"""The ground's cell under a point: the point's own cell on the map, the nearest edge cell off it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.ground import CELL, Ground
from referee.core.scenario import parse_scenario
from test_ground import SCENARIO

GROUND = Ground(parse_scenario(SCENARIO + """
[[areas]]
kind = "buildings"
polygon = [[0, 0], [60, 0], [60, 40], [0, 40]]
""", "ground.toml"))
coordinate = st.floats(-300.0, 1300.0, allow_nan=False)


def cell_kind(x: float, y: float) -> str:
    """The rule itself: the cell holding the point, clamped onto the map."""
    c = min(max(math.floor(x / CELL), 0), GROUND.cols - 1)
    r = min(max(math.floor(y / CELL), 0), GROUND.rows - 1)
    return GROUND.kinds[GROUND.grid[r * GROUND.cols + c]]


@settings(max_examples=400, deadline=None)
@given(coordinate, coordinate)
def test_kind_at_is_the_kind_of_the_clamped_cell(x: float, y: float) -> None:
    assert GROUND.kind_at(x, y) == cell_kind(x, y)


@settings(max_examples=200, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate)
def test_samples_read_the_clamped_cells(ax: float, ay: float, bx: float, by: float) -> None:
    cells = GROUND.samples(ax, ay, bx, by)
    steps = len(cells) - 1
    for i, (kind, _) in enumerate(cells):
        t = (0.0 + math.hypot(bx - ax, by - ay) * i / steps) / math.hypot(bx - ax, by - ay) if steps else 0.0
        assert kind == cell_kind(ax + (bx - ax) * t, ay + (by - ay) * t)


def test_points_just_off_the_map_read_the_edge() -> None:
    assert GROUND.kind_at(-0.5, -0.5) == GROUND.kind_at(-250.0, 10.0) == "buildings"
    assert GROUND.kind_at(61.0, 10.0) != "buildings"
