"""The morale phase (unit tests, rallies, brigade tests) and the end of the turn (DPs removed,
generals placed, the turn's marks cleared)."""

from __future__ import annotations

import math
from typing import Any

from . import dice
from .combat import cover_of, general_near
from .mods import mods
from .move import add_dps, apply_morale, attached_general, back_off
from .state import Piece, SumterState

REF_UNIT = "QRS v6.2, Unit Morale Test"
REF_BRIGADE = "QRS v6.2, Brigade Morale Test"


def morale_step(game: Any, state: SumterState) -> None:
    """Units that lost figures this turn test (Other); retreating and routing units test to
    rally (ruling SU-U1); then each brigade with a unit broken this turn tests (SU-B2)."""
    t = state.tables
    near = state.yards(t["morale"]["near_inches"])
    beaten = [p for p in state.pieces.values() if p.unit.on_field and p.state in ("retreat", "rout", "gone")]
    for p in list(state.pieces.values()):
        if not p.unit.on_field or p.state == "gone":
            continue
        if p.state in ("retreat", "rout") and not p.broke:
            column = "rally"
        elif p.fit and p.lost and not p.melee:
            column = "other"
        else:
            continue
        names = unit_names(game, state, p, beaten, near)
        res = dice.unit_morale(game.roller, t, column, mods(t["morale"]["unit"], REF_UNIT, names),
                               {"column": column, "grade": p.grade} if game.seen else {}, ("SU-U1", "SU-U2") if game.seen else ())
        res = game.settle("unit-morale", p, res, unit=p.id)
        result = res.values["result"]
        if column == "rally" and result == "fail" and p.state == "rout":
            result = "disperse"
        if result == "obey":
            continue
        apply_morale(game, state, p, result, res.values["dps"])
    for b in state.brigades.values():
        if any(p.broke for p in b.pieces) and not b.failed:
            brigade_test(game, state, b, near)


def unit_names(game: Any, state: SumterState, p: Piece, beaten: list[Piece], near: float) -> list[Any]:
    names: list[Any] = [p.grade, ("dp", p.dps)]
    general = attached_general(state, p)
    if general in ("excellent", "average"):
        names.append(f"{general}-general")
    lost = 1 - p.figures / p.start
    if p.arm == "artillery":
        lost = 1 - p.unit.guns / p.unit.spec.guns if p.unit.spec.guns else 0.0
        names += ["half-lost"] if lost >= 0.5 else ["quarter-lost"] if lost >= 1 / 3 else []
    else:
        names += ["half-lost"] if lost >= 0.5 else ["quarter-lost"] if lost >= 0.25 else []
    if p.flank_fire:
        names.append("flank-fire")
    cover = cover_of(game, p)
    if cover == "works" and p.arm == "infantry":
        names.append("trenches")
    elif cover:
        names.append("cover")
    if p.state == "rout":
        names.append("routing")
    friends = enemies = 0
    for o in beaten:
        if o is p or math.hypot(o.unit.x - p.unit.x, o.unit.y - p.unit.y) > near:
            continue
        if (o.arm == "infantry") != (p.arm == "infantry") or o.skirmish:  # foot ignore skirmishers and cavalry, and vice versa
            continue
        if o.side == p.side:
            friends += 1
        else:
            enemies += 1
    if friends:
        names.append(("friend-beaten", friends))
    if enemies:
        names.append(("enemy-beaten", enemies))
    return names


def brigade_test(game: Any, state: SumterState, b: Any, near: float) -> None:
    """The Brigade Morale Test; failure breaks the brigade: every unit retires 12" straight
    back and the brigade is on Retire until an order change succeeds."""
    t = state.tables
    live = [p for p in b.pieces if p.unit.on_field or p.state == "gone"]
    if not live:
        return
    names: list[Any] = []
    if any(general_near(state, p) for p in live if p.fit):
        names.append("general")
    if b.order == "assault":
        names.append("assault")
    elif b.order == "move":
        names.append("move")
    good = sum(p.grade in ("veteran", "regular") for p in live)
    names += ["good-grade"] if 2 * good > len(live) else ["poor-grade"] if 2 * good < len(live) else []
    down = sum(p.state in ("retreat", "rout", "gone") for p in live) / len(live)
    names += ["most-beaten"] if down > 0.5 else ["half-beaten"] if down >= 0.5 else ["quarter-beaten"] if down >= 0.25 else []
    if 2 * sum(bool(cover_of(game, p)) for p in live) > len(live):
        names.append("cover")
    enemies = [e for e in state.enemies(b.side) if e.state in ("retreat", "rout")]
    if any(math.hypot(e.unit.x - p.unit.x, e.unit.y - p.unit.y) <= near for e in enemies for p in live if p.unit.on_field):
        names.append("enemy-beaten")
    res = dice.brigade_morale(game.roller, t, mods(t["morale"]["brigade"], REF_BRIGADE, names),
                              {"brigade": b.id} if game.seen else {}, ("SU-B1", "SU-B2", "SU-B3") if game.seen else ())
    res = game.settle("brigade-morale", b, res, unit=b.id)
    if res.values["passed"]:
        return
    b.failed, b.order = True, "retire"
    for p in live:
        if p.fit:
            back_off(game, state, p, state.yards(t["morale"]["brigade"]["retire_inches"]))


def end_turn(game: Any, state: SumterState) -> None:
    """Removal of DPs by grade and by generals in contact (stationary units, not in melee),
    generals placed with their units (SU-G1), and the turn's marks cleared."""
    rm = state.tables["morale"]["removal"]
    for b in state.brigades.values():
        place_general(state, b)
        b.yelled = False
    for p in state.pieces.values():
        if p.state == "gone" or not p.unit.on_field:
            continue
        still = not p.moved and not p.melee
        if p.dps and still and not p.rallied and p.fit:
            add_dps(state, p, -rm[p.grade])
        general = attached_general(state, p)
        if p.dps and general and not p.melee:
            if general == "excellent" and (still or p.brigade.order == "assault"):
                add_dps(state, p, -rm["excellent"])
            elif still and (general == "average" or p.grade in ("veteran", "regular")):
                add_dps(state, p, -rm[general])
        if p.state == "halted":
            p.state = "ok"
        p.fired_last, p.fired = p.fired, False
        p.moved, p.limbered_now, p.charging, p.lost, p.broke, p.flank_fire, p.rallied, p.yelling = 0.0, False, None, 0, False, False, False, False
    cx: dict[str, list[float]] = {}
    for p in state.pieces.values():
        if p.fit:
            c = cx.setdefault(p.side, [0.0, 0.0, 0.0])
            c[0] += p.unit.x
            c[1] += p.unit.y
            c[2] += 1
    for side, ld in state.cinc.items():
        if ld is not None and side in cx and cx[side][2]:
            ld.x, ld.y = cx[side][0] / cx[side][2], cx[side][1] / cx[side][2]


def place_general(state: SumterState, b: Any) -> None:
    """A brigade's general joins the stationary unit of his brigade with the most DPs (the first
    fit unit if none has any; ruling SU-G1)."""
    ld = b.general
    if ld is None or ld.status != "active":
        return
    fit = [p for p in b.pieces if p.fit]
    if not fit:
        return
    best = max(fit, key=lambda p: (p.dps if not p.moved else -1, -fit.index(p)))
    ld.attached_to, ld.x, ld.y = best.id, best.unit.x, best.unit.y
