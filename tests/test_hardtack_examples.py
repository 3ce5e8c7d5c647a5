"""Hand-worked cases from the Hardtack text, bad input, determinism and documented rulings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from referee.core.engine.chance import SampledRoller
from referee.core.engine.errors import InvalidInput
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import mechanics
from referee.plugins.hardtack.muster import split
from referee.plugins.hardtack.tables import load_tables

ROOT = Path(__file__).resolve().parent.parent
T = load_tables()


def range_die_of(res) -> int:  # type: ignore[no-untyped-def]
    return int(re.search(r"band \d D(\d+)", res.ref)[1])


def test_smoothbore_example_1_p16() -> None:
    """Regular smoothbores at 10" behind a fence: D6, smoothbore D8, soft cover D10."""
    res = mechanics.fire(SampledRoller(1), T, 8, 10, 10, "soft", "close", "skirmish", "smoothbore")
    assert range_die_of(res) == 10
    assert [m.name for m in res.modifiers][:2] == ["smoothbore", "soft cover"]  # the smoothbore shift first


def test_smoothbore_example_2_p16() -> None:
    """At 6" the range die is D4 (close range): no smoothbore shift; soft cover makes D6."""
    res = mechanics.fire(SampledRoller(1), T, 8, 10, 6, "soft", "close", "skirmish", "smoothbore")
    assert range_die_of(res) == 6
    assert "smoothbore" not in [m.name for m in res.modifiers]


def test_d2_firepower_example_p17() -> None:
    """3 regular rifle-musket figures: D4 firepower and D8 quality; 2 figures: D4 and D6."""
    three = mechanics.fire(SampledRoller(1), T, 8, 3, 1, "none", "close", "skirmish")
    two = mechanics.fire(SampledRoller(1), T, 8, 2, 1, "none", "close", "skirmish")
    assert "D8+D4 vs" in three.ref
    assert "D6+D4 vs" in two.ref


def test_regimental_combat_move_example_p10() -> None:
    """Each company rolls its own D6 x 2; rolls of 1, 3, 5 move 2", 6", 10"... the commander may
    take any of them (p.10 prints 2, 4 and 6: the roll's inches, here doubled as SG2 has it)."""
    rolls = [mechanics.combat_move(SampledRoller(seed), 6) for seed in range(20)]
    assert all(r.values["inches"] == 2 * r.dice[0] for r in rolls)
    assert {r.values["inches"] for r in rolls} <= {2, 4, 6, 8, 10, 12}


def test_a_740_man_regiment_makes_16_companies() -> None:
    sizes = split(185, 12)
    assert len(sizes) == 16 and sum(sizes) == 185 and max(sizes) == 12 and min(sizes) == 11


@pytest.mark.parametrize("pairs", [["quality=d7", "firepower=4", "range=3"], ["firepower=0", "range=3"], ["firepower=4"], ["firepower=4", "range=3", "cover=bunker"]])
def test_bad_input_is_reported(pairs: list[str]) -> None:
    spec = build_rules("hardtack").mechanics["fire"]
    with pytest.raises(InvalidInput):
        spec.parse_inputs(pairs)


def test_same_seed_same_log() -> None:
    rules = build_rules("hardtack")
    scenario = load_scenario(find_scenario("drill-musketry"))
    logs = []
    for _ in range(2):
        game = Game.new(rules, scenario, 7, EventLog())
        play(game)
        logs.append(game.log.jsonl())
    assert logs[0] == logs[1] and '"ruleset":"hardtack"' in logs[0]


def test_figure_options_change_the_muster() -> None:
    scenario = load_scenario(find_scenario("drill-musketry"))
    counts = {}
    for option in ("figure-3-men", "figure-5-men"):
        game = Game.new(build_rules("hardtack", [option]), scenario, 1)
        play(game)
        counts[option] = sum(c.start for c in game.state.companies.values())
    assert counts["figure-3-men"] > counts["figure-5-men"]


def test_every_cited_ruling_is_documented() -> None:
    text = (ROOT / "docs" / "rulings" / "hardtack.md").read_text(encoding="utf-8")
    documented = re.findall(r"^### (HT-[A-Z]+\d+) — ", text, flags=re.MULTILINE)
    files = [*(ROOT / "plugins" / "hardtack").glob("*.py"), *(ROOT / "rulesets" / "hardtack").glob("*.toml")]
    cited = {m for f in files for m in re.findall(r"\b(HT-[A-Z]+\d+)\b", f.read_text(encoding="utf-8"))}
    assert not cited - set(documented), sorted(cited - set(documented))
    assert len(documented) == len(set(documented))
