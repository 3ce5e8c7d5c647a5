"""``referee sweep --scheduler``: on a Dask cluster the games and the Parquet file are the local run's.

A LocalCluster (in a child process: see below), then a real ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1 (ended in a ``finally``), one of them killed mid-sweep.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from referee.core.studies.sweep import read_sweep
from referee.core.studies.sweep_out import parquet_bytes
from referee.core.studies.sweep_run import Row, run_local

# Dask runs in child processes only: importing distributed into the test process changes how
# errors pickle for compare's workers (tests/test_reliability.py's failing house rules).
pytestmark = pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs Dask: pip install 'referee[cluster]'")
REFEREE = [sys.executable, "-c", "from referee.core.cli.launch import main; main()"]

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


LOCAL_CLUSTER = """\
import sys
from distributed import Client, LocalCluster
from referee.core.studies.sweep import read_sweep
from referee.core.studies.sweep_out import parquet_bytes
from referee.core.studies.sweep_run import run_cluster

if __name__ == "__main__":
    sweep = read_sweep(sys.argv[1])
    rows = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        assert run_cluster(sweep, range(sweep.games), lambda row: rows.setdefault(row[0], row), client, size=2) is None
    assert sorted(rows) == list(range(sweep.games))
    with open(sys.argv[2], "wb") as out:
        out.write(parquet_bytes(sweep, rows))
"""


def run(command: list[str], timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    """A child process in a group of its own, ended (with its children) if it outlives ``timeout``."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_local_cluster_equals_local_run(tmp_path: Path) -> None:
    path = spec(tmp_path, 3)
    script = tmp_path / "local_cluster.py"
    script.write_text(LOCAL_CLUSTER, encoding="utf-8")
    done = run([sys.executable, str(script), str(path), str(tmp_path / "games.parquet")])
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert (tmp_path / "games.parquet").read_bytes() == local_bytes(path, tmp_path)


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
        wait = ("import sys; from distributed import Client; c = Client(sys.argv[1], timeout='60s'); "
                "c.wait_for_workers(2, timeout=120); c.close()")
        waited = run([sys.executable, "-c", wait, address], timeout=200)
        assert waited.returncode == 0, waited.stderr.decode()[-3000:]
        yield address, processes
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_real_cluster_equals_local_run(tmp_path: Path, cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    path = spec(tmp_path, 4)
    done = run([*REFEREE, "sweep", str(path), "--out", str(tmp_path / "out"), "--scheduler", cluster[0], "--batch", "3",
                "--no-html", "--json"])
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert json.loads(done.stdout)["complete"]
    assert (tmp_path / "out" / "games.parquet").read_bytes() == local_bytes(path, tmp_path)


def test_a_worker_killed_mid_sweep_loses_no_game(tmp_path: Path, cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    path = spec(tmp_path, 40)  # 160 games in tasks of 2
    journal = tmp_path / "out" / "journal.jsonl"
    process = subprocess.Popen([*REFEREE, "sweep", str(path), "--out", str(tmp_path / "out"), "--scheduler", cluster[0],
                                "--batch", "2", "--no-html", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        killed_at = None
        deadline = time.monotonic() + 200
        while killed_at is None and time.monotonic() < deadline and process.poll() is None:
            if journal.exists() and journal.read_text().count("\n") >= 10:
                killed_at = journal.read_text().count("\n")
                os.killpg(cluster[1][2].pid, signal.SIGKILL)
            time.sleep(0.02)
        _, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 0, err.decode()[-3000:]
    assert killed_at is not None and killed_at < 160  # the worker died with games still to play
    assert cluster[1][2].wait(timeout=10) is not None
    played = [json.loads(line)[0] for line in journal.read_text().splitlines()]
    assert sorted(played) == list(range(160))
    assert (tmp_path / "out" / "games.parquet").read_bytes() == local_bytes(path, tmp_path)
