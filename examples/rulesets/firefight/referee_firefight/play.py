"""Firefight's turn on the neutral world: movement (RULES.md 3), fire (4) and morale (5).

The example keeps no pieces of its own: a unit's stands are its men over 100, so it moves and
loses men on the world's :class:`~referee.core.engine.world.UnitState` directly. What it remembers
between steps is in :class:`FirefightState`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from attrs import define, field, frozen
from referee.api import Capabilities, Game, Intent, Modifier, UnitState, short_of

from . import mechanics

FORMATIONS = {"infantry": ("line", "column", "march-column", "skirmish"), "cavalry": ("line", "column", "march-column"),
              "artillery": ("limbered", "unlimbered")}
COVER_AREAS = ("woods", "dense-woods", "buildings")
COVER_LINES = ("wall", "works")
SHAKEN = ("broken", "routed")


@define
class FirefightState:
    """What Firefight remembers during a turn: the tables in force, each side's wishes, and who
    lost men this turn (they test morale)."""

    tables: Mapping[str, Mapping[str, Any]]
    intents: dict[str, dict[str, Intent]] = field(factory=dict)
    lost_now: set[str] = field(factory=set)

    def yards(self, inches: float) -> float:
        return float(inches) * float(self.tables["scale"]["yards_per_inch"])


@frozen
class Shot:
    """One unit firing at another: the situation house rules see with the ``fire`` mechanic."""

    firer: UnitState
    target: UnitState
    yards: float


# ----------------------------------------------------------------------------- movement


def move_phase(game: Game, state: FirefightState, side: str) -> None:
    """Each unit of ``side`` moves as its commander wants; broken units fall back, routed ones run."""
    state.intents[side] = intents = game.intents(side)
    home = math.radians(game.scenario.home_edges.get(side, 180.0))
    for u in game.world.by_side[side]:
        if not u.on_field or u.status == "gone":
            continue
        if u.status in SHAKEN:
            double = 2 if u.status == "routed" else 1
            away = _away_from_enemy(game, u, home)
            far = 100_000.0  # a goal beyond any table: only the bearing matters
            _go(game, state, u, u.x + far * math.sin(away), u.y + far * math.cos(away),
                double * _move_yards(state, u, "column"), leave=u.status == "routed")
            continue
        intent = intents.get(u.id)
        if intent is None:
            continue
        budget = 1.0
        if intent.formation in FORMATIONS[u.spec.arm] and intent.formation != u.formation:
            u.formation = intent.formation
            budget -= float(state.tables["movement"]["formation_change"])
        goal = intent.goal
        target = game.world.units.get(intent.target) if intent.target else None
        if intent.action == "charge" and target is not None:
            goal = (target.x, target.y)
        if goal is None or intent.action in ("hold", "rally"):
            continue
        yards = budget * _move_yards(state, u, u.formation)
        if intent.standoff is not None and target is not None:  # the order's range: the move ends there
            yards = short_of(u.x, u.y, goal[0], goal[1], target.x, target.y, intent.standoff, yards)
        _go(game, state, u, goal[0], goal[1], yards)


def _move_yards(state: FirefightState, u: UnitState, formation: str) -> float:
    inches = state.tables["movement"]["inches"].get(f"{u.spec.arm}-{formation}", 0)
    return state.yards(inches)


def _away_from_enemy(game: Game, u: UnitState, home: float) -> float:
    """The bearing straight away from the nearest enemy (toward the home edge if none is on the field)."""
    nearest = _nearest(game, u, math.inf)
    return home if nearest is None else math.atan2(u.x - nearest.x, u.y - nearest.y)


def _go(game: Game, state: FirefightState, u: UnitState, gx: float, gy: float, yards: float, leave: bool = False) -> None:
    """Move ``u`` up to ``yards`` toward (gx, gy), stopping short of the closest an enemy may be
    approached; a routed unit that reaches the table's edge leaves the field."""
    dx, dy = gx - u.x, gy - u.y
    d = math.hypot(dx, dy)
    if d < 1e-9 or yards <= 0:
        return
    ux, uy = dx / d, dy / d
    go = min(d, yards)
    closest = state.yards(state.tables["movement"]["closest_inches"])
    for e in _enemies(game, u):
        go = min(go, _reach_before(e.x - u.x, e.y - u.y, ux, uy, closest))
    if go <= 0:
        return
    u.facing = math.degrees(math.atan2(ux, uy)) % 360.0
    x, y = u.x + ux * go, u.y + uy * go
    on = game.scenario.on_table(x, y)
    if leave and on != (x, y):
        game.leave_field(u.id, on[0], on[1], u.men)
        u.status, u.on_field = "gone", False
    u.x, u.y = on


def _reach_before(ex: float, ey: float, ux: float, uy: float, closest: float) -> float:
    """How far along the unit direction (ux, uy) a move may go before it comes within
    ``closest`` of a point at (ex, ey) from the start (infinite if it never does; 0 if already)."""
    along = ex * ux + ey * uy
    across2 = ex * ex + ey * ey - along * along
    if ex * ex + ey * ey <= closest * closest:
        return 0.0
    if along <= 0 or across2 >= closest * closest:
        return math.inf
    return max(0.0, along - math.sqrt(closest * closest - across2))


def capabilities(state: FirefightState, u: UnitState) -> Capabilities:
    """What the commander may ask of ``u``: Firefight has no melee (a charge closes to 1" and
    fires), so no unit may charge; its fire tells within half its range and is close within 2"."""
    reach = state.yards(state.tables["fire"]["range_inches"][u.spec.arm])
    return Capabilities(0.0, reach / 2, state.yards(state.tables["fire"]["close_inches"]), False,
                        "Firefight has no melee (RULES.md 3)")


