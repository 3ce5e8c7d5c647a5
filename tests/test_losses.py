"""Losses by cause: every ruleset reports each man it takes out of play once, with a neutral
cause, so that the losses by cause add up exactly to the men lost by each side."""

from __future__ import annotations

import pytest
from referee.core.engine.events import CAUSES, EventLog
from referee.core.engine.game import Game, men_between, play
from referee.core.engine.plugins import build_rules, installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from referee.core.studies.timeline import losses_by_cause

RULESETS = sorted(installed())
SCENARIOS = [sid for sid, _, _ in bundled()]


@pytest.mark.parametrize("scenario_id", SCENARIOS)
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_losses_by_cause_add_up_to_the_men_lost(ruleset: str, scenario_id: str, seed: int) -> None:
    scenario = load_scenario(find_scenario(scenario_id))
    log = EventLog(enabled=True)
    outcome = play(Game.new(build_rules(ruleset), scenario, seed, log))
    from_log = losses_by_cause(log.events, scenario)
    for side in scenario.sides:
        assert sum(outcome.lost_by_cause[side].values()) == outcome.men_lost[side], (side, outcome.lost_by_cause)
        assert from_log[side] == outcome.lost_by_cause[side]
        assert set(outcome.lost_by_cause[side]) <= set(CAUSES)
        assert all(men > 0 for men in outcome.lost_by_cause[side].values())
    assert any(outcome.men_lost.values()) or scenario_id.startswith("drill"), "a battle with no losses tests nothing"


def test_the_log_off_counts_the_same_losses() -> None:
    scenario = load_scenario(find_scenario("big-bethel"))
    for ruleset in RULESETS:
        logged = play(Game.new(build_rules(ruleset), scenario, 5, EventLog(enabled=True)))
        quiet = play(Game.new(build_rules(ruleset), scenario, 5))
        assert logged.lost_by_cause == quiet.lost_by_cause


def test_men_between_telescopes() -> None:
    # 780 men in 20 stands: losing them one by one reports every man once
    assert sum(men_between(780, 20, s, s - 1) for s in range(20, 0, -1)) == 780
    assert men_between(780, 20, 20, 17) == 780 - 780 * 17 // 20


def test_an_unknown_cause_is_refused() -> None:
    scenario = load_scenario(find_scenario("drill-musketry"))
    game = Game.new(build_rules(RULESETS[0]), scenario, 1)
    unit = next(iter(game.world.units))
    with pytest.raises(ValueError, match="valid: musketry"):
        game.lose(unit, 10, "cholera")


def test_skirmishers_pushed_off_the_map_count_as_their_share_of_the_regiment() -> None:
    """A screen of 2 of a regiment's 12 stands that retreats off the map takes 2/12 of its men
    with it (not the whole regiment's), captured or not, and the losses still add up."""
    from referee.plugins.rff import move, skirmishers

    scenario = load_scenario(find_scenario("drill-musketry"))
    game = Game.new(build_rules("rff"), scenario, 1)
    game.state = game.rules.muster(game)
    regiment = game.state.pieces["us-regiment"]
    regiment.effect = "tardy"
    skirmishers.deploy(game, game.state, regiment, held=False)
    screen = game.state.pieces[regiment.skirmishers]
    move.retreat(game, game.state, screen, 5000.0)
    (gone,) = game.world.departures
    assert gone.men == 500 * screen.stands // regiment.start_stands < 500


def test_a_ruleset_that_does_not_report_its_losses_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """explain shows the men lost with no cause reported, and leaves that ruleset out of the
    sentences on causes rather than read its silence as no losses."""
    import json

    from click.testing import CliRunner
    from referee.core.cli.cli import main

    monkeypatch.setattr(Game, "lose", lambda self, unit, men, cause, **detail: None)  # as a ruleset that never calls it
    result = CliRunner().invoke(main, ["explain", "big-bethel", "--rules", "rff", "-n", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    lost = data["rulesets"]["rff"]["losses_by_cause"]["union"]
    assert lost["causes"] == {} and lost["unreported"] == lost["men_lost"] > 0
    said = " ".join(data["sentences"])
    assert "Under rff, the cause of" in said and "is not reported" in said and "% of the" not in said
    text = CliRunner().invoke(main, ["explain", "big-bethel", "--rules", "rff", "-n", "2", "--workers", "1"]).stdout
    assert "| cause not reported" in text
