"""Hidden units, fog and darkness (HYNDS-H1), surprise fire (HYNDS-H2) and surprise attack
(HYNDS-H3), on the core's neutral concealment (``UnitState.hidden``, ``World.weather``): the
default commander neither aims at nor advances on a unit it cannot see, and rff does not aim at
one."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.api import D10, Game, Modifier
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import leaders as rff_leaders
from referee.plugins.rff import lookup
from referee.plugins.rff import maneuver as rff_maneuver
from referee.plugins.rff import move as rff_move

if TYPE_CHECKING:
    from referee.plugins.rff.fire import Shot
    from referee.plugins.rff.state import Piece, RffState

from .cite import modifier, ref
from .mechanics import surprise_effect
from .state import of
from .tables import charts, fraction

HALF = Modifier("Surprised unit firing (Hynds)", Fraction(1, 2), ref("Surprise Attack", "HYNDS-H3"), on="fire points x")


def muster(game: Game, state: RffState) -> None:
    """Hidden by the scenario, or by fog: every unit on the field starts unseen."""
    fog = game.world.weather == "fog"
    hynds = of(game)
    if fog:
        hynds.mist = True
    for piece in state.pieces.values():
        if piece.unit.spec.hidden or (fog and piece.unit.on_field):
            piece.unit.hidden = hynds.hiding = True
        if piece.unit.spec.surprised:
            hynds.unready.add(piece.id)
    sweep(game, state)


def _seen_within(game: Game, state: RffState, piece: Piece) -> float:
    """Yards at which an enemy sees the piece: 4", 2" in woods."""
    rule = charts()["concealment"]
    woods = game.ground.kind_at(piece.x, piece.y) in rule["woods"]
    return geo.yards(state, float(fraction(rule["seen_in_woods_inches" if woods else "seen_inches"])))


def _near(state: RffState, piece: Piece, yards: float) -> list[tuple[float, Any]]:
    return geo.within(state, piece, geo.enemies_near(state, piece, yards), yards)


def reveal(game: Game, piece: Piece, why: str) -> None:
    if piece.unit.hidden:
        piece.unit.hidden = False
        game.log.emit("seen", unit=piece.unit_id, rulings=["HYNDS-H1"], ruleset="hynds",
                      text=f"{piece.unit_id} is seen: {why} ({ref('Hidden units')})")


def sweep(game: Game, state: RffState) -> None:
    """Hidden pieces with an enemy within 4" (2" in woods) are seen."""
    if not of(game).hiding:
        return
    for piece in list(state.pieces.values()):
        if piece.unit.hidden and piece.alive and _near(state, piece, _seen_within(game, state, piece)):
            reveal(game, piece, "an enemy is close")


def moved(game: Game, state: RffState, piece: Piece, start: tuple[float, float]) -> None:
    """A hidden piece that moves shows itself, but not in the mist (charging from concealment:
    a surprise attack); a piece that comes within 4" of a hidden enemy draws its surprise fire."""
    hynds = of(game)
    if not hynds.hiding:
        return
    if piece.unit.hidden:
        if piece.charge_target is not None:
            hynds.surprising.add(piece.id)
            reveal(game, piece, "it charges")
        elif not hynds.mist:
            reveal(game, piece, "it moves")
        return
    reach = geo.yards(state, float(fraction(charts()["surprise"]["range_inches"])))
    for _, enemy in _near(state, piece, reach):
        if enemy.unit.hidden and piece.alive:
            surprise_fire(game, state, enemy, piece, math.hypot(piece.x - start[0], piece.y - start[1]))


