"""Breastworks: a unit that has held the same ground for 2 consecutive turns with materials to
hand throws up light works (-1 to fire at it, +1 to its combat dice). Burning buildings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define
from referee.api import Game
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import maneuver as rff_maneuver

if TYPE_CHECKING:
    from referee.plugins.rff.fire import Shot
    from referee.plugins.rff.state import Piece, RffState

from .cite import modifier, ref
from .state import of
from .tables import charts

REACH = 40.0  # yards: materials this close to hand (ruling HYNDS-B1)


def holds(game: Game, piece: Piece) -> bool:
    return piece.id in of(game).works


def set_on_fire(game: Game, shot: Shot, die: int) -> None:
    """A battery's 9 or 10 at troops in a building sets it on fire (HYNDS-G5)."""
    target, burning = shot.target, of(game).burning
    if (shot.kind == "cannonade" and target.troops and die in charts()["burning"]["fires"] and target.id not in burning
            and game.ground.has("buildings") and game.ground.kind_at(target.x, target.y) == "buildings"):
        burning[target.id] = (target.x, target.y, game.turn)
        game.log.emit("fire", unit=target.id, dice=[die], rulings=["HYNDS-G5"], ruleset="hynds",
                      text=f"{shot.firer.id} rolled {die}: the building {target.id} holds is on fire ({ref('Buildings')})")


def _burn(game: Game, state: RffState) -> None:
    """Defenders still in a burning building from the turn after it caught fire lose a stand a turn."""
    burning = of(game).burning
    for piece_id in sorted(burning):
        x, y, turn = burning[piece_id]
        piece = state.pieces.get(piece_id)
        if piece is None or not piece.alive or (piece.x, piece.y) != (x, y):
            del burning[piece_id]
        elif game.turn > turn:
            rff_maneuver.lose_stands(game, state, piece, charts()["burning"]["stands_per_turn"], "stays in a burning building (Hynds, HYNDS-G5)", "other")


def end_turn(game: Game, state: RffState) -> None:
    _burn(game, state)
    turns = charts()["breastworks"]["turns"]
    hynds = of(game)
    held, works = hynds.held, hynds.works
    for piece in state.pieces.values():
        if not piece.troops or piece.parent is not None or not piece.alive:
            if piece.id in held:
                del held[piece.id]
                works.discard(piece.id)
            continue
        kept = held.get(piece.id)
        if kept is None:
            held[piece.id] = Held(piece.x, piece.y)
            continue
        if kept.x != piece.x or kept.y != piece.y:
            kept.stand(piece.x, piece.y)
            if piece.id in works:
                works.remove(piece.id)
            continue
        kept.turns += 1
        if kept.turns >= turns and piece.id not in works and piece.status == "good" and kept.materials(game):
            works.add(piece.id)
            game.log.emit("works", unit=piece.id, rulings=["HYNDS-B1"], ruleset="hynds",
                          text=f"{piece.id} throws up light breastworks ({ref('Breastworks')})")


@define(eq=False)
class Held:
    """Where a piece has stood still, for how many consecutive turns, and whether it has
    materials to hand there (asked once: the ground alone decides it)."""

    x: float
    y: float
    turns: int = 1
    _materials: bool | None = None

    def stand(self, x: float, y: float) -> None:
        """Stand still afresh at (x, y) (the piece moved): one turn there, materials not asked."""
        self.x, self.y, self.turns, self._materials = x, y, 1, None

    def materials(self, game: Game) -> bool:
        if self._materials is None:
            self._materials = _materials(game, self.x, self.y)
        return self._materials


def _materials(game: Game, x: float, y: float) -> bool:
    """Materials to hand at (x, y): kept per ground by the exact place (the next game asks too)."""
    return bool(geo.kept(game, _materials_at, x, y))


def _materials_at(game: Game, x: float, y: float) -> bool:
    ground = game.ground
    return any(ground.has(k) and (ground.kind_at(x, y) == k or ground.near(k, x, y, REACH)) for k in charts()["breastworks"]["materials"])


def charge_modifiers(game: Game, state: RffState, attacker: Piece, defender: Piece) -> list[Any]:
    """For the attacker, rff's way: the defender's breastworks count against it, unless rff
    already gives the defender its ground (favorable ground or a strong position): light works
    are a position, not a modifier on top of one (HYNDS-B1)."""
    if not holds(game, defender):
        return []
    height = game.ground.height_at
    if geo.cover(game, defender) != "none" or height(defender.x, defender.y) > height(attacker.x, attacker.y):
        return []
    combat = charts()["modifiers"]["breastworks-combat"]
    return [modifier("Defender behind breastworks", -combat["value"], combat["section"], "HYNDS-B1")]
