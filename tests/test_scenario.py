"""Scenario loading: bundled files, every kind of user mistake, and properties of the format."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee.core.engine.errors import InvalidInput, Problem, UnknownName
from referee.core.engine.ground import Ground
from referee.core.engine.world import Scenario, World, angle_between
from referee.core.input.scenario import (
    bundled,
    find_scenario,
    key_lines,
    load_scenario,
    parse_scenario,
)
from strategies import clock, minimal_scenario, minutes, to_toml, unit_tables

BUNDLED = ("big-bethel", "brawners-farm", "drill-cavalry", "drill-charge-battery", "drill-musketry", "kernstown", "valverde")

MINI = """\
[scenario]
id = "mini"
title = "Mini"
date = "1863-07-01"
summary = "A tiny test."
start = "10:00"
width = 1000
height = 800
sides = ["union", "confederate"]

[[commands]]
id = "us"
name = "Union brigade"
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
position = [500, 300]
facing = 0
formation = "line"
weapon = "rifle-musket"

[[units]]
id = "grey"
name = "Grey regiment"
command = "cs"
arm = "infantry"
men = 500
position = [500, 500]
facing = 180
formation = "line"
weapon = "rifle-musket"

[[objectives]]
id = "hill"
name = "the hill"
position = [500, 400]
radius = 100

[[orders]]
command = "us"
kind = "attack"
objective = "hill"

[victory]
end = "10:45"
objectives = ["hill"]
"""


# ----------------------------------------------------------------------------- helpers


def edit(text: str, old: str, new: str, count: int = 1) -> str:
    """Replace the first ``count`` occurrences of ``old``, which must be there."""
    assert text.count(old) >= count, f"{old!r} not in the text {count} time(s)"
    return text.replace(old, new, count)


def line_of(text: str, fragment: str, nth: int = 0) -> int:
    """The 1-based line number of the ``nth`` line containing ``fragment``."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if fragment in line]
    return hits[nth]


def problems_of(tmp_path: Path, text: str) -> tuple[Problem, ...]:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        load_scenario(path)
    assert caught.value.what == f"scenario {path}"
    assert all(p.source == str(path) for p in caught.value.problems)
    return caught.value.problems


def only(problems: tuple[Problem, ...], path: str) -> Problem:
    hits = [p for p in problems if p.path == path]
    assert len(hits) == 1, f"expected one problem at {path}, got {[str(p) for p in problems]}"
    return hits[0]


# ----------------------------------------------------------------------------- bundled


@pytest.mark.parametrize("sid", BUNDLED)
def test_every_bundled_scenario_loads(sid: str) -> None:
    path = find_scenario(sid)
    scenario = load_scenario(path)
    assert scenario.id == sid == path.stem
    assert scenario.source == str(path)
    assert {u.side for u in scenario.units} == set(scenario.sides)
    assert scenario.victory.end > scenario.start
    game = World.start(scenario)
    assert set(game.units) == {u.id for u in scenario.units}


def test_bundled_lists_every_scenario_sorted_with_one_line_summaries() -> None:
    rows = bundled()
    assert [sid for sid, _, _ in rows] == sorted(BUNDLED)
    for sid, title, summary in rows:
        assert title and summary and "\n" not in summary
        assert summary.endswith(".")
    assert {sid: s for sid, _, s in rows}["big-bethel"].startswith("A Federal column")


def test_big_bethel_follows_the_facts() -> None:
    s = load_scenario(find_scenario("big-bethel"))
    men = {side: sum(u.men for u in s.units if u.side == side) for side in s.sides}
    assert 3500 <= men["union"] <= 4518
    assert 1400 <= men["confederate"] <= 1670
    assert s.historical is not None
    assert s.historical.winner == "confederate"
    assert dict(s.historical.men_lost) == {"union": 76, "confederate": 8}
    assert dict(s.historical.guns_lost) == {"union": 0, "confederate": 0}
    assert s.start == 9 * 60 and s.victory.end == 13 * 60 + 30
    assert dict(s.home_edges) == {"union": 180.0, "confederate": 0.0}
    deployed, zouaves = [o for o in s.orders if o.command == "us-duryee"]
    assert deployed.kind == "hold" and not deployed.when  # the artillery duel, from the start
    assert zouaves.kind == "attack" and len(zouaves.route) >= 2 and zouaves.when[0].minute == 10 * 60
    union = s.plans["union"]
    assert {t.kind for t in union.break_off} == {"repulsed", "low_ammo"} and union.rear_guard == ("us-allen", "us-carr")
    assert {"bridge", "works-left", "forward-gun"} <= {o.id for o in s.objectives}
    assert all(o.held_by == "confederate" for o in s.objectives if o.id != "hampton-road")
    pursuit = next(o for o in s.orders if o.id == "cs-cavalry-pursues")  # FACTS D.1: the cavalry pursued
    assert pursuit.objective == "hampton-road" and [t.kind for t in pursuit.when] == ["enemy_broke_off"]


