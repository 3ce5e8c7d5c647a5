"""Typed, checked access to the Raising Sumter tables (``rulesets/sumter/*.toml``).

The schema, and :func:`build` of :class:`SumterTables` from the checked files, for ``TABLES``
(a :class:`~referee.api.TableSource`: the files read and checked once, a stack's data house rules
laid over them, each built once); :meth:`SumterTables.with_options` lays the chosen options'
changes over them (kept on the tables they are laid over); :func:`display_tables` gives each table
for ``referee tables``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from attrs import field, frozen
from referee.api import (
    AVERAGE,
    D6,
    Bands,
    BandsOf,
    Bool,
    Check,
    Int,
    InvalidInput,
    ListOf,
    MapOf,
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
    apply_overlay,
    d,
    to_fraction,
    world,
)

RULESET = "sumter"
GRADES = ("veteran", "regular", "trained", "raw")
RATINGS = ("excellent", "average", "poor")
ORDERS = ("assault", "engage", "support", "move", "hold", "retire")
STANCES = ("assault", "engage", "support", "advance", "hold", "withdraw")
DICE = ("ave", "d6", "d5")
DIE = {"ave": AVERAGE, "d6": D6, "d5": d(5)}  # the movement table's dice by name
COLUMNS = ("column", "march-column", "limbered")  # the formations that move on the table's column dice
TEXT = Str()
HEAD = {"title": TEXT, "ref": TEXT}
INTS = MapOf(Int())
HITS = ListOf(Int(minimum=0), min_len=10, max_len=10)


def _has(keys: tuple[str, ...]) -> Any:
    def check(table: Mapping[str, Any]) -> Any:
        missing = [k for k in keys if k not in table]
        return [("", f"missing entries for {', '.join(missing)}")] if missing else []
    return check


def _full(spec: Spec, keys: tuple[str, ...]) -> Spec:
    return Check(MapOf(spec, keys=keys), _has(keys))


RATE = Record({"label": TEXT, "die": Str(DICE), "line": ListOf(Int(minimum=1), min_len=1), "column": Int(minimum=0),
               "column_inches": Int(minimum=0), "charge_inches": Int(minimum=0), "charge_dice": Int(minimum=0),
               "skirmish": Int(minimum=0), "retreat": Int(minimum=0), "retreat_die": Str(DICE), "pursuit": Int(minimum=0)})
RATES = ("foot-good", "foot-poor", "horse-good", "horse-poor", "foot-artillery", "horse-artillery")
CHANGES = ("column-line-good", "column-line", "line-column-good", "line-column", "to-skirmish", "from-skirmish", "limber",
           "limber-heavy")
ORDER_OR_NA = Str(("", *ORDERS))
CELL = Str()
MORALE_ROW = {"charge": CELL, "charged": CELL, "other": CELL, "rally": CELL}

class AnyTable:
    """A table of any keys: an option's changes to one table file, checked when laid over it."""

    def check(self, value: Any, path: str, out: list[tuple[str, str]]) -> None:
        if not isinstance(value, dict):
            out.append((path, f"expected a table of changes, got {type(value).__name__}"))

    def describe(self) -> str:
        return "a table of changes"


