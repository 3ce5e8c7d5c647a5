"""Plans with conditions in the scenario format: sequences of orders, triggers, side plans and
edges, as read by core/input/plans_format.py; every validation message with its key path and line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee.core.cli.cli import main
from referee.core.engine import world
from referee.core.engine.errors import InvalidInput, Problem
from referee.core.engine.world import Order, SidePlan, Trigger
from referee.core.input.scenario import bundled, find_scenario, load_scenario, parse_scenario
from strategies import minimal_scenario, to_toml, trigger_tables
from test_scenario import edit, line_of, only, problems_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenario-format.md"

BASE = """\
[scenario]
id = "plans"
title = "Plans"
date = "1862-08-28"
summary = "A test of plans."
start = "17:00"
sunset = "18:30"
width = 2000
height = 1500
sides = ["union", "confederate"]

[[commands]]
id = "us"
name = "Union brigade"
side = "union"
level = "brigade"

[[commands]]
id = "us-reserve"
name = "Union reserve"
side = "union"
level = "brigade"

[[commands]]
id = "cs"
name = "Confederate brigade"
side = "confederate"
level = "brigade"

[[units]]
id = "blue"
name = "Blue regiment"
command = "us"
arm = "infantry"
men = 500
position = [1000, 300]
facing = 0
formation = "line"
weapon = "rifle-musket"

[[units]]
id = "blue2"
name = "Second blue regiment"
command = "us-reserve"
arm = "infantry"
men = 400
position = [1000, 100]
facing = 0
formation = "column"
weapon = "rifle-musket"

[[units]]
id = "grey"
name = "Grey regiment"
command = "cs"
arm = "infantry"
men = 500
position = [1000, 800]
facing = 180
formation = "line"
weapon = "rifle-musket"

[[objectives]]
id = "hill"
name = "the hill"
position = [1000, 750]
radius = 100
held_by = "confederate"

[[objectives]]
id = "ford"
name = "the ford"
position = [200, 200]
radius = 80
held_by = "union"

[[orders]]
command = "us"
kind = "attack"
objective = "hill"

[[orders]]
command = "cs"
kind = "hold"
objective = "hill"

[victory]
end = "20:00"
objectives = ["hill"]
"""
# The last light goes at 19:00 (sunset 18:30 + 30 minutes), before the end at 20:00.


def load(text: str) -> world.Scenario:
    return parse_scenario(text, "plans.toml")


def orders_of(scenario: world.Scenario, command: str) -> list[Order]:
    return [o for o in scenario.orders if o.command == command]


def problem(tmp_path: Path, text: str, path: str, *fragments: str, line: str | None = None, nth: int = 0) -> Problem:
    """The one problem at ``path``; it says each fragment and stands on the line containing ``line``."""
    found = only(problems_of(tmp_path, text), path)
    for fragment in fragments:
        assert fragment in found.message, f"{fragment!r} not in {found.message!r}"
    if line is not None:
        assert found.line == line_of(text, line, nth), f"{found} is not on the line of {line!r}"
    return found


# ----------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    ("toml", "trigger"),
    [
        ('{ time = "18:15" }', Trigger("time", minute=18 * 60 + 15)),
        ("{ time = 18:15:00 }", Trigger("time", minute=18 * 60 + 15)),
        ('{ taken = "hill" }', Trigger("taken", objective="hill")),
        ('{ lost = "ford" }', Trigger("lost", objective="ford")),
        ("{ losses = 0.3 }", Trigger("losses", share=0.3)),
        ('{ losses = 1, of = "blue" }', Trigger("losses", share=1.0, of="blue")),
        ('{ broken = "cs" }', Trigger("broken", of="cs")),
        ('{ broken = "grey" }', Trigger("broken", of="grey")),
        ("{ enemy_within = 400 }", Trigger("enemy_within", yards=400.0)),
        ('{ enemy_within = 250.5, of = "us" }', Trigger("enemy_within", yards=250.5, of="us")),
        ('{ begun = "us.1" }', Trigger("begun", order="us.1")),
        ('{ ended = "cs.1" }', Trigger("ended", order="cs.1")),
        ('{ repulsed = "hill" }', Trigger("repulsed", objective="hill", times=1)),
        ('{ repulsed = "hill", times = 2 }', Trigger("repulsed", objective="hill", times=2)),
        ("{ darkness = true }", Trigger("darkness")),
        ("{ low_ammo = 0.5 }", Trigger("low_ammo", share=0.5)),
        ('{ low_ammo = 0.25, of = "us-reserve" }', Trigger("low_ammo", share=0.25, of="us-reserve")),
    ],
)
def test_every_trigger_kind_reads_as_its_trigger(toml: str, trigger: Trigger) -> None:
    text = BASE + f'\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = {toml}\n'
    text += '\n[[orders]]\ncommand = "cs"\nkind = "withdraw"\nwhen = { time = "19:00" }\n'  # so that cs.1 may end
    (order,) = orders_of(load(text), "us-reserve")
    assert order.when == (trigger,)
    assert order.id == "us-reserve.1"


def test_a_sequence_in_file_order_with_ids_given_or_counted() -> None:
    text = BASE + """
