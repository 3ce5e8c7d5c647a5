"""What Hardtack asks of the ground: inches, cover, terrain classes, arcs and sight.

Rulings HT-G1 (cover from the neutral ground), HT-G2 (sight) and HT-G4 (the close-formation arc
of fire and firing through friendly companies, p.17).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import chain

from attrs import define
from referee.api import CELL, Game, Ground, angle_between, bearing, depth, frontage, inside
from referee.api import OPEN as OPEN_KIND

from .state import CLOSE, Company, HardtackState, box_of, state_of, terrain
from .tables import HardtackTables

LINE_COVER_YARDS = 25.0
SIGHT_SKIP = 30.0  # yards at each end: a company sees out of the edge of the woods it holds
BLOCKING = frozenset(("woods", "dense-woods", "buildings"))
AREA_COVER = {"woods": "soft", "broken": "soft", "rough": "soft", "dense-woods": "hard", "buildings": "hard"}
LINE_COVER = (("works", "hard"), ("wall", "hard"), ("fence", "soft"))
RANK = ("none", "soft", "hard", "fortification")


def inches(t: HardtackTables, yards: float) -> float:
    """Yards as table inches, at the tables' scale ([scale] yards_per_inch, p.1)."""
    per_inch: float = t.yards_per_inch
    return yards / per_inch


def dist(a: Company, b: Company) -> float:
    return math.hypot(b.x - a.x, b.y - a.y)


MEMO_LIMIT = 100_000


def cover(game: Game, c: Company) -> str:
    """HT-G1: works and walls hard, fences soft (within 25 yards behind them, or inside a work
    that closes on itself, like a redoubt); woods, broken and rough ground soft; dense woods and buildings
    hard; the better cover counts. Read at the company's place to the nearest yard, and kept:
    computed from the rounded point, so it never depends on which game asked first."""
    kept = c.cover_at
    if kept is not None and kept[0] == c.x and kept[1] == c.y:  # asked before from this very place
        return kept[2]
    memo = terrain(game).covers
    key = (round(c.x), round(c.y))
    hit = memo.get(key)
    if hit is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        hit = memo[key] = _cover_at(game, float(key[0]), float(key[1]))
    c.cover_at = (c.x, c.y, hit)
    return hit



def _cover_at(game: Game, x: float, y: float) -> str:
    best = AREA_COVER.get(game.ground.kind_at(x, y), "none")
    for kind, value in LINE_COVER:
        if RANK.index(value) > RANK.index(best) and game.ground.behind(kind, x, y, LINE_COVER_YARDS):
            best = value
    return best


def visibility(game: Game) -> float:
    """HT-V1: how far, in yards, a company can see to fire at the world's minute: unlimited in
    daylight; from sunset to dusk (``Light.dusk``, else sunset + the tables' minutes) falling
    evenly from the sunset distance to the dusk one; after dusk, the night's by the moon."""
    light, t = game.scenario.light, state_of(game).tables["light"]
    if light.sunset is None or game.world.minute < light.sunset:
        return float("inf")
    dusk = light.dusk if light.dusk is not None else light.sunset + t["dusk_minutes"]
    if game.world.minute >= dusk:
        return float(t["night_yards"][light.moon])
    done = (game.world.minute - light.sunset) / max(1, dusk - light.sunset)
    return float(t["sunset_yards"] + (t["dusk_yards"] - t["sunset_yards"]) * done)


def in_arc(firer: Company, target: Company) -> bool:
    """Hardtack p.17: a close formation fires out of its front half only."""
    return not firer.close or angle_between(firer.facing, bearing(firer.x, firer.y, target.x, target.y)) <= 90.0


MASK_MARGIN = 40.0  # yards: no company's half-footprint is larger (a 12-figure line of 5-man figures is 18)


def screen(state: HardtackState, c: Company, targets: list[Company], last: Company | None = None) -> Screen:
    """The friends that may mask ``c``'s lines of fire to ``targets`` (HT-G4): those in close
    formation whose centres stand in the box of ``c`` and the targets, :data:`MASK_MARGIN` yards
    wider (each line's own box lies in it), in the side's order. A search that tests many lines
    screens once and tests each line against these (nothing moves or changes formation
    meanwhile); ``last``: the friend across the line it tested before (:class:`Screen`)."""
    x0, x1, y0, y1 = box_of([c, *targets])
    x0, x1, y0, y1 = x0 - MASK_MARGIN, x1 + MASK_MARGIN, y0 - MASK_MARGIN, y1 + MASK_MARGIN
    return Screen([f for f in state.around(c.side, x0, x1, y0, y1) if x0 <= f.x <= x1 and y0 <= f.y <= y1 and f.formation in CLOSE and f is not c], last)


