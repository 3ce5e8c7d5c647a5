"""Where the units stand: a spatial index of the neutral world, so that "who is within R yards",
"the nearest enemy" and "what stands between two points" cost about log n, not n.

One :class:`Space` per world (``world.space``), one k-d tree per side of more than
:data:`SMALL` units. Such a side's units are of :class:`~referee.core.engine.world.TrackedUnit`, whose
``x`` and ``y`` setter calls :meth:`Space.moved`: that is the one place of invalidation. A unit
that moves is put in its side's *moved* set; the tree still holds its old place but skips it, and
every question scans the moved units at their present places. Once the questions since the
last build have scanned as many moved units as the side has units (what a build looks at), the
next rebuilds the tree (n log n) and empties the set: scans never cost much more than the builds
they spare. So a phase that moves a few units between questions (a retreat, then a question
about the friends in its way) pays no build, one that moves many and then asks many questions
pays one, and a side that did not move pays none.

A k-d tree rather than a uniform grid: the doctrine asks every unit for its nearest enemy however
far that is, and on a large field most units are far from the nearest enemy, where a grid's
search grows with the square of the distance in cells; a tree's stays near log n at every
distance and needs no cell size. Each node keeps the box round its units, and a search leaves a
node whose box is farther than what it has found (rather than one whose splitting line is).

Every answer is in world order (the order of ``world.units``), so a caller that scans the answer
as it scanned every unit before breaks ties the same way. :meth:`Space.candidates` and
:meth:`Space.near` give every unit that could be the answer, for callers that measure and break
ties by their own rule; :meth:`Space.nearests` gives every asking unit's nearest at once (the
doctrine's question). A small side is scanned: sorted along the axis on which the two sides stand
apart and searched outward from each unit's place, it was looked at three times less but cost
more (docs/performance.md, "The core"). What its scan told a unit is told again while neither
that unit nor any of the side's kept units has moved, or come to be kept or not
(:attr:`Space.asked`: the list of the kept units and their places, compared as a whole, is that
answer's one test).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .records import STRICT

if TYPE_CHECKING:
    from .world import UnitState

LEAF = 8  # units in a leaf of the tree
SMALL = 32  # a side with no more units than this is answered by a scan (a tree would cost more)
SLACK = 1e-9  # relative: candidates for "nearest" reach this far past the nearest, for rounding in callers' measures

Entry = tuple[float, float, int, "UnitState"]  # x, y, rank in world order, the unit (its place when the tree was built)
Leaf = tuple[float, float, float, float, list[Entry]]  # the box round its entries (west, east, south, north), the entries
Node = Leaf | tuple[float, float, float, float, "Node", "Node"]  # a leaf, or a box and its two halves
Keep = Callable[["UnitState"], bool]
Nearest = tuple["UnitState | None", float]  # a unit's nearest and how far, or (None, inf)
Asked = tuple[list[tuple["UnitState", float, float]], dict[str, tuple[float, float, Nearest]]]
"""What :meth:`Space.nearests` told while a side's kept units stood as they stand: those units,
each with its place, and each unit told, with where it stood and its answer."""


class Space:
    """The units of one world by place: one k-d tree per side, and the units moved since it was built."""

    def __init__(self, units: Iterable[UnitState]) -> None:
        self.rank: dict[str, int] = {}
        self.members: dict[str, list[UnitState]] = {}
        for i, u in enumerate(units):
            self.rank[u.id] = i
            self.members.setdefault(u.side, []).append(u)
        self.big = frozenset(side for side, mine in self.members.items()  # sides answered by a tree: their units tell of every move
                             if len(mine) > SMALL and all(getattr(u, "TRACKED", False) for u in mine))
        for side in self.big:  # (only these point back: a small battle's world holds no cycle for the collector)
            for u in self.members[side]:
                u.space = self
        self.trees: dict[str, Node] = {}  # side -> its tree; absent: to be built at the next question
        self.moves: dict[str, dict[int, UnitState]] = {}  # side -> its units moved since its tree was built, by rank
        self.scanned: dict[str, int] = {}  # side -> moved units its questions have scanned since its tree was built
        self.asked: dict[str, Asked] = {}  # side answered by a scan -> what :meth:`nearests` told while it stood as it stands

    def moved(self, unit: UnitState) -> None:
        """``unit``'s place is about to change (the setter hook's call): its side's tree skips it
        from now on, and questions look at it where it stands."""
        if unit.side in self.trees:
            self.moves[unit.side][self.rank[unit.id]] = unit

    def _tree(self, side: str) -> tuple[Node, dict[int, UnitState]]:
        """The side's tree and its moved units (rebuilt if missing or too many have moved)."""
        tree, moves = self.trees.get(side), self.moves.get(side)
        if moves:
            self.scanned[side] += len(moves)
        if tree is None or moves is None or self.scanned[side] >= len(self.members[side]):
            rank = self.rank
            tree = self.trees[side] = _build([(u.x, u.y, rank[u.id], u) for u in self.members[side]])
            moves = self.moves[side] = {}
            self.scanned[side] = 0
        return tree, moves

    def indexed(self, side: str) -> bool:
        """Whether ``side`` is answered by its tree; a side of at most :data:`SMALL` units is
        answered by a scan (its units kept by ``keep``), which a caller holding them listed may
        do itself."""
        return side in self.big

    def near(self, side: str, x: float, y: float, r: float, keep: Keep | None = None) -> list[UnitState]:
        """The units of ``side`` (kept by ``keep``) within about the square of half-side ``r``
        round (x, y), in world order: every unit within ``r`` yards and perhaps a few more."""
        r = r * (1.0 + SLACK) + SLACK  # never short of the callers' own measures
        return self._inside(side, x - r, x + r, y - r, y + r, keep)

    def _inside(self, side: str, x0: float, x1: float, y0: float, y1: float, keep: Keep | None) -> list[UnitState]:
        """The units of ``side`` (kept by ``keep``) inside the box (edges included; every unit of
        a side answered by a scan), in world order."""
        if side not in self.big:
            return [u for u in self.members.get(side, ()) if keep is None or keep(u)]
        tree, moves = self._tree(side)
        found: list[Entry] = []
        _box(tree, x0, x1, y0, y1, found)
        if moves:
            found = [e for e in found if e[2] not in moves]
            found.extend((u.x, u.y, i, u) for i, u in moves.items() if x0 <= u.x <= x1 and y0 <= u.y <= y1)
        return [e[3] for e in sorted(found, key=_rank) if keep is None or keep(e[3])]

    def within(self, side: str, x: float, y: float, r: float, keep: Keep | None = None) -> list[UnitState]:
        """The units of ``side`` (kept by ``keep``) at most ``r`` yards from (x, y), by
        ``math.hypot``, in world order."""
        return [u for u in self.near(side, x, y, r, keep) if math.hypot(u.x - x, u.y - y) <= r]

    def occupied(self, side: str, x: float, y: float, r: float, keep: Keep | None = None) -> bool:
        """Whether any unit of ``side`` (kept by ``keep``) stands at most ``r`` yards from (x, y),
        by ``math.hypot``: the search stops at the first found."""
        if side not in self.big:
            return any(math.hypot(u.x - x, u.y - y) <= r and (keep is None or keep(u)) for u in self.members.get(side, ()))
        tree, moves = self._tree(side)
        if any(math.hypot(u.x - x, u.y - y) <= r and (keep is None or keep(u)) for u in moves.values()):
            return True
        return _any(tree, x, y, r, r * r * (1.0 + SLACK) + SLACK, keep, moves)

    def candidates(self, side: str, x: float, y: float, keep: Keep | None = None) -> list[UnitState]:
        """Every unit of ``side`` (kept by ``keep``) that could be the nearest to (x, y), ties
        included, in world order: a scan of these finds what a scan of them all would."""
        if side not in self.big:
            return [u for u in self.members.get(side, ()) if keep is None or keep(u)]
        tree, moves = self._tree(side)
        seen: list[tuple[float, Entry]] = []
        best = math.inf
        for i, u in moves.items():  # the moved first, where they stand: their nearest bounds the tree's search
            if keep is None or keep(u):
                dx, dy = u.x - x, u.y - y
                d = dx * dx + dy * dy
                seen.append((d, (u.x, u.y, i, u)))
                best = min(best, d)
        best = _nearest(tree, x, y, keep, best, seen, moves)
        close = best * (1.0 + SLACK) + SLACK * SLACK
        return [e[3] for e in sorted((e for d, e in seen if d <= close), key=_rank)]

    def nearests(self, side: str, units: Iterable[UnitState], keep: Keep | None = None) -> list[tuple[UnitState | None, float]]:
        """:meth:`nearest` to each of ``units`` where it stands, asked at once while none moves.
        A side answered by a scan has its kept units listed once and scanned for each unit,
        unless they are the units kept when the unit was told its nearest, each where it stood,
        and the unit stands where it stood: then the answer is what it was told (:attr:`asked`,
        kept while the side's kept units stand as they stood: the doctrine asks every turn, and
        the side asked about has often stood still since, for about a third of the units a sumter
        game asks about)."""
        if side in self.big:
            return [self.nearest(side, u.x, u.y, keep) for u in units]
        stand = [(e, e.x, e.y) for e in self.members.get(side, ()) if keep is None or keep(e)]  # the kept, where they stand
        last = self.asked.get(side)
        if last is not None and last[0] == stand:
            told = last[1]  # what was told while they stood so: still true of a unit standing where it stood
        else:
            told = {}
            self.asked[side] = (stand, told)
        out: list[Nearest] = []
        for u in units:
            x, y = u.x, u.y
            was = told.get(u.id)
            if was is not None and was[0] == x and was[1] == y:  # it and all it looked at stand where they stood
                answer = was[2]
                if STRICT:  # the suite's build: checked against the scan
                    assert answer == self.nearest(side, x, y, keep), u.id
            else:
                found, best = None, math.inf
                for e, ex, ey in stand:  # (compared by squares: no root per unit; the first of those equally near)
                    dx, dy = ex - x, ey - y
                    d = dx * dx + dy * dy
                    if d < best:
                        found, best = e, d
                answer = (found, math.inf if found is None else math.hypot(found.x - x, found.y - y))
                told[u.id] = (x, y, answer)
            out.append(answer)
        return out

    def nearest(self, side: str, x: float, y: float, keep: Keep | None = None) -> tuple[UnitState | None, float]:
        """The nearest unit of ``side`` (kept by ``keep``) to (x, y) and how far: by squared
        distance, the first in world order of those equally near."""
        best, d2 = None, math.inf
        for u in self.candidates(side, x, y, keep):
            dx, dy = u.x - x, u.y - y
            d = dx * dx + dy * dy
            if d < d2:
                best, d2 = u, d
        return best, (math.inf if best is None else math.hypot(best.x - x, best.y - y))

    def between(self, ax: float, ay: float, bx: float, by: float, width: float, sides: Iterable[str] | None = None,
                keep: Keep | None = None) -> list[UnitState]:
        """The units (of ``sides``, every side by default; kept by ``keep``) at most ``width``
        yards from the segment from (ax, ay) to (bx, by), in world order."""
        pad = width * (1.0 + SLACK) + SLACK  # (never short of the measure below)
        x0, x1, y0, y1 = min(ax, bx) - pad, max(ax, bx) + pad, min(ay, by) - pad, max(ay, by) + pad
        out = [u for side in (self.members if sides is None else sides)
               for u in self._inside(side, x0, x1, y0, y1, keep) if segment_distance(u.x, u.y, ax, ay, bx, by) <= width]
        rank = self.rank
        return sorted(out, key=lambda u: rank[u.id])


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Yards from (px, py) to the segment from (ax, ay) to (bx, by)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    along = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - along * dx, py - ay - along * dy)


