"""The example ruleset of docs/writing-a-ruleset.md (examples/rulesets/firefight) passes the
conformance suite and answers at the table, as an installed one would.

The example is made visible as if installed: its folder on ``sys.path`` and its entry point added
to what :func:`referee.core.engine.plugins.installed` finds, for these tests only."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from fractions import Fraction
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
import test_conformance
import test_reach
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine import plugins
from referee.core.input.scenario import bundled

EXAMPLE = Path(__file__).parent.parent / "examples" / "rulesets" / "firefight"
ENTRY = EntryPoint("firefight", "referee_firefight", plugins.GROUP)


@pytest.fixture(autouse=True)
def firefight_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = plugins.entry_points

    def entry_points(**selection: Any) -> Any:
        found = list(real(**selection))
        return [*found, ENTRY] if selection.get("group") == plugins.GROUP else found

    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setattr(plugins, "entry_points", entry_points)
    plugins.installed.cache_clear()  # found again with the example, and again without it after
    yield
    plugins.installed.cache_clear()
    for name in [m for m in sys.modules if m.startswith("referee_firefight")]:
        del sys.modules[name]


@pytest.mark.parametrize("scenario_id", [sid for sid, _, _ in bundled()])
def test_the_example_plays_every_bundled_scenario_with_the_invariants(scenario_id: str) -> None:
    test_conformance.test_plays_to_the_end_with_invariants("firefight", scenario_id, 1)


def test_the_example_is_listed_and_its_tables_print() -> None:
    listed = CliRunner().invoke(main, ["rulesets"])
    assert listed.exit_code == 0 and "firefight" in listed.output
    shown = CliRunner().invoke(main, ["tables", "firefight"])
    assert shown.exit_code == 0, shown.output
    assert "12 or more" in shown.output and "close: +2" in shown.output


def test_the_example_gives_exact_odds_of_its_fire_table() -> None:
    """2d6 with no modifier: 4 or less (6 of 36) no hit, 5-7 (15) one, 8-9 (9) two, 10-11 (5) three, 12 (1) four."""
    result = CliRunner().invoke(main, ["resolve", "firefight", "fire", "--exact", "--json"])
    assert result.exit_code == 0, result.output
    odds = {o["values"]["hits"]: Fraction(o["probability"]) for o in json.loads(result.output)["outcomes"]}
    assert odds == {0: Fraction(6, 36), 1: Fraction(15, 36), 2: Fraction(9, 36), 3: Fraction(5, 36), 4: Fraction(1, 36)}


def test_a_data_house_rule_changes_the_example(tmp_path: Path) -> None:
    overlay = tmp_path / "steady.toml"
    overlay.write_text("[morale]\npass = 2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["resolve", "firefight", "morale", "--exact", "--json", "--house-rule", str(overlay)])
    assert result.exit_code == 0, result.output
    assert {o["result"] for o in json.loads(result.output)["outcomes"]} == {"good"}  # 2 on two dice always passes


def test_the_example_holds_an_engage_order_at_its_range() -> None:
    test_reach.test_an_engage_order_holds_at_its_range("firefight")