@define(eq=False, slots=True)
class Screen:
    """A target search's screened friends (:func:`screen`), in the side's order, and ``last``,
    the friend found across the last line it tested (or None). A line whose masker need not be
    named (:func:`masked`) is tested against ``last`` first: lines from one firer to targets
    near each other tend to pass through the same friend (in a crowd, the rank in front of
    it), so most such lines need no scan of the friends."""

    friends: list[Company]
    last: Company | None = None


def masked(state: HardtackState, c: Company, e: Company, friends: Screen | None = None, named: bool = True) -> str | None:
    """HT-G4 (p.17): why ``c`` may not fire at ``e``, or None. A column does not fire (every
    member must see the target without firing through another member of his own company); a
    line of fire, traced from the firer's centre to the target's, may not pass through a
    friendly company in close formation (line or column). Skirmishers, gun crews and broken or
    routed companies (in skirmish order, p.12) do not mask; nor does a company whose footprint
    holds the firer's or the target's centre (it stands among them, not across the line).

    The friend named is the first in the side's order across the line; unless ``named`` is
    False, when the caller asks only whether the line is masked: then it is any friend across
    it (``friends.last`` tried first). ``friends``, when given, hold every friend that may stand
    across the line (:func:`screen`); else those round the line are asked for. While only one
    company acts (``state.aims.masks`` is set), its friends stand still, so the answers are kept
    under the firer's place and formation and the target's place (an unnamed one apart)."""
    if c.formation == "column":
        return "column"
    memo = state.aims.masks
    if memo is None:
        return _masked(state, c, e, friends, named)
    key: tuple[object, ...] = (c.id, c.x, c.y, c.formation, e.id, e.x, e.y)
    if key not in memo and not named:
        key = (*key, "any")  # an unnamed answer is kept apart: one asked named may not take it
    if key not in memo:
        memo[key] = _masked(state, c, e, friends, named)
    masker: str | None = memo[key]
    return masker


def _masked(state: HardtackState, c: Company, e: Company, friends: Screen | None, named: bool) -> str | None:
    ax, ay, bx, by = c.x, c.y, e.x, e.y
    rx, ry = bx - ax, by - ay
    span = math.hypot(rx, ry)
    lo_x, hi_x = min(ax, bx) - MASK_MARGIN, max(ax, bx) + MASK_MARGIN
    lo_y, hi_y = min(ay, by) - MASK_MARGIN, max(ay, by) + MASK_MARGIN
    most = (widest(state, c.side)[1] + 1.0) * span  # (no friend in close formation has a wider footprint)
    if friends is None:
        near: Iterable[Company] = state.around(c.side, lo_x, hi_x, lo_y, hi_y)
    else:
        near = friends.friends if named or friends.last is None else chain((friends.last,), friends.friends)
    for f in near:
        if lo_x <= f.x <= hi_x and lo_y <= f.y <= hi_y and f.close and f is not c:
            # a footprint whose centre stands further from the line of fire than its corners (and
            # a yard to spare) cannot be crossed: the exact test is left for the others
            off = abs((f.x - ax) * ry - (f.y - ay) * rx)
            if off > most:
                continue
            hw, hd, radius = half_footprint(state, f)
            if off <= (radius + 1.0) * span and _crosses(f, hw, hd, ax, ay, bx, by):
                if friends is not None:
                    friends.last = f
                masker: str = f.id
                return masker
    return None


def half_footprint(state: HardtackState, c: Company) -> tuple[float, float, float]:
    """Half the frontage, half the depth and the half-diagonal of a company's footprint (its men
    = figures x men per figure; ``core/engine/footprint.py``), kept on the company with its figures,
    formation and guns."""
    kept = c.halves
    if kept is not None and kept[0] == c.figures and kept[1] == c.formation and kept[2] == c.guns:
        return kept[3]
    hit = _half_footprint(c.arm, c.figures * state.men_per_figure, c.guns, c.formation)
    c.halves = (c.figures, c.formation, c.guns, hit)
    return hit


FORMATIONS = ("line", "column", "skirmish", "limbered", "unlimbered")  # every formation a company may stand in


def widest(state: HardtackState, side: str) -> tuple[float, float]:
    """The largest half-diagonal (:func:`half_footprint`) any company of ``side`` can have this
    game: in any formation, and in a close one (line or column). Each company is taken at its
    starting figures and guns, which it never exceeds (a footprint grows with both), so the
    bound holds whatever happens; kept on the state for the game (``HardtackState.widest``)."""
    hit = state.widest.get(side)
    if hit is None:
        mpf, every, close = state.men_per_figure, 0.0, 0.0
        for reg in state.by_side.get(side, ()):
            for c in reg.companies:
                for formation in FORMATIONS:
                    radius = _half_footprint(c.arm, c.start * mpf, int(c.artillery), formation)[2]
                    every = max(every, radius)
                    close = max(close, radius) if formation in CLOSE else close
        hit = state.widest[side] = (every, close)
    return hit


