"""The game loop: walk the ruleset's steps, advance the clock, judge victory after each turn.

Nothing here knows whether a step is a phase, an activation or an orders step: the ruleset
supplies a turn as an ordered sequence of :class:`Step` s and plays each one.
"""

from __future__ import annotations

import difflib
import hashlib
import random
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import Factory, define, evolve, field, frozen

from .chance import SampledRoller
from .doctrine import DoctrineMemory
from .errors import InvalidInput, Problem, RefereeError, did_you_mean
from .events import CAUSES, EventLog, Modifier, Resolution, clock
from .ground import Ground, ground_of
from .plan import Plan
from .plugins import Rules, exclusive_clashes, installed, weathers
from .reading import key_lines
from .records import record
from .victory import (
    Verdict,
    ground_gained,
    guns_lost,
    judge,
    men_left,
    men_lost,
    update_holders,
)
from .world import Departure, Scenario, World

if TYPE_CHECKING:
    from .reach import Capabilities

MAX_TURNS = 500  # a guard against a ruleset whose clock does not advance


@record
class Step:
    """One step of a turn: ``kind`` is the ruleset's word for it (phase, activation, orders).

    ``side`` None: both sides at once (simultaneous fire, melee, morale); ``command``: the step
    of one command (a brigade's orders step)."""

    kind: str
    name: str
    side: str | None
    unit: str | None = None
    command: str | None = None

    def describe(self) -> str:
        """The step as the log narrates it: "union phase movement", "both sides phase fire"."""
        who = self.unit or self.command
        return f"{self.side or 'both sides'} {self.kind} {self.name}" + (f" ({who})" if who else "")


@frozen
class Outcome:
    """One game's result in men, guns and minutes."""

    ruleset: str
    scenario: str
    seed: int
    winner: str | None
    reason: str
    minutes: int  # from the start to the decision
    turns: int
    men_lost: dict[str, int]
    guns_lost: dict[str, int]
    yards_gained: dict[str, int]  # ground gained by each side's foremost fit unit
    men_left: dict[str, int] = field(factory=dict)  # men who left the field by a line of retreat
    lost_by_cause: dict[str, dict[str, int]] = field(factory=dict)  # side -> cause (events.CAUSES) -> men lost
    broke_off: str | None = None  # the side whose plan's break-off decided the verdict ("both"), if one did

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "scenario": self.scenario, "seed": self.seed,
            "winner": self.winner, "reason": self.reason, "minutes": self.minutes, "turns": self.turns,
            "men_lost": self.men_lost, "guns_lost": self.guns_lost, "yards_gained": self.yards_gained,
            "men_left": self.men_left, "lost_by_cause": self.lost_by_cause, "broke_off": self.broke_off,
        }


@define
class GameKept:
    """What the core remembers during one game (``game.kept``), each entry kept by the code named
    beside it and dropped with the game. A plugin keeps its own in ``game.state`` or ``game.memory``."""

    doctrine: DoctrineMemory = Factory(DoctrineMemory)  # the default doctrine's (core/engine/doctrine.py)
    capabilities: dict[str, tuple[tuple[int, str, str], Capabilities | None]] = Factory(dict)
    """reach.capabilities: unit -> ((turn, neutral formation, status), its ruleset's answer then)."""
    repulses: set[tuple[str, int, str]] = Factory(set)  # report_assault: (attacker, turn, objective) already counted


