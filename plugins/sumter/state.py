"""The Raising Sumter table: units as figures (batteries as gun models) under brigades with
orders, and the write-back to the neutral world.

A :class:`Piece` keeps its place in the neutral :class:`~referee.core.engine.world.UnitState` (yards),
its figures, grade and DPs here. Rulings SU-S1..SU-S6 (docs/rulings/sumter.md).
"""

from __future__ import annotations

import math

from attrs import define, field
from referee.api import CommandIntent, Game, Intent, LeaderState, UnitState

from .tables import SumterTables

STATUS = {"ok": "good", "halted": "disordered", "retreat": "broken", "rout": "routed", "gone": "gone"}


@define(eq=False, slots=True)
class Piece:
    id: str
    unit: UnitState
    brigade: Brigade
    arm: str
    grade: str
    figures: int
    start: int
    rate: str  # the movement table's row
    models: int = 0  # gun models (artillery)
    dps: int = 0
    state: str = "ok"  # ok, halted, retreat, rout, gone
    moved: float = 0.0  # share of its movement dice used this turn
    limbered_now: bool = False  # limbered or unlimbered this turn
    fired: bool = False  # fired this turn
    fired_last: bool = False  # fired last turn
    yelled: bool = False  # its one Rebel Yell of the game is spent
    charging: str | None = None  # the piece it charges this turn
    melee: str | None = None  # the piece it is in melee with (from contact until decided)
    bonus: str = ""  # its melee bonus: charge, countercharge, pursuing, following-up
    pushed: bool = False  # pushed back in the last round
    pursuing: str | None = None
    lost: int = 0  # figures lost this turn
    hit: bool = False  # took hits (DPs or figures) from fire this turn
    broke: bool = False  # retreated, routed or dispersed this turn
    flank_fire: bool = False  # fired on by order infantry in flank or rear this turn
    rallied: bool = False  # rallied this turn
    yelling: bool = False  # charged with a Rebel Yell this turn
    bushwhacked: bool = False  # the scenario marks it surprised, and the first turn is not over (SU-U6)
    reach: float = 0.0  # yards its fire reaches, its weapon's long range and contact (set at muster: arms do not change)
    cover: tuple[float, float, str] | None = None  # where it stood when its cover was last read, and that cover (combat.cover_of)

    @property
    def side(self) -> str:
        return self.unit.spec.side

    @property
    def live(self) -> bool:
        """On the field and not gone."""
        return self.unit.on_field and self.state != "gone"

    @property
    def fit(self) -> bool:
        return self.state in ("ok", "halted") and self.unit.on_field

    @property
    def skirmish(self) -> bool:
        return self.unit.formation == "skirmish"

    @property
    def order_foot(self) -> bool:
        return self.arm == "infantry" and not self.skirmish


@define(eq=False, slots=True)
class Brigade:
    id: str
    side: str
    order: str
    general: LeaderState | None
    pieces: list[Piece] = field(factory=list)
    failed: bool = False  # order or morale failure: retiring until an order change succeeds
    yelled: bool = False  # a Rebel Yell this turn


@define(eq=False)
class SumterState:
    """One game of sumter (``game.state``): its pieces and brigades, what a phase hands the next,
    and its one cache, :attr:`sniper_reach` (the tables' is :attr:`SumterTables.optioned`; each
    piece keeps its cover with the place it read it at, :attr:`Piece.cover`)."""

    tables: SumterTables
    ypi: float  # yards per inch
    pieces: dict[str, Piece] = field(factory=dict)
    by_side: dict[str, list[Piece]] = field(factory=dict)
    batteries: dict[str, list[Piece]] = field(factory=dict)  # side -> its artillery pieces, in by_side's order
    brigades: dict[str, Brigade] = field(factory=dict)
    cinc: dict[str, LeaderState | None] = field(factory=dict)
    intents: dict[str, dict[str, Intent]] = field(factory=dict)  # side -> unit intents, this turn
    wanted: dict[str, dict[str, CommandIntent]] = field(factory=dict)  # side -> command intents, this turn
    melees: list[tuple[Piece, Piece]] = field(factory=list)  # (attacker, defender) pairs in contact
    rounds: dict[tuple[str, str], int] = field(factory=dict)  # rounds fought by each pair in melee
    sniper_reach: dict[str, float] = field(factory=dict)
    """Cache of ``combat.snipe``: side -> yards the longest firearm of its infantry reaches (with
    contact), the radius of the sniper's search; filled on first ask, never cleared (weapons do
    not change)."""

    def yards(self, inches: float) -> float:
        return inches * self.ypi

    def enemies(self, side: str) -> list[Piece]:
        return [p for s, ps in self.by_side.items() if s != side for p in ps if p.live]


