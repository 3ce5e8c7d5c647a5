"""Hypothesis strategies shared by the tests.

Add new strategies here rather than in a test module, so that every test draws the same shapes.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


# ----------------------------------------------------------------------------- rule tables

die_modifiers = st.integers(min_value=-15, max_value=15)
"""A net die modifier, well past every band of a d10 table."""


@st.composite
def band_rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Range-band rows ``{min, max, result}`` covering every integer exactly once (open at both
    ends), in a random order, as a TOML table would hold them."""
    cuts = sorted(draw(st.sets(st.integers(min_value=-30, max_value=40), max_size=8)))
    lows: list[int | None] = [None, *cuts]
    rows: list[dict[str, Any]] = []
    for i, low in enumerate(lows):
        row: dict[str, Any] = {"result": f"r{i}"}
        if low is not None:
            row["min"] = low
        if i + 1 < len(lows):
            row["max"] = cuts[i] - 1
        rows.append(row)
    return draw(st.permutations(rows))
