"""Firing (simultaneous: every shot is thrown, then the hits land) and melee.

Hits become DPs until a unit has 3, then figures (ruling SU-D1). Ranges from centre to centre
less the contact distance, in the sheet's inches (SU-F9).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from referee.api import Game, Intent, Resolution, Roller, men_between

from . import dice, mechanics
from .geometry import Foes, dist, enemies_near, flanked, nearest
from .move import add_dps, back_off, disperse, roll_move
from .state import Piece, SumterState, reach_inches, set_state, show_strength

REF_FIRE = "QRS v6.2, Infantry & Artillery Fire modifiers"
Landed = tuple[Piece, int, str, int]
"""Hits waiting to land: the target, the hits, the neutral cause of any loss and the range in yards."""
COVER = {"woods": "hedge-trees", "dense-woods": "hedge-trees", "buildings": "works"}


def fire_step(game: Game, state: SumterState) -> None:
    """Every unit that may fire throws at its target; the hits land together afterwards."""
    landed: list[Landed] = []
    for side, pieces in state.by_side.items():
        intents = state.intents.get(side, {})
        enemies = Foes.of(state.enemies(side))  # (the live ones: none moves or falls while the side fires)
        if not enemies.pieces:
            continue
        for p in pieces:
            if p.melee or p.figures <= 0 or not p.fit:
                continue
            hits = shoot(game, state, p, intents.get(p.id), enemies, landed)
            p.fired = hits is not None
        snipe(game, state, side, pieces, enemies, landed)
    for target, hits, cause, yards in landed:
        take_hits(game, state, target, hits, cause, yards)


def may_fire(state: SumterState, p: Piece) -> bool:
    if p.arm == "artillery":  # foot batteries that moved or unlimbered may not fire
        return p.unit.formation == "unlimbered" and (p.rate == "horse-artillery" or not (p.moved or p.limbered_now))
    if p.skirmish:
        return True
    return not p.moved or p.moved <= float(state.tables.fire_after)  # (most have not moved)


def shoot(game: Game, state: SumterState, p: Piece, intent: Intent | None, enemies: Foes, landed: list[Landed]) -> int | None:
    """``p`` fires at its intent's target, or when that is out of reach at the nearest of
    ``enemies`` in reach: the last of those equally near (none, without looking further, when
    they are all beyond its reach: most units, most turns)."""
    reach = p.reach
    if enemies.beyond(p, reach) or not may_fire(state, p):
        return None
    target = state.pieces.get(intent.target) if intent is not None and intent.target else None
    if target is None or target.side == p.side or not target.live or dist(p, target) > reach:
        best, gap = None, reach
        x, y = p.unit.x, p.unit.y
        for e in enemies_near(game, state, p, reach=reach, among=enemies.pieces):
            d = math.hypot(e.unit.x - x, e.unit.y - y)  # (dist written out: 1.2 % of a Big Bethel game, instructions.py -n 2)
            if d <= gap:
                best, gap = e, d
        target = best
    if target is None:
        return None
    inches = max(0.0, dist(p, target) / state.ypi - state.tables["scale"]["contact_inches"])
    res = volley(game, state, p, target, inches)(game.roller)
    res = game.settle(res.mechanic, p, res, unit=p.id, target=target.id)
    hits: int | None = res.values["hits"]
    if res.values.get("low_ammo"):
        p.unit.low_ammo = True
    if res.values.get("gun_lost"):
        lose_gun(game, state, p)
    if hits:
        cause = fire_cause(state, p, res)
        landed.append((target, hits, cause, round(dist(p, target))))
        if p.arm == "artillery":
            bounce(game, state, p, target, hits, cause, landed)
    if p.order_foot and flanked(target, p):
        target.flank_fire = True
    return hits


def fire_cause(state: SumterState, p: Piece, res: Resolution) -> str:
    """The neutral cause of losses to a unit's fire (ruling SU-A6): musketry; a battery's
    canister within canister range, else round shot or shell (the sheet does not tell them
    apart); a Gatling's fire is artillery with no ammunition named."""
    if p.arm != "artillery":
        return "musketry"
    if state.tables["artillery"]["guns"][p.unit.spec.gun_type or "12-pdr-napoleon"]["kind"] == "gatling":
        return "artillery"
    return "canister" if res.inputs["range"] == "canister" else "shot-or-shell"


