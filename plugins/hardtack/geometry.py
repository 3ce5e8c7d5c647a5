"""What Hardtack asks of the ground: inches, cover, terrain classes, arcs and sight.

Rulings HT-G1 (cover from the neutral ground) and HT-G2 (sight).
"""

from __future__ import annotations

import math
import weakref
from typing import Any

from referee.core.world import Scenario, angle_between, bearing

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


_covers: weakref.WeakKeyDictionary[Scenario, dict[tuple[int, int], str]] = weakref.WeakKeyDictionary()
MEMO_LIMIT = 100_000


def cover(game: Any, c: Company) -> str:
    """HT-G1: works and walls hard, fences soft (within 25 yards behind them, or inside a work
    that closes on itself, like a redoubt); woods, broken and rough ground soft; dense woods and buildings
    hard; the better cover counts. Read at the company's place to the nearest yard, and kept:
    computed from the rounded point, so it never depends on which game asked first."""
    kept = c.cover_at
    if kept is not None and kept[0] == c.x and kept[1] == c.y:  # asked before from this very place
        return kept[2]
    memo = cover_memo(game)
    key = (round(c.x), round(c.y))
    hit = memo.get(key)
    if hit is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        hit = memo[key] = _cover_at(game, float(key[0]), float(key[1]))
    c.cover_at = (c.x, c.y, hit)
    return hit


def cover_memo(game: Any) -> dict[tuple[int, int], str]:
    """The scenario's kept cover answers (held by the game's state once mustered)."""
    memo = getattr(game.state, "covers", None)
    if memo is None:
        memo = _covers.get(game.scenario)
        if memo is None:
            memo = _covers[game.scenario] = {}
    return memo


def sight_memo(game: Any) -> dict[tuple[float, float, float, float], bool]:
    memo = getattr(game.state, "sights", None)
    if memo is None:
        memo = _sight.get(game.scenario)
        if memo is None:
            memo = _sight[game.scenario] = {}
    return memo


def _cover_at(game: Any, x: float, y: float) -> str:
    best = AREA_COVER.get(game.ground.kind_at(x, y), "none")
    for kind, value in LINE_COVER:
        if RANK.index(value) > RANK.index(best) and game.ground.behind(kind, x, y, LINE_COVER_YARDS):
            best = value
    return best


def in_arc(firer: Company, target: Company) -> bool:
    """Hardtack p.17: a close formation fires out of its front half only."""
    return not firer.close or angle_between(firer.facing, bearing(firer.x, firer.y, target.x, target.y)) <= 90.0


_sight: weakref.WeakKeyDictionary[Scenario, dict[tuple[float, float, float, float], bool]] = weakref.WeakKeyDictionary()


def sees(game: Any, a: Company, b: Company) -> bool:
    """HT-G2: woods, dense woods and buildings between two companies block sight. Kept per
    scenario under the two exact places (a pure function of them, so it never depends on which
    game asked first): companies standing still ask again every activation."""
    memo = sight_memo(game)
    key = (a.x, a.y, b.x, b.y)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        hit = memo[key] = not any(kind in BLOCKING for kind, _ in game.ground.samples(a.x, a.y, b.x, b.y, SIGHT_SKIP))
    return hit


def face(c: Company, x: float, y: float) -> None:
    if (x, y) != (c.x, c.y):
        c.facing = bearing(c.x, c.y, x, y)
