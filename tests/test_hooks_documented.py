"""docs/hooks.md documents every hook (the core's and any a ruleset declares) and, for every
installed ruleset, every mechanic it lists or resolves in play, under its own heading."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from referee.core import hookspecs
from referee.core.game import Game, play
from referee.core.hookspecs import hookimpl
from referee.core.plugins import build_rules, installed
from referee.core.scenario import bundled, find_scenario, load_scenario

DOC = (Path(__file__).parent.parent / "docs" / "hooks.md").read_text(encoding="utf-8")
RULESETS = sorted(installed())  # base rulesets and packaged layers


def _hooks(module: ModuleType) -> list[str]:
    return sorted(n for n in dir(module) if hasattr(getattr(module, n), "referee_spec"))


def _declared() -> list[str]:
    """The core's hooks and those each installed ruleset declares (a module's HOOKSPECS)."""
    names = set(_hooks(hookspecs))
    for ep in installed().values():
        specs = getattr(ep.load(), "HOOKSPECS", None)
        if specs is not None:
            names.update(_hooks(specs))
    return sorted(names)


@pytest.mark.parametrize("hook", _declared())
def test_every_hook_is_documented_with_its_arguments(hook: str) -> None:
    assert re.search(rf"`{hook}\(", DOC), f"{hook} is not documented in docs/hooks.md (as `{hook}(...)`)"


def _section(ruleset: str) -> str:
    match = re.search(rf"^### {re.escape(ruleset)}\n(.*?)(?=^##)", DOC + "\n##", re.DOTALL | re.MULTILINE)
    assert match, f"docs/hooks.md has no '### {ruleset}' section under Rulesets"
    return match.group(1)


class Seen:
    def __init__(self) -> None:
        self.mechanics: set[str] = set()

    @hookimpl
    def referee_observed(self, mechanic: str) -> None:
        self.mechanics.add(mechanic)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mechanic_of_every_ruleset_is_documented_with_a_turn_diagram(ruleset: str) -> None:
    rules = build_rules(ruleset)
    seen = Seen()
    rules.register(seen, name="seen")
    for sid, _, _ in bundled():
        play(Game.new(rules, load_scenario(find_scenario(sid)), 1))
    section = _section(ruleset)
    assert "```" in section and "turn" in section, f"the {ruleset} section has no turn-sequence diagram"
    missing = sorted(m for m in set(rules.mechanics) | seen.mechanics if f'`"{m}"`' not in section)
    assert not missing, f"mechanics of {ruleset} not in its docs/hooks.md table: {missing}"
