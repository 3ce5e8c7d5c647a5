"""What rff asks of the ground: ranges in inches, arcs, flanks, cover and ground classes.

Pieces are placed in yards (the neutral world); distances become inches at the QRS II scale
only where a table is read, so ranges and rates convert through yards (ruling RFF-P2).
"""

from __future__ import annotations

import math
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import cache
from operator import itemgetter
from typing import Any

from referee.api import Game, depth, frontage

from . import lookup
from .state import SCANNED, TO_NEUTRAL, Footprint, Piece, RffState

FRONT_ARC = 45.0  # degrees either side of the facing (RFF-P3)
FLANK_ANGLE = 90.0  # an enemy further round than this is on the flank or rear (RFF-P4)
WORKS_YARDS = 40.0  # a piece this close to works stands in them
LINEAR_COVER_YARDS = 25.0
WALK_YARDS = 25.0  # a move reads the ground every 25 yards, a cell of the ground's raster (RFF-P28)
GROUND_CLASS = {  # area kind -> QRS ground column (RFF-P5)
    "fields": "open", "woods": "broken", "broken": "broken", "buildings": "broken",
    "dense-woods": "rough", "rough": "rough", "swamp": "rough", "marsh": "rough",
}
COVER = {"woods": "partial", "broken": "partial", "dense-woods": "full", "buildings": "full"}
MEMO_LIMIT = 200_000  # answers kept per ground before starting afresh
_UNKNOWN = object()  # not yet kept
_by_ground: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


def yards(state: RffState, inches: float) -> float:
    return inches * state.tables.scale.yards_per_inch


def inches(state: RffState, yds: float) -> float:
    return yds / state.tables.scale.yards_per_inch


def men(piece: Piece) -> int:
    return round(piece.stands * piece.men_per_stand)


def footprint(piece: Piece) -> Footprint:
    """The piece's :class:`Footprint`: its ``shape`` (frontage, depth) and ``depth`` in yards,
    kept on the piece and worked out afresh when its stands or formation changed."""
    kept = piece.footprint
    if kept is None or kept.stands != piece.stands or kept.formation != piece.formation:
        kept = piece.footprint = Footprint(piece.stands, piece.formation, _shape(piece.arm, piece.stands, piece.men_per_stand, piece.formation))
    return kept


@cache
def _shape(arm: str, stands: int, men_per_stand: float, formation: str) -> tuple[float, float]:
    neutral = TO_NEUTRAL.get(formation, "line")
    men_ = round(stands * men_per_stand)
    return frontage(arm, men_, stands * 2, neutral), depth(arm, men_, stands * 2, neutral)


def gap(a: Piece, b: Piece) -> float:
    """Yards edge to edge."""
    return max(0.0, math.hypot(b.x - a.x, b.y - a.y) - (footprint(a).depth + footprint(b).depth) / 2)


def reach_into(b: Piece, x: float, y: float) -> float:
    """Yards from b's centre to the edge of its footprint, a rectangle its frontage wide and its
    depth deep, square to its facing, on the way to (x, y) (RFF-P30)."""
    dx, dy = x - b.x, y - b.y
    d = math.hypot(dx, dy)
    front, deep = footprint(b).shape
    if d == 0.0:
        return deep / 2
    f = math.radians(b.facing)
    along, across = abs(dx * math.sin(f) + dy * math.cos(f)) / d, abs(dx * math.cos(f) - dy * math.sin(f)) / d
    edge = deep / 2 / along if along > 1e-9 else math.inf
    return min(edge, front / 2 / across) if across > 1e-9 else edge


def contact_gap(a: Piece, b: Piece) -> float:
    """Yards from a's edge to b's footprint (RFF-P30): what a charge closes to make contact."""
    return max(0.0, math.hypot(b.x - a.x, b.y - a.y) - reach_into(b, a.x, a.y) - footprint(a).depth / 2)


def deepest(pieces: Iterable[Piece]) -> float:
    """The greatest depth any of these pieces can take in any formation (stands only fall)."""
    return max((_shape(p.arm, p.start_stands, p.men_per_stand, f)[1] for p in pieces for f in TO_NEUTRAL), default=0.0)


