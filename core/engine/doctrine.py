"""The neutral commander: turns each side's plan into intents from the neutral state.

The doctrine sees only :class:`~referee.core.engine.world.World` (men, places, statuses) and the plan
(:mod:`referee.core.engine.plan`), never a ruleset's state, and it is the same for every ruleset, so
differences in outcome come from the rules. Rulesets turn intents into their own legal actions.
It is a plugin (hook ``referee_intents``), registered last, so a plugin may replace it.

It follows the plan and never presses past it: a unit does what the order in force of its
command says; spent attackers stop (they hold out of effective range or fall back to it, and
never advance); a unit out of its commander's reach does not begin an assault; no assault is
begun after dark unless the order says so; a side that has broken off retires, its rear guard
holding. How far a unit can charge and how far its fire tells it asks the unit's ruleset
(hook ``referee_capabilities``, :mod:`referee.core.engine.reach`); the distances here are neutral
judgements in yards, and the charge and fire distances among them are only the fallback for a
ruleset that does not answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from math import hypot
from typing import TYPE_CHECKING

from attrs import Factory, define

from .hookspecs import hookimpl
from .plan import Layout, dark
from .reach import Capabilities, capabilities
from .records import STRICT, record
from .world import FIT_STATUSES, LeaderState, Order, Point, UnitState, World, distance

if TYPE_CHECKING:
    from .game import Game

ASSAULT_YARDS = 120.0  # fallback: an attacker this close to a fit enemy goes in with the bayonet
DEPLOY_YARDS = 600.0  # beyond this from the enemy, troops move in column
GUN_STAND_YARDS = 800.0  # fallback: attacking guns unlimber once an enemy is this close
REACHED_YARDS = 60.0  # a waypoint counts as reached within this distance
SPENT_SHARE = 0.5  # a unit that has lost this share of its men stops attacking
EFFECTIVE_YARDS = 400.0  # fallback: within this, musketry and canister tell: a spent unit falls back beyond it
ENGAGE_YARDS = 250.0  # fallback: how close an engage order goes before it stops to fire, unless it says
DEMONSTRATE_YARDS = 700.0  # how close a demonstration goes, unless it says
COMMAND_REACH_YARDS = 500.0  # a unit farther than this from every leader of its chain does not begin an assault
RETREAT_YARDS = 3000.0  # how far back a withdrawal aims when the order names no place
SCREEN_YARDS = 900.0  # infantry in line this close to the enemy wants skirmishers out (its rules decide)
MOVE_YARDS = 25.0  # fallback for a unit's move (its ruleset's ``move_yards``): the least move of formed infantry under any ruleset
DRESS_ROUNDING_YARDS = 25.0  # a unit of a concerted assault this near its dressing line has dressed
DRESS_WAIT_MINUTES = 60  # a concerted assault waits at most this long for its last unit once its first has dressed
ADVANCING = ("attack", "engage", "demonstrate")
DEPLOYED = ("line", "skirmish")  # formations an order names to go forward deployed, not marching


@record
class Intent:
    """What the commander wants of one unit now."""

    action: str  # advance, hold, charge, withdraw, rally
    goal: Point | None = None  # where to go (advance, withdraw) or stand (hold)
    target: str | None = None  # the enemy unit to fire at or charge
    formation: str | None = None  # the neutral formation wanted (None: keep the one it has)
    order: str = "hold"  # the kind of order the intent comes from
    skirmishers: bool = False  # wants skirmishers deployed ahead (where its rules allow)
    standoff: float | None = None  # yards: a move toward ``target`` ends no nearer than this (engage, demonstrate)


@record
class CommandIntent:
    """What the commander wants of one command (a brigade) now: its ``stance`` (assault,
    engage, support, advance, hold, withdraw), from the order in force of its units."""

    stance: str
    order: str = "hold"  # the kind of the plan's order it comes from
    objective: str | None = None


Standing = tuple[Order | None, str, float, float, UnitState | None, bool]
"""What decides the intent of a unit under an order that does not advance (hold, defend,
reserve, screen, rally, withdraw): the order (which, read by :func:`_kind` as one that does not
advance, reads as one kind only), the unit's status and place, its nearest enemy (by identity)
and whether that enemy is within :data:`SCREEN_YARDS`. Nothing else is read on that path (not
the men, the light, the leaders or the route), so the intent decided for these inputs is kept
per unit, in ``game.kept.doctrine.standing``, and given again while they are the same."""


@define
class Concert:
    """A concerted assault's progress (orders naming one ``together`` group): the minute its first
    unit dressed, where each unit dressed (it stays dressed while it stands there, whatever its
    nearest enemy does), and whether it has gone in (it stays released once it has)."""

    dressed_at: int | None = None
    released: bool = False
    lines: dict[str, Point] = Factory(dict)  # unit -> where it dressed


@define
class DoctrineMemory:
    """What the default doctrine remembers during one game (``game.kept.doctrine``), dropped with it."""

    repulsed: set[tuple[str, str]] = Factory(set)  # (unit, order) whose repulse at its objective is counted
    waypoint: dict[str, int] = Factory(dict)  # "unit:order" -> the index of the next point of its route
    standing: dict[str, tuple[Standing, Intent]] = Factory(dict)  # unit -> a standing order's inputs and the intent they gave
    declined: set[tuple[str, int]] = Factory(set)  # (unit, turn) whose declined charge is logged
    concerts: dict[tuple[str, str], Concert] = Factory(dict)  # (side, together group) -> its concerted assault


STANCES = ("assault", "engage", "support", "advance", "hold", "withdraw")
STANCE_OF = {"engage": "engage", "demonstrate": "support", "screen": "support", "hold": "hold", "reserve": "hold",
             "rally": "hold", "withdraw": "withdraw"}
"""The stance of each order kind, when the command is in contact (attack: assault, or engage
when it goes in without the bayonet; an advancing order far from the enemy: advance)."""

def _yell(unit: UnitState, kind: str, options: tuple[str, ...]) -> str:
    return "yell"


def _charged(unit: UnitState, kind: str, options: tuple[str, ...]) -> str:
    return ("countercharge" if unit.spec.arm == "cavalry" and unit.status == "good" else
            "evade" if unit.formation == "skirmish" and "evade" in options else "stand")


def _follow_up(unit: UnitState, kind: str, options: tuple[str, ...]) -> str:
    return "follow-up" if kind in ADVANCING and unit.status == "good" else "stand"


def _pour_on_fire(unit: UnitState, kind: str, options: tuple[str, ...]) -> str:
    return "no" if unit.low_ammo else "pour"


def _move_and_fire(unit: UnitState, kind: str, options: tuple[str, ...]) -> str:
    return "half-and-fire"


CHOICES: dict[str, Callable[[UnitState, str, tuple[str, ...]], str]] = {
    "rebel-yell": _yell,
    "charged": _charged,
    "follow-up": _follow_up,
    "pour-on-fire": _pour_on_fire,
    "move-and-fire": _move_and_fire,
}
"""The default answers to the reactive choices (docs/doctrine.md): yell whenever allowed;
cavalry in good order countercharge, skirmishers evade, others stand; attackers in good order
follow up; pour on fire while there is ammunition; advancing within range, move only as far
as still lets the unit fire."""


class DefaultDoctrine:
    """Attack: march on the objective by the route, deploy near the enemy, assault when close
    (or stop at firing range). Engage and demonstrate: advance to a firing distance and hold.
    Hold: take post on the objective and fire. Screen: skirmish ahead. Reserve: wait formed as
    ordered. Withdraw: go to the place named, or to the rear. Rally: re-form. Broken units
    rally; spent attackers never advance."""

    @hookimpl(trylast=True)
    def referee_intents(self, game: Game, side: str) -> dict[str, Intent]:
        world: World = game.world
        plan = game.plan
        mine = [u for u in world.by_side[side] if u.on_field]
        enemy = world.enemy(side)
        orders = plan.orders_of(mine)
        kept = game.kept.doctrine
        counted = kept.repulsed
        for u, order in zip(mine, orders):
            if order is not None and order.kind == "attack":
                _note_repulse(game, u, order, counted)
        if plan.update(game):
            orders = plan.orders_of(mine)
        nearests = world.space.nearests(enemy, mine, _known)  # each unit's nearest enemy it reckons with, and how far
        if any(o is not None and o.together for o in orders):
            _dress(game, side, mine, orders, nearests)
        memory = kept.waypoint
        retiring = side in world.broken_off
        rear_guard = plan.rear_guard(world.scenario, side) if retiring else frozenset()
        standing = kept.standing
        intents = {}
        for u, order, (nearest, gap) in zip(mine, orders, nearests):
            if u.status == "gone":
                continue
            screen = gap <= SCREEN_YARDS
            inputs: Standing | None = None
            if retiring and u.id not in rear_guard:
                intent = _withdraw(world, u, None, nearest, "withdraw") if u.fit else Intent("rally", order="withdraw")
            else:
                kind = _kind(world, u, order)
                if kind not in ADVANCING:  # a standing order: the same inputs, the same intent
                    inputs = (order, u.status, u.x, u.y, nearest, screen)
                    was = standing.get(u.id)
                    if was is not None and was[0] == inputs:
                        intents[u.id] = was[1]
                        if STRICT:  # the suite's build: checked against the intent decided afresh
                            assert was[1] == _screened_if(self.decide(world, u, order, nearest, gap, memory), u, screen), u.id
                        continue
                intent = self.decide(world, u, order, nearest, gap, memory, game)
            intent = _screened_if(intent, u, screen)
            if inputs is not None:
                standing[u.id] = (inputs, intent)
            intents[u.id] = intent
        return intents

    @hookimpl(trylast=True)
    def referee_command_intents(self, game: Game, side: str) -> dict[str, CommandIntent]:
        """Each command of ``side`` with units on the field: the stance of the order in force
        of its units (the first on the field), withdraw once the side has broken off."""
        world: World = game.world
        plan = game.plan
        plan.update(game)
        enemy, space = world.enemy(side), world.space
        out: dict[str, CommandIntent] = {}
        for u in world.by_side[side]:
            command = u.spec.command
            if not u.on_field or command in out or u.status == "gone":
                continue
            order = plan.order_of(u.spec.id)
            kind = _kind(world, u, order)
            if side in world.broken_off:
                out[command] = CommandIntent("withdraw", "withdraw")
                continue
            if kind in ADVANCING:  # marching while no enemy it reckons with is within its deploying distance
                near = space.occupied(enemy, u.x, u.y, _deploy_yards(u, capabilities(game, u)), _known)
                stance = ("advance" if not near and not _deployed(order) else
                          "assault" if kind == "attack" and order is not None and order.assault else
                          "support" if kind == "demonstrate" else "engage")
            elif kind == "hold" and _off_post(world, u, order):
                stance = "advance"  # marching to the post its order names: on the march, not yet holding
            else:
                stance = STANCE_OF.get(kind, "hold")
            out[command] = CommandIntent(stance, kind, order.objective if order else None)
        return out

    @hookimpl(trylast=True)
    def referee_choose(self, game: Game, side: str, unit: str, question: str, options: tuple[str, ...]) -> str:
        """The default answer to a reactive choice (:data:`CHOICES`); the first option for a
        question it does not know."""
        rule = CHOICES.get(question)
        if rule is None:
            return options[0]
        u = game.world.units[unit]
        answer = rule(u, _kind(game.world, u, game.plan.order_of(unit)), options)
        return answer if answer in options else options[0]

    def decide(self, world: World, unit: UnitState, order: Order | None, nearest: UnitState | None, gap: float,
               memory: dict[str, int], game: Game | None = None) -> Intent:
        """The intent from the unit's order, given its nearest fit enemy and how far it is;
        ``game`` (None: the neutral distances) is whose rulesets are asked what a unit can do."""
        kind = _kind(world, unit, order)
        if unit.status in ("broken", "routed"):
            return Intent("rally", order=kind)
        target = nearest.id if nearest else None
        artillery = unit.spec.arm == "artillery"
        if kind == "withdraw":
            return _withdraw(world, unit, order, nearest, kind)
        if kind == "rally":
            return Intent("rally" if unit.status != "good" else "hold", (unit.x, unit.y), target,
                          None if artillery else "line", kind)
        if kind in ADVANCING and unit.men < unit.spec.men * SPENT_SHARE:
            return _spent(world, unit, nearest, gap, kind, game)
        if kind in ADVANCING:
            return self.advance(world, unit, order, nearest, gap, memory, kind, game)  # type: ignore[arg-type]  # an advancing kind comes only from an order in force, so order is not None
        if kind == "reserve":
            return Intent("hold", (unit.x, unit.y), target, order.formation if order else None, kind)
        formation = (order.formation if order and order.formation else
                     "unlimbered" if artillery else ("skirmish" if kind == "screen" else "line"))
        if order is None or order.objective is None:  # its post is where it stands
            return Intent("hold", (unit.x, unit.y), target, formation, kind)
        objective = world.scenario.objectives_by_id[order.objective]
        (ox, oy), x, y = objective.position, unit.x, unit.y
        if hypot(ox - x, oy - y) > objective.radius:  # (distance, read inline)
            return Intent("advance", objective.position, target, "limbered" if artillery else formation, kind)
        return Intent("hold", (unit.x, unit.y), target, formation, kind)

    def advance(self, world: World, unit: UnitState, order: Order, nearest: UnitState | None, gap: float,
                memory: dict[str, int], kind: str, game: Game | None = None) -> Intent:
        """Attack, engage, demonstrate: march on the objective and stop at firing range (engage,
        demonstrate, an attack without assault: the move itself ends there, ``standoff``), or
        charge once within the unit's charge reach (its ruleset's) when it may; one that may
        not closes to its close range and fires, and the log says why it did not charge. A unit
        that halts stands in line, or in the skirmish order its order names."""
        target = nearest.id if nearest else None
        caps = capabilities(game, unit) if game is not None else None
        stop = _firing_distance(order, kind, caps)
        if unit.spec.arm == "artillery":  # into action at its effective range, or farther if the order keeps off
            stand = max(caps.effective_yards if caps is not None else GUN_STAND_YARDS, stop or 0.0)
            if gap <= stand:
                return Intent("hold", (unit.x, unit.y), target, "unlimbered", kind)
            return Intent("advance", _next_goal(world, unit, order, memory), target, "limbered", kind, standoff=stand)
        halted = order.formation if order.formation in DEPLOYED else "line"  # halted, it stays as its order deploys it
        if stop is not None and gap <= stop:
            return Intent("hold", (unit.x, unit.y), target, halted, kind)
        if stop is None and order.together and game is not None and not _released(game, unit.side, order.together):
            stop = _dress_yards(caps)  # a concerted assault not yet released: it dresses short of its reach
            if _dressed(game, unit, order.together, gap - stop):
                return Intent("hold", (unit.x, unit.y), target, halted, kind)
        elif stop is None and nearest is not None:
            reach = caps.charge_yards if caps is not None else ASSAULT_YARDS
            if gap <= reach:
                why = _why_not(world, unit, order, caps)
                if why is None:
                    return Intent("charge", (nearest.x, nearest.y), target, "line", kind)
                if game is not None:
                    _declined(game, unit, nearest, gap, reach, why, caps)
                if gap <= (caps.close_yards if caps is not None else ASSAULT_YARDS):  # may not go in: stand and fire
                    return Intent("hold", (unit.x, unit.y), target, halted, kind)
        formation = order.formation or ("column" if gap > _deploy_yards(unit, caps) else "line")
        return Intent("advance", _next_goal(world, unit, order, memory), target, formation, kind, standoff=stop)


def _dress_yards(caps: Capabilities | None) -> float:
    """Where a unit of a concerted assault not yet released halts: one move outside its charge
    reach, both its ruleset's (fallbacks :data:`MOVE_YARDS`, :data:`ASSAULT_YARDS`)."""
    if caps is None:
        return ASSAULT_YARDS + MOVE_YARDS
    return caps.charge_yards + _move(caps)


