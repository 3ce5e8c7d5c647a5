"""rff's enemy rows (state.Rows): an outflank search scans only the enemies kept sorted by
northing, so the rows must follow every move; the suite's strict build (tests/conftest.py)
also checks them against the pieces at every search."""

from __future__ import annotations

import math

from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import charge, geometry, horses, move
from referee.plugins.rff.maneuver import outflank_yards
from referee.plugins.rff.muster import muster
from referee.plugins.rff.state import Piece
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
