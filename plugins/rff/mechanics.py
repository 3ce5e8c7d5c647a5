"""Regimental Fire and Fury mechanics: pure functions against a Roller, each returning a cited
:class:`~referee.core.engine.events.Resolution`.

These are the functions the game engine calls, with the modifiers it has gathered (each a
:class:`~referee.core.engine.events.Modifier`; :func:`pick` makes them from the tables' ids), and
the ones ``referee resolve rff`` runs through :func:`mechanic_specs`. Every mechanic is one
d10 or a d10 against a d10, so exact mode walks at most 100 paths.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any

from referee.api import D10, InputSpec, MechanicSpec, Modifier, Resolution, Roller, net

from .tables import GRADES, KINDS, STATUSES, ChargeSide, ModifierRow, RffTables

RULESET = "rff"
GIVEN = "net die modifier (given)"
Reading = tuple[str, str, Mapping[str, Any], tuple[str, ...]]  # what a table gives for a total: ref, result, values, rulings


def pick(rows: Mapping[str, ModifierRow], *ids: str) -> tuple[Modifier, ...]:
    """The modifiers of a table (``t.maneuver.modifiers``, ``t.fire.modifiers``...) by id."""
    return tuple(rows[i].modifier() for i in ids)


def _rulings(*ids: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in ids if i))


def _points(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}" if x < 1 else f"{float(x):g}"


# ----------------------------------------------------------------------------- maneuver


def maneuver(roller: Roller, t: RffTables, status: str = "good-order", modifiers: Sequence[Modifier] = ()) -> Resolution:
    """A maneuver check: d10 + net modifiers read in the good-order (troops and guns) or the
    disordered/broken column. A disordered panic loses a stand per point below 0 (RFF-T10)."""
    die, total, (ref, result, values, rulings) = _maneuver(roller, t, status, modifiers)
    return Resolution(RULESET, "maneuver", ref, result, inputs={"status": status}, modifiers=tuple(modifiers),
                      dice=(die,), total=total, values=values, rulings=rulings)


def maneuver_values(roller: Roller, t: RffTables, status: str = "good-order", modifiers: Sequence[Modifier] = ()) -> Mapping[str, Any]:
    """:func:`maneuver`'s values alone, from the same roll, for an engine that cites nothing."""
    return _maneuver(roller, t, status, modifiers)[2][2]


def _maneuver(roller: Roller, t: RffTables, status: str, modifiers: Sequence[Modifier]) -> tuple[int, int, Reading]:
    """The roll: (the die, the total, the table's reading)."""
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    die = roller.roll(D10)
    total = die + net(modifiers)
    return die, total, _maneuver_reading(t, status, total)


@cache
def _maneuver_reading(t: RffTables, status: str, total: int) -> Reading:
    column = t.maneuver.columns[status]
    band = column.bands.band(total)
    effect = column.effects[band.result]
    below = effect.stands_lost_below
    values = {"effect": effect.effect.id, "stands_lost": 0 if below is None else max(0, below - total)}
    return f"{column.ref}, {band.text()}", effect.effect.name, MappingProxyType(values), _rulings(band.ruling, effect.effect.ruling)


# ----------------------------------------------------------------------------- fire


@cache
def column_modifier(t: RffTables, numerator: int, denominator: int) -> tuple[Modifier, str]:
    """The fire-point column (fire points ``numerator``/``denominator``: two ints hash fast, a
    Fraction slowly) as a die modifier, and the ruling applied (fractions round down, under 1
    point fires on the 1 pt. column: RFF-T11)."""
    points = Fraction(numerator, denominator)
    if points <= 0:
        raise ValueError(f"fire points must be above 0, not {points}")
    band = t.fire.column.band(math.floor(points))
    ruling = t.fire.column_ruling if points.denominator != 1 or points < 1 else ""
    return Modifier(f"{_points(points)} fire points ({band.text()})", band.result, t.fire.column_ref), ruling


def fire(
    roller: Roller,
    t: RffTables,
    kind: str,
    fire_points: Fraction | int,
    target: str,
    modifiers: Sequence[Modifier] = (),
    target_disordered: bool = False,
    target_is_guns: bool = False,
) -> Resolution:
    """Musketry or cannonade: d10 + the fire-point column + every die modifier, read in the
    target grade's column. ``fire_points`` are after the x 1/2 multipliers."""
    mods, die, total, (ref, result, values, rulings) = fire_roll(roller, t, kind, fire_points, target, modifiers,
                                                             target_disordered, target_is_guns)
    points = fire_points if isinstance(fire_points, Fraction) else Fraction(fire_points)
    inputs = {"fire_points": points, "target": target, "target_disordered": target_disordered,
              "target_is_guns": target_is_guns}
    return Resolution(RULESET, kind, ref, result, inputs=inputs, modifiers=mods, dice=(die,), total=total,
                      values=values, rulings=rulings)


