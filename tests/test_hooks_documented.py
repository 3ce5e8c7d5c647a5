"""docs/hooks.md documents every hook (the core's and any a ruleset declares) with its full
signature, every attribute of the `Game` hooks receive, and, for every installed ruleset, every
mechanic it lists or resolves in play, under its own heading."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest
from referee.core.engine import hookspecs
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules, installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario

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


def _spec(hook: str) -> Any:
    """The hookspec function of ``hook`` (the core's, or the ruleset's that declares it)."""
    if hasattr(hookspecs, hook):
        return getattr(hookspecs, hook)
    for ep in installed().values():
        specs = getattr(ep.load(), "HOOKSPECS", None)
        if specs is not None and hasattr(specs, hook):
            return getattr(specs, hook)
    raise AssertionError(hook)


@pytest.mark.parametrize("hook", _declared())
def test_every_hook_is_documented_with_its_full_signature(hook: str) -> None:
    arguments = ", ".join(inspect.signature(_spec(hook)).parameters)
    assert f"`{hook}({arguments})`" in DOC, f"{hook} is not documented in docs/hooks.md as `{hook}({arguments})`"


def _game_attributes_documented() -> list[str]:
    paragraph = DOC.split("The `Game` object that hooks receive has:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"`(\w+)(?=[(`])", paragraph)


def test_every_documented_game_attribute_exists_and_every_public_one_is_documented() -> None:
    documented = {name.split("(")[0] for name in _game_attributes_documented()}
    fields = {f.name for f in attrs.fields(Game)}
    methods = {name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")}
    public = (fields | methods | {n for n, v in vars(Game).items() if isinstance(v, property)}) - {"new"}
    assert documented <= public, f"docs/hooks.md documents Game attributes it lacks: {sorted(documented - public)}"
    assert public <= documented, f"Game attributes missing from docs/hooks.md: {sorted(public - documented)}"


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
