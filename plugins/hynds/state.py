"""Hynds' own per-game state: what its rules remember between phases and turns, one typed field
a thing (rff's state, ``game.state``, is rff's; a layer keeps its own beside it).

:func:`of` is the one place it is made: on first ask in a game, kept in ``game.memory`` under
:data:`KEY`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define, field

if TYPE_CHECKING:
    from referee.api import Game, Modifier

    from .works import Held

KEY = "hynds"  # game.memory: this game's HyndsState


@define(eq=False)
class HyndsState:
    """What Hynds' rules remember in one game (piece and leader ids as keys)."""

    # concealment and surprise (conceal.py)
    hiding: bool = False  # some unit may be hidden (scenario, mist or night); else concealment's rules do nothing
    mist: bool = False  # the mist has not cleared yet
    surprising: set[str] = field(factory=set)  # chargers that charged from concealment this turn
    spent: set[str] = field(factory=set)  # pieces whose fire this player turn was their surprise fire
    unready: set[str] = field(factory=set)  # pieces the scenario marks surprised, not yet charged (HYNDS-H4)
    woken: set[str] = field(factory=set)  # unready pieces charged this charge phase (ready from its end)
    # fire (fire.py)
    fired: set[tuple[str, str]] = field(factory=set)  # (firer, target) pairs whose musketry has reached beyond close range
    flank: dict[str, dict[str, int]] = field(factory=dict)  # target -> {"left": stands, "right": stands} this fire phase
    # leaders (leaders.py)
    ratings: dict[str, str] = field(factory=dict)  # leader -> "exceptional", "weak" or "" (rolled, ordinary)
    bonus: dict[str, tuple[Modifier, ...]] = field(factory=dict)  # leader -> his modifiers, the exceptional and weak only
    # movement (move.py)
    moved: dict[str, float] = field(factory=dict)  # piece -> yards moved this turn
    cleared: dict[str, int] = field(factory=dict)  # gun piece -> the turn it spent clearing a wall or works
    ahead: set[str] = field(factory=set)  # pieces whose move was priced across an obstacle (only their next move may cross one)
    # skirmishers and batteries (skirmish.py)
    over: dict[str, tuple[tuple[Any, ...], dict[Any, Any]]] = field(factory=dict)  # side -> (its troops where they stand, the answers of skirmish._barred kept for them)
    snipers: dict[str, bool] = field(factory=dict)  # skirmisher piece -> has a sniper (rolled once)
    # works and buildings (works.py)
    held: dict[str, Held] = field(factory=dict)  # piece -> where it stands still, how long
    works: set[str] = field(factory=set)  # pieces behind breastworks they threw up
    burning: dict[str, tuple[float, float, int]] = field(factory=dict)  # piece -> (x, y, turn its building was set on fire)

    @property
    def surprise(self) -> bool:
        """Is some charger surprising, or some piece still unready (a surprised unit fires at its charger at half)?"""
        return bool(self.surprising) or bool(self.unready)


def of(game: Game) -> HyndsState:
    """The game's Hynds state (made on the first ask: the one place it is made)."""
    try:
        found: HyndsState = game.memory[KEY]  # (asked a few times a shot: no call to get)
    except KeyError:
        found = game.memory[KEY] = HyndsState()
    return found
