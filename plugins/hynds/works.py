"""Breastworks: a unit that has held the same ground for 2 consecutive turns with materials to
hand throws up light works (-1 to fire at it, +1 to its combat dice)."""

from __future__ import annotations

from typing import Any

from .cite import modifier, ref
from .tables import charts

HELD = "hynds.held"  # game.memory: piece id -> (x, y, consecutive turns there)
WORKS = "hynds.works"  # game.memory: piece ids behind breastworks they threw up
REACH = 40.0  # yards: materials this close to hand (ruling HYNDS-B1)


def holds(game: Any, piece: Any) -> bool:
    return piece.id in game.memory.get(WORKS, ())


def end_turn(game: Any, state: Any) -> None:
    rule = charts()["breastworks"]
    held, works = game.memory.setdefault(HELD, {}), game.memory.setdefault(WORKS, set())
    for piece in state.pieces.values():
        if not piece.troops or not piece.alive or piece.parent is not None:
            held.pop(piece.id, None)
            works.discard(piece.id)
            continue
        x, y, turns = held.get(piece.id, (None, None, 0))
        turns = turns + 1 if (x, y) == (piece.x, piece.y) else 1
        held[piece.id] = (piece.x, piece.y, turns)
        if turns == 1:
            works.discard(piece.id)
        elif turns >= rule["turns"] and piece.id not in works and piece.status == "good" and _materials(game, piece, rule["materials"]):
            works.add(piece.id)
            game.log.emit("works", unit=piece.id, rulings=["HYNDS-B1"], ruleset="hynds",
                          text=f"{piece.id} throws up light breastworks ({ref('Breastworks')})")


def _materials(game: Any, piece: Any, kinds: list[str]) -> bool:
    ground = game.ground
    return any(ground.has(k) and (ground.kind_at(piece.x, piece.y) == k or ground.near(k, piece.x, piece.y, REACH)) for k in kinds)


def charge_modifiers(game: Any, state: Any, attacker: Any, defender: Any) -> list[Any]:
    """For the attacker, rff's way: the defender's breastworks count against it."""
    if not holds(game, defender):
        return []
    combat = charts()["modifiers"]["breastworks-combat"]
    return [modifier("Defender behind breastworks", -combat["value"], combat["section"], "HYNDS-B1")]
