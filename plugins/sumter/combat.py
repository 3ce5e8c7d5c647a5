"""Firing (simultaneous: every shot is thrown, then the hits land) and melee.

Hits become DPs until a unit has 3, then figures (ruling SU-D1). Ranges from centre to centre
less the contact distance, in the sheet's inches (SU-F9).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from . import dice
from .mods import mods
from .move import add_dps, attached_general, back_off, dist, disperse, flanked, roll_move
from .state import Piece, SumterState

REF_FIRE = "QRS v6.2, Infantry & Artillery Fire modifiers"
COVER = {"woods": "hedge-trees", "dense-woods": "hedge-trees", "buildings": "works"}


def fire_step(game: Any, state: SumterState) -> None:
    """Every unit that may fire throws at its target; the hits land together afterwards."""
    landed: list[tuple[Piece, int, Piece]] = []
    for side, pieces in state.by_side.items():
        intents = state.intents.get(side, {})
        enemies = [e for e in state.enemies(side) if e.unit.on_field]
        for p in pieces:
            if not p.fit or p.melee or not enemies or p.figures <= 0:
                continue
            hits = shoot(game, state, p, intents.get(p.id), enemies, landed)
            p.fired = hits is not None
    for target, hits, by in landed:
        take_hits(state, target, hits, by)


def may_fire(state: SumterState, p: Piece) -> bool:
    if p.arm == "artillery":  # foot batteries that moved or unlimbered may not fire
        return p.unit.formation == "unlimbered" and (p.rate == "horse-artillery" or not (p.moved or p.limbered_now))
    if p.skirmish:
        return True
    return p.moved <= float(dice.share(state.tables["movement"]["fire_after_share"]))


def reach_inches(state: SumterState, p: Piece) -> float:
    if p.arm == "artillery":
        gun = state.tables["artillery"]["guns"][p.unit.spec.gun_type or "12-pdr-napoleon"]
        return float(state.tables["artillery"]["bands"][str(gun["band"])][2])
    return float(state.tables["fire"]["ranges"][p.unit.spec.weapon or "rifle-musket"][1])


def shoot(game: Any, state: SumterState, p: Piece, intent: Any, enemies: list[Piece], landed: list[Any]) -> int | None:
    if not may_fire(state, p):
        return None
    reach = state.yards(reach_inches(state, p)) + state.yards(state.tables["scale"]["contact_inches"])
    target = state.pieces.get(intent.target) if intent is not None and intent.target else None
    if target is None or target.side == p.side or not target.unit.on_field or target.state == "gone" or dist(p, target) > reach:
        best, gap = None, reach
        x, y = p.unit.x, p.unit.y
        for e in enemies:
            d = math.hypot(e.unit.x - x, e.unit.y - y)
            if d <= gap:
                best, gap = e, d
        target = best
    if target is None:
        return None
    inches = max(0.0, dist(p, target) / state.ypi - state.tables["scale"]["contact_inches"])
    if p.arm == "artillery":
        res = artillery(game, state, p, target, inches)
    elif p.skirmish:
        res = skirmish(game, state, p, target)
    else:
        res = musketry(game, state, p, target, inches)
    res = game.settle(res.mechanic, p, res, unit=p.id, target=target.id)
    hits = res.values["hits"]
    if res.values.get("low_ammo"):
        p.unit.low_ammo = True
    if res.values.get("gun_lost"):
        lose_gun(game, state, p)
    if hits:
        landed.append((target, hits, p))
        if p.arm == "artillery":
            bounce(game, state, p, target, hits, landed)
    if p.order_foot and flanked(target, p):
        target.flank_fire = True
    return hits


def target_names(game: Any, state: SumterState, target: Piece, artillery: bool) -> list[str]:
    """The target's modifiers: formation, cover (ruling SU-F10: woods are "hedge & trees",
    buildings and works "trench, buildings or walls"), charging cavalry."""
    u = target.unit
    names = []
    if u.formation in ("march-column", "limbered"):
        names.append("march-column")
    elif u.formation == "unlimbered":
        names.append("deployed-artillery")
    elif target.skirmish:
        names.append("skirmishers")
    cover = cover_of(game, target)
    if cover:
        names.append(cover)
    if target.arm == "cavalry" and target.charging:
        names.append("charging-cavalry")
    return names


def cover_of(game: Any, p: Piece) -> str:
    u = p.unit
    if game.ground.behind("works", u.x, u.y, 30.0):
        return "works"
    return COVER.get(game.ground.kind_at(u.x, u.y), "")


def musketry(game: Any, state: SumterState, p: Piece, target: Piece, inches: float) -> Any:
    t = state.tables
    f = t["fire"]
    weapon = p.unit.spec.weapon or "rifle-musket"
    effective = inches <= f["ranges"][weapon][0]
    names: list[str | tuple[str, int]] = [p.grade, ("dp", p.dps)]
    if p.fired_last:
        names.append("fired_last_turn")
    if p.arm == "cavalry" and p.unit.mounted:
        names.append("mounted")
    if weapon in f["weapons"]["breechloader"]:
        names.append("breechloader")
    elif weapon in f["weapons"]["smoothbore"]:
        names.append("smoothbore")
    ms = mods(f["firer"], REF_FIRE, names) + mods(f["target"], REF_FIRE, target_names(game, state, target, False))
    shares = ([] if effective else [f["long_share"]]) + ([f["long_share"]] if p.unit.low_ammo else [])
    figures = p.figures if p.unit.formation == "line" else int(p.figures * dice.share(f["column_share"]))
    throws = 1
    if weapon in f["weapons"]["pour_double"] and not p.unit.low_ammo and game.choose(p.id, "pour-on-fire", ("pour", "no")) == "pour":
        throws = 2
    inputs = {"figures": figures, "range": "effective" if effective else "long", "weapon": weapon} if game.seen else {}
    return dice.volley(game.roller, t, "fire", "QRS v6.2, Shooting Casualties", t.fire_rows, figures, ms, dice.portion_of(*shares),
                       inputs, ("SU-F1", "SU-D1") if game.seen else (), throws)


def artillery(game: Any, state: SumterState, p: Piece, target: Piece, inches: float) -> Any:
    t = state.tables
    a = t["artillery"]
    gun = a["guns"][p.unit.spec.gun_type or "12-pdr-napoleon"]
    canister, effective, _ = a["bands"][str(gun["band"])]
    names: list[str | tuple[str, int]] = [("dp", p.dps)]
    if p.grade in ("trained", "raw"):
        names.append(p.grade)
    if inches <= canister:
        names.append(f"canister-{gun['kind']}")
    if p.rate == "horse-artillery" and (p.moved or p.limbered_now):
        names.append("horse-unlimbered")
    cover = cover_of(game, target)
    if cover and inches > canister:
        names.append("shell-cover")
    if gun.get("naval"):
        names.append("naval")
    ms = mods(a["firer"], REF_FIRE, names)
    tnames = target_names(game, state, target, True)
    if flanked(target, p) and target.unit.formation in ("line", "column", "march-column"):
        tnames.append("enfiladed-line" if target.unit.formation == "line" else "enfiladed-column")
    ms += mods(t["fire"]["target"], REF_FIRE, tnames)
    shares = ([] if inches <= effective else [t["fire"]["long_share"]]) + ([t["fire"]["long_share"]] if p.unit.low_ammo else [])
    models = max(1, math.ceil(p.unit.guns / t["scale"]["guns_per_model"])) if p.unit.guns else 0
    band = "canister" if inches <= canister else "effective" if inches <= effective else "long"
    inputs = {"models": models, "gun": p.unit.spec.gun_type, "range": band} if game.seen else {}
    heavy = a["heavy_double_most"] if gun.get("heavy") and p.fired_last else 0
    return dice.volley(game.roller, t, "artillery-fire", "QRS v6.2, Artillery Casualties", t.gun_rows, models, ms,
                       dice.portion_of(*shares), inputs, ("SU-A1", "SU-D1") if game.seen else (), 1, heavy)


def skirmish(game: Any, state: SumterState, p: Piece, target: Piece) -> Any:
    t = state.tables
    sk = t["fire"]["skirmish"]
    n = max(0, p.figures // sk["figures_per_die"][p.grade] - p.dps)
    pour = False
    weapon = p.unit.spec.weapon or ""
    if p.arm == "cavalry" and weapon in t["fire"]["weapons"]["pour_half"] and not p.unit.low_ammo:
        pour = game.choose(p.id, "pour-on-fire", ("pour", "no")) == "pour"
        n += n // 2 if pour else 0
    covered = bool(cover_of(game, target))
    inputs = {"dice": n, "cover": covered} if game.seen else {}
    return dice.skirmish_volley(game.roller, t, n, sk["hit_on"], dice.share(sk["cover_share"]) if covered else Fraction(1),
                                pour, inputs, (), ("SU-F5", "SU-D1") if game.seen else ())


def bounce(game: Any, state: SumterState, p: Piece, target: Piece, hits: int, landed: list[Any]) -> None:
    """Bounce-thru: the nearest unit within 5" directly behind the target takes half."""
    a = state.tables["artillery"]
    depth = state.yards(a["bounce_inches"])
    dx, dy = target.unit.x - p.unit.x, target.unit.y - p.unit.y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    best, gap = None, depth
    for o in state.pieces.values():
        if o is target or o is p or not o.unit.on_field or o.state == "gone":
            continue
        ox, oy = o.unit.x - target.unit.x, o.unit.y - target.unit.y
        along = ox * ux + oy * uy
        if 0 < along <= gap and abs(ox * uy - oy * ux) <= state.yards(1):
            best, gap = o, along
    if best is None:
        return
    more, _, _ = dice.hits_of(game.roller, state.tables, hits, dice.share(a["bounce_share"]))
    if more:
        game.log.emit("bounce", unit=p.id, target=best.id, hits=more, text=f"{p.id}'s shot bounces through to {best.id}: {more} hits")
        landed.append((best, more, p))


