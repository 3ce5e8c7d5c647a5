"""Moving companies (Hardtack pp.13-15): base mobility, line shift, travel mode, terrain
classes, disordering ground, and the flight of broken and routed companies."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import chain

from referee.api import Game, Ground, ladder_shift

from . import geometry as geo
from .state import Boxed, Company, Going, HardtackState, Regiment, box_of, state_of, terrain
from .tables import HardtackTables

STOP_SHORT = 15.0  # yards: a move halts this far from an enemy it does not assault (Hardtack p.15)


def base_inches(t: HardtackTables, c: Company) -> int:
    """The base move: by arm and mount, limbered or not (a hit team one die lower); a line shifts
    it down one (p.15). Kept on the company with the tables it was reckoned for (``Company.pace``),
    and dropped where its formation (``Company.form``), mount (activation._reorganise, which forms
    it too), team (morale._team) or gun (activation._abandon, ``Company.set_gun``) changes; its arm
    never changes. Not kept for a gun with one figure left of its crew (p.14)."""
    kept = c.pace
    if kept is not None and kept[0] is t and (not c.artillery or c.figures > 1):
        return kept[1]
    hit = _base_inches(t, c)
    c.pace = (t, hit)
    return hit


def _base_inches(t: HardtackTables, c: Company) -> int:
    base = t["movement"]["base"]
    if c.artillery and not c.guns:  # a crew that has abandoned its gun goes on foot (p.12; HT-C4)
        infantry: int = base["infantry"]
        return infantry
    if c.artillery:  # p.13: a limbered gun whose team has taken casualties moves a die type slower (HT-S6)
        if c.formation == "unlimbered" and c.figures == 1:  # p.14: one figure left can only move the gun 2"
            one_figure: int = t["movement"]["unlimbered_one_figure"]
            return one_figure
        return ladder_shift(base["limbered"], -1)[0] if c.team_hit and c.formation == "limbered" else base[c.formation]
    rate = base["mounted" if c.mounted else "dismounted" if c.arm == "cavalry" else "infantry"]
    return ladder_shift(rate, t["movement"]["line_shift"])[0] if c.formation == "line" else rate


def mover(c: Company) -> str:
    if c.artillery:
        return c.formation
    return "mounted" if c.mounted else "infantry"


LINES = ("stream", "works", "wall", "fence")
WALK_YARDS = 5.0  # the ground under a move is read every 5 yards (HT-M4)
CROSSING_YARDS = 60.0  # a stream crossed this close to a bridge or ford costs nothing extra
ROUNDING = 5.0  # yards: the ground reads the ends of a path to the nearest 5 (Ground.kinds_along)
FLEE_YARDS = 1000.0  # a flight heads this far toward the side's own edge (off the map if need be)


RANK = {"clear": 0, "poor": 1, "difficult": 2, "impassable": 3}  # terrain classes, worst last




def going(game: Game, t: HardtackTables, who: str) -> Going:
    """What a mover's walk reads, once per scenario: its terrain classes and their costs (from
    the tables), the area kinds that are not clear going for it, the line kinds that cost it
    something (their segments boxed), the count of its rough cells (:func:`_rough_counts`), and
    whether every kind of area on the ground, as the neutral ground names it, is rough for it."""
    per = terrain(game).goings
    hit = per.get((t, who))
    if hit is None:
        table, segments = t["movement"]["terrain"][who], game.ground.segments
        hard = frozenset(k for k, cls in table.items() if cls != "clear")
        lines = [(kind, [(x1, y1, x2, y2, min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)) for x1, y1, x2, y2 in segments[kind]])
                 for kind in LINES if table.get(kind, "clear") != "clear" and segments.get(kind)]
        hit = per[(t, who)] = (table, t["movement"]["costs"], hard, lines, _rough_counts(game, hard, lines),
                               hard.issuperset(game.ground.kinds))
    return hit



def _rough_counts(game: Game, hard: frozenset[str], lines: list[tuple[str, list[Boxed]]]) -> list[list[int]]:
    """The ground's cells a mover finds rough, counted (geometry.cell_counts): an area kind that
    is not clear going for it (geometry.area_cells), or within the box of a line that costs it something."""
    rough = geo.area_kind_cells(game, hard)
    for _, segments in lines:
        _mark_boxes(game.ground, rough, [(sx0, sx1, sy0, sy1) for *_, sx0, sx1, sy0, sy1 in segments])
    return geo.cell_counts(rough)


def _mark_boxes(ground: Ground, marked: list[list[bool]], boxes: list[tuple[float, float, float, float]]) -> None:
    """Mark the ground's cells (by row, then column) that the boxes (x0, x1, y0, y1) touch."""
    for x0, x1, y0, y1 in boxes:
        for r in range(geo.cell(y0, ground.rows), geo.cell(y1, ground.rows) + 1):
            for c in range(geo.cell(x0, ground.cols), geo.cell(x1, ground.cols) + 1):
                marked[r][c] = True