def _rank(e: Entry) -> int:
    return e[2]


def _build(entries: list[Entry]) -> Node:
    """A k-d tree of ``entries``, split at the median across the wider spread; every node holds
    the box round its entries."""
    xs = [e[0] for e in entries]
    ys = [e[1] for e in entries]
    west, east, south, north = (min(xs), max(xs), min(ys), max(ys)) if entries else (math.inf, -math.inf, math.inf, -math.inf)
    if len(entries) <= LEAF:
        return (west, east, south, north, entries)
    entries.sort(key=_x if east - west >= north - south else _y)
    mid = len(entries) // 2
    return (west, east, south, north, _build(entries[:mid]), _build(entries[mid:]))


def _x(e: Entry) -> float:
    return e[0]


def _y(e: Entry) -> float:
    return e[1]


def _box(node: Node, x0: float, x1: float, y0: float, y1: float, found: list[Entry]) -> None:
    """Add to ``found`` the entries under ``node`` inside the box (edges included)."""
    if node[0] > x1 or node[1] < x0 or node[2] > y1 or node[3] < y0:
        return
    if len(node) == 5:
        found.extend(e for e in node[4] if x0 <= e[0] <= x1 and y0 <= e[1] <= y1)
    else:
        _box(node[4], x0, x1, y0, y1, found)
        _box(node[5], x0, x1, y0, y1, found)


