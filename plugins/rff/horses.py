"""Optional rule: tethered horses (RFF-P23). Mounted infantry standing dismounted keep every stand
in the firing line and leave their horses tied at a marker just behind them, which never moves. A
broken unit runs to its horses first and remounts as it reaches them, then goes on at the mounted
rate for the whole retreat; an enemy piece that passes through the marker takes the horses, and
the unit stays on foot."""

from __future__ import annotations

import math

from referee.api import Game

from . import geometry as geo
from . import lookup
from .state import Piece, RffState


def tethered(piece: Piece) -> bool:
    """Mounted infantry on foot: dismounted cavalry with an infantry long arm."""
    return piece.troops and piece.arm == "cavalry" and not piece.unit.mounted and "long-arm" in piece.flags


def place_markers(game: Game, state: RffState) -> None:
    """At the start: a marker at the rear edge of each dismounted mounted-infantry piece."""
    if "tethered-horses" not in game.options:
        return
    for piece in state.pieces.values():
        if tethered(piece):
            rear, behind = math.radians(game.scenario.home_edges.get(piece.side, 180.0)), geo.footprint(piece).depth / 2
            state.horses[piece.id] = (piece.x + behind * math.sin(rear), piece.y + behind * math.cos(rear))


def run_to_horses(game: Game, state: RffState, piece: Piece) -> bool:
    """A broken full retreat toward the unit's horses: on foot until it reaches them, then mounted
    for the whole retreat (the rest of it toward the rear). False if it has no horses to run to."""
    marker = state.horses.get(piece.id)
    if marker is None or piece.unit.mounted:
        return False
    rates = tuple(geo.yards(state, lookup.retreat_rate(state.tables, piece, g)) for g in geo.GROUNDS)
    far = math.hypot(marker[0] - piece.x, marker[1] - piece.y)
    on_foot = geo.walk(game, piece.x, piece.y, *marker, *rates)
    if on_foot < far - 1e-6:
        step = on_foot / far
        piece.x, piece.y = piece.x + (marker[0] - piece.x) * step, piece.y + (marker[1] - piece.y) * step
        state.moved(piece)
        piece.moved = "retreat"
        return True
    piece.x, piece.y = marker  # (the retreat from there below tells the state it moved)
    piece.unit.mounted = True
    del state.horses[piece.id]
    game.log.emit("remount", unit=piece.id, rulings=["RFF-P23"], text=f"{piece.id} reaches its horses and remounts")
    from . import move  # a retreat goes on from the horses

    mounted = lookup.retreat_rate(state.tables, piece, geo.ground_at(game, piece.x, piece.y))
    move.retreat(game, state, piece, max(0.0, geo.yards(state, mounted) - far))
    return True


def overrun(game: Game, state: RffState, mover: Piece, x0: float, y0: float) -> None:
    """An enemy piece that moved from (x0, y0) through a marker takes those horses."""
    reach = geo.footprint(mover).depth / 2
    for uid, (mx, my) in list(state.horses.items()):
        if state.pieces[uid].side != mover.side and _off_path(mx, my, x0, y0, mover.x, mover.y) <= reach:
            del state.horses[uid]
            game.log.emit("horses-lost", unit=uid, rulings=["RFF-P23"], text=f"{mover.id} overruns {uid}'s horses: it stays on foot")


def _off_path(x: float, y: float, x0: float, y0: float, x1: float, y1: float) -> float:
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / length2))
    return math.hypot(x0 + t * dx - x, y0 + t * dy - y)
