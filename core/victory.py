"""Victory, judged by the core from the neutral state, identically for every ruleset."""

from __future__ import annotations

import math

from attrs import frozen

from .world import World


@frozen
class Verdict:
    over: bool
    winner: str | None  # a side, or None for a draw (or while the game goes on)
    reason: str


def update_holders(world: World) -> None:
    """An objective passes to a side with fit units within its radius and no fit enemy there;
    contested or empty, it stays with its last holder."""
    fit = [u for u in world.units.values() if u.fit]
    for objective in world.scenario.objectives:
        ox, oy = objective.position
        present = {u.side for u in fit if math.hypot(ox - u.x, oy - u.y) <= objective.radius}
        if len(present) == 1:
            world.held[objective.id] = present.pop()


def men_lost(world: World, side: str) -> int:
    """Casualties: men removed from play by the rules (not men who merely left the field)."""
    return sum(u.spec.men - u.men for u in world.side_units(side))


def guns_lost(world: World, side: str) -> int:
    """Guns destroyed or captured (guns of a unit that is gone are lost)."""
    return sum(u.spec.guns - (0 if u.status == "gone" else u.guns) for u in world.side_units(side))


def ground_gained(world: World, side: str) -> int:
    """Yards the side's foremost unit still in the fight stands ahead of where it started,
    measured toward the enemy (away from the side's own rear); 0 if none went forward."""
    rear = math.radians(world.scenario.home_edges.get(side, 180.0))
    ahead_x, ahead_y = -math.sin(rear), -math.cos(rear)
    return max(
        (round((u.x - u.spec.position[0]) * ahead_x + (u.y - u.spec.position[1]) * ahead_y)
         for u in world.side_units(side) if u.fit),
        default=0,
    )


def beaten_share(world: World, side: str) -> float:
    """Share of a side's starting men lost or standing in broken, routed or gone units."""
    units = world.side_units(side)
    start = sum(u.spec.men for u in units)
    out = sum(u.spec.men - u.men + (0 if u.status in ("good", "disordered") else u.men) for u in units)
    return out / start if start else 1.0


def judge(world: World) -> Verdict:
    """After each turn: is a side beaten, or is time up? Who won?"""
    update_holders(world)
    victory = world.scenario.victory
    sides = world.scenario.sides
    beaten = [s for s in sides if beaten_share(world, s) >= victory.beaten_at]
    if beaten:
        if len(beaten) == 2:
            return Verdict(True, None, "both sides beaten")
        loser = beaten[0]
        return Verdict(True, world.enemy(loser), f"{loser} beaten ({beaten_share(world, loser):.0%} of its men lost or broken)")
    if world.minute < victory.end:
        return Verdict(False, None, "")
    values = {s: 0 for s in sides}
    for objective in world.scenario.objectives:
        holder = world.held.get(objective.id)
        if objective.id in victory.objectives and holder in values:
            values[holder] += objective.value
    a, b = sides
    held = ", ".join(f"{s} {values[s]}" for s in sides)
    if values[a] == values[b]:
        return Verdict(True, None, f"time; objectives even ({held})")
    winner = a if values[a] > values[b] else b
    return Verdict(True, winner, f"time; objectives held ({held})")
