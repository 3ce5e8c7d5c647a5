"""Hynds' movement on rff's: linear obstacles by arm and grade, the yards each piece moved this
turn (for the artillery's moving-target modifier), and passage of lines."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from referee.api import Game
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import maneuver as rff_maneuver
from referee.plugins.rff import move as rff_move

if TYPE_CHECKING:
    from referee.plugins.rff.state import Piece, RffState

from .cite import modifier, ref
from .mechanics import pol_reaction
from .state import of
from .tables import charts, fraction

MOVING = ("advance", "charge", "withdraw")  # intents that move a piece from where it stands (core/engine/doctrine.py)
OBSTACLES = ("fence", "wall", "works")


def _crossed(game: Game, ax: float, ay: float, bx: float, by: float) -> str:
    """The hardest linear obstacle the path crosses: "wall" (walls, works), "fence", or ""."""
    ground = game.ground
    lines = ground.extents  # the kinds of line the ground has
    if ("wall" in lines and ground.crosses("wall", ax, ay, bx, by)) or ("works" in lines and ground.crosses("works", ax, ay, bx, by)):
        return "wall"
    return "fence" if "fence" in lines and ground.crosses("fence", ax, ay, bx, by) else ""


def priced(game: Game, state: RffState, piece: Piece, pace: str, to: Any, yards: float) -> float | None:
    """The yards a move toward ``to`` may go, paying for a fence, wall or works where the path
    meets it (HYNDS-M1): the piece moves up to the obstacle, pays there and goes on with what is
    left; with too little left it stops at the obstacle. Infantry, dismounted troops and mounted
    crack, veteran and trained cavalry pay 3"; green cavalry may not cross; guns take half
    their move through a fence and a whole turn to clear a wall or works. Nothing is logged or
    changed here (a reach may only be asked): a crossing is :func:`moved`'s."""
    if yards <= 0:
        return None
    dist = math.hypot(to[0] - piece.x, to[1] - piece.y)
    if dist < 1e-6:
        return None
    reach = min(yards, dist)
    ex, ey = piece.x + (to[0] - piece.x) * reach / dist, piece.y + (to[1] - piece.y) * reach / dist
    crossed = _crossed(game, piece.x, piece.y, ex, ey)
    if not crossed:
        return None
    hynds = of(game)
    hynds.ahead.add(piece.id)  # its next move may cross: moved() looks
    rules = charts()["obstacles"]
    at = _before(game, piece, ex, ey)  # yards to the obstacle
    short = max(0.0, at - 1.0)  # stopped at it, this side
    if piece.guns:
        cleared = hynds.cleared
        if cleared.get(piece.id, -2) >= game.turn - 1:
            return None  # cleared last turn (or this one): the way is open
        share = float(fraction(rules[f"artillery-{crossed}"]["share"]))
        if share:
            return yards * share if at <= yards * share else short  # through the fence with half its move
        if at > ARRIVED:
            return short  # to the wall; it clears a section next turn
        cleared[piece.id] = game.turn
        _log(game, piece, f"clears a section through the {crossed}: the whole turn")
        return 0.0
    rule = rules[_key(piece)]
    if rule.get("crosses", True) is False:
        return short
    left = yards - geo.yards(state, float(fraction(rule["inches"])))
    return left if at <= left else short


ARRIVED = 10.0  # yards: a gun this close to a wall is at it and clears a section (HYNDS-M1)


def _key(piece: Piece) -> str:
    return f"cavalry-{piece.grade}" if piece.arm == "cavalry" and piece.unit.mounted else "infantry"


def _paid(game: Game, piece: Piece, start: tuple[float, float]) -> None:
    """The move just made crossed a fence, wall or works: say so, and disorder mounted veteran
    and trained cavalry (HYNDS-M1)."""
    crossed = _crossed(game, start[0], start[1], piece.x, piece.y)
    if not crossed:
        return
    rules = charts()["obstacles"]
    if piece.guns:
        _log(game, piece, f"goes through the {crossed}" + (": half its move" if crossed == "fence" else ", cleared the turn before"))
        return
    rule = rules[_key(piece)]
    if rule.get("crosses", True) is False:
        return  # green cavalry: a move rff does not price (a countercharge) took it over; none of it is Hynds'
    if rule.get("disordered") and piece.status == "good":
        piece.status = "disordered"
    _log(game, piece, f"crosses a {crossed}: -{rule['inches']}\"" + (" and disordered" if rule.get("disordered") else ""))