def test_big_bethels_company_a_stands_in_the_woods() -> None:
    """BB-S5 and Hill put the 1st NC's Company A inside the woods east of the road: the ground
    every ruleset reads must say woods there, not the fields at the woods' corner."""
    s = load_scenario(find_scenario("big-bethel"))
    company = next(u for u in s.units if u.id == "1st-nc-a")
    assert Ground(s).kind_at(*company.position) == "woods"


def test_find_scenario_takes_paths_as_they_are(tmp_path: Path) -> None:
    assert find_scenario("some/where.toml") == Path("some/where.toml")
    assert find_scenario("local.toml") == Path("local.toml")
    assert find_scenario(str(tmp_path / "x")) == tmp_path / "x"


def test_unknown_scenario_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownName) as caught:
        find_scenario("big-betel")
    assert caught.value.kind == "scenario"
    assert "did you mean 'big-bethel'" in str(caught.value)
    assert "drill-musketry" in caught.value.choices


def test_missing_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such file"):
        load_scenario(tmp_path / "nothing.toml")


def test_the_minimal_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(MINI, encoding="utf-8")
    s = load_scenario(path)
    assert s.units[0].side == "union"  # from its command
    assert s.units[0].experience == "trained"  # the default
    assert s.light.weather == "clear" and s.light.sunset is None
    assert s.victory.beaten_at == 0.5


# ----------------------------------------------------------------------------- bad input


def test_syntax_error_gives_its_line(tmp_path: Path) -> None:
    text = edit(MINI, "men = 500", "men = = 500")
    (problem,) = problems_of(tmp_path, text)
    assert problem.line == line_of(text, "men = = 500")
    assert "TOML syntax error" in problem.message and "(at line" not in problem.message
    assert f"bad.toml:{problem.line}" in str(problem)


def test_unknown_key_suggests_the_valid_one(tmp_path: Path) -> None:
    text = edit(MINI, "men = 500", "mne = 500")
    problems = problems_of(tmp_path, text)
    typo = only(problems, "units[0].mne")
    assert "did you mean 'men'" in typo.message
    assert typo.line == line_of(text, "mne = 500")
    missing = only(problems, "units[0].men")
    assert "missing key 'men'" in missing.message
    assert missing.line == line_of(text, "[[units]]")  # the table the key is missing from


def test_unknown_top_level_table(tmp_path: Path) -> None:
    problems = problems_of(tmp_path, MINI + "\n[victroy]\nend = \"11:00\"\n")
    assert "did you mean 'victory'" in only(problems, "victroy").message


@pytest.mark.parametrize(
    ("old", "new", "path", "hint"),
    [
        ('weapon = "rifle-musket"', 'weapon = "rifle-muskett"', "units[0].weapon", "did you mean 'rifle-musket'"),
        ('arm = "infantry"', 'arm = "infantery"', "units[0].arm", "did you mean 'infantry'"),
        ('formation = "line"', 'formation = "lines"', "units[0].formation", "did you mean 'line'"),
        ('level = "brigade"', 'level = "brigadier"', "commands[0].level", "did you mean 'brigade'"),
        ('kind = "attack"', 'kind = "atack"', "orders[0].kind", "did you mean 'attack'"),
        ('sides = ["union", "confederate"]', 'sides = ["union", "rebels"]', "scenario.sides",
         "valid: union, confederate"),
    ],
)
def test_bad_enum_value_names_the_valid_ones(tmp_path: Path, old: str, new: str, path: str, hint: str) -> None:
    text = edit(MINI, old, new)
    problem = only(problems_of(tmp_path, text), path)
    assert hint in problem.message
    assert problem.line == line_of(text, new)


