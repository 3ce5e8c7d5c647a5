"""D. J. Hynds' Fire and Fury Regimental v2.1 as a layer on Regimental Fire and Fury (rff).

Hynds wrote his rules as changes to Fire and Fury, so this package is only those changes: a
TOML overlay of rff's tables (``rulesets/hynds/rff.toml``: scale, command radius, fire tables,
darkness), wrappers of the core's hooks (muster, modifiers) and rff's own extension hooks
(``plugins/rff/hookspecs.py``: movement, fire points, fire results, reaction fire, the end of a
phase and of a turn). Nothing of rff is copied. Rulings are in ``docs/rulings/hynds.md``; every resolution a
Hynds rule touched is credited to ``hynds`` in the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.api import Game, OptionSpec, RulesetInfo, hookimpl
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import lookup
from referee.plugins.rff.tables import load_with_overlays

if TYPE_CHECKING:
    from referee.plugins.rff.fire import Shot
    from referee.plugins.rff.state import Piece

from . import conceal, fire, leaders, mechanics, move, skirmish, tables, works
from . import state as hynds_state
from .cite import CITES, ref

PLUGIN_NAME = "hynds"
BASE = "rff"
OVERLAYS = (Path(str(resources.files("referee.rulesets") / "hynds" / "rff.toml")),)
TABLE_ONLY = {"surprise-fire": "needs a hidden unit, which no bundled scenario has (tests/test_hynds.py plays it on one that does)"}
DEBRIS_DICE = frozenset(tables.charts()["firing_over"]["disorders"])  # a battery's fire disorders friends it fires over (HYNDS-G3)
FIRE_DICE = frozenset(tables.charts()["burning"]["fires"])  # a battery's fire sets a building on fire (HYNDS-G5)
OPTIONS = [
    OptionSpec("random-weapons", "Weapon distribution", ref("Weapon Distribution"),
               "In a random game each infantry regiment's weapon is drawn from Hynds' distribution for its side and year (1862 or 1864)."),
    OptionSpec(leaders.SCENARIO_RATINGS, "Scenario leader ratings", ref("Leaders", "HYNDS-L1"),
               "Leaders keep the scenario's rating (rff's gallant, able, poor) and do not roll on Hynds' exceptional and weak chart."),
    OptionSpec(fire.HALF_POINT_FIRES, "Half a point fires", ref("Fire Table", "HYNDS-F8"),
               "A total under 1 fire point fires on the 1 pt. column (rff's RFF-T11) instead of rounding down to no fire (Hynds' 'round down in the case of halves')."),
]


@hookimpl
def referee_house_rule() -> RulesetInfo:
    return RulesetInfo(
        "hynds", "D. J. Hynds' Fire and Fury Regimental v2.1, on Regimental Fire and Fury",
        "hynds-ff-regimental-v2.1.txt, over rff-qrs2-6mm.txt and rff-optional-rules.txt",
        lookup.scale(load_with_overlays(*OVERLAYS)), kind="house-rule", base=BASE, cites=CITES,
    )


@hookimpl
def referee_options() -> list[OptionSpec]:
    return OPTIONS


@hookimpl
def referee_tables() -> dict[str, Any]:
    return tables.display()


@hookimpl
def referee_mechanics(overlays: tuple[Any, ...]) -> list[Any]:
    return mechanics.mechanic_specs(load_with_overlays(*overlays))


@hookimpl(wrapper=True)
def referee_muster(game: Game) -> Any:
    state = yield
    if "random-weapons" in game.options:
        fire.distribute_weapons(game, state)
    leaders.roll_all(game, state)
    conceal.muster(game, state)
    return state


@hookimpl
def referee_modifiers(game: Game, mechanic: str, situation: Any) -> Sequence[Any]:
    if mechanic in ("musketry", "cannonade"):
        return fire.modifiers(game, game.state, situation)
    if mechanic == "maneuver":
        return leaders.maneuver_modifiers(game, game.state, situation)
    if mechanic == "charge":
        return (leaders.charge_modifiers(game, game.state, *situation) + works.charge_modifiers(game, game.state, *situation)
                + conceal.surprise_attack(game, situation[0]))
    return []


@hookimpl
def rff_move_yards(game: Game, piece: Piece, pace: str, to: Any, yards: float) -> float | None:
    return move.priced(game, game.state, piece, pace, to, yards)


@hookimpl
def rff_moved(game: Game, piece: Piece, start: Any) -> None:
    move.moved(game, game.state, piece, start)
    if hynds_state.of(game).hiding:
        conceal.moved(game, game.state, piece, start)


@hookimpl
def rff_may_fire(game: Game, piece: Piece, defensive: bool) -> bool | None:
    return fire.reaction_fire(game, piece, defensive)


@hookimpl
def rff_shots(game: Game, shots: Any) -> Any:
    """The half-phase's shots under Hynds' limits (hidden units, firing over troops, separated
    batteries), each rule's list replacing the last, even an empty one; None if none changed them."""
    state = game.state
    kept = conceal.held_fire(game, shots)
    for rule in (skirmish.firing_over_blocked, skirmish.separated_batteries):
        now = rule(game, state, shots if kept is None else kept)
        if now is not None:
            kept = now
    if fire.HALF_POINT_FIRES not in game.options:
        now = fire.whole_points(game, shots if kept is None else kept, fire_points)
        if now is not None:
            kept = now
    return kept


def fire_points(game: Game, shot: Shot) -> Any:
    """The shot's fire points after rff's and Hynds' x 1/2 multipliers (as the roll reads them)."""
    points, multipliers = rff_fire.fire_points(game, game.state, shot)
    return (rff_fire_points(game, shot, points, multipliers) or (points, multipliers))[0]


@hookimpl
def rff_fire_points(game: Game, shot: Shot, points: Any, multipliers: Any) -> Any:
    firer = shot.firer  # each rule asked only when its cheapest condition holds
    return ((firer.charge_target is not None and fire.points(game, shot, points, multipliers))
            or (firer.moved == "prolong" and skirmish.prolonge_points(shot, points, multipliers))
            or (((hynds := hynds_state.of(game)).surprising or hynds.unready)
                and conceal.surprised_points(game, shot, points, multipliers)) or None)


@hookimpl
def rff_fire_result(game: Game, shot: Shot, die: int, values: Any) -> Any:
    if shot.firer.unit.hidden:  # firing shows a hidden unit (HYNDS-H1)
        conceal.reveal(game, shot.firer, "it fires")
    if shot.kind == "cannonade":  # each rule asked only on the dice its chart reads (no call on the others)
        if die in DEBRIS_DICE:
            skirmish.firing_over(game, game.state, shot, die)
        if die in FIRE_DICE:
            works.set_on_fire(game, shot, die)
    return fire.result(game, game.state, shot, die, values)


@hookimpl
def rff_phase_done(game: Game, step: Any) -> None:
    """Hynds' rules that follow a phase."""
    conceal.after_step(game, game.state, step)
    if step.name == "maneuver":
        skirmish.after_maneuver(game, game.state)
    elif step.name == "fire":
        skirmish.snipers_fire(game, game.state, step.side)
        fire.push_back(game, game.state)


@hookimpl
def rff_turn_done(game: Game) -> None:
    """Hynds' rules that follow a turn."""
    conceal.end_turn(game, game.state)
    works.end_turn(game, game.state)
    leaders.end_turn(game, game.state)
    move.end_turn(game)
