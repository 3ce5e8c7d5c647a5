"""The chance engine: dice, the die ladder, and one mechanic sampled or computed exactly."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.chance import (
    AVERAGE,
    D6,
    D10,
    LADDER,
    SampledRoller,
    Tally,
    d,
    dice_sum,
    exact,
    ladder_shift,
)
from strategies import ladder_steps, seeds


def two_d6(roller):  # type: ignore[no-untyped-def]
    return dice_sum(roller, D6, 2)


def test_2d6_is_the_triangle() -> None:
    odds = dict(exact(two_d6))
    assert odds == {total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)}


def test_average_die_faces() -> None:
    assert dict(AVERAGE.outcomes) == {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 6)}
    assert dict(exact(lambda r: r.roll(AVERAGE))) == dict(AVERAGE.outcomes)


@pytest.mark.parametrize(("size", "steps", "expected"), [
    (8, 1, (10, 0)), (12, 1, (12, 1)), (12, 3, (12, 3)), (4, -1, (4, -1)), (6, -3, (4, -2)), (10, -2, (6, 0)),
])
def test_ladder_shifts_cap_and_report_the_overflow(size: int, steps: int, expected: tuple[int, int]) -> None:
    assert ladder_shift(size, steps) == expected


def hit(roller, impact: int, armour: int) -> str:  # type: ignore[no-untyped-def]
    i, a = roller.roll(d(impact)), roller.roll(d(armour))
    return "killed" if i > 2 * a else "wounded" if i > a else "stopped"


def volley(roller, n: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    tally = roller.repeat(n, hit, 6, 4)
    return tally["wounded"], tally["killed"]


def test_repeat_matches_the_plain_enumeration() -> None:
    def by_hand(roller):  # type: ignore[no-untyped-def]
        results = [hit(roller, 6, 4) for _ in range(3)]
        return results.count("wounded"), results.count("killed")

    assert dict(exact(volley, 3)) == dict(exact(by_hand))


def test_sub_mechanics_are_memoised_and_branch_once() -> None:
    calls = Counter()

    def inner(roller, sides: int) -> int:  # type: ignore[no-untyped-def]
        calls[sides] += 1
        return roller.roll(d(sides)) % 2

    def outer(roller) -> int:  # type: ignore[no-untyped-def]
        return roller.roll(D10) + roller.sub(inner, 6)

    odds = dict(exact(outer))
    assert sum(odds.values()) == 1
    assert calls[6] == 6  # the six paths of the sub-mechanic, walked once, not once per d10 face


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 8), seed=seeds)
def test_a_sampled_volley_is_always_a_possible_outcome(n: int, seed: int) -> None:
    possible = dict(exact(volley, n))
    assert sum(possible.values()) == 1
    assert volley(SampledRoller(seed), n) in possible


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from(LADDER), steps=ladder_steps)
def test_ladder_shift_is_conserved(size: int, steps: int) -> None:
    new, overflow = ladder_shift(size, steps)
    assert new in LADDER
    assert LADDER.index(new) + overflow == LADDER.index(size) + steps


def test_sampling_follows_the_seed_and_the_odds() -> None:
    a, b = SampledRoller(7), SampledRoller(7)
    assert [a.roll(D10) for _ in range(20)] == [b.roll(D10) for _ in range(20)]
    roller = SampledRoller(11)
    counts = Counter(roller.roll(D6) for _ in range(6000))
    assert set(counts) == set(range(1, 7)) and all(800 < c < 1200 for c in counts.values())


def test_tally_reads_missing_outcomes_as_zero() -> None:
    tally = Tally.of({"wounded": 2, "killed": 0})
    assert tally["wounded"] == 2 and tally["killed"] == 0 and tally["stopped"] == 0
