"""What a break-off means and how a withdrawal is played; orders to one unit; and the bad input
of these keys through the command line (one message each, with file, line and key; exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from attrs import evolve
from click.testing import CliRunner, Result
from referee.core.cli.cli import main
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plan import OUT_OF_REACH_YARDS, Plan
from referee.core.engine.plugins import build_rules, installed
from referee.core.engine.victory import judge
from referee.core.engine.world import Order, SidePlan, Trigger
from referee.core.input.scenario import find_scenario, load_scenario

DRILL = find_scenario("drill-musketry")
RULESETS = sorted(installed())  # every installed ruleset and layer: the contract holds for each


def drill(**changes):  # type: ignore[no-untyped-def]
    return evolve(load_scenario(DRILL), **changes)


def union_breaks_off_at(minute: int, means: str = "defeat"):  # type: ignore[no-untyped-def]
    scenario = drill(plans={"union": SidePlan("union", break_off=(Trigger("time", minute=minute),))})
    victory = evolve(scenario.victory, end=780, break_off=(("union", means),) if means != "defeat" else ())
    return evolve(scenario, victory=victory)


def game_of(scenario, ruleset: str = "rff", seed: int = 1, log: bool = False) -> Game:  # type: ignore[no-untyped-def]
    return Game.new(build_rules(ruleset), scenario, seed, EventLog(enabled=log))


# ----------------------------------------------------------------------------- what it means


def broken_off_world(means: str):  # type: ignore[no-untyped-def]
    """The drill's world at its start, the Union broken off and every unit out of reach."""
    game = game_of(union_breaks_off_at(615, means))
    world = game.world
    world.broken_off["union"] = "10:15 has come"
    for u in world.units.values():
        if u.side == "union":
            u.y = -OUT_OF_REACH_YARDS  # (out of reach: the test does not ask whether it is on the map)
    return world


@pytest.mark.parametrize(("means", "winner"), [("defeat", "confederate"), ("draw", None), ("judged", None)])
def test_what_a_break_off_means(means: str, winner: str | None) -> None:
    verdict = judge(broken_off_world(means))
    assert verdict.over and verdict.broke_off == "union"
    assert verdict.winner == winner and verdict.reason.startswith("union broke off (10:15 has come)")


def test_a_judged_break_off_goes_by_objectives_then_losses() -> None:
    world = broken_off_world("judged")
    world.held["us-ground"] = "confederate"  # the Confederates hold both grounds: they win
    assert judge(world, holders=False).winner == "confederate"
    world = broken_off_world("judged")  # objectives even: the side that lost the smaller share wins
    cs = next(u for u in world.units.values() if u.side == "confederate")
    cs.men -= 50
    verdict = judge(world, holders=False)
    assert verdict.winner == "union" and "judged: objectives union 1, confederate 1" in verdict.reason


def test_a_break_off_is_not_decided_while_its_side_is_within_reach() -> None:
    world = broken_off_world("defeat")
    us = next(u for u in world.units.values() if u.side == "union")
    cs = next(u for u in world.units.values() if u.side == "confederate")
    us.x, us.y = world.scenario.width / 2, world.scenario.height / 2  # away from every edge
    cs.x, cs.y = us.x, us.y + 200
    assert not judge(world).over
    world.minute = world.scenario.victory.end  # time is up: the break-off decides
    assert judge(world).broke_off == "union"


# ----------------------------------------------------------------------------- the withdrawal played


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_withdrawal_is_played_until_the_side_gets_away(ruleset: str) -> None:
    scenario = union_breaks_off_at(615)
    game = game_of(scenario, ruleset, seed=3, log=True)
    outcome = play(game)
    broke = next(e for e in game.log.events if e["kind"] == "plan" and "breaks off" in e["text"])
    assert outcome.winner == "confederate"
    end = scenario.start + outcome.minutes
    assert broke["minute"] < end < scenario.victory.end  # played on, and ended before the time limit
    if outcome.broke_off is None:  # beaten under fire on the way (its rules may break a unit withdrawing)
        assert outcome.reason.startswith("union beaten")
        return
    us = [u for u in game.world.units.values() if u.side == "union"]
    cs = [u for u in game.world.units.values() if u.side == "confederate"]
    assert all(min(abs(u.y), abs(u.y - scenario.height), abs(u.x), abs(u.x - scenario.width)) <= 60.0
               or min((u.x - e.x) ** 2 + (u.y - e.y) ** 2 for e in cs) >= OUT_OF_REACH_YARDS ** 2 for u in us)


def test_men_lost_in_the_withdrawal_are_counted() -> None:
    """Losses after the break-off are in the outcome (the game no longer ends when it comes)."""
    for seed in range(1, 6):
        game = game_of(union_breaks_off_at(615), "rff", seed=seed, log=True)
        outcome = play(game)
        broke = next(e["seq"] for e in game.log.events if e["kind"] == "plan" and "breaks off" in e["text"])
        after = sum(e["men"] for e in game.log.events if e["kind"] == "lost" and e["seq"] > broke)
        if after:
            assert outcome.men_lost["union"] + outcome.men_lost["confederate"] >= after
            return
    pytest.fail("no seed lost a man after the break-off")


