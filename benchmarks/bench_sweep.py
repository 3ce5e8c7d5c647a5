"""A sweep's cost: games per CPU-second against `compare`'s for the same games, games per second
on 2 local Dask workers against 1, and the bytes a game takes as a result row and in Parquet.

    python benchmarks/bench_sweep.py [--scenario big-bethel] [--rules rff] [-n 100] [--cluster-n 200]

Prints one JSON object; docs/performance.md records the results with the machine and date.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import sys
import tempfile
import time
from pathlib import Path

from inputs import at_least, check
from referee.core.input.scenario import find_scenario
from referee.core.studies.compare import Stack, run_replications
from referee.core.studies.sweep import read_sweep
from referee.core.studies.sweep_out import parquet_bytes
from referee.core.studies.sweep_run import Row, run_cluster, run_local

SPEC = """\
scenarios = ["{scenario}"]
rulesets = ["{rules}"]
replications = {n}
seed = {seed}
"""


def spec(folder: Path, scenario: str, rules: str, n: int, seed: int) -> Path:
    path = folder / f"sweep-{seed}.toml"
    path.write_text(SPEC.format(scenario=scenario, rules=rules, n=n, seed=seed), encoding="utf-8")
    return path


def sweep_cpu(path: Path, folder: Path) -> tuple[float, dict[int, Row]]:
    """Games per CPU-second of a sweep played in this process (one worker), and its rows."""
    sweep = read_sweep(path)
    rows: dict[int, Row] = {}
    start = time.process_time()
    run_local(sweep, range(sweep.games), lambda row: rows.setdefault(row[0], row), 1, folder / "files")
    return sweep.games / (time.process_time() - start), rows


def compare_cpu(scenario: str, rules: str, n: int, seed: int) -> float:
    start = time.process_time()
    outcomes, _ = run_replications(Stack(rules), str(find_scenario(scenario)), n, seed=seed, workers=1)
    assert len(outcomes) == n
    return n / (time.process_time() - start)


def _cpu() -> float:
    return time.process_time()


def dask_rate(path: Path, workers: int) -> tuple[float, float]:
    """Games per second of a sweep on a LocalCluster of ``workers`` one-thread processes (its
    start not counted), and games per CPU-second of the workers (every worker's CPU time)."""
    from distributed import Client, LocalCluster

    sweep = read_sweep(path)
    rows: dict[int, Row] = {}
    with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        warm = read_sweep(path.with_name("warm.toml"))
        run_cluster(warm, range(warm.games), lambda row: None, client, size=1)
        cpu = sum(client.run(_cpu).values())
        start = time.perf_counter()
        run_cluster(sweep, range(sweep.games), lambda row: rows.setdefault(row[0], row), client)
        rate = sweep.games / (time.perf_counter() - start)
        cpu = sum(client.run(_cpu).values()) - cpu
    assert len(rows) == sweep.games
    return rate, sweep.games / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="big-bethel")
    parser.add_argument("--rules", default="rff")
    parser.add_argument("-n", type=at_least(1), default=100, help="games for the CPU comparison")
    parser.add_argument("--cluster-n", type=at_least(0), default=200, help="games for the Dask comparison (0: skip it)")
    args = parser.parse_args()
    check([args.rules], [args.scenario])
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        # warm both paths on their own seeds; then each plays seeds it has not played
        sweep_cpu(spec(folder, args.scenario, args.rules, 3, 101), folder)
        compare_cpu(args.scenario, args.rules, 3, 102)
        compare = compare_cpu(args.scenario, args.rules, args.n, 1)
        swept, rows = sweep_cpu(spec(folder, args.scenario, args.rules, args.n, 2), folder)
        sweep = read_sweep(folder / "sweep-2.toml")
        parquet = parquet_bytes(sweep, rows)
        result = {
            "scenario": args.scenario, "rules": args.rules, "n": args.n,
            "compare_games_per_cpu_second": round(compare, 1), "sweep_games_per_cpu_second": round(swept, 1),
            "sweep_over_compare": round(swept / compare, 3),
            "row_bytes_pickled": round(sum(len(pickle.dumps(r)) for r in rows.values()) / len(rows), 1),
            "parquet_bytes_per_game": round(len(parquet) / len(rows), 1),
        }
        if args.cluster_n:
            spec(folder, args.scenario, args.rules, 4, 103).rename(folder / "warm.toml")
            path = spec(folder, args.scenario, args.rules, args.cluster_n, 3)
            (one, one_cpu), (two, two_cpu) = dask_rate(path, 1), dask_rate(path, 2)
            result.update({"dask_1_worker_games_per_second": round(one, 1), "dask_2_workers_games_per_second": round(two, 1),
                           "dask_2_over_1": round(two / one, 2), "dask_1_worker_games_per_cpu_second": round(one_cpu, 1),
                           "dask_2_workers_games_per_cpu_second": round(two_cpu, 1), "load_average": os.getloadavg()[0]})
    result.update({"python": sys.version.split()[0], "machine": platform.machine(), "cpus": os.cpu_count()})
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
