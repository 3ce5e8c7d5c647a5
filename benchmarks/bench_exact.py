"""Time every exact mechanic of a ruleset over a spread of inputs; report the slowest of each.

    python benchmarks/bench_exact.py [--rules rff] [--repeat 5]

Inputs tried per mechanic: the defaults, then each choice input at each of its choices and
each numeric input at its minimum and at a few larger values, one at a time.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction
from typing import Any

from inputs import check
from referee.core.mechanics import InputSpec, MechanicSpec
from referee.core.plugins import build_rules

NUMBERS = (Fraction(1, 2), 1, 4, 9, 25, -6, 6)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="rff")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    check([args.rules])
    rules = build_rules(args.rules)
    report = {}
    for name, spec in rules.mechanics.items():
        worst, worst_inputs = 0.0, None
        for inputs in variants(spec):
            best = min(_time(spec, inputs) for _ in range(args.repeat))
            if best > worst:
                worst, worst_inputs = best, inputs
        report[name] = {"slowest_ms": round(worst * 1000, 3), "inputs": {k: str(v) for k, v in (worst_inputs or {}).items()}}
    print(json.dumps({"rules": args.rules, "mechanics": report}, indent=2))


def _time(spec: MechanicSpec, inputs: dict[str, Any]) -> float:
    start = time.perf_counter()
    spec.exact(inputs)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