[[orders]]
command = "us"
id = "fall-back"
kind = "withdraw"
to = [1000, 0]
when = [{ losses = 0.3 }, { time = "19:30" }]
source = "OR 12/2, p. 645"

[[orders]]
command = "us"
kind = "rally"
when = { begun = "cs.1" }
"""
    scenario = load(text)
    attack, withdraw, rally = orders_of(scenario, "us")
    assert [o.id for o in scenario.orders] == ["us.1", "cs.1", "fall-back", "us.3"]
    assert attack.when == () and attack.assault is True and attack.night is False
    assert withdraw == Order("us", "withdraw", id="fall-back", to=(1000.0, 0.0), source="OR 12/2, p. 645",
                             when=(Trigger("losses", share=0.3), Trigger("time", minute=19 * 60 + 30)))
    assert rally.when == (Trigger("begun", order="cs.1"),)


def test_the_keys_of_an_order() -> None:
    text = edit(BASE, 'kind = "attack"\nobjective = "hill"',
                'kind = "attack"\nobjective = "hill"\nformation = "column"\nassault = false\nrange = 150\nnight = true\n'
                'route = [[1200, 400]]')
    text += '\n[[orders]]\ncommand = "us-reserve"\nkind = "demonstrate"\nobjective = "ford"\nrange = 900\n'
    scenario = load(text)
    (attack,) = orders_of(scenario, "us")
    assert (attack.formation, attack.assault, attack.range, attack.night) == ("column", False, 150.0, True)
    assert attack.route == ((1200.0, 400.0),)
    (demonstration,) = orders_of(scenario, "us-reserve")
    assert (demonstration.kind, demonstration.range, demonstration.formation) == ("demonstrate", 900.0, None)


def test_defaults_of_the_new_keys() -> None:
    scenario = load(BASE)
    assert scenario.light.dusk is None and scenario.light.sunset == 18 * 60 + 30
    assert dict(scenario.plans) == {} and dict(scenario.retreat_edges) == {}
    hold = orders_of(scenario, "cs")[0]
    assert hold == Order("cs", "hold", objective="hill", id="cs.1")


def test_dusk() -> None:
    scenario = load(edit(BASE, 'sunset = "18:30"', 'sunset = "18:30"\ndusk = "19:05"'))
    assert scenario.light.dusk == 19 * 60 + 5


@pytest.mark.parametrize(
    ("keys", "when"),
    [
        ('from = "18:00"', (Trigger("time", minute=18 * 60),)),
        ("when_enemy_within = 400", (Trigger("enemy_within", yards=400.0),)),
        ('from = "18:00"\nwhen_enemy_within = 400', (Trigger("time", minute=18 * 60), Trigger("enemy_within", yards=400.0))),
    ],
)
def test_the_older_reserve_form_is_two_orders(keys: str, when: tuple[Trigger, ...]) -> None:
    text = BASE + f'\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nobjective = "hill"\n' \
                  f'route = [[600, 400]]\nsource = "B&L"\n{keys}\n'
    reserve, release = orders_of(load(text), "us-reserve")
    assert reserve == Order("us-reserve", "reserve", objective="hill", route=((600.0, 400.0),), id="us-reserve.1",
                            source="B&L")
    assert release == Order("us-reserve", "attack", objective="hill", route=((600.0, 400.0),),
                            id="us-reserve.1-released", when=when, source="B&L", night=True)  # as before: darkness did not hold it


def test_the_older_reserve_form_without_objective_releases_to_hold_and_keeps_a_given_id() -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nid = "waiting"\nkind = "reserve"\nformation = "column"\n' \
                  'from = "18:00"\n'
    reserve, release = orders_of(load(text), "us-reserve")
    assert (reserve.id, reserve.kind, reserve.formation, reserve.when) == ("waiting", "reserve", "column", ())
    assert (release.id, release.kind, release.formation) == ("waiting-released", "hold", None)
    assert release.when == (Trigger("time", minute=18 * 60),)


def test_the_older_keys_on_other_kinds_mean_nothing_as_before() -> None:
    text = edit(BASE, 'kind = "hold"\nobjective = "hill"', 'kind = "hold"\nobjective = "hill"\nfrom = "18:00"\n'
                                                          "when_enemy_within = 300")
    (hold,) = orders_of(load(text), "cs")
    assert (hold.from_minute, hold.when_enemy_within, hold.when) == (18 * 60, 300.0, ())


def test_a_later_order_may_wait_on_a_release() -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nobjective = "hill"\nfrom = "18:00"\n' \
                  '\n[[orders]]\ncommand = "us-reserve"\nkind = "withdraw"\nwhen = { begun = "us-reserve.1-released" }\n'
    assert [o.id for o in orders_of(load(text), "us-reserve")] == ["us-reserve.1", "us-reserve.1-released", "us-reserve.2"]


def test_side_plans_and_edges() -> None:
    text = BASE + """
