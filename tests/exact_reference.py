"""The exact engine as it was before convolution (commit 819e978), kept as the tests' oracle.

Every path is walked; ``repeat`` grows every multiset of outcomes one trial at a time (tuples
re-sorted, Fraction weights), and ``fold`` is the plain enumeration: each of its trials is a
branch point of its own and the step is applied along the path. Slow (exponential in ``fold``'s
trials), so the tests give it small inputs only; a path budget stops it on larger ones.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from typing import Any

from referee.core.engine.chance import Die, Mechanic, Tally, merge

Branches = tuple[tuple[Any, Fraction], ...]


class TooMany(Exception):
    """The reference would walk more paths than its budget."""


class _Path:
    __slots__ = ("_engine", "p", "prefix", "widths")

    def __init__(self, engine: _Exact, prefix: list[int]) -> None:
        self.widths: list[int] = []
        self._engine, self.prefix, self.p = engine, prefix, Fraction(1)

    def _choose(self, options: Branches) -> Any:
        i = len(self.widths)
        if i == len(self.prefix):
            self.prefix.append(0)
        value, p = options[self.prefix[i]]
        self.widths.append(len(options))
        self.p *= p
        return value

    def roll(self, die: Die) -> int:
        return self._choose(die.outcomes)

    def sub(self, mechanic: Mechanic, *args: Hashable) -> Any:
        return self._choose(self._engine.distribution(mechanic, args))

    def repeat(self, n: int, mechanic: Mechanic, *args: Hashable) -> Tally:
        return self._choose(self._engine.tallies(n, mechanic, args))

    def fold(self, step: Callable[[Any, Any], Any], start: Any, n: int, mechanic: Mechanic, *args: Hashable) -> Any:
        state = start
        for _ in range(n):
            state = step(state, self._choose(self._engine.distribution(mechanic, args)))
        return state

    def fold_seen(self, step: Callable[[Any, Any], Any], start: Any, n: int, mechanic: Mechanic, *args: Hashable) -> tuple[Any, tuple[Any, ...]]:
        return self.fold(step, start, n, mechanic, *args), ()  # as the exact engine: no trial is seen


class _Exact:
    def __init__(self, budget: int) -> None:
        self._memo: dict[tuple[Any, ...], Branches] = {}
        self.budget = budget

    def paths(self, mechanic: Mechanic, args: tuple[Any, ...]) -> Iterator[tuple[Any, Fraction]]:
        prefix: list[int] = []
        while True:
            self.budget -= 1
            if self.budget < 0:
                raise TooMany()
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
        key = ("repeat", n, mechanic, args)
        if key not in self._memo:
            single = self.distribution(mechanic, args)
            counts: dict[tuple[Any, ...], Fraction] = {(): Fraction(1)}
            for _ in range(n):
                grown: dict[tuple[Any, ...], Fraction] = {}
                for state, p in counts.items():
                    for outcome, q in single:
                        nxt = tuple(sorted(state + (outcome,), key=repr))
                        grown[nxt] = grown.get(nxt, Fraction(0)) + p * q
                counts = grown
            self._memo[key] = tuple((_tally(state), p) for state, p in counts.items())
        return self._memo[key]


def _tally(outcomes: tuple[Any, ...]) -> Tally:
    counts: dict[Any, int] = {}
    for o in outcomes:
        counts[o] = counts.get(o, 0) + 1
    return Tally.of(counts)


def exact(mechanic: Mechanic, *args: Any, key: Callable[[Any], Hashable] = lambda o: o,
          budget: int = 100_000) -> list[tuple[Any, Fraction]]:
    """As :func:`referee.core.engine.chance.exact`, by the old enumeration; :class:`TooMany` past ``budget`` paths."""
    first: dict[Hashable, Any] = {}
    total: dict[Hashable, Fraction] = {}
    for outcome, p in _Exact(budget).paths(mechanic, args):
        k = key(outcome)
        if k not in first:
            first[k], total[k] = outcome, Fraction(0)
        total[k] += p
    return [(first[k], total[k]) for k in first]
