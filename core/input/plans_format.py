"""Read and check a scenario's plans: each command's sequence of ``[[orders]]`` with the triggers
that begin them, each side's ``[plan.<side>]`` (when it is beaten, when it breaks off) and the
lines of retreat in ``[edges]``.

:mod:`referee.core.input.scenario` calls this for those tables and collects the problems with the rest
of the file. The older form of a reserve's release (``from``, ``when_enemy_within``) is read as
two orders: the reserve, then its release. The checks are the sure ones: every name a trigger
uses exists, times fall within the game, and a trigger that can never fire (a time at or after
the end, darkness that never comes, an order that can never begin, a command with no units) is
an error, as are orders that wait on each other in a cycle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from attrs import evolve, frozen

from ..engine import world
from ..engine.events import clock
from ..engine.plan import ATTACKS
from ..engine.reading import (
    Bad,
    Reader,
    Table,
    any_text,
    choice,
    clock_time,
    flag,
    ident,
    list_of,
    number,
    point,
    points,
    show,
    whole,
)
from ..engine.world import Command, Objective, Order, SidePlan, Trigger, UnitSpec

ORDER_KEYS = ("command", "unit", "kind", "id", "when", "objective", "route", "formation", "assault", "range", "to",
              "night", "source", "from", "when_enemy_within", "together")
PLAN_KEYS = ("beaten_at", "count_broken", "break_off", "rear_guard", "source")
TRIGGER_KEYS = (*world.TRIGGERS, "of", "times")
RELEASED = "-released"  # the id of an older-form reserve's release: the reserve's id and this

TAKES_OF = ("losses", "enemy_within", "low_ammo")
USED_BY = {  # an order key that only some kinds use -> those kinds
    "assault": ("attack",),
    "range": ("engage", "demonstrate", "attack"),
    "to": ("withdraw",),
    "night": ("attack", "engage"),
    "together": ("attack",),
    "formation": ("attack", "engage", "demonstrate", "hold", "defend", "screen", "reserve"),
}

_ORDER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@frozen
class Where:
    """Where a trigger was written: an inline table, or (the older form) the one key it came from."""

    path: str
    table: bool = True

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.table else self.path


@frozen
class PlacedOrder:
    """An order as read, with the table it came from and where each of its triggers is."""

    path: str
    order: Order
    where: tuple[Where, ...] = ()  # one per trigger of order.when
    has_when: bool = False  # the table has a 'when' (even one that was wrong)


@frozen
class PlacedPlan:
    """A side's plan as read, with its table and where each break-off trigger is."""

    path: str
    plan: SidePlan
    where: tuple[Where, ...] = ()  # one per trigger of plan.break_off


@frozen
class Setting:
    """What plans are checked against: the rest of the scenario as read (None where it was wrong)."""

    start: int | None
    end: int | None
    dusk: int | None  # the last light (given, or sunset + DUSK_AFTER_SUNSET); None without either
    units: Mapping[str, UnitSpec]
    commands: Mapping[str, Command]
    objectives: Mapping[str, Objective]


# ----------------------------------------------------------------------------- reading


def read_orders(root: Table) -> list[PlacedOrder]:
    """Every ``[[orders]]`` table in file order, ids given (``<command>.<n>`` by default) and the
    older form of a reserve expanded."""
    placed: list[PlacedOrder] = []
    counts: dict[str, int] = {}
    for t in root.array("orders", ORDER_KEYS):
        if t is None:
            continue
        order, where = _order(t)
        if order.command is not None:
            counts[order.command] = n = counts.get(order.command, 0) + 1
            order = order if order.id else evolve(order, id=f"{order.command}.{n}")
        placed.extend(_expanded(t.path, order, where, "when" in t.raw))
    return placed