[plan.union]
beaten_at = 0.4
count_broken = false
break_off = [{ lost = "ford" }, { losses = 0.25, of = "us" }]
rear_guard = ["us-reserve", "blue"]
source = "Pope's report"

[plan.confederate]
break_off = { darkness = true }

[edges]
east = []
south = ["union"]
north = ["confederate", "union"]
"""
    scenario = load(text)
    assert scenario.plans["union"] == SidePlan(
        "union", beaten_at=0.4, count_broken=False, rear_guard=("us-reserve", "blue"), source="Pope's report",
        break_off=(Trigger("lost", objective="ford"), Trigger("losses", share=0.25, of="us")))
    assert scenario.plans["confederate"] == SidePlan("confederate", break_off=(Trigger("darkness"),))
    assert list(scenario.plans) == ["union", "confederate"]
    assert dict(scenario.retreat_edges) == {"north": ("confederate", "union"), "east": (), "south": ("union",)}


# ----------------------------------------------------------------------------- bad triggers


def test_a_trigger_naming_unknown_things(tmp_path: Path) -> None:
    text = BASE + """
[[orders]]
command = "us-reserve"
kind = "hold"
when = [
  { taken = "hil" },
  { losses = 0.5, of = "blu" },
  { broken = "cs2" },
  { begun = "us.2" },
]
"""
    problems = problems_of(tmp_path, text)
    assert "no objective with id 'hil'; did you mean 'hill'" in only(problems, "orders[2].when[0].taken").message
    of = only(problems, "orders[2].when[1].of")
    assert "no unit or command with id 'blu'; did you mean 'blue'" in of.message
    assert of.line == line_of(text, '{ losses = 0.5, of = "blu" }')
    assert "did you mean 'cs'" in only(problems, "orders[2].when[2].broken").message
    begun = only(problems, "orders[2].when[3].begun")
    assert "no order with id 'us.2'; did you mean 'us.1'" in begun.message
    assert begun.line == line_of(text, '{ begun = "us.2" }')
    assert len(problems) == 4


@pytest.mark.parametrize(
    ("trigger", "path", "fragments"),
    [
        ("{}", "orders[2].when", ("a trigger needs one of time, taken",)),
        ('{ of = "blue" }', "orders[2].when", ("a trigger needs one of",)),
        ('{ time = "18:00", lost = "ford" }', "orders[2].when",
         ("exactly one of", "this one has time and lost", "give an array")),
        ('{ tiem = "18:00" }', "orders[2].when.tiem", ("unknown key 'tiem'", "did you mean 'time'")),
        ('{ time = "18:00", of = "blue" }', "orders[2].when.of", ("'of' goes with losses, enemy_within or low_ammo, not time",)),
        ('{ losses = 0.5, times = 2 }', "orders[2].when.times", ("'times' goes with repulsed, not losses",)),
        ("{ darkness = false }", "orders[2].when.darkness", ("expected darkness = true",)),
        ("{ losses = 0 }", "orders[2].when.losses", ("> 0 and <= 1",)),
        ("{ low_ammo = 1.5 }", "orders[2].when.low_ammo", ("> 0 and <= 1",)),
        ("{ enemy_within = -3 }", "orders[2].when.enemy_within", ("a number > 0",)),
        ('{ repulsed = "hill", times = 0 }', "orders[2].when.times", ("a whole number >= 1",)),
        ('{ time = "6 pm" }', "orders[2].when.time", ('expected a time "HH:MM"',)),
        ('{ begun = "us 1" }', "orders[2].when.begun", ("expected an order id",)),
        ("[]", "orders[2].when", ("a non-empty array",)),
        ('"18:00"', "orders[2].when", ('expected a trigger such as { time = "11:00" }',)),
        ('["18:00"]', "orders[2].when[0]", ("expected a table",)),
    ],
)
def test_a_bad_trigger(tmp_path: Path, trigger: str, path: str, fragments: tuple[str, ...]) -> None:
    text = BASE + f'\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = {trigger}\n'
    problem(tmp_path, text, path, *fragments, line=f"when = {trigger}")


def test_a_time_outside_the_game(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = [\n  { time = "16:59" },\n  { time = "20:00" },\n]\n'
    problems = problems_of(tmp_path, text)
    before = only(problems, "orders[2].when[0].time")
    assert "16:59 is outside the game, which runs from 17:00 to 20:00: a time trigger falls at or after the start" in before.message
    assert before.line == line_of(text, '{ time = "16:59" }')
    after = only(problems, "orders[2].when[1].time")
    assert "can never fire: 20:00 is outside the game (at or after its end, 20:00)" in after.message
    assert after.line == line_of(text, '{ time = "20:00" }')


def test_the_older_reserve_form_outside_the_game(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nfrom = "21:00"\n'
    problem(tmp_path, text, "orders[2].from", "can never fire: 21:00 is outside the game", line='from = "21:00"')
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nfrom = "16:00"\n'
    problem(tmp_path, text, "orders[2].from", "16:00 is outside the game", line='from = "16:00"')


# ----------------------------------------------------------------------------- what can never fire


def test_orders_waiting_on_each_other_are_a_cycle(tmp_path: Path) -> None:
    text = BASE + """
