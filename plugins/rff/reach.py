"""What a piece can do now, for the commander (hook ``referee_capabilities``; rulings RFF-CR1 to
RFF-CR3): its charge reach and its move from the movement table, its fire ranges from the
musketry and cannonade table, all at the game's scale."""

from __future__ import annotations

from referee.api import Capabilities, Game

from . import geometry as geo
from . import lookup
from .state import Piece, RffState

RULINGS = ("RFF-P9", "RFF-CR1", "RFF-CR2")


def capabilities(game: Game, unit: str) -> Capabilities | None:
    state: RffState = game.state
    piece = state.pieces.get(unit)
    if piece is None:
        return None
    t = state.tables
    kind, code = ("cannonade", piece.weapon) if piece.guns else ("musketry", piece.weapon)
    bands = lookup.fire_bands(t, kind, code)
    effective = max((limit for limit, points in bands if points is not None and points >= 1), default=lookup.close_range(t))
    move = lookup.rates(t, piece, False)[0]  # RFF-CR3: a full move of its formation on open ground
    reach = move  # RFF-CR1: a full move on open ground, the move of a Well Handled charge
    why = _why_not(piece)
    return Capabilities(geo.yards(state, reach), geo.yards(state, effective), geo.yards(state, lookup.close_range(t)),
                        why == "", why, RULINGS, geo.yards(state, move))


def _why_not(piece: Piece) -> str:
    """RFF-P9: only troops in good order declare a charge (guns never do)."""
    if piece.guns:
        return "guns do not charge (RFF-P9)"
    if piece.status != "good":
        return f"it is {piece.status}: only a piece in good order declares a charge (RFF-P9)"
    return ""
