"""The world's index of places (core/engine/space.py) answers as a scan of every unit does: within R,
whether any stands within R, the nearest (ties broken by world order; every unit's at once too),
what stands between two points; and it follows units as they move, between rebuilds of its trees and across them. Each property is checked with the k-d tree on every side and with the scan that
small sides use."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from attrs import define
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine import space
from referee.core.engine.space import Space, segment_distance
from referee.core.engine.world import World
from referee.core.input.scenario import find_scenario, load_scenario


@define(eq=False)
class Dot:
    """A unit as the index sees it (these never move: they may be held in a tree)."""

    TRACKED = True
    id: str
    side: str
    x: float
    y: float
    fit: bool = True
    space: Space | None = None


@contextmanager
def tree_from(small: int) -> Iterator[None]:
    """Sides of more than ``small`` units answered by the tree (0: every side)."""
    was = space.SMALL
    space.SMALL = small
    try:
        yield
    finally:
        space.SMALL = was


# coarse places make ties (equal distances) common; fine ones make everything else
COORD = st.one_of(st.integers(0, 12).map(lambda i: i * 50.0), st.floats(0, 600, allow_nan=False))
DOTS = st.lists(st.tuples(st.sampled_from("ab"), COORD, COORD, st.booleans()), min_size=0, max_size=60)
POINT = st.tuples(COORD, COORD)
SMALLS = (0, 32)


def dots(spec: list[tuple[str, float, float, bool]]) -> list[Dot]:
    return [Dot(f"u{i}", side, x, y, fit) for i, (side, x, y, fit) in enumerate(spec)]


def kept(d: Dot) -> bool:
    return d.fit


@settings(max_examples=200, deadline=None)
@given(DOTS, POINT, st.one_of(st.sampled_from([0.0, 50.0, 100.0, 250.0]), st.floats(0, 900)))
def test_within_is_every_unit_within(spec, point, r) -> None:  # type: ignore[no-untyped-def]
    units = dots(spec)
    x, y = point
    for small in SMALLS:
        with tree_from(small):
            index = Space(units)  # type: ignore[arg-type]
            for side in "ab":
                want = [u for u in units if u.side == side and u.fit and math.hypot(u.x - x, u.y - y) <= r]
                assert index.within(side, x, y, r, kept) == want  # type: ignore[arg-type]
                assert set(want) <= set(index.near(side, x, y, r, kept))  # type: ignore[arg-type]
                assert index.occupied(side, x, y, r, kept) == bool(want)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(DOTS, POINT)
def test_nearest_is_the_first_of_the_nearest_in_world_order(spec, point) -> None:  # type: ignore[no-untyped-def]
    units = dots(spec)
    x, y = point
    for small in SMALLS:
        with tree_from(small):
            index = Space(units)  # type: ignore[arg-type]
            for side in "ab":
                best, d2 = None, math.inf
                for u in units:  # the doctrine's scan over every enemy
                    dx, dy = u.x - x, u.y - y
                    if u.side == side and u.fit and dx * dx + dy * dy < d2:
                        best, d2 = u, dx * dx + dy * dy
                found, gap = index.nearest(side, x, y, kept)  # type: ignore[arg-type]
                assert found is best
                assert gap == (math.inf if best is None else math.hypot(best.x - x, best.y - y))
                # every unit as near as the nearest is a candidate (ties), in world order
                ties = [u for u in units if u.side == side and u.fit and math.hypot(u.x - x, u.y - y) == (gap if best else -1)]
                candidates = index.candidates(side, x, y, kept)  # type: ignore[arg-type]
                assert set(ties) <= set(candidates)
                assert candidates == sorted(candidates, key=lambda u: int(u.id[1:]))


def scanned_nearest(units: list[Dot], side: str, x: float, y: float) -> tuple[Dot | None, float]:
    """The doctrine's scan over every kept unit of ``side`` in world order: the first of the nearest by squares."""
    best, d2 = None, math.inf
    for u in units:
        dx, dy = u.x - x, u.y - y
        if u.side == side and u.fit and dx * dx + dy * dy < d2:
            best, d2 = u, dx * dx + dy * dy
    return best, (math.inf if best is None else math.hypot(best.x - x, best.y - y))


@settings(max_examples=200, deadline=None)
@given(DOTS, st.lists(POINT, min_size=0, max_size=12))
def test_nearests_at_once_are_each_units_nearest(spec, points) -> None:  # type: ignore[no-untyped-def]
    """Every asking unit's nearest at once (each search bounded by the answer for the unit
    before, on a tree) is what the scan finds: the same unit, ties broken by world order."""
    units = dots(spec)
    asking = [Dot(f"q{i}", "c", x, y) for i, (x, y) in enumerate(points)]
    for small in SMALLS:
        with tree_from(small):
            index = Space(units)  # type: ignore[arg-type]
            for side in "ab":
                want = [scanned_nearest(units, side, q.x, q.y) for q in asking]
                assert index.nearests(side, asking, kept) == want  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(DOTS, POINT, POINT, st.sampled_from([0.0, 25.0, 60.0, 150.0]))
def test_between_is_every_unit_near_the_segment(spec, a, b, width) -> None:  # type: ignore[no-untyped-def]
    units = dots(spec)
    for small in SMALLS:
        with tree_from(small):
            index = Space(units)  # type: ignore[arg-type]
            want = [u for u in units if u.fit and segment_distance(u.x, u.y, *a, *b) <= width]
            assert index.between(*a, *b, width, keep=kept) == want  # type: ignore[arg-type]
            assert index.between(*a, *b, width, ("b",)) == [u for u in units if u.side == "b"  # type: ignore[arg-type]
                                                            and segment_distance(u.x, u.y, *a, *b) <= width]


