"""What rff's fire skips when nothing is logged changes nothing in play."""

from __future__ import annotations

import attrs
import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import fire, lookup, mechanics
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables

SKIPPED = frozenset(("spot", "footprint"))  # kept answers, not play


def _mustered() -> Game:
    game = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    game.state = muster(game, load_tables())
    return game


def _play(piece: fire.Piece) -> dict[str, object]:
    return {f.name: getattr(piece, f.name) for f in attrs.fields(type(piece)) if f.name not in SKIPPED}


@pytest.mark.parametrize("kind", ["musketry", "cannonade"])
@pytest.mark.parametrize("effect", ["desultory", "lively", "galling", "telling", "withering"])
def test_a_massed_effect_passed_over_unlogged_would_change_nothing(kind: str, effect: str) -> None:
    """fire._tells says which next-lower effects a massed target can feel; applied to troops
    and guns, in order or disordered, charging or not, one it calls harmless leaves every
    piece as it was, and one it calls telling changes some piece."""
    game = _mustered()
    state = game.state
    firer = next(p for p in state.pieces.values() if p.troops)
    targets = [p for p in state.pieces.values() if p.side != firer.side]
    assert any(p.guns for p in targets) and any(p.troops for p in targets)
    changed = False
    for target in targets:
        for status in ("good", "disordered"):
            for charging in (None, firer.id):
                target.status, target.charge_target, target.cold_steel = status, charging, False
                before = _play(target)
                values = {"effect": effect, **mechanics.effect_values(state.tables, kind, effect, None, status != "good", target.guns)}
                fire.apply(game, state, fire.Shot(firer, target, kind, 1.0, 0, 0, True), values, massed=True)
                changed = changed or _play(target) != before
    assert changed == fire._tells(state.tables, kind, effect)
    assert lookup.next_lower_effect(state.tables, "lively") == "desultory"


def test_the_weakest_effects_are_harmless() -> None:
    """Desultory fire does nothing; lively musketry does nothing; lively cannonade does."""
    t = load_tables()
    assert not fire._tells(t, "musketry", "desultory") and not fire._tells(t, "cannonade", "desultory")
    assert not fire._tells(t, "musketry", "lively")
    assert fire._tells(t, "cannonade", "lively") and fire._tells(t, "musketry", "galling")