def disordering_counts(game: Game, t: HardtackTables) -> list[list[int]]:
    """The ground's cells that may disorder a close formation crossing them (p.15, HT-M1: the
    tables' ``disordering`` kinds): of such an area kind (geometry.area_cells), or within the box
    of a segment of such a line; counted (geometry.cell_counts), kept per scenario and tables.
    A walk whose box (widened by :data:`ROUNDING`) holds none of them crosses none."""
    per = terrain(game).disordering
    hit = per.get(t)
    if hit is None:
        kinds, ground = frozenset(t["movement"]["disordering"]), game.ground
        marked = geo.area_kind_cells(game, kinds)
        _mark_boxes(ground, marked, [(min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2))
                                     for kind in sorted(kinds & set(ground.segments)) for x1, y1, x2, y2 in ground.segments[kind]])
        hit = per[t] = geo.cell_counts(marked)
    return hit


def _crossings(segments: list[Boxed], ax: float, ay: float, bx: float, by: float) -> list[float]:
    """Distances (yards from a) at which the segment a-b crosses these segments (those whose box
    the move's box misses are skipped: they cannot cross it)."""
    out = []
    rx, ry = bx - ax, by - ay
    lox, hix, loy, hiy = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)  # (min, max)
    for x1, y1, x2, y2, sx0, sx1, sy0, sy1 in segments:
        if sx1 < lox or sx0 > hix or sy1 < loy or sy0 > hiy:
            continue
        sx, sy = x2 - x1, y2 - y1
        den = rx * sy - ry * sx
        if den == 0:
            continue
        u = ((x1 - ax) * sy - (y1 - ay) * sx) / den
        v = ((x1 - ax) * ry - (y1 - ay) * rx) / den
        if 0.0 <= u <= 1.0 and 0.0 <= v <= 1.0:
            out.append(u * math.hypot(rx, ry))
    return out


def walk(game: Game, t: HardtackTables, c: Company, x: float, y: float, inches: float, road: bool = False) -> tuple[float, frozenset[str], str]:
    """HT-M4: spend ``inches`` of movement points toward (x, y) over the ground actually crossed:
    every inch of area costs its class (clear 1, poor 2, difficult 3; SG2), each line crossed
    costs one inch of its class, impassable ground stops the move. Returns (yards, ground kinds
    crossed, worst class met). On a road (travel mode, HT-M2) the ground is clear (p.14). Computed
    from the rounded ends, so it never depends on history; the answers are kept per scenario
    under exactly those inputs."""
    per = terrain(game).walks
    key = (t, mover(c), round(c.x), round(c.y), round(x), round(y), inches, road)
    hit = per.get(key)
    if hit is None:
        if len(per) > MEMO_LIMIT:
            per.clear()
        hit = per[key] = _walk(game, t, *key[1:])
    return hit


MEMO_LIMIT = 200_000


