"""``referee.api``: everything a ruleset or a house rule may import from referee, in one place.

What is named here is public: it keeps its name and meaning from one release to the next, and
docs/hooks.md documents it. What is not named here (``referee.core.*``'s other names, and any
name of another ruleset's package) is the project's own and may change under a plugin. A
ruleset imports from this module and from its own package; a layer over a ruleset may also
import that ruleset's modules (as hynds does rff's), but never their private (``_``) names.

    from referee.api import Modifier, hookimpl

    @hookimpl
    def referee_modifiers(game, mechanic, situation):
        ...

The testing kit for a plugin's own tests is ``referee.testing`` (docs/writing-house-rules.md).
"""

from __future__ import annotations

from referee.core.engine import world
from referee.core.engine.chance import (
    AVERAGE,
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
    LADDER,
    Die,
    Roller,
    SampledRoller,
    Tally,
    d,
    dice_sum,
    ladder_shift,
)
from referee.core.engine.doctrine import CommandIntent, Intent
from referee.core.engine.errors import InvalidInput, PluginFailed, Problem, RefereeError
from referee.core.engine.events import CAUSES, Modifier, Resolution, net
from referee.core.engine.footprint import depth, frontage
from referee.core.engine.game import Game, Outcome, Step, men_between
from referee.core.engine.glue import TableHooks, TableSource
from referee.core.engine.ground import CELL, OPEN, Ground, inside
from referee.core.engine.hookspecs import hookimpl, hookspec
from referee.core.engine.mechanics import InputSpec, MechanicSpec
from referee.core.engine.reach import Capabilities, short_of
from referee.core.engine.records import STRICT, record
from referee.core.engine.rules import OptionSpec, RulesetInfo, Scale
from referee.core.engine.space import Space, segment_distance
from referee.core.engine.tables import (
    Band,
    Bands,
    BandsOf,
    Bool,
    Check,
    Int,
    ListOf,
    MapOf,
    Number,
    Record,
    Spec,
    Str,
    Table,
    TomlFile,
    apply_overlay,
    load_ruleset,
    load_texts,
    to_fraction,
)
from referee.core.engine.world import (
    LeaderState,
    Point,
    Scenario,
    UnitSpec,
    UnitState,
    World,
    angle_between,
    bearing,
    distance,
)
from referee.core.studies.situation import Exchange, Result

__all__ = [  # noqa: RUF022  (grouped by use, as docs/hooks.md lists them)
    # hooks
    "hookimpl", "hookspec",
    # the game and the neutral world
    "Game", "Outcome", "Step", "World", "Scenario", "UnitSpec", "UnitState", "LeaderState", "Point", "world",
    "angle_between", "bearing", "distance", "men_between", "Ground", "CELL", "OPEN", "inside", "depth", "frontage",
    "Space", "segment_distance",
    # the commander
    "Intent", "CommandIntent", "Capabilities", "short_of",
    # dice and mechanics
    "Die", "d", "D4", "D6", "D8", "D10", "D12", "D20", "AVERAGE", "LADDER", "ladder_shift", "dice_sum", "Roller",
    "SampledRoller", "Tally", "Modifier", "Resolution", "CAUSES", "net", "InputSpec", "MechanicSpec",
    "Exchange", "Result",
    # describing a ruleset, its tables and options
    "RulesetInfo", "Scale", "OptionSpec", "Table", "TomlFile", "Spec", "Record", "MapOf", "ListOf", "Int", "Number",
    "Str", "Bool", "Check", "Band", "Bands", "BandsOf", "load_ruleset", "load_texts", "apply_overlay", "to_fraction",
    "TableSource", "TableHooks",
    # values and errors
    "record", "STRICT", "RefereeError", "InvalidInput", "Problem", "PluginFailed",
]