def within(state: RffState, a: Piece, pieces: list[Piece], yards: float, arc: bool = False) -> list[tuple[float, Piece]]:
    """(gap, piece) for each of ``pieces`` no more than ``yards`` from a, edge to edge, in order;
    with ``arc``, only those in a's front arc or touching it."""
    x, y, depth = a.x, a.y, footprint(a).depth
    facing = a.facing if arc else None
    box = yards + (depth + state.deepest) / 2 + 1.0  # no piece further off on either axis can be that close
    west, east, south, north = x - box, x + box, y - box, y + box  # (the spare yard covers rounding)
    found = []
    for b in pieces:
        if south <= b.y <= north and west <= b.x <= east:
            dx, dy = b.x - x, b.y - y
            gap_ = math.hypot(dx, dy) - (depth + footprint(b).depth) / 2
            if gap_ <= yards:
                if gap_ <= 0.0:
                    gap_ = 0.0  # touching
                elif facing is not None and off_facing(facing, dx, dy) > FRONT_ARC:
                    continue
                found.append((gap_, b))
    return found


def enemies_near(state: RffState, a: Piece, yards: float) -> list[Piece]:
    """a's enemies that may stand within ``yards`` of it, edge to edge: those as far north and
    south as :func:`within`'s box, read from the enemy rows (:meth:`RffState.enemy_rows`), in the
    order of :meth:`RffState.enemies_of`. ``within(state, a, enemies_near(state, a, yards), yards)``
    is ``within(state, a, state.enemies_of(a.side), yards)``, without a look at every enemy. An
    enemy of no more than :data:`SCANNED` pieces is given whole (its rows would cost more)."""
    enemies = state.enemies_of(a.side)
    if len(enemies) <= SCANNED:
        return enemies
    box = yards + (footprint(a).depth + state.deepest) / 2 + 1.0
    return state.enemy_rows(a.side).band(a.y - box, a.y + box)


class Around:
    """The pieces one side aims at in a fire half-phase (every enemy of the aiming side), with
    each aiming piece's :func:`within` answer (front arc), nearest first, kept while nothing it
    read has changed: its own place, facing, stands, formation and reach, and the place and depth
    of every listed piece near enough to be found. Aims repeat across half-phases whenever neither
    the firer nor the enemy near it has moved or lost depth since, so a kept answer spares a scan
    (and its sort).

    ``places`` holds every listed piece's place, stands and formation. An Around made because
    they changed takes over from the one ``before`` it each answer whose search box (as
    :func:`within`'s, for a piece as deep as any, ``deepest``) meets no place a piece left or
    took, or where its depth changed (:func:`_changed_box`); the others are asked afresh."""

    __slots__ = ("answers", "pieces", "places")

    def __init__(self, pieces: list[Piece], places: tuple[tuple[Any, ...], ...], before: Around | None = None,
                 deepest: float = 0.0) -> None:
        self.pieces = pieces if len(pieces) <= SCANNED else None  # scanned whole, or read from the rows
        self.places = places
        self.answers: dict[Piece, tuple[tuple[Any, ...], list[tuple[float, Piece]], float]] = {}  # (asked, found, reach)
        if before is None or (changed := _changed_box(before.places, places)) is None:
            return
        if changed is _NOWHERE:  # (the Around before is asked no more: its answers are handed over)
            self.answers = before.answers
            return
        west, east, south, north = changed
        spare = deepest + 1.0  # (within's box for the deepest firer and target, and its spare yard)
        self.answers = {a: kept for a, kept in before.answers.items()
                        if not (west - spare - kept[2] <= kept[0][0] <= east + spare + kept[2]
                                and south - spare - kept[2] <= kept[0][1] <= north + spare + kept[2])}

    def within(self, state: RffState, a: Piece, yards: float) -> list[tuple[float, Piece]]:
        """``within(state, a, pieces, yards, arc=True)`` nearest first (:func:`nearest_first`),
        kept (a shared list: do not change it); ``yards`` is a's reach, which its weapon decides."""
        asked = (a.x, a.y, a.facing, a.stands, a.formation, a.weapon)
        kept = self.answers.get(a)
        if kept is not None and kept[0] == asked:
            return kept[1]
        found = within(state, a, self.pieces if self.pieces is not None else enemies_near(state, a, yards), yards, True)
        if len(found) > 1:
            found.sort(key=itemgetter(0))
        self.answers[a] = (asked, found, yards)
        return found

    def quiet(self, a: Piece) -> bool:
        """Did a find no piece in its reach when last asked, and does it stand as it stood?"""
        kept = self.answers.get(a)
        return kept is not None and not kept[1] and kept[0] == (a.x, a.y, a.facing, a.stands, a.formation, a.weapon)