def test_a_side_all_of_whose_units_have_withdrawn_has_broken_off() -> None:
    scenario = drill(orders=(Order("us-brigade", "withdraw", id="go"), Order("cs-brigade", "hold", id="cs.1")))
    outcome = play(game_of(scenario, "rff", seed=2))
    assert outcome.reason.startswith("union broke off (every unit has withdrawn)")
    assert scenario.start + outcome.minutes < scenario.victory.end


# ----------------------------------------------------------------------------- orders to one unit


def test_an_order_to_one_unit_takes_it_from_its_command_once_begun() -> None:
    scenario = drill(orders=(Order("us-brigade", "defend", id="us.1"),
                             Order("us-regiment", "withdraw", id="alone", unit=True, when=(Trigger("time", minute=615),)),
                             Order("cs-brigade", "defend", id="cs.1")))
    game = game_of(scenario)
    plan: Plan = game.plan
    plan.update(game)
    assert plan.order_of("us-regiment").id == "us.1"  # type: ignore[union-attr]
    game.world.minute = 615
    plan.update(game)
    assert plan.order_of("us-regiment").id == "alone"  # type: ignore[union-attr]
    assert plan.orders_of([game.world.units["us-regiment"]])[0].id == "alone"  # type: ignore[union-attr]


def test_an_order_to_one_unit_is_read_from_the_file(tmp_path: Path) -> None:
    path = written(tmp_path, ORDERS, ORDERS + '\n[[orders]]\nunit = "us-regiment"\nkind = "withdraw"\n'
                                              'when = { time = "10:15" }\n')
    alone = next(o for o in load_scenario(path).orders if o.unit)
    assert (alone.command, alone.id, alone.kind) == ("us-regiment", "us-regiment.1", "withdraw")


# ----------------------------------------------------------------------------- bad input, through the CLI

ORDERS = '[[orders]]\ncommand = "us-brigade"\nkind = "defend"\n'
VICTORY = "beaten_at = 0.5\n"


