"""Hynds' fire rules on rff's fire procedure: his die modifiers, Confederate low ammunition on a
9 or 10, hand weapons in a charge, flank fire that pushes a regiment back, and the weapon
distribution of a random game."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.api import Game, Modifier, d
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import lookup
from referee.plugins.rff import move as rff_move

if TYPE_CHECKING:
    from referee.plugins.rff.fire import Shot
    from referee.plugins.rff.state import Piece, RffState

from . import works
from .cite import modifier, ref
from .mechanics import low_on_ammo
from .state import of
from .tables import charts, fraction

HALF_POINT_FIRES = "half-point-fires"  # option: a total under 1 point fires on the 1 pt. column (RFF-T11), not rounded to none (HYNDS-F8)
HAND_WEAPONS = Modifier("Hand weapons in a charge (Hynds)", Fraction(1, 2), ref("Charge reaction", "HYNDS-R1"), on="fire points x")


def _mod(key: str, ruling: str = "") -> Modifier:
    m = charts()["modifiers"][key]
    return modifier(m["label"], m["value"], m["section"], ruling)


# Hynds' fire modifiers (immutable), the target's move that costs the cannonade -1 and the
# Confederates' low-ammunition dice, read from charts.toml once: every shot reads them.
RIFLED, TARGET_MOVED, POINT_BLANK = _mod("rifled-pieces"), _mod("target-moved", "HYNDS-A4"), _mod("point-blank", "HYNDS-F5")
BREASTWORKS, CAVALRY_SKIRMISHERS = _mod("breastworks-fire"), _mod("cavalry-skirmishers", "HYNDS-K1")
MOVED_INCHES = float(fraction(charts()["modifiers"]["target-moved"]["inches"]))  # HYNDS-A4


def modifiers(game: Game, state: RffState, shot: Shot) -> list[Modifier]:
    """Hynds' die modifiers for one musketry or cannonade roll."""
    out = []
    firer, target, hynds = shot.firer, shot.target, of(game)
    if shot.kind == "cannonade":
        if firer.weapon in ("LR", "HR"):
            out.append(RIFLED)
        if hynds.moved.get(target.id, 0.0) > MOVED_INCHES * state.tables.scale.yards_per_inch:  # (yards)
            out.append(TARGET_MOVED)
    elif shot.range_inches <= lookup.close_range(state.tables) and (firer.id, target.id) not in hynds.fired:
        out.append(POINT_BLANK)
    if target.id in hynds.works and _bare(game, state, shot):
        out.append(BREASTWORKS)
    if target.arm == "cavalry" and target.troops and (target.parent is not None or target.formation == "extended-line"):
        out.append(CAVALRY_SKIRMISHERS)
    return out


def _bare(game: Game, state: RffState, shot: Shot) -> bool:
    """Light works are cover, not a modifier on top of cover (HYNDS-B1): they count only for a
    target whose ground gives it none (rff's extended line then reads as in partial cover)."""
    return geo.cover(game, shot.target) == "none" and rff_fire.cover_row(game, state, shot) in (None, "partial-cover")


def whole_points(game: Game, shots: list[Any], points_of: Any) -> list[Any] | None:
    """Hynds: "Fire points (round down in the case of halves)": a shot under 1 point rounds
    down to none and is not fired (HYNDS-F8; option half-point-fires keeps rff's RFF-T11)."""
    surprising = of(game).surprise  # a surprised unit fires at its charger at half
    kept = [s for s in shots if (not surprising and _unhalved(s) and s.per_stand * s.stands >= 1) or points_of(game, s) >= 1]
    if len(kept) == len(shots):
        return None
    if game.log.enabled:
        for shot in shots:
            if shot not in kept:
                game.log.emit("ruling", unit=shot.firer.id, target=shot.target.id, rulings=["HYNDS-F8"], ruleset="hynds",
                              text=f"{shot.firer.id} holds its fire at {shot.target.id}: {points_of(game, shot)} fire points round down to none ({ref('Fire Table')})")
    return kept


def _unhalved(shot: Shot) -> bool:
    """No x 1/2 of rff's or Hynds' can apply to the shot (its points are per stand x stands)."""
    firer = shot.firer
    return (firer.status != "disordered" and not firer.low_ammo and firer.charge_target is None and firer.moved != "prolong"
            and not (firer.guns and (firer.damaged or firer.half)))


def _reacts(piece: Piece) -> bool:
    return piece.troops and piece.side == "confederate" and piece.grade in ("crack", "veteran")


def reaction_fire(game: Game, piece: Piece, defensive: bool) -> bool | None:
    """Crack and veteran Confederates charging may fire with hand weapons (HYNDS-R1)."""
    charging = piece.charge_target is not None and piece.cold_steel and not defensive
    return True if charging and _reacts(piece) and piece.status != "broken" else None