def fire_die_values(roller: Roller, t: RffTables, kind: str, fire_points: Fraction | int, target: str,
                    modifiers: Sequence[Modifier] = (), target_disordered: bool = False,
                    target_is_guns: bool = False) -> tuple[int, Mapping[str, Any]]:
    """:func:`fire`'s die and values alone, from the same roll, for an engine that cites nothing."""
    _, die, _, reading = fire_roll(roller, t, kind, fire_points, target, modifiers, target_disordered, target_is_guns)
    return die, reading[2]


def fire_roll(roller: Roller, t: RffTables, kind: str, fire_points: Fraction | int, target: str, modifiers: Sequence[Modifier],
              target_disordered: bool, target_is_guns: bool) -> tuple[tuple[Modifier, ...], int, int, Reading]:
    """The roll of :func:`fire` and :func:`fire_die_values`: (the modifiers with the column first,
    the die, the total, the table's reading: ref, result, values, rulings)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if target not in GRADES:
        raise ValueError(f"target must be one of {', '.join(GRADES)}, not {target!r}")
    column, column_ruling = column_modifier(t, fire_points.numerator, fire_points.denominator)
    mods = (column, *modifiers)
    die = roller.roll(D10)
    total = die + net(mods)
    return mods, die, total, _fire_reading(t, kind, target, total, die if die in _read_dice(t) else 0, column.value, column_ruling,
                                           target_disordered, target_is_guns)


@cache
def _read_dice(t: RffTables) -> frozenset[int]:
    """The base dice the additional effects (low on ammo, fallen leader) read: any other die
    reads the table as 0 does, so the readings kept are a tenth as many."""
    return frozenset(base for _, base in t.fire.additional.values() if base is not None)


@cache
def _fire_reading(t: RffTables, kind: str, target: str, total: int, die: int, column_value: int, column_ruling: str,
                  target_disordered: bool, target_is_guns: bool) -> Reading:
    """The table's reading; ``die`` is the base die if the additional effects read it, else 0."""
    band = t.fire.grades[target].band(total)
    effect = t.fire.effects[band.result].effect
    low_on_ammo, fallen = t.fire.additional["low-on-ammo"], t.fire.additional["fallen-leader"]
    values = {
        "effect": effect.id,
        "column_modifier": column_value,
        **effect_values(t, kind, effect.id, total, target_disordered, target_is_guns),
        "massed_target_effect": t.fire.next_lower(effect.id),
        "low_on_ammo": die == low_on_ammo[1],
        "fallen_leader_check": die == fallen[1],
    }
    rulings = _rulings(column_ruling, band.ruling, effect.ruling, *(e.ruling for e, base in (low_on_ammo, fallen) if die == base))
    return f"{t.fire.ref}, {target} column, {band.text()}", effect.name, MappingProxyType(values), rulings


def effect_values(t: RffTables, kind: str, effect_id: str, total: int | None, target_disordered: bool, target_is_guns: bool) -> dict[str, Any]:
    """What a fire effect does to its target (also used, with no total, for a massed target)."""
    effect = t.fire.effects[effect_id]
    applies = kind in effect.kinds
    extra = int(applies and total is not None and effect.extra_stand_at is not None and total >= effect.extra_stand_at)
    troops, guns = applies and not target_is_guns, applies and target_is_guns
    return {
        "stands_lost": (effect.stands_lost + effect.stands_lost_if_disordered * target_disordered + extra) if troops else 0,
        "disordered": troops and effect.troops_disordered,
        "gun_stands_wrecked": (effect.guns_wrecked + extra) if guns else 0,
        "gun_stands_damaged": effect.guns_damaged if guns else 0,
        "gun_stands_silenced": effect.guns_silenced if guns else 0,
        "silence_remaining_guns": guns and effect.silence_remaining,
        "charge": effect.charge,
    }


# ----------------------------------------------------------------------------- charge


def charge(roller: Roller, t: RffTables, modifier: int) -> Resolution:
    """First round of a charge, given the attacker's net modifier minus the defender's."""
    return _charge(roller, t, _given(modifier), (), {"modifier": modifier})


