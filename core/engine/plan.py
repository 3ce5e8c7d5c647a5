"""The plans as a game goes: which order each command is under, and when a side breaks off.

A command's orders form a sequence; the order in force is the latest that has begun. Triggers
are read from the neutral world only, whenever the doctrine decides and after every turn, so
every ruleset's game follows its plan the same way. A trigger fires once and stays fired; each
order that begins, and each break-off, is logged as a ``plan`` event with the trigger that
fired it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from attrs import Factory, define, field, frozen

from .events import clock
from .world import Order, Scenario, SidePlan, Trigger, UnitState, World

if TYPE_CHECKING:
    from .game import Game

DUSK_AFTER_SUNSET = 30  # minutes of civil twilight where the scenario gives no dusk
ATTACKS = ("attack", "engage")  # orders that are not begun after dark unless they say so
OUT_OF_REACH_YARDS = 600.0  # a withdrawing unit this far from every fit enemy has got away: out of contact (doctrine.DEPLOY_YARDS)
EDGE_YARDS = 60.0  # a withdrawing unit this close to an edge that is its line of retreat has got away


def last_light(sunset: int | None, dusk: int | None) -> int | None:
    """The minute the last light is gone: ``dusk`` as given, else sunset plus civil twilight;
    None without either."""
    if dusk is not None:
        return dusk
    return None if sunset is None else sunset + DUSK_AFTER_SUNSET


def dusk(scenario: Scenario) -> int | None:
    return last_light(scenario.light.sunset, scenario.light.dusk)


def dark(world: World) -> bool:
    last_light = dusk(world.scenario)
    return last_light is not None and world.minute >= last_light


@frozen
class Layout:
    """What a scenario's plans need, worked out once: each command's sequence, the command whose
    orders each unit follows, and the units under each unit, command and side id."""

    sequences: Mapping[str, tuple[Order, ...]]
    command_of_unit: Mapping[str, str]  # unit -> the nearest command in its chain with orders
    scopes: Mapping[str, tuple[str, ...]]  # unit, command or side id -> unit ids
    side_of: Mapping[str, str]  # command id -> side
    waits: Mapping[str, int]  # order id -> the minute before which it cannot begin (every trigger a time)
    wakes: Mapping[str, tuple[int, ...]]  # command -> for each order in force (index + 1; 0: none yet), the minute before which no later order can begin
    withdrawing: frozenset[str] = frozenset()  # sides with an order to withdraw to the rear (no place named)
    own: frozenset[str] = frozenset()  # units with orders of their own (Order.unit), kept under their own id in sequences

    @classmethod
    def of(cls, scenario: Scenario) -> Layout:
        """The scenario's layout, worked out on first use and kept with it (``scenario.kept``)."""
        kept = scenario.kept
        if kept.layout is None:
            sequences: dict[str, list[Order]] = {}
            for order in scenario.orders:
                sequences.setdefault(order.command, []).append(order)
            own = frozenset(o.command for o in scenario.orders if o.unit)
            command_of_unit = {}
            for unit in scenario.units:
                chain = (c.id for c in scenario.command_chain(unit.command))
                ordered = next((cid for cid in chain if cid in sequences), None)
                if ordered is not None:
                    command_of_unit[unit.id] = ordered
            under: dict[str, list[str]] = {c.id: [] for c in scenario.commands}
            for unit in scenario.units:  # each unit under its command and every command above it
                for cid in dict.fromkeys(c.id for c in scenario.command_chain(unit.command)):
                    under[cid].append(unit.id)
            scopes: dict[str, tuple[str, ...]] = {u.id: (u.id,) for u in scenario.units}
            scopes.update((cid, tuple(ids)) for cid, ids in under.items())
            for side in scenario.sides:
                scopes[side] = tuple(u.id for u in scenario.units if u.side == side)
            waits = {}
            for order in scenario.orders:
                minutes = [t.minute for t in order.when if t.kind == "time" and t.minute is not None]
                if order.when and len(minutes) == len(order.when):
                    waits[order.id] = min(minutes)
            wakes = {c: tuple(min((waits.get(o.id, 0) for o in orders[i:]), default=0) for i in range(len(orders)))
                     for c, orders in sequences.items()}  # (0: any minute, as the clock starts after midnight)
            side_of = {c.id: c.side for c in scenario.commands} | {u.id: u.side for u in scenario.units if u.id in own}
            withdrawing = frozenset(side_of[o.command] for o in scenario.orders
                                    if o.kind == "withdraw" and o.to is None and o.command in side_of)
            kept.layout = cls({c: tuple(o) for c, o in sequences.items()}, command_of_unit, scopes,
                              side_of, waits, wakes, withdrawing, own)
        return kept.layout