_NOWHERE = (math.inf, -math.inf, math.inf, -math.inf)  # _changed_box: no place nor depth changed


def _changed_box(was: tuple[tuple[Any, ...], ...], now: tuple[tuple[Any, ...], ...]) -> tuple[float, float, float, float] | None:
    """(west, east, south, north) round every place a listed piece left or took between two
    :class:`Around` ``places``, or stood in with another depth (a piece that lost stands where it
    stands and kept its depth, as a line does, changes no search); ``_NOWHERE`` (a box no place
    is in) if none did; None if pieces came or went (then no answer is taken over)."""
    if len(was) != len(now):
        return None
    xs: list[float] = []
    ys: list[float] = []
    for old, new in zip(was, now):
        if old != new:
            p = new[0]
            if old[0] is not p:
                return None
            if old[1] == new[1] and old[2] == new[2] and (
                    _shape(p.arm, old[3], p.men_per_stand, old[4])[1] == _shape(p.arm, new[3], p.men_per_stand, new[4])[1]):
                continue
            xs += (old[1], new[1])
            ys += (old[2], new[2])
    return (min(xs), max(xs), min(ys), max(ys)) if xs else _NOWHERE


def nearest_first(found: list[tuple[float, Piece]]) -> list[tuple[float, Piece]]:
    """:func:`within`'s (gap, piece) pairs nearest first, ties in listed order."""
    return sorted(found, key=itemgetter(0))


def around(state: RffState, side: str, pieces: list[Piece]) -> Around:
    """The :class:`Around` of ``pieces`` (what ``side`` aims at), kept in ``state.around`` while
    every piece listed stands where it stood, as strong and in the same formation; when one does
    not, a new one takes over the answers the changes cannot touch."""
    places = tuple([(p, p.x, p.y, p.stands, p.formation) for p in pieces])
    by_side = state.around
    found = by_side.get(side)
    if found is None or found.places != places:
        found = by_side[side] = Around(pieces, places, found, state.deepest)
    return found


def off_facing(facing: float, dx: float, dy: float) -> float:
    """Degrees (0 to 180) between ``facing`` and the way (dx, dy) points: ``angle_between(facing,
    bearing(x, y, x + dx, y + dy))`` in one call (every search in an arc, flank and turn asks it)."""
    off = abs(facing - math.degrees(math.atan2(dx, dy)) % 360.0) % 360.0
    return 360.0 - off if off > 180.0 else off


def in_front(a: Piece, b: Piece) -> bool:
    """Is b inside a's front arc?"""
    return off_facing(a.facing, b.x - a.x, b.y - a.y) <= FRONT_ARC or gap(a, b) == 0.0


def on_flank(a: Piece, b: Piece) -> bool:
    """Is b on a's flank or rear?"""
    return off_facing(a.facing, b.x - a.x, b.y - a.y) > FLANK_ANGLE


def nearest(pieces: list[Piece], of: Piece) -> Piece | None:
    return min(pieces, key=lambda p: math.hypot(p.x - of.x, p.y - of.y), default=None)



def ground_at(game: Game, x: float, y: float) -> str:
    """The movement table's ground column at a point."""
    return GROUND_CLASS.get(game.ground.kind_at(x, y), "open")


GROUNDS = ("open", "broken", "rough")  # the movement table's ground columns, road aside
COLUMNS = tuple(frozenset(k for k, c in GROUND_CLASS.items() if c == column) for column in GROUNDS)  # their area kinds (Ground.runs: any other is open)


def walk(game: Game, ax: float, ay: float, bx: float, by: float, open_: float, broken: float, rough: float) -> float:
    """RFF-P28: yards a move from a toward b covers when it may go ``open_`` yards over open
    ground, ``broken`` over broken and ``rough`` over rough: each stretch crossed spends the
    share of the move its ground's rate says; a stream crossed away from a bridge or ford is
    rough ground where it is crossed (RFF-P5). Never beyond b. Kept per ground (:func:`_recall`).
    The ground is read under a step's middle only where the steps before it have not shown it to
    be in the same column (:meth:`Ground.runs`)."""
    walked: float = _recall(game, (_walk, ax, ay, bx, by, open_, broken, rough))
    return walked


