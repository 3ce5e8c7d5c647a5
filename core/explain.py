"""Why rulesets differ on one battle: losses by time, the mechanics rolled, and paired
differences on common random numbers, ending in a few plain sentences.

Games are played with the log on (each reduced to a :class:`GameRecord` in the worker that
played it) so that what happened when, and which mechanics were rolled, can be read back from
the log's neutral events (:mod:`~referee.core.timeline`). Replication ``k`` draws from the same
seed under every ruleset, so the difference between two rulesets can be taken game by game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from .compare import Stack, _scenario
from .events import EventLog, clock
from .game import Game, Outcome, play, replication_seed
from .stats import mean as _mean
from .stats import paired
from .timeline import BUCKET, losses_by_time, mechanics_rolled
from .world import Scenario

NO_CAUSE = ("Losses by cause (musketry, artillery by ammunition, charges, routs, captured) are not shown: "
            "the rulesets do not yet log the cause of each loss in neutral terms (a loss event naming the "
            "mechanic and the men lost), and reading each ruleset's own wording would not be neutral.")


@frozen
class GameRecord:
    """One logged game reduced to what an explanation needs."""

    outcome: Outcome
    losses: Mapping[str, Sequence[int]]  # side -> men lost in each BUCKET minutes from the start
    rolled: Mapping[str, Mapping[str, int]]  # mechanic -> result -> how often


def record(stack: Stack, scenario_path: str, seed: int) -> tuple[GameRecord, EventLog]:
    """Play one game with the log on; its record and its log."""
    scenario = _scenario(scenario_path)
    log = EventLog(enabled=True)
    outcome = play(Game.new(stack.build(), scenario, seed, log))
    rolled = {m: dict(sorted(c.items())) for m, c in sorted(mechanics_rolled(log.events).items())}
    return GameRecord(outcome, losses_by_time(log.events, scenario), rolled), log


def replicate_logged(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int]) -> list[GameRecord]:
    """Replications ``ks`` played with the log on, as records (a job for ``run_replications``)."""
    return [record(stack, scenario_path, replication_seed(seed, k))[0] for k in ks]


def by_time(records: Sequence[GameRecord], scenario: Scenario) -> dict[str, Any]:
    """Mean men lost by each side in each half hour (or BUCKET minutes), with the clock time each
    bucket begins at."""
    count = len(next(iter(records[0].losses.values()))) if records else 0
    return {
        "bucket_minutes": BUCKET,
        "from": [clock(scenario.start + i * BUCKET) for i in range(count)],
        "men_lost": {side: [round(_mean([r.losses[side][i] for r in records]), 1) for i in range(count)]
                     for side in scenario.sides},
    }


def mechanics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Each mechanic: how often it is rolled a game, and the share of each of its results."""
    names = sorted({m for r in records for m in r.rolled})
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        results: dict[str, int] = {}
        for r in records:
            for result, k in r.rolled.get(name, {}).items():
                results[result] = results.get(result, 0) + k
        total = sum(results.values())
        ordered = sorted(results.items(), key=lambda kv: (-kv[1], kv[0]))
        out[name] = {"per_game": round(total / len(records), 2),
                     "results": {res: round(k / total, 4) for res, k in ordered}}
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["per_game"]))


def pair(a: str, b: str, ra: Sequence[GameRecord], rb: Sequence[GameRecord], scenario: Scenario) -> dict[str, Any]:
    """``b`` against ``a`` on the same seeds, game by game."""
    n = min(len(ra), len(rb))
    oa, ob = [r.outcome for r in ra[:n]], [r.outcome for r in rb[:n]]
    assert all(x.seed == y.seed for x, y in zip(oa, ob)), "records on different seeds cannot be paired"
    same = sum(1 for x, y in zip(oa, ob) if (x.winner, x.minutes, x.men_lost, x.guns_lost) == (y.winner, y.minutes, y.men_lost, y.guns_lost))
    return {
        "a": a, "b": b, "games": n, "identical_games": same,
        "men_lost": {s: paired([o.men_lost[s] for o in oa], [o.men_lost[s] for o in ob]) for s in scenario.sides},
        "minutes": paired([o.minutes for o in oa], [o.minutes for o in ob]),
        "win_share": {s: paired([float(o.winner == s) for o in oa], [float(o.winner == s) for o in ob]) for s in scenario.sides},
    }


def explain(records: Mapping[str, Sequence[GameRecord]], scenario: Scenario) -> dict[str, Any]:
    """Per ruleset: losses by time and the mechanics rolled; each later ruleset paired with the
    first; and the sentences that say it."""
    names = list(records)
    result: dict[str, Any] = {
        "rulesets": {name: {"games": len(rs), "losses_by_time": by_time(rs, scenario), "mechanics": mechanics(rs)}
                     for name, rs in records.items()},
        "paired": [pair(names[0], b, records[names[0]], records[b], scenario) for b in names[1:]],
        "losses_by_cause": None,
        "missing": [NO_CAUSE],
    }
    result["sentences"] = sentences(result, scenario)
    return result


def _men(x: float) -> str:
    return f"{abs(x):,.0f}"


def _when_half(series: Sequence[float], scenario: Scenario) -> str | None:
    """The clock time by which half of a side's losses have fallen (the end of that bucket)."""
    total = sum(series)
    if total <= 0:
        return None
    running = 0.0
    for i, x in enumerate(series):
        running += x
        if running >= total / 2:
            return clock(scenario.start + (i + 1) * BUCKET)
    return None


def sentences(result: Mapping[str, Any], scenario: Scenario) -> list[str]:
    """A few plain sentences: the paired gaps, when the losses fall, what is rolled most."""
    said = []
    for p in result["paired"]:
        a, b = p["a"], p["b"]
        parts = []
        for side in scenario.sides:
            d = p["men_lost"][side]
            lo, hi = d["ci95"]
            if lo <= 0 <= hi:
                parts.append(f"the {side} side loses about as many men under {b} as under {a} "
                             f"(difference {d['mean']:+,.0f}, 95 % interval {lo:+,.0f} to {hi:+,.0f})")
            else:
                more = "more" if d["mean"] > 0 else "fewer"
                parts.append(f"the {side} side loses {_men(d['mean'])} {more} men under {b} than under {a} "
                             f"(95 % interval {lo:+,.0f} to {hi:+,.0f})")
        said.append(f"On the same {p['games']} seeds, " + "; ".join(parts) + ".")
        m = p["minutes"]
        lo, hi = m["ci95"]
        if not lo <= 0 <= hi:
            sooner = "later" if m["mean"] > 0 else "sooner"
            said.append(f"{b} decides the battle {abs(m['mean']):.0f} minutes {sooner} than {a} "
                        f"(95 % interval {lo:+.0f} to {hi:+.0f}).")
        if p["identical_games"]:
            said.append(f"{p['identical_games']} of the {p['games']} games end exactly alike under both.")
    for name, r in result["rulesets"].items():
        series = r["losses_by_time"]["men_lost"]
        halves = [f"the {side} side's by {when}" for side in scenario.sides
                  if (when := _when_half(series[side], scenario)) is not None]
        if halves:
            said.append(f"Under {name}, half of the losses have fallen: " + ", ".join(halves) + ".")
        top = list(r["mechanics"].items())[:3]
        if top:
            listed = ", ".join(f"{m} ({v['per_game']:.0f} a game)" for m, v in top)
            said.append(f"Under {name} the mechanics rolled most are {listed}.")
    said.append("Losses by cause cannot be given yet: the rulesets do not log the cause of each loss in neutral terms.")
    return said
