"""The long fuzz profile: thousands of mutated scenarios and command lines, each run as its own
``referee`` process under a time and a memory limit.

    python tools/fuzz.py [--scenarios 3000] [--cli 200] [--jobs 2] [--seed 1] [--timeout 20] [--memory-mb 1024]

Cases come from the Hypothesis strategies of tests/strategies.py (the short profile,
tests/test_fuzz.py, draws from the same ones in process). Each mutated scenario is played under
every installed base ruleset. A run ends in one of: ``ok`` (exit 0), ``refused`` (exit 2 with an
"Error:" message), ``traceback``, ``hang`` (past the time limit), ``memory`` (a MemoryError, or
killed, under the memory limit) or ``other`` (any other exit). The audits' reproducers that are
command lines (:func:`reproducers`) run too, every time. Prints a JSON summary; the cases that did
not end ok or refused are written to ``--keep`` for reproduction, and the exit code is 1 if there
were any. docs/reliability.md records the last result.
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
from referee.core.cli.launch import main
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


FIXTURES = ROOT / "tests" / "fixtures" / "reliability"
GONE = "gone"  # a folder on PYTHONPATH holding an installed package whose module has gone


def reproducers(work: Path) -> list[list[str]]:
    """The reproducers of the audits' defects that are command lines (the scenario files among
    them go through ``run`` like the fuzzed ones): each must end ok or refused, at once."""
    drill = (ROOT / "scenarios" / "drill-musketry.toml").read_text(encoding="utf-8")
    anchor = 'sides = ["union", "confederate"]'
    (work / "q1_options.toml").write_text(drill.replace(anchor, anchor + "\noptions = [" + ",".join(['""'] * 480_000) + "]"), encoding="utf-8")
    (work / "q1_escapes.toml").write_text(drill.replace('summary = "', 'summary = "' + '\\"' * 950_000, 1), encoding="utf-8")
    info = work / GONE / "referee_gone_rule-0.1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: referee-gone-rule\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[referee.rulesets]\ngone-rule = referee_gone_rule_module\n", encoding="utf-8")
    houses = FIXTURES / "house_rules"
    return [
        ["run", "q1_options.toml", "--rules", "rff", "--quiet"],  # Q1: refused in about a second
        ["run", "q1_escapes.toml", "--rules", "rff", "--quiet"],
        *(["run", "drill-charge-battery", "--rules", r, "--quiet", "--house-rule", str(houses / f"h1_overlay_{v}.toml")]
          for r in ("rff", "hynds") for v in ("nan", "inf")),  # H1
        ["tables", "rff", "maneuver-modifiers", "--house-rule", str(houses / "h1_overlay_inf.toml")],
        ["report", str(FIXTURES / "r1_unit_name_html_comment_script.toml"), "--rules", "rff,hynds", "-n", "1", "--workers", "1",
         "-o", "r1.html"],  # R1
        ["new-house-rule", "my-rule", "--base", "rff", "--dir", "/proc"],  # N1
        ["new-house-rule", "my-rule", "--base", "rff", "--dir", "/dev/null"],
        ["new-house-rule", "x" * 256, "--base", "rff"],
        ["new-house-rule", "my-rule", "--base", "rff", "--dir", "y" * 300],
        ["run", "drill-musketry", "--rules", "rff", "--quiet", "--log", ""],  # L2
        ["compare", "drill-musketry", "--rules", "rff", "-n", "1", "--out", ""],
        ["report", "drill-musketry", "--rules", "rff", "-n", "1", "-o", ""],
        ["compare", "drill-musketry", "--rules", "", "-n", "1"],  # L4
        ["history", "--rules", ",", "-n", "1"],
        ["situation", "--rules", " ", "-n", "1"],
        [f"env:{GONE}", "rulesets"],  # an installed house rule whose module has gone
        [f"env:{GONE}", "run", "drill-musketry", "--rules", "gone-rule", "--quiet"],
        [f"env:{GONE}", "compare", "drill-musketry", "-n", "1", "--workers", "1"],
        [f"env:{GONE}", "situation", "-n", "1"],
    ]


def run(args: list[str], folder: Path, timeout: float, memory: int) -> dict[str, Any]:
    """One ``referee`` process in ``folder``; what became of it. A first argument ``env:DIR``
    puts ``folder/DIR`` on the process's PYTHONPATH."""
    start = time.perf_counter()
    env = dict(os.environ)
    if args and args[0].startswith("env:"):
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder / args[0][4:]), env.get("PYTHONPATH")]))
        args = args[1:]
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, str(memory), *args], cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True, env=env)
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

    from referee.core.engine.plugins import installed, load_named

    rulesets = sorted(name for name in installed() if getattr(load_named(name), "BASE", None) is None)
    started = time.perf_counter()
    texts = draw(mutated_scenarios(bundled_texts()), options.scenarios, options.seed)
    commands = draw(cli_arguments(), options.cli, options.seed)
    work = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    cases = []
    for i, text in enumerate(texts):
        (work / f"s{i}.toml").write_text(text, encoding="utf-8")
        cases += [["run", f"s{i}.toml", "--rules", rules, "--seed", "1", "--quiet"] for rules in rulesets]
    cases += commands
    repros = reproducers(work)
    cases += repros
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
    scenario_runs = results[: len(results) - len(commands) - len(repros)]
    cli_runs = results[len(scenario_runs): len(results) - len(repros)]
    repro_runs = results[len(results) - len(repros):]
    print(json.dumps({
        "scenarios": len(texts), "rulesets": rulesets, "scenario_runs": dict(Counter(r["end"] for r in scenario_runs)),
        "cli_cases": len(commands), "cli_runs": dict(Counter(r["end"] for r in cli_runs)),
        "reproducers": len(repros), "reproducer_runs": dict(Counter(r["end"] for r in repro_runs)),
        "slowest_seconds": max(r["seconds"] for r in results),
        "largest_stderr_bytes": max(r.get("stderr_bytes", 0) for r in results),
        "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
        "limits": {"seconds": options.timeout, "memory_mb": options.memory_mb}, "seed": options.seed,
        "minutes": round((time.perf_counter() - started) / 60, 1), "failed_cases_in": str(options.keep),
        "python": platform.python_version(), "cpus": os.cpu_count(),
    }, indent=2))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
