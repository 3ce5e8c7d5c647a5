"""`referee resolve hardtack` and `referee run ... --rules hardtack` at the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main

MECHANICS = {"fire", "confidence", "reaction", "close-assault", "shot", "canister", "combat-move", "regimental-combat-move"}


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_resolve_list() -> None:
    code, out = invoke("resolve", "hardtack", "--list", "--json")
    assert code == 0, out
    listed = {m["mechanic"]: m for m in json.loads(out)}
    assert MECHANICS <= set(listed)
    assert {"quality", "firepower", "range", "cover", "formation", "target_formation", "weapon"} <= set(listed["fire"]["inputs"])
    code, text = invoke("resolve", "hardtack", "--list")
    assert code == 0 and "fire" in text and "close-assault" in text


def test_fire_exact_json_shape() -> None:
    code, out = invoke("resolve", "hardtack", "fire", "--exact", "--json", "--set", "quality=d8", "--set", "firepower=6",
                       "--set", "range=10", "--set", "cover=soft")
    assert code == 0, out
    data = json.loads(out)
    assert data["ruleset"] == "hardtack" and data["mechanic"] == "fire"
    assert data["inputs"]["cover"] == "soft" and data["inputs"]["quality"] == "d8"
    outcomes = data["outcomes"]
    assert sum(Fraction(o["probability"]) for o in outcomes) == 1
    for o in outcomes:
        v = o["values"]
        assert {"over", "wounded", "killed"} <= set(v)
        assert v["over"] in (0, 1, 2) and v["wounded"] >= 0 and v["killed"] >= 0
        assert v["wounded"] + v["killed"] <= v["potential"]
        assert v["over"] == 2 or v["potential"] == 0
    assert {o["values"]["over"] for o in outcomes} == {0, 1, 2}


def test_confidence_seeded_roll_is_cited_and_repeatable() -> None:
    args = ("resolve", "hardtack", "confidence", "--seed", "3", "--json", "--set", "quality=d8", "--set", "leadership=2", "--set", "threat=1")
    code, out = invoke(*args)
    assert code == 0, out
    data = json.loads(out)
    assert data["values"]["target"] == 3 and len(data["dice"]) == 1
    assert data["values"]["passed"] == (data["dice"][0] > 3)
    assert "HT-C1" in data["rulings"] and "Hardtack" in data["ref"]
    assert invoke(*args) == (code, out)


@pytest.mark.parametrize(("setting", "message"), [
    ("quality=d14", "'d14' is not one of d4, d6, d8, d10, d12"),
    ("range=-3", "range: -3 is below the minimum 0"),
    ("weapon=blunderbuss", "'blunderbuss' is not one of"),
])
def test_bad_inputs_exit_2_with_a_clear_message(setting: str, message: str) -> None:
    code, out = invoke("resolve", "hardtack", "fire", "--seed", "1", "--set", "firepower=3", "--set", "range=5", "--set", setting)
    assert code == 2
    assert message in out and "--set" in out


def test_run_names_the_initiative_roll() -> None:
    code, out = invoke("run", "drill-musketry", "--rules", "hardtack", "--seed", "7")
    assert code == 0, out
    assert "ruling HT-T1" in out and "activates first" in out
