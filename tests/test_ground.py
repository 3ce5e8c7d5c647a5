"""The prepared ground: terrain under a point, lines crossed, and cover behind works."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import Ground, _covers, _point_segment
from referee.core.input.scenario import parse_scenario

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
