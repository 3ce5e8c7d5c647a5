"""``referee situation`` under hardtack: one exchange is one volley of the attacker's regiment,
each of its companies that may fire firing once at the defender's company the fire phase would
pick (a gun with the load its crew would choose: canister within its canister reach, else shot).
Figures lost to wounds and deaths are counted; the confidence tests that follow in play, and the
round shot bouncing on to a second company (HT-S3), are not (its charges are answered by play)."""

from __future__ import annotations

from typing import Any

from referee.api import Exchange, Game, Result, Roller, men_between

from . import fire, mechanics
from . import geometry as geo
from .state import BROKEN, HardtackState, state_of


def _hit(roller: Roller, kind: str, *args: Any) -> int:
    """Figures one company's fire takes off (wounded or killed)."""
    values = getattr(mechanics, kind)(roller, *args).values
    return int(values["wounded"]) + int(values["killed"])


def _sum(roller: Roller, shots: tuple[tuple[Any, ...], ...]) -> int:
    """Figures all ``shots`` take off, each its own roll (the rest a memoised sub-mechanic)."""
    first: int = roller.sub(_hit, *shots[0])
    rest: int = roller.sub(_sum, shots[1:]) if len(shots) > 1 else 0
    return first + rest


def _on(roller: Roller, figures: int, shots: tuple[tuple[Any, ...], ...]) -> int:
    """Figures lost by one company under ``shots``: no more than it has."""
    hit: int = roller.sub(_sum, shots)
    return min(figures, hit)


def _total(roller: Roller, targets: tuple[tuple[int, tuple[tuple[Any, ...], ...]], ...]) -> int:
    figures, shots = targets[0]
    first: int = roller.sub(_on, figures, shots)
    rest: int = roller.sub(_total, targets[1:]) if len(targets) > 1 else 0
    return first + rest


def _shot(game: Game, state: HardtackState, c: Any, target: Any) -> tuple[Any, ...]:
    """The mechanic and arguments of ``c``'s fire at ``target``, as the fire phase rolls it."""
    t = state.tables
    rng = geo.inches(t, geo.dist(c, target))
    cov, tform = geo.cover(game, target), fire.target_formation(target)
    if c.artillery:
        if rng <= c.gun.canister:
            return ("canister", t, c.quality, rng, c.gun.id, cov, tform, target.in_position, False, target.travel)
        return ("shot", t, c.quality, rng, c.gun.id, cov, tform, target.in_position, False, state.men_per_figure, target.travel)
    skirmish = c.formation == "skirmish" or c.mounted  # HT-K1: mounted fire as skirmishers
    return ("fire", t, c.quality, fire.firing_figures(t, c) * c.weapon.fp, rng, cov, "skirmish" if skirmish else "close",
            tform, c.weapon.id, target.in_position, False, target.travel)


def exchange(game: Game, attacker: str, defender: str, charge: bool) -> Exchange | None:
    if charge:
        return None
    state = state_of(game)
    a, b = state.regiments[attacker], state.regiments[defender]
    enemies = [e for e in b.companies if e.alive]
    by_target: dict[str, list[tuple[Any, ...]]] = {}
    firers = 0
    for c in a.companies:
        if not c.alive or c.level >= BROKEN or (c.formation != "unlimbered" if c.artillery else c.reload):
            continue  # as fire.may_fire, a gun loaded as its crew would
        target = fire.choose_target(game, state, c, enemies, defender)
        if target is not None:
            firers += 1
            by_target.setdefault(target.id, []).append(_shot(game, state, c, target))
    if not by_target:
        return Exchange(f"no company of {attacker} can fire at {defender} (reach, arc or sight)", lambda roller: Result((0, 0), ("good", None)))
    figures = {e.id: e.figures for e in enemies}
    targets = tuple((figures[tid], tuple(shots)) for tid, shots in sorted(by_target.items()))
    standing, start = sum(e.figures for e in b.companies), sum(e.start for e in b.companies)
    men = b.unit.spec.men

    def volley(roller: Roller) -> Result:
        lost = roller.sub(_total, targets)
        return Result((0, men_between(men, start, standing, standing - lost)), ("good", None))

    what = (f"one volley of {attacker}: {firers} of its {len(a.companies)} companies fire once at {len(by_target)} of "
            f"{defender}'s {len(b.companies)} (figures of {state.men_per_figure} men wounded or killed; the confidence "
            f"tests that follow are left to play)")
    return Exchange(what, volley)
