"""The prepared ground: terrain under a point, lines crossed, and cover behind works."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import Ground, _covers, _point_segment, _straddle, ground_of
from referee.core.input.scenario import bundled, find_scenario, load_scenario, parse_scenario

SCENARIO = """
[scenario]
id = "ground"
title = "Ground"
date = "1861-06-10"
summary = "works with a front, a closed redoubt, a wood"
start = "09:00"
width = 1000
height = 1000
sides = ["union", "confederate"]

[[commands]]
id = "us"
name = "US"
side = "union"
level = "brigade"

[[commands]]
id = "cs"
name = "CS"
side = "confederate"
level = "brigade"

[[units]]
id = "a"
name = "A"
command = "us"
arm = "infantry"
men = 400
weapon = "smoothbore"
position = [500, 100]
facing = 0
formation = "line"

[[units]]
id = "b"
name = "B"
command = "cs"
arm = "infantry"
men = 400
weapon = "smoothbore"
position = [500, 900]
facing = 180
formation = "line"

[[areas]]
kind = "woods"
polygon = [[0, 0], [200, 0], [200, 200], [0, 200]]

[[features]]
kind = "works"
front = 180
points = [[100, 500], [900, 500]]

[[features]]
kind = "works"
points = [[600, 700], [700, 700], [700, 800], [600, 800], [600, 700]]

[[features]]
kind = "stream"
points = [[0, 300], [1000, 300]]

[victory]
end = "10:00"
objectives = []
"""


def ground() -> Ground:
    return Ground(parse_scenario(SCENARIO, "ground.toml"))


def test_works_cover_only_the_side_behind_their_front() -> None:
    g = ground()
    assert g.behind("works", 500, 520, 40)  # 20 yards behind works facing south
    assert not g.behind("works", 500, 480, 40)  # 20 yards in front of them: an attacker is not covered
    assert not g.behind("works", 500, 560, 40)  # too far behind to be in them


def test_a_closed_work_covers_its_inside_only() -> None:
    g = ground()
    assert g.behind("works", 650, 750, 40)
    assert g.behind("works", 650, 710, 40)
    assert not g.behind("works", 650, 600, 60)  # 100 yards outside it


def test_terrain_and_crossings() -> None:
    g = ground()
    assert g.kind_at(100, 100) == "woods" and g.kind_at(500, 100) == "fields"
    assert "woods" in g.kinds_along(500, 100, 100, 100)
    assert g.crosses("stream", 500, 100, 500, 400) and not g.crosses("stream", 500, 100, 500, 250)


def test_points_just_outside_a_line_s_box_are_still_near_it() -> None:
    """Look-ups refuse at once outside the box round every line of a kind, widened by the
    distance asked: points beyond a line's end or a work's corner, within that distance, count."""
    g = ground()
    assert g.behind("works", 735, 750, 40)  # 35 yards east of the closed work, outside its box
    assert not g.behind("works", 745, 750, 40)  # 45 yards
    assert g.behind("works", 925, 510, 40)  # 25 yards beyond the end of the line of works, behind it
    assert g.near("stream", 500, 330, 40) and not g.near("stream", 500, 345, 40)
    assert not g.near("road", 500, 300, 1000)  # no road on this map at all


LINE_POINTS = [(100, 500), (900, 500), (600, 700), (700, 800), (650, 700), (0, 300), (500, 300)]  # on the lines


@settings(max_examples=400, deadline=None)
@given(at=st.sampled_from(LINE_POINTS), dx=st.integers(-150, 150), dy=st.integers(-150, 150),
       within=st.sampled_from([0.0, 5.0, 25.0, 40.0, 120.0]))
def test_look_ups_agree_with_every_line_measured(at: tuple[int, int], dx: int, dy: int, within: float) -> None:
    """The quick refusals (outside a kind's box, or in a grid cell far from all its lines) never
    change an answer: near and behind agree with measuring every line, inside closed works too."""
    g, x, y = ground(), at[0] + dx, at[1] + dy
    for kind in ("works", "stream", "road"):
        assert g.near(kind, x, y, within) == any(_point_segment(x, y, s) <= within for s in g.segments.get(kind, ()))
        assert g.behind(kind, x, y, within) == any(_covers(line, x, y, within) for line in g.lines.get(kind, ()))


def _crossed_by_every_segment(g: Ground, kind: str, ax: float, ay: float, bx: float, by: float) -> bool:
    """The rule, measured against every segment: a-b, ends rounded to 5 yards, cuts one of them."""
    a_b = 5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5)
    return any(_straddle(*a_b, s) for s in g.segments.get(kind, ()))


@settings(max_examples=400, deadline=None)
@given(at=st.sampled_from(LINE_POINTS), dx=st.floats(-400.0, 400.0), dy=st.floats(-400.0, 400.0),
       ex=st.floats(-400.0, 400.0), ey=st.floats(-400.0, 400.0))
def test_crosses_agrees_with_every_segment_measured(at: tuple[int, int], dx: float, dy: float, ex: float, ey: float) -> None:
    """crosses, which passes over the segments whose box (Ground.boxed) misses the move's, answers
    as every segment would: through lines, beside their ends, along them."""
    g, ax, ay = ground(), at[0] + dx, at[1] + dy
    for bx, by in ((at[0] + ex, at[1] + ey), (ax + ex, ay), (ax, ay + ey)):
        for kind in ("works", "stream", "road"):
            assert g.crosses(kind, ax, ay, bx, by) == _crossed_by_every_segment(g, kind, ax, ay, bx, by)


def test_boxed_segments_are_the_segments_with_their_boxes() -> None:
    g = ground()
    assert {kind: [s for *_, s in boxed] for kind, boxed in g.boxed.items()} == g.segments
    for boxed in g.boxed.values():
        for west, east, south, north, (x1, y1, x2, y2) in boxed:
            assert (west, east, south, north) == (min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2))


@pytest.mark.parametrize("name", [sid for sid, _, _ in bundled()])
def test_bundled_grounds_answer_as_every_line_measured(name: str) -> None:
    """On every bundled ground, at points round each of its lines (and along moves from them):
    near, behind and crosses agree with measuring every segment and line."""
    g = ground_of(load_scenario(find_scenario(name)))
    rng = random.Random(name)
    for kind, lines in g.lines.items():
        for _ in range(60):
            x, y = rng.choice([p for line in lines for p in line.points])
            x, y = x + rng.uniform(-150.0, 150.0), y + rng.uniform(-150.0, 150.0)
            within = rng.choice([5.0, 30.0, 40.0, 120.0])
            px, py = round(x), round(y)
            assert g.near(kind, x, y, within) == any(_point_segment(px, py, s) <= within for s in g.segments[kind])
            assert g.behind(kind, x, y, within) == any(_covers(line, px, py, within) for line in lines)
            bx, by = x + rng.uniform(-300.0, 300.0), y + rng.uniform(-300.0, 300.0)
            assert g.crosses(kind, x, y, bx, by) == _crossed_by_every_segment(g, kind, x, y, bx, by)
