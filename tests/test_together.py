"""A concerted assault (an attack order's ``together``): units of several commands that name
one group dress short of their charge reach until all have come as close, then go in together,
under every ruleset (tests/scenarios/drill-together.toml); without the key the nearer regiment
arrives turns before the other."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules
from referee.core.engine.reach import capabilities
from referee.core.input.scenario import load_scenario, parse_scenario

DRILL = Path(__file__).parent / "scenarios" / "drill-together.toml"
GROUP = ("us-near", "us-far")
RULESETS = ("rff", "hynds", "sumter", "hardtack")


class Arrivals:
    """The minute each regiment of the group first stands within its charge reach (its ruleset's
    answer) of the enemy, and the longest turn played."""

    def __init__(self) -> None:
        self.at: dict[str, int] = {}
        self.turn = 0
        self.last: int | None = None

    @hookimpl
    def referee_step_done(self, game, step) -> None:  # type: ignore[no-untyped-def]
        world = game.world
        if self.last is not None:
            self.turn = max(self.turn, world.minute - self.last)
        self.last = world.minute
        them = world.units["cs-regiment"]
        for uid in GROUP:
            u = world.units[uid]
            caps = capabilities(game, u)
            if uid in self.at or not u.on_field or caps is None:
                continue
            if math.hypot(u.x - them.x, u.y - them.y) <= caps.charge_yards:
                self.at[uid] = world.minute


def arrivals(ruleset: str, together: bool, seed: int) -> Arrivals:
    text = DRILL.read_text(encoding="utf-8")
    if not together:
        text = text.replace('together = "grand-charge"\n', "")
    rules = build_rules(ruleset)
    probe = Arrivals()
    rules.register(probe, name="arrivals")
    play(Game.new(rules, parse_scenario(text, str(DRILL)), seed, EventLog(enabled=False)))
    return probe


def spread(probe: Arrivals) -> float:
    """Minutes between the two regiments' arrivals within their charge reach (never: infinite)."""
    if len(probe.at) < len(GROUP):
        return math.inf
    return abs(probe.at["us-near"] - probe.at["us-far"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_concerted_assault_arrives_together(ruleset: str) -> None:
    """With the key, both come within their charge reach within one turn of each other; without
    it, the nearer comes turns before the farther (or the farther never does)."""
    for seed in (1, 2):
        probe = arrivals(ruleset, True, seed)
        assert probe.turn > 0
        assert spread(probe) <= probe.turn, (ruleset, seed, probe.at, probe.turn)
        alone = arrivals(ruleset, False, seed)
        assert spread(alone) > alone.turn, (ruleset, seed, "apart without the key", alone.at, alone.turn)


def test_the_release_is_logged() -> None:
    game = Game.new(build_rules("rff"), load_scenario(DRILL), 1, EventLog(enabled=True))
    play(game)
    released = [e for e in game.log.events if e["kind"] == "plan" and e.get("group") == "grand-charge"]
    assert len(released) == 1 and "concerted assault grand-charge goes in" in released[0]["text"]


VEDETTE = """
[[units]]
id = "cs-vedette"
name = "Confederate vedette, ahead of the line and off the nearer regiment's way"
command = "cs-brigade"
arm = "infantry"
men = 60
position = [450, 1700]
facing = 180
formation = "skirmish"
experience = "trained"
weapon = "shotgun"
"""


def _place(game: Game, unit: str, x: float, y: float) -> None:
    u = game.world.units[unit]
    u.x, u.y = x, y
    game.world.space.moved(u)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_dressed_unit_stays_dressed_whatever_its_nearest_enemy_does(ruleset: str) -> None:
    """The nearer regiment dresses on a vedette, its nearest enemy but not the enemy the group
    assaults; the vedette goes: the regiment, standing on its line, stays dressed (it holds, and
    the group goes in once the farther regiment has dressed too), rather than marching on to dress
    afresh on the regiment behind while the farther one waits for it."""
    from referee.core.engine.doctrine import DefaultDoctrine, _dress_yards

    text = DRILL.read_text(encoding="utf-8") + VEDETTE
    game = Game.new(build_rules(ruleset), parse_scenario(text, str(DRILL)), 1, EventLog(enabled=True))
    game.state = game.rules.muster(game)
    near, far, regiment = (game.world.units[u] for u in ("us-near", "us-far", "cs-regiment"))
    _place(game, "us-near", 450, 1700 - _dress_yards(capabilities(game, near)))
    commander = DefaultDoctrine()
    assert commander.referee_intents(game, "union")["us-near"].action == "hold"  # dressed on the vedette
    _place(game, "cs-vedette", 1150, 2550)  # the vedette goes back: the regiment behind it is now the nearest
    assert math.hypot(regiment.x - near.x, regiment.y - near.y) > _dress_yards(capabilities(game, near)) + 100
    intents = commander.referee_intents(game, "union")
    assert intents["us-near"].action == "hold", intents["us-near"]
    assert intents["us-far"].action == "advance"
    _place(game, "us-far", regiment.x, regiment.y - _dress_yards(capabilities(game, far)))
    commander.referee_intents(game, "union")
    released = [e["text"] for e in game.log.events if e["kind"] == "plan" and e.get("group") == "grand-charge"]
    assert released == ["concerted assault grand-charge goes in: all 2 of its units still advancing have dressed"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_unit_dressing_stays_in_the_skirmish_order_its_order_names(ruleset: str) -> None:
    """Halted on its dressing line, a unit whose attack order sends it forward in skirmish order
    is asked to stand in skirmish order, not to form line (and in line without the key)."""
    from referee.core.engine.doctrine import DefaultDoctrine, _dress_yards

    for formation in ("skirmish", None):
        text = DRILL.read_text(encoding="utf-8")
        if formation:
            text = text.replace('command = "us-first"\nkind = "attack"\n', f'command = "us-first"\nkind = "attack"\nformation = "{formation}"\n')
        game = Game.new(build_rules(ruleset), parse_scenario(text, str(DRILL)), 1, EventLog(enabled=False))
        game.state = game.rules.muster(game)
        near, regiment = game.world.units["us-near"], game.world.units["cs-regiment"]
        _place(game, "us-near", regiment.x, regiment.y - _dress_yards(capabilities(game, near)))
        intent = DefaultDoctrine().referee_intents(game, "union")["us-near"]
        assert (intent.action, intent.formation) == ("hold", formation or "line"), (ruleset, formation)
