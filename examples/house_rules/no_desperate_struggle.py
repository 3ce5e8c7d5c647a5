"""House rule for rff: no desperate struggle.

A charge combat whose die result difference is 0 is not fought again: the attacker has the
better of it and the result is Hard Pressed. The replaced result is logged with this house rule
in its reference.

    referee run drill-charge-battery --rules rff --seed 378 \\
        --house-rule examples/house_rules/no_desperate_struggle.py
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from referee.core.events import Resolution
from referee.core.hookspecs import hookimpl

PLUGIN_NAME = "no-desperate-struggle"


@hookimpl
def referee_resolved(game: Any, mechanic: str, situation: Any, resolution: Resolution) -> Resolution | None:
    if mechanic != "charge" or resolution.values.get("effect") != "desperate-struggle":
        return None  # keep the resolution as it is
    hard = game.state.tables.charge.effects["hard-pressed"]  # the Charge Table row, from rff's data
    values = {**resolution.values, "effect": "hard-pressed", "reroll": False, "drops_modifiers": []}
    for who, side in (("attacker", hard.attacker), ("defender", hard.defender)):
        values.update({
            f"{who}_stands_lost": side.losses(0),
            f"{who}_disordered": side.disordered,
            f"{who}_loses_stand_if_disordered": side.lose_stand_if_disordered,
            f"{who}_extra_stand_if_cavalry_or_outflanked": side.extra_stand_if_cavalry_or_outflanked,
            f"{who}_retreat": side.retreat,
            f"{who}_carries": side.carries,
            f"{who}_breakthrough": side.breakthrough,
            f"{who}_fallen_leader_check": side.fallen_leader_check,
        })
    return evolve(
        resolution,
        result=hard.effect.name,
        ref=f"{resolution.ref}; house rule no_desperate_struggle: a level combat is Hard Pressed",
        values=values,
    )