@pytest.mark.parametrize("men", ["-5", "0", "12.5", '"many"', "true"])
def test_men_must_be_a_positive_whole_number(tmp_path: Path, men: str) -> None:
    text = edit(MINI, "men = 500", f"men = {men}")
    problem = only(problems_of(tmp_path, text), "units[0].men")
    assert "whole number >= 1" in problem.message
    assert problem.line == line_of(text, f"men = {men}")


def test_unit_off_the_map(tmp_path: Path) -> None:
    text = edit(MINI, "position = [500, 500]", "position = [500, 900]")
    problem = only(problems_of(tmp_path, text), "units[1].position")
    assert "off the map" in problem.message and "y 0..800" in problem.message
    assert problem.line == line_of(text, "position = [500, 900]")


def test_leader_and_objective_off_the_map(tmp_path: Path) -> None:
    text = edit(MINI, "position = [500, 400]", "position = [-1, 400]")
    text += '\n[[leaders]]\nid = "meade"\nname = "Meade"\ncommand = "us"\nposition = [1001, 0]\n'
    problems = problems_of(tmp_path, text)
    assert "off the map" in only(problems, "objectives[0].position").message
    assert "off the map" in only(problems, "leaders[0].position").message


def test_dangling_command_reference(tmp_path: Path) -> None:
    text = edit(MINI, 'command = "cs"', 'command = "cs2"')
    problem = only(problems_of(tmp_path, text), "units[1].command")
    assert "no command with id 'cs2'" in problem.message and "did you mean 'cs'" in problem.message
    assert problem.line == line_of(text, 'command = "cs2"')


def test_dangling_references_everywhere(tmp_path: Path) -> None:
    text = edit(MINI, 'objective = "hill"', 'objective = "hil"')
    text = edit(text, 'objectives = ["hill"]', 'objectives = ["hill", "ridge"]')
    text = edit(text, 'level = "brigade"', 'level = "brigade"\nparent = "army"')
    text += '\n[[leaders]]\nid = "lee"\nname = "Lee"\ncommand = "anv"\nattached_to = "gray"\n'
    problems = problems_of(tmp_path, text)
    assert "did you mean 'hill'" in only(problems, "orders[0].objective").message
    assert "'ridge'" in only(problems, "victory.objectives[1]").message
    assert "no command with id 'army'" in only(problems, "commands[0].parent").message
    assert "no command with id 'anv'" in only(problems, "leaders[0].command").message
    assert "did you mean 'grey'" in only(problems, "leaders[0].attached_to").message


def test_duplicate_ids(tmp_path: Path) -> None:
    text = edit(MINI, 'id = "grey"', 'id = "blue"')
    problem = only(problems_of(tmp_path, text), "units[1].id")
    assert "duplicate unit id 'blue' (first at units[0])" in problem.message


@pytest.mark.parametrize("bad", ['"9 o\'clock"', '"25:00"', '"10:60"', "1000", '"1000"'])
def test_bad_time(tmp_path: Path, bad: str) -> None:
    text = edit(MINI, 'start = "10:00"', f"start = {bad}")
    problem = only(problems_of(tmp_path, text), "scenario.start")
    assert 'expected a time "HH:MM"' in problem.message
    assert problem.line == line_of(text, f"start = {bad}")


def test_toml_local_times_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(edit(MINI, 'start = "10:00"', "start = 10:00:00"), encoding="utf-8")
    assert load_scenario(path).start == 600


def test_end_before_start(tmp_path: Path) -> None:
    text = edit(MINI, 'end = "10:45"', 'end = "09:30"')
    assert "must end after it starts (10:00)" in only(problems_of(tmp_path, text), "victory.end").message


def test_entry_and_release_inside_the_game(tmp_path: Path) -> None:
    text = edit(MINI, 'weapon = "rifle-musket"', 'weapon = "rifle-musket"\nentry = "09:00"')
    text = edit(text, 'objective = "hill"', 'objective = "hill"\nfrom = "11:00"')
    problems = problems_of(tmp_path, text)
    assert "outside the game" in only(problems, "units[0].entry").message
    assert "outside the game" in only(problems, "orders[0].from").message


def test_sides_must_be_the_two_that_have_units(tmp_path: Path) -> None:
    text = edit(MINI, 'command = "cs"', 'command = "us"')
    problem = only(problems_of(tmp_path, text), "scenario.sides")
    assert "'confederate' has no units" in problem.message


def test_unit_side_must_match_its_command(tmp_path: Path) -> None:
    text = edit(MINI, 'command = "cs"', 'side = "union"\ncommand = "cs"')
    assert "its command 'cs' is confederate" in only(problems_of(tmp_path, text), "units[1].side").message


