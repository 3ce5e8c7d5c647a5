"""Optional rule: skirmishers detached from an infantry regiment to screen its front.

Less than half of a regiment's stands, two to six, deploy in extended line within 2" in front
of it during a change of formation. They check and fight as a separate piece, stay in front of
the regiment, evade charging infantry back onto it, rejoin on contact, and become the
regiment if it is destroyed.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from attrs import evolve
from referee.api import Game, Intent

from . import geometry as geo
from . import lookup, move
from .state import Piece, RffState
from .tables import RffTables


def option_on(game: Game) -> bool:
    return "skirmishers" in game.options


@cache
def how_many(stands: int, rules: Any) -> int:
    """Stands to detach: a fifth of the regiment, at least the minimum, at most six and always
    less than half; 0 if the regiment is too small (kept per tables: asked at every check that
    may deploy a screen, and worked out in fractions)."""
    low, high, smallest, share = lookup.skirmisher_limits(rules)
    if stands < smallest:
        return 0
    most = min(high, (stands - 1) // 2)
    return max(low, min(most, round(stands * share))) if most >= low else 0


def after_regiment_moved(game: Game, state: RffState, regiment: Piece, intent: Any) -> None:
    """Skirmishers rejoin a charging regiment, or one whose commander no longer wants a screen."""
    if not regiment.skirmishers or not option_on(game) or regiment.arm != "infantry" or not regiment.alive:
        return
    if regiment.charge_target is not None or not intent.skirmishers:
        rejoin(game, state, state.pieces[regiment.skirmishers])


def may_deploy(game: Game, state: RffState, regiment: Piece, intent: Any, formation: str) -> bool:
    """May the regiment deploy skirmishers as (part of) its change of formation maneuver this
    check? Its commander wants a screen, it has none out and is big enough, it is in good order
    with a Double Quick, Well Handled or Tardy effect, and it stands (once re-formed) in line or
    field column (RFF-P10)."""
    return (intent.skirmishers and not regiment.skirmishers and regiment.arm == "infantry" and option_on(game)
            and regiment.parent is None and regiment.status == "good" and formation in ("line", "field-column")
            and regiment.effect in ("double-quick", "well-handled", "tardy") and screen_stands(game, state, regiment) > 0)


def screen_stands(game: Game, state: RffState, regiment: Piece) -> int:
    """The stands the regiment would detach as its screen now: :func:`how_many`, as a layer
    changes it (``rff_screen``)."""
    return state.hooks.screen(game, regiment, how_many(regiment.stands, state.tables))


def deploy(game: Game, state: RffState, regiment: Piece, held: bool) -> None:
    """Detach the skirmishers within 2" (15mm) in front of the regiment; if it held its position
    on a Double Quick or Well Handled effect they may go on up to a half move (RFF-P10)."""
    n = screen_stands(game, state, regiment)
    if n == 0:
        return
    ahead = geo.yards(state, lookup.skirmisher_deploy_inches(state.tables))
    rad = math.radians(regiment.facing)
    screen = evolve(
        regiment, id=f"{regiment.id}/skirmishers", stands=n, start_stands=n, formation="extended-line",
        x=regiment.x + ahead * math.sin(rad), y=regiment.y + ahead * math.cos(rad),
        parent=regiment.id, skirmishers=None, charge_target=None,
    )
    screen.x, screen.y = game.scenario.on_table(screen.x, screen.y)
    regiment.stands -= n
    regiment.skirmishers = screen.id
    state.pieces[screen.id] = screen
    state.changed()
    game.log.emit("skirmishers", unit=regiment.id, rulings=["RFF-P10"], text=f"{regiment.id} deploys {n} stands as skirmishers")
    if held and regiment.effect in ("double-quick", "well-handled"):
        rad = math.radians(regiment.facing)
        far = (screen.x + 1000.0 * math.sin(rad), screen.y + 1000.0 * math.cos(rad))
        move.advance(game, state, screen, far, move.rate_yards(game, state, screen, "half", far))


def stays_out(game: Game, state: RffState, screen: Piece) -> bool:
    """Does the screen stay out this maneuver phase (to check on its own, then keep station)?
    Not with its regiment gone; broken or down to one stand, it rejoins it instead."""
    regiment = state.pieces[screen.parent] if screen.parent else None
    if regiment is None or not regiment.alive:
        return False
    if screen.status == "broken" or screen.stands <= 1:
        rejoin(game, state, screen)
        return False
    return True


def own_intent(screen: Piece, intent: Any) -> Intent:
    """What the screen's own maneuver check is taken for: holding its place, as skirmishers."""
    return Intent("hold", (screen.x, screen.y), intent.target, "skirmish", intent.order, intent.skirmishers)


def keep_station(game: Game, state: RffState, screen: Piece, intent: Any) -> None:
    """After its check, the screen keeps station in front of the regiment: up to a half move
    forward of it (well handled), within 2" of it otherwise, never beyond 16"."""
    if not screen.alive or screen.parent is None:
        return
    regiment = state.pieces[screen.parent]
    ahead, leash = station_yards(state.tables)
    if screen.effect in ("double-quick", "well-handled", "rally-with-elan"):
        ahead += move.rate_yards(game, state, screen, "half", (regiment.x, regiment.y))
    distance = min(ahead, leash)
    rad = math.radians(regiment.facing)
    station = (regiment.x + distance * math.sin(rad), regiment.y + distance * math.cos(rad))
    if screen.status != "broken":
        move.advance(game, state, screen, station, move.rate_yards(game, state, screen, "full", station))
        screen.facing = regiment.facing


@cache
def station_yards(t: RffTables) -> tuple[float, float]:
    """How far in front of their regiment skirmishers deploy, and the farthest they may go, in
    yards (asked for every screen at every maneuver phase)."""
    return lookup.skirmisher_deploy_inches(t) * t.scale.yards_per_inch, lookup.skirmisher_leash_inches(t) * t.scale.yards_per_inch


def evade(game: Game, state: RffState, screen: Piece, charger: Piece) -> bool:
    """Skirmishers evade charging infantry (not cavalry) by falling back onto the regiment."""
    if not option_on(game) or charger.arm == "cavalry" or screen.parent is None:
        return False
    game.log.emit("evade", unit=screen.id, text=f"{screen.id} evade {charger.id}'s charge")
    rejoin(game, state, screen)
    return True


def rejoin(game: Game, state: RffState, screen: Piece) -> None:
    """The skirmishers fall back onto the regiment and take its formation and status."""
    regiment = state.pieces[screen.parent] if screen.parent else None
    if regiment is None:
        return
    regiment.stands += screen.stands
    regiment.skirmishers = None
    screen.stands, screen.status = 0, "gone"
    del state.pieces[screen.id]
    state.changed()
    game.log.emit("skirmishers", unit=regiment.id, text=f"{regiment.id}'s skirmishers rejoin")


def regiment_destroyed(game: Game, state: RffState, regiment: Piece) -> None:
    """If the regiment is destroyed while its skirmishers are out, they become the regiment."""
    if regiment.skirmishers is None:
        return
    screen = state.pieces.pop(regiment.skirmishers)
    state.changed()
    regiment.skirmishers = None
    regiment.stands, regiment.status, regiment.formation = screen.stands, screen.status, "extended-line"
    regiment.x, regiment.y, regiment.facing = screen.x, screen.y, screen.facing
    state.moved(regiment)
    screen.stands, screen.status = 0, "gone"  # its stands are the regiment's now
    game.log.emit("skirmishers", unit=regiment.id, text=f"{regiment.id}'s skirmishers become the regiment")
