"""Confidence: the Threat Level Table, confidence tests and their results, leader casualties,
and rally (SG2 with Hardtack pp.7, 11-13)."""

from __future__ import annotations

import math
from typing import Any

from referee.api import Game, d, men_between

from . import geometry as geo
from . import mechanics
from .state import BROKEN, ROUTED, SHAKEN, Company, HardtackState, Regiment, state_of
from .tables import LEVELS, HardtackTables


def threat(t: HardtackTables, c: Company, basics: list[str], casualties: bool = False, charged_by_close: bool = False) -> int | None:
    """The threat level of the worst test triggered (ruling HT-C2), with the + entries that
    modify it; None when no test is required (NTR)."""
    added = t.added
    best: int | None = None
    for name in basics:
        tl = t.basic[name].by_motivation[c.motivation]
        if casualties and name in ("fired-on", "canister"):
            extra = added["casualties"].by_motivation[c.motivation] or 0
            tl = (tl or 0) + extra if tl is not None or added["casualties"].forces_test else None
        if tl is not None and (best is None or tl > best):
            best = tl
    return None if best is None else best + formation_modifier(t, c, charged_by_close)


def formation_modifier(t: HardtackTables, c: Company, charged_by_close: bool = False) -> int:
    """p.12-13: -1 in close formation; +1 when charged by a close formation."""
    rows = [t.added["close-formation"]] * c.close + [t.added["charged-by-close"]] * charged_by_close
    return sum(row.by_motivation[c.motivation] or 0 for row in rows)


def confidence_test(game: Game, t: HardtackTables, c: Company, tl: int | None, why: str) -> int:
    """Test; a failure costs one or two levels. Returns the levels lost."""
    if tl is None or not c.alive or c.level >= ROUTED:
        return 0
    res = mechanics.test(game.roller, t, c.quality, c.lv, tl, cite=game.seen, extra=tuple(game.extra_modifiers("confidence", c)))
    res = game.settle("confidence", c, res, rulings=("HT-C2",), unit=c.id, why=why)
    lost = int(res.values["levels_lost"])
    if lost:
        lose_levels(game, c, lost)
    return lost


def lose_levels(game: Game, c: Company, n: int) -> None:
    state = state_of(game)
    state.touch(c)
    state.strength_changed(c)
    before, c.level = c.level, min(ROUTED, c.level + n)
    if c.level >= BROKEN and not c.artillery:
        c.form("skirmish")  # p.7: broken or routed companies become disordered
    if game.log.enabled:  # (the text is not written for a log that is off)
        if before < BROKEN <= c.level and len(c.regiment.companies) > 1:  # HT-O7: it no longer counts for its regiment's place
            game.log.emit("confidence", unit=c.id, rulings=["HT-O7"],
                          text=f"{c.id} is {LEVELS[c.level]} and leaves {c.regiment.id}'s order: the regiment stands where "
                               "its companies in good order do")
        else:
            game.log.emit("confidence", unit=c.id, text=f"{c.id} is {LEVELS[c.level]}")


def casualties(game: Game, t: HardtackTables, c: Company, lost: int, fired_on: str, cause: str, yards: float) -> None:
    """Remove ``lost`` figures (wounded or killed: HT-F5), reported lost to the neutral ``cause``
    of fire at ``yards``; then the company's test: the worst of fired on, more casualties than
    survivors, and its leader or its regimental commander down (HT-L1, HT-L2)."""
    state_of(game).touch(c)
    before = c.figures
    lost = min(lost, before)
    if lost:
        lose_figures(game, c, lost, cause, yards=round(yards))
        state_of(game).strength_changed(c)
    c.figures -= lost
    if not c.figures:
        state_of(game).forget(c)  # it no longer stands: the kept lists of the living are stale
    basics = [fired_on]
    if lost:
        if lost > c.figures:
            basics.append("more-casualties-than-survivors")
        if c.figures and game.roller.roll(d(max(2, before))) <= lost:
            c.lv = min(3, c.lv + 1)
            basics.append("leader-casualty")
            game.log.emit("leader", unit=c.id, rulings=["HT-L1"], text=f"{c.id}'s commander is hit; LV now {c.lv}")
        if stands_with(state_of(game), c) and game.roller.roll(d(before + 1)) <= lost and commander_falls(game, t, c):
            basics.append("leader-casualty")
        if c.artillery and c.formation == "limbered" and not c.team_hit:
            _team(game, c, before, lost)
    if c.figures == 0:
        c.gone = c.artillery  # a gun with no crew is lost (HT-S5); a company with no figures is no more
        c.guns = 0
        game.log.emit("destroyed", unit=c.id, text=f"{c.id} has no figures left")
        return
    confidence_test(game, t, c, threat(t, c, basics, casualties=lost > 0), "fire")


