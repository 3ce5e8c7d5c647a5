"""House rule for rff: double canister.

Guns firing at troops at close range (3", about 112 yards) add +1 to the cannonade die. The
modifier is cited in the log like any printed one, with this file as its reference.

    referee run drill-charge-battery --rules rff --seed 4 \\
        --house-rule examples/house_rules/double_canister.py
"""

from __future__ import annotations

from typing import Any

from referee.api import Modifier, hookimpl
from referee.plugins.rff import lookup

PLUGIN_NAME = "double-canister"

DOUBLE_CANISTER = Modifier("Double canister (house rule)", 1, "house rule: examples/house_rules/double_canister.py")


@hookimpl
def referee_modifiers(game: Any, mechanic: str, situation: Any) -> list[Modifier]:
    # For "musketry" and "cannonade" the situation is rff's Shot: firer, target, kind,
    # range_inches, stands, per_stand, defensive.
    if mechanic != "cannonade" or situation.target.guns:
        return []
    if situation.range_inches > lookup.close_range(game.state.tables):
        return []
    return [DOUBLE_CANISTER]