_halves: dict[tuple[str, int, int, str], tuple[float, float, float]] = {}


def _half_footprint(arm: str, men: int, guns: int, formation: str) -> tuple[float, float, float]:
    """Half the frontage, half the depth and the half-diagonal of a footprint, kept by its
    inputs (a pure function of them)."""
    key = (arm, men, guns, formation)
    hit = _halves.get(key)
    if hit is None:
        hw, hd = frontage(arm, men, guns, formation) / 2.0, depth(arm, men, guns, formation) / 2.0
        hit = _halves[key] = (hw, hd, math.hypot(hw, hd))
    return hit


def _ends(f: Company, ax: float, ay: float, bx: float, by: float) -> tuple[float, float, float, float]:
    """The segment a-b as (across, ahead) from f's centre, turned to its facing: (u0, v0, u1, v1)."""
    rad = math.radians(f.facing)
    cs, sn = math.cos(rad), math.sin(rad)
    ax, ay, bx, by = ax - f.x, ay - f.y, bx - f.x, by - f.y
    return ax * cs - ay * sn, ax * sn + ay * cs, bx * cs - by * sn, bx * sn + by * cs


def _crosses(f: Company, hw: float, hd: float, ax: float, ay: float, bx: float, by: float) -> bool:
    """Does the segment a-b pass through f's footprint (hw across, hd ahead of its centre, turned
    to its facing), neither end standing inside it?"""
    u0, v0, u1, v1 = _ends(f, ax, ay, bx, by)
    if abs(u0) <= hw and abs(v0) <= hd or abs(u1) <= hw and abs(v1) <= hd:
        return False
    return _clip(u0, v0, u1, v1, hw, hd) is not None


def entry(f: Company, hw: float, hd: float, ax: float, ay: float, bx: float, by: float) -> float | None:
    """Where (0 to 1 along it) the segment a-b enters f's footprint box (hw across, hd ahead,
    turned to its facing); None if it misses the box or a already stands in it."""
    u0, v0, u1, v1 = _ends(f, ax, ay, bx, by)
    if abs(u0) <= hw and abs(v0) <= hd:
        return None
    return _clip(u0, v0, u1, v1, hw, hd)


def _clip(u0: float, v0: float, u1: float, v1: float, hw: float, hd: float) -> float | None:
    """Liang-Barsky: where the segment (u0, v0)-(u1, v1) enters the box |u| <= hw, |v| <= hd, or None."""
    t0, t1 = 0.0, 1.0
    du, dv = u1 - u0, v1 - v0
    for p, q in ((-du, u0 + hw), (du, hw - u0), (-dv, v0 + hd), (dv, hd - v0)):
        if p == 0.0:
            if q < 0.0:
                return None
            continue
        r = q / p
        if p < 0.0:
            t0 = max(t0, r)
        elif r < t1:
            t1 = r
        if t0 > t1:
            return None
    return t0


def sees(game: Game, a: Company, b: Company) -> bool:
    """HT-G2: woods, dense woods and buildings between two companies block sight. Kept per
    scenario under the two exact places (a pure function of them, so it never depends on which
    game asked first): companies standing still ask again every activation."""
    memo = terrain(game).sights
    key = (a.x, a.y, b.x, b.y)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        ground = game.ground
        hit = memo[key] = (none_in_box(ground, _blocking_counts(game), min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y))
                           or not ground.meets(BLOCKING, a.x, a.y, b.x, b.y, SIGHT_SKIP))
    return hit


def _blocking_counts(game: Game) -> list[list[int]]:
    """The scenario's cells of ground that blocks sight, counted (:func:`cell_counts`): a line of
    sight whose box holds none is clear, whatever the ground samples along it."""
    kept = terrain(game)
    hit = kept.blocking
    if hit is None:
        hit = kept.blocking = cell_counts(kind_cells(game.ground, BLOCKING))
    return hit


def cell(v: float, n: int) -> int:
    """The ground cell (column or row) of a coordinate, as the ground reads it."""
    i = int(v) // CELL
    return 0 if i < 0 else n - 1 if i >= n else i  # (clamped as Ground._code clamps)


def kind_cells(ground: Ground, kinds: frozenset[str]) -> list[list[bool]]:
    """Which of the ground's cells (by row, then column) are of these area kinds."""
    return [[ground.kind_at((c + 0.5) * CELL, (r + 0.5) * CELL) in kinds for c in range(ground.cols)] for r in range(ground.rows)]


OPEN = "open"  # HT-M9: ground no scenario area covers (the neutral world reads it as "fields")


