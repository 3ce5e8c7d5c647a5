"""rff's look-ups for large sides: a side of more than ``SCANNED`` pieces is searched through its
enemy rows (``geometry.enemies_near``) and its pieces by command (``RffState.under``), and its
leaders by command (``RffState.leaders_over``); each must give what a scan of every piece or
leader gives, in the same order (the order decides ties, and sums of places)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import parse_scenario
from referee.plugins.rff import geometry
from referee.plugins.rff.muster import muster
from referee.plugins.rff.state import SCANNED, RffState
from referee.plugins.rff.tables import load_tables

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_scale import scaled, to_toml


def _large(layout: str) -> Game:
    """The musketry drill with 40 extra regiments a side, mustered, its pieces scattered."""
    scenario = parse_scenario(to_toml(scaled(40, layout)), f"<drill with 40 extra, {layout}>")
    game = Game.new(build_rules("rff", ()), scenario, 1, EventLog(enabled=False))
    state = game.state = muster(game, load_tables())
    rng = random.Random(layout)
    for p in state.pieces.values():  # scattered, some on the same northing (ties in the rows)
        p.x, p.y = p.x + rng.uniform(-300.0, 300.0), round(p.y + rng.uniform(-300.0, 300.0), -1)
        p.facing = rng.uniform(0.0, 360.0)
    state.changed()
    return game


@pytest.mark.parametrize("layout", ["open", "crowded"])
def test_a_large_sides_searches_match_a_scan(layout: str) -> None:
    game = _large(layout)
    state: RffState = game.state
    assert min(len(state.enemies_of(s)) for s in ("union", "confederate")) > SCANNED  # the rows are asked
    for piece in list(state.pieces.values())[::3]:
        for yards in (0.0, 150.0, 600.0):
            every = state.enemies_of(piece.side)
            for arc in (False, True):
                near = geometry.within(state, piece, geometry.enemies_near(state, piece, yards), yards, arc)
                assert near == geometry.within(state, piece, every, yards, arc)
            assert [p for p in every if p in set(geometry.enemies_near(state, piece, yards))] == \
                geometry.enemies_near(state, piece, yards)  # in the order listed
        near = geometry.around(state, piece.side, state.enemies_of(piece.side)).within(state, piece, 600.0)
        assert near == geometry.nearest_first(geometry.within(state, piece, state.enemies_of(piece.side), 600.0, True))


def test_a_large_sides_pieces_and_leaders_by_command_match_a_scan() -> None:
    game = _large("open")
    state: RffState = game.state
    for leader in state.leaders.values():
        mine = [p for p in state.of_side(leader.side) if p.command in leader.commands]
        assert state.under(leader.side, leader.commands) == mine
        for command in (None, *sorted(leader.commands)):
            assert state.leaders_over(leader.side, command) == [
                ld for ld in state.leaders.values() if ld.side == leader.side and (command is None or command in ld.commands)]
    everyone = frozenset().union(*(ld.commands for ld in state.leaders.values()))
    side = "union"
    assert state.under(side, everyone) == state.of_side(side)  # many commands: merged in the order of of_side

