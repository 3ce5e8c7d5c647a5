"""From the neutral world to stands, and back again after every phase."""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from typing import Any

from referee.api import STRICT, Game

from . import horses, lookup
from .geometry import deepest, ground_memo
from .hooks import RffHooks
from .state import FROM_NEUTRAL, TO_NEUTRAL, LeaderState, Piece, RffState

LEADER_RATING = {"superior": "gallant", "average": "able", "poor": "poor"}
_DEEPEST: weakref.WeakKeyDictionary[Any, dict[Any, float]] = weakref.WeakKeyDictionary()  # scenario -> tables -> deepest_of


def muster(game: Game, tables: Any) -> RffState:
    """Stands from men (RFF-P1), gun stands from guns (an odd gun a half section: RFF-P27), rff
    grades and weapon classes from the neutral ladder and weapons (tables ``weapons``)."""
    state = RffState(tables, RffHooks(game))
    scale = lookup.scale(tables)
    for unit in game.world.units.values():
        spec = unit.spec
        if spec.arm == "artillery":
            stands = max(1, math.ceil(spec.guns / scale.guns_per_model))
            half = int(spec.guns % scale.guns_per_model != 0)
            weapon = lookup.gun_class(tables, spec.gun_type, "optional-weapons" in game.options)
            horse = spec.mounted and not ("heavy-gun-restrictions" in game.options and weapon in lookup.HEAVY_GUNS)  # never HR or HH
            formation = "limbered" if unit.formation == "limbered" else "unlimbered"
        else:
            stands = max(1, round(spec.men / scale.men_per_piece))
            weapon = lookup.weapon_class(tables, spec.weapon)
            formation = FROM_NEUTRAL.get(unit.formation, "line")
            half, horse = 0, False
        state.pieces[spec.id] = Piece(
            spec.id, unit, spec.arm != "artillery", lookup.grade(tables, spec.experience), weapon,
            stands, stands, spec.men / stands, formation, unit.x, unit.y, unit.facing, flags=() if spec.arm == "artillery" else lookup.weapon_flags(tables, spec.weapon), half=half, horse=horse,
        )
    for ld in game.world.leaders.values():
        leader = ld.spec
        rating = "gallant" if "gallant" in leader.traits else LEADER_RATING[leader.rating]
        attached = ld.attached_to if ld.attached_to in state.pieces else None
        state.leaders[leader.id] = LeaderState(leader.id, leader.side, leader.command, rating, leader.traits, ld.x, ld.y, attached,
                                               game.scenario.subordinates.get(leader.command, frozenset()),
                                               piece=state.pieces.get(attached) if attached else None)
    for piece in state.pieces.values():
        for command in game.scenario.command_chain(piece.unit.spec.command):
            state.start_stands_by_command[command.id] = state.start_stands_by_command.get(command.id, 0) + piece.stands
            state.units_by_command[command.id] = state.units_by_command.get(command.id, 0) + 1
    for o in game.scenario.objectives:
        if o.key and o.held_by is not None:
            state.key_positions[o.held_by] = (*state.key_positions.get(o.held_by, ()), o.id)
    state.entering = [p for p in state.pieces.values() if not p.unit.on_field]
    state.deepest = deepest_of(game.scenario, tables, state.pieces.values())
    state.ground_memo = ground_memo(game)
    horses.place_markers(game, state)
    return state


def deepest_of(scenario: Any, tables: Any, pieces: Iterable[Piece]) -> float:
    """:func:`geometry.deepest` of the pieces mustered, kept per scenario and tables: muster sizes
    every piece from those alone, so every game of them has the same answer (the strict build
    checks it afresh)."""
    kept = _DEEPEST.setdefault(scenario, {})
    found = kept.get(tables)
    if found is None:
        found = kept[tables] = deepest(pieces)
    elif STRICT:
        assert found == deepest(pieces), "pieces mustered from one scenario and tables changed their sizes"
    return found


def sync(game: Game, state: RffState) -> None:
    """Write men, guns, place, facing, formation, status and low ammunition back to the neutral
    world (a regiment is low when it or its skirmishers are)."""
    per_model = state.tables.scale.guns_per_model
    pieces, to_neutral = state.pieces, TO_NEUTRAL
    for unit in game.world.units.values():
        main = pieces[unit.id]
        if main.skirmishers:  # skirmishers count in their regiment
            screen = pieces[main.skirmishers]
            standing = main.stands + screen.stands
            unit.low_ammo = main.low_ammo or screen.low_ammo
        else:
            standing = main.stands
            unit.low_ammo = main.low_ammo
        spec = unit.spec
        unit.men = spec.men * standing // main.start_stands
        if spec.guns:
            unit.guns = min(spec.guns, standing * per_model)
        unit.x, unit.y, unit.facing = main.x, main.y, main.facing
        unit.formation = to_neutral.get(main.formation, unit.formation)
        status = main.status
        if status == "good":
            unit.status = "disordered" if main.silenced else status
        else:
            unit.status = status
            if status == "gone":
                unit.on_field = False
