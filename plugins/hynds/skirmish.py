"""Snipers in a skirmish line, firing over friendly troops, prolonge fire, and separated batteries."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.api import D10, Game, Modifier
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import lookup

if TYPE_CHECKING:
    from referee.plugins.rff.fire import Shot
    from referee.plugins.rff.state import Piece, RffState

from .cite import ref
from .state import of
from .tables import charts, fraction, inches

PROLONGE = Modifier("Prolonge fire (Hynds)", Fraction(1, 2), ref("Prolonge Fire", "HYNDS-G2"), on="fire points x")


def after_maneuver(game: Game, state: RffState) -> None:
    """Skirmishers deployed this maneuver roll for a sniper; a battery that withdrew by
    prolonge may fire, at half effect (HYNDS-G2)."""
    rule = charts()["snipers"]
    rolled = of(game).snipers
    for piece in list(state.pieces.values()):
        if piece.parent is not None and piece.id not in rolled and piece.alive:
            die = game.roller.roll(D10)
            rolled[piece.id] = die in rule["deploy"]
            game.log.emit("sniper", unit=piece.id, dice=[die], rulings=["HYNDS-K2"], ruleset="hynds",
                          text=f"{piece.id} rolls {die} for a sniper ({rule['ref']}): {'a sniper' if rolled[piece.id] else 'none'}")
        if piece.guns and piece.moved == "prolong":
            piece.may_fire = True


def prolonge_points(shot: Shot, points: Any, multipliers: tuple[Modifier, ...]) -> tuple[Any, tuple[Modifier, ...]] | None:
    if shot.firer.guns and shot.firer.moved == "prolong":
        return Fraction(points) * PROLONGE.value, (*multipliers, PROLONGE)
    return None


def snipers_fire(game: Game, state: RffState, side: str) -> None:
    """Each sniper of ``side`` fires at the nearest enemy commander within 30": a hit on 9 or
    10 (+1 below 15"), and the commander rolls on the fallen leader table (HYNDS-K2)."""
    rule = charts()["snipers"]
    for piece_id, has in sorted(of(game).snipers.items()):
        piece = state.pieces.get(piece_id)
        if not has or piece is None or not piece.alive or piece.side != side:
            continue
        reach = geo.yards(state, float(fraction(rule["reach_inches"])))
        near = sorted((math.hypot(ld.place[0] - piece.x, ld.place[1] - piece.y), ld.id, ld) for ld in state.leaders.values()
                      if ld.side != side and ld.status in ("active", "dismounted") and not ld.waiting)
        near = [n for n in near if n[0] <= reach]
        if not near:
            continue
        gap, _, leader = near[0]
        die = game.roller.roll(D10)
        bonus = rule["close_bonus"] if gap < geo.yards(state, float(fraction(rule["close_inches"]))) else 0
        hit = die + bonus >= min(rule["hit"])
        game.log.emit("sniper", unit=piece.id, target=leader.id, dice=[die], rulings=["HYNDS-K2"], ruleset="hynds",
                      text=f"{piece.id}'s sniper fires at {leader.id} ({rule['ref']}): {die}{f' +{bonus}' if bonus else ''} -> {'hit' if hit else 'miss'}")
        if hit:
            rff_fire.fallen_leader(game, state, leader)


def _troops(state: RffState, side: str) -> tuple[tuple[Any, float, float, float], ...]:
    """``side``'s troop pieces on the field: (piece, x, y, half its frontage)."""
    return tuple((f, f.x, f.y, geo.footprint(f).shape[0] / 2) for f in state.of_side(side) if f.troops and f.alive)


def _under_fire_line(state: RffState, firer: Piece, target: Piece, troops: tuple[tuple[Any, float, float, float], ...] | None = None) -> list[Any]:
    """Friendly troops of the battery in its line of fire, nearer than the target (their
    footprint across the line); ``troops``: :func:`_troops` of its side, if the caller has it."""
    dx, dy = target.x - firer.x, target.y - firer.y
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return []
    x, y = firer.x, firer.y
    out = []
    for friend, fx, fy, half in troops if troops is not None else _troops(state, firer.side):
        ox, oy = fx - x, fy - y
        if 0 < (ox * dx + oy * dy) / length < length and abs(ox * dy - oy * dx) / length <= half:  # along, across
            out.append(friend)
    return out


def _height(game: Game, x: float, y: float) -> float:
    """The ground's height at (x, y), kept per ground by the place."""
    return float(geo.kept(game, _height_at, x, y))


def _height_at(game: Game, x: float, y: float) -> float:
    return float(game.ground.height_at(x, y))


def _barred(game: Game, state: RffState, firer: Piece, target: Piece, troops: tuple[tuple[Any, float, float, float], ...], kept: dict[Any, bool]) -> bool:
    """Does a friend stand in the battery's line of fire at ``target`` (:func:`_under_fire_line`)
    that Hynds does not let it fire over? It may fire over its own troops only if it is more
    than 6" behind them and either above them or firing at a target above them (HYNDS-G3): one
    friend too near, or not below both the battery and the target, bars the shot, and the friends
    after it are not looked at. ``kept`` holds the answers while ``troops`` stand where they stood."""
    key = (firer.id, firer.x, firer.y, target.x, target.y)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _bars(game, state, firer, target, troops)
    return found


def _bars(game: Game, state: RffState, firer: Piece, target: Piece, troops: tuple[tuple[Any, float, float, float], ...]) -> bool:
    dx, dy = target.x - firer.x, target.y - firer.y
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return False
    x, y = firer.x, firer.y
    behind = geo.yards(state, inches("firing_over", "behind_inches"))
    top = None  # the higher of the battery's ground and the target's, once a friend is in the way
    for friend, fx, fy, half in troops:
        ox, oy = fx - x, fy - y
        if 0 < (ox * dx + oy * dy) / length < length and abs(ox * dy - oy * dx) / length <= half:  # along, across (as _under_fire_line)
            if math.hypot(ox, oy) - geo.footprint(friend).depth / 2 <= behind:
                return True  # (the distance first: it needs no height)
            if top is None:
                top = max(_height(game, x, y), _height(game, target.x, target.y))
            if not top > _height(game, fx, fy):
                return True
    return False


def _kept_for(game: Game, state: RffState, side: str) -> tuple[tuple[tuple[Any, float, float, float], ...], dict[Any, bool]]:
    """The side's troops (:func:`_troops`) and the answers of :func:`_barred` kept for them,
    begun afresh when one of them moved or changed (compared piece by piece as read)."""
    memo = of(game).over
    troops = _troops(state, side)
    held = memo.get(side)
    if held is None or held[0] != troops:
        held = memo[side] = (troops, {})
    return held


def _aim_past(game: Game, state: RffState, shot: Shot, troops: Any, answers: dict[Any, bool]) -> Any:
    """The battery's shot at the first target rff would aim at that it may fire at, or None:
    the nearest targets are asked first, so one aim most often finds it (the search is the
    half-phase's, kept: :func:`referee.plugins.rff.geometry.around`)."""
    firer = shot.firer
    reach = geo.yards(state, lookup.max_range(state.tables, "cannonade", firer.weapon))
    barred = {shot.target.id}
    near = geo.around(state, firer.side, state.enemies_of(firer.side))
    for _, enemy in near.within(state, firer, reach):
        if enemy.id in barred:
            continue
        if not _barred(game, state, firer, enemy, troops, answers):
            break  # (the first it may fire at: rff's aim, which may pass over it, will say)
        barred.add(enemy.id)
    else:
        return None  # every target in its reach and arc lies over its own troops: no aim finds one
    while True:
        other = rff_fire.aim_elsewhere(game, state, shot, barred, near)
        if other is None or not _barred(game, state, firer, other.target, troops, answers):
            return other
        barred.add(other.target.id)


def firing_over_blocked(game: Game, state: RffState, shots: list[Any]) -> list[Any] | None:
    """A battery whose line of fire crosses its own troops where Hynds does not let it fire over
    them aims again, passing over every target it may not fire at, or holds its fire (HYNDS-G3)."""
    kept, changed = [], False
    troops: dict[str, Any] = {}  # side -> (its troops, the answers kept for them)
    for shot in shots:
        barred = False
        if shot.kind == "cannonade":
            side = shot.firer.side
            if side not in troops:
                troops[side] = _kept_for(game, state, side)
            mine, answers = troops[side]
            barred = _barred(game, state, shot.firer, shot.target, mine, answers)
        if barred:
            changed = True
            firer = shot.firer
            other = _aim_past(game, state, shot, mine, answers)
            if game.log.enabled:
                friend = _under_fire_line(state, firer, shot.target, mine)[0]
                game.log.emit("ruling", unit=firer.id, rulings=["HYNDS-G3"], ruleset="hynds",
                              text=f"{firer.id} may not fire over {friend.id} at {shot.target.id} ({charts()['firing_over']['ref']}): "
                                   + (f"aims at {other.target.id} instead" if other else "holds its fire"))
            shot = other
        if shot is not None:
            kept.append(shot)
    return kept if changed else None


def firing_over(game: Game, state: RffState, shot: Shot, die: int) -> None:
    """A battery firing over friendly troops (as Hynds lets it, :func:`firing_over_blocked`)
    disorders those in good order on a 1 or 2 (HYNDS-G3)."""
    rule = charts()["firing_over"]
    if die not in rule["disorders"]:
        return
    for friend in _under_fire_line(state, shot.firer, shot.target):
        if friend.status == "good":
            friend.status = "disordered"
            game.log.emit("ruling", unit=friend.id, rulings=["HYNDS-G3"], ruleset="hynds",
                          text=f"{shot.firer.id} rolled {die} firing over {friend.id}: debris falls on them, disordered ({rule['ref']})")


def separated_batteries(game: Game, state: RffState, shots: list[Any]) -> list[Any] | None:
    """Batteries more than 6" apart may not fire together at a target over 16" away unless it is
    the closest enemy to each or within charge range (rff's close range) of a friendly unit; a
    battery that may not fires at another target if it has one, else holds (HYNDS-G4)."""
    per_inch = state.tables.scale.yards_per_inch
    distant = inches("separated", "distant_inches") * per_inch
    by_target: dict[str, list[Any]] = {}
    shared = False  # do two batteries fire at one distant target?
    for shot in shots:
        if shot.kind == "cannonade" and shot.range_inches * per_inch > distant:
            group = by_target.get(shot.target.id)
            if group is None:
                by_target[shot.target.id] = [shot]
            else:
                group.append(shot)
                shared = True
    if not shared:
        return None
    rule = charts()["separated"]
    apart = geo.yards(state, inches("separated", "apart_inches"))
    close = geo.yards(state, lookup.close_range(state.tables))
    kept, changed = [], False
    for shot in shots:
        group = by_target.get(shot.target.id)
        if (group is None or shot is group[0] or math.hypot(shot.firer.x - group[0].firer.x, shot.firer.y - group[0].firer.y) <= apart
                or _may_combine(state, shot, group, close)):
            kept.append(shot)
            continue
        changed = True
        other = rff_fire.aim_elsewhere(game, state, shot, by_target)
        game.log.emit("ruling", unit=shot.firer.id, rulings=["HYNDS-G4"], ruleset="hynds",
                      text=f"{shot.firer.id} may not combine its fire on {shot.target.id} ({rule['ref']}): "
                           + (f"fires at {other.target.id} instead" if other else "holds its fire"))
        if other is not None:
            kept.append(other)
    return kept if changed else None


def _may_combine(state: RffState, shot: Shot, group: Sequence[Any], close: float) -> bool:
    target = shot.target
    nearest = all(geo.nearest(state.enemies_of(s.firer.side), s.firer) is target for s in group)
    return nearest or bool(geo.within(state, target, [p for p in state.of_side(shot.firer.side) if p.troops], close))