# ----------------------------------------------------------------------------- fire


def fire_phase(game: Game, state: FirefightState) -> None:
    """Both sides fire at once: every shot is rolled, then every loss taken."""
    t = state.tables
    losses: list[tuple[UnitState, int, str]] = []
    for u in game.world.units.values():
        if not u.on_field or u.status not in ("good", "disordered") or u.men <= 0:
            continue
        if u.spec.arm == "artillery" and u.formation != "unlimbered":
            continue
        reach = state.yards(t["fire"]["range_inches"][u.spec.arm])
        target = _target(game, state, u, reach)
        if target is None:
            continue
        yards = math.hypot(target.x - u.x, target.y - u.y)
        shot = Shot(u, target, yards)
        mods = _fire_modifiers(game, state, shot, reach) + game.extra_modifiers("fire", shot)
        res = mechanics.fire(game.roller, t, mods, {"firer": u.id, "target": target.id, "yards": round(yards)})
        res = game.settle("fire", shot, res, unit=u.id, target=target.id)
        hits = int(res.values["hits"])
        if u.spec.arm == "artillery":
            men = hits * int(t["fire"]["men_a_gun_a_hit"]) * u.guns
        else:
            men = int(hits * t["fire"]["percent_a_hit"] * u.men // 100)
        if men > 0:
            losses.append((target, men, "artillery" if u.spec.arm == "artillery" else "musketry"))
    for target, men, cause in losses:
        _lose(game, state, target, men, cause)


def _target(game: Game, state: FirefightState, u: UnitState, reach: float) -> UnitState | None:
    """The enemy the commander named, if in range; else the nearest enemy in range."""
    wanted = state.intents.get(u.side, {}).get(u.id)
    named = game.world.units.get(wanted.target) if wanted is not None and wanted.target else None
    if named is not None and named in _enemies(game, u) and math.hypot(named.x - u.x, named.y - u.y) <= reach:
        return named
    return _nearest(game, u, reach)


def _fire_modifiers(game: Game, state: FirefightState, shot: Shot, reach: float) -> list[Modifier]:
    m, ref = state.tables["fire"]["modifiers"], state.tables["fire"]["ref"]
    firer, target = shot.firer, shot.target
    out = []
    if shot.yards <= state.yards(state.tables["fire"]["close_inches"]):
        out.append(Modifier("close range", m["close"], ref))
    elif shot.yards > reach / 2:
        out.append(Modifier("long range", m["long"], ref))
    if firer.status == "disordered":
        out.append(Modifier("firer disordered", m["disordered"], ref))
    if firer.spec.experience in ("veteran", "crack"):
        out.append(Modifier("veteran firer", m["veteran"], ref))
    elif firer.spec.experience in ("green", "militia"):
        out.append(Modifier("green firer", m["green"], ref))
    if target.formation in ("column", "march-column", "limbered"):
        out.append(Modifier("target in column", m["column"], ref))
    ground = game.ground
    if ground.kind_at(target.x, target.y) in COVER_AREAS or any(
            ground.near(kind, target.x, target.y, state.yards(1)) for kind in COVER_LINES):
        out.append(Modifier("target in cover", m["cover"], ref))
    return out


def _lose(game: Game, state: FirefightState, u: UnitState, men: int, cause: str) -> None:
    men = min(men, u.men)
    if men <= 0:
        return
    u.men -= men
    game.lose(u.id, men, cause)
    state.lost_now.add(u.id)
    if u.spec.guns:  # a battery keeps guns in proportion to its men, rounded up
        u.guns = -(-u.spec.guns * u.men // u.spec.men)
    if u.men == 0:
        u.status = "gone"


def _enemies(game: Game, u: UnitState) -> list[UnitState]:
    return [e for e in game.world.by_side[game.world.enemy(u.side)] if e.on_field and e.status != "gone"]


def _nearest(game: Game, u: UnitState, within: float) -> UnitState | None:
    best, nearest = within, None
    for e in _enemies(game, u):
        d = math.hypot(e.x - u.x, e.y - u.y)
        if d <= best:
            best, nearest = d, e
    return nearest


# ----------------------------------------------------------------------------- morale


def morale_phase(game: Game, state: FirefightState) -> None:
    """Every unit that lost men this turn, and every broken or routed one, tests."""
    t = state.tables["morale"]
    for u in game.world.units.values():
        if not u.on_field or u.status == "gone" or (u.id not in state.lost_now and u.status not in SHAKEN):
            continue
        mods = _morale_modifiers(t, u) + game.extra_modifiers("morale", u)
        res = mechanics.morale(game.roller, state.tables, u.status, mods, u.id in state.lost_now,
                               {"unit": u.id, "status": u.status})
        res = game.settle("morale", u, res, unit=u.id)
        u.status = str(res.values["status"])
    state.lost_now.clear()


def _morale_modifiers(t: Mapping[str, Any], u: UnitState) -> list[Modifier]:
    out = []
    if u.spec.experience in ("veteran", "crack"):
        out.append(Modifier("veterans", t["veteran"], t["ref"]))
    elif u.spec.experience in ("green", "militia"):
        out.append(Modifier("green troops", t["green"], t["ref"]))
    if 2 * u.men <= u.spec.men:
        out.append(Modifier("half its men lost", t["half_lost"], t["ref"]))
    elif 4 * u.men <= 3 * u.spec.men:
        out.append(Modifier("a quarter of its men lost", t["quarter_lost"], t["ref"]))
    if u.status in SHAKEN:
        out.append(Modifier("broken or routed", t["shaken"], t["ref"]))
    return out
