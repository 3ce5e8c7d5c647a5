"""The musketry and cannonade phase: the opponent's defensive fire, then offensive fire.

Within each half every shot is aimed and counted before any is resolved, so the order in which
pieces are listed does not matter (RFF-P14). Each piece fires alone at one target (RFF-P15).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from referee.api import Game, Modifier, angle_between, bearing, record

from . import geometry as geo
from . import leaders, lookup, maneuver, mechanics, move
from .state import Piece, RffState
from .tables import RffTables

CHARGE_FLAGS = frozenset(("buck-and-ball", "repeater"))  # weapons with +1 for firing in a charge


@record
class Shot:
    """What is being resolved: who fires at whom, from how far, with what."""

    firer: Piece
    target: Piece
    kind: str  # musketry or cannonade
    range_inches: float
    stands: int
    per_stand: Fraction | int
    defensive: bool
    sight: str = "clear"  # or "plunging", "plunging-at" (optional rule)


def phase(game: Game, state: RffState, side: str) -> None:
    enemy = game.world.enemy(side)
    wanted = state.targets
    cap = leaders.range_cap(game)
    seen = game.seen  # (a property: asked once a phase, not once a shot)
    for shooters, defensive in ((enemy, True), (side, False)):
        targets = state.enemies_of(shooters)
        unseen = _hidden(targets)
        near = geo.around(state, shooters, targets)
        kept = bool(near.answers)  # (a search begun afresh has no quiet piece: none asked)
        shots = [s for p in state.of_side(shooters)
                 if not (kept and near.quiet(p)) and (s := aim(game, state, p, defensive, wanted.get(p.unit_id), cap, unseen, near))]
        shots = state.hooks.shots(game, shots)  # a layer's list replaces rff's, even an empty one (every shot held)
        for shot in _massed_artillery(game, state, shots):
            if shot.firer.alive and shot.target.alive:  # both still in play?
                resolve(game, state, shot, seen)


def _hidden(targets: list[Piece]) -> frozenset[str]:
    """The ids of the concealed targets (core/engine/world.py): none is aimed at."""
    return frozenset([p.id for p in targets if p.unit.hidden])


def aim(game: Game, state: RffState, piece: Piece, defensive: bool, wanted: str | None, cap: float | None,
        skip: frozenset[str] = frozenset(), near: geo.Around | None = None) -> Shot | None:
    """The piece's shot this half-phase, or None if it cannot fire (RFF-P16 for targets):
    anyone charging it first, then its commander's target (``wanted``), then the nearest;
    ``cap`` is the longest range light allows, in inches; targets in ``skip`` are passed over;
    ``near`` keeps the search for the phase's aims (the enemy of the piece)."""
    if (piece.guns or piece.charge_target is not None or piece.status == "broken" or piece.stands == 0) and not _may_fire(game, piece, defensive):
        return None  # (troops in order and not charging fire: the common case asks no more)
    kind = "musketry" if piece.troops else "cannonade"
    reach, bands = _weapon(state.tables, kind, piece.weapon)
    if near is not None:
        candidates = near.within(state, piece, reach)
    else:
        candidates = geo.nearest_first(geo.within(state, piece, geo.enemies_near(state, piece, reach), reach, arc=True))
    if not candidates:
        return None
    if len(candidates) > 1:
        candidates = _by_priority(candidates, piece.id, wanted)
    per_inch = state.tables.scale.yards_per_inch
    for gap, target in candidates:
        if skip and target.id in skip:
            continue
        rng = gap / per_inch  # (geometry.inches)
        if cap is not None and rng > cap:
            continue
        per_stand = lookup.points_at(bands, rng)
        if not per_stand:
            continue
        seen = geo.sight(game, piece, target)
        if seen != "blocked":
            return Shot(piece, target, kind, rng, firing_stands(game, piece), per_stand, defensive, seen)
    return None


