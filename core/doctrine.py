"""The neutral commander: turns each side's plan into intents from the neutral state.

The doctrine sees only :class:`~referee.core.world.World` (men, places, statuses), never a
ruleset's state, and it is the same for every ruleset, so differences in outcome come from the
rules. Rulesets turn intents into their own legal actions. It is a plugin (hook
``referee_intents``), registered last, so a plugin may replace it.

Distances here are neutral judgements in yards, not any ruleset's ranges.
"""

from __future__ import annotations

import weakref
from math import hypot

from attrs import frozen

from .hookspecs import hookimpl
from .world import Order, Point, Scenario, UnitState, World, distance

ASSAULT_YARDS = 120.0  # an attacker this close to a fit enemy goes in with the bayonet
DEPLOY_YARDS = 600.0  # beyond this from the enemy, troops move in column
GUN_STAND_YARDS = 800.0  # attacking guns unlimber once an enemy is this close
REACHED_YARDS = 60.0  # a waypoint counts as reached within this distance
SPENT_SHARE = 0.5  # a unit that has lost this share of its men stops attacking and holds
RETREAT_YARDS = 3000.0  # how far back "withdraw" aims
SCREEN_YARDS = 900.0  # infantry in line this close to the enemy wants skirmishers out
SCREEN_MEN = 200  # ... if it is at least this strong


@frozen
class Intent:
    """What the commander wants of one unit now."""

    action: str  # advance, hold, charge, withdraw, rally
    goal: Point | None = None  # where to go (advance, withdraw) or stand (hold)
    target: str | None = None  # the enemy unit to fire at or charge
    formation: str | None = None  # the neutral formation wanted
    order: str = "defend"  # the order the intent comes from
    skirmishers: bool = False  # wants skirmishers deployed ahead (where its rules allow)


class DefaultDoctrine:
    """Attack: march on the objective by the route, deploy near the enemy, assault when close.
    Defend: hold the objective and fire. Screen: skirmish ahead. Reserve: wait until released.
    Broken units rally; spent attackers hold."""

    @hookimpl(trylast=True)
    def referee_intents(self, game, side: str) -> dict[str, Intent]:  # type: ignore[no-untyped-def]
        world: World = game.world
        memory: dict[str, int] = game.memory.setdefault("doctrine.waypoint", {})
        enemies = [u for u in world.units.values() if u.spec.side != side and u.fit]  # spec: no property call
        orders = _orders_by_unit(world.scenario)
        return {
            u.spec.id: self.intent(world, u, orders.get(u.spec.id), enemies, memory)
            for u in world.units.values()
            if u.spec.side == side and u.on_field and u.status != "gone"
        }

    def intent(self, world: World, unit: UnitState, order: Order | None, enemies: list[UnitState],
               memory: dict[str, int]) -> Intent:
        nearest, gap = None, float("inf")
        x, y = unit.x, unit.y
        for e in enemies:
            d = hypot(e.x - x, e.y - y)
            if d < gap:
                nearest, gap = e, d
        intent = self.decide(world, unit, order, nearest, gap, memory)
        if (gap <= SCREEN_YARDS and intent.action in ("advance", "hold") and intent.formation == "line"
                and unit.spec.arm == "infantry" and unit.men >= SCREEN_MEN):
            return Intent(intent.action, intent.goal, intent.target, intent.formation, intent.order, skirmishers=True)
        return intent

    def decide(self, world: World, unit: UnitState, order: Order | None, nearest: UnitState | None, gap: float,
               memory: dict[str, int]) -> Intent:
        """The intent from the unit's order, given its nearest fit enemy and how far it is."""
        kind = _released_kind(world, unit.side, order, gap)
        if unit.status in ("broken", "routed"):
            return Intent("rally", order=kind)
        target = nearest.id if nearest else None
        artillery = unit.spec.arm == "artillery"
        if kind == "withdraw":
            return Intent("withdraw", _rearward(world, unit), target, _march(unit, artillery), kind)
        if kind == "attack" and unit.men < unit.spec.men * SPENT_SHARE:
            kind = "defend"
        if kind == "attack":
            if artillery:
                if gap <= GUN_STAND_YARDS:
                    return Intent("hold", (unit.x, unit.y), target, "unlimbered", kind)
                return Intent("advance", _next_goal(world, unit, order, memory), target, "limbered", kind)
            if gap <= ASSAULT_YARDS and unit.status == "good":
                return Intent("charge", (nearest.x, nearest.y), target, "line", kind)  # type: ignore[union-attr]
            formation = "column" if gap > DEPLOY_YARDS else "line"
            return Intent("advance", _next_goal(world, unit, order, memory), target, formation, kind)
        if kind == "reserve":
            return Intent("hold", (unit.x, unit.y), target, _march(unit, artillery), kind)
        formation = "unlimbered" if artillery else ("skirmish" if kind == "screen" else "line")
        post = _objective_point(world, order) or (unit.x, unit.y)
        objective_radius = _objective_radius(world, order)
        if distance(unit.x, unit.y, *post) > objective_radius and kind != "reserve":
            return Intent("advance", post, target, "limbered" if artillery else formation, kind)
        return Intent("hold", (unit.x, unit.y), target, formation, kind)


_by_unit: weakref.WeakKeyDictionary[Scenario, dict[str, Order]] = weakref.WeakKeyDictionary()


def _orders_by_unit(scenario: Scenario) -> dict[str, Order]:
    """Each unit's order: its own command's, or the nearest ancestor's (worked out once)."""
    if scenario not in _by_unit:
        orders = {o.command: o for o in scenario.orders}
        _by_unit[scenario] = {
            u.id: order for u in scenario.units
            if (order := next((orders[c.id] for c in scenario.command_chain(u.command) if c.id in orders), None))
        }
    return _by_unit[scenario]


def _released_kind(world: World, side: str, order: Order | None, nearest_enemy: float) -> str:
    """The order in force: a reserve is released by its time or by an enemy coming close."""
    if order is None:
        return "defend"
    if order.kind != "reserve":
        return order.kind
    released = order.from_minute is not None and world.minute >= order.from_minute
    if order.when_enemy_within is not None:
        released |= nearest_enemy <= order.when_enemy_within
    if not released:
        return "reserve"
    return "attack" if order.objective and world.held.get(order.objective) != side else "defend"


def _objective_point(world: World, order: Order | None) -> Point | None:
    if order is None or order.objective is None:
        return None
    return world.scenario.objective(order.objective).position


def _objective_radius(world: World, order: Order | None) -> float:
    if order is None or order.objective is None:
        return REACHED_YARDS
    return world.scenario.objective(order.objective).radius


def _next_goal(world: World, unit: UnitState, order: Order | None, memory: dict[str, int]) -> Point:
    route = order.route if order else ()
    i = memory.get(unit.id, 0)
    while i < len(route) and distance(unit.x, unit.y, *route[i]) <= REACHED_YARDS:
        i += 1
    memory[unit.id] = i
    if i < len(route):
        return route[i]
    return _objective_point(world, order) or (unit.x, unit.y)


def _rearward(world: World, unit: UnitState) -> Point:
    import math

    facing = world.scenario.home_edges.get(unit.side, 180.0)
    rad = math.radians(facing)
    return (unit.x + RETREAT_YARDS * math.sin(rad), unit.y + RETREAT_YARDS * math.cos(rad))


def _march(unit: UnitState, artillery: bool) -> str:
    return "limbered" if artillery else "column"
