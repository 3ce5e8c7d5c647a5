"""The morale phase (unit tests, rallies, brigade tests) and the end of the turn (DPs removed,
generals placed, the turn's marks cleared)."""

from __future__ import annotations

import math
from typing import Any

from referee.api import Game

from . import mechanics
from .combat import cover_of, general_near, lose_figures
from .geometry import dist
from .move import add_dps, apply_morale, attached_general, back_off, morale_inputs
from .state import Brigade, Piece, SumterState, set_failed, set_state


def morale_step(game: Game, state: SumterState) -> None:
    """Units that lost figures this turn test (Other; with the option ``test-when-hit``, units
    that took any hits); retreating and routing units test to rally (ruling SU-U1); then each
    brigade with a unit broken this turn tests (SU-B2)."""
    t = state.tables
    near = state.yards(t["morale"]["near_inches"])
    when_hit = game.option("test-when-hit")
    beaten = [p for p in state.pieces.values() if p.unit.on_field and p.state in ("retreat", "rout", "gone")]
    for p in list(state.pieces.values()):
        if p.state in ("retreat", "rout") and not p.broke and p.unit.on_field:
            column = "rally"
        elif (p.lost or when_hit and p.hit) and not p.melee and p.fit:
            column = "other"
        else:
            continue
        i = morale_inputs(state, p, column, **around(game, p, beaten, near))
        res = game.settle("unit-morale", p, mechanics.unit_morale(game.roller, t, i, ("SU-U1", "SU-U2"), tuple(game.extra_modifiers("unit-morale", p))), unit=p.id)
        result = res.values["result"]
        if result == "obey":
            continue
        apply_morale(game, state, p, result, res.values["dps"])
        if result in ("retreat", "rout") and i["trenches"] and enemy_foot_near(state, p):
            surrender(game, state, p)
    broken = {p.brigade for p in state.pieces.values() if p.broke}  # (one pass, not one per brigade)
    if not broken:
        return
    routed = [p for p in state.pieces.values() if p.live and p.state in ("retreat", "rout")]  # (no test below changes them)
    for b in state.brigades.values():
        if b in broken and not b.failed:
            brigade_test(game, state, b, near, routed)


def enemy_foot_near(state: SumterState, p: Piece) -> bool:
    """Enemy order foot within charge range (the most its line and charge dice can go)."""
    for e in state.enemies(p.side):
        if e.order_foot and e.fit:
            r = state.tables["movement"]["rates"][e.rate]
            reach = r["line"][-1] * (5 if r["die"] == "ave" else 6) + r["charge_inches"]
            if dist(e, p) <= state.yards(reach):
                return True
    return False


def surrender(game: Game, state: SumterState, p: Piece) -> None:
    """Foot in a trench that fail their morale in charge range of enemy foot surrender: every
    figure is lost (captured) and the unit is gone."""
    lose_figures(game, p, p.figures, "captured")
    set_state(p, "gone")
    p.broke, p.melee = True, None
    game.log.emit("surrender", unit=p.id, text=f"{p.id} fails its morale in its trench within charge range of enemy foot and surrenders")


def around(game: Game, p: Piece, beaten: list[Piece], near: float) -> dict[str, Any]:
    """The unit's cover and the friends and enemies in retreat, rout or dispersed within 12"
    (foot ignore skirmishers and cavalry, and vice versa)."""
    cover = cover_of(game, p)
    friends = enemies = 0
    for o in beaten:
        if o is p or dist(o, p) > near:
            continue
        if (o.arm == "infantry") != (p.arm == "infantry") or o.skirmish:
            continue
        if o.side == p.side:
            friends += 1
        else:
            enemies += 1
    return {"cover": bool(cover), "trenches": cover == "works" and p.arm == "infantry",
            "friends_beaten": friends, "enemies_beaten": enemies}


