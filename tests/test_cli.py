"""The ``referee`` command line as a user runs it (click's CliRunner, in process).

Every command, its ``--json`` shape, and every kind of bad input: each must exit with code 2 and
one clear message saying what was wrong and what would be valid, never a traceback. Ctrl-C during
a comparison keeps the replications already finished.
"""

from __future__ import annotations

import json
import os
import re
import signal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import referee.core.studies.compare as compare_module
from click.testing import CliRunner, Result
from referee.core.cli import cli
from referee.core.cli.cli import main
from referee.core.input.scenario import find_scenario
from rich.console import Console
from strategies import minimal_scenario, to_toml

DRILLS = ("drill-cavalry", "drill-charge-battery", "drill-musketry")
SIDES = ("union", "confederate")
BOOM = '''\
from referee.core.engine.hookspecs import hookimpl

BASE = "any"


@hookimpl
def referee_end_turn(game):
    raise RuntimeError("boom")
'''


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps table cells at 80 columns when not on a terminal; a wide one keeps words whole."""
    monkeypatch.setattr(cli, "out", Console(highlight=False, soft_wrap=True, width=250))


def ctrl_c() -> None:
    """The user presses Ctrl-C: a real SIGINT to this process (its handler stops the run)."""
    os.kill(os.getpid(), signal.SIGINT)
    raise AssertionError("the interrupt did not stop the run")


def referee(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None
    return result


def data(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def user_error(result: Result, *must_say: str) -> str:
    """Exit code 2, no traceback, one paragraph after "Error:" that says each of ``must_say``."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # not an escaped exception
    assert "Traceback" not in result.output
    message = result.stderr.split("Error:", 1)[1].strip()
    assert message, result.stderr
    assert "\n\n" not in message, message  # one paragraph
    assert result.stdout == "" or "Usage:" not in result.stdout
    for words in must_say:
        assert words in message, (words, message)
    return message


def folder_listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ----------------------------------------------------------------------------- listings


def test_rulesets_table() -> None:
    result = ok(referee("rulesets"))
    assert "rff" in result.stdout
    assert "Regimental Fire and Fury" in result.stdout
    assert "referee_step" in result.stdout  # the hooks each plugin implements


def test_rulesets_json() -> None:
    rows = data(referee("rulesets", "--json"))
    assert [r["name"] for r in rows] == sorted(r["name"] for r in rows)
    by_name = {r["name"]: r for r in rows}
    assert "rff" in by_name
    for row in rows:
        assert {"name", "title", "source", "scale", "hooks"} <= row.keys()
        assert row["title"] and row["source"]
        assert "yards" in row["scale"] and "minutes" in row["scale"]
        # the core's hooks, and the extension hooks a base declares for its layers (rff_...)
        assert row["hooks"] and all(h.startswith("referee_") or h.split("_", 1)[0] in by_name for hooks in row["hooks"].values() for h in hooks)
    rff = by_name["rff"]
    assert {"referee_ruleset", "referee_muster", "referee_turn", "referee_step"} <= set(rff["hooks"]["rff"])
    assert "doctrine" not in rff["hooks"]  # the core's default commander is not the ruleset's
    assert "skirmishers" in rff["options"]


def test_scenarios_listing() -> None:
    rows = data(referee("scenarios", "--json"))
    ids = [r["id"] for r in rows]
    assert {"big-bethel", *DRILLS} <= set(ids)
    assert all(r["title"] and r["summary"] for r in rows)
    text = ok(referee("scenarios")).stdout
    assert all(i in text for i in ids)


# ----------------------------------------------------------------------------- run


def test_run_narrates_every_roll_and_the_result() -> None:
    out = ok(referee("run", "drill-musketry", "--rules", "rff", "--seed", "7")).stdout
    rolls = [line for line in out.splitlines() if re.search(r"\[rff .+\] dice \d", line)]
    assert rolls, out
    assert all(" -> " in line for line in rolls)  # each roll ends in its result
    assert "Musketry & Cannonade Table" in out  # cites the table
    assert re.search(r"^(union|confederate|draw) after \d+ minutes \(\d+ turns\)", out, re.MULTILINE), out
    for side in SIDES:
        assert re.search(rf"^  {side}: \d+ men and \d+ guns? lost, \d+ yards gained$", out, re.MULTILINE), out


