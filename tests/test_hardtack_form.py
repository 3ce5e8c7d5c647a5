"""What a Hardtack company keeps with its formation (state.Company.form): whether it is in close
formation (``close``) and its base move (``pace``, move.base_inches), checked after every
activation step of whole games against the answers computed afresh."""

from __future__ import annotations

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import activation, move
from referee.plugins.hardtack.state import CLOSE


@pytest.mark.parametrize(("scenario", "seed"), [("big-bethel", 7), ("kernstown", 1)])
def test_a_company_keeps_what_follows_from_its_formation(scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    step = activation.play_step
    checked = {"close": 0, "pace": 0, "changed": 0}
    formations: dict[str, str] = {}

    def checking(game: Game, s: object) -> None:
        step(game, s)
        for c in game.state.companies.values():
            assert c.close == (c.formation in CLOSE), (game.turn, c.id)
            checked["close"] += 1
            checked["changed"] += formations.setdefault(c.id, c.formation) != c.formation
            formations[c.id] = c.formation
            if c.pace is not None and (not c.artillery or c.figures > 1):  # (what base_inches would answer from)
                assert c.pace[1] == move._base_inches(c.pace[0], c), (game.turn, c.id)
                checked["pace"] += 1

    monkeypatch.setattr(activation, "play_step", checking)
    play(Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario)), seed, EventLog(enabled=False)))
    assert checked["close"] > 10_000 and checked["pace"] > 1000 and checked["changed"] > 20, checked
