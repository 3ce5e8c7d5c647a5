"""rff's enemy rows (state.Rows): an outflank search scans only the enemies kept sorted by
northing, so the rows must follow every move; the suite's strict build (tests/conftest.py)
also checks them against the pieces at every search."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins import rff
from referee.plugins.rff import charge, geometry, horses, move
from referee.plugins.rff.maneuver import outflank_yards
from referee.plugins.rff.muster import muster
from referee.plugins.rff.state import Piece, RffState
from referee.plugins.rff.tables import load_tables


def _flanked(game: Game, piece: Piece) -> tuple[bool, bool]:
    """(outflanked, what a scan of every enemy says)."""
    state, yards = game.state, outflank_yards(game.state.tables)
    plain = any(e.status != "broken" and e.parent is None and geometry.on_flank(piece, e)
                for _, e in geometry.within(state, piece, state.enemies_of(piece.side), yards))
    return geometry.outflanked(state, piece, yards), plain


def test_every_move_of_an_enemy_reaches_the_rows() -> None:
    """A Confederate regiment carries a place behind a Union one, advances away, retreats back
    toward it and runs to its horses: each search after a move sees where it stands now."""
    game = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    state = game.state = muster(game, load_tables())
    union = next(p for p in state.of_side("union") if p.troops)
    rebel = next(p for p in state.of_side("confederate") if p.troops)
    rear = math.radians(union.facing + 180.0)

    def behind(yards: float) -> tuple[float, float]:
        return union.x + yards * math.sin(rear), union.y + yards * math.cos(rear)

    assert _flanked(game, union) == (False, False)  # the rows built with every enemy far off
    charge._carry(game, state, rebel, behind(100.0), second=False)
    assert _flanked(game, union) == (True, True)
    move.advance(game, state, rebel, behind(400.0), 1_000.0)
    assert _flanked(game, union) == (False, False)
    move.retreat(game, state, rebel, 300.0)  # toward the Confederate rear: the Union one's front
    assert _flanked(game, union) == (True, True)
    state.horses[rebel.id], rebel.status = behind(2_000.0), "good"
    assert horses.run_to_horses(game, state, rebel)
    assert _flanked(game, union) == (False, False)


@pytest.mark.parametrize("rules", ["rff", "hynds"])
def test_the_pieces_in_play_follow_every_entry_and_loss(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lists of pieces in play are kept across turns and forgotten only when a piece enters
    or leaves play (``RffState.enter``, ``changed``): at the start of every phase of a Valverde
    game, whose reinforcements enter at 16:15, they are what a scan of every piece gives."""
    phases, entered = dict(rff.PHASE_OF), set()

    def checked(name: str) -> Callable[[Game, RffState, str], None]:
        def phase(game: Game, state: RffState, side: str) -> None:
            for s in game.scenario.sides:
                assert state.of_side(s) == [p for p in state.pieces.values() if p.alive and p.side == s]
            entered.update(p.id for p in state.pieces.values() if p.unit.spec.entry is not None and p.alive)
            phases[name](game, state, side)
        return phase

    for name in phases:
        monkeypatch.setitem(rff.PHASE_OF, name, checked(name))
    play(Game.new(build_rules(rules, ()), load_scenario(find_scenario("valverde")), 1, EventLog(enabled=False)))
    assert entered  # a reinforcement came on
