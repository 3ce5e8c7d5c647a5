"""The plugin host: one factory builds a rule stack (a base ruleset plus house rules).

Rulesets and house rules are found through the entry-point group ``referee.rulesets`` (our own
are registered there too); a single local file can be layered on as a house rule. There is no
global plugin manager and nothing is discovered at import time. Plugins hold no game state
(that lives in ``game.state``), so one stack serves every game played with it.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache, partial, wraps
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

import pluggy
from attrs import Factory, define, evolve, field

from . import doctrine, hookspecs, reach
from .errors import (
    InvalidInput,
    PluginFailed,
    Problem,
    RefereeError,
    UnknownName,
    describe,
    did_you_mean,
)
from .events import Modifier, Resolution
from .limits import MODIFIER
from .mechanics import MechanicSpec
from .reading import read_bounded
from .rules import OptionSpec, RulesetInfo
from .tables import Table
from .text import shorten

if TYPE_CHECKING:
    from .doctrine import Intent
    from .game import Game, Step

GROUP = "referee.rulesets"
FILE_PREFIX = "referee_house_rule_"  # a house rule file's module name: this and its stem
ANY = "any"  # a house rule file's BASE when it fits every ruleset
MISSING = "no such file; --house-rule takes a .py plugin or a .toml overlay"
OWN = "referee.plugins."  # the package of the project's own rulesets and layers
RESOLUTION_HOOKS = ("referee_modifiers", "referee_resolved", "referee_observed", "referee_step_done")


@cache
def installed() -> dict[str, EntryPoint]:
    """Every ruleset and house rule installed, by name: read once per process (what is installed
    does not change under a running referee; a test that installs one clears it)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def weathers() -> dict[str, tuple[str, ...]]:
    """Each installed ruleset and house-rule layer by name: the weather values its rules play
    (``RulesetInfo.weather``; a layer plays its base's as well as its own)."""
    infos = {}
    for name in sorted(installed()):
        module = load_named(name)
        describe = getattr(module, "referee_ruleset", None) or getattr(module, "referee_house_rule", None)
        info = describe() if describe is not None else None
        if isinstance(info, RulesetInfo):
            infos[name] = info
    return {name: tuple(dict.fromkeys((infos[info.base].weather if info.base in infos else ()) + info.weather))
            for name, info in infos.items()}


def load_named(name: str) -> ModuleType:
    eps = installed()
    if name not in eps:
        raise UnknownName("ruleset", name, eps)
    try:
        module: ModuleType = eps[name].load()
    except (Exception, SystemExit) as err:  # noqa: BLE001  (an installed package whose code has gone or fails: name it, no traceback)
        raise RefereeError(broken_entry(eps[name], err)) from None
    return module


def broken_entry(ep: EntryPoint, err: BaseException) -> str:
    """What to say of an installed ruleset or house rule that fails to load: its distribution,
    its entry point, what went wrong and how to remove it."""
    dist = getattr(ep, "dist", None)
    package = dist.metadata["Name"] if dist is not None else None
    where = f"of the installed package {package} {dist.version}" if dist is not None and package else "of an installed package"
    remove = f"pip uninstall {package}" if package else "pip uninstall PACKAGE (`pip list` names it)"
    return (f"installed ruleset or house rule {ep.name!r} cannot be loaded: {describe(err)} "
            f"(entry point '{ep.name} = {ep.value}' in group {GROUP}, {where}); "
            f"reinstall it, or remove it with: {remove}")


def loadable() -> tuple[list[str], list[str]]:
    """The installed rulesets and house rules that load, by name; and a message for each that
    does not (see :func:`broken_entry`), so that a command playing every ruleset can skip it."""
    names, broken = [], []
    for name in sorted(installed()):
        try:
            load_named(name)
        except RefereeError as err:
            broken.append(str(err))
        else:
            names.append(name)
    return names, broken


