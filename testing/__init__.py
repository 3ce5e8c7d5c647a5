"""Helpers and pytest fixtures for testing a house rule (``referee.testing``).

Use them in a house rule's own tests, with ``pytest_plugins = ("referee.testing",)`` in the
``conftest.py`` at the root of its project, or call the functions directly:

- :func:`new_game`: a game on a drill scenario, mustered and ready to play (fixture ``referee_game``);
- :func:`situation`: a real situation of one mechanic, caught from play, to call a hook with
  (fixture ``referee_situation``);
- :func:`staged`: a situation of one mechanic built from a description of two units (a veteran
  charge, a battery in column), under any ruleset (fixture ``referee_staged``);
- :func:`find_seed`: the first seed of a game in which something happens (fixture ``referee_seed``);
- :func:`against_base`: a stack against its base on common random numbers, every statistic's
  paired difference and how many games changed (fixture ``referee_against_base``).

Each takes ``house_rules`` as ``--house-rule`` does (files), and ``ruleset`` as ``--rules`` does
(an installed ruleset or packaged house rule, its base first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.errors import RefereeError
from referee.core.engine.events import EventLog, Resolution
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import Rules, build_rules
from referee.core.engine.world import Scenario
from referee.core.input.scenario import find_scenario, load_scenario
from referee.core.studies.compare import Stack, against_baseline, replicate_traced
from referee.core.studies.situation import field_of
from referee.core.studies.situation import read as read_situation

__all__ = ["Found", "against_base", "find_seed", "new_game", "situation", "staged"]

HouseRules = Sequence[str | Path]


def _rules(ruleset: str, house_rules: HouseRules, options: Sequence[str]) -> Rules:
    return build_rules(ruleset, tuple(options), tuple(house_rules))


def new_game(ruleset: str = "rff", scenario: str = "drill-musketry", seed: int = 1, house_rules: HouseRules = (),
             options: Sequence[str] = (), log: bool = False) -> Game:
    """A game of ``scenario`` under the stack, not yet played (``play(game)`` plays it; with
    ``log`` its events are kept in ``game.log.events``)."""
    rules = _rules(ruleset, house_rules, options)
    return Game.new(rules, load_scenario(find_scenario(scenario)), seed, EventLog(enabled=log))


class Found(Exception):
    """Raised by a probe to stop a game at what it looked for."""


class _Catch:
    def __init__(self, mechanic: str, where: Callable[[Any], bool]) -> None:
        self.mechanic, self.where = mechanic, where
        self.caught: tuple[Game, Any] | None = None

    @hookimpl(tryfirst=True)
    def referee_modifiers(self, game: Game, mechanic: str, situation: Any) -> list[Any]:
        if mechanic == self.mechanic and self.where(situation):
            self.caught = (game, situation)
            raise Found(mechanic)
        return []


DRILLS = ("drill-musketry", "drill-charge-battery", "drill-cavalry", "big-bethel")


def situation(mechanic: str, ruleset: str = "rff", scenarios: Sequence[str] = DRILLS, seeds: Sequence[int] = range(1, 11),
              where: Callable[[Any], bool] = lambda s: True, house_rules: HouseRules = ()) -> tuple[Game, Any]:
    """A real ``situation`` of ``mechanic`` (what the ruleset passes to ``referee_modifiers``),
    with its game stopped there: the first that ``where`` accepts in games of ``scenarios`` on
    ``seeds``. Call your hook with it: ``my_rule.referee_modifiers(game, mechanic, situation)``."""
    fields = [load_scenario(find_scenario(scenario)) for scenario in scenarios]
    return _caught(_rules(ruleset, house_rules, ()), mechanic, where, fields, seeds, ", ".join(scenarios))


def staged(mechanic: str, setup: Sequence[str] = (), ruleset: str = "rff", where: Callable[[Any], bool] = lambda s: True,
           seeds: Sequence[int] = range(1, 51), house_rules: HouseRules = ()) -> tuple[Game, Any]:
    """A ``situation`` of ``mechanic`` built from a description rather than found in a battle:
    two units ``a`` and ``b`` described as ``referee situation --set`` describes them
    (``"a.experience=veteran"``, ``"charge=true"``, ``"range=150"``, ``"b.cover=fence"``,
    ``"b.formation=column"``, ... see docs/situation.md), set on a small field of their own
    (:func:`referee.core.studies.situation.field_of`) and played under the stack until the ruleset asks
    for ``mechanic`` in a way ``where`` accepts. Any ruleset, any rare case: a veteran charge, a
    battery in column, cavalry on a fence. A mistake in ``setup`` raises
    :class:`~referee.core.engine.errors.InvalidInput` naming the key and what would be valid."""
    described = read_situation(None, setup)
    return _caught(_rules(ruleset, house_rules, ()), mechanic, where, [field_of(described)], seeds, described.describe())


def _caught(rules: Rules, mechanic: str, where: Callable[[Any], bool], fields: Sequence[Scenario], seeds: Sequence[int],
            what: str) -> tuple[Game, Any]:
    """The first ``mechanic`` situation ``where`` accepts in games on ``fields`` and ``seeds``."""
    catch = _Catch(mechanic, where)
    rules.register(catch, name="referee.testing.situation")
    for field in fields:
        for seed in seeds:
            try:
                play(Game.new(rules, field, seed))
            except Found:
                pass
            except RefereeError as error:  # the host names the probe's signal as a plugin's failure
                if not isinstance(error.__cause__, Found):
                    raise
            if catch.caught is not None:
                return catch.caught
    raise LookupError(f"no {mechanic!r} situation under {rules.name} in {what} on seeds {seeds}")


class _Watch:
    def __init__(self, happens: Callable[[str, Resolution], bool]) -> None:
        self.happens, self.seen = happens, False

    @hookimpl
    def referee_observed(self, mechanic: str, resolution: Resolution) -> None:
        self.seen = self.seen or self.happens(mechanic, resolution)


def find_seed(happens: Callable[[str, Resolution], bool], ruleset: str = "rff", scenario: str = "drill-musketry",
              seeds: Sequence[int] = range(1, 201), house_rules: HouseRules = ()) -> int:
    """The first seed whose game has a resolution for which ``happens(mechanic, resolution)`` is
    true, e.g. ``lambda m, r: m == "charge" and r.values["effect"] == "desperate-struggle"``."""
    rules = _rules(ruleset, house_rules, ())
    watch = _Watch(happens)
    rules.register(watch, name="referee.testing.seed")
    loaded = load_scenario(find_scenario(scenario))
    for seed in seeds:
        watch.seen = False
        play(Game.new(rules, loaded, seed))
        if watch.seen:
            return seed
    raise LookupError(f"nothing of the kind happens under {rules.name} in {scenario} on seeds {seeds}")


def against_base(house_rules: HouseRules, ruleset: str = "rff", scenario: str = "drill-musketry", n: int = 50, seed: int = 1,
                 base: str | None = None) -> dict[str, Any]:
    """The stack (``ruleset`` with ``house_rules``) against ``base`` (default: ``ruleset`` alone)
    on the same ``n`` seeds, as ``referee compare --baseline`` reports it: ``games_changed`` and,
    by statistic, the means and the paired ``difference`` with its ``ci95``."""
    path = str(find_scenario(scenario))
    ks = range(n)
    plain = replicate_traced(Stack(base or ruleset), path, seed, ks)
    ruled = replicate_traced(Stack(ruleset, (), tuple(str(p) for p in house_rules)), path, seed, ks)
    return against_baseline(plain, ruled, load_scenario(find_scenario(scenario)).sides)


@pytest.fixture
def referee_game() -> Callable[..., Game]:
    """:func:`new_game`, as a fixture: ``referee_game("rff", "drill-charge-battery", seed=4)``."""
    return new_game


@pytest.fixture
def referee_situation() -> Callable[..., tuple[Game, Any]]:
    """:func:`situation`, as a fixture: ``game, shot = referee_situation("cannonade")``."""
    return situation


@pytest.fixture
def referee_staged() -> Callable[..., tuple[Game, Any]]:
    """:func:`staged`, as a fixture: ``game, charge = referee_staged("charge", ["a.experience=veteran", "charge=true"])``."""
    return staged


@pytest.fixture
def referee_seed() -> Callable[..., int]:
    """:func:`find_seed`, as a fixture."""
    return find_seed


@pytest.fixture
def referee_against_base() -> Callable[..., dict[str, Any]]:
    """:func:`against_base`, as a fixture."""
    return against_base