def test_arms_need_their_own_equipment(tmp_path: Path) -> None:
    text = edit(MINI, 'arm = "infantry"', 'arm = "artillery"')  # blue: artillery with a weapon, no guns
    # grey: guns and no weapon
    text = edit(text, 'weapon = "rifle-musket"\n\n[[objectives]]', 'guns = 2\n\n[[objectives]]')
    problems = problems_of(tmp_path, text)
    assert "needs the number of guns" in only(problems, "units[0].guns").message
    assert "gun_type" in only(problems, "units[0].gun_type").message
    assert "not 'weapon'" in only(problems, "units[0].weapon").message
    assert "cannot be in formation 'line'" in only(problems, "units[0].formation").message
    assert "infantry has no guns" in only(problems, "units[1].guns").message
    assert "needs one of" in only(problems, "units[1].weapon").message


def test_shapes_need_enough_points(tmp_path: Path) -> None:
    text = MINI + '\n[[areas]]\nkind = "woods"\npolygon = [[0, 0], [10, 0]]\n'
    text += '\n[[features]]\nkind = "road"\npoints = [\n  [0, 0],\n]\n'
    problems = problems_of(tmp_path, text)
    assert "at least 3 points" in only(problems, "areas[0].polygon").message
    feature = only(problems, "features[0].points")
    assert "at least 2 points" in feature.message
    assert feature.line == line_of(text, "points = [")


def test_parent_command_on_the_same_side(tmp_path: Path) -> None:
    text = edit(MINI, 'level = "brigade"', 'level = "army"')
    text = edit(text, 'side = "confederate"\nlevel = "brigade"', 'side = "confederate"\nlevel = "brigade"\nparent = "us"')
    problem = only(problems_of(tmp_path, text), "commands[1].parent")
    assert "on the union side" in problem.message


def test_command_levels_must_descend(tmp_path: Path) -> None:
    text = edit(MINI, 'side = "union"\nlevel = "brigade"', 'side = "union"\nlevel = "army"\nparent = "us2"')
    text += '\n[[commands]]\nid = "us2"\nname = "Union division"\nside = "union"\nlevel = "division"\nparent = "us"\n'
    problems = problems_of(tmp_path, text)
    assert "an army cannot be under a division" in only(problems, "commands[0].parent").message
    assert "'us2' is its own ancestor" in only(problems, "commands[2].parent").message  # us2 > us > us2


def test_historical_losses_are_checked(tmp_path: Path) -> None:
    text = MINI + ('\n[historical]\nwinner = "union"\n[historical.men_lost]\nunion = 600\nconfederate = -1\n'
                   "[historical.guns_lost]\nunion = 0\n")
    problems = problems_of(tmp_path, text)
    assert "only 500" in only(problems, "historical.men_lost.union").message
    assert ">= 0" in only(problems, "historical.men_lost.confederate").message
    assert "missing key 'confederate'" in only(problems, "historical.guns_lost.confederate").message


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = edit(MINI, "men = 500", "men = -5")
    text = edit(text, 'command = "cs"', 'command = "nobody"')
    text = edit(text, 'start = "10:00"', 'start = "ten"')
    text = edit(text, "facing = 180", "facing = 180\ncolour = \"grey\"")
    text = edit(text, "position = [500, 500]", "position = [5000, 500]")
    problems = problems_of(tmp_path, text)
    paths = {p.path for p in problems}
    assert {"units[0].men", "units[1].command", "scenario.start", "units[1].colour", "units[1].position"} <= paths
    assert all(p.line is not None for p in problems)
    message = str(InvalidInput(problems, "scenario x"))
    assert f"{len(problems)} problems" in message


def test_non_table_shapes_are_problems_not_tracebacks(tmp_path: Path) -> None:
    text = MINI.replace("[[orders]]\ncommand = \"us\"\nkind = \"attack\"\nobjective = \"hill\"\n", "")
    text = "orders = 3\nhome_edges = 5\n" + text
    problems = problems_of(tmp_path, text)
    assert "array of tables" in only(problems, "orders").message
    assert "expected a table" in only(problems, "home_edges").message


def test_empty_file(tmp_path: Path) -> None:
    paths = {p.path for p in problems_of(tmp_path, "")}
    assert {"scenario", "victory"} <= paths


# ----------------------------------------------------------------------------- key lines