[[orders]]
command = "us-reserve"
id = "a"
kind = "hold"
when = { begun = "b" }

[[orders]]
command = "cs"
id = "b"
kind = "withdraw"
when = [{ ended = "a" }, { time = "20:30" }]

[[orders]]
command = "cs"
id = "c"
kind = "rally"
when = { begun = "a" }
"""
    problems = problems_of(tmp_path, text)
    cycle = only(problems, "orders[2].when.begun")
    assert "orders wait on each other in a cycle: a -> b -> a" in cycle.message
    assert "none of them can ever begin" in cycle.message
    assert cycle.line == line_of(text, 'when = { begun = "b" }')
    assert "20:30 is outside the game" in only(problems, "orders[3].when[1].time").message
    assert "can never fire: order 'a' can never begin" in only(problems, "orders[4].when.begun").message
    assert len(problems) == 3  # the cycle's own triggers are not reported one by one


def test_an_order_waiting_on_itself(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = { begun = "us-reserve.1" }\n'
    problem(tmp_path, text, "orders[2].when.begun", "cycle: us-reserve.1 -> us-reserve.1")


def test_a_mutual_support_that_can_begin_is_no_cycle() -> None:
    text = BASE + """
[[orders]]
command = "us-reserve"
kind = "attack"
objective = "hill"
when = [{ begun = "cs.2" }, { time = "18:00" }]

