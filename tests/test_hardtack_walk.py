"""Hardtack's walk over the ground (HT-M4) reads the cell under the middle of every 5-yard step;
it takes at once the steps that follow on ground of one kind, searches a kind of line only where
its box meets the move's, and asks the ground's samples only where some kind is clear going. Its
answers must be those of the walk that takes every step in turn and asks everything
(``reference_walk``, kept here as it was), to the last bit."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.plugins.hardtack import geometry as geo
from referee.plugins.hardtack import move
from referee.plugins.hardtack.tables import HardtackTables
from test_ground import SCENARIO


def _mustered(scenario_id: str) -> Game:
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario_id)), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


def _patchwork(house_rule: str = "") -> Game:
    """The ground test's 1,000-yard map, patched with squares of every kind of area (50 yards, off
    the cells' edges by 10) and a fence, a wall and a stream on whole yards: walks cross cells,
    kinds and lines often, and lines at the very end of a step. ``house_rule``: tables laid over
    the bundled ones."""
    kinds = ("woods", "dense-woods", "fields", "buildings", "marsh", "rough")
    areas = "".join(f"""
[[areas]]
kind = "{kinds[(i * 7 + j * 3) % len(kinds)]}"
polygon = [[{x}, {y}], [{x + 50}, {y}], [{x + 50}, {y + 50}], [{x}, {y + 50}]]
""" for i, x in enumerate(range(210, 800, 70)) for j, y in enumerate(range(360, 1000, 90)))
    lines = """
[[features]]
kind = "fence"
points = [[300, 0], [300, 1000]]

[[features]]
kind = "wall"
points = [[0, 620], [1000, 620]]