def written(tmp_path: Path, old: str, new: str) -> Path:
    text = DRILL.read_text()
    assert old in text
    path = tmp_path / "drill.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def refused(path: Path) -> str:
    result: Result = CliRunner().invoke(main, ["run", str(path), "--rules", "rff", "--quiet"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    message = result.stderr.split("Error:", 1)[1]
    assert "1 problem" in message, message
    return message


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if line.startswith(text))


@pytest.mark.parametrize(("old", "new", "key", "says"), [
    (ORDERS, ORDERS + '\n[[orders]]\nunit = "us-regimnt"\nkind = "hold"\n', "orders[1].unit",
     "no unit with id 'us-regimnt'; did you mean 'us-regiment'"),
    (ORDERS, '[[orders]]\ncommand = "us-brigade"\nkind = "engage"\nrange = 5000\n', "orders[0].range",
     "5000 yards is beyond the map"),
    (VICTORY, VICTORY + 'break_off = { union = "retreat" }\n', "victory.break_off.union",
     "a break-off means one of 'defeat', 'draw', 'judged'"),
    ('weather = "clear"', 'weather = "rain"', "scenario.weather",
     "weather 'rain' is played by no installed ruleset; the values played: 'clear' (every ruleset)"),
])
def test_bad_input_one_message_with_file_line_and_key(tmp_path: Path, old: str, new: str, key: str, says: str) -> None:
    path = written(tmp_path, old, new)
    message = refused(path)
    line = {"orders[1].unit": "unit =", "orders[0].range": "range =", "victory.break_off.union": "break_off =",
            "scenario.weather": "weather ="}[key]
    assert f"{path}:{line_of(path, line)} {key}: {says}" in message, message


def test_old_files_keep_their_meaning() -> None:
    """No break_off in [victory]: every side's break-off is a defeat, as before."""
    for name in ("big-bethel", "kernstown", "valverde"):
        victory = load_scenario(find_scenario(name)).victory
        assert victory.break_off == () and victory.break_off_means("union") == "defeat"


def test_fog_is_refused_where_a_ruleset_does_not_play_it(tmp_path: Path) -> None:
    path = written(tmp_path, 'weather = "clear"', 'weather = "fog"')
    result = CliRunner().invoke(main, ["run", str(path), "--rules", "sumter", "--quiet"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert (f"{path}:{line_of(path, 'weather =')} scenario.weather: sumter does not play weather 'fog'" in result.stderr
            and "'fog' is played by hynds, rff" in result.stderr), result.stderr
    assert CliRunner().invoke(main, ["run", str(path), "--rules", "rff", "--quiet"]).exit_code == 0


# ----------------------------------------------------------------------------- surprised units


def surprised_drill(name: str, surprised: bool = True):  # type: ignore[no-untyped-def]
    scenario = load_scenario(find_scenario(name))
    return evolve(scenario, units=tuple(evolve(u, surprised=surprised) for u in scenario.units))


def modifiers_named(game: Game, mechanic: str, text: str) -> list[int]:
    """The turns of the resolutions of ``mechanic`` with a modifier whose name or citation says ``text``."""
    return [e["turn"] for e in game.log.events if e["kind"] == "resolution" and e.get("mechanic") == mechanic
            and any(text in m["name"] or text in m.get("ref", "") for m in e.get("modifiers", []))]


def test_sumter_bushwhacks_surprised_units_in_the_first_turn_only() -> None:
    turns = []
    for seed in (1, 2, 3):
        for surprised in (True, False):
            game = game_of(surprised_drill("drill-musketry", surprised), "sumter", seed, log=True)
            play(game)
            found = modifiers_named(game, "unit-morale", "bushwhacked")
            assert surprised or not found
            turns += found
    assert turns and set(turns) == {1}


def test_hynds_surprised_units_meet_their_first_charge_surprised() -> None:
    for seed in (1, 2, 3, 4):
        game = game_of(surprised_drill("drill-cavalry"), "hynds", seed, log=True)
        play(game)
        if modifiers_named(game, "charge", "HYNDS-H4"):
            plain = game_of(surprised_drill("drill-cavalry", False), "hynds", seed, log=True)
            play(plain)
            assert not modifiers_named(plain, "charge", "HYNDS-H4")
            return
    pytest.fail("no charge on a surprised unit in four games")


@pytest.mark.parametrize("ruleset", ["rff", "hardtack"])
def test_surprised_changes_nothing_where_the_text_has_no_rule(ruleset: str) -> None:
    logs = []
    for surprised in (True, False):
        game = game_of(surprised_drill("drill-musketry", surprised), ruleset, 2, log=True)
        play(game)
        logs.append(game.log.jsonl())
    assert logs[0] == logs[1]


def test_the_docs_example_shows_the_new_keys() -> None:
    from referee.core.input.scenario import parse_scenario
    from test_plan_format import _examples

    scenario = parse_scenario(_examples()[1], "docs/scenario-format.md")
    assert scenario.victory.break_off_means("union") == "judged" and scenario.victory.break_off_means("confederate") == "defeat"
    assert any(o.unit for o in scenario.orders) and any(u.surprised for u in scenario.units)


# ----------------------------------------------------------------------------- marked in compare


def test_compare_marks_the_verdicts_a_break_off_decided(tmp_path: Path) -> None:
    path = written(tmp_path, 'end = "10:45"', 'end = "12:00"')
    path.write_text(path.read_text() + '\n[plan.union]\nbreak_off = { time = "10:15" }\n')
    result = CliRunner().invoke(main, ["compare", str(path), "--rules", "rff", "-n", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["rulesets"]["rff"]
    decided = [g["broke_off"] for g in report["games"]]
    assert set(decided) <= {"union", None} and "union" in decided  # (or beaten on the way)
    assert report["broke_off"] == {"union": decided.count("union") / 2}
    shown = CliRunner().invoke(main, ["compare", str(path), "--rules", "rff", "-n", "2", "--workers", "1"])
    assert "verdict decided by a break-off" in shown.stdout and f"† union {decided.count('union') * 50}%" in shown.stdout
    assert "† side share: the share of games whose verdict a plan's break-off decided" in shown.stdout


def test_a_pursuit_begins_when_the_enemy_breaks_off() -> None:
    scenario = union_breaks_off_at(615)
    scenario = evolve(scenario, orders=(
        Order("us-brigade", "defend", id="us.1"), Order("cs-brigade", "defend", id="cs.1"),
        Order("cs-brigade", "attack", objective="us-ground", id="pursue", when=(Trigger("enemy_broke_off"),))))
    game = game_of(scenario, "rff", seed=1, log=True)
    play(game)
    assert game.plan.begun["pursue"] == 615
    assert any(e["kind"] == "plan" and e["text"].endswith("begins: the union side has broken off") for e in game.log.events)


def test_enemy_broke_off_is_read_from_the_file(tmp_path: Path) -> None:
    order = '\n[[orders]]\ncommand = "us-brigade"\nkind = "attack"\nobjective = "cs-ground"\nwhen = {{ enemy_broke_off = {} }}\n'
    path = tmp_path / "drill.toml"
    path.write_text(DRILL.read_text() + order.format("true"))
    assert [o.when for o in load_scenario(path).orders if o.when] == [(Trigger("enemy_broke_off"),)]
    path.write_text(DRILL.read_text() + order.format("1"))
    assert "expected enemy_broke_off = true" in refused(path)
