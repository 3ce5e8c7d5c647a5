"""The charge phase: charge combat with every modifier, its results, breakthrough charges.

A charge that reached contact (and was not checked by defensive fire) is resolved here; a
desperate struggle is fought again with the cold steel, breakthrough and cavalry modifiers lost
(QRS II). The procedure's open points are rulings RFF-P9, RFF-P18 and RFF-P19.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from referee.api import Game, Modifier

from . import geometry as geo
from . import leaders, lookup, maneuver, mechanics, move
from .fire import fallen_leader
from .state import Piece, RffState
from .tables import RffTables

CONTACT_YARDS = 1.0
MAX_STRUGGLES = 10  # a guard; each struggle costs both sides a stand, so it ends long before


def phase(game: Game, state: RffState, side: str) -> None:
    for attacker in list(state.of_side(side)):
        defender = state.pieces.get(attacker.charge_target) if attacker.charge_target else None
        if defender is None or not defender.alive or not attacker.alive:
            continue
        if geo.contact_gap(attacker, defender) > CONTACT_YARDS:
            continue
        combat(game, state, attacker, defender)
    for attacker in [p for p in state.of_side(side) if p.breakthrough]:
        _breakthrough(game, state, attacker)


CARRIED = ("swept-from-the-field", "driven-back", "hard-pressed")  # the attacker takes the place (a
# hard-pressed defender in a fortified position holds it: the attacker gives ground instead)


def combat(game: Game, state: RffState, attacker: Piece, defender: Piece) -> None:
    attacker.combats += 1
    struggle = False
    for _ in range(MAX_STRUGGLES):
        a_mods = modifiers(game, state, attacker, defender, attacking=True, struggle=struggle)
        d_mods = modifiers(game, state, defender, attacker, attacking=False, struggle=struggle)
        a_mods += game.extra_modifiers("charge", (attacker, defender))
        res = mechanics.charge_combat(game.roller, state.tables, tuple(a_mods), tuple(d_mods))
        res = game.settle("charge", (attacker, defender), res, rulings=("RFF-P9", "RFF-P18"), unit=attacker.id, target=defender.id)
        effect = res.values["effect"]
        apply(game, state, attacker, defender, effect, res.values)
        if effect != "desperate-struggle" or not (attacker.alive and defender.alive):
            break
        struggle = True
    attacker.charge_target = None
    carried = effect in CARRIED and not (effect == "hard-pressed" and attacker.moved == "retreat")
    game.report_assault(attacker.unit_id, defender.unit_id, carried or not defender.alive)


def modifiers(game: Game, state: RffState, me: Piece, foe: Piece, attacking: bool, struggle: bool) -> list[Modifier]:
    """Every Charge Table modifier that applies to one side of the combat."""
    t = state.tables
    mods = [lookup.modifier(t, "charge", me.grade), lookup.modifier(t, "charge", maneuver.effectiveness(state, me))]
    mine = _numbers(t, me, me.stands if attacking else geo.counted_stands(game, state, me, foe))
    theirs = _numbers(t, foe, geo.counted_stands(game, state, foe, me) if attacking else foe.stands)
    ratio = theirs / max(mine, Fraction(1, 2))
    outnumbered = lookup.outnumbered(t, ratio)
    if outnumbered:
        mods.append(lookup.modifier(t, "charge", outnumbered))
    if me.guns:
        supported = any(p.troops for _, p in geo.within(state, me, state.of_side(me.side), geo.yards(state, lookup.close_range(t))))
        mods.append(lookup.modifier(t, "charge", "supported-guns" if supported else "unsupported-guns"))
    if me.status == "disordered" or me.silenced:
        mods.append(lookup.modifier(t, "charge", "disordered"))
    if leaders.attached_to(state, me) is not None:
        mods.append(lookup.modifier(t, "charge", "attached-leader"))
    if me.formation == "extended-line":
        mods.append(lookup.modifier(t, "charge", "extended-line"))
    if me.status == "broken" or me.formation == "march-column" or me.limbered or _outflanked(state, me, foe, attacking):
        mods.append(lookup.modifier(t, "charge", "outflanked"))
    if not attacking:
        cover = geo.cover(game, me)
        if cover in ("fortified", "full"):
            mods.append(lookup.modifier(t, "charge", "strong-position"))
        elif cover == "partial" or game.ground.height_at(me.x, me.y) > game.ground.height_at(foe.x, foe.y):
            mods.append(lookup.modifier(t, "charge", "favorable-ground"))
    if not struggle:
        if attacking and (me.cold_steel or me.breakthrough):
            mods.append(lookup.modifier(t, "charge", "cold-steel"))
        if me.arm == "cavalry" and me.unit.mounted and (attacking or me.countercharged):
            ground = geo.worst_ground(game, me.x, me.y, foe.x, foe.y)
            key = lookup.cavalry_ground_modifier(t, ground)
            if key:
                mods.append(lookup.modifier(t, "charge", key))
    return mods


def _numbers(t: RffTables, piece: Piece, stands: int) -> Fraction | int:
    """Stands counted for numbers: a half section counts as the share of a stand its one gun is
    (RFF-P27)."""
    return stands - piece.half * (1 - lookup.multiplier(t, "half-section").value)


def _outflanked(state: RffState, me: Piece, foe: Piece, attacking: bool) -> bool:
    """RFF-P18: a defender charged in its flank or rear, or either side with another fit enemy
    on its flank within close range."""
    if not attacking and geo.on_flank(me, foe):
        return True
    close = geo.yards(state, lookup.close_range(state.tables))
    return any(e is not foe and e.parent is None and e.status != "broken" and geo.on_flank(me, e)
               for _, e in geo.within(state, me, geo.enemies_near(state, me, close), close))


def apply(game: Game, state: RffState, attacker: Piece, defender: Piece, effect: str, values: Mapping[str, Any]) -> None:
    """The results of one charge combat, as the Charge Table words them."""
    def by_cavalry(winner: Piece) -> bool:
        return winner.arm == "cavalry" and winner.unit.mounted

    outflanked_d = _outflanked(state, defender, attacker, attacking=False)
    outflanked_a = _outflanked(state, attacker, defender, attacking=True)
    place = (defender.x, defender.y)
    a_lost, d_lost = int(values.get("attacker_stands_lost", 0)), int(values.get("defender_stands_lost", 0))
    if effect == "swept-from-the-field":
        _lose(game, state, defender, d_lost, effect)
        _rout(game, state, defender)
        _leader_check(game, state, defender)
        _carry(game, state, attacker, place, second=attacker.combats > 1)
        if attacker.combats == 1 and attacker.alive:
            attacker.breakthrough = True
    elif effect == "driven-back":
        extra = 1 if defender.troops and (by_cavalry(attacker) or outflanked_d) else 0
        _lose(game, state, defender, d_lost + extra, effect)
        if defender.troops:
            _disorder(defender)
            _give_ground(game, state, defender, rout=bool(extra), out_of_close_range=True)
        else:
            _limber_and_retreat(game, state, defender)
        _carry(game, state, attacker, place, second=attacker.combats > 1)
        if by_cavalry(attacker) and attacker.combats == 1 and attacker.alive:
            attacker.breakthrough = True
    elif effect == "hard-pressed":
        fortified = geo.cover(game, defender) == "fortified"
        if defender.troops:
            _lose(game, state, defender, 1 if defender.status != "good" else 0, effect)
            _disorder(defender)
        else:
            defender.silenced, defender.damaged = defender.stands, min(defender.stands, defender.damaged + 1)
        if fortified:
            _give_ground(game, state, attacker, rout=False, out_of_close_range=False)
            return
        if defender.troops:
            _give_ground(game, state, defender, rout=outflanked_d, out_of_close_range=False)
        else:
            _limber_and_retreat(game, state, defender)
        _carry(game, state, attacker, place, second=attacker.combats > 1)
    elif effect == "desperate-struggle":
        for piece in (attacker, defender):
            _lose(game, state, piece, 1, effect)
            if piece.troops:
                _disorder(piece)
            else:
                piece.silenced = piece.stands
    elif effect == "falter":
        _lose(game, state, attacker, 1 if attacker.status != "good" else 0, effect)
        _disorder(attacker)
        _give_ground(game, state, attacker, rout=outflanked_a, out_of_close_range=False)
        _cavalry_disordered(defender)
    elif effect == "recoil":
        extra = 1 if by_cavalry(defender) or outflanked_a else 0
        _lose(game, state, attacker, a_lost + extra, effect)
        _disorder(attacker)
        _give_ground(game, state, attacker, rout=bool(extra), out_of_close_range=True)
        _cavalry_disordered(defender)
    elif effect == "repulsed":
        _lose(game, state, attacker, a_lost, effect)
        _rout(game, state, attacker)
        _leader_check(game, state, attacker)
        _cavalry_disordered(defender)


def _give_ground(game: Game, state: RffState, piece: Piece, rout: bool, out_of_close_range: bool) -> None:
    """Full retreat broken, or retreat out of close range, or 1.5" from the enemy."""
    if rout:
        _rout(game, state, piece)
    elif out_of_close_range:
        move.retreat_out_of_close_range(game, state, piece)
    else:
        move.retreat(game, state, piece, geo.yards(state, lookup.distance(state.tables, "charge-checked")))