[[orders]]
command = "cs"
kind = "withdraw"
when = { begun = "us-reserve.1" }
"""
    assert [o.id for o in load(text).orders][-2:] == ["us-reserve.1", "cs.2"]


@pytest.mark.parametrize(
    ("change", "trigger", "fragments"),
    [
        (('sunset = "18:30"\n', ""), "{ darkness = true }", ("it never gets dark: the scenario has no sunset",)),
        (('sunset = "18:30"', 'sunset = "19:45"'), "{ darkness = true }",
         ("the last light goes at 20:15, at or after the game's end (20:00)",)),
        (('sunset = "18:30"', 'sunset = "19:00"\ndusk = "20:00"'), "{ darkness = true }", ("the last light goes at 20:00",)),
    ],
)
def test_darkness_that_never_comes(tmp_path: Path, change: tuple[str, str], trigger: str, fragments: tuple[str, ...]) -> None:
    text = edit(BASE, *change) + f'\n[[orders]]\ncommand = "us-reserve"\nkind = "withdraw"\nwhen = {trigger}\n'
    problem(tmp_path, text, "orders[2].when.darkness", "this trigger can never fire", *fragments, line=f"when = {trigger}")


def test_darkness_without_a_sunset_but_with_a_dusk_may_fire() -> None:
    text = edit(BASE, 'sunset = "18:30"', 'dusk = "19:00"')
    text += '\n[[orders]]\ncommand = "us-reserve"\nkind = "withdraw"\nwhen = { darkness = true }\n'
    assert load(text).light == world.Light(sunset=None, dusk=19 * 60)


@pytest.mark.parametrize("kind", ["attack", "engage"])
def test_an_attack_is_not_begun_after_dark_unless_it_says_night(tmp_path: Path, kind: str) -> None:
    order = f'\n[[orders]]\ncommand = "us-reserve"\nkind = "{kind}"\nobjective = "hill"\n'
    text = BASE + order + 'when = [{ darkness = true }, { time = "19:10" }, { time = "18:50" }]\n'
    problems = problems_of(tmp_path, text)
    dark = only(problems, "orders[2].when[0].darkness")
    assert f"can never fire: an {kind} is not begun after dark unless it says night = true" in dark.message
    late = only(problems, "orders[2].when[1].time")
    assert "19:10 is after dark (the last light goes at 19:00)" in late.message
    assert len(problems) == 2
    assert load(BASE + order + 'night = true\nwhen = [{ darkness = true }, { time = "19:10" }]\n')


def test_waiting_on_an_order_that_never_ends(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "cs"\nkind = "withdraw"\nwhen = { ended = "cs.1" }\n'
    problem(tmp_path, text, "orders[2].when.ended", "this trigger can never fire: order 'cs.1' never ends",
            "none of the later orders of command 'cs' can begin (cs.2)",
            "the confederate side has no break_off that can fire", line='when = { ended = "cs.1" }')
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = { ended = "cs.1" }\n'
    problem(tmp_path, text, "orders[2].when.ended", "command 'cs' has no later order")


def test_an_order_ends_when_its_side_breaks_off() -> None:
    text = BASE + '\n[[orders]]\ncommand = "cs"\nkind = "withdraw"\nwhen = { ended = "cs.1" }\n'
    text += '\n[plan.confederate]\nbreak_off = [{ losses = 0.4 }]\n'
    assert orders_of(load(text), "cs")[1].when == (Trigger("ended", order="cs.1"),)
    text = BASE + '\n[plan.confederate]\nbreak_off = [{ ended = "cs.1" }]\n'  # ended only by this break-off
    with pytest.raises(InvalidInput) as caught:
        load(text)
    assert [p.path for p in caught.value.problems] == ["plan.confederate.break_off[0].ended"]


def test_a_command_without_units_can_never_fire(tmp_path: Path) -> None:
    empty = '\n[[commands]]\nid = "cs-empty"\nname = "Nobody"\nside = "confederate"\nlevel = "brigade"\n'
    text = BASE + empty + '\n[[orders]]\ncommand = "us-reserve"\nkind = "hold"\nwhen = [{ losses = 0.2, of = "cs-empty" }, ' \
                          '{ broken = "cs-empty" }]\n'
    problems = problems_of(tmp_path, text)
    assert "can never fire: command 'cs-empty' has no units" in only(problems, "orders[2].when[0].of").message
    assert "command 'cs-empty' has no units" in only(problems, "orders[2].when[1].broken").message
    text = BASE + empty + '\n[[orders]]\ncommand = "cs-empty"\nkind = "hold"\n' \
                          '\n[[orders]]\ncommand = "cs-empty"\nkind = "withdraw"\nwhen = { low_ammo = 0.5 }\n'
    problem(tmp_path, text, "orders[3].when.low_ammo", "command 'cs-empty' has no units", line="when = { low_ammo")


# ----------------------------------------------------------------------------- bad orders


def test_a_later_order_needs_a_when(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "us"\nkind = "withdraw"\n'
    problem(tmp_path, text, "orders[2].when", "missing key 'when': order 'us.2' is order 2 of command 'us' (after 'us.1')",
            "only a command's first order is in force from the start", line="[[orders]]", nth=2)


def test_duplicate_order_ids(tmp_path: Path) -> None:
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nid = "go"\nkind = "hold"\n' \
                  '\n[[orders]]\ncommand = "cs"\nid = "go"\nkind = "withdraw"\nwhen = { time = "18:00" }\n'
    problem(tmp_path, text, "orders[3].id", "duplicate order id 'go' (first at orders[2])", line='id = "go"', nth=1)
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nid = "r-released"\nkind = "hold"\n' \
                  '\n[[orders]]\ncommand = "cs"\nid = "r"\nkind = "reserve"\nfrom = "18:00"\nwhen = { time = "18:00" }\n'
    problems = problems_of(tmp_path, text)
    assert "duplicate order id 'r-released' (first at orders[2])" in only(problems, "orders[3].id").message
    assert "cannot also have 'when'" in only(problems, "orders[3].when").message


def test_a_reserve_objective_needs_the_older_release(tmp_path: Path) -> None:
    """A reserve waits where it stands; its objective is only the older form's release target, so
    without 'from' or 'when_enemy_within' it would be silently ignored: refused instead."""
    text = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nobjective = "hill"\n' \
                  'when = { time = "18:00" }\n'
    problem(tmp_path, text, "orders[2].objective", "a reserve waits where it stands", "needs 'from' or "
            "'when_enemy_within'", line='objective = "hill"', nth=2)
    older = BASE + '\n[[orders]]\ncommand = "us-reserve"\nkind = "reserve"\nobjective = "hill"\n' \
                   'from = "18:00"\nwhen = { time = "17:00" }\n'
    assert not [p for p in problems_of(tmp_path, older) if p.path == "orders[2].objective"]


@pytest.mark.parametrize(
    ("old", "new", "path", "fragments"),  # the problem stands on the line of the new text's first key
    [
        ('kind = "hold"', 'kind = "hold"\nassault = false', "orders[1].assault", ("'assault' is for attack orders, not hold",)),
        ('kind = "hold"', 'kind = "hold"\nrange = 300', "orders[1].range", ("'range' is for engage, demonstrate or attack",)),
        ('kind = "hold"', 'kind = "hold"\nnight = true', "orders[1].night", ("'night' is for attack or engage orders",)),
        ('kind = "hold"', 'kind = "hold"\nto = [0, 0]', "orders[1].to", ("'to' is for withdraw orders, not hold",)),
        ('kind = "attack"', 'kind = "attack"\nrange = 200', "orders[0].range", ("needs assault = false",)),
        ('kind = "attack"', 'kind = "attack"\nrange = 0\nassault = false', "orders[0].range", ("a number > 0",)),
        ('kind = "attack"', 'kind = "attack"\nformation = "wedge"', "orders[0].formation",
         ("unknown formation 'wedge'", "valid: line, column")),
        ('kind = "hold"', 'kind = "withdraw"\nto = [3000, 0]', "orders[1].to", ("off the map",)),
        ('kind = "hold"', 'kind = "withdraw"\nformation = "column"', "orders[1].formation", ("'formation' is for attack",)),
        ('kind = "hold"', 'kind = "hodl"', "orders[1].kind", ("did you mean 'hold'",)),
        ('kind = "attack"', 'kind = "attack"\nid = ".a"', "orders[0].id", ("expected an order id",)),
        ('kind = "attack"', 'kind = "attack"\nsource = 3', "orders[0].source", ("expected a string",)),
    ],
)
def test_a_bad_order_key(tmp_path: Path, old: str, new: str, path: str, fragments: tuple[str, ...]) -> None:
    text = edit(BASE, old, new)
    key = path.rsplit(".", 1)[1]
    offset = next(i for i, line in enumerate(new.splitlines()) if line.startswith(f"{key} ="))
    found = problem(tmp_path, text, path, *fragments)
    assert found.line == text[: text.index(new)].count("\n") + 1 + offset


def test_dusk_before_sunset(tmp_path: Path) -> None:
    text = edit(BASE, 'sunset = "18:30"', 'sunset = "18:30"\ndusk = "18:30"')
    problem(tmp_path, text, "scenario.dusk", "the last light (18:30) goes after sunset (18:30)", line='dusk = "18:30"')


# ----------------------------------------------------------------------------- bad side plans and edges


def test_bad_side_plans(tmp_path: Path) -> None:
    text = BASE + """
