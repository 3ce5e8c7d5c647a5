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
from referee.api import Resolution, hookimpl
from referee.plugins.rff.mechanics import charge_values

PLUGIN_NAME = "no-desperate-struggle"


@hookimpl
def referee_resolved(game: Any, mechanic: str, situation: Any, resolution: Resolution) -> Resolution | None:
    if mechanic != "charge" or resolution.values.get("effect") != "desperate-struggle":
        return None  # keep the resolution as it is
    tables = game.state.tables
    hard = tables.charge.effects["hard-pressed"]  # the Charge Table row, from rff's data
    values = charge_values(tables, "hard-pressed", 0)  # what that row does at a difference of 0
    return evolve(
        resolution,
        result=hard.effect.name,
        ref=f"{resolution.ref}; house rule no_desperate_struggle: a level combat is Hard Pressed",
        values=values,
    )