def _walk(game: Game, ax: float, ay: float, bx: float, by: float, open_: float, broken: float, rough: float) -> float:
    length = math.hypot(bx - ax, by - ay)
    reach = min(length, max(open_, broken, rough))
    if reach <= 0.0:
        return 0.0
    rate = {"open": open_, "broken": broken, "rough": rough}
    ux, uy = (bx - ax) / length, (by - ay) / length
    steps = math.ceil(reach / WALK_YARDS) or 1
    step = reach / steps
    ground_ = game.ground
    streams = ground_.has("stream") and ground_.crosses("stream", ax, ay, ax + ux * reach, ay + uy * reach)
    dx, dy = ux * step, uy * step  # one step's way
    runs, apart = ground_.runs(COLUMNS), max(abs(dx), abs(dy))  # (apart: yards from one step's middle to the next's along either axis, at most)
    left, moved = 1.0, 0.0  # the share of the move still to spend, the yards covered
    known, r, cost = -1, 0.0, 0.0  # the last step known to lie in the ground column last read; a step's rate and cost there
    for i in range(steps):
        if streams or i > known:  # (the steps known to lie in the same column cost the same)
            x0, y0 = ax + dx * i, ay + dy * i
            x1, y1 = x0 + dx, y0 + dy
            if i > known:
                mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                group, clear = ground_.run_at(runs, mx, my)  # the column there, and how far the ground stays in it
                column = GROUNDS[group]
                known = i + int(min(steps, clear / apart))
            ground = column
            if streams and ground_.crosses("stream", x0, y0, x1, y1) and not _at_crossing(game, x0, y0, x1, y1):
                ground = "rough"
            r = rate[ground]
            cost = step / r if r > 0 else math.inf
        if cost >= left:
            return moved + left * r
        left -= cost
        moved += step
    return moved


def ground_memo(game: Game) -> dict[tuple[Any, ...], Any]:
    """The answers kept for the game's ground (held by the game's state once mustered)."""
    memo = _by_ground.get(game.ground)
    if memo is None:
        memo = _by_ground[game.ground] = {}
    return memo


def kept(game: Game, ask: Any, *place: float) -> Any:
    """``ask(game, *place)``, kept per ground by the exact place (:func:`_recall`): ``ask`` must
    be a function of the ground alone (public: a layer keeps its own ground questions here)."""
    return _recall(game, (ask, *place))


def _recall(game: Game, key: tuple[Any, ...]) -> Any:
    """``key[0](game, *key[1:])`` (an ask and the exact place it asks about), kept per ground:
    the ground alone decides the answer, so every game on that ground may share it whichever
    asked first. Callers on hot paths build the key themselves (no packing of arguments)."""
    memo = game.state.ground_memo
    hit = memo.get(key, _UNKNOWN)
    if hit is _UNKNOWN:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        hit = memo[key] = key[0](game, *key[1:])
    return hit


def worst_ground(game: Game, ax: float, ay: float, bx: float, by: float) -> str:
    """The worst ground column a move from a to b crosses; an unbridged stream counts as rough."""
    worst: str = _recall(game, (_worst_ground, ax, ay, bx, by))
    return worst


def _worst_ground(game: Game, ax: float, ay: float, bx: float, by: float) -> str:
    classes = {GROUND_CLASS.get(k, "open") for k in game.ground.kinds_along(ax, ay, bx, by)}
    if game.ground.crosses("stream", ax, ay, bx, by) and not _at_crossing(game, ax, ay, bx, by):
        classes.add("rough")
    for worst in ("rough", "broken"):
        if worst in classes:
            return worst
    return "open"


def _at_crossing(game: Game, ax: float, ay: float, bx: float, by: float) -> bool:
    return any(game.ground.crosses(k, ax, ay, bx, by) or game.ground.near(k, (ax + bx) / 2, (ay + by) / 2, 40.0)
               for k in ("bridge", "ford"))


def _at_piece(game: Game, piece: Piece, ask: Any) -> Any:
    """``ask(game, x, y)`` at the piece's place: kept on the piece until it moves, and per ground
    by the exact place (:func:`_recall`); the place alone decides the answer."""
    spot = piece.spot
    if spot is None or spot[0] != piece.x or spot[1] != piece.y:
        spot = piece.spot = (piece.x, piece.y, {})
    facts = spot[2]
    hit = facts.get(ask, _UNKNOWN)
    if hit is _UNKNOWN:
        hit = facts[ask] = _recall(game, (ask, piece.x, piece.y))
    return hit


