"""Leaders: replacing the fallen, placing and attaching leaders, command radius, light."""

from __future__ import annotations

import math
from functools import cache
from operator import itemgetter

from referee.api import Game

from . import lookup
from .state import LeaderState, Piece, RffState
from .tables import RffTables


def replace_and_place(game: Game, state: RffState, side: str) -> None:
    """Maneuver phase step 1: bring back leaders whose time out is over, replace the fallen by
    provisional commanders (RFF-P13), and move leaders who are not attached to the middle of
    their command (RFF-P22)."""
    for leader in state.leaders_over(side, None):  # (a provisional commander joins the dict, not this list)
        status = leader.status
        if status in ("out", "dismounted"):
            leader.out_turns -= 1
            if leader.out_turns <= 0:
                leader.status = "active"
        elif status == "removed" and not leader.provisional:
            _replace(game, state, leader)
        if leader.status in ("active", "dismounted"):
            _place(game, state, leader)


def _replace(game: Game, state: RffState, fallen: LeaderState) -> None:
    stand_in = LeaderState(f"{fallen.id}-provisional", fallen.side, fallen.command, "able", (), fallen.x, fallen.y,
                           None, fallen.commands, provisional=True)
    fallen.provisional = True  # replaced: he is not replaced again
    state.leaders[stand_in.id] = stand_in
    game.log.emit("leader", rulings=["RFF-P13"], text=f"a provisional commander takes over from {fallen.id}")


def _place(game: Game, state: RffState, leader: LeaderState) -> None:
    if leader.attached is not None:
        piece = state.pieces.get(leader.attached)
        if piece is not None and (piece.alive or leader.waiting):
            return  # he moves with it, and enters with it (RFF-P22)
        leader.detach()
    commands = leader.commands
    mine = state.under(leader.side, commands)
    if not mine:
        return
    cx, cy = sum([p.x for p in mine]) / len(mine), sum([p.y for p in mine]) / len(mine)
    reach = leader_reach(state.tables, leader.status == "dismounted")
    dist = math.hypot(cx - leader.x, cy - leader.y)
    if dist > reach:
        cx, cy = leader.x + (cx - leader.x) * reach / dist, leader.y + (cy - leader.y) * reach / dist
    leader.x, leader.y = cx, cy


@cache
def leader_reach(t: RffTables, dismounted: bool) -> float:
    """Yards a leader rides (or walks) in a maneuver phase (asked for every leader not attached)."""
    return lookup.leader_rate(t, dismounted) * t.scale.yards_per_inch


def attached_to(state: RffState, piece: Piece) -> LeaderState | None:
    for ld in state.attachable(piece.id):
        if ld.attached == piece.id and ld.status != "removed":
            return ld
    return None


def commander(game: Game, state: RffState, piece: Piece) -> LeaderState | None:
    """The leader who has the piece in command, or None (out of command). An attached leader
    always does; otherwise the nearest leader of the piece's chain of command whose radius
    reaches it. At night only an attached leader does (optional rule)."""
    if state.checking is piece:
        return state.checking_leader
    attached = attached_to(state, piece)
    if attached is not None:
        return attached  # an attached leader always has it in command
    if "twilight-and-night" in game.options and is_night(game):
        return None
    sure, farthest = command_reach(state.tables)
    x, y = piece.x, piece.y
    candidates = []
    for ld in state.leaders_over(piece.side, piece.command):
        if ld.status == "active" or ld.status == "dismounted":
            post = ld.post()
            if post is not None:
                dist = math.hypot(post[0] - x, post[1] - y)
                if dist <= farthest:  # (beyond every radius: he cannot command it)
                    candidates.append((dist, ld))
    if len(candidates) > 1:
        candidates.sort(key=itemgetter(0))  # nearest first; a stable sort keeps ties in the order the leaders are listed
    for dist, leader in candidates:
        if dist <= sure or dist <= radius(game, state, leader, piece) * state.tables.scale.yards_per_inch:
            return leader
    return None


@cache
def command_reach(t: RffTables) -> tuple[float, float]:
    """Yards within which every command radius reaches, and beyond which none does (asked at
    every maneuver check: the radius's own case, read along the ground, only in between)."""
    radii = [lookup.command_radius(t, case) * t.scale.yards_per_inch for case in ("clear", "short", "twilight")]
    return min(radii), max(radii)


def radius(game: Game, state: RffState, leader: LeaderState, piece: Piece) -> float:
    """Command radius in inches: 6" clear, 3" through dense woods, in fog or twilight, or when
    the leader is attached elsewhere or dismounted; 4" in optional twilight."""
    t = state.tables
    if "twilight-and-night" in game.options and is_twilight(game):
        return lookup.command_radius(t, "twilight")
    short = (
        leader.attached is not None or leader.status == "dismounted" or game.world.weather == "fog"
        or (game.ground.has("dense-woods") and "dense-woods" in game.ground.kinds_along(*leader.place, piece.x, piece.y))
    )
    return lookup.command_radius(t, "short" if short else "clear")


def minutes_past_sunset(game: Game) -> int | None:
    sunset = game.scenario.light.sunset
    return None if sunset is None or game.world.minute < sunset else game.world.minute - sunset


def twilight_minutes(game: Game) -> tuple[int, int]:
    """(minutes of twilight after sunset, minutes in a twilight turn): optional rule."""
    t = game.state.tables
    turn = int(lookup.option_number(t, "twilight-and-night", "turn-minutes"))
    return int(lookup.option_number(t, "twilight-and-night", "twilight-turns")) * turn, turn


def is_twilight(game: Game) -> bool:
    past = minutes_past_sunset(game)
    return past is not None and past < twilight_minutes(game)[0]


def is_night(game: Game) -> bool:
    past = minutes_past_sunset(game)
    return past is not None and past >= twilight_minutes(game)[0]


def range_cap(game: Game) -> float | None:
    """The longest range in inches that light allows (optional twilight and night rules)."""
    if "twilight-and-night" not in game.options:
        return None
    past = minutes_past_sunset(game)
    if past is None:
        return None
    twilight, turn = twilight_minutes(game)
    if past < twilight:
        return lookup.twilight_range(game.state.tables, past // turn)
    return lookup.night_range(game.state.tables, game.scenario.light.moon)


def fall(game: Game, state: RffState, leader: LeaderState, outcome: str) -> None:
    """Apply a Fallen Leader result: removed, out one turn, or dismounted one turn."""
    if outcome == "removed":
        leader.detach()
        leader.status = "removed"
    elif outcome == "out-one-turn":
        leader.detach()
        leader.status, leader.out_turns = "out", 2
    elif outcome == "dismounted-one-turn":
        leader.status, leader.out_turns = "dismounted", 2


def nearest_leader(state: RffState, piece: Piece, within_yards: float) -> LeaderState | None:
    """The side's nearest active or dismounted leader within ``within_yards`` of the piece (the
    first listed of those equally near), or None."""
    x, y = piece.x, piece.y
    found: LeaderState | None = None
    best = within_yards
    for ld in state.leaders_over(piece.side, None):
        if ld.status == "active" or ld.status == "dismounted":
            post = ld.post()
            if post is not None:
                dist = math.hypot(post[0] - x, post[1] - y)
                if dist < best or (dist == best and found is None):
                    found, best = ld, dist
    return found