def test_run_json_gives_the_outcome_in_men_guns_and_minutes() -> None:
    outcome = data(referee("run", "drill-musketry", "--rules", "rff", "--seed", "7", "--json"))
    assert {"winner", "men_lost", "guns_lost", "minutes"} <= outcome.keys()
    assert outcome["ruleset"] == "rff" and outcome["scenario"] == "drill-musketry" and outcome["seed"] == 7
    assert outcome["winner"] in (*SIDES, None)
    for side in SIDES:
        assert isinstance(outcome["men_lost"][side], int) and 0 <= outcome["men_lost"][side] <= 500
        assert outcome["guns_lost"][side] == 0  # no guns in this drill
    assert 0 < outcome["minutes"] <= 45  # 10:00 to 10:45


def test_run_log_is_json_lines_written_atomically(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("an older log\n")
    outcome = data(referee("run", "drill-musketry", "--rules", "rff", "--seed", "7", "--json", "--log", str(log)))
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert folder_listing(tmp_path) == ["game.jsonl"]  # replaced in place; no temporary file left behind
    assert events[0]["kind"] == "start" and events[-1]["kind"] == "end"
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert any(e["kind"] == "resolution" and e["dice"] for e in events)
    assert events[-1]["men_lost"] == outcome["men_lost"]  # the log and the outcome agree


def test_run_log_relative_to_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ok(referee("run", "drill-musketry", "--rules", "rff", "--quiet", "--log", "game.jsonl"))
    assert folder_listing(tmp_path) == ["game.jsonl"]


def test_run_log_that_cannot_be_written_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("an older log\n")

    def refuse(src: Any, dst: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("referee.core.cli.files.os.replace", refuse)
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--quiet", "--log", str(log)), "game.jsonl", "Permission denied")
    assert log.read_text() == "an older log\n"
    assert folder_listing(tmp_path) == ["game.jsonl"]  # the temporary file was removed


def test_run_a_scenario_file_by_path() -> None:
    outcome = data(referee("run", str(find_scenario("drill-charge-battery")), "--rules", "rff", "--json"))
    assert outcome["scenario"] == "drill-charge-battery"


# ----------------------------------------------------------------------------- compare


def check_summary(summary: dict[str, Any], n: int) -> None:
    assert summary["replications"] == n
    shares = 0.0
    for key in (*SIDES, "draw"):
        win = summary["win"][key]
        lo, hi = win["ci95"]
        assert 0 <= lo <= win["share"] <= hi <= 1
        shares += win["share"]
    assert shares == pytest.approx(1, abs=1e-3)
    for what in ("men_lost", "guns_lost"):
        for side in SIDES:
            s = summary[what][side]
            assert set(s) == {"mean", "p10", "p50", "p90"}
            assert 0 <= s["p10"] <= s["p50"] <= s["p90"]
    assert set(summary["minutes"]) == {"mean", "p10", "p50", "p90"}
    assert 0 < summary["minutes"]["p10"] <= summary["minutes"]["p90"]


def test_compare_json() -> None:
    report = data(referee("compare", "drill-musketry", "--rules", "rff", "-n", "30", "--seed", "3", "--json"))
    assert report["scenario"] == "drill-musketry" and report["n"] == 30 and report["seed"] == 3
    assert list(report["rulesets"]) == ["rff"]
    check_summary(report["rulesets"]["rff"], 30)
    assert report["rulesets"]["rff"]["minutes"]["p90"] <= 45
    assert "historical" not in report["rulesets"]["rff"] and "history" not in report  # a drill has no history
    assert "interrupted" not in report


def test_compare_big_bethel_places_history_in_each_distribution() -> None:
    report = data(referee("compare", "big-bethel", "--rules", "rff", "-n", "4", "--seed", "3", "--workers", "1", "--json"))
    rff = report["rulesets"]["rff"]
    check_summary(rff, 4)
    history = rff["historical"]
    assert history["winner"] == report["history"]["winner"]
    assert history["winner_share"] == rff["win"][history["winner"]]["share"]
    for key in ("men_lost_percentile", "guns_lost_percentile"):
        assert set(history[key]) == set(SIDES)
        assert all(0 <= v <= 100 for v in history[key].values())
    assert 0 <= history["minutes_percentile"] <= 100


def test_compare_table_and_out_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = ok(referee("compare", "drill-musketry", "--rules", "rff", "-n", "5", "--workers", "1", "--out", str(out)))
    assert "union wins" in result.stdout and "rff (n=5)" in result.stdout
    report = json.loads(out.read_text())
    check_summary(report["rulesets"]["rff"], 5)
    assert folder_listing(tmp_path) == ["report.json"]


def test_compare_is_the_same_whatever_the_worker_count() -> None:
    args = ("compare", "drill-musketry", "--rules", "rff", "-n", "30", "--seed", "3", "--json")
    assert data(referee(*args, "--workers", "1")) == data(referee(*args, "--workers", "2"))


def test_compare_ctrl_c_keeps_the_finished_replications(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = compare_module.replicate
    calls = []

    def interrupted_on_the_third_chunk(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 3:
            ctrl_c()
        return real(*args)

    monkeypatch.setattr(compare_module, "replicate", interrupted_on_the_third_chunk)
    finished = 2 * compare_module.CHUNK
    n = 3 * compare_module.CHUNK + 5
    out = tmp_path / "partial.json"
    result = referee("compare", "drill-musketry", "--rules", "rff", "-n", str(n), "--workers", "1", "--json", "--out", str(out))
    assert result.exit_code == 130, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "interrupted" in result.stderr
    report = json.loads(result.stdout)
    assert report["interrupted"] is True
    assert report["n"] == n
    check_summary(report["rulesets"]["rff"], finished)
    assert json.loads(out.read_text()) == report  # the partial report is saved too
    assert len(calls) == 3  # stopped at the interrupt, did not go on to the fourth chunk


def test_compare_ctrl_c_before_anything_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any) -> Any:
        ctrl_c()

    monkeypatch.setattr(compare_module, "replicate", interrupted)
    result = referee("compare", "big-bethel", "--rules", "rff", "-n", "10", "--workers", "1")
    assert result.exit_code == 130, (result.output, result.exception)
    assert "Traceback" not in result.output and "interrupted" in result.stderr


# ----------------------------------------------------------------------------- resolve and tables


def test_resolve_exact_json() -> None:
    answer = data(referee("resolve", "rff", "musketry", "--set", "fire_points=9", "--set", "target=veteran", "--exact", "--json"))
    assert set(answer) == {"ruleset", "mechanic", "inputs", "outcomes"}
    assert answer["ruleset"] == "rff" and answer["mechanic"] == "musketry"
    assert answer["inputs"]["fire_points"] == 9 and answer["inputs"]["target"] == "veteran"
    assert answer["outcomes"]
    total = Fraction(0)
    for outcome in answer["outcomes"]:
        assert set(outcome) == {"result", "probability", "p", "values"}
        assert re.fullmatch(r"\d+/\d+", outcome["probability"]), outcome["probability"]
        p = Fraction(outcome["probability"])
        assert 0 < p <= 1
        assert outcome["p"] == pytest.approx(float(p))
        assert isinstance(outcome["result"], str) and outcome["result"]
        assert isinstance(outcome["values"], dict)
        total += p
    assert total == 1  # exactly, as fractions
    # no two outcomes do the same thing
    keys = [(o["result"], json.dumps(o["values"], sort_keys=True)) for o in answer["outcomes"]]
    assert len(keys) == len(set(keys))


def test_resolve_exact_table() -> None:
    out = ok(referee("resolve", "rff", "musketry", "--set", "fire_points=9", "--set", "target=veteran", "--exact")).stdout
    assert "fire_points=9" in out and "probability" in out


def test_resolve_rolls_agree_with_the_exact_distribution() -> None:
    args = ("resolve", "rff", "musketry", "--set", "fire_points=9", "--set", "target=veteran", "--json")
    possible = {o["result"] for o in data(referee(*args, "--exact"))["outcomes"]}
    rolled = {data(referee(*args, "--seed", str(seed)))["result"] for seed in range(12)}
    assert rolled <= possible
    assert len(rolled) > 1  # the seed matters


def test_resolve_a_cited_roll() -> None:
    roll = data(referee("resolve", "rff", "maneuver", "--seed", "4", "--json"))
    assert roll["ruleset"] == "rff" and roll["mechanic"] == "maneuver"
    assert "Maneuver Table" in roll["ref"]
    assert roll["modifiers"] and all({"name", "value", "on"} <= m.keys() for m in roll["modifiers"])
    assert roll["dice"] and all(1 <= d <= 10 for d in roll["dice"])
    die_mods = sum(m["value"] for m in roll["modifiers"] if m["on"] == "die")
    assert roll["total"] == sum(roll["dice"]) + die_mods
    assert isinstance(roll["result"], str) and roll["result"]
    assert data(referee("resolve", "rff", "maneuver", "--seed", "4", "--json")) == roll  # same seed, same roll
    text = ok(referee("resolve", "rff", "maneuver", "--seed", "4")).stdout
    assert f"dice {roll['dice'][0]}" in text and f"-> {roll['result']}" in text and roll["ref"] in text


@pytest.mark.parametrize("args", [("resolve", "rff", "--list"), ("resolve", "rff")])
def test_resolve_list(args: tuple[str, ...]) -> None:
    out = ok(referee(*args)).stdout
    for mechanic in ("maneuver", "musketry", "cannonade", "charge", "fallen-leader"):
        assert re.search(rf"^{mechanic}: ", out, re.MULTILINE), (mechanic, out)
    assert "--set fire_points=" in out
    rows = data(referee(*args, "--json"))
    assert {r["mechanic"] for r in rows} >= {"maneuver", "musketry"}
    assert all({"mechanic", "summary", "ref", "inputs"} <= r.keys() for r in rows)


def test_tables_all_and_one() -> None:
    tables = data(referee("tables", "rff", "--json"))
    assert {"scale", "fallen-leader", "maneuver-modifiers"} <= set(tables)
    for t in tables.values():
        assert t["title"] and t["columns"]
        assert all(len(row) == len(t["columns"]) for row in t["rows"])
    everything = ok(referee("tables", "rff")).stdout
    assert all(t["title"] in everything for t in tables.values())
    one = ok(referee("tables", "rff", "fallen-leader")).stdout
    assert tables["fallen-leader"]["title"] in one
    assert "[fallen-leader]" in one  # the name to ask for it by (printed, not eaten as rich markup)
    assert tables["movement"]["title"] not in one and tables["scale"]["title"] not in one
    assert list(data(referee("tables", "rff", "fallen-leader", "--json"))) == ["fallen-leader"]


# ----------------------------------------------------------------------------- bad input: names


def test_unknown_ruleset() -> None:
    user_error(referee("run", "drill-musketry", "--rules", "rfg"), "unknown ruleset 'rfg'", "did you mean 'rff'")
    user_error(referee("resolve", "rfg", "musketry", "--exact"), "unknown ruleset 'rfg'", "did you mean 'rff'")


def test_unknown_scenario() -> None:
    message = user_error(referee("run", "drill-muskety", "--rules", "rff"), "unknown scenario 'drill-muskety'", "drill-musketry")
    assert "big-bethel" in message  # names what is valid
    user_error(referee("compare", "nowhere", "--rules", "rff", "-n", "1"), "unknown scenario 'nowhere'")


def test_unknown_mechanic() -> None:
    user_error(referee("resolve", "rff", "musket", "--exact"), "unknown mechanic 'musket'", "did you mean 'musketry'", "maneuver")


def test_unknown_table() -> None:
    user_error(referee("tables", "rff", "fallen-leaders"), "unknown table 'fallen-leaders'", "'fallen-leader'")


def test_unknown_input_key() -> None:
    user_error(referee("resolve", "rff", "musketry", "--set", "fire_points=9", "--set", "range=3", "--exact"),
               "--set range", "no such input", "fire_points, modifier, target, target_disordered")


@pytest.mark.parametrize(
    ("pair", "says"),
    [
        ("fire_points=abc", ["'abc' is not a number"]),
        ("fire_points=0", ["below the minimum"]),
        ("target=elite", ["'elite' is not one of crack, veteran, trained, green"]),
        ("target_disordered=maybe", ["'maybe' is not true or false"]),
        ("fire_points", ["expected KEY=VALUE"]),
    ],
)
def test_bad_input_value(pair: str, says: list[str]) -> None:
    args = ["resolve", "rff", "musketry", "--set", pair, "--exact"]
    if not pair.startswith("fire_points"):
        args += ["--set", "fire_points=9"]
    user_error(referee(*args), "mechanic musketry", *says)


@pytest.mark.parametrize("extra", [(), ("--seed", "3", "--exact")])
def test_seed_xor_exact(extra: tuple[str, ...]) -> None:
    user_error(referee("resolve", "rff", "musketry", "--set", "fire_points=9", *extra), "exactly one of --seed", "--exact")


def test_unknown_option_says_what_is_valid() -> None:
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--option", "nope"), "nope", "unknown", "skirmishers")


def test_unknown_option() -> None:
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--option", "nope"), "--option nope")
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--option", "skirmisher"), "--option skirmisher", "did you mean 'skirmishers'")
    user_error(referee("compare", "drill-musketry", "--rules", "rff", "-n", "1", "--option", "skirmisher"), "did you mean 'skirmishers'")


@pytest.mark.parametrize("n", ["0", "-3"])
def test_no_replications(n: str) -> None:
    result = referee("compare", "drill-musketry", "--rules", "rff", "-n", n)
    user_error(result, "'-n'", f"{n} is not in the range 1<=x<=1000000")


# ----------------------------------------------------------------------------- bad input: files


def test_scenario_with_a_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[scenario]\nid = "broken"\ntitle = "two" "words"\n')
    user_error(referee("run", str(path), "--rules", "rff"), "broken.toml:3", "TOML syntax error")


def write_scenario(tmp_path: Path, change: Any) -> Path:
    scenario = minimal_scenario()
    change(scenario)
    path = tmp_path / "mine.toml"
    path.write_text(to_toml(scenario))
    return path


def test_the_minimal_scenario_plays(tmp_path: Path) -> None:  # so that the two tests below test one mistake each
    ok(referee("run", str(write_scenario(tmp_path, lambda s: None)), "--rules", "rff", "--quiet"))


def test_scenario_with_negative_men(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, lambda s: s["units"][1].update(men=-40))
    user_error(referee("run", str(path), "--rules", "rff"), "mine.toml", "units[1].men", "expected a whole number >= 1, got -40")


def test_scenario_with_a_unit_off_the_map(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, lambda s: s["units"][0].update(position=[500, 900]))
    user_error(referee("compare", str(path), "--rules", "rff", "-n", "2"),
               "units[0].position", "off the map", "y 0..800 yards")


def test_house_rule_file_missing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.py"
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", str(missing)), str(missing), "no such file", ".py plugin")


def test_house_rule_with_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "typo.py"
    path.write_text("from referee.core.engine.hookspecs import hookimpl\n\n@hookimpl\ndef referee_end_turn(game:\n    pass\n")
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", str(path)), "house rule", "typo.py:4", "syntax error")


def test_house_rule_that_fails_to_import(tmp_path: Path) -> None:
    path = tmp_path / "needs.py"
    path.write_text("import referee_no_such_module\n")
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", str(path)), "needs.py", "ModuleNotFoundError")


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("@hookimpl\ndef referee_end_trun(game):\n    pass\n", ["unknown hook 'referee_end_trun'", "wrong_hook"]),
        ("@hookimpl\ndef referee_end_turn(game, weather):\n    pass\n", ["referee_end_turn", "weather"]),
    ],
)
def test_house_rule_that_does_not_fit_the_hooks(tmp_path: Path, source: str, says: list[str]) -> None:
    path = tmp_path / "wrong_hook.py"
    path.write_text("from referee.core.engine.hookspecs import hookimpl\n\nBASE = \"any\"\n\n" + source)
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", str(path)), "house rule", *says)


@pytest.mark.parametrize(
    "command",
    [
        ("run", "drill-musketry", "--rules", "rff"),
        ("run", "drill-musketry", "--rules", "rff", "--json"),
        ("compare", "drill-musketry", "--rules", "rff", "-n", "3", "--workers", "1"),
        ("compare", "drill-musketry", "--rules", "rff", "-n", "30", "--workers", "2"),  # raised in a worker process
    ],
)
def test_house_rule_raising_inside_a_hook_is_named(tmp_path: Path, command: tuple[str, ...]) -> None:
    path = tmp_path / "boom.py"
    path.write_text(BOOM)
    user_error(referee(*command, "--house-rule", str(path)), "plugin", "boom", "referee_end_turn", "RuntimeError: boom")


def test_log_into_a_missing_folder_fails_before_the_game(tmp_path: Path) -> None:
    result = referee("run", "drill-musketry", "--rules", "rff", "--log", str(tmp_path / "no" / "game.jsonl"))
    user_error(result, "does not exist", str(tmp_path / "no"))
    assert "dice" not in result.stdout  # refused up front, not after playing the whole game
    assert folder_listing(tmp_path) == []


def test_log_onto_a_folder(tmp_path: Path) -> None:
    user_error(referee("run", "drill-musketry", "--rules", "rff", "--log", str(tmp_path)), "is a folder")


def test_compare_out_into_a_missing_folder_fails_before_the_replications(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: Any) -> Any:
        raise AssertionError("replications played before the output path was checked")

    monkeypatch.setattr(compare_module, "replicate", never)
    user_error(referee("compare", "drill-musketry", "--rules", "rff", "-n", "3", "--workers", "1",
                       "--out", str(tmp_path / "no" / "r.json")), "does not exist")


def test_version() -> None:
    assert re.search(r"\d+\.\d+", ok(referee("--version")).stdout)


def test_help_of_every_command() -> None:
    for command in ("rulesets", "scenarios", "run", "compare", "resolve", "tables"):
        out = ok(referee(command, "--help")).stdout
        assert "--json" in out, command


def test_scenario_option_with_a_misspelt_ruleset(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, lambda s: s["scenario"].update(options=["rf:skirmishers"]))
    user_error(referee("run", str(path), "--rules", "rff"), "scenario.options", "'rf:skirmishers' names no installed ruleset", "did you mean 'rff'")


def test_scenario_option_for_a_ruleset_not_installed_is_skipped(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, lambda s: s["scenario"].update(options=["sumter:grand-battery", "rff:skirmishers"]))
    ok(referee("run", str(path), "--rules", "rff", "--quiet"))


def test_compare_names_each_ruleset_once() -> None:
    report = data(referee("compare", "drill-musketry", "--rules", "rff, rff,", "-n", "3", "--json"))
    assert list(report["rulesets"]) == ["rff"]


def test_two_figure_scales_are_refused() -> None:
    user_error(referee("run", "drill-musketry", "--rules", "hardtack", "--option", "figure-3-men", "--option", "figure-5-men"),
               "figure-3-men and figure-5-men exclude one another", "no-NAME")


def test_no_option_overrides_the_scenario() -> None:
    # big-bethel switches on hardtack:figure-5-men; the user may replace it, but only by switching it off
    user_error(referee("run", "big-bethel", "--rules", "hardtack", "--option", "figure-3-men"), "exclude one another")
    ok(referee("run", "big-bethel", "--rules", "hardtack", "--option", "figure-3-men", "--option", "no-figure-5-men", "--quiet"))
