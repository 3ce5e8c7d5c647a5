"""Every registered ruleset plays every bundled scenario to the end, and the invariants hold
after every step: men conserved, nothing negative, steps in the declared order, games end."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules, exclusive_clashes, installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from strategies import seeds

RULESETS = sorted(installed())
SCENARIOS = [sid for sid, _, _ in bundled()]


class Invariants:
    """A plugin that checks the neutral state after every step."""

    def __init__(self) -> None:
        self.steps: list[tuple[int, str, str]] = []

    @hookimpl
    def referee_step_done(self, game, step) -> None:  # type: ignore[no-untyped-def]
        self.steps.append((game.turn, step.side, step.name))
        for unit in game.world.units.values():
            assert 0 <= unit.men <= unit.spec.men, (unit.id, unit.men)
            assert 0 <= unit.guns <= unit.spec.guns, (unit.id, unit.guns)
            assert unit.status in ("good", "disordered", "broken", "routed", "gone"), unit.status
            assert 0 <= unit.x <= game.scenario.width and 0 <= unit.y <= game.scenario.height or not unit.on_field


@pytest.mark.parametrize("scenario_id", SCENARIOS)
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_plays_to_the_end_with_invariants(ruleset: str, scenario_id: str, seed: int) -> None:
    rules = build_rules(ruleset)
    checker = Invariants()
    rules.register(checker, name="invariants")
    scenario = load_scenario(find_scenario(scenario_id))
    game = Game.new(rules, scenario, seed)
    outcome = play(game)

    # the game ended, by decision or by time
    assert game.world.minute <= scenario.victory.end + rules.info.scale.minutes_per_turn
    assert outcome.winner in (*scenario.sides, None)
    # men conserved: what is lost plus what stands is what mustered
    for side in scenario.sides:
        units = [u for u in game.world.units.values() if u.side == side]
        captured = sum(d.men for d in game.world.departures if d.captured and game.world.units[d.unit].side == side)
        assert outcome.men_lost[side] == sum(u.spec.men - u.men for u in units) + captured
        assert outcome.men_lost[side] >= 0 and outcome.guns_lost[side] >= 0
    # steps in the declared order within each turn and side
    order = rules.info.phases
    assert checker.steps, "no step was played"
    for turn in {t for t, _, _ in checker.steps}:
        for side in scenario.sides:
            names = [n for t, s, n in checker.steps if t == turn and s == side]
            if order:
                assert [order.index(n) for n in names] == sorted(order.index(n) for n in names)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_seed_and_options_play_to_the_end(data: st.DataObject) -> None:
    """Property: whatever the seed and the optional rules switched on, every ruleset plays every
    bundled scenario to a decision with the invariants intact."""
    ruleset = data.draw(st.sampled_from(RULESETS), label="ruleset")
    names = sorted(build_rules(ruleset).option_specs)
    specs = build_rules(ruleset).option_specs
    options = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))
                        .filter(lambda chosen: not exclusive_clashes(chosen, specs)), label="options")
    scenario_id = data.draw(st.sampled_from(SCENARIOS), label="scenario")
    # where the user picks another option of a group the scenario sets, he switches the scenario's off
    set_by_scenario = [o.split(":", 1)[1] for o in load_scenario(find_scenario(scenario_id)).options if o.startswith(f"{ruleset}:")]
    options += [f"no-{o}" for o in set_by_scenario
                if specs[o].group and any(c != o and specs[c].group == specs[o].group for c in options)]
    rules = build_rules(ruleset, options)
    rules.register(Invariants(), name="invariants")
    scenario = load_scenario(find_scenario(scenario_id))
    outcome = play(Game.new(rules, scenario, data.draw(seeds, label="seed")))
    assert outcome.winner in (*scenario.sides, None)
