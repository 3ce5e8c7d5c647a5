"""core/studies/stats.py: the Wilson interval against published values, percentiles worked by hand,
and properties that must hold for any run of replications."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from referee.core.studies.stats import Z95, percentile, percentile_rank, summary, wilson
from strategies import loss_samples, percents, share_counts

# ----------------------------------------------------------------------------- wilson

# Wilson score 95% intervals as tabulated (e.g. Newcombe 1998, Table I; any binomial CI calculator).
KNOWN = [
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (1, 10, 0.0179, 0.4042),
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), KNOWN)
def test_wilson_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_none_or_all_by_hand() -> None:
    # 0 of n: the centre equals the half-width, so the interval is [0, z^2 / (n + z^2)].
    z2 = Z95 * Z95
    assert wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)), abs=1e-12)
    # n of n mirrors it.
    assert wilson(10, 10) == pytest.approx((10 / (10 + z2), 1.0), abs=1e-12)
    # 5 of 10: symmetric about 1/2, half-width z * sqrt(1/40 + z^2/400) / (1 + z^2/10).
    half = Z95 * math.sqrt(0.25 / 10 + z2 / 400) / (1 + z2 / 10)
    assert wilson(5, 10) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-12)


def test_wilson_no_data_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_narrows_with_more_data() -> None:
    widths = [hi - lo for lo, hi in (wilson(n // 2, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]


@given(share_counts())
def test_wilson_contains_the_share_and_stays_in_0_1(counts: tuple[int, int]) -> None:
    k, n = counts
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@given(st.integers(min_value=1, max_value=2000))
def test_wilson_is_exact_at_none_and_all(n: int) -> None:
    # computed as centre -/+ half in floating point, the ends once missed by an ulp (0 of 3, 10 of 10)
    assert wilson(0, n)[0] == 0.0
    assert wilson(n, n)[1] == 1.0


@given(share_counts())
def test_wilson_is_symmetric_in_success_and_failure(counts: tuple[int, int]) -> None:
    k, n = counts
    lo, hi = wilson(k, n)
    lo2, hi2 = wilson(n - k, n)
    assert lo == pytest.approx(1 - hi2, abs=1e-12)
    assert hi == pytest.approx(1 - lo2, abs=1e-12)


# ----------------------------------------------------------------------------- percentiles


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        (0, 1.0),  # the smallest
        (10, 1.3),  # position 0.3: 1 + 0.3 * (2 - 1)
        (50, 2.5),  # position 1.5: halfway between 2 and 3
        (90, 3.7),  # position 2.7: 3 + 0.7 * (4 - 3)
        (100, 4.0),  # the largest
    ],
)
def test_percentile_by_hand(q: float, expected: float) -> None:
    assert percentile([4, 1, 3, 2], q) == pytest.approx(expected)  # order of the input does not matter


def test_percentile_by_hand_uneven_gaps() -> None:
    # [0, 10, 100]: position (3 - 1) * 75 / 100 = 1.5, halfway between 10 and 100.
    assert percentile([100, 0, 10], 75) == pytest.approx(55.0)
    assert percentile([100, 0, 10], 25) == pytest.approx(5.0)


def test_percentile_of_one_value_and_of_none() -> None:
    assert percentile([7], 0) == percentile([7], 33) == percentile([7], 100) == 7
    assert math.isnan(percentile([], 50))


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0, 0.0),  # below everything
        (1, 12.5),  # ties count half: (0 + 1/2) / 4
        (2.5, 50.0),  # two below, none equal
        (3, 62.5),  # (2 + 1/2) / 4
        (4, 87.5),
        (5, 100.0),  # above everything
    ],
)
def test_percentile_rank_by_hand(x: float, expected: float) -> None:
    assert percentile_rank([3, 1, 4, 2], x) == pytest.approx(expected)


def test_percentile_rank_all_tied_is_the_middle() -> None:
    assert percentile_rank([5, 5, 5, 5], 5) == 50.0
    assert percentile_rank([1, 5, 5, 9], 5) == 50.0  # one below, two equal: (1 + 1) / 4


def test_percentile_rank_of_no_values_is_nan() -> None:
    assert math.isnan(percentile_rank([], 3))


def test_summary_by_hand() -> None:
    assert summary([1, 2, 3, 4]) == {"mean": 2.5, "p10": 1.3, "p50": 2.5, "p90": 3.7}
    empty = summary([])
    assert set(empty) == {"mean", "p10", "p50", "p90"} and all(math.isnan(v) for v in empty.values())


@given(loss_samples, percents, percents)
def test_percentile_is_monotone_in_q(values: list[int], q1: float, q2: float) -> None:
    lo, hi = sorted((q1, q2))
    assert percentile(values, lo) <= percentile(values, hi)


@given(loss_samples, percents)
def test_percentile_lies_between_the_extremes(values: list[int], q: float) -> None:
    assert min(values) <= percentile(values, q) <= max(values)
    assert percentile(values, 0) == min(values) and percentile(values, 100) == max(values)


@given(loss_samples, st.integers(min_value=-10, max_value=1_000_010), st.integers(min_value=0, max_value=1000))
def test_percentile_rank_is_monotone_and_bounded(values: list[int], x: int, step: int) -> None:
    r1, r2 = percentile_rank(values, x), percentile_rank(values, x + step)
    assert 0.0 <= r1 <= r2 <= 100.0


@given(loss_samples)
def test_summary_percentiles_are_ordered(values: list[int]) -> None:
    s = summary(values)
    assert s["p10"] <= s["p50"] <= s["p90"]
    assert min(values) <= s["mean"] <= max(values)