def lose_gun(game: Any, state: SumterState, p: Piece) -> None:
    """Heavy guns' double 1-5: one gun of the battery is lost (its crew of 2 is under one
    figure, ruling SU-A4)."""
    if p.unit.guns > 0:
        p.unit.guns -= 1
        game.log.emit("gun-lost", unit=p.id, rulings=["SU-A4"], text=f"{p.id} loses a gun firing on")
        if p.unit.guns == 0:
            disperse(game, p)


def take_hits(state: SumterState, p: Piece, hits: int, by: Piece | None = None) -> None:
    """Hits fill the unit's DPs to 3, then each removes a figure (ruling SU-D1)."""
    to_dps = state.tables["morale"]["hits_to_dps"]
    room = max(0, to_dps - p.dps)
    as_dps = min(room, hits)
    add_dps(state, p, as_dps)
    lose_figures(state, p, hits - as_dps)


def lose_figures(state: SumterState, p: Piece, n: int) -> None:
    n = min(n, p.figures)
    if n > 0:
        p.figures -= n
        p.lost += n
        if p.figures == 0:
            p.state = "gone"
            p.broke = True


# ----------------------------------------------------------------------------- melee


def melee_step(game: Any, state: SumterState) -> None:
    """Every pair in contact fights a round; a draw fights on next turn."""
    pairs, state.melees = state.melees, []
    for a, b in pairs:
        if a.melee != b.id or not a.unit.on_field or not b.unit.on_field or a.state == "gone" or b.state == "gone":
            a.melee = None if a.melee == b.id else a.melee
            b.melee = None if b.melee == a.id else b.melee
            continue
        fight(game, state, a, b)


