"""Moving on the table: orders steps, charges, compulsory moves and the movement phase.

Distances are yards in the neutral world; the sheet's inches are converted with the scale
(ruling SU-S2). Units move as points toward the doctrine's goal (:mod:`.geometry`), the ground
does not slow them (SU-G3) and they pass through one another (SU-G5).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from referee.api import Game, Intent, segment_distance, short_of

from . import dice, mechanics, tables
from .geometry import dist, enemies_near, flanked, nearest, step_toward
from .mods import mods
from .state import Brigade, Piece, SumterState, set_state

FORMATION_OF = {"march-column": "column"}
NO_COST = Fraction(0)  # a change to the formation it is in
WHOLE = Fraction(1)  # a change the table does not list: the whole move


def back_off(game: Game, state: SumterState, p: Piece, yards: float) -> None:
    """Move ``p`` straight back ``yards`` toward its home edge; off the table it leaves the field."""
    u = p.unit
    rad = math.radians(game.scenario.home_edges.get(p.side, 180.0))
    x, y = u.x + yards * math.sin(rad), u.y + yards * math.cos(rad)
    sx, sy = game.scenario.on_table(x, y)
    if (sx, sy) != (x, y) and p.state in ("retreat", "rout"):
        game.leave_field(p.id, sx, sy, u.men)
        u.x, u.y = sx, sy
        u.on_field = False
        set_state(p, "gone")
        return
    u.x, u.y = sx, sy


def roll_move(game: Game, state: SumterState, p: Piece, die: str, count: int, inches: float, why: str,
              rulings: tuple[str, ...] = ()) -> float:
    """Throw movement dice for ``p`` (1 DP for each 1 or 2); returns the inches."""
    if count <= 0:
        return inches
    fixed = Fraction(inches).limit_denominator(100) if inches % 1 else int(inches)  # (whole inches, or none: no fraction made)
    res = dice.movement(game.roller, state.tables, die, count, fixed, p.skirmish,
                        {"die": die, "dice": count, "inches": inches, "for": why} if game.seen else {}, rulings,
                        tuple(game.extra_modifiers("movement", p)))
    res = game.settle("movement", p, res, unit=p.id)
    add_dps(state, p, res.values["dps"])
    return float(res.values["inches"])


def add_dps(state: SumterState, p: Piece, n: int) -> None:
    """DPs, capped (ruling SU-D2)."""
    if n > 0:
        p.dps = min(state.tables["morale"]["dp_cap"], p.dps + n)
    elif n < 0:
        p.dps = max(0, p.dps + n)


def change_cost(state: SumterState, p: Piece, want: str) -> Fraction:
    """The share of a move a formation change costs (the formation changes table)."""
    have = p.unit.formation
    ch = state.tables.changes
    good = p.grade in ("veteran", "regular")
    have, want = FORMATION_OF.get(have, have), FORMATION_OF.get(want, want)
    if have == want:
        return NO_COST
    if "limbered" in (have, want) or "unlimbered" in (have, want):  # a heavy field battery: a whole move (SU-G8)
        heavy = state.tables["artillery"]["guns"][p.unit.spec.gun_type or "12-pdr-napoleon"].get("heavy", False)
        return ch["limber-heavy" if heavy else "limber"]
    if want == "skirmish":
        return ch["to-skirmish"]
    if have == "skirmish":
        return ch["from-skirmish"]
    key = f"{have}-{want}"
    return ch.get(f"{key}-good" if good else key, ch.get(key, WHOLE))


def move_dice(state: SumterState, p: Piece, formation: str, far: float) -> tuple[str, int, float]:
    """(die, count, fixed inches) for a move in ``formation`` (:func:`.tables.move_dice`); a "1
    or 2" choice takes the larger number when the goal is beyond the smaller's average (ruling
    SU-M4)."""
    r = state.tables["movement"]["rates"][p.rate]
    return tables.move_dice(r, formation, state.yards(3.5 * r["line"][0]) < far)


# ----------------------------------------------------------------------------- orders


def order_wanted(state: SumterState, b: Brigade) -> str | None:
    """The order ``b``'s plan asks for this turn (its command intent's stance), if it is to try
    for it: another order than the one it has, or any while it is retiring after an order or
    morale failure; None if it keeps its order."""
    intent = state.wanted.get(b.side, {}).get(b.id)
    wanted: str = state.tables["command"]["from_stance"][intent.stance] if intent is not None else b.order
    return None if wanted == b.order and not b.failed else wanted


def orders_step(game: Game, state: SumterState, brigade_id: str) -> None:
    """A brigade whose plan asks for another order (or which is retiring after an order or
    morale failure) tries to change it: the CinC rolls when he is within command radius of the
    brigade (SU-C3), otherwise its general; a cock-up reads the loss-of-nerve table."""
    b = state.brigades[brigade_id]
    t = state.tables
    wanted = order_wanted(state, b)
    if wanted is None:
        return
    live = [p for p in b.pieces if p.live]
    if not live:
        return
    cx = sum(p.unit.x for p in live) / len(live)
    cy = sum(p.unit.y for p in live) / len(live)
    cinc = state.cinc.get(b.side)
    by_cinc = (cinc is not None and cinc.status == "active"
               and math.hypot(cinc.x - cx, cinc.y - cy) <= state.yards(t["scale"]["command_inches"])) or b.general is None
    res = dice.order_change(game.roller, t, b.order, wanted, by_cinc,
                            {"present": b.order, "wanted": wanted, "cinc": by_cinc} if game.seen else {},
                            tuple(game.extra_modifiers("order-change", b)))
    res = game.settle("order-change", b, res, ("SU-C3",), unit=brigade_id)
    new = res.values["order"]
    b.failed = new == "retire"  # (shown to the neutral world once the turn's intents are given: referee_turn)
    b.order = new


# ----------------------------------------------------------------------------- charges


def charge_step(game: Game, state: SumterState, side: str) -> None:
    """Charges of ``side``: units the doctrine sends in, of brigades on Assault orders (SU-C7),
    skirmishers as well as order troops (SU-G9), test to charge (Rebel Yell where chosen; each
    unit of the brigade that charged the same enemy before it this turn a wave, +1 each, ruling
    SU-C10), throw their initial dice; on contact the defender tests being charged and may not
    otherwise react."""
    intents = state.intents.get(side, {})
    waves: dict[tuple[str, str], int] = {}
    for p in state.by_side.get(side, ()):
        intent = intents.get(p.id)
        if (intent is None or intent.action != "charge" or not p.fit or p.melee or p.arm == "artillery"
                or p.brigade.order != "assault"):
            continue
        target = state.pieces.get(intent.target or "")
        if target is None or not target.live:
            continue
        wave = waves.get((p.brigade.id, target.id), 0)
        if charge(game, state, p, target, wave):
            waves[p.brigade.id, target.id] = wave + 1


def charge(game: Game, state: SumterState, p: Piece, target: Piece, wave: int) -> bool:
    """``p`` tests to charge ``target`` and throws its dice; whether it charged."""
    t = state.tables
    r = t["movement"]["rates"][p.rate]
    gap = dist(p, target)
    die, count = r["die"], r["line"][-1]
    reach = state.yards(count * (5 if die == "ave" else 6) + r["charge_inches"] + r["charge_dice"] * 6)
    if gap > reach:
        return False
    yell = False
    if (p.side == "confederate" and p.order_foot and not p.yelled and not p.brigade.yelled
            and game.choose(p.id, "rebel-yell", ("yell", "no")) == "yell"):
        yell = p.yelled = p.brigade.yelled = True
    i = morale_inputs(state, p, "charge", flank=target.skirmish or flanked(target, p), rebel_yell=yell, wave=wave)
    extra = tuple(game.extra_modifiers("unit-morale", (p, target)))
    rulings: tuple[str, ...] = ("SU-U2", "SU-C10") if wave else ("SU-U2",)
    if p.skirmish:
        rulings += ("SU-G9",)
    res = game.settle("unit-morale", p, mechanics.unit_morale(game.roller, t, i, rulings, extra), unit=p.id, target=target.id)
    apply_morale(game, state, p, res.values["result"], res.values["dps"])
    if res.values["result"] != "charge":
        return False
    if target.skirmish and target.fit and game.choose(target.id, "charged", ("evade", "stand")) == "evade":
        tr = t["movement"]["rates"][target.rate]  # skirmishers evade before the charge is thrown (SU-G6)
        back_off(game, state, target, state.yards(roll_move(game, state, target, tr["retreat_die"], tr["retreat"], 0, "evade")))
        target.moved, gap = 1.0, dist(p, target)
    long_enough = p.arm != "cavalry" or gap >= state.yards(t["melee"]["charge_inches_cavalry"])
    inches = roll_move(game, state, p, die, count, r["charge_inches"], "charge")
    if r["charge_dice"]:
        inches += roll_move(game, state, p, die, r["charge_dice"], 0, "charge bonus")
    contact = state.yards(t["scale"]["contact_inches"])
    if state.yards(inches) + contact < gap:
        step_toward(game, p, target.unit.x, target.unit.y, state.yards(inches))
        p.moved = 1.0
        if yell:  # Rebel Yell: a charge that fails to reach its enemy routs
            set_state(p, "rout")
            p.broke = True
            game.log.emit("rebel-yell", unit=p.id, text=f"{p.id} fails to reach {target.id} after its Rebel Yell and routs")
        return True
    step_toward(game, p, target.unit.x, target.unit.y, gap - contact)
    # cavalry: 5" to claim the charge; skirmishers stay skirmishers and have no Charge (Line) bonus (SU-G9)
    p.moved, p.charging, p.bonus = 1.0, target.id, "charge" if long_enough and not p.skirmish else ""
    if not p.skirmish:
        p.unit.formation = "line"
    if target.melee is None:
        charged(game, state, target, p)
    if target.fit:
        p.melee, target.melee = target.id, target.melee or p.id
        state.melees.append((p, target))
    p.yelling = yell  # remembered for the pursuit test (Rebel Yell broke the enemy: -1)
    return True


def charged(game: Game, state: SumterState, p: Piece, by: Piece) -> None:
    """The defender's Unit Morale Test being charged; countercharge or stand is its choice."""
    by_kind = ("cavalry" if by.arm == "cavalry" and p.arm != "cavalry" else "skirmishers" if p.skirmish and by.skirmish
               else "foot" if by.order_foot and (p.order_foot or p.arm == "artillery") else "none")
    i = morale_inputs(state, p, "charged", flank=flanked(p, by), by=by_kind, halted=p.state == "halted")
    extra = tuple(game.extra_modifiers("unit-morale", (p, by)))
    res = game.settle("unit-morale", p, mechanics.unit_morale(game.roller, state.tables, i, extra=extra), unit=p.id, target=by.id)
    result = res.values["result"]
    apply_morale(game, state, p, result, res.values["dps"])
    if result == "stand" and p.arm != "artillery":
        options = ("countercharge", "stand")
        if game.choose(p.id, "charged", options) == "countercharge":
            p.bonus = "countercharge"


