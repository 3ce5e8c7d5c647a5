"""Ground.clear_of: a quick "nothing of these kinds near the line" that never says so wrongly; Ground.clearance
(how far each cell is from the kinds) and Ground.meets, which passes over the samples it rules out."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import CLEAR_CELLS, Ground, ground_of
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
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


def _king_moves(ground: Ground, kinds: frozenset[str], i: int) -> int:
    """Cells from cell ``i`` to the nearest cell of the kinds, as a king moves (brute force)."""
    r, c = divmod(i, ground.cols)
    return min((max(abs(r - j // ground.cols), abs(c - j % ground.cols)) for j, code in enumerate(ground.grid)
                if ground.kinds[code] in kinds), default=CLEAR_CELLS + 1)


@pytest.mark.parametrize("kinds", [frozenset(KINDS), frozenset(("buildings",)), frozenset(("swamp",))])
def test_clearance_counts_king_moves_to_the_kinds(kinds: frozenset[str]) -> None:
    """Every cell's clearance is its distance in cells to the nearest cell of the kinds, counted
    as a king moves, up to CLEAR_CELLS + 1 (none of the kinds on the map: every cell that)."""
    clear = GROUND.clearance(kinds)
    assert len(clear) == len(GROUND.grid)
    assert [clear[i] for i in range(len(clear))] == [min(_king_moves(GROUND, kinds, i), CLEAR_CELLS + 1) for i in range(len(clear))]
    assert {0, 1, CLEAR_CELLS, CLEAR_CELLS + 1} <= set(clear) or kinds == {"swamp"}


def test_clearance_of_a_bundled_ground() -> None:
    """The same on Big Bethel's ground (woods, buildings and marsh; cells along every edge)."""
    ground = ground_of(load_scenario(find_scenario("big-bethel")))
    kinds = frozenset(KINDS)
    clear = ground.clearance(kinds)
    edges = [i for i in range(len(clear)) if i % ground.cols in (0, ground.cols - 1) or i // ground.cols in (0, ground.rows - 1)]
    for i in sorted({*range(0, len(clear), 37), *edges}):
        assert clear[i] == min(_king_moves(ground, kinds, i), CLEAR_CELLS + 1), i


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, st.floats(0.0, 360.0), st.floats(0.0, 1500.0), st.sampled_from([0.0, 30.0, 50.0]))
def test_meets_passes_over_no_sample_of_the_kinds(ax: float, ay: float, bearing: float, length: float, skip: float) -> None:
    """Lines of every length and way (those along a row, a column or a diagonal too), from
    anywhere: meets, which passes over the samples its clearance rules out, answers as every
    sample would."""
    for way in (bearing, round(bearing / 45.0) * 45.0):
        bx, by = ax + length * math.sin(math.radians(way)), ay + length * math.cos(math.radians(way))
        for kinds in (frozenset(KINDS), frozenset(("buildings",))):
            assert GROUND.meets(kinds, ax, ay, bx, by, skip) == any(kind in kinds for kind, _ in GROUND.samples(ax, ay, bx, by, skip))
