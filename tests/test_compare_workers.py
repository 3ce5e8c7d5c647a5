"""What every game of a comparison shares is made once, in the process that starts the workers:
workers forked from it play with its rule stack, its scenario and the scenario's ground."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence

import pytest
from referee.core.studies.compare import Stack, _built, _scenario, run_replications


def made_here(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int]) -> list[tuple[int, int, bool]]:
    """A job (as run_replications takes): how many stacks and scenarios this process has made,
    once the worker has what it plays with, and whether the scenario's ground was ready."""
    scenario = _scenario(scenario_path)
    ready = scenario.kept.ground is not None
    stack.build()
    return [(_built.cache_info().misses, _scenario.cache_info().misses, ready) for _ in ks]


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="only forked workers inherit their parent's memory")
def test_forked_workers_play_with_what_their_parent_made_once() -> None:
    _built.cache_clear()
    _scenario.cache_clear()
    played, interrupted = run_replications(Stack("sumter"), "drill-charge-battery", 4, 1, workers=2, job=made_here)
    assert interrupted is None and len(played) == 4
    assert set(played) == {(_built.cache_info().misses, _scenario.cache_info().misses, True)}
