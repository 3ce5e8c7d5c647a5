"""Time and memory per game as the musketry drill grows: extra 500-man regiments a side.

    python benchmarks/bench_scale.py [--rules rff,hardtack] [--sizes 10,20,50,100] [--layout open,crowded] [-n 2] [--seed 1]
    python benchmarks/bench_scale.py --rules sumter --sizes 10,200,800 --layout open,crowded -n 1   # the scaling figures
    python benchmarks/bench_scale.py --rules sumter --sizes 200,800 --layout open,crowded -n 1 --instructions   # in instructions
    python benchmarks/bench_scale.py --toml 50 [--layout crowded] > drill-musketry-50.toml   # the scenario, to play or profile

The scenario is built in memory from ``scenarios/drill-musketry.toml``: the drill's pair of
regiments is repeated, each extra regiment a copy of its side's one (500 men, rifle-muskets,
trained, in line), with its own brigade, average colonel just behind it and ground to defend,
as the drill's own. Each side stands in a block of regiments about as wide as it is deep: rows
of ``ceil(sqrt(k))`` regiments 200 yards apart (centre to centre; a 500-man line is about 150
yards long), further rows 150 yards behind, the drill's regiment in the middle of the front row,
the two front rows 200 yards apart as in the drill. The map is widened to hold them with 200
yards to spare on every side. Victory is the drill's (its two grounds, half the men lost).
The crowded layout packs the same regiments four times closer (50 yards abreast, 40 between
rows: lines overlap, as troops massed on a narrow front), the two fronts still 200 yards apart.

Each ruleset and size is played in a fresh process (no memo carried over from another size):
``-n`` games with the replication seeds of ``--seed``, log off, collector off (as
``referee compare`` plays them). Prints one JSON object: CPU seconds per game (each game, mean,
best) and the process's peak resident memory (``ru_maxrss``) after its games, and for each
ruleset and layout the growth of the mean time a game from the smallest size of at least 200
extra regiments to the largest (the target: at most 5x for 4x the units, 200 to 800).
``--instructions``: each size's process is also run under valgrind's cachegrind twice, playing
``-n`` games and none (``PYTHONHASHSEED=0``), and the growth is of the difference a game
(instructions, which the machine's load does not move; about 50 times slower).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import re
import resource
import subprocess
import sys
import time
from typing import Any

import tomllib
from inputs import at_least, check
from referee.core.engine import reading
from referee.core.engine.game import Game, play, replication_seed
from referee.core.input.scenario import find_scenario, parse_scenario
from referee.core.studies.compare import Stack

LAYOUTS = {"open": (200.0, 150.0), "crowded": (50.0, 40.0)}  # yards between the centres of regiments side by side, and between rows
MARGIN = 200.0  # yards of map beyond the outermost regiments
COLONEL_YARDS = 40.0  # a colonel stands this far behind his regiment, as in the drill


def scaled(extra: int, layout: str = "open") -> dict[str, Any]:
    """The drill with ``extra`` more regiments a side, as TOML data, in ``layout`` (:data:`LAYOUTS`)."""
    abreast, row = LAYOUTS[layout]
    data = tomllib.loads(find_scenario("drill-musketry").read_text())
    sides = data["scenario"]["sides"]
    k = extra + 1  # regiments a side
    wide = math.ceil(math.sqrt(k))
    rows = math.ceil(k / wide)
    # slots of the front row outward from the middle, then the next row, and so on
    order = sorted(range(wide), key=lambda i: (abs(i - (wide - 1) / 2), i))
    slots = [(r, i) for r in range(rows) for i in order][:k]
    width = 2 * MARGIN + (wide - 1) * abreast
    gap = abs(data["units"][1]["position"][1] - data["units"][0]["position"][1])  # 200 yards: the drill's
    front = {sides[0]: MARGIN + (rows - 1) * row + COLONEL_YARDS}  # the first side stands at the top, facing down the map
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
            x, y = MARGIN + i * abreast, front[side] + back[side] * r * row
            tag = "" if n == 0 else f"-{n}"
            units.append({**model, "id": model["id"] + tag, "name": model["name"] + tag, "command": command["id"] + tag,
                          "position": [x, y]})
            commands.append({**command, "id": command["id"] + tag, "name": command["name"] + tag})
            leaders.append({**leader, "id": leader["id"] + tag, "name": leader["name"] + tag, "command": command["id"] + tag,
                            "position": [x, y + back[side] * COLONEL_YARDS]})
            objectives.append({**ground, "id": ground["id"] + tag, "name": ground["name"] + tag, "position": [x, y]})
            orders.append({**order, "command": command["id"] + tag, "objective": ground["id"] + tag})
    data["scenario"].update(id=f"drill-musketry-{extra}" + ("" if layout == "open" else f"-{layout}"), title=f"{data['scenario']['title']}, {extra} extra regiments a side",
                            width=width, height=front[sides[1]] + (rows - 1) * row + COLONEL_YARDS + MARGIN)
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


def measure(rules: str, extra: int, n: int, seed: int, layout: str = "open") -> dict[str, Any]:
    """Play ``n`` games of the scaled drill in this process (over 499 extra regiments a side, past
    the 1,000 items a scenario's array may hold: a guard on users' files, lifted here)."""
    reading.ITEMS = max(reading.ITEMS, 2 * extra + 2)
    scenario = parse_scenario(to_toml(scaled(extra, layout)), f"<drill-musketry with {extra} extra regiments a side, {layout}>")
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
        "rules": rules, "layout": layout, "extra_regiments_a_side": extra, "units": len(scenario.units), "games": n,
        "cpu_seconds_per_game": [round(t, 3) for t in times],
        "mean_seconds": round(sum(times) / max(n, 1), 3), "best_seconds": round(min(times, default=0.0), 3), "turns": turns,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def instructions(command: list[str]) -> int:
    """Instructions cachegrind counts running ``command`` (``PYTHONHASHSEED=0``)."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
                          capture_output=True, text=True, check=False, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"cachegrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="rff,hardtack", help="rulesets, comma-separated")
    parser.add_argument("--sizes", default="10,20,50,100", help="extra regiments a side, comma-separated")
    parser.add_argument("--layout", default="open", help="layouts, comma-separated: " + ", ".join(LAYOUTS))
    parser.add_argument("-n", type=at_least(0), default=2, help="games per ruleset, layout and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--toml", type=int, metavar="EXTRA", help="print the scenario with EXTRA extra regiments a side, and stop")
    parser.add_argument("--instructions", action="store_true", help="also count instructions a game (cachegrind) and grow by them")
    parser.add_argument("--one", nargs=2, metavar=("RULES", "EXTRA"), help=argparse.SUPPRESS)  # (a child's run)
    args = parser.parse_args()
    if args.n < 1 and not args.one:  # (a child may play none: --instructions counts its start-up so)
        parser.error(f"argument -n: expected a whole number >= 1, got '{args.n}'")
    check(args.one[:1] if args.one else args.rules.split(","))
    layouts = args.layout.split(",")
    if unknown := [name for name in layouts if name not in LAYOUTS]:
        parser.error(f"--layout: unknown {', '.join(unknown)} (known: {', '.join(LAYOUTS)})")
    if args.toml is not None:
        print(to_toml(scaled(args.toml, layouts[0])))
        return
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]), args.n, args.seed, layouts[0])))
        return
    runs, growth = [], {}
    sizes = [int(s) for s in args.sizes.split(",")]
    for rules in args.rules.split(","):
        for layout in layouts:
            mine = []
            for extra in sizes:
                command = [sys.executable, __file__, "--one", rules, str(extra), "--seed", str(args.seed), "--layout", layout]
                child = subprocess.run([*command, "-n", str(args.n)], check=True, capture_output=True, text=True)
                mine.append(json.loads(child.stdout))
                if args.instructions:
                    mine[-1]["instructions_per_game"] = (instructions([*command, "-n", str(args.n)])
                                                         - instructions([*command, "-n", "0"])) // max(args.n, 1)
                print(json.dumps(mine[-1]), file=sys.stderr)
            runs += mine
            big = [r for r in mine if r["extra_regiments_a_side"] >= 200]
            key = "instructions_per_game" if args.instructions else "mean_seconds"
            if len(big) >= 2 and big[0][key] > 0:
                growth[f"{rules} {layout} {big[0]['extra_regiments_a_side']} to {big[-1]['extra_regiments_a_side']}"] = round(
                    big[-1][key] / big[0][key], 2)
    print(json.dumps({
        "benchmark": "bench_scale", "date": time.strftime("%Y-%m-%d %H:%M"), "runs": runs, "growth": growth,
        "cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine(),
    }, indent=2))


if __name__ == "__main__":
    main()