def target_inputs(game: Game, state: SumterState, target: Piece) -> dict[str, Any]:
    """The target as the fire mechanics read it: its formation or kind and its cover (ruling
    SU-F10: woods are "hedge & trees", buildings and works "trench, buildings or walls")."""
    u = target.unit
    kind = ("march-column" if u.formation in ("march-column", "limbered") else "deployed-artillery" if u.formation == "unlimbered"
            else "skirmishers" if target.skirmish else "charging-cavalry" if target.arm == "cavalry" and target.charging
            else "column" if u.formation == "column" else "line")
    return {"target": kind, "cover": cover_of(game, target) or "none", "close_up": False}


def cover_of(game: Game, p: Piece) -> str:
    """The cover where ``p`` stands: "works" behind works, else its ground's (:data:`COVER`), else ""
    (read again only where it stands elsewhere than when last asked: :attr:`Piece.cover`)."""
    u = p.unit
    kept = p.cover
    if kept is not None and kept[0] == u.x and kept[1] == u.y:
        return kept[2]
    cover = "works" if game.ground.behind("works", u.x, u.y, 30.0) else COVER.get(game.ground.kind_at(u.x, u.y), "")
    p.cover = (u.x, u.y, cover)
    return cover


def volley(game: Game, state: SumterState, p: Piece, target: Piece, inches: float) -> Callable[[Roller], Resolution]:
    """``p``'s fire at ``target`` ``inches`` away as a mechanic of a roller (its inputs, the
    player's choices and the house rules' modifiers settled now)."""
    if p.arm == "artillery":
        return artillery(game, state, p, target, inches)
    if p.skirmish:
        return skirmish(game, state, p, target)
    return musketry(game, state, p, target, inches)


def musketry(game: Game, state: SumterState, p: Piece, target: Piece, inches: float) -> Callable[[Roller], Resolution]:
    f = state.tables["fire"]
    weapon = p.unit.spec.weapon or "rifle-musket"
    low = p.unit.low_ammo
    pour = (weapon in f["weapons"]["pour_double"] and not low
            and game.choose(p.id, "pour-on-fire", ("pour", "no")) == "pour")
    i = {"figures": p.figures, "grade": p.grade, "weapon": weapon, "range": "effective" if inches <= f["ranges"][weapon][0] else "long",
         "formation": "line" if p.unit.formation == "line" else "column", "dps": p.dps, "fired_last": p.fired_last,
         "mounted": p.arm == "cavalry" and p.unit.mounted, "low_ammo": low, "pour": pour, **target_inputs(game, state, target)}
    return partial(mechanics.fire, t=state.tables, i=i, extra=tuple(game.extra_modifiers("fire", (p, target))))


def artillery(game: Game, state: SumterState, p: Piece, target: Piece, inches: float) -> Callable[[Roller], Resolution]:
    t = state.tables
    gun = p.unit.spec.gun_type or "12-pdr-napoleon"
    canister, effective, _ = t["artillery"]["bands"][str(t["artillery"]["guns"][gun]["band"])]
    i = {"models": math.ceil(p.unit.guns / t["scale"]["guns_per_model"]), "gun": gun, "grade": p.grade,
         "range": "canister" if inches <= canister else "effective" if inches <= effective else "long", "dps": p.dps,
         "horse_unlimbered": p.rate == "horse-artillery" and p.limbered_now, "mixed": False,
         "low_ammo": p.unit.low_ammo, "consecutive": p.fired_last, "enfilade": flanked(target, p), **target_inputs(game, state, target)}
    return partial(mechanics.artillery_fire, t=t, i=i, extra=tuple(game.extra_modifiers("artillery-fire", (p, target))))


def skirmish(game: Game, state: SumterState, p: Piece, target: Piece) -> Callable[[Roller], Resolution]:
    t = state.tables
    weapon = p.unit.spec.weapon or ""
    pour = (p.arm == "cavalry" and weapon in t["fire"]["weapons"]["pour_half"] and not p.unit.low_ammo
            and game.choose(p.id, "pour-on-fire", ("pour", "no")) == "pour")
    i = {"figures": p.figures, "grade": p.grade, "dps": p.dps, "cover": bool(cover_of(game, target)), "pour": pour, "sniper": False}
    return partial(mechanics.skirmish_fire, t=t, i=i, extra=tuple(game.extra_modifiers("skirmish-fire", (p, target))))