def morale_inputs(state: SumterState, p: Piece, column: str, **facts: Any) -> dict[str, Any]:
    """The unit as the Unit Morale Test reads it; ``facts`` add the situation's own."""
    general = attached_general(state, p)
    lost = 1 - p.figures / p.start
    half, quarter = 0.5, 0.25
    if p.arm == "artillery" and p.unit.spec.guns:  # 1/3 or 1/2 of a gun battery
        lost, quarter = 1 - p.unit.guns / p.unit.spec.guns, 1 / 3
    i = {"column": column, "grade": p.grade, "general": general or "none", "dps": p.dps,
         "lost": "half" if lost >= half else "quarter" if lost >= quarter else "none", "cover": False, "trenches": False,
         "flank_fire": p.flank_fire, "friends_beaten": 0, "enemies_beaten": 0, "routing": p.state == "rout", "flank": False,
         "by": "none", "halted": False, "casualties": 0, "wave": 0, "rebel_yell": False}
    if p.bushwhacked:  # SU-U6 (an input only while it counts: the logs of other games are as they were)
        i["bushwhacked"] = True
    i.update(facts)
    return i


def apply_morale(game: Game, state: SumterState, p: Piece, result: str, dps: int) -> None:
    """A morale result on the piece: its DPs and its new state."""
    add_dps(state, p, dps)
    if result in ("halt", "fail"):
        if p.state == "ok":
            set_state(p, "halted")
    elif result in ("retreat", "rout"):
        if p.state != result:
            p.broke = True
        set_state(p, result)
        p.melee = None
    elif result == "disperse":
        disperse(game, p)
    elif result == "rally":
        set_state(p, "ok")
        p.rallied = True
        add_dps(state, p, -state.tables["morale"]["removal"]["rally"])


