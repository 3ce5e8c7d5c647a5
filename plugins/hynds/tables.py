"""Hynds' own charts (``rulesets/hynds/charts.toml``), read and checked once."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from referee.api import (
    Bool,
    Int,
    ListOf,
    MapOf,
    Number,
    Record,
    Str,
    Table,
    load_texts,
    to_fraction,
)

TEXT = Str()
HEAD = {"title": TEXT, "ref": TEXT}
DIE = ListOf(Int(minimum=1, maximum=10), min_len=1)
PERCENT = ListOf(Int(minimum=0, maximum=100), min_len=3, max_len=3)
SCHEMA = {
    "charts": Record({
        **HEAD,
        "leaders": Record({**HEAD, **{k: Record({"confederate": DIE, "union": DIE, "value": Int()}) for k in ("exceptional", "weak")}}),
        "low_ammo": Record({**HEAD, "confederate": DIE}),
        "weapons": Record({**HEAD, "order": ListOf(TEXT, min_len=3, max_len=3), "labels": ListOf(TEXT, min_len=3, max_len=3),
                           **{f"{side}-{year}": PERCENT for side in ("union", "confederate") for year in (1862, 1864)}}),
        "modifiers": MapOf(Record({"value": Int(), "label": TEXT, "section": TEXT}, {"inches": Number(minimum=0)}), min_len=0),
        "obstacles": Record({**HEAD, **{k: Record({}, {"inches": Number(minimum=0), "disordered": Bool(), "crosses": Bool(), "share": Number(minimum=0)})
                                        for k in ("infantry", "cavalry-crack", "cavalry-veteran", "cavalry-trained", "cavalry-green", "artillery-fence", "artillery-wall")}}),
        "flank_fire": Record({**HEAD, "stands": Int(minimum=1), "inches": Number(minimum=0)}),
        "breastworks": Record({**HEAD, "turns": Int(minimum=1), "materials": ListOf(TEXT)}),
        "snipers": Record({**HEAD, "deploy": DIE, "reach_inches": Number(minimum=0), "hit": DIE, "close_inches": Number(minimum=0), "close_bonus": Int()}),
        "firing_over": Record({**HEAD, "disorders": DIE, "behind_inches": Number(minimum=0)}),
        "concealment": Record({**HEAD, "seen_inches": Number(minimum=0), "seen_in_woods_inches": Number(minimum=0), "woods": ListOf(TEXT),
                               "mist_clears": DIE, "mist_from_turn": Int(minimum=1)}),
        "surprise": Record({**HEAD, "range_inches": Number(minimum=0),
                            **{k: Record({"value": Int(), "label": TEXT}) for k in ("artillery", "flank", "leader-killed", "attack")},
                            **{k: ListOf(Record({"label": TEXT, "text": TEXT, "effect": Str(("recoil", "checked", "none", "driven-back"))},
                                                {"min": Int(), "max": Int()}), min_len=1) for k in ("good", "disordered")}}),
        "separated": Record({**HEAD, "apart_inches": Number(minimum=0), "distant_inches": Number(minimum=0)}),
        "burning": Record({**HEAD, "fires": DIE, "stands_per_turn": Int(minimum=0)}),
        "pol": Record({**HEAD, **{k: Record({"value": Int(), "label": TEXT}) for k in ("passing-disordered", "passing-pursued")},
                       **{k: ListOf(Record({"label": TEXT, "text": TEXT}, {"min": Int(), "max": Int(), "stands": Int(minimum=0), "disordered": Bool(),
                                                                           "retire": Number(minimum=0), "quits": Bool()}), min_len=1) for k in ("good", "disordered")}}),
    }),
}


@cache
def charts() -> Mapping[str, Any]:
    text = (resources.files("referee.rulesets") / "hynds" / "charts.toml").read_text(encoding="utf-8")
    return load_texts({"charts": text}, SCHEMA, prefix="hynds/", what="ruleset hynds charts")["charts"].data


@cache
def fraction(value: Any) -> Fraction:
    return to_fraction(value) or Fraction(0)


@cache
def inches(chart: str, key: str) -> float:
    """A distance in inches from a chart, as a float (read once)."""
    return float(fraction(charts()[chart][key]))


def display() -> dict[str, Table]:
    """Hynds' own charts as ``referee tables hynds`` shows them."""
    c = charts()
    lead, arms, weapons = c["leaders"], c["obstacles"], c["weapons"]
    return {
        "hynds-leaders": Table(lead["title"], lead["ref"], ("rating", "Confederate d10", "Union d10", "modifier"), tuple(
            (k, "/".join(map(str, lead[k]["confederate"])), "/".join(map(str, lead[k]["union"])), f"{lead[k]['value']:+d}")
            for k in ("exceptional", "weak"))),
        "hynds-weapons": Table(weapons["title"], weapons["ref"], ("weapon", "Union 1862", "Union 1864", "Confederate 1862", "Confederate 1864"), tuple(
            (label, *(f"{weapons[f'{s}-{y}'][i]}%" for s in ("union", "confederate") for y in (1862, 1864)))
            for i, label in enumerate(weapons["labels"]))),
        "hynds-modifiers": Table("Hynds' die modifiers", c["ref"], ("modifier", "id", "condition", "where"), tuple(
            (f"{m['value']:+d}", k, m["label"], m["section"]) for k, m in c["modifiers"].items())),
        "hynds-pol": Table(c["pol"]["title"], c["pol"]["ref"], ("die", "good order", "disordered"), tuple(
            (g["label"], g["text"], b["text"]) for g, b in zip(c["pol"]["good"], c["pol"]["disordered"]))),
        "hynds-surprise": Table(c["surprise"]["title"], c["surprise"]["ref"], ("die", "still in good order", "disordered by fire"), tuple(
            (g["label"], g["text"], b["text"]) for g, b in zip(c["surprise"]["good"], c["surprise"]["disordered"]))),
        "hynds-obstacles": Table(arms["title"], arms["ref"], ("who", "effect"), tuple(
            (k, ", ".join(f"{n} {v}" for n, v in e.items())) for k, e in arms.items() if isinstance(e, dict))),
    }
