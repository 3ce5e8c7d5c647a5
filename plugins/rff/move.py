"""Moving pieces: rates from the movement table, advances that stop short of the enemy,
retreats, formation changes and facing."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from functools import cache

from referee.api import Game, bearing

from . import geometry as geo
from . import horses, lookup
from .state import Piece, RffState
from .tables import RffTables


def rate_yards(game: Game, state: RffState, piece: Piece, pace: str, to: tuple[float, float], share: float = 1.0) -> float:
    """Yards the piece may move at ``pace`` (half, full, double) toward ``to``, priced by the
    ground it actually crosses (RFF-P28); ``share`` of that move (a breakthrough's half move)."""
    if pace == "none":
        return 0.0
    t = state.tables
    double = pace == "double" and lookup.may_double(t, piece, "heavy-gun-restrictions" in game.options)
    share *= 0.5 if pace == "half" else 1.0
    if piece.formation == "march-column" and geo.on_road(game, piece) and game.ground.near("road", *to, 30.0):
        yards = geo.yards(state, lookup.rate(t, piece, "road", double) * share)
    else:
        o, b, r = lookup.rates(t, piece, double)
        per_inch = t.scale.yards_per_inch * share
        yards = geo.walk(game, piece.x, piece.y, *to, o * per_inch, b * per_inch, r * per_inch)
    return state.hooks.move_yards(game, piece, pace, to, yards)  # a layer's price, or rff's


def advance(game: Game, state: RffState, piece: Piece, goal: tuple[float, float], yds: float,
            contact: Piece | None = None) -> float:
    """Move straight toward ``goal`` up to ``yds``; halt short of every enemy but ``contact``,
    which is met edge to edge. Returns the yards moved."""
    if yds <= 0:
        return 0.0
    x0, y0 = piece.x, piece.y
    length = dist = math.hypot(goal[0] - x0, goal[1] - y0)
    own = geo.footprint(piece).depth / 2
    if contact is not None:  # meet its footprint, frontage and depth (RFF-P30)
        dist = max(0.0, dist - own - geo.reach_into(contact, x0, y0))
    if dist < 1e-6:
        return 0.0
    travel = min(yds, dist)
    ux, uy = (goal[0] - x0) / length, (goal[1] - y0) / length
    halt = stop_short_yards(state.tables)
    reach = travel + halt + 400.0  # only enemies this close can halt the move
    clear = halt + own
    rows = state.enemy_rows(piece.side)  # those as far north and south (a yard to spare), in any order: the nearest halt is the same
    for e in rows.pieces[bisect_left(rows.ys, y0 - reach - 1.0):bisect_right(rows.ys, y0 + reach + 1.0)]:
        if e is not contact and abs(e.x - x0) < reach and abs(e.y - y0) < reach:  # short of its footprint (RFF-P30)
            wx, wy = x0 - e.x, y0 - e.y
            along = wx * ux + wy * uy
            if along >= 0.0:
                continue  # it lies behind: moving away never comes nearer (_first_within is infinite)
            front, depth = geo.footprint(e).shape
            if _first_within(wx, wy, ux, uy, clear + math.hypot(front, depth) / 2) >= travel:
                continue  # it never comes within reach of the enemy's corners (most pass wide)
            travel = min(travel, _first_within(wx, wy, ux, uy, clear + geo.reach_into(e, x0, y0)))
    if contact is None:
        travel = geo.works_edge(game, state, piece, ux, uy, travel)
    moved = max(0.0, travel)
    piece.x, piece.y = piece.x + ux * moved, piece.y + uy * moved
    piece.x, piece.y = game.scenario.on_table(piece.x, piece.y)
    state.moved(piece)
    if state.horses:
        horses.overrun(game, state, piece, x0, y0)
    state.hooks.moved(game, piece, (x0, y0))
    return moved


@cache
def stop_short_yards(t: RffTables) -> float:
    """How far short of an enemy a move halts, in yards (asked at every advance)."""
    return lookup.distance(t, "stop-short") * t.scale.yards_per_inch


def _first_within(wx: float, wy: float, ux: float, uy: float, radius: float) -> float:
    """How far along the unit vector u a point at w (from a centre) can go before it comes
    within ``radius`` of that centre: infinity if it never does (moving away, passing wide)."""
    along = wx * ux + wy * uy
    c = wx * wx + wy * wy - radius * radius
    if c <= 0:  # already that close: it may only draw away
        return math.inf if along >= 0 else 0.0
    disc = along * along - c
    if along >= 0 or disc < 0:
        return math.inf  # moving away, or passing wide
    return -along - math.sqrt(disc)


def face(piece: Piece, toward: Piece | tuple[float, float] | None) -> None:
    if toward is None:
        return
    x, y = (toward.x, toward.y) if isinstance(toward, Piece) else toward
    if (x, y) != (piece.x, piece.y):
        piece.facing = bearing(piece.x, piece.y, x, y)


def turn_needed(piece: Piece, toward: Piece | tuple[float, float] | None) -> float:
    """Degrees the piece must turn to face ``toward``."""
    if toward is None:
        return 0.0
    if isinstance(toward, Piece):
        x, y = toward.x, toward.y
    else:
        x, y = toward
    if x == piece.x and y == piece.y:
        return 0.0
    return geo.off_facing(piece.facing, x - piece.x, y - piece.y)


def wheel(piece: Piece, toward: Piece | tuple[float, float] | None, limit: float) -> None:
    """Turn toward a point by at most ``limit`` degrees (lines wheel; columns and guns turn freely)."""
    if toward is None:
        return
    x, y = (toward.x, toward.y) if isinstance(toward, Piece) else toward
    if (x, y) == (piece.x, piece.y):
        return
    want = bearing(piece.x, piece.y, x, y)
    diff = (want - piece.facing + 540.0) % 360.0 - 180.0
    piece.facing = (piece.facing + max(-limit, min(limit, diff))) % 360.0


def retreat(game: Game, state: RffState, piece: Piece, yds: float) -> None:
    """Fall back ``yds`` toward the side's own rear, still facing the enemy; a piece pushed off
    the map has left the field (its men are not casualties)."""
    rear = math.radians(game.scenario.home_edges.get(piece.side, 180.0))
    piece.x += yds * math.sin(rear)
    piece.y += yds * math.cos(rear)
    state.moved(piece)
    if not (0 <= piece.x <= game.scenario.width and 0 <= piece.y <= game.scenario.height):
        piece.status = "gone"
        state.changed()
        main = state.pieces[piece.parent] if piece.parent else piece  # skirmishers are a share of their regiment's men
        men = piece.unit.spec.men * piece.stands // max(1, main.start_stands)
        game.leave_field(piece.unit_id, piece.x, piece.y, men)  # captured over an edge that is no line of retreat
    piece.moved = "retreat"


def retreat_out_of_close_range(game: Game, state: RffState, piece: Piece) -> None:
    close = geo.yards(state, lookup.close_range(state.tables))
    near = geo.within(state, piece, geo.enemies_near(state, piece, close), close)
    if near:
        retreat(game, state, piece, close - min(gap for gap, _ in near) + 5.0)


def full_retreat(game: Game, state: RffState, piece: Piece) -> None:
    """A full move to the rear at the broken (or limbered gun) rate, over the ground crossed;
    mounted infantry on foot run to their horses first (optional rule, tethered horses)."""
    if state.horses and piece.status == "broken" and horses.run_to_horses(game, state, piece):
        return
    rear = math.radians(game.scenario.home_edges.get(piece.side, 180.0))
    far = max(game.scenario.width, game.scenario.height)  # a point off the map behind it
    rates = tuple(geo.yards(state, lookup.retreat_rate(state.tables, piece, g)) for g in geo.GROUNDS)
    retreat(game, state, piece, geo.walk(game, piece.x, piece.y, piece.x + far * math.sin(rear), piece.y + far * math.cos(rear), *rates))