def charge_combat(roller: Roller, t: RffTables, attacker: Sequence[Modifier], defender: Sequence[Modifier]) -> Resolution:
    """First round of a charge: each side rolls a d10 plus its own modifiers; the difference
    (attacker minus defender) picks the result. A Desperate Struggle sets ``reroll`` (the
    engine drops ``drops_modifiers``, adjusts the rest and calls again)."""
    return _charge(roller, t, attacker, defender, {"attacker": [str(m) for m in attacker], "defender": [str(m) for m in defender]})


def _charge(roller: Roller, t: RffTables, attacker: Sequence[Modifier], defender: Sequence[Modifier], inputs: Mapping[str, Any]) -> Resolution:
    a, d = roller.roll(D10), roller.roll(D10)
    difference = a + net(attacker) - (d + net(defender))
    band = t.charge.bands.band(difference)
    effect = t.charge.effects[band.result]
    values = charge_values(t, effect.effect.id, difference)
    against = tuple(Modifier(f"defender: {m.name}", -m.value, m.ref, m.on) for m in defender)
    return Resolution(
        RULESET, "charge", f"{t.charge.results_ref}, {band.text()}", effect.effect.name,
        inputs=inputs, modifiers=(*attacker, *against), dice=(a, d), total=difference, values=values,
        rulings=_rulings(band.ruling, effect.effect.ruling),
    )


def charge_values(t: RffTables, effect_id: str, difference: int) -> dict[str, Any]:
    """What a Charge Table result does to both sides at this die-result difference (also for
    house rules that change a result)."""
    effect = t.charge.effects[effect_id]
    return {
        "effect": effect_id,
        "reroll": effect.reroll,
        "drops_modifiers": list(effect.drops_modifiers),
        **_side("attacker", effect.attacker, -difference),
        **_side("defender", effect.defender, difference),
    }


def _side(who: str, side: ChargeSide, margin: int) -> dict[str, Any]:
    """One side's part of a charge result; ``margin`` is how far it lost by (extra stands)."""
    return {
        f"{who}_stands_lost": side.losses(margin),
        f"{who}_disordered": side.disordered,
        f"{who}_loses_stand_if_disordered": side.lose_stand_if_disordered,
        f"{who}_extra_stand_if_cavalry_or_outflanked": side.extra_stand_if_cavalry_or_outflanked,
        f"{who}_retreat": side.retreat,
        f"{who}_carries": side.carries,
        f"{who}_breakthrough": side.breakthrough,
        f"{who}_fallen_leader_check": side.fallen_leader_check,
    }


# ----------------------------------------------------------------------------- fallen leader


def fallen_leader(roller: Roller, t: RffTables) -> Resolution:
    """The Fallen Leader Table: one unmodified d10."""
    die = roller.roll(D10)
    ref, result, values, rulings = _fallen_leader_reading(t, die)
    return Resolution(RULESET, "fallen-leader", ref, result, dice=(die,), total=die, values=values, rulings=rulings)


def fallen_leader_values(roller: Roller, t: RffTables) -> Mapping[str, Any]:
    """:func:`fallen_leader`'s values alone, from the same roll, for an engine that cites nothing."""
    return _fallen_leader_reading(t, roller.roll(D10))[2]


@cache
def _fallen_leader_reading(t: RffTables, die: int) -> Reading:
    band = t.fallen_leader.bands.band(die)
    effect, leader = t.fallen_leader.effects[band.result]
    values = MappingProxyType({"effect": effect.id, "leader": leader})
    return f"{t.fallen_leader.ref}, {band.text()}", effect.name, values, _rulings(band.ruling, effect.ruling)


# ----------------------------------------------------------------------------- referee resolve


