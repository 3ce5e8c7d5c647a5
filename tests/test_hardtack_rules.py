"""Hardtack rules as written (issue 9, the rules audit's hardtack findings): each test fails
when the fix it guards is undone."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core.events import EventLog
from referee.core.game import Game, play
from referee.core.plugins import build_rules
from referee.core.scenario import find_scenario, load_scenario


def mustered(scenario_id: str = "big-bethel", seed: int = 1, log: EventLog | None = None) -> Game:
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario_id)), seed, log)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


def test_a_lone_gun_is_a_company_with_no_commander_of_its_own() -> None:
    """HT-O3 (audit M12): p.4 activates a single piece like an infantry company; a section or a
    battery has a command stand. In play no lone gun is given a transferred action."""
    game = mustered()
    regs = game.state.regiments
    lone = [r for r in regs.values() if r.unit.spec.arm == "artillery" and r.unit.spec.guns == 1]
    assert len(lone) == 6 and not any(r.commander for r in lone)
    assert regs["greble-guns"].commander
    log = EventLog(enabled=True)
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 7, log)
    play(game)
    ids = {r.id for r in lone}
    assert not [e for e in log.events if e.get("kind") in ("transfer", "commander", "rally") and e.get("unit") in ids]


def test_cultivated_fields_are_poor_going_for_every_mover() -> None:
    """p.14 (audit M10, HT-M9): "POOR = Rough, Cultivated, ..." for infantry, cavalry and guns
    limbered or not; Big Bethel's farm fields cost two inches of movement an inch, the open
    ground no area covers one."""
    from referee.plugins.hardtack import move

    game = mustered()
    t = game.state.tables
    assert all(t["movement"]["terrain"][m]["fields"] == "poor" for m in ("infantry", "mounted", "limbered", "unlimbered"))
    c = game.state.regiments["3rd-ny"].companies[0]
    c.x, c.y, c.formation = 1000.0, 900.0, "skirmish"
    yards, kinds, worst = move.walk(game, t, c, 1000.0, 1200.0, 6)
    assert (round(yards), worst, kinds) == (30, "poor", frozenset({"fields"}))
    c.x, c.y = 1000.0, 300.0  # HT-M9: ground no area covers (the neutral "fields") is open, clear going
    assert game.ground.kind_at(c.x, c.y) == "fields"
    assert move.walk(game, t, c, 1000.0, 500.0, 6) == (60.0, frozenset(), "clear")