def side_factors(game: Any, state: SumterState, p: Piece, foe: Piece, first: bool) -> tuple[Any, ...]:
    f = state.tables["melee"]["factors"]
    names: list[str | tuple[str, int]] = []
    kind = "skirmisher" if p.skirmish else p.arm
    names.append("cavalry-v-skirmishers" if kind == "cavalry" and foe.skirmish else kind)
    names.append(p.grade)
    if p.bonus:
        names.append(p.bonus)
    names.append(("dp", p.dps))
    if p.pushed:
        names.append("pushed-back")
    if p.state in ("retreat", "rout"):
        names.append("retreating")
    if flanked(p, foe):
        names.append("flank")
    here, there = game.ground.kind_at(p.unit.x, p.unit.y), game.ground.kind_at(foe.unit.x, foe.unit.y)
    if here == "buildings" and there != "buildings":
        names.append("buildings")
    elif cover_of(game, p) and here != there:  # in cover, not the same cover as the enemy
        names.append("cover")
    weapon = p.unit.spec.weapon or ""
    if weapon == "repeater":
        names.append("repeaters")
    if first and weapon == "shotgun":
        names.append("shotguns")
    if first and weapon == "carbine":
        names.append("carbines")
    if p.figures > foe.figures and foe.figures > 0:
        names.append(("outnumbering", min(state.tables["melee"]["outnumber_most"], int(2 * (p.figures - foe.figures) / foe.figures))))
    return mods(f, "QRS v6.2, Melee", names)