def _move(caps: Capabilities | None) -> float:
    """The unit's move this turn under its ruleset (fallback :data:`MOVE_YARDS`)."""
    return MOVE_YARDS if caps is None or caps.move_yards is None else caps.move_yards


def _deploy_yards(unit: UnitState, caps: Capabilities | None) -> float:
    """How near an enemy puts the unit in line: :data:`DEPLOY_YARDS`; for a unit already deployed
    (in line or skirmish order), a move (its ruleset's) farther, so that a unit driven back a few
    yards, or facing an enemy that steps back, does not form column and line again at the
    boundary, paying each change under its rules."""
    return DEPLOY_YARDS + _move(caps) if unit.formation in DEPLOYED else DEPLOY_YARDS


def _dressed(game: Game, unit: UnitState, group: str, over: float) -> bool:
    """Has ``unit`` of the concerted assault ``group`` dressed? It has once it stands within
    :data:`DRESS_ROUNDING_YARDS` of its dressing line (``over``: yards beyond it, measured from its
    nearest fit enemy), and stays dressed while it stands where it dressed (within
    :data:`DRESS_ROUNDING_YARDS`), whatever that enemy, or the one nearest it now, does after.
    The one test of both the hold (:meth:`DefaultDoctrine.advance`) and the release (:func:`_dress`)."""
    lines = game.kept.doctrine.concerts.setdefault((unit.side, group), Concert()).lines
    if over <= DRESS_ROUNDING_YARDS:
        lines[unit.id] = (unit.x, unit.y)
        return True
    line = lines.get(unit.id)
    if line is None:
        return False
    if hypot(line[0] - unit.x, line[1] - unit.y) <= DRESS_ROUNDING_YARDS:  # (distance, read inline)
        return True
    del lines[unit.id]  # moved off its line (driven back, or marched on): it dresses afresh
    return False


