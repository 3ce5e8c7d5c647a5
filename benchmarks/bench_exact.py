"""Time every exact mechanic at its documented maximum, and the CLI's start-up (CPU time).

    python benchmarks/bench_exact.py [--rules rff,hynds,sumter,hardtack] [--cpu 0.05] [--startup 5]

Inputs tried per mechanic: the defaults; each choice input at each of its choices and each
numeric input at its minimum and a few larger values, one at a time (:func:`variants`); then
*the maxima*: every bounded numeric input at its maximum (an unbounded one at 1,000) together,
and from there each choice and flag, in turn, set to whichever of its values is slowest (kept
for the inputs after it). Each input set is timed by CPU time, calling the mechanic until
``--cpu`` seconds have gone by, and the slowest set of each mechanic is reported with its
outcomes. Start-up: the CPU time (user + system) of ``referee --help`` and of ``referee resolve
rff charge --exact --json`` as child processes, the median of ``--startup`` runs each after one
not counted (0: none); with ``PYTHONDONTWRITEBYTECODE`` set, every run compiles the project's
modules again (about 0.1 s more). Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from typing import Any

from inputs import at_least, check
from referee.core.engine.mechanics import InputSpec, MechanicSpec
from referee.core.engine.plugins import build_rules, installed

NUMBERS = (Fraction(1, 2), 1, 4, 9, 25, -6, 6)
UNBOUNDED = 1000
STARTUP = (["--help"], ["resolve", "rff", "charge", "--exact", "--json"])


def variants(spec: MechanicSpec) -> list[dict[str, Any]]:
    base = {i.name: i.default if i.default is not None else _first(i) for i in spec.inputs}
    out = [base]
    for i in spec.inputs:
        for value in _values(i):
            out.append({**base, i.name: value})
    return out


def _first(i: InputSpec) -> Any:
    return _values(i)[0]


def _values(i: InputSpec) -> list[Any]:
    if i.kind == "choice":
        return list(i.choices)
    if i.kind == "bool":
        return [False, True]
    lo, hi = i.minimum, i.maximum
    vals = [v for v in NUMBERS if (lo is None or v >= lo) and (hi is None or v <= hi)]
    return [int(v) if i.kind == "int" else Fraction(v) for v in vals if i.kind != "int" or Fraction(v).denominator == 1]


def at_maxima(spec: MechanicSpec) -> dict[str, Any]:
    """The defaults with every numeric input at its maximum (an unbounded one at 1,000)."""
    out = variants(spec)[0]
    for i in spec.inputs:
        if i.kind in ("int", "number"):
            top = i.maximum if i.maximum is not None else UNBOUNDED
            out[i.name] = int(top) if i.kind == "int" else Fraction(top)
    return out


def cpu_per_call(spec: MechanicSpec, inputs: dict[str, Any], least: float) -> tuple[float, int]:
    """CPU seconds a call of ``spec.exact(inputs)`` (called until ``least`` s went by), and its outcomes."""
    calls, start = 0, time.process_time()
    while True:
        outcomes = spec.exact(inputs)
        calls += 1
        spent = time.process_time() - start
        if spent >= least:
            return spent / calls, len(outcomes)


def slowest(spec: MechanicSpec, least: float) -> dict[str, Any]:
    """The slowest input set found (see the module's docstring), its CPU ms and outcomes."""
    tried: list[tuple[float, int, dict[str, Any]]] = []

    def timed(inputs: dict[str, Any]) -> float:
        try:
            cpu, n = cpu_per_call(spec, inputs, least)
        except ValueError:  # an input set the mechanic refuses (as the CLI would)
            return -1.0
        tried.append((cpu, n, inputs))
        return cpu

    for inputs in variants(spec):
        timed(inputs)
    top = at_maxima(spec)
    timed(top)
    for i in spec.inputs:
        if i.kind in ("choice", "bool"):
            top = max(({**top, i.name: v} for v in _values(i)), key=timed)
    cpu, n, inputs = max(tried, key=lambda t: t[0])
    return {"slowest_cpu_ms": round(cpu * 1000, 2), "outcomes": n, "inputs": {k: str(v) for k, v in inputs.items()}}


def startup(runs: int) -> dict[str, float]:
    """Median CPU seconds (user + system, the child's) of each start-up command."""
    referee = [sys.executable, "-c", "from referee.core.cli.launch import main; main()"]
    out = {}
    for args in STARTUP:
        spent = []
        for _ in range(runs + 1):  # the first (not counted) writes the bytecode, where Python may
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.Popen([*referee, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                proc.wait(timeout=60)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            spent.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out[f"referee {' '.join(args)}"] = round(statistics.median(spent[1:]), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default=",".join(sorted(installed())))
    parser.add_argument("--cpu", type=float, default=0.05, help="CPU seconds to spend on each input set (default 0.05)")
    parser.add_argument("--startup", type=at_least(0), default=5, help="runs of each start-up command (default 5; 0: none)")
    args = parser.parse_args()
    names = args.rules.split(",")
    check(names)
    report: dict[str, Any] = {"exact": {}}
    for name in names:
        rules = build_rules(name)
        report["exact"][name] = {mech: slowest(spec, args.cpu) for mech, spec in rules.mechanics.items()}
    if args.startup:
        report["startup_cpu_s"] = startup(args.startup)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