@define(eq=False)
class Game:
    rules: Rules
    scenario: Scenario
    world: World
    seed: int
    roller: SampledRoller  # the game's own seeded stream: every die of the game comes from it
    log: EventLog
    ground: Ground
    options: frozenset[str]
    plan: Plan
    state: Any = None
    turn: int = 0
    step: Step | None = None
    memory: dict[str, Any] = field(factory=dict)  # per-game scratch for plugins
    kept: GameKept = field(factory=GameKept)  # what the core remembers during the game
    lost: dict[tuple[str, str], int] = field(factory=dict)  # (side, cause) -> men lost (see lose)

    @classmethod
    def new(cls, rules: Rules, scenario: Scenario, seed: int, log: EventLog | None = None) -> Game:
        return cls(rules, scenario, World.start(scenario), seed, SampledRoller(random.Random(seed)),
                   log or EventLog(enabled=False), ground_of(scenario), scenario_options(rules, scenario),
                   Plan.start(scenario))

    def option(self, name: str) -> bool:
        return name in self.options

    def intents(self, side: str) -> dict[str, Any]:
        return self.rules.intents(self, side)

    def command_intents(self, side: str) -> dict[str, Any]:
        """The commander's wishes for each command of ``side`` (a brigade's wanted stance)."""
        return self.rules.command_intents(self, side)

    def choose(self, unit: str, question: str, options: tuple[str, ...]) -> str:
        """A choice the rules leave to the player (Rebel Yell, countercharge or stand, follow
        up, evade, pour on fire), asked of the doctrine; one of ``options``."""
        side = self.world.units[unit].side
        choice = self.rules.choose(self, side, unit, question, options)
        return choice if choice in options else options[0]

    def extra_modifiers(self, mechanic: str, situation: Any) -> list[Modifier]:
        """Modifiers that house rules add to one resolution (no call when none can; the only
        implementation asked directly when one can: this is asked on every resolution)."""
        rules = self.rules
        if rules.sole_modifiers is not None:
            return list(rules.sole_modifiers(self, mechanic, situation) or ())
        if "referee_modifiers" not in rules.implemented:
            return []
        return rules.modifiers(self, mechanic, situation)

    @property
    def seen(self) -> bool:
        """Does anything see a resolution's citations (the log, a house rule)? If not, a
        procedure need not gather them."""
        implemented = self.rules.implemented
        return self.log.enabled or "referee_resolved" in implemented or "referee_observed" in implemented

    def settle(self, mechanic: str, situation: Any, resolution: Resolution, rulings: tuple[str, ...] = (),
               **about: Any) -> Resolution:
        """Add the procedure's rulings to a resolution, let house rules replace it, then
        observe it, log it."""
        if not self.seen:
            return resolution
        if rulings:
            resolution = evolve(resolution, rulings=tuple(dict.fromkeys(resolution.rulings + rulings)))
        resolution = self.rules.resolved(self, mechanic, situation, resolution)
        if self.rules.layers:
            resolution = self.rules.attributed(resolution)
        self.rules.observed(self, mechanic, situation, resolution)
        self.log.resolution(resolution, **about)
        return resolution

    def lose(self, unit: str, men: int, cause: str, **detail: Any) -> None:
        """Rulesets call this wherever their rules take men out of play: ``men`` of ``unit`` are
        lost to ``cause`` (a key of :data:`~referee.core.engine.events.CAUSES`); ``detail`` is what the
        ruleset knows of it in neutral terms (``yards``: the range of the fire). Every man the
        world counts as lost must be reported once (see :func:`men_between`), so that the losses
        by cause add up to the men lost. Logged as a compact ``lost`` event."""
        if men <= 0:
            return
        if cause not in CAUSES:
            raise ValueError(f"unknown cause of loss {cause!r}; valid: {', '.join(CAUSES)}")
        key = (self.world.units[unit].side, cause)
        self.lost[key] = self.lost.get(key, 0) + men
        if self.log.enabled:
            self.log.emit("lost", unit=unit, men=men, cause=cause, **detail)

    def leave_field(self, unit: str, x: float, y: float, men: int) -> bool:
        """Rulesets call this when men of ``unit`` go off the map at (x, y). Over an edge that is
        not a line of retreat for their side they are captured (counted as lost); otherwise they
        have left the field. Returns whether they were captured."""
        scenario = self.scenario
        over = {"west": -x, "east": x - scenario.width, "south": -y, "north": y - scenario.height}
        edge = max(sorted(over), key=over.__getitem__)
        side = self.world.units[unit].side
        captured = side not in scenario.retreat_edges.get(edge, scenario.sides)
        self.world.departures.append(Departure(unit, edge, men, captured, self.world.minute))
        if captured and men > 0:
            key = (side, "captured")
            self.lost[key] = self.lost.get(key, 0) + men
        what = "are captured: it is not their line of retreat" if captured else "leave the field"
        self.log.emit("leaves", unit=unit, edge=edge, men=men, captured=captured,
                      text=f"{men} men of {unit} go off the {edge} edge and {what}")
        return captured

    def report_assault(self, attacker: str, defender: str, carried: bool) -> None:
        """Rulesets call this after an assault (a charge, a close assault): a repulse on a unit
        standing within an objective counts toward that side's ``repulsed`` triggers, once per
        attacking unit and turn (however many companies or bouts its rules resolve it in)."""
        if carried:
            return
        world = self.world
        side, target = world.units[attacker].side, world.units[defender]
        counted = self.kept.repulses
        for objective in self.scenario.objectives:
            ox, oy = objective.position
            once = (attacker, self.turn, objective.id)
            if (target.x - ox) ** 2 + (target.y - oy) ** 2 <= objective.radius ** 2 and once not in counted:
                counted.add(once)
                key = (side, objective.id)
                world.repulses[key] = world.repulses.get(key, 0) + 1

    def outcome(self, verdict: Verdict) -> Outcome:
        sides = self.scenario.sides
        return Outcome(
            self.rules.name, self.scenario.id, self.seed, verdict.winner, verdict.reason,
            self.world.minute - self.scenario.start, self.turn,
            {s: men_lost(self.world, s) for s in sides}, {s: guns_lost(self.world, s) for s in sides},
            {s: max(0, ground_gained(self.world, s)) for s in sides},
            {s: men_left(self.world, s) for s in sides},
            {s: {c: self.lost[s, c] for c in CAUSES if (s, c) in self.lost} for s in sides},
            verdict.broke_off,
        )


