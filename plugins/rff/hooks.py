"""rff's extension hooks (:mod:`.hookspecs`) as a typed facade: one method per hook, as tox
wraps ``pm.hook``, so rff's procedures never name a hook by a string.

One :class:`RffHooks` is built per game, at muster (``RffState.hooks``, :func:`.muster.muster`). Each method asks the
hook only when some plugin implements it (``Rules.implemented``), and then through the stack's
fast path (``Rules.callers``: :func:`referee.core.engine.plugins.sole_caller`, proven equal to pluggy
by tests/test_dispatch.py), read at each call so a plugin registered after muster is heard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.api import Game, Modifier, Step

    from .fire import Shot
    from .state import Piece

Point = tuple[float, float]


class RffHooks:
    """The rff hooks of one game's stack; each method returns rff's own answer when no layer
    changes it."""

    __slots__ = ("rules",)

    def __init__(self, game: Game) -> None:
        self.rules = game.rules  # the stack's: its implemented hooks and callers stay current

    def move_yards(self, game: Game, piece: Piece, pace: str, to: Point, yards: float) -> float:
        """``rff_move_yards``: the yards ``piece`` may move (a layer's price, or rff's ``yards``)."""
        rules = self.rules
        if "rff_move_yards" not in rules.implemented:
            return yards
        priced: float | None = rules.callers["rff_move_yards"](game=game, piece=piece, pace=pace, to=to, yards=yards)
        return yards if priced is None else priced

    def moved(self, game: Game, piece: Piece, start: Point) -> None:
        """``rff_moved``: ``piece`` has moved from ``start``."""
        rules = self.rules
        if "rff_moved" in rules.implemented:
            rules.callers["rff_moved"](game=game, piece=piece, start=start)

    def shots(self, game: Game, shots: list[Shot]) -> list[Shot]:
        """``rff_shots``: the half-phase's shots (a layer's list replaces rff's, even an empty one)."""
        rules = self.rules
        if "rff_shots" not in rules.implemented:
            return shots
        layered: list[Shot] | None = rules.callers["rff_shots"](game=game, shots=shots)
        return shots if layered is None else layered

    def fire_points(self, game: Game, shot: Shot, points: Any, multipliers: Sequence[Modifier]) -> tuple[Any, Sequence[Modifier]]:
        """``rff_fire_points``: a shot's fire points and multipliers, as layers change them."""
        rules = self.rules
        if "rff_fire_points" not in rules.implemented:
            return points, multipliers
        changed: tuple[Any, Sequence[Modifier]] | None = rules.callers["rff_fire_points"](
            game=game, shot=shot, points=points, multipliers=multipliers)
        return changed or (points, multipliers)

    def fire_result(self, game: Game, shot: Shot, die: int, values: Mapping[str, Any]) -> Mapping[str, Any]:
        """``rff_fire_result``: a shot's effect values, as layers change them (given the die)."""
        rules = self.rules
        if "rff_fire_result" not in rules.implemented:
            return values
        changed: Mapping[str, Any] | None = rules.callers["rff_fire_result"](game=game, shot=shot, die=die, values=values)
        return changed or values

    def may_fire(self, game: Game, piece: Piece, defensive: bool) -> bool:
        """``rff_may_fire``: may a charger with cold steel that rff holds back fire after all?"""
        rules = self.rules
        return "rff_may_fire" in rules.implemented and bool(rules.callers["rff_may_fire"](game=game, piece=piece, defensive=defensive))

    def screen(self, game: Game, regiment: Piece, stands: int) -> int:
        """``rff_screen``: the stands ``regiment`` detaches as skirmishers (rff's ``stands``
        unless a layer answers), kept below the regiment's own."""
        rules = self.rules
        if "rff_screen" not in rules.implemented:
            return stands
        wanted: int | None = rules.callers["rff_screen"](game=game, regiment=regiment, stands=stands)
        return stands if wanted is None else max(0, min(int(wanted), regiment.stands - 1))

    def phase_done(self, game: Game, step: Step) -> None:
        """``rff_phase_done``: one side's phase is over."""
        rules = self.rules
        if "rff_phase_done" in rules.implemented:
            rules.callers["rff_phase_done"](game=game, step=step)

    def turn_done(self, game: Game) -> None:
        """``rff_turn_done``: the game turn is over."""
        rules = self.rules
        if "rff_turn_done" in rules.implemented:
            rules.callers["rff_turn_done"](game=game)
