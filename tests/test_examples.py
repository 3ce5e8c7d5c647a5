"""The example house rules in examples/house_rules/ load from the command line and change play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "house_rules"
SCENARIO = "drill-charge-battery"


def run(tmp_path: Path, seed: int, house_rule: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``referee run drill-charge-battery --rules rff [--house-rule FILE] --seed N --json --log F``:
    the outcome and the logged resolutions."""
    log = tmp_path / f"{house_rule or 'rff'}-{seed}.jsonl"
    args = ["run", SCENARIO, "--rules", "rff", "--seed", str(seed), "--json", "--log", str(log)]
    if house_rule:
        args += ["--house-rule", str(EXAMPLES / house_rule)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return json.loads(result.output), [e for e in events if e["kind"] == "resolution"]


def first_seed(predicate: Any, limit: int = 3000) -> int:
    """The first seed whose plain rff game logs a resolution that satisfies ``predicate``."""
    rules, scenario = build_rules("rff"), load_scenario(find_scenario(SCENARIO))
    for seed in range(1, limit):
        log = EventLog(enabled=True)
        play(Game.new(rules, scenario, seed, log))
        if any(e["kind"] == "resolution" and predicate(e) for e in log.events):
            return seed
    raise AssertionError(f"no seed below {limit} gives the situation the house rule changes")


def test_double_canister_adds_a_cited_modifier_to_close_range_cannonade(tmp_path: Path) -> None:
    cited: list[dict[str, Any]] = []
    for seed in range(1, 21):  # the battery fires canister in most games; stop at the first
        outcome, resolutions = run(tmp_path, seed, "double_canister.py")
        assert outcome["ruleset"] == "rff+double_canister"
        cited = [e for e in resolutions if any(m["name"] == "Double canister (house rule)" for m in e["modifiers"])]
        if cited:
            break
    assert cited, "the house rule's modifier never appears in the log"
    plain_outcome, plain = run(tmp_path, seed)
    for e in cited:
        assert e["mechanic"] == "cannonade" and e["inputs"]["target_is_guns"] is False
        modifier = next(m for m in e["modifiers"] if m["name"] == "Double canister (house rule)")
        assert modifier == {"name": "Double canister (house rule)", "value": 1, "on": "die",
                            "ref": "house rule: examples/house_rules/double_canister.py"}
        assert e["total"] == sum(e["dice"]) + sum(m["value"] for m in e["modifiers"] if m["on"] == "die")
    assert not any(m["name"].startswith("Double canister") for e in plain for m in e["modifiers"])
    assert plain_outcome["ruleset"] == "rff"


def test_no_desperate_struggle_turns_a_level_combat_into_hard_pressed(tmp_path: Path) -> None:
    seed = first_seed(lambda e: e["mechanic"] == "charge" and e["values"]["effect"] == "desperate-struggle")
    _, plain = run(tmp_path, seed)
    outcome, resolutions = run(tmp_path, seed, "no_desperate_struggle.py")
    assert outcome["ruleset"] == "rff+no_desperate_struggle"
    struggle = next(e for e in plain if e["mechanic"] == "charge" and e["values"]["effect"] == "desperate-struggle")
    assert not any(e["mechanic"] == "charge" and e["values"]["effect"] == "desperate-struggle" for e in resolutions)
    replaced = [e for e in resolutions if "house rule no_desperate_struggle" in e["ref"]]
    assert replaced, "the house rule never replaced a result"
    first = replaced[0]
    # the same roll as the plain game's first struggle (nothing differs before it), read differently
    assert (first["dice"], first["total"], first["seq"]) == (struggle["dice"], struggle["total"], struggle["seq"])
    assert first["result"] == "Hard Pressed"
    assert first["values"]["effect"] == "hard-pressed" and first["values"]["reroll"] is False
    assert first["values"]["attacker_carries"] == "yes"