def points(game: Game, shot: Shot, pts: Any, multipliers: tuple[Modifier, ...]) -> tuple[Any, tuple[Modifier, ...]] | None:
    """Half effect for hand weapons fired in a charge."""
    firer = shot.firer
    if firer.charge_target is not None and firer.cold_steel and _reacts(firer) and not shot.defensive:
        return Fraction(pts) * HAND_WEAPONS.value, (*multipliers, HAND_WEAPONS)
    return None


def result(game: Game, state: RffState, shot: Shot, die: int, values: Any) -> dict[str, Any] | None:
    """Remember what Hynds' later rules need (who fired at whom, flank fire); Confederates go
    low on ammunition on a 9 as well as a 10."""
    if shot.kind == "musketry":  # (a battery's fire is never point blank, nor flank fire)
        if shot.range_inches > lookup.close_range(state.tables):
            of(game).fired.add((shot.firer.id, shot.target.id))
        if shot.firer.arm == "infantry" and shot.target.troops:
            flank = _flank(shot.target, shot.firer)
            if flank:
                tally = of(game).flank.setdefault(shot.target.id, {"left": 0, "right": 0})
                tally[flank] += shot.stands
    if not values.get("low_on_ammo") and low_on_ammo(shot.firer.side, shot.kind, die):
        if game.log.enabled:  # (no text built for a log that is off)
            game.log.emit("ruling", unit=shot.firer.id, rulings=["HYNDS-F4"], ruleset="hynds",
                          text=f"{shot.firer.id} rolled {die}: {ref('Low on Ammo')} for Confederates")
        return {**values, "low_on_ammo": True}
    return None


def _flank(target: Piece, firer: Piece) -> str:
    """"left" or "right" if the firer stands wholly off the target's frontage (Hynds' flank
    fire, HYNDS-F6), else ""."""
    rad = math.radians(target.facing)
    across = (firer.x - target.x) * math.cos(rad) - (firer.y - target.y) * math.sin(rad)
    if abs(across) <= (geo.footprint(target).shape[0] + geo.footprint(firer).shape[0]) / 2:
        return ""
    return "right" if across > 0 else "left"


def push_back(game: Game, state: RffState) -> None:
    """After a fire phase: a regiment without skirmishers, not in works, fired on from a flank
    by 4 or more infantry stands is pushed back 1" on that flank; from both flanks, the whole
    regiment 1" (HYNDS-F6: one flank moves its centre back half that)."""
    hynds = of(game)
    tallies, hynds.flank = hynds.flank, {}
    rule = charts()["flank_fire"]
    for target_id in sorted(tallies):
        target = state.pieces.get(target_id)  # skirmishers that rejoined are gone from the table
        pushed = [side for side in ("left", "right") if tallies[target_id][side] >= rule["stands"]]
        if target is None or not pushed or not target.alive or target.skirmishers or works.holds(game, target) or geo.cover(game, target) == "fortified":
            continue
        inches = fraction(rule["inches"]) * (1 if len(pushed) == 2 else Fraction(1, 2))
        rff_move.retreat(game, state, target, geo.yards(state, float(inches)))
        game.log.emit("push-back", unit=target.id, rulings=["HYNDS-F6"], ruleset="hynds",
                      text=f"{target.id} is pushed back by flank fire from the {' and '.join(pushed)} ({ref('Flank Fire')})")


def distribute_weapons(game: Game, state: RffState) -> None:
    """A random game: each infantry regiment's weapon drawn from the distribution for its side
    and year (HYNDS-W1)."""
    table = charts()["weapons"]
    year = 1864 if int(game.scenario.date[:4]) >= 1864 else 1862
    d100 = d(100)
    for piece in state.pieces.values():
        if piece.arm != "infantry" or piece.parent is not None:
            continue
        shares = table[f"{'confederate' if piece.side == 'confederate' else 'union'}-{year}"]
        roll = game.roller.roll(d100)
        weapon = next(w for w, top in zip(table["order"], _running(shares)) if roll <= top)
        piece.weapon, piece.flags = lookup.weapon_class(state.tables, weapon), lookup.weapon_flags(state.tables, weapon)
        game.log.emit("weapons", unit=piece.id, dice=[roll], rulings=["HYNDS-W1"], ruleset="hynds",
                      text=f"{piece.id} rolls {roll} on {ref('Weapon Distribution')} ({year}): {weapon}")


def _running(shares: list[int]) -> list[int]:
    out, total = [], 0
    for share in shares:
        total += share
        out.append(total)
    return out
