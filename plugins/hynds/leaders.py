"""Exceptional and weak leaders: a d10 per leader of infantry and cavalry at the start, and for
a new leader the turn after one is lost; +1 or -1 to maneuver and combat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.api import D10, Game
from referee.plugins.rff import leaders as rff_leaders

if TYPE_CHECKING:
    from referee.plugins.rff.state import LeaderState, Piece, RffState

from .cite import modifier, ref
from .state import of
from .tables import charts

SCENARIO_RATINGS = "scenario-leader-ratings"  # option: leaders keep the scenario's rating and do not roll (HYNDS-L1)
ORDINARY = "able"  # rff's rating with no modifier: what a leader Hynds rates is to rff (HYNDS-L1)


def roll_all(game: Game, state: RffState) -> None:
    if SCENARIO_RATINGS in game.options:
        of(game).ratings = dict.fromkeys(state.leaders, "")
        return
    led = _led(state)
    for leader in state.leaders.values():
        _roll(game, state, leader, led)


def end_turn(game: Game, state: RffState) -> None:
    """A new leader (rff's provisional commander) rolls the turn after his predecessor fell."""
    rated = of(game).ratings
    if len(rated) == len(state.leaders) or SCENARIO_RATINGS in game.options:
        return  # every leader rated (leaders join, never leave), or none rolls
    led = _led(state)
    for leader in list(state.leaders.values()):
        if leader.id not in rated:
            _roll(game, state, leader, led)


def _led(state: RffState) -> frozenset[str]:
    """The commands with infantry or cavalry in them: only their leaders roll (HYNDS-L2)."""
    return frozenset(p.command for p in state.pieces.values() if p.arm in ("infantry", "cavalry"))


def _roll(game: Game, state: RffState, leader: LeaderState, led: frozenset[str]) -> None:
    rated = of(game).ratings
    if leader.commands.isdisjoint(led):
        rated[leader.id] = ""  # Hynds rolls for leaders of infantry and cavalry only (HYNDS-L2)
        return
    die = game.roller.roll(D10)
    rating = rated[leader.id] = rating_of(die, leader.side)
    leader.rating = ORDINARY  # his roll is his rating: rff's (the scenario's) gives way to it, never adds to it
    if rating:
        value = charts()["leaders"][rating]["value"]
        of(game).bonus[leader.id] = (modifier(f"{rating.capitalize()} leader", value, "Leaders", "HYNDS-L1"),)
    game.log.emit("leader", unit=leader.id, dice=[die], rulings=["HYNDS-L1"], ruleset="hynds",
                  text=f"{leader.id} rolls {die} on Hynds' leader chart ({ref('Leaders')}): {rating or 'ordinary'}")


def rating_of(die: int, side: str) -> str:
    """"exceptional", "weak" or "" for a d10 rolled by a leader of ``side``."""
    chart = charts()["leaders"]
    column = "confederate" if side == "confederate" else "union"
    return next((k for k in ("exceptional", "weak") if die in chart[k][column]), "")


def _bonus(game: Game, leader: LeaderState | None) -> tuple[Any, ...]:
    return of(game).bonus.get(leader.id, ()) if leader is not None else ()


def maneuver_modifiers(game: Game, state: RffState, piece: Piece) -> tuple[Any, ...]:
    bonus = of(game).bonus
    if not bonus:  # every leader is ordinary: no need to find the commander
        return ()
    leader = rff_leaders.commander(game, state, piece)
    return bonus.get(leader.id, ()) if leader is not None else ()


def charge_modifiers(game: Game, state: RffState, attacker: Piece, defender: Piece) -> list[Any]:
    """The attacker's leader's modifier, less the defender's (rff counts added charge
    modifiers for the attacker)."""
    mine = _bonus(game, rff_leaders.commander(game, state, attacker))
    theirs = _bonus(game, rff_leaders.commander(game, state, defender))
    return [*mine] + [modifier(f"Defender's {m.name.removesuffix(' (Hynds)').lower()}", -int(m.value), "Leaders", "HYNDS-L1") for m in theirs]