def load_file(path: str | Path) -> ModuleType:
    """A house rule from a single Python file (read with a bound; run, not cached as bytecode)."""
    path = Path(path)
    if path.suffix != ".py":
        raise InvalidInput([Problem("a house rule is a .py plugin or a .toml table overlay", source=str(path))], "house rule")
    text = read_bounded(path, "house rule", MISSING)
    spec = importlib.util.spec_from_file_location(f"{FILE_PREFIX}{path.stem}", path)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)  # noqa: S102  (a house rule file is run as the user asked)
    except SyntaxError as err:
        raise InvalidInput([Problem(f"syntax error: {err.msg}", source=str(path), line=err.lineno)], "house rule") from None
    except (Exception, SystemExit) as err:  # noqa: BLE001  (the file is user code: report, never a traceback or a silent exit)
        raise InvalidInput([Problem(f"failed to import: {describe(err)}", source=str(path))], "house rule") from None
    return module


class Callers(dict[str, Callable[..., Any]]):
    """Each hook of a stack as a function of keyword arguments, by name: its :func:`sole_caller`,
    found on first use (a hit costs a dict lookup, no call)."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        super().__init__()
        self.pm = pm

    def __missing__(self, hook_name: str) -> Callable[..., Any]:
        found = self[hook_name] = sole_caller(self.pm, hook_name)
        return found


@define(eq=False)
class Rules:
    """A built rule stack: the plugin manager and what it declared once."""

    name: str
    info: RulesetInfo
    layers: tuple[RulesetInfo, ...]
    pm: pluggy.PluginManager
    options: frozenset[str]
    option_specs: dict[str, OptionSpec]
    overlays: tuple[Path, ...]  # data house rules (TOML), in order
    switched_off: frozenset[str]  # options the user switched off (no-NAME), the scenario's too
    tables: dict[str, Any]
    mechanics: dict[str, MechanicSpec]
    implemented: frozenset[str]
    base: RulesetInfo | None = None  # the base ruleset, when ``info`` describes a layer on it
    callers: Callers = field(init=False, default=Factory(lambda self: Callers(self.pm), takes_self=True))
    sole_modifiers: Callable[..., Any] | None = field(  # see Game.extra_modifiers
        init=False, default=Factory(lambda self: sole_implementation(self.pm, "referee_modifiers"), takes_self=True))

    @property
    def names(self) -> tuple[str, ...]:
        """The base's name and every layer's, base first (a scenario's ``name:option`` applies to each)."""
        return tuple(dict.fromkeys([(self.base or self.info).name, *(lay.name for lay in self.layers), self.info.name]))

    def attributed(self, resolution: Resolution) -> Resolution:
        """The resolution credited to the last layer whose rule it cites (its ``cites`` prefixes
        in the reference, a modifier's reference or a ruling id); as it is if none does."""
        for layer in reversed(self.layers):
            if layer.cites and _cites(resolution, layer.cites):
                return evolve(resolution, ruleset=layer.name)
        return resolution

    def implements(self, hook_name: str) -> bool:
        return hook_name in self.implemented

    def register(self, plugin: object, name: str) -> None:
        """Add a plugin (an observer, a test probe) after the stack was built."""
        self.pm.register(plugin, name=name)
        self.implemented = _implemented(self.pm)
        self.callers.clear()
        self.sole_modifiers = sole_implementation(self.pm, "referee_modifiers")

    # The typed facade: the core calls the game's hooks through these, never by a string name.

    def muster(self, game: Game) -> Any:
        """The ruleset's own state for a new game (``referee_muster``)."""
        return call(self.pm, "referee_muster", game=game)

    def describe(self, game: Game, unit: str) -> str | None:
        """What the ruleset made of ``unit`` at muster, in its own terms (``referee_describe``)."""
        said = call(self.pm, "referee_describe", game=game, unit=unit)
        return None if said is None else str(said)

    def turn(self, game: Game) -> Iterable[Step]:
        """This turn's steps (``referee_turn``)."""
        steps: Iterable[Step] = self.callers["referee_turn"](game=game)
        return steps

    def step_player(self) -> Callable[..., object]:
        """``referee_step`` as a function of the keyword arguments ``game`` and ``step``, as cheap
        as the stack allows (:func:`sole_caller`; the only implementation inside a guard that
        names both, so that a keyword call builds no dict): the core calls it for every step."""
        function = sole_implementation(self.pm, "referee_step")
        return self.callers["referee_step"] if function is None else _guarded_step(self.pm, function)

    def step_done(self, game: Game, step: Step) -> None:
        """``referee_step_done``, skipped when nothing implements it."""
        if "referee_step_done" in self.implemented:
            call(self.pm, "referee_step_done", game=game, step=step)

    # The hooks below are asked once a turn or more: through :attr:`callers` (no pluggy
    # dispatch while one implementation answers).

    def end_turn(self, game: Game) -> None:
        self.callers["referee_end_turn"](game=game)

    def turn_minutes(self, game: Game) -> int:
        return int(self.callers["referee_turn_minutes"](game=game))

    def intents(self, game: Game, side: str) -> dict[str, Intent]:
        intents: dict[str, Intent] = self.callers["referee_intents"](game=game, side=side)
        return intents

    def command_intents(self, game: Game, side: str) -> dict[str, Any]:
        """The commander's wish for each command of ``side`` (``referee_command_intents``)."""
        wishes: dict[str, Any] = self.callers["referee_command_intents"](game=game, side=side)
        return wishes

    def choose(self, game: Game, side: str, unit: str, question: str, options: tuple[str, ...]) -> str:
        """The doctrine's answer to a choice the rules leave to the player (``referee_choose``)."""
        return str(self.callers["referee_choose"](game=game, side=side, unit=unit, question=question, options=options))

    def modifiers(self, game: Game, mechanic: str, situation: Any) -> list[Modifier]:
        """Every layer's extra modifiers for one resolution, in order (none asked when no
        layer implements ``referee_modifiers``)."""
        if "referee_modifiers" not in self.implemented:
            return []
        out: list[Modifier] = []
        for group in self.callers["referee_modifiers"](game=game, mechanic=mechanic, situation=situation):
            out += group
        return out

    def resolved(self, game: Game, mechanic: str, situation: Any, resolution: Resolution) -> Resolution:
        """The resolution as the layers leave it (``referee_resolved``: the first replacement wins)."""
        if "referee_resolved" not in self.implemented:
            return resolution
        replaced = call(self.pm, "referee_resolved", game=game, mechanic=mechanic, situation=situation, resolution=resolution)
        return replaced or resolution

    def observed(self, game: Game, mechanic: str, situation: Any, resolution: Resolution) -> None:
        """Show a final resolution to every observer (``referee_observed``)."""
        if "referee_observed" in self.implemented:
            call(self.pm, "referee_observed", game=game, mechanic=mechanic, situation=situation, resolution=resolution)

    def hooks_by_plugin(self) -> dict[str, list[str]]:
        """Each plugin's hooks by its name, in the order of the stack (base first: pluggy's
        ``get_plugins`` is a set, whose order would change from one run to the next)."""
        out: dict[str, list[str]] = {}
        for name, plugin in self.pm.list_name_plugin():
            if name == "doctrine":
                continue
            out[name] = sorted(c.name for c in self.pm.get_hookcallers(plugin) or ())
        return out


def new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("referee")
    pm.add_hookspecs(hookspecs)
    pm.register(doctrine.DefaultDoctrine(), name="doctrine")
    if _tracing():
        pm.trace.root.setwriter(sys.stderr.write)
        pm.enable_tracing()
    return pm


def _tracing() -> bool:
    return os.environ.get("REFEREE_TRACE_HOOKS") == "1"


def build_rules(name: str, options: Iterable[str] = (), house_rules: Sequence[str | Path] = ()) -> Rules:
    """The one factory: ``name`` is a ruleset or a house rule (then its base comes first),
    ``options`` are switched on by name (``no-NAME`` switches off one that is on by default),
    ``house_rules`` are files layered on top in order: ``.py`` plugins, ``.toml`` data overlays."""
    named = _stack(name)
    overlays = layer_overlays(named) + tuple(Path(p) for p in house_rules if str(p).endswith(".toml"))
    for overlay in overlays:
        read_bounded(overlay, "house rule", MISSING)  # there, a file, not too large: before the base reads it
    modules = named + [load_file(p) for p in house_rules if not str(p).endswith(".toml")]
    pm = new_manager()
    for module in modules:  # a ruleset's own extension hooks, before any layer implements them
        if getattr(module, "HOOKSPECS", None) is not None:
            pm.add_hookspecs(module.HOOKSPECS)
    for module in modules:
        pm.register(module, name=getattr(module, "PLUGIN_NAME", module.__name__))
    for module in modules[1:]:
        _answerable(pm, module)
    pm.check_pending()
    base = call(pm, "referee_ruleset")
    if base is None:
        raise RefereeError(f"{name!r} has no base ruleset (no plugin implements referee_ruleset)")
    layers = tuple(call(pm, "referee_house_rule"))
    misfits = _misfits(pm, modules[1:], base, [getattr(m, 'PLUGIN_NAME', m.__name__) for m in named])
    if misfits:
        raise InvalidInput(misfits, "rule stack")
    info = _described(base, layers, name if len(named) > 1 else None)
    specs = {o.name: o for group in call(pm, "referee_options") for o in group}
    off = {o.removeprefix("no-") for o in options if o.startswith("no-") and o.removeprefix("no-") in specs}
    on = {o for o in options if o.removeprefix("no-") not in off}
    wanted = (on | {o.name for o in specs.values() if o.default}) - off
    unknown = sorted(on - specs.keys())
    if not unknown:
        clashes = exclusive_clashes(wanted, specs)
        if clashes:
            raise InvalidInput(clashes, f"options for {name}")
    if unknown:
        raise InvalidInput([Problem(f"unknown option{did_you_mean(u, sorted(specs))}", path=f"--option {u}") for u in unknown], f"options for {name}")
    tables: dict[str, Any] = {}
    for layer in _in_registration_order(pm, "referee_tables", tables=tables, overlays=overlays):
        tables.update(layer or {})
    mechanics: dict[str, MechanicSpec] = {}
    for group in _in_registration_order(pm, "referee_mechanics", tables=tables, overlays=overlays):
        mechanics.update({m.name: m for m in group or ()})
    implemented = _implemented(pm)
    stack_name = "+".join([name, *(Path(p).stem for p in house_rules)])
    return Rules(stack_name, info, layers, pm, frozenset(wanted), specs, overlays, frozenset(off), tables, mechanics, implemented, base)


def layer_overlays(modules: Sequence[ModuleType]) -> tuple[Path, ...]:
    """The TOML overlays packaged layers ship (a module's ``OVERLAYS``), base first: they lie
    under the command line's overlays."""
    return tuple(Path(p) for module in modules for p in getattr(module, "OVERLAYS", ()))


def _described(base: RulesetInfo, layers: tuple[RulesetInfo, ...], top: str | None) -> RulesetInfo:
    """The stack as its top layer describes it (name, title, scale, source), in the base's
    phases; the base itself when the stack was built from the base's name."""
    layer = next((lay for lay in layers if lay.name == top), None) if top else None
    if layer is None:
        return base
    return evolve(layer, phases=layer.phases or base.phases, weather=tuple(dict.fromkeys(base.weather + layer.weather)))


# What a layer's hook must return (None aside): a description and a test. A layer that returns
# something else is named with its hook at once, not later where the base ruleset trips on it.
RETURNS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "referee_ruleset": ("a RulesetInfo", lambda r: isinstance(r, RulesetInfo)),
    "referee_house_rule": ("a RulesetInfo", lambda r: isinstance(r, RulesetInfo)),
    "referee_options": ("a list of OptionSpec", lambda r: _list_of(r, OptionSpec)),
    "referee_tables": ("a dict of Table by name", lambda r: isinstance(r, dict) and all(isinstance(k, str) and isinstance(v, Table) for k, v in r.items())),
    "referee_mechanics": ("a list of MechanicSpec", lambda r: _list_of(r, MechanicSpec)),
    "referee_modifiers": (f"a list of Modifier, each value a whole number or a Fraction of size <= {MODIFIER}",
                          lambda r: _list_of(r, Modifier) and all(_modifier_value(m.value) for m in r)),
    "referee_resolved": ("a Resolution", lambda r: isinstance(r, Resolution)),
    "referee_turn_minutes": ("a whole number of minutes > 0", lambda r: isinstance(r, int) and not isinstance(r, bool) and r > 0),
    "referee_intents": ("a dict of Intent by unit id", lambda r: _dict_of(r, doctrine.Intent)),
    "referee_command_intents": ("a dict of CommandIntent by command id", lambda r: _dict_of(r, doctrine.CommandIntent)),
    "referee_choose": ("one of the options (a string)", lambda r: isinstance(r, str)),
    "referee_capabilities": ("a Capabilities", lambda r: isinstance(r, reach.Capabilities)),
}


