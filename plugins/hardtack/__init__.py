"""Hardtack: Allan Goodall's American Civil War plug-in for Stargrunt II, as a referee plugin.

Companies of figures under alternate activation, two actions each; a regimental commander may
activate his whole regimental formation at once. Opposed die types (quality, firepower, range,
impact, armour) instead of a d10 table. Tables are data in ``rulesets/hardtack``; rulings for
what the source leaves garbled, silent or missing (its pp.18-42) are in
``docs/rulings/hardtack.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.api import Game, RulesetInfo, Step, TableHooks, hookimpl

from . import activation, geometry, reach, situation
from .mechanics import mechanic_specs
from .muster import muster, sync
from .state import state_of
from .tables import TABLES, display_tables, load_tables

PLUGIN_NAME = "hardtack"
NO_MODIFIERS = {"initiative": "an unmodified D6 each side (ruling HT-T1)"}  # resolved asking house rules for none
TABLE_ONLY = {  # offered to referee resolve, never rolled in play
    "combat-move": "play moves companies their base distance (no combat-move roll)",
    "regimental-combat-move": "as combat-move",
}
GLUE = TableHooks(TABLES, display_tables, mechanic_specs, muster, options=lambda t: t.options)
referee_options, referee_tables = GLUE.referee_options, GLUE.referee_tables
referee_mechanics, referee_muster = GLUE.referee_mechanics, GLUE.referee_muster


@hookimpl
def referee_ruleset() -> RulesetInfo:
    return RulesetInfo("hardtack", "Hardtack plug-in for Stargrunt II (Allan Goodall, August 2002)",
                       "hardtack-sg2-plugin.txt; Stargrunt II core (FACTS.md section A)", load_tables().scale)


@hookimpl
def referee_describe(game: Game, unit: str) -> str | None:
    regiment = state_of(game).regiments.get(unit)
    if regiment is None or not regiment.companies:
        return None
    companies = regiment.companies
    first = companies[0]
    figures = sum(c.figures for c in companies)
    guns = sum(c.guns for c in companies if c.artillery)
    return (f"{len(companies)} compan{'y' if len(companies) == 1 else 'ies'}, {figures} figures"
            + (f", {guns} gun{'' if guns == 1 else 's'}" if guns else "")
            + f", quality d{first.quality}, {first.motivation} motivation")


@hookimpl
def referee_turn_minutes(game: Game) -> int:
    return int(state_of(game).tables["scale"]["minutes_per_turn"])


@hookimpl
def referee_turn(game: Game) -> Iterator[Step]:
    state_of(game).visibility = seen = geometry.visibility(game)  # HT-V1: the light of this turn
    if seen != float("inf") and game.log.enabled:
        game.log.emit("light", rulings=[state_of(game).tables["light"]["ruling"]], text=f"the light lets companies see to fire {seen:.0f} yards")
    return activation.turn(game)


@hookimpl
def referee_step(game: Game, step: Step) -> bool:
    """Play the step. The neutral world is written back after it only when something looks at
    it between steps (a ``referee_step_done`` observer); otherwise once, at the end of the turn,
    before the core reads it (intents, victory): nothing in the hardtack turn reads it."""
    activation.play_step(game, step)
    if game.rules.implements("referee_step_done"):
        sync(game, state_of(game))
    return True


@hookimpl
def referee_capabilities(game: Game, unit: str) -> Any:
    return reach.capabilities(game, unit)


@hookimpl
def referee_end_turn(game: Game) -> None:
    sync(game, state_of(game), every=True)


@hookimpl
def referee_situation(game: Game, attacker: str, defender: str, charge: bool) -> Any:
    return situation.exchange(game, attacker, defender, charge)