def disperse(game: Game, p: Piece) -> None:
    if p.state != "gone":
        set_state(p, "gone")
        p.broke, p.melee = True, None
        game.log.emit("disperse", unit=p.id, text=f"{p.id} disperses")


def attached_general(state: SumterState, p: Piece) -> str:
    """The rating of the general with the unit (its brigade's general in contact; SU-G1)."""
    ld = p.brigade.general
    if ld is None or ld.status != "active" or ld.attached_to != p.id:
        return ""
    rating: str = state.tables["scale"]["generals"][ld.spec.rating]
    return rating


# ----------------------------------------------------------------------------- compulsory moves


def compulsory_step(game: Game, state: SumterState) -> None:
    """Retreats and routs (their retreat dice straight back), pursuits, and brigades retiring
    after an order or morale failure (a step back: half a move; skirmishers a full move; SU-C9)."""
    for p in list(state.pieces.values()):
        if not (p.state in ("retreat", "rout") or p.pursuing or p.brigade.failed) or not p.live:
            continue  # (most units: none of these)
        if p.state in ("retreat", "rout"):
            r = state.tables["movement"]["rates"][p.rate]
            inches = roll_move(game, state, p, r["retreat_die"], r["retreat"], 0, p.state)
            back_off(game, state, p, state.yards(inches))
            clear_friends(game, state, p)
            p.moved = 1.0
        elif p.pursuing:
            quarry = state.pieces[p.pursuing]
            p.pursuing = None
            if p.melee:
                continue
            if quarry.live:
                if rush(game, state, p, quarry, "pursuit") and quarry.melee is None:
                    p.melee, quarry.melee, p.bonus = quarry.id, p.id, "pursuing"
                    state.melees.append((p, quarry))
            else:
                uncontrolled(game, state, p)
        elif p.brigade.failed and p.fit and not p.melee:
            die, count, inches = move_dice(state, p, p.unit.formation, 0.0)
            moved = roll_move(game, state, p, die, count, inches, "retire", ("SU-C9",))
            back_off(game, state, p, state.yards(moved if p.skirmish else moved / 2))
            p.moved = 1.0