def _dict_of(result: Any, kind: type) -> bool:
    return isinstance(result, dict) and all(isinstance(k, str) and isinstance(v, kind) for k, v in result.items())


def _list_of(result: Any, kind: type) -> bool:
    return isinstance(result, (list, tuple)) and all(isinstance(item, kind) for item in result)


def _modifier_value(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return False
    return bool(-MODIFIER <= value <= MODIFIER)


def _answerable(pm: pluggy.PluginManager, plugin: object) -> None:
    """Make each hook of a layer (a house rule) answer for itself: a hook name that is no hook
    is refused at once; an exception it raises, a ``sys.exit`` or a result of the wrong kind is
    reported naming it, its file and the hook. (Its wrappers are left as they are: a traceback
    names them; so are the hooks of the project's own layers, whose returns the test suite
    checks: a check on every call would cost hynds 5 % of its game.)"""
    name, source = pm.get_name(plugin) or "?", _source(plugin)
    hooks = sorted(n for n in dir(hookspecs) if n.startswith("referee_"))
    unknown = [(impl.function.__code__.co_firstlineno, c.name) for c in pm.get_hookcallers(plugin) or () if c.spec is None
               for impl in c.get_hookimpls() if impl.plugin is plugin and not impl.optionalhook]
    if unknown:
        raise InvalidInput([Problem(f"unknown hook {h!r}{did_you_mean(h, hooks)}", source=source or name, line=line)
                            for line, h in sorted(unknown)], "house rule")
    if getattr(plugin, "__name__", "").startswith(OWN):
        return
    for caller in pm.get_hookcallers(plugin) or ():
        for impl in caller.get_hookimpls():
            if impl.plugin is plugin and not (impl.hookwrapper or impl.wrapper):
                impl.function = _checked(impl.function, name, caller.name, source)  # type: ignore[misc]  # pluggy's stubs make HookImpl.function read-only; the check wraps it in place


def _source(plugin: object) -> str:
    """The file a plugin module was read from ("" for another kind of plugin)."""
    return str(getattr(plugin, "__file__", "") or "") if isinstance(plugin, ModuleType) else ""


def _misfits(pm: pluggy.PluginManager, layers: Sequence[ModuleType], base: RulesetInfo, stack: Sequence[str]) -> list[Problem]:
    """A problem for each layer that names another base (its ``referee_house_rule`` or its
    ``BASE``), saying which file and whether that base is installed at all; and for each house
    rule file that does not say which ruleset it is written for (``BASE = "rff"``, or ``"any"``
    for one that fits every ruleset). ``stack`` names the rulesets of the stack (a layer such as
    hynds, and its base), any of which a file may be written for."""
    said = {id(impl.plugin): impl.function() for impl in pm.hook.referee_house_rule.get_hookimpls()}
    problems = []
    for module in layers:
        info = said.get(id(module))
        wanted = getattr(info, "base", None) or getattr(module, "BASE", None)
        if wanted is None and module.__name__.startswith(FILE_PREFIX):
            problems.append(Problem(f"house rule {pm.get_name(module)!r} does not say which ruleset it is written for: add "
                                    f"BASE = {stack[-1]!r} (or BASE = \"any\" for a rule that fits every ruleset)",
                                    source=_source(module)))
            continue
        if wanted is None or wanted == ANY or wanted == base.name or wanted in stack:
            continue
        what = f"house rule {getattr(info, 'name', None) or pm.get_name(module)!r}"
        if wanted not in installed():
            why = f"{what} goes on {wanted!r}, which is not an installed ruleset{did_you_mean(str(wanted), sorted(installed()))}"
        else:
            why = f"{what} goes on {wanted!r}, not on {base.name!r}: use --rules {wanted}"
        problems.append(Problem(why, source=_source(module)))
    return problems


def _checked(function: Callable[..., Any], plugin: str, hook: str, source: str = "") -> Callable[..., Any]:
    expected = RETURNS.get(hook)

    @wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            result = function(*args, **kwargs)
        except (RefereeError, BrokenPipeError):
            raise
        except (Exception, SystemExit) as error:
            raise PluginFailed(plugin, hook, error, _line_in(error, source)) from error
        except KeyboardInterrupt as error:  # the code's own, unless Python's handler may have raised it for Ctrl-C
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                raise
            raise PluginFailed(plugin, hook, error, _line_in(error, source)) from error
        if expected is not None and result is not None and not expected[1](result):
            raise PluginFailed(plugin, hook, TypeError(f"returned {_shown(result)}; expected {expected[0]} or None"), source)
        return result

    return checked


def _line_in(error: BaseException, source: str) -> str:
    """``source`` with the line of the innermost frame of ``error`` in that file, if there is one."""
    where = os.path.abspath(source)
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if os.path.abspath(frame.filename) == where]
    return f"{source}:{lines[-1]}" if lines else source


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001  (a plugin's value whose repr fails is still reported)
        text = "?"
    return f"{type(value).__name__} {shorten(text, 80)}"


def exclusive_clashes(options: Iterable[str], specs: dict[str, OptionSpec]) -> list[Problem]:
    """A problem for each group of mutually exclusive options with more than one switched on."""
    groups: dict[str, list[str]] = {}
    for name in sorted(options):
        if name in specs and specs[name].group:
            groups.setdefault(specs[name].group, []).append(name)
    return [
        Problem(f"{' and '.join(names)} exclude one another ({group}): keep one "
                "(--option no-NAME switches off one that is on by default or set by the scenario)", path="--option")
        for group, names in groups.items() if len(names) > 1
    ]


def _cites(resolution: Resolution, prefixes: tuple[str, ...]) -> bool:
    return (resolution.ref.startswith(prefixes) or any(m.ref.startswith(prefixes) for m in resolution.modifiers)
            or any(r.startswith(prefixes) for r in resolution.rulings))


def _implemented(pm: pluggy.PluginManager) -> frozenset[str]:
    """The resolution hooks and the rulesets' own hooks that some plugin implements (a
    procedure skips the call altogether for the others)."""
    own = [h for h in vars(pm.hook) if not h.startswith("referee_")]
    return frozenset(h for h in (*RESOLUTION_HOOKS, *own) if getattr(pm.hook, h).get_hookimpls())


def _stack(name: str) -> list[ModuleType]:
    """The modules of ``name``, base ruleset first."""
    module = load_named(name)
    base = getattr(module, "BASE", None)
    return (_stack(base) if base else []) + [module]


def _in_registration_order(pm: pluggy.PluginManager, hook_name: str, **kwargs: Any) -> list[Any]:
    """Call each implementation in registration order (base first), so later layers see and
    replace earlier ones."""
    results = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():  # pluggy lists them oldest first
        try:
            results.append(impl.function(**{a: kwargs[a] for a in impl.argnames}))
        except RefereeError:
            raise
        except (Exception, SystemExit) as err:
            raise PluginFailed(impl.plugin_name, hook_name, err) from err
    return results


def call(pm: pluggy.PluginManager, hook_name: str, **kwargs: Any) -> Any:
    """Call a hook through pluggy, a plugin's failure named (:func:`blame`)."""
    return _guarded(pm, getattr(pm.hook, hook_name), **kwargs)


def sole_caller(pm: pluggy.PluginManager, hook_name: str) -> Callable[..., Any]:
    """:func:`call` for a hook the core calls very often (every step, every resolution): while
    one plain implementation is registered (with any new-style wrappers around it) and hooks are
    not traced, it is called without pluggy's dispatch, which is most of the cost of a cheap
    call. A hook that is not firstresult still answers as pluggy would: a list of the results
    that are not None; but an observer (:func:`_observer`) is not asked for an answer."""
    hook = getattr(pm.hook, hook_name)
    impls = hook.get_hookimpls()
    plain = [impl for impl in impls if not (impl.hookwrapper or impl.wrapper)]
    if len(plain) != 1 or any(impl.hookwrapper for impl in impls) or _tracing():
        return partial(call, pm, hook_name)
    function = _direct(hook, plain[0])
    listed = hook.spec is None or not (hook.spec.opts.get("firstresult") or _observer(hook.spec))
    wrappers = [impl for impl in impls if impl.wrapper]
    if not wrappers and not hook_name.startswith("referee_"):
        # a ruleset's own hook is asked only from inside the core's hooks, whose guard blames
        # a failure on the innermost hook frame: no frame of its own, when it answers alone
        return partial(_listed, function) if listed else function
    if not wrappers:  # the common case: one frame between the caller and the implementation
        return _guarded_list(pm, function) if listed else _guarded_one(pm, function)
    if listed:
        function = partial(_listed, function)
    for wrapper in wrappers:  # pluggy lists them innermost first
        function = partial(_wrapped, _direct(hook, wrapper), function)
    return partial(_guarded, pm, function)


def _observer(spec: Any) -> bool:
    """Is the hook an observer, declared to return None (``-> None``)? Its callers read no
    answer, so a sole implementation's is not listed."""
    declared = getattr(spec.function, "__annotations__", {})
    return "return" in declared and declared["return"] in (None, "None")


def sole_implementation(pm: pluggy.PluginManager, hook_name: str) -> Callable[..., Any] | None:
    """The one implementation of a hook, as a function of the hook's arguments in the hookspec's
    order, when it answers alone (no wrapper, no tracing) and takes every argument; None
    otherwise. Unguarded: for a hook asked only from inside the core's hooks (whose guard blames
    a failure), or to be guarded by the caller."""
    hook = getattr(pm.hook, hook_name)
    impls = hook.get_hookimpls()
    if len(impls) != 1 or impls[0].hookwrapper or impls[0].wrapper or _tracing() or hook.spec is None:
        return None
    return impls[0].function if tuple(impls[0].argnames) == tuple(hook.spec.argnames) else None


def _guarded_step(pm: pluggy.PluginManager, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (the only ``referee_step``) guarded as :func:`_guarded` guards a hook."""
    def play_step(game: Game, step: Step) -> Any:
        try:
            return function(game, step)
        except (RefereeError, BrokenPipeError):
            raise
        except (Exception, SystemExit) as err:
            raise blame(err, pm) from err
    return play_step


def _guarded_one(pm: pluggy.PluginManager, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` guarded as :func:`_guarded` guards a hook, in one frame."""
    def caller(**kwargs: Any) -> Any:
        try:
            return function(**kwargs)
        except (RefereeError, BrokenPipeError):
            raise
        except (Exception, SystemExit) as err:
            raise blame(err, pm) from err
    return caller


def _guarded_list(pm: pluggy.PluginManager, function: Callable[..., Any]) -> Callable[..., list[Any]]:
    """``function`` guarded, its result listed as pluggy lists the answers of a hook that is not
    firstresult (empty for None), in one frame."""
    def caller(**kwargs: Any) -> list[Any]:
        try:
            result = function(**kwargs)
        except (RefereeError, BrokenPipeError):
            raise
        except (Exception, SystemExit) as err:
            raise blame(err, pm) from err
        return [] if result is None else [result]
    return caller


def _direct(hook: Any, impl: Any) -> Callable[..., Any]:
    """``impl`` as a function of the hook's keyword arguments."""
    if hook.spec is not None and tuple(impl.argnames) == tuple(hook.spec.argnames):
        function: Callable[..., Any] = impl.function  # it takes every argument, by the same names (a pluggy HookImpl's)
        return function
    return partial(_passing, impl)


def _passing(impl: Any, **kwargs: Any) -> Any:
    """Call ``impl`` with the arguments it takes (some of the hook's)."""
    return impl.function(*[kwargs[name] for name in impl.argnames])


def _listed(function: Callable[..., Any], **kwargs: Any) -> list[Any]:
    result = function(**kwargs)
    return [] if result is None else [result]


def _wrapped(wrapper: Callable[..., Any], inner: Callable[..., Any], **kwargs: Any) -> Any:
    """``inner`` called inside a new-style hook wrapper as pluggy calls it: the wrapper runs to
    its ``yield``, is sent the result there (or has the exception thrown in), and returns the
    result; a wrapper that never yields, or yields twice, fails as it does under pluggy."""
    teardown = wrapper(**kwargs)
    try:
        next(teardown)
    except StopIteration:
        _wrapper_failed(teardown, "did not yield")
    try:
        result = inner(**kwargs)
    except BaseException as error:  # noqa: BLE001  (thrown into the wrapper, as pluggy does)
        try:
            teardown.throw(error)
        except StopIteration as done:
            return done.value
    else:
        try:
            teardown.send(result)
        except StopIteration as done:
            return done.value
    _wrapper_failed(teardown, "has second yield")


def _wrapper_failed(teardown: Any, what: str) -> NoReturn:
    """The error pluggy raises for a broken wrapper, word for word (its file and first line)."""
    code = teardown.gi_code
    raise RuntimeError(f"wrap_controller at {code.co_name!r} {code.co_filename}:{code.co_firstlineno} {what}")


def _guarded(pm: pluggy.PluginManager, hook: Callable[..., Any], **kwargs: Any) -> Any:
    try:
        return hook(**kwargs)
    except (RefereeError, BrokenPipeError):  # a user error, or the reader of our output went away
        raise
    except (Exception, SystemExit) as err:  # a plugin's sys.exit is its failure, not the program's end
        raise blame(err, pm) from err


def blame(error: BaseException, pm: pluggy.PluginManager) -> PluginFailed:
    """Name the plugin and hook whose code raised ``error`` (the innermost hook frame in a
    plugin's file), with the file and line of the failing code. An error raised for a plugin
    rather than in it (pluggy's for a wrapper that never yields) names it by the file its message
    gives."""
    files = {}
    for plugin in pm.get_plugins():
        module = sys.modules.get(getattr(plugin, "__module__", "") or "") if not isinstance(plugin, ModuleType) else plugin
        source = getattr(module, "__file__", None)
        if source:
            files[str(Path(source).parent if source.endswith("__init__.py") else source)] = pm.get_name(plugin)
    hooks = vars(pm.hook)
    plugin_name, hook_name, where = "?", "?", ""
    for frame in traceback.extract_tb(error.__traceback__):
        for path, name in files.items():
            if frame.filename.startswith(path):
                plugin_name, where = name or "?", f"{frame.filename}:{frame.lineno}"
                if frame.name in hooks:
                    hook_name = frame.name
    if plugin_name == "?" and isinstance(error, RuntimeError) and str(error).startswith("wrap_controller at "):
        named, _, rest = str(error).removeprefix("wrap_controller at ").partition(" ")
        for path, name in files.items():
            if rest.startswith(path):
                plugin_name, hook_name, where = name or "?", named.strip("'"), rest.rsplit(" ", maxsplit=2)[0]
    return PluginFailed(plugin_name, hook_name, error, where)
