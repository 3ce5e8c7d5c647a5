"""Firefight's tables: read from ``data/*.toml``, checked, with data house rules laid over them
(:class:`~referee.api.TableSource` does the reading, the checking and the overlays)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.api import (
    Bands,
    BandsOf,
    Int,
    MapOf,
    Number,
    Record,
    Spec,
    Str,
    Table,
    TableSource,
    TomlFile,
)

HEAD = {"title": Str(), "ref": Str()}
SCHEMA: dict[str, Spec] = {
    "scale": Record({**HEAD, "yards_per_inch": Number(minimum=1), "men_per_stand": Int(minimum=1),
                     "guns_per_model": Int(minimum=1), "minutes_per_turn": Int(minimum=1)}),
    "movement": Record({**HEAD, "closest_inches": Number(minimum=0), "formation_change": Number(minimum=0),
                        "inches": MapOf(Number(minimum=0))}),
    "fire": Record({**HEAD, "close_inches": Number(minimum=0), "percent_a_hit": Number(minimum=0),
                    "men_a_gun_a_hit": Int(minimum=0), "range_inches": MapOf(Number(minimum=0)),
                    "modifiers": MapOf(Int()), "hits": BandsOf(Int(minimum=0))}),
    "morale": Record({**HEAD, "pass": Int(), "veteran": Int(), "green": Int(), "quarter_lost": Int(),
                      "half_lost": Int(), "shaken": Int()}),
}


def _data(files: Mapping[str, TomlFile]) -> Mapping[str, Mapping[str, Any]]:
    return {name: f.data for name, f in files.items()}


TABLES = TableSource("data", SCHEMA, _data, package="referee_firefight")
"""The printed tables (``data/*.toml``) as play reads them: ``TABLES.load(*overlays)`` lays a
stack's data house rules over them in order; each is read and checked once."""


def hits_bands(t: Mapping[str, Mapping[str, Any]]) -> Bands[int]:
    return Bands.from_rows(t["fire"]["hits"])


def display(t: Mapping[str, Mapping[str, Any]]) -> dict[str, Table]:
    """Each table as ``referee tables firefight`` prints it."""
    fire, move, morale = t["fire"], t["movement"], t["morale"]
    return {
        "movement": Table(move["title"], move["ref"], ("arm and formation", "inches"),
                          tuple((k, f"{v:g}") for k, v in move["inches"].items())),
        "fire": Table(fire["title"], fire["ref"], ("2d6 + modifiers", "hits"),
                      tuple((b.text(), str(b.result)) for b in hits_bands(t).bands),
                      tuple(f"{k}: {v:+d}" for k, v in fire["modifiers"].items())),
        "morale": Table(morale["title"], morale["ref"], ("2d6 + modifiers", "result"),
                        ((f"{morale['pass']} or more", "passes"), (f"{morale['pass'] - 1} or less", "fails"))),
    }
