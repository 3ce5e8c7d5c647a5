"""Where a game's work goes, counted in bytecodes: a profile that neither load nor the profiler moves.

    python benchmarks/bytecodes.py [--rules rff] [--scenario big-bethel] [-n 3] [--top 40]

Plays 2 games of warm-up (seed 1), then ``-n`` games (seed 2) with every bytecode counted
(``sys.settrace`` with opcode events), and prints each function's share of the bytecodes run:
inclusive (its own and its callees') and its own, with its calls a game. cProfile charges each
call a fixed overhead, so it overstates code made of many small calls (it put rff's outflank test
at 9 % of a game, bytecodes at under 5 %); a bytecode is about 55 instructions here
(``instructions.py``), so the shares are close to instruction shares. Slow: about 10 seconds a
game.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import CodeType, FrameType
from typing import Any

from inputs import at_least, check


def profile(rules: str, scenario: str, n: int) -> tuple[int, Counter[CodeType], Counter[CodeType], Counter[CodeType]]:
    """(bytecodes run, inclusive and own bytecodes by function, calls by function) over ``n`` games."""
    from referee.core.studies.compare import Stack, replicate

    stack = Stack(rules)
    replicate(stack, scenario, 1, range(2))
    own: Counter[CodeType] = Counter()
    inclusive: Counter[CodeType] = Counter()
    calls: Counter[CodeType] = Counter()
    running: Counter[CodeType] = Counter()  # frames of each function on the stack (recursion counts once)
    stack_: list[tuple[CodeType, int]] = []
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        code = frame.f_code
        if event == "opcode":
            count += 1
            own[code] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            stack_.append((code, count))
            running[code] += 1
            calls[code] += 1
        elif event == "return":
            code, start = stack_.pop()
            running[code] -= 1
            if not running[code]:
                inclusive[code] += count - start
        return tracer

    sys.settrace(tracer)
    try:
        replicate(stack, scenario, 2, range(n))
    finally:
        sys.settrace(None)
    return count, inclusive, own, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="rff")
    parser.add_argument("--scenario", default="big-bethel")
    parser.add_argument("-n", type=at_least(1), default=3, help="games counted after the warm-up")
    parser.add_argument("--top", type=at_least(1), default=40, help="functions listed")
    args = parser.parse_args()
    check([args.rules], [args.scenario])
    total, inclusive, own, calls = profile(args.rules, args.scenario, args.n)

    def name(code: CodeType) -> str:
        return f"{'/'.join(code.co_filename.split('/')[-2:])}:{code.co_firstlineno}({code.co_name})"

    print(f"{args.rules} {args.scenario}: {total / args.n:,.0f} bytecodes a game")
    print(" inclusive   own  calls a game  function")
    for code, done in inclusive.most_common(args.top):
        print(f"{done / total:9.1%} {own[code] / total:6.1%} {calls[code] / args.n:12.0f}  {name(code)}")


if __name__ == "__main__":
    main()
