"""Every ruleset plays a game the same whether large sides are searched through an index or
scanned: the world's index of places (core/engine/space.py: a side of more than ``SMALL`` units
in a tree, whose units tell it of every move) and rff's enemy rows (a side of more than
``SCANNED`` pieces). tests/test_space.py and tests/test_rff_index.py check each answer against a
scan; these check the game, where a place written without the index hearing of it (a unit moved
by some other door than ``TrackedUnit``'s) would change play. Bundled battles have no side large
enough for either index, so they are played with every side indexed; a battle with 40 extra
regiments a side (benchmarks/bench_scale.py) is played with none. Hardtack's own grid has the
same check in tests/test_hardtack_scale.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from referee.core.engine import space
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules, installed
from referee.core.engine.world import Scenario
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.plugins.rff import geometry as rff_geometry
from referee.plugins.rff import state as rff_state

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_scale import scaled, to_toml

RULESETS = sorted(installed())
EVERY_SIDE = 0  # a threshold every side passes: each is indexed
NO_SIDE = 10**9  # a threshold no side passes: each is scanned


def played(rules: str, scenario: Scenario, seed: int) -> str:
    log = EventLog(enabled=True)
    play(Game.new(build_rules(rules), scenario, seed, log))
    return log.jsonl()


def indexed_from(threshold: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sides of more than ``threshold`` units (and rff's, pieces) are searched through an index."""
    monkeypatch.setattr(space, "SMALL", threshold)
    monkeypatch.setattr(rff_state, "SCANNED", threshold)
    monkeypatch.setattr(rff_geometry, "SCANNED", threshold)


@pytest.mark.parametrize("rules", RULESETS)
def test_a_bundled_battle_is_the_same_with_every_side_indexed(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(find_scenario("big-bethel"))
    scanned = played(rules, scenario, 7)
    indexed_from(EVERY_SIDE, monkeypatch)
    assert played(rules, scenario, 7) == scanned


@pytest.mark.parametrize("rules", [r for r in RULESETS if r != "hardtack"])  # (hardtack: some seconds a game at this size)
def test_a_large_battle_is_the_same_with_no_side_indexed(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = parse_scenario(to_toml(scaled(40, "crowded")), "<drill with 40 extra regiments a side, crowded>")
    assert min(sum(1 for u in scenario.units if u.side == s) for s in ("union", "confederate")) > space.SMALL
    indexed = played(rules, scenario, 1)
    indexed_from(NO_SIDE, monkeypatch)
    assert played(rules, scenario, 1) == indexed