def cultivated_cells(game: Game) -> list[list[bool]]:
    """HT-M9: the cells (by row, then column) of farm fields the scenario draws as areas, as
    opposed to the open ground the neutral world also calls ``fields`` where no area is drawn;
    a cell is read at its centre, as the ground paints it. Kept per scenario."""
    kept = terrain(game)
    hit = kept.cultivated
    if hit is None:
        ground, drawn = game.ground, [a.polygon for a in game.scenario.areas if a.kind == OPEN_KIND]
        boxes = [(min(x for x, _ in p), max(x for x, _ in p), min(y for _, y in p), max(y for _, y in p), p) for p in drawn]
        hit = kept.cultivated = [
            [ground.kind_at(x, y) == OPEN_KIND and any(x0 <= x <= x1 and y0 <= y <= y1 and inside(x, y, p) for x0, x1, y0, y1, p in boxes)
             for x in ((c + 0.5) * CELL for c in range(ground.cols))]
            for y in ((r + 0.5) * CELL for r in range(ground.rows))]
    return hit


def area_cells(game: Game) -> tuple[list[str], int, int]:
    """The area kind of every ground cell, row by row (:func:`area_kinds`), with the ground's
    columns and rows: a point's kind is that of its cell (:func:`cell`, as ``Ground._code``
    finds it: clamped to the ground). This is how Hardtack's terrain classes
    read the ground (p.14, HT-M9): the neutral kind, except that ground no area covers is
    ``open`` (Open, clear going), while drawn ``fields`` stay ``fields`` (Cultivated, poor going)."""
    ground = game.ground
    kinds = terrain(game).area_kinds
    return kinds if kinds is not None else area_kinds(game), ground.cols, ground.rows


def area_kinds(game: Game) -> list[str]:
    """The area kind of every ground cell (row by row), as :func:`area_cells` reads it; kept per
    scenario (walks read one every few yards)."""
    kept = terrain(game)
    hit = kept.area_kinds
    if hit is None:
        ground, marks = game.ground, cultivated_cells(game)
        hit = kept.area_kinds = [
            kind if kind != OPEN_KIND or marks[r][c] else OPEN
            for r in range(ground.rows) for c in range(ground.cols)
            for kind in (ground.kind_at((c + 0.5) * CELL, (r + 0.5) * CELL),)]
    return hit


def area_kind_cells(game: Game, kinds: frozenset[str]) -> list[list[bool]]:
    """:func:`kind_cells` as :func:`area_cells` reads the ground."""
    ground, every = game.ground, area_kinds(game)
    return [[every[r * ground.cols + c] in kinds for c in range(ground.cols)] for r in range(ground.rows)]


def one_kind(game: Game, a: int, b: int) -> bool:
    """Are the cells in the box from cell ``a`` to cell ``b`` (indices of :func:`area_cells`)
    all of ``a``'s area kind? Each kind's cells are counted once a scenario (:func:`cell_counts`;
    ``Terrain.kind_counts``)."""
    kinds, cols = area_kinds(game), game.ground.cols
    kind = kinds[a]
    per = terrain(game).kind_counts
    counts = per.get(kind)
    if counts is None:
        counts = per[kind] = cell_counts(area_kind_cells(game, frozenset((kind,))))
    (r0, c0), (r1, c1) = divmod(a, cols), divmod(b, cols)
    r0, r1, c0, c1 = min(r0, r1), max(r0, r1), min(c0, c1), max(c0, c1)
    inside_ = counts[r1 + 1][c1 + 1] - counts[r0][c1 + 1] - counts[r1 + 1][c0] + counts[r0][c0]
    return inside_ == (r1 - r0 + 1) * (c1 - c0 + 1)


def cell_counts(marked: list[list[bool]]) -> list[list[int]]:
    """Running counts of marked cells (a summed-area table): any box is counted in four look-ups."""
    rows, cols = len(marked), len(marked[0])
    counts = [[0] * (cols + 1) for _ in range(rows + 1)]
    for r in range(rows):
        run = 0
        for c in range(cols):
            run += marked[r][c]
            counts[r + 1][c + 1] = counts[r][c + 1] + run
    return counts


def none_in_box(ground: Ground, counts: list[list[int]], x0: float, x1: float, y0: float, y1: float) -> bool:
    """Does the box (in yards; x0 <= x1, y0 <= y1) hold no marked cell?"""
    cols, rows = ground.cols, ground.rows
    c0, c1, r0, r1 = cell(x0, cols), cell(x1, cols), cell(y0, rows), cell(y1, rows)
    return counts[r1 + 1][c1 + 1] - counts[r0][c1 + 1] - counts[r1 + 1][c0] + counts[r0][c0] == 0


def face(c: Company, x: float, y: float) -> None:
    if (x, y) != (c.x, c.y):
        c.facing = bearing(c.x, c.y, x, y)