MANEUVER_VALUES = {
    "effect": "double-quick | well-handled | tardy | fall-back | panic (good order, guns) or rally-with-elan | rally | shaken | wavering | panic (disordered, broken)",
    "stands_lost": "stands lost: a disordered panic loses one per point the total is below 0 (RFF-T10)",
}
FIRE_VALUES = {
    "effect": "desultory | lively | galling | telling | withering",
    "column_modifier": "the die modifier from the fire points (1 pt. -4 ... 25 or more +5)",
    "stands_lost": "troop stands lost (withering 2, +1 on 15 or more; telling 1; galling 1 if already disordered)",
    "disordered": "whether troops are disordered",
    "gun_stands_wrecked": "gun stands wrecked (withering 1, +1 on 15 or more)",
    "gun_stands_damaged": "gun stands damaged (telling 1)",
    "gun_stands_silenced": "gun stands silenced",
    "silence_remaining_guns": "whether every remaining gun stand is silenced (withering)",
    "charge": "what it does to a charge: checked | home | checked-or-home (checked unless charging with cold steel, RFF-T13)",
    "massed_target_effect": "the next lower effect, suffered by units within 1.5\" behind the target (none below desultory)",
    "low_on_ammo": "base die 10: the firing unit (or one gun stand) is marked low on ammo (RFF-T12)",
    "fallen_leader_check": "base die 10: the closest leader within 3\" of the target checks on the Fallen Leader Table",
}
CHARGE_VALUES = {
    "effect": "swept-from-the-field | driven-back | hard-pressed | desperate-struggle | falter | recoil | repulsed",
    "reroll": "a desperate struggle: adjust modifiers and roll again",
    "drops_modifiers": "charge modifier ids the next round loses (desperate struggle)",
    **{
        f"{who}_{key}": f"{who}: {text}"
        for who in ("attacker", "defender")
        for key, text in (
            ("stands_lost", "stands lost now (swept/repulsed: 2 plus the difference over 9, RFF-T8)"),
            ("disordered", "troops disordered (guns silenced)"),
            ("loses_stand_if_disordered", "loses 1 stand if already disordered"),
            ("extra_stand_if_cavalry_or_outflanked", "loses 1 more stand and full retreats broken if beaten by cavalry or outflanked"),
            ("retreat", "none | hold | 1.5-inches | out-of-close-range | full-retreat-broken"),
            ("carries", "carries the position: no | yes | after-2nd-combat"),
            ("breakthrough", "makes a breakthrough charge"),
            ("fallen_leader_check", "an attached leader checks on the Fallen Leader Table"),
        )
    },
}
FALLEN_LEADER_VALUES = {
    "effect": "shot-dead-in-the-saddle | mortally-wounded | grievously-wounded | mere-flesh-wound | horse-shot-out-from-under | coat-pierced-but-unscathed | staff-officer-struck | coolly-ignores-the-fire",
    "leader": "removed | out-one-turn | dismounted-one-turn | no-effect",
}


def _given(n: int) -> tuple[Modifier, ...]:
    return (Modifier(GIVEN, n),)


def mechanic_specs(t: RffTables) -> list[MechanicSpec]:
    """What ``referee resolve rff`` offers; each run calls the engine's own function."""
    modifier = InputSpec("modifier", "int", "net die modifier (the sum of the modifiers that apply)", default=0)
    target = InputSpec("target", "choice", "the target's grade", default="trained", choices=GRADES)
    points = InputSpec("fire_points", "number", "total fire points after the x 1/2 multipliers", minimum=Fraction(1, 2))
    disordered = InputSpec("target_disordered", "bool", "the target troops are already disordered", default=False)
    guns = InputSpec("target_is_guns", "bool", "the target is guns", default=False)

    def fire_spec(kind: str, extra: tuple[InputSpec, ...]) -> MechanicSpec:
        table = t.fire.points(kind)
        return MechanicSpec(
            kind, f"{kind.capitalize()}: d10 + fire-point column + modifiers, by target grade", table.ref,
            (points, target, modifier, disordered, *extra),
            lambda roller, i: fire(roller, t, kind, i["fire_points"], i["target"], _given(i["modifier"]), i["target_disordered"], i.get("target_is_guns", False)),
            FIRE_VALUES,
        )

    return [
        MechanicSpec(
            "maneuver", "Maneuver check: d10 + modifiers on the Maneuver Table", t.maneuver.ref,
            (InputSpec("status", "choice", "the unit's column (guns use good-order)", default="good-order", choices=STATUSES), modifier),
            lambda roller, i: maneuver(roller, t, i["status"], _given(i["modifier"])),
            MANEUVER_VALUES,
        ),
        fire_spec("musketry", ()),
        fire_spec("cannonade", (guns,)),
        MechanicSpec(
            "charge", "Charge combat, first round: d10 + modifier against d10", t.charge.ref,
            (InputSpec("modifier", "int", "the attacker's net modifier minus the defender's", default=0),),
            lambda roller, i: charge(roller, t, i["modifier"]),
            CHARGE_VALUES,
        ),
        MechanicSpec(
            "fallen-leader", "Fallen Leader check: one d10", t.fallen_leader.ref, (),
            lambda roller, i: fallen_leader(roller, t),
            FALLEN_LEADER_VALUES,
        ),
    ]
