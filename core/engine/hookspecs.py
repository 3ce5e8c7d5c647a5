"""The hooks a ruleset or house rule implements, grouped by when they are called.

Every hook is prefixed ``referee_``. Implementations take only the arguments they need and no
defaults (pluggy never passes them). One :class:`~referee.core.engine.plugins.Rules` stack is a base
ruleset plus its house rules, registered in that order, so a house rule's ``hookwrapper`` or
``tryfirst`` implementation sees and may adjust the base ruleset's answer.

Who may implement: *base* = the base ruleset only; *any* = the base ruleset or a house rule;
*doctrine* = the core's default doctrine or a plugin that replaces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:  # the classes the hooks pass and return; the core imports this module first
    from ..studies.situation import Exchange
    from .doctrine import CommandIntent, Intent
    from .events import Modifier, Resolution
    from .game import Game, Step
    from .mechanics import MechanicSpec
    from .reach import Capabilities
    from .rules import OptionSpec, RulesetInfo
    from .tables import Table

hookspec = pluggy.HookspecMarker("referee")
hookimpl = pluggy.HookimplMarker("referee")

# ----------------------------------------------------------------------------- description
# Called when a rule stack is built (once per stack, not per game).


@hookspec(firstresult=True)
def referee_ruleset() -> RulesetInfo | None:
    """The base ruleset's :class:`~referee.core.engine.rules.RulesetInfo`: name, title, source, scale.

    Called once when a stack is built. Who: base. A house rule describes itself with
    ``referee_house_rule`` instead.
    """


@hookspec
def referee_house_rule() -> RulesetInfo | None:
    """A house rule's :class:`~referee.core.engine.rules.RulesetInfo` (kind "house-rule", its base).

    Called once when a stack is built, to list the layers and check each fits its base. Who: a
    house rule.
    """


@hookspec
def referee_options() -> Sequence[OptionSpec] | None:
    """The switchable rules this plugin offers: a list of :class:`~referee.core.engine.rules.OptionSpec`.

    Called once when a stack is built; ``--option`` and a scenario's ``options`` are checked
    against the union. Who: any.
    """


@hookspec
def referee_tables(tables: dict[str, Table], overlays: tuple[Path, ...]) -> dict[str, Table] | None:
    """Tables to display (``referee tables``): a dict ``name -> Table`` merged into ``tables``.

    Called once when a stack is built, base first, so a house rule sees the base's tables in
    ``tables`` and may return replacements. ``overlays`` are the stack's data house rules
    (TOML files, in order), which the base ruleset lays over its own tables. Who: any.
    """


@hookspec
def referee_mechanics(tables: dict[str, Table], overlays: tuple[Path, ...]) -> Sequence[MechanicSpec] | None:
    """The mechanics this plugin offers at the table: a list of
    :class:`~referee.core.engine.mechanics.MechanicSpec`.

    Called once when a stack is built, with the merged display tables and the data overlays.
    A later plugin's mechanic of the same name replaces an earlier one. Who: any.
    """


# ----------------------------------------------------------------------------- set-up
# Called once per game, before the first turn.


@hookspec(firstresult=True)
def referee_muster(game: Game) -> Any:
    """Put the neutral world on the table: return the ruleset's own game state (stands,
    figures, companies, brigades) built from ``game.world``, with the tables of
    ``game.rules.overlays`` in force. Stored as ``game.state``.

    Who: base.
    """


@hookspec(firstresult=True)
def referee_describe(game: Game, unit: str) -> str | None:
    """What the ruleset made of one unit at muster, in its own terms (stands, figures or
    companies, their men, the grade, the weapon), for ``referee check``; None for a unit it did
    not put on the table. Called after ``referee_muster``. Who: base.
    """


# ----------------------------------------------------------------------------- the turn
# Called every turn, in this order: referee_turn (then referee_step for each step it yields,
# then referee_step_done), referee_end_turn. The core then advances the clock by
# referee_turn_minutes and judges victory.


@hookspec(firstresult=True)
def referee_turn_minutes(game: Game) -> int | None:
    """Minutes of battle that one turn stands for (an int). Called each turn. Who: base."""


@hookspec(firstresult=True)
def referee_turn(game: Game) -> Iterable[Step] | None:
    """The steps of this turn, in order: an iterable of :class:`~referee.core.engine.game.Step`.

    May be a generator that reads the state as it goes (alternate activation decides the next
    unit only when the last has acted). The core walks the steps and knows nothing else of
    them. Who: base.
    """


@hookspec(firstresult=True)
def referee_step(game: Game, step: Step) -> bool | None:
    """Play one step: a phase of one side, one unit's activation, an orders step. Return True.

    The ruleset asks ``game.intents(side)`` for the commander's decisions, resolves what its
    rules allow, logs each resolution with ``game.log`` and writes the neutral state back to
    ``game.world``. Who: base (a house rule may wrap it).
    """


@hookspec
def referee_step_done(game: Game, step: Step) -> None:
    """After a step has been played: observe or adjust the state. Who: any."""


@hookspec
def referee_end_turn(game: Game) -> None:
    """After the last step of a turn: end-of-turn recovery, reinforcements, light. Who: any."""


# ----------------------------------------------------------------------------- resolutions
# Called by a ruleset's procedures around each resolution (not around single dice). The core
# skips the call altogether when no plugin implements the hook.


@hookspec
def referee_modifiers(game: Game, mechanic: str, situation: Any) -> Sequence[Modifier] | None:
    """Extra modifiers for one resolution: a list of :class:`~referee.core.engine.events.Modifier`.

    ``situation`` is the ruleset's description of what is being resolved (firer, target,
    range...). Who: any (typically a house rule adding a modifier).
    """


@hookspec(firstresult=True)
def referee_resolved(game: Game, mechanic: str, situation: Any, resolution: Resolution) -> Resolution | None:
    """A resolution has been made: return a replacement :class:`~referee.core.engine.events.Resolution`
    or None to keep it. Who: any (typically a house rule changing a result).
    """


@hookspec
def referee_observed(game: Game, mechanic: str, situation: Any, resolution: Resolution) -> None:
    """A resolution is final (after ``referee_resolved``, before it is logged): look, do not
    change it. Every implementation is called; what it returns is ignored. A rule that reacts
    to a shot or a test (flank fire, breastworks) keeps what it saw in ``game.memory`` and acts
    in ``referee_step_done`` or ``referee_end_turn``. Who: any.
    """


# ----------------------------------------------------------------------------- decisions


@hookspec(firstresult=True)
def referee_intents(game: Game, side: str) -> dict[str, Intent] | None:
    """The commander's decisions for ``side`` now: a dict ``unit id -> Intent`` read from the
    neutral state only. Called by a ruleset whenever it needs decisions (each phase or
    activation). Who: doctrine (the core registers its default last).
    """


@hookspec(firstresult=True)
def referee_capabilities(game: Game, unit: str) -> Capabilities | None:
    """What ``unit`` can do now under this ruleset, in yards: a
    :class:`~referee.core.engine.reach.Capabilities` (how far it can charge or assault this turn, its
    effective and close fire ranges, whether it may charge at all now and why not), read from
    the ruleset's printed tables and scale, or None to leave the doctrine its neutral distances.
    Asked by the doctrine at most once per unit per turn (and again if the unit's formation or
    status changes; kept in ``game.kept.capabilities``, :mod:`referee.core.engine.reach`). Who: base (a layer
    whose text differs may wrap it).
    """


# ----------------------------------------------------------------------------- command decisions and reactive choices
# Decisions some rules leave to the player, asked of the doctrine so that no ruleset decides
# them itself. The core's default doctrine answers both (docs/doctrine.md).


@hookspec(firstresult=True)
def referee_command_intents(game: Game, side: str) -> dict[str, CommandIntent] | None:
    """What the commander wants of each command of ``side`` now: a dict ``command id ->``
    :class:`~referee.core.engine.doctrine.CommandIntent` (its stance: assault, engage, support,
    advance, hold or withdraw), read from the plan and the neutral state. Called by a ruleset
    that gives orders to commands (a brigade's order). Who: doctrine.
    """


@hookspec(firstresult=True)
def referee_choose(game: Game, side: str, unit: str, question: str, options: tuple[str, ...]) -> str | None:
    """A choice the rules leave to the player, for ``unit`` of ``side``: one of ``options``
    (strings). Questions the default doctrine knows: ``rebel-yell`` (yell, no), ``charged``
    (countercharge, stand, evade), ``follow-up`` (follow-up, stand), ``pour-on-fire`` (pour, no),
    ``move-and-fire`` (half-and-fire, full).
    Any other question gets its first option. Called by a ruleset. Who: doctrine.
    """


# ----------------------------------------------------------------------------- situations
# Called by ``referee situation``, once per ruleset, on a game mustered on the situation's field.


@hookspec(firstresult=True)
def referee_situation(game: Game, attacker: str, defender: str, charge: bool) -> Exchange | None:
    """One exchange of a neutral situation as this ruleset resolves it: ``attacker``'s fire at
    ``defender`` (or its charge, when ``charge``), as a :class:`~referee.core.studies.situation.Exchange`
    (the ruleset's words for what it resolves, and a mechanic of a roller giving a neutral
    :class:`~referee.core.studies.situation.Result` in men and statuses), or None when the ruleset offers
    none for this situation. Called once, after ``referee_muster`` on the situation's own small
    field; the core computes the mechanic exactly. Who: base (a layer may wrap it).
    """
