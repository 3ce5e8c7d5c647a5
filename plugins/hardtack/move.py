"""Moving companies (Hardtack pp.13-15): base mobility, line shift, travel mode, terrain
classes, disordering ground, and the flight of broken and routed companies."""

from __future__ import annotations

import math
from typing import Any

from referee.core.chance import ladder_shift

from . import geometry as geo
from .state import Company, HardtackState

STOP_SHORT = 15.0  # yards: a move halts this far from an enemy it does not assault (Hardtack p.15)


def base_inches(t: Any, c: Company) -> int:
    """The base move: by arm and mount, limbered or not; a line shifts it down one (p.15)."""
    base = t["movement"]["base"]
    if c.artillery:
        return base[c.formation]
    rate = base["mounted"] if c.mounted else base["infantry"]
    return ladder_shift(rate, t["movement"]["line_shift"])[0] if c.formation == "line" else rate


def mover(c: Company) -> str:
    if c.artillery:
        return c.formation
    return "mounted" if c.mounted else "infantry"


def terrain_class(game: Any, t: Any, c: Company, x: float, y: float) -> tuple[str, set[str]]:
    """The worst terrain class on the way (and the ground kinds crossed)."""
    kinds = game.ground.kinds_along(c.x, c.y, x, y)
    if game.ground.crosses("stream", c.x, c.y, x, y) and not any(
            game.ground.near(k, (c.x + x) / 2, (c.y + y) / 2, 60.0) or game.ground.crosses(k, c.x, c.y, x, y) for k in ("bridge", "ford")):
        kinds = kinds | {"stream"}
    for kind in ("works", "wall", "fence"):
        if game.ground.segments.get(kind) and game.ground.crosses(kind, c.x, c.y, x, y):
            kinds = kinds | {kind}
    table = t["movement"]["terrain"][mover(c)]
    classes = {table.get(k, "clear") for k in kinds}
    for worst in ("impassable", "difficult", "poor"):
        if worst in classes:
            return worst, kinds
    return "clear", kinds


def move_yards(game: Any, t: Any, c: Company, x: float, y: float, travel: bool) -> tuple[float, set[str]]:
    """Yards one Move action covers toward (x, y); travel mode for columns (p.14)."""
    cls, kinds = terrain_class(game, t, c, x, y)
    if cls == "impassable":
        return 0.0, kinds
    inches = base_inches(t, c) / t["movement"]["costs"][cls]
    if travel and cls == "clear" and (c.formation == "column" and not c.artillery or c.formation == "limbered"):
        mv = t["movement"]
        on_road = game.ground.near("road", c.x, c.y, mv["road_yards"]) and game.ground.near("road", x, y, mv["road_yards"])
        if on_road:
            inches *= mv["road_travel"]
        elif not c.artillery:
            inches *= mv["clear_travel"]
    return inches * geo.YARDS_PER_INCH, kinds


def step_toward(game: Any, state: HardtackState, c: Company, x: float, y: float, yards: float, enemies: list[Company],
                halt: float = STOP_SHORT) -> float:
    """Move straight toward (x, y) up to ``yards``, halting ``halt`` yards short of any enemy."""
    dx, dy = x - c.x, y - c.y
    span = math.hypot(dx, dy)
    if span < 1e-6 or yards <= 0:
        return 0.0
    travel = min(span, yards)
    ux, uy = dx / span, dy / span
    for e in enemies:
        ex, ey = e.x - c.x, e.y - c.y
        if abs(ex) > travel + halt or abs(ey) > travel + halt:
            continue
        along = ex * ux + ey * uy
        across = abs(ex * uy - ey * ux)
        if along > 0 and across < halt:
            travel = max(0.0, min(travel, along - math.sqrt(max(halt * halt - across * across, 0.0))))
    c.x = min(max(c.x + ux * travel, 0.0), game.scenario.width)
    c.y = min(max(c.y + uy * travel, 0.0), game.scenario.height)
    return travel


def rearward(game: Any, c: Company) -> tuple[float, float]:
    rad = math.radians(game.scenario.home_edges.get(c.side, 180.0))
    return c.x + 1000.0 * math.sin(rad), c.y + 1000.0 * math.cos(rad)


def flee(game: Any, state: HardtackState, c: Company) -> None:
    """A broken or routed company runs for its own rear (SG2); off the map it is gone, its men
    not casualties."""
    state.touch(c)
    rad = math.radians(game.scenario.home_edges.get(c.side, 180.0))
    yards = base_inches(game.state.tables, c) * geo.YARDS_PER_INCH
    c.x += yards * math.sin(rad)
    c.y += yards * math.cos(rad)
    if not (0 <= c.x <= game.scenario.width and 0 <= c.y <= game.scenario.height):
        c.gone = True
        c.x = min(max(c.x, 0.0), game.scenario.width)
        c.y = min(max(c.y, 0.0), game.scenario.height)
        game.log.emit("leaves", unit=c.id, text=f"{c.id} leaves the field")
