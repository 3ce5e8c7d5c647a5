"""The procedures' questions to the tables, answered in one place.

Every number the game uses comes from ``rulesets/rff/*.toml`` through these functions, so a
data overlay changes play without touching code.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from referee.api import Modifier, OptionSpec, Scale

from .state import Piece
from .tables import RffTables

RATING_MODIFIER = {"gallant": "gallant-leader", "able": "able-leader", "poor": "poor-leader"}
PLAIN_GUNS = {"HH": "HS", "MH": "LH"}  # without the optional weapons: the nearest QRS class
HEAVY_GUNS = ("HR", "HH")


def scale(t: RffTables) -> Scale:
    return t.scale


def options(t: RffTables) -> list[OptionSpec]:
    return list(t.options)


# ----------------------------------------------------------------------------- muster


def weapon_class(t: RffTables, weapon: str | None) -> str:
    return t.weapons.weapons[weapon or "rifle-musket"].code


def weapon_flags(t: RffTables, weapon: str | None) -> tuple[str, ...]:
    return t.weapons.weapons[weapon or "rifle-musket"].flags


def gun_class(t: RffTables, gun_type: str | None, optional_weapons: bool = True) -> str:
    code = t.weapons.guns[gun_type or "12-pdr-napoleon"].code
    return code if optional_weapons else PLAIN_GUNS.get(code, code)


def grade(t: RffTables, experience: str) -> str:
    return t.weapons.experience[experience].code


# ----------------------------------------------------------------------------- modifiers


@cache
def modifier(t: RffTables, table: str, key: str) -> Modifier:
    """A printed die-roll modifier by its id (leaders by rating)."""
    rows = {"maneuver": t.maneuver.modifiers, "fire": t.fire.modifiers, "charge": t.charge.modifiers}[table]
    return rows[RATING_MODIFIER.get(key, key) if table == "maneuver" else key].modifier()


def multiplier(t: RffTables, key: str) -> Modifier:
    m = t.fire.multipliers[key]
    return Modifier(m.label, m.value, m.ref, on="fire points x")


def outnumbered(t: RffTables, ratio: Fraction | float) -> str | None:
    """The charge modifier for being outnumbered by ``ratio`` (the foe's stands to one's own)."""
    for limit, key in _outnumbered(t):
        if ratio >= limit:
            return key
    return None


@cache
def _outnumbered(t: RffTables) -> tuple[tuple[Fraction, str], ...]:
    """The outnumbered modifiers by their printed ratios, the greatest first."""
    return tuple(sorted(((m.ratio, k) for k, m in t.charge.modifiers.items() if m.ratio is not None), reverse=True))


def cavalry_ground_modifier(t: RffTables, ground: str) -> str | None:
    """RFF-P18: a mounted cavalry charge's modifier by the worst ground crossed."""
    return {"open": "cavalry-charge", "road": "cavalry-charge", "broken": "broken-ground", "rough": "rough-ground"}.get(ground)


# ----------------------------------------------------------------------------- movement


def _movement_key(piece: Piece) -> tuple[str, str]:
    if piece.guns:
        return "artillery", "horse-gun" if piece.horse else "field-gun"
    if piece.status == "broken":
        return piece.arm if piece.unit.mounted or piece.arm == "infantry" else "infantry", "broken"
    if piece.arm == "cavalry" and not piece.unit.mounted:
        return "cavalry", "dismounted-extended-line"
    return piece.arm, piece.formation


def rate(t: RffTables, piece: Piece, ground: str, double: bool) -> float:
    """Inches a piece moves on ``ground`` (a "-" road rate falls back to open ground: RFF-T16)."""
    return _rate(t, *_movement_key(piece), ground, double)


def rates(t: RffTables, piece: Piece, double: bool) -> tuple[float, float, float]:
    """Inches a piece moves on open, broken and rough ground."""
    return _rates(t, *_movement_key(piece), double)


@cache
def _rates(t: RffTables, arm: str, formation: str, double: bool) -> tuple[float, float, float]:
    """:func:`rates` for a movement key, kept per tables (asked at every move)."""
    return _rate(t, arm, formation, "open", double), _rate(t, arm, formation, "broken", double), _rate(t, arm, formation, "rough", double)


@cache
def _rate(t: RffTables, arm: str, formation: str, ground: str, double: bool) -> float:
    r = t.movement.rate(arm, formation, ground) or t.movement.rate(arm, formation, "open")
    assert r is not None
    return float(r.double_quick if double and r.double_quick is not None else r.full)


def may_double(t: RffTables, piece: Piece, heavy_restricted: bool = True) -> bool:
    return not (piece.guns and heavy_restricted and piece.weapon in HEAVY_GUNS)


def retreat_rate(t: RffTables, piece: Piece, ground: str) -> float:
    """A full retreat: the broken rate for troops, the limbered gun rate for guns."""
    if piece.guns:
        return rate(t, piece, ground, double=False)
    arm = piece.arm if piece.unit.mounted or piece.arm == "infantry" else "infantry"
    r = t.movement.rate(arm, "broken", ground) or t.movement.rate(arm, "broken", "open")
    assert r is not None
    return float(r.full)


def leader_rate(t: RffTables, dismounted: bool) -> float:
    r = t.movement.rate("leader", "dismounted" if dismounted else "mounted", "open")
    assert r is not None
    return float(r.full)


