"""Chance: dice, and one mechanic either sampled from a seeded stream or computed exactly.

A *mechanic* is a plain function ``mechanic(roller, *args) -> outcome``. It asks the roller for
dice (``roll``), for the outcome of a sub-mechanic (``sub``), for the tally of N independent
trials of a sub-mechanic (``repeat``), or for what N trials add up to (``fold``: a running
state that each trial's outcome steps on; ``fold_seen`` also hands a roll each trial's outcome,
for the table to see). The same code then runs two ways:

- :class:`SampledRoller` draws every die from a ``random.Random`` owned by the game;
- :func:`exact` walks every path through the mechanic and returns each distinct outcome with
  its probability as a :class:`~fractions.Fraction`. Sub-mechanics are memoised by their
  arguments and entered as a single branch point over their (merged) outcomes; ``repeat`` and
  ``fold`` convolve N trials one at a time, keeping only the distinct partial states (tallies,
  or the fold's running states) with integer weights over a common denominator. So twelve
  impact rolls cost one small convolution rather than 3**12 paths, and a hundred skirmish dice
  kept as (hits, any double) cost a few thousand steps rather than every multiset of pairs.

Arguments of ``sub``, ``repeat`` and ``fold`` (the step and the start included) and the
outcomes of sub-mechanics must be hashable.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from functools import cache
from math import floor, lcm
from typing import Any, Protocol, TypeVar

from attrs import field, frozen

T = TypeVar("T")
S = TypeVar("S", bound=Hashable)
Mechanic = Callable[..., Any]


@frozen
class Die:
    """A die: its name and its faces (equally likely; repeated faces weigh more)."""

    name: str
    faces: tuple[int, ...]
    outcomes: tuple[tuple[int, Fraction], ...] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        counts: dict[int, int] = {}
        for face in self.faces:
            counts[face] = counts.get(face, 0) + 1
        n = len(self.faces)
        object.__setattr__(self, "outcomes", tuple((v, Fraction(c, n)) for v, c in sorted(counts.items())))

    @property
    def size(self) -> int:
        return max(self.faces)

    def __str__(self) -> str:
        return self.name


@cache
def d(sides: int) -> Die:
    """The ordinary die with faces 1..sides (a d10 reads 1-10); one object per size (a pure
    function of an int, kept)."""
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides, not {sides}")
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


D4, D6, D8, D10, D12, D20 = (d(n) for n in (4, 6, 8, 10, 12, 20))
AVERAGE = Die("Ave D", (2, 3, 3, 4, 4, 5))
"""The average die of the British Grenadier family: 2, 3, 3, 4, 4, 5."""

LADDER = (4, 6, 8, 10, 12)
"""Stargrunt's die-type ladder, D4 to D12."""


def ladder_shift(size: int, steps: int) -> tuple[int, int]:
    """Shift a die type along the D4-D12 ladder by ``steps``.

    Returns ``(new size, overflow)``: the size is capped at D4 and D12, and ``overflow`` is the
    part of the shift that the cap swallowed (positive past D12, negative past D4), which an
    *open* shift applies to the opposing die instead and a capped shift discards.
    """
    if size not in LADDER:
        raise ValueError(f"D{size} is not on the die ladder {LADDER}")
    target = LADDER.index(size) + steps
    capped = min(max(target, 0), len(LADDER) - 1)
    return LADDER[capped], target - capped


@frozen
class Tally:
    """How many of N independent trials gave each outcome (outcomes with a count of 0 omitted)."""

    counts: tuple[tuple[Any, int], ...]

    def __getitem__(self, outcome: Any) -> int:
        for key, count in self.counts:
            if key == outcome:
                return count
        return 0

    @classmethod
    def of(cls, counts: dict[Any, int]) -> Tally:
        return cls(tuple(sorted(((k, c) for k, c in counts.items() if c), key=lambda kc: repr(kc[0]))))