def rush(game: Game, state: SumterState, p: Piece, at: Piece, why: str) -> bool:
    """``p`` throws its pursuit dice and goes at ``at``, stopping at contact; whether it made contact."""
    r = state.tables["movement"]["rates"][p.rate]
    inches = roll_move(game, state, p, r["die"] if p.arm != "infantry" else "d6", r["pursuit"], 0, why)
    gap = dist(p, at)
    contact = state.yards(state.tables["scale"]["contact_inches"])
    step_toward(game, p, at.unit.x, at.unit.y, min(state.yards(inches), max(0.0, gap - contact)))
    p.moved = 1.0
    return state.yards(inches) + contact >= gap


def uncontrolled(game: Game, state: SumterState, p: Piece) -> None:
    """A pursuer whose quarry has gone makes an uncontrolled charge at the nearest enemy within
    45 degrees of its front, on its pursuit dice and with no test to charge; the enemy tests being
    charged. With no such enemy it acts as a pursuit result of 7-8: 1 DP, cavalry retire 12", foot
    stand (ruling SU-M5)."""
    target, _ = nearest(p, enemies_near(game, state, p, lambda e: e.live and not flanked(p, e)))
    if target is None:
        add_dps(state, p, next(b.result[1] for b in state.tables.pursuit.bands if b.result[0] == "halt"))
        if p.arm == "cavalry":
            back_off(game, state, p, state.yards(12))
        return
    game.log.emit("uncontrolled-charge", unit=p.id, target=target.id, rulings=["SU-M5"],
                  text=f"{p.id} has nobody left to pursue and charges {target.id} uncontrolled")
    if not rush(game, state, p, target, "uncontrolled charge") or target.melee is not None:
        return
    p.charging, p.bonus = target.id, "charge"
    charged(game, state, target, p)
    if target.fit:
        p.melee, target.melee = target.id, p.id
        state.melees.append((p, target))


