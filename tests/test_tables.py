"""core.engine.tables: schema checks reporting every problem at once, overlays, bands, key lines."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pytest
from referee.core.engine.errors import InvalidInput
from referee.core.engine.glue import TableSource
from referee.core.engine.tables import (
    Band,
    Bands,
    BandsOf,
    Int,
    ListOf,
    MapOf,
    Number,
    Record,
    Str,
    TomlFile,
    apply_overlay,
    key_lines,
    load_texts,
)
from referee.plugins.rff.tables import RULESET
from referee.plugins.rff.tables import SCHEMA as RFF_SCHEMA

SCHEMA = {
    "dice": Record(
        {"title": Str(), "bands": BandsOf(Str()), "mods": MapOf(Record({"value": Int(), "label": Str()}))},
        {"points": ListOf(Number(blank="-"))},
    ),
}
GOOD = """\
title = "A table"
points = ["1", "1/2", "-"]
bands = [
    { min = 8, result = "good" },
    { min = 3, max = 7, result = "fair" },
    { max = 2, result = "bad" },
]

[mods.brave]
value = 1
label = "Brave"

[mods.green]
value = -1
label = "Green"
"""


def problems(texts: dict[str, str]) -> list[str]:
    with pytest.raises(InvalidInput) as err:
        load_texts(texts, SCHEMA, prefix="x/")
    return [str(p) for p in err.value.problems]


def test_good_tables_load() -> None:
    files = load_texts({"dice": GOOD}, SCHEMA)
    assert files["dice"].data["mods"]["green"]["value"] == -1


def test_every_problem_at_once_with_file_line_and_path() -> None:
    bad = GOOD.replace("min = 3, max = 7", "min = 4, max = 7").replace('value = -1', 'value = "-1"').replace('label = "Brave"', 'lable = "Brave"')
    found = problems({"dice": bad, "dise": GOOD})
    assert "x/dice.toml:3 bands: total 3 is in no band (gap between 'bad' and 'fair')" in found
    assert any(p.startswith("x/dice.toml:14 mods.green.value: expected an integer") for p in found)
    assert any(p.startswith("x/dice.toml:11 mods.brave.lable: unknown key 'lable'; did you mean 'label'") for p in found)
    assert any(p.startswith("x/dice.toml:9 mods.brave: missing key 'label'") for p in found)
    assert any(p.startswith("x/dise.toml: unknown table file; did you mean 'dice'?") for p in found)
    assert len(found) == 5


def test_syntax_error_and_missing_file() -> None:
    found = problems({"dice": GOOD + "\nbroken = = 1\n"})
    assert len(found) == 1 and found[0].startswith("x/dice.toml:17: TOML syntax error")
    assert problems({}) == ["x/dice.toml: missing table file"]


def test_overlay_replaces_existing_keys_only() -> None:
    base = load_texts({"dice": GOOD}, SCHEMA)
    merged = apply_overlay(base, "house.toml", SCHEMA, text='[dice.mods.brave]\nvalue = 2\n[dice]\ntitle = "House"\n')
    assert merged["dice"].data["mods"]["brave"] == {"value": 2, "label": "Brave"}
    assert merged["dice"].data["title"] == "House" and base["dice"].data["mods"]["brave"]["value"] == 1
    with pytest.raises(InvalidInput) as err:
        apply_overlay(base, "house.toml", SCHEMA, text='[dice.mods.bravee]\nvalue = 2\n[dice.mods.green]\nvalue = "x"\n[dicee]\na = 1\n')
    found = [str(p) for p in err.value.problems]
    assert found[0].startswith("house.toml:1 dice.mods.bravee: unknown key 'bravee'; an overlay may only replace existing keys; did you mean 'brave'")
    assert found[1].startswith("house.toml:4 dice.mods.green.value: expected an integer like the base table")
    assert found[2].startswith("house.toml:5 dicee: unknown table 'dicee'; did you mean 'dice'?")


def test_overlay_is_checked_again_after_merging() -> None:
    base = load_texts({"dice": GOOD}, SCHEMA)
    with pytest.raises(InvalidInput) as err:
        apply_overlay(base, "house.toml", SCHEMA, text='[dice]\nbands = [ { min = 9, result = "good" }, { max = 7, result = "bad" } ]\n')
    assert [str(p) for p in err.value.problems] == ["house.toml:2 dice.bands: total 8 is in no band (gap between 'bad' and 'good')"]


def test_bands() -> None:
    bands = Bands.from_rows([{"min": 8, "result": "a"}, {"min": 3, "max": 7, "result": "b"}, {"min": 1, "max": 2, "result": "c"}, {"max": 0, "result": "d"}])
    assert [bands.lookup(x) for x in (-50, 0, 1, 2, 3, 7, 8, 50)] == ["d", "d", "c", "c", "b", "b", "a", "a"]
    assert [b.text() for b in bands.highest_first()] == ["8 or more", "3 - 7", "1, 2", "0 or less"]
    assert Band(5, 5, "x").text() == "5" and Band(1, 3, "x", label="1, 2, 3").text() == "1, 2, 3"
    with pytest.raises(InvalidInput, match="total 3 is in two bands"):
        Bands.from_rows([{"min": 3, "result": "a"}, {"max": 3, "result": "b"}])
    with pytest.raises(InvalidInput, match="totals of 10 or more are in no band"):
        Bands.from_rows([{"max": 9, "result": "a"}])


def test_key_lines() -> None:
    text = '[[a]]\nx = 1\n[[a]]\nx = [\n  { y = 1 },\n  { y = "]" },\n]\n[a.b]\nz = """\n[c]\n"""\n[d]\ne = 2\n'
    lines = key_lines(text)
    assert lines["a[0]"] == 1 and lines["a[1].x"] == 4 and lines["a[1].x[0]"] == 5 and lines["a[1].x[1]"] == 6
    assert lines["a[1].b.z"] == 9 and "c" not in lines and lines["d.e"] == 13


def test_shipped_rff_tables_report_every_problem() -> None:
    from referee.plugins.rff.tables import SCHEMA as RFF

    folder = resources.files("referee.rulesets") / "rff"
    texts = {p.name.removesuffix(".toml"): p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".toml")}
    assert load_texts(texts, RFF).keys() == RFF.keys()
    texts["charge"] = texts["charge"].replace('{ min = 4, max = 7, result = "driven-back"', '{ min = 5, max = 7, result = "driven-back"')
    texts["fallen_leader"] = texts["fallen_leader"].replace('leader = "out-one-turn"', 'leader = "out"')
    with pytest.raises(InvalidInput) as err:
        load_texts(texts, RFF, prefix="rff/")
    found = [str(p) for p in err.value.problems]
    assert len(found) == 2
    assert found[0].startswith("rff/charge.toml:") and "total 4 is in no band" in found[0]
    assert found[1].startswith("rff/fallen_leader.toml:") and "'out' is not valid" in found[1]


def test_a_table_source_lays_overlays_in_order_and_builds_each_stack_once(tmp_path: Path) -> None:
    built: list[Mapping[str, TomlFile]] = []

    def build(files: Mapping[str, TomlFile]) -> Mapping[str, TomlFile]:
        built.append(files)
        return files

    source = TableSource(RULESET, RFF_SCHEMA, build)
    own = source.load()
    assert source.load() is own and len(built) == 1
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    first.write_text("[scale]\nminutes_per_turn = 30\n", encoding="utf-8")
    second.write_text("[scale]\nminutes_per_turn = 45\n", encoding="utf-8")
    assert source.load(first)["scale"].data["minutes_per_turn"] == 30
    assert source.load(first, second)["scale"].data["minutes_per_turn"] == 45
    assert source.load(second, first)["scale"].data["minutes_per_turn"] == 30
    assert source.load(first) is source.load(first) and len(built) == 4
    assert own["scale"].data["minutes_per_turn"] == source.files()["scale"].data["minutes_per_turn"] != 30
    with pytest.raises(InvalidInput):
        source.load(tmp_path / "missing.toml")
