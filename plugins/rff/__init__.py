"""Regimental Fire and Fury (QRS II, 6mm) with its optional rules, as a referee plugin.

A game turn is two player turns, the first side's then the second's, each of three phases:
maneuver; musketry and cannonade (the opponent's defensive fire, then offensive fire); charge.
Tables are data in ``rulesets/rff``; rulings are in ``docs/rulings/rff.md``.
"""

from __future__ import annotations

from typing import Any

from referee.api import Game, RulesetInfo, Step, TableHooks, hookimpl

from . import charge, fire, hookspecs, lookup, maneuver, reach, situation
from .mechanics import mechanic_specs
from .muster import muster, sync
from .tables import TABLES, display_tables, load_tables

PLUGIN_NAME = "rff"
HOOKSPECS = hookspecs  # rff's extension points for layers (plugins/rff/hookspecs.py)
PHASES = (("maneuver", maneuver.phase), ("fire", fire.phase), ("charge", charge.phase))
PHASE_OF = dict(PHASES)  # a step's procedure by its phase's name
NO_MODIFIERS = {"fallen-leader": "one unmodified d10 (RFF QRS, Fallen Leader)"}  # resolved asking house rules for none
GLUE = TableHooks(TABLES, display_tables, mechanic_specs, muster, options=lookup.options)
referee_options, referee_tables = GLUE.referee_options, GLUE.referee_tables
referee_mechanics, referee_muster = GLUE.referee_mechanics, GLUE.referee_muster


@hookimpl
def referee_ruleset() -> RulesetInfo:
    t = load_tables()
    return RulesetInfo(
        "rff", "Regimental Fire and Fury (QRS II, 6mm) with the optional rules",
        "rff-qrs2-6mm.txt, rff-optional-rules.txt", lookup.scale(t), phases=tuple(name for name, _ in PHASES),
        weather=("clear", "fog"),  # fog: the 3" command radius (QRS, Maneuver Table; RFF-P40)
    )


@hookimpl
def referee_describe(game: Game, unit: str) -> str | None:
    piece = game.state.pieces.get(unit)
    if piece is None:
        return None
    plural = "" if piece.stands == 1 else "s"
    stands = f"{piece.stands} gun stand{plural}" if piece.guns else f"{piece.stands} stand{plural} of {piece.men_per_stand:.0f} men"
    return f"{stands}, {piece.grade}" + (f", {piece.weapon}" if piece.weapon else "")


@hookimpl
def referee_turn_minutes(game: Game) -> int:
    return lookup.scale(game.state.tables).minutes_per_turn


@hookimpl
def referee_turn(game: Game) -> list[Step]:
    game.state.enter()  # reinforcements may have entered
    return [Step("phase", name, side) for side in game.scenario.sides for name, _ in PHASES]


@hookimpl
def referee_step(game: Game, step: Step) -> bool:
    state = game.state
    assert step.side is not None  # every rff step is one side's
    state.phasing = step.side
    PHASE_OF[step.name](game, state, step.side)
    if step.name == PHASES[-1][0] or "referee_step_done" in game.rules.implemented:
        sync(game, state)  # the doctrine reads the neutral world at the next maneuver phase, victory at the turn's end
    state.hooks.phase_done(game, step)
    return True


@hookimpl
def referee_end_turn(game: Game) -> None:
    game.state.hooks.turn_done(game)
    for piece in game.state.pieces.values():
        piece.stands_lost_turn = 0
        piece.combats = 0
        piece.countercharged = False


@hookimpl
def referee_capabilities(game: Game, unit: str) -> Any:
    return reach.capabilities(game, unit)


@hookimpl
def referee_situation(game: Game, attacker: str, defender: str, charge: bool) -> Any:
    return situation.exchange(game, attacker, defender, charge)
