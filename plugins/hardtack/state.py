"""The Hardtack table: companies of figures (or guns with their crews) under regiments.

A :class:`Company` is a Stargrunt II squad (Hardtack p.1); a :class:`Regiment` is the neutral
unit its companies came from, with its commander (the regimental command stand). Positions are
in yards, like the neutral world; inches appear only where a rule is read.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from attrs import define, field
from referee.api import Game, Intent, Scenario, Step, UnitState

from .tables import LEVELS, Gun, HardtackTables, Weapon

BROKEN = LEVELS.index("broken")
ROUTED = LEVELS.index("routed")
SHAKEN = LEVELS.index("shaken")
CLOSE = ("line", "column")


@define(eq=False, slots=True)
class Company:
    id: str
    unit: UnitState
    regiment: Regiment
    figures: int
    start: int
    quality: int  # quality die size
    lv: int  # the company commander's leadership value
    motivation: str
    weapon: Weapon | None
    x: float
    y: float
    facing: float
    formation: str  # line, column, skirmish (troops); limbered, unlimbered (guns)
    level: int = 0  # index in LEVELS
    reload: bool = False  # a Reload marker
    loaded: str = ""  # artillery ammunition marker: "", shot, canister
    mounted: bool = False
    gun: Gun | None = None
    guns: int = 0
    gone: bool = False
    activated: bool = False
    in_position: bool = False  # an In Position marker (SG2; Hardtack p.8; ruling HT-G3)
    team_hit: bool = False  # its horse team has taken casualties (p.13; ruling HT-S6)
    travel: bool = False  # its last Move was in travel mode, until it next activates (SG2 p.24; ruling HT-M8)
    reach: float = -1.0  # yards its fire carries (fire.reach_yards), kept once known
    cover_at: tuple[float, float, str] | None = None  # geometry.cover: its last place and the cover there
    halves: tuple[int, str, int, tuple[float, float, float]] | None = None  # geometry.half_footprint: its figures, formation, guns and half-footprint
    pace: tuple[object, int] | None = None  # move.base_inches: its tables and base move, dropped where its formation (form), mount or team changes
    side: str = field(init=False, default="")
    arm: str = field(init=False, default="")
    artillery: bool = field(init=False, default=False)  # a gun and its crew (kept with ``gun``: see set_gun)
    alive: bool = field(init=False, default=False)  # it stands (see reckon)
    close: bool = field(init=False, default=False)  # in close formation, line or column (kept with ``formation``: see form)

    def __attrs_post_init__(self) -> None:
        self.side, self.arm = self.unit.side, self.unit.spec.arm
        self.artillery = self.gun is not None
        self.form(self.formation)
        self.reckon()

    def form(self, formation: str) -> None:
        """Take up ``formation``: every change of formation is made here, where what follows
        from it is kept (``close``) or dropped (``pace``, the base move: move.base_inches)."""
        self.formation, self.close, self.pace = formation, formation in CLOSE, None

    def set_gun(self, gun: Gun) -> None:
        self.gun, self.guns, self.artillery = gun, 1, True
        self.pace = None  # (move.base_inches)

    def reckon(self) -> None:
        """``alive``: not gone, with figures, its unit on the field; reckoned again wherever one
        of those may change (HardtackState.forget)."""
        self.alive = not self.gone and self.figures > 0 and self.unit.on_field



@define(eq=False, slots=True)
class Regiment:
    id: str
    unit: UnitState
    lv: int  # the regimental commander's leadership value
    x: float
    y: float
    companies: list[Company] = field(factory=list)
    activated: bool = False
    commander: bool = True  # the command stand is on the table
    box: tuple[float, float, float, float] | None = None  # HardtackState.groups_in, enemies_in: its living companies' box

    @property
    def side(self) -> str:
        return self.unit.side


@define(eq=False, slots=True)
class Aims:
    """fire.choose_target's answers kept from one activation to the next, so that what did not
    change since a company last looked is not looked at again. None is cleared: each answer is
    stamped with all it read and recomputed when the stamp differs from the present. The stamps
    count moves (:meth:`HardtackState.others_moved`), which :meth:`HardtackState.moved` advances
    on every change of a company's place and :meth:`HardtackState.begin_turn` as a turn begins
    (companies may enter).

    - ``out_of_reach``: company -> (x, y, the other sides' moves, reach): no enemy in reach from there.
    - ``no_target``: company -> ((x, y, facing, formation, load, reach, moves), the enemies then
      in reach with their formation, In Position marker and travel mode): none it may fire at.
    - ``open_to``: (company, load) -> (its place, facing and formation, each target's answer
      from there under the target's place, formation, marker and travel mode): fire._open_to.
    - ``masks``: geometry.masked's answers while one lone company acts (its friends stand
      still: activation.play_step sets and drops it), else None.
    - ``loading``: while one lone company acts, an unloaded gun that found a target to load for:
      (the gun, the target, the targets passed over with why); the search after it loads answers
      from it (fire._as_loaded). activation.play_step drops it as the activation ends, else None.
    """

    out_of_reach: dict[str, tuple[float, float, int, float]] = field(factory=dict)
    no_target: dict[str, tuple[tuple[object, ...], list[tuple[Company, str, bool, bool]]]] = field(factory=dict)
    open_to: dict[tuple[str, str], tuple[tuple[float, float, float, str], dict[Company, tuple[object, ...]]]] = field(factory=dict)
    masks: dict[tuple[object, ...], str | None] | None = None
    loading: tuple[Company, Company, list[tuple[Company, str]]] | None = None


Walk = tuple[float, frozenset[str], str]  # move.walk: yards gone, ground kinds crossed, worst class met
Boxed = tuple[float, float, float, float, float, float, float, float]  # a segment and its bounding box (move.going)
Going = tuple[dict[str, str], dict[str, int], frozenset[str], list[tuple[str, list[Boxed]]], list[list[int]], bool]  # move.going


@define(eq=False, slots=True)
class Terrain:
    """What Hardtack reads of one scenario's ground, kept for every game played on it: each
    answer is a pure function of the scenario (its ground, drawn from it, never changes) and,
    where named, of the tables, computed from rounded places so that no game's history can change
    it. One per scenario (:func:`terrain_of`); nothing is ever invalidated, and the two memos of
    places (``covers``, ``sights``, ``walks``) are emptied when they reach their ``MEMO_LIMIT``.

    - ``covers`` (geometry.cover): HT-G1's cover by the place, to the yard.
    - ``sights`` (geometry.sees): HT-G2's sight by the two places.
    - ``blocking`` (geometry.sees): the cells that block sight, counted (geometry.cell_counts).
    - ``cultivated``, ``area_kinds`` (geometry.cultivated_cells, area_kinds): HT-M9's reading of
      each cell.
    - ``kind_counts`` (geometry.one_kind): by area kind, its cells counted.
    - ``goings`` (move.going): by tables and mover, what its walk reads.
    - ``disordering`` (move.disordering_counts): by tables, the cells that may disorder a close
      formation, counted.
    - ``walks`` (move.walk): HT-M4's walks by tables, mover, rounded ends, inches and road.
    """

    covers: dict[tuple[int, int], str] = field(factory=dict)
    sights: dict[tuple[float, float, float, float], bool] = field(factory=dict)
    blocking: list[list[int]] | None = None
    cultivated: list[list[bool]] | None = None
    area_kinds: list[str] | None = None
    kind_counts: dict[str, list[list[int]]] = field(factory=dict)
    goings: dict[tuple[Any, str], Going] = field(factory=dict)
    disordering: dict[Any, list[list[int]]] = field(factory=dict)
    walks: dict[tuple[Any, ...], Walk] = field(factory=dict)


_terrains: weakref.WeakKeyDictionary[Scenario, Terrain] = weakref.WeakKeyDictionary()


def terrain_of(scenario: Scenario) -> Terrain:
    """The scenario's :class:`Terrain`, made at its first game and kept while the scenario lives."""
    hit = _terrains.get(scenario)
    if hit is None:
        hit = _terrains[scenario] = Terrain()
    return hit


def state_of(game: Game) -> HardtackState:
    """The game's Hardtack state (what muster gave it)."""
    state: HardtackState = game.state
    return state


def terrain(game: Game) -> Terrain:
    """The game's :class:`Terrain`: its state's once mustered (read without a look-up), else the scenario's."""
    state: HardtackState | None = game.state
    return state.terrain if state is not None else terrain_of(game.scenario)


SQUARE_FOOTPRINTS = 4  # a Grid's squares are this many of its side's widest half-footprints wide (Grid.of)
GRID_FROM = 1000  # companies a side from which it is filed in a Grid (fewer are scanned quicker in their list)
SCAN_FROM = 4  # a Grid declines a box whose squares hold 1/SCAN_FROM of its side's living companies or more (Grid.around)


@define(eq=False, slots=True)
class Grid:
    """One side's companies filed by the square their centre stands in, so that those in a box
    are found by looking in its squares, not at every company. A company that moves is named to
    :meth:`moved` (through HardtackState.moved) once its place has changed, or just before with
    no search in between, and is filed again at the next search."""

    order: dict[Company, int]  # each company's place in its side's order (regiment by regiment)
    side: float  # yards: the side of a square (:meth:`of`)
    squares: dict[tuple[int, int], list[Company]] = field(factory=dict)
    filed: dict[Company, tuple[int, int]] = field(factory=dict)  # company -> the square it is filed in
    stale: set[Company] = field(factory=set)  # companies moved since the last search (filed in any order: answers are sorted)

    @classmethod
    def of(cls, companies: list[Company], widest: float) -> Grid:
        """The companies filed in squares :data:`SQUARE_FOOTPRINTS` times ``widest`` wide (the
        largest half-diagonal any of them can have, geometry.widest): about the narrowest box
        the commonest question asks, the friends near a move's path (move.friends_in_way: the
        mover's footprint and the widest friend's, each side of it). Squares much wider hold
        many companies outside such a box; much narrower, many squares are looked in."""
        side = SQUARE_FOOTPRINTS * widest
        grid = cls({c: i for i, c in enumerate(companies)}, side)
        for c in companies:
            grid.file(c)
        return grid

    def file(self, c: Company) -> None:
        square = (int(c.x // self.side), int(c.y // self.side))
        old = self.filed.get(c)
        if old != square:
            if old is not None:
                self.squares[old].remove(c)
            self.squares.setdefault(square, []).append(c)
            self.filed[c] = square

    def moved(self, c: Company) -> None:
        self.stale.add(c)

    def _squares_over(self, x0: float, x1: float, y0: float, y1: float) -> list[list[Company]]:
        """The companies filed in the squares the box (x0, x1, y0, y1) meets, square by square
        (every moved company filed again first)."""
        if self.stale:
            for c in self.stale:
                self.file(c)
            self.stale.clear()
        side = self.side
        i0, i1, j0, j1 = int(x0 // side), int(x1 // side), int(y0 // side), int(y1 // side)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(self.squares):  # (fewer squares filed than the box covers)
            return [g for (i, j), g in self.squares.items() if i0 <= i <= i1 and j0 <= j <= j1 and g]
        get = self.squares.get
        return [g for g in (get((i, j)) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)) if g]

    def around(self, x0: float, x1: float, y0: float, y1: float, living: int) -> list[Company] | None:
        """The living companies whose centres lie in the box, in the side's order; or None when
        its squares hold ``living / SCAN_FROM`` companies or more (``living``: how many of the
        side's stand): the caller's own scan of its list is quicker then than sorting them, and
        may stop early."""
        groups = self._squares_over(x0, x1, y0, y1)
        if SCAN_FROM * sum(map(len, groups)) >= living:
            return None
        found = self._inside(groups, x0, x1, y0, y1)
        found.sort(key=self.order.__getitem__)
        return found

    def within(self, x0: float, x1: float, y0: float, y1: float) -> list[Company]:
        """The living companies whose centres lie in the box, never declined, in no particular
        order (as filed: it depends on the order moved companies were refiled), for a caller
        whose answer does not depend on it (:meth:`HardtackState.groups_in`)."""
        return self._inside(self._squares_over(x0, x1, y0, y1), x0, x1, y0, y1)

    @staticmethod
    def _inside(groups: list[list[Company]], x0: float, x1: float, y0: float, y1: float) -> list[Company]:
        found: list[Company] = []
        for group in groups:
            found += [c for c in group if c.alive and y0 <= c.y and c.y <= y1 and x0 <= c.x and c.x <= x1]
        return found


def in_order(standing: list[Company]) -> list[Company]:
    """Ruling HT-O7: of a regiment's standing companies, those that stand for it in the neutral
    world (its place, facing and formation) and in what the commander is told it can do (HT-CR1):
    the companies Shaken or better, which may still form its regimental formation (p.7) and act
    on its intent; a broken or routed company may not (p.7) and acts on its own (p.12, SG2).
    Every standing company when none is in order."""
    return [c for c in standing if c.level < BROKEN] or standing


def centre_of(group: list[Company]) -> tuple[float, float]:
    """The centre of the companies, weighted by their figures (summed in their order; ``group``
    is not empty and has figures)."""
    figs, sx, sy = 0, 0.0, 0.0
    for c in group:
        n = c.figures
        figs, sx, sy = figs + n, sx + c.x * n, sy + c.y * n
    return sx / figs, sy / figs


def box_of(group: list[Company]) -> tuple[float, float, float, float]:
    """The box of the companies' centres (x0, x1, y0, y1)."""
    xs, ys = [c.x for c in group], [c.y for c in group]
    return min(xs), max(xs), min(ys), max(ys)


@define(eq=False)
class HardtackState:
    """One game of Hardtack: its regiments and companies, the turn's order of activation, and
    the caches built from them. Each cache is a field of this object (or of the company or
    regiment it is about), which owns its inputs, and is forgotten in one place:

    - ``_living``, ``_enemies``, ``_by_regiment`` (:meth:`living`, :meth:`enemies`,
      :meth:`living_by_regiment`): by :meth:`forget`, whenever who stands may change.
    - ``Regiment.box`` (:meth:`groups_in`, :meth:`enemies_in`) and the side's :class:`Grid`: by
      :meth:`moved`, the one call every change of a company's place makes.
    - ``centres`` (activation.centre: a regiment's centre as its step first asks it, held for the
      rest of the step, HT-M5): by activation.play_step, as each step begins. ``kept_centres``
      (the centre reckoned from the standing companies' places, figures and levels, which such
      a first ask reads), and ``written`` (muster.sync's men, place, status and leading company,
      which its companies' places, figures, levels and standing decide): a regiment's by
      :meth:`moved` and :meth:`strength_changed` (its companies' places, figures and levels), and
      by :meth:`forget` (who stands).
    - ``aims`` (:class:`Aims`: fire.choose_target's) and each company's ``cover_at`` and
      ``halves`` (geometry.cover, half_footprint): never cleared; each answer carries the inputs
      it was computed from (the places, formations and moves counted by :meth:`moved` and
      :meth:`begin_turn`) and is recomputed when they differ.
    - each company's ``close`` and ``pace`` (move.base_inches): set and dropped by
      :meth:`Company.form`, the one place its formation changes (``pace`` also where its mount,
      which changes only as it forms, its team or its gun change: see move.base_inches).
    - ``fire_reach``, ``steps``, ``Company.reach``, ``widest``: never (pure functions of the
      tables and the company's quality and weapon, of the unit, or of the side's companies as
      mustered).
    - ``terrain``: the scenario's :class:`Terrain`, shared by every game on it; ``tables.effects``
      likewise the tables'.

    Module caches (``@cache`` on the mechanics' and the tables' functions, geometry's
    ``_halves``) are pure functions of immutable inputs.
    """

    tables: HardtackTables
    men_per_figure: int
    regiments: dict[str, Regiment] = field(factory=dict)
    companies: dict[str, Company] = field(factory=dict)
    by_side: dict[str, list[Regiment]] = field(factory=dict)
    intents: dict[str, dict[str, Intent]] = field(factory=dict)  # side -> this turn's intents
    touched: set[str] = field(factory=set)  # regiments changed since the last sync
    steps: dict[tuple[str, str], Step] = field(factory=dict)  # (step name, unit) -> its activation step, built once a game (activation._step)

    queue: dict[str, list[Company]] = field(factory=dict)  # side -> its companies in order, this turn
    cursor: dict[str, int] = field(factory=dict)  # side -> the first company not yet passed over
    group: tuple[str, list[Company]] | None = None  # the Activate Regiment's companies, from _next to its step
    transfer: tuple[str, tuple[Company, Company]] | None = None  # HT-T7: the first transfer's company and target, from _next to its step
    reg_cursor: dict[str, int] = field(factory=dict)  # side -> the first regiment not yet passed over
    centres: dict[str, tuple[float, float]] = field(factory=dict)  # regiment -> its centre, this step (activation.centre)
    kept_centres: dict[str, tuple[float, float]] = field(factory=dict)  # regiment -> its centre, until its companies change
    written: dict[str, tuple[int, tuple[float, float] | None, Company | None, str]] = field(factory=dict)  # muster.sync's, as kept_centres
    _living: dict[str, list[Company]] = field(factory=dict)  # kept until a company is touched
    _enemies: dict[str, list[Company]] = field(factory=dict)
    _by_regiment: dict[str, list[list[Company]]] = field(factory=dict)
    fire_reach: dict[tuple[int, str], float] = field(factory=dict)  # fire.fire_reach_yards by quality and weapon
    widest: dict[str, tuple[float, float]] = field(factory=dict)  # side -> geometry.widest: its largest half-diagonals, any and close
    moves: dict[str, int] = field(factory=dict)  # side -> how many times one of its companies has moved (or entered)
    moves_total: int = 0
    aims: Aims = field(factory=Aims)  # fire.choose_target's answers kept from one activation to the next
    near_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # the step's _near box (x0, x1, y0, y1)
    terrain: Terrain = field(factory=Terrain)  # the scenario's ground as Hardtack reads it (terrain_of), given at muster
    visibility: float = float("inf")  # yards one can see to fire this turn (ruling HT-V1; geometry.visibility)
    grids: dict[str, Grid] = field(factory=dict)  # side -> its companies filed by place (around), for sides with GRID_FROM
    filed: bool = False  # grids given (file_sides)

    def moved(self, c: Company) -> None:
        """A company changed its place: answers kept about its side's places are stale."""
        self.moves[c.side] = self.moves.get(c.side, 0) + 1
        self.moves_total += 1
        c.regiment.box = None
        self.kept_centres.pop(c.regiment.id, None)
        self.written.pop(c.regiment.id, None)
        if self.grids:
            grid = self.grids.get(c.side)
            if grid is not None:
                grid.moved(c)

    def begin_turn(self) -> None:
        """A turn begins: none has activated, and companies may have entered (the answers stamped
        with the other sides' moves are stale). Entering is the one change of who stands between
        turns (Game's reinforcements): only a company that does not stand is reckoned again, and
        those that now stand are forgotten (:meth:`forget`; a regiment that enters has no box to
        drop, none of its companies having stood)."""
        self.moves_total += 1
        entered: list[Company] = []
        for c in self.companies.values():
            c.activated = False
            if not c.alive:
                c.reckon()
                if c.alive:
                    entered.append(c)
        for r in self.regiments.values():
            r.activated = False
        if entered:
            self.forget(*entered)

    def others_moved(self, side: str) -> int:
        """How many moves the other sides' companies have made so far."""
        return self.moves_total - self.moves.get(side, 0)

    def touch(self, c: Company) -> None:
        """Anything about ``c`` may change (its regiment is written back at the next sync)."""
        self.touch_regiment(c.regiment)

    def touch_regiment(self, reg: Regiment) -> None:
        """Anything about the regiment's companies may change (it is written back at the next sync)."""
        self.touched.add(reg.id)

    def strength_changed(self, c: Company) -> None:
        """``c``'s figures or level changed (or are about to, with no centre asked between): its
        regiment's kept centre, and what sync wrote of it, are stale."""
        self.kept_centres.pop(c.regiment.id, None)
        self.written.pop(c.regiment.id, None)

    def forget(self, *companies: Company) -> None:
        """Something changed who stands: ``companies`` (every one, when none is named) reckon
        whether they are alive again, the kept lists of living companies are dropped, and their
        regiments' kept centres are stale."""
        for c in companies or self.companies.values():
            c.reckon()
        if not companies:
            self.kept_centres.clear()
            self.written.clear()
        for c in companies:
            self.kept_centres.pop(c.regiment.id, None)
            self.written.pop(c.regiment.id, None)
        if self._living:
            self._living.clear()
            self._enemies.clear()
            self._by_regiment.clear()

    def living(self, side: str) -> list[Company]:
        hit = self._living.get(side)
        if hit is None:
            hit = self._living[side] = [c for r in self.by_side.get(side, ()) for c in r.companies if c.alive]
        return hit

    def living_by_regiment(self, side: str) -> list[list[Company]]:
        """The side's living companies, regiment by regiment (kept with :meth:`living`)."""
        hit = self._by_regiment.get(side)
        if hit is None:
            groups: dict[str, list[Company]] = {}
            for c in self.living(side):
                groups.setdefault(c.regiment.id, []).append(c)
            hit = self._by_regiment[side] = list(groups.values())
        return hit

    def groups_in(self, side: str, x0: float, x1: float, y0: float, y1: float, but: Regiment) -> list[list[Company]]:
        """The side's living companies, regiment by regiment, of the regiments other than ``but``
        with a company's centre perhaps in the box (x0, x1, y0, y1): the box of the centres of
        each regiment's living companies meets it. A regiment keeps that box until one of them
        moves (:meth:`moved`; a regiment gets its first as its companies enter, :meth:`begin_turn`);
        one that falls leaves it larger than need be, which only asks about more. ``but``'s may be
        moving. A side with a :class:`Grid` gives those in the box as one group, in no
        particular order (:meth:`Grid.within`): the callers' answers (move.friends_in_way's,
        sorted by where each friend is met and its id) do not depend on it."""
        grid = self.grids.get(side) if self.grids else None
        if grid is not None:
            return [[f for f in grid.within(x0, x1, y0, y1) if f.regiment is not but]]
        out = []
        for group in self.living_by_regiment(side):
            reg = group[0].regiment
            if reg is but:
                continue
            box = reg.box
            if box is None:
                box = reg.box = box_of(group)
            if box[0] <= x1 and x0 <= box[1] and box[2] <= y1 and y0 <= box[3]:
                out.append(group)
        return out

    def file_sides(self, widest: Callable[[str], float]) -> None:
        """Give each side with :data:`GRID_FROM` companies or more its :class:`Grid` (once, as
        the first turn begins; a side's companies are all mustered then, entered or not), its
        squares sized by ``widest(side)``, the largest half-footprint of its companies."""
        if not self.filed:
            self.filed = True
            for side, regiments in self.by_side.items():
                companies = [c for r in regiments for c in r.companies]
                if len(companies) >= GRID_FROM:
                    self.grids[side] = Grid.of(companies, widest(side))

    def around(self, side: str, x0: float, x1: float, y0: float, y1: float) -> list[Company]:
        """The side's living companies, in order (:meth:`living`), that may stand in the box
        (x0, x1, y0, y1): those its :class:`Grid` finds, or, without one or when they are many,
        every one (a short list is scanned quicker than a grid is kept). The caller tests the box."""
        hit = self._living.get(side)
        living = hit if hit is not None else self.living(side)
        grid = self.grids.get(side) if self.grids else None
        found = grid.around(x0, x1, y0, y1, len(living)) if grid is not None else None
        return living if found is None else found

    def enemies_in(self, side: str, x0: float, x1: float, y0: float, y1: float) -> list[Company]:
        """The other sides' living companies whose centres lie in the box (x0, x1, y0, y1), in the
        order of :meth:`enemies`: those a side's :class:`Grid` finds, or, regiment by regiment,
        every company of a regiment whose kept box (``Regiment.box``, as :meth:`groups_in`) lies
        inside it, those inside it of one whose box straddles its edge, and none of one whose
        box lies outside it (at Big Bethel about nine regiments in twelve)."""
        out: list[Company] = []
        for s in self.by_side:
            if s == side:
                continue
            grid = self.grids.get(s) if self.grids else None
            found = grid.around(x0, x1, y0, y1, len(self.living(s))) if grid is not None else None
            if found is not None:
                out += found
                continue
            for group in self.living_by_regiment(s):
                reg = group[0].regiment
                box = reg.box
                if box is None:
                    box = reg.box = box_of(group)
                bx0, bx1, by0, by1 = box
                if by0 <= y1 and y0 <= by1 and bx0 <= x1 and x0 <= bx1:  # (across first: the armies face each other)
                    if y0 <= by0 and by1 <= y1 and x0 <= bx0 and bx1 <= x1:
                        out += group
                    else:
                        out += [e for e in group if y0 <= e.y <= y1 and x0 <= e.x <= x1]
        return out

    def enemies(self, side: str) -> list[Company]:
        hit = self._enemies.get(side)
        if hit is None:
            hit = self._enemies[side] = [c for s in self.by_side if s != side for c in self.living(s)]
        return hit
