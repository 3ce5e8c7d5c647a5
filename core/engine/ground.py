"""The ground, prepared once per scenario so that each lookup costs little.

Areas are rasterised on a grid of :data:`CELL` yards (the last area listed wins where areas
overlap; unlisted ground is open fields); lines (roads, streams, works, bridges, fords) are
kept as segments with their bounding boxes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from math import floor
from typing import Any

from .world import Feature, Point, Scenario

CELL = 25  # yards (an int: a cell is found by integer division, see _code)
CLEAR_CELLS = 16  # Ground.clearance counts this many cells at most (a cell farther from the kinds counts one more)
CLEAR_YARDS = tuple((d - 1) * CELL - 0.01 for d in range(CLEAR_CELLS + 2))  # by clearance d: see Ground.clearance
RUN = 32  # Ground.runs: a cell's group counts this much (more than any clearance)
MEMO_LIMIT = 200_000  # answers kept per scenario before the memo starts again
OPEN = "fields"

Segment = tuple[float, float, float, float]


class Ground:
    def __init__(self, scenario: Scenario) -> None:
        self.width, self.height = scenario.width, scenario.height
        self.cols = max(1, math.ceil(self.width / CELL))
        self.rows = max(1, math.ceil(self.height / CELL))
        self.kinds: list[str] = [OPEN]
        self.heights: list[float] = [0.0]
        self.grid = bytearray(self.cols * self.rows)
        for area in scenario.areas:
            self._paint(area.polygon, area.kind, area.height)
        self.segments: dict[str, list[Segment]] = {}
        self.lines: dict[str, list[Feature]] = {}
        self._near: dict[tuple[str, int, int, float], bool] = {}
        self._far: dict[tuple[str, float, int, int], bool] = {}
        self._between: dict[tuple[object, ...], Any] = {}
        self._boxes: dict[tuple[str, ...], list[tuple[float, float, float, float]]] = {}  # clear_of's, by kinds
        self._clear: dict[frozenset[str], bytes] = {}  # clearance's, by kinds
        self._runs: dict[tuple[frozenset[str], ...], bytes] = {}  # runs', by groups
        self.enclosures: dict[str, list[tuple[Point, ...]]] = {}  # kind -> the points of its closed lines
        for feature in scenario.features:
            self.segments.setdefault(feature.kind, []).extend(_segments(feature))
            self.lines.setdefault(feature.kind, []).append(feature)
            if feature.closed:
                self.enclosures.setdefault(feature.kind, []).append(feature.points)
        self.boxed = {  # kind -> each of its segments with its box (least x, greatest x, least y, greatest y)
            kind: [(*_extent(((x1, y1), (x2, y2))), (x1, y1, x2, y2)) for x1, y1, x2, y2 in segments] for kind, segments in self.segments.items()
        }
        self._lines_boxed = {kind: [(*_extent(f.points), f) for f in fs] for kind, fs in self.lines.items()}  # (as boxed)
        self.extents = {kind: _extent([p for f in fs for p in f.points]) for kind, fs in self.lines.items()}  # kind -> the box round its lines

    def _paint(self, polygon: tuple[Point, ...], kind: str, height: float) -> None:
        self.kinds.append(kind)
        self.heights.append(height)
        code = len(self.kinds) - 1
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        c0, c1 = max(0, int(min(xs) // CELL)), min(self.cols - 1, int(max(xs) // CELL))
        r0, r1 = max(0, int(min(ys) // CELL)), min(self.rows - 1, int(max(ys) // CELL))
        for r in range(r0, r1 + 1):
            cy = (r + 0.5) * CELL
            for c in range(c0, c1 + 1):
                if inside((c + 0.5) * CELL, cy, polygon):
                    self.grid[r * self.cols + c] = code

    def _code(self, x: float, y: float, cells: bytes | None = None) -> int:
        """The area code of the cell under a point (or its byte in ``cells``, a table laid out as
        :attr:`grid`: :meth:`clearance`'s); a point off the map reads the nearest edge cell
        (``floor(x) // CELL`` is ``floor(x / CELL)``, in whole numbers)."""
        cols, c, r = self.cols, floor(x) // CELL, floor(y) // CELL
        # clamped by tests, not min and max: with min and max an rff Big Bethel game costs 4.8 % more
        # (124.42 M against 118.70 M instructions: every move and line of sight reads cells here)
        c = 0 if c < 0 else cols - 1 if c >= cols else c
        r = 0 if r < 0 else self.rows - 1 if r >= self.rows else r
        return (self.grid if cells is None else cells)[r * cols + c]

    def kind_at(self, x: float, y: float) -> str:
        """The area kind under a point (``fields`` where no area is drawn)."""
        return self.kinds[self._code(x, y)]

    def height_at(self, x: float, y: float) -> float:
        return self.heights[self._code(x, y)]

    def has(self, kind: str) -> bool:
        """Is there any ground of this kind (area or line) in the scenario?"""
        return kind in self.kinds or kind in self.segments

    def kinds_along(self, ax: float, ay: float, bx: float, by: float) -> frozenset[str]:
        """Every area kind a straight move from a to b passes over (sampled every cell; ends
        to the nearest 5 yards; kept like :meth:`near`)."""
        if len(self.kinds) == 1:
            return frozenset((OPEN,))
        key = ("kinds", 5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5))
        hit: frozenset[str] | None = self._between.get(key)
        if hit is None:
            ax, ay, bx, by = key[1:]
            steps = max(1, int(math.hypot(bx - ax, by - ay) // CELL))
            codes = {self._code(ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps) for i in range(steps + 1)}
            hit = self._remember(key, frozenset(self.kinds[c] for c in codes))
        return hit

    def heights_of(self, kinds: tuple[str, ...], ax: float, ay: float, bx: float, by: float, skip: float) -> tuple[float, ...]:
        """Heights of the cells of these kinds between a and b (to the nearest 5 yards),
        leaving out ``skip`` yards at each end; kept like :meth:`near`."""
        key = (kinds, 5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5), skip)
        hit: tuple[float, ...] | None = self._between.get(key)
        if hit is None:
            hit = self._remember(key, tuple(h for k, h in self.samples(*key[1:5], skip) if k in kinds))
        return hit

    def lies_between(self, kinds: tuple[str, ...], ax: float, ay: float, bx: float, by: float, skip: float) -> bool:
        """Does a cell of these kinds lie between a and b: is :meth:`heights_of` not empty (the
        same points, ends to the nearest 5 yards)? The walk stops at the first; not kept (the
        caller keeps what it asks again)."""
        return self.meets(frozenset(kinds), 5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5), skip)

    def clear_of(self, kinds: tuple[str, ...], ax: float, ay: float, bx: float, by: float) -> bool:
        """Is no cell of these kinds in the box of cells round a and b, 3 yards wider each way
        (more than rounding an end moves it)? Then no sample between them meets one: a quick
        answer before :meth:`heights_of` (:meth:`_cell_boxes`, kept per kinds asked)."""
        boxes = self._boxes.get(kinds)
        if boxes is None:
            boxes = self._boxes[kinds] = self._cell_boxes(kinds)
        west, east, south, north = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        c0, c1, r0, r1 = floor(west - 3.0) // CELL, floor(east + 3.0) // CELL, floor(south - 3.0) // CELL, floor(north + 3.0) // CELL
        for west_, east_, south_, north_ in boxes:
            if c0 <= east_ and west_ <= c1 and r0 <= north_ and south_ <= r1:
                return False
        return True

    def _cell_boxes(self, kinds: tuple[str, ...]) -> list[tuple[float, float, float, float]]:
        """(first column, last column, first row, last row) of the cells of each area code whose
        kind is one of ``kinds``; a box on an edge of the map reaches on without end, as a point
        off the map reads the edge cell (:meth:`_code`), so :meth:`clear_of` needs no clamping."""
        boxes = []
        for code, kind in enumerate(self.kinds):
            if kind in kinds:
                cells = [i for i, c in enumerate(self.grid) if c == code]
                if cells:
                    cols = [i % self.cols for i in cells]
                    box = [min(cols), max(cols), cells[0] // self.cols, cells[-1] // self.cols]
                    boxes.append((-math.inf if box[0] == 0 else box[0], math.inf if box[1] == self.cols - 1 else box[1],
                                  -math.inf if box[2] == 0 else box[2], math.inf if box[3] == self.rows - 1 else box[3]))
        return boxes

    def samples(self, ax: float, ay: float, bx: float, by: float, skip: float = 0.0) -> list[tuple[str, float]]:
        """(kind, height) every cell along a to b, leaving out ``skip`` yards at each end."""
        kinds, heights = self.kinds, self.heights
        return [(kinds[code], heights[code]) for code in self._codes_along(ax, ay, bx, by, skip)]

    def meets(self, kinds: frozenset[str], ax: float, ay: float, bx: float, by: float, skip: float = 0.0) -> bool:
        """Does one of :meth:`samples` (the same points) fall on an area of these kinds? The
        walk stops at the first that does, and reads only the samples that may: from a sample
        whose cell is d cells clear of the kinds (:meth:`clearance`), those that follow less than
        d - 1 cells away along either axis are passed over."""
        length = math.hypot(bx - ax, by - ay)
        if length <= 2 * skip:
            return False
        steps = max(1, int((length - 2 * skip) // CELL))
        span, dx, dy = length - 2 * skip, bx - ax, by - ay
        clear = self.clearance(kinds)
        apart = max(abs(dx), abs(dy)) / length * span / steps  # yards from one sample to the next along the axis it goes further on
        i = 0
        while i <= steps:
            t = (skip + span * i / steps) / length  # (as _codes_along)
            d = self._code(ax + dx * t, ay + dy * t, clear)
            if not d:
                return True
            i += 1 if d == 1 else 1 + int(min(steps, CLEAR_YARDS[d] / apart))
        return False

    def run_at(self, runs: bytes, x: float, y: float) -> tuple[int, float]:
        """From a :meth:`runs` table: the index of the group the ground under the point is in, and
        yards along either axis from the point within which the ground stays in that group (below
        0: none are sure, ``CLEAR_YARDS``)."""
        run = self._code(x, y, runs)
        return run // RUN, CLEAR_YARDS[run % RUN]

    def clearance(self, kinds: frozenset[str]) -> bytes:
        """For each cell (laid out as :attr:`grid`), how many cells away the nearest cell of these
        kinds is, counted as a king moves (0 for one of them, at most :data:`CLEAR_CELLS` + 1): no
        point less than ``CLEAR_YARDS[d]`` ((d - 1) * CELL yards, less a hundredth for rounding)
        along either axis from a point in a cell of clearance d reads a cell of the kinds (off the
        map, the edge cell, as :meth:`_code`). Kept per kinds."""
        found = self._clear.get(kinds)
        if found is None:
            found = self._clear[kinds] = _clearance(self.grid, self.cols, bytes(kind in kinds for kind in self.kinds))
        return found

    def runs(self, groups: tuple[frozenset[str], ...]) -> bytes:
        """For each cell (laid out as :attr:`grid`), :data:`RUN` times the index of the group its
        kind is in (a kind in none: the first), plus its :meth:`clearance` from the kinds of every
        other group: which group the ground is in there, and how far it stays in it. Kept per groups."""
        found = self._runs.get(groups)
        if found is None:
            group = [next((g for g, kinds in enumerate(groups) if kind in kinds), 0) for kind in self.kinds]
            assert len(groups) * RUN <= 256, "a cell's group and clearance are one byte"
            total = int.from_bytes(self.grid.translate(bytes(RUN * g for g in group).ljust(256, b"\0")), "little")
            for g in range(len(groups)):  # (a cell outside the group is in its other groups' kinds: clearance 0)
                total += int.from_bytes(self.clearance(frozenset(k for k, in_ in zip(self.kinds, group) if in_ != g)), "little")
            found = self._runs[groups] = total.to_bytes(len(self.grid), "little")
        return found

    def _codes_along(self, ax: float, ay: float, bx: float, by: float, skip: float) -> Iterator[int]:
        """The area codes of the points :meth:`samples` reads, from a to b."""
        length = math.hypot(bx - ax, by - ay)
        if length <= 2 * skip:
            return
        steps = max(1, int((length - 2 * skip) // CELL))
        span, dx, dy = length - 2 * skip, bx - ax, by - ay
        for i in range(steps + 1):
            t = (skip + span * i / steps) / length
            yield self._code(ax + dx * t, ay + dy * t)

    def crosses(self, kind: str, ax: float, ay: float, bx: float, by: float) -> bool:
        """Does the segment a-b (ends to the nearest 5 yards) cross a line of this kind?"""
        box = self.extents.get(kind)
        if box is None:
            return False
        lo_x, hi_x, lo_y, hi_y = box[0] - 3, box[1] + 3, box[2] - 3, box[3] + 3  # beyond what rounding moves an end
        if (ax < lo_x and bx < lo_x) or (ax > hi_x and bx > hi_x) or (ay < lo_y and by < lo_y) or (ay > hi_y and by > hi_y):
            return False  # most segments miss the box by more than the rounding: no round asked
        x0, y0, x1, y1 = 5 * round(ax / 5), 5 * round(ay / 5), 5 * round(bx / 5), 5 * round(by / 5)
        key = (kind, x0, y0, x1, y1)
        if ((x0 < box[0] and x1 < box[0]) or (x0 > box[1] and x1 > box[1])
                or (y0 < box[2] and y1 < box[2]) or (y0 > box[3] and y1 > box[3])):
            return False  # the segment's box misses every line of this kind
        hit: bool | None = self._between.get(key)
        if hit is None:
            hit = self._remember(key, self._crossing(kind, x0, y0, x1, y1))
        return hit

    def _crossing(self, kind: str, ax: float, ay: float, bx: float, by: float) -> bool:
        """Does a-b cross a line of this kind? Each segment's box (:attr:`boxed`) is tested first
        (most miss it)."""
        west, east = (ax, bx) if ax <= bx else (bx, ax)
        south, north = (ay, by) if ay <= by else (by, ay)
        for west_, east_, south_, north_, s in self.boxed[kind]:
            if east_ < west or west_ > east or north_ < south or south_ > north:
                continue  # the segment's box misses a-b's
            if _straddle(ax, ay, bx, by, s):
                return True
        return False

    def _remember(self, key: tuple[object, ...], value: Any) -> Any:
        if len(self._between) > MEMO_LIMIT:  # bound the memory of a long comparison
            self._between.clear()
        self._between[key] = value
        return value

    def near(self, kind: str, x: float, y: float, within: float) -> bool:
        """Is the point (to the nearest yard) within ``within`` yards of a line of this kind?

        Answers are kept, so a unit standing still costs one look-up; they are computed from
        the rounded point itself, so they never depend on which game asked first."""
        if self._far_from(kind, x, y, within + 0.5):  # before rounding (round costs): the rounded point is no nearer by more than half a yard
            return False
        px, py = round(x), round(y)
        if self._far_cell(kind, px, py, within):
            return False
        key = (kind, px, py, within)
        hit = self._near.get(key)
        if hit is None:
            if len(self._near) > MEMO_LIMIT:  # bound the memory of a long comparison
                self._near.clear()
            hit = self._near[key] = any(_point_segment(px, py, s) <= within for s in self._reaching(kind, px, py, within))
        return hit

    def _far_from(self, kind: str, x: float, y: float, within: float) -> bool:
        """Is the point more than ``within`` yards outside the box round every line of this kind
        (so neither near one nor inside a closed one)?"""
        box = self.extents.get(kind)
        return box is None or x < box[0] - within or x > box[1] + within or y < box[2] - within or y > box[3] + within

    def _far_cell(self, kind: str, x: int, y: int, within: float) -> bool:
        """Is every point of the grid cell holding (x, y) more than ``within`` yards from every
        line of this kind? Its centre is further than that plus half the cell's diagonal (and a
        yard to spare). Kept per kind, distance and cell: most places asked about are new, most
        cells are not."""
        col, row = x // CELL, y // CELL
        key = (kind, within, col, row)
        hit = self._far.get(key)
        if hit is None:
            cx, cy, reach = (col + 0.5) * CELL, (row + 0.5) * CELL, within + CELL * math.sqrt(0.5) + 1.0
            hit = self._far[key] = all(_point_segment(cx, cy, s) > reach for s in self._reaching(kind, cx, cy, reach))
        return hit

    def behind(self, kind: str, x: float, y: float, within: float) -> bool:
        """Is the point (to the nearest yard) covered by a line of this kind: inside it if it is
        closed, within ``within`` yards behind it if it has a front, within ``within`` yards of it
        otherwise? Kept like :meth:`near`."""
        if self._far_from(kind, x, y, within + 0.5):  # before rounding, as in :meth:`near`
            return False
        px, py = round(x), round(y)
        if self._far_cell(kind, px, py, within):  # no line within reach: only a closed one around it covers
            for points in self.enclosures.get(kind, ()):
                if inside(px, py, points):
                    return True
            return False
        key = ("behind", kind, px, py, within)
        hit: bool | None = self._between.get(key)
        if hit is None:
            hit = self._remember(key, any(_covers(line, px, py, within) for line in self._reaching_lines(kind, px, py, within)))
        return hit

    def _reaching(self, kind: str, x: float, y: float, within: float) -> Iterator[Segment]:
        """The segments of this kind that may lie within ``within`` yards of the point: those whose
        box (:attr:`boxed`) it is not further outside than that, and a yard to spare (for the
        rounding of a distance measured), along either axis."""
        reach = within + 1.0
        for west, east, south, north, s in self.boxed.get(kind, ()):
            if west - reach <= x <= east + reach and south - reach <= y <= north + reach:
                yield s

    def _reaching_lines(self, kind: str, x: float, y: float, within: float) -> Iterator[Feature]:
        """The lines of this kind that may cover the point (:func:`_covers`): those whose box the
        point is not further outside than ``within`` yards, and one to spare, along either axis (a
        line further off is further from it, and does not close round it)."""
        reach = within + 1.0
        for west, east, south, north, line in self._lines_boxed.get(kind, ()):
            if west - reach <= x <= east + reach and south - reach <= y <= north + reach:
                yield line



def ground_of(scenario: Scenario) -> Ground:
    """The scenario's prepared ground (built on first use, then kept with it: ``scenario.kept``)."""
    kept = scenario.kept
    if kept.ground is None:
        kept.ground = Ground(scenario)
    return kept.ground


def _clearance(grid: bytearray, cols: int, marked: bytes) -> bytes:
    """:meth:`Ground.clearance` of the cells whose code is marked (``marked[code]`` 1). Each cell
    is a byte of one whole number, rows a spare byte apart (so nothing spreads from one row's end
    into the next row's start): the marked cells spread to their eight neighbours
    :data:`CLEAR_CELLS` times, and each cell counts the spreads that reached it, all in whole
    numbers (no byte can carry into the next: a count is at most CLEAR_CELLS + 1)."""
    rows, width = len(grid) // cols, cols + 1
    cells = grid.translate(marked.ljust(256, b"\0"))
    spread = int.from_bytes(b"".join(cells[r * cols:(r + 1) * cols] + b"\0" for r in range(rows)), "little")
    on_map = int.from_bytes((b"\1" * cols + b"\0") * rows, "little")
    counted, row = 0, 8 * width
    for _ in range(CLEAR_CELLS + 1):
        counted += spread
        spread |= (spread << 8) | (spread >> 8)
        spread = (spread | (spread << row) | (spread >> row)) & on_map
    counts = counted.to_bytes(rows * width, "little").translate(bytes(max(0, CLEAR_CELLS + 1 - n) for n in range(256)))
    return b"".join(counts[r * width:r * width + cols] for r in range(rows))


def inside(x: float, y: float, polygon: tuple[Point, ...]) -> bool:
    """Even-odd point-in-polygon test."""
    hit = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _covers(line: Feature, x: float, y: float, within: float) -> bool:
    if line.closed:
        return inside(x, y, line.points) or any(_point_segment(x, y, s) <= within for s in _segments(line))
    best: tuple[float, Point] | None = None
    for s in _segments(line):
        p = _closest(x, y, s)
        d = math.hypot(p[0] - x, p[1] - y)
        if best is None or d < best[0]:
            best = (d, p)
    if best is None or best[0] > within:
        return False
    if line.front is None:
        return True
    fx, fy = math.sin(math.radians(line.front)), math.cos(math.radians(line.front))
    return (x - best[1][0]) * fx + (y - best[1][1]) * fy <= 0.0  # on the side away from its front


def _extent(points: Iterable[Point]) -> tuple[float, float, float, float]:
    """(least x, greatest x, least y, greatest y) of the points."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), max(xs), min(ys), max(ys)


def _segments(feature: Feature) -> Iterator[Segment]:
    pts = feature.points
    for (x1, y1), (x2, y2) in itertools.pairwise(pts):
        yield (x1, y1, x2, y2)


def _cross(ox: float, oy: float, ax: float, ay: float, bx: float, by: float) -> float:
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def _straddle(ax: float, ay: float, bx: float, by: float, s: Segment) -> bool:
    """Do a-b and the segment s cut each other (each one's ends on either side of the other)?"""
    cx, cy, dx, dy = s
    d1, d2 = _cross(cx, cy, dx, dy, ax, ay), _cross(cx, cy, dx, dy, bx, by)
    d3, d4 = _cross(ax, ay, bx, by, cx, cy), _cross(ax, ay, bx, by, dx, dy)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _closest(x: float, y: float, s: Segment) -> Point:
    x1, y1, x2, y2 = s
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length2))
    return (x1 + t * dx, y1 + t * dy)


def _point_segment(x: float, y: float, s: Segment) -> float:
    px, py = _closest(x, y, s)
    return math.hypot(px - x, py - y)