[plan.union]
beaten_at = 0
count_broken = "yes"
break_off = [
  { time = "21:00" },
  { lost = "fords" },
]
rear_guard = ["grey", "blu", "us-reserve"]
retreat = true

[plan.rebels]
beaten_at = 0.3
"""
    problems = problems_of(tmp_path, text)
    assert "> 0 and <= 1" in only(problems, "plan.union.beaten_at").message
    assert "true or false" in only(problems, "plan.union.count_broken").message
    late = only(problems, "plan.union.break_off[0].time")
    assert "can never fire: 21:00 is outside the game" in late.message and late.line == line_of(text, "21:00")
    assert "did you mean 'ford'" in only(problems, "plan.union.break_off[1].lost").message
    other = only(problems, "plan.union.rear_guard[0]")
    assert "'grey' is on the confederate side; a rear guard is of its own side (union)" in other.message
    assert other.line == line_of(text, "rear_guard =")
    assert "did you mean 'blue'" in only(problems, "plan.union.rear_guard[1]").message
    assert "unknown key 'retreat'" in only(problems, "plan.union.retreat").message
    rebels = only(problems, "plan.rebels")
    assert "unknown key 'rebels'" in rebels.message and "valid: union, confederate" in rebels.message
    assert rebels.line == line_of(text, "[plan.rebels]")
    assert len(problems) == 8


def test_bad_edges(tmp_path: Path) -> None:
    text = BASE + '\n[edges]\neats = ["union"]\nwest = ["union", "rebels"]\nnorth = "union"\nsouth = ["union", "union"]\n'
    problems = problems_of(tmp_path, text)
    eats = only(problems, "edges.eats")
    assert "unknown key 'eats'; did you mean 'east'" in eats.message and "valid: north, east, south, west" in eats.message
    assert eats.line == line_of(text, "eats =")
    assert "unknown side 'rebels'" in only(problems, "edges.west").message
    assert "expected an array of sides" in only(problems, "edges.north").message
    assert "distinct sides" in only(problems, "edges.south").message


# ----------------------------------------------------------------------------- properties


_ORDERS_FOR_PROPERTY = """
[[orders]]
command = "cs"
kind = "withdraw"
when = { time = "17:30" }