def on_road(game: Game, piece: Piece) -> bool:
    on: bool = _at_piece(game, piece, _on_road_at)
    return on


def _on_road_at(game: Game, x: float, y: float) -> bool:
    return game.ground.near("road", x, y, 30.0)


def fortified(game: Game, x: float, y: float) -> bool:
    """In works: inside a closed work, or within 40 yards behind a line of works."""
    return game.ground.behind("works", x, y, WORKS_YARDS)


def cover(game: Game, piece: Piece) -> str:
    """none, partial, full or fortified (RFF-P5); a charging attacker at the foot of works is
    not covered by them (RFF-P30)."""
    kind = _at_piece(game, piece, _cover_at)
    return "none" if kind == "fortified" and piece.charge_target is not None else kind


def _cover_at(game: Game, x: float, y: float) -> str:
    if fortified(game, x, y):
        return "fortified"
    kind = COVER.get(game.ground.kind_at(x, y))
    if kind is not None:
        return kind
    if game.ground.behind("wall", x, y, LINEAR_COVER_YARDS):
        return "full"
    if game.ground.behind("fence", x, y, LINEAR_COVER_YARDS):
        return "partial"
    return "none"


BLOCKING = ("woods", "dense-woods", "buildings")
SIGHT_SKIP = 50.0  # yards at each end: a unit sees out of the woods it stands in (RFF-P5)


def sight(game: Game, firer: Piece, target: Piece) -> str:
    """"clear", "blocked", "plunging" (guns on higher ground firing over lower woods) or
    "plunging-at" (guns on lower ground firing at a target deep in woods on high ground): the
    optional rule, plunging fire through wooded high ground (RFF-P24). Without it only whether a
    wood or building stands in the way is asked, not the height of each one (:func:`_blocked`)."""
    if not (firer.guns and game.option("plunging-fire")):
        return "blocked" if _recall(game, (_blocked, firer.x, firer.y, target.x, target.y)) else "clear"  # (most lines are asked again: three in four)
    blocking = _recall(game, (_blocking, firer.x, firer.y, target.x, target.y))
    if not blocking:
        return "clear"
    own = game.ground.height_at(firer.x, firer.y)
    if own > 0 and own > max(blocking):
        return "plunging"
    if kept(game, _into_high_woods, firer.x, firer.y, target.x, target.y, yards(game.state, lookup.optional_distance(
            game.state.tables, "plunging-fire", "behind-woods"))):
        return "plunging-at"
    return "blocked"


def _into_high_woods(game: Game, ax: float, ay: float, bx: float, by: float, clear: float) -> bool:
    """Is b deep in woods on high ground, no wood between a and b higher than that ground (woods
    lower down the slope may intervene), a lower than b, and a more than ``clear`` yards from the
    first intervening wood (RFF-P24)?"""
    ground = game.ground
    high = ground.height_at(bx, by)
    if high <= ground.height_at(ax, ay) or ground.kind_at(bx, by) not in BLOCKING:
        return False
    cells = ground.samples(ax, ay, bx, by)
    step = math.hypot(bx - ax, by - ay) / max(1, len(cells) - 1)
    first = next((i for i, (kind, _) in enumerate(cells) if kind in BLOCKING), None)
    if first is None or first * step <= clear:
        return False
    return all(h <= high for kind, h in cells[first:] if kind in BLOCKING)


def _blocking(game: Game, ax: float, ay: float, bx: float, by: float) -> tuple[float, ...]:
    """Heights of the woods and buildings between a and b: none at once when no wood or
    building lies near the line (most lines: :meth:`Ground.clear_of`)."""
    if game.ground.clear_of(BLOCKING, ax, ay, bx, by):
        return ()
    return game.ground.heights_of(BLOCKING, ax, ay, bx, by, SIGHT_SKIP)


def _blocked(game: Game, ax: float, ay: float, bx: float, by: float) -> bool:
    """Does a wood or building stand between a and b: is :func:`_blocking` not empty? The same
    cells, read only up to the first that blocks."""
    ground = game.ground
    return not ground.clear_of(BLOCKING, ax, ay, bx, by) and ground.lies_between(BLOCKING, ax, ay, bx, by, SIGHT_SKIP)


def linear_cover(game: Game, piece: Piece) -> bool:
    """Behind works, a wall or a fence (the maneuver table's "linear cover")."""
    behind: bool = _at_piece(game, piece, _linear_cover_at)
    return behind