def clear_friends(game: Game, state: SumterState, p: Piece) -> None:
    """A unit in retreat or rout that ends its move on a friend goes on back until it is clear
    of every friend (ruling SU-G5). It goes straight back toward its home edge, so the friends it
    can meet are those near that line: they are found once, not at every step back (in a large
    battle, asked of the world's index of places)."""
    contact = state.yards(state.tables["scale"]["contact_inches"])
    u = p.unit
    rad = math.radians(game.scenario.home_edges.get(p.side, 180.0))
    beyond = game.scenario.width + game.scenario.height  # past every edge
    ex, ey = u.x + beyond * math.sin(rad), u.y + beyond * math.cos(rad)
    reach = contact + 1.0  # (a yard over: rounding in its steps back never leaves out a friend in contact)
    space, pieces = game.world.space, state.pieces
    if space.indexed(p.side):  # a large side: the world's index finds the friends near the line
        in_way = [pieces[f.id] for f in space.between(u.x, u.y, ex, ey, reach, (p.side,),
                                                      lambda f: f is not u and pieces[f.id].live)]
    else:
        x0, x1, y0, y1 = min(u.x, ex) - reach, max(u.x, ex) + reach, min(u.y, ey) - reach, max(u.y, ey) + reach
        in_way = [o for o in state.by_side[p.side]
                  if x0 <= o.unit.x <= x1 and y0 <= o.unit.y <= y1  # (the line's box first: most friends are off it)
                  and o is not p and o.live and segment_distance(o.unit.x, o.unit.y, u.x, u.y, ex, ey) <= reach]
    while p.unit.on_field:
        friend, gap = nearest(p, in_way)
        if friend is None or gap > contact:
            return
        at = (p.unit.x, p.unit.y)
        back_off(game, state, p, contact - gap + 1.0)
        if (p.unit.x, p.unit.y) == at:
            return  # pinned against the table's edge


# ----------------------------------------------------------------------------- movement


def movement_step(game: Game, state: SumterState, side: str) -> None:
    """The side's units move as their intents ask, within their brigade's order (SU-C8: Hold
    moves nobody forward; Retire is the compulsory move), one brigade on Move orders far from
    the enemy by tactical march."""
    intents = state.intents.get(side, {})
    marches = state.tables["movement"]["march_brigades"]
    cinc = state.cinc.get(side)
    if cinc is not None and cinc.spec.rating == "superior":
        marches += 1
    enemies = state.enemies(side)
    for b in state.brigades.values():
        if b.side != side:
            continue
        if marches and b.order == "move" and tactical_march(game, state, b, intents, enemies):
            marches -= 1
            continue
        for p in b.pieces:
            intent = intents.get(p.id)
            if intent is None or p.state != "ok" or not p.unit.on_field or p.melee or p.charging or p.moved or b.failed:
                continue  # halted units stand
            move(game, state, p, intent, enemies)