def _released(game: Game, side: str, group: str) -> bool:
    concert = game.kept.doctrine.concerts.get((side, group))
    return concert is not None and concert.released


def _dress(game: Game, side: str, mine: list[UnitState], orders: list[Order | None],
           nearests: list[tuple[UnitState | None, float]]) -> None:
    """Release each concerted assault of ``side`` (orders naming one ``together`` group) whose
    units have all dressed: every unit of the group still advancing (fit, not spent, not
    artillery, under an attack that goes in) has dressed (:func:`_dressed`: it reached its dressing
    distance, :func:`_dress_yards`, from its nearest enemy, and stands there), or
    :data:`DRESS_WAIT_MINUTES` have passed since the first did. A released group stays released;
    the release is logged."""
    world: World = game.world
    groups: dict[str, list[tuple[UnitState, bool]]] = {}
    for u, order, (_, gap) in zip(mine, orders, nearests):
        if order is None or not order.together or _released(game, side, order.together):
            continue
        members = groups.setdefault(order.together, [])
        if (not u.fit or u.spec.arm == "artillery" or _kind(world, u, order) != "attack"
                or u.men < u.spec.men * SPENT_SHARE):
            continue  # not advancing: the others do not wait for it
        members.append((u, _dressed(game, u, order.together, gap - _dress_yards(capabilities(game, u)))))
    concerts = game.kept.doctrine.concerts
    for group, members in sorted(groups.items()):
        concert = concerts.setdefault((side, group), Concert())
        dressed = [u for u, ready in members if ready]
        if dressed and concert.dressed_at is None:
            concert.dressed_at = world.minute
        waited = concert.dressed_at is not None and world.minute - concert.dressed_at >= DRESS_WAIT_MINUTES
        if len(dressed) < len(members) and not waited:
            continue
        concert.released = True
        why = (f"all {len(members)} of its units still advancing have dressed" if len(dressed) == len(members) else
               f"{len(dressed)} of its {len(members)} units advancing have dressed and it has waited "
               f"{DRESS_WAIT_MINUTES} minutes")
        game.log.emit("plan", side=side, group=group, text=f"concerted assault {group} goes in: {why}")