def _before(game: Game, piece: Piece, ex: float, ey: float) -> float:
    """Yards along the path before the first obstacle (halving the path nine times)."""
    lo, hi = 0.0, 1.0
    for _ in range(9):
        mid = (lo + hi) / 2
        if _crossed(game, piece.x, piece.y, piece.x + (ex - piece.x) * mid, piece.y + (ey - piece.y) * mid):
            hi = mid
        else:
            lo = mid
    return lo * math.hypot(ex - piece.x, ey - piece.y)


def _log(game: Game, piece: Piece, what: str) -> None:
    game.log.emit("movement", unit=piece.id, rulings=["HYNDS-M1"], ruleset="hynds",
                  text=f"{piece.id} {what} ({ref('Linear obstacles')})")


def moved(game: Game, state: RffState, piece: Piece, start: tuple[float, float]) -> None:
    """Count the yards; a troop piece that passed through a stationary friendly one makes it
    roll on the POL Reaction Chart (HYNDS-P1)."""
    yards = math.hypot(piece.x - start[0], piece.y - start[1])
    hynds = of(game)
    tally = hynds.moved
    tally[piece.id] = tally.get(piece.id, 0.0) + yards
    ahead = hynds.ahead
    if piece.id in ahead:
        ahead.discard(piece.id)
        if yards > 0:
            _paid(game, piece, start)
    if yards <= 0 or not piece.troops or piece.parent is not None:
        return
    a, b = start, (piece.x, piece.y)
    lo_x, hi_x = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])  # the path's box
    lo_y, hi_y = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
    waiting = state.yet_to_maneuver()
    for friend in state.of_side(piece.side):  # (a shared list no one changes: a loss that takes a piece away makes a new one)
        if friend.moved or friend.id in tally or friend is piece or not friend.troops or friend.parent == piece.id:
            continue  # only a stationary unit reacts, not its own skirmishers
        if (intent := waiting.get(friend.id)) is not None and intent.action in MOVING:
            continue  # not reached yet in this maneuver phase, and it is to move: not stationary (HYNDS-P1)
        front, depth = geo.footprint(friend).shape
        r = (front + depth) / 2  # the footprint lies within this of its centre
        if lo_x > friend.x + r or hi_x < friend.x - r or lo_y > friend.y + r or hi_y < friend.y - r:
            continue  # the path's box misses the footprint's
        if _passes(a, b, friend, front, depth):
            _react(game, state, friend, piece)


def _passes(a: tuple[float, float], b: tuple[float, float], friend: Piece, front: float, depth: float) -> bool:
    """Did the path from a to b go through the friend's footprint (``front`` by ``depth``), from
    one side of it to the other?"""
    rad = math.radians(friend.facing)
    def local(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - friend.x, p[1] - friend.y
        return dx * math.cos(rad) - dy * math.sin(rad), dx * math.sin(rad) + dy * math.cos(rad)
    (ax, af), (bx, bf) = local(a), local(b)
    if (af > depth / 2) == (bf > depth / 2) and (af < -depth / 2) == (bf < -depth / 2):
        return False  # did not cross from before it to behind it
    if abs(bf - af) < 1e-9:
        return False
    t = (0.0 - af) / (bf - af)
    return 0.0 <= t <= 1.0 and abs(ax + (bx - ax) * t) <= front / 2


def _react(game: Game, state: RffState, friend: Piece, passing: Piece) -> None:
    pol = charts()["pol"]
    mods = list(rff_maneuver.modifiers(game, state, friend))
    if passing.status != "good":
        mods.append(modifier(pol["passing-disordered"]["label"], pol["passing-disordered"]["value"], "Passage of lines"))
    if passing.breakthrough:
        mods.append(modifier(pol["passing-pursued"]["label"], pol["passing-pursued"]["value"], "Passage of lines"))
    mods += game.extra_modifiers("passage-of-lines", friend)
    status = "disordered" if friend.status != "good" else "good"
    resolution = pol_reaction(game.roller, status, mods)
    if game.seen:
        resolution = game.settle("passage-of-lines", friend, resolution, unit=friend.id, passing=passing.id)
    values = resolution.values
    if values["quits"]:
        rff_maneuver.lose_stands(game, state, friend, friend.stands, "quits the field", "rout")
        return
    if values["stands"]:
        rff_maneuver.lose_stands(game, state, friend, values["stands"], "skedaddles", "rout")
    if values["disordered"] and friend.alive and friend.status == "good":
        friend.status = "disordered"
    if values["retire"] and friend.alive:
        rff_move.retreat(game, state, friend, geo.yards(state, float(values["retire"])))


def end_turn(game: Game) -> None:
    of(game).moved.clear()
