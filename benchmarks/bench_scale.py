"""Time and memory per game as the musketry drill grows: extra 500-man regiments a side.

    python benchmarks/bench_scale.py [--rules rff,hardtack] [--sizes 10,20,50,100] [-n 2] [--seed 1]
    python benchmarks/bench_scale.py --toml 50 > drill-musketry-50.toml   # the scenario, to play or profile

The scenario is built in memory from ``scenarios/drill-musketry.toml``: the drill's pair of
regiments is repeated, each extra regiment a copy of its side's one (500 men, rifle-muskets,
trained, in line), with its own brigade, average colonel just behind it and ground to defend,
as the drill's own. Each side stands in a block of regiments about as wide as it is deep: rows
of ``ceil(sqrt(k))`` regiments 200 yards apart (centre to centre; a 500-man line is about 150
yards long), further rows 150 yards behind, the drill's regiment in the middle of the front row,
the two front rows 200 yards apart as in the drill. The map is widened to hold them with 200
yards to spare on every side. Victory is the drill's (its two grounds, half the men lost).

Each ruleset and size is played in a fresh process (no memo carried over from another size):
``-n`` games with the replication seeds of ``--seed``, log off, collector off (as
``referee compare`` plays them). Prints one JSON object: CPU seconds per game (each game, mean,
best) and the process's peak resident memory (``ru_maxrss``) after its games.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from typing import Any

import tomllib
from inputs import check
from referee.core.compare import Stack
from referee.core.game import Game, play, replication_seed
from referee.core.scenario import find_scenario, parse_scenario

ABREAST_YARDS = 200.0  # between the centres of regiments side by side
ROW_YARDS = 150.0  # between rows of one side
MARGIN = 200.0  # yards of map beyond the outermost regiments
COLONEL_YARDS = 40.0  # a colonel stands this far behind his regiment, as in the drill


def scaled(extra: int) -> dict[str, Any]:
    """The drill with ``extra`` more regiments a side, as TOML data."""
    data = tomllib.loads(find_scenario("drill-musketry").read_text())
    sides = data["scenario"]["sides"]
    k = extra + 1  # regiments a side
    wide = math.ceil(math.sqrt(k))
    rows = math.ceil(k / wide)
    # slots of the front row outward from the middle, then the next row, and so on
    order = sorted(range(wide), key=lambda i: (abs(i - (wide - 1) / 2), i))
    slots = [(r, i) for r in range(rows) for i in order][:k]
    width = 2 * MARGIN + (wide - 1) * ABREAST_YARDS
    gap = abs(data["units"][1]["position"][1] - data["units"][0]["position"][1])  # 200 yards: the drill's
    front = {sides[0]: MARGIN + (rows - 1) * ROW_YARDS + COLONEL_YARDS}  # the first side stands at the top, facing down the map
    front[sides[1]] = front[sides[0]] + gap
    back = {sides[0]: -1.0, sides[1]: 1.0}  # which way is "behind" in y
    drill_units = {u["side"] if "side" in u else _side(data, u): u for u in data["units"]}
    drill_objectives = {o["held_by"]: o for o in data["objectives"]}
    units, commands, leaders, objectives, orders = [], [], [], [], []
    for side in sides:
        model, ground = drill_units[side], drill_objectives[side]
        command = next(c for c in data["commands"] if c["id"] == model["command"])
        leader = next(ld for ld in data["leaders"] if ld["command"] == command["id"])
        order = next(o for o in data["orders"] if o["command"] == command["id"])
        for n, (r, i) in enumerate(slots):
            x, y = MARGIN + i * ABREAST_YARDS, front[side] + back[side] * r * ROW_YARDS
            tag = "" if n == 0 else f"-{n}"
            units.append({**model, "id": model["id"] + tag, "name": model["name"] + tag, "command": command["id"] + tag,
                          "position": [x, y]})
            commands.append({**command, "id": command["id"] + tag, "name": command["name"] + tag})
            leaders.append({**leader, "id": leader["id"] + tag, "name": leader["name"] + tag, "command": command["id"] + tag,
                            "position": [x, y + back[side] * COLONEL_YARDS]})
            objectives.append({**ground, "id": ground["id"] + tag, "name": ground["name"] + tag, "position": [x, y]})
            orders.append({**order, "command": command["id"] + tag, "objective": ground["id"] + tag})
    data["scenario"].update(id=f"drill-musketry-{extra}", title=f"{data['scenario']['title']}, {extra} extra regiments a side",
                            width=width, height=front[sides[1]] + (rows - 1) * ROW_YARDS + COLONEL_YARDS + MARGIN)
    data.update(units=units, commands=commands, leaders=leaders, objectives=objectives, orders=orders)
    return data


def _side(data: dict[str, Any], unit: dict[str, Any]) -> str:
    return next(c["side"] for c in data["commands"] if c["id"] == unit["command"])


def to_toml(data: dict[str, Any]) -> str:
    """TOML text of scenario data: tables of plain values and arrays of such tables."""
    out: list[str] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out += [f"[{key}]", *(f"{k} = {_value(v)}" for k, v in value.items()), ""]
    for key, value in data.items():
        if isinstance(value, list):
            for table in value:
                out += [f"[[{key}]]", *(f"{k} = {_value(v)}" for k, v in table.items()), ""]
    return "\n".join(out)


def _value(v: Any) -> str:
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return repr(v)


def measure(rules: str, extra: int, n: int, seed: int) -> dict[str, Any]:
    """Play ``n`` games of the scaled drill in this process."""
    scenario = parse_scenario(to_toml(scaled(extra)), f"<drill-musketry with {extra} extra regiments a side>")
    built = Stack(rules).build()
    gc.disable()
    times, turns = [], []
    for k in range(n):
        start = time.process_time()
        outcome = play(Game.new(built, scenario, replication_seed(seed, k)))
        times.append(time.process_time() - start)
        turns.append(outcome.turns)
    gc.enable()
    return {
        "rules": rules, "extra_regiments_a_side": extra, "units": len(scenario.units), "games": n,
        "cpu_seconds_per_game": [round(t, 3) for t in times],
        "mean_seconds": round(sum(times) / n, 3), "best_seconds": round(min(times), 3), "turns": turns,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="rff,hardtack", help="rulesets, comma-separated")
    parser.add_argument("--sizes", default="10,20,50,100", help="extra regiments a side, comma-separated")
    parser.add_argument("-n", type=int, default=2, help="games per ruleset and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--toml", type=int, metavar="EXTRA", help="print the scenario with EXTRA extra regiments a side, and stop")
    parser.add_argument("--one", nargs=2, metavar=("RULES", "EXTRA"), help=argparse.SUPPRESS)  # (a child's run)
    args = parser.parse_args()
    check(args.one[:1] if args.one else args.rules.split(","))
    if args.toml is not None:
        print(to_toml(scaled(args.toml)))
        return
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]), args.n, args.seed)))
        return
    runs = []
    for rules in args.rules.split(","):
        for extra in (int(s) for s in args.sizes.split(",")):
            child = subprocess.run([sys.executable, __file__, "--one", rules, str(extra), "-n", str(args.n), "--seed", str(args.seed)],
                                   check=True, capture_output=True, text=True)
            runs.append(json.loads(child.stdout))
            print(json.dumps(runs[-1]), file=sys.stderr)
    print(json.dumps({
        "benchmark": "bench_scale", "date": time.strftime("%Y-%m-%d %H:%M"), "runs": runs,
        "cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine(),
    }, indent=2))


if __name__ == "__main__":
    main()
