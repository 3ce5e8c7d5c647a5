"""Same scenario + rule stack + seed = the same log, byte for byte, on any machine.

Golden logs: ``tests/golden/<scenario>-<ruleset>-seed<seed>.jsonl`` hold the JSON Lines log of
a game played with the code as it was when they were written, and are compared byte for byte with
a freshly played game. When a change to a ruleset is *meant* to change how games play, rewrite
them and review the diff like any other change::

    REFEREE_UPDATE_GOLDEN=1 pytest tests/test_determinism.py

Comparisons are deterministic whatever the worker count, and replication ``k`` draws from the
same seed under every rule stack (common random numbers).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine.events import EventLog, narrate
from referee.core.engine.game import Game, play, replication_seed
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from referee.core.studies.compare import Stack, run_replications, summarise
from scripts import ROOT, load_script

GOLDEN = Path(__file__).parent / "golden"
GOLDENS = [("drill-musketry", "rff", 7), ("big-bethel", "rff", 7), ("drill-musketry", "hardtack", 7), ("big-bethel", "hynds", 7)]
SCENARIOS = [sid for sid, _, _ in bundled()]
NOOP_HOUSE_RULE = '''\
"""A house rule that changes nothing: its games must be the base ruleset's games."""
from referee.core.engine.hookspecs import hookimpl

BASE = "any"


@hookimpl
def referee_end_turn(game):
    pass
