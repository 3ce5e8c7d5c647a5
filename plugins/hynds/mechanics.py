"""Hynds' own mechanics, written once against a roller (sampled in play, exact in tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core.chance import D10
from referee.core.events import Modifier, Resolution, net
from referee.core.mechanics import InputSpec, MechanicSpec
from referee.plugins.rff.mechanics import GIVEN

from .tables import charts


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


MODIFIER = InputSpec("modifier", "int", "net die modifier (the sum of the modifiers that apply)", default=0,
                     minimum=-20, maximum=20)
POL_VALUES = {"stands": "stands the stationary unit loses", "disordered": "it ends disordered",
              "retire": "inches it retires", "quits": "it quits the field"}
SURPRISE_VALUES = {"effect": "none, checked, recoil or driven-back: what the surprise fire does to the mover"}


def mechanic_specs() -> list[MechanicSpec]:
    """Hynds' own rolls at the table (``referee resolve hynds``): the same functions play calls."""
    given = lambda i: (Modifier(GIVEN, i["modifier"]),)  # noqa: E731
    return [
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
