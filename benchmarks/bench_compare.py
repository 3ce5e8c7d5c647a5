"""Replications per second of `referee compare`, log off, with 1 and with 2 workers.

    python benchmarks/bench_compare.py [--scenario big-bethel] [--rules rff] [-n 400]

Prints one JSON object; docs/performance.md records the results with the machine and date.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from inputs import at_least, check
from referee.core.studies.compare import Stack, replicate, run_replications


def rate(stack: Stack, scenario: str, n: int, workers: int, seed: int) -> float:
    start = time.perf_counter()
    outcomes, _ = run_replications(stack, scenario, n, seed=seed, workers=workers)
    assert len(outcomes) == n
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="big-bethel")
    parser.add_argument("--rules", default="rff")
    parser.add_argument("-n", type=at_least(1), default=400)
    args = parser.parse_args()
    check([args.rules], [args.scenario])
    stack = Stack(args.rules)
    replicate(stack, args.scenario, 1, range(3))  # warm up: tables, ground, caches
    # each run plays games not played before: the workers fork from this process, and games it
    # has already played would find every answer the rulesets keep per scenario waiting for them
    one = rate(stack, args.scenario, args.n, 1, seed=1)
    two = rate(stack, args.scenario, args.n, 2, seed=2)
    print(json.dumps({
        "scenario": args.scenario, "rules": args.rules, "n": args.n,
        "replications_per_second_1_worker": round(one, 1),
        "replications_per_second_2_workers": round(two, 1),
        "speed_up_2_workers": round(two / one, 2),
        "cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine(),
    }, indent=2))


if __name__ == "__main__":
    main()