def _order(t: Table) -> tuple[Order, tuple[Where, ...]]:
    when, where = _triggers(t.reader, t.raw["when"], t.at("when")) if "when" in t.raw else ((), ())
    to_unit = "unit" in t.raw and "command" not in t.raw
    if "unit" in t.raw and "command" in t.raw:
        t.reader.add(t.at("unit"), "an order is to a command or to one unit: give 'command' or 'unit', not both")
    order = Order(
        command=(t.get("unit", ident, "a unit id") if to_unit else
                 t.get("command", ident, "a command id (or 'unit': a unit id, for an order to one unit)")),
        unit=to_unit,
        kind=t.get("kind", choice(world.ORDERS, "order"), "an order"),
        objective=t.get("objective", ident, "an objective id", None),
        route=t.get("route", points(1), "waypoints [[x, y], ...]", ()),
        from_minute=t.get("from", clock_time, 'a time "HH:MM"', None),
        when_enemy_within=t.get("when_enemy_within", number(above=0), "yards", None),
        id=t.get("id", _order_ref, "an order id", ""),
        when=when,
        formation=t.get("formation", choice(world.FORMATIONS, "formation"), "a formation", None),
        assault=t.get("assault", flag, "true or false", True),
        range=t.get("range", number(above=0), "yards from the enemy (> 0)", None),
        to=t.get("to", point, "a point [x, y] in yards", None),
        night=t.get("night", flag, "true or false", False),
        source=t.get("source", any_text, "a citation", ""),
        together=t.get("together", ident, "the name of a concerted assault (an id, e.g. \"grand-charge\")", ""),
    )
    _check_kind(t, order)
    return order, where


def _check_kind(t: Table, order: Order) -> None:
    """Keys that the order's kind needs, or does not use."""
    add, kind = t.reader.add, order.kind
    if kind is None:
        return
    if kind == "attack" and "objective" not in t.raw:
        add(t.at("objective"), "missing key 'objective': an attack needs an objective id")
    for key, kinds in USED_BY.items():
        if key in t.raw and kind not in kinds:
            add(t.at(key), f"{key!r} is for {_either(kinds)} orders, not {kind}")
    if kind == "attack" and "range" in t.raw and order.assault is not False:
        add(t.at("range"), "'range' on an attack is where it stops to fire, so it needs assault = false "
                           "(an attack with the bayonet goes in)")
    if kind == "attack" and "together" in t.raw and order.assault is False:
        add(t.at("together"), "'together' names a concerted assault, whose units go in with the bayonet together, "
                              "so it needs an attack with assault = true (the default)")
    if kind == "reserve" and "when" in t.raw and ("from" in t.raw or "when_enemy_within" in t.raw):
        add(t.at("when"), "a reserve with 'from' or 'when_enemy_within' (the older form of its release) "
                          "cannot also have 'when'; write the release as the next order of the command instead")
    if kind == "reserve" and "objective" in t.raw and "from" not in t.raw and "when_enemy_within" not in t.raw:
        add(t.at("objective"), "a reserve waits where it stands: its 'objective' is where the older form's "
                               "release goes, so it needs 'from' or 'when_enemy_within'; give the objective "
                               "to the order that releases it, or use a hold order to wait at the objective")


def _either(kinds: Sequence[str]) -> str:
    return kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"


def _expanded(path: str, order: Order, where: tuple[Where, ...], has_when: bool) -> list[PlacedOrder]:
    """The older form of a reserve as two orders: the reserve, then its release at ``from`` or
    when an enemy comes within ``when_enemy_within`` (an attack on its objective, or a hold
    without one). The release keeps the objective, route and source; its formation is the
    doctrine's to choose."""
    if order.kind != "reserve" or (order.from_minute is None and order.when_enemy_within is None):
        return [PlacedOrder(path, order, where, has_when)]
    when: list[Trigger] = []
    release_where: list[Where] = []
    if order.from_minute is not None:
        when.append(Trigger("time", minute=order.from_minute))
        release_where.append(Where(f"{path}.from", table=False))
    if order.when_enemy_within is not None:
        when.append(Trigger("enemy_within", yards=order.when_enemy_within))
        release_where.append(Where(f"{path}.when_enemy_within", table=False))
    reserve = evolve(order, from_minute=None, when_enemy_within=None)
    release = evolve(reserve, kind="attack" if order.objective else "hold", id=f"{order.id}{RELEASED}",
                     when=tuple(when), formation=None, night=True)  # the older form knew no darkness: same meaning
    return [PlacedOrder(path, reserve, where, has_when), PlacedOrder(path, release, tuple(release_where), True)]


