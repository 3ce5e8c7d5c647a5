"""Firefight's two mechanics, fire and morale: each a function of the dice and its inputs,
called by play and by ``referee resolve`` alike (so the odds at the table are the odds in play)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.api import (
    D6,
    InputSpec,
    MechanicSpec,
    Modifier,
    Resolution,
    Roller,
    dice_sum,
)

from .tables import hits_bands

RULESET = "firefight"
STATUSES = ("good", "disordered", "broken", "routed")


def fire(roller: Roller, t: Mapping[str, Any], modifiers: Sequence[Modifier], inputs: Mapping[str, Any]) -> Resolution:
    """Two dice plus ``modifiers`` on the fire table: the hits (RULES.md 4)."""
    dice = dice_sum(roller, D6, 2)
    total = dice + sum(int(m.value) for m in modifiers)
    hits = hits_bands(t).lookup(total)
    return Resolution(RULESET, "fire", t["fire"]["ref"], f"{hits} hits", inputs, tuple(modifiers), (dice,), total,
                      {"hits": hits})


def morale(roller: Roller, t: Mapping[str, Any], status: str, modifiers: Sequence[Modifier], lost_now: bool,
           inputs: Mapping[str, Any]) -> Resolution:
    """Two dice plus ``modifiers`` against the pass score: the unit's new status (RULES.md 5)."""
    dice = dice_sum(roller, D6, 2)
    total = dice + sum(int(m.value) for m in modifiers)
    short = t["morale"]["pass"] - total
    after = _after(status, short, lost_now)
    return Resolution(RULESET, "morale", t["morale"]["ref"], after, inputs, tuple(modifiers), (dice,), total,
                      {"status": after, "passed": short <= 0})


def _after(status: str, short: int, lost_now: bool) -> str:
    if short <= 0:
        return {"good": "good", "disordered": "disordered" if lost_now else "good",
                "broken": "disordered", "routed": "broken"}[status]
    if status in ("broken", "routed"):
        return "routed"
    return "disordered" if short <= 2 else "broken"


def specs(t: Mapping[str, Any]) -> list[MechanicSpec]:
    """The mechanics ``referee resolve firefight ...`` offers, with a die modifier as input."""
    def run_fire(roller: Roller, given: Mapping[str, Any]) -> Resolution:
        return fire(roller, t, _given(given), given)

    def run_morale(roller: Roller, given: Mapping[str, Any]) -> Resolution:
        return morale(roller, t, given["status"], _given(given), given["lost_now"], given)

    modifier = InputSpec("modifier", "int", "the sum of the die modifiers", 0, minimum=-20, maximum=20)
    return [
        MechanicSpec("fire", "Two dice plus modifiers on the fire table: hits.", t["fire"]["ref"], (modifier,),
                     run_fire, {"hits": "hits scored (each a share of the firer's men, or men a gun)"}),
        MechanicSpec("morale", "Two dice plus modifiers against the pass score: the unit's new status.",
                     t["morale"]["ref"],
                     (InputSpec("status", "choice", "the unit's status before the test", "good", STATUSES), modifier,
                      InputSpec("lost_now", "bool", "did the unit lose men this turn", True)),
                     run_morale, {"status": "the status after the test", "passed": "whether the test passed"}),
    ]


def _given(given: Mapping[str, Any]) -> list[Modifier]:
    value = int(given["modifier"])
    return [Modifier("given", value)] if value else []