def snipe(game: Game, state: SumterState, side: str, pieces: list[Piece], enemies: Foes, landed: list[Landed]) -> None:
    """The army's one sniper (ruling SU-F11) works from its fit foot nearest the enemy, not in
    melee, and shoots at the nearest enemy within that unit's firearm's reach: one d6, 5 or 6
    hits, halved in cover. A unit whose nearest enemy is beyond the longest reach of them all
    cannot give the sniper a shot, nor one no nearer than the nearest found so far be his post: so
    each asks only of the enemies within the lesser of those two distances, and none when all of
    them are beyond it."""
    contact = state.tables["scale"]["contact_inches"]
    longest = state.sniper_reach.get(side)
    if longest is None:
        longest = state.sniper_reach[side] = max((state.yards(reach_inches(state, p) + contact) for p in pieces if p.arm == "infantry"),
                                                 default=0.0)
    best, target, gap = None, None, math.inf
    for p in pieces:
        if p.arm == "infantry" and not p.melee and p.fit and not enemies.beyond(p, min(longest, gap)):
            e, d = nearest(p, enemies_near(game, state, p, reach=min(longest, gap), among=enemies.pieces))
            if d < gap:
                best, target, gap = p, e, d
    if best is None or target is None or gap > state.yards(reach_inches(state, best) + contact):
        return
    i = {"figures": 0, "grade": best.grade, "dps": 0, "cover": bool(cover_of(game, target)), "pour": False, "sniper": True}
    res = mechanics.skirmish_fire(game.roller, state.tables, i, ("SU-F11", "SU-D1"),
                                  tuple(game.extra_modifiers("skirmish-fire", (best, target))))
    res = game.settle("skirmish-fire", best, res, unit=best.id, target=target.id)
    if res.values["hits"]:
        landed.append((target, res.values["hits"], "musketry", round(gap)))


def bounce(game: Game, state: SumterState, p: Piece, target: Piece, hits: int, cause: str, landed: list[Landed]) -> None:
    """Bounce-thru: the nearest unit within 5" directly behind the target takes half."""
    a = state.tables["artillery"]
    depth = state.yards(a["bounce_inches"])
    width = state.yards(1)
    tx, ty = target.unit.x, target.unit.y
    dx, dy = tx - p.unit.x, ty - p.unit.y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    best, gap = None, depth
    space = game.world.space
    behind = (state.pieces.values() if not space.big  # (a small battle: every unit; else those the index finds near the line)
              else [state.pieces[u.id] for u in space.between(tx, ty, tx + ux * depth, ty + uy * depth, width + 1.0)])
    for o in behind:
        ox, oy = o.unit.x - tx, o.unit.y - ty
        along = ox * ux + oy * uy
        if 0 < along <= gap and abs(ox * uy - oy * ux) <= width and o is not p and o.live:  # (where first: few stand there)
            best, gap = o, along
    if best is None:
        return
    more, _, _ = dice.hits_of(game.roller, state.tables, hits, state.tables.bounce_share)
    if more:
        game.log.emit("bounce", unit=p.id, target=best.id, hits=more, text=f"{p.id}'s shot bounces through to {best.id}: {more} hits")
        landed.append((best, more, cause, round(dist(p, best))))


def lose_gun(game: Game, state: SumterState, p: Piece) -> None:
    """Heavy guns' double 1-5: one gun of the battery is lost (its crew of 2 is under one
    figure, ruling SU-A4)."""
    if p.unit.guns > 0:
        p.unit.guns -= 1
        game.log.emit("gun-lost", unit=p.id, rulings=["SU-A4"], text=f"{p.id} loses a gun firing on")
        if p.unit.guns == 0:
            disperse(game, p)


def take_hits(game: Game, state: SumterState, p: Piece, hits: int, cause: str, yards: int) -> None:
    """Hits fill the unit's DPs to 3, then each removes a figure (ruling SU-D1)."""
    to_dps = state.tables["morale"]["hits_to_dps"]
    p.hit = p.hit or hits > 0
    room = max(0, to_dps - p.dps)
    as_dps = min(room, hits)
    add_dps(state, p, as_dps)
    if cause == "musketry":
        lose_figures(game, p, hits - as_dps, cause, yards=yards)
    else:
        lose_figures(game, p, hits - as_dps, cause, yards=yards, rulings=["SU-A6"])


def lose_figures(game: Game, p: Piece, n: int, cause: str, **detail: Any) -> None:
    """Remove ``n`` figures; the men they stood for are reported lost to the neutral ``cause``
    (Game.lose); a unit with none left is gone."""
    n = min(n, p.figures)
    if n > 0:
        game.lose(p.id, men_between(p.unit.spec.men, p.start, p.figures, p.figures - n), cause, **detail)
        p.figures -= n
        p.lost += n
        show_strength(p)
        if p.figures == 0:
            set_state(p, "gone")
            p.broke = True


# ----------------------------------------------------------------------------- melee


