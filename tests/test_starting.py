"""Scenarios seen before they are played (issue 25): ``referee scenarios --path``, ``referee
new-scenario`` and ``referee check``."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from referee.core.cli.cli import main
from referee.core.cli.schemas import SCHEMAS, problems
from referee.core.engine.plugins import installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario


def referee(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture()
def here(tmp_path: Path) -> Iterator[Path]:
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


def test_scenarios_path_gives_each_bundled_file() -> None:
    result = referee("scenarios", "--path")
    assert result.exit_code == 0, result.output
    rows = dict(line.split("\t") for line in result.stdout.splitlines())
    assert set(rows) == {sid for sid, _, _ in bundled()}
    for sid, path in rows.items():
        assert load_scenario(Path(path)).id == sid


@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_a_new_scenario_plays_as_it_stands(here: Path, ruleset: str) -> None:
    made = referee("new-scenario", "my-battle", "--title", "My battle")
    assert made.exit_code == 0, made.output
    text = (here / "my-battle.toml").read_text(encoding="utf-8")
    assert text.count("\n#") >= 10  # commented
    played = referee("run", "my-battle.toml", "--rules", ruleset, "--json")
    assert played.exit_code == 0, played.output
    outcome = json.loads(played.stdout)
    assert outcome["scenario"] == "my-battle" and outcome["minutes"] > 0


def test_a_new_scenario_from_a_bundled_one_is_a_copy_with_its_name(here: Path) -> None:
    assert referee("new-scenario", "my-bethel", "--from", "big-bethel", "-o", "b.toml").exit_code == 0
    world = load_scenario(here / "b.toml")
    assert world.id == "my-bethel" and world.title.startswith("Big Bethel") and len(world.units) > 10


@pytest.mark.parametrize("args, said", [(("new-scenario", "My Battle"), "lower-case"),
                                        (("new-scenario", "x", "--from", "big-bethl"), "did you mean 'big-bethel'"),
                                        (("new-scenario", "x", "-o", "/nonexistent/x.toml"), "does not exist")])
def test_new_scenario_refuses_bad_names(here: Path, args: tuple[str, ...], said: str) -> None:
    result = referee(*args)
    assert result.exit_code == 2 and said in result.stderr, result.output


def test_new_scenario_never_replaces_a_file(here: Path) -> None:
    (here / "mine.toml").write_text("precious", encoding="utf-8")
    result = referee("new-scenario", "mine")
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert (here / "mine.toml").read_text(encoding="utf-8") == "precious"


@pytest.mark.parametrize("scenario", ["big-bethel", "drill-charge-battery"])
def test_check_says_what_every_ruleset_makes_of_every_unit(scenario: str) -> None:
    result = referee("check", scenario, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert problems(data, SCHEMAS["check"]) == []
    world = load_scenario(find_scenario(scenario))
    assert set(data["rulesets"]) == set(installed())
    for name, units in data["rulesets"].items():
        assert list(units) == [u.id for u in world.units]
        assert all(units.values()), (name, units)  # every bundled unit is put on the table by every ruleset
    assert data["rulesets"]["rff"][world.units[0].id].split()[1] == "stands"
    assert "figures" in data["rulesets"]["sumter"][world.units[0].id]
    assert "compan" in data["rulesets"]["hardtack"][world.units[0].id]


def test_check_lists_every_problem_of_a_bad_file_without_playing(here: Path) -> None:
    referee("new-scenario", "bad")
    path = here / "bad.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('experience = "green"', 'experience = "gren"')
                    .replace("men = 450", "men = -3"), encoding="utf-8")
    result = referee("check", "bad.toml")
    assert result.exit_code == 2
    assert "2 problems" in result.stderr and "did you mean 'green'" in result.stderr and "units[3].men" in result.stderr


def test_check_prints_a_table_that_keeps_every_word() -> None:
    result = referee("check", "drill-charge-battery", "--width", "60")
    assert result.exit_code == 0, result.output
    assert "valid." in result.stdout and "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines() if line.startswith(("|", "+"))) <= 60