def _walk(game: Game, t: HardtackTables, who: str, ax: int, ay: int, bx: int, by: int, inches: float, road: bool) -> tuple[float, frozenset[str], str]:
    ypi = t.yards_per_inch
    span, far = math.hypot(bx - ax, by - ay), inches * ypi
    reach = min(span, far)
    if reach <= 0:
        return 0.0, frozenset(), "clear"
    ux, uy = (bx - ax) / span, (by - ay) / span
    ex, ey = ax + ux * reach, ay + uy * reach
    table, costs, hard, lines, counts, everywhere = going(game, t, who)
    west, east, south, north = min(ax, ex) - ROUNDING, max(ax, ex) + ROUNDING, min(ay, ey) - ROUNDING, max(ay, ey) + ROUNDING
    if geo.none_in_box(game.ground, counts, west, east, south, north):
        return reach, frozenset(), "clear"  # the box of the move (and of the ends the ground rounds) holds no rough cell
    events: list[tuple[float, str]] = []
    for kind, segments in () if road else lines:
        x0, x1, y0, y1 = game.ground.extents[kind]
        if x1 < west or x0 > east or y1 < south or y0 > north:
            continue  # the move's box misses the box round every line of this kind
        for at in _crossings(segments, ax, ay, ex, ey):
            px, py = ax + ux * at, ay + uy * at
            if kind == "stream" and any(game.ground.near(k, px, py, CROSSING_YARDS) for k in ("bridge", "ford")):
                continue
            events.append((at, kind))
    # all clear ground (drawn fields and open ground alike): the whole move; never where every kind
    # of area is rough for the mover (as in the bundled tables: "fields" are Cultivated, HT-M9)
    if not events and (road or not everywhere and game.ground.kinds_along(ax, ay, ex, ey).isdisjoint(hard)):
        return reach, frozenset(), "clear"
    events.sort()
    n = len(events)
    area, cols, rows = geo.area_cells(game)
    points = inches * ypi  # movement points in yards of clear ground
    kinds: set[str] = set()
    worst = "clear"
    done, nxt, here, cls, per = 0.0, 0, -1, "clear", 1
    while done < reach:
        rest = reach - done
        step = min(WALK_YARDS, rest)
        while nxt < n and events[nxt][0] <= done + step:
            kind = events[nxt][1]
            line = table.get(kind, "clear")
            kinds.add(kind)
            if RANK[line] > RANK[worst]:
                worst = line
            if line == "impassable":
                return done, frozenset(kinds), worst
            points -= (costs[line] - 1) * ypi
            nxt += 1
        cell = _middle_cell(ax, ay, ux, uy, done + step / 2, cols, rows)  # the ground under the middle of the step
        fresh = cell != here
        if fresh:  # (a cell's kind, class and cost are read once while the walk stays in it)
            here, kind = cell, area[cell]
            cls = table.get(kind, "clear")
            if cls == "impassable":
                return done, frozenset(kinds), worst
            if cls != "clear":
                kinds.add(kind)
                if RANK[cls] > RANK[worst]:
                    worst = cls
            per = costs.get(cls, 1)
        cost = step * per if cls != "clear" else step
        if cost > points:
            done += max(0.0, points) / per if cls != "clear" else max(0.0, points)
            break
        points -= cost
        done += step
        if fresh and step == WALK_YARDS:  # the whole steps that follow, on ground of this kind and crossing no line, at once
            more = _paid_steps(done, reach, points, cost, events[nxt][0] if nxt < n else math.inf)
            last = _middle_cell(ax, ay, ux, uy, done + (more - 1) * WALK_YARDS + WALK_YARDS / 2, cols, rows) if more else here
            # each coordinate only grows or only shrinks along the path, so every middle between
            # lies in the box of cells from this one to the last's: if those are all of this
            # kind, each step reads what this one did and costs the same (whole yards: the sums are exact)
            if more and geo.one_kind(game, here, last):
                points -= more * cost
                done += more * WALK_YARDS
                here = last
    return done, frozenset(kinds), worst


def _middle_cell(ax: float, ay: float, ux: float, uy: float, along: float, cols: int, rows: int) -> int:
    """The ground cell (row * cols + column; geometry.area_cells) under the point ``along``
    yards from a on the path a + t u: where a walk reads the ground, at the middle of each step."""
    return geo.cell(ay + uy * along, rows) * cols + geo.cell(ax + ux * along, cols)


