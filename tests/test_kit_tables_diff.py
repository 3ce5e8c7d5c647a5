"""``referee tables RULESET --diff [OTHER]``: table by table, what a layer changes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from referee.core.cli.cli import main


def _tables(*args: str) -> object:
    return CliRunner().invoke(main, ["tables", *args])


def test_a_house_rule_overlay_shows_only_the_rows_it_changes(tmp_path: Path) -> None:
    rule = tmp_path / "steady.toml"
    rule.write_text("[maneuver.command_radius.clear]\ninches = 18\n")
    result = _tables("rff", "--house-rule", str(rule), "--diff", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["from"], data["to"]) == ("rff", "rff+steady")
    assert list(data["changed"]) == ["command-radius"]
    (row,) = data["changed"]["command-radius"]["rows"]
    assert row["before"][0] == '6"' and row["after"][0] == '18"' and row["before"][1:] == row["after"][1:]
    assert "musketry-fire-points" in data["unchanged"]
    text = _tables("rff", "command-radius", "--house-rule", str(rule), "--diff").output
    assert "rff+steady against rff: 1 table(s) changed, 0 unchanged" in text and '- 6" | Clear line of sight' in text


def test_another_ruleset_shows_added_and_removed_tables() -> None:
    data = json.loads(_tables("rff", "--diff", "hardtack", "--json").output)
    statuses = {change["status"] for change in data["changed"].values()}
    assert statuses == {"added", "removed", "changed"}
    assert data["changed"]["confidence"]["status"] == "removed"


def test_diff_against_itself_or_an_unknown_table_is_refused() -> None:
    result = _tables("rff", "--diff")
    assert result.exit_code == 2 and "same stack" in result.output
    result = _tables("rff", "nosuch", "--diff", "hardtack")
    assert result.exit_code == 2 and "nosuch" in result.output
