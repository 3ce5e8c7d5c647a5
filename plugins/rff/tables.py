"""Typed, validated access to the Regimental Fire and Fury tables (``rulesets/rff/*.toml``).

``TABLES`` (the core's :class:`~referee.api.TableSource`) reads and checks every file once, lays
a stack's house-rule overlays over them and builds one immutable :class:`RffTables` per tuple of
overlays (:func:`build_tables`); :func:`load_tables` is the ruleset's own. :func:`display_tables`
gives each table as the ruleset reads it, for ``referee tables rff``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from attrs import field, frozen
from referee.api import (
    Bands,
    BandsOf,
    Bool,
    Check,
    Int,
    InvalidInput,
    ListOf,
    MapOf,
    Modifier,
    Number,
    OptionSpec,
    Problem,
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

RULESET = "rff"
GRADES = ("crack", "veteran", "trained", "green")
STATUSES = ("good-order", "disordered")
KINDS = ("musketry", "cannonade")
LEADER_OUTCOMES = ("removed", "out-one-turn", "dismounted-one-turn", "no-effect")
CHARGE_ON_FIRE = ("checked", "home", "checked-or-home")
RETREATS = ("none", "hold", "1.5-inches", "out-of-close-range", "full-retreat-broken")
CARRIES = ("no", "yes", "after-2nd-combat")
FLAGS = ("buck-and-ball", "sharpshooters", "repeater", "long-arm")
BLANK = "-"


def _ro(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


# ----------------------------------------------------------------------------- schema


def _results_in(bands_key: str, effects_key: str) -> Callable[[Mapping[str, Any]], Iterable[tuple[str, str]]]:
    """Cross-check: every band result names an effect, and every effect has a band."""

    def check(table: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
        effects = table[effects_key]
        used = {row["result"] for row in table[bands_key]}
        for i, row in enumerate(table[bands_key]):
            if row["result"] not in effects:
                yield f"{bands_key}[{i}].result", f"{row['result']!r} is not one of the effects {', '.join(effects)}"
        for name in effects:
            if name not in used:
                yield f"{effects_key}.{name}", "no band gives this effect"

    return check


def _has_all(names: Iterable[str]) -> Callable[[Mapping[str, Any]], Iterable[tuple[str, str]]]:
    def check(table: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
        missing = [n for n in names if n not in table]
        if missing:
            yield "", f"missing entries for {', '.join(missing)}"

    return check


def _points_fit(table: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    n = len(table["bands_inches"])
    for key, row in table["rows"].items():
        for name in ("points", "printed"):
            if name in row and len(row[name]) != n:
                yield f"rows.{key}.{name}", f"has {len(row[name])} cells; the table has {n} range bands"


def _grades_fit(table: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    for grade, bands in table["grades"].items():
        for i, row in enumerate(bands):
            if row["result"] not in table["effects"]:
                yield f"grades.{grade}[{i}].result", f"{row['result']!r} is not one of the effects {', '.join(table['effects'])}"


TEXT = Str()
ENTRY = Record({"value": Int(), "label": TEXT, "ref": TEXT}, {"ruling": TEXT, "ratio": Number(minimum=1)})
HEAD = {"title": TEXT, "ref": TEXT}
RATE = ListOf(Int(minimum=0), min_len=1, max_len=2)
POINTS = Number(minimum=0, blank=BLANK)
FIRE_ROWS = MapOf(Record({"label": TEXT, "codes": ListOf(TEXT, min_len=1), "points": ListOf(POINTS, min_len=1)}, {"printed": ListOf(TEXT), "ruling": TEXT}))
SIDE = Record(
    {"text": TEXT},
    {
        "stands_lost": Int(minimum=0),
        "extra_stands_over": Int(minimum=0),
        "lose_stand_if_disordered": Bool(),
        "extra_stand_if_cavalry_or_outflanked": Bool(),
        "disordered": Bool(),
        "retreat": Str(RETREATS),
        "carries": Str(CARRIES),
        "breakthrough": Bool(),
        "fallen_leader_check": Bool(),
    },
)

SCHEMA: dict[str, Spec] = {
    "scale": Record(
        {
            **HEAD, "figures": TEXT, "piece": TEXT, "men_per_piece": Int(minimum=1), "guns_per_model": Int(minimum=1),
            "ground_inches": Number(minimum=1), "ground_yards": Number(minimum=1), "printed_minutes": TEXT,
            "minutes_per_turn": Int(minimum=1), "close_range_inches": Number(minimum=0), "die": TEXT,
        },
        {"minutes_ruling": TEXT, "close_range_ruling": TEXT},
    ),
    "maneuver": Record({
        **HEAD,
        "command_radius": MapOf(Record({"label": TEXT, "ref": TEXT}, {"inches": Number(minimum=0)})),
        "modifiers": MapOf(ENTRY),
        "columns": Check(
            MapOf(
                Check(
                    Record({**HEAD, "bands": BandsOf(TEXT), "effects": MapOf(Record({"name": TEXT, "text": TEXT}, {"stands_lost_below": Int(), "ruling": TEXT}))}),
                    _results_in("bands", "effects"),
                ),
                keys=STATUSES,
            ),
            _has_all(STATUSES),
        ),
    }),
    "movement": Record({
        **HEAD,
        "grounds": Record({"open": TEXT, "broken": TEXT, "rough": TEXT, "road": TEXT}),
        "rows": MapOf(Record(
            {"arm": Str(("infantry", "cavalry", "artillery", "leader")), "label": TEXT, "covers": ListOf(TEXT, min_len=1)},
            {"open": RATE, "broken": RATE, "rough": RATE, "road": RATE, "ruling": TEXT},
        )),
    }),
    "maneuvers": Record({
        **HEAD,
        **{
            side: MapOf(Record({**HEAD, "items": ListOf(Record(
                {"id": TEXT, "text": TEXT}, {"note": TEXT, "with_half_move": Bool(), "option": TEXT, "ruling": TEXT}
            ), min_len=1)}))
            for side in ("troops", "guns")
        },
    }),
    "fire": Check(Record({
        **HEAD,
        **{kind: Check(Record({**HEAD, "bands_inches": ListOf(Number(minimum=0), min_len=1), "close_range_bands": Int(minimum=0), "rows": FIRE_ROWS}), _points_fit) for kind in KINDS},
        "column": Record({**HEAD, "bands": BandsOf(Int())}, {"ruling": TEXT}),
        "multipliers": MapOf(Record({"value": Number(minimum=0), "label": TEXT, "ref": TEXT})),
        "modifiers": MapOf(ENTRY),
        "grades": Check(MapOf(BandsOf(TEXT), keys=GRADES), _has_all(GRADES)),
        "effects": MapOf(Record(
            {"name": TEXT, "text": TEXT, "charge": Str(CHARGE_ON_FIRE)},
            {
                "printed": TEXT, "ruling": TEXT, "kinds": ListOf(Str(KINDS)), "extra_stand_at": Int(),
                "troops": Record({}, {"disordered": Bool(), "stands_lost": Int(minimum=0), "stands_lost_if_disordered": Int(minimum=0)}),
                "guns": Record({}, {"wrecked": Int(minimum=0), "damaged": Int(minimum=0), "silenced": Int(minimum=0), "silence_remaining": Bool()}),
            },
        )),
        "additional": Check(
            MapOf(Record({"name": TEXT, "text": TEXT}, {"base_die": Int(minimum=1), "ruling": TEXT})),
            _has_all(("low-on-ammo", "fallen-leader")),
        ),
    }), _grades_fit),
    "charge": Record({
        **HEAD,
        "modifiers": MapOf(ENTRY),
        "results": Record({**HEAD, "bands": BandsOf(TEXT)}),
        "effects": MapOf(Record(
            {"name": TEXT, "attacker": SIDE, "defender": SIDE},
            {"reroll": Bool(), "drops_modifiers": ListOf(TEXT), "ruling": TEXT},
        )),
    }),
    "fallen_leader": Check(
        Record({**HEAD, "bands": BandsOf(TEXT), "effects": MapOf(Record({"name": TEXT, "leader": Str(LEADER_OUTCOMES), "text": TEXT}, {"ruling": TEXT}))}),
        _results_in("bands", "effects"),
    ),
    "weapons": Record({
        **HEAD,
        "weapons": Check(MapOf(Record({"code": TEXT, "ref": TEXT}, {"flags": ListOf(Str(FLAGS)), "ruling": TEXT}), keys=world.WEAPONS), _has_all(world.WEAPONS)),
        "guns": Check(MapOf(Record({"code": TEXT, "ref": TEXT}, {"ruling": TEXT}), keys=world.GUN_TYPES), _has_all(world.GUN_TYPES)),
        "experience": Check(MapOf(Record({"grade": Str(GRADES), "ref": TEXT}, {"ruling": TEXT}), keys=world.EXPERIENCE), _has_all(world.EXPERIENCE)),
    }),
    "procedures": Record({
        **HEAD,
        "effectiveness": Check(MapOf(Record({"worn": Number(minimum=0), "spent": Number(minimum=0)}, {"ruling": TEXT}), keys=GRADES), _has_all(GRADES)),
        "brigade_losses": Record({"heavy": Number(minimum=0), "greater": Number(minimum=0)}, {"ruling": TEXT}),
        "distances": MapOf(Record({"inches": Number(minimum=0), "label": TEXT, "ref": TEXT})),
        "skirmishers": Record({"fewest": Int(minimum=1), "most": Int(minimum=1), "smallest_regiment": Int(minimum=1), "share": Number(minimum=0)}, {"ruling": TEXT}),
        "extended_line": Record({"most_stands": Int(minimum=1), "ref": TEXT}),
    }),
    "options": Record({
        **HEAD,
        "options": MapOf(Record(
            {"title": TEXT, "ref": TEXT, "summary": TEXT},
            {"distances": MapOf(Record({"label": TEXT, "inches_15mm": Number(minimum=0), "inches": Number(minimum=0)})), "in_qrs2": Bool(),
             "numbers": MapOf(Record({"value": Number(minimum=0), "label": TEXT}))},
        )),
    }),
}


# ----------------------------------------------------------------------------- values


@frozen
class ModifierRow:
    """A printed die-roll modifier."""

    id: str
    value: int
    label: str
    ref: str
    ruling: str = ""
    ratio: Fraction | None = None  # outnumbered modifiers: the least ratio of the foe's stands to one's own

    @classmethod
    def from_toml(cls, key: str, raw: Mapping[str, Any]) -> ModifierRow:
        return cls(key, raw["value"], raw["label"], raw["ref"], raw.get("ruling", ""), to_fraction(raw["ratio"]) if "ratio" in raw else None)

    def modifier(self) -> Modifier:
        return Modifier(self.label, self.value, self.ref)


def _modifiers(raw: Mapping[str, Any]) -> Mapping[str, ModifierRow]:
    return _ro({k: ModifierRow.from_toml(k, v) for k, v in raw.items()})


@frozen
class Effect:
    """A named result of a table row: its id, printed name and text."""

    id: str
    name: str
    text: str
    ruling: str = ""


@frozen
class ManeuverEffect:
    effect: Effect
    stands_lost_below: int | None = None  # lose a stand per point the total is below this

    @classmethod
    def from_toml(cls, key: str, raw: Mapping[str, Any]) -> ManeuverEffect:
        return cls(Effect(key, raw["name"], raw["text"], raw.get("ruling", "")), raw.get("stands_lost_below"))


@frozen
class BandColumn:
    """A die-result column of bands and the effects they give."""

    id: str
    title: str
    ref: str
    bands: Bands[str]
    effects: Mapping[str, Any]


@frozen
class ManeuverTable:
    title: str
    ref: str
    command_radius: Mapping[str, tuple[str, Fraction | None, str]]  # id -> (label, inches, ref)
    modifiers: Mapping[str, ModifierRow]
    columns: Mapping[str, BandColumn]  # "good-order", "disordered"

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> ManeuverTable:
        radius = {k: (v["label"], to_fraction(v["inches"]) if "inches" in v else None, v["ref"]) for k, v in raw["command_radius"].items()}
        columns = {
            k: BandColumn(k, v["title"], v["ref"], Bands.from_rows(v["bands"]), _ro({e: ManeuverEffect.from_toml(e, r) for e, r in v["effects"].items()}))
            for k, v in raw["columns"].items()
        }
        return cls(raw["title"], raw["ref"], _ro(radius), _modifiers(raw["modifiers"]), _ro(columns))


@frozen
class Rate:
    """A movement rate in inches: full move and, where printed, double quick."""

    full: int
    double_quick: int | None = None

    def __str__(self) -> str:
        return str(self.full) if self.double_quick is None else f"{self.full} / {self.double_quick}"


@frozen
class MovementRow:
    id: str
    arm: str
    label: str
    covers: tuple[str, ...]
    rates: Mapping[str, Rate | None]  # ground -> rate; None where printed "-"
    ruling: str = ""


@frozen
class MovementTable:
    title: str
    ref: str
    grounds: Mapping[str, str]  # id -> printed head
    rows: tuple[MovementRow, ...]

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> MovementTable:
        grounds = dict(raw["grounds"])
        rows = tuple(
            MovementRow(
                k, v["arm"], v["label"], tuple(v["covers"]),
                _ro({g: Rate(*v[g]) if g in v else None for g in grounds}), v.get("ruling", ""),
            )
            for k, v in raw["rows"].items()
        )
        return cls(raw["title"], raw["ref"], _ro(grounds), rows)

    def rate(self, arm: str, formation: str, ground: str) -> Rate | None:
        """The rate of ``arm`` in ``formation`` on ``ground`` (None where the sheet prints "-")."""
        for row in self.rows:
            if row.arm == arm and formation in row.covers:
                return row.rates[ground]
        raise KeyError(f"no movement rate for {arm} in {formation}")


@frozen
class ManeuverItem:
    id: str
    text: str
    note: str = ""
    with_half_move: bool = False
    option: str = ""
    ruling: str = ""

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> ManeuverItem:
        return cls(raw["id"], raw["text"], raw.get("note", ""), raw.get("with_half_move", False), raw.get("option", ""), raw.get("ruling", ""))


@frozen
class ManeuverList:
    id: str
    title: str
    ref: str
    items: tuple[ManeuverItem, ...]


def _maneuver_lists(raw: Mapping[str, Any]) -> Mapping[str, ManeuverList]:
    return _ro({k: ManeuverList(k, v["title"], v["ref"], tuple(ManeuverItem.from_toml(i) for i in v["items"])) for k, v in raw.items()})


@frozen
class FirePointRow:
    id: str
    label: str
    codes: tuple[str, ...]
    points: tuple[Fraction | None, ...]  # per range band; None = out of range
    printed: tuple[str, ...] = ()
    ruling: str = ""


@frozen
class FirePoints:
    """Fire points per stand (or gun stand) by weapon class and range band."""

    title: str
    ref: str
    bands_inches: tuple[Fraction, ...]  # each band's longest range
    close_range_bands: int
    rows: tuple[FirePointRow, ...]

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> FirePoints:
        rows = tuple(
            FirePointRow(
                k, v["label"], tuple(v["codes"]),
                tuple(None if p == BLANK else to_fraction(p) for p in v["points"]),
                tuple(v.get("printed", ())), v.get("ruling", ""),
            )
            for k, v in raw["rows"].items()
        )
        bands = tuple(to_fraction(b) or Fraction(0) for b in raw["bands_inches"])
        return cls(raw["title"], raw["ref"], bands, raw["close_range_bands"], rows)

    def row(self, code: str) -> FirePointRow:
        for row in self.rows:
            if code in row.codes:
                return row
        raise KeyError(f"no fire points for weapon class {code}")

    def points(self, code: str, inches: Fraction | float) -> Fraction | None:
        """Fire points of one stand of ``code`` at ``inches``; None if out of range."""
        for limit, points in zip(self.bands_inches, self.row(code).points):
            if inches <= limit:
                return points
        return None


@frozen
class FireEffect:
    effect: Effect
    charge: str
    kinds: tuple[str, ...]  # fire kinds whose troop and gun effects apply
    troops_disordered: bool = False
    stands_lost: int = 0
    stands_lost_if_disordered: int = 0
    guns_wrecked: int = 0
    guns_damaged: int = 0
    guns_silenced: int = 0
    silence_remaining: bool = False
    extra_stand_at: int | None = None
    printed: str = ""

    @classmethod
    def from_toml(cls, key: str, raw: Mapping[str, Any]) -> FireEffect:
        troops, guns = raw.get("troops", {}), raw.get("guns", {})
        return cls(
            Effect(key, raw["name"], raw["text"], raw.get("ruling", "")), raw["charge"], tuple(raw.get("kinds", KINDS)),
            troops.get("disordered", False), troops.get("stands_lost", 0), troops.get("stands_lost_if_disordered", 0),
            guns.get("wrecked", 0), guns.get("damaged", 0), guns.get("silenced", 0), guns.get("silence_remaining", False),
            raw.get("extra_stand_at"), raw.get("printed", ""),
        )


@frozen
class Multiplier:
    id: str
    value: Fraction
    label: str
    ref: str


@frozen
class FireTable:
    title: str
    ref: str
    musketry: FirePoints
    cannonade: FirePoints
    column: Bands[int]  # fire points -> die modifier
    column_title: str
    column_ref: str
    column_ruling: str
    multipliers: Mapping[str, Multiplier]
    modifiers: Mapping[str, ModifierRow]
    grades: Mapping[str, Bands[str]]
    effects: Mapping[str, FireEffect]  # weakest first
    additional: Mapping[str, tuple[Effect, int | None]]  # id -> (effect, base die)

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> FireTable:
        col = raw["column"]
        return cls(
            raw["title"], raw["ref"], FirePoints.from_toml(raw["musketry"]), FirePoints.from_toml(raw["cannonade"]),
            Bands.from_rows(col["bands"]), col["title"], col["ref"], col.get("ruling", ""),
            _ro({k: Multiplier(k, to_fraction(v["value"]) or Fraction(0), v["label"], v["ref"]) for k, v in raw["multipliers"].items()}),
            _modifiers(raw["modifiers"]),
            _ro({g: Bands.from_rows(b) for g, b in raw["grades"].items()}),
            _ro({k: FireEffect.from_toml(k, v) for k, v in raw["effects"].items()}),
            _ro({k: (Effect(k, v["name"], v["text"], v.get("ruling", "")), v.get("base_die")) for k, v in raw["additional"].items()}),
        )

    def points(self, kind: str) -> FirePoints:
        return self.musketry if kind == "musketry" else self.cannonade

    def next_lower(self, effect: str) -> str | None:
        """The effect one step weaker (what a massed target behind suffers)."""
        order = list(self.effects)
        i = order.index(effect)
        return order[i - 1] if i > 0 else None


@frozen
class ChargeSide:
    """What a charge result does to one side (troops); guns and the rest are in ``text``."""

    text: str
    stands_lost: int = 0
    extra_stands_over: int | None = None
    lose_stand_if_disordered: bool = False
    extra_stand_if_cavalry_or_outflanked: bool = False
    disordered: bool = False
    retreat: str = "none"
    carries: str = "no"
    breakthrough: bool = False
    fallen_leader_check: bool = False

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> ChargeSide:
        return cls(
            raw["text"], raw.get("stands_lost", 0), raw.get("extra_stands_over"), raw.get("lose_stand_if_disordered", False),
            raw.get("extra_stand_if_cavalry_or_outflanked", False), raw.get("disordered", False), raw.get("retreat", "none"),
            raw.get("carries", "no"), raw.get("breakthrough", False), raw.get("fallen_leader_check", False),
        )

    def losses(self, margin: int) -> int:
        """Stands lost when this side lost by ``margin`` (the size of the difference)."""
        over = 0 if self.extra_stands_over is None else max(0, margin - self.extra_stands_over)
        return self.stands_lost + over


@frozen
class ChargeEffect:
    effect: Effect
    attacker: ChargeSide
    defender: ChargeSide
    reroll: bool = False
    drops_modifiers: tuple[str, ...] = ()


@frozen
class ChargeTable:
    title: str
    ref: str
    modifiers: Mapping[str, ModifierRow]
    results_title: str
    results_ref: str
    bands: Bands[str]
    effects: Mapping[str, ChargeEffect]

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> ChargeTable:
        effects = {
            k: ChargeEffect(
                Effect(k, v["name"], "", v.get("ruling", "")), ChargeSide.from_toml(v["attacker"]), ChargeSide.from_toml(v["defender"]),
                v.get("reroll", False), tuple(v.get("drops_modifiers", ())),
            )
            for k, v in raw["effects"].items()
        }
        res = raw["results"]
        return cls(raw["title"], raw["ref"], _modifiers(raw["modifiers"]), res["title"], res["ref"], Bands.from_rows(res["bands"]), _ro(effects))


@frozen
class FallenLeaderTable:
    title: str
    ref: str
    bands: Bands[str]
    effects: Mapping[str, tuple[Effect, str]]  # id -> (effect, leader outcome)

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> FallenLeaderTable:
        effects = {k: (Effect(k, v["name"], v["text"], v.get("ruling", "")), v["leader"]) for k, v in raw["effects"].items()}
        return cls(raw["title"], raw["ref"], Bands.from_rows(raw["bands"]), _ro(effects))


@frozen
class WeaponClass:
    """A neutral weapon or gun type as an rff class (or an experience as a grade)."""

    neutral: str
    code: str
    ref: str
    flags: tuple[str, ...] = ()
    ruling: str = ""


@frozen
class WeaponTable:
    title: str
    ref: str
    weapons: Mapping[str, WeaponClass]
    guns: Mapping[str, WeaponClass]
    experience: Mapping[str, WeaponClass]  # code = the grade

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> WeaponTable:
        def classes(section: str, code: str) -> Mapping[str, WeaponClass]:
            return _ro({k: WeaponClass(k, v[code], v["ref"], tuple(v.get("flags", ())), v.get("ruling", "")) for k, v in raw[section].items()})

        return cls(raw["title"], raw["ref"], classes("weapons", "code"), classes("guns", "code"), classes("experience", "grade"))


@frozen
class Distance:
    """An optional rule's distance: as printed for 15mm and converted for the 6mm sheet."""

    label: str
    inches_15mm: Fraction
    inches: Fraction


