"""Typed, validated access to the Hardtack tables (``rulesets/hardtack/*.toml``).

The schema and :class:`HardtackTables`, built from the checked files (with a stack's data house
rules laid over them) by ``TABLES``, a :class:`~referee.api.TableSource`. :func:`display_tables`
gives each table as Hardtack prints it, for ``referee tables``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from attrs import field, frozen
from referee.api import (
    LADDER,
    Bool,
    Check,
    Int,
    ListOf,
    MapOf,
    Number,
    OptionSpec,
    Record,
    Scale,
    Spec,
    Str,
    Table,
    TableSource,
    TomlFile,
    to_fraction,
    world,
)

RULESET = "hardtack"
MOTIVATIONS = ("low", "medium", "high")
LEVELS = ("confident", "steady", "shaken", "broken", "routed")
COVERS = ("none", "soft", "hard", "fortification")
CLASSES = ("clear", "poor", "difficult", "impassable")
MOVERS = ("infantry", "mounted", "limbered", "unlimbered")
BASES = ("infantry", "dismounted", "mounted", "limbered", "unlimbered")
MOONS = ("none", "moonlit", "full")
TEXT = Str()
DIE = Int(minimum=4, maximum=12)
HEAD = {"title": TEXT, "ref": TEXT}
THREAT = Record({"label": TEXT}, {"low": Int(), "medium": Int(), "high": Int(), "forces_test": Bool()})


def _has(keys: tuple[str, ...]) -> Any:
    def check(table: Mapping[str, Any]) -> Any:
        missing = [k for k in keys if k not in table]
        return [("", f"missing entries for {', '.join(missing)}")] if missing else []
    return check


def _on_ladder(table: Mapping[str, Any]) -> Any:
    return [(f"{k}.die", f"D{v['die']} is not on the die ladder {LADDER}") for k, v in table.items() if v["die"] not in LADDER]


SCHEMA: dict[str, Spec] = {
    "scale": Record({
        **HEAD, "yards_per_inch": Number(minimum=1), "men_per_figure": Int(minimum=1), "figure_ruling": TEXT,
        "company_most": Int(minimum=1), "company_fewest": Int(minimum=1), "company_ruling": TEXT,
        "command_inches": Number(minimum=0), "minutes_per_turn": Int(minimum=1), "minutes_ruling": TEXT,
    }),
    "quality": Record({
        **HEAD, "ruling": TEXT,
        "experience": Check(Check(MapOf(Record({"die": DIE, "motivation": Str(MOTIVATIONS), "label": TEXT}), keys=world.EXPERIENCE),
                                  _has(world.EXPERIENCE)), _on_ladder),
        "leadership": Check(MapOf(Int(minimum=1, maximum=3), keys=(*world.LEADER_RATINGS, "unled")), _has((*world.LEADER_RATINGS, "unled"))),
        "levels": Check(MapOf(Str(world.STATUSES), keys=LEVELS), _has(LEVELS)),
    }),
    "confidence": Record({**HEAD, "half_ruling": TEXT, "basic": MapOf(THREAT), "added": MapOf(THREAT)}),
    "fire": Record({
        **HEAD, "bands": Int(minimum=1, maximum=5), "armour": DIE, "smoothbore_shift": Int(), "skirmish_firepower_shift": Int(),
        "small_firepower": Number(minimum=0), "horse_holder_every": Int(minimum=1), "close_target_shift": Int(), "close_target_ruling": TEXT, "in_position_shift": Int(),
        "band_ruling": TEXT,
        "cover": Check(MapOf(Int(minimum=0), keys=COVERS), _has(COVERS)),
        "weapons": MapOf(Record({"label": TEXT, "fp": Number(minimum=0), "impact": DIE},
                                {"reload": Bool(), "smoothbore": Bool(), "close_only": Bool(), "ruling": TEXT})),
    }),
    "artillery": Record({
        **HEAD, "shot_impact": DIE, "canister_impact": DIE, "hard_cover_shift": Int(), "fortification_shift": Int(),
        "canister_fired_on": TEXT, "damage_men_per_figure": Int(minimum=1), "bounce_inches": Number(minimum=0),
        "team_figures": Int(minimum=1), "broken_gun_threat": Int(),
        "guns": Check(MapOf(Record({"label": TEXT, "band": Int(minimum=1), "damage": DIE, "canister": Int(minimum=0), "canister_fp": DIE}),
                            keys=world.GUN_TYPES), _has(world.GUN_TYPES)),
    }),
    "movement": Record({
        **HEAD, "line_shift": Int(), "unlimbered_one_figure": Int(minimum=1), "road_travel": Int(minimum=1), "clear_travel": Int(minimum=1), "road_yards": Number(minimum=0),
        "disordering": ListOf(TEXT),
        "costs": Check(MapOf(Int(minimum=1), keys=CLASSES[:3]), _has(CLASSES[:3])),
        "base": Check(MapOf(Int(minimum=1), keys=BASES), _has(BASES)),
        "terrain": Check(MapOf(MapOf(Str(CLASSES), min_len=0), keys=MOVERS), _has(MOVERS)),
        "ruled": MapOf(MapOf(TEXT, min_len=0), keys=MOVERS),
    }),
    "assault": Record({
        **HEAD, "max_rounds": Int(minimum=1), "cover_shift": Int(), "mounted_shift": Int(), "attacker_threat": Int(),
        "weapons": MapOf(Int()),
    }),
    "light": Record({
        **HEAD, "ruling": TEXT, "dusk_minutes": Int(minimum=0), "sunset_yards": Number(minimum=0), "dusk_yards": Number(minimum=0),
        "night_yards": Check(MapOf(Number(minimum=0), keys=MOONS), _has(MOONS)),
    }),
    "options": Record({**HEAD, "options": MapOf(Record({"title": TEXT, "ref": TEXT, "summary": TEXT, "group": TEXT},
                                                       {"men": Int(minimum=1), "ruling": TEXT}))}),
}


def _ro(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@frozen
class Weapon:
    id: str
    label: str
    fp: Fraction
    impact: int
    reload: bool = False
    smoothbore: bool = False
    close_only: bool = False
    ruling: str = ""


@frozen
class Gun:
    id: str
    label: str
    band: int  # inches per shot range band
    damage: int  # die of figures struck by a hit
    canister: int  # reach in inches
    canister_fp: int


@frozen
class Threat:
    id: str
    label: str
    by_motivation: Mapping[str, int | None]  # None = no test required
    forces_test: bool = False


@frozen(eq=False)  # hashed by identity: one loaded table set, used as a cache key
class HardtackTables:
    raw: Mapping[str, Any]
    weapons: Mapping[str, Weapon]
    guns: Mapping[str, Gun]
    basic: Mapping[str, Threat]
    added: Mapping[str, Threat]
    options: tuple[OptionSpec, ...]
    figure_men: Mapping[str, int]  # option -> men per figure
    yards_per_inch: float  # [scale] yards_per_inch (p.1), read by every distance in play
    command_yards: float  # [scale] command_inches in yards (p.7, p.11: formation, rally, transfer)
    effects: dict[tuple[Any, ...], tuple[tuple[int, int, int], ...]] = field(factory=dict)
    """fire.effective's HT-F6 last bands by their inputs: a pure function of these tables, kept
    while they live (the set is read once; a mutable memo in a frozen record)."""

    def __getitem__(self, name: str) -> Any:
        return self.raw[name]

    @property
    def scale(self) -> Scale:
        s = self.raw["scale"]
        return Scale(float(s["yards_per_inch"]), s["men_per_figure"], "figure", 1, s["minutes_per_turn"], s["minutes_ruling"])

    @classmethod
    def build(cls, files: Mapping[str, TomlFile]) -> HardtackTables:
        raw = _ro({k: f.data for k, f in files.items()})
        weapons = {k: Weapon(k, v["label"], to_fraction(v["fp"]) or Fraction(0), v["impact"], v.get("reload", False),
                             v.get("smoothbore", False), v.get("close_only", False), v.get("ruling", ""))
                   for k, v in raw["fire"]["weapons"].items()}
        guns = {k: Gun(k, v["label"], v["band"], v["damage"], v["canister"], v["canister_fp"]) for k, v in raw["artillery"]["guns"].items()}
        threats = {part: {k: Threat(k, v["label"], _ro({m: v.get(m) for m in MOTIVATIONS}), v.get("forces_test", False))
                          for k, v in raw["confidence"][part].items()} for part in ("basic", "added")}
        opts = raw["options"]["options"]
        options = tuple(OptionSpec(k, v["title"], v["ref"], v["summary"], group=v["group"]) for k, v in opts.items())
        ypi = float(raw["scale"]["yards_per_inch"])
        return cls(raw, _ro(weapons), _ro(guns), _ro(threats["basic"]), _ro(threats["added"]), options,
                   _ro({k: v["men"] for k, v in opts.items() if "men" in v}), ypi, float(raw["scale"]["command_inches"]) * ypi)


TABLES = TableSource(RULESET, SCHEMA, HardtackTables.build)
"""The tables, with a stack's overlays laid over them, each read, checked and built once."""
load_with_overlays = TABLES.load  # the tables with data house rules laid over them, in order


