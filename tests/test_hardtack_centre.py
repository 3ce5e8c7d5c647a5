"""Hardtack's regiment centres (activation.centre) are kept from step to step until one of the
regiment's companies changes place, figures, level or standing (HardtackState.recentre): each
answer is the one a recount at the regiment's first ask in the step gives (HT-M5: held for the
rest of that step), however companies move, lose, rally and fall."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.api import Scenario, Step
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import activation
from referee.plugins.hardtack.state import BROKEN, ROUTED, SHAKEN, HardtackState, Regiment, centre_of, in_order


@cache
def big_bethel() -> Scenario:
    return load_scenario(find_scenario("big-bethel"))


def recount(reg: Regiment) -> tuple[float, float]:
    standing = [c for c in reg.companies if c.alive]
    return centre_of(in_order(standing)) if standing else (reg.x, reg.y)


class Reference:
    """The centres a dict cleared at every step gives: each recounted at its first ask in a step."""

    def __init__(self) -> None:
        self.held = dict[str, tuple[float, float]]()

    def new_step(self) -> None:
        self.held.clear()

    def centre(self, state: HardtackState, reg: Regiment) -> tuple[float, float]:
        if reg.id not in self.held:
            self.held[reg.id] = recount(reg)
        return self.held[reg.id]


# (how, company, value): 0 moves (named to the state after), 1 moves (named before), 2 loses figures,
# 3 loses or regains a level, 4 falls, 5 a step begins, 6 a turn begins; then its regiment and another are asked
changes = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 400), st.floats(0, 3000), st.integers(0, 400)), max_size=60)


@settings(max_examples=150, deadline=None)
@given(changes)
def test_a_kept_centre_is_the_recount_of_its_steps_first_ask(changes: list[tuple[int, int, float, int]]) -> None:
    game = Game.new(build_rules("hardtack"), big_bethel(), 1)
    state: HardtackState = game.rules.pm.hook.referee_muster(game=game)
    everyone = list(state.companies.values())
    regiments = list(state.regiments.values())
    reference = Reference()
    for how, i, value, asked in changes:
        c = everyone[i % len(everyone)]
        if how == 0:
            c.x = value
            state.moved(c)
        elif how == 1:
            state.moved(c)
            c.y = value
        elif how == 2 and c.figures > 1:
            c.figures -= 1
            state.strength_changed(c)
        elif how == 3:
            state.strength_changed(c)
            c.level = int(value) % 4
        elif how == 4:
            c.figures = 0
            state.forget(c)
        elif how == 5:
            state.centres.clear()  # (as activation.play_step does)
            reference.new_step()
        elif how == 6:
            state.begin_turn()
        for reg in (c.regiment, regiments[asked % len(regiments)]):
            assert activation.centre(state, reg) == reference.centre(state, reg)


@pytest.mark.parametrize(("scenario", "seed"), [("big-bethel", 2), ("kernstown", 1), ("valverde", 7)])
def test_every_centre_a_game_asks_is_the_recount_of_its_steps_first_ask(scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    reference, kept, stepped = Reference(), activation.centre, activation.play_step
    asked = [0]

    def play_step(game: Game, step: Step) -> None:
        reference.new_step()
        stepped(game, step)

    def checked(state: HardtackState, reg: Regiment) -> tuple[float, float]:
        asked[0] += 1
        hit = kept(state, reg)
        assert hit == reference.centre(state, reg)
        return hit

    monkeypatch.setattr(activation, "centre", checked)
    monkeypatch.setattr(activation, "play_step", play_step)
    play(Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario)), seed, EventLog(enabled=False)))
    assert asked[0] > 100


def afresh(reg: Regiment) -> tuple[object, ...]:
    """What sync writes of a regiment, reckoned from its companies as they stand (the unit's men,
    guns, place, facing, formation, mount, status and whether it is on the field)."""
    unit = reg.unit
    men = unit.spec.men * sum(c.figures for c in reg.companies) // sum(c.start for c in reg.companies)
    guns = min(unit.spec.guns, sum(c.guns for c in reg.companies)) if unit.spec.guns else unit.guns
    alive = [c for c in reg.companies if unit.on_field and c.figures > 0 and not c.gone]
    if not alive:
        return men, guns, "gone", False
    body = in_order(alive)
    lead = max(body, key=lambda c: c.figures)
    figures = sum(c.figures for c in alive)
    worst = [sum(c.figures for c in alive if c.level >= level) for level in (SHAKEN, BROKEN, ROUTED)]  # that level or worse
    status = ("routed" if 2 * worst[2] > figures else "broken" if 2 * worst[1] > figures
              else "disordered" if 2 * worst[0] > figures else "good")
    return men, guns, centre_of(body), lead.facing, lead.formation, lead.mounted, status, unit.on_field


def written(reg: Regiment) -> tuple[object, ...]:
    unit = reg.unit
    if not unit.on_field:
        return unit.men, unit.guns, unit.status, unit.on_field
    return unit.men, unit.guns, (unit.x, unit.y), unit.facing, unit.formation, unit.mounted, unit.status, unit.on_field


# (how, company, value): 0 moves, 1 loses figures, 2 loses or regains a level, 3 falls, 4 turns, 5 changes formation,
# 6 loses its gun, 7 a turn begins; then every regiment is written back
writes = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 400), st.floats(0, 3000)), max_size=40)


@settings(max_examples=100, deadline=None)
@given(writes)
def test_what_sync_writes_is_what_the_companies_give_afresh(changes: list[tuple[int, int, float]]) -> None:
    """muster.sync keeps what the companies' places, figures, levels and standing decide
    (HardtackState.written) until one of them changes, and reads facing, formation, mount and
    guns each time: after any changes, every regiment is written as a reckoning afresh writes it."""
    import importlib

    sync = importlib.import_module("referee.plugins.hardtack.muster").sync
    game = Game.new(build_rules("hardtack"), big_bethel(), 1)
    state: HardtackState = game.rules.pm.hook.referee_muster(game=game)
    everyone = list(state.companies.values())
    for how, i, value in changes:
        c = everyone[i % len(everyone)]
        if how == 0:
            c.x = value
            state.moved(c)
        elif how == 1 and c.figures > 1:
            state.strength_changed(c)
            c.figures -= 1
        elif how == 2:
            state.strength_changed(c)
            c.level = int(value) % 5
        elif how == 3:
            c.figures = 0
            state.forget(c)
        elif how == 4:
            c.facing = value % 360
        elif how == 5:
            c.form(("line", "column", "skirmish")[int(value) % 3] if not c.artillery else ("limbered", "unlimbered")[int(value) % 2])
        elif how == 6 and c.artillery:
            c.guns = 0
        elif how == 7:
            state.begin_turn()
        sync(game, state, every=True)
        for reg in state.regiments.values():
            assert written(reg) == afresh(reg), reg.id
