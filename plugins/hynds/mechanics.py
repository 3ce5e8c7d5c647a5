"""Hynds' own mechanics, written once against a roller (sampled in play, exact in tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.api import D10, InputSpec, MechanicSpec, Modifier, Resolution, net
from referee.plugins.rff import mechanics as rff_mechanics
from referee.plugins.rff.mechanics import GIVEN

from .cite import ref
from .tables import charts

LOW_AMMO_DICE = frozenset(charts()["low_ammo"]["confederate"])  # HYNDS-F4


def pol_band(status: str, total: int) -> dict[str, Any]:
    """The POL Reaction Chart's row for a total, in the stationary unit's column."""
    column = charts()["pol"]["disordered" if status == "disordered" else "good"]
    return next(row for row in column if row.get("min", total) <= total <= row.get("max", total))


def pol_reaction(roller: Any, status: str, modifiers: Sequence[Modifier] = ()) -> Resolution:
    """The stationary unit's d10 plus its maneuver modifiers and the chart's own, read on the
    POL Reaction Chart in its column (good order or disordered)."""
    die = roller.roll(D10)
    total = die + net(modifiers)
    row = pol_band(status, total)
    column = "disordered" if status == "disordered" else "good order"
    values = {"stands": row.get("stands", 0), "disordered": row.get("disordered", False),
              "retire": row.get("retire", 0), "quits": row.get("quits", False)}
    return Resolution("hynds", "passage-of-lines", f"{charts()['pol']['ref']}, {column} column, {row['label']}", row["text"],
                      inputs={"status": status}, modifiers=tuple(modifiers), dice=(die,), total=total, values=values,
                      rulings=("HYNDS-P1",))


def surprise_effect(roller: Any, disordered: bool, modifiers: Sequence[Modifier] = ()) -> Resolution:
    """The surprised unit's d10 with the cumulative modifiers, read on the Surprise Fire Effects
    table in its column: still in good order, or disordered by the fire."""
    chart = charts()["surprise"]
    die = roller.roll(D10)
    total = die + net(modifiers)
    column = "disordered" if disordered else "good"
    row = next(r for r in chart[column] if r.get("min", total) <= total <= r.get("max", total))
    return Resolution("hynds", "surprise-fire", f"{chart['ref']}, {'disordered by fire' if disordered else 'still in good order'}, {row['label']}",
                      row["text"], inputs={"disordered": disordered}, modifiers=tuple(modifiers), dice=(die,), total=total,
                      values={"effect": row["effect"]}, rulings=("HYNDS-H2",))


def low_on_ammo(side: str, kind: str, die: int) -> bool:
    """Hynds' Confederate low ammunition on a 9 (a 10 is rff's): small arms only, the rule of
    "Infantry Firing" and its 30 rounds a man (HYNDS-F4)."""
    return side == "confederate" and kind == "musketry" and die in LOW_AMMO_DICE


def fire(roller: Any, t: Any, kind: str, points: Any, target: str, modifiers: Sequence[Modifier], target_disordered: bool,
         target_is_guns: bool, side: str, half_point_fires: bool = False) -> Resolution:
    """rff's musketry or cannonade under Hynds (what ``referee resolve hynds`` runs): a total
    under 1 fire point rounds down to none and is not fired (HYNDS-F8, unless the option
    half-point-fires keeps rff's RFF-T11); a Confederate's small arms go low on a 9 (HYNDS-F4)."""
    if points < 1 and not half_point_fires:
        return Resolution("hynds", kind, ref("Fire Table", "HYNDS-F8"), "Does not fire: under 1 fire point rounds down to none",
                          inputs={"fire_points": points, "side": side}, values={"effect": "no-fire"}, rulings=("HYNDS-F8",))
    resolution = rff_mechanics.fire(roller, t, kind, points, target, modifiers, target_disordered, target_is_guns)
    if resolution.values["low_on_ammo"] or not low_on_ammo(side, kind, resolution.dice[0]):
        return resolution
    return Resolution(resolution.ruleset, kind, resolution.ref, resolution.result, {**resolution.inputs, "side": side}, resolution.modifiers,
                      resolution.dice, resolution.total, {**resolution.values, "low_on_ammo": True}, (*resolution.rulings, "HYNDS-F4"))


MODIFIER = InputSpec("modifier", "int", "net die modifier (the sum of the modifiers that apply)", default=0,
                     minimum=-20, maximum=20)
POL_VALUES = {"stands": "stands the stationary unit loses", "disordered": "it ends disordered",
              "retire": "inches it retires", "quits": "it quits the field"}
SURPRISE_VALUES = {"effect": "none, checked, recoil or driven-back: what the surprise fire does to the mover"}


def _fire_spec(t: Any, rff: MechanicSpec) -> MechanicSpec:
    """rff's musketry or cannonade at the table, with Hynds' rounding and low ammunition."""
    side = InputSpec("side", "choice", "the firer's side (Confederate small arms go low on ammunition on a 9, HYNDS-F4)",
                     default="union", choices=("union", "confederate"))
    half = InputSpec("half_point_fires", "bool", "option half-point-fires: under 1 point fires on the 1 pt. column (HYNDS-F8)", default=False)
    kind = rff.name
    return MechanicSpec(
        kind, rff.summary, rff.ref, (*rff.inputs, side, half),
        lambda roller, i: fire(roller, t, kind, i["fire_points"], i["target"], (Modifier(GIVEN, i["modifier"]),), i["target_disordered"],
                               i.get("target_is_guns", False), i["side"], i["half_point_fires"]),
        {**rff.values, "effect": f"{rff.values['effect']} | no-fire (under 1 point, HYNDS-F8)",
         "low_on_ammo": "base die 10, or 9 for a Confederate's small arms (HYNDS-F4): the firer is marked low on ammo"},
    )


def mechanic_specs(t: Any) -> list[MechanicSpec]:
    """Hynds' own rolls at the table (``referee resolve hynds``), and rff's fire with his
    rounding and low ammunition: the same functions play calls."""
    given = lambda i: (Modifier(GIVEN, i["modifier"]),)  # noqa: E731
    return [
        *(_fire_spec(t, spec) for spec in rff_mechanics.mechanic_specs(t) if spec.name in ("musketry", "cannonade")),
        MechanicSpec(
            "passage-of-lines", "Passage of lines: the stationary unit's d10 + modifiers on the POL Reaction Chart",
            charts()["pol"]["ref"],
            (InputSpec("status", "choice", "the stationary unit's column", default="good", choices=("good", "disordered")), MODIFIER),
            lambda roller, i: pol_reaction(roller, i["status"], given(i)),
            POL_VALUES,
        ),
        MechanicSpec(
            "surprise-fire", "Surprise fire: the surprised unit's d10 + modifiers on the Surprise Fire Effects table",
            charts()["surprise"]["ref"],
            (InputSpec("disordered", "bool", "the fire left the unit disordered", default=False), MODIFIER),
            lambda roller, i: surprise_effect(roller, i["disordered"], given(i)),
            SURPRISE_VALUES,
        ),
    ]