SCHEMA: dict[str, Spec] = {
    "scale": Record({
        **HEAD, "yards_per_inch": Number(minimum=1), "men_per_figure": Int(minimum=1), "guns_per_model": Int(minimum=1),
        "minutes_per_turn": Int(minimum=1), "command_inches": Number(minimum=0), "contact_inches": Number(minimum=0),
        "scale_ruling": TEXT, "grades": _full(Str(GRADES), world.EXPERIENCE), "generals": _full(Str(RATINGS), world.LEADER_RATINGS),
    }),
    "command": Record({
        **HEAD, "dice": Int(minimum=1), "cinc_cockup": ListOf(Int()), "general_cockup": ListOf(Int()), "ruling": TEXT,
        "aggression": _full(Int(), ORDERS), "loss_of_nerve": _full(ORDER_OR_NA, ORDERS), "panic": _full(ORDER_OR_NA, ORDERS),
        "from_stance": _full(Str(ORDERS), STANCES),
    }),
    "movement": Record({
        **HEAD, "dp_faces": ListOf(Int()), "skirmish_dp_most": Int(minimum=0), "fire_after_share": Number(minimum=0),
        "march_inches_foot": Number(minimum=0), "march_inches_fast": Number(minimum=0), "march_stop_inches": Number(minimum=0),
        "march_brigades": Int(minimum=0), "manhandle_inches": Number(minimum=0),
        "battery_pass_dps": Int(minimum=0),
        "rates": _full(RATE, RATES), "changes": _full(Number(minimum=0), CHANGES),
    }),
    "fire": Record({
        **HEAD, "dice": Int(minimum=1), "most_figures": Int(minimum=1), "column_share": Number(minimum=0),
        "long_share": Number(minimum=0), "over_score": TEXT,
        "ranges": _full(ListOf(Number(minimum=0), min_len=2, max_len=2), (*world.WEAPONS, "pistol")),
        "firer": INTS, "target": INTS,
        "weapons": Record({"breechloader": ListOf(Str(world.WEAPONS)), "smoothbore": ListOf(Str(world.WEAPONS)),
                           "pour_double": ListOf(Str(world.WEAPONS)), "pour_half": ListOf(Str(world.WEAPONS))}),
        "columns": ListOf(TEXT, min_len=10, max_len=10),
        "casualties": ListOf(Record({"label": TEXT, "min": Int(minimum=1), "max": Int(minimum=1), "hits": HITS})),
        "semi_hits": MapOf(Int(minimum=1, maximum=12)),
        "skirmish": Record({"hit_on": Int(minimum=1, maximum=6), "figures_per_die": _full(Int(minimum=1), GRADES),
                            "sniper_hit_on": Int(minimum=1, maximum=6), "cover_share": Number(minimum=0)}),
        "recall": Record({"score": _full(Int(), GRADES), "few_deployed": Int(), "far_from_enemy": Int(), "far_inches": Number(minimum=0),
                          "dp": Int(), "general": Int()}),
    }),
    "artillery": Record({
        **HEAD, "most_models": Int(minimum=1), "bounce_inches": Number(minimum=0), "bounce_share": Number(minimum=0),
        "heavy_double_most": Int(minimum=1, maximum=6),
        "bands": _full(ListOf(Number(minimum=0), min_len=3, max_len=3), ("1", "2", "3", "4")),
        "guns": _full(Record({"band": Int(minimum=1, maximum=4), "kind": Str(("6-pdr", "smoothbore", "rifle", "siege", "gatling"))},
                             {"heavy": Bool(), "naval": Bool()}), world.GUN_TYPES),
        "firer": INTS,
        "casualties": ListOf(Record({"label": TEXT, "min": Int(minimum=1), "max": Int(minimum=1), "hits": HITS})),
    }),
    "melee": Record({
        **HEAD, "dice": Int(minimum=1), "outnumber_most": Int(minimum=0), "charge_inches_cavalry": Number(minimum=0),
        "winner_dp": Int(minimum=0), "factors": INTS,
        "results": BandsOf(Str(("rout", "retreat", "pushed-back", "draw")), {"dps": Int(minimum=0)}),
        "casualties": MapOf(Int(minimum=1)),
        "pursuit": Record({"dice": Int(minimum=1), "veteran": Int(), "trained": Int(), "raw": Int(), "infantry": Int(),
                           "general": Int(), "rebel-yell": Int(),
                           "results": BandsOf(Str(("formed", "stand", "halt", "pursue")), {"dps": Int()})}),
    }),
    "options": Record({**HEAD, "options": MapOf(Record({"title": TEXT, "ref": TEXT, "summary": TEXT, "group": TEXT},
                                                       {"men": Int(minimum=1), "set": MapOf(AnyTable())}))}),
    "morale": Record({
        **HEAD, "dice": Int(minimum=1), "near_inches": Number(minimum=0), "dp_cap": Int(minimum=1), "hits_to_dps": Int(minimum=0),
        "unit": INTS,
        "results": ListOf(Record(MORALE_ROW, {"min": Int(), "max": Int(), "label": TEXT})),
        "brigade": INTS, "removal": INTS,
    }),
}