def brigade_test(game: Game, state: SumterState, b: Brigade, near: float, routed: list[Piece]) -> None:
    """The Brigade Morale Test (``routed``: the units in retreat or rout); failure breaks the
    brigade: every unit retires 12" straight back and the brigade is on Retire until an order
    change succeeds."""
    t = state.tables
    live = [p for p in b.pieces if p.unit.on_field or p.state == "gone"]
    if not live:
        return
    good = sum(p.grade in ("veteran", "regular") for p in live)
    down = sum(p.state in ("retreat", "rout", "gone") for p in live) / len(live)
    enemies = [e for e in routed if e.side != b.side]
    i = {"general": any(general_near(state, p) for p in live if p.fit), "order": b.order,
         "grade": "good" if 2 * good > len(live) else "poor" if 2 * good < len(live) else "mixed",
         "enemy_beaten": any(dist(e, p) <= near for e in enemies for p in live if p.unit.on_field),
         **secured(game, state, b, live), "cover": 2 * sum(bool(cover_of(game, p)) for p in live) > len(live),
         "beaten": "most" if down > 0.5 else "half" if down >= 0.5 else "quarter" if down >= 0.25 else "none"}
    res = mechanics.brigade_morale(game.roller, t, i, tuple(game.extra_modifiers("brigade-morale", b)))
    res = game.settle("brigade-morale", b, res, ("SU-B2",), unit=b.id)
    if res.values["passed"]:
        return
    set_failed(b, True)
    b.order = "retire"
    for p in live:
        if p.fit:
            back_off(game, state, p, state.yards(t["morale"]["brigade"]["retire_inches"]))


def secured(game: Game, state: SumterState, b: Brigade, live: list[Piece]) -> dict[str, Any]:
    """Secure flanks and rear: a fit unit of another friendly brigade not retiring within 6" of
    the brigade's units, on its left, its right or behind it (toward its home edge); blocking
    terrain is not modelled (ruling SU-B4)."""
    reach = state.yards(6)
    home = math.radians(game.scenario.home_edges.get(b.side, 180.0))
    bx, by = math.sin(home), math.cos(home)  # toward the rear
    fit = [p for p in live if p.fit]
    if not fit:
        return {"secure_flanks": 0, "secure_rear": False}
    cx, cy = sum(p.unit.x for p in fit) / len(fit), sum(p.unit.y for p in fit) / len(fit)
    left = right = rear = False
    for q in state.by_side.get(b.side, ()):
        if q.brigade is b or not q.fit or q.brigade.failed or not any(dist(q, p) <= reach for p in fit):
            continue
        dx, dy = q.unit.x - cx, q.unit.y - cy
        if dx * bx + dy * by > abs(dx * by - dy * bx):
            rear = True
        elif dx * by - dy * bx > 0:
            left = True
        else:
            right = True
    return {"secure_flanks": left + right, "secure_rear": rear}


def end_turn(game: Game, state: SumterState) -> None:
    """Removal of DPs by grade and by generals in contact (stationary units, not in melee; the
    two add up, ruling SU-D3), generals placed with their units (SU-G1), the turn's marks cleared."""
    rm = state.tables["morale"]["removal"]
    for b in state.brigades.values():
        place_general(state, b)
        b.yelled = False
    for side, mine in state.by_side.items():
        x = y = 0.0  # the sums of the places of the side's fit units, and their count: its CinC's place
        n = 0
        for p in mine:
            if not p.live:
                continue
            fit = p.fit
            if fit:
                x += p.unit.x
                y += p.unit.y
                n += 1
            still = not p.moved and not p.melee
            if p.dps and still and not p.rallied and fit:
                add_dps(state, p, -rm[p.grade])
            general = attached_general(state, p) if p.dps else ""  # (a unit with no DPs has none to remove)
            if general and not p.melee:
                if general == "excellent" and (still or p.brigade.order == "assault"):
                    add_dps(state, p, -rm["excellent"])
                elif still and (general == "average" or p.grade in ("veteran", "regular")):
                    add_dps(state, p, -rm[general])
            if p.state == "halted":
                set_state(p, "ok")
            p.fired_last, p.fired = p.fired, False
            p.moved, p.limbered_now, p.charging, p.lost, p.broke, p.flank_fire, p.rallied, p.yelling = 0.0, False, None, 0, False, False, False, False
            p.bushwhacked = False  # SU-U6: its first turn is over
            p.hit = False
        ld = state.cinc.get(side)
        if ld is not None and n:
            ld.x, ld.y = x / n, y / n


def place_general(state: SumterState, b: Brigade) -> None:
    """A brigade's general joins the stationary unit of his brigade with the most DPs (the first
    fit unit if none has any; ruling SU-G1)."""
    ld = b.general
    if ld is None or ld.status != "active":
        return
    best: Piece | None = None
    most = -2  # (a unit that moved counts -1)
    for p in b.pieces:
        dps = -1 if p.moved else p.dps
        if dps > most and p.fit:  # (the first of those equal)
            best, most = p, dps
    if best is None:
        return
    ld.attached_to, ld.x, ld.y = best.id, best.unit.x, best.unit.y