def hand_haul_inches(t: RffTables, piece: Piece) -> float:
    """How far a gun may be hand hauled: 3" a mountain howitzer (MH, optional weapons), 1.5" others."""
    return optional_distance(t, "optional-weapons", "mh-hand-haul" if piece.weapon == "MH" else "hand-haul")


def heavy_gun(t: RffTables, piece: Piece) -> bool:
    return piece.guns and piece.weapon in HEAVY_GUNS


# ----------------------------------------------------------------------------- fire


Bands = tuple[tuple[float, Fraction | int | None], ...]  # (inches up to, fire points of one stand), shortest first


@cache
def max_range(t: RffTables, kind: str, code: str) -> float:
    """The longest range at which ``code`` has fire points, in inches."""
    return max((limit for limit, points in fire_bands(t, kind, code) if points), default=0.0)


def fire_points(t: RffTables, kind: str, code: str, inches: float) -> Fraction | int | None:
    """Fire points of one stand of ``code`` at ``inches`` (None: out of range); whole numbers
    come as ints, which are much cheaper to hash in the caches that use them."""
    return points_at(fire_bands(t, kind, code), inches)


def points_at(bands: Bands, inches: float) -> Fraction | int | None:
    """:func:`fire_points` from the weapon's bands, for a caller that keeps them."""
    for limit, points in bands:
        if inches <= limit:
            return points
    return None


@cache
def fire_bands(t: RffTables, kind: str, code: str) -> Bands:
    """The fire points of one stand of ``code`` by range band."""
    table = t.fire.points(kind)
    return tuple((float(limit), int(points) if points is not None and points.denominator == 1 else points)
                 for limit, points in zip(table.bands_inches, table.row(code).points))


@cache
def close_range(t: RffTables) -> float:
    return float(t.close_range_inches)


@cache
def canister_inches(t: RffTables) -> float:
    """The cannonade's close-range columns (canister) end here (RFF-T19)."""
    cannonade = t.fire.cannonade
    return float(cannonade.bands_inches[cannonade.close_range_bands - 1])


@cache
def next_lower_effect(t: RffTables, effect: str) -> str | None:
    return t.fire.next_lower(effect)


def charges_with_cold_steel(t: RffTables, piece: Piece, crack_option: bool) -> bool:
    """RFF-P9: troops that would gain +1 for firing in the charge fire; the rest use cold steel
    (crack infantry under the optional rule do both)."""
    if crack_option and piece.grade == "crack" and piece.arm == "infantry":
        return True
    return not any(flag in piece.flags for flag in ("buck-and-ball", "repeater"))


# ----------------------------------------------------------------------------- distances and thresholds


@cache
def distance(t: RffTables, key: str) -> float:
    return float(Fraction(str(t.procedures["distances"][key]["inches"])))


@cache
def optional_distance(t: RffTables, option: str, key: str) -> float:
    return float(t.distances[option][key].inches)


@cache
def command_radius(t: RffTables, case: str) -> float:
    """Inches: "clear", "short" (the sheet's 3" case) or "twilight" (optional rule)."""
    if case == "twilight":
        return optional_distance(t, "twilight-and-night", "command-radius")
    inches = t.maneuver.command_radius["restricted" if case == "short" else "clear"][1]
    return float(inches or 0)


def interval_limit(t: RffTables) -> int:
    """Extended lines of at most this many stands may open intervals (optional rule)."""
    return int(t.procedures["extended_line"]["most_stands"])


@cache
def option_number(t: RffTables, option: str, key: str) -> float:
    """A number an optional rule prints (twilight turns, wheel degrees): ``numbers`` in options.toml."""
    return float(t.numbers[option][key])


def twilight_range(t: RffTables, turn: int) -> float:
    return optional_distance(t, "twilight-and-night", f"twilight-{turn + 1}")


def night_range(t: RffTables, moon: str) -> float:
    key = {"full": "night-full-moon", "moonlit": "night-moonlit"}.get(moon, "night-dark")
    return optional_distance(t, "twilight-and-night", key)


def twilight_full_cover_inches(t: RffTables) -> float:
    return optional_distance(t, "twilight-and-night", "full-cover")


@cache
def effectiveness_thresholds(t: RffTables, grade_: str) -> tuple[float, float]:
    """Shares of stands lost at which a regiment of this grade is worn, and spent."""
    row = t.procedures["effectiveness"][grade_]
    return float(Fraction(str(row["worn"]))), float(Fraction(str(row["spent"])))


@cache
def brigade_loss_thresholds(t: RffTables) -> tuple[float, float]:
    """Shares of a brigade's stands lost for heavy casualties, and greater losses."""
    row = t.procedures["brigade_losses"]
    return float(Fraction(str(row["heavy"]))), float(Fraction(str(row["greater"])))


@cache
def skirmisher_limits(t: RffTables) -> tuple[int, int, int, Fraction]:
    """(fewest stands, most stands, smallest regiment, usual share)."""
    row = t.procedures["skirmishers"]
    return row["fewest"], row["most"], row["smallest_regiment"], Fraction(str(row["share"]))


def skirmisher_deploy_inches(t: RffTables) -> float:
    return optional_distance(t, "skirmishers", "deploy")


def skirmisher_leash_inches(t: RffTables) -> float:
    return optional_distance(t, "skirmishers", "tether")