def _paid_steps(done: float, reach: float, points: float, cost: float, line: float) -> int:
    """How many whole steps (WALK_YARDS) a walk ``done`` yards along may take next, each paid in
    full at ``cost``, before it comes within a step of ``reach`` or of the next ``line`` crossed
    (yards along): each such step reads its cell and pays for it, and nothing else. Counted in
    floating point, then checked exactly (whole steps and costs in whole yards add up exactly)."""
    most = max(0, int(min(reach - done, line - done, points / cost * WALK_YARDS) // WALK_YARDS))
    while most and (done + most * WALK_YARDS > reach or done + most * WALK_YARDS >= line or most * cost > points):
        most -= 1
    return most


def move_yards(game: Game, t: HardtackTables, c: Company, x: float, y: float, travel: bool) -> tuple[float, frozenset[str]]:
    """Yards one Move action covers toward (x, y) over the ground crossed (HT-M4); travel mode
    for columns and limbered guns while the ground stays clear (p.14, HT-M2)."""
    base = base_inches(t, c)
    if travel and (c.formation == "column" and not c.artillery or c.formation == "limbered"):
        mv = t["movement"]
        span = math.hypot(x - c.x, y - c.y)
        far = min(1.0, base * mv["road_travel"] * t.yards_per_inch / span) if span else 0.0
        ex, ey = c.x + (x - c.x) * far, c.y + (y - c.y) * far
        if game.ground.near("road", c.x, c.y, mv["road_yards"]) and game.ground.near("road", ex, ey, mv["road_yards"]):
            yards, kinds, worst = walk(game, t, c, x, y, base * mv["road_travel"], road=True)
            if worst == "clear":
                return yards, kinds
        elif not c.artillery:
            yards, kinds, worst = walk(game, t, c, x, y, base * mv["clear_travel"])
            if worst == "clear":
                return yards, kinds
    yards, kinds, _ = walk(game, t, c, x, y, base)
    return yards, kinds


def step_toward(game: Game, state: HardtackState, c: Company, x: float, y: float, yards: float, enemies: list[Company],
                halt: float = STOP_SHORT) -> float:
    """Move straight toward (x, y) up to ``yards``, halting ``halt`` yards short of any enemy and
    where a close formation would meet another (HT-M7); disordered by the companies it passes
    through (:func:`pass_through`)."""
    way = _way(state, c, x, y, yards, enemies, halt, None)
    if way is None:
        return 0.0
    travel, ux, uy, passed, _ = way
    cx, cy = c.x, c.y
    put(game, c, cx + ux * travel, cy + uy * travel)
    if travel or c.x != cx or c.y != cy:  # (a company off the table is set on its edge even where it cannot move)
        state.moved(c)
    if travel:
        c.in_position = False
        pass_through(game, state, c, passed)
    return travel


def how_far(state: HardtackState, c: Company, x: float, y: float, yards: float, enemies: list[Company],
            among: list[Company]) -> tuple[float, list[Company]]:
    """How far a company of a regimental formation moving as one may go toward (x, y), as
    :func:`step_toward` would take it (``among``: see :func:`friends_in_way`), without moving it:
    the formation moves as far as its most hindered company, and is disordered by its caller.
    With the friends near its way (:func:`friends_in_way`'s third answer): all it may meet going
    no further toward (x, y)."""
    way = _way(state, c, x, y, yards, enemies, STOP_SHORT, among)
    return (0.0, []) if way is None else (way[0], way[4])


def _way(state: HardtackState, c: Company, x: float, y: float, yards: float, enemies: list[Company], halt: float,
         among: list[Company] | None) -> tuple[float, float, float, list[Company], list[Company]] | None:
    """How far ``c`` may go straight toward (x, y), up to ``yards``: ``halt`` yards short of any
    enemy, and as far as :func:`friends_in_way` lets it; with the direction, the friends it
    passes through and those near its way. None when it does not move at all (no way, or no yards)."""
    dx, dy = x - c.x, y - c.y
    span = math.hypot(dx, dy)
    if span < 1e-6 or yards <= 0:
        return None
    travel = min(span, yards)
    ux, uy = dx / span, dy / span
    cx, cy, near = c.x, c.y, travel + halt
    for e in enemies:
        ex, ey = e.x - cx, e.y - cy
        if abs(ex) > near or abs(ey) > near:
            continue
        along = ex * ux + ey * uy
        across = abs(ex * uy - ey * ux)
        if along > 0 and across < halt:
            travel = max(0.0, min(travel, along - math.sqrt(max(halt * halt - across * across, 0.0))))
            near = travel + halt
    travel, passed, friends = friends_in_way(state, c, ux, uy, travel, among)
    return travel, ux, uy, passed, friends


def put(game: Game, c: Company, x: float, y: float) -> None:
    """Set ``c`` at (x, y), held on the table (Scenario.on_table)."""
    c.x, c.y = game.scenario.on_table(x, y)


TOUCH_YARDS = 1.0  # HT-M7: footprints that overlap by no more than this only touch (companies side by side)
WAY_MARGIN = 100.0  # yards: no two half-footprints add up to more (two 12-figure cavalry skirmish lines of 5-man figures: 90)


def formation_way(state: HardtackState, reg: Regiment, group: list[Company], dx: float, dy: float, yards: float,
                  enemies: list[Company]) -> tuple[float, list[list[Company]]]:
    """How far ``reg``'s regimental formation ``group``, moving as one (p.15), may go along
    (dx, dy), up to ``yards``: as far as its most hindered company (:func:`how_far`), while only
    its companies move. Asked once for the formation: the friends and the enemies near its way are
    found once, in the box its companies' centres sweep (:func:`swept`), and each company looks
    only at those. With, for each company, the friends near its way (all it can meet going no
    further: :func:`friends_in_way`)."""
    x0, x1, y0, y1 = swept(group, dx * yards, dy * yards)
    way = min(WAY_MARGIN, 2.0 * geo.widest(state, reg.side)[0] + 2.0)  # (friends_in_way's ``most``, for any company of the side)
    among = friends_near(state, reg, x0 - way, x1 + way, y0 - way, y1 + way)
    # an enemy halts a company only within STOP_SHORT of its path (_way): nearer the swept box
    # than that, and a yard to spare for rounding
    m = STOP_SHORT + 1.0
    ahead = [e for e in enemies if x0 - m <= e.x <= x1 + m and y0 - m <= e.y <= y1 + m]
    ways = [how_far(state, c, c.x + dx * yards, c.y + dy * yards, yards, ahead, among) for c in group]
    return min([far for far, _ in ways]), [near for _, near in ways]


def swept(movers: list[Company], x: float, y: float) -> tuple[float, float, float, float]:
    """The box (x0, x1, y0, y1) round the movers' centres where they stand and carried (x, y)
    further: every centre's path lies in it."""
    x0, x1, y0, y1 = box_of(movers)
    return x0 + min(0.0, x), x1 + max(0.0, x), y0 + min(0.0, y), y1 + max(0.0, y)


def friends_near(state: HardtackState, reg: Regiment, x0: float, x1: float, y0: float, y1: float) -> list[Company]:
    """The living companies of ``reg``'s side, not its own, whose centres lie in the box (x0, x1,
    y0, y1) widened by a yard to spare for rounding: given the box of the paths of ``reg``'s
    moving companies widened by :data:`WAY_MARGIN`, all that :func:`friends_in_way` can look at
    for their moves (the others keep their places; their formations are read there afresh)."""
    x0, x1, y0, y1 = x0 - 1.0, x1 + 1.0, y0 - 1.0, y1 + 1.0
    return [f for group in state.groups_in(reg.side, x0, x1, y0, y1, reg) for f in group if x0 <= f.x <= x1 and y0 <= f.y <= y1]


def friends_in_way(state: HardtackState, c: Company, ux: float, uy: float, travel: float,
                   among: Iterable[Company] | None = None) -> tuple[float, list[Company], list[Company]]:
    """HT-M7 (p.15): how far ``c`` may go along (ux, uy) among the companies of other friendly
    regiments, and those it passes through on the way (only close formations, when ``c`` is not
    in one: :func:`pass_through` does nothing else with them). It passes through a company when its
    footprint, carried along the move, comes to overlap that company's (by more than a touch)
    where it did not at the start. Anyone may pass through a company not in close formation, and anyone not in
    close formation (skirmishers, broken and routed companies, guns) through a close one; a close
    formation halts where it would meet another. ``among``, when given, holds every friend that
    may be in the way (:func:`friends_near`), in the order :meth:`HardtackState.groups_in` gives.
    Third, the friends near enough to the way to be tested exactly (their footprints and ``c``'s
    within reach of it, two yards to spare): every friend that ``c`` could meet going no further
    along (nearly) the same way, while the friends keep their formations (a regimental
    formation's second pass, activation._move_formation, asks only about them)."""
    if travel <= 0 or among is not None and not among:  # (no move, or no friend near it)
        return travel, [], []
    hw, hd, radius = geo.half_footprint(state, c)
    close = c.close
    # a friend's footprint, widened by c's, lies within ``radius`` and its own half-diagonal of
    # its centre, so only centres that near the path matter: within ``most`` (the side's widest
    # footprint that c may meet, geometry.widest; 2 yards to spare), and the path's box widened
    # by as much, or by WAY_MARGIN if that is less, holds them all
    most = radius + geo.widest(state, c.side)[0 if close else 1] + 2.0
    way = min(WAY_MARGIN, most)
    ax, ay = c.x, c.y
    bx, by = ax + ux * travel, ay + uy * travel
    lo_x, hi_x = min(ax, bx) - way, max(ax, bx) + way  # the path's box, widened
    lo_y, hi_y = min(ay, by) - way, max(ay, by) + way
    met: list[tuple[float, str, Company]] = []
    near: list[Company] = []
    if among is None:
        among = chain.from_iterable(state.groups_in(c.side, lo_x, hi_x, lo_y, hi_y, c.regiment))
    for f in among:
        # a company not in close formation passing one not in close formation changes nothing
        if lo_x <= f.x <= hi_x and lo_y <= f.y <= hi_y and (close or f.close):
            px, py = f.x - ax, f.y - ay
            across, along = px * uy - py * ux, px * ux + py * uy
            if abs(across) > most or not -most <= along <= travel + most:
                continue  # off the strip round the path that any footprint of the side could reach
            fw, fd, f_radius = geo.half_footprint(state, f)
            # the widened footprint lies within ``reach`` of f's centre (2 yards to spare): a path
            # that keeps further away cannot enter it, and the exact test is left for the others
            reach = radius + f_radius + 2.0
            if abs(across) > reach or not -reach <= along <= travel + reach:
                continue
            near.append(f)
            at = geo.entry(f, fw + hw - TOUCH_YARDS, fd + hd - TOUCH_YARDS, ax, ay, bx, by)
            if at is not None:
                met.append((at, f.id, f))
    if not met:  # (the common case: nothing to sort)
        return travel, [], near
    passed: list[Company] = []
    for at, _, f in sorted(met):
        if c.close and f.close:
            return at * travel, passed, near
        passed.append(f)
    return travel, passed, near


def pass_through(game: Game, state: HardtackState, c: Company, passed: list[Company]) -> None:
    """HT-M7 (p.15, p.7): a close formation that moves through a company, or has one move
    through it, is disordered (it drops into skirmish order)."""
    if not passed:
        return
    names = ", ".join(f.id for f in passed)
    for f in ([c] if c.close else []) + [f for f in passed if f.close]:
        f.form("skirmish")
        state.touch(f)
        text = f"{c.id} is disordered moving through {names}" if f is c else f"{f.id} is disordered: {c.id} moves through it"
        game.log.emit("disordered", unit=f.id, rulings=["HT-M7"], text=text)


def rearward(game: Game, c: Company) -> tuple[float, float]:
    rad = math.radians(game.scenario.home_edges.get(c.side, 180.0))
    return c.x + 1000.0 * math.sin(rad), c.y + 1000.0 * math.cos(rad)


def flee(game: Game, state: HardtackState, c: Company) -> None:
    """A broken or routed company runs for its own rear (SG2), paying for the ground it crosses
    (HT-M6; gun crews as before); off the map it is gone, its men left the field or, over an edge
    that is not its line of retreat, captured (Game.leave_field)."""
    state.touch(c)
    c.in_position = False
    rad = math.radians(game.scenario.home_edges.get(c.side, 180.0))
    sn, cs = math.sin(rad), math.cos(rad)
    t = state_of(game).tables
    inches = base_inches(t, c)
    yards = inches * t.yards_per_inch
    if not c.artillery:  # HT-M6: the flight pays for the ground it crosses, as any move (HT-M4, p.14)
        yards = walk(game, t, c, c.x + FLEE_YARDS * sn, c.y + FLEE_YARDS * cs, inches)[0]
    passed = friends_in_way(state, c, sn, cs, yards)[1]  # HT-M7: by the shortest way
    c.x += yards * sn
    c.y += yards * cs
    pass_through(game, state, c, passed)
    if not (0 <= c.x <= game.scenario.width and 0 <= c.y <= game.scenario.height):
        c.gone = True
        state.forget(c)
        game.leave_field(c.unit.id, c.x, c.y, c.unit.spec.men * c.figures // max(1, sum(k.start for k in c.regiment.companies)))
        put(game, c, c.x, c.y)
    state.moved(c)  # (once it has run: its friends in the way were looked for from where it stood)