def _by_priority(candidates: list[tuple[float, Piece]], firer: str, wanted: str | None) -> list[tuple[float, Piece]]:
    """(gap, target) pairs, given nearest first: those charging ``firer`` first, then the
    ``wanted`` unit (in each of those, the wanted first), then the rest, each nearest first,
    ties in listed order (one walk: no key built for each pair)."""
    charging: list[tuple[float, Piece]] = []
    chosen: list[tuple[float, Piece]] = []
    others: list[tuple[float, Piece]] = []
    for pair in candidates:
        target = pair[1]
        if target.charge_target == firer:
            charging.append(pair)
        elif target.unit_id == wanted:
            chosen.append(pair)
        else:
            others.append(pair)
    if charging:  # (rare) the wanted among them first
        charging = [p for p in charging if p[1].unit_id == wanted] + [p for p in charging if p[1].unit_id != wanted]
        return charging + chosen + others
    return chosen + others


@cache
def _weapon(t: RffTables, kind: str, code: str) -> tuple[float, lookup.Bands]:
    """Yards of the longest range at which ``code`` fires, and its fire-point bands (read at
    every aim: one kept answer, not two)."""
    return lookup.max_range(t, kind, code) * t.scale.yards_per_inch, lookup.fire_bands(t, kind, code)  # (geometry.yards)


def _may_fire(game: Game, piece: Piece, defensive: bool) -> bool:
    """rff's answer, unless a layer lets a charger with cold steel fire after all (rff_may_fire)."""
    if piece.status == "broken" or piece.stands == 0:
        return False
    if piece.guns:
        return piece.formation != "limbered" and piece.silenced < piece.stands and (defensive or piece.may_fire)
    if piece.charge_target is not None and piece.cold_steel:
        own = not defensive and piece.grade == "crack" and "crack-cold-steel" in game.options and not piece.breakthrough
        return own or game.state.hooks.may_fire(game, piece, defensive)
    return True


def firing_stands(game: Game, piece: Piece) -> int:
    """RFF-P17: every stand of a line, extended line or battery; the two leading stands of a
    field column; one of a march column. Dismounted cavalry leave every fourth stand holding
    horses (none under the tethered-horses rule for mounted infantry)."""
    n = piece.stands
    if piece.guns:
        return n - piece.silenced  # a silenced gun stand does not fire (RFF-P29)
    if piece.formation == "field-column":
        n = min(n, 2)
    elif piece.formation == "march-column":
        n = min(n, 1)
    if piece.troops and piece.arm == "cavalry" and not piece.unit.mounted:
        tethered = "tethered-horses" in game.options and "long-arm" in piece.flags
        n -= 0 if tethered else n // 4
    return n


def fire_points(game: Game, state: RffState, shot: Shot) -> tuple[Fraction | int, tuple[Modifier, ...]]:
    """Fire points with the x 1/2 multipliers, each cited."""
    firer = shot.firer
    damaged, half = (0, 0)
    if firer.guns:  # the silenced stands are the weakest (RFF-P29): these are the firing stands damaged, or half sections
        damaged, half = _held(firer.damaged - firer.silenced, shot.stands), _held(firer.half - firer.silenced, shot.stands)
    return _fire_points(state.tables, shot.per_stand, shot.stands, damaged, firer.status == "disordered", firer.low_ammo, half)


def _held(n: int, top: int) -> int:
    """``n`` held between 0 and ``top`` (no less than 0)."""
    return min(max(n, 0), top)


@cache
def _fire_points(t: RffTables, per_stand: Fraction | int, stands: int, damaged: int, disordered: bool,
                 low_ammo: bool, half: int = 0) -> tuple[Fraction | int, tuple[Modifier, ...]]:
    """``half`` half sections (RFF-P27) and ``damaged`` damaged stands among ``stands``, each
    the weakest stands first (a half section is the one damaged first)."""
    multipliers = []
    strengths = []
    for i in range(stands):
        share = Fraction(1)
        if i < half:
            share *= lookup.multiplier(t, "half-section").value
        if i < damaged:
            share *= lookup.multiplier(t, "damaged-gun").value
        strengths.append(share)
    points: Fraction | int = per_stand * sum(strengths) if half or damaged else per_stand * stands
    if half:
        multipliers.append(lookup.multiplier(t, "half-section"))
    if damaged:
        multipliers.append(lookup.multiplier(t, "damaged-gun"))
    for flag, name in ((disordered, "disordered"), (low_ammo, "low-on-ammo")):
        if flag:
            points = Fraction(points) * lookup.multiplier(t, name).value
            multipliers.append(lookup.multiplier(t, name))
    if isinstance(points, Fraction) and points.denominator == 1:
        points = int(points)  # cheap to compare and to hash in the mechanic's caches
    return points, tuple(multipliers)


