"""``referee.testing``: the helpers a house rule's tests use, on the real rulesets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.game import Game, play
from referee.testing import (  # noqa: F401  (fixtures)
    against_base,
    find_seed,
    new_game,
    referee_against_base,
    referee_game,
    referee_seed,
    referee_situation,
    situation,
)

EXAMPLES = Path(__file__).parent.parent / "examples" / "house_rules"


@pytest.mark.parametrize(("ruleset", "mechanic", "kind"), [
    ("rff", "musketry", "Shot"), ("rff", "cannonade", "Shot"), ("rff", "maneuver", "Piece"),
    ("hardtack", "fire", "Shot"), ("hardtack", "confidence", "Company"), ("hardtack", "canister", "Shot"),
])
def test_a_situation_is_caught_from_play_with_its_game_stopped_there(ruleset: str, mechanic: str, kind: str) -> None:
    game, found = situation(mechanic, ruleset=ruleset)
    assert type(found).__name__ == kind
    assert game.state is not None and game.turn >= 1


def test_a_situation_may_be_chosen() -> None:
    _, shot = situation("musketry", where=lambda s: s.range_inches > 4)
    assert shot.range_inches > 4
    with pytest.raises(LookupError, match="no 'musketry' situation"):
        situation("musketry", where=lambda s: False, scenarios=["drill-musketry"], seeds=[1])


def test_a_seed_is_found_where_something_happens() -> None:
    def struggle(mechanic: str, resolution: Any) -> bool:
        return mechanic == "charge" and resolution.values.get("effect") == "desperate-struggle"

    seed = find_seed(struggle, scenario="drill-charge-battery")
    game = new_game("rff", "drill-charge-battery", seed, log=True)
    play(game)
    assert any(e.get("mechanic") == "charge" and e.get("values", {}).get("effect") == "desperate-struggle" for e in game.log.events)
    assert find_seed(struggle, scenario="drill-charge-battery", seeds=[seed - 1, seed, seed + 1]) == seed  # the first
    with pytest.raises(LookupError):
        find_seed(lambda m, r: False, seeds=[1, 2])


def test_against_base_is_compare_baseline() -> None:
    r = against_base([EXAMPLES / "double_canister.py"], scenario="drill-charge-battery", n=8)
    assert r["replications"] == 8 and r["games_changed"] > 0
    assert against_base([], scenario="drill-musketry", n=3)["games_changed"] == 0


def test_the_fixtures_are_the_helpers(  # the imported fixtures, asked for by name:
        referee_game: Callable[..., Game], referee_situation: Any, referee_seed: Any, referee_against_base: Any,  # noqa: F811
) -> None:
    assert (referee_situation, referee_seed, referee_against_base) == (situation, find_seed, against_base)
    game = referee_game("hardtack", "drill-cavalry", seed=2)
    assert game.rules.name == "hardtack" and game.seed == 2 and game.scenario.id == "drill-cavalry"