def move(game: Game, state: SumterState, p: Piece, intent: Intent, enemies: list[Piece]) -> None:
    """``p`` moves as ``intent`` asks (``enemies``: its live enemies, listed once for its side's
    movement phase, in which none of them moves or falls)."""
    u = p.unit
    order = p.brigade.order
    want = intent.formation or u.formation
    if p.arm == "artillery":
        want = "limbered" if intent.action in ("advance", "withdraw") and order != "hold" else "unlimbered"
    elif p.skirmish and want != "skirmish" and not recall(game, state, p, enemies):
        want = "skirmish"
    goal = intent.goal if intent.action in ("advance", "withdraw") else None
    if order == "hold" and intent.action != "withdraw":
        goal = None
    if goal is None and want == u.formation:
        return  # it stands, in the formation it has (most units, most turns)
    if goal is not None and want == "limbered" and manhandle(game, state, p, goal):
        return
    cost = change_cost(state, p, want)
    if goal is None and not cost:
        return
    far = math.hypot(goal[0] - u.x, goal[1] - u.y) if goal else 0.0
    if cost:
        u.formation = want
        p.limbered_now = p.arm == "artillery"
    if goal is None or cost >= 1:  # a change that covers no ground
        p.moved = float(cost)
        change_dps(game, state, p, want)
        return
    die, count, inches = move_dice(state, p, want, far)
    rolled = state.yards(roll_move(game, state, p, die, count, inches, "move", ("SU-G10",) if cost else ()))
    room = rolled * float(1 - cost) if cost else rolled  # (no change: the whole throw, no fraction made)
    if (p.order_foot and intent.action == "advance" and in_reach(game, state, p, enemies)
            and game.choose(p.id, "move-and-fire", ("half-and-fire", "full")) == "half-and-fire"):
        room = min(room, rolled * float(state.tables.fire_after - cost))
    if intent.standoff is not None and (engaged := state.pieces.get(intent.target or "")) is not None:
        room = short_of(u.x, u.y, goal[0], goal[1], engaged.unit.x, engaged.unit.y, intent.standoff, room)  # the order's range
    x, y = u.x, u.y
    go = step_toward(game, p, goal[0], goal[1], room)
    p.moved = float(cost) + (go / rolled if rolled else 0.0)
    if go and not p.skirmish and p.arm != "artillery":
        pass_batteries(game, state, p, x, y)


def change_dps(game: Game, state: SumterState, p: Piece, formation: str) -> None:
    """A formation change that covers no ground (a whole move, or a change where the unit
    stands): "Formation changes (Still incur rolls for DPs)". It throws the dice of a move in
    the formation it takes up, the fewest of a "1 or 2" (it needs no distance, SU-M4), for their
    DPs only (ruling SU-G10)."""
    die, count, inches = move_dice(state, p, formation, 0.0)
    roll_move(game, state, p, die, count, inches, "formation change", ("SU-G10",))


def manhandle(game: Game, state: SumterState, p: Piece, goal: tuple[float, float]) -> bool:
    """An unlimbered field gun battery whose goal is within 2" is manhandled there instead of
    limbering (ruling SU-G7): a foot battery may not fire this turn, horse artillery may."""
    u = p.unit
    reach = state.yards(state.tables["movement"]["manhandle_inches"])
    gun = state.tables["artillery"]["guns"][u.spec.gun_type or "12-pdr-napoleon"]
    if u.formation != "unlimbered" or gun.get("heavy") or math.hypot(goal[0] - u.x, goal[1] - u.y) > reach:
        return False
    step_toward(game, p, goal[0], goal[1], reach)
    p.moved = 1.0
    game.log.emit("manhandle", unit=p.id, rulings=["SU-G7"], text=f"{p.id} manhandles its guns forward")
    return True