def test_key_lines_skip_multi_line_values() -> None:
    text = (
        'a = [\n  [1, 2],\n  [3, 4],\n]\n'
        's = """\n[not]\nx = 1\n"""\n'
        '[[t]]\nk = "]"  # ]\n[[t]]\nk = 2\n[u.v]\nw = 1\n'
    )
    lines = key_lines(text)
    assert lines == {"a": 1, "a[0]": 2, "a[1]": 3, "s": 5, "t[0]": 9, "t[0].k": 10, "t[1]": 11, "t[1].k": 12,
                     "u.v": 13, "u.v.w": 14}


def test_key_lines_find_each_inline_table_of_an_array() -> None:
    text = (
        'when = [{ time = "11:00" }, { lost = "x" },\n'
        '  { losses = 0.3, of = "b" },  # { not one\n'
        '  { broken = "[c]" }]\n'
        'route = [[1, 2]]\n'
        'one = { time = "11:00", to = [1, 2] }\n'
        'names = ["a", "b"]\n'
    )
    lines = key_lines(text)
    assert lines == {"when": 1, "when[0]": 1, "when[1]": 1, "when[2]": 2, "when[3]": 3, "route": 4,
                     "route[0]": 4, "one": 5, "names": 6}


# ----------------------------------------------------------------------------- properties


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_valid_unit_table_round_trips(data: st.DataObject) -> None:
    table = data.draw(unit_tables("us").filter(lambda t: t["id"] not in ("blue", "grey")))
    raw = minimal_scenario()
    raw["units"].append(table)
    unit = parse_scenario(to_toml(raw)).unit(table["id"])
    assert (unit.name, unit.command, unit.side, unit.arm, unit.men) == (
        table["name"], "us", "union", table["arm"], table["men"])
    assert unit.position == tuple(table["position"])
    assert 0 <= unit.facing < 360
    assert angle_between(unit.facing, table["facing"] % 360.0) == pytest.approx(0, abs=1e-9)
    assert (unit.formation, unit.experience) == (table["formation"], table["experience"])
    assert (unit.weapon, unit.guns, unit.gun_type) == (
        table.get("weapon"), table.get("guns", 0), table.get("gun_type"))
    assert unit.mounted == table.get("mounted", table["arm"] == "cavalry")


@given(unit_tables("cs"), st.integers(max_value=0))
def test_any_unit_without_men_is_rejected(table: dict, men: int) -> None:
    table = {**table, "id": "extra", "men": men}
    raw = minimal_scenario()
    raw["units"].append(table)
    with pytest.raises(InvalidInput) as caught:
        parse_scenario(to_toml(raw))
    assert [p.path for p in caught.value.problems] == ["units[2].men"]


_LAST = 23 * 60 + 59
_start_end = st.integers(0, _LAST - 1).flatmap(lambda s: st.tuples(st.just(s), st.integers(s + 1, _LAST)))


@given(_start_end)
def test_times_read_as_minutes_since_midnight(times: tuple[int, int]) -> None:
    start, end = times
    raw = minimal_scenario(start, end)
    scenario = parse_scenario(to_toml(raw))
    assert (scenario.start, scenario.victory.end) == (start, end)
    assert (clock(scenario.start), clock(scenario.victory.end)) == (raw["scenario"]["start"], raw["victory"]["end"])


@given(minutes, minutes)
def test_a_game_never_ends_before_it_starts(start: int, end: int) -> None:
    raw = minimal_scenario(start, end)
    if end > start:
        assert parse_scenario(to_toml(raw)).victory.end == end
        return
    with pytest.raises(InvalidInput) as caught:
        parse_scenario(to_toml(raw))
    assert [p.path for p in caught.value.problems] == ["victory.end"]


@functools.cache
def _big_bethel() -> Scenario:
    return load_scenario(find_scenario("big-bethel"))


@given(x=st.floats(-5000, 8000, allow_nan=False), y=st.floats(-5000, 8000, allow_nan=False))
def test_a_place_is_held_on_the_table(x: float, y: float) -> None:
    """Scenario.on_table clamps each coordinate to the table's edges and leaves a place on it as it is."""
    scenario = _big_bethel()
    held = scenario.on_table(x, y)
    assert held == (min(max(x, 0.0), scenario.width), min(max(y, 0.0), scenario.height))
    assert 0.0 <= held[0] <= scenario.width and 0.0 <= held[1] <= scenario.height
