"""What rff reads once per tables and keeps (maneuver.CheckTables, lookup.rates) must be what the
tables say, read one figure at a time."""

from __future__ import annotations

from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import lookup, maneuver
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables


def test_check_tables_read_as_one_figure_at_a_time() -> None:
    t = load_tables()
    read = maneuver.check_tables(t)
    assert read.printed == maneuver.printed_modifiers(t)
    assert read.outflank == maneuver.outflank_yards(t)
    assert read.brigade_losses == lookup.brigade_loss_thresholds(t)
    assert read.effectiveness == {g: lookup.effectiveness_thresholds(t, g) for g in ("crack", "veteran", "trained", "green")}


def test_effectiveness_and_brigade_losses_with_the_thresholds_handed_in() -> None:
    """Every piece of Big Bethel, with stands taken away step by step: the answers with the
    kept thresholds are those read from the tables."""
    game = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    state = game.state = muster(game, load_tables())
    read = maneuver.check_tables(state.tables)
    for piece in list(state.pieces.values()):
        while True:
            assert maneuver.effectiveness(state, piece, read.effectiveness[piece.grade]) == maneuver.effectiveness(state, piece)
            assert maneuver.brigade_losses(game, state, piece, read.brigade_losses) == maneuver.brigade_losses(game, state, piece)
            if piece.stands <= 1:
                break
            piece.stands -= 1
            state.lost_by_command[piece.command] = state.lost_by_command.get(piece.command, 0) + 1


def test_rates_kept_per_movement_key_are_the_tables() -> None:
    """lookup.rates (kept per arm and formation) against each ground's rate for every piece of Big
    Bethel in every formation and status it can take, at both paces."""
    game = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    state = game.state = muster(game, load_tables())
    t = state.tables
    for piece in state.pieces.values():
        formations = ("limbered", "unlimbered") if piece.guns else ("line", "extended-line", "field-column", "march-column")
        for formation in formations:
            for status in ("good", "broken"):
                piece.formation, piece.status = formation, status
                for double in (False, True):
                    assert lookup.rates(t, piece, double) == tuple(lookup.rate(t, piece, g, double) for g in ("open", "broken", "rough"))
