"""Where history falls among a ruleset's outcomes: one row per battle and ruleset.

A row holds the historical winner's share of the replications (with its 95% interval) and, for
each side's men and guns lost and for the minutes to decision, the 10th, 50th and 90th
percentiles beside the historical figure, that figure's percentile rank and a verdict: "inside"
the p10-p90 band, "below" or "above" it. A figure the scenario does not record stays ``None``
(a blank cell), never 0. ``broke_off`` gives, by side, the share of replications whose verdict
that side's break-off decided (marked † in the tables). Rows are plain JSON-ready dicts in a
fixed key order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.game import Outcome
from ..engine.world import Scenario
from .compare import broke_off_shares
from .stats import percentile, percentile_rank, verdict, wilson

LOSSES = ("men_lost", "guns_lost")


def spread(values: Sequence[float], history: float | None) -> dict[str, Any]:
    """p10/p50/p90 of ``values`` (rounded as reported), the historical figure, its percentile
    rank and its verdict against the reported p10 and p90."""
    p10, p50, p90 = (round(percentile(values, q), 3) for q in (10, 50, 90))
    return {
        "p10": p10, "p50": p50, "p90": p90, "history": history,
        "percentile": round(percentile_rank(values, history), 1) if history is not None else None,
        "verdict": verdict(history, p10, p90) if history is not None else None,
    }


def row(scenario: Scenario, ruleset: str, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The row of one battle (which must have a historical record) under one ruleset."""
    history = scenario.historical
    assert history is not None and outcomes
    winner = history.winner or "draw"
    wins = sum(1 for o in outcomes if (o.winner or "draw") == winner)
    low, high = wilson(wins, len(outcomes))
    result: dict[str, Any] = {
        "scenario": scenario.id, "title": scenario.title, "ruleset": ruleset, "replications": len(outcomes),
        "winner": {"history": winner, "share": round(wins / len(outcomes), 4), "ci95": [round(low, 4), round(high, 4)]},
    }
    for what in LOSSES:
        recorded = getattr(history, what)
        result[what] = {side: spread([getattr(o, what)[side] for o in outcomes], recorded.get(side)) for side in scenario.sides}
    result["minutes"] = spread([o.minutes for o in outcomes], history.minutes)
    result["broke_off"] = broke_off_shares(outcomes)
    return result


def men_lost_inside(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many (battle, ruleset, side) men-lost cells with a historical figure have it inside p10-p90."""
    verdicts = [cell["verdict"] for r in rows for cell in r["men_lost"].values() if cell["verdict"] is not None]
    return {"inside": verdicts.count("inside"), "cells": len(verdicts)}


# ----------------------------------------------------------------------------- text for tables


def number(x: float) -> str:
    """A figure as a table shows it: whole numbers bare, others to one decimal."""
    return f"{x:.1f}".removesuffix(".0")


def spread_text(cell: dict[str, Any]) -> tuple[str, str]:
    """A cell's "p10 / p50 / p90" and its "history (percentile)", blank without a history."""
    band = " / ".join(number(cell[q]) for q in ("p10", "p50", "p90"))
    if cell["history"] is None:
        return band, ""
    return band, f"{number(cell['history'])} ({cell['percentile']:.1f})"


def winner_text(winner: dict[str, Any]) -> tuple[str, str, str]:
    """The historical winner, the share of replications it won, and that share's 95% interval."""
    low, high = winner["ci95"]
    return winner["history"], f"{winner['share']:.1%}", f"[{low:.1%}-{high:.1%}]"


BROKE_OFF_MARK = "†"
BROKE_OFF_LEGEND = (f"{BROKE_OFF_MARK} side share: the share of games whose verdict a plan's break-off decided (the side "
                    "that broke off; what it means is the scenario's victory.break_off, a defeat unless it says)")


def broke_off_text(shares: dict[str, float]) -> str:
    """The break-off marker of a row: "† union 41%" (blank when no break-off decided a game)."""
    return " ".join(f"{BROKE_OFF_MARK} {side} {share:.0%}" for side, share in shares.items())
