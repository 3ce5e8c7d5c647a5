"""Instructions a game, counted by valgrind's cachegrind: a measure the machine's load cannot move.

    python benchmarks/instructions.py [--rules rff] [--scenario big-bethel] [-n 10] [--warm-up 3]

Runs cachegrind twice on this interpreter, with ``PYTHONHASHSEED=0``: once playing only the games
of warm-up (tables, ground, caches; 3 unless ``--warm-up`` says otherwise: a long game, such as a
crowded scenario's, may be counted after none), once playing the same warm-up then ``-n`` more
games (seed 2), and prints the difference divided by ``-n``. ``--scenario`` takes a bundled name
or a scenario file's path. Equal code gives equal counts to about 0.1 %;
docs/performance.md records them. Needs valgrind (Debian's ``valgrind`` package).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

from inputs import at_least, check

GAMES = """\
import sys
from referee.core.studies.compare import Stack, replicate
stack, scenario, n, warm = Stack(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
replicate(stack, scenario, 1, range(warm))
replicate(stack, scenario, 2, range(n))
"""


def instructions(rules: str, scenario: str, n: int, warm: int) -> int:
    """Instructions cachegrind counts for ``warm`` games of warm-up and ``n`` games."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, "-c", GAMES, rules, scenario, str(n), str(warm)]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"cachegrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="rff")
    parser.add_argument("--scenario", default="big-bethel")
    parser.add_argument("-n", type=at_least(1), default=10, help="games counted after the warm-up")
    parser.add_argument("--warm-up", type=at_least(0), default=3, help="games played before those counted (default 3)")
    args = parser.parse_args()
    check([args.rules], [args.scenario])
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    per_game = (instructions(args.rules, args.scenario, args.n, args.warm_up)
                - instructions(args.rules, args.scenario, 0, args.warm_up)) / args.n
    print(json.dumps({"rules": args.rules, "scenario": args.scenario, "games": args.n, "warm_up": args.warm_up,
                      "instructions_per_game": round(per_game)}, indent=2))


if __name__ == "__main__":
    main()