def lose_figures(game: Game, c: Company, lost: int, cause: str, **detail: Any) -> None:
    """Report the men ``lost`` figures of ``c`` stand for (before they are taken off) to the
    core (Game.lose): the regiment's men are read from all its companies' figures."""
    companies = c.regiment.companies
    standing = sum([k.figures for k in companies])
    start = sum([k.start for k in companies])
    game.lose(c.unit.id, men_between(c.unit.spec.men, start, standing, standing - lost), cause, **detail)


def _team(game: Game, c: Company, before: int, lost: int) -> None:
    """HT-S6: the limbered gun's two team figures stand among its crew's; the team is hit if a
    die of all of them shows no more than two per crew figure lost (p.13: its movement die
    shifts down one, once)."""
    team = state_of(game).tables["artillery"]["team_figures"]  # p.13: a full team of six horses is two horse figures
    if game.roller.roll(d(before + team)) <= team * lost:
        c.team_hit, c.pace = True, None
        game.log.emit("team", unit=c.id, rulings=["HT-S6"], text=f"{c.id}'s horse team is hit: it moves a die type slower")


WITH_INCHES = 1.0  # HT-L2: a commander within 1" of a company's frontage stands with it


def stands_with(state: HardtackState, c: Company) -> bool:
    """HT-L2: the regimental commander stands with ``c``: within its half frontage and 1" of its centre."""
    reg = c.regiment
    return reg.commander and math.hypot(reg.x - c.x, reg.y - c.y) <= geo.half_footprint(state, c)[0] + WITH_INCHES * state.tables.yards_per_inch


def commander_falls(game: Game, t: HardtackTables, hit: Company) -> bool:
    """p.7 (HT-L2): the regimental commander is hit. The companies of his regimental formation
    test at "Unit Leader becomes casualty"; the best company leader of it (of the regiment if it
    has no formation) takes his place, that company's own replaced as though killed (no further
    test). Returns whether ``hit`` is in the formation (its test takes that row, HT-C2)."""
    reg = hit.regiment
    formation = regimental_formation(t, reg)
    new = _successor(game, formation or [c for c in reg.companies if c.alive])
    if new is None:
        reg.commander = False
        game.log.emit("commander", unit=reg.id, rulings=["HT-L2"], text=f"{reg.id}'s commander is hit with {hit.id}; nobody is left to replace him")
    else:
        reg.lv, new.lv = new.lv, min(3, new.lv + 1)
        game.log.emit("commander", unit=reg.id, rulings=["HT-L2"],
                      text=f"{reg.id}'s commander is hit with {hit.id}; {new.id}'s commander takes the regiment (LV {reg.lv}), his company's LV now {new.lv}")
    for c in formation:
        if c is not hit:
            confidence_test(game, t, c, threat(t, c, ["leader-casualty"]), "regimental commander hit")
    return hit in formation


def regimental_formation(t: HardtackTables, reg: Regiment) -> list[Company]:
    """p.7: the standing companies in close formation, Shaken or better, within 6" of the commander."""
    reach = t.command_yards
    return [c for c in reg.companies if c.alive and c.close and c.level <= SHAKEN and math.hypot(c.x - reg.x, c.y - reg.y) <= reach]


def _successor(game: Game, companies: list[Company]) -> Company | None:
    """p.7: the company leader of the highest quality from a Confident, Steady or Shaken company;
    ties, or none of them Shaken or better, picked by a die."""
    fit = [c for c in companies if c.level <= SHAKEN] or companies
    if not fit:
        return None
    best = [c for c in fit if c.quality == max(f.quality for f in fit)]
    return best[game.roller.roll(d(len(best))) - 1] if len(best) > 1 else best[0]


def rally(game: Game, t: HardtackTables, leader_lv: int, c: Company) -> None:
    """SG2 p.17 as Hardtack p.11 has it: no communication roll, leader within 6"; the quality
    die against both leadership values; success restores one level."""
    res = mechanics.test(game.roller, t, c.quality, c.lv, leader_lv, "reaction", cite=game.seen, extra=tuple(game.extra_modifiers("rally", c)))
    res = game.settle("rally", c, res, rulings=("HT-R1",), unit=c.id)
    if res.values["passed"]:
        state_of(game).touch(c)
        state_of(game).strength_changed(c)
        c.level -= 1
        game.log.emit("rally", unit=c.id, text=f"{c.id} rallies to {LEVELS[c.level]}")
