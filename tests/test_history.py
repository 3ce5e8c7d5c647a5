"""`referee history`: the verdict at its boundaries and against the percentile definitions, the
rows it collects from outcomes, its JSON and table, the same numbers whatever the worker count,
Ctrl-C, bad input, and the script that regenerates docs/history.md."""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path
from typing import Any

import pytest
import referee.core.studies.compare as compare_module
from attrs import evolve
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from referee.core.cli import cli
from referee.core.cli.cli import main
from referee.core.engine.game import Outcome
from referee.core.engine.plugins import installed
from referee.core.engine.world import Historical
from referee.core.input.scenario import find_scenario, load_scenario
from referee.core.studies.history import broke_off_text, men_lost_inside, row, spread
from referee.core.studies.stats import percentile, percentile_rank, verdict
from rich.console import Console
from scripts import load_script
from strategies import loss_samples, minimal_scenario, to_toml

SIDES = ("union", "confederate")
CELL_KEYS = ["p10", "p50", "p90", "history", "percentile", "verdict"]
ROW_KEYS = ["scenario", "title", "ruleset", "replications", "winner", "men_lost", "guns_lost", "minutes", "broke_off"]
TRICKY_TITLE = "Skirmish at [/] the [bold]ford[/bold] [link=x]"  # Rich markup that fails or vanishes unless escaped


def ctrl_c() -> None:
    """The user presses Ctrl-C: a real SIGINT to this process (its handler stops the run)."""
    os.kill(os.getpid(), signal.SIGINT)
    raise AssertionError("the interrupt did not stop the run")


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "out", Console(highlight=False, soft_wrap=True, width=250))


