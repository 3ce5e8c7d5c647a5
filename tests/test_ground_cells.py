"""The ground's cell under a point: the point's own cell on the map, the nearest edge cell off it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import CELL, Ground, _covers, _point_segment
from referee.core.input.scenario import parse_scenario
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


# near and behind look at the line's box before rounding the point: the answers are the rule's,
# from the rounded point, even for points half a yard either side of the box's reach
LINED = Ground(parse_scenario(SCENARIO, "ground.toml"))
EDGE = st.sampled_from([-0.5, -0.49, 0.0, 0.49, 0.5, 0.51, 1.5, 20.0])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["works", "stream"]), st.sampled_from([0, 1, 2, 3]), EDGE, st.floats(0.0, 1000.0), st.sampled_from([10.0, 40.0]))
def test_near_and_behind_are_the_rule_at_the_rounded_point(kind: str, side: int, off: float, along: float, within: float) -> None:
    west, east, south, north = LINED.extents[kind]
    x, y = [(west - within - off, along), (east + within + off, along), (along, south - within - off), (along, north + within + off)][side]
    px, py = round(x), round(y)
    assert LINED.near(kind, x, y, within) == any(_point_segment(px, py, s) <= within for s in LINED.segments[kind])
    assert LINED.behind(kind, x, y, within) == any(_covers(line, px, py, within) for line in LINED.lines[kind])
