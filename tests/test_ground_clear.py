"""Ground.clear_of: a quick "nothing of these kinds near the line" that never says so wrongly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import Ground
from referee.core.input.scenario import parse_scenario
from test_ground import SCENARIO

# a wood in the corner (touching two edges of the map) and a building in the middle
GROUND = Ground(parse_scenario(SCENARIO + """
[[areas]]
kind = "buildings"
polygon = [[600, 300], [700, 300], [700, 380], [600, 380]]
""", "ground.toml"))
KINDS = ("woods", "buildings")
coordinate = st.floats(-200.0, 1200.0, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate)
def test_a_clear_line_samples_no_cell_of_the_kinds(ax: float, ay: float, bx: float, by: float) -> None:
    """Where clear_of says clear, the samples heights_of reads (ends rounded to 5 yards, points
    off the map reading the edge) meet none of the kinds."""
    if GROUND.clear_of(KINDS, ax, ay, bx, by):
        assert GROUND.heights_of(KINDS, ax, ay, bx, by, 0.0) == ()
        assert all(kind not in KINDS for kind, _ in GROUND.samples(ax, ay, bx, by))


def test_clear_of_answers_both_ways() -> None:
    assert GROUND.clear_of(KINDS, 300, 600, 900, 900)  # far from both
    assert not GROUND.clear_of(KINDS, 300, 600, 100, 100)  # into the wood
    assert not GROUND.clear_of(KINDS, 650, 250, 650, 450)  # through the building
    assert not GROUND.clear_of(KINDS, -50, 500, -50, 100)  # off the map beside the wood: reads its edge cells
    assert not GROUND.clear_of(KINDS, 598, 340, 500, 340)  # 2 yards west of the building: rounds onto it
    assert GROUND.heights_of(KINDS, 598, 340, 500, 340, 0.0) != ()


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, st.sampled_from([0.0, 30.0]))
def test_meets_is_any_sample_of_the_kinds(ax: float, ay: float, bx: float, by: float, skip: float) -> None:
    """Ground.meets (which stops at the first) answers as the samples it walks would."""
    kinds = frozenset(KINDS)
    assert GROUND.meets(kinds, ax, ay, bx, by, skip) == any(kind in kinds for kind, _ in GROUND.samples(ax, ay, bx, by, skip))


@settings(max_examples=400, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, st.sampled_from([0.0, 50.0]))
def test_lies_between_is_heights_of_not_empty(ax: float, ay: float, bx: float, by: float, skip: float) -> None:
    """Ground.lies_between (which stops at the first cell of the kinds) reads heights_of's
    points, ends rounded to 5 yards: it is true exactly where heights_of finds a height."""
    assert GROUND.lies_between(KINDS, ax, ay, bx, by, skip) == bool(GROUND.heights_of(KINDS, ax, ay, bx, by, skip))