[[features]]
kind = "stream"
points = [[450, 0], [450, 1000]]
"""
    text = SCENARIO.replace("[victory]", areas + lines + "\n[victory]")
    with tempfile.TemporaryDirectory() as folder:
        overlay = Path(folder) / "house.toml"
        overlay.write_text(house_rule, encoding="utf-8")
        rules = build_rules("hardtack", house_rules=[overlay] if house_rule else [])
    game = Game.new(rules, parse_scenario(text, "patchwork.toml"), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


# fields and rough clear going: ground a walk may find all clear by the ground's samples
# (Ground.kinds_along), as it never can under the bundled tables, where every kind of area is rough
CLEAR = '[movement.terrain.infantry]\nfields = "clear"\nrough = "clear"\n[movement.terrain.mounted]\nfields = "clear"\n'
GAMES = {"big-bethel": _mustered("big-bethel"), "brawners-farm": _mustered("brawners-farm"), "patchwork": _patchwork(),
         "patchwork, fields clear": _patchwork(CLEAR)}


def reference_walk(game: Game, t: HardtackTables, who: str, ax: int, ay: int, bx: int, by: int, inches: float,
                   road: bool) -> tuple[float, frozenset[str], str]:
    """The walk one 5-yard step after another, each reading the cell under its middle."""
    ypi = t.yards_per_inch
    span, far = math.hypot(bx - ax, by - ay), inches * ypi
    reach = min(span, far)
    if reach <= 0:
        return 0.0, frozenset(), "clear"
    ux, uy = (bx - ax) / span, (by - ay) / span
    ex, ey = ax + ux * reach, ay + uy * reach
    table, costs, hard, lines, counts = move.going(game, t, who)[:5]
    r = move.ROUNDING
    if geo.none_in_box(game.ground, counts, min(ax, ex) - r, max(ax, ex) + r, min(ay, ey) - r, max(ay, ey) + r):
        return reach, frozenset(), "clear"
    events: list[tuple[float, str]] = []
    for kind, segments in () if road else lines:
        for at in move._crossings(segments, ax, ay, ex, ey):
            px, py = ax + ux * at, ay + uy * at
            if kind == "stream" and any(game.ground.near(k, px, py, move.CROSSING_YARDS) for k in ("bridge", "ford")):
                continue
            events.append((at, kind))
    if not events and (road or game.ground.kinds_along(ax, ay, ex, ey).isdisjoint(hard)):
        return reach, frozenset(), "clear"
    events.sort()
    n = len(events)
    area, cols, rows = geo.area_cells(game)
    points = inches * ypi
    kinds: set[str] = set()
    worst = "clear"
    done, nxt, here, cls, per = 0.0, 0, -1, "clear", 1
    while done < reach:
        rest = reach - done
        step = min(move.WALK_YARDS, rest)
        while nxt < n and events[nxt][0] <= done + step:
            kind = events[nxt][1]
            line = table.get(kind, "clear")
            kinds.add(kind)
            if move.RANK[line] > move.RANK[worst]:
                worst = line
            if line == "impassable":
                return done, frozenset(kinds), worst
            points -= (costs[line] - 1) * ypi
            nxt += 1
        mid = done + step / 2
        cell = geo.cell(ay + uy * mid, rows) * cols + geo.cell(ax + ux * mid, cols)
        if cell != here:
            here, kind = cell, area[cell]
            cls = table.get(kind, "clear")
            if cls == "impassable":
                return done, frozenset(kinds), worst
            if cls != "clear":
                kinds.add(kind)
                if move.RANK[cls] > move.RANK[worst]:
                    worst = cls
            per = costs.get(cls, 1)
        cost = step * per if cls != "clear" else step
        if cost > points:
            done += max(0.0, points) / per if cls != "clear" else max(0.0, points)
            break
        points -= cost
        done += step
    return done, frozenset(kinds), worst


MOVERS = ("infantry", "mounted", "limbered", "unlimbered")
# whole inches and a regimental formation's wings' (3 x yards moved / yards per inch: any fraction)
INCHES = st.one_of(st.integers(0, 48).map(float), st.floats(0.0, 48.0, allow_nan=False))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.sampled_from(MOVERS), st.integers(-60, 3100), st.integers(-60, 2700),
       st.integers(-400, 400), st.integers(-400, 400), INCHES, st.booleans())
def test_the_walk_by_cells_is_the_walk_step_by_step(name: str, who: str, ax: int, ay: int, dx: int, dy: int,
                                                   inches: float, road: bool) -> None:
    game = GAMES[name]
    t = game.state.tables
    args = (who, ax, ay, ax + dx, ay + dy, inches, road)
    assert move._walk(game, t, *args) == reference_walk(game, t, *args)


# along the axes, the middles of steps and the lines crossed fall on whole yards; along (4, 3)
# and (12, 5) middles fall on cells' edges (a + 4/5 x 62.5 is a whole number of yards)
DIRECTIONS = ((0, 1), (1, 0), (-1, 0), (0, -1), (4, 3), (3, -4), (-4, -3), (-3, 4), (12, 5), (-5, 12), (1, 1), (-1, 1))


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(MOVERS), st.integers(-30, 1030), st.integers(-30, 1030), st.sampled_from(DIRECTIONS),
       st.integers(1, 80), INCHES, st.booleans())
def test_walks_where_middles_and_lines_fall_on_edges_and_whole_steps(who: str, ax: int, ay: int, way: tuple[int, int],
                                                                   far: int, inches: float, road: bool) -> None:
    """Paths on the patchwork along the axes and whole-numbered slopes: steps whose middles lie
    on a cell's edge and lines crossed at the very end of a step, where the count of the steps
    taken at once is checked exactly."""
    for game in (GAMES["patchwork"], GAMES["patchwork, fields clear"]):
        t = game.state.tables
        args = (who, ax, ay, ax + way[0] * far * 5, ay + way[1] * far * 5, inches, road)
        assert move._walk(game, t, *args) == reference_walk(game, t, *args)


def test_a_walk_the_ground_finds_all_clear_goes_its_whole_length() -> None:
    """With fields and rough clear going, a walk over them and past a corner of woods that the
    ground's samples miss goes its whole length, as before; where every kind is rough, no walk
    asks the ground's samples."""
    game = GAMES["patchwork, fields clear"]
    t = game.state.tables
    args = ("infantry", 194, 809, 241, 797, 10.0, False)
    area, cols, rows = geo.area_cells(game)
    span = math.hypot(241 - 194, 797 - 809)
    middles = {area[geo.cell(809 + (797 - 809) / span * at, rows) * cols + geo.cell(194 + (241 - 194) / span * at, cols)]
               for at in (2.5 + 5 * j for j in range(int(span // 5)))}
    assert "buildings" in middles and game.ground.kinds_along(194, 809, 241, 797).isdisjoint(move.going(game, t, "infantry")[2])
    assert move._walk(game, t, *args) == reference_walk(game, t, *args) == (span, frozenset(), "clear")
    bundled = GAMES["big-bethel"]
    assert all(move.going(bundled, bundled.state.tables, who)[5] for who in MOVERS)


def test_a_walk_through_rough_ground_skips_steps_and_matches() -> None:
    """Long walks over Big Bethel's woods and marsh, both ways: the case the skipping serves."""
    game = GAMES["big-bethel"]
    t = game.state.tables
    met = set()
    for ax in range(0, 3000, 150):
        for ay in range(0, 2600, 150):
            for dx, dy in ((400, 0), (0, 400), (-300, 280), (280, -300)):
                args = ("infantry", ax, ay, ax + dx, ay + dy, 40.0, False)
                got = move._walk(game, t, *args)
                assert got == reference_walk(game, t, *args)
                met.add(got[2])
    assert {"poor", "difficult"} <= met  # (the walks met rough ground)


def test_a_formation_s_company_is_measured_not_moved() -> None:
    """move.how_far (a regimental formation's first pass: how far each company may go) leaves
    the company and the count of moves alone; moving it, step_toward goes as far."""
    game = _mustered("big-bethel")
    state = game.state
    reg = state.by_side["union"][0]
    c = reg.companies[0]
    enemies = state.enemies(c.side)
    among = move.friends_near(state, reg, c.x - 200.0, c.x + 200.0, c.y - 200.0, c.y + 200.0)
    before = (c.x, c.y, dict(state.moves), c.in_position)
    far, _ = move.how_far(state, c, c.x, c.y - 500.0, 60.0, enemies, among)
    assert (c.x, c.y, dict(state.moves), c.in_position) == before and far > 0
    assert move.step_toward(game, state, c, c.x, c.y - 500.0, 60.0, enemies) == far and c.y == before[1] - far
