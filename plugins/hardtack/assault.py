"""Close assault (Hardtack pp.12-13 threat modifiers; rulings HT-A1..HT-A5 for the missing
pp.25-26): reaction tests, rounds of bouts, the loser's test, captured guns."""

from __future__ import annotations

import math

from referee.api import Game

from . import geometry as geo
from . import mechanics, morale, move
from .state import BROKEN, ROUTED, SHAKEN, Company, HardtackState
from .tables import HardtackTables

CONTACT_YARDS = 5.0


def may_assault(c: Company) -> bool:
    """p.12: shaken (or worse) companies must be rallied to Steady first; guns do not assault."""
    return c.level < SHAKEN and not c.artillery


def reach_yards(state: HardtackState, c: Company) -> float:
    return move.base_inches(state.tables, c) * state.tables.yards_per_inch


def assault(game: Game, state: HardtackState, c: Company, target: Company) -> None:
    t = state.tables
    cfg = t["assault"]
    res = mechanics.test(game.roller, t, c.quality, c.lv, cfg["attacker_threat"] + morale.formation_modifier(t, c), "reaction",
                         extra=tuple(game.extra_modifiers("reaction", c)))
    res = game.settle("reaction", c, res, rulings=("HT-A1",), unit=c.id, target=target.id, why="to close assault")
    if not res.values["passed"]:
        return
    gap = geo.dist(c, target)
    tx = target.x + (c.x - target.x) * CONTACT_YARDS / max(gap, 1e-6)
    ty = target.y + (c.y - target.y) * CONTACT_YARDS / max(gap, 1e-6)
    if gap > CONTACT_YARDS:  # HT-A6: the assault move pays for the ground it crosses (HT-M4, p.14)
        yards, kinds, _ = move.walk(game, t, c, tx, ty, move.base_inches(t, c))
        reached = yards >= math.hypot(round(tx) - round(c.x), round(ty) - round(c.y)) - 1e-6
        if not reached:
            move.step_toward(game, state, c, target.x, target.y, yards, state.enemies(c.side))
        _disorder(game, t, c, kinds)
        if not reached:
            game.log.emit("assault", unit=c.id, rulings=["HT-A6"],
                          text=f"{c.id} cannot reach {target.id} this move ({', '.join(sorted(kinds)) or 'too far'})")
            return
    geo.face(c, target.x, target.y)
    if gap > CONTACT_YARDS and move.step_toward(game, state, c, tx, ty, gap, [], 0.0) < gap - CONTACT_YARDS - 1e-6:
        game.log.emit("assault", unit=c.id, rulings=["HT-M7"], text=f"{c.id} cannot reach {target.id}: a friendly close formation is in the way")
        return  # HT-M7: a close formation halts where it would meet another
    state.moved(c)
    c.x, c.y = tx, ty
    if target.level >= BROKEN:  # SG2: a Broken unit close assaulted is Routed (HT-C3)
        morale.lose_levels(game, target, ROUTED - target.level)
        game.log.emit("assault", unit=c.id, rulings=["HT-C3"], text=f"{target.id}, broken, routs before {c.id}'s assault")
        _beaten(game, state, target, c)
        game.report_assault(c.unit.id, target.unit.id, carried=True)
        return
    ratio = max(1, c.figures // max(1, target.figures))
    tl = ratio + morale.formation_modifier(t, target, charged_by_close=c.close)
    stand = mechanics.test(game.roller, t, target.quality, target.lv, tl, "reaction", extra=tuple(game.extra_modifiers("reaction", target)))
    stand = game.settle("reaction", target, stand, rulings=("HT-A1",), unit=target.id, target=c.id, why="to stand")
    if not stand.values["passed"]:
        morale.lose_levels(game, target, 1)
        _beaten(game, state, target, c)
        game.report_assault(c.unit.id, target.unit.id, carried=True)
        return
    carried = _fight(game, state, c, target, geo.cover(game, target) != "none")
    game.report_assault(c.unit.id, target.unit.id, carried)


def _disorder(game: Game, t: HardtackTables, c: Company, kinds: frozenset[str]) -> None:
    """p.7, p.15: a close formation crossing dense woods, swamp, a stream or abatis on its way in
    drops into skirmish order (HT-A6, HT-M4)."""
    crossed = kinds & set(t["movement"]["disordering"])
    if crossed and c.close:
        c.form("skirmish")
        game.log.emit("disordered", unit=c.id, rulings=["HT-A6"],
                      text=f"{c.id} drops into skirmish order crossing {', '.join(sorted(crossed))}")


def _fight(game: Game, state: HardtackState, a: Company, b: Company, cover: bool) -> bool:
    """Rounds of bouts until one side is beaten; True when the attacker carried the position."""
    t = state.tables
    cfg = t["assault"]
    shifts = [cfg["weapons"]["crew" if c.artillery else c.weapon.id if c.weapon else "crew"] + (cfg["mounted_shift"] if c.mounted else 0)
              for c in (a, b)]
    for rnd in range(cfg["max_rounds"]):
        res = mechanics.close_assault(game.roller, t, a.figures, b.figures, a.quality, b.quality, shifts[0], shifts[1], rnd == 0, cover,
                                      tuple(game.extra_modifiers("close-assault", (a, b))))
        res = game.settle("close-assault", (a, b), res, rulings=("HT-A5",), unit=a.id, target=b.id, round=rnd + 1)
        v = res.values
        for c, down in ((a, int(v["attackers_down"])), (b, int(v["defenders_down"]))):
            if down:
                morale.lose_figures(game, c, down, "charge")
                c.figures -= down
        state.forget(a, b)
        for c in (a, b):
            state.touch(c)
            if not c.artillery:
                c.form("skirmish")  # p.7: disordered after the first round
        if b.figures == 0:
            _beaten(game, state, b, a)
            return True
        if a.figures == 0:
            return False
        loser, winner = (a, b) if v["loser"] == "attacker" else (b, a)
        morale.confidence_test(game, t, loser, int(v["loser_threat"]), "close assault")
        if loser.level >= BROKEN:
            _beaten(game, state, loser, winner)
            return loser is b
    move.flee(game, state, a) if a.alive else None  # HT-A3: no decision after three rounds, the attacker falls back
    game.log.emit("assault", unit=a.id, rulings=["HT-A3"], text=f"{a.id} falls back from {b.id}")
    return False


def _beaten(game: Game, state: HardtackState, loser: Company, winner: Company) -> None:
    """The loser gives ground; guns whose crew is beaten are captured (HT-S5)."""
    state.touch(loser)
    if loser.artillery and loser.guns:
        loser.guns, loser.gone = 0, True
        state.forget(loser)
        game.log.emit("captured", unit=loser.id, rulings=["HT-S5"], text=f"{winner.id} captures {loser.id}'s gun")
        return
    if loser.alive:
        if loser.level < BROKEN:
            morale.lose_levels(game, loser, BROKEN - loser.level)
        move.flee(game, state, loser)