@frozen(eq=False)  # hashed by identity: one loaded table set
class SumterTables:
    """The tables, and what is read from them once: casualty rows, bands, and every share and
    reach as a number."""

    files: Mapping[str, TomlFile]  # the checked files these tables are built from (options are laid over them)
    raw: Mapping[str, Any]
    scale: Scale
    fire_rows: tuple[tuple[int, ...], ...]  # figures firing (0..most) -> the row's hits by column
    gun_rows: tuple[tuple[int, ...], ...]  # gun models firing (0..most) -> the row's hits by column
    melee_results: Bands[str]
    melee_dps: Bands[int]
    pursuit: Bands[tuple[str, int]]
    morale: Bands[Mapping[str, str]]
    options: tuple[OptionSpec, ...]
    figure_men: Mapping[str, int]  # option -> men per figure
    option_sets: Mapping[str, Mapping[str, Any]]  # option -> the table changes it makes (file -> keys)
    long_portion: tuple[Fraction, Fraction, Fraction]  # the hits kept when 0, 1 or 2 of long range and low ammunition apply
    column_share: Fraction  # the figures of a column that fire
    cover_share: Fraction  # the hits skirmish fire keeps on a target in cover
    bounce_share: Fraction  # the hits a bounce-thru carries on
    fire_after: Fraction  # the most of its move a unit may use and fire
    changes: Mapping[str, Fraction]  # formation change -> the share of a move it costs
    firearm_reach: Mapping[str, float]  # firearm -> the inches of its long range
    gun_reach: Mapping[str, float]  # gun type -> the inches of its band's long range
    charge_reach: Mapping[str, float]  # movement rate -> the inches its charge reaches one time in two (ruling SU-CR1)
    move_reach: Mapping[tuple[str, str], float]  # (movement rate, formation) -> the inches its move covers one time in two (SU-CR3)
    firearm_ranges: Mapping[str, tuple[float, float]]  # firearm -> its effective and close range, inches (SU-CR2)
    gun_ranges: Mapping[str, tuple[float, float]]  # gun type -> its band's effective and close (canister) range, inches (SU-CR2)
    optioned: dict[tuple[str, ...], SumterTables] = field(factory=dict, repr=False)
    """Cache of :meth:`with_options`: chosen options -> these tables with their changes laid over
    (every game of a stack with those options asks; the tables never change, so nothing is cleared)."""

    def with_options(self, options: tuple[str, ...]) -> SumterTables:
        """These tables with each option's ``set`` tables laid over them (as an overlay, so they
        are checked); options that change no table are passed over."""
        laid = self.optioned.get(options)
        if laid is None:
            files = self.files
            for name in options:
                if name in self.option_sets:
                    files = apply_overlay(files, f"option {name}", SCHEMA, text=_toml(self.option_sets[name]))
            laid = self.optioned[options] = build(files)
        return laid

    def __getitem__(self, name: str) -> Any:
        return self.raw[name]


def _bands(rows: Any, convert: Any) -> Bands[Any]:
    return Bands.from_rows([{k: v for k, v in r.items() if k in ("min", "max")} | {"result": r, "label": r.get("label", "")}
                            for r in rows], convert)


def _rows(rows: Any, most: int) -> tuple[tuple[int, ...], ...]:
    """Row of each count 0..most (0 fires nothing); the rows must cover 1..most once."""
    out: list[tuple[int, ...] | None] = [(0,) * 10] + [None] * most
    for r in rows:
        for n in range(r["min"], min(r["max"], most) + 1):
            if out[n] is not None:
                raise InvalidInput([Problem(f"{n} is in two rows", path="casualties")], what="casualty rows")
            out[n] = tuple(r["hits"])
    missing = [n for n, row in enumerate(out) if row is None]
    if missing:
        raise InvalidInput([Problem(f"{missing[0]} is in no row (rows must cover 1 to {most})", path="casualties")], what="casualty rows")
    return tuple(out)  # type: ignore[arg-type]  # no row is None once none is missing


def move_dice(r: Mapping[str, Any], formation: str, most: bool) -> tuple[str, int, float]:
    """(die, count, fixed inches) of a move in ``formation`` on the movement table's row ``r``
    (column dice for a column, march column or limbered battery where the row has them, skirmish
    dice likewise, else the line's); ``most``: the larger number of a "1 or 2" (ruling SU-M4)."""
    if formation in COLUMNS and r["column"]:
        return r["die"], r["column"], r["column_inches"]
    if formation == "skirmish" and r["skirmish"]:
        return r["die"], r["skirmish"], 0.0
    return r["die"], r["line"][-1] if most else r["line"][0], 0.0