@frozen(eq=False)
class RffTables:
    """Every table of the QRS II (and the optional rules' list), immutable. Hashes by identity."""

    scale: Scale
    scale_ref: str
    close_range_inches: Fraction
    maneuver: ManeuverTable
    movement: MovementTable
    maneuvers: Mapping[str, Mapping[str, ManeuverList]]  # "troops"/"guns" -> effect -> list
    maneuvers_ref: str
    fire: FireTable
    charge: ChargeTable
    fallen_leader: FallenLeaderTable
    weapons: WeaponTable
    options: tuple[OptionSpec, ...]
    procedures: Mapping[str, Any]  # numbers set by the procedure rulings (procedures.toml)
    distances: Mapping[str, Mapping[str, Distance]] = field(factory=dict)  # option -> name -> distance
    numbers: Mapping[str, Mapping[str, Fraction]] = field(factory=dict)  # option -> name -> a number it prints (turns, degrees)


# ----------------------------------------------------------------------------- loading


def build_tables(files: Mapping[str, TomlFile]) -> RffTables:
    """Typed tables from checked files; cross-file problems raise :class:`InvalidInput`."""
    problems = _cross_problems(files)
    if problems:
        raise InvalidInput(problems, what="ruleset rff tables")
    raw = {name: f.data for name, f in files.items()}
    scale = raw["scale"]
    opts = raw["options"]["options"]
    return RffTables(
        scale=Scale(
            yards_per_inch=float(Fraction(to_fraction(scale["ground_yards"]) or 0) / (to_fraction(scale["ground_inches"]) or 1)),
            men_per_piece=scale["men_per_piece"], piece=scale["piece"], guns_per_model=scale["guns_per_model"],
            minutes_per_turn=scale["minutes_per_turn"], ruling=scale.get("minutes_ruling", ""),
        ),
        scale_ref=scale["ref"],
        close_range_inches=to_fraction(scale["close_range_inches"]) or Fraction(0),
        maneuver=ManeuverTable.from_toml(raw["maneuver"]),
        movement=MovementTable.from_toml(raw["movement"]),
        maneuvers=_ro({side: _maneuver_lists(raw["maneuvers"][side]) for side in ("troops", "guns")}),
        maneuvers_ref=raw["maneuvers"]["ref"],
        fire=FireTable.from_toml(raw["fire"]),
        charge=ChargeTable.from_toml(raw["charge"]),
        fallen_leader=FallenLeaderTable.from_toml(raw["fallen_leader"]),
        weapons=WeaponTable.from_toml(raw["weapons"]),
        options=tuple(OptionSpec(k, v["title"], v["ref"], v["summary"], v.get("in_qrs2", False)) for k, v in opts.items()),
        procedures=_ro(raw["procedures"]),
        distances=_ro({
            k: _ro({d: Distance(e["label"], to_fraction(e["inches_15mm"]) or Fraction(0), to_fraction(e["inches"]) or Fraction(0)) for d, e in v.get("distances", {}).items()})
            for k, v in opts.items()
        }),
        numbers=_ro({k: _ro({n: to_fraction(e["value"]) or Fraction(0) for n, e in v.get("numbers", {}).items()}) for k, v in opts.items()}),
    )