[[orders]]
command = "us"
kind = "hold"
when = { time = "17:05" }
"""


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans())
def test_any_valid_trigger_table_round_trips(data: st.DataObject, as_array: bool) -> None:
    table, trigger = data.draw(trigger_tables(17 * 60, 20 * 60, ["hill", "ford"], ["us", "us-reserve", "cs", "blue", "grey"],
                                              ["us.1", "cs.1", "cs.2"], ["cs.1"]))
    raw = tomllib.loads(BASE + _ORDERS_FOR_PROPERTY)
    raw["orders"][-1]["when"] = [table] if as_array else table
    (_, hold) = orders_of(load(to_toml(raw)), "us")
    assert hold.when == (trigger,)


@given(st.lists(st.sampled_from(["us", "cs"]), min_size=1, max_size=8))
def test_ids_count_each_commands_orders_from_one(commands: list[str]) -> None:
    raw = minimal_scenario()
    raw["orders"] = [{"command": c, "kind": "hold", **({"when": {"time": "10:30"}} if c in commands[:i] else {})}
                     for i, c in enumerate(commands)]
    ids = [o.id for o in parse_scenario(to_toml(raw)).orders]
    assert ids == [f"{c}.{commands[:i + 1].count(c)}" for i, c in enumerate(commands)]


# ----------------------------------------------------------------------------- bundled files and the docs


_OLD_ORDER_KEYS = {"command", "kind", "objective", "route", "from", "when_enemy_within"}


@pytest.mark.parametrize("sid", [sid for sid, _, _ in bundled()])
def test_bundled_orders_read_as_before(sid: str) -> None:
    """Orders written in the older format keep their meaning: the same order with an id and the
    new keys at their defaults, and a reserve with from/when_enemy_within followed by its release."""
    path = find_scenario(sid)
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    loaded = iter(load_scenario(path).orders)
    counts: dict[str, int] = {}
    for table in raw.get("orders", []):
        giver = table.get("command", table.get("unit"))  # an order to one unit is new-format
        counts[giver] = n = counts.get(giver, 0) + 1
        order = next(loaded)
        expands = table["kind"] == "reserve" and bool({"from", "when_enemy_within"} & set(table))
        if not set(table) <= _OLD_ORDER_KEYS:  # written in the new format
            if expands:
                next(loaded)
            continue
        from_minute = _minutes(table["from"]) if "from" in table else None
        old = Order(table["command"], table["kind"], table.get("objective"), tuple(map(tuple, table.get("route", []))),
                    from_minute, table.get("when_enemy_within"), id=f"{table['command']}.{n}")
        if not expands:
            assert order == old
            continue
        assert order == Order(old.command, "reserve", old.objective, old.route, id=old.id)
        when = ((Trigger("time", minute=from_minute),) if from_minute is not None else ()) + (
            (Trigger("enemy_within", yards=old.when_enemy_within),) if old.when_enemy_within is not None else ())
        assert next(loaded) == Order(old.command, "attack" if old.objective else "hold", old.objective, old.route,
                                     id=f"{old.id}-released", when=when, night=True)
    assert next(loaded, None) is None


def _minutes(hh_mm: str) -> int:
    hours, minutes = hh_mm.split(":")
    return int(hours) * 60 + int(minutes)


def _examples() -> list[str]:
    """The TOML of each "complete example" in docs/scenario-format.md."""
    text = DOCS.read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.MULTILINE)
    examples = [section for section in sections if section.startswith(("A complete example", "A second complete example", "A third complete example"))]
    return [block for section in examples for block in re.findall(r"```toml\n(.*?)```", section, re.DOTALL)]


def test_the_docs_have_three_complete_examples() -> None:
    assert len(_examples()) == 3


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_complete_examples_in_the_docs_load(index: int) -> None:
    scenario = parse_scenario(_examples()[index], "docs/scenario-format.md")
    assert scenario.orders and scenario.victory.end > scenario.start


def test_the_plan_example_shows_a_plan_with_conditions() -> None:
    scenario = parse_scenario(_examples()[1], "docs/scenario-format.md")
    kinds = {t.kind for o in scenario.orders for t in o.when} | {t.kind for p in scenario.plans.values() for t in p.break_off}
    assert {"time", "losses"} <= kinds
    assert any(p.break_off for p in scenario.plans.values())
    assert any(set(sides) != set(scenario.sides) for sides in scenario.retreat_edges.values())
    assert any(o.kind == "withdraw" and o.when for o in scenario.orders)


def test_the_third_example_is_the_concerted_assault_drill() -> None:
    scenario = parse_scenario(_examples()[2], "docs/scenario-format.md")
    groups = [o.together for o in scenario.orders if o.together]
    assert len(groups) == 2 and len(set(groups)) == 1
    drill = DOCS.parent.parent / "tests" / "scenarios" / "drill-together.toml"
    assert _examples()[2] == drill.read_text(encoding="utf-8")


def test_a_bad_plan_exits_with_code_2_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BASE + '\n[[orders]]\ncommand = "us"\nkind = "withdraw"\nwhen = { begun = "us.9" }\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--rules", "rff", "--quiet"])
    assert result.exit_code == 2
    assert "orders[2].when.begun" in result.output and "no order with id 'us.9'" in result.output
    assert "Traceback" not in result.output


# ----------------------------------------------------------------------------- concerted assaults

RESERVE_ATTACK = '\n[[orders]]\ncommand = "us-reserve"\nkind = "attack"\nobjective = "hill"\ntogether = "grand-charge"\n'
TOGETHER = edit(BASE, 'kind = "attack"\nobjective = "hill"', 'kind = "attack"\nobjective = "hill"\ntogether = "grand-charge"')


def test_attack_orders_naming_one_group_read_as_a_concerted_assault() -> None:
    scenario = load(TOGETHER + RESERVE_ATTACK)
    assert [o.together for o in scenario.orders] == ["grand-charge", "", "grand-charge"]
    assert all(o.together == "" for o in load(BASE).orders)


def test_a_group_of_one_order_is_refused(tmp_path: Path) -> None:
    problem(tmp_path, TOGETHER, "orders[0].together", "'grand-charge' is named by this order only",
            "two commands or units or more", line='together = "grand-charge"')


def test_a_group_on_an_order_that_is_not_an_attack_is_refused(tmp_path: Path) -> None:
    text = TOGETHER + RESERVE_ATTACK.replace('kind = "attack"\nobjective = "hill"', 'kind = "hold"')
    problem(tmp_path, text, "orders[2].together", "'together' is for attack orders, not hold",
            line='together = "grand-charge"', nth=1)


def test_a_group_on_an_attack_without_the_bayonet_is_refused(tmp_path: Path) -> None:
    text = TOGETHER + RESERVE_ATTACK.replace("together", "assault = false\ntogether")
    problem(tmp_path, text, "orders[2].together", "needs an attack with assault = true", line='together = "grand-charge"', nth=1)


def test_a_group_name_that_is_not_an_id_is_refused(tmp_path: Path) -> None:
    text = TOGETHER.replace('"grand-charge"', '"grand charge!"') + RESERVE_ATTACK
    problem(tmp_path, text, "orders[0].together", "expected an id", "'grand charge!'", line='together = "grand charge!"')


def test_a_group_of_both_sides_is_refused(tmp_path: Path) -> None:
    text = TOGETHER + RESERVE_ATTACK + '\n[[orders]]\ncommand = "cs"\nkind = "attack"\nobjective = "ford"\n' \
                                       'together = "grand-charge"\nwhen = { time = "18:00" }\n'
    problem(tmp_path, text, "orders[3].together", "named by orders of both sides", line='together = "grand-charge"', nth=2)


def test_a_bad_group_exits_with_code_2_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TOGETHER, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--rules", "rff", "--quiet"])
    assert result.exit_code == 2
    assert "orders[0].together" in result.output and "named by this order only" in result.output
    assert str(path) in result.output and "Traceback" not in result.output