def _triggers(reader: Reader, raw: Any, path: str) -> tuple[tuple[Trigger, ...], tuple[Where, ...]]:
    """A trigger table, or a non-empty array of them (any one fires)."""
    if isinstance(raw, dict):
        items = [(raw, path)]
    elif isinstance(raw, list) and raw:
        items = [(item, f"{path}[{i}]") for i, item in enumerate(raw)]
    else:
        reader.add(path, f'expected a trigger such as {{ time = "11:00" }} or a non-empty array of them, got {show(raw)}')
        return (), ()
    triggers, where = [], []
    for item, at in items:
        trigger = _trigger(reader, item, at)
        if trigger is not None:
            triggers.append(trigger)
            where.append(Where(at))
    return tuple(triggers), tuple(where)


def _trigger(reader: Reader, raw: Any, path: str) -> Trigger | None:
    t = reader.table(raw, path, TRIGGER_KEYS)
    if t is None:
        return None
    kinds = [k for k in world.TRIGGERS if k in t.raw]
    if len(kinds) > 1:
        reader.add(path, f"a trigger has exactly one of {', '.join(world.TRIGGERS)}; this one has "
                         f"{' and '.join(kinds)} (for either, give an array: [{{ {kinds[0]} = ... }}, "
                         f"{{ {kinds[1]} = ... }}])")
        return None
    if not kinds:
        if all(k in TRIGGER_KEYS for k in t.raw):  # an unknown key is reported with its did-you-mean
            reader.add(path, f"a trigger needs one of {', '.join(world.TRIGGERS)}")
        return None
    kind = kinds[0]
    for companion, kinds_taking in (("of", TAKES_OF), ("times", ("repulsed",))):
        if companion in t.raw and kind not in kinds_taking:
            reader.add(t.at(companion), f"{companion!r} goes with {_either(kinds_taking)}, not {kind}")
    convert, expect, field = _VALUES[kind]
    value = t.get(kind, convert, expect)
    extra: dict[str, Any] = {}
    if kind in TAKES_OF:
        extra["of"] = t.get("of", ident, "a unit or command id", None)
    if kind == "repulsed":
        extra["times"] = t.get("times", whole(1), "a whole number >= 1", 1)
    if value is None:
        return None
    return Trigger(kind, **({field: value} if field else {}), **extra)


def _order_ref(value: Any) -> str:
    """An order id: as other ids, and it may have dots (the ids given by default do: ``us.2``)."""
    if not isinstance(value, str) or not _ORDER_ID.fullmatch(value):
        raise Bad(f"expected an order id (letters, digits, '-', '_' or '.', e.g. \"us-brigade.2\"), got {show(value)}")
    return value


def _true(value: Any) -> bool:
    if value is not True:
        raise Bad(f"expected darkness = true (it fires when the last light is gone), got {show(value)}")
    return True


def _enemy_broke_off(value: Any) -> bool:
    if value is not True:
        raise Bad(f"expected enemy_broke_off = true (it fires when the enemy side breaks off), got {show(value)}")
    return True


_SHARE = number(above=0, at_most=1)
_VALUES = {  # trigger kind -> (converter, what it expects, the Trigger field it fills)
    "time": (clock_time, 'a time "HH:MM"', "minute"),
    "taken": (ident, "an objective id", "objective"),
    "lost": (ident, "an objective id", "objective"),
    "losses": (_SHARE, "a share of men, > 0 and <= 1", "share"),
    "broken": (ident, "a unit or command id", "of"),
    "enemy_within": (number(above=0), "yards (> 0)", "yards"),
    "begun": (_order_ref, "an order id", "order"),
    "ended": (_order_ref, "an order id", "order"),
    "repulsed": (ident, "an objective id", "objective"),
    "darkness": (_true, "true", None),
    "low_ammo": (_SHARE, "a share of men, > 0 and <= 1", "share"),
    "enemy_broke_off": (_enemy_broke_off, "true", None),
}


def read_plans(root: Table) -> list[PlacedPlan]:
    """Each side's ``[plan.<side>]``."""
    plans = root.section("plan", world.SIDE_NAMES, required=False)
    if plans is None:
        return []
    placed = []
    for side in world.SIDE_NAMES:
        t = plans.section(side, PLAN_KEYS, required=False)
        if t is None:
            continue
        break_off, where = _triggers(t.reader, t.raw["break_off"], t.at("break_off")) if "break_off" in t.raw else ((), ())
        plan = SidePlan(
            side=side,
            beaten_at=t.get("beaten_at", _SHARE, "a share of men, > 0 and <= 1", None),
            count_broken=t.get("count_broken", flag, "true or false", True),
            break_off=break_off,
            rear_guard=t.get("rear_guard", list_of(ident, "unit or command ids"), "unit or command ids", ()),
            source=t.get("source", any_text, "a citation", ""),
        )
        placed.append(PlacedPlan(t.path, plan, where))
    return placed