def _lose(game: Game, state: RffState, piece: Piece, n: int, why: str) -> None:
    maneuver.lose_stands(game, state, piece, n, f"charge: {why}", "charge")


def _disorder(piece: Piece) -> None:
    if piece.alive and piece.status == "good":
        piece.status = "disordered"


def _rout(game: Game, state: RffState, piece: Piece) -> None:
    """Full retreat broken (troops) or limber and full retreat silenced (guns)."""
    if not piece.alive:
        return
    if piece.guns:
        _limber_and_retreat(game, state, piece)
        return
    piece.status = "broken"
    move.full_retreat(game, state, piece)


def _limber_and_retreat(game: Game, state: RffState, piece: Piece) -> None:
    if piece.alive:
        piece.formation, piece.silenced = "limbered", piece.stands
        move.full_retreat(game, state, piece)


def _cavalry_disordered(piece: Piece) -> None:
    if piece.arm == "cavalry":
        _disorder(piece)


def _carry(game: Game, state: RffState, attacker: Piece, place: tuple[float, float], second: bool) -> None:
    """The attacker carries the position; disordered if it charged over broken or rough ground,
    is cavalry, or has fought its second combat."""
    if not attacker.alive:
        return
    ground = geo.worst_ground(game, attacker.x, attacker.y, *place)
    attacker.x, attacker.y = place
    state.moved(attacker)
    if ground in ("broken", "rough") or attacker.arm == "cavalry" or second:
        _disorder(attacker)
    game.log.emit("carry", unit=attacker.id, rulings=["RFF-P11"], text=f"{attacker.id} carries the position")


def _leader_check(game: Game, state: RffState, piece: Piece) -> None:
    leader = leaders.attached_to(state, piece)
    if leader is not None:
        fallen_leader(game, state, leader)


def _breakthrough(game: Game, state: RffState, attacker: Piece) -> None:
    """A half move at the double quick toward the closest enemy; contact means a second
    combat with the breakthrough modifier."""
    attacker.breakthrough = attacker.alive
    target = geo.nearest(state.enemies_of(attacker.side), attacker)
    if target is None or not attacker.alive:
        attacker.breakthrough = False
        return
    reach = move.rate_yards(game, state, attacker, "double", (target.x, target.y), share=0.5)
    if geo.contact_gap(attacker, target) <= reach:
        move.advance(game, state, attacker, (target.x, target.y), reach, contact=target)
        game.log.emit("breakthrough", unit=attacker.id, target=target.id, text=f"{attacker.id} breaks through into {target.id}")
        combat(game, state, attacker, target)
    attacker.breakthrough = False