def surprise_fire(game: Game, state: RffState, firer: Piece, mover: Piece, moved_yards: float) -> None:
    """The concealed firer fires at the mover where it stands now (the point it chose), then the
    mover rolls on the Surprise Fire Effects table (HYNDS-H2). A unit with skirmishers out is
    warned: the firer is seen, and fires in the fire phase as usual."""
    reveal(game, firer, f"surprise fire at {mover.unit_id}")
    if mover.skirmishers:
        return
    shot = rff_fire.aim(game, state, firer, True, mover.unit_id, None)
    if shot is None or shot.target is not mover:
        return
    from . import (  # (the package's own composition of fire points: imported late, it imports this module)
        fire,
        fire_points,
    )
    if fire.HALF_POINT_FIRES not in game.options and fire.whole_points(game, [shot], fire_points) == []:
        return  # under 1 point rounds down to none (HYNDS-F8)
    chart = charts()["surprise"]
    commanders = [ld for ld in state.leaders.values() if ld.attached == mover.id and ld.status == "active"]
    good = mover.status == "good"
    rff_fire.resolve(game, state, shot)
    of(game).spent.add(firer.id)
    if not mover.alive:
        return
    mods = []
    if firer.guns:
        mods.append(modifier(chart["artillery"]["label"], chart["artillery"]["value"], "Surprise Fire Effects"))
    if geo.on_flank(mover, firer):
        mods.append(modifier(chart["flank"]["label"], chart["flank"]["value"], "Surprise Fire Effects"))
    if any(ld.status == "removed" for ld in commanders):
        mods.append(modifier(chart["leader-killed"]["label"], chart["leader-killed"]["value"], "Surprise Fire Effects"))
    mods += game.extra_modifiers("surprise-fire", mover)
    resolution = surprise_effect(game.roller, good and mover.status != "good", mods)
    if game.seen:
        resolution = game.settle("surprise-fire", mover, resolution, unit=mover.id, target=firer.id)
    effect = resolution.values["effect"]
    if effect == "recoil":
        rff_move.retreat(game, state, mover, moved_yards)
    elif effect == "checked":
        mover.charge_target = None
    elif effect == "driven-back":
        rff_maneuver.lose_stands(game, state, mover, 1, "driven back by surprise fire", "musketry")
        reach = geo.yards(state, lookup.max_range(state.tables, "musketry", "RM"))
        gap = math.hypot(mover.x - firer.x, mover.y - firer.y)
        if mover.alive and gap <= reach:
            rff_move.retreat(game, state, mover, reach - gap + 5.0)


def held_fire(game: Game, shots: list[Any]) -> list[Any] | None:
    """A hidden piece holds its fire (firing would show it); one whose surprise fire was its
    fire this player turn fires no more."""
    hynds = of(game)
    if not hynds.hiding:
        return None
    spent = hynds.spent
    kept = [s for s in shots if not s.firer.unit.hidden and s.firer.id not in spent]
    return kept if len(kept) < len(shots) else None


def surprised_points(game: Game, shot: Shot, points: Any, multipliers: tuple[Modifier, ...]) -> tuple[Any, tuple[Modifier, ...]] | None:
    """A unit charged from concealment, or charged while still unready (HYNDS-H4), fires at its
    attacker at half effect (HYNDS-H3)."""
    attacker = shot.target
    hynds = of(game)
    if attacker.charge_target == shot.firer.id and (attacker.id in hynds.surprising or shot.firer.id in hynds.unready):
        return Fraction(points) * HALF.value, (*multipliers, HALF)
    return None


def surprise_attack(game: Game, attacker: Piece) -> list[Modifier]:
    """The surprised defender's extra -1 in combat, counted for the attacker (rff's way): charged
    from concealment (HYNDS-H3), or charged while still unready (HYNDS-H4)."""
    hynds = of(game)
    unready = hynds.unready
    if attacker.id not in hynds.surprising and attacker.charge_target not in unready:
        return []
    ruling = "HYNDS-H3"
    if attacker.charge_target in unready:
        hynds.woken.add(attacker.charge_target)
        ruling = "HYNDS-H4"
    rule = charts()["surprise"]["attack"]
    return [modifier(f"Defender {rule['label'].lower()}", -rule["value"], "Surprise Attack", ruling)]


def after_step(game: Game, state: RffState, step: Any) -> None:
    sweep(game, state)
    hynds = of(game)
    if step.name == "fire":
        hynds.spent.clear()
    elif step.name == "charge":
        hynds.surprising.clear()
        hynds.unready -= hynds.woken
        hynds.woken.clear()


def end_turn(game: Game, state: RffState) -> None:
    """Mist clears on a 7 or more by either player from turn 3; once dark (rff's twilight and
    night option), what is not within 4" of an enemy is unseen again."""
    rule = charts()["concealment"]
    hynds = of(game)
    if hynds.mist and game.turn >= rule["mist_from_turn"]:
        dice = [game.roller.roll(D10) for _ in game.scenario.sides]
        clears = any(d in rule["mist_clears"] for d in dice)
        game.log.emit("weather", dice=dice, rulings=["HYNDS-H1"], ruleset="hynds",
                      text=f"the mist {'clears' if clears else 'holds'} ({ref('Fog')}): {', '.join(map(str, dice))}")
        if clears:
            hynds.mist = False
            game.world.weather = "clear"
            for piece in state.pieces.values():
                reveal(game, piece, "the mist clears")
    if "twilight-and-night" in game.options and rff_leaders.is_night(game):
        for piece in state.pieces.values():
            if piece.alive and not piece.unit.hidden and not _near(state, piece, _seen_within(game, state, piece)):
                piece.unit.hidden = hynds.hiding = True
