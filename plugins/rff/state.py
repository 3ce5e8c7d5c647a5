"""The rff table: pieces (regiments, gun sections, skirmisher detachments) in stands.

A :class:`Piece` stands for all or part of one neutral unit. A regiment of 780 men at 40 men a
stand musters 20 stands (ruling RFF-P1: round to the nearest stand, at least one); its men are
read back as the unit's men times the share of its stands still standing, so men are
conserved and losses come in whole stands, as the rules count them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from attrs import define, field
from referee.api import STRICT, Intent, UnitState

from .hooks import RffHooks
from .tables import RffTables

if TYPE_CHECKING:
    from .geometry import Around

# rff formations; the neutral formation each reads as
TO_NEUTRAL = {
    "line": "line", "field-column": "column", "march-column": "march-column", "extended-line": "skirmish",
    "limbered": "limbered", "unlimbered": "unlimbered",
}
FROM_NEUTRAL = {v: k for k, v in TO_NEUTRAL.items()}
SCANNED = 32  # pieces of a side that searches scan whole; a larger side's are looked up (RffState.under, geometry.enemies_near)


class Footprint:
    """A piece's (frontage, depth) in yards and its depth alone, for the stands and formation it
    had when worked out (geometry.footprint: kept on the piece, read at every search)."""

    __slots__ = ("depth", "formation", "shape", "stands")

    def __init__(self, stands: int, formation: str, shape: tuple[float, float]) -> None:
        self.stands, self.formation, self.shape, self.depth = stands, formation, shape, shape[1]


@define(eq=False, slots=True)
class Piece:
    id: str
    unit: UnitState
    troops: bool  # False: guns
    grade: str  # crack, veteran, trained, green
    weapon: str  # rff weapon class (RM, SM, ...) or gun class (HS, LR, ...)
    start_stands: int
    stands: int
    men_per_stand: float
    formation: str
    x: float
    y: float
    facing: float
    status: str = "good"  # good, disordered, broken, gone
    silenced: int = 0  # silenced gun stands (RFF-P29: the weakest first)
    damaged: int = 0  # damaged gun stands, fire at half (RFF-P29: the weakest first)
    half: int = 0  # gun stands of one gun, a half section (RFF-P27): 0 or 1
    horse: bool = False  # horse artillery: moves at the horse gun rate
    low_ammo: bool = False
    may_fire: bool = True
    flags: tuple[str, ...] = ()  # weapon flags: buck-and-ball, repeater, sharpshooters
    parent: str | None = None  # skirmishers: the regiment they screen
    skirmishers: str | None = None  # a regiment: its detached skirmishers
    # this player turn
    effect: str = ""  # the maneuver effect rolled
    moved: str = ""  # "", "half", "full", "double", "flank" (a line marched by the flank, RFF-P36), "retreat", "prolong", "hand-haul"
    charge_target: str | None = None
    cold_steel: bool = False
    countercharged: bool = False
    breakthrough: bool = False
    combats: int = 0
    stands_lost_turn: int = 0
    spot: tuple[float, float, dict[Any, Any]] | None = None  # ground facts where it stands (geometry._at_piece)
    footprint: Footprint | None = None  # its shape while its stands and formation last (geometry.footprint)
    side: str = field(init=False, default="")  # copied from the unit (and troops): read on every hot path
    arm: str = field(init=False, default="")
    unit_id: str = field(init=False, default="")
    guns: bool = field(init=False, default=False)
    command: str = field(init=False, default="")  # the unit's command (brigade)

    def __attrs_post_init__(self) -> None:
        self.side, self.arm, self.unit_id, self.command = self.unit.side, self.unit.spec.arm, self.unit.id, self.unit.spec.command
        self.guns = not self.troops

    @property
    def alive(self) -> bool:
        return self.status != "gone" and self.stands > 0 and self.unit.on_field

    @property
    def limbered(self) -> bool:
        return self.formation == "limbered"


@define(eq=False)
class LeaderState:
    id: str
    side: str
    command: str
    rating: str  # gallant, able, poor
    traits: tuple[str, ...]
    x: float
    y: float
    attached: str | None  # piece id
    commands: frozenset[str]  # his command and every command under it
    status: str = "active"  # active, out, dismounted, removed
    out_turns: int = 0
    provisional: bool = False  # a replacement after the leader fell
    piece: Piece | None = None  # the piece he is attached to (while ``attached`` names it)

    @property
    def place(self) -> tuple[float, float]:
        """Where he is: with the piece he is attached to, which he moves with; else where he rode."""
        p = self.piece
        if p is not None and self.attached == p.id:
            return p.x, p.y
        return self.x, self.y

    @property
    def waiting(self) -> bool:
        """Attached to a reinforcement that has not entered yet: he enters with it."""
        p = self.piece
        return p is not None and self.attached == p.id and not p.unit.on_field and p.status != "gone"

    def post(self) -> tuple[float, float] | None:
        """Where he commands from (his place), or None while he is :attr:`waiting`: one call
        for both (asked for every leader over a piece at every maneuver check)."""
        p = self.piece
        if p is not None and self.attached == p.id:
            return None if not p.unit.on_field and p.status != "gone" else (p.x, p.y)
        return self.x, self.y

    def detach(self) -> None:
        """Leave the piece where it stands."""
        self.x, self.y = self.place
        self.attached = None


class Rows:
    """Pieces sorted south to north by the places they held when sorted (``ys``, their
    northings), for searches that want only those within a band of northing: kept by the state
    until one of them moves or pieces come or go (:meth:`RffState.enemy_rows`). rff's index of
    places: a search looks at the pieces in its band, not at every piece."""

    __slots__ = ("pieces", "rank", "ys")

    def __init__(self, pieces: list[Piece]) -> None:
        self.rank = {p: i for i, p in enumerate(pieces)}  # the order listed
        self.pieces = sorted(pieces, key=_NORTHING)
        self.ys = [p.y for p in self.pieces]

    def band(self, south: float, north: float) -> list[Piece]:
        """The pieces whose northing is from ``south`` to ``north``, in the order listed."""
        found = self.pieces[bisect_left(self.ys, south):bisect_right(self.ys, north)]
        found.sort(key=self.rank.__getitem__)
        return found


_NORTHING = attrgetter("y")


@define(eq=False)
class RffState:
    """One game of rff: its pieces and leaders, what a phase hands the next, and the caches
    built from them. Each cache is a field of this object, which owns its inputs, and is
    forgotten in one place:

    - ``_living``, ``_hostile``, ``_commanded`` with ``_rank`` (:meth:`of_side`, :meth:`enemies_of`,
      :meth:`under`) and ``_rows`` (:meth:`enemy_rows`): by :meth:`changed` when a piece enters or
      leaves play (a reinforcement's entry found by :meth:`enter` at a turn's start; ``_rank`` is
      rebuilt with ``_commanded``); ``_rows`` also by :meth:`moved` when a piece changes place.
      Kept across turns: the strict build checks ``_living`` against every piece at each use.
    - ``_chains`` (:meth:`leaders_over`): built afresh when a leader joins (leaders never leave).
    - ``_attachable`` (:meth:`attachable`): never (it reads what muster attached).
    - ``around`` (:func:`.geometry.around`): each :class:`~.geometry.Around` keeps the places it
      read and is replaced when they change, its successor taking over the answers no change
      reaches.
    - ``ground_memo`` (:func:`.geometry.kept`): answers of the ground alone, shared by every game
      on the same ground (a pure function of immutable input; capped at ``MEMO_LIMIT``).

    A piece keeps its own (``Piece.spot``, ``Piece.footprint``: see :class:`Piece`). Module
    caches (``@cache`` on tables, ``muster.deepest_of``) are pure functions of immutable inputs.
    """

    tables: RffTables
    hooks: RffHooks  # rff's extension hooks, typed (hooks.py), built at muster
    pieces: dict[str, Piece] = field(factory=dict)
    leaders: dict[str, LeaderState] = field(factory=dict)
    phasing: str = ""
    start_stands_by_command: dict[str, int] = field(factory=dict)
    units_by_command: dict[str, int] = field(factory=dict)  # units under each command at the start
    horses: dict[str, tuple[float, float]] = field(factory=dict)  # tethered horse markers by piece (optional rule)
    lost_by_command: dict[str, int] = field(factory=dict)  # stands lost as casualties
    key_positions: dict[str, tuple[str, ...]] = field(factory=dict)  # the key objectives each side held at the start
    deepest: float = 0.0  # yards: the deepest any piece can be (geometry.deepest)
    ground_memo: dict[tuple[Any, ...], Any] = field(factory=dict)  # shared by every game on the ground (geometry.kept)
    to_maneuver: dict[str, Intent] = field(factory=dict)  # piece id -> the intent it carries out in the maneuver phase under way, until it is reached
    targets: dict[str, str | None] = field(factory=dict)  # piece id -> the target its intent named at its side's last maneuver phase (the fire phase aims there first)
    around: dict[str, Around] = field(factory=dict)  # geometry.around, by the aiming side: each checks its own freshness (Around.places)
    entering: list[Piece] = field(factory=list)  # the pieces mustered off the field, until each enters (enter)
    checking: Piece | None = None  # maneuver.check: the piece whose check gathers modifiers, and
    checking_leader: LeaderState | None = None  # its commander, kept meanwhile (rff's and a layer's ask the same question; nothing moves)

    _living: dict[str, list[Piece]] | None = None
    _hostile: dict[str, list[Piece]] | None = None
    _commanded: dict[tuple[str, str], list[Piece]] | None = None  # under: (side, command) -> its pieces in play
    _rank: dict[Piece, int] = field(factory=dict)  # under: each piece in play by its place in of_side
    _rows: dict[str, Rows] = field(factory=dict)  # enemy_rows, by the searching side
    _chains: dict[tuple[str, str | None], list[LeaderState]] = field(factory=dict)  # leaders_over, for this many leaders:
    _chains_of: int = 0
    _attachable: dict[str, list[LeaderState]] | None = None

    def yet_to_maneuver(self) -> Mapping[str, Intent]:
        """The pieces not yet reached in the maneuver phase under way, by id, each with the
        intent it is to carry out (empty outside that phase; read-only)."""
        return self.to_maneuver

    def of_side(self, side: str) -> list[Piece]:
        """The side's pieces still in play (a shared list: do not change it)."""
        living = self._living
        if living is None:
            living = self._living = self._in_play()
        elif STRICT:  # the suite's build: checked against every piece as it stands now
            assert living == self._in_play(), "a piece entered or left play unnoticed (RffState.changed, enter)"
        return living.get(side, [])

    def _in_play(self) -> dict[str, list[Piece]]:
        """The pieces in play by side, in the order of ``pieces``."""
        found: dict[str, list[Piece]] = {}
        for p in self.pieces.values():
            if p.alive:
                found.setdefault(p.side, []).append(p)
        return found

    def enemies_of(self, side: str) -> list[Piece]:
        """The pieces in play of every other side (a shared list: do not change it)."""
        hostile = self._hostile
        if hostile is None:
            hostile = self._hostile = {}
        found = hostile.get(side)
        if found is None:
            found = hostile[side] = [p for s, ps in self._alive_by_side().items() if s != side for p in ps]
        return found

    def under(self, side: str, commands: frozenset[str]) -> list[Piece]:
        """The side's pieces in play whose command is one of ``commands``, in the order of
        :meth:`of_side` (a shared list when one command has them all: do not change it). A side
        of no more than :data:`SCANNED` pieces is scanned; a larger one's are kept by command."""
        if len(mine := self.of_side(side)) <= SCANNED:
            return [p for p in mine if p.command in commands]
        commanded = self._commanded
        if commanded is None:
            commanded, self._rank = {}, {}
            for s, pieces in self._alive_by_side().items():
                for i, p in enumerate(pieces):
                    commanded.setdefault((s, p.command), []).append(p)
                    self._rank[p] = i
            self._commanded = commanded
        groups = [g for c in commands if (g := commanded.get((side, c)))]
        if len(groups) == 1:
            return groups[0]
        return sorted([p for g in groups for p in g], key=self._rank.__getitem__)

    def enemy_rows(self, side: str) -> Rows:
        """The side's :meth:`enemies_of` as :class:`Rows`, kept until one of them moves
        (:meth:`moved`) or pieces come or go (:meth:`changed`)."""
        rows = self._rows.get(side)
        if rows is None:
            rows = self._rows[side] = Rows(self.enemies_of(side))
        elif STRICT:  # the suite's build: checked against every enemy where it stands now
            fresh = Rows(self.enemies_of(side))
            assert (rows.pieces, rows.ys) == (fresh.pieces, fresh.ys), f"{side}'s enemy rows missed a move"
        return rows

    def _alive_by_side(self) -> dict[str, list[Piece]]:
        self.of_side("")
        assert self._living is not None
        return self._living

    def leaders_over(self, side: str, command: str | None) -> list[LeaderState]:
        """The side's leaders whose command includes ``command`` (every one of the side's for
        None), in the order listed (a shared list, kept until a leader joins: leaders are added,
        never taken away)."""
        if self._chains_of != len(self.leaders):
            self._chains = {}
            for ld in self.leaders.values():  # each leader under his side and every command he has
                for command_ in (None, *ld.commands):
                    self._chains.setdefault((ld.side, command_), []).append(ld)
            self._chains_of = len(self.leaders)
        return self._chains.get((side, command), [])

    def attachable(self, piece_id: str) -> list[LeaderState]:
        """The leaders mustered attached to the piece: the only ones that can be attached to it
        (a leader who leaves his piece never joins another)."""
        if self._attachable is None:
            self._attachable = {}
            for ld in self.leaders.values():
                if ld.piece is not None:
                    self._attachable.setdefault(ld.piece.id, []).append(ld)
        return self._attachable.get(piece_id, [])

    def enter(self) -> None:
        """A turn begins: forget the cached lists if a piece waiting off the field (``entering``)
        has entered (the game brings reinforcements on between turns, and nothing else on)."""
        if any(p.unit.on_field for p in self.entering):
            self.entering = [p for p in self.entering if not p.unit.on_field]
            self.changed()

    def changed(self) -> None:
        """A piece entered or left play: forget the cached lists."""
        self._living = self._hostile = self._commanded = None
        self._rows = {}

    def moved(self, piece: Piece) -> None:
        """The piece changed place: forget every side's enemy rows but its own side's (which
        do not list it)."""
        if self._rows:
            own = self._rows.get(piece.side)
            self._rows = {} if own is None else {piece.side: own}
