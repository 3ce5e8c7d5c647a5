"""Where the units stand: a spatial index of the neutral world, so that "who is within R yards",
"the nearest enemy" and "what stands between two points" cost about log n, not n.

One :class:`Space` per world (``world.space``), one k-d tree per side of more than
:data:`SMALL` units. Such a side's units are of :class:`~referee.core.engine.world.TrackedUnit`, whose
``x`` and ``y`` setter calls :meth:`Space.moved`: that is the one place of invalidation, and it
only marks the unit's side stale. A stale side's tree is rebuilt at its next question (n log n), so a phase that moves many
units and then asks many questions pays one build, and a side that did not move pays none.

A k-d tree rather than a uniform grid: the doctrine asks every unit for its nearest enemy however
far that is, and on a large field most units are far from the nearest enemy, where a grid's
search grows with the square of the distance in cells; a tree's stays near log n at every
distance and needs no cell size.

Every answer is in world order (the order of ``world.units``), so a caller that scans the answer
as it scanned every unit before breaks ties the same way. :meth:`Space.candidates` and
:meth:`Space.near` give every unit that could be the answer, for callers that measure and break
ties by their own rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .world import UnitState

LEAF = 8  # units in a leaf of the tree
SMALL = 32  # a side with no more units than this is answered by a scan (a tree would cost more)
SLACK = 1e-9  # relative: candidates for "nearest" reach this far past the nearest, for rounding in callers' measures

Entry = tuple[float, float, int, "UnitState"]  # x, y, rank in world order, the unit
Node = list[Entry] | tuple[int, float, "Node", "Node"]  # a leaf, or (axis, split, low, high)
Keep = Callable[["UnitState"], bool]


class Space:
    """The units of one world by place: one k-d tree per side, rebuilt when that side has moved."""

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
        self.trees: dict[str, Node] = {}  # side -> its tree; absent: stale

    def moved(self, unit: UnitState) -> None:
        """``unit``'s place is about to change: its side's tree is stale (the setter hook's call)."""
        self.trees.pop(unit.side, None)

    def _tree(self, side: str) -> Node:
        tree = self.trees.get(side)
        if tree is None:
            rank = self.rank
            tree = self.trees[side] = _build([(u.x, u.y, rank[u.id], u) for u in self.members.get(side, ())])
        return tree

    def indexed(self, side: str) -> bool:
        """Whether ``side`` is answered by its tree; a side of at most :data:`SMALL` units is
        answered by a scan (its units kept by ``keep``), which a caller holding them listed may
        do itself."""
        return side in self.big

    def near(self, side: str, x: float, y: float, r: float, keep: Keep | None = None) -> list[UnitState]:
        """The units of ``side`` (kept by ``keep``) within about the square of half-side ``r``
        round (x, y), in world order: every unit within ``r`` yards and perhaps a few more."""
        if side not in self.big:
            return [u for u in self.members.get(side, ()) if keep is None or keep(u)]
        found: list[Entry] = []
        r = r * (1.0 + SLACK) + SLACK  # never short of the callers' own measures
        _box(self._tree(side), x - r, x + r, y - r, y + r, found)
        return [e[3] for e in sorted(found, key=_rank) if keep is None or keep(e[3])]

    def within(self, side: str, x: float, y: float, r: float, keep: Keep | None = None) -> list[UnitState]:
        """The units of ``side`` (kept by ``keep``) at most ``r`` yards from (x, y), by
        ``math.hypot``, in world order."""
        return [u for u in self.near(side, x, y, r, keep) if math.hypot(u.x - x, u.y - y) <= r]

    def candidates(self, side: str, x: float, y: float, keep: Keep | None = None) -> list[UnitState]:
        """Every unit of ``side`` (kept by ``keep``) that could be the nearest to (x, y), ties
        included, in world order: a scan of these finds what a scan of them all would."""
        if side not in self.big:
            return [u for u in self.members.get(side, ()) if keep is None or keep(u)]
        seen: list[tuple[float, Entry]] = []
        best = _nearest(self._tree(side), x, y, keep, math.inf, seen)
        close = best * (1.0 + SLACK) + SLACK * SLACK
        return [e[3] for e in sorted((e for d, e in seen if d <= close), key=_rank)]

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
        x0, x1, y0, y1 = min(ax, bx) - width, max(ax, bx) + width, min(ay, by) - width, max(ay, by) + width
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / 2
        out = [u for side in (self.members if sides is None else sides)
               for u in self.near(side, cx, cy, half, keep) if segment_distance(u.x, u.y, ax, ay, bx, by) <= width]
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
    """A k-d tree of ``entries``, split at the median across the wider spread: the low half holds
    places at or below the split, the high half at or above."""
    if len(entries) <= LEAF:
        return entries
    xs = [e[0] for e in entries]
    ys = [e[1] for e in entries]
    axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
    entries.sort(key=_x if axis == 0 else _y)
    mid = len(entries) // 2
    split = entries[mid][0] if axis == 0 else entries[mid][1]
    return (axis, split, _build(entries[:mid]), _build(entries[mid:]))


def _x(e: Entry) -> float:
    return e[0]


def _y(e: Entry) -> float:
    return e[1]


def _box(node: Node, x0: float, x1: float, y0: float, y1: float, found: list[Entry]) -> None:
    """Add to ``found`` the entries under ``node`` inside the box (edges included)."""
    while isinstance(node, tuple):
        axis, split, low, high = node
        lo, hi = (x0, x1) if axis == 0 else (y0, y1)
        if lo <= split and hi >= split:
            _box(low, x0, x1, y0, y1, found)
            node = high
        elif hi < split:
            node = low
        else:
            node = high
    found.extend(e for e in node if x0 <= e[0] <= x1 and y0 <= e[1] <= y1)


def _nearest(node: Node, x: float, y: float, keep: Keep | None, best: float, seen: list[tuple[float, Entry]]) -> float:
    """The least squared distance from (x, y) to a kept entry under ``node``, if less than
    ``best``; every kept entry within about ``best`` when it was met is added to ``seen`` with its
    squared distance (so those within about the final least are all there: a branch is left only
    when all of it is farther)."""
    if isinstance(node, list):
        for e in node:
            dx, dy = e[0] - x, e[1] - y
            d = dx * dx + dy * dy
            if d <= best * (1.0 + SLACK) + SLACK * SLACK and (keep is None or keep(e[3])):
                seen.append((d, e))
                best = min(best, d)
        return best
    axis, split, low, high = node
    gap = (x if axis == 0 else y) - split
    first, second = (high, low) if gap >= 0 else (low, high)
    best = _nearest(first, x, y, keep, best, seen)
    if gap * gap <= best * (1.0 + SLACK) + SLACK * SLACK:
        best = _nearest(second, x, y, keep, best, seen)
    return best