def _mean(die: str) -> float:
    """The mean of a movement die's faces."""
    return sum(DIE[die].faces) / len(DIE[die].faces)


def _charge_reach(r: Mapping[str, Any]) -> float:
    """SU-CR1: the expected throw of the charge dice of the movement table's row ``r`` (the line
    move's most dice and the charge bonus) plus the fixed inches: the distance a declared charge
    reaches one time in two."""
    return float((r["line"][-1] + r["charge_dice"]) * _mean(r["die"]) + r["charge_inches"])


def _move_reach(r: Mapping[str, Any], formation: str) -> float:
    """SU-CR3: the expected throw of a move in ``formation`` on the row ``r`` (its dice, the most
    of a "1 or 2", and the fixed inches), as SU-CR1 reads the charge dice."""
    die, count, inches = move_dice(r, formation, True)
    faces = DIE[die].faces
    return count * sum(faces) / len(faces) + inches


def _firearm_ranges(fire: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """SU-CR2: each firearm's effective range, which is also its close range (its effective band
    starts at the muzzle)."""
    return {w: (float(r[0]), float(r[0])) for w, r in fire["ranges"].items()}


def _gun_ranges(art: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """SU-CR2: each gun type's band's effective and canister ranges."""
    bands = {g: art["bands"][str(v["band"])] for g, v in art["guns"].items()}
    return {g: (float(b[1]), float(b[0])) for g, b in bands.items()}


def build(files: Mapping[str, TomlFile]) -> SumterTables:
    raw = {name: f.data for name, f in files.items()}
    s, fire, art, mv = raw["scale"], raw["fire"], raw["artillery"], raw["movement"]
    long = share(fire["long_share"])
    scale = Scale(float(to_fraction(s["yards_per_inch"]) or 1), s["men_per_figure"], "figure", s["guns_per_model"],
                  s["minutes_per_turn"], s["scale_ruling"])
    return SumterTables(
        files, raw, scale,
        _rows(raw["fire"]["casualties"], raw["fire"]["most_figures"]),
        _rows(raw["artillery"]["casualties"], raw["artillery"]["most_models"]),
        _bands(raw["melee"]["results"], lambda r: r["result"]),
        _bands(raw["melee"]["results"], lambda r: r["dps"]),
        _bands(raw["melee"]["pursuit"]["results"], lambda r: (r["result"], r["dps"])),
        _bands(raw["morale"]["results"], lambda r: {k: r[k] for k in MORALE_ROW}),
        tuple(OptionSpec(k, o["title"], o["ref"], o["summary"], group=o["group"]) for k, o in raw["options"]["options"].items()),
        {k: o["men"] for k, o in raw["options"]["options"].items() if "men" in o},
        {k: o["set"] for k, o in raw["options"]["options"].items() if "set" in o},
        (Fraction(1), long, long * long), share(fire["column_share"]), share(fire["skirmish"]["cover_share"]),
        share(art["bounce_share"]), share(mv["fire_after_share"]), {k: share(v) for k, v in mv["changes"].items()},
        {w: float(r[1]) for w, r in fire["ranges"].items()},
        {g: float(art["bands"][str(v["band"])][2]) for g, v in art["guns"].items()},
        {k: _charge_reach(r) for k, r in mv["rates"].items()},
        {(k, f): _move_reach(r, f) for k, r in mv["rates"].items() for f in world.FORMATIONS},
        _firearm_ranges(fire),
        _gun_ranges(art),
    )


TABLES = TableSource(RULESET, SCHEMA, build)
"""The tables, with a stack's overlays laid over them, each read, checked and built once."""


def load_tables() -> SumterTables:
    """The bundled tables, read and checked once."""
    return TABLES.load()


load_with_overlays = TABLES.load  # the tables with house rules' overlays laid over them, in order


def _toml(tables: Mapping[str, Any], prefix: str = "") -> str:
    """Nested tables of scalars as TOML text."""
    lines, subs = [], []
    for key, value in tables.items():
        if isinstance(value, dict):
            subs.append(_toml(value, f"{prefix}{key}."))
        else:
            lines.append(f"{key} = {_scalar(value)}")
    head = [f"[{prefix[:-1]}]"] if prefix and lines else []
    return "\n".join(head + lines + subs) + "\n"


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def share(value: Any) -> Fraction:
    """A table's "1/2" (or 1, 0.5) as a Fraction."""
    out = to_fraction(value)
    assert out is not None
    return out


def display_tables(t: SumterTables) -> dict[str, Table]:
    """Every table as ``referee tables`` prints it."""
    fire, art, mel, mor, cmd, mov = t["fire"], t["artillery"], t["melee"], t["morale"], t["command"], t["movement"]
    cols = tuple(fire["columns"])
    out = {
        "shooting-casualties": Table("Shooting Casualties", fire["ref"], ("Figures firing", *cols),
                                     tuple((r["label"], *map(str, r["hits"])) for r in fire["casualties"]),
                                     ("2D6 + modifiers (ruling SU-F1); long range or low ammo halve the hits; fractions are semi-hits on a D12",)),
        "artillery-casualties": Table("Artillery Casualties", art["ref"], ("Gun models firing", *cols),
                                      tuple((r["label"], *map(str, r["hits"])) for r in art["casualties"])),
        "semi-hits": Table("Semi-Hits", fire["ref"], ("fraction", "D12"), tuple((k, f"{v}-12") for k, v in fire["semi_hits"].items())),
        "artillery-bands": Table("Artillery ranges by band (inches)", art["ref"], ("band", "canister", "effective", "long", "guns (SU-A1)"),
                                 tuple((b, f"0-{r[0]}", f"{r[0] + 1}-{r[1]}", f"{r[1] + 1}-{r[2]}",
                                        ", ".join(g for g, v in art["guns"].items() if str(v["band"]) == b)) for b, r in art["bands"].items())),
        "firearm-ranges": Table("Firearm ranges (inches)", fire["ref"], ("firearm", "effective", "long"),
                                tuple((w, f"0-{r[0]}", f"{r[0] + 1}-{r[1]}") for w, r in fire["ranges"].items())),
        "fire-modifiers": Table("Infantry & Artillery Fire modifiers", fire["ref"], ("who", "modifier", "value"),
                                tuple(("firer", k, f"{v:+d}") for k, v in fire["firer"].items())
                                + tuple(("artillery", k, f"{v:+d}") for k, v in art["firer"].items())
                                + tuple(("target", k, f"{v:+d}") for k, v in fire["target"].items())),
        "melee": Table("Melee factors", mel["ref"], ("factor", "value"), tuple((k, f"{v:+d}") for k, v in mel["factors"].items())),
        "melee-results": Table("Melee Result", mel["ref"], ("difference", "loser", "DPs"),
                               tuple((r.get("label", ""), r["result"], str(r["dps"])) for r in mel["results"])),
        "melee-casualties": Table("Melee Casualties", mel["ref"], ("case", "one figure per"),
                                  tuple((k, str(v)) for k, v in mel["casualties"].items())),
        "unit-morale": Table("Unit Morale Test Results", mor["ref"], ("score", "to charge", "being charged", "other", "to rally"),
                             tuple((r["label"], r["charge"], r["charged"], r["other"], r["rally"]) for r in mor["results"])),
        "unit-morale-modifiers": Table("Unit Morale Test modifiers", mor["ref"], ("modifier", "value"),
                                       tuple((k, f"{v:+d}") for k, v in mor["unit"].items())),
        "brigade-morale": Table("Brigade Morale Test", mor["ref"], ("modifier", "value"),
                                tuple((k, f"{v:+d}" if k != "pass" else f"{v}+") for k, v in mor["brigade"].items())),
        "loss-of-nerve": Table("Cock-up: Loss of Nerve / Panic", cmd["ref"], ("present order", "loss of nerve", "panic"),
                               tuple((o, cmd["loss_of_nerve"][o] or "N/A", cmd["panic"][o] or "N/A") for o in ORDERS)),
        "movement": Table("Movement", mov["ref"], ("unit", "die", "line", "column", "charge", "skirmish", "retreat"),
                          tuple((r["label"], r["die"], " or ".join(map(str, r["line"])), f"{r['column']} +{r['column_inches']}\"",
                                 f"+{r['charge_inches']}\" +{r['charge_dice']} dice", str(r["skirmish"]), f"{r['retreat']} {r['retreat_die']}")
                                for r in mov["rates"].values())),
    }
    return out
