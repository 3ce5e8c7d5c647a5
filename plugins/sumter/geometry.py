"""Sumter's geometry: units are points in the neutral world's yards (ruling SU-S2), the ground
does not slow them (SU-G3); how far apart, who is nearest, who is within reach (asked of the
world's index of places, :mod:`referee.core.engine.space`), which way a unit faces, and a step toward a
point.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from attrs import frozen
from referee.api import Game, UnitState

from .state import Piece, SumterState


def dist(a: Piece, b: Piece) -> float:
    """Yards between two units' centres."""
    return math.hypot(a.unit.x - b.unit.x, a.unit.y - b.unit.y)


def nearest(p: Piece, others: list[Piece]) -> tuple[Piece | None, float]:
    """The nearest of ``others`` to ``p`` (the first of those equally near) and how far."""
    best, gap = None, math.inf
    x, y = p.unit.x, p.unit.y
    for o in others:
        dx, dy = o.unit.x - x, o.unit.y - y
        d = dx * dx + dy * dy
        if d < gap:
            best, gap = o, d
    return best, math.sqrt(gap)


@frozen
class Foes:
    """A side's enemies while a phase that moves none of them lasts, and the box round them:
    a unit farther than its reach from the box has none of them in reach, and looks at none."""

    pieces: list[Piece]
    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def of(cls, pieces: list[Piece]) -> Foes:
        xs, ys = [e.unit.x for e in pieces] or [0.0], [e.unit.y for e in pieces] or [0.0]
        return cls(pieces, min(xs), min(ys), max(xs), max(ys))

    def beyond(self, p: Piece, reach: float) -> bool:
        """Is every one of them more than ``reach`` yards from ``p`` (a yard more, so that no
        rounding can leave out one in reach)?"""
        x, y = p.unit.x, p.unit.y
        dx = self.x0 - x if x < self.x0 else x - self.x1 if x > self.x1 else 0.0  # (clamped by tests: two calls of max were 3 % of a game)
        dy = self.y0 - y if y < self.y0 else y - self.y1 if y > self.y1 else 0.0
        far = reach + 1.0
        return dx * dx + dy * dy > far * far


def enemies_near(game: Game, state: SumterState, p: Piece, keep: Callable[[Piece], bool] | None = None,
                 reach: float | None = None, among: list[Piece] | None = None) -> list[Piece]:
    """The enemies of ``p`` that pass ``keep`` (by default: the live ones) and could be its
    nearest (``reach`` None), or stand within about ``reach`` yards, in the order of
    ``state.enemies``: asked of the world's index of places (:mod:`referee.core.engine.space`), not of
    every enemy. ``among``: the enemies that pass ``keep``, if the caller has them listed (a
    small side is answered by the list)."""
    pieces, world, u = state.pieces, game.world, p.unit
    if not world.space.big or not world.space.indexed(world.enemy(p.side)):  # (no side held in a tree: a small battle)
        if among is not None:
            return among
        return state.enemies(p.side) if keep is None else [e for e in state.enemies(p.side) if keep(e)]
    def test(e: UnitState) -> bool:
        piece = pieces[e.id]
        return piece.live if keep is None else keep(piece)
    side = world.enemy(p.side)
    found = (world.space.candidates(side, u.x, u.y, test) if reach is None else world.space.near(side, u.x, u.y, reach, test))
    return [pieces[e.id] for e in found]


def step_toward(game: Game, p: Piece, gx: float, gy: float, yards: float) -> float:
    """Move ``p`` up to ``yards`` toward (gx, gy), facing that way; returns the yards moved."""
    u = p.unit
    dx, dy = gx - u.x, gy - u.y
    d = math.hypot(dx, dy)
    if d < 1e-9 or yards <= 0:
        return 0.0
    go = min(d, yards)
    u.facing = math.degrees(math.atan2(dx, dy)) % 360.0
    u.x, u.y = game.scenario.on_table(u.x + dx / d * go, u.y + dy / d * go)
    return go


def flanked(target: Piece, by: Piece) -> bool:
    """Is ``by`` off ``target``'s front (more than 45 degrees from its facing; SU-G4)?"""
    u, v = target.unit, by.unit
    bearing = math.degrees(math.atan2(v.x - u.x, v.y - u.y)) % 360.0
    off = abs(bearing - u.facing) % 360.0
    return min(off, 360.0 - off) > 45.0