def men_between(men: int, start: int, before: int, after: int) -> int:
    """Men lost when a unit of ``men`` mustered as ``start`` pieces (stands, figures) goes from
    ``before`` to ``after`` pieces standing, its men read as ``men * standing // start``: what a
    ruleset reports to :meth:`Game.lose`, so that its reports add up exactly to the men lost."""
    return men * before // start - men * after // start


def scenario_options(rules: Rules, scenario: Scenario) -> frozenset[str]:
    """The stack's options plus those the scenario switches on for this ruleset or any layer of
    its stack (``rff:NAME``, ``hynds:NAME``), less those the user switched off (``--option no-NAME``)."""
    rulesets = sorted(installed())
    problems = [  # an option for a ruleset not installed here is skipped, unless it looks like a typo
        Problem(f"{o!r} names no installed ruleset{did_you_mean(o.split(':', 1)[0], rulesets)}",
                path="scenario.options", source=scenario.source)
        for o in scenario.options
        if o.split(":", 1)[0] not in rulesets and difflib.get_close_matches(o.split(":", 1)[0], rulesets, n=1, cutoff=0.6)
    ]
    names = rules.names
    mine = [o.split(":", 1)[1] for o in scenario.options
            if o.split(":", 1)[0] in names and o.split(":", 1)[1] not in rules.switched_off]
    problems += [
        Problem(f"unknown option {o!r} for {rules.info.name}{did_you_mean(o, sorted(rules.option_specs))}",
                path="scenario.options", source=scenario.source)
        for o in mine if o not in rules.option_specs
    ]
    weather = scenario.light.weather
    if weather not in rules.info.weather:
        played = [name for name, values in weathers().items() if weather in values]
        problems.append(Problem(f"{rules.info.name} does not play weather {weather!r}: its rules say nothing of it "
                                f"(it plays {', '.join(map(repr, rules.info.weather))}; {weather!r} is played by "
                                f"{', '.join(played) or 'no ruleset'}): choose one of those rulesets or another weather",
                                path="scenario.weather", source=scenario.source, line=_line_of(scenario, "scenario.weather")))
    if problems:
        raise InvalidInput(problems, f"scenario {scenario.id}")
    chosen = rules.options | frozenset(mine)
    clashes = exclusive_clashes(chosen, rules.option_specs)
    if clashes:
        raise InvalidInput(clashes, f"options for {rules.name} with scenario {scenario.id}")
    return chosen


def _line_of(scenario: Scenario, path: str) -> int | None:
    """The line of a key in the scenario's file, if it can be read."""
    try:
        return key_lines(Path(scenario.source).read_text(encoding="utf-8")).get(path)
    except (OSError, ValueError):
        return None


