"""Comparison: N replications per ruleset, in parallel, the same whatever the worker count.

Replication ``k`` of every ruleset draws from :func:`~referee.core.game.replication_seed`
``(seed, k)``. Work is split into fixed chunks of replications and the results are put back in
replication order, so the numbers do not depend on how many workers ran them. An interrupt
keeps every finished replication.
"""

from __future__ import annotations

import gc
from collections import Counter
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import cache
from typing import Any

from attrs import frozen

from .game import Game, Outcome, play, replication_seed
from .plugins import Rules, build_rules
from .scenario import find_scenario, load_scenario
from .stats import percentile_rank, summary, wilson
from .world import Scenario

CHUNK = 25  # the most replications sent to a worker at once (what an interrupt may lose)


@frozen
class Stack:
    """What is needed to rebuild a rule stack in a worker process."""

    ruleset: str
    options: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()

    def build(self) -> Rules:
        return _built(self)


@cache
def _built(stack: Stack) -> Rules:
    return build_rules(stack.ruleset, stack.options, stack.house_rules)


@cache
def _scenario(path: str) -> Scenario:
    return load_scenario(find_scenario(path))


def replicate(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int]) -> list[Outcome]:
    """Play replications ``ks`` with the log off. The cyclic garbage collector waits until they
    are done: a game leaves little cyclic garbage (its state), while the collector's passes over
    the long-lived memos cost several per cent of a game; what the games left is collected as
    usual once it is back on."""
    rules, scenario = stack.build(), _scenario(scenario_path)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return [play(Game.new(rules, scenario, replication_seed(seed, k))) for k in ks]
    finally:
        if collecting:
            gc.enable()


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


Progress = Callable[[int], None]
Job = Callable[[Stack, str, int, Sequence[int]], list[Any]]  # like replicate: one result per replication


def run_replications(
    stack: Stack, scenario_path: str, n: int, seed: int, workers: int = 1, progress: Progress | None = None,
    job: Job | None = None,
) -> tuple[list[Any], bool]:
    """Play ``n`` replications with ``job`` (default :func:`replicate`: their outcomes). Returns
    the results in replication order (only the leading run of finished ones if interrupted) and
    whether the run was interrupted."""
    job = job or replicate
    # with several workers, about four chunks each keep them all busy to the end
    size = CHUNK if workers <= 1 else max(1, min(CHUNK, -(-n // (4 * workers))))
    chunks = [list(range(i, min(i + size, n))) for i in range(0, n, size)]
    done: dict[int, list[Any]] = {}
    interrupted = False
    if workers <= 1:
        try:
            for i, ks in enumerate(chunks):
                done[i] = job(stack, scenario_path, seed, ks)
                if progress:
                    progress(len(ks))
        except KeyboardInterrupt:
            interrupted = True
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker) as pool:
            futures: dict[Future[list[Any]], int] = {
                pool.submit(job, stack, scenario_path, seed, ks): i for i, ks in enumerate(chunks)
            }
            pending = set(futures)
            try:
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        done[futures[future]] = future.result()
                        if progress:
                            progress(len(done[futures[future]]))
            except KeyboardInterrupt:
                interrupted = True
                for future in pending:
                    future.cancel()
            except BaseException:  # a user error from a worker: stop the rest, then report it
                for future in pending:
                    future.cancel()
                raise
    outcomes: list[Any] = []
    for i in range(len(chunks)):  # keep replication order; stop at the first gap
        if i not in done:
            break
        outcomes.extend(done[i])
    return outcomes, interrupted


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def ended_by(reason: str) -> str:
    """What ended a game, without its numbers: "union beaten", "union broke off", "time"."""
    return reason.split(" (", 1)[0].split(";", 1)[0]


def summarise(outcomes: Sequence[Outcome], scenario: Scenario) -> dict[str, Any]:
    """Per side: win share with its 95% interval, men and guns lost, minutes to decision, and
    where the historical result falls; and each game's seed, winner, losses and minutes."""
    n = len(outcomes)
    sides = scenario.sides
    result: dict[str, Any] = {"replications": n, "win": {}, "men_lost": {}, "guns_lost": {}, "men_left": {},
                              "yards_gained": {}}
    for key in (*sides, "draw"):
        wins = sum(1 for o in outcomes if (o.winner or "draw") == key)
        lo, hi = wilson(wins, n)
        result["win"][key] = {"share": round(wins / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}
    for side in sides:
        result["men_lost"][side] = summary([o.men_lost[side] for o in outcomes])
        result["guns_lost"][side] = summary([o.guns_lost[side] for o in outcomes])
        result["men_left"][side] = summary([o.men_left.get(side, 0) for o in outcomes])
        result["yards_gained"][side] = summary([o.yards_gained[side] for o in outcomes])
    result["minutes"] = summary([o.minutes for o in outcomes])
    ends = Counter(ended_by(o.reason) for o in outcomes)
    result["ended_by"] = {k: round(ends[k] / n, 4) for k in sorted(ends)}
    history = scenario.historical
    if history is not None:
        result["historical"] = {
            "winner": history.winner or "draw",
            "winner_share": result["win"][history.winner or "draw"]["share"],
            "men_lost_percentile": {
                s: round(percentile_rank([o.men_lost[s] for o in outcomes], history.men_lost.get(s, 0)), 1) for s in sides
            },
            "guns_lost_percentile": {
                s: round(percentile_rank([o.guns_lost[s] for o in outcomes], history.guns_lost.get(s, 0)), 1) for s in sides
            },
        }
        if history.minutes is not None:
            result["historical"]["minutes_percentile"] = round(percentile_rank([o.minutes for o in outcomes], history.minutes), 1)
    result["games"] = [{"seed": o.seed, "winner": o.winner, "men_lost": o.men_lost, "guns_lost": o.guns_lost,
                        "minutes": o.minutes} for o in outcomes]
    return result