def _known(u: UnitState) -> bool:
    """An enemy the commander reckons with: fit (the property's test, without its call) and seen."""
    return u.on_field and u.status in FIT_STATUSES and not u.hidden


def _screened_if(intent: Intent, unit: UnitState, near: bool) -> Intent:
    """Infantry in line ``near`` the enemy (within :data:`SCREEN_YARDS`) wants skirmishers out;
    its ruleset says whether it may. (The screened intent is built from the fields, not by
    ``attrs.evolve``, which looks the class's fields up and copies each by name: about 12,000
    instructions an intent, 1.4 % of a sumter game; tests/test_doctrine_screen.py checks that
    every field is carried over.)"""
    if near and intent.formation == "line" and intent.action in ("advance", "hold") and unit.spec.arm == "infantry":
        return Intent(intent.action, intent.goal, intent.target, intent.formation, intent.order, skirmishers=True,
                      standoff=intent.standoff)
    return intent


def _kind(world: World, unit: UnitState, order: Order | None) -> str:
    """The order's kind as the doctrine reads it: none is hold; an attack whose objective its
    side holds holds it."""
    if order is None:
        return "hold"
    if order.kind == "defend":
        return "hold"
    if order.kind == "attack" and order.objective and world.held.get(order.objective) == unit.side:
        return "hold"
    return order.kind


