"""The benchmarks refuse a count out of range with the project's one-line error and exit code 2
(argparse's), before any game is played."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from scripts import ROOT, load_script


def test_a_count_below_its_least_is_refused_and_a_whole_number_in_range_taken() -> None:
    inputs = load_script("benchmarks/inputs.py")
    parser = argparse.ArgumentParser(prog="bench")
    parser.add_argument("-n", type=inputs.at_least(1))
    parser.add_argument("--warm-up", type=inputs.at_least(0))
    assert vars(parser.parse_args(["-n", "3", "--warm-up", "0"])) == {"n": 3, "warm_up": 0}
    for bad in (["-n", "0"], ["-n", "x"], ["--warm-up", "-1"]):
        with pytest.raises(SystemExit) as stop:
            parser.parse_args(bad)
        assert stop.value.code == 2


def test_bench_scale_refuses_no_games_but_its_child_may_play_none() -> None:
    """``bench_scale.py --instructions`` subtracts a child's start-up, counted by running it with
    ``-n 0``: the child takes it, the benchmark itself refuses it."""
    script = str(ROOT / "benchmarks/bench_scale.py")
    child = subprocess.run([sys.executable, script, "--one", "sumter", "0", "--layout", "open", "-n", "0"],
                           capture_output=True, text=True, check=False, timeout=300)
    assert child.returncode == 0, child.stderr
    assert json.loads(child.stdout)["games"] == 0
    parent = subprocess.run([sys.executable, script, "--rules", "sumter", "--sizes", "0", "-n", "0"],
                            capture_output=True, text=True, check=False, timeout=300)
    assert parent.returncode == 2 and "expected a whole number >= 1" in parent.stderr and "Traceback" not in parent.stderr
