"""The neutral world: the battle as it was, in men, guns, yards, degrees and minutes.

A :class:`Scenario` is frozen and shared by every game played from it. A :class:`World` is one
game's changing state: each unit's men, guns, place, facing, formation and neutral status.
Rulesets keep their own table pieces (stands, figures) and write the neutral state back, so that
the doctrine and the victory judge read every ruleset's game the same way.

Coordinates: x east, y north, in yards; facing in degrees clockwise from north (0 = north,
90 = east). Times: minutes since midnight.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from attrs import Factory, define, field, frozen

from . import space as places
from .space import Space

if TYPE_CHECKING:
    from .ground import Ground
    from .plan import Layout
    from .victory import Reach

SIDE_NAMES = ("union", "confederate")
ARMS = ("infantry", "cavalry", "artillery")
WEAPONS = (
    "rifle-musket", "smoothbore", "buck-and-ball", "inferior-rifle", "rifle-and-carbine",
    "breechloader", "repeater", "carbine", "shotgun", "sharpshooter-rifle",
)
GUN_TYPES = (
    "12-pdr-napoleon", "6-pdr", "12-pdr-howitzer", "24-pdr-howitzer", "mountain-howitzer",
    "3-inch-rifle", "10-pdr-parrott", "20-pdr-parrott",
    "heavy-rifle", "siege", "naval", "gatling",
)
"""Gun types: field pieces by name; ``heavy-rifle`` any heavier field rifle (30-pdr Parrott,
4.5-inch), ``siege`` siege and garrison guns, ``naval`` naval guns landed or on a vessel
(Dahlgren howitzers), ``gatling`` a Gatling or other machine gun."""
EXPERIENCE = ("militia", "green", "trained", "regular", "veteran", "crack")
"""The neutral experience ladder, worst to best; each ruleset maps it to its own grades.
``regular``: long-service regulars, drilled beyond trained volunteers but not yet seasoned."""
FORMATIONS = ("line", "column", "march-column", "skirmish", "limbered", "unlimbered")
LEADER_RATINGS = ("superior", "average", "poor")
LEADER_TRAITS = ("gallant", "artillerist", "brave")
COMMAND_LEVELS = ("army", "wing", "division", "brigade")
AREA_KINDS = ("fields", "woods", "dense-woods", "rough", "broken", "swamp", "buildings", "marsh")
LINE_KINDS = ("road", "stream", "fence", "wall", "works", "bridge", "ford")
BREAK_OFF_MEANINGS = ("defeat", "draw", "judged")  # what a side's break-off means at the end (Victory.break_off)
ORDERS = ("attack", "engage", "demonstrate", "hold", "defend", "screen", "reserve", "withdraw", "rally")
"""Order kinds; ``defend`` is the older name of ``hold`` (both hold an objective or their ground)."""
TRIGGERS = ("time", "taken", "lost", "losses", "broken", "enemy_within", "begun", "ended", "repulsed",
            "darkness", "low_ammo", "enemy_broke_off")
"""What may begin an order or break a side off (see :class:`Trigger`)."""
EDGES = ("north", "east", "south", "west")
STATUSES = ("good", "disordered", "broken", "routed", "gone")
"""Neutral status: how a ruleset's state reads to a neutral observer. ``gone`` = destroyed,
captured or off the field."""

Point = tuple[float, float]


# --------------------------------------------------------------------------- scenario (frozen)


@frozen
class Leader:
    id: str
    name: str
    side: str
    command: str  # the command he leads
    rating: str = "average"
    traits: tuple[str, ...] = ()
    attached_to: str | None = None  # a unit id, at the start
    position: Point | None = None  # defaults to his command's first unit


@frozen
class Command:
    id: str
    name: str
    side: str
    level: str
    parent: str | None = None


@frozen
class UnitSpec:
    """A regiment, battalion, detachment or battery as it stood at the start."""

    id: str
    name: str
    side: str
    command: str
    arm: str
    men: int
    position: Point
    facing: float
    formation: str
    experience: str = "trained"
    weapon: str | None = None  # troops
    guns: int = 0  # artillery
    gun_type: str | None = None
    mounted: bool = False  # cavalry, mounted infantry, or (artillery) horse artillery
    entry: int | None = None  # minute it may enter play; None = on the field at the start
    hidden: bool = False  # starts concealed from the enemy (by design, ground or weather), for a ruleset that models it
    surprised: bool = False  # taken unready at the start (a surprised camp), for a ruleset whose text says what that does


@frozen
class Area:
    kind: str
    polygon: tuple[Point, ...]
    name: str = ""
    height: float = 0.0  # yards above the plain (hills are areas with height)


@frozen
class Feature:
    """A line on the ground: a road, stream, fence, wall, works; a bridge or ford is a short line."""

    kind: str
    points: tuple[Point, ...]
    name: str = ""
    front: float | None = None  # works, walls, fences: the way they face (degrees); cover is behind them

    @property
    def closed(self) -> bool:
        """A closed line (an enclosed redoubt) covers the ground inside it."""
        return len(self.points) > 3 and self.points[0] == self.points[-1]


@frozen
class Objective:
    id: str
    name: str
    position: Point
    radius: float  # yards
    held_by: str | None = None  # at the start
    key: bool = False  # a key position (its loss weighs on morale in some rulesets)
    value: int = 1


@frozen
class Trigger:
    """A condition of a plan; it fires once and stays fired.

    ``time``: the clock reaches ``minute``. ``taken`` / ``lost``: ``objective`` passes to the
    trigger's side / to the enemy. ``losses``: ``of`` (a unit, a command, or the side when None)
    has lost ``share`` of its starting men. ``broken``: ``of`` is broken (a unit: broken, routed
    or gone; a command or side: half its starting men lost or in such units). ``enemy_within``:
    a fit enemy stands within ``yards`` of a unit of ``of``. ``begun`` / ``ended``: the order
    ``order`` has begun / has ended. ``repulsed``: the side's assaults on ``objective`` have been
    repulsed ``times`` times. ``darkness``: the last light is gone (``Light.dusk``). ``low_ammo``:
    ``share`` of the men of ``of`` stand in units low on ammunition. ``enemy_broke_off``: the
    enemy side has broken off (a pursuit may begin).
    """

    kind: str  # TRIGGERS
    minute: int | None = None
    objective: str | None = None
    of: str | None = None  # a unit or command id; None: the order's own command (the side, for a break-off)
    share: float | None = None
    yards: float | None = None
    order: str | None = None  # an order id
    times: int = 1


@frozen
class Order:
    """One order of a command's sequence: it begins when any of its triggers fires (the first
    order of a sequence may have none: it is in force from the start) and lasts until a later
    order of the same command begins."""

    command: str  # the command whose order it is; with ``unit``, the one unit's id
    kind: str  # ORDERS
    objective: str | None = None
    route: tuple[Point, ...] = ()  # waypoints before the objective
    from_minute: int | None = None  # older form of a reserve's release: this time ...
    when_enemy_within: float | None = None  # ... or an enemy this close (yards); kept for old files
    id: str = ""  # unique in the scenario; the loader names an order without one "<command>.<n>" (n from 1)
    when: tuple[Trigger, ...] = ()  # any of these begins the order; none: in force from the start
    formation: str | None = None  # to advance in (attack, engage, demonstrate) or wait in (reserve, hold)
    assault: bool = True  # attack: go in with the bayonet; false: engage at firing range
    range: float | None = None  # engage, demonstrate, attack without assault: yards from the enemy to stop at
    to: Point | None = None  # withdraw: where to (default: toward the side's rear)
    night: bool = False  # may begin, and assault, after dark
    source: str = ""  # where the order and its triggers come from (a citation)
    unit: bool = False  # an order to one unit (``command`` is its id): once begun, the unit follows it, not its command's
    together: str = ""  # attack: the concerted assault it goes in with (orders naming the same group dress, then charge)


@frozen
class SidePlan:
    """A side's own stop rules: when it is beaten, and when its commander breaks the fight off."""

    side: str
    beaten_at: float | None = None  # None: Victory.beaten_at
    count_broken: bool = True  # do men standing in broken or routed units count toward beaten_at?
    break_off: tuple[Trigger, ...] = ()  # any of these: the side retires under cover of its rear guard
    rear_guard: tuple[str, ...] = ()  # unit or command ids that hold while the rest retire
    source: str = ""