def reach_inches(state: SumterState, p: Piece) -> float:
    """The inches of the long range of the unit's firearm or guns."""
    if p.arm == "artillery":
        return state.tables.gun_reach[p.unit.spec.gun_type or "12-pdr-napoleon"]
    return state.tables.firearm_reach[p.unit.spec.weapon or "rifle-musket"]


def rate_of(arm: str, grade: str, mounted: bool) -> str:
    good = grade in ("veteran", "regular")
    if arm == "artillery":
        return "horse-artillery" if mounted else "foot-artillery"
    if arm == "cavalry" and mounted:
        return "horse-good" if good else "horse-poor"
    return "foot-good" if good else "foot-poor"


def muster(game: Game, t: SumterTables) -> SumterState:
    """Units become figures (men / 20, rounded, at least one; SU-S1), batteries gun models of
    two guns (rounded up; SU-S3); grades and generals by the scale's maps (SU-S5, SU-S6); each
    command with units a brigade, on the order its plan asks for (SU-C6). The neutral world is
    written back at once (:func:`sync`)."""
    laid = tuple(o for o in sorted(t.option_sets) if game.option(o))
    if laid:  # options that change the tables (rulings' other readings)
        t = t.with_options(laid)
    s = t["scale"]
    state = SumterState(t, float(t.scale.yards_per_inch))
    world = game.world
    leaders = sorted(world.leaders.values(), key=lambda ld: ld.spec.id)
    for side in game.scenario.sides:
        state.cinc[side] = next((ld for ld in leaders if ld.spec.side == side and _level(game, ld.spec.command) == "army"), None)
    chosen = [o for o in sorted(t.figure_men) if game.option(o)]
    men_per_figure = t.figure_men[chosen[0]] if chosen else s["men_per_figure"]
    wanted = {side: game.command_intents(side) for side in game.scenario.sides}
    generals: dict[str, LeaderState] = {}  # command -> its first leader by id (one pass, not one per brigade)
    for ld in leaders:
        generals.setdefault(ld.spec.command, ld)
    for unit in world.units.values():
        spec = unit.spec
        b = state.brigades.get(spec.command)
        if b is None:
            stance = wanted[spec.side].get(spec.command)
            order = t["command"]["from_stance"][stance.stance] if stance is not None else "hold"
            general = generals.get(spec.command)
            b = state.brigades[spec.command] = Brigade(spec.command, spec.side, order, general)
        grade = s["grades"][spec.experience]
        figures = max(1, round(spec.men / men_per_figure))
        p = Piece(spec.id, unit, b, spec.arm, grade, figures, figures, rate_of(spec.arm, grade, spec.mounted),
                  math.ceil(spec.guns / s["guns_per_model"]) if spec.guns else 0)
        p.bushwhacked = spec.surprised
        p.reach = state.yards(reach_inches(state, p)) + state.yards(s["contact_inches"])
        show_strength(p)
        b.pieces.append(p)
        state.pieces[p.id] = p
        state.by_side.setdefault(spec.side, []).append(p)
        if p.arm == "artillery":
            state.batteries.setdefault(spec.side, []).append(p)
    sync(state)
    return state


def _level(game: Game, command: str) -> str:
    chain = game.scenario.chains.get(command, ())
    return chain[0].level if chain else ""


def show_strength(p: Piece) -> None:
    """The unit's men in the neutral world from its figures standing (so men are conserved and
    losses come in figures), and its guns, which fall with their crews (ruling SU-A5): written
    when figures fall (``combat.lose_figures``) and at muster."""
    u = p.unit
    u.men = u.spec.men * p.figures // p.start
    if u.spec.guns:
        u.guns = min(u.guns, math.ceil(u.spec.guns * p.figures / p.start))


def show_status(p: Piece) -> None:
    """The unit's status in the neutral world, from its state and its brigade's (men and guns
    follow the figures as they fall, :func:`show_strength`; places are kept there already). A
    unit reads as disordered when halted or in a retiring brigade, whatever its DPs (rulings
    SU-D4, SU-D5). Written where they change (:func:`set_state`, :func:`set_failed`; an order
    step's result once the turn's intents are given, :func:`sync`) and at muster, so no step
    writes back units that did not change."""
    u = p.unit
    if p.state == "gone" or p.figures <= 0:
        u.status = "gone"
    else:
        u.status = "disordered" if p.state == "ok" and p.brigade.failed else STATUS[p.state]


def set_state(p: Piece, value: str) -> None:
    """``p`` in a new state (ok, halted, retreat, rout, gone), shown to the neutral world."""
    p.state = value
    show_status(p)


def set_failed(b: Brigade, failed: bool) -> None:
    """The brigade retiring after an order or morale failure (or no longer), shown to the
    neutral world on each of its units."""
    b.failed = failed
    for p in b.pieces:
        show_status(p)


def sync(state: SumterState) -> None:
    """Every unit's status written to the neutral world (:func:`show_status`)."""
    for p in state.pieces.values():
        show_status(p)
