"""rff's walk over the ground (RFF-P28) reads the cell under a step's middle only where the steps
before it have not shown it to be in the same column (``Ground.runs``). Its answers must be those
of the walk that reads every step in turn (``reference_walk``, kept here as it was), to the last
bit; and ``Ground.runs`` must say what the cells say."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import CLEAR_CELLS, CLEAR_YARDS, RUN, Ground, ground_of
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.plugins.rff import geometry as geo
from test_ground import SCENARIO


class _Game:
    """What the walk reads of a game: its ground."""

    def __init__(self, ground: Ground) -> None:
        self.ground = ground


def _patchwork() -> Ground:
    """The ground test's 1,000-yard map (a wood in a corner, a stream across it), patched with
    squares of every kind of area (50 yards, off the cells' edges by 10) and a ford: walks cross
    cells, columns and the stream often."""
    kinds = ("woods", "dense-woods", "fields", "buildings", "marsh", "rough", "broken", "swamp")
    areas = "".join(f"""
[[areas]]
kind = "{kinds[(i * 7 + j * 3) % len(kinds)]}"
polygon = [[{x}, {y}], [{x + 50}, {y}], [{x + 50}, {y + 50}], [{x}, {y + 50}]]
""" for i, x in enumerate(range(210, 800, 70)) for j, y in enumerate(range(360, 1000, 90)))
    ford = '\n[[features]]\nkind = "ford"\npoints = [[480, 290], [480, 310]]\n'
    return Ground(parse_scenario(SCENARIO.replace("[victory]", areas + ford + "\n[victory]"), "patchwork.toml"))


GROUNDS = {"patchwork": _patchwork(), "big-bethel": ground_of(load_scenario(find_scenario("big-bethel"))),
           "kernstown": ground_of(load_scenario(find_scenario("kernstown")))}


def reference_walk(game: _Game, ax: float, ay: float, bx: float, by: float, open_: float, broken: float, rough: float) -> float:
    """The walk one step after another, each reading the cell under its middle."""
    length = math.hypot(bx - ax, by - ay)
    reach = min(length, max(open_, broken, rough))
    if reach <= 0.0:
        return 0.0
    rate = {"open": open_, "broken": broken, "rough": rough}
    ux, uy = (bx - ax) / length, (by - ay) / length
    steps = math.ceil(reach / geo.WALK_YARDS) or 1
    step = reach / steps
    ground_ = game.ground
    streams = ground_.has("stream") and ground_.crosses("stream", ax, ay, ax + ux * reach, ay + uy * reach)
    dx, dy = ux * step, uy * step
    left, moved = 1.0, 0.0
    for i in range(steps):
        x0, y0 = ax + dx * i, ay + dy * i
        x1, y1 = x0 + dx, y0 + dy
        ground = geo.GROUND_CLASS.get(ground_.kind_at((x0 + x1) / 2, (y0 + y1) / 2), "open")
        if streams and ground_.crosses("stream", x0, y0, x1, y1) and not geo._at_crossing(game, x0, y0, x1, y1):  # type: ignore[arg-type]
            ground = "rough"
        r = rate[ground]
        cost = step / r if r > 0 else math.inf
        if cost >= left:
            return moved + left * r
        left -= cost
        moved += step
    return moved


coordinate = st.floats(-100.0, 4000.0, allow_nan=False)
rate = st.sampled_from([0.0, 60.0, 150.0, 337.5, 600.0, 1200.0])


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(sorted(GROUNDS)), ax=coordinate, ay=coordinate, bearing=st.floats(0.0, 360.0),
       length=st.floats(0.0, 1500.0), rates=st.tuples(rate, rate, rate), diagonal=st.booleans())
def test_the_walk_is_the_step_by_step_walk(name: str, ax: float, ay: float, bearing: float, length: float,
                                           rates: tuple[float, float, float], diagonal: bool) -> None:
    """Moves of every length and way (along a row, a column or a diagonal too), every rate (none,
    or one column's only), over open ground, woods, marsh, patches of every kind and a stream
    with a ford: the same yards, to the last bit."""
    game = _Game(GROUNDS[name])
    way = math.radians(round(bearing / 45.0) * 45.0 if diagonal else bearing)
    bx, by = ax + length * math.sin(way), ay + length * math.cos(way)
    assert geo._walk(game, ax, ay, bx, by, *rates) == reference_walk(game, ax, ay, bx, by, *rates)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["patchwork", "big-bethel"])
def test_runs_say_each_cells_column_and_how_far_it_lasts(name: str) -> None:
    """Every cell's group is its kind's column, and its clearance is the distance in cells to
    the nearest cell of another column, counted as a king moves (brute force), up to CLEAR_CELLS + 1."""
    ground = GROUNDS[name]
    runs = ground.runs(geo.COLUMNS)
    column = [geo.GROUNDS.index(geo.GROUND_CLASS.get(ground.kinds[code], "open")) for code in ground.grid]
    assert [run // RUN for run in runs] == column
    cols = ground.cols
    for i in range(0, len(runs), 1 if name == "patchwork" else 41):
        r, c = divmod(i, cols)
        near = range(max(0, r - CLEAR_CELLS), r + CLEAR_CELLS + 1), range(max(0, c - CLEAR_CELLS), min(cols, c + CLEAR_CELLS + 1))
        other = [max(abs(r - r2), abs(c - c2)) for r2 in near[0] for c2 in near[1] if r2 * cols + c2 < len(runs) and column[r2 * cols + c2] != column[i]]
        assert runs[i] % RUN == min(other, default=CLEAR_CELLS + 1), (i, runs[i])
    x, y = (cols - 0.5) * 25.0, 12.5  # the last cell of the first row, and beyond the map's edge: the same
    assert ground.run_at(runs, x, y) == ground.run_at(runs, x + 400.0, y - 400.0) == (runs[cols - 1] // RUN, CLEAR_YARDS[runs[cols - 1] % RUN])
