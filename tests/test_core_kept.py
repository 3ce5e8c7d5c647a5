"""The core's speed shortcuts give the answers of the plain rules they stand for: objectives'
holders found through their boxes (:class:`~referee.core.victory.Reach`) as by every unit's
distance to every objective."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.scenario import find_scenario, load_scenario
from referee.core.victory import update_holders
from referee.core.world import World

BIG_BETHEL = load_scenario(find_scenario("big-bethel"))


def holders_by_distance(world: World) -> list[tuple[str, str | None, str]]:
    """The rule itself: each objective to the only side with fit units within its radius."""
    changes = []
    for objective in world.scenario.objectives:
        (ox, oy), r = objective.position, objective.radius
        present = {u.side for u in world.units.values() if u.fit and math.hypot(ox - u.x, oy - u.y) <= r}
        if len(present) == 1:
            side = present.pop()
            before = world.held.get(objective.id)
            if side != before:
                world.held[objective.id] = side
                world.passed.append((world.minute, objective.id, side))
                changes.append((objective.id, before, side))
    return changes


# a unit's place: near an objective (its edge, inside or just outside, either way) or anywhere
EDGE = st.sampled_from([-1.0, 0.0, 1.0, -0.999999, 0.5, 1.0000001, 1.5])
PLACE = st.tuples(st.integers(0, len(BIG_BETHEL.objectives) - 1), EDGE, EDGE, st.sampled_from([True, True, False]),
                  st.floats(0, BIG_BETHEL.width), st.floats(0, BIG_BETHEL.height))
STATE = st.tuples(PLACE, st.sampled_from(["good", "disordered", "good", "broken", "gone"]), st.sampled_from([True, True, False]))


@settings(max_examples=300, deadline=None)
@given(st.lists(STATE, min_size=1, max_size=6), st.integers(0, 3))
def test_holders_through_boxes_are_holders_by_distance(states, turns) -> None:  # type: ignore[no-untyped-def]
    kept, plain = World.start(BIG_BETHEL), World.start(BIG_BETHEL)
    for world in (kept, plain):
        for u in world.units.values():  # those given no state stay off the field
            u.on_field = False
        for u, ((i, fx, fy, near, x, y), status, on_field) in zip(world.units.values(), states):
            (ox, oy), r = BIG_BETHEL.objectives[i].position, BIG_BETHEL.objectives[i].radius
            u.x, u.y = (ox + fx * r, oy + fy * r) if near else (x, y)
            u.status, u.on_field = status, on_field
    for turn in range(turns + 1):
        assert update_holders(kept) == holders_by_distance(plain)
        assert kept.held == plain.held and kept.passed == plain.passed
        for world in (kept, plain):  # the next turn: every unit a little east
            world.minute += 20
            for u in world.units.values():
                u.x += 37.0 * turn