def fight(game: Any, state: SumterState, a: Piece, b: Piece) -> None:
    t = state.tables
    first = a.bonus in ("charge", "pursuing")
    ma, mb = side_factors(game, state, a, b, first), side_factors(game, state, b, a, first)
    res = dice.melee(game.roller, t, ma, mb, {"a": a.id, "b": b.id} if game.seen else {}, ("SU-M1",) if game.seen else ())
    res = game.settle("melee", (a, b), res, unit=a.id, target=b.id)
    winner, result = res.values["winner"], res.values["result"]
    a.bonus = b.bonus = ""
    a.pushed = b.pushed = False
    if winner == "none":
        inflict(state, a, b, "draw")
        inflict(state, b, a, "draw")
        state.melees.append((a, b))
        if a.arm == "cavalry" and b.arm != "cavalry":  # cavalry drawing with foot or guns retire to their lines
            a.melee = b.melee = None
            state.melees.pop()
            back_off(game, state, a, state.yards(12))
        return
    win, lose = (a, b) if winner == "a" else (b, a)
    game.report_assault(a.id, b.id, carried=win is a)
    if result == "pushed-back" and lose.arm == "infantry" and win.arm == "cavalry":
        result = "retreat"  # exception (a)
    add_dps(state, lose, res.values["dps"])
    inflict(state, win, lose, result)
    inflict(state, lose, win, "lost")
    add_dps(state, win, t["melee"]["winner_dp"])
    win.melee = lose.melee = None
    if lose.arm == "artillery":  # exception (b): artillery always disperse if they lose a melee
        disperse(game, lose)
    elif result in ("retreat", "rout"):
        lose.state, lose.broke = result, True
    elif result == "pushed-back":
        lose.pushed = True
        r = t["movement"]["rates"][lose.rate]
        back_off(game, state, lose, state.yards(roll_move(game, state, lose, r["die"], 1, 0, "pushed back")))
    pursue_or_stand(game, state, win, lose, result)


def inflict(state: SumterState, by: Piece, on: Piece, result: str) -> None:
    """Melee casualties by ratio: figures of ``by`` per figure lost by ``on``."""
    c = state.tables["melee"]["casualties"]
    cav = by.arm == "cavalry"
    if result in ("lost", "draw"):
        per = c["losing-cavalry" if cav else "losing-foot"]
    elif cav and on.arm == "cavalry":
        per = c["cavalry-v-pushed-cavalry" if result == "pushed-back" else "cavalry-v-cavalry"]
    elif cav:
        per = c["cavalry-v-beaten-foot"]
    else:
        per = c["foot-v-pushed" if result == "pushed-back" else "foot-v-all"]
    lose_figures(state, on, dice.ratio_casualties(by.figures, per))


def pursue_or_stand(game: Any, state: SumterState, win: Piece, lose: Piece, result: str) -> None:
    """Who takes the pursuit test (the Melee Result's columns); a push back is followed up by
    cavalry, and by foot that choose to."""
    t = state.tables
    foot = win.arm != "cavalry"
    if result == "pushed-back":
        if lose.state != "gone" and (not foot or game.choose(win.id, "follow-up", ("follow-up", "stand")) == "follow-up"):
            win.melee, lose.melee, win.bonus = lose.id, win.id, "following-up"
            state.melees.append((win, lose))
        return
    if foot and result == "retreat" and win.grade in ("veteran", "regular"):
        return  # others stand
    if win.arm == "artillery":
        return
    p = t["melee"]["pursuit"]
    names: list[str | tuple[str, int]] = [g for g in (win.grade,) if g in ("veteran", "trained", "raw")]
    if win.arm == "infantry":
        names.append("infantry")
    if general_near(state, win):
        names.append("general")
    if win.yelling:
        names.append("rebel-yell")
    ms = mods({k: v for k, v in p.items() if isinstance(v, int)}, "QRS v6.2, Pursuit Test", names)
    res = game.settle("pursuit", win, dice.pursuit(game.roller, t, ms, {"grade": win.grade} if game.seen else {}), unit=win.id)
    add_dps(state, win, res.values["dps"])
    outcome = res.values["result"]
    if outcome == "pursue" and lose.state != "gone":
        win.pursuing = lose.id
    elif outcome == "halt" and not foot:
        back_off(game, state, win, state.yards(12))


def general_near(state: SumterState, p: Piece) -> bool:
    """CinC or brigade general within command radius."""
    radius = state.yards(state.tables["scale"]["command_inches"])
    for ld in (p.brigade.general, state.cinc.get(p.side)):
        if ld is not None and ld.status == "active" and math.hypot(ld.x - p.unit.x, ld.y - p.unit.y) <= radius:
            return True
    return False
