"""Every command's ``--json`` (and ``compare --out``) has the shape docs/json.md documents: the
real output is validated against ``referee.core.cli.schemas.SCHEMAS``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.cli.schemas import SCHEMAS, problems

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "rulesets": ("rulesets",),
    "scenarios": ("scenarios",),
    "run": ("run", "drill-charge-battery", "--rules", "hardtack", "--seed", "3"),
    "compare": ("compare", "big-bethel", "--rules", "rff,sumter", "-n", "3", "--workers", "1"),
    "compare --baseline": ("compare", "drill-musketry", "--rules", "rff,hynds", "--baseline", "rff", "-n", "3", "--workers", "1"),
    "history": ("history", "big-bethel", "valverde", "--rules", "rff", "-n", "1", "--workers", "1"),
    "explain": ("explain", "drill-charge-battery", "--rules", "rff,hardtack", "-n", "2", "--workers", "1"),
    "situation": ("situation", "-n", "3", "--set", "charge=true", "--set", "range=100"),
    "resolve --seed": ("resolve", "hardtack", "fire", "--seed", "2", "--set", "firepower=4", "--set", "range=10"),
    "resolve --exact": ("resolve", "rff", "charge", "--exact"),
    "resolve --list": ("resolve", "sumter", "--list"),
    "tables": ("tables", "hynds"),
    "tables --diff": ("tables", "hynds", "--diff", "rff"),
}


def output(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("name", list(CASES))
def test_the_json_of_each_command_has_its_documented_shape(name: str) -> None:
    data = output(*CASES[name])
    assert problems(data, SCHEMAS[name]) == []


def test_every_command_has_a_schema_and_a_section_in_docs_json() -> None:
    doc = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    for name in SCHEMAS:
        assert f"### `{name}`" in doc, name
    with_json = {name for name, command in main.commands.items() if any(p.name == "as_json" for p in command.params)}
    assert {name.split()[0] for name in SCHEMAS} == with_json


def test_compare_out_and_report_have_the_same_shapes(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    output("compare", "drill-musketry", "--rules", "hardtack", "-n", "2", "--workers", "1", "--out", str(out))
    assert problems(json.loads(out.read_text(encoding="utf-8")), SCHEMAS["compare"]) == []
    data = output("draw", "drill-musketry", "-o", str(tmp_path / "d.svg"))
    assert problems(data, SCHEMAS["draw"]) == []
    page = tmp_path / "r.html"
    data = output("report", "drill-musketry", "--rules", "rff", "-n", "1", "--workers", "1", "-o", str(page))
    assert problems(data, SCHEMAS["report"]) == []


@pytest.mark.parametrize("change, said", [
    (lambda d: d.pop("seed"), "missing key 'seed'"),
    (lambda d: d.update(surprise=1), "unexpected key 'surprise'"),
    (lambda d: d["rulesets"]["rff"]["men_lost"]["union"].update(p50="5"), "expected number, got string"),
    (lambda d: d["rulesets"]["rff"]["win"]["union"].update(ci95=[0.1]), "1 items"),
    (lambda d: d["rulesets"]["rff"]["games"][0].update(winner=True), "matches none"),
])
def test_the_validator_finds_what_breaks_a_schema(change: Any, said: str) -> None:
    data = output("compare", "drill-musketry", "--rules", "rff", "-n", "2", "--workers", "1")
    assert problems(data, SCHEMAS["compare"]) == []
    change(data)
    found = problems(data, SCHEMAS["compare"])
    assert len(found) == 1 and said in found[0], found


def test_the_json_of_a_sweep_has_its_documented_shape(tmp_path: Path) -> None:
    spec = tmp_path / "small.toml"
    spec.write_text('title = "small"\nscenarios = ["big-bethel"]\nrulesets = ["rff"]\nreplications = 2\nseed = 1\n'
                    'base = "massed-artillery=off"\n\n[[vary]]\nname = "massed-artillery"\noption = "massed-artillery"\n', encoding="utf-8")
    data = output("sweep", str(spec), "--out", str(tmp_path / "out"), "--workers", "1", "--no-html")
    assert problems(data, SCHEMAS["sweep"]) == []
    assert {p["point"] for p in data["points"]} == {"massed-artillery=off", "massed-artillery=on"}
