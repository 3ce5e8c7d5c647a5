"""The turn: alternate activation of companies, or of a regimental formation under Activate
Regiment, two actions each (SG2; Hardtack pp.7-11). Rulings HT-T1, HT-T2, HT-T4, HT-T5, HT-T7.

The doctrine's intents (decided once per side per turn, HT-T4) become two legal actions:
Move, Fire, Reload, Load, Reorganise, Close Assault, Rally.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from referee.api import Game, Intent, Step, short_of

from . import assault, fire, mechanics, morale, move
from . import geometry as geo
from .state import (
    BROKEN,
    ROUTED,
    SHAKEN,
    Company,
    HardtackState,
    Regiment,
    box_of,
    centre_of,
    in_order,
    state_of,
)
from .tables import HardtackTables

ARRIVED_YARDS = 20.0
LEAST_MOVE_INCHES = 0.1  # a Move shorter than this (finer than a player measures) is not made: the unit stands
REJOIN_YARDS = 30.0  # HT-T6: a commander this far from the centre of his companies goes to them
TROOP_FORMATIONS = frozenset(("line", "column", "skirmish"))  # the intent's formations a company takes up


def turn(game: Game) -> Iterator[Step]:
    state: HardtackState = state_of(game)
    state.file_sides(lambda side: geo.widest(state, side)[0])
    state.begin_turn()
    sides = game.scenario.sides
    state.queue = {s: [c for r in state.by_side.get(s, ()) for c in r.companies] for s in sides}
    state.cursor = {s: 0 for s in sides}
    state.reg_cursor = {s: 0 for s in sides}
    state.intents = {s: game.intents(s) for s in sides}
    left = {s: 0 for s in sides}
    opens = game.settle("initiative", sides, mechanics.initiative(game.roller, (sides[0], sides[1]))).values["first"]
    last = sides[0] if opens == sides[1] else sides[1]  # HT-T1: the roll-off's winner opens the turn
    start = left
    while True:
        if not any(left.values()):  # (re)count exactly
            left = {s: sum(1 for r in state.by_side.get(s, ()) for c in r.companies if not c.activated and c.alive) for s in sides}
            if not any(left.values()):
                return
            start = dict(left)
        # HT-T2: the sides alternate; the side whose turn it is passes when it has fewer companies
        # left than the other and has used up a larger share of its own this turn
        side = sides[0] if last == sides[1] else sides[1]
        if not left[side]:
            side = last
        alt = sides[0] if side == sides[1] else sides[1]
        if left[alt] > left[side] and left[side] * start[alt] < left[alt] * start[side]:
            if game.log.enabled:
                game.log.emit("pass", side=side, rulings=["HT-T2"],
                              text=f"{side} passes ({left[side]} of {start[side]} companies left, {alt} {left[alt]} of {start[alt]})")
            side = alt
        step = _next(game, state, side)
        last = side
        if step is None:
            left[side] = 0
            continue
        yield step
        n = _left(state, side, left[side], step)
        left[side] = max(0, n)


def _left(state: HardtackState, side: str, before: int, step: Step) -> int:
    """Companies the side has left to activate, counted down by what the step activated."""
    if step.name == "activate-company":
        return before - 1
    if step.name == "activate-regiment":
        return before - sum([1 for c in state.regiments[str(step.unit)].companies if c.activated])
    return before


def _step(state: HardtackState, name: str, side: str, unit: str) -> Step:
    """The activation step ``name`` of ``unit``, kept for the game (``state.steps``): the same
    value every turn (the unit's side never changes), so it is built once."""
    step = state.steps.get((name, unit))
    if step is None:
        step = state.steps[(name, unit)] = Step("activation", name, side, unit)
    return step


def _next(game: Game, state: HardtackState, side: str) -> Step | None:
    regs = state.by_side.get(side, ())
    k, n = state.reg_cursor.get(side, 0), len(regs)
    while k < n and (regs[k].activated or not regs[k].unit.on_field):  # passed for good this turn
        k += 1  # (on_field changes only between turns: reinforcements, and the end-of-turn sync)
    state.reg_cursor[side] = k
    for reg in regs[k:]:
        if reg.activated or not reg.unit.on_field:
            continue
        reg.activated = True
        group = members(state.tables, reg)
        if sum(1 for c in group if c.level == SHAKEN) >= 2:  # HT-R1: his formation wavers; he rallies it (p.11)
            return _step(state, "rally", side, reg.id)
        if len(group) >= 2:
            state.group = (reg.id, group)  # kept for the step that follows at once
            return _step(state, "activate-regiment", side, reg.id)
        if reg.commander and any(c.alive and c.level >= SHAKEN and c.level < ROUTED for c in reg.companies):
            return _step(state, "rally", side, reg.id)
        if reg.commander and math.dist((reg.x, reg.y), centre(state, reg)) > REJOIN_YARDS:
            return _step(state, "command-move", side, reg.id)
        pick = _transfer_pick(game, state, reg) if reg.commander else None
        if pick is not None:
            state.transfer = (reg.id, pick)  # kept for the step that follows at once
            return _step(state, "transfer", side, reg.id)
    queue, i = state.queue[side], state.cursor[side]
    n = len(queue)
    while i < n and (queue[i].activated or not queue[i].alive):  # passed over for good this turn
        i += 1
    state.cursor[side] = i
    return _step(state, "activate-company", side, queue[i].id) if i < n else None


def members(t: HardtackTables, reg: Regiment) -> list[Company]:
    """Companies that may join the Activate Regiment: close formation, not yet activated,
    Shaken or better (p.7), within 6" of the commander ([scale] command_inches)."""
    rx, ry, reach = reg.x, reg.y, t.command_yards
    return [c for c in reg.companies if not c.activated and c.close and c.level <= SHAKEN and c.alive
            and math.hypot(c.x - rx, c.y - ry) <= reach]


def play_step(game: Game, step: Step) -> None:
    state: HardtackState = state_of(game)
    state.centres.clear()
    assert step.side is not None  # every activation is one side's
    if step.name == "activate-company":
        c = state.companies[str(step.unit)]
        c.activated, c.travel = True, False  # (travel mode lasts until the company next activates: HT-M8)
        state.touch(c)
        intent = state.intents[step.side].get(c.unit.id)
        kind = intent.action if intent is not None else "hold"  # it neither moves nor charges: shaken, it may not (action)
        holds = kind in ("hold", "rally") or kind in ("advance", "charge") and c.level >= SHAKEN
        kept = state.aims.out_of_reach.get(c.id) if holds and not c.artillery else None  # (a gun's reach changes as it loads)
        if c.level >= BROKEN or (kept is not None and kept[0] == c.x and kept[1] == c.y and kept[2] == state.others_moved(c.side)
                                 and kept[3] == fire.fire_reach_yards(state, c)):
            # broken, it only flees or keeps to its cover (action); or it holds, and nothing is in
            # its reach (fire.choose_target): nobody to look at
            enemies: list[Company] = []
        else:
            enemies = _near(state, step.side, [c], fire_only=holds)
        state.aims.masks = {}  # only the company acts, its friends stand still: geometry.masked may keep its answers
        if not action(game, state, c, intent, 0, enemies):  # (one that did nothing would do nothing again)
            action(game, state, c, intent, 1, enemies)
        state.aims.masks = state.aims.loading = None
        return
    reg = state.regiments[str(step.unit)]
    state.touch_regiment(reg)
    if step.name == "rally":
        _rally(game, state, reg)
        return
    if step.name == "command-move":
        _commander_moves(game, reg, centre(state, reg))
        return
    if step.name == "transfer":
        kept_pick, state.transfer = state.transfer, None
        _transfer(game, state, reg, 2, kept_pick[1] if kept_pick is not None and kept_pick[0] == reg.id else None)
        return
    grouped, state.group = state.group, None
    group = grouped[1] if grouped is not None and grouped[0] == reg.id else members(state.tables, reg)
    intent = state.intents[step.side].get(reg.id)
    enemies = _near(state, step.side, group, fire_only=intent is None or intent.action in ("hold", "rally"))  # (no guns in it)
    if game.log.enabled:  # (the text is not written for a log that is off)
        game.log.emit("activate-regiment", unit=reg.id, text=f"{reg.id} activates {len(group)} companies", rulings=["HT-T5"])
    for c in group:
        c.activated, c.travel = True, False
    if not enemies and (intent is None or intent.action in ("hold", "rally")):
        # p.10, every first action before any second: here nobody moves or fires, so a company's
        # actions touch only itself, and one whose first did nothing would do nothing again
        busy = [c for c in group if not action(game, state, c, intent, 0, enemies)]
        for c in busy:
            action(game, state, c, intent, 1, enemies)
        _follow(reg, group)
        return
    for n in (0, 1):  # p.10: every company's first action before any second action
        stalled = False
        if intent is not None and _formation_moves(state, reg, group, intent, n, enemies):
            if _move_formation(game, state, reg, group, intent, enemies):
                continue
            stalled = True  # at its order's range, or its way shut: no Move, each company acts where it stands
        for c in group:
            action(game, state, c, intent, n, enemies, stalled)
    _follow(reg, group)


def _near(state: HardtackState, side: str, group: list[Company], fire_only: bool = False) -> list[Company]:
    """The enemy companies that any of ``group`` (one regiment's) could reach this activation: those in the box
    round it as far as its fire reaches after two moves, or, when it only fires (it holds, or
    takes a transferred Fire), as far as its fire may tell (:func:`_tells`: all its target search
    and HT-K2's dismounting read) and a yard more for rounding; found regiment by regiment
    (:meth:`HardtackState.enemies_in`), in the order of the enemy list."""
    if not group:
        return []
    c = group[0]  # (a regiment's companies share their quality and arms, muster.muster, and so their reach)
    reach = _tells(state, c) + 1.0 if fire_only else fire.reach_yards(state.tables, c) + 300.0
    if len(group) == 1:
        x0, x1, y0, y1 = c.x - reach, c.x + reach, c.y - reach, c.y + reach
    else:
        x0, x1, y0, y1 = box_of(group)
        x0, x1, y0, y1 = x0 - reach, x1 + reach, y0 - reach, y1 + reach
    state.near_box = (x0, x1, y0, y1)
    return state.enemies_in(side, x0, x1, y0, y1)


def _tells(state: HardtackState, c: Company) -> float:
    """How far the company's fire may tell this activation (fire.fire_reach_yards), whatever a
    gun loads first: a loaded gun's reaches at most a yard past fire.reach_yards."""
    return fire.reach_yards(state.tables, c) + 1.0 if c.artillery else fire.fire_reach_yards(state, c)


def _rally(game: Game, state: HardtackState, reg: Regiment) -> None:
    """The commander's two Rally actions on the worst companies within 6" (SG2 p.17; p.11)."""
    near = sorted((c for c in reg.companies if c.alive and SHAKEN <= c.level < ROUTED
                   and math.hypot(c.x - reg.x, c.y - reg.y) <= state.tables.command_yards), key=lambda c: -c.level)
    if not near:  # the commander goes to his most shaken company: two Move actions (HT-R1)
        worst = max((c for c in reg.companies if c.alive), key=lambda c: c.level, default=None)
        if worst is not None:
            _commander_moves(game, reg, (worst.x, worst.y))
        return
    actions, shaken = 2, [c for c in morale.regimental_formation(state.tables, reg) if c.level == SHAKEN]
    if len(shaken) >= 2:  # p.11: one Rally action on the whole regimental formation, a roll for each company (HT-R1)
        if game.log.enabled:
            game.log.emit("rally", unit=reg.id, rulings=["HT-R1"], text=f"{reg.id}'s commander rallies his regimental formation")
        for c in shaken:
            morale.rally(game, state.tables, reg.lv, c)
        actions, near = 1, [c for c in near if c not in shaken]
    for c in near[:actions]:
        morale.rally(game, state.tables, reg.lv, c)
    if len(near) < actions:  # an action with nobody to rally may be transferred (HT-T7)
        _transfer(game, state, reg, actions - len(near))


def _transfer_pick(game: Game, state: HardtackState, reg: Regiment) -> tuple[Company, Company] | None:
    """HT-T7: the company within the commander's 6" with the most firing figures that has a
    target it may fire at (HT-F6, HT-G4), and that target; none while the intent is to withdraw."""
    intent = state.intents.get(reg.side, {}).get(reg.id)
    if intent is not None and intent.action == "withdraw":
        return None
    rx, ry = reg.x, reg.y
    near = [c for c in reg.companies if c.alive and fire.may_fire(c) and c.formation != "column"
            and math.hypot(c.x - rx, c.y - ry) <= state.tables.command_yards]
    if not near:
        return None
    near.sort(key=lambda c: -fire.firing_figures(state.tables, c))
    enemies = _near(state, reg.side, near, fire_only=True)  # (a gun among them is loaded: it may fire)
    if not enemies:
        return None
    wanted = intent.target if intent is not None else None
    for c in near:
        target = fire.choose_target(game, state, c, enemies, wanted)
        if target is not None:
            return c, target
    return None


def _transfer(game: Game, state: HardtackState, reg: Regiment, actions: int, first: tuple[Company, Company] | None = None) -> None:
    """HT-T7 (SG2 Transfer; Hardtack p.11: no communication roll, the receiver within 6"; p.9:
    even a company already activated): each of the commander's spare actions goes, as a Fire,
    to the company :func:`_transfer_pick` finds; with none, the action is not spent."""
    if not reg.commander:
        return
    for n in range(actions):
        pick = first if n == 0 and first is not None else _transfer_pick(game, state, reg)
        if pick is None:
            return
        c, target = pick
        game.log.emit("transfer", unit=reg.id, target=c.id, rulings=["HT-T7"],
                      text=f"{reg.id}'s commander transfers an action to {c.id}: it fires at {target.id}")
        state.touch(c)
        fire.fire(game, state, c, target)


def centre(state: HardtackState, reg: Regiment) -> tuple[float, float]:
    """The centre of a regiment's standing companies in good order (HT-O7; weighted by figures),
    its place in the neutral world, or its commander's with none standing (HT-M5): reckoned
    once per step (``state.centres``), from the centre kept while none of its companies changes
    place, figures, level or standing (``state.kept_centres``)."""
    hit = state.centres.get(reg.id)
    if hit is None:
        hit = state.kept_centres.get(reg.id)
        if hit is None:
            standing = [c for c in reg.companies if c.alive]
            if standing:
                hit = state.kept_centres[reg.id] = centre_of(in_order(standing))
            else:
                hit = (reg.x, reg.y)
        state.centres[reg.id] = hit
    return hit


def _commander_moves(game: Game, reg: Regiment, to: tuple[float, float]) -> None:
    """The command stand's own activation: two Move actions (12") toward ``to`` (HT-T6)."""
    gap = math.dist((reg.x, reg.y), to)
    t = state_of(game).tables
    yards = min(gap, 2 * t["movement"]["base"]["infantry"] * t.yards_per_inch)
    if gap > 0:
        reg.x += (to[0] - reg.x) * yards / gap
        reg.y += (to[1] - reg.y) * yards / gap
        if game.log.enabled:
            game.log.emit("commander", unit=reg.id, rulings=["HT-T6"], text=f"{reg.id}'s commander moves {yards:.0f} yards to his companies")


def _follow(reg: Regiment, group: list[Company]) -> None:
    """p.10: the commander moves with his formation, keeping his place in it."""
    alive = [c for c in group if c.alive]
    if alive:
        reg.x = sum([c.x for c in alive]) / len(alive)
        reg.y = sum([c.y for c in alive]) / len(alive)


def _formation_moves(state: HardtackState, reg: Regiment, group: list[Company], intent: Intent | None, n: int, enemies: list[Company]) -> bool:
    """The whole formation moves as one: its first action when advancing in the wanted
    formation, its second too while no enemy is within its reach."""
    if intent is None or intent.action not in ("advance", "withdraw") or any(
            c.formation != _formation_wanted(c, intent) or c.in_position
            or c.arm == "cavalry" and c.mounted != _mounted_wanted(state, c, intent.action, intent, enemies)
            for c in group):
        return False
    if n == 0 or intent.action == "withdraw":
        return True
    reach = fire.reach_yards(state.tables, group[0]) + state.tables.command_yards
    return not any(c.reload for c in group) and not any(abs(e.x - reg.x) <= reach and abs(e.y - reg.y) <= reach for e in enemies)


def _move_formation(game: Game, state: HardtackState, reg: Regiment, group: list[Company], intent: Intent, enemies: list[Company]) -> float:
    """A regimental formation moves as one, at the rate of its slowest company (p.15); ground
    is read along the commander's path and its wings' (HT-M1). The yards it moved: none, and no
    Move made, when it has arrived, stands at its order's range or finds its way shut (it would
    go less than :data:`LEAST_MOVE_INCHES`)."""
    t = state.tables
    gx, gy = move.rearward(game, group[0]) if intent.action == "withdraw" else (intent.goal or (reg.x, reg.y))
    span = math.hypot(gx - reg.x, gy - reg.y)
    if span < ARRIVED_YARDS:
        return 0.0
    dx, dy = (gx - reg.x) / span, (gy - reg.y) / span
    wings = [group[0], group[-1], min(group, key=lambda c: math.hypot(c.x - reg.x, c.y - reg.y))]
    travel = intent.action != "withdraw"
    yards = min([span] + [move.move_yards(game, t, c, c.x + dx * span, c.y + dy * span, travel)[0] for c in wings])
    if intent.action == "advance" and intent.standoff is not None:  # the order's range
        yards = _kept_off(state, intent, reg.x, reg.y, gx, gy, yards)
    moved, nears = move.formation_way(state, reg, group, dx, dy, yards, enemies)
    if moved < LEAST_MOVE_INCHES * t.yards_per_inch:
        return 0.0
    crossed: set[str] = set()
    rough, margin = move.disordering_counts(game, t), move.ROUNDING + 1.0  # (a yard more: the walk rounds its ends)
    later = []  # wings whose paths hold no ground that disorders: walked only if another's does, to name all it crosses
    for c in wings:  # ground the wings cross (HT-M1, HT-M4)
        x, y, ex, ey = c.x, c.y, c.x + dx * moved, c.y + dy * moved
        if geo.none_in_box(game.ground, rough, min(x, ex) - margin, max(x, ex) + margin, min(y, ey) - margin, max(y, ey) + margin):
            later.append(c)
            continue
        crossed |= move.walk(game, t, c, ex, ey, 3 * moved / t.yards_per_inch)[1]
    disordering = set(t["movement"]["disordering"])
    if crossed & disordering:
        for c in later:
            crossed |= move.walk(game, t, c, c.x + dx * moved, c.y + dy * moved, 3 * moved / t.yards_per_inch)[1]
    facing = math.degrees(math.atan2(dx, dy)) % 360.0
    disordered = False  # (friends passed through drop into skirmish order: their footprints change)
    for c, near in zip(group, nears):  # nobody goes further than the most hindered company
        # HT-M7: going no further along its way than it was measured, a company can meet only
        # the friends found near that way, while none has changed formation
        passed = move.friends_in_way(state, c, dx, dy, moved, None if disordered else near)[1]
        move.put(game, c, c.x + dx * moved, c.y + dy * moved)
        state.moved(c)  # (once it stands in its new place: a search before would file it where it was)
        if intent.action != "withdraw":
            c.facing = facing
        move.pass_through(game, state, c, passed)
        disordered = disordered or bool(passed)
        c.travel = _travelled(t, c, moved)
    if crossed & disordering:
        for c in group:
            c.form("skirmish")
        game.log.emit("disordered", unit=reg.id, text=f"{reg.id} drops into skirmish order crossing {', '.join(sorted(crossed))}", rulings=["HT-M1"])
    reg.x, reg.y = reg.x + dx * moved, reg.y + dy * moved
    return moved


def _kept_off(state: HardtackState, intent: Intent, x: float, y: float, gx: float, gy: float, yards: float) -> float:
    """The yards a move from (x, y) toward (gx, gy) may go and end no nearer to the centre of
    the enemy regiment the intent engages than its stand-off (core.engine.reach.short_of)."""
    engaged = state.regiments.get(intent.target or "")
    if engaged is None or intent.standoff is None:
        return yards
    ex, ey = centre(state, engaged)
    return short_of(x, y, gx, gy, ex, ey, intent.standoff, yards)


def _travelled(t: HardtackTables, c: Company, moved: float) -> bool:
    """HT-M8: a Move that carried the company further than its normal move was in travel mode
    (p.14: a column, or a limbered gun, on a road or in clear ground)."""
    per_inch: float = t.yards_per_inch
    return moved > move.base_inches(t, c) * per_inch + 1e-6


def _formation_wanted(c: Company, intent: Intent | None) -> str:
    if c.artillery:
        return "limbered" if intent is not None and intent.formation == "limbered" else "unlimbered"
    if intent is None or c.level >= BROKEN or intent.formation not in TROOP_FORMATIONS:
        return c.formation
    wanted: str = intent.formation
    return wanted


def action(game: Game, state: HardtackState, c: Company, intent: Intent | None, n: int, enemies: list[Company],
           stalled: bool = False) -> bool:
    """One action of a company, chosen from its unit's intent. True when it did nothing, holding
    (or rallying) with no enemy near: then so would its next, while nothing else changes. An
    advance that cannot go forward (``stalled``: its regimental formation cannot; or, alone, it
    finds no way or stands at its order's range, :data:`LEAST_MOVE_INCHES`) makes no Move: it
    fires if it has a target."""
    if not c.alive:
        return False
    if c.level >= BROKEN:  # HT-C3: routed run; broken seek cover, and stay in it
        if c.artillery and c.guns:
            _broken_gun(game, state, c, n)  # p.12: a broken crew retreats with its gun only on a reaction test (HT-C4)
        elif c.level >= ROUTED or n == 0 and geo.cover(game, c) == "none":
            move.flee(game, state, c)
        elif n == 0 and c.level < ROUTED and game.log.enabled:
            game.log.emit("broken", unit=c.id, rulings=["HT-C3"], text=f"{c.id}, broken, keeps to its cover")
        return False
    wanted = _formation_wanted(c, intent)
    kind = intent.action if intent is not None else "hold"
    if kind in ("advance", "charge") and c.level >= SHAKEN:
        kind = "hold"  # p.12: shaken companies may not move closer to the enemy
    target_unit = intent.target if intent is not None else None
    if c.artillery:
        _gun_action(game, state, c, kind, wanted, enemies, target_unit)
        return False
    mounted = _mounted_wanted(state, c, kind, intent, enemies) if c.arm == "cavalry" else c.mounted
    if wanted != c.formation or mounted != c.mounted:
        _reorganise(game, c, wanted, mounted)
        return False
    if kind == "charge" and assault.may_assault(c) and not c.in_position:
        target = min((e for e in enemies if e.alive), key=lambda e: geo.dist(c, e), default=None)  # not one already down
        if target is not None and geo.dist(c, target) <= assault.reach_yards(state, c) * 2:
            assault.assault(game, state, c, target)
            return False
    if (kind in ("hold", "rally", "charge") or kind == "advance" and (n == 1 or stalled)) and _fires(game, state, c, enemies, target_unit):
        return False
    if c.reload and kind != "withdraw":
        c.reload = False
        return False
    if c.in_position and kind in ("advance", "charge", "withdraw"):
        c.in_position = False  # SG2: an action removes the In Position marker (p.8; HT-G3)
        game.log.emit("in-position", unit=c.id, rulings=["HT-G3"], text=f"{c.id} leaves its position")
        return False
    if kind == "hold" and not c.in_position and geo.cover(game, c) == "hard":
        c.in_position = True  # HT-G3: a company holding hard cover goes In Position
        game.log.emit("in-position", unit=c.id, rulings=["HT-G3"], text=f"{c.id} is In Position")
        return False
    if kind in ("advance", "charge", "withdraw") and intent is not None and not stalled:
        cx, cy = centre(state, c.regiment)  # a company keeps its place in its regiment's line (HT-M5)
        gx, gy = move.rearward(game, c) if kind == "withdraw" else (intent.goal or (cx, cy))
        gx, gy = gx + c.x - cx, gy + c.y - cy
        yards, kinds = move.move_yards(game, state.tables, c, gx, gy, kind != "charge")
        if kind == "advance" and intent.standoff is not None:  # the order's range, kept by the regiment's centre
            yards = _kept_off(state, intent, cx, cy, gx - c.x + cx, gy - c.y + cy, yards)
        stands = kind == "advance" and yards < LEAST_MOVE_INCHES * state.tables.yards_per_inch  # at its order's range
        moved = 0.0 if stands else move.step_toward(game, state, c, gx, gy, yards, enemies)
        if not moved and kind == "advance" and n == 0:  # no way forward: no Move (its second action fires anyway)
            _fires(game, state, c, enemies, target_unit)
            return False
        c.travel = _travelled(state.tables, c, moved)
        if moved and kind != "withdraw":
            geo.face(c, gx, gy) if not c.close else None
        if moved and kinds & set(state.tables["movement"]["disordering"]) and c.close:
            c.form("skirmish")
            if game.log.enabled:
                game.log.emit("disordered", unit=c.id, text=f"{c.id} drops into skirmish order crossing {', '.join(sorted(kinds))}")
        return False
    return not enemies and kind in ("hold", "rally")


def _fires(game: Game, state: HardtackState, c: Company, enemies: list[Company], target_unit: str | None) -> bool:
    """A Fire action at the company's chosen target (fire.choose_target), if it may fire and has
    one; whether it fired."""
    target = fire.choose_target(game, state, c, enemies, target_unit) if enemies and fire.may_fire(c) else None
    if target is not None:
        fire.fire(game, state, c, target)
    return target is not None


def _broken_gun(game: Game, state: HardtackState, c: Company, n: int) -> None:
    """p.12 (ruling HT-C4): a routed crew abandons its gun at once and runs. A broken crew that an
    enemy company can see (HT-G2, within the light, HT-V1) retreats on its first action, and takes
    its gun only if it passes a reaction test (the tables' ``broken_gun_threat``); failing, it
    abandons the gun and falls back without it towards cover (as a broken company, HT-C3). A
    broken crew that no enemy sees stays with its gun: it may retreat "until out of sight"."""
    if c.level >= ROUTED:
        _abandon(game, c, "routed")
        move.flee(game, state, c)
        return
    if n != 0 or not _seen(game, state, c):
        return
    t = state.tables
    res = mechanics.test(game.roller, t, c.quality, c.lv, t["artillery"]["broken_gun_threat"], "reaction", cite=game.seen,
                         extra=tuple(game.extra_modifiers("reaction", c)))
    res = game.settle("reaction", c, res, rulings=("HT-C4",), unit=c.id, why="to retreat with its gun")
    if not res.values["passed"]:
        _abandon(game, c, "broken, fails its reaction test")
        if geo.cover(game, c) != "none":
            return  # (already in cover: it stays there, as a broken company does)
    move.flee(game, state, c)


def _seen(game: Game, state: HardtackState, c: Company) -> bool:
    """Does an enemy company see ``c`` (HT-G2), within the light (HT-V1)?"""
    seen2 = state.visibility * state.visibility
    return any((e.x - c.x) ** 2 + (e.y - c.y) ** 2 <= seen2 and geo.sees(game, e, c) for e in state.enemies(c.side) if e.alive)


def _abandon(game: Game, c: Company, why: str) -> None:
    """p.12 (HT-C4): the crew leaves its gun; the gun is lost to its side (HT-S5: nobody
    recrews it, p.19 missing) and the crew goes on foot, at the infantry's pace (HT-C4)."""
    state_of(game).touch(c)
    c.guns, c.loaded, c.pace = 0, "", None
    game.log.emit("abandoned", unit=c.id, rulings=["HT-C4"], text=f"{c.id}, {why}, abandons its gun")


def _reorganise(game: Game, c: Company, formation: str, mounted: bool) -> None:
    """A Reorganise action changes formation (p.11), and mounts or dismounts cavalry with the
    same action (p.9; HT-K2); broken companies may not close up (p.12)."""
    if formation in ("line", "column") and c.level >= BROKEN:
        return
    if mounted != c.mounted:
        c.mounted = mounted
        if game.log.enabled:
            game.log.emit("reorganise", unit=c.id, rulings=["HT-K2"], text=f"{c.id} {'mounts' if mounted else 'dismounts'} and forms {formation}")
    elif game.log.enabled:
        game.log.emit("reorganise", unit=c.id, text=f"{c.id} forms {formation}")
    c.form(formation)


MOUNT_MOVES = 2  # HT-K2: an advance further than this many dismounted Moves is made mounted


def _mounted_wanted(state: HardtackState, c: Company, kind: str, intent: Intent | None, enemies: list[Company]) -> bool:
    """HT-K2: cavalry (``c``; only they mount) mount to charge, to withdraw, or to advance further
    than two dismounted Moves (one activation afoot); holding, they dismount once an enemy is
    within the reach of their fire (fire.fire_reach_yards: five bands of the quality die with
    their weapon, or its close range); otherwise they stay as they are."""
    if kind in ("charge", "withdraw"):
        return True
    if kind == "advance":
        far = MOUNT_MOVES * state.tables["movement"]["base"]["dismounted"] * state.tables.yards_per_inch
        return c.mounted or intent is not None and intent.goal is not None and math.dist((c.x, c.y), intent.goal) > far
    reach = fire.fire_reach_yards(state, c)
    return c.mounted and not any(geo.dist(c, e) <= reach for e in enemies)


def _gun_action(game: Game, state: HardtackState, c: Company, kind: str, wanted: str, enemies: list[Company], target_unit: str | None) -> None:
    """Limber, unlimber, move, load, fire (Hardtack pp.8-9; SG2 p.47). A crew that has abandoned
    its gun (HT-C4) has nothing to serve: it stands, or withdraws as its regiment does."""
    if not c.guns:
        if kind == "withdraw":
            move.flee(game, state, c)
        return
    if wanted != c.formation:
        c.form(wanted)
        if game.log.enabled:
            game.log.emit("reorganise", unit=c.id, text=f"{c.id} is {wanted}")
        return
    if c.formation == "limbered":
        if kind in ("advance", "withdraw"):
            gx, gy = move.rearward(game, c) if kind == "withdraw" else (state.intents[c.side][c.unit.id].goal or (c.x, c.y))
            yards, _ = move.move_yards(game, state.tables, c, gx, gy, True)
            c.travel = _travelled(state.tables, c, move.step_toward(game, state, c, gx, gy, yards, enemies))
        return
    target = fire.choose_target(game, state, c, enemies, target_unit)
    if c.loaded and target is not None:
        return fire.fire(game, state, c, target)
    if not c.loaded and c.gun is not None:
        canister = target is not None and geo.inches(state.tables, geo.dist(c, target)) <= c.gun.canister
        c.loaded = "canister" if canister else "shot"