@frozen
class Victory:
    """Judged by the core from the neutral state, identically for every ruleset."""

    end: int  # minute the game ends at the latest
    objectives: tuple[str, ...]  # held at the end decide the winner
    beaten_at: float = 0.5  # a side is beaten when this share of its starting men are lost or in broken/routed/gone units
    break_off: tuple[tuple[str, str], ...] = ()  # (side, BREAK_OFF_MEANINGS) where a side's break-off is not a defeat

    def break_off_means(self, side: str) -> str:
        """What ``side`` breaking off means: a defeat (the default), a draw, or judged."""
        return next((means for s, means in self.break_off if s == side), "defeat")


@frozen
class Historical:
    winner: str | None  # a side, or None for a draw
    men_lost: Mapping[str, int]
    guns_lost: Mapping[str, int]
    minutes: int | None = None  # from the start to the decision
    note: str = ""


@frozen
class Light:
    sunset: int | None = None  # minute
    dusk: int | None = None  # minute the last light is gone (end of twilight); None = sunset + 30
    weather: str = "clear"  # clear, overcast, fog, rain
    moon: str = "none"  # none, moonlit, full


@define
class ScenarioKept:
    """What is worked out from one scenario once and kept with it for every game played on it,
    each filled on first use by its maker; a scenario never changes, so nothing here goes stale
    (and :func:`attrs.evolve` gives a changed scenario an empty one)."""

    ground: Ground | None = None  # its prepared ground: ground.ground_of
    layout: Layout | None = None  # its orders by command, scopes and waits: plan.Layout.of
    reach: Reach | None = None  # its objectives' boxes and the grid of squares listing them: victory.Reach.of