def _off_post(world: World, unit: UnitState, order: Order | None) -> bool:
    """Is the unit away from the objective its hold order names (so the doctrine marches it
    there, :meth:`DefaultDoctrine.decide`)?"""
    if order is None or order.objective is None:
        return False
    objective = world.scenario.objectives_by_id[order.objective]
    return distance(unit.x, unit.y, *objective.position) > objective.radius


def _deployed(order: Order | None) -> bool:
    """Does the order send its units forward deployed (in line or skirmish order, as it names)?
    Then its command is in contact, as its units are, however far the enemy: the march stance
    (``advance``) is for a command its units march on in column."""
    return order is not None and order.formation in DEPLOYED


def _firing_distance(order: Order, kind: str, caps: Capabilities | None = None) -> float | None:
    """How far from the enemy the unit stops to fire; None: it goes in. An order that names no
    range stops at the unit's effective range under its ruleset (fallback :data:`ENGAGE_YARDS`)."""
    engage = order.range or (caps.effective_yards if caps is not None else ENGAGE_YARDS)
    if kind == "engage":
        return engage
    if kind == "demonstrate":
        return order.range or DEMONSTRATE_YARDS
    return None if order.assault else engage


def _why_not(world: World, unit: UnitState, order: Order, caps: Capabilities | None) -> str | None:
    """Why a unit within its charge reach of a fit enemy does not charge, or None if it does."""
    if unit.status != "good":
        return f"it is not in good order ({unit.status})"
    if caps is not None and not caps.may_charge:
        return caps.why_not or "its rules do not let it charge now"
    if dark(world) and not order.night:
        return "it is dark and its order does not say to attack at night"
    if not _in_reach(world, unit):
        return f"no leader of its chain is within {COMMAND_REACH_YARDS:.0f} yards"
    return None