def _cross_problems(files: Mapping[str, TomlFile]) -> list[Problem]:
    """Checks that span files: weapon codes have fire points, items name known options."""
    out: list[Problem] = []
    fire, weapons = files["fire"], files["weapons"]
    for section, kind in (("weapons", "musketry"), ("guns", "cannonade")):
        codes = {c for row in fire.data[kind]["rows"].values() for c in row["codes"]}
        for name, entry in weapons.data[section].items():
            if entry["code"] not in codes:
                out.append(weapons.where.problem(f"{section}.{name}.code", f"{entry['code']!r} has no row in the {kind} fire points (valid: {', '.join(sorted(codes))})"))
    options = set(files["options"].data["options"])
    for side, lists in files["maneuvers"].data.items():
        if side not in ("troops", "guns"):
            continue
        for key, entry in lists.items():
            for i, item in enumerate(entry["items"]):
                if item.get("option") and item["option"] not in options:
                    out.append(files["maneuvers"].where.problem(f"{side}.{key}.items[{i}].option", f"unknown option {item['option']!r}"))
    return out


TABLES = TableSource(RULESET, SCHEMA, build_tables)
"""The tables, with a stack's overlays laid over them, each read, checked and built once."""
load_with_overlays = TABLES.load  # the tables with house-rule data overlays applied in order