@frozen(eq=False)  # compared and hashed by identity: one loaded scenario, shared by its games
class Scenario:
    id: str
    title: str
    date: str
    summary: str
    source: str  # file it was loaded from
    width: float
    height: float
    start: int
    light: Light
    sides: tuple[str, str]  # first side moves first
    commands: tuple[Command, ...]
    leaders: tuple[Leader, ...]
    units: tuple[UnitSpec, ...]
    areas: tuple[Area, ...]
    features: tuple[Feature, ...]
    objectives: tuple[Objective, ...]
    orders: tuple[Order, ...]
    victory: Victory
    historical: Historical | None = None
    options: tuple[str, ...] = ()  # ruleset options the scenario switches on, "ruleset:option"
    home_edges: Mapping[str, float] = field(factory=dict)  # side -> facing (deg) toward its rear
    plans: Mapping[str, SidePlan] = field(factory=dict)  # side -> its stop rules (absent: the defaults)
    retreat_edges: Mapping[str, tuple[str, ...]] = field(factory=dict)  # edge -> sides that may leave over it (absent: both)

    def unit(self, unit_id: str) -> UnitSpec:
        return next(u for u in self.units if u.id == unit_id)

    def objective(self, objective_id: str) -> Objective:
        return self.objectives_by_id[objective_id]

    def on_table(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) held on the table: each coordinate clamped to 0..width or 0..height (written
        out: rulesets ask this on every move, and the builtins min and max cost more)."""
        width, height = self.width, self.height
        return (0.0 if x < 0.0 else min(x, width)), (0.0 if y < 0.0 else min(y, height))

    chains: Mapping[str, tuple[Command, ...]] = field(init=False, repr=False)
    subordinates: Mapping[str, frozenset[str]] = field(init=False, repr=False)  # a command and all under it
    objectives_by_id: Mapping[str, Objective] = field(init=False, repr=False)
    kept: ScenarioKept = field(init=False, repr=False, factory=ScenarioKept)  # worked out once, on first use

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "objectives_by_id", {o.id: o for o in self.objectives})
        by_id = {c.id: c for c in self.commands}
        chains: dict[str, tuple[Command, ...]] = {}
        for command in self.commands:
            chain: list[Command] = []
            cid: str | None = command.id
            while cid is not None and cid in by_id and len(chain) <= len(by_id):
                chain.append(by_id[cid])
                cid = by_id[cid].parent
            chains[command.id] = tuple(chain)
        object.__setattr__(self, "chains", chains)
        under: dict[str, set[str]] = {c.id: set() for c in self.commands}
        for below, superiors in chains.items():
            for superior in superiors:
                under[superior.id].add(below)
        object.__setattr__(self, "subordinates", {k: frozenset(v) for k, v in under.items()})

    def command_chain(self, command_id: str) -> Iterator[Command]:
        """The command and its superiors, up to the army (worked out once per scenario)."""
        return iter(self.chains.get(command_id, ()))


# --------------------------------------------------------------------------- game state


FIT_STATUSES = ("good", "disordered")  # a unit on the field in one of these is fit (UnitState.fit)


_PLACE = frozenset(("x", "y"))


@define(eq=False, slots=True)
class UnitState:
    space: Space | None = field(default=None, init=False, repr=False)  # the world's index of places (set first: see TrackedUnit)
    spec: UnitSpec
    men: int
    guns: int
    x: float  # (a TrackedUnit tells the world's index when this or y is written)
    y: float
    facing: float
    formation: str
    status: str = "good"
    mounted: bool = False
    on_field: bool = True
    low_ammo: bool = False  # low on ammunition, where the ruleset's rules have such a state
    hidden: bool = False  # concealed: the enemy's commander does not see it (set and cleared by a ruleset that models concealment)
    id: str = field(init=False, repr=False)  # the spec's, kept as attributes: read everywhere, every turn
    side: str = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.id, self.side = self.spec.id, self.spec.side

    @property
    def fit(self) -> bool:
        """Able to act under orders: on the field, not broken, routed or gone."""
        return self.on_field and self.status in FIT_STATUSES


class TrackedUnit(UnitState):
    """A unit of a side large enough for the world's index to hold in a tree (more than
    :data:`~referee.core.engine.space.SMALL` units): the one door of its place. A new ``x`` or ``y``
    tells the index (:meth:`~referee.core.engine.space.Space.moved`, which lists it as moved). Units of small
    sides are plain :class:`UnitState`: they are scanned, and a hook on every attribute written
    (some thousands a game) would cost them about a fifth of a game."""

    __slots__ = ()
    TRACKED = True  # (what the index checks)

    def __setattr__(self, name: str, value: object) -> None:
        if name in _PLACE and self.space is not None:
            self.space.moved(self)
        object.__setattr__(self, name, value)


@define(eq=False, slots=True)
class LeaderState:
    spec: Leader
    x: float
    y: float
    attached_to: str | None
    status: str = "active"  # active, out (for some turns), dead, wounded, captured


@frozen
class Departure:
    """Men of a unit who left the field over an edge: by a line of retreat, or captured."""

    unit: str
    edge: str
    men: int
    captured: bool
    minute: int


@define(eq=False)
class World:
    """One game's neutral state."""

    scenario: Scenario
    minute: int
    units: dict[str, UnitState]
    leaders: dict[str, LeaderState]
    held: dict[str, str | None] = field(factory=dict)  # objective id -> side
    passed: list[tuple[int, str, str]] = field(factory=list)  # (minute, objective, side) each time one changed hands
    repulses: dict[tuple[str, str], int] = field(factory=dict)  # (side, objective) -> its assaults there repulsed
    departures: list[Departure] = field(factory=list)
    broken_off: dict[str, str] = field(factory=dict)  # side -> why it broke the fight off
    weather: str = "clear"  # the weather now: the scenario's at the start; a ruleset may change it (fog lifting)
    by_side: dict[str, tuple[UnitState, ...]] = field(  # side -> its units, in the order of ``units`` (which never changes)
        init=False, repr=False, default=Factory(lambda self: _by_side(self.scenario, self.units), takes_self=True))
    space: Space = field(  # the units by place (core/engine/space.py), kept up to date as they move
        init=False, repr=False, default=Factory(lambda self: Space(self.units.values()), takes_self=True))

    @classmethod
    def start(cls, scenario: Scenario) -> World:
        sizes = Counter(u.side for u in scenario.units)
        units = {
            u.id: (TrackedUnit if sizes[u.side] > places.SMALL else UnitState)(u, u.men, u.guns, u.position[0], u.position[1], u.facing, u.formation,
                            mounted=u.mounted, on_field=u.entry is None)
            for u in scenario.units
        }
        leaders = {}
        for ld in scenario.leaders:
            x, y = ld.position or _first_position(scenario, ld)
            leaders[ld.id] = LeaderState(ld, x, y, ld.attached_to)
        held = {o.id: o.held_by for o in scenario.objectives}
        return cls(scenario, scenario.start, units, leaders, held, weather=scenario.light.weather)

    def side_units(self, side: str) -> list[UnitState]:
        return list(self.by_side.get(side, ()))

    def enemy(self, side: str) -> str:
        a, b = self.scenario.sides
        return b if side == a else a


def _by_side(scenario: Scenario, units: dict[str, UnitState]) -> dict[str, tuple[UnitState, ...]]:
    return {side: tuple(u for u in units.values() if u.side == side) for side in scenario.sides}


def _first_position(scenario: Scenario, leader: Leader) -> Point:
    if leader.attached_to:
        return scenario.unit(leader.attached_to).position
    commands = {leader.command} | {c.id for c in scenario.commands if leader.command in _ancestors(scenario, c.id)}
    for u in scenario.units:
        if u.command in commands:
            return u.position
    return (scenario.width / 2, scenario.height / 2)


def _ancestors(scenario: Scenario, command_id: str) -> set[str]:
    return {c.id for c in scenario.command_chain(command_id)}


def distance(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(bx - ax, by - ay)


def bearing(ax: float, ay: float, bx: float, by: float) -> float:
    """Degrees clockwise from north of the line from a to b."""
    return math.degrees(math.atan2(bx - ax, by - ay)) % 360.0


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two bearings, 0-180."""
    diff = abs(a - b) % 360.0
    return 360.0 - diff if diff > 180.0 else diff
