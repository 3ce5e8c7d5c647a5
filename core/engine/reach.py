"""What a unit can do now under its ruleset, and the stand-off a move keeps.

The doctrine asks each unit's ruleset (hook ``referee_capabilities``) how far the unit can
charge and move this turn, how far its fire tells and whether it may charge at all; the answers are kept
here, per unit and turn, in ``game.kept.capabilities``, the one place they are kept. :func:`short_of` is the shared arithmetic every ruleset's movement uses to honour an
intent's stand-off (docs/doctrine.md, "Orders keep their range").
"""

from __future__ import annotations

from math import hypot, sqrt
from typing import TYPE_CHECKING

from .records import record

if TYPE_CHECKING:
    from .game import Game
    from .world import UnitState



@record
class Capabilities:
    """One unit's reach now, in yards, as its ruleset reads its printed tables and scale."""

    charge_yards: float  # how far it can charge (assault) this turn
    effective_yards: float  # within this its fire tells with full effect
    close_yards: float  # its close range: nothing is gained by standing closer to fire
    may_charge: bool = True  # whether its rules let it charge at all now
    why_not: str = ""  # why it may not (formation, status, order, arm), in the ruleset's words
    rulings: tuple[str, ...] = ()  # the rulings the answer rests on (cited when a charge is declined)
    move_yards: float | None = None  # its move this turn in its present formation on open ground (None: not said)


def capabilities(game: Game, unit: UnitState) -> Capabilities | None:
    """The unit's :class:`Capabilities` from its ruleset, or None when no ruleset answers.
    Asked once per unit per turn and kept (again if its formation or status changes); None,
    unasked, while the ruleset is mustering (its state not yet made: sumter's muster reads the
    commanders' stances)."""
    if game.state is None:
        return None
    kept = game.kept.capabilities
    key = (game.turn, unit.formation, unit.status)
    was = kept.get(unit.id)
    if was is not None and was[0] == key:
        return was[1]
    answer: Capabilities | None = game.rules.callers["referee_capabilities"](game=game, unit=unit.id)
    kept[unit.id] = (key, answer)
    return answer


def short_of(x: float, y: float, gx: float, gy: float, tx: float, ty: float, keep: float, yards: float) -> float:
    """How far, at most ``yards``, a move from (x, y) straight toward (gx, gy) may go and end no
    nearer than ``keep`` yards to (tx, ty): it stops where it would first come inside. A unit
    already inside may only draw away."""
    span = hypot(gx - x, gy - y)
    if span < 1e-9 or yards <= 0.0:
        return yards
    ux, uy = (gx - x) / span, (gy - y) / span
    wx, wy = x - tx, y - ty
    along = wx * ux + wy * uy
    c = wx * wx + wy * wy - keep * keep
    if c <= 0.0:
        return yards if along >= 0.0 else 0.0
    disc = along * along - c
    if along >= 0.0 or disc < 0.0:
        return yards  # moving away, or passing wide
    first = -along - sqrt(disc)
    return yards if yards < first else max(0.0, first)