class Roller(Protocol):
    """What a mechanic may ask of chance."""

    def roll(self, die: Die) -> int:
        """One die."""

    def sub(self, mechanic: Mechanic, *args: Hashable) -> Any:
        """The outcome of a sub-mechanic (memoised by its arguments in exact mode)."""

    def repeat(self, n: int, mechanic: Mechanic, *args: Hashable) -> Tally:
        """The tally of ``n`` independent trials of a sub-mechanic."""

    def fold(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> S:
        """``n`` independent trials of a sub-mechanic, in turn, each outcome stepping a running
        state on from ``start`` (``state = step(state, outcome)``): what the trials add up to,
        when the tally itself is more than a mechanic needs. ``step`` is a pure function."""

    def fold_seen(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> tuple[S, tuple[Any, ...]]:
        """As ``fold``, and what the table sees: rolled, each trial's outcome in turn; computed
        exactly, nothing (``()``: the exact engine counts running states, not the paths to
        them). A roll may add what it saw to its own record (its dice, its wording, values only
        a roll gives); what the odds are keyed on must come from the state."""


class SampledRoller:
    """Draws from a seeded ``random.Random``; there is no global random anywhere."""

    __slots__ = ("_random",)

    def __init__(self, rng: random.Random | int) -> None:
        self._random = rng.random if isinstance(rng, random.Random) else random.Random(rng).random

    def roll(self, die: Die) -> int:
        faces = die.faces
        return faces[floor(self._random() * len(faces))]  # (floor, not int: the same for these, and cheaper)

    def sub(self, mechanic: Mechanic, *args: Hashable) -> Any:
        return mechanic(self, *args)

    def repeat(self, n: int, mechanic: Mechanic, *args: Hashable) -> Tally:
        counts: dict[Any, int] = {}
        for _ in range(n):
            outcome = mechanic(self, *args)
            counts[outcome] = counts.get(outcome, 0) + 1
        return Tally.of(counts)

    def fold(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> S:
        state = start
        for _ in range(n):
            state = step(state, mechanic(self, *args))
        return state

    def fold_seen(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> tuple[S, tuple[Any, ...]]:
        state, seen = start, []
        for _ in range(n):
            outcome = mechanic(self, *args)
            state = step(state, outcome)
            seen.append(outcome)
        return state, tuple(seen)


Branches = tuple[tuple[Any, Fraction], ...]
_ONE = Fraction(1)


class _Path:
    """One path through a mechanic: replays the choices of ``prefix``, then takes first options."""

    __slots__ = ("_engine", "p", "prefix", "widths")

    def __init__(self, engine: _Exact, prefix: list[int]) -> None:
        self.widths: list[int] = []
        self._engine, self.prefix, self.p = engine, prefix, _ONE

    def _choose(self, options: Branches) -> Any:
        i = len(self.widths)
        if i == len(self.prefix):
            self.prefix.append(0)
        value, p = options[self.prefix[i]]
        self.widths.append(len(options))
        self.p = p if self.p is _ONE else self.p * p  # (a path's first choice costs no product)
        return value

    def roll(self, die: Die) -> int:
        face: int = self._choose(die.outcomes)  # a die's outcomes are its faces
        return face

    def sub(self, mechanic: Mechanic, *args: Hashable) -> Any:
        return self._choose(self._engine.distribution(mechanic, args))

    def repeat(self, n: int, mechanic: Mechanic, *args: Hashable) -> Tally:
        tally: Tally = self._choose(self._engine.tallies(n, mechanic, args))  # the outcomes of tallies() are tallies
        return tally

    def fold(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> S:
        return self._choose(self._engine.folded(step, start, n, mechanic, args))  # type: ignore[no-any-return]  # the exact engine's folded() gives back the step's own state type

    def fold_seen(self, step: Callable[[S, Any], S], start: S, n: int, mechanic: Mechanic, *args: Hashable) -> tuple[S, tuple[Any, ...]]:
        return self.fold(step, start, n, mechanic, *args), ()  # computed exactly, no single trial is seen


class _Exact:
    """Enumerates paths with memoised sub-mechanics."""

    def __init__(self) -> None:
        self._memo: dict[tuple[Any, ...], Branches] = {}

    def paths(self, mechanic: Mechanic, args: tuple[Any, ...]) -> Iterator[tuple[Any, Fraction]]:
        prefix: list[int] = []
        while True:
            path = _Path(self, prefix)
            yield mechanic(path, *args), path.p
            widths, prefix = path.widths, path.prefix[: len(path.widths)]
            j = len(widths) - 1
            while j >= 0 and prefix[j] + 1 >= widths[j]:
                j -= 1
            if j < 0:
                return
            prefix = prefix[:j] + [prefix[j] + 1]

    def distribution(self, mechanic: Mechanic, args: tuple[Any, ...]) -> Branches:
        key = (mechanic, args)
        if key not in self._memo:
            self._memo[key] = tuple(merge(self.paths(mechanic, args)).items())
        return self._memo[key]

    def tallies(self, n: int, mechanic: Mechanic, args: tuple[Any, ...]) -> Branches:
        """The tallies of ``n`` trials: a partial tally is a count for each of the trial's
        outcomes, grown one trial at a time (states in the order first met)."""
        key = ("repeat", n, mechanic, args)
        if key not in self._memo:
            single = self.distribution(mechanic, args)
            grown = _convolve(tuple((i, p) for i, (_, p) in enumerate(single)), n, (0,) * len(single), _count)
            order = sorted(range(len(single)), key=lambda i: repr(single[i][0]))  # as Tally.of
            self._memo[key] = tuple((Tally(tuple((single[i][0], counts[i]) for i in order if counts[i])), p) for counts, p in grown)
        return self._memo[key]

    def folded(self, step: Callable[[Any, Any], Any], start: Any, n: int, mechanic: Mechanic, args: tuple[Any, ...]) -> Branches:
        """The running states of ``n`` trials folded by ``step`` (states in the order first met)."""
        key = ("fold", step, start, n, mechanic, args)
        if key not in self._memo:
            self._memo[key] = _convolve(self.distribution(mechanic, args), n, start, step)
        return self._memo[key]


def _count(counts: tuple[int, ...], i: int) -> tuple[int, ...]:
    """A partial tally (a count for each outcome) with one more of the i-th outcome."""
    return counts[:i] + (counts[i] + 1,) + counts[i + 1:]


def _convolve(single: Branches, n: int, start: Any, step: Callable[[Any, Any], Any]) -> Branches:
    """The distribution of the state after ``n`` trials of ``single``, each outcome stepping the
    state on (``step(state, outcome)``): each trial's weights are integers over the common
    denominator, and the probabilities are made Fractions once, at the end."""
    denominator = lcm(*(p.denominator for _, p in single))
    weights = [(outcome, p.numerator * (denominator // p.denominator)) for outcome, p in single]
    states: dict[Any, int] = {start: 1}
    for _ in range(n):
        grown: dict[Any, int] = {}
        for state, w in states.items():
            for outcome, v in weights:
                nxt = step(state, outcome)
                grown[nxt] = grown.get(nxt, 0) + w * v
        states = grown
    total = denominator**n
    return tuple((state, Fraction(w, total)) for state, w in states.items())


def merge(pairs: Iterator[tuple[T, Fraction]] | list[tuple[T, Fraction]]) -> dict[T, Fraction]:
    """Add up the probabilities of equal outcomes, keeping first-seen order."""
    total: dict[T, Fraction] = {}
    for outcome, p in pairs:
        total[outcome] = total[outcome] + p if outcome in total else p
    return total


def exact(
    mechanic: Mechanic, *args: Any, key: Callable[[Any], Hashable] = lambda o: o
) -> list[tuple[Any, Fraction]]:
    """Every distinct outcome of ``mechanic(roller, *args)`` with its exact probability.

    Outcomes that ``key`` maps to the same value are merged; the first one met stands for them.
    The top-level arguments need not be hashable.
    """
    first: dict[Hashable, Any] = {}
    total: dict[Hashable, Fraction] = {}
    for outcome, p in _Exact().paths(mechanic, args):
        k = key(outcome)
        if k not in first:
            first[k], total[k] = outcome, p
        else:
            total[k] += p
    return [(first[k], total[k]) for k in first]


def dice_sum(roller: Roller, die: Die, n: int) -> int:
    """The sum of ``n`` dice (2d6 and the like), memoised as a sub-mechanic."""
    total: int = roller.sub(_sum_of, die, n)  # _sum_of's int
    return total


def _sum_of(roller: Roller, die: Die, n: int) -> int:
    # one die plus the memoised sum of the rest: linear in n, not die.size ** n
    return roller.roll(die) + (roller.sub(_sum_of, die, n - 1) if n > 1 else 0)