def read_edges(root: Table) -> dict[str, tuple[str, ...]]:
    """``[edges]``: the sides that may retreat over each edge listed."""
    t = root.section("edges", world.EDGES, required=False)
    if t is None:
        return {}
    sides = list_of(choice(world.SIDE_NAMES, "side"), "sides")
    return {edge: t.get(edge, sides, "an array of sides") for edge in world.EDGES if edge in t.raw}


# ----------------------------------------------------------------------------- checking


def check(r: Reader, s: Setting, orders: list[PlacedOrder], plans: list[PlacedPlan]) -> None:
    """Everything about plans that needs more than one table. (The sides that ``[plan.<side>]``
    and ``[edges]`` name need none: a scenario's two sides are always both of SIDE_NAMES.)"""
    by_id = _order_ids(r, orders)
    sequences: dict[str, list[PlacedOrder]] = {}
    for p in orders:
        if p.order.command is not None:
            sequences.setdefault(p.order.command, []).append(p)
    _check_sequences(r, sequences)
    _check_together(r, s, orders)
    for p in orders:
        for t, where in zip(p.order.when, p.where):
            _check_trigger(r, s, t, where, by_id)
    for pp in plans:
        for t, where in zip(pp.plan.break_off, pp.where):
            _check_trigger(r, s, t, where, by_id)
        _check_rear_guard(r, s, pp)
    _Reach(r, s, orders, sequences, plans, by_id).report()


def _order_ids(r: Reader, orders: list[PlacedOrder]) -> dict[str, PlacedOrder]:
    """Orders by id; a repeated id is a problem."""
    by_id: dict[str, PlacedOrder] = {}
    for p in orders:
        oid = p.order.id
        if not oid:
            continue
        if oid in by_id:
            r.add(f"{p.path}.id", f"duplicate order id {oid!r} (first at {by_id[oid].path}); order ids are unique")
        else:
            by_id[oid] = p
    return by_id


def _check_sequences(r: Reader, sequences: Mapping[str, list[PlacedOrder]]) -> None:
    """Only a command's first order may go without a trigger (it is in force from the start)."""
    for command, placed in sequences.items():
        for n, p in enumerate(placed[1:], start=2):
            if not p.has_when:
                owner = "unit" if p.order.unit else "command"
                r.add(f"{p.path}.when", f"missing key 'when': order {p.order.id!r} is order {n} of {owner} "
                                        f"{command!r} (after {placed[0].order.id!r}) and needs a trigger; only a "
                                        f"{owner}'s first order is in force from the start")


def _check_together(r: Reader, s: Setting, orders: list[PlacedOrder]) -> None:
    """A concerted assault (``together``) is named by two orders or more, all of one side: a
    group of one order has nobody to wait for (a misspelt name, most often)."""
    groups: dict[str, list[PlacedOrder]] = {}
    for p in orders:
        if p.order.together and p.order.kind == "attack":
            groups.setdefault(p.order.together, []).append(p)
    for name, placed in groups.items():
        if len(placed) == 1:
            p = placed[0]
            names = sorted(groups.keys() - {name})
            others = f"; the groups named are {', '.join(repr(n) for n in names)}" if names else ""
            r.add(f"{p.path}.together", f"concerted assault {name!r} is named by this order only: a group needs the "
                                        f"attack orders of two commands or units or more, which go in together{others}")
            continue
        sides = {_side_of(s, p.order) for p in placed} - {None}
        if len(sides) > 1:
            p = placed[-1]
            r.add(f"{p.path}.together", f"concerted assault {name!r} is named by orders of both sides; a group is of "
                                        f"one side (name another group for the {_side_of(s, p.order)} side)")


def _side_of(s: Setting, order: Order) -> str | None:
    owner = s.units.get(order.command) if order.unit else s.commands.get(order.command)
    return owner.side if owner is not None else None


