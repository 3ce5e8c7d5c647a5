"""Comparison statistics: shares with 95% intervals, percentiles, and where history falls."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a share (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denom
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == n else min(1.0, centre + half)
    return (lower, upper)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation between order statistics."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def percentile_rank(values: Sequence[float], x: float) -> float:
    """Where ``x`` falls in ``values``, 0-100, counting ties as half (the mid-rank)."""
    if not values:
        return math.nan
    below = sum(1 for v in values if v < x)
    equal = sum(1 for v in values if v == x)
    return 100.0 * (below + equal / 2) / len(values)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Mean and the 10th, 50th and 90th percentiles."""
    if not values:
        return {"mean": math.nan, "p10": math.nan, "p50": math.nan, "p90": math.nan}
    return {
        "mean": round(sum(values) / len(values), 3),
        "p10": round(percentile(values, 10), 3),
        "p50": round(percentile(values, 50), 3),
        "p90": round(percentile(values, 90), 3),
    }


def verdict(x: float, p10: float, p90: float) -> str:
    """Where ``x`` falls against the 10th-90th percentile band: "below", "inside" (bounds
    included) or "above"."""
    if x < p10:
        return "below"
    return "above" if x > p90 else "inside"


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def sd(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The mean of ``b - a`` game by game with its 95% interval (normal approximation), its
    standard error, and the standard error the same numbers would have unpaired."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    m = mean(diffs)
    se = sd(diffs) / math.sqrt(n) if n else math.nan
    unpaired = math.sqrt(sd(a) ** 2 / n + sd(b) ** 2 / n) if n else math.nan
    return {"mean": round(m, 3), "ci95": [round(m - Z95 * se, 3), round(m + Z95 * se, 3)],
            "se": round(se, 3), "se_unpaired": round(unpaired, 3)}
