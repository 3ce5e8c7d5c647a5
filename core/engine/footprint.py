"""A unit's footprint on the ground, in yards, from its men (or guns) and formation.

Neutral figures from the drill books of the period: infantry in line stands in two ranks at
about 22 inches a file (so about one yard of front for every three men); a company column
shows a tenth of that front; a march column is four files wide; skirmishers open to about
three times the front of the line. Cavalry in line: two ranks, a yard a horse. Guns stand 14
yards apart. Rulesets measure ranges, flanks and contact from these shapes.
"""

from __future__ import annotations

import math

from .world import UnitState

GUN_INTERVAL = 14.0
MIN_FRONT = 8.0


def frontage(arm: str, men: int, guns: int, formation: str) -> float:
    """Width of the unit's front in yards."""
    if arm == "artillery":
        return max(MIN_FRONT, guns * GUN_INTERVAL) if formation == "unlimbered" else MIN_FRONT
    line = men / 2 * (1.0 if arm == "cavalry" else 0.61)
    return max(MIN_FRONT, {"line": line, "column": line / 10, "march-column": 4.0, "skirmish": line * 3}.get(formation, line))


def depth(arm: str, men: int, guns: int, formation: str) -> float:
    """Depth of the unit in yards, front to rear."""
    if arm == "artillery":
        return 40.0 if formation == "unlimbered" else max(20.0, guns * 18.0)
    ranks = {"line": 2, "skirmish": 1}.get(formation)
    if ranks is not None:
        return 2.0 * ranks
    files = frontage(arm, men, guns, formation) * (2 if arm == "cavalry" else 1.6)
    return max(4.0, men / max(files, 1.0) * (3.0 if arm == "cavalry" else 1.0))


def footprint(unit: UnitState) -> tuple[float, float]:
    """(frontage, depth) of a unit now."""
    return (frontage(unit.spec.arm, unit.men, unit.guns, unit.formation),
            depth(unit.spec.arm, unit.men, unit.guns, unit.formation))


def gap(a: UnitState, b: UnitState) -> float:
    """Yards between two units, edge to edge (centres less half of each one's depth)."""
    return max(0.0, math.hypot(b.x - a.x, b.y - a.y) - footprint(a)[1] / 2 - footprint(b)[1] / 2)