def _check_trigger(r: Reader, s: Setting, t: Trigger, where: Where, by_id: Mapping[str, PlacedOrder]) -> None:
    """The names a trigger uses exist, and its time falls within the game."""
    scopes = {**s.units, **s.commands}
    if t.kind in ("taken", "lost", "repulsed"):
        r.known(where.at(t.kind), t.objective, s.objectives, "objective")
    if t.of is not None:
        r.known(where.at("broken" if t.kind == "broken" else "of"), t.of, scopes, "unit or command")
    if t.kind in ("begun", "ended"):
        r.known(where.at(t.kind), t.order, by_id, "order")
    if t.kind == "time" and s.start is not None and t.minute is not None and t.minute < s.start:
        runs = f"runs from {clock(s.start)} to {clock(s.end)}" if s.end is not None else f"starts at {clock(s.start)}"
        r.add(where.at("time"), f"{clock(t.minute)} is outside the game, which {runs}: a time trigger falls at or "
                                "after the start and before the end")


def _check_rear_guard(r: Reader, s: Setting, pp: PlacedPlan) -> None:
    side = pp.plan.side
    for i, rid in enumerate(pp.plan.rear_guard or ()):
        path = f"{pp.path}.rear_guard[{i}]"
        if not r.known(path, rid, {**s.units, **s.commands}, "unit or command"):
            continue
        other = (s.units[rid].side if rid in s.units else s.commands[rid].side)
        if other is not None and other != side:
            r.add(path, f"{rid!r} is on the {other} side; a rear guard is of its own side ({side})")


# ----------------------------------------------------------------------------- what can ever fire


