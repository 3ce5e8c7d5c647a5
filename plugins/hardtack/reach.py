"""What a regiment can do now, for the commander (hook ``referee_capabilities``; rulings HT-CR1 to
HT-CR3, HT-O7): its close assault reach from the base move of its companies that may assault,
measured from its place (its companies in good order), its move from its companies in good order,
its fire ranges from the range bands of its quality die, at 10 yards to the inch (p.1)."""

from __future__ import annotations

import math
from functools import cache

from referee.api import Capabilities, Game

from . import assault, fire, mechanics, move
from .state import Company, HardtackState, centre_of, in_order, state_of
from .tables import HardtackTables

RULINGS = ("HT-A1", "HT-CR1", "HT-CR2", "HT-O7")
ACTIONS = 2  # a company's actions in one activation (SG2; p.7)


def capabilities(game: Game, unit: str) -> Capabilities | None:
    state: HardtackState = state_of(game)
    reg = state.regiments.get(unit)
    alive = [c for c in reg.companies if c.alive] if reg is not None else []
    if not alive:
        return None
    t, ypi = state.tables, state.tables.yards_per_inch
    body = in_order(alive)  # HT-O7: the companies in good order, whose centre is the regiment's place
    # HT-CR1: a Move and the assault's own move (a normal move, HT-A1), at the slowest rate of the
    # companies that may assault, from the one nearest the enemy: as far again as the farthest of
    # them is from the regiment's place (whence the doctrine measures)
    cx, cy = centre_of(body)
    going = [k for k in body if assault.may_assault(k)] or body
    spread = max(math.hypot(k.x - cx, k.y - cy) for k in going)
    charge = ACTIONS * min(move.base_inches(t, k) for k in going) * ypi + spread
    moves = ACTIONS * min(move.base_inches(t, k) for k in body) * ypi  # HT-CR3: two Moves of its slowest company in good order
    effective, close = _ranges(t, body[0])
    why = _why_not(alive)
    return Capabilities(charge, effective * ypi, close * ypi, why == "", why, RULINGS, moves)


def _ranges(t: HardtackTables, c: Company) -> tuple[float, float]:
    """HT-CR2, in inches: close is the first band (the short range, D4); effective the last band
    whose range die, at a line in the open, is no larger than the firer's quality die (its fire
    hits at least as often as it misses). Guns: canister and their five shot bands."""
    if c.artillery or c.weapon is None:
        reach = fire.reach_inches(t, c)
        return reach, float(c.gun.canister) if c.gun is not None else float(c.quality)
    return _small_arms(t, c.quality, c.weapon.id)


@cache
def _small_arms(t: HardtackTables, quality: int, weapon: str) -> tuple[float, float]:
    """:func:`_ranges` of a company's small arms, kept per tables, quality die and weapon."""
    good = [b for b in range(1, t["fire"]["bands"] + 1)
            if (die := mechanics.fire_range_die(t, quality, b * quality, "none", "line", weapon)[0]) is not None
            and die <= quality]
    return float(max(good, default=1) * quality), float(quality)


def _why_not(alive: list[Company]) -> str:
    if all(k.artillery for k in alive):
        return "guns do not close assault (HT-A1)"
    if not any(assault.may_assault(k) for k in alive):
        return "its companies are shaken or worse and must rally to Steady first (p.12)"
    return ""
