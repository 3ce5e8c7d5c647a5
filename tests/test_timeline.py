"""Positions in the log, and what is read back from it: replay frames, losses by time, mechanics."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine.events import UNSPOKEN, EventLog
from referee.core.engine.game import POSITION_FIELDS, Game, Outcome, play, replication_seed
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.core.studies.timeline import frames, losses_by_time, lost_so_far, mechanics_rolled

RULESETS = ["rff", "hardtack"]


def game(scenario_id: str, ruleset: str, seed: int, logged: bool = True) -> tuple[Game, EventLog, Outcome]:
    log = EventLog(enabled=logged)
    g = Game.new(build_rules(ruleset), load_scenario(find_scenario(scenario_id)), seed, log)
    return g, log, play(g)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_positions_replay_to_the_world_at_the_end(ruleset: str) -> None:
    g, log, _ = game("big-bethel", ruleset, 7)
    positions = [e for e in log.events if e["kind"] == "positions"]
    assert set(positions[0]["units"]) == set(g.world.units)  # every unit the first time
    assert all(e["units"] for e in positions)  # none empty
    assert any(len(e["units"]) < len(g.world.units) for e in positions[1:])  # only what changed
    last = frames(log.events, g.scenario.start)[-1]
    assert len(frames(log.events, g.scenario.start)) == len(positions)
    for uid, u in g.world.units.items():
        shown = dict(zip(POSITION_FIELDS, last.units[uid]))
        assert (shown["x"], shown["y"]) == (round(u.x), round(u.y))
        assert shown["facing"] == round(u.facing) % 360
        assert (shown["formation"], shown["men"], shown["guns"]) == (u.formation, u.men, u.guns)
        assert shown["status"] == (u.status if u.on_field or u.status == "gone" else "off")


def test_frames_carry_the_narration_between_them() -> None:
    g, log, _ = game("drill-musketry", "rff", 7)
    shown = frames(log.events, g.scenario.start)
    said = [line for f in shown for line in f.narration]
    assert "  start: " in said[0] and "  end: " in said[-1]
    assert len(said) == sum(1 for e in log.events if e["kind"] not in UNSPOKEN)
    assert shown[0].changed and set(shown[0].units) == set(g.world.units)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario_id", ["big-bethel", "drill-charge-battery", "drill-cavalry"])
def test_losses_by_time_add_up_to_the_men_lost(scenario_id: str, ruleset: str) -> None:
    for k in range(3):
        g, log, outcome = game(scenario_id, ruleset, replication_seed(1, k))
        by_time = losses_by_time(log.events, g.scenario)
        assert {side: sum(v) for side, v in by_time.items()} == outcome.men_lost
        assert all(len(v) == -(-(g.scenario.victory.end - g.scenario.start) // 30) for v in by_time.values())


def test_losses_by_time_fall_in_the_half_hour_they_happen() -> None:
    g, log, _ = game("big-bethel", "rff", 7)
    by_time = losses_by_time(log.events, g.scenario)
    men = POSITION_FIELDS.index("men")
    first = next(e for e in log.events if e["kind"] == "positions"
                 and any(v[men] < g.scenario.unit(u).men for u, v in e["units"].items()))
    bucket = (first["minute"] - g.scenario.start) // 30
    assert all(sum(v[:bucket]) == 0 for v in by_time.values())
    assert any(v[bucket] for v in by_time.values())


def test_mechanics_rolled_counts_every_resolution() -> None:
    _, log, _ = game("big-bethel", "rff", 7)
    rolled = mechanics_rolled(log.events)
    assert sum(sum(c.values()) for c in rolled.values()) == sum(1 for e in log.events if e["kind"] == "resolution")
    assert {"musketry", "maneuver"} <= set(rolled)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_log_changes_nothing_in_play(ruleset: str) -> None:
    for k in range(3):
        seed = replication_seed(2, k)
        logged, quiet = game("big-bethel", ruleset, seed), game("big-bethel", ruleset, seed, logged=False)
        assert logged[1].events and not quiet[1].events
        assert logged[2] == quiet[2]
        assert [(u.men, u.x, u.y, u.status) for u in logged[0].world.units.values()] == \
               [(u.men, u.x, u.y, u.status) for u in quiet[0].world.units.values()]


def test_positions_are_not_narrated() -> None:
    result = CliRunner().invoke(main, ["run", "drill-musketry", "--rules", "rff", "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "positions" not in result.stdout and "units=" not in result.stdout


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_losses_so_far_rise_frame_by_frame_to_the_games_men_lost(ruleset: str) -> None:
    g, log, outcome = game("big-bethel", ruleset, 7)
    so_far = lost_so_far(log.events, g.scenario)
    assert len(so_far) == len(frames(log.events, g.scenario.start))
    for side in g.scenario.sides:
        series = [lost[side] for lost in so_far]
        assert series == sorted(series) and series[-1] == outcome.men_lost[side]
        by_time = losses_by_time(log.events, g.scenario)[side]
        assert series[-1] == sum(by_time)
