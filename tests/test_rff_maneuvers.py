"""QRS II troop maneuvers the engine once left out (docs/rulings/rff.md RFF-P20, P36, P37): each
test fails on the code before they were played."""

from __future__ import annotations

import pytest
from referee.core.engine.doctrine import Intent
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import fire, lookup, maneuver, move
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables


def _game() -> Game:
    game = Game.new(build_rules("rff"), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=True))
    game.state = muster(game, load_tables())
    return game


def _line(game: Game) -> object:
    piece = game.state.pieces["1st-vt"]
    piece.x, piece.y, piece.facing, piece.formation, piece.status = 1000.0, 700.0, 0.0, "line", "good"
    game.state.changed()
    return piece


def test_troops_low_on_ammunition_replenish_with_a_well_handled_maneuver() -> None:
    """"Replenish ammunition" is a Well Handled troop maneuver (QRS II), not only a gun's."""
    game = _game()
    piece = _line(game)
    piece.low_ammo = True
    hold = Intent("hold", (piece.x, piece.y), None, None, "defend")
    assert maneuver.needs_check(game, game.state, piece, hold)
    maneuver.apply(game, game.state, piece, hold, "well-handled", {})
    assert not piece.low_ammo
    assert game.log.events[-1]["text"] == "1st-vt replenishes ammunition"


@pytest.mark.parametrize(("bearing", "flank"), [(90.0, True), (270.0, True), (20.0, False), (180.0, False)])
def test_a_line_moving_off_its_flank_marches_by_the_flank(bearing: float, flank: bool) -> None:
    """"March by the flank a half move", and +1 to fire at a target that marched by the flank."""
    import math

    game = _game()
    piece = _line(game)
    goal = (piece.x + 600.0 * math.sin(math.radians(bearing)), piece.y + 600.0 * math.cos(math.radians(bearing)))
    start = (piece.x, piece.y)
    full = move.rate_yards(game, game.state, piece, "full", goal)
    maneuver._act(game, game.state, piece, Intent("advance", goal, None, None, "attack"), "full", reform=True)
    went = math.hypot(piece.x - start[0], piece.y - start[1])
    assert went == pytest.approx(full / 2 if flank else full, rel=0.05)
    assert (piece.moved == "flank") is flank
    enemy = game.state.pieces["1st-nc"]
    shot = fire.Shot(enemy, piece, "musketry", 5.0, 4, 1, False)
    exposed = lookup.modifier(game.state.tables, "fire", "troop-target-exposed")
    assert (exposed in fire.die_modifiers(game, game.state, shot)) is flank


def test_a_tardy_maneuver_may_form_open_order() -> None:
    """Tardy: "Change formation to line, open order, or garrison": open order is the extended line."""
    game = _game()
    piece = _line(game)
    maneuver.apply(game, game.state, piece, Intent("hold", (piece.x, piece.y), None, "skirmish", "defend"), "tardy", {})
    assert piece.formation == "extended-line"