def load_tables() -> RffTables:
    """The ruleset's own tables, read and checked once."""
    return TABLES.load()


# ----------------------------------------------------------------------------- display


def _sign(n: int | Fraction) -> str:
    return f"{n:+d}" if isinstance(n, int) and n else str(n)


def _frac(x: Fraction | None) -> str:
    if x is None:
        return BLANK
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _in(x: Fraction | None) -> str:
    return BLANK if x is None else f'{float(x):g}"'


def _rulings(rows: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Notes naming the rulings behind ruled cells: (what, ruling id) pairs."""
    seen: dict[str, list[str]] = {}
    for what, ruling in rows:
        if ruling and what not in seen.setdefault(ruling, []):
            seen[ruling].append(what)
    return tuple(f"ruling {r}: {', '.join(w)} (see docs/rulings/{r.split('-', 1)[0].lower()}.md)" for r, w in sorted(seen.items(), key=lambda kv: _ruling_order(kv[0])))


def _ruling_order(ruling: str) -> tuple[str, int]:
    """RFF-T2 before RFF-T11; a layer's ids (HYNDS-F1) sort by their own prefix and number."""
    head = ruling.rstrip("0123456789")
    return head, int(ruling[len(head):] or 0)


def _modifier_table(title: str, ref: str, rows: Iterable[ModifierRow]) -> Table:
    rows = tuple(rows)
    return Table(title, ref, ("modifier", "id", "condition"), tuple((_sign(m.value) if m.value else "0", m.id, m.label) for m in rows), _rulings((m.label, m.ruling) for m in rows))


def _band_table(col: BandColumn) -> Table:
    rows = tuple((b.text(), col.effects[b.result].effect.name, col.effects[b.result].effect.text) for b in col.bands.highest_first())
    rulings = _rulings((col.effects[b.result].effect.name, col.effects[b.result].effect.ruling) for b in col.bands.highest_first())
    return Table(col.title, col.ref, ("die result", "effect", "text"), rows, rulings)


def display_tables(t: RffTables) -> dict[str, Table]:
    """Every table as the ruleset reads it, by name."""
    m, f, c = t.maneuver, t.fire, t.charge
    out: dict[str, Table] = {
        "scale": Table("Game Scale (6mm)", t.scale_ref, ("what", "value"), (
            ("ground", f'1" = {t.scale.yards_per_inch:g} yards'),
            ("troop stand", f"{t.scale.men_per_piece} men"),
            ("gun stand", f"{t.scale.guns_per_model} guns"),
            ("turn", f"{t.scale.minutes_per_turn} minutes"),
            ("close range", _in(t.close_range_inches)),
        ), _rulings((("turn", t.scale.ruling), ("close range", "RFF-T19")))),
        "command-radius": Table("Command Radius", f"{m.ref}, command radius", ("inches", "when"), tuple(
            (_in(inches) if inches is not None else "attached", label) for label, inches, _ in m.command_radius.values()
        )),
        "maneuver-modifiers": _modifier_table("Maneuver Die Roll Modifiers", f"{m.ref}, die roll modifiers", m.modifiers.values()),
        **{f"maneuver-{k}": _band_table(col) for k, col in m.columns.items()},
        "movement": Table(t.movement.title, t.movement.ref, ("arm", "formation", *t.movement.grounds.values()), tuple(
            (row.arm, row.label, *(str(row.rates[g]) if row.rates[g] else BLANK for g in t.movement.grounds)) for row in t.movement.rows
        ), ("full move / double quick, in inches",) + _rulings((f"{r.arm} {r.label}", r.ruling) for r in t.movement.rows) + _rulings([("road -", "RFF-T16")])),
    }
    for side, lists in t.maneuvers.items():
        items = [(lst.title, i) for lst in lists.values() for i in lst.items]
        out[f"{side[:-1]}-maneuvers"] = Table(f"{side[:-1].capitalize()} Maneuvers", t.maneuvers_ref, ("effect", "maneuver", "note", "optional rule"), tuple(
            (title, ("half move and " if i.with_half_move else "") + i.text, i.note, i.option) for title, i in items
        ), _rulings((i.id, i.ruling) for _, i in items))
    for kind in KINDS:
        pts = f.points(kind)
        out[f"{kind}-fire-points"] = Table(pts.title, pts.ref, ("weapon", *(_in(b) for b in pts.bands_inches)), tuple(
            (row.label, *(_frac(p) for p in row.points)) for row in pts.rows
        ), (f'close range = the first {pts.close_range_bands} band(s); "-" = out of range',) + _rulings((r.label, r.ruling) for r in pts.rows))
    out["fire-modifiers"] = Table("Fire Die Roll Modifiers", f"{f.ref}, die roll modifiers", ("modifier", "condition"), (
        *((_sign(b.result) if b.result else "0", b.text()) for b in f.column.bands),
        *((f"x {_frac(x.value)}", x.label) for x in f.multipliers.values()),
        *((_sign(mod.value), mod.label) for mod in f.modifiers.values()),
    ), _rulings([("fractional fire points", f.column_ruling)]))
    out["fire-effects"] = Table("Fire Effects", f"{f.ref}, die result by target", ("effect", *GRADES, "text"), tuple(
        (e.effect.name, *(", ".join(b.text() for b in f.grades[g].bands if b.result == key) or BLANK for g in GRADES), e.effect.text)
        for key, e in reversed(list(f.effects.items()))
    ), _rulings([(e.effect.name, e.effect.ruling) for e in f.effects.values()] + [(b.result, b.ruling) for g in GRADES for b in f.grades[g].bands]))
    out["fire-additional-effects"] = Table("Additional Effects", f"{f.ref}, additional effects", ("effect", "text"), tuple(
        (e.name, e.text) for e, _ in f.additional.values()
    ), _rulings((e.name, e.ruling) for e, _ in f.additional.values()))
    out["charge-modifiers"] = _modifier_table("Charge Die Roll Modifiers", f"{c.ref}, die roll modifiers", c.modifiers.values())
    out["charge-results"] = Table(c.results_title, c.results_ref, ("die result difference", "effect", "defender", "attacker"), tuple(
        (b.text(), c.effects[b.result].effect.name, c.effects[b.result].defender.text, c.effects[b.result].attacker.text) for b in c.bands.highest_first()
    ), _rulings([(b.result, b.ruling) for b in c.bands.bands] + [(e.effect.name, e.effect.ruling) for e in c.effects.values()]))
    fl = t.fallen_leader
    out["fallen-leader"] = Table(fl.title, fl.ref, ("die result", "effect", "leader", "text"), tuple(
        (b.text(), fl.effects[b.result][0].name, fl.effects[b.result][1], fl.effects[b.result][0].text) for b in fl.bands.highest_first()
    ), _rulings((e.name, e.ruling) for e, _ in fl.effects.values()))
    w = t.weapons
    out["weapons"] = Table(w.title, w.ref, ("kind", "neutral name", "rff", "flags"), tuple(
        (kind, x.neutral, x.code, ", ".join(x.flags)) for kind, group in (("weapon", w.weapons), ("gun", w.guns), ("experience", w.experience)) for x in group.values()
    ), _rulings((x.neutral, x.ruling) for group in (w.weapons, w.guns, w.experience) for x in group.values()))
    out["options"] = Table("Optional Rules", "RFF optional rules", ("name", "title", "ref", "summary"), tuple(
        (o.name, o.title, o.ref, o.summary) for o in t.options
    ), tuple(
        f"{name}: {d.label}: {_in(d.inches_15mm)} (15mm) -> {_in(d.inches)} (6mm, ruling RFF-T6)" for name, ds in t.distances.items() for d in ds.values()
    ))
    return out