def _any(node: Node, x: float, y: float, r: float, reach: float, keep: Keep | None, skip: dict[int, UnitState]) -> bool:
    """Whether a kept entry under ``node`` (not in ``skip``) is at most ``r`` from (x, y); a node
    whose box is farther than ``reach`` (about r squared) is left."""
    if _gap(node, x, y) > reach:
        return False
    if len(node) == 5:
        return any(math.hypot(e[0] - x, e[1] - y) <= r and e[2] not in skip and (keep is None or keep(e[3])) for e in node[4])
    return _any(node[4], x, y, r, reach, keep, skip) or _any(node[5], x, y, r, reach, keep, skip)


def _gap(node: Node, x: float, y: float) -> float:
    """The squared distance from (x, y) to the box of ``node`` (0 inside it)."""
    dx = node[0] - x if x < node[0] else x - node[1] if x > node[1] else 0.0
    dy = node[2] - y if y < node[2] else y - node[3] if y > node[3] else 0.0
    return dx * dx + dy * dy


def _nearest(node: Node, x: float, y: float, keep: Keep | None, best: float, seen: list[tuple[float, Entry]],
             skip: dict[int, UnitState]) -> float:
    """The least squared distance from (x, y) to a kept entry under ``node`` (those in ``skip``
    left out), if less than ``best``; every kept entry within about ``best`` when it was met is
    added to ``seen`` with its squared distance (so those within about the final least are all
    there: a node is left only when all of its box is farther)."""
    if len(node) == 5:
        for e in node[4]:
            dx, dy = e[0] - x, e[1] - y
            d = dx * dx + dy * dy
            if d <= best * (1.0 + SLACK) + SLACK * SLACK and e[2] not in skip and (keep is None or keep(e[3])):
                seen.append((d, e))
                best = min(best, d)
        return best
    first, second = node[4], node[5]
    near, far = _gap(first, x, y), _gap(second, x, y)
    if far < near:
        first, second, near, far = second, first, far, near
    if near <= best * (1.0 + SLACK) + SLACK * SLACK:
        best = _nearest(first, x, y, keep, best, seen, skip)
    if far <= best * (1.0 + SLACK) + SLACK * SLACK:
        best = _nearest(second, x, y, keep, best, seen, skip)
    return best