def works_edge(game: Game, state: RffState, piece: Piece, ux: float, uy: float, travel: float) -> float:
    """RFF-P30: how far along (ux, uy) the piece may go before it would stand in works an enemy
    holds (inside a closed work or just behind a line of works with an enemy piece in them),
    read every :data:`WALK_YARDS`; ``travel`` if it never would, or if it starts in works. The
    ground's answer is kept (:func:`_recall`) and asked first: most moves near works never enter
    them, and then no enemy need be looked at."""
    box = game.ground.extents.get("works")
    if travel <= 0.0 or box is None:
        return travel
    x0, y0, x1, y1 = piece.x, piece.y, piece.x + ux * travel, piece.y + uy * travel
    west, east, south, north = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
    if east < box[0] - WORKS_YARDS or west > box[1] + WORKS_YARDS or north < box[2] - WORKS_YARDS or south > box[3] + WORKS_YARDS:
        return travel  # the move passes nowhere near any works
    stop: float = _recall(game, (_works_stop, x0, y0, ux, uy, travel))
    if stop == travel or not any(cover(game, e) == "fortified" for e in state.enemies_of(piece.side)):
        return travel
    return stop


def _works_stop(game: Game, x: float, y: float, ux: float, uy: float, travel: float) -> float:
    """How far along (ux, uy) from (x, y) a piece may go before it would stand in works, read
    every :data:`WALK_YARDS`; ``travel`` if it never would, or if it starts in works. A point
    outside the box round the works (a yard beyond :data:`WORKS_YARDS`: the ground rounds a point
    to the yard) is in none, and is not asked."""
    if fortified(game, x, y):
        return travel
    box, spare = game.ground.extents["works"], WORKS_YARDS + 1.0
    west, east, south, north = box[0] - spare, box[1] + spare, box[2] - spare, box[3] + spare
    steps = math.ceil(travel / WALK_YARDS)
    for i in range(1, steps + 1):
        along = min(travel, i * WALK_YARDS)
        px, py = x + ux * along, y + uy * along
        if west <= px <= east and south <= py <= north and fortified(game, px, py):
            return along - WALK_YARDS if along > WALK_YARDS else 0.0
    return travel


def _linear_cover_at(game: Game, x: float, y: float) -> bool:
    return fortified(game, x, y) or any(game.ground.behind(k, x, y, LINEAR_COVER_YARDS) for k in ("wall", "fence"))


def enfiladed(firer: Piece, target: Piece) -> bool:
    """A line, extended line or unlimbered battery fired on from its flank (RFF-P4)."""
    return target.formation in ("line", "extended-line", "unlimbered") and on_flank(target, firer)


def counted_stands(game: Game, state: RffState, defender: Piece, charger: Piece) -> int:
    """Stands that count for numbers in a charge: under the optional extended-line frontage
    rule, an extended line of six or fewer stands with opened intervals counts only those
    within 1" of the charger's front."""
    if not (game.option("extended-line-frontage") and defender.formation == "extended-line"
            and defender.stands <= lookup.interval_limit(state.tables)):
        return defender.stands
    interval = yards(state, lookup.optional_distance(state.tables, "extended-line-frontage", "interval"))
    per_stand = footprint(defender).shape[0] / max(1, defender.stands) + interval
    return min(defender.stands, max(1, math.ceil((footprint(charger).shape[0] + 2 * interval) / per_stand)))


def outflanked(state: RffState, piece: Piece, within_yards: float) -> bool:
    """A fit enemy piece (not skirmishers) within reach on the piece's flank or rear. Asked for
    every holding piece of the phasing side, while the enemy mostly stands still: only the enemy
    rows (:meth:`RffState.enemy_rows`) as far north and south as :func:`within`'s box are searched."""
    reach = within_yards + state.deepest + 1.0  # no less than within's box
    rows = state.enemy_rows(piece.side)
    box = within_yards + (footprint(piece).depth + state.deepest) / 2 + 1.0  # within's
    west, east = piece.x - box, piece.x + box
    for e in rows.pieces[bisect_left(rows.ys, piece.y - reach):bisect_right(rows.ys, piece.y + reach)]:
        if west <= e.x <= east and e.status != "broken" and e.parent is None and on_flank(piece, e) and gap(piece, e) <= within_yards:
            return True
    return False
