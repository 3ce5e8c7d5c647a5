"""Victory, judged by the core from the neutral state, identically for every ruleset."""

from __future__ import annotations

import math
from collections.abc import Mapping

from attrs import frozen

from .plan import got_away
from .world import FIT_STATUSES, Objective, Scenario, SidePlan, World

_COUNTS = SidePlan("")  # the defaults of a side without a plan


@frozen
class Verdict:
    over: bool
    winner: str | None  # a side, or None for a draw (or while the game goes on)
    reason: str
    broke_off: str | None = None  # the side whose break-off decided the verdict ("both" for both), if one did


Box = tuple[int, float, float, float, float, float, float, float]
"""An objective's box: its index in the scenario, west, east, south, north, and its centre and radius."""


@frozen
class Reach:
    """Where a scenario's objectives can be held from, worked out once a scenario: each
    objective's box (its radius either way, a yard wider), listed in every square of a grid that
    it overlaps (a square as wide as the widest box: each box in at most 4). A unit
    outside an objective's box is not within its radius; one inside is when the distance says so;
    and a unit is inside only the boxes its square lists."""

    objectives: tuple[Objective, ...]
    side: float  # yards: a square's side
    squares: Mapping[tuple[float, float], tuple[Box, ...]]  # (column, row), whole numbers -> the boxes overlapping it

    @classmethod
    def of(cls, scenario: Scenario) -> Reach:
        """The scenario's reach, worked out on first use and kept with it (``scenario.kept``)."""
        kept = scenario.kept
        if kept.reach is None:
            boxes = [(i, o.position[0] - o.radius - 1.0, o.position[0] + o.radius + 1.0, o.position[1] - o.radius - 1.0,
                      o.position[1] + o.radius + 1.0, o.position[0], o.position[1], o.radius)
                     for i, o in enumerate(scenario.objectives)]
            side = max((b[2] - b[1] for b in boxes), default=1.0)
            squares: dict[tuple[float, float], list[Box]] = {}
            for box in boxes:
                _, w, e, s, n = box[:5]
                for column in range(int(w // side), int(e // side) + 1):
                    for row in range(int(s // side), int(n // side) + 1):
                        squares.setdefault((column, row), []).append(box)
            kept.reach = cls(scenario.objectives, side, {square: tuple(listed) for square, listed in squares.items()})
        return kept.reach


def update_holders(world: World) -> list[tuple[str, str | None, str]]:
    """An objective passes to a side with fit units within its radius and no fit enemy there;
    contested or empty, it stays with its last holder. Returns what changed hands now
    (objective, from, to), and keeps it in ``world.passed``. One pass over the units: each fit
    unit looks at the objectives its square of :class:`Reach` lists."""
    reach = Reach.of(world.scenario)
    side, squares = reach.side, reach.squares
    present: dict[int, set[str]] = {}  # objective's index -> the sides with a fit unit within its radius
    for u in world.units.values():
        listed = squares.get((u.x // side, u.y // side))  # (a whole float finds the int key equal to it)
        if listed is None or not u.on_field or u.status not in FIT_STATUSES:  # fit (the property's test, without its call)
            continue
        x, y = u.x, u.y
        for i, w, e, s, n, ox, oy, r in listed:
            if w <= x <= e and s <= y <= n and math.hypot(ox - x, oy - y) <= r:
                sides = present.get(i)
                if sides is None:
                    present[i] = {u.side}
                else:
                    sides.add(u.side)
    changes: list[tuple[str, str | None, str]] = []
    for i, objective in enumerate(reach.objectives):
        hand_over(world, objective, present.get(i) or set(), changes)
    return changes


def hand_over(world: World, objective: Objective, present: set[str], changes: list[tuple[str, str | None, str]]) -> None:
    """The objective passes to the side ``present`` if only one is, and not holding it already
    (kept in ``world.held`` and ``world.passed``, and added to ``changes``)."""
    if len(present) == 1:
        side = next(iter(present))
        before = world.held.get(objective.id)
        if side != before:
            world.held[objective.id] = side
            world.passed.append((world.minute, objective.id, side))
            changes.append((objective.id, before, side))


def men_lost(world: World, side: str) -> int:
    """Casualties: men removed from play by the rules, and men captured leaving the field over an
    edge that is not their side's line of retreat (not men who left by one)."""
    captured = sum(d.men for d in world.departures if d.captured and world.units[d.unit].side == side)
    return sum(u.spec.men - u.men for u in world.side_units(side)) + captured


def men_left(world: World, side: str) -> int:
    """Men who left the field by their side's line of retreat (neither casualties nor captured)."""
    return sum(d.men for d in world.departures if not d.captured and world.units[d.unit].side == side)


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


def beaten_share(world: World, side: str, count_broken: bool = True) -> float:
    """Share of a side's starting men lost (casualties and captured), with those standing in
    broken, routed or gone units if ``count_broken``."""
    start = out = 0  # one pass over the units (judged every turn): men_lost and the broken added up
    for u in world.by_side[side]:
        start += u.spec.men
        out += u.spec.men - u.men
        if count_broken and u.status not in ("good", "disordered"):
            out += u.men
    if world.departures:
        out += sum(d.men for d in world.departures if d.captured and world.units[d.unit].side == side)
    return out / start if start else 1.0


def judge(world: World, holders: bool = True) -> Verdict:
    """After each turn: is a side beaten or has it broken off, or is time up? Who won? (The
    objectives' holders are brought up to date first, unless the caller has just done so.)"""
    if holders:
        update_holders(world)
    victory = world.scenario.victory
    sides = world.scenario.sides
    shares = {}
    for s in sides:
        plan = world.scenario.plans.get(s)
        count_broken = plan.count_broken if plan else True
        beaten_at = plan.beaten_at if plan and plan.beaten_at is not None else victory.beaten_at
        share = beaten_share(world, s, count_broken)
        if share >= beaten_at:
            shares[s] = share
    if shares:
        if len(shares) == 2:
            return Verdict(True, None, "both sides beaten")
        loser, share = next(iter(shares.items()))
        what = "lost or broken" if world.scenario.plans.get(loser, _COUNTS).count_broken else "lost"
        return Verdict(True, world.enemy(loser), f"{loser} beaten ({share:.0%} of its men {what})")
    if world.broken_off and (world.minute >= victory.end or all(got_away(world, s) for s in world.broken_off)):
        return _broken_off(world)
    if world.minute < victory.end:
        return Verdict(False, None, "")
    values = _values(world)
    a, b = sides
    held = ", ".join(f"{s} {values[s]}" for s in sides)
    if values[a] == values[b]:
        return Verdict(True, None, f"time; objectives even ({held})")
    winner = a if values[a] > values[b] else b
    return Verdict(True, winner, f"time; objectives held ({held})")


def _values(world: World) -> dict[str, int]:
    """The value of the victory objectives each side holds now."""
    values = {s: 0 for s in world.scenario.sides}
    counted = world.scenario.victory.objectives
    for objective in world.scenario.objectives:
        holder = world.held.get(objective.id)
        if objective.id in counted and holder in values:
            values[holder] += objective.value
    return values


def _broken_off(world: World) -> Verdict:
    """The verdict once the withdrawal of the side that broke off has ended (or time is up), as
    the scenario's ``[victory] break_off`` says of that side: its defeat, a draw, or judged by
    the objectives held and then the share of men lost."""
    if len(world.broken_off) == 2:
        return Verdict(True, None, "both sides broke off", "both")
    side, why = next(iter(world.broken_off.items()))
    means = world.scenario.victory.break_off_means(side)
    if means == "defeat":
        return Verdict(True, world.enemy(side), f"{side} broke off ({why})", side)
    if means == "draw":
        return Verdict(True, None, f"{side} broke off ({why}); a draw by the scenario's terms", side)
    values = _values(world)
    shares = {s: beaten_share(world, s, count_broken=False) for s in world.scenario.sides}
    a, b = world.scenario.sides
    held = ", ".join(f"{s} {values[s]}" for s in (a, b))
    lost = ", ".join(f"{s} {shares[s]:.0%}" for s in (a, b))
    if values[a] != values[b]:
        winner: str | None = a if values[a] > values[b] else b
    else:
        winner = None if shares[a] == shares[b] else a if shares[a] < shares[b] else b
    return Verdict(True, winner, f"{side} broke off ({why}); judged: objectives {held}, men lost {lost}", side)
