"""The hooks: every hookspec documented, every plugin hook implementation fits a hookspec, and a
house rule in a local file can add a modifier or replace a resolution in a real game."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
import referee.plugins
from referee.core.engine import hookspecs
from referee.core.engine.errors import PluginFailed
from referee.core.engine.events import EventLog, Modifier
from referee.core.engine.game import Game, play
from referee.core.engine.glue import TableHooks
from referee.core.engine.plugins import build_rules, call, installed, new_manager, sole_caller
from referee.core.input.scenario import find_scenario, load_scenario


def specs_in(module: Any) -> dict[str, Any]:
    return {name: fn for name, fn in vars(module).items() if inspect.isfunction(fn) and hasattr(fn, "referee_spec")}


SPECS = specs_in(hookspecs)
# the extension hooks a ruleset declares for its layers (its module's HOOKSPECS, e.g. rff's)
RULESET_SPECS = {name: fn for ep in installed().values() if (own := getattr(ep.load(), "HOOKSPECS", None)) for name, fn in specs_in(own).items()}
ALL_SPECS = {**SPECS, **RULESET_SPECS}
WHEN = re.compile(r"\b(called|after|before|once|each|every|whenever)\b", re.IGNORECASE)


def section_comment(name: str) -> str:
    """The comment lines under the ``# ---- section`` header that ``name`` is grouped under."""
    lines = inspect.getsource(hookspecs).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}("))
    header = max(i for i in range(at) if lines[i].startswith("# ----"))
    comment = []
    for line in lines[header:at]:
        if not line.startswith("#"):
            break
        comment.append(line.lstrip("# -"))
    return " ".join(comment)


def test_there_are_hookspecs() -> None:
    assert {"referee_ruleset", "referee_muster", "referee_turn", "referee_step", "referee_end_turn",
            "referee_modifiers", "referee_resolved", "referee_intents"} <= SPECS.keys()
    # what the module declares is what a plugin manager knows
    pm = new_manager()
    known = {name for name in dir(pm.hook) if name.startswith("referee_")}
    assert known == set(SPECS)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_hookspec_is_documented(name: str) -> None:
    doc = inspect.getdoc(SPECS[name]) or ""
    assert name.startswith("referee_")
    assert len(doc) > 40, f"{name} has no real docstring"
    assert "Who:" in doc, f"{name}: the docstring must say who may implement it ('Who: ...')"
    assert WHEN.search(doc + " " + section_comment(name)), f"{name}: neither its docstring nor its section says when it is called"


@pytest.mark.parametrize("name", sorted(RULESET_SPECS))
def test_ruleset_hookspec_is_documented(name: str) -> None:
    """A ruleset's own hooks: documented like the core's, and never named like them."""
    doc = inspect.getdoc(RULESET_SPECS[name]) or ""
    assert not name.startswith("referee_") and name not in SPECS
    assert len(doc) > 40 and "Who:" in doc and WHEN.search(doc), f"{name}: say what it returns, when it is called and who implements it"


@pytest.mark.parametrize("name", sorted(ALL_SPECS))
def test_hookspec_takes_no_defaults(name: str) -> None:
    for param in inspect.signature(ALL_SPECS[name]).parameters.values():
        assert param.default is inspect.Parameter.empty, f"{name}({param.name}=...): pluggy never passes defaults"


def plugin_hookimpls() -> list[tuple[str, str, Any]]:
    """Every function marked ``@hookimpl`` anywhere under ``referee.plugins``, registered or not."""
    found = []
    for info in pkgutil.walk_packages(referee.plugins.__path__, "referee.plugins."):
        module = importlib.import_module(info.name)
        for name, fn in vars(module).items():
            if inspect.isfunction(fn) and hasattr(fn, "referee_impl") and fn.__module__ == module.__name__:
                found.append((module.__name__, name, fn))
    return found


def test_plugins_have_hookimpls() -> None:
    assert {name for _, name, _ in plugin_hookimpls()} >= {"referee_ruleset", "referee_step"}


@pytest.mark.parametrize(("module", "name", "fn"), plugin_hookimpls(), ids=lambda v: v if isinstance(v, str) else "")
def test_plugin_hookimpl_fits_a_hookspec(module: str, name: str, fn: Any) -> None:
    name = fn.referee_impl.get("specname") or name  # pluggy's specname: a function that wraps and implements one hook
    assert name in ALL_SPECS, f"{module}.{name} implements no hookspec"
    params = inspect.signature(fn).parameters
    assert set(params) <= set(inspect.signature(ALL_SPECS[name]).parameters), f"{module}.{name} takes arguments the hookspec does not give"
    assert all(p.default is inspect.Parameter.empty for p in params.values()), f"{module}.{name} has a default argument"


GLUE_HOOKS = sorted(n for n, fn in vars(TableHooks).items() if hasattr(fn, "referee_impl"))


@pytest.mark.parametrize("name", GLUE_HOOKS)
def test_the_ruleset_glue_fits_its_hookspecs(name: str) -> None:
    """TableHooks' methods are the hooks a ruleset names after them (core/glue.py)."""
    params = list(inspect.signature(getattr(TableHooks, name)).parameters)[1:]  # after self
    assert set(params) <= set(inspect.signature(ALL_SPECS[name]).parameters), f"TableHooks.{name} takes arguments the hookspec does not give"


GLUED = sorted(name for name, ep in installed().items() if hasattr(ep.load(), "GLUE"))


def test_the_bundled_base_rulesets_use_the_glue() -> None:
    assert {"rff", "hardtack", "sumter"} <= set(GLUED)


@pytest.mark.parametrize("ruleset", GLUED)
def test_the_table_rulesets_register_the_glue(ruleset: str) -> None:
    module = installed()[ruleset].load()
    for name in GLUE_HOOKS:
        assert getattr(module, name) == getattr(module.GLUE, name), f"{ruleset}.{name} is not its TableHooks' method"
    assert {"referee_options", "referee_tables", "referee_mechanics", "referee_muster"} <= set(build_rules(ruleset).hooks_by_plugin()[ruleset])


@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_every_installed_ruleset_builds(ruleset: str) -> None:
    rules = build_rules(ruleset)  # registers every layer and runs pluggy's check_pending
    assert rules.info.scale.minutes_per_turn > 0
    hooks = rules.hooks_by_plugin()
    assert all(h in ALL_SPECS for names in hooks.values() for h in names)
    assert any("referee_step" in names for names in hooks.values())
    # and with every option switched on at once (one of each group of options that exclude one another)
    first_of_group: dict[str, str] = {}
    for name, spec in sorted(rules.option_specs.items()):
        first_of_group.setdefault(spec.group or name, name)
    together = frozenset(first_of_group.values())
    assert build_rules(ruleset, sorted(together)).options == together


# ----------------------------------------------------------------------------- house rules in a file

RAIN = '''\
"""House rule: rain. Wet powder: -1 on every musketry roll."""
from referee.core.engine.events import Modifier
from referee.core.engine.hookspecs import hookimpl

BASE = "any"


@hookimpl
def referee_modifiers(mechanic, situation):
    if mechanic == "musketry":
        return [Modifier("rain (house rule)", -1, ref="house rule: rain")]
    return []
'''

BLANKS = '''\
"""House rule: blank cartridges. Every musketry roll does nothing at all."""
from attrs import evolve

from referee.core.engine.hookspecs import hookimpl

BASE = "rff"

QUIET = {"effect": "desultory", "stands_lost": 0, "disordered": False, "charge": "home",
         "massed_target_effect": None, "low_on_ammo": False, "fallen_leader_check": False}


@hookimpl
def referee_resolved(mechanic, resolution):
    if mechanic != "musketry":
        return None
    return evolve(resolution, result="Blanks (house rule)", values={**resolution.values, **QUIET})
'''


def game_log(tmp_path: Path, house_rule: str | None, seed: int = 7) -> tuple[Any, list[dict[str, Any]]]:
    house_rules = ()
    if house_rule is not None:
        path = tmp_path / "house.py"
        path.write_text(house_rule)
        house_rules = (str(path),)
    log = EventLog(enabled=True)
    outcome = play(Game.new(build_rules("rff", (), house_rules), load_scenario(find_scenario("drill-musketry")), seed, log))
    return outcome, log.events


def musketry(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == "resolution" and e["mechanic"] == "musketry"]


def test_house_rule_adds_a_cited_modifier(tmp_path: Path) -> None:
    _, plain = game_log(tmp_path, None)
    _, events = game_log(tmp_path, RAIN)
    assert musketry(plain) and not any(m["name"] == "rain (house rule)" for e in musketry(plain) for m in e["modifiers"])
    shots = musketry(events)
    assert shots
    for shot in shots:
        rain = [m for m in shot["modifiers"] if m["name"] == "rain (house rule)"]
        assert rain == [{"name": "rain (house rule)", "value": -1, "on": "die", "ref": "house rule: rain"}]
        die_mods = sum(m["value"] for m in shot["modifiers"] if m["on"] == "die" and isinstance(m["value"], int))
        assert shot["total"] == sum(shot["dice"]) + die_mods  # counted in the total, not only shown
    # only musketry: the maneuver checks are not touched
    assert not any(m["name"] == "rain (house rule)" for e in events if e["kind"] == "resolution" and e["mechanic"] != "musketry"
                   for m in e["modifiers"])


def test_house_rule_modifier_is_narrated(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from referee.core.cli.cli import main

    path = tmp_path / "rain.py"
    path.write_text(RAIN)
    result = CliRunner().invoke(main, ["run", "drill-musketry", "--rules", "rff", "--seed", "7", "--house-rule", str(path)])
    assert result.exit_code == 0, result.output
    assert re.search(r"\[rff .*Musketry.*\] dice \d+ .*-1 rain \(house rule\)", result.stdout), result.stdout


def test_house_rule_replaces_a_resolution(tmp_path: Path) -> None:
    plain_outcome, plain = game_log(tmp_path, None)
    outcome, events = game_log(tmp_path, BLANKS)
    assert any(e["values"]["stands_lost"] for e in musketry(plain)), "seed 7 should hit somebody without the house rule"
    assert sum(plain_outcome.men_lost.values()) > 0
    shots = musketry(events)
    assert shots and all(e["result"] == "Blanks (house rule)" for e in shots)
    assert not any(e["kind"] == "loss" for e in events)
    # the replacement is what the game applied, not only what it logged
    assert outcome.men_lost == {"union": 0, "confederate": 0}


# ----------------------------------------------------------------------------- tracing


def run_quietly(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from referee.core.cli.cli import main; main()", "run", "drill-musketry", "--rules", "rff", "--quiet"],
        env=env, capture_output=True, text=True, check=True,
    )


def test_trace_hooks_prints_hook_calls() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_TRACE_HOOKS"}
    traced = run_quietly({**env, "REFEREE_TRACE_HOOKS": "1"})
    assert "referee_turn [hook]" in traced.stderr
    assert "referee_step [hook]" in traced.stderr
    assert "draw" in traced.stdout or "union" in traced.stdout or "confederate" in traced.stdout
    untraced = run_quietly(env)
    assert "referee_turn" not in untraced.stderr


@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_a_ruleset_failing_inside_its_step_is_named(ruleset: str) -> None:
    """The core calls a ruleset's sole step implementation without pluggy's dispatch: a failure
    there is still reported as the plugin's, in its hook."""
    rules = build_rules(ruleset)
    game = Game.new(rules, load_scenario(find_scenario("drill-musketry")), 1)
    game.state = call(rules.pm, "referee_muster", game=game)
    for player in (sole_caller(rules.pm, "referee_step"), rules.step_player()):
        with pytest.raises(PluginFailed) as failed:
            player(game=game, step=None)  # no step: the plugin fails reading it
        assert (failed.value.plugin, failed.value.hook) == ((rules.base or rules.info).name, "referee_step")  # a layer's base plays the step


class _FailsToFire:
    @hookspecs.hookimpl
    def rff_fire_points(self, game: Any, shot: Any, points: Any, multipliers: Any) -> Any:
        raise ZeroDivisionError("a probe's bug")


def test_a_ruleset_hook_asked_inside_a_step_is_named_when_it_fails() -> None:
    """A ruleset's own hook (rff_fire_points) answered by one plugin is called without a guard
    of its own: the step's guard names the plugin and that hook, not the step."""
    rules = build_rules("rff")
    rules.register(_FailsToFire(), "probe")
    with pytest.raises(PluginFailed) as failed:
        play(Game.new(rules, load_scenario(find_scenario("drill-musketry")), 1))
    assert (failed.value.plugin, failed.value.hook) == ("probe", "rff_fire_points")
    assert isinstance(failed.value.error, ZeroDivisionError)


class _TakesBoth:
    @hookspecs.hookimpl
    def referee_step(self, game: Any, step: Any) -> Any:
        return ("both", game, step)


class _TakesStep:
    @hookspecs.hookimpl
    def referee_step(self, step: Any) -> Any:
        return ("step only", step)


@pytest.mark.parametrize("plugin, expected", [(_TakesBoth(), ("both", "g", "s")), (_TakesStep(), ("step only", "s"))])
def test_the_sole_step_implementation_gets_the_arguments_it_names(plugin: object, expected: tuple[Any, ...]) -> None:
    """Called directly, an implementation gets every argument it names, whether it names all the
    hook's or only some (as pluggy would pass them)."""
    pm = new_manager()
    pm.register(plugin)
    assert sole_caller(pm, "referee_step")(game="g", step="s") == expected
    assert call(pm, "referee_step", game="g", step="s") == expected  # the same through pluggy


class _Modifies:
    @hookspecs.hookimpl
    def referee_modifiers(self, mechanic: str) -> Any:
        return ["+1"] if mechanic == "musketry" else None


@pytest.mark.parametrize("mechanic", ["musketry", "charge"])
def test_a_sole_implementation_of_a_hook_that_gathers_answers_in_a_list(mechanic: str) -> None:
    """Called directly, the one implementation of a hook that is not firstresult answers as
    through pluggy: a list of its result, empty when it returns None."""
    pm = new_manager()
    pm.register(_Modifies())
    expected = call(pm, "referee_modifiers", game="g", mechanic=mechanic, situation="s")
    assert sole_caller(pm, "referee_modifiers")(game="g", mechanic=mechanic, situation="s") == expected


class _ModifiesAsTuple:
    @hookspecs.hookimpl
    def referee_modifiers(self, game: Any, mechanic: str, situation: Any) -> Any:
        return (Modifier("probe", 1, "probe 1"),) if mechanic == "musketry" else None


@pytest.mark.parametrize("mechanic, expected", [("musketry", [Modifier("probe", 1, "probe 1")]), ("charge", [])])
def test_the_only_modifiers_implementation_is_asked_directly_and_answers_a_list(mechanic: str, expected: list[Any]) -> None:
    """With one implementation of referee_modifiers the game asks it without pluggy: a tuple
    or None comes back as the list a procedure adds to its own."""
    rules = build_rules("rff")
    rules.register(_ModifiesAsTuple(), "probe")
    assert rules.sole_modifiers is not None
    game = Game.new(rules, load_scenario(find_scenario("drill-musketry")), 1)
    assert game.extra_modifiers(mechanic, None) == expected == rules.modifiers(game, mechanic, None)


class _Watches:
    def __init__(self, seen: list[str], name: str) -> None:
        self.seen, self.name = seen, name

    @hookspecs.hookimpl
    def referee_end_turn(self, game: Any) -> Any:
        self.seen.append(self.name)
        return self.name  # an observer's answer is read by nobody


def test_an_observer_hook_is_not_asked_for_answers() -> None:
    """A hook declared to return None is an observer: a sole implementation is called without a
    list built for its answer, and every implementation is called even if one answers (as it
    would not be were the hook firstresult)."""
    seen: list[str] = []
    pm = new_manager()
    pm.register(_Watches(seen, "one"))
    assert sole_caller(pm, "referee_end_turn")(game="g") == "one"  # its own return, not a list
    pm.register(_Watches(seen, "two"))
    sole_caller(pm, "referee_end_turn")(game="g")
    assert seen == ["one", "two", "one"]  # pluggy calls the last registered first


class _Doubles:
    @hookspecs.hookimpl(wrapper=True)
    def referee_step(self, step: Any) -> Any:
        try:
            played = yield
        except ZeroDivisionError:
            return ("caught", step)
        return (*played, "wrapped")


class _Fails:
    @hookspecs.hookimpl
    def referee_step(self, step: Any) -> Any:
        return ("step", 1 // step)


@pytest.mark.parametrize("step", [1, 0])
def test_a_sole_implementation_inside_wrappers_answers_as_through_pluggy(step: int) -> None:
    """Called directly inside two new-style wrappers, the implementation's result (or its
    exception) reaches each wrapper as pluggy would pass it, innermost first."""
    pm = new_manager()
    for plugin in (_Fails(), _Doubles(), _Doubles()):
        pm.register(plugin)
    expected = {1: ("step", 1, "wrapped", "wrapped"), 0: ("caught", 0, "wrapped")}[step]
    assert sole_caller(pm, "referee_step")(game="g", step=step) == expected
    assert call(pm, "referee_step", game="g", step=step) == expected  # the same through pluggy


def test_only_house_rules_have_each_answer_checked(tmp_path: Path) -> None:
    """A house rule's hooks are wrapped to check every answer; the project's own layers (hynds)
    are called as written: the tests check their answers, and a check per call slows each game."""
    from referee.plugins import hynds

    path = tmp_path / "rain.py"
    path.write_text(RAIN)
    rules = build_rules("hynds", (), (str(path),))
    functions = {impl.plugin_name: impl.function for impl in rules.pm.hook.referee_modifiers.get_hookimpls()}
    assert functions["hynds"] is hynds.referee_modifiers
    assert functions["referee_house_rule_rain"] is not functions["referee_house_rule_rain"].__wrapped__


def test_the_suite_builds_records_frozen() -> None:
    """Intents, steps, modifiers and shots are records: under the suite a change to one raises."""
    modifier = Modifier("Fresh troops", 2, "QRS II")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        modifier.value = 3  # type: ignore[misc]


def test_the_hooks_by_plugin_follow_the_stack_base_first() -> None:
    """`referee rulesets` prints them in this order: the same on every run."""
    assert list(build_rules("hynds").hooks_by_plugin()) == ["rff", "hynds"]