def _declined(game: Game, unit: UnitState, enemy: UnitState, gap: float, reach: float, why: str,
              caps: Capabilities | None) -> None:
    """Log, once per unit and turn, that a unit that could have charged did not, and why."""
    if not game.log.enabled:
        return
    told = game.kept.doctrine.declined
    if (unit.id, game.turn) in told:
        return
    told.add((unit.id, game.turn))
    game.log.emit("no-charge", unit=unit.id, target=enemy.id, yards=round(gap), reach=round(reach),
                  rulings=list(caps.rulings) if caps is not None else [],
                  text=f"{unit.id} does not charge {enemy.id} ({gap:.0f} yards, within its charge reach of "
                       f"{reach:.0f}): {why}")


def _spent(world: World, unit: UnitState, nearest: UnitState | None, gap: float, kind: str, game: Game | None = None) -> Intent:
    """A spent unit never advances: within the enemy's effective range (its ruleset's; fallback
    :data:`EFFECTIVE_YARDS`) it falls back beyond it, otherwise it holds where it is."""
    target = nearest.id if nearest else None
    formation = "unlimbered" if unit.spec.arm == "artillery" else None
    caps = capabilities(game, nearest) if game is not None and nearest is not None else None
    effective = caps.effective_yards if caps is not None else EFFECTIVE_YARDS
    if nearest is None or gap > effective:
        return Intent("hold", (unit.x, unit.y), target, formation, kind)
    away = math.atan2(unit.x - nearest.x, unit.y - nearest.y)
    back = effective - gap + REACHED_YARDS
    goal = world.scenario.on_table(unit.x + back * math.sin(away), unit.y + back * math.cos(away))
    return Intent("withdraw", goal, target, _march(unit), kind)


