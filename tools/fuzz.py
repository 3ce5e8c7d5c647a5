"""The long fuzz profile: thousands of mutated scenarios and command lines, each run as its own
``referee`` process under a time and a memory limit.

    python tools/fuzz.py [--scenarios 3000] [--cli 200] [--jobs 2] [--seed 1] [--timeout 20] [--memory-mb 1024]

Cases come from the Hypothesis strategies of tests/strategies.py (the short profile,
tests/test_fuzz.py, draws from the same ones in process). Each mutated scenario is played under
every installed base ruleset. A run ends in one of: ``ok`` (exit 0), ``refused`` (exit 2 with an
"Error:" message), ``traceback``, ``hang`` (past the time limit), ``memory`` (a MemoryError, or
killed, under the memory limit) or ``other`` (any other exit). Prints a JSON summary; the cases
that did not end ok or refused are written to ``--keep`` for reproduction. docs/reliability.md
records the last result.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings
from strategies import bundled_texts, cli_arguments, mutated_scenarios

LAUNCH = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
del sys.argv[1]
from referee.core.launch import main
main()
"""


def draw(strategy: Any, count: int, at: int) -> list[Any]:
    """``count`` examples of ``strategy`` (Hypothesis's generation only, from seed ``at``)."""
    found: list[Any] = []

    @seed(at)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found


def run(args: list[str], folder: Path, timeout: float, memory: int) -> dict[str, Any]:
    """One ``referee`` process in ``folder``; what became of it."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, str(memory), *args], cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        _, err_bytes = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.communicate()
        return {"end": "hang", "seconds": timeout, "args": args}
    seconds, err, code = time.perf_counter() - start, err_bytes.decode(errors="replace"), process.returncode
    if "MemoryError" in err or code in (-9, 137):
        end = "memory"
    elif "Traceback" in err:
        end = "traceback"
    elif code == 0:
        end = "ok"
    elif code == 2 and "Error:" in err:
        end = "refused"
    else:
        end = "other"
    return {"end": end, "seconds": round(seconds, 2), "code": code, "stderr_bytes": len(err_bytes), "args": args,
            "stderr": err[-2000:] if end not in ("ok", "refused") else ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=3000)
    parser.add_argument("--cli", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--memory-mb", type=int, default=1024)
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "referee-fuzz")
    options = parser.parse_args()

    from referee.core.cli import _is_base
    from referee.core.plugins import installed

    rulesets = sorted(name for name in installed() if _is_base(name))
    started = time.perf_counter()
    texts = draw(mutated_scenarios(bundled_texts()), options.scenarios, options.seed)
    commands = draw(cli_arguments(), options.cli, options.seed)
    work = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    cases = []
    for i, text in enumerate(texts):
        (work / f"s{i}.toml").write_text(text, encoding="utf-8")
        cases += [["run", f"s{i}.toml", "--rules", rules, "--seed", "1", "--quiet"] for rules in rulesets]
    cases += commands
    memory = options.memory_mb * 2**20
    with ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(lambda args: run(args, work, options.timeout, memory), cases))

    failed = [r for r in results if r["end"] not in ("ok", "refused")]
    options.keep.mkdir(parents=True, exist_ok=True)
    for n, r in enumerate(failed):
        scenario = next((a for a in r["args"] if a.endswith(".toml") and (work / a).is_file()), None)
        if scenario:
            (options.keep / f"case{n}.toml").write_text((work / scenario).read_text(encoding="utf-8"), encoding="utf-8")
    (options.keep / "failed.json").write_text(json.dumps(failed, indent=2), encoding="utf-8")
    scenario_runs, cli_runs = results[: len(results) - len(commands)], results[len(results) - len(commands):]
    print(json.dumps({
        "scenarios": len(texts), "rulesets": rulesets, "scenario_runs": dict(Counter(r["end"] for r in scenario_runs)),
        "cli_cases": len(commands), "cli_runs": dict(Counter(r["end"] for r in cli_runs)),
        "slowest_seconds": max(r["seconds"] for r in results),
        "largest_stderr_bytes": max(r.get("stderr_bytes", 0) for r in results),
        "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
        "limits": {"seconds": options.timeout, "memory_mb": options.memory_mb}, "seed": options.seed,
        "minutes": round((time.perf_counter() - started) / 60, 1), "failed_cases_in": str(options.keep),
        "python": platform.python_version(), "cpus": os.cpu_count(),
    }, indent=2))


if __name__ == "__main__":
    main()
