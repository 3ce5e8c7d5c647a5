"""What a unit can do now, for the commander (hook ``referee_capabilities``; rulings SU-CR1 to
SU-CR3): its charge reach and its move from the movement table's dice, its ranges from the firing
and artillery tables, at the scale of ruling SU-S2 (each a number worked out when the tables are
built: :attr:`SumterTables.charge_reach`, ``move_reach``, ``firearm_ranges``, ``gun_ranges``)."""

from __future__ import annotations

from referee.api import Capabilities, Game

from .state import Piece, SumterState

RULINGS = ("SU-C7", "SU-CR1", "SU-CR2")


def capabilities(game: Game, unit: str) -> Capabilities | None:
    state: SumterState = game.state
    p = state.pieces.get(unit)
    if p is None:
        return None
    t = state.tables
    effective, close = (t.gun_ranges[p.unit.spec.gun_type or "12-pdr-napoleon"] if p.arm == "artillery"
                        else t.firearm_ranges[p.unit.spec.weapon or "rifle-musket"])
    why = _why_not(p)
    return Capabilities(state.yards(t.charge_reach[p.rate]), state.yards(effective), state.yards(close),
                        why == "", why, RULINGS, state.yards(t.move_reach[p.rate, p.unit.formation]))


def _why_not(p: Piece) -> str:
    """Who the sheet lets charge: troops that are fit and not in melee (skirmishers too, SU-G9),
    whose brigade is on Assault orders (SU-C7)."""
    if p.arm == "artillery":
        return "artillery does not charge"
    if not p.fit:
        return f"it is in {p.state}"
    if p.melee:
        return "it is in melee"
    if p.brigade.order != "assault":
        return f"its brigade is on {p.brigade.order.title()} orders, not Assault (SU-C7)"
    return ""