BIG_BETHEL = load_scenario(find_scenario("big-bethel"))
MOVES = st.lists(st.tuples(st.integers(0, len(BIG_BETHEL.units) - 1), COORD, COORD), min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(MOVES, POINT)
def test_the_index_follows_units_as_they_move(moves, point) -> None:  # type: ignore[no-untyped-def]
    """A unit's place written anywhere (``unit.x = ...``) is seen by the next question."""
    x, y = point
    with tree_from(0):
        world = World.start(BIG_BETHEL)
        units = list(world.units.values())
        for i, ux, uy in moves:
            for side in BIG_BETHEL.sides:  # asked before the move: the side's tree is built
                world.space.nearest(side, x, y)
            units[i].x, units[i].y = ux, uy
            assert units[i] in world.space.moves[units[i].side].values()  # the tree skips it from now on
            assert world.space.indexed(units[i].side)
            for side in BIG_BETHEL.sides:
                mine = [u for u in units if u.side == side]
                want = min(mine, key=lambda u: ((u.x - x) * (u.x - x) + (u.y - y) * (u.y - y), mine.index(u)))
                assert world.space.nearest(side, x, y)[0] is want
                assert [found for found, _ in world.space.nearests(side, units)] == [  # every unit's at once, moved ones too
                    min(mine, key=lambda u: ((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y), mine.index(u))) for v in units]
                assert world.space.within(side, x, y, 200.0) == [u for u in mine if math.hypot(u.x - x, u.y - y) <= 200.0]


SCATTER = st.lists(st.tuples(COORD, COORD), min_size=40, max_size=80)
STEPS = st.lists(st.tuples(st.integers(0, 79), COORD, COORD, st.booleans()), min_size=1, max_size=40)


@settings(max_examples=100, deadline=None)
@given(SCATTER, STEPS, POINT, st.sampled_from([0.0, 50.0, 120.0, 400.0]))
def test_questions_between_moves_see_every_unit_where_it_stands(places, steps, point, r) -> None:  # type: ignore[no-untyped-def]
    """Units moved one at a time with a question after each (as a retreat moves, then asks for
    friends in the way): the moved are answered where they stand, the tree skipping their old
    places, whether or not enough have moved to rebuild it."""
    units = [Dot(f"u{i}", "a", x, y) for i, (x, y) in enumerate(places)]
    with tree_from(0):
        index = Space(units)  # type: ignore[arg-type]
        x, y = point
        for i, ux, uy, fit in steps:
            u = units[i % len(units)]
            index.moved(u)  # type: ignore[arg-type]  # (a tracked unit's hook)
            u.x, u.y, u.fit = ux, uy, fit
            assert index.within("a", x, y, r, kept) == [v for v in units if v.fit and math.hypot(v.x - x, v.y - y) <= r]  # type: ignore[arg-type]
            assert index.occupied("a", x, y, r, kept) == any(v.fit and math.hypot(v.x - x, v.y - y) <= r for v in units)  # type: ignore[arg-type]
            best = min((v for v in units if v.fit), key=lambda v: ((v.x - x) ** 2 + (v.y - y) ** 2, int(v.id[1:])), default=None)
            assert index.nearest("a", x, y, kept)[0] is best  # type: ignore[arg-type]
            assert index.between(x, y, ux, uy, 30.0, ("a",), kept) == [  # type: ignore[arg-type]
                v for v in units if v.fit and segment_distance(v.x, v.y, x, y, ux, uy) <= 30.0]


def free(d: Dot) -> bool:
    return True


GRID = st.one_of(st.integers(0, 4).map(lambda i: i * 100.0), COORD)  # a few places, often shared: ties abound
ROUND = st.tuples(st.lists(st.tuples(st.integers(0, 23), GRID, GRID, st.booleans()), max_size=5),
                  st.lists(st.integers(0, 23), max_size=14), st.sampled_from([kept, kept, kept, free, None]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), GRID, GRID, st.booleans()), min_size=24, max_size=24),
       st.lists(ROUND, min_size=1, max_size=10))
def test_nearests_asked_again_are_the_scan_of_every_unit(spec, rounds) -> None:  # type: ignore[no-untyped-def]
    """A scanned side asked again and again (as the doctrine asks every turn), often with nothing
    moved between, or a few units moved, made kept or not, or another ``keep``: a unit told its
    nearest while the side's kept units stood as they stand, answered again from what it was
    told, is what the scan of every kept unit finds (ties broken by world order); so is a unit
    that moved, or was never asked while they stood so."""
    units = dots(spec)
    index = Space(units)  # type: ignore[arg-type]
    assert not index.indexed("a") and not index.indexed("b")
    for moves, asking, keep in rounds:
        for i, x, y, fit in moves:
            units[i].x, units[i].y, units[i].fit = x, y, fit
        askers = [units[i] for i in asking]
        for side in "ab":
            among = [Dot(u.id, u.side, u.x, u.y) for u in units if keep is None or keep(u)]  # (all fit: the scan keeps them)
            want = [scanned_nearest(among, side, q.x, q.y) for q in askers]
            want = [(None if found is None else units[int(found.id[1:])], gap) for found, gap in want]
            assert index.nearests(side, askers, keep) == want  # type: ignore[arg-type]
