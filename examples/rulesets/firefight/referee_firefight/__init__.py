"""Firefight, a fire-and-morale game in two pages (RULES.md beside this package), as a referee
ruleset: the example docs/writing-a-ruleset.md walks through.

A ruleset is a module of hook implementations, found through the ``referee.rulesets`` entry
point its package declares (pyproject.toml). This one describes itself, offers its tables and
mechanics to ``referee tables`` and ``referee resolve``, musters its state for a game, and plays
a turn as steps: each side's movement, then fire and morale for both sides at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.api import Capabilities, Game, RulesetInfo, Scale, Step, TableHooks, hookimpl

from . import mechanics, play
from .tables import TABLES, display

PLUGIN_NAME = "firefight"
PHASES = ("movement", "fire", "morale")

# The hooks that only hand the tables, with the stack's data house rules, to the ruleset's own
# functions: referee tables, referee resolve and a game's state (Firefight offers no options).
GLUE = TableHooks(TABLES, display, mechanics.specs, lambda game, t: play.FirefightState(t))
referee_options, referee_tables = GLUE.referee_options, GLUE.referee_tables
referee_mechanics, referee_muster = GLUE.referee_mechanics, GLUE.referee_muster


@hookimpl
def referee_ruleset() -> RulesetInfo:
    s = TABLES.load()["scale"]
    scale = Scale(float(s["yards_per_inch"]), int(s["men_per_stand"]), "stand", int(s["guns_per_model"]),
                  int(s["minutes_per_turn"]))
    return RulesetInfo("firefight", "Firefight (the example ruleset)", "examples/rulesets/firefight/RULES.md", scale,
                       phases=PHASES)


@hookimpl
def referee_turn_minutes(game: Game) -> int:
    return int(game.state.tables["scale"]["minutes_per_turn"])


@hookimpl
def referee_turn(game: Game) -> Iterator[Step]:
    for side in game.scenario.sides:
        yield Step("phase", "movement", side)
    yield Step("phase", "fire", None)
    yield Step("phase", "morale", None)


@hookimpl
def referee_capabilities(game: Game, unit: str) -> Capabilities:
    return play.capabilities(game.state, game.world.units[unit])


@hookimpl
def referee_step(game: Game, step: Step) -> bool:
    state: Any = game.state
    if step.name == "movement":
        assert step.side is not None
        play.move_phase(game, state, step.side)
    elif step.name == "fire":
        play.fire_phase(game, state)
    else:
        play.morale_phase(game, state)
    return True