def pass_batteries(game: Game, state: SumterState, p: Piece, x: float, y: float) -> None:
    """An order unit whose move from (x, y) crossed a friendly deployed battery (within contact
    of its path) takes 2 DPs, once a move (ruling SU-G5)."""
    u = p.unit
    dx, dy = u.x - x, u.y - y
    length2 = dx * dx + dy * dy
    if length2 < 1e-9:  # it did not move (a move that ended at once, short of an engage order's range)
        return
    contact = state.yards(state.tables["scale"]["contact_inches"])
    for o in state.batteries.get(p.side, ()):
        if o.unit.formation != "unlimbered" or not o.live:
            continue
        if segment_distance(o.unit.x, o.unit.y, x, y, u.x, u.y) <= contact:
            dps = state.tables["movement"]["battery_pass_dps"]
            add_dps(state, p, dps)
            game.log.emit("interpenetrate", unit=p.id, rulings=["SU-G5"], text=f"{p.id} passes through {o.id}: {dps} DP")
            return


def in_reach(game: Game, state: SumterState, p: Piece, enemies: list[Piece]) -> bool:
    """Is one of ``enemies`` (the live ones) within the long range of the unit's firearm?"""
    weapon = p.unit.spec.weapon or "rifle-musket"
    reach = state.yards(state.tables["fire"]["ranges"][weapon][1] + state.tables["scale"]["contact_inches"])
    return nearest(p, enemies_near(game, state, p, among=enemies))[1] <= reach


def recall(game: Game, state: SumterState, p: Piece, enemies: list[Piece]) -> bool:
    """Skirmish Recall: 2D6 against the grade's score to form again (``enemies``: the live ones)."""
    t = state.tables["fire"]["recall"]
    names: list[str | tuple[str, int]] = [("dp", p.dps)]
    _, gap = nearest(p, enemies_near(game, state, p, among=enemies))
    if gap > state.yards(t["far_inches"]):
        names.append("far_from_enemy")
    if attached_general(state, p) in ("excellent", "average"):
        names.append("general")
    table = {k: v for k, v in t.items() if isinstance(v, int)}
    ms = mods(table, "QRS v6.2, Skirmish Recall", names) + tuple(game.extra_modifiers("skirmish-recall", p))
    res = dice.recall(game.roller, t["score"][p.grade], ms, {"grade": p.grade} if game.seen else {})
    recalled: bool = game.settle("skirmish-recall", p, res, unit=p.id).values["recalled"]
    return recalled


def tactical_march(game: Game, state: SumterState, b: Brigade, intents: dict[str, Intent], enemies: list[Piece]) -> bool:
    """Tactical March: the whole brigade in column of march, 18" (24" for cavalry and horse
    artillery), ending 20" from the enemy; DPs thrown on its column dice."""
    mv = state.tables["movement"]
    stop = state.yards(mv["march_stop_inches"])
    ready = [p for p in b.pieces if p.fit and not p.melee]  # (``enemies``: the live ones; none changes while a side moves)
    if not any(intents.get(p.id) is not None and intents[p.id].action == "advance" for p in ready):
        return False
    gaps: list[float] = []  # each unit's nearest enemy, measured once: no unit stands elsewhere when its turn to march comes
    for p in ready:
        gaps.append(nearest(p, enemies_near(game, state, p, among=enemies))[1])
        if gaps[-1] <= stop:
            return False
    for p, gap in zip(ready, gaps):
        intent = intents.get(p.id)
        if intent is None or intent.action != "advance" or intent.goal is None:
            continue
        p.unit.formation = "limbered" if p.arm == "artillery" else "march-column"
        fast = p.rate.startswith("horse")
        die, count, _ = move_dice(state, p, "column", 0.0)
        roll_move(game, state, p, die, count, 0, "tactical march")
        room = max(0.0, gap - stop)
        step_toward(game, p, intent.goal[0], intent.goal[1], min(room, state.yards(mv["march_inches_fast" if fast else "march_inches_foot"])))
        p.moved = 1.0
    game.log.emit("march", unit=b.id, text=f"{b.id} makes a tactical march")
    return True