'''


def played(scenario_id: str, ruleset: str, seed: int, house_rules: tuple[str, ...] = ()) -> EventLog:
    log = EventLog(enabled=True)
    play(Game.new(build_rules(ruleset, (), house_rules), load_scenario(find_scenario(scenario_id)), seed, log))
    return log


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_same_seed_same_log_and_narration(scenario_id: str) -> None:
    first, second = played(scenario_id, "rff", 7), played(scenario_id, "rff", 7)
    assert first.jsonl().encode() == second.jsonl().encode()
    assert [narrate(e) for e in first.events] == [narrate(e) for e in second.events]
    assert any(e["kind"] == "resolution" for e in first.events)


@pytest.mark.parametrize("scenario_id", ["drill-musketry", "big-bethel"])
def test_the_seed_matters(scenario_id: str) -> None:
    assert played(scenario_id, "rff", 7).jsonl() != played(scenario_id, "rff", 8).jsonl()


def test_the_narrated_game_is_the_same_twice() -> None:
    args = ["run", "drill-charge-battery", "--rules", "rff", "--seed", "5"]
    first, second = CliRunner().invoke(main, args), CliRunner().invoke(main, args)
    assert first.exit_code == second.exit_code == 0
    assert "dice" in first.stdout and first.stdout == second.stdout


def test_log_is_the_same_under_any_hash_seed(tmp_path: Path) -> None:
    """Two processes with different string hashing (set and dict order of str keys) write the same bytes."""
    logs = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"h{hash_seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(
            [sys.executable, "-c", "from referee.core.cli.cli import main; main()",
             "run", "big-bethel", "--rules", "rff", "--seed", "7", "--quiet", "--log", str(path)],
            env=env, check=True, capture_output=True,
        )
        logs.append(path.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0] == played("big-bethel", "rff", 7).jsonl().encode()  # and the same as in this process


@pytest.mark.parametrize(("scenario_id", "ruleset", "seed"), GOLDENS)
def test_golden_log(scenario_id: str, ruleset: str, seed: int) -> None:
    path = GOLDEN / f"{scenario_id}-{ruleset}-seed{seed}.jsonl"
    fresh = played(scenario_id, ruleset, seed).jsonl().encode()
    if os.environ.get("REFEREE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(fresh)
    assert path.exists(), f"{path} is missing; write it with REFEREE_UPDATE_GOLDEN=1"
    golden = path.read_bytes()
    if fresh != golden:
        old, new = golden.decode().splitlines(), fresh.decode().splitlines()
        first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        pytest.fail(
            f"{path.name}: the game played differently from line {first + 1} "
            f"({len(old)} lines golden, {len(new)} now).\n"
            f"  golden: {old[first] if first < len(old) else '<end>'}\n"
            f"  now:    {new[first] if first < len(new) else '<end>'}\n"
            "If the change is intended, rewrite with REFEREE_UPDATE_GOLDEN=1 and review the diff."
        )


def test_cli_log_is_the_golden_log(tmp_path: Path) -> None:
    """What a user gets from ``referee run --log`` is the log the golden test checks."""
    path = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["run", "drill-musketry", "--rules", "rff", "--seed", "7", "--quiet", "--log", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == played("drill-musketry", "rff", 7).jsonl().encode()


def test_replications_do_not_depend_on_the_worker_count() -> None:
    stack, path = Stack("rff"), str(find_scenario("big-bethel"))
    one, interrupted_one = run_replications(stack, path, 60, 11, workers=1)
    two, interrupted_two = run_replications(stack, path, 60, 11, workers=2)
    assert not interrupted_one and not interrupted_two
    assert len(one) == 60
    assert one == two
    assert [o.seed for o in one] == [replication_seed(11, k) for k in range(60)]
    assert len({(o.winner, o.men_lost["union"], o.men_lost["confederate"]) for o in one}) > 1  # not one game 60 times
    scenario = load_scenario(find_scenario("big-bethel"))
    assert summarise(one, scenario) == summarise(two, scenario)


def test_replication_k_uses_the_same_seed_under_every_rule_stack(tmp_path: Path) -> None:
    house_rule = tmp_path / "noop.py"
    house_rule.write_text(NOOP_HOUSE_RULE)
    path = str(find_scenario("drill-musketry"))
    base, _ = run_replications(Stack("rff"), path, 10, 5, workers=1)
    layered, _ = run_replications(Stack("rff", (), (str(house_rule),)), path, 10, 5, workers=1)
    assert {o.ruleset for o in base} == {"rff"} and {o.ruleset for o in layered} == {"rff+noop"}
    assert [o.seed for o in base] == [o.seed for o in layered] == [replication_seed(5, k) for k in range(10)]
    # a house rule that changes nothing plays exactly the same games, replication by replication
    strip = [(o.winner, o.reason, o.minutes, o.men_lost, o.guns_lost) for o in base]
    assert strip == [(o.winner, o.reason, o.minutes, o.men_lost, o.guns_lost) for o in layered]


def test_replication_seeds_are_distinct() -> None:
    seeds = {replication_seed(s, k) for s in range(5) for k in range(200)}
    assert len(seeds) == 1000
    assert all(0 <= x < 2**64 for x in seeds)
    assert replication_seed(3, 4) == replication_seed(3, 4)


@pytest.mark.parametrize("was_on", [True, False])
def test_replicate_gives_the_garbage_collector_back_as_it_found_it(was_on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games run with the cyclic collector off (a speed-up); afterwards, even after a game
    fails, it is on again only if it was on before."""
    import gc

    from referee.core.studies import compare as compare_module

    def failing(game: object) -> None:
        assert not gc.isenabled()
        raise RuntimeError("a game went wrong")

    monkeypatch.setattr(compare_module, "play", failing)
    (gc.enable if was_on else gc.disable)()
    try:
        with pytest.raises(RuntimeError):
            compare_module.replicate(Stack("rff"), str(find_scenario("drill-musketry")), 1, [0])
        assert gc.isenabled() is was_on
    finally:
        gc.enable()


def test_the_log_fingerprint_tool_hashes_the_log_a_run_writes() -> None:
    """tools/log_fingerprint.py, the check that a speed change left play alone, reads the same
    log `referee run --log` writes (the golden file of that game)."""
    tool = load_script("tools/log_fingerprint.py")
    golden = (GOLDEN / "big-bethel-rff-seed7.jsonl").read_bytes()
    assert tool.fingerprint("rff", "big-bethel", 7) == hashlib.sha256(golden).hexdigest()[:16]
    assert tool.fingerprint("rff", "big-bethel", 8) != tool.fingerprint("rff", "big-bethel", 7)


def test_the_log_off_fingerprint_hashes_what_compare_plays_on_any_number_of_workers() -> None:
    """The tool's log-off line hashes the outcomes `referee compare` gets, on two workers as on
    one, and another replication count gives another line."""
    tool = load_script("tools/log_fingerprint.py")
    outcomes, _ = run_replications(Stack("hynds"), "drill-musketry", 6, seed=1, workers=2)
    digest = hashlib.sha256(b"".join(json.dumps(o.as_json(), sort_keys=True).encode() for o in outcomes))
    assert tool.outcomes_fingerprint("hynds", "drill-musketry", 6) == digest.hexdigest()[:16]
    assert tool.outcomes_fingerprint("hynds", "drill-musketry", 5) != digest.hexdigest()[:16]


@pytest.mark.parametrize("script, args", [
    ("benchmarks/bench_compare.py", ["--rules", "nope"]),
    ("benchmarks/bench_compare.py", ["--scenario", "nowhere"]),
    ("benchmarks/bench_exact.py", ["--rules", "nope"]),
    ("benchmarks/bench_scale.py", ["--rules", "rff,nope"]),
    ("benchmarks/instructions.py", ["--rules", "nope"]),
    ("benchmarks/bytecodes.py", ["--scenario", "nowhere"]),
    ("tools/log_fingerprint.py", ["--rules", "nope"]),
])
def test_the_speed_scripts_refuse_an_unknown_name_in_one_line(script: str, args: list[str]) -> None:
    """A benchmark or the fingerprint tool asked about a ruleset or scenario that does not exist
    says so in one line and exits with code 2, before any game and without a traceback."""
    done = subprocess.run([sys.executable, str(ROOT / script), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: unknown ") and "Traceback" not in done.stderr