def load_tables() -> HardtackTables:
    return TABLES.load()


def display_tables(t: HardtackTables) -> dict[str, Table]:
    """The tables as Hardtack prints them (and as the rulings fill them in)."""
    conf = t["confidence"]
    threat_rows = tuple(
        (th.label, *("NTR" if th.by_motivation[m] is None else f"{th.by_motivation[m]:+d}" if part == "added" else str(th.by_motivation[m]) for m in MOTIVATIONS))
        for part, rows in (("basic", t.basic), ("added", t.added)) for th in rows.values()
    )
    fire = t["fire"]
    weapons = tuple((w.label, str(w.fp), f"D{w.impact}", "close range only" if w.close_only else "") for w in t.weapons.values())
    guns = tuple((g.label, f'{g.band}"', f"D{g.damage}", f'{g.canister}"', f"D{g.canister_fp}") for g in t.guns.values())
    exp = t["quality"]["experience"]
    mv = t["movement"]
    terrain = tuple((mover, *(", ".join(k for k, c in mv["terrain"][mover].items() if c == cls) or "-" for cls in CLASSES[1:])) for mover in MOVERS)
    return {
        "confidence": Table(conf["title"], conf["ref"], ("Circumstances for test", "Low", "Med", "High"), threat_rows,
                            ("NTR = no test required.", "Only the basic entries trigger a test; the + entries modify one (SG2 errata).",
                             f"Lose 2 levels on 'half or less' of LV + TL (ruling {conf['half_ruling']}).")),
        "weapons": Table("Generic Weapons Table", "Hardtack p.16", ("Weapon", "FP", "Impact", "Restrictions"), weapons,
                         (f"Range die up {fire['smoothbore_shift']} for smoothbores unless at D4 (p.16).",
                          f"Cover shifts: {', '.join(f'{k} {v}' for k, v in fire['cover'].items())} (p.8).")),
        "artillery": Table(t["artillery"]["title"], t["artillery"]["ref"], ("Gun", "Shot band", "Shot damage", "Canister reach", "Canister FP"), guns),
        "quality": Table(t["quality"]["title"], t["quality"]["ref"], ("Neutral experience", "Quality die", "Motivation", "Hardtack grade"),
                         tuple((k, f"D{v['die']}", v["motivation"], v["label"]) for k, v in exp.items())),
        "terrain": Table(mv["title"], mv["ref"], ("Mover", "Poor", "Difficult", "Impassable"), terrain,
                         (f"Base moves: {', '.join(f'{k} {v}' for k, v in mv['base'].items())} inches; combat move D(base) x 2.",)),
    }
