"""Confidence: the Threat Level Table, confidence tests and their results, leader casualties,
and rally (SG2 with Hardtack pp.7, 11-13)."""

from __future__ import annotations

from typing import Any

from referee.core.chance import d

from . import mechanics
from .state import BROKEN, ROUTED, Company
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


def confidence_test(game: Any, t: HardtackTables, c: Company, tl: int | None, why: str) -> int:
    """Test; a failure costs one or two levels. Returns the levels lost."""
    if tl is None or not c.alive or c.level >= ROUTED:
        return 0
    res = mechanics.test(game.roller, t, c.quality, c.lv, tl)
    res = game.settle("confidence", c, res, rulings=("HT-C2",), unit=c.id, why=why)
    lost = int(res.values["levels_lost"])
    if lost:
        lose_levels(game, c, lost)
    return lost


def lose_levels(game: Any, c: Company, n: int) -> None:
    game.state.touch(c)
    c.level = min(ROUTED, c.level + n)
    if c.level >= BROKEN and not c.artillery:
        c.formation = "skirmish"  # p.7: broken or routed companies become disordered
    game.log.emit("confidence", unit=c.id, text=f"{c.id} is {LEVELS[c.level]}")


def casualties(game: Any, t: HardtackTables, c: Company, lost: int, fired_on: str) -> None:
    """Remove ``lost`` figures (wounded or killed: HT-F5), then the company's test: the worst of
    fired on, more casualties than survivors, and its leader down (HT-L1)."""
    game.state.touch(c)
    before = c.figures
    lost = min(lost, before)
    c.figures -= lost
    if not c.figures:
        game.state.forget()  # it no longer stands: the kept lists of the living are stale
    basics = [fired_on]
    if lost:
        if lost > c.figures:
            basics.append("more-casualties-than-survivors")
        if c.figures and game.roller.roll(d(max(2, before))) <= lost:
            c.lv = min(3, c.lv + 1)
            basics.append("leader-casualty")
            game.log.emit("leader", unit=c.id, rulings=["HT-L1"], text=f"{c.id}'s commander is hit; LV now {c.lv}")
    if c.figures == 0:
        c.gone = c.artillery  # a gun with no crew is lost (HT-S5); a company with no figures is no more
        c.guns = 0
        game.log.emit("destroyed", unit=c.id, text=f"{c.id} has no figures left")
        return
    confidence_test(game, t, c, threat(t, c, basics, casualties=lost > 0), "fire")


def rally(game: Any, t: HardtackTables, leader_lv: int, c: Company) -> None:
    """SG2 p.17 as Hardtack p.11 has it: no communication roll, leader within 6"; the quality
    die against both leadership values; success restores one level."""
    res = mechanics.test(game.roller, t, c.quality, c.lv, leader_lv, "reaction")
    res = game.settle("rally", c, res, rulings=("HT-R1",), unit=c.id)
    if res.values["passed"]:
        game.state.touch(c)
        c.level -= 1
        game.log.emit("rally", unit=c.id, text=f"{c.id} rallies to {LEVELS[c.level]}")