@define(eq=False)
class Plan:
    """One game's plans: the order in force per command, the orders begun and ended."""

    layout: Layout
    current: dict[str, int] = field(factory=dict)  # command -> index of the order in force
    begun: dict[str, int] = field(factory=dict)  # order id -> minute it began
    ended: dict[str, int] = field(factory=dict)  # order id -> minute it ended
    withheld: set[str] = field(factory=set)  # attacks whose trigger fired after dark (never begun)
    pending: list[str] = field(  # commands with an order after the one in force, in the layout's order
        default=Factory(lambda self: list(self.layout.sequences), takes_self=True))
    scoped: dict[str, tuple[UnitState, ...]] = field(factory=dict, repr=False)  # scope -> its units in ``world``, found once
    world: World | None = field(default=None, repr=False)  # the world ``scoped`` was found in

    @classmethod
    def start(cls, scenario: Scenario) -> Plan:
        return cls(Layout.of(scenario))

    def order_of(self, unit_id: str) -> Order | None:
        """The order the unit follows now (its own, once one has begun; else its nearest command
        with orders's), if one has begun."""
        if unit_id in self.layout.own and unit_id in self.current:
            return self.layout.sequences[unit_id][self.current[unit_id]]
        command = self.layout.command_of_unit.get(unit_id)
        if command is None:
            return None
        i = self.current.get(command)
        return None if i is None else self.layout.sequences[command][i]

    def orders_of(self, units: Iterable[UnitState]) -> list[Order | None]:
        """:meth:`order_of` of each unit, in one call."""
        command_of_unit, current, sequences, own = self.layout.command_of_unit, self.current, self.layout.sequences, self.layout.own
        out: list[Order | None] = []
        for u in units:
            command = u.id if own and u.id in own and u.id in current else command_of_unit.get(u.id)
            i = None if command is None else current.get(command)
            out.append(None if i is None else sequences[command][i])  # type: ignore[index]  # i is not None only when command is
        return out

    def update(self, game: Game) -> bool:
        """Begin every order whose trigger has fired, and break off every side whose break-off
        condition has; log each with its reason. Did anything begin or break off?"""
        world: World = game.world
        if world is not self.world:  # a plan follows one game's world: its units are found once
            self.world, self.scoped = world, {}
        changed = False
        while self._begin_due(game):  # again while orders begin: another order may wait on them
            changed = True
        for side, side_plan in sorted(world.scenario.plans.items()):
            if side_plan.break_off and side not in world.broken_off:
                why = self._fired(world, side_plan.break_off, side)
                if why:
                    self._break_off(game, side, why)
                    changed = True
        for side in self.layout.withdrawing:
            if side not in world.broken_off and self._withdrawn(world, side):
                self._break_off(game, side, "every unit has withdrawn")
                changed = True
        return changed

    def _withdrawn(self, world: World, side: str) -> bool:
        """Is every unit of ``side`` on the field under an order to withdraw to the rear, and has
        each got away (:func:`got_away`), with none still to come onto the field?"""
        units = [u for u in world.by_side[side] if u.status != "gone"]
        if not units or any(not u.on_field and u.spec.entry is not None and u.spec.entry > world.minute for u in units):
            return False
        on_field = [u for u in units if u.on_field]
        return bool(on_field) and all(o is not None and o.kind == "withdraw" and o.to is None
                                      for o in self.orders_of(on_field)) and got_away(world, side, on_field)

    def _begin_due(self, game: Game) -> bool:
        """Begin, for each command, the latest order whose trigger has fired; did any begin?"""
        world: World = game.world
        begun = False
        waits, wakes, minute, sequences = self.layout.waits, self.layout.wakes, world.minute, self.layout.sequences
        for command in self.pending:
            now = self.current.get(command, -1)
            if minute < wakes[command][now + 1] or world.broken_off.get(self.layout.side_of[command]):
                continue  # every later order waits for its time, or the side has broken off
            orders = sequences[command]
            for j in range(len(orders) - 1, now, -1):
                order = orders[j]
                if order.id in self.withheld or minute < waits.get(order.id, minute):  # its time has not come
                    continue
                why = "the start" if not order.when and j == 0 else self._fired(world, order.when, command)
                if why:
                    begun |= self._begin(game, command, j, why)
                    break
        if begun:
            self.pending = [c for c in self.pending if self.current.get(c, -1) < len(sequences[c]) - 1]
        return begun

    def _begin(self, game: Game, command: str, j: int, why: str) -> bool:
        world: World = game.world
        order = self.layout.sequences[command][j]
        if order.kind in ATTACKS and not order.night and dark(world):
            self.withheld.add(order.id)
            _log(game, command, order, f"{command}: {order.kind} {order.id} not begun after dark ({why})")
            return False
        previous = self.current.get(command)
        if previous is not None:
            self.ended[self.layout.sequences[command][previous].id] = world.minute
        self.current[command] = j
        self.begun[order.id] = world.minute
        aim = f" on {order.objective}" if order.objective else ""
        _log(game, command, order, f"{command}: {order.kind}{aim} ({order.id}) begins: {why}")
        return True

    def _break_off(self, game: Game, side: str, why: str) -> None:
        world: World = game.world
        world.broken_off[side] = why
        for command, i in sorted(self.current.items()):
            if self.layout.side_of[command] == side:
                self.ended.setdefault(self.layout.sequences[command][i].id, world.minute)
        game.log.emit("plan", side=side, text=f"{side} breaks off: {why}")

    def rear_guard(self, scenario: Scenario, side: str) -> frozenset[str]:
        side_plan = scenario.plans.get(side)
        ids = side_plan.rear_guard if side_plan else ()
        return frozenset(u for i in ids for u in self.layout.scopes.get(i, ()))

    # ------------------------------------------------------------------------- triggers

    def _fired(self, world: World, triggers: Sequence[Trigger], owner: str) -> str:
        """Why the first of ``triggers`` that holds now fires ('' if none does). ``owner`` is the
        command whose order it is, or the side for a break-off."""
        side = self.layout.side_of.get(owner, owner)
        for trigger in triggers:
            why = self._holds(world, trigger, owner, side)
            if why:
                return why
        return ""

    def _holds(self, world: World, t: Trigger, owner: str, side: str) -> str:
        """Why ``t`` fires now ('' if it does not): its kind's test (:data:`TESTS`)."""
        return TESTS[t.kind](self, world, t, t.of or owner, side)

    def _scope(self, world: World, scope: str) -> tuple[UnitState, ...]:
        """The units of a unit, command or side id in ``world`` (kept in :attr:`scoped`)."""
        units = self.scoped.get(scope)
        if units is None:
            units = self.scoped[scope] = tuple(world.units[u] for u in self.layout.scopes.get(scope, ()))
        return units


