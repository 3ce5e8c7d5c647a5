"""The core's speed shortcuts give the answers of the plain rules they stand for: objectives'
holders found through the grid of the objectives' boxes (:class:`~referee.core.engine.victory.Reach`)
as by every unit's distance to every objective; an enemy within reach of a plan's trigger found through boxes
(:func:`~referee.core.engine.plan.enemy_within`) as by every pair's distance."""

from __future__ import annotations

import ast
import math
from pathlib import Path

from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.ground import ground_of
from referee.core.engine.plan import enemy_within
from referee.core.engine.victory import hand_over, update_holders
from referee.core.engine.world import World
from referee.core.input.scenario import find_scenario, load_scenario

BIG_BETHEL = load_scenario(find_scenario("big-bethel"))


def holders_by_distance(world: World) -> list[tuple[str, str | None, str]]:
    """The rule itself: each objective to the only side with fit units within its radius (every
    unit's distance, no boxes), handed over as update_holders does."""
    changes = []
    for objective in world.scenario.objectives:
        (ox, oy), r = objective.position, objective.radius
        present = {u.side for u in world.units.values() if u.fit and math.hypot(ox - u.x, oy - u.y) <= r}
        hand_over(world, objective, present, changes)
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


# objectives anywhere (off the map too), of any size, often overlapping
OBJECTIVE = st.tuples(st.floats(-300, 3300), st.floats(-300, 2900),
                      st.one_of(st.sampled_from([0.0, 1.0, 50.0, 150.0, 400.0]), st.floats(0, 600)))


@settings(max_examples=300, deadline=None)
@given(st.lists(OBJECTIVE, min_size=1, max_size=6), st.lists(STATE, min_size=1, max_size=12))
def test_holders_of_any_objectives_are_holders_by_distance(objectives, states) -> None:  # type: ignore[no-untyped-def]
    """Objectives of any place and size (a square of the grid as wide as the widest): every unit
    near one (on its edge, just inside or outside) or anywhere is found as by its distance."""
    scenario = evolve(BIG_BETHEL, objectives=tuple(
        evolve(BIG_BETHEL.objectives[0], id=f"o{i}", position=(x, y), radius=r) for i, (x, y, r) in enumerate(objectives)))
    kept, plain = World.start(scenario), World.start(scenario)
    for world in (kept, plain):
        for u in world.units.values():
            u.on_field = False
        for u, ((i, fx, fy, near, x, y), status, on_field) in zip(world.units.values(), states):
            (ox, oy), r = scenario.objectives[i % len(objectives)].position, scenario.objectives[i % len(objectives)].radius
            u.x, u.y = (ox + fx * r, oy + fy * r) if near else (x, y)
            u.status, u.on_field = status, on_field
    assert update_holders(kept) == holders_by_distance(plain)
    assert kept.held == plain.held and kept.passed == plain.passed


def enemy_within_by_distance(world: World, units, yards: float) -> bool:  # type: ignore[no-untyped-def]
    """The rule itself: a fit enemy, not hidden, within ``yards`` of one of ``units`` on the field."""
    return any(e.side != u.side and e.fit and not e.hidden and (e.x - u.x) ** 2 + (e.y - u.y) ** 2 <= yards ** 2
               for u in units if u.on_field for e in world.units.values())


EDGES = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (0.6, 0.8), (-0.8, 0.6), (0.6, -0.8), (1.0000001, 0.0), (0.0, -1.0000001)]
"""Places on the reach's circle (exactly: 0.6 and 0.8 of 100, 400 or 1,000 yards are whole), or just outside it."""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.sampled_from(EDGES), st.tuples(st.floats(-1.2, 1.2), st.floats(-1.2, 1.2))),
                          st.sampled_from(["good", "good", "broken"]), st.booleans(), st.sampled_from([True, True, False])),
                min_size=1, max_size=4),
       st.sampled_from([100.0, 400.0, 1000.0]), st.integers(1, 3))
def test_enemy_within_through_boxes_is_enemy_within_by_distance(places, yards, mine) -> None:  # type: ignore[no-untyped-def]
    world = World.start(BIG_BETHEL)
    units = list(world.units.values())
    union = [u for u in units if u.side == "union"][:mine]
    for u in units:
        u.on_field = False
    for i, u in enumerate(union):
        u.on_field, u.x, u.y = True, 1500.0 + 3 * yards * i, 1500.0
    others = [u for u in units if u.side != "union"]
    for u, ((fx, fy), status, hidden, on_field) in zip(others, places):
        u.x, u.y = union[-1].x + fx * yards, union[-1].y + fy * yards
        u.status, u.hidden, u.on_field = status, hidden, on_field
    expected = enemy_within_by_distance(world, union, yards)
    assert enemy_within(world, union, yards) == expected
    assert enemy_within(world, union, yards, world.side_units("confederate")) == expected  # as a plan asks it


def test_a_plan_finds_its_scopes_units_in_each_games_world() -> None:
    """A plan keeps the units of each scope it reads; moved to another world, it finds them there."""
    from types import SimpleNamespace

    from referee.core.engine.events import EventLog
    from referee.core.engine.plan import Plan
    from referee.core.engine.world import Trigger

    plan, first, second = Plan.start(BIG_BETHEL), World.start(BIG_BETHEL), World.start(BIG_BETHEL)
    near = Trigger("enemy_within", of="us-duryee", yards=400.0)
    for world in (first, second):
        plan.update(SimpleNamespace(world=world, log=EventLog(enabled=False)))
        duryee = next(u for u in world.units.values() if u.spec.command == "us-duryee")
        enemy = next(u for u in world.units.values() if u.side == "confederate")
        enemy.x, enemy.y = duryee.x + 300.0, duryee.y
        assert plan._holds(world, near, "us-duryee", "union")
        enemy.x = duryee.x + 500.0
        assert not plan._holds(world, near, "us-duryee", "union")


