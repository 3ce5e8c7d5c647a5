"""The resolution contract, probed: every ruleset asks house rules for modifiers and lets them
replace and observe the result, for every mechanic it resolves in play."""

from __future__ import annotations

from typing import Any

import pytest
from referee.core.engine.events import Modifier, Resolution
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import Rules, build_rules, installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario

RULESETS = sorted(installed())  # base rulesets and packaged layers (hynds)


def declared(rules: Rules, attribute: str) -> set[str]:
    """The mechanics the stack's plugins name in a module attribute (docs/hooks.md): ``NO_MODIFIERS``,
    resolved with no modifiers in its rules (a house rule cannot add one); ``TABLE_ONLY``, offered
    to ``referee resolve`` and never rolled in the bundled battles."""
    return {m for _, plugin in rules.pm.list_name_plugin() for m in getattr(plugin, attribute, {})}


class Probe:
    """Records, by mechanic, which resolution hooks a ruleset called."""

    def __init__(self) -> None:
        self.asked: set[str] = set()
        self.resolved: set[str] = set()
        self.observed: list[tuple[str, Resolution]] = []

    @hookimpl
    def referee_modifiers(self, mechanic: str) -> list[Modifier]:
        self.asked.add(mechanic)
        return []

    @hookimpl
    def referee_resolved(self, mechanic: str) -> None:
        self.resolved.add(mechanic)

    @hookimpl
    def referee_observed(self, mechanic: str, resolution: Resolution) -> None:
        self.observed.append((mechanic, resolution))


def _probed(ruleset: str) -> tuple[Any, Probe]:
    """Every bundled scenario with seeds 1 and 2, and further seeds (to 8) while a listed
    mechanic is still unresolved: a rare one (sumter's melee and pursuit follow a charge that
    passes its test) is still met in play."""
    rules = build_rules(ruleset)
    probe = Probe()
    rules.register(probe, name="probe")
    scenarios = [load_scenario(find_scenario(sid)) for sid, _, _ in bundled()]
    for seed in range(1, 9):
        if seed > 2 and set(rules.mechanics) - declared(rules, "TABLE_ONLY") <= probe.resolved:
            break
        for scenario in scenarios:
            play(Game.new(rules, scenario, seed))
    return rules, probe


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mechanic_asks_for_modifiers_and_is_resolved_and_observed(ruleset: str) -> None:
    rules, probe = _probed(ruleset)
    played = probe.resolved
    listed = set(rules.mechanics)
    assert listed - played == declared(rules, "TABLE_ONLY"), "a listed mechanic is never resolved in play"
    unmodified = declared(rules, "NO_MODIFIERS") & played
    assert played - probe.asked == unmodified, "a mechanic resolved without asking house rules for modifiers"
    assert {m for m, _ in probe.observed} == played


class Replace:
    """Replaces every resolution with a marked copy."""

    @hookimpl
    def referee_resolved(self, resolution: Resolution) -> Resolution:
        return Resolution(resolution.ruleset, resolution.mechanic, resolution.ref, resolution.result, resolution.inputs,
                          resolution.modifiers, resolution.dice, resolution.total, resolution.values, ("REPLACED",))


def test_observers_see_the_final_resolution_and_cannot_change_it() -> None:
    rules = build_rules("rff")
    probe = Probe()
    rules.register(Replace(), name="replace")
    rules.register(probe, name="probe")
    game = Game.new(rules, load_scenario(find_scenario("drill-musketry")), 1)
    play(game)
    assert probe.observed and all(r.rulings == ("REPLACED",) for _, r in probe.observed)


def test_an_observer_alone_is_shown_resolutions_without_a_log() -> None:
    class Watch:
        seen = 0

        @hookimpl
        def referee_observed(self) -> str:
            Watch.seen += 1
            return "ignored"

    rules = build_rules("hardtack")
    rules.register(Watch(), name="watch")
    game = Game.new(rules, load_scenario(find_scenario("drill-musketry")), 1)
    assert not game.log.enabled
    play(game)
    assert Watch.seen > 0


class Shift:
    """A hardtack house rule: every fire resolution's range die one step larger (harder to hit)."""

    @hookimpl
    def referee_modifiers(self, mechanic: str) -> list[Modifier]:
        return [Modifier("smoke", 2, "probe", on="shift ")] if mechanic in ("fire", "confidence") else []


def test_a_modifier_house_rule_changes_hardtack_play() -> None:
    scenario = load_scenario(find_scenario("drill-musketry"))
    plain = play(Game.new(build_rules("hardtack"), scenario, 3))
    rules = build_rules("hardtack")
    rules.register(Shift(), name="shift")
    probe = Probe()
    rules.register(probe, name="probe")
    shifted = play(Game.new(rules, scenario, 3))
    fired = [r for m, r in probe.observed if m == "fire"]
    assert fired and all(any(x.name == "smoke" for x in r.modifiers) for r in fired)
    assert plain.as_json() != shifted.as_json()
