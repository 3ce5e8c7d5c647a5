"""referee explain and referee report: the data, the page, and tables that fit 80 columns."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from referee.core.cli.cli import main
from referee.core.input.scenario import find_scenario
from referee.core.studies.compare import Stack, run_replications
from referee.core.studies.explain import paired, replicate_logged

BOX = re.compile("[\u2500-\u257f]")  # box-drawing characters


def referee(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_paired_difference_takes_the_pairs_into_account() -> None:
    a = [30.0, 10.0, 40.0, 20.0]
    b = [33.0, 12.0, 42.0, 21.0]  # two more on average, game by game
    d = paired(a, b)
    assert d["mean"] == 2.0
    sd = math.sqrt(sum((x - 2.0) ** 2 for x in (3, 2, 2, 1)) / 3)
    assert d["se"] == round(sd / 2, 3)
    assert d["ci95"] == [round(2 - 1.959963984540054 * sd / 2, 3), round(2 + 1.959963984540054 * sd / 2, 3)]
    assert d["se_unpaired"] > 5 * d["se"]  # the spread between games cancels out in pairs
    assert paired(a, a) == {"mean": 0.0, "ci95": [0.0, 0.0], "se": 0.0, "se_unpaired": round(math.sqrt(2 * 12.9099 ** 2 / 4), 3)}


def test_logged_replications_are_the_compared_ones() -> None:
    """Playing with the log on (for explain and report) gives the very games compare plays."""
    path = str(find_scenario("big-bethel"))
    for ruleset in ("rff", "hardtack"):
        plain, _ = run_replications(Stack(ruleset), path, 4, 9, workers=1)
        logged, _ = run_replications(Stack(ruleset), path, 4, 9, workers=2, job=replicate_logged)
        assert [r.outcome for r in logged] == plain
        for r in logged:
            assert {s: sum(v) for s, v in r.losses.items()} == r.outcome.men_lost


def test_explain_json() -> None:
    data = json.loads(referee("explain", "big-bethel", "--rules", "rff,hardtack", "-n", "6", "--workers", "2", "--json").stdout)
    assert (data["scenario"], data["n"], data["seed"], data["options"]) == ("big-bethel", 6, 1, [])
    assert data["version"] and list(data["rulesets"]) == ["rff", "hardtack"]
    for r in data["rulesets"].values():
        times = r["losses_by_time"]
        assert times["from"][:2] == ["09:00", "09:30"] and len(times["from"]) == 9  # Big Bethel runs 270 minutes
        assert set(times["men_lost"]) == {"union", "confederate"}
        # each share is rounded to 4 places: the sum is 1 within half a unit of the last place per share
        assert all(abs(sum(m["results"].values()) - 1) <= 0.00005 * len(m["results"]) + 1e-9 for m in r["mechanics"].values())
    assert "musketry" in data["rulesets"]["rff"]["mechanics"] and "shot" in data["rulesets"]["hardtack"]["mechanics"]
    (p,) = data["paired"]
    assert (p["a"], p["b"], p["games"]) == ("rff", "hardtack", 6)
    for d in (*p["men_lost"].values(), p["minutes"]):
        assert d["ci95"][0] <= d["mean"] <= d["ci95"][1]
    for r in data["rulesets"].values():
        for lost in r["losses_by_cause"].values():  # the means of the causes add up to the mean men lost
            assert sum(c["men"] for c in lost["causes"].values()) == pytest.approx(lost["men_lost"], abs=0.1 * len(lost["causes"]))
    assert data["rulesets"]["hardtack"]["losses_by_cause"]["union"]["causes"]["shot-or-shell"]["men"] > 0  # hardtack's guns at Big Bethel
    assert "under hardtack" in " ".join(data["sentences"]).lower()  # each side's main cause under each ruleset is named
    for side in ("union", "confederate"):
        assert set(p["lost_by_kind"][side]) <= {"musketry", "artillery", "charge", "rout", "captured", "other"}
    assert any(s.startswith("On the same 6 seeds, the union side loses") for s in data["sentences"])
    assert any(s.startswith("Under hardtack the mechanics rolled most are") for s in data["sentences"])


def test_a_ruleset_paired_with_a_layer_that_changes_nothing_differs_by_nothing(tmp_path: Path) -> None:
    noop = tmp_path / "noop.py"
    noop.write_text("from referee.core.engine.hookspecs import hookimpl\n\nBASE = \"any\"\n\n@hookimpl\ndef referee_end_turn(game):\n    pass\n")
    data = json.loads(referee("explain", "drill-musketry", "--rules", "rff", "--house-rule", str(noop), "-n", "5",
                              "--workers", "1", "--json").stdout)
    assert data["house_rules"] == [str(noop)] and data["paired"] == []  # one stack: nothing to pair
    assert any("half of the losses have fallen" in s for s in data["sentences"])


def test_explain_text_fits_80_columns_in_plain_text() -> None:
    text = referee("explain", "big-bethel", "--rules", "rff,hardtack", "-n", "3", "--workers", "1").stdout
    assert "On the same 3 seeds" in text and "Men lost per half hour" in text
    assert "rff: mechanics rolled" in text and "hardtack - rff, game by game" in text
    assert "Men lost by cause" in text and "| musketry" in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    assert not BOX.search(text)


@pytest.mark.parametrize("args", [
    ("compare", "big-bethel", "--rules", "rff,hardtack", "-n", "3", "--workers", "1"),
    ("history", "big-bethel", "-n", "2", "--workers", "1"),
    ("resolve", "rff", "musketry", "--set", "fire_points=9", "--set", "target=veteran", "--exact"),
    ("tables", "rff", "fire-effects"),
])
def test_tables_fit_80_columns_as_plain_text_when_not_a_terminal(args: tuple[str, ...]) -> None:
    text = referee(*args).stdout
    assert "+--" in text and not BOX.search(text)  # ASCII, not box drawing
    table = [line for line in text.splitlines() if line.startswith(("|", "+"))]
    assert table and max(len(line) for line in table) <= 80


def test_history_in_80_columns_has_a_row_for_each_measure() -> None:
    text = referee("history", "big-bethel", "--rules", "rff", "-n", "2", "--workers", "1").stdout
    for measure in ("confederate wins", "men lost, union", "guns lost, union", "minutes"):
        assert f"| {measure}" in text
    assert "big-bethel" in text and "history's men lost inside p10-p90 in" in text


def test_compare_json_has_each_game_the_options_and_the_version() -> None:
    report = json.loads(referee("compare", "drill-musketry", "--rules", "rff", "-n", "4", "--seed", "3", "--workers", "1",
                                "--option", "no-skirmishers", "--json").stdout)
    assert report["options"] == ["no-skirmishers"] and report["house_rules"] == [] and report["version"]
    games = report["rulesets"]["rff"]["games"]
    assert len(games) == 4 and set(games[0]) == {"seed", "winner", "broke_off", "men_lost", "guns_lost", "lost_by_cause", "minutes"}
    assert all(sum(g["lost_by_cause"][s].values()) == g["men_lost"][s] for g in games for s in ("union", "confederate"))
    summary = report["rulesets"]["rff"]
    assert sum(g["men_lost"]["union"] for g in games) / 4 == pytest.approx(summary["men_lost"]["union"]["mean"])
    assert sum(g["winner"] == "union" for g in games) / 4 == summary["win"]["union"]["share"]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    path = tmp_path_factory.mktemp("page") / "report.html"
    result = referee("report", "big-bethel", "--rules", "rff,hardtack", "-n", "4", "--workers", "2", "-o", str(path), "--json")
    return path.read_text(encoding="utf-8"), json.loads(result.stdout)


def test_the_report_is_one_page_that_fetches_nothing(page: tuple[str, dict[str, Any]]) -> None:
    text, said = page
    assert said["bytes"] == len(text.encode()) < 5_000_000 and said["rulesets"] == ["rff", "hardtack"]
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "{{" not in text  # every part of the template filled
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)  # no script, style, font or image from elsewhere
    assert not re.search(r"@import|url\(\s*['\"]?https?:", text)
    assert text.count('<svg class="map"') == 2 and text.count('class="plot"') == 6
    assert "Big Bethel, Virginia, 10 June 1861" in text and "history: 76" in text  # Union losses in 1861, marked
    assert "Losses by cause" in text


def test_the_report_replays_the_first_game_of_each_ruleset(page: tuple[str, dict[str, Any]]) -> None:
    text, _ = page
    payloads = [json.loads(m.replace("<\\/", "</")) for m in
                re.findall(r'<script type="application/json" class="replay-data">(.*?)</script>', text, re.DOTALL)]
    assert [p["ruleset"] for p in payloads] == ["rff", "hardtack"]
    assert payloads[0]["seed"] == payloads[1]["seed"]  # the same game's seed under both
    for p in payloads:
        first = p["frames"][0]["units"]
        assert set(first) == set(p["units"]) and len(p["frames"]) > 5
        assert all(len(v) == 9 for f in p["frames"] for v in f["units"].values())
        said = [line for f in p["frames"] for line in f["narration"]]
        assert any("start:" in line for line in said) and "end:" in said[-1]


def test_report_into_a_missing_folder_fails_before_playing(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["report", "drill-musketry", "-n", "2", "-o", str(tmp_path / "nowhere" / "r.html")])
    assert result.exit_code == 2 and "nowhere" in result.output


def test_every_plot_text_is_at_least_the_axis_label_size_and_the_plots_share_one_scale(page: tuple[str, dict[str, Any]]) -> None:
    """Each plot fills the same width on the page, so the same font size in each reads the same."""
    from referee.core.studies.report_html import PLOT_STYLE
    text, _ = page
    plots = re.findall(r'<svg[^>]*class="plot">.*?</svg>', text, re.DOTALL)
    widths = [float(re.search(r'viewBox="0 0 ([\d.]+)', p).group(1)) for p in plots]  # type: ignore[union-attr]
    assert len(plots) == 6 and max(widths) / min(widths) < 1.15, widths
    for plot in plots:
        sizes = [float(x) for x in re.findall(r"font-size: ([\d.]+)px", plot)]
        assert sizes and min(sizes) >= PLOT_STYLE["axes.labelsize"], sorted(set(sizes))


def test_the_baseline_of_the_paired_differences_is_the_first_ruleset_named_or_the_one_given() -> None:
    def pairs(*args: str) -> list[tuple[str, str]]:
        data = json.loads(referee("explain", "drill-musketry", "-n", "2", "--workers", "1", "--json", *args).stdout)
        return [(p["a"], p["b"]) for p in data["paired"]]
    assert pairs("--rules", "hardtack,rff,sumter") == [("hardtack", "rff"), ("hardtack", "sumter")]
    assert pairs("--rules", "hardtack,rff,sumter", "--baseline", "rff") == [("rff", "hardtack"), ("rff", "sumter")]
    result = CliRunner().invoke(main, ["explain", "drill-musketry", "--rules", "rff,sumter", "--baseline", "hynds", "-n", "1"])
    assert result.exit_code == 2 and "--baseline hynds: not among the rulesets compared (rff, sumter)" in result.output


def _side(men: float, causes: dict[str, float]) -> dict[str, Any]:
    return {"men_lost": men, "causes": {c: {"men": m, "share": m / men} for c, m in causes.items()}, "by_range": {}, "unreported": 0.0}


def test_no_share_is_given_of_a_mean_below_the_floor_and_findings_lead_by_size() -> None:
    from referee.core.input.scenario import load_scenario
    from referee.core.studies.explain import SHARE_FLOOR, findings, ranked, sentences
    scenario = load_scenario(find_scenario("drill-musketry"))
    union, confederate = scenario.sides
    times = {"losses_by_time": {"men_lost": {union: [0.0], confederate: [0.0]}}, "mechanics": {}}
    result = {"paired": [], "rulesets": {
        "a": {"losses_by_cause": {union: _side(200.0, {"musketry": 150.0, "charge": 50.0}), confederate: _side(1.0, {"charge": 1.0})}, **times},
        "b": {"losses_by_cause": {union: _side(40.0, {"musketry": 40.0}), confederate: _side(30.0, {"musketry": 30.0})}, **times}}}
    said = sentences(result, scenario)
    about = [s for s in said if f"the {confederate} side" in s and s.startswith("Under a")]
    first = about[0].split(";")[0]
    assert "%" not in first and "too few for a share" in first, about  # a mean of 1 man is given in men
    assert about[0].endswith("under b, 0 %.")  # 0 of 30 men: a share
    assert 1.0 < SHARE_FLOOR
    assert any("causes 75 %" in s for s in said)  # 150 of 200 men: a share
    sizes = [size for size, _ in ranked(findings(result, scenario)) if size is not None]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] == 110.0  # 150 men to musketry under a, 40 under b
    assert said[0].startswith("Under a, musketry causes 75 % of the union side's losses")