def replication_seed(seed: int, k: int) -> int:
    """The seed of replication ``k``: the same for every ruleset (common random numbers)."""
    digest = hashlib.sha256(f"referee:{seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play(game: Game) -> Outcome:
    """Play one game to its end and return its outcome."""
    rules = game.rules
    game.state = rules.muster(game)
    game.log.emit("start", minute=game.world.minute, text=f"{game.scenario.title} under {game.rules.name}, seed {game.seed}")
    verdict = Verdict(False, None, "")
    play_step = rules.step_player()
    watched = rules.implements("referee_step_done")  # asked once a game, not once a step
    shown = _Shown()  # what the positions events have said
    if game.log.enabled:
        _positions(game, shown)
    while not verdict.over:
        game.turn += 1
        if game.turn > MAX_TURNS:
            raise RefereeError(f"{game.rules.name}: no decision after {MAX_TURNS} turns; the ruleset's clock does not advance")
        game.log.context.update(turn=game.turn, minute=game.world.minute)
        game.log.emit("turn", text=f"turn {game.turn} begins at {clock(game.world.minute)}")
        _enter_reinforcements(game)
        for step in rules.turn(game):
            game.step = step
            if game.log.enabled:
                game.log.emit("step", text=step.describe())
            play_step(game=game, step=step)
            if watched:
                rules.step_done(game, step)
            if game.log.enabled:
                _positions(game, shown)
        rules.end_turn(game)
        if game.log.enabled:
            _positions(game, shown)
        game.world.minute += rules.turn_minutes(game)
        game.log.context["minute"] = game.world.minute
        _objectives_changing_hands(game)
        game.plan.update(game)
        verdict = judge(game.world, holders=False)
    outcome = game.outcome(verdict)
    game.log.emit("end", text=f"{outcome.winner or 'draw'}: {outcome.reason}", men_lost=outcome.men_lost, guns_lost=outcome.guns_lost)
    return outcome


POSITION_FIELDS = ("x", "y", "facing", "formation", "men", "guns", "status")
"""What a ``positions`` event says of each unit, in this order: yards (rounded), degrees
(rounded), the neutral formation, men, guns, and the neutral status (``off`` for a unit not yet
on the field)."""


_raw_state = attrgetter("x", "y", "facing", "formation", "men", "guns", "status", "on_field")


@define
class _Shown:
    """What the positions events have said so far: every unit's raw state when last looked at
    (in the world's unit order) and what was logged of each unit."""

    raw: tuple[tuple[Any, ...], ...] = ()
    logged: dict[str, tuple[Any, ...]] = field(factory=dict)


def _positions(game: Game, shown: _Shown) -> None:
    """Log each unit whose place, facing, formation, men, guns or status changed since the last
    positions event (every unit the first time); nothing if none did (most steps: one look at
    the raw states settles it)."""
    units = game.world.units
    raw = tuple(map(_raw_state, units.values()))
    if raw == shown.raw:
        return
    before, shown.raw = shown.raw, raw
    changed = {}
    for i, (uid, u) in enumerate(units.items()):
        if before and before[i] == raw[i]:
            continue
        now = (round(u.x), round(u.y), round(u.facing) % 360, u.formation, u.men, u.guns,
               u.status if u.on_field or u.status == "gone" else "off")
        if shown.logged.get(uid) != now:
            shown.logged[uid] = changed[uid] = now
    if changed:
        game.log.emit("positions", units={uid: list(v) for uid, v in changed.items()})


def _objectives_changing_hands(game: Game) -> None:
    for objective, before, after in update_holders(game.world):
        game.log.emit("objective", objective=objective, side=after,
                      text=f"{objective} passes to the {after}" + (f" from the {before}" if before else ""))


def _enter_reinforcements(game: Game) -> None:
    for unit in game.world.units.values():
        entry = unit.spec.entry
        if not unit.on_field and entry is not None and entry <= game.world.minute and unit.status != "gone":
            unit.on_field = True
            game.log.emit("enter", unit=unit.spec.name, text=f"{unit.spec.name} enters the field")