def die_modifiers(game: Game, state: RffState, shot: Shot) -> list[Modifier]:
    """Every die-roll modifier of the Musketry & Cannonade Table that applies to the shot."""
    printed = _printed(state.tables)
    firer, target = shot.firer, shot.target
    mods: list[Modifier] = []
    charge_bonus = not CHARGE_FLAGS.isdisjoint(firer.flags) and (  # ... and in a charge
        firer.charge_target is not None or any(e.charge_target == firer.id for e in state.enemies_of(firer.side)))
    if firer.troops and (charge_bonus or "sharpshooters" in firer.flags):
        mods.append(printed["repeaters-buck-and-ball-sharpshooters"])
    if firer.grade == "green":
        mods.append(printed["green-firing"])
    if target.troops:  # the two rows add up; a broken unit is in no formation (RFF-P32, RFF-P31)
        formed = target.status != "broken"
        if formed and (target.formation == "march-column" or geo.enfiladed(firer, target)):
            mods.append(printed["march-column-or-enfiladed"])
        if (formed and target.formation == "field-column") or (target.arm == "cavalry" and target.unit.mounted) or not formed or target.moved == "flank":
            mods.append(printed["troop-target-exposed"])
    elif ((target.formation == "limbered" or geo.enfiladed(firer, target) or shot.range_inches <= lookup.close_range(state.tables))
          and (target.moved != "prolong" or "prolonging-guns" not in game.options)):
        mods.append(printed["gun-target-exposed"])
    cover = cover_row(game, state, shot)
    if cover is not None:
        mods.append(printed[cover])
    return mods


@cache
def _printed(t: RffTables) -> dict[str, Modifier]:
    """The Musketry & Cannonade Table's die modifiers by id (read at every shot)."""
    return {key: lookup.modifier(t, "fire", key) for key in t.fire.modifiers}


def cover_row(game: Game, state: RffState, shot: Shot) -> str | None:
    """The id of the cover modifier the target has, if any (a layer asks it too)."""
    target = shot.target
    cover = geo.cover(game, target)
    extended = target.formation == "extended-line"
    if shot.sight != "clear":
        if shot.sight == "plunging":
            cover = _plunging_cover(game, state, shot, cover)
        elif shot.sight == "plunging-at":  # at a target deep in woods on high ground: full cover (RFF-P24)
            cover = "fortified" if cover == "fortified" else "full"
    if "twilight-and-night" in game.options and cover in ("none", "partial"):
        past = leaders.minutes_past_sunset(game)
        dark = leaders.is_night(game) or (past is not None and shot.range_inches > lookup.twilight_full_cover_inches(state.tables))
        if dark and not shot.firer.charge_target:
            return "full-cover"
    if cover == "fortified":
        return "fortified"
    if cover == "full" or (cover == "partial" and extended):
        return "full-cover"
    if cover == "partial" or extended:
        return "partial-cover"
    return None