# a change between two intents: a unit (by index) moved, its status changed, an objective changing hands, the clock
CHANGE = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 23), st.sampled_from([-600.0, -150.0, 0.0, 0.5, 150.0, 600.0]),
              st.sampled_from([-600.0, -150.0, 0.0, 0.5, 150.0, 600.0])),
    st.tuples(st.just("status"), st.integers(0, 23), st.sampled_from(["good", "disordered", "broken", "routed", "gone"])),
    st.tuples(st.just("held"), st.integers(0, 3), st.sampled_from(["union", "confederate"])),
    st.tuples(st.just("clock"), st.sampled_from([30, 60, 120])),  # orders begin
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(CHANGE, max_size=4), min_size=1, max_size=3), st.sampled_from(["union", "confederate"]),
       st.integers(0, 40))
def test_standing_intents_kept_are_the_intents_decided_afresh(rounds, side, minutes) -> None:  # type: ignore[no-untyped-def]
    """The doctrine gives a standing order's intent again while its inputs are the same (and
    the suite's strict build checks each one it gives again); after any change, what it gives
    is what a doctrine with no memory of it decides."""
    from referee.core.engine.events import EventLog
    from referee.core.engine.game import Game
    from referee.core.engine.plugins import build_rules

    game = Game.new(build_rules("rff"), BIG_BETHEL, 1, EventLog(enabled=False))
    game.state = game.rules.pm.hook.referee_muster(game=game)
    game.world.minute += 10 * minutes
    units = list(game.world.units.values())
    game.intents(side)
    for changes in rounds:
        for change in changes:
            if change[0] == "move":
                units[change[1]].x += change[2]
                units[change[1]].y += change[3]
            elif change[0] == "status":
                units[change[1]].status = change[2]
            elif change[0] == "clock":
                game.world.minute += change[1]
            else:
                game.world.held[BIG_BETHEL.objectives[change[1]].id] = change[2]
        kept = game.intents(side)
        game.kept.doctrine.standing.clear()
        assert kept == game.intents(side)


CORE = Path(__file__).parent.parent / "core"


def _caches_in(path: Path) -> list[str]:
    """What breaks the core's rule for caches in one module: a module-level WeakKeyDictionary (a
    cache belongs to the object that owns its inputs), a ``game.memory`` key (the core's per-game
    memory is ``game.kept``), a ``@cache``/``@lru_cache`` function without a docstring saying why
    keeping its answers is safe."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{path.name}:{node.lineno} module-level {ast.unparse(node)[:60]}" for node in tree.body
             if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and "WeakKeyDictionary" in ast.unparse(node.value)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "memory" and ast.unparse(node.value) in ("game", "self"):
            found.append(f"{path.name}:{node.lineno} game.memory")
        if isinstance(node, ast.FunctionDef) and any("cache" in ast.unparse(d) for d in node.decorator_list) and not ast.get_docstring(node):
            found.append(f"{path.name}:{node.lineno} {node.name} is kept with no word on why that is safe")
    return found


def test_the_core_declares_its_caches() -> None:
    assert [problem for path in sorted(CORE.rglob("*.py")) for problem in _caches_in(path)] == []


def test_a_changed_scenario_works_its_ground_out_again() -> None:
    scenario = load_scenario(find_scenario("drill-musketry"))
    ground = ground_of(scenario)
    assert ground_of(scenario) is ground and scenario.kept.ground is ground
    changed = evolve(scenario, width=scenario.width + 100.0)
    assert changed.kept.ground is None and ground_of(changed) is not ground


def test_a_layouts_scopes_are_the_units_under_each_command_and_side() -> None:
    """The plans' scopes, found in one pass over the units, are each command's units and those of
    every command under it, and each side's, in the scenario's order."""
    from referee.core.engine.plan import Layout
    from referee.core.input.scenario import bundled

    for sid, _, _ in bundled():
        scenario = load_scenario(find_scenario(sid))
        scopes = Layout.of(scenario).scopes
        for command in scenario.commands:
            under = scenario.subordinates[command.id]
            assert scopes[command.id] == tuple(u.id for u in scenario.units if u.command in under), (sid, command.id)
        for side in scenario.sides:
            assert scopes[side] == tuple(u.id for u in scenario.units if u.side == side)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["good", "disordered", "broken", "gone"]), min_size=24, max_size=24),
       st.lists(st.booleans(), min_size=24, max_size=24))
def test_a_leader_rides_at_the_centre_of_his_commands_fit_units(statuses, on_field) -> None:  # type: ignore[no-untyped-def]
    from referee.core.engine.doctrine import _leader_place

    world = World.start(BIG_BETHEL)
    for u, status, present, i in zip(world.units.values(), statuses, on_field, range(24)):
        u.status, u.on_field, u.x, u.y = status, present, 100.0 + 37.3 * i, 900.0 - 11.1 * i * i
    for leader in world.leaders.values():
        leader.attached_to = None
        under = BIG_BETHEL.subordinates.get(leader.spec.command, frozenset())
        fit = [u for u in world.units.values() if u.spec.command in under and u.fit]
        expected = (sum(u.x for u in fit) / len(fit), sum(u.y for u in fit) / len(fit)) if fit else None
        assert _leader_place(world, leader) == expected
