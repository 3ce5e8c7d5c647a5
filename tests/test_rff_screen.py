"""rff_screen: a house rule changes how many stands a regiment detaches as skirmishers (rff's
optional rule), through rff's hook rather than a copy of rff's procedure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from referee.api import Intent, hookimpl
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import load_scenario
from referee.plugins.rff import maneuver, skirmishers
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables

DRILL = Path(__file__).parent / "scenarios" / "drill-rff-ground.toml"


class Screens:
    """A house rule: a regiment screens with ``answer`` stands (None: rff's), and is asked what rff offers."""

    def __init__(self, answer: int | None) -> None:
        self.answer = answer
        self.offered: list[tuple[str, int]] = []

    @hookimpl
    def rff_screen(self, game: Any, regiment: Any, stands: int) -> int | None:
        self.offered.append((regiment.id, stands))
        return self.answer


def _screened(rule: Screens | None) -> tuple[Game, Any]:
    """The drill's Union regiment after a Well Handled check under an order that wants a screen."""
    rules = build_rules("rff", ("skirmishers", "no-full-move-disordered"))
    if rule is not None:
        rules.register(rule, "house-screens")
    game = Game.new(rules, load_scenario(DRILL), 1, EventLog(enabled=True))
    game.state = muster(game, load_tables())
    piece = game.state.pieces["us-regiment"]
    piece.effect = "well-handled"
    intent = Intent("advance", (600.0, 1800.0), "cs-regiment", "line", "attack", skirmishers=True)
    maneuver.apply(game, game.state, piece, intent, "well-handled", {})
    return game, piece


def _screen_stands(game: Game, piece: Any) -> int:
    return 0 if piece.skirmishers is None else int(game.state.pieces[piece.skirmishers].stands)


def test_rff_alone_screens_with_its_own_count() -> None:
    game, piece = _screened(None)
    assert _screen_stands(game, piece) == skirmishers.how_many(piece.start_stands, game.state.tables) > 0


@pytest.mark.parametrize(("answer", "expected"), [(None, "rff's"), (0, 0), (2, 2), (99, "all but one")])
def test_a_house_rule_changes_the_screen(answer: int | None, expected: Any) -> None:
    rule = Screens(answer)
    game, piece = _screened(rule)
    own = skirmishers.how_many(piece.start_stands, game.state.tables)
    assert rule.offered and set(rule.offered) == {("us-regiment", own)}  # asked with rff's count
    want = {"rff's": own, "all but one": piece.start_stands - 1}.get(expected, expected)
    assert _screen_stands(game, piece) == want
    assert piece.stands == piece.start_stands - want  # the regiment keeps the rest
    if want == 0:
        assert piece.moved != "half"  # no screen: no change of formation halves its move