def _plunging_cover(game: Game, state: RffState, shot: Shot, cover: str) -> str:
    """Plunging fire through wooded high ground: full cover for a target deep in woods or
    close behind them, partial cover for one further behind (the stronger cover stands)."""
    behind = geo.yards(state, lookup.optional_distance(state.tables, "plunging-fire", "behind-woods"))
    near_end = game.ground.samples(shot.target.x, shot.target.y, shot.firer.x, shot.firer.y)
    reach = max(1, int(behind // 25.0))
    close_woods = any(kind in geo.BLOCKING for kind, _ in near_end[: reach + 1])
    plunging = "full" if close_woods else "partial"
    rank = ("none", "partial", "full", "fortified")
    return max(cover, plunging, key=rank.index)


def table_inputs(game: Game, state: RffState, shot: Shot) -> tuple[Any, ...]:
    """What the shot is read on the Musketry & Cannonade Table with (the fire mechanic's
    arguments after the roller): fire points and multipliers (as layers adjust them) and every
    die modifier."""
    points, own = fire_points(game, state, shot)  # above 0: at least one stand fires
    points, multipliers = state.hooks.fire_points(game, shot, points, own)
    mods = die_modifiers(game, state, shot) + game.extra_modifiers(shot.kind, shot)
    return (state.tables, shot.kind, points, shot.target.grade, (*multipliers, *mods), shot.target.status != "good", shot.target.guns)


def resolve(game: Game, state: RffState, shot: Shot, seen: bool | None = None) -> None:
    """Roll the shot on the table and apply its effect; ``seen`` is ``game.seen`` if the caller
    has asked it already."""
    roll = (game.roller, *table_inputs(game, state, shot))
    if game.seen if seen is None else seen:
        cited = ("RFF-P3", "RFF-P14", "RFF-P15", "RFF-P16", "RFF-P17") + (("RFF-P4",) if geo.enfiladed(shot.firer, shot.target) else ()) + (
            ("RFF-P27",) if shot.firer.half and shot.firer.guns else ())
        settled = game.settle(shot.kind, shot, mechanics.fire(*roll), rulings=cited, unit=shot.firer.id, target=shot.target.id)
        values, die = settled.values, settled.dice[0] if settled.dice else 0
    else:
        _, die, _, reading = mechanics.fire_roll(*roll)  # the same roll, without a Resolution no one sees
        values = reading[2]
    values = state.hooks.fire_result(game, shot, die, values)
    apply(game, state, shot, values)


def _cause(state: RffState, shot: Shot) -> tuple[str, int]:
    """The neutral cause of the shot's losses and its range in yards: musketry, or a cannonade
    in the canister columns (RFF-T19), or beyond them (rff does not name that ammunition)."""
    if shot.kind == "musketry":
        cause = "musketry"
    else:
        cause = "canister" if shot.range_inches <= lookup.canister_inches(state.tables) else "artillery"
    return cause, round(geo.yards(state, shot.range_inches))


def apply(game: Game, state: RffState, shot: Shot, values: Mapping[str, Any], massed: bool = False) -> None:
    """Apply a fire effect to the target (and, a step lower, to a massed target behind it)."""
    target = shot.target
    if target.guns:
        if wrecked := int(values.get("gun_stands_wrecked", 0)):
            maneuver.lose_stands(game, state, target, wrecked, values["effect"], *_cause(state, shot))
        if target.alive:  # RFF-P29: stand by stand, the weakest first
            target.damaged = _held(target.damaged + int(values.get("gun_stands_damaged", 0)), target.stands)
            silenced = target.stands if values.get("silence_remaining_guns") else target.silenced + int(values.get("gun_stands_silenced", 0))
            target.silenced = _held(silenced, target.stands)
    else:
        if lost := int(values.get("stands_lost", 0)):
            maneuver.lose_stands(game, state, target, lost, values["effect"], *_cause(state, shot))
        if values.get("disordered") and target.alive and target.status == "good":
            target.status = "disordered"
    charge = values.get("charge")
    if target.charge_target is not None and (charge == "checked" or (charge == "checked-or-home" and not target.cold_steel)):
        _check_charge(game, state, target, shot.firer)
    if massed:
        return
    if values.get("low_on_ammo") and shot.stands * 2 >= shot.firer.stands:
        shot.firer.low_ammo = True
        if game.log.enabled:  # (no text built for a log that is off)
            game.log.emit("ammo", unit=shot.firer.id, rulings=["RFF-P20"], text=f"{shot.firer.id} is low on ammunition")
    if values.get("fallen_leader_check"):
        leader = leaders.nearest_leader(state, target, geo.yards(state, lookup.distance(state.tables, "fallen-leader")))
        if leader is not None:
            fallen_leader(game, state, leader)
    lower = lookup.next_lower_effect(state.tables, values["effect"])
    if lower is not None and (game.log.enabled or _tells(state.tables, shot.kind, lower)):  # (unlogged, a harmless effect is not looked for)
        for behind in _massed_behind(state, shot):
            effect = {"effect": lower, **mechanics.effect_values(state.tables, shot.kind, lower, None, behind.status != "good", behind.guns)}
            game.log.emit("massed-target", unit=behind.id, text=f"{behind.id} is a massed target behind {target.id}: {lower}")
            apply(game, state, Shot(shot.firer, behind, shot.kind, shot.range_inches, 0, 0, shot.defensive), effect, massed=True)


@cache
def _tells(t: RffTables, kind: str, effect: str) -> bool:
    """Can ``effect`` of ``kind`` change a massed target (troops or guns, disordered or not):
    cost it stands, disorder it, hit its guns, or check its charge?"""
    return any(v["stands_lost"] or v["disordered"] or v["gun_stands_wrecked"] or v["gun_stands_damaged"] or v["gun_stands_silenced"]
               or v["silence_remaining_guns"] or v["charge"] in ("checked", "checked-or-home")
               for v in (mechanics.effect_values(t, kind, effect, None, disordered, guns) for disordered in (False, True) for guns in (False, True)))


def _massed_behind(state: RffState, shot: Shot) -> list[Piece]:
    """Friendly pieces within 1.5" behind the target, seen from the firer."""
    reach = geo.yards(state, lookup.distance(state.tables, "massed-target"))
    target, line = shot.target, bearing(shot.firer.x, shot.firer.y, shot.target.x, shot.target.y)
    return [p for _, p in geo.within(state, target, state.of_side(target.side), reach)
            if p is not target and angle_between(line, bearing(target.x, target.y, p.x, p.y)) <= geo.FRONT_ARC]


def _check_charge(game: Game, state: RffState, charger: Piece, by: Piece) -> None:
    """Charge checked: the charger falls back 1.5" from the enemy (cavalry may recall further)."""
    charger.charge_target = None
    move.retreat(game, state, charger, geo.yards(state, lookup.distance(state.tables, "charge-checked")))
    game.log.emit("charge-checked", unit=charger.id, text=f"{charger.id}'s charge is checked by {by.id}'s fire")


def fallen_leader(game: Game, state: RffState, leader: Any) -> None:
    if game.seen:
        values = game.settle("fallen-leader", leader, mechanics.fallen_leader(game.roller, state.tables),
                             rulings=("RFF-P13",), unit=leader.id).values
    else:
        values = mechanics.fallen_leader_values(game.roller, state.tables)  # the same roll, without a Resolution
    leaders.fall(game, state, leader, values["leader"])


def aim_elsewhere(game: Game, state: RffState, shot: Shot, taken: Iterable[str], near: geo.Around | None = None) -> Shot | None:
    """The shot's firer aimed again, at none of the ``taken`` targets: under the same limits as
    the half-phase's aims (concealed targets are passed over, light caps the range), through the
    half-phase's kept searches (``near``: :func:`.geometry.around` of the firer's side, asked
    here if the caller has not: its firer's answer is kept)."""
    side = shot.firer.side
    targets = state.enemies_of(side)
    return aim(game, state, shot.firer, shot.defensive, None, leaders.range_cap(game), _hidden(targets).union(taken),
               near or geo.around(state, side, targets))


def _massed_artillery(game: Game, state: RffState, shots: list[Shot]) -> list[Shot]:
    """Optional rule: each battery fires at a different target; two may fire at one target only
    if it is in canister range or the closest target, and each is within an artillery leader's
    command radius. A battery that may not mass fires at another target if it has one, else holds
    (RFF-P34)."""
    if "massed-artillery" not in game.options:
        return shots
    taken: set[str] = set()
    kept = []
    for shot in shots:
        if shot.kind == "cannonade" and shot.target.id in taken and not _may_mass(game, state, shot):
            other = aim_elsewhere(game, state, shot, taken)
            game.log.emit("ruling", unit=shot.firer.id, rulings=["RFF-P34"], text="massed artillery fire not allowed: "
                          + (f"the battery fires at {other.target.id} instead" if other else "the battery holds its fire"))
            if other is None:
                continue
            shot = other
        if shot.kind == "cannonade":
            taken.add(shot.target.id)
        kept.append(shot)
    return kept


def _may_mass(game: Game, state: RffState, shot: Shot) -> bool:
    close = shot.range_inches <= lookup.canister_inches(state.tables)
    nearest = geo.nearest([e for e in state.enemies_of(shot.firer.side) if geo.in_front(shot.firer, e)], shot.firer)
    commanded = any(
        "artillerist" in ld.traits and ld.side == shot.firer.side and ld.status == "active" and not ld.waiting
        and geo.inches(state, ((ld.place[0] - shot.firer.x) ** 2 + (ld.place[1] - shot.firer.y) ** 2) ** 0.5) <= leaders.radius(game, state, ld, shot.firer)
        for ld in state.leaders.values()
    )
    return (close or nearest is shot.target) and commanded
