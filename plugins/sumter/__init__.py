"""Raising Sumter QRS v6.2 (the British Grenadier family) as a referee plugin.

Figures at 1:20 under brigades with orders (Assault, Engage, Support, Move, Hold, Retire);
disruption points (DPs) from fire, movement dice and melee; average dice for good troops; 2D6
firing on the casualty tables with semi-hits; simultaneous fire, melee and morale. Tables are
data in ``rulesets/sumter``; rulings for what the sheet leaves silent or garbled are in
``docs/rulings/sumter.md``.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.api import Capabilities, Exchange, Game, RulesetInfo, Step, TableHooks, hookimpl

from .combat import fire_step, melee_step
from .mechanics import mechanic_specs
from .morale import end_turn, morale_step
from .move import charge_step, compulsory_step, movement_step, order_wanted, orders_step
from .reach import capabilities
from .situation import exchange
from .state import SumterState, muster, sync
from .tables import TABLES, display_tables, load_tables

PLUGIN_NAME = "sumter"
PHASES = ("orders", "charge", "compulsory", "movement", "fire", "melee", "morale")
"""The turn (ruling SU-T1): orders for every brigade, charges side by side, compulsory moves,
movement side by side (the scenario's first side first), then fire, melee and morale for both
sides at once."""
GLUE = TableHooks(TABLES, display_tables, mechanic_specs, muster, options=lambda t: t.options)
referee_options, referee_tables = GLUE.referee_options, GLUE.referee_tables
referee_mechanics, referee_muster = GLUE.referee_mechanics, GLUE.referee_muster


@hookimpl
def referee_ruleset() -> RulesetInfo:
    return RulesetInfo("sumter", "Raising Sumter QRS v6.2 (February 2017)",
                       "raising-sumter-qrs-v6.2.txt; British Grenadier family (FACTS.md section B)", load_tables().scale,
                       phases=PHASES)


@hookimpl
def referee_describe(game: Game, unit: str) -> str | None:
    state: SumterState = game.state
    piece = state.pieces.get(unit)
    if piece is None:
        return None
    models = f" and {piece.models} gun model{'' if piece.models == 1 else 's'}" if piece.models else ""
    return f"{piece.figures} figure{'' if piece.figures == 1 else 's'}{models}, {piece.grade}, {piece.rate}"


@hookimpl
def referee_turn_minutes(game: Game) -> int:
    state: SumterState = game.state
    return int(state.tables["scale"]["minutes_per_turn"])


@hookimpl
def referee_turn(game: Game) -> Iterator[Step]:
    state: SumterState = game.state
    sides = game.scenario.sides
    state.wanted = {side: game.command_intents(side) for side in sides}
    seen = game.log.enabled or game.rules.implements("referee_step_done")  # (a step nobody sees is made only if it does something)
    for side in sides:
        for b in state.brigades.values():
            if b.side == side and (seen or order_wanted(state, b) is not None):  # (one's step changes no other's order)
                yield Step("orders", "orders", side, command=b.id)
    state.intents = {side: game.intents(side) for side in sides}
    sync(state)  # the orders' results (a brigade retiring, or no longer) shown once the intents are given from the field before them
    for side in sides:
        yield Step("phase", "charge", side)
    yield Step("phase", "compulsory", None)
    for side in sides:
        yield Step("phase", "movement", side)
    yield Step("phase", "fire", None)
    yield Step("phase", "melee", None)
    yield Step("phase", "morale", None)


@hookimpl
def referee_step(game: Game, step: Step) -> bool:
    state: SumterState = game.state
    name = step.name
    if name == "orders":
        assert step.command is not None
        orders_step(game, state, step.command)
        return True  # (its result is shown once the turn's intents are given: referee_turn)
    if name == "charge":
        assert step.side is not None
        charge_step(game, state, step.side)
    elif name == "compulsory":
        compulsory_step(game, state)
    elif name == "movement":
        assert step.side is not None
        movement_step(game, state, step.side)
    elif name == "fire":
        fire_step(game, state)
    elif name == "melee":
        melee_step(game, state)
    elif name == "morale":
        morale_step(game, state)
    return True


@hookimpl
def referee_capabilities(game: Game, unit: str) -> Capabilities | None:
    return capabilities(game, unit)


@hookimpl
def referee_situation(game: Game, attacker: str, defender: str, charge: bool) -> Exchange | None:
    return exchange(game, attacker, defender, charge)


@hookimpl
def referee_end_turn(game: Game) -> None:
    state: SumterState = game.state
    end_turn(game, state)
