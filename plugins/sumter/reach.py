"""What a unit can do now, for the commander (hook ``referee_capabilities``; rulings SU-CR1 to
SU-CR3): its charge reach and its move from the movement table's dice, its ranges from the firing
and artillery tables, at the scale of ruling SU-S2."""

from __future__ import annotations

import math

from referee.api import Capabilities, Game

from .dice import DIE
from .move import move_dice
from .state import Piece, SumterState

RULINGS = ("SU-C7", "SU-CR1", "SU-CR2")


def charge_inches(state: SumterState, p: Piece) -> float:
    """SU-CR1: the expected throw of the unit's charge dice (the line move's most dice and the
    charge bonus) plus the fixed inches: the distance a declared charge reaches one time in two."""
    r = state.tables["movement"]["rates"][p.rate]
    die = DIE[r["die"]]
    mean = sum(die.faces) / len(die.faces)
    return float((r["line"][-1] + r["charge_dice"]) * mean + r["charge_inches"])


def move_inches(state: SumterState, p: Piece) -> float:
    """SU-CR3: the expected throw of the unit's move in its present formation (the movement
    table's dice, the most of a "1 or 2", and the fixed inches), as SU-CR1 reads the charge dice."""
    die, count, inches = move_dice(state, p, p.unit.formation, math.inf)
    faces = DIE[die].faces
    return count * sum(faces) / len(faces) + inches


def capabilities(game: Game, unit: str) -> Capabilities | None:
    state: SumterState = game.state
    p = state.pieces.get(unit)
    if p is None:
        return None
    t = state.tables
    if p.arm == "artillery":
        gun = t["artillery"]["guns"][p.unit.spec.gun_type or "12-pdr-napoleon"]
        canister, effective, _ = t["artillery"]["bands"][str(gun["band"])]
        close = canister
    else:
        effective = t["fire"]["ranges"][p.unit.spec.weapon or "rifle-musket"][0]
        close = effective  # SU-CR2: the effective band starts at the muzzle
    why = _why_not(p)
    return Capabilities(state.yards(charge_inches(state, p)), state.yards(float(effective)), state.yards(float(close)),
                        why == "", why, RULINGS, state.yards(move_inches(state, p)))


def _why_not(p: Piece) -> str:
    """Who the sheet lets charge: troops that are fit and not in melee (skirmishers too, SU-G9),
    whose brigade is on Assault orders (SU-C7)."""
    if p.arm == "artillery":
        return "artillery does not charge"
    if not p.fit:
        return f"it is in {p.state}"
    if p.melee:
        return "it is in melee"
    if p.brigade.order != "assault":
        return f"its brigade is on {p.brigade.order.title()} orders, not Assault (SU-C7)"
    return ""
