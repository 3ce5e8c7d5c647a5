"""The benchmarks refuse a count out of range with the project's one-line error and exit code 2
(argparse's), before any game is played."""

from __future__ import annotations

import argparse

import pytest
from scripts import load_script


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