class _Reach:
    """Which orders can ever begin and which break-offs can ever fire, as the least fixed point:
    an order can begin if it is a first order without triggers or one of its triggers can fire,
    and ``begun`` / ``ended`` wait on other orders. Each trigger that can never fire is then
    reported with why, and orders that wait on each other as one cycle."""

    def __init__(self, r: Reader, s: Setting, orders: list[PlacedOrder], sequences: Mapping[str, list[PlacedOrder]],
                 plans: list[PlacedPlan], by_id: Mapping[str, PlacedOrder]) -> None:
        self.r, self.s, self.orders, self.sequences, self.plans, self.by_id = r, s, orders, sequences, plans, by_id
        self.units_under = _units_under(s)
        self.can_begin: set[str] = set()
        self.can_break_off: set[str] = set()
        changed = True
        while changed:
            changed = False
            for p in orders:
                if p.order.id not in self.can_begin and self._begins(p):
                    self.can_begin.add(p.order.id)
                    changed = True
            for pp in plans:
                side = pp.plan.side
                if side not in self.can_break_off and any(not self.never(t, None)[1] for t in pp.plan.break_off):
                    self.can_break_off.add(side)
                    changed = True

    def _begins(self, p: PlacedOrder) -> bool:
        first = self.sequences.get(p.order.command, [p])[0] is p
        return (first and not p.order.when) or any(not self.never(t, p.order)[1] for t in p.order.when)

    def never(self, t: Trigger, order: Order | None) -> tuple[str, str]:
        """The key at fault and why ``t`` can never fire (for ``order``, or a side's break-off when
        None); ``why`` is '' if it may fire."""
        s, kind = self.s, t.kind
        dark_bars = order is not None and order.kind in ATTACKS and not order.night
        bars = f"{_a(order.kind)} is not begun after dark unless it says night = true" if dark_bars else ""  # type: ignore[union-attr]  # dark_bars is true only with an order
        if kind == "time" and t.minute is not None:
            if s.end is not None and t.minute >= s.end:
                return kind, f"{clock(t.minute)} is outside the game (at or after its end, {clock(s.end)})"
            if bars and s.dusk is not None and t.minute >= s.dusk:
                return kind, f"{clock(t.minute)} is after dark (the last light goes at {clock(s.dusk)}), and {bars}"
        if kind == "darkness":
            if s.dusk is None:
                return kind, "it never gets dark: the scenario has no sunset (or dusk)"
            if s.end is not None and s.dusk >= s.end:
                return kind, f"the last light goes at {clock(s.dusk)}, at or after the game's end ({clock(s.end)})"
            if bars:
                return kind, bars
        if kind in (*TAKES_OF, "broken"):
            scope = t.of if t.of is not None else (order.command if order is not None else None)
            if scope is not None and scope in s.commands and self.units_under.get(scope, 0) == 0:
                key = "of" if t.of is not None and kind != "broken" else kind
                return key, f"command {scope!r} has no units (nor have the commands under it)"
        if kind in ("begun", "ended") and t.order in self.by_id:
            return kind, self._waits(t)
        return kind, ""

    def _waits(self, t: Trigger) -> str:
        """Why the order a ``begun`` / ``ended`` trigger names never begins or never ends ('' if it may)."""
        if t.order not in self.can_begin:
            return f"order {t.order!r} can never begin"
        if t.kind == "begun":
            return ""
        target = self.by_id[t.order]
        command = target.order.command
        sequence = self.sequences.get(command, [])
        later = sequence[next(i for i, p in enumerate(sequence) if p is target) + 1:] if target in sequence else []
        if any(p.order.id in self.can_begin for p in later):
            return ""
        owner = self.s.commands.get(command) or self.s.units.get(command)
        side = owner.side if owner is not None else None
        if side is None or side in self.can_break_off:
            return ""
        after = (f"none of the later orders of command {command!r} can begin ({', '.join(p.order.id for p in later)})"
                 if later else f"command {command!r} has no later order")
        return (f"order {t.order!r} never ends: an order ends when a later order of its command begins or its side "
                f"breaks off, and {after} and the {side} side has no break_off that can fire")

    def report(self) -> None:
        covered = self._cycles()
        for p in self.orders:
            for t, where in zip(p.order.when, p.where):
                self._report(t, where, p.order, covered)
        for pp in self.plans:
            for t, where in zip(pp.plan.break_off, pp.where):
                self._report(t, where, None, covered)

    def _report(self, t: Trigger, where: Where, order: Order | None, covered: set[str]) -> None:
        key, why = self.never(t, order)
        if why and where.path not in covered:
            self.r.add(where.at(key), f"this trigger can never fire: {why}")

    def _cycles(self) -> set[str]:
        """Report each cycle of orders that can never begin because they wait on each other; give
        the paths of the triggers in the cycles (reported with their cycle, not one by one)."""
        stuck = [p for p in self.orders if p.order.id and p.order.id not in self.can_begin]
        stuck_ids = {p.order.id for p in stuck}
        edges = {p.order.id: [(t.order, t.kind, w) for t, w in zip(p.order.when, p.where)
                              if t.kind in ("begun", "ended") and t.order in stuck_ids] for p in stuck}
        covered: set[str] = set()
        for p in stuck:
            cycle = _cycle_from(p.order.id, edges)
            if cycle is None or any(w.path in covered for _, _, w in cycle):
                continue
            covered.update(w.path for _, _, w in cycle)
            ids = [oid for oid, _, _ in cycle]
            _, kind, first = cycle[0]
            self.r.add(first.at(kind), f"orders wait on each other in a cycle: {' -> '.join([*ids, ids[0]])} (each "
                                       "begins only when the next has begun or ended), so none of them can ever "
                                       "begin; give one of them a trigger that does not wait on the others")
        return covered


def _cycle_from(start: str, edges: Mapping[str, list[tuple[str, str, Where]]]) -> list[tuple[str, str, Where]] | None:
    """The shortest cycle through ``start``: each order on it with the trigger (kind, place) that
    names the next."""
    routes: dict[str, list[tuple[str, str, Where]]] = {start: []}
    frontier = [start]
    while frontier:
        reached = []
        for oid in frontier:
            for nxt, kind, where in edges.get(oid, []):
                route = [*routes[oid], (oid, kind, where)]
                if nxt == start:
                    return route
                if nxt not in routes:
                    routes[nxt] = route
                    reached.append(nxt)
        frontier = reached
    return None


def _units_under(s: Setting) -> dict[str, int]:
    """How many units each command has, its subordinates' included."""
    counts: dict[str, int] = {}
    for u in s.units.values():
        for cid in _chain(u.command, s.commands):
            counts[cid] = counts.get(cid, 0) + 1
    return counts


def _chain(command: str | None, commands: Mapping[str, Command]) -> Iterator[str]:
    seen: set[str] = set()
    while command is not None and command in commands and command not in seen:
        seen.add(command)
        yield command
        command = commands[command].parent


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"
