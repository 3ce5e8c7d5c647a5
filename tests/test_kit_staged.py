"""referee.testing.staged: a situation built from a description, under any ruleset, without
searching the bundled battles (a veteran charge, which no bundled battle has under rff)."""

from __future__ import annotations

import pytest
from referee.core.engine.errors import InvalidInput
from referee.testing import staged


def test_a_veteran_charge_under_rff() -> None:
    game, (charger, target) = staged("charge", ["a.experience=veteran", "charge=true", "range=100"])
    assert (charger.id, charger.grade, target.id) == ("a", "veteran", "b")
    assert game.world.units["a"].spec.experience == "veteran"


@pytest.mark.parametrize(("ruleset", "mechanic"), [("rff", "musketry"), ("hynds", "musketry"), ("sumter", "fire"),
                                                   ("hardtack", "fire")])
def test_fire_at_a_column_behind_a_fence_under_every_ruleset(ruleset: str, mechanic: str) -> None:
    game, _ = staged(mechanic, ["b.formation=column", "b.cover=fence", "range=100"], ruleset=ruleset)
    b = game.world.units["b"]
    assert b.spec.formation == "column" and game.ground.near("fence", b.spec.position[0], b.spec.position[1], 30)


def test_a_mistake_in_the_description_names_the_key() -> None:
    with pytest.raises(InvalidInput) as caught:
        staged("charge", ["a.experiense=veteran"])
    assert "a.experiense" in str(caught.value)


def test_what_never_happens_is_reported() -> None:
    with pytest.raises(LookupError, match="no 'charge' situation under rff"):
        staged("charge", ["charge=false", "range=1000", "minutes=15"], seeds=range(1, 3))