def _time(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    return f"{clock(t.minute)} has come" if t.minute is not None and world.minute >= t.minute else ""


def _darkness(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    return "darkness" if dark(world) else ""


def _enemy_broke_off(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    return f"the {world.enemy(side)} side has broken off" if world.enemy(side) in world.broken_off else ""


def _passed(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    wanted = side if t.kind == "taken" else world.enemy(side)
    passed = any(o == t.objective and s == wanted for _, o, s in world.passed)
    return f"{t.objective} {t.kind}" if passed else ""


def _begun(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    return f"{t.order} has begun" if t.order in plan.begun else ""


def _ended(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    return f"{t.order} has ended" if t.order in plan.ended else ""


def _repulsed(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    count = world.repulses.get((side, t.objective), 0)  # type: ignore[arg-type]  # a repulsed trigger has an objective (plans_format checks)
    return f"{count} assaults on {t.objective} repulsed" if count >= t.times else ""


def _losses(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    share = lost_share(plan._scope(world, scope))
    return f"{scope} has lost {share:.0%}" if share >= t.share else ""  # type: ignore[operator]  # a losses trigger has a share (plans_format checks)


def _broken(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    units = plan._scope(world, scope)
    return f"{scope} is broken" if broken(units, len(units) == 1 and scope in world.units) else ""


def _low_ammo(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    share = low_ammo_share(plan._scope(world, scope))
    return f"{scope} is low on ammunition ({share:.0%} of its men)" if share >= t.share else ""  # type: ignore[operator]  # a low_ammo trigger has a share (plans_format checks)


def _enemy_within(plan: Plan, world: World, t: Trigger, scope: str, side: str) -> str:
    units = plan._scope(world, scope)
    enemies = plan._scope(world, world.enemy(units[0].side)) if units else ()
    return f"an enemy within {t.yards:.0f} yards of {scope}" if enemy_within(world, units, t.yards, enemies) else ""  # type: ignore[arg-type]  # an enemy_within trigger has yards (plans_format checks)


TESTS: dict[str, Callable[[Plan, World, Trigger, str, str], str]] = {
    "time": _time, "darkness": _darkness, "enemy_broke_off": _enemy_broke_off, "taken": _passed, "lost": _passed,
    "begun": _begun, "ended": _ended, "repulsed": _repulsed, "losses": _losses, "broken": _broken,
    "low_ammo": _low_ammo, "enemy_within": _enemy_within,
}
"""Each trigger's test by its kind: why it fires now ('' if it does not), given the plan, the
world, the trigger, the units it names (its ``of``, else the order's command or the side) and the
side whose plan it is."""


def _log(game: Game, command: str, order: Order, text: str) -> None:
    game.log.emit("plan", command=command, order=order.id, text=text,
                  **({"source": order.source} if order.source else {}))


def lost_share(units: Iterable[UnitState]) -> float:
    start = lost = 0
    for u in units:
        start += u.spec.men
        lost += u.spec.men - u.men
    return lost / start if start else 0.0


def broken(units: Sequence[UnitState], single: bool) -> bool:
    """A unit is broken when broken, routed or gone; a command when half its starting men are
    lost or stand in broken, routed or gone units."""
    if single:
        return units[0].status in ("broken", "routed", "gone")
    start = out = 0
    for u in units:
        start += u.spec.men
        out += u.spec.men - (u.men if u.status in ("good", "disordered") else 0)
    return start > 0 and 2 * out >= start


def low_ammo_share(units: Iterable[UnitState]) -> float:
    men = low = 0
    for u in units:
        if u.fit:
            men += u.men
            low += u.men if u.low_ammo else 0
    return low / men if men else 0.0


def enemy_within(world: World, units: Sequence[UnitState], yards: float, enemies: Iterable[UnitState] | None = None) -> bool:
    """Does a fit enemy, not hidden, stand within ``yards`` of one of ``units`` on the field?
    (``enemies``: the units to look among, if not every unit of the world.)"""
    mine = [(u.x, u.y) for u in units if u.on_field]
    if not mine:
        return False
    side, reach = units[0].side, yards * yards
    for x, y in mine:  # the box a yard wider than the reach first: a unit outside it is not within reach
        west, east, south, north = x - yards - 1.0, x + yards + 1.0, y - yards - 1.0, y + yards + 1.0
        for e in world.units.values() if enemies is None else enemies:
            if (west <= e.x <= east and south <= e.y <= north and e.side != side and not e.hidden
                    and (e.x - x) ** 2 + (e.y - y) ** 2 <= reach and e.fit):  # fit asked last: it is a call
                return True
    return False


def got_away(world: World, side: str, units: Iterable[UnitState] | None = None) -> bool:
    """Has the withdrawal of a side that broke off ended? Every unit of it (or of ``units``) on
    the field and not gone, but for its rear guard, has got away: it is
    :data:`OUT_OF_REACH_YARDS` from every fit enemy on the field, or stands at an edge of the
    map that is a line of retreat for its side (within :data:`EDGE_YARDS`)."""
    plan = world.scenario.plans.get(side)
    scopes = Layout.of(world.scenario).scopes if plan and plan.rear_guard else {}
    guard = {u for i in (plan.rear_guard if plan else ()) for u in scopes.get(i, ())}
    enemies = [(e.x, e.y) for e in world.by_side[world.enemy(side)] if e.fit]
    reach = OUT_OF_REACH_YARDS * OUT_OF_REACH_YARDS
    for u in world.by_side[side] if units is None else units:
        if not u.on_field or u.status == "gone" or u.id in guard or _at_retreat_edge(world.scenario, u):
            continue
        if any((u.x - x) ** 2 + (u.y - y) ** 2 < reach for x, y in enemies):
            return False
    return True


def _at_retreat_edge(scenario: Scenario, u: UnitState) -> bool:
    near = {"west": u.x, "east": scenario.width - u.x, "south": u.y, "north": scenario.height - u.y}
    return any(gap <= EDGE_YARDS and u.side in scenario.retreat_edges.get(edge, scenario.sides)
               for edge, gap in near.items())


def side_plan(scenario: Scenario, side: str) -> SidePlan:
    return scenario.plans.get(side) or SidePlan(side)
