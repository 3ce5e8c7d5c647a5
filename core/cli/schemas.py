"""The shape of every command's ``--json`` (and of ``compare --out``), as JSON Schema (draft
2020-12) declared in Python, and a small validator for the subset used here. docs/json.md
describes each; tests/test_json_schema.py validates real output against them.

    python -c 'import json; from referee.core.cli.schemas import SCHEMAS; print(json.dumps(SCHEMAS["compare"], indent=2))'

prints one as a standard JSON Schema file, for any other validator.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

Schema = dict[str, Any]

NUMBER: Schema = {"type": "number"}
INTEGER: Schema = {"type": "integer"}
STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def obj(*optional: str, **properties: Schema) -> Schema:
    """An object with exactly these keys (those named in ``optional`` may be missing)."""
    return {"type": "object", "properties": properties, "required": [k for k in properties if k not in optional],
            "additionalProperties": False}


def mapping(values: Schema, description: str = "") -> Schema:
    """An object whose keys are names (rulesets, sides, causes, ...), each with ``values``."""
    schema: Schema = {"type": "object", "additionalProperties": values}
    if description:
        schema["description"] = description
    return schema


def pair(item: Schema = NUMBER) -> Schema:
    return {"type": "array", "items": item, "minItems": 2, "maxItems": 2}


SIDES = "by side (the scenario's two sides)"
SHARE = obj(share=NUMBER, ci95=pair())
SPREAD = obj(mean=NUMBER, p10=NUMBER, p50=NUMBER, p90=NUMBER)
PAIRED = obj(mean=NUMBER, ci95=pair(), se=NUMBER, se_unpaired=NUMBER)
CHANCE = obj(p=NUMBER, ci95=pair())
RUN_HEAD = {"scenario": STRING, "title": STRING, "seed": INTEGER, "n": INTEGER, "options": array(STRING),
            "house_rules": array(STRING), "version": STRING}
BY_SIDE_INT = mapping(INTEGER, SIDES)

BROKE_OFF = mapping(NUMBER, "by side: the share of the games whose verdict that side's break-off decided")
GAME = obj("broke_off", seed=INTEGER, winner=nullable(STRING), broke_off=nullable(STRING), men_lost=BY_SIDE_INT,
           guns_lost=BY_SIDE_INT, minutes=INTEGER, lost_by_cause=mapping(mapping(INTEGER, "men by cause"), SIDES))

SUMMARY = obj(
    "historical", "broke_off",
    replications=INTEGER, broke_off=BROKE_OFF, win=mapping(SHARE, "by side, and 'draw'"), men_lost=mapping(SPREAD, SIDES),
    guns_lost=mapping(SPREAD, SIDES), men_left=mapping(SPREAD, SIDES), yards_gained=mapping(SPREAD, SIDES),
    minutes=SPREAD, ended_by=mapping(NUMBER, "share of the games by the reason they ended"),
    historical=obj(winner=STRING, winner_share=NUMBER, men_lost_percentile=mapping(NUMBER, SIDES),
                   guns_lost_percentile=mapping(NUMBER, SIDES), minutes_percentile=nullable(NUMBER)),
    games=array(GAME),
)

HISTORY_CELL = obj(p10=NUMBER, p50=NUMBER, p90=NUMBER, history=nullable(NUMBER), percentile=nullable(NUMBER),
                   verdict=nullable(STRING))

SITUATION_UNIT = mapping({"type": ["string", "number", "integer", "boolean", "null"]}, "the unit's fields, as --set names them")
EXACT = obj(p=NUMBER, exact={"type": "string", "pattern": "^[0-9]+/[0-9]+$"})
EXCHANGE_MEN = obj(mean=NUMBER, p10=NUMBER, p50=NUMBER, p90=NUMBER, at_least=INTEGER, p_at_least=nullable(EXACT))
PLAYED_MEN = obj(mean=NUMBER, ci95=pair(), p10=NUMBER, p50=NUMBER, p90=NUMBER, at_least=INTEGER, p_at_least=CHANCE)

MODIFIER = obj("ref", "on", name=STRING, value={"type": ["integer", "number", "string"]}, on=STRING, ref=STRING)
VALUES = mapping({}, "the result's values (stands lost, disordered, ...), as the ruleset names them")

SCHEMAS: dict[str, Schema] = {
    "rulesets": array(obj(name=STRING, title=STRING, kind=STRING, base=nullable(STRING), source=STRING, scale=STRING,
                          options=array(STRING), options_on=array(STRING), hooks=mapping(array(STRING), "hook names by plugin"))),
    "scenarios": array(obj(id=STRING, title=STRING, summary=STRING, path=STRING)),
    "run": obj("broke_off", ruleset=STRING, scenario=STRING, seed=INTEGER, winner=nullable(STRING),
               broke_off=nullable(STRING), reason=STRING, minutes=INTEGER,
               turns=INTEGER, men_lost=BY_SIDE_INT, guns_lost=BY_SIDE_INT, yards_gained=BY_SIDE_INT, men_left=BY_SIDE_INT,
               lost_by_cause=mapping(mapping(INTEGER, "men by cause"), SIDES)),
    "compare": obj("history", "interrupted", **RUN_HEAD, rulesets=mapping(SUMMARY, "by ruleset (or stack)"),
                   history=obj(winner=STRING, men_lost=BY_SIDE_INT, guns_lost=BY_SIDE_INT, minutes=nullable(INTEGER), note=STRING),
                   interrupted=BOOLEAN),
    "compare --baseline": obj("interrupted", **RUN_HEAD, baseline=STRING, interrupted=BOOLEAN, against=mapping(obj(
        replications=INTEGER, games_changed=INTEGER,
        statistics=mapping(obj(base=NUMBER, other=NUMBER, difference=PAIRED), "by measure ('union wins', 'union men lost', ...)"),
    ), "by stack measured against the baseline")),
    "history": obj("interrupted", seed=INTEGER, n=INTEGER, rulesets=array(STRING), scenarios=array(STRING), interrupted=BOOLEAN,
                   rows=array(obj("broke_off", scenario=STRING, title=STRING, ruleset=STRING, replications=INTEGER,
                                  broke_off=BROKE_OFF,
                                  winner=obj(history=STRING, share=NUMBER, ci95=pair()),
                                  men_lost=mapping(HISTORY_CELL, SIDES), guns_lost=mapping(HISTORY_CELL, SIDES), minutes=HISTORY_CELL)),
                   men_lost_inside=obj(inside=INTEGER, cells=INTEGER)),
    "explain": obj(**RUN_HEAD, sentences=array(STRING), rulesets=mapping(obj(
        games=INTEGER,
        losses_by_cause=mapping(obj(men_lost=NUMBER, causes=mapping(obj(men=NUMBER, share=NUMBER), "by cause"),
                                    by_range=mapping(mapping(NUMBER, "men by range band"), "by cause"), unreported=NUMBER), SIDES),
        losses_by_time=obj(bucket_minutes=INTEGER, **{"from": array(STRING)}, men_lost=mapping(array(NUMBER), SIDES)),
        mechanics=mapping(obj(per_game=NUMBER, results=mapping(NUMBER, "share by result")), "by mechanic"),
    ), "by ruleset"), paired=array(obj(a=STRING, b=STRING, games=INTEGER, identical_games=INTEGER, men_lost=mapping(PAIRED, SIDES),
                                       minutes=PAIRED, win_share=mapping(PAIRED, SIDES),
                                       lost_by_cause=mapping(mapping(PAIRED, "by cause"), SIDES),
                                       lost_by_kind=mapping(mapping(PAIRED, "by kind"), SIDES)))),
    "situation": obj(situation=obj(a=SITUATION_UNIT, b=SITUATION_UNIT, range=INTEGER, minutes=INTEGER, charge=BOOLEAN),
                     described=STRING, n=INTEGER, seed=INTEGER, options=array(STRING), house_rules=array(STRING), version=STRING,
                     rulesets=mapping(obj(
                         "played", scale=STRING,
                         exchange=nullable(obj(what=STRING, method={"const": "exact"}, men_lost=mapping(EXCHANGE_MEN, "a and b"),
                                               disordered=mapping(nullable(EXACT), "a and b"), broken=mapping(nullable(EXACT), "a and b"))),
                         played=obj("charge", method={"const": "sampled"}, games=INTEGER, minutes=NUMBER,
                                    men_lost=mapping(PLAYED_MEN, "a and b"), disordered=mapping(CHANCE, "a and b"),
                                    broken=mapping(CHANCE, "a and b"), yards_given_up=mapping(obj(mean=NUMBER, p90=NUMBER), "a and b"),
                                    charge=mapping(CHANCE, "stopped, repulsed, carried")),
                     ), "by ruleset (or stack)")),
    "resolve --seed": obj("rulings", ruleset=STRING, mechanic=STRING, ref=STRING, inputs=mapping({}, "the inputs, as --set names them"),
                          modifiers=array(MODIFIER), dice=array(INTEGER), total={"type": ["integer", "number"]}, result=STRING,
                          values=VALUES, rulings=array(STRING)),
    "resolve --exact": obj(ruleset=STRING, mechanic=STRING, inputs=mapping({}, "the inputs, as --set names them"),
                           outcomes=array(obj(result=STRING, probability={"type": "string", "pattern": "^[0-9]+/[0-9]+$"}, p=NUMBER,
                                              values=VALUES))),
    "resolve --list": array(obj(mechanic=STRING, summary=STRING, ref=STRING,
                                inputs=mapping(obj(kind=STRING, help=STRING), "by input name"), values=mapping(STRING, "by value name"))),
    "tables": mapping(obj(title=STRING, ref=STRING, columns=array(STRING), rows=array(array(STRING)), notes=array(STRING)), "by table name"),
    "tables --diff": obj(**{"from": STRING, "to": STRING}, unchanged=array(STRING), changed=mapping(obj(
        "fields", status={"enum": ["changed", "added", "removed"]}, fields=mapping(pair(STRING), "title, ref, columns, notes"),
        rows=array(obj(before=nullable(array(STRING)), after=nullable(array(STRING)))),
    ), "by table name")),
    "check": obj(id=STRING, title=STRING, sides=array(STRING), units=BY_SIDE_INT, men=BY_SIDE_INT, guns=BY_SIDE_INT,
                 objectives=INTEGER, start=STRING, end=STRING, version=STRING, options=array(STRING), house_rules=array(STRING),
                 rulesets=mapping(mapping(nullable(STRING), "by unit id: what the ruleset made of it, null if nothing"),
                                  "by ruleset (or stack)")),
    "draw": obj(out=STRING, bytes=INTEGER, scenario=STRING, units=INTEGER),
    "sweep": obj("interrupted", "parquet", title=STRING, source=STRING, folder=STRING, played_now=INTEGER,
                 interrupted=BOOLEAN, parquet=STRING, version=STRING, seed=INTEGER, replications=INTEGER, base=STRING,
                 parameters=array(obj("cell", "shift", "printed", "target", name=STRING, kind=STRING,
                                      values=array({"type": ["string", "number", "integer", "boolean"]}),
                                      cell=mapping(STRING, "the table cell's path by ruleset"), shift=BOOLEAN,
                                      printed=mapping(NUMBER, "the printed value by ruleset"), target=STRING)),
                 games=INTEGER, played=INTEGER, complete=BOOLEAN, sides=mapping(array(STRING), "by scenario id"),
                 points=array(obj("history", "against_base", point=STRING, values=mapping({}, "each parameter's value"),
                                  scenario=STRING, ruleset=STRING, games=INTEGER,
                                  win=mapping(obj(share=nullable(NUMBER), ci95=pair()), "by side, and 'draw'"),
                                  men_lost=mapping(SPREAD, SIDES), guns_lost=mapping(SPREAD, SIDES), minutes=SPREAD,
                                  history=obj(winner=STRING, winner_share=nullable(NUMBER),
                                              men_lost=mapping(HISTORY_CELL, SIDES), guns_lost=mapping(HISTORY_CELL, SIDES),
                                              minutes=HISTORY_CELL),
                                  against_base=mapping({}, "'games', 'games_changed', and each measure's paired difference")))),
    "report": obj(out=STRING, bytes=INTEGER, scenario=mapping({}, "the scenario's id, title, date, summary, sides, start"),
                  seed=INTEGER, n=INTEGER, version=STRING, rulesets=array(STRING)),
}


def problems(data: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Where ``data`` breaks ``schema`` (the subset of JSON Schema used above), one line each."""
    found: list[str] = []
    if "anyOf" in schema:
        if all(problems(data, s, path) for s in schema["anyOf"]):
            found.append(f"{path}: matches none of {len(schema['anyOf'])} choices ({_kind(data)})")
        return found
    if "const" in schema and data != schema["const"]:
        found.append(f"{path}: expected {schema['const']!r}, got {data!r}")
    if "enum" in schema and data not in schema["enum"]:
        found.append(f"{path}: {data!r} is not one of {schema['enum']}")
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(data, k) for k in kinds):
            return [*found, f"{path}: expected {' or '.join(kinds)}, got {_kind(data)}"]
    if isinstance(data, dict):
        properties = schema.get("properties", {})
        found += [f"{path}: missing key {k!r}" for k in schema.get("required", ()) if k not in data]
        extra = schema.get("additionalProperties", True)
        for key, value in data.items():
            if key in properties:
                found += problems(value, properties[key], f"{path}.{key}")
            elif extra is False:
                found.append(f"{path}: unexpected key {key!r}")
            elif isinstance(extra, Mapping):
                found += problems(value, extra, f"{path}[{key!r}]")
    if isinstance(data, list):
        if "minItems" in schema and len(data) < schema["minItems"] or "maxItems" in schema and len(data) > schema["maxItems"]:
            found.append(f"{path}: {len(data)} items")
        for i, item in enumerate(data):
            found += problems(item, schema.get("items", {}), f"{path}[{i}]")
    if isinstance(data, str) and "pattern" in schema and not re.search(schema["pattern"], data):
        found.append(f"{path}: {data!r} does not match {schema['pattern']}")
    return found


def _is(data: Any, kind: str) -> bool:
    return {
        "object": isinstance(data, dict), "array": isinstance(data, list), "string": isinstance(data, str),
        "boolean": isinstance(data, bool), "null": data is None,
        "integer": isinstance(data, int) and not isinstance(data, bool),
        "number": isinstance(data, (int, float)) and not isinstance(data, bool),
    }[kind]


def _kind(data: Any) -> str:
    return next(k for k in ("null", "boolean", "integer", "number", "string", "array", "object") if _is(data, k))
