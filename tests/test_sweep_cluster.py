"""``referee sweep --scheduler``: on a Dask cluster the games and the Parquet file are the local run's.

A LocalCluster in process, then a real ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1 (ended in a ``finally``), one of them killed mid-sweep.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from click.testing import CliRunner
from referee.core.cli import main
from referee.core.sweep import read_sweep
from referee.core.sweep_out import parquet_bytes
from referee.core.sweep_run import Row, run_cluster, run_local

SPEC = """\
scenarios = ["drill-musketry"]
rulesets = ["rff", "sumter"]
replications = {n}
seed = 7

[[vary]]
name = "fresh"
cell = {{ rff = "maneuver.modifiers.fresh.value", sumter = "fire.firer.veteran" }}
values = [1, 2]
"""


def spec(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(n=n), encoding="utf-8")
    return path


def local_bytes(path: Path, tmp_path: Path) -> bytes:
    sweep = read_sweep(path)
    rows: dict[int, Row] = {}
    assert run_local(sweep, range(sweep.games), lambda row: rows.setdefault(row[0], row), 1, tmp_path / "files") is None
    return parquet_bytes(sweep, rows)


def test_local_cluster_equals_local_run(tmp_path: Path) -> None:
    path = spec(tmp_path, 3)
    sweep = read_sweep(path)
    rows: dict[int, Row] = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert run_cluster(sweep, range(sweep.games), lambda row: rows.setdefault(row[0], row), client, size=2) is None
    assert sorted(rows) == list(range(sweep.games))
    assert parquet_bytes(sweep, rows) == local_bytes(path, tmp_path)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two workers, each in a process group of its own."""
    dask = str(Path(sys.executable).parent / "dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet)]  # type: ignore[call-overload]
    try:
        for _ in range(2):
            processes.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard", "--no-nanny",
                                               "--host", "127.0.0.1"], **quiet))  # type: ignore[call-overload]
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, processes
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_real_cluster_equals_local_run(tmp_path: Path, cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    path = spec(tmp_path, 4)
    result = CliRunner().invoke(main, ["sweep", str(path), "--out", str(tmp_path / "out"), "--scheduler", cluster[0],
                                       "--batch", "3", "--no-html", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["complete"]
    assert (tmp_path / "out" / "games.parquet").read_bytes() == local_bytes(path, tmp_path)


def test_a_worker_killed_mid_sweep_loses_no_game(tmp_path: Path, cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    path = spec(tmp_path, 40)  # 160 games in tasks of 2
    journal = tmp_path / "out" / "journal.jsonl"
    killed_at: list[int] = []

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if journal.exists() and journal.read_text().count("\n") >= 10:
                killed_at.append(journal.read_text().count("\n"))
                os.killpg(cluster[1][2].pid, signal.SIGKILL)
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=kill_one)
    watcher.start()
    try:
        result = CliRunner().invoke(main, ["sweep", str(path), "--out", str(tmp_path / "out"), "--scheduler", cluster[0],
                                           "--batch", "2", "--no-html", "--json"])
    finally:
        watcher.join()
    assert result.exit_code == 0, result.output
    assert killed_at and killed_at[0] < 160  # the worker died with games still to play
    assert cluster[1][2].wait(timeout=10) is not None
    played = [json.loads(line)[0] for line in journal.read_text().splitlines()]
    assert sorted(played) == list(range(160))
    assert (tmp_path / "out" / "games.parquet").read_bytes() == local_bytes(path, tmp_path)