def _withdraw(world: World, unit: UnitState, order: Order | None, nearest: UnitState | None, kind: str) -> Intent:
    target = nearest.id if nearest else None
    to = order.to if order else None
    if to is None:
        return Intent("withdraw", _rearward(world, unit), target, _march(unit), kind)
    if distance(unit.x, unit.y, *to) <= REACHED_YARDS:
        return Intent("hold", (unit.x, unit.y), target, "unlimbered" if unit.spec.arm == "artillery" else "line", kind)
    return Intent("withdraw", to, target, _march(unit), kind)


def _in_reach(world: World, unit: UnitState) -> bool:
    """Is a leader of the unit's chain with it or within reach? A leader attached to a unit is
    where it is; any other rides with his command, at the centre of its units on the field. A
    chain with no leader in the scenario is not judged (nobody is modelled to be out of reach of)."""
    chain = {c.id for c in world.scenario.command_chain(unit.spec.command)}
    leaders = [ld for ld in world.leaders.values() if ld.spec.command in chain]
    if not leaders:
        return True
    for ld in leaders:
        if ld.status != "active":
            continue
        if ld.attached_to == unit.spec.id:
            return True
        place = _leader_place(world, ld)
        if place is not None and hypot(place[0] - unit.x, place[1] - unit.y) <= COMMAND_REACH_YARDS:
            return True
    return False


def _leader_place(world: World, leader: LeaderState) -> Point | None:
    if leader.attached_to in world.units:
        attached = world.units[leader.attached_to]
        return (attached.x, attached.y)
    xs, ys = [], []
    units = world.units
    for uid in Layout.of(world.scenario).scopes.get(leader.spec.command, ()):  # the units under his command
        u = units[uid]
        if u.fit:
            xs.append(u.x)
            ys.append(u.y)
    return (sum(xs) / len(xs), sum(ys) / len(ys)) if xs else None


def _note_repulse(game: Game, unit: UnitState, order: Order | None, counted: set[tuple[str, str]]) -> None:
    """An attacker broken, or spent, within its effective range (its ruleset's; fallback
    :data:`EFFECTIVE_YARDS`) of its objective has been repulsed there (once per unit and order);
    a ruleset's failed charges are counted by the game."""
    if order is None or order.kind != "attack" or not order.objective or (unit.id, order.id) in counted:
        return
    if unit.status not in ("broken", "routed") and unit.men >= unit.spec.men * SPENT_SHARE:
        return
    world: World = game.world
    objective = world.scenario.objective(order.objective)
    caps = capabilities(game, unit)
    effective = caps.effective_yards if caps is not None else EFFECTIVE_YARDS
    if distance(unit.x, unit.y, *objective.position) <= objective.radius + effective:
        counted.add((unit.id, order.id))
        key = (unit.side, objective.id)
        world.repulses[key] = world.repulses.get(key, 0) + 1


def _objective_point(world: World, order: Order | None) -> Point | None:
    if order is None or order.objective is None:
        return None
    return world.scenario.objective(order.objective).position


def _next_goal(world: World, unit: UnitState, order: Order, memory: dict[str, int]) -> Point:
    route = order.route
    key = f"{unit.id}:{order.id}"
    i = memory.get(key, 0)
    while i < len(route) and distance(unit.x, unit.y, *route[i]) <= REACHED_YARDS:
        i += 1
    memory[key] = i
    if i < len(route):
        return route[i]
    return _objective_point(world, order) or (unit.x, unit.y)


def _rearward(world: World, unit: UnitState) -> Point:
    facing = world.scenario.home_edges.get(unit.side, 180.0)
    rad = math.radians(facing)
    return (unit.x + RETREAT_YARDS * math.sin(rad), unit.y + RETREAT_YARDS * math.cos(rad))


def _march(unit: UnitState) -> str:
    return "limbered" if unit.spec.arm == "artillery" else "column"
