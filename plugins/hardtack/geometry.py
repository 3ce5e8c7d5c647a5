"""What Hardtack asks of the ground: inches, cover, terrain classes, arcs and sight.

Rulings HT-G1 (cover from the neutral ground) and HT-G2 (sight).
"""

from __future__ import annotations

import math
from typing import Any

from referee.core.world import angle_between, bearing

from .state import Company

YARDS_PER_INCH = 10.0
LINE_COVER_YARDS = 25.0
SIGHT_SKIP = 30.0  # yards at each end: a company sees out of the edge of the woods it holds
BLOCKING = frozenset(("woods", "dense-woods", "buildings"))
AREA_COVER = {"woods": "soft", "broken": "soft", "rough": "soft", "dense-woods": "hard", "buildings": "hard"}
LINE_COVER = (("works", "hard"), ("wall", "hard"), ("fence", "soft"))
RANK = ("none", "soft", "hard", "fortification")


def inches(yards: float) -> float:
    return yards / YARDS_PER_INCH


def dist(a: Company, b: Company) -> float:
    return math.hypot(b.x - a.x, b.y - a.y)


def cover(game: Any, c: Company) -> str:
    """HT-G1: works and walls hard, fences soft (within 25 yards); woods, broken and rough
    ground soft; dense woods and buildings hard; the better cover counts."""
    best = AREA_COVER.get(game.ground.kind_at(c.x, c.y), "none")
    for kind, value in LINE_COVER:
        if RANK.index(value) > RANK.index(best) and game.ground.near(kind, c.x, c.y, LINE_COVER_YARDS):
            best = value
    return best


def in_arc(firer: Company, target: Company) -> bool:
    """Hardtack p.17: a close formation fires out of its front half only."""
    return not firer.close or angle_between(firer.facing, bearing(firer.x, firer.y, target.x, target.y)) <= 90.0


def sees(game: Any, a: Company, b: Company) -> bool:
    """HT-G2: woods, dense woods and buildings between two companies block sight."""
    return not any(kind in BLOCKING for kind, _ in game.ground.samples(a.x, a.y, b.x, b.y, SIGHT_SKIP))


def face(c: Company, x: float, y: float) -> None:
    if (x, y) != (c.x, c.y):
        c.facing = bearing(c.x, c.y, x, y)
