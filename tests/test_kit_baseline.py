"""``referee compare --baseline``: a house rule (or a ruleset) measured game by game against its
base on the same seeds, with paired differences and a count of the games it changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from referee.core.cli.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples" / "house_rules"
NOTHING = '''\
from referee.core.engine.hookspecs import hookimpl

BASE = "any"


@hookimpl
def referee_modifiers(game, mechanic, situation):
    return []
'''


def _compare(*args: str) -> Any:
    result = CliRunner().invoke(main, ["compare", *args, "--workers", "1"])
    return result


def test_a_house_rule_against_its_base_reports_paired_differences_and_games_changed() -> None:
    result = _compare("drill-charge-battery", "--rules", "rff", "--house-rule", str(EXAMPLES / "double_canister.py"),
                      "--baseline", "-n", "30", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["baseline"] == "rff"
    (label, r), = report["against"].items()
    assert label == "rff+double_canister"
    assert r["replications"] == 30 and 0 < r["games_changed"] <= 30
    lost = r["statistics"]["union men lost"]
    d = lost["difference"]
    assert round(lost["other"] - lost["base"], 3) == d["mean"]
    assert d["ci95"][0] <= d["mean"] <= d["ci95"][1]
    assert set(r["statistics"]) >= {"union wins", "confederate wins", "draws", "minutes to decision", "confederate guns lost"}


def test_a_house_rule_that_never_applies_says_so(tmp_path: Path) -> None:
    rule = tmp_path / "nothing.py"
    rule.write_text(NOTHING)
    result = _compare("drill-musketry", "--rules", "hardtack", "--house-rule", str(rule), "--baseline", "-n", "5")
    assert result.exit_code == 0, result.output
    assert "this rule never applied: all 5 games were the same" in result.output
    data = json.loads(_compare("drill-musketry", "--rules", "hardtack", "--house-rule", str(rule), "--baseline", "-n", "5", "--json").output)
    r = data["against"]["hardtack+nothing"]
    assert r["games_changed"] == 0
    assert all(row["difference"]["mean"] == 0 for row in r["statistics"].values())


def test_a_named_baseline_is_set_against_each_other_stack() -> None:
    rule = str(EXAMPLES / "no_desperate_struggle.py")
    result = _compare("drill-charge-battery", "--rules", "rff", "--house-rule", rule, "--baseline", "rff", "-n", "20", "--json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)["against"]) == ["rff+no_desperate_struggle"]
    result = _compare("drill-musketry", "--rules", "hardtack,rff", "--baseline", "rff", "-n", "4")
    assert result.exit_code == 0, result.output
    assert "hardtack against rff on the same 4 seeds" in result.output and "games changed: 4 of 4" in result.output
    result = _compare("drill-musketry", "--rules", "hynds,rff", "--baseline", "rff", "-n", "3", "--json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)["against"]) == ["hynds"]  # a packaged layer against its base


def test_baseline_misuse_is_one_clear_message() -> None:
    for args, words in [
        (("--rules", "rff", "--baseline"), "--baseline alone measures house rules"),
        (("--rules", "rff,hardtack", "--house-rule", str(EXAMPLES / "double_canister.py"), "--baseline"), "name one ruleset"),
        (("--rules", "rff", "--baseline", "hardtack"), "--baseline hardtack: not among --rules"),
        (("--rules", "rff", "--baseline", "rff"), "nothing to measure against rff"),
    ]:
        result = _compare("drill-musketry", *args, "-n", "2")
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output and "Traceback" not in result.output