def referee(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def user_error(result: Result, *must_say: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    message = result.stderr.split("Error:", 1)[1].strip()
    assert message and "\n\n" not in message, message
    for words in must_say:
        assert words in message, (words, message)


@pytest.fixture
def skirmish(tmp_path: Path) -> Path:
    """A tiny scenario with a historical record and a title full of Rich markup."""
    data = minimal_scenario()
    data["scenario"]["id"] = "skirmish"
    data["scenario"]["title"] = TRICKY_TITLE
    data["historical"] = {"winner": "draw", "minutes": 30, "men_lost": {"union": 40, "confederate": 35},
                          "guns_lost": {"union": 0, "confederate": 0}}
    path = tmp_path / "skirmish.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- the verdict


@pytest.mark.parametrize(("x", "expected"), [
    (10.0, "inside"), (30.0, "inside"), (20.0, "inside"),  # both bounds belong to the band
    (math.nextafter(10.0, -math.inf), "below"), (math.nextafter(30.0, math.inf), "above"),
    (-5.0, "below"), (1e9, "above"),
])
def test_verdict_at_the_boundaries(x: float, expected: str) -> None:
    assert verdict(x, 10.0, 30.0) == expected


def test_verdict_of_a_band_of_one_value() -> None:
    assert [verdict(x, 0, 0) for x in (-1, 0, 1)] == ["below", "inside", "above"]


@given(loss_samples, st.integers(min_value=-10, max_value=1_000_010))
def test_the_verdict_agrees_with_the_percentiles(values: list[int], x: int) -> None:
    cell = spread(values, x)
    p10, p90 = percentile(values, 10), percentile(values, 90)
    assert cell["p10"] == round(p10, 3) and cell["p90"] == round(p90, 3)
    expected = "below" if x < cell["p10"] else "above" if x > cell["p90"] else "inside"
    assert cell["verdict"] == expected
    # what the percentiles imply about the sample itself
    if x < min(values):
        assert cell["verdict"] == "below" and cell["percentile"] == 0
    if x > max(values):
        assert cell["verdict"] == "above" and cell["percentile"] == 100
    if x == round(percentile(values, 50), 3):
        assert cell["verdict"] == "inside"
    assert cell["percentile"] == round(percentile_rank(values, x), 1)


@given(loss_samples, st.integers(min_value=0, max_value=1_000_000), st.integers(min_value=0, max_value=1_000_000))
def test_the_verdict_never_goes_down_as_history_goes_up(values: list[int], a: int, b: int) -> None:
    order = {"below": 0, "inside": 1, "above": 2}
    low, high = sorted((a, b))
    assert order[spread(values, low)["verdict"]] <= order[spread(values, high)["verdict"]]


# ----------------------------------------------------------------------------- rows from outcomes


def outcome(winner: str | None, men: tuple[int, int], guns: tuple[int, int], minutes: int,
            broke_off: str | None = None) -> Outcome:
    return Outcome(ruleset="rff", scenario="skirmish", seed=0, winner=winner, reason="", minutes=minutes, turns=1,
                   men_lost=dict(zip(SIDES, men)), guns_lost=dict(zip(SIDES, guns)), yards_gained=dict.fromkeys(SIDES, 0),
                   broke_off=broke_off)


def test_a_row_worked_by_hand(skirmish: Path) -> None:
    world = load_scenario(skirmish)
    # ten replications: union loses 10, 20, ..., 100 men; confederates 35 each; draws in 3 of 10
    outcomes = [outcome(None if k < 3 else "union", (10 * (k + 1), 35), (0, k % 2), 15 + k) for k in range(10)]
    r = row(world, "rff", outcomes)
    assert list(r) == ROW_KEYS
    assert r["winner"]["history"] == "draw" and r["winner"]["share"] == 0.3
    assert r["winner"]["ci95"] == pytest.approx([0.1078, 0.6032], abs=1e-4)
    # p10 of 10..100 lies a tenth of the way from 10 to 20 at position 0.9: 19; p90 at 8.1: 91
    assert r["men_lost"]["union"] == {"p10": 19.0, "p50": 55.0, "p90": 91.0, "history": 40, "percentile": 35.0, "verdict": "inside"}
    assert r["men_lost"]["confederate"] == {"p10": 35.0, "p50": 35.0, "p90": 35.0, "history": 35, "percentile": 50.0, "verdict": "inside"}
    assert r["guns_lost"]["confederate"]["verdict"] == "inside" and r["guns_lost"]["confederate"]["percentile"] == 25.0
    assert r["minutes"] == {"p10": 15.9, "p50": 19.5, "p90": 23.1, "history": 30, "percentile": 100.0, "verdict": "above"}
    assert men_lost_inside([r, r]) == {"inside": 4, "cells": 4}
    assert r["broke_off"] == {}


def test_a_row_marks_the_verdicts_a_break_off_decided(skirmish: Path) -> None:
    world = load_scenario(skirmish)
    outcomes = [outcome("union", (5, 9), (0, 0), 20, broke_off="confederate" if k < 3 else None) for k in range(10)]
    r = row(world, "rff", outcomes)
    assert r["broke_off"] == {"confederate": 0.3}
    assert broke_off_text(r["broke_off"]) == "† confederate 30%"


def test_figures_history_does_not_record_stay_blank(skirmish: Path) -> None:
    world = load_scenario(skirmish)
    assert world.historical is not None
    unrecorded = evolve(world, historical=Historical(winner="union", men_lost={"union": 5}, guns_lost={}, minutes=None))
    r = row(unrecorded, "rff", [outcome("union", (5, 9), (0, 0), 20)])
    blank = {"history": None, "percentile": None, "verdict": None}
    for cell in (r["men_lost"]["confederate"], r["guns_lost"]["union"], r["guns_lost"]["confederate"], r["minutes"]):
        assert {k: cell[k] for k in blank} == blank
        assert cell["p50"] is not None  # the replications are still described
    assert r["men_lost"]["union"]["verdict"] == "inside"
    assert men_lost_inside([r]) == {"inside": 1, "cells": 1}  # a blank cell is not counted


# ----------------------------------------------------------------------------- the command


def test_big_bethel_json() -> None:
    report = json.loads(ok(referee("history", "big-bethel", "-n", "3", "--workers", "1", "--json")).stdout)
    assert list(report) == ["seed", "n", "rulesets", "scenarios", "rows", "men_lost_inside"]
    assert report["scenarios"] == ["big-bethel"]
    assert report["rulesets"] == sorted(installed()) and report["n"] == 3 and report["seed"] == 1
    history = load_scenario(find_scenario("big-bethel")).historical
    assert history is not None
    for r, ruleset in zip(report["rows"], report["rulesets"], strict=True):
        assert list(r) == ROW_KEYS and r["ruleset"] == ruleset and r["replications"] == 3
        assert r["winner"]["history"] == history.winner and 0 <= r["winner"]["ci95"][0] <= r["winner"]["share"] <= r["winner"]["ci95"][1] <= 1
        for what in ("men_lost", "guns_lost"):
            assert list(r[what]) == list(SIDES)
            for side, cell in r[what].items():
                assert list(cell) == CELL_KEYS
                assert cell["history"] == getattr(history, what)[side]
                assert all(isinstance(cell[k], float) for k in ("p10", "p50", "p90", "percentile"))
                assert cell["p10"] <= cell["p50"] <= cell["p90"] and cell["verdict"] in ("below", "inside", "above")
        assert r["minutes"]["history"] == history.minutes
    cells = [c for r in report["rows"] for c in r["men_lost"].values()]
    assert report["men_lost_inside"] == {"inside": sum(c["verdict"] == "inside" for c in cells), "cells": 2 * len(report["rulesets"])}


def test_the_numbers_are_the_same_whatever_the_worker_count() -> None:
    args = ("history", "big-bethel", "--rules", "rff", "-n", "4", "--seed", "5", "--json")
    assert ok(referee(*args, "--workers", "1")).stdout == ok(referee(*args, "--workers", "2")).stdout


def test_the_same_seeds_as_compare() -> None:
    args = ("big-bethel", "--rules", "rff", "-n", "3", "--seed", "2", "--workers", "1", "--json")
    mine = json.loads(ok(referee("history", *args)).stdout)["rows"][0]
    theirs = json.loads(ok(referee("compare", *args)).stdout)["rulesets"]["rff"]
    for side in SIDES:
        assert mine["men_lost"][side]["p50"] == theirs["men_lost"][side]["p50"]
        assert mine["men_lost"][side]["percentile"] == theirs["historical"]["men_lost_percentile"][side]
    assert mine["winner"]["share"] == theirs["historical"]["winner_share"]


def test_the_table_shows_titles_as_written(skirmish: Path) -> None:
    result = ok(referee("history", str(skirmish), "--rules", "rff", "-n", "3", "--workers", "1"))
    assert TRICKY_TITLE in result.stdout
    assert "40 (" in result.stdout and "draw" in result.stdout
    assert "history's men lost inside p10-p90 in" in result.stdout and "of 2 cells" in result.stdout


def test_a_scenario_named_twice_is_played_once(skirmish: Path) -> None:
    report = json.loads(ok(referee("history", str(skirmish), str(skirmish), "--rules", "rff,rff", "-n", "2", "--workers", "1", "--json")).stdout)
    assert [(r["scenario"], r["ruleset"]) for r in report["rows"]] == [("skirmish", "rff")]


def test_ctrl_c_keeps_the_finished_rows(monkeypatch: pytest.MonkeyPatch, skirmish: Path) -> None:
    real, calls = compare_module.replicate, []

    def interrupted_on_the_second_ruleset(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 2:
            ctrl_c()
        return real(*args)

    monkeypatch.setattr(compare_module, "replicate", interrupted_on_the_second_ruleset)
    result = referee("history", str(skirmish), "--rules", "rff,hardtack", "-n", "3", "--workers", "1", "--json")
    assert result.exit_code == 130, (result.output, result.exception)
    assert "Traceback" not in result.output and "interrupted" in result.stderr
    report = json.loads(result.stdout)
    assert report["interrupted"] is True
    assert [r["ruleset"] for r in report["rows"]] == ["rff"]


def test_help_names_the_default_replications() -> None:
    assert "default: 200" in ok(referee("history", "--help")).stdout


@pytest.mark.parametrize(("args", "says"), [
    (("nowhere",), ["unknown scenario 'nowhere'", "big-bethel"]),
    (("drill-musketry",), ["'drill-musketry' has no [historical] record", "big-bethel"]),
    (("big-bethel", "--rules", "rff,nonesuch"), ["unknown ruleset 'nonesuch'"]),
    (("big-bethel", "-n", "0"), ["-n", "0"]),
    (("big-bethel", "-n", "-3"), ["-n"]),
])
def test_bad_input(args: tuple[str, ...], says: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: Any) -> Any:
        raise AssertionError("no replication may start on bad input")

    monkeypatch.setattr(compare_module, "replicate", never)
    user_error(referee("history", *args, "--workers", "1"), *says)


# ----------------------------------------------------------------------------- docs/history.md


def table_script() -> Any:
    return load_script("benchmarks/history_table.py")


def test_the_script_replaces_only_the_marked_section(skirmish: Path) -> None:
    script = table_script()
    report = json.loads(ok(referee("history", str(skirmish), "--rules", "rff", "-n", "2", "--workers", "1", "--json")).stdout)
    section = script.markdown(report)
    assert "| " + TRICKY_TITLE + " | rff (2) | draw " in section
    doc = f"# prose\n{script.BEGIN}\nold table\n{script.END}\nmore prose\n"
    assert script.splice(doc, section) == f"# prose\n{script.BEGIN}\n{section}\n{script.END}\nmore prose\n"
    for broken in ("no markers", f"{script.END}\n{script.BEGIN}", f"{script.BEGIN}{script.BEGIN}{script.END}"):
        with pytest.raises(ValueError, match="history:begin"):
            script.splice(broken, section)


def test_the_committed_document_can_be_regenerated() -> None:
    script = table_script()
    text = script.DOC.read_text(encoding="utf-8")
    table = text.split(script.BEGIN)[1].split(script.END)[0]
    assert "| Big Bethel, Virginia, 10 June 1861 | rff (200) |" in table
    assert script.splice(text, table.strip("\n")) == text  # the markers are in place, once each


def test_every_bundled_battle_with_a_record_by_default() -> None:
    from referee.core.cli.cli import _historical_battles
    from referee.core.input.scenario import bundled

    chosen = [world.id for _, world in _historical_battles(())]
    with_record = [sid for sid, _, _ in bundled() if load_scenario(find_scenario(sid)).historical]
    assert chosen == with_record and "big-bethel" in chosen and not any(s.startswith("drill") for s in chosen)