def melee_step(game: Game, state: SumterState) -> None:
    """Every pair in contact fights a round; a draw fights on next turn."""
    pairs, state.melees = state.melees, []
    for a, b in pairs:
        if a.melee != b.id or not a.live or not b.live:
            a.melee = None if a.melee == b.id else a.melee
            b.melee = None if b.melee == a.id else b.melee
            continue
        fight(game, state, a, b)


def side_inputs(game: Game, p: Piece, foe: Piece, s: str) -> dict[str, Any]:
    """One side of a melee as the melee mechanic reads it."""
    kind = "skirmisher" if p.skirmish else p.arm
    here = game.ground.kind_at(p.unit.x, p.unit.y)
    weapon = p.unit.spec.weapon or ""
    return {f"{s}_kind": kind, f"{s}_grade": p.grade, f"{s}_figures": p.figures, f"{s}_dps": p.dps, f"{s}_bonus": p.bonus or "none",
            f"{s}_plight": "pushed-back" if p.pushed else "retreating" if p.state in ("retreat", "rout") else "none",
            f"{s}_flank": flanked(p, foe), f"{s}_ground": "buildings" if here == "buildings" else "cover" if cover_of(game, p) else "open",
            f"{s}_weapon": weapon if weapon in ("shotgun", "carbine", "repeater") else "other"}


def fight(game: Game, state: SumterState, a: Piece, b: Piece) -> None:
    t = state.tables
    rounds = state.rounds[(a.id, b.id)] = state.rounds.get((a.id, b.id), 0) + 1
    i = {**side_inputs(game, a, b, "a"), **side_inputs(game, b, a, "b"), "round": rounds}
    res = game.settle("melee", (a, b), mechanics.melee(game.roller, t, i, extra=tuple(game.extra_modifiers("melee", (a, b)))),
                      unit=a.id, target=b.id)
    v = res.values
    a.bonus = b.bonus = ""
    a.pushed = b.pushed = False
    lose_figures(game, a, v["a_lost"], "charge")
    lose_figures(game, b, v["b_lost"], "charge")
    if v["winner"] == "none":
        if v["cavalry_retire"]:  # cavalry drawing with foot or guns retire to their lines
            cav = a if a.arm == "cavalry" else b
            a.melee = b.melee = None
            back_off(game, state, cav, state.yards(12))
        else:
            state.melees.append((a, b))
        return
    state.rounds.pop((a.id, b.id), None)
    win, lose = (a, b) if v["winner"] == "a" else (b, a)
    game.report_assault(a.id, b.id, carried=win is a)
    add_dps(state, lose, v["dps"])
    add_dps(state, win, v["winner_dp"])
    win.melee = lose.melee = None
    result = v["result"]
    if result == "disperse":
        disperse(game, lose)
    elif result in ("retreat", "rout"):
        if lose.state != "gone":
            set_state(lose, result)
            lose.broke = True
    elif result == "pushed-back" and lose.state != "gone":
        lose.pushed = True
        r = t["movement"]["rates"][lose.rate]
        back_off(game, state, lose, state.yards(roll_move(game, state, lose, r["die"], 1, 0, "pushed back")))
        if v["follow_up"] == "must" or game.choose(win.id, "follow-up", ("follow-up", "stand")) == "follow-up":
            win.melee, lose.melee, win.bonus = lose.id, win.id, "following-up"
            state.melees.append((win, lose))
    if v["pursuit"] and win.state != "gone":
        pursue(game, state, win, lose)


def pursue(game: Game, state: SumterState, win: Piece, lose: Piece) -> None:
    """The Pursuit Test (taken even when the beaten unit has dispersed); 6 or less pursues the
    unit just beaten in the compulsory moves, or charges uncontrolled if it has gone (ruling
    SU-M5); cavalry told to retire go back 12" (SU-M6)."""
    i = {"grade": win.grade, "infantry": win.arm == "infantry", "general": general_near(state, win), "rebel_yell": win.yelling}
    res = game.settle("pursuit", win, mechanics.pursuit(game.roller, state.tables, i, tuple(game.extra_modifiers("pursuit", win))), unit=win.id)
    add_dps(state, win, res.values["dps"])
    outcome = res.values["result"]
    if outcome == "pursue":
        win.pursuing = lose.id
    elif outcome == "halt" and win.arm == "cavalry":
        back_off(game, state, win, state.yards(12))


def general_near(state: SumterState, p: Piece) -> bool:
    """CinC or brigade general within command radius."""
    radius = state.yards(state.tables["scale"]["command_inches"])
    for ld in (p.brigade.general, state.cinc.get(p.side)):
        if ld is not None and ld.status == "active" and math.hypot(ld.x - p.unit.x, ld.y - p.unit.y) <= radius:
            return True
    return False
