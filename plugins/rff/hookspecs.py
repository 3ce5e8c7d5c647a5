"""rff's own extension hooks: places inside its procedures where a layer (Hynds' regimental
rules, a house rule) may change what rff does, without copying rff.

The core adds these to a stack's plugin manager because rff names them in ``HOOKSPECS``. Each
is called once per phase, resolution or move (never per die), and not at all when no plugin
implements it, so plain rff neither pays for them nor changes its log. Who: any layer on rff.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.api import hookspec

if TYPE_CHECKING:
    from referee.api import Game, Modifier, Step

    from .fire import Shot
    from .state import Piece

Point = tuple[float, float]


@hookspec(firstresult=True)
def rff_move_yards(game: Game, piece: Piece, pace: str, to: Point, yards: float) -> float | None:
    """How far ``piece`` may move at ``pace`` toward ``to`` (x, y), given rff's ``yards`` for
    the ground it crosses: return the yards (a float) or None to keep rff's.

    Called each time rff prices a move (a maneuver, a charge, skirmishers), before the piece
    moves. Who: any layer on rff (obstacles, paces, ground it prices otherwise).
    """


@hookspec
def rff_moved(game: Game, piece: Piece, start: Point) -> None:
    """``piece`` has moved from ``start`` (x, y) to where it stands now (an advance, a charge,
    skirmishers). Called after each move rff makes with ``move.advance``. Observe or adjust the
    state (passage of lines, a hidden unit seen, a fire that interrupts the move). Who: any
    layer on rff.
    """


@hookspec(firstresult=True)
def rff_shots(game: Game, shots: list[Shot]) -> list[Shot] | None:
    """The shots of one half-phase, every piece aimed (a list of rff's ``fire.Shot``): return a
    replacement list (targets a layer forbids changed, or shots dropped) or None to keep them.

    Called once per half-phase of fire, before any shot is resolved. Who: any layer on rff.
    """


@hookspec(firstresult=True)
def rff_fire_points(game: Game, shot: Shot, points: Any, multipliers: Sequence[Modifier]) -> tuple[Any, Sequence[Modifier]] | None:
    """The fire points of one shot (``points``, after rff's x 1/2 ``multipliers``, a tuple of
    :class:`~referee.core.engine.events.Modifier`): return ``(points, multipliers)`` to change them (a
    further x 1/2 with its cited multiplier) or None to keep them.

    Called once before each musketry or cannonade roll. Who: any layer on rff.
    """


@hookspec(firstresult=True)
def rff_fire_result(game: Game, shot: Shot, die: int, values: dict[str, Any]) -> dict[str, Any] | None:
    """The effect of one shot (``values``, as rff's fire mechanic reads the table; ``die`` the
    d10 rolled): return replacement values (a dict) or None to keep them.

    Called once after each musketry or cannonade roll, before the effect is applied. Who: any
    layer on rff (a low-ammunition die of its own, an effect it records).
    """


@hookspec(firstresult=True)
def rff_may_fire(game: Game, piece: Piece, defensive: bool) -> bool | None:
    """May ``piece``, a charger with cold steel that rff holds back this half-phase (it fires
    only if crack, under the crack-cold-steel option), fire after all? True lets it; False or
    None keeps rff's no. (A layer that forbids fire drops the shot in :func:`rff_shots`.)

    Called for such a piece (not broken, with stands) each time rff aims a half-phase's fire,
    before its targets are sought; never for a piece rff lets fire. Who: any layer on rff.
    """


@hookspec(firstresult=True)
def rff_screen(game: Game, regiment: Piece, stands: int) -> int | None:
    """How many stands ``regiment`` (an infantry piece) detaches as skirmishers to screen its
    front, given rff's ``stands`` (a fifth of it within the tables' limits, 0 when too small):
    return a count (0 forbids the screen; rff keeps it below the regiment's stands) or None to
    keep rff's.

    Called under the skirmishers option, when rff asks whether a regiment that wants a screen
    may deploy one this check (every other condition met) and again as it deploys it: answer
    the same both times. Who: any layer on rff (larger or smaller screens, none for raw troops).
    """


@hookspec
def rff_phase_done(game: Game, step: Step) -> None:
    """One side's phase (``step.name``: maneuver, fire or charge; ``step.side``) is over, and
    rff has written its state back where it does (after the charge phase). Apply a layer's
    rules that follow a phase (rolls for new skirmishers, snipers, pieces pushed back).

    Called once at the end of each rff step (a wrapper of ``referee_step`` would cost several
    times as much a step). Who: any layer on rff.
    """


@hookspec
def rff_turn_done(game: Game) -> None:
    """The game turn is over (both sides' phases played), before rff clears its per-turn
    counts. Apply a layer's rules that follow a turn (works thrown up, mist, new leaders).

    Called once a turn from rff's ``referee_end_turn`` (a second implementation of that hook
    would put every turn through pluggy's dispatch). Who: any layer on rff.
    """
